"""Optimal faces of the non-strictly-convex SVMs (ℓ1, nuclear): uniqueness and set distances.

ℓ1 (exact description): for any dual optimum λ with ``g = Aᵀλ`` the optimal face is
``F = {w : Aw ≥ b, a_jᵀw = b_j (λ_j > 0), w_k = 0 (|g_k| < 1), g_k w_k ≥ 0 (|g_k| = 1)}``
(complementary slackness: ``‖w‖₁ ≥ gᵀw = λᵀAw ≥ bᵀλ`` with equality iff those hold).
Uniqueness: proved when the equalities have rank d (exact); otherwise decided by maximising and
minimising random linear functionals over F with HiGHS (float; a spread above 1e-9 relative means
not unique). Distances are exact: projecting a rational direction onto F/‖·‖ is a least-distance
QP solved by ``exact.solve_qp_exact``.

Nuclear: with Λ = Σλ_j A_j and ``U_k, V_k`` its singular vectors for singular value 1 (multiplicity
k decided with tolerance 1e-(dps/2)), ``F = {U_k Z V_kᵀ : Z ⪰ 0, ⟨A_j, ·⟩ = b_j (λ_j > 0), ≥ b_j}``.
Uniqueness and distances use cvxpy (float64, ~1e-7 accurate): labelled as such.
"""
from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
from flint import arb, fmpq

from verify.errors import reraise_interrupt
from verify.numbers.exact import float_or_none


def l1_face_constraints(problem, lam) -> tuple[list, list]:
    """Exact inequality rows (C, e) describing the ℓ1 optimal face (equalities as ± pairs)."""
    n = problem.dim
    g = [sum((lam[j] * problem.rows[j][k] for j in range(problem.m) if lam[j]), Fraction(0)) for k in range(n)]
    C, e = [], []
    for j in range(problem.m):
        C.append(tuple(problem.rows[j]))
        e.append(problem.rhs[j])
        if lam[j] > 0:
            C.append(tuple(-a for a in problem.rows[j]))
            e.append(-problem.rhs[j])
    for k in range(n):
        unit = tuple(Fraction(1 if i == k else 0) for i in range(n))
        if abs(g[k]) < 1:
            C.append(unit)
            e.append(Fraction(0))
            C.append(tuple(-u for u in unit))
            e.append(Fraction(0))
        else:
            C.append(tuple(u * g[k] for u in unit))
            e.append(Fraction(0))
    return C, e


def _equality_rank(problem, lam) -> int:
    from flint import fmpq_mat
    n = problem.dim
    g = [sum((lam[j] * problem.rows[j][k] for j in range(problem.m) if lam[j]), Fraction(0)) for k in range(n)]
    rows = [problem.rows[j] for j in range(problem.m) if lam[j] > 0]
    rows += [tuple(Fraction(1 if i == k else 0) for i in range(n)) for k in range(n) if abs(g[k]) < 1]
    if not rows:
        return 0
    M = fmpq_mat(len(rows), n, [fmpq(a.numerator, a.denominator) for r in rows for a in r])
    return M.rank()


def l1_unique(problem, w, lam, trials: int = 3, seed: int = 0) -> bool | None:
    """Is the ℓ1-SVM solution unique? (exact proof when the equalities pin w; else float LPs; None when the face's
    numbers are beyond float64)"""
    if _equality_rank(problem, lam) == problem.dim:
        return True
    from scipy.optimize import linprog
    C, e = l1_face_constraints(problem, lam)
    Cl = [[float_or_none(a) for a in r] for r in C]
    el, wl = [float_or_none(v) for v in e], [float_or_none(v) for v in w]
    if None in el or None in wl or any(None in r for r in Cl):
        return None  # beyond float64 (data at 10^±400): the float LPs cannot tell, undecided rather than wrong
    Cf, ef = np.array(Cl), np.array(el)
    rng = np.random.default_rng(seed)
    scale = max(1.0, float(np.max(np.abs(wl))))
    for _ in range(trials):
        c = rng.normal(size=problem.dim)
        vals = []
        for sgn in (1, -1):
            r = linprog(sgn * c, A_ub=-Cf, b_ub=-ef, bounds=[(None, None)] * problem.dim, method="highs")
            if r.status != 0:
                return False if r.status == 3 else True
            vals.append(sgn * r.fun)
        if abs(vals[0] + vals[1]) > 1e-9 * scale * np.linalg.norm(c):
            # min = vals[0], max = -vals[1]
            return False
    return True


def _svd_unit_subspace(problem, lam, tol):
    import mpmath
    d = problem.shape[0]
    L = mpmath.matrix(d, d)
    for j in range(problem.m):
        lj = lam[j]
        if lj == 0:
            continue
        lj = mpmath.mpf(lj.mid().str(mpmath.mp.dps, radius=False)) if isinstance(lj, arb) else mpmath.mpf(lj)
        for a in range(d):
            for c in range(d):
                v = problem.rows[j][a * d + c]
                if v:
                    L[a, c] += lj * mpmath.mpf(v.numerator) / v.denominator
    U, s, V = mpmath.svd_r(L)
    ks = [i for i in range(len(s)) if abs(s[i] - 1) <= tol]
    Uk = np.array([[float(U[a, i]) for i in ks] for a in range(d)])
    Vk = np.array([[float(V[i, c]) for i in ks] for c in range(d)])
    return Uk, Vk


class _OptimalFace:
    """The optimal face F = {U_k Z V_kᵀ : Z ⪰ 0, A vec(·) ≥ b with equality on the rows active for
    the dual λ} of the nuclear SVM, in float64 (``Uk``, ``Vk`` span the unit singular space of Λ)."""

    def __init__(self, problem, lam, dps: int):
        self.Uk, self.Vk = _svd_unit_subspace(problem, lam, 10.0 ** (-(dps // 2)))
        self.k = self.Uk.shape[1]
        self.A = np.array([[float(a) for a in r] for r in problem.rows])
        self.b = np.array([float(v) for v in problem.rhs])
        lamf = np.array([float(v.mid()) if isinstance(v, arb) else float(v) for v in lam])
        self.active = [j for j in range(problem.m) if lamf[j] > 1e-12 * max(1.0, float(np.max(lamf)))]
        self.m = problem.m

    def sdp(self):
        """(Z, constraints) of F as a cvxpy program in Z (k ≥ 2)."""
        import cvxpy as cp
        Z = cp.Variable((self.k, self.k), symmetric=True)
        expr = self.A @ cp.vec(self.Uk @ Z @ self.Vk.T, order="C")
        b = self.b
        return Z, [Z >> 0] + [expr[j] == b[j] if j in self.active else expr[j] >= b[j] for j in range(self.m)]


def _solve_quietly(p) -> bool:
    """Solve a cvxpy problem with Clarabel; False if it failed or is not (nearly) optimal."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p.solve(solver="CLARABEL")
    except Exception as exc:  # noqa: BLE001 - a failed solve is an answer ("could not")
        reraise_interrupt(exc)
        return False
    return p.status in ("optimal", "optimal_inaccurate")


def nuclear_face_vertices(problem, lam, dps: int = 60, trials: int = 4, seed: int = 0) -> list:
    """Float d × d points of the optimal face F that maximise random linear functionals of Z:
    extreme points of F, hence of low rank (the candidates of a rank-m search). Empty when the face
    is a point or the solver fails."""
    import cvxpy as cp
    face = _OptimalFace(problem, lam, dps)
    if face.k < 2:
        return []
    Z, cons = face.sdp()
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(trials):
        Cm = rng.normal(size=(face.k, face.k))
        if _solve_quietly(cp.Problem(cp.Maximize(cp.sum(cp.multiply(Cm + Cm.T, Z))), cons)):
            out.append(face.Uk @ np.asarray(Z.value) @ face.Vk.T)
    return out


def nuclear_unique(problem, lam, dps: int = 60, trials: int = 2, seed: int = 0) -> bool | None:
    """Is the nuclear-SVM solution unique?  F = {U_k Z V_kᵀ : Z ⪰ 0, linear} for the dual λ.
    k = 1: Z is a scalar fixed by any active row with u₁ᵀA_j v₁ ≠ 0 → unique (no solver).
    k ≥ 2: maximise/minimise random linear functionals of Z over F (float SDP, Clarabel); a spread
    above 1e-6 means not unique. None when the test could not run."""
    import cvxpy as cp
    face = _OptimalFace(problem, lam, dps)
    k, Uk, Vk = face.k, face.Uk, face.Vk
    if k == 0:
        return None
    if k == 1:
        d = problem.shape[0]
        coef = [float(Uk[:, 0] @ face.A[j].reshape(d, d) @ Vk[:, 0]) for j in face.active]
        return True if any(abs(c) > 1e-12 for c in coef) else None
    Z, cons = face.sdp()
    rng = np.random.default_rng(seed)
    for _ in range(trials):
        Cm = rng.normal(size=(k, k))
        Cm = Cm + Cm.T
        vals = []
        for sgn in (1, -1):
            p = cp.Problem(cp.Maximize(sgn * cp.sum(cp.multiply(Cm, Z))), cons)
            if not _solve_quietly(p):
                return None
            vals.append(sgn * p.value)
        if vals[0] - vals[1] > 1e-6 * max(1.0, float(np.abs(np.asarray(Z.value)).max())) * np.linalg.norm(Cm):
            return False
    return True
