"""Benchmark: time to a certified SVM solution vs cvxpy's float64 solve of the same problem.

    python benchmarks/bench_svm.py [--quick]

For each kind and number of constraints m, a random feasible problem with 3-decimal data
(a planted separator guarantees feasibility) is solved (a) in float64 by ``solve_float`` (Clarabel called directly
for l2/fro/l1, through cvxpy for the nuclear norm) and
(b) by ``solve_svm`` at 60 and at 200 digits (which includes its own float solve). The ratio is
(b)/(a) measured in the same run (median of repeats). "digits" is the number of correct digits
of the reported objective: for the exact kinds the answer is compared with an independent exact
solve from scratch (no warm start; equal ⇒ every printed digit is right), for the nuclear norm
the 60-digit value is compared with the 200-digit one.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from fractions import Fraction as F

sys.path.insert(0, __file__.rsplit("/benchmarks/", 1)[0])

from flint import arb  # noqa: E402

from verify.numbers.precision import agreement_digits, working_precision  # noqa: E402
from verify.svm import problem_from_rows, solve_svm  # noqa: E402
from verify.svm.exact import solve_lp_exact, solve_qp_exact  # noqa: E402
from verify.svm.floatsolve import solve_float  # noqa: E402

DIMS = {"l2": 8, "fro": 16, "l1": 8, "nuc": 9}


def planted(m: int, n: int, seed: int):
    rng = random.Random(seed)
    p = [F(rng.randint(-3, 3)) for _ in range(n)]
    if not any(p):
        p[0] = F(1)
    pp = sum(v * v for v in p)
    rows = []
    for _ in range(m):
        a = [F(rng.randint(-1000, 1000), 1000) for _ in range(n)]
        marg = sum(x * y for x, y in zip(a, p))
        if marg < 1:
            shift = (1 - marg + F(rng.randint(0, 500), 1000)) / pp
            a = [x + shift * y for x, y in zip(a, p)]
        rows.append(tuple(a))
    return rows


def timeit(fn, reps):
    ts = []
    out = None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    sizes = [10, 50, 100, 200] if not args.quick else [10, 50]
    reps = 3 if not args.quick else 1
    # warm-up (imports — cvxpy only on the nuclear norm's path —, cvxpy canonicalisation caches)
    for norm, shape in (("l2", (3,)), ("nuc", (3, 3))):
        warm = problem_from_rows(planted(5, 9 if norm == "nuc" else 3, 0), [1] * 5, norm, shape=shape)
        solve_float(warm), solve_svm(warm, dps=60)
    print(f"{'norm':5} {'m':>4} {'dim':>4} {'float64 s':>10} {'60 dig s':>9} {'ratio60':>8} "
          f"{'200 dig s':>9} {'ratio200':>8} {'digits':>7}")
    for norm in ("l2", "fro", "l1", "nuc"):
        for m in sizes:
            n = DIMS[norm]
            shape = (3, 3) if norm == "nuc" else ((4, 4) if norm == "fro" else (n,))
            rows = planted(m, n, seed=m * 7 + len(norm))
            pr = problem_from_rows(rows, [1] * m, norm, shape=shape)
            tf, fs = timeit(lambda: solve_float(pr), reps)
            t60, r60 = timeit(lambda: solve_svm(pr, dps=60, check_unique=False), reps)
            t200, r200 = timeit(lambda: solve_svm(pr, dps=200, check_unique=False), reps)
            if norm in ("l2", "fro", "l1"):
                ref = (solve_qp_exact if norm != "l1" else solve_lp_exact)(pr.rows, pr.rhs)
                ok = ref[0] == "optimal" and r60.solution == ref[1] if norm != "l1" else \
                    (ref[0] == "optimal" and sum(abs(v) for v in ref[1]) == r60.objective)
                digits = "exact" if ok and r60.certificate.passed else "WRONG"
            else:
                with working_precision(200):
                    digits = str(agreement_digits(arb(r60.objective.mid()), arb(r200.objective.mid()), 200))
                digits += f"/{r60.stable_digits}c"
            print(f"{norm:5} {m:4d} {pr.dim:4d} {tf:10.4f} {t60:9.4f} {t60 / tf:8.2f} "
                  f"{t200:9.4f} {t200 / tf:8.2f} {digits:>7}", flush=True)


if __name__ == "__main__":
    main()
