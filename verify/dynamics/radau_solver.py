"""One step of an s-stage Radau IIA method with a decoupled simplified Newton iteration.

Stage increments Z (s × N, row i ≈ y(x0 + c_i h) − y0) solve A⁻¹Z = h F(y0 + Z). With one
Jacobian J the Newton matrix I − h A⊗J is block-diagonalised by A⁻¹ = V Γ V⁻¹ into the s complex
N × N systems (γ_k I − hJ) ΔW_k = R̃_k (Hairer & Wanner II, §IV.8); conjugate eigenvalues share one
inverse. The iteration converges linearly at the rate θ of the Jacobian's variation over the step;
the caller refreshes J when θ is poor. All numbers are arb midpoints (radii are dropped after each
operation: the integrator's error is controlled by its estimate, not by ball arithmetic).
"""
from __future__ import annotations

from dataclasses import dataclass

from flint import acb, acb_mat, arb, arb_mat

from .radau import Tableau


def mid(x: arb) -> arb:
    return arb(x.mid())


def mid_mat(M: arb_mat) -> arb_mat:
    return arb_mat([[mid(M[i, j]) for j in range(M.ncols())] for i in range(M.nrows())])


import os
_TRACE = bool(os.environ.get("ATTNVERIFY_NEWTON_TRACE"))
_TRACE_LOG: list = []


@dataclass
class Inverses:
    """(γ_k I − hJ)⁻¹ for one (tableau, h, J); ``pairs`` maps k → the conjugate partner used."""

    h: arb
    mats: dict  # k -> acb_mat (only for Im γ_k >= 0)
    partner: dict  # k -> (k', conj?) for every k


def make_inverses(tab: Tableau, h: arb, J: arb_mat) -> Inverses:
    N = J.nrows()
    hJ = acb_mat(J * h)
    mats, partner = {}, {}
    ks = list(range(tab.s))
    for k in ks:
        g = tab.gamma[k]
        if g.imag.mid() >= 0 or abs(g.imag.mid()) < arb(10) ** -20:
            M = -hJ
            for i in range(N):
                M[i, i] += g
            eye = acb_mat(N, N, [1 if i == j else 0 for i in range(N) for j in range(N)])
            mats[k] = M.solve(eye, algorithm="approx")
            partner[k] = (k, False)
    for k in ks:
        if k not in partner:  # Im γ_k < 0: the conjugate of some stored k'
            g = tab.gamma[k]
            kp = min(mats, key=lambda j: abs(tab.gamma[j] - acb(g.real, -g.imag)).mid())
            partner[k] = (kp, True)
    return Inverses(h, mats, partner)


def _conj(z: acb) -> acb:
    return acb(z.real, -z.imag)


def newton_update(tab: Tableau, inv: Inverses, Z: arb_mat, F: arb_mat, h: arb) -> arb_mat:
    """ΔZ of one simplified Newton iteration for A⁻¹Z = hF."""
    s, N = Z.nrows(), Z.ncols()
    R = F * h - tab.Ainv * Z  # s × N, real
    Rt = tab.Vinv * acb_mat(R)  # s × N, complex
    dW = acb_mat(s, N)
    done = {}
    for k in range(s):
        kp, conj = inv.partner[k]
        if kp == k:
            col = acb_mat([[Rt[k, j]] for j in range(N)])
            out = inv.mats[k] * col
            done[k] = [out[j, 0] for j in range(N)]
    for k in range(s):
        kp, conj = inv.partner[k]
        vals = done[kp] if not conj else [_conj(z) for z in done[kp]]
        for j in range(N):
            dW[k, j] = vals[j]
    dZ = tab.V * dW
    return arb_mat([[mid(dZ[i, j].real) for j in range(N)] for i in range(s)])


def evaluate_stages(rhs, y0: list, Z: arb_mat) -> arb_mat:
    """F_i = f(y0 + Z_i) for every stage, as an s × N matrix."""
    rows = []
    for i in range(Z.nrows()):
        rows.append(rhs([y0[j] + Z[i, j] for j in range(len(y0))]))
    return arb_mat(rows)


@dataclass
class SolveResult:
    Z: arb_mat
    converged: bool
    iterations: int
    rate: float  # last observed contraction θ (float: only steers the controller)
    evaluations: int


def solve_stages(tab: Tableau, rhs, y0, h, Z0: arb_mat, inv: Inverses, norm, tol: arb,
                 max_iter: int = 40, kappa: arb = arb("1e-4"), bad_rate: float = 0.5) -> SolveResult:
    """Simplified Newton from the predictor Z0 until the estimated iteration error η‖ΔZ‖ ≤ κ·tol.

    ``norm(dZ)`` is the caller's scaled norm (an arb ≥ 0). Gives up when the rate exceeds
    ``bad_rate`` or the predicted number of iterations exceeds ``max_iter``."""
    Z, prev, theta, evals = Z0, None, 0.0, 0
    if _TRACE:
        if _TRACE_LOG:
            print("   newton:", " ".join(f"{x:.1f}" for x in _TRACE_LOG), flush=True)
        _TRACE_LOG.clear()
    for it in range(1, max_iter + 1):
        F = evaluate_stages(rhs, y0, Z)
        evals += tab.s
        dZ = newton_update(tab, inv, Z, F, h)
        Z = mid_mat(Z + dZ)
        size = norm(dZ)
        if _TRACE:
            _TRACE_LOG.append(float(size.log_base(10).mid()) if size > 0 else -999)
        if size == 0:
            return SolveResult(Z, True, it, theta, evals)
        if size <= kappa * tol:  # also ends a noise-level stagnation
            return SolveResult(Z, True, it, theta, evals)
        if prev is not None and prev > 0:
            theta = float((size / prev).mid())
            if theta >= bad_rate:
                return SolveResult(Z, False, it, theta, evals)
            if theta > 0 and size * theta / (1 - theta) <= kappa * tol:
                return SolveResult(Z, True, it, theta, evals)
        elif size <= kappa * tol * arb("1e-2"):
            return SolveResult(Z, True, it, theta, evals)
        prev = size
    return SolveResult(Z, False, max_iter, theta, evals)


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


def restage(tab_from: Tableau, Z: arb_mat, tab_to: Tableau, scale: arb = arb(1)) -> arb_mat:
    """Predictor for a solve of the same step start with another tableau / step h·scale."""
    N = Z.ncols()
    rows = []
    for i in range(tab_to.s):
        w = tab_from.lagrange(tab_to.c[i] * scale)
        rows.append([mid(sum((w[k] * Z[k, j] for k in range(tab_from.s)), arb(0))) for j in range(N)])
    return arb_mat(rows)


# ----- full Newton with per-stage Jacobians (main solve) ---------------------------------------------
import numpy as np  # noqa: E402
from scipy.linalg import lu_factor, lu_solve  # noqa: E402

_AF: dict = {}


def _a_float(tab: Tableau) -> np.ndarray:
    key = (tab.s, id(tab))
    if key not in _AF:
        _AF[key] = np.array([[float(tab.A[i, j].mid()) for j in range(tab.s)] for i in range(tab.s)])
    return _AF[key]


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
    s, N = tab.s, Js[0].nrows()
    Af = _a_float(tab)
    Jf = np.array([[[float(J[i, j].mid()) for j in range(N)] for i in range(N)] for J in Js])  # s×N×N
    hf = float(h.mid())
    # block (i, k) = δ_ik I − h a_ik J_k
    M = np.zeros((s * N, s * N))
    for i in range(s):
        for k in range(s):
            M[i * N:(i + 1) * N, k * N:(k + 1) * N] = -hf * Af[i, k] * Jf[k]
    M += np.eye(s * N)
    return M


def solve_stages_full(tab: Tableau, rhs, rhs_jac, y0, h, Z0: arb_mat, norm, tol: arb,
                      max_iter: int = 16, kappa: arb = arb("1e-4")):
    """Newton on A⁻¹-free stage equations G(Z) = Z − h A F(y0 + Z) = 0 with the exact per-stage
    Jacobians (Hessians of L); Jacobians are refreshed until the iterate is within √(κ·tol)."""
    s, N = tab.s, Z0.ncols()
    Z, prev, theta, evals, hess = Z0, None, 0.0, 0, 0
    JT, Js, lu, j_err = None, None, None, None
    sqrt_kt = (kappa * tol).sqrt()
    for it in range(1, max_iter + 1):
        refreshed = JT is None or j_err > sqrt_kt
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
    return SolveResult(Z, False, max_iter, theta, evals), Js, hess
