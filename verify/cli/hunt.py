"""``python -m verify hunt <claim>|all --budget S [--seeds N] [--scheduler tcp://HOST:PORT]``: long adversarial
search; shrinks and saves failures.

``hunt all`` hunts every claim in the registry's order; the budget is shared: each claim gets the time left divided
by the claims left (a claim that ends early, with a find or with its seeds done, leaves its time to the next ones).
``--seeds N`` searches the seeds 0..N−1 only (one hypothesis batch per seed, in order; stopped by the budget too): the
same seeds draw the same examples, so the find is the same on any machine. ``--scheduler`` runs the search on a Dask
cluster (``verify.cli.cluster.hunt_blocks``): tasks are (claim, seed block), so no two workers repeat a seed; a find
is shrunk on the worker, then confirmed at a higher precision here and saved as dataset JSON, as locally.
"""
from __future__ import annotations

import sys
import time

from verify.cli.common import Parser, path_flag, progress
from verify.data.inputs import parse_flag_int, parse_flag_number
from verify.numbers.precision import parse_precision

MAX_BUDGET = 10**7  # seconds (116 days): a finite search, so "inf" or "1e300" cannot mean "forever"
MAX_SEEDS = 10**9


UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}  # --budget 90s, 15m, 8h, 2d (a bare number is seconds)


def budget_flag(text) -> float:
    """--budget: a positive finite duration up to MAX_BUDGET seconds, in seconds or with a unit s/m/h/d
    (nan, inf, 0, negatives refused)."""
    s = str(text).strip()
    unit = UNITS.get(s[-1:].lower(), None) if s[-1:].isalpha() else 1
    number = s[:-1] if s[-1:].isalpha() else s
    if unit is None or not number:
        from verify.errors import UsageError

        raise UsageError(f"--budget must be seconds or a duration like 90s, 15m, 8h, 2d, got {text!r}")
    seconds = parse_flag_number(number, "--budget", positive=True) * unit
    if seconds > MAX_BUDGET:
        from verify.errors import UsageError

        raise UsageError(f"--budget must be at most {MAX_BUDGET} s ({MAX_BUDGET / 86400:.0f} days), got {text}")
    return float(seconds)


def main(argv) -> int:
    from verify.claims import REGISTRY
    from verify.data.outputs import check_folder

    p = Parser(prog="verify hunt")
    p.add_argument("claim", help="a claim id, or all (every claim, the budget shared)")
    p.add_argument("--budget", default="600", help="time to search: seconds, or 90s, 15m, 8h, 2d "
                   f"(default 600 s; at most {MAX_BUDGET} s)")
    p.add_argument("--precision", default=30, help="precision of the search (the find is confirmed higher)")
    p.add_argument("--out", default="reports/counterexamples", help="folder for counterexample JSON")
    p.add_argument("--seeds", default=None, help="search the seeds 0..N-1 only (one batch of examples each)")
    p.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                   help="search on this Dask scheduler's workers (pip install -e '.[cluster]')")
    a = p.parse_args(argv)
    budget = budget_flag(a.budget)
    dps = parse_precision(a.precision)
    out = path_flag(a.out, "--out")
    seeds = None if a.seeds is None else parse_flag_int(a.seeds, "--seeds", 1, MAX_SEEDS)
    scheduler = path_flag(a.scheduler, "--scheduler")
    if a.claim.strip() == "all":
        claims = REGISTRY.all()
    else:
        claim, note = REGISTRY.resolve(a.claim)
        claims = [claim]
        if note:
            print(f"verify: {note}", file=sys.stderr)
    check_folder(out, "--out", create=False)  # before the search: a find must not be lost for want of a place
    client = None
    if scheduler:
        from verify.cli import cluster

        client = cluster.connect(scheduler)  # an unreachable scheduler: one line, exit 3, before any search
    try:
        deadline = time.monotonic() + budget
        codes = []
        for k, claim in enumerate(claims):
            share = max(0.0, deadline - time.monotonic()) / (len(claims) - k)
            codes.append(_hunt_one(claim, share, dps, seeds, out, client))
    finally:
        if client is not None:
            cluster.close(client)
    return 1 if 1 in codes else 3 if 3 in codes else 0


def _hunt_one(claim, budget: float, dps: int, seeds, out: str, client) -> int:
    from verify.claims import run_claim
    from verify.search.hunt import hunt, save_counterexample, search_seeds

    with progress(None, f"hunt {claim.id}", False) as bar:
        if budget <= 0:  # hunt all: the claims before used the whole budget
            found, tried = None, 0
        elif client is not None:
            from verify.cli.cluster import hunt_blocks

            _, found, tried = hunt_blocks(client, claim.id, budget, dps, seeds=seeds, progress=bar.update)
        elif seeds is not None:
            _, found, tried = search_seeds(claim, range(seeds), dps=dps, seconds=budget)
        else:
            found, tried = hunt(claim, budget, dps=dps, progress=bar.update)
    what = f"{budget:g} s" + (f", seeds 0..{seeds - 1}" if seeds is not None else "")
    if found is None and not tried:  # a budget too short for even one dataset: nothing was searched
        print(f"{claim.id}: nothing was searched: the budget of {budget:g} s ended before the first "
              "generated dataset was checked (INCONCLUSIVE; give a longer --budget)")
        return 3
    if found is None:
        print(f"{claim.id}: no counterexample in {tried} generated datasets over {what} (evidence, not proof)")
        return 0
    confirm = run_claim(claim, [found], dps=max(dps, 50))
    path = save_counterexample(found, claim.id, out)
    opts = found.options_for(claim.id)
    with_opts = (" with " + ", ".join(f"{k} = {v}" for k, v in opts.items())) if opts else ""
    print(f"{claim.id}: counterexample{with_opts} after {tried} datasets, confirmed {confirm.verdict} at {confirm.precision} "
          f"digits; saved {path}\n  replay: python -m verify {claim.id} --data {path}")
    return 1 if confirm.verdict == "VIOLATED" else 3
