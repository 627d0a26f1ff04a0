"""Print each named mutant's change as -/+ lines, read from a mutmut run's mutants/ tree (fast: no `mutmut show`).

    python dev/mutation_report.py --area tfsvm --survivors | grep -E ' (survived|no tests|timeout)$' \\
        | python dev/mutation_diffs.py > survivors.txt

Reads mutant names (first word of each line) from stdin; run inside the directory that holds mutants/ (or pass it).
"""
from __future__ import annotations

import difflib
import os
import sys

from mutation_report import _functions  # dev/ is this script's own directory, first on sys.path


def _sources(root: str, module: str, cache: dict) -> dict:
    """{(function prefix, mutant suffix) → source lines} of one mutated module, as mutation_report parses it."""
    if module not in cache:
        path = os.path.join(root, "mutants", *module.split(".")) + ".py"
        lines = open(path, encoding="utf-8").read().splitlines()
        cache[module] = {(base, suffix): lines[node.lineno - 1:node.end_lineno]
                         for base, fns in _functions(path).items() for suffix, node in fns.items()}
    return cache[module]


def diff(root: str, name: str, cache: dict) -> list[str]:
    parts = name.split(".")
    k = next(i for i, p in enumerate(parts) if p.startswith(("x_", "xǁ")))
    base, _, suffix = ".".join(parts[k:]).rpartition("__mutmut_")
    sources = _sources(root, ".".join(parts[:k]), cache)
    orig, mutant = sources.get((base, "orig")), sources.get((base, suffix))
    if orig is None or mutant is None:
        return ["  (source not found)"]
    # the def lines differ by the mutant's name: drop it on both sides so only the change shows
    a = [orig[0].replace(f"{base}__mutmut_orig", base)] + orig[1:]
    b = [mutant[0].replace(f"{base}__mutmut_{suffix}", base)] + mutant[1:]
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
