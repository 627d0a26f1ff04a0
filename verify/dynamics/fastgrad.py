"""Lean gradient and Hessian of a ``LinearLogitModel`` for the integrators (same formulas).

The dynamics evaluate ∇L and ∇²L tens of thousands of times, so this module trims the Python
overhead of ``LinearLogitModel.grad/hessian``: score deviations γ_t − γ_r are tabulated exactly
per (sequence, argmax) and the Hessian is assembled from a few matrix products,

    n·∇²L = Fᵀ diag(w) F + Σ_i [ℓ''_i g_i g_iᵀ − ℓ'_i (g_i m_iᵀ + m_i g_iᵀ)],

with w_it = ℓ'_i c_it, g_i = F_iᵀ c_i, m_i = F_iᵀ s_i (the same c, s as ``attention.py``: no
1 − s cancellation; arb keeps e^{−10⁶}-sized probabilities exact in relative terms).
Checked against ``LinearLogitModel`` in tests/test_dynamics_core.py.
"""
from __future__ import annotations

from flint import arb, arb_mat

from ..attention import LinearLogitModel


class FastModel:
    def __init__(self, model: LinearLogitModel, kron=None):
        """``kron = (X, Z)`` declares the W structure F_it = x_it ⊗ z_i (row-major), which turns
        Σ_k w_k F_k F_kᵀ into Σ_i (X_iᵀ diag(w_i) X_i) ⊗ z_i z_iᵀ (cheaper for d² parameters)."""
        self.model = model
        self.loss = model.loss
        self.n, self.T, self.D = model.n, model.T, model.D
        self.Fall = model._Fall
        self.FallT = model._FallT
        g = model.gamma
        T = self.T
        # dev[i][r][t] = γ_it − γ_ir, exact data in arb
        self.dev = [[[g[i][t] - g[i][r] for t in range(T)] for r in range(T)] for i in range(self.n)]
        self.inv_n = arb(1) / self.n
        # per-sequence F_iᵀ (D × T) and the outer products F_k F_kᵀ (D² × nT, row-major in D²)
        self.FT = [arb_mat(model.F[i]).transpose() for i in range(self.n)]
        self.kron = None
        if kron is not None:
            from ..precision import to_arb

            X, Z = kron
            d = len(Z[0])
            self.kron = (d, [arb_mat([[to_arb(v) for v in x] for x in seq]) for seq in X],
                         arb_mat(self.n, d * d, [to_arb(a * b) for z in Z for a in z for b in z]))
            # H[(a,b),(c,e)] = R[(a,c),(b,e)] with R = P·Q, P[(a,c), i] = (XᵀWX)_i[a,c], Q[i,(b,e)] = z_b z_e
            self.kron_perm = [(a * d + c) * d * d + (b * d + e) for a in range(d) for b in range(d)
                              for c in range(d) for e in range(d)]
            return
        rows = [row for seq in model.F for row in seq]
        self.outer = arb_mat(self.D * self.D, len(rows),
                             [rows[k][a] * rows[k][b] for a in range(self.D) for b in range(self.D)
                              for k in range(len(rows))])

    def _terms(self, theta):
        n, T = self.n, self.T
        a = (self.Fall * arb_mat(self.D, 1, list(theta))).entries()
        S, C, lp, lpp = [], [], [], []
        for i in range(n):
            ai = a[i * T:(i + 1) * T]
            af = [float(x) for x in ai]  # the pivot r only needs to be (close to) the argmax
            r = af.index(max(af))
            ar = ai[r]
            e = [(x - ar).exp() if t != r else arb(1) for t, x in enumerate(ai)]
            Z = sum(e[1:], e[0])
            s = [x / Z for x in e]
            dv = self.dev[i][r]
            md = sum((s[t] * dv[t] for t in range(T) if t != r), arb(0))
            c = [s[t] * (dv[t] - md) if t != r else -s[r] * md for t in range(T)]
            phi = self.model.gamma[i][r] + md
            S.append(s)
            C.append(c)
            lp.append(self.loss.d1(phi))
            lpp.append(phi)
        return S, C, lp, lpp

    def grad(self, theta) -> list:
        S, C, lp, _ = self._terms(theta)
        w = [l * c for l, ci in zip(lp, C) for c in ci]
        return [x * self.inv_n for x in (self.FallT * arb_mat(len(w), 1, w)).entries()]

    def grad_hess(self, theta):
        n, T, D = self.n, self.T, self.D
        S, C, lp, phis = self._terms(theta)
        w = [l * c for l, ci in zip(lp, C) for c in ci]
        g = [x * self.inv_n for x in (self.FallT * arb_mat(len(w), 1, w)).entries()]
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
            gi = (self.FT[i] * arb_mat(T, 1, C[i])).entries()
            mi = (self.FT[i] * arb_mat(T, 1, S[i])).entries()
            half2 = self.loss.d2(phis[i]) / 2
            Gcols.extend(gi)
            Acols.extend([half2 * a - lp[i] * b for a, b in zip(gi, mi)])
        G = arb_mat(n, D, Gcols).transpose()
        A = arb_mat(n, D, Acols).transpose()
        X = G * A.transpose()
        H = H + X + X.transpose()
        return g, H * self.inv_n
