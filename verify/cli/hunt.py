"""``python -m verify hunt <claim> --budget S``: long adversarial search; shrinks and saves failures."""
from __future__ import annotations

import sys

from verify.cli.common import Parser, progress
from verify.numbers.precision import parse_precision


def main(argv) -> int:
    from verify.claims import REGISTRY, run_claim
    from verify.search.hunt import hunt, save_counterexample

    p = Parser(prog="verify hunt")
    p.add_argument("claim")
    p.add_argument("--budget", type=float, default=600, help="seconds to search (default 600)")
    p.add_argument("--precision", default=30, help="precision of the search (the find is confirmed higher)")
    p.add_argument("--out", default="reports/counterexamples", help="folder for counterexample JSON")
    a = p.parse_args(argv)
    if a.budget <= 0:
        from verify.errors import UsageError

        raise UsageError("--budget must be a positive number of seconds")
    dps = parse_precision(a.precision)
    claim, note = REGISTRY.resolve(a.claim)
    if note:
        print(f"verify: {note}", file=sys.stderr)
    with progress(None, f"hunt {claim.id}", False) as bar:
        found, tried = hunt(claim, a.budget, dps=dps, progress=bar.update)
    if found is None:
        print(f"{claim.id}: no counterexample in {tried} generated datasets over {a.budget:g} s "
              "(evidence, not proof)")
        return 0
    confirm = run_claim(claim, [found], dps=max(dps, 50))
    path = save_counterexample(found, claim.id, a.out)
    print(f"{claim.id}: counterexample after {tried} datasets, confirmed {confirm.verdict} at {confirm.precision} "
          f"digits; saved {path}\n  replay: python -m verify {claim.id} --data {path}")
    return 1 if confirm.verdict == "VIOLATED" else 3
