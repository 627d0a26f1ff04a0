"""First solution in float64 with cvxpy (Clarabel; SCS as a fallback for the nuclear norm).

Only a *guess*: the exact/polish stages decide everything. Rows are rescaled by one power of two
so that data with entries near 10^±30 still gives the float solver numbers near 1
(``A x ≥ b`` ⇔ ``(A/s)(s x) ≥ b``).
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


def _log2abs(q: Fraction) -> int:
    """⌊log2|q|⌋ up to ±1 (bit lengths; fast and overflow-free)."""
    return abs(q.numerator).bit_length() - q.denominator.bit_length()


def float_data(problem):
    """(A, b, s): float rows A = rows/s, b, with s = 2^k near the largest |entry|."""
    ent = [_log2abs(a) for r in problem.rows for a in r if a]
    k = int(round(max(ent))) if ent else 0
    s = Fraction(2) ** k
    if ent and max(ent) < 1000 and min(ent) > -1000:   # float(a) is then exact enough, no overflow
        A = np.array([[float(a) for a in r] for r in problem.rows], dtype=float) * 2.0 ** (-k)
    else:
        A = np.array([[float(a / s) for a in r] for r in problem.rows], dtype=float)
    b = np.array([float(v) for v in problem.rhs], dtype=float)
    return A, b, s


def solve_float(problem, norm: str | None = None) -> FloatSolution:
    import time

    import cvxpy as cp

    norm = norm or problem.norm
    t0 = time.perf_counter()
    A, b, s = float_data(problem)
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
        return FloatSolution(status, None, None, time.perf_counter() - t0)
    xs = np.asarray(x.value, dtype=float).ravel() / float(s)
    duals = np.asarray(con.dual_value, dtype=float).ravel()
    if norm in ("l2", "fro"):
        duals = duals / 2.0 / float(s) ** 2   # sum_squares = 2·(½‖x‖²); undo row scaling
    else:
        duals = duals / float(s)
    return FloatSolution("optimal", xs, duals, time.perf_counter() - t0)
