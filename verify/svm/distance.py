"""Distance from a direction to the SVM's optimal *set* (normalised), for non-unique solutions.

Exact for the ℓ2/Frobenius kinds (unique solution) and the ℓ1 kind (least-distance QP over the
exact optimal face); the nuclear kind uses a float64 SDP over the face (~1e-7, not certified).
"""
from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
from flint import arb, fmpq

from verify.numbers.precision import working_precision
from verify.svm.exact import solve_qp_exact
from verify.svm.face import _svd_unit_subspace, l1_face_constraints
from verify.svm.numeric import flatten, to_arb, to_exact
from verify.svm.result import SVMResult
from verify.svm.solve import solve_svm


def distance_to_solution_set(direction, problem, dps: int = 60, normalise: bool = True):
    """Euclidean/Frobenius distance from ``direction/‖direction‖`` to ``F/‖F‖`` (F the optimal
    set; both normalised in the SVM's own norm). ``problem`` is an ``SVMResult`` (preferred) or a
    ``Problem``/(dataset is not accepted: solve first). Returns an arb ball (exact kinds) or an arb
    from a float64 SDP (nuclear; accurate to ~1e-7). ``normalise=False`` (exact kinds only): the
    distance from the point ``direction`` itself to F itself (e.g. a margin-normalised Ŵ = W/µ(W),
    whose scale is already the SVM's: every point of F has minimum margin 1)."""
    res = problem if isinstance(problem, SVMResult) else solve_svm(problem, dps=dps)
    prob = res.problem
    if res.status != "optimal":
        raise ValueError("the SVM has no optimal set (status %s)" % res.status)
    u = flatten(direction)
    if len(u) != prob.dim:
        raise ValueError(f"direction has {len(u)} entries, the problem has {prob.dim}")
    with working_precision(dps):
        if prob.norm in ("l2", "fro"):
            ua = [to_arb(v) for v in u]
            nu = sum((v * v for v in ua), arb(0)).sqrt() if normalise else arb(1)
            xa = [to_arb(v) for v in res.solution]
            nx = sum((v * v for v in xa), arb(0)).sqrt() if normalise else arb(1)
            diff = [a / nu - c / nx for a, c in zip(ua, xa)]  # x*x, not x**2: arb's power is nan on a ball at 0
            return sum((x * x for x in diff), arb(0)).nonnegative_part().sqrt()
        if prob.norm == "l1":
            x = _l1_face_offset(u, res, normalise)
            sq = sum((v * v for v in x), Fraction(0))
            return arb(fmpq(sq.numerator, sq.denominator)).sqrt()
        if not normalise:
            raise ValueError("normalise=False needs an exact kind (ℓ2, Frobenius or ℓ1)")
        return _nuclear_distance(prob, res, u, dps)


def _exact_point(u) -> list:
    uq = [to_exact(v) for v in u]
    if any(v is None for v in uq):
        uq = [to_exact(arb(v.mid())) if v is not None else None for v in u]
    return uq


def _l1_face_offset(u, res, normalise: bool) -> list:
    """x = y − û with y the point of the optimal face (F/v* when ``normalise``, else F) nearest to û
    (û = u/‖u‖₁ or u itself, exact rationals of the midpoints): one exact least-distance QP."""
    uq = _exact_point(u)
    nu = sum((abs(v) for v in uq), Fraction(0)) if normalise else Fraction(1)
    uh = [v / nu for v in uq]
    C, e = l1_face_constraints(res.problem, res.duals)
    vstar = res.objective if normalise else Fraction(1)
    # y ∈ F/v*: C y ≥ e/v*. With x = y − û:  C x ≥ e/v* − C û
    rhs = [ei / vstar - sum((ci * ui for ci, ui in zip(row, uh)), Fraction(0)) for row, ei in zip(C, e)]
    out = solve_qp_exact(C, rhs)
    if out[0] != "optimal":  # pragma: no cover - F is non-empty
        raise RuntimeError("optimal face unexpectedly empty")
    return list(out[1])


def nearest_in_l1_face(point, res) -> list:
    """The point of the ℓ1-SVM's optimal face F (unnormalised) nearest to ``point`` (its entries'
    midpoints taken as exact rationals), exact: a candidate limit on the face, whose KKT conditions
    can then be certified in rational arithmetic."""
    if res.status != "optimal" or res.problem.norm != "l1":
        raise ValueError("nearest_in_l1_face needs an optimal ℓ1-SVM result")
    u = _exact_point(flatten(point))
    return [a + b for a, b in zip(u, _l1_face_offset(u, res, False))]


def _nuclear_distance(prob, res, u, dps):
    import cvxpy as cp
    d = prob.shape[0]
    C = np.array([float(to_arb(v).mid()) for v in u]).reshape(d, d)
    nuc = np.linalg.svd(C, compute_uv=False).sum()
    Ch = C / nuc
    vstar = float(res.objective.mid())
    Uk, Vk = _svd_unit_subspace(prob, res.duals, 10.0 ** (-(dps // 2)))
    k = Uk.shape[1]
    if k == 0:
        W = np.array([float(v.mid()) for v in res.solution]).reshape(d, d) / vstar
        return arb(float(np.linalg.norm(Ch - W)))
    Z = cp.Variable((k, k), symmetric=True)
    Wn = Uk @ Z @ Vk.T
    A = np.array([[float(a) for a in r] for r in prob.rows])
    b = np.array([float(v) for v in prob.rhs])
    lam = np.array([float(v.mid()) if isinstance(v, arb) else float(v) for v in res.duals])
    cons = [Z >> 0]
    expr = A @ cp.vec(Wn, order="C")
    for j in range(prob.m):
        cons.append(expr[j] == b[j] / vstar if lam[j] > 1e-12 else expr[j] >= b[j] / vstar)
    p = cp.Problem(cp.Minimize(cp.norm(Ch - Wn, "fro")), cons)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p.solve(solver="CLARABEL")
    return arb(float(p.value))
