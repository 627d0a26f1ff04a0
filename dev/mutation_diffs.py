"""Print each named mutant's change as -/+ lines, read from a mutmut run's mutants/ tree (fast: no `mutmut show`).

    python dev/mutation_report.py --area tfsvm --survivors | grep -E ' (survived|no tests|timeout)$' \\
        | python dev/mutation_diffs.py > survivors.txt

Reads mutant names (first word of each line) from stdin; run inside the directory that holds mutants/ (or pass it).
"""
from __future__ import annotations

import ast
import difflib
import os
import sys


def _functions(root: str, module: str, cache: dict) -> dict:
    """{function name → source} of the mutmut functions of one mutated module."""
    if module not in cache:
        path = os.path.join(root, "mutants", *module.split(".")) + ".py"
        src = open(path, encoding="utf-8").read()
        lines = src.splitlines()
        cache[module] = {node.name: "\n".join(lines[node.lineno - 1:node.end_lineno])
                         for node in ast.walk(ast.parse(src))
                         if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and "__mutmut_" in node.name}
    return cache[module]


def diff(root: str, name: str, cache: dict) -> list[str]:
    parts = name.split(".")
    k = next(i for i, p in enumerate(parts) if p.startswith(("x_", "xǁ")))
    fns = _functions(root, ".".join(parts[:k]), cache)
    fn = ".".join(parts[k:])
    orig, mutant = fns.get(fn.rpartition("__mutmut_")[0] + "__mutmut_orig"), fns.get(fn)
    if orig is None or mutant is None:
        return ["  (source not found)"]
    base = fn.rpartition("__mutmut_")[0]
    a = orig.replace(base + "__mutmut_orig", base).splitlines()
    b = mutant.replace(fn, base).splitlines()
    return [line for line in difflib.unified_diff(a, b, lineterm="", n=0) if not line.startswith(("---", "+++", "@@"))]


def main() -> int:
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    cache: dict = {}
    for line in sys.stdin:
        name = line.split()[0] if line.strip() else ""
        if not name.startswith(("verify.", "lemmas.")):
            continue
        print("###", name)
        print("\n".join(diff(root, name, cache)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
