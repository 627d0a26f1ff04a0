"""``solve_svm``: float first solution, then the exact (QP/LP) or polished (nuclear) answer with
its certificate, or a Farkas certificate when the constraints are infeasible."""
from __future__ import annotations

import time
from fractions import Fraction

import numpy as np
from flint import arb

from verify.errors import DataError
from verify.numbers.precision import working_precision
from verify.svm.certificate import active_exact, verify_certificate
from verify.svm.exact import solve_lp_exact, solve_qp_exact
from verify.svm.farkas import find_farkas, verify_farkas
from verify.svm.floatsolve import solve_float
from verify.svm.numeric import to_arb
from verify.svm.problems import Problem, build_problem
from verify.svm.result import SVMResult


def _warm_order(problem, fs, rel=1e-7) -> list[int]:
    if fs.status != "optimal":
        return []
    lam = np.asarray(fs.duals)
    if lam.size == 0:
        return []
    lmax = float(np.max(lam))
    cand = [j for j in range(problem.m) if lam[j] > rel * max(lmax, 1e-300)]
    return sorted(cand, key=lambda j: -lam[j])


def _stable_digits_interval(lo, hi, cap: int) -> int:
    if not (isinstance(hi, arb) and hi.is_finite()):
        return 0
    if lo == hi:
        return cap
    width = hi - lo
    mid = (hi + lo) / 2
    if not mid > 0:
        return 0
    if not width > 0:
        return cap
    import math
    v = float((mid / width).log_base(10).mid())
    return max(0, min(cap, int(math.floor(v))))


def solve_svm(data, kind: str = "p", select="opt", dps: int = 60, *, rank: int | None = None,
              support_set=None, check_unique: bool = True) -> SVMResult:
    """Solve and certify one SVM of the family (see ``problems.py`` for the kinds).

    ``data`` is a ``Dataset`` (or a ``Problem`` already built). ``select`` is ``"opt"``, a tuple of
    0-based token indices or ``"0,2,1"``. ``dps`` is the working precision in decimal digits.
    ``rank`` (KQ) adds the rank ≤ m report; ``support_set`` (relaxed) the set S.
    """
    t0 = time.perf_counter()
    if isinstance(data, Problem):
        problem = data
    else:
        if kind == "relaxed" and support_set is None:
            vres = solve_svm(data, "v", select, dps, check_unique=False)
            if vres.status != "optimal":
                raise DataError("the relaxed SVM (10) needs the label SVM on the selected tokens "
                                "to be feasible; it is not (Farkas certificate found)")
            support_set = sorted({i for i, _ in vres.support})
        problem = build_problem(data, kind, select, rank=rank, support_set=support_set)
    with working_precision(dps) as prec:
        res = _solve(problem, prec.dps, check_unique)
    res.seconds = time.perf_counter() - t0
    return res


def _infeasible(problem, far, dps) -> SVMResult:
    """"infeasible" only with a verified Farkas certificate; otherwise "unknown" (no certified answer)."""
    if far.passed:
        return SVMResult(problem.kind, "infeasible", problem.select, None, None, [], None, dps, True, None, None,
                         problem, dps, farkas=far)
    return SVMResult(problem.kind, "unknown", problem.select, None, None, [], None, 0, False, None, None, problem,
                     dps, farkas=far, notes=["the solver reported infeasible but its Farkas certificate did not verify"])


def _solve(problem, dps: int, check_unique: bool) -> SVMResult:
    if problem.m == 0:
        raise DataError("the SVM has no constraints (every sequence has a single token)")
    fs = solve_float(problem)
    if problem.norm in ("l2", "fro", "l1"):
        warm = _warm_order(problem, fs)
        if problem.norm == "l1":
            out = solve_lp_exact(problem.rows, problem.rhs, priority=warm)
        else:
            out = solve_qp_exact(problem.rows, problem.rhs, warm=warm)
        if out[0] == "infeasible":   # NNLS weights or the simplex ray; verify_farkas normalises
            return _infeasible(problem, verify_farkas(problem, out[1]), dps)
        _, x, lam = out
        cert = verify_certificate(problem, x, lam, dps)
        support = [problem.index[j] for j in active_exact(problem, x)]
        if problem.norm == "l1":
            objective = sum((abs(v) for v in x), Fraction(0))
            unique = None
            if check_unique:
                from verify.svm.face import l1_unique
                unique = l1_unique(problem, x, lam)
        else:
            objective = cert.upper            # ‖x‖: a Fraction when a perfect square, else arb
            unique = True
        status = "optimal" if cert.passed else "unknown"  # a failed certificate is never an answer
        res = SVMResult(problem.kind, status, problem.select, x, objective, support, cert,
                        dps if cert.passed else 0, True, unique, lam, problem, dps)
        if not cert.passed:
            res.notes.append("the exact solution did not pass its certificate: no certified answer")
        return res
    return _solve_nuclear(problem, fs, dps, check_unique)


def _solve_nuclear(problem, fs, dps, check_unique) -> SVMResult:
    from verify.svm.nuclear import polish_nuclear, rank_m_heuristic

    notes = []
    if fs.status != "optimal":
        far = find_farkas(problem)
        if far is not None:
            return _infeasible(problem, far, dps)
        return SVMResult(problem.kind, "unknown", problem.select, None, None, [], None, 0, False,
                         None, None, problem, dps,
                         notes=[f"{fs.note or 'the float SDP solvers failed on a feasible problem'}; no certified value"])
    pol = polish_nuclear(problem, fs.x, fs.duals)
    if not pol["converged"]:
        notes.append(f"Newton polish did not reach the working precision (rank {pol['rank']}, "
                     f"{len(pol['active'])} active rows); digits below are what the certificate proves")
    cert = verify_certificate(problem, pol["W"], pol["lam"], dps)
    if not pol["converged"] or not (cert.upper.is_finite()):
        # fall back to the raw float pair if it certifies a tighter interval
        cf = verify_certificate(problem, [arb(float(v)) for v in fs.x],
                                [arb(float(max(v, 0.0))) for v in fs.duals], dps)
        if cf.upper.is_finite() and (not cert.upper.is_finite() or cf.upper - cf.lower < cert.upper - cert.lower):
            cert = cf
            pol["W"] = [arb(float(v)) for v in fs.x]
            pol["lam"] = [arb(float(max(v, 0.0))) for v in fs.duals]
    lo, hi = cert.lower, cert.upper
    digits = _stable_digits_interval(lo, hi, dps)
    objective = (lo + hi) / 2 if hi.is_finite() else None
    status = "optimal" if hi.is_finite() else "unknown"
    tol = arb(10) ** (-(dps // 2))
    support = []
    for j in range(problem.m):
        val = sum((pol["W"][k] * to_arb(problem.rows[j][k]) for k in range(problem.dim)
                   if problem.rows[j][k]), arb(0))
        bj = to_arb(problem.rhs[j])
        if abs(val - bj) <= tol * max(1, abs(float(problem.rhs[j]))):
            support.append(problem.index[j])
    notes.append(f"support rows: slack <= 1e-{dps // 2} (solution polished to ~1e-{dps})")
    unique = None
    if check_unique and status == "optimal":
        from verify.svm.face import nuclear_unique
        unique = nuclear_unique(problem, pol['lam'], dps)
    res = SVMResult(problem.kind, status, problem.select, pol["W"], objective, support, cert, digits,
                    False, unique, pol["lam"], problem, dps, notes=notes)
    if problem.rank is not None and status == "optimal":
        rm = rank_m_heuristic(problem, pol["W"], problem.rank, lam=pol["lam"], dps=dps)
        rm["lower_bound"] = lo
        if rm.get("attained"):
            rm["upper_bound"] = hi
        elif rm.get("upper_bound") is not None and rm["upper_bound"] - hi <= arb(10) ** (-(dps // 2)) * hi:
            rm["attained"] = True
            rm["method"] += "; the heuristic point attains the convex lower bound, so it is optimal"
        res.rank_m = rm
    return res
