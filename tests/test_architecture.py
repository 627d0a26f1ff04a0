"""The layout is the architecture: packages in layers, imports flowing one way, no circles, and no
claim module importing another (what two claims share lives in the engine).

Every import counts, including those inside functions. docs/architecture.md describes the layers.
"""
from __future__ import annotations

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: lowest first; a module may import its own package and any package of a lower layer
LAYERS = [
    "verify.errors",
    "verify.numbers",
    "verify.data",
    "verify.models",
    "verify.svm",
    "verify.geometry",
    "verify.dynamics",
    "verify.report",
    "verify.claims",
    "verify.kit",
    "verify.experiments",
    "verify.search",
    "verify.cli",
]
TOP = {"verify", "verify.__main__"}  # the package facade and the entry point may import anything


def _modules(top: str):
    for root, _, files in os.walk(os.path.join(ROOT, top)):
        for f in sorted(files):
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(root, f), ROOT)[:-3].replace(os.sep, ".")
                yield rel[: -len(".__init__")] if rel.endswith(".__init__") else rel, os.path.join(root, f)


def _imports(module: str, path: str):
    """Absolute names of every module imported by ``module`` (relative imports resolved)."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    package = module if path.endswith("__init__.py") else module.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.add(name)
            out.update(f"{name}.{a.name}" for a in node.names)  # `from pkg import module`
    return out


def _layer(name: str):
    for k, prefix in enumerate(LAYERS):
        if name == prefix or name.startswith(prefix + "."):
            return k, prefix
    return None, None


MODULES = dict(_modules("verify"))
GRAPH = {m: {i for i in _imports(m, p) if i in MODULES and i != m} for m, p in MODULES.items()}


def test_every_engine_module_has_a_layer():
    assert [m for m in MODULES if m not in TOP and _layer(m)[0] is None] == []


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m not in TOP))
def test_imports_flow_down(module):
    mine, _ = _layer(module)
    upward = [i for i in GRAPH[module] if i not in TOP and (_layer(i)[0] is None or _layer(i)[0] > mine)]
    assert upward == [], f"{module} (layer {LAYERS[mine]}) imports a higher layer: {upward}"
    assert not any(i.startswith("lemmas") for i in _imports(module, MODULES[module])), "the engine never imports claims"


def test_no_import_circles():
    index, low, stack, on, cycles = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in GRAPH[v]:
            if w in TOP or w not in GRAPH:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(GRAPH):
        if v not in index and v not in TOP:
            visit(v)
    assert cycles == []


def test_no_claim_imports_another_claim():
    bad = []
    for module, path in _modules("lemmas"):
        for name in _imports(module, path):
            if name.startswith("lemmas"):
                bad.append(f"{module} imports {name}")
            if name.startswith("verify.cli"):
                bad.append(f"{module} imports the CLI ({name})")
    assert bad == []
