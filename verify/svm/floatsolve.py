"""First solution in float64: Clarabel called directly for the ℓ2/Frobenius QP and the ℓ1 LP, cvxpy (Clarabel; OSQP,
HiGHS or SCS as fallbacks) for the nuclear norm and whenever the direct call does not answer.

The direct call skips cvxpy's canonicalisation, ~8 ms per problem against ~1 ms for the solve itself on the small
SVMs the claims solve thousands of times (a hunt, a regularization path, a cone scan). Only a *guess*: the
exact/polish stages decide everything. Rows are rescaled by one power of two so that data with entries near
10^±30 still gives the float solver numbers near 1 (``A x ≥ b`` ⇔ ``(A/s)(s x) ≥ b``). Data or an answer that
float64 cannot hold even so (entries near 10^±300 and beyond) gives no guess (status "unknown"), never an
OverflowError.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from verify.errors import reraise_interrupt


@dataclass
class FloatSolution:
    status: str                 # "optimal" | "infeasible" | "unknown"
    x: np.ndarray | None        # flat solution (row-major for W), in the problem's own scale
    duals: np.ndarray | None    # multipliers of the rows (≥ 0), in the problem's own scale
    seconds: float = 0.0
    note: str | None = None     # why there is no guess, when it is not the solvers' failure


BEYOND_FLOAT = "the data's magnitudes (or the answer's) are beyond float64, which the first guess needs"


def _log2abs(q: Fraction) -> int:
    """⌊log2|q|⌋ up to ±1 (bit lengths; fast and overflow-free)."""
    return abs(q.numerator).bit_length() - q.denominator.bit_length()


def _float(q: Fraction) -> float:
    """q as a float64, saturating: ±inf beyond the float range, 0 below it (never OverflowError)."""
    try:
        return float(q)
    except OverflowError:
        return float("inf") if q > 0 else float("-inf")


def float_data(problem):
    """(A, b, k): float rows A = rows/2^k, b, with 2^k near the largest |entry|. Entries beyond the
    float range after the scaling saturate (the caller checks that A and b are finite)."""
    ent = [_log2abs(a) for r in problem.rows for a in r if a]
    k = int(round(max(ent))) if ent else 0
    if ent and max(ent) < 1000 and min(ent) > -1000:   # float(a) is then exact enough, no overflow
        A = np.array([[float(a) for a in r] for r in problem.rows], dtype=float) * 2.0 ** (-k)
    else:
        s = Fraction(2) ** k
        A = np.array([[_float(a / s) for a in r] for r in problem.rows], dtype=float)
    b = np.array([_float(v) for v in problem.rhs], dtype=float)
    return A, b, k


def solve_float(problem, norm: str | None = None) -> FloatSolution:
    import time

    norm = norm or problem.norm
    t0 = time.perf_counter()
    A, b, k = float_data(problem)
    if not (np.isfinite(A).all() and np.isfinite(b).all()):  # magnitudes float64 cannot hold: no guess
        return FloatSolution("unknown", None, None, time.perf_counter() - t0, BEYOND_FLOAT)
    direct = _clarabel_direct(A, b, norm) if norm in ("l2", "fro", "l1") else None
    status, x, duals = direct if direct is not None else _cvxpy(problem, A, b, norm)
    if status != "optimal":
        return FloatSolution(status, None, None, time.perf_counter() - t0)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):  # scaled back by 2^−k: may leave the range
        xs = np.ldexp(x, -k)
        if norm in ("l2", "fro"):
            duals = np.ldexp(duals / 2.0, -2 * k)   # sum_squares = 2·(½‖x‖²); undo row scaling
        else:
            duals = np.ldexp(duals, -k)
    if not (np.isfinite(xs).all() and np.isfinite(duals).all()):  # the answer is beyond float64: no guess
        return FloatSolution("unknown", None, None, time.perf_counter() - t0, BEYOND_FLOAT)
    return FloatSolution("optimal", xs, duals, time.perf_counter() - t0)


def _clarabel_direct(A: np.ndarray, b: np.ndarray, norm: str):
    """(status, x, duals) of min ‖x‖₂² or ‖x‖₁ s.t. Ax ≥ b from Clarabel in its own form (min ½zᵀPz + qᵀz,
    Gz + s = h, s ≥ 0), the duals scaled as cvxpy's (multipliers of Ax ≥ b for the objective ‖x‖₂² resp. ‖x‖₁);
    None when Clarabel neither solves the problem nor proves it infeasible (the cvxpy path then tries its
    solvers)."""
    import clarabel
    from scipy import sparse

    m, n = A.shape
    if norm == "l1":  # z = (x, t): min Σt s.t. Ax ≥ b, t − x ≥ 0, t + x ≥ 0
        eye = sparse.identity(n, format="csc")
        G = sparse.vstack([sparse.hstack([-sparse.csc_matrix(A), sparse.csc_matrix((m, n))]),
                           sparse.hstack([eye, -eye]), sparse.hstack([-eye, -eye])], format="csc")
        h = np.concatenate([-b, np.zeros(2 * n)])
        P = sparse.csc_matrix((2 * n, 2 * n))
        q = np.concatenate([np.zeros(n), np.ones(n)])
    else:  # ‖x‖₂² = ½xᵀ(2I)x
        G, h = sparse.csc_matrix(-A), -b
        P, q = 2.0 * sparse.identity(n, format="csc"), np.zeros(n)
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    try:
        solver = clarabel.DefaultSolver(P, q, G, h, [clarabel.NonnegativeConeT(G.shape[0])], settings)
        sol = solver.solve()
    except Exception as exc:  # noqa: BLE001 - any solver failure just means "ask cvxpy"
        reraise_interrupt(exc)
        return None
    status = str(sol.status)
    if status in ("Solved", "AlmostSolved"):
        return "optimal", np.asarray(sol.x, dtype=float)[:n], np.asarray(sol.z, dtype=float)[:m]
    if status in ("PrimalInfeasible", "AlmostPrimalInfeasible"):
        return "infeasible", None, None
    return None


def _cvxpy(problem, A: np.ndarray, b: np.ndarray, norm: str):
    """(status, x, duals) from cvxpy, trying its solvers in turn (the nuclear norm; a fallback)."""
    import cvxpy as cp

    n = A.shape[1]
    if norm == "nuc":
        d = problem.shape[0]
        Wv = cp.Variable((d, d))
        x = cp.vec(Wv, order="C")
        obj = cp.normNuc(Wv)
        solvers = ("CLARABEL", "SCS")
    else:
        x = cp.Variable(n)
        obj = cp.sum_squares(x) if norm in ("l2", "fro") else cp.norm1(x)
        solvers = ("CLARABEL", "HIGHS") if norm == "l1" else ("CLARABEL", "OSQP")
    con = A @ x >= b
    prob = cp.Problem(cp.Minimize(obj), [con])
    status = "unknown"
    for solver in solvers:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                prob.solve(solver=solver)
        except Exception as exc:  # noqa: BLE001 - any solver failure just means "no guess"
            reraise_interrupt(exc)
            continue
        if prob.status in ("optimal", "optimal_inaccurate"):
            status = "optimal"
            break
        if prob.status in ("infeasible", "infeasible_inaccurate"):
            status = "infeasible"
            break
    if status != "optimal":
        return status, None, None
    return status, np.asarray(x.value, dtype=float).ravel(), np.asarray(con.dual_value, dtype=float).ravel()
