"""Lean gradients and Hessians of a ``LinearLogitModel`` for the integrators (same formulas).

The dynamics evaluate ∇L at every Radau stage of every Newton iteration, so this module trims the
Python overhead of ``LinearLogitModel.grad/hessian``: the s stage points of a step go through
together — one matrix product for the logits, element-wise arb operations on numpy object arrays
(looped in C), one product for the gradients. Score deviations γ_t − γ_r are tabulated exactly per
(sequence, pivot), with the pivot r the argmax of each sequence at each point, so that

    c_it = s_it (γ_it − γ_ir − Σ_u s_iu (γ_iu − γ_ir))     (no 1 − s cancellation; arb keeps
                                                             e^{−10⁶}-sized probabilities exact)

and the Hessian is assembled from a few matrix products,

    n·∇²L = Fᵀ diag(w) F + Σ_i [ℓ''_i g_i g_iᵀ − ℓ'_i (g_i m_iᵀ + m_i g_iᵀ)],

with w_it = ℓ'_i c_it, g_i = F_iᵀ c_i, m_i = F_iᵀ s_i. ``grad_hess`` gives it exactly (arb);
``sweep(..., jacobians=True)`` gives it in float64 divided by ‖∇L‖ for the Newton matrices.

Why a second implementation: ``LinearLogitModel`` is the certified one (balls carried through, so
the claims can decide inequalities); this one works on midpoints, where the integrators control
their error by estimates, and costs a fraction per point (a 45-point sweep of W at 100 digits:
6.7 ms, against 1.2 ms per point for the exact Hessian path). Checked against ``LinearLogitModel``
in tests/test_dynamics_core.py, down to e^{−10⁵}-sized probabilities.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from flint import arb, arb_mat

from verify.models.attention import LinearLogitModel, norm2

_EXP = np.frompyfunc(arb.exp, 1, 1)
_FLOAT = np.frompyfunc(float, 1, 1)


class Stationary(Exception):
    """∇L = 0 at a point: the flow does not move."""


def floats(a: np.ndarray) -> np.ndarray:
    """arb object array → float64 midpoints (e^{−10⁶}-sized values become 0.0)."""
    return _FLOAT(a).astype(float) if a.size else np.zeros(a.shape)


@dataclass
class Terms:
    """Softmax terms of s points, object arrays of arb indexed (i, t, k) or (i, k)."""

    S: np.ndarray  # s_itk
    C: np.ndarray  # c_itk
    W: np.ndarray  # w_itk = ℓ'_ik c_itk
    lp: np.ndarray  # ℓ'(φ_ik)
    phi: np.ndarray  # φ_ik = Σ_t s_itk γ_it


@dataclass
class Sweep:
    """∇_θL at s points (arb, to the working precision) and, when asked for, float64 copies scaled
    by the gradient norm: ``g_float[k] = ∇L/‖∇L‖``, ``H_float[k] = ∇²L/‖∇L‖`` (the scale cancels
    in the arc-length Jacobian; unscaled, e^{−10⁴}-sized values would underflow float64)."""

    grads: list  # midpoints (exact arbs)
    g_float: np.ndarray | None = None
    H_float: np.ndarray | None = None


class FastModel:
    def __init__(self, model: LinearLogitModel, kron=None):
        """``kron = (X, Z)`` declares the W structure F_it = x_it ⊗ z_i (row-major), which turns
        Σ_k w_k F_k F_kᵀ into Σ_i (X_iᵀ diag(w_i) X_i) ⊗ z_i z_iᵀ (cheaper for d² parameters)."""
        self.model = model
        self.loss = model.loss
        n, T, D = self.n, self.T, self.D = model.n, model.T, model.D
        self.Fall = model._Fall
        self.FallT = model._FallT
        self.inv_n = arb(1) / n
        # scores as exact arbs (midpoints: γ_ir − γ_ir must be exactly 0, not a ball around it) and
        # dev[i, r, t] = γ_it − γ_ir
        gam = [[x.mid() for x in row] for row in model.gamma]
        self.gamma = np.array(gam, dtype=object).reshape(n, T)
        self.dev = np.array([[[gam[i][t] - gam[i][r] for t in range(T)] for r in range(T)]
                             for i in range(n)], dtype=object).reshape(n, T, T)
        self.d1 = np.frompyfunc(model.loss.d1, 1, 1)
        self.d2 = np.frompyfunc(model.loss.d2, 1, 1)
        F = np.array([[[float(x) for x in row] for row in seq] for seq in model.F]).reshape(n, T, D)
        self.F_float, self.FF_float = F, np.einsum("ita,itb->itab", F, F)
        # per-sequence F_iᵀ (D × T) and the outer products F_k F_kᵀ (D² × nT, row-major in D²)
        self.FT = [arb_mat(model.F[i]).transpose() for i in range(n)]
        self.kron = None
        if kron is not None:
            from verify.numbers.precision import to_arb

            X, Z = kron
            d = len(Z[0])
            self.kron = (d, [arb_mat([[to_arb(v) for v in x] for x in seq]) for seq in X],
                         arb_mat(n, d * d, [to_arb(a * b) for z in Z for a in z for b in z]))
            # H[(a,b),(c,e)] = R[(a,c),(b,e)] with R = P·Q, P[(a,c), i] = (XᵀWX)_i[a,c], Q[i,(b,e)] = z_b z_e
            self.kron_perm = [(a * d + c) * d * d + (b * d + e) for a in range(d) for b in range(d)
                              for c in range(d) for e in range(d)]
            return
        rows = [row for seq in model.F for row in seq]
        self.outer = arb_mat(D * D, len(rows),
                             [rows[k][a] * rows[k][b] for a in range(D) for b in range(D)
                              for k in range(len(rows))])

    # ----- the softmax terms and gradients of many points --------------------------------------------
    def terms(self, thetas: list) -> Terms:
        n, T, D, s = self.n, self.T, self.D, len(thetas)
        Th = arb_mat(D, s, [th[j] for j in range(D) for th in thetas])
        A = np.array((self.Fall * Th).mid().entries(), dtype=object).reshape(n, T, s)
        R = floats(A).argmax(axis=1)  # (n, s): the pivot only needs to be (close to) the argmax
        E = _EXP(A - np.take_along_axis(A, R[:, None, :], axis=1))
        S = E / E.sum(axis=1, keepdims=True)
        DV = self.dev[np.arange(n)[:, None], R].transpose(0, 2, 1)  # (n, T, s): γ_it − γ_ir
        md = (S * DV).sum(axis=1, keepdims=True)
        C = S * (DV - md)
        phi = np.take_along_axis(self.gamma, R, axis=1) + md[:, 0, :]
        lp = self.d1(phi)
        return Terms(S, C, C * lp[:, None, :], lp, phi)

    def _grads(self, tm: Terms) -> list:
        n, T, s = self.n, self.T, tm.W.shape[2]
        G = (self.FallT * arb_mat(n * T, s, list(tm.W.reshape(-1))) * self.inv_n).mid().entries()
        return [G[k::s] for k in range(s)]

    def sweep(self, thetas: list, jacobians: bool = False) -> Sweep:
        """∇L at every point of ``thetas``; with ``jacobians`` also the scaled float64 Hessians."""
        tm = self.terms(thetas)
        grads = self._grads(tm)
        if not jacobians:
            return Sweep(grads)
        return Sweep(grads, *self._scaled_hessians(tm, grads))

    def _scaled_hessians(self, tm: Terms, grads):
        """n·∇²L/(n‖∇L‖) in float64. With w̃ = w/(n‖∇L‖), U_i = −F_iᵀw̃_i and V_i = F_iᵀ(½ρ_i c_i + s_i),
        ρ_i = ℓ''_i/|ℓ'_i| (ℓ' < 0: the losses decrease), the low-rank part is Σ_i U_iV_iᵀ + V_iU_iᵀ and
        every factor stays within float64 range however saturated the softmax is."""
        gn = [norm2(g) for g in grads]
        if any(not x > 0 for x in gn):
            raise Stationary("∇L = 0 at a stage point")
        scale = np.array([self.inv_n / x for x in gn], dtype=object)
        Wf = floats(tm.W * scale[None, None, :])  # (n, T, s)
        rho = floats(self.d2(tm.phi) / (-tm.lp))  # (n, s)
        Vc = 0.5 * rho[:, None, :] * floats(tm.C) + floats(tm.S)
        F = self.F_float
        H = np.einsum("its,itab->sab", Wf, self.FF_float)
        U = -np.einsum("its,ita->sia", Wf, F)
        V = np.einsum("its,ita->sia", Vc, F)
        X = np.einsum("sia,sib->sab", U, V)
        H += X + X.transpose(0, 2, 1)
        return np.einsum("its,ita->sa", Wf, F), H

    # ----- one point ----------------------------------------------------------------------------------
    def grad(self, theta) -> list:
        return self.sweep([theta]).grads[0]

    def grad_hess(self, theta):
        """∇L and ∇²L at one point, exactly (arb)."""
        n, T, D = self.n, self.T, self.D
        tm = self.terms([theta])
        g = self._grads(tm)[0]
        S, C, lp, phis = tm.S[:, :, 0], tm.C[:, :, 0], tm.lp[:, 0], tm.phi[:, 0]
        w = list(tm.W[:, :, 0].reshape(-1))
        if self.kron is None:  # Σ_k w_k F_k F_kᵀ as one product with the tabulated outer products
            H = arb_mat(D, D, (self.outer * arb_mat(len(w), 1, w)).entries())
        else:
            d, Xs, Q = self.kron
            P = []
            for i, Xi in enumerate(Xs):
                wi = w[i * T:(i + 1) * T]
                WX = arb_mat(T, d, [wi[t] * Xi[t, a] for t in range(T) for a in range(d)])
                P.append((Xi.transpose() * WX).entries())
            R = (arb_mat(n, d * d, [x for row in P for x in row]).transpose() * Q).entries()
            H = arb_mat(D, D, [R[k] for k in self.kron_perm])
        # low-rank part Σ_i g_i A_iᵀ + A_i g_iᵀ with A_i = ½ℓ''_i g_i − ℓ'_i m_i, g_i = F_iᵀc_i, m_i = F_iᵀs_i
        Gcols, Acols = [], []
        for i in range(n):
            gi = (self.FT[i] * arb_mat(T, 1, list(C[i]))).entries()
            mi = (self.FT[i] * arb_mat(T, 1, list(S[i]))).entries()
            half2 = self.loss.d2(phis[i]) / 2
            Gcols.extend(gi)
            Acols.extend([half2 * a - lp[i] * b for a, b in zip(gi, mi)])
        G = arb_mat(n, D, Gcols).transpose()
        A = arb_mat(n, D, Acols).transpose()
        X = G * A.transpose()
        H = H + X + X.transpose()
        return g, H * self.inv_n
