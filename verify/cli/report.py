"""``verify report [--paper P] --report DIR``: rewrite the per-paper pages DIR/<paper>.md from the claims' report
JSON already in DIR (written by ``verify all --report DIR`` or ``verify <claim> --report DIR``), without re-running
anything. Exit 0 (the pages' paths on stdout), 2 for a usage error (no --report, an unknown paper), 5 when DIR holds
no claim report."""
from __future__ import annotations

from verify.cli.common import Parser, path_flag
from verify.errors import DataError, UsageError


def main(argv) -> int:
    from verify.claims import REGISTRY
    from verify.claims.registry import PAPERS
    from verify.experiments import EXPERIMENTS
    from verify.report.paper import load_reports, write_paper_pages

    p = Parser(prog="verify report")
    p.add_argument("--paper", default=None, help=f"one of {', '.join(PAPERS)} (default: every paper with a report)")
    p.add_argument("--report", metavar="DIR", default=None, help="the folder holding the claims' report JSON")
    a = p.parse_args(argv)
    folder = path_flag(a.report, "--report")
    if not folder:
        raise UsageError("give --report DIR: the folder of a previous --report run")
    if a.paper is not None and a.paper not in PAPERS:
        raise UsageError(f"--paper: unknown paper {a.paper!r}; choose one of {', '.join(PAPERS)}")
    reports = load_reports(folder)
    if not reports or (a.paper and not any(js.get("paper") == a.paper for js in reports)):
        raise DataError(f"--report {folder}: no claim report" + (f" of {a.paper}" if a.paper else "") +
                        " there (run python -m verify all --report DIR first)")
    order = [c.id for c in REGISTRY.all()]
    catalog = [(e.id, e.paper, e.figure) for e in EXPERIMENTS.values()]
    for path in write_paper_pages(folder, [a.paper] if a.paper else None, order, catalog):
        print(path)
    return 0
