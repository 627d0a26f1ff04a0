"""``python -m verify hunt <claim> --budget S``: long adversarial search; shrinks and saves failures."""
from __future__ import annotations

import sys

from verify.cli.common import Parser, path_flag, progress
from verify.data.inputs import parse_flag_number
from verify.numbers.precision import parse_precision

MAX_BUDGET = 10**7  # seconds (116 days): a finite search, so "inf" or "1e300" cannot mean "forever"


def budget_flag(text) -> float:
    """--budget: seconds, a positive finite number up to MAX_BUDGET (nan, inf, 0, negatives refused)."""
    return float(parse_flag_number(text, "--budget", positive=True, maximum=MAX_BUDGET))


def main(argv) -> int:
    from verify.claims import REGISTRY, run_claim
    from verify.data.outputs import check_folder
    from verify.search.hunt import hunt, save_counterexample

    p = Parser(prog="verify hunt")
    p.add_argument("claim")
    p.add_argument("--budget", default="600", help=f"seconds to search (default 600; at most {MAX_BUDGET})")
    p.add_argument("--precision", default=30, help="precision of the search (the find is confirmed higher)")
    p.add_argument("--out", default="reports/counterexamples", help="folder for counterexample JSON")
    a = p.parse_args(argv)
    budget = budget_flag(a.budget)
    dps = parse_precision(a.precision)
    out = path_flag(a.out, "--out")
    claim, note = REGISTRY.resolve(a.claim)
    check_folder(out, "--out", create=False)  # before the search: a find must not be lost for want of a place
    if note:
        print(f"verify: {note}", file=sys.stderr)
    with progress(None, f"hunt {claim.id}", False) as bar:
        found, tried = hunt(claim, budget, dps=dps, progress=bar.update)
    if found is None and not tried:  # a budget too short for even one dataset: nothing was searched
        print(f"{claim.id}: nothing was searched: the budget of {budget:g} s ended before the first "
              "generated dataset was checked (INCONCLUSIVE; give a longer --budget)")
        return 3
    if found is None:
        print(f"{claim.id}: no counterexample in {tried} generated datasets over {budget:g} s "
              "(evidence, not proof)")
        return 0
    confirm = run_claim(claim, [found], dps=max(dps, 50))
    path = save_counterexample(found, claim.id, out)
    opts = found.options_for(claim.id)
    with_opts = (" with " + ", ".join(f"{k} = {v}" for k, v in opts.items())) if opts else ""
    print(f"{claim.id}: counterexample{with_opts} after {tried} datasets, confirmed {confirm.verdict} at {confirm.precision} "
          f"digits; saved {path}\n  replay: python -m verify {claim.id} --data {path}")
    return 1 if confirm.verdict == "VIOLATED" else 3
