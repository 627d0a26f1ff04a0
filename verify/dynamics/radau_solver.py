"""Radau IIA steps at the working precision: Newton on the stage equations with exact Jacobians.

Stage increments Z (s × N, row i ≈ y(x0 + c_i h) − y0) solve G(Z) = Z − h A F(y0 + Z) = 0. Newton
uses the exact per-stage Jacobians J_i (built from the closed-form Hessian of L), so it converges
quadratically; the Newton matrix I − h A⊗J_i is factorised once in float64 (OpenBLAS kept
single-threaded by ``gradient_flow``) and every linear solve
is finished in arb by iterative refinement (float64 corrections, arb residuals), so each pass
gains ~13 digits at any working precision. Jacobians are refreshed until they were taken within
(κ·tol)^(1/3) of the solution; afterwards iterations cost gradients only. All numbers are arb
midpoints (radii are dropped after each operation, with ``arb_mat.mid()`` in C rather than entry by
entry: the integrator's error is controlled by its estimate, not by ball arithmetic).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from flint import arb, arb_mat
from scipy.linalg import lu_factor, lu_solve

from .radau import Tableau


def mid(x: arb) -> arb:
    return x.mid()  # an exact arb (radius 0)


def mid_mat(M: arb_mat) -> arb_mat:
    return M.mid()


def mid_vec(v: list) -> list:
    return arb_mat(len(v), 1, v).mid().entries() if v else []


@dataclass
class SolveResult:
    Z: arb_mat
    converged: bool
    iterations: int
    rate: float  # last observed contraction θ (float: only steers the controller)
    evaluations: int


def evaluate_stages(rhs, y0: list, Z: arb_mat) -> arb_mat:
    """F_i = f(y0 + Z_i) for every stage, as an s × N matrix."""
    rows = []
    for i in range(Z.nrows()):
        rows.append(rhs([y0[j] + Z[i, j] for j in range(len(y0))]))
    return arb_mat(rows)


def predict(tab_old: Tableau, Z_old: arb_mat, h_old: arb, tab_new: Tableau, h_new: arb, degree: int = 8) -> arb_mat:
    """Stage predictor for the next step: extrapolate the old step's solution to the new nodes
    x1 + c_i h_new and subtract its value at x1 (the new y0).

    A high-degree collocation polynomial extrapolates badly (Lebesgue growth ~ T_s(2θ − 1)), so we
    extrapolate through ``degree`` + 1 of its nodes spread over the step (including both ends)."""
    s_old, N = tab_old.s, Z_old.ncols()
    nodes = (arb(0),) + tab_old.c
    vals = [[arb(0)] * N] + [[Z_old[k, j] for j in range(N)] for k in range(s_old)]
    k = min(degree, s_old)
    idx = sorted({round(i * s_old / k) for i in range(k + 1)})
    end = vals[s_old]
    rows = []
    for i in range(tab_new.s):
        theta = 1 + tab_new.c[i] * h_new / h_old
        w = []
        for a in idx:
            wa = arb(1)
            for b in idx:
                if b != a:
                    wa *= (theta - nodes[b]) / (nodes[a] - nodes[b])
            w.append(wa)
        rows.append([mid(sum((wa * vals[a][j] for wa, a in zip(w, idx)), arb(0)) - end[j]) for j in range(N)])
    return arb_mat(rows)


def interpolate(tab: Tableau, Z: arb_mat, y0: list, theta: arb) -> list:
    """The collocation polynomial at x0 + θh (dense output)."""
    w = tab.lagrange(theta)
    return [y0[j] + sum((w[k] * Z[k, j] for k in range(tab.s)), arb(0)) for j in range(len(y0))]


def _weights(tab_from: Tableau, thetas: tuple) -> arb_mat:
    """Matrix of Lagrange weights: row i gives the collocation polynomial of ``tab_from`` at θ_i."""
    return arb_mat([tab_from.lagrange(th) for th in thetas])


def restage(tab_from: Tableau, Z: arb_mat, tab_to: Tableau, scale: arb = arb(1)) -> arb_mat:
    """Predictor for a solve of the same step start with another tableau / step h·scale."""
    if scale == 1:
        W = _cached((tab_from, tab_to), lambda: _weights(tab_from, tab_to.c))
    else:
        W = _weights(tab_from, tuple(c * scale for c in tab_to.c))
    return mid_mat(W * Z)


_CACHE: dict = {}


def _cached(key_objs: tuple, build):
    """Memoise on object identity, keeping the objects alive so that ids cannot be reused."""
    key = tuple(id(o) for o in key_objs)
    hit = _CACHE.get(key)
    if hit is None or any(a is not b for a, b in zip(hit[0], key_objs)):
        hit = (key_objs, build())
        _CACHE[key] = hit
    return hit[1]


def _a_float(tab: Tableau) -> np.ndarray:
    return _cached((tab,), lambda: np.array([[float(tab.A[i, j].mid()) for j in range(tab.s)] for i in range(tab.s)]))


def _floats(M: arb_mat, scale: arb) -> np.ndarray:
    return np.array([float((x / scale).mid()) for x in M.entries()])


def _apply_M(tab: Tableau, JT: list, h: arb, X: arb_mat) -> arb_mat:
    """(I − h A⊗J_k) X for stage-wise Jacobians J_k (X is s × N, row k ↔ stage k)."""
    s, N = X.nrows(), X.ncols()
    Y = arb_mat([(arb_mat(1, N, [X[k, j] for j in range(N)]) * JT[k]).entries() for k in range(s)])
    return X - tab.A * Y * h


def _max_abs(M: arb_mat) -> arb:
    return max((abs(arb(x.mid())) for x in M.entries()), default=arb(0))


def refine_solve(tab, lu, JT, h, B: arb_mat, norm, target: arb, max_pass: int = 40) -> arb_mat:
    """Solve (I − h A⊗J_k) X = B in arb: float64 LU corrections, residuals in arb (iterative refinement)."""
    s, N = B.nrows(), B.ncols()
    X = arb_mat(s, N)
    R = B
    last = None
    for _ in range(max_pass):
        rs = norm(R)
        if rs <= target or rs == 0:
            return X
        if last is not None and rs > last * arb("0.1"):
            raise ArithmeticError("iterative refinement stalls (ill-conditioned Newton matrix)")
        last = rs
        sc = _max_abs(R)
        d = lu_solve(lu, _floats(R, sc))
        X = mid_mat(X + arb_mat(s, N, [arb(float(v)) for v in d]) * sc)
        R = B - _apply_M(tab, JT, h, X)
    return X


def newton_matrix_float(tab: Tableau, Js: list, h: arb) -> np.ndarray:
    """I − h (A ⊗ ·) blockdiag(J_k) in float64: block (i, k) = δ_ik I − h a_ik J_k."""
    s, N = tab.s, Js[0].nrows()
    Af = _a_float(tab)
    Jf = np.array([[float(x.mid()) for x in J.entries()] for J in Js]).reshape(s, N, N)
    M = (-float(h.mid())) * (Af[:, :, None, None] * Jf[None, :, :, :])  # (i, k, a, b)
    M = M.transpose(0, 2, 1, 3).reshape(s * N, s * N)
    M += np.eye(s * N)
    return M


def solve_stages(tab: Tableau, rhs, rhs_jac, y0, h, Z0: arb_mat, norm, tol: arb,
                      max_iter: int = 16, kappa: arb = arb("1e-4"), Js0: list | None = None):
    """Newton on the stage equations G(Z) = Z − h A F(y0 + Z) = 0 with exact per-stage Jacobians
    (``rhs_jac``); ``Js0`` supplies interpolated Jacobians to start with. Returns
    (SolveResult, Jacobians, number of Hessian evaluations)."""
    s, N = tab.s, Z0.ncols()
    Z, prev, theta, evals, hess = Z0, None, 0.0, 0, 0
    JT, Js, lu, j_err = None, None, None, None
    if Js0 is not None:  # Jacobians supplied (interpolated): trust them like a refreshed set
        Js, JT = Js0, [J.transpose() for J in Js0]
        lu = lu_factor(newton_matrix_float(tab, Js, h))
        j_err = arb(0)
    # Jacobians are refreshed until they were taken within (κ·tol)^(1/3) of the solution; after that
    # the contraction factor is below that and the iteration finishes on gradients alone.
    j_thresh = (kappa * tol) ** (arb(1) / 3)
    for it in range(1, max_iter + 1):
        refreshed = JT is None or j_err > j_thresh
        if refreshed:
            rows, Js = [], []
            for i in range(s):
                f, J = rhs_jac([y0[j] + Z[i, j] for j in range(N)])
                rows.append(f)
                Js.append(J)
            F = arb_mat(rows)
            evals += s
            hess += s
            JT = [J.transpose() for J in Js]
            lu = lu_factor(newton_matrix_float(tab, Js, h))
        else:
            F = evaluate_stages(rhs, y0, Z)
            evals += s
        G = Z - tab.A * F * h
        gsize = norm(G)
        target = max(kappa * tol * arb("0.01"), gsize * min(arb("1e-3"), gsize))
        try:
            dZ = refine_solve(tab, lu, JT, h, -G, norm, target)
        except ArithmeticError:
            return SolveResult(Z, False, it, 1.0, evals), Js, hess
        Z = mid_mat(Z + dZ)
        size = norm(dZ)
        if refreshed:
            j_err = size
        if size == 0 or size <= kappa * tol:
            return SolveResult(Z, True, it, theta, evals), Js, hess
        if prev is not None and prev > 0:
            theta = float((size / prev).mid())
            if theta >= 1:
                return SolveResult(Z, False, it, theta, evals), Js, hess
            if size * theta / (1 - theta) <= kappa * tol:
                return SolveResult(Z, True, it, theta, evals), Js, hess
        elif size <= kappa * tol * arb("0.01"):
            return SolveResult(Z, True, it, theta, evals), Js, hess
        prev = size
        if not refreshed and theta > 1e-2:  # stale Jacobians converge slowly: refresh next time
            j_err = arb(1)
    return SolveResult(Z, False, max_iter, theta, evals), Js, hess


def _jacobian_weights(tab_from: Tableau, tab_to: Tableau) -> arb_mat:
    c = tab_from.c
    rows = []
    for th in tab_to.c:
        row = []
        for j in range(tab_from.s):
            w = arb(1)
            for k in range(tab_from.s):
                if k != j:
                    w *= (th - c[k]) / (c[j] - c[k])
            row.append(w)
        rows.append(row)
    return arb_mat(rows)


def interpolate_jacobians(tab_from: Tableau, Js: list, tab_to: Tableau) -> list:
    """Jacobians at the nodes of ``tab_to`` by polynomial interpolation of those at ``tab_from``'s
    nodes (used to start the error-estimate solve without new Hessians)."""
    W = _cached((tab_from, tab_to, "J"), lambda: _jacobian_weights(tab_from, tab_to))
    N = Js[0].nrows()
    stack = arb_mat([J.entries() for J in Js])
    out = W * stack
    return [arb_mat(N, N, [mid(out[i, k]) for k in range(N * N)]) for i in range(tab_to.s)]
