"""The joint (v, p) model of mmts Sec. 3: L(v, p) = (1/n) Σ_i ℓ(m_i), m_i = Y_i vᵀ X_iᵀ S(K_i p) — the head is v itself.

Stable in saturation (mmts §1.4, §8): per sequence the pivot r = argmax_t a_it (a = K_i p) and every quantity is a
sum of terms each with full relative accuracy, so the p-dependence of L, a relative correction ~e^{−RΘ}, is carried
to the working precision however small it is (arb's exponent is unbounded):

    s_t = e^{a_t − a_r}/Σ_u e^{a_u − a_r}       (e^0 = 1 exactly at r)
    dev_t = vᵀ Y_i(x_t − x_r)                    (exact token differences; 0 exactly at t = r)
    md = Σ_{t≠r} s_t dev_t,   m = vᵀ Y_i x_r + md                         (never 1 − s_r)
    ∂m/∂v = u = Y_i x_r + Σ_{t≠r} s_t Y_i(x_t − x_r)  (= Y_i X_iᵀ s)
    ∂m/∂p = g = Σ_{t≠r} c_t Δ_t,   c_t = s_t(dev_t − md),   Δ_t = k_t − k_r
    ∂²m/∂p² = Σ_t c_t Δ_tΔ_tᵀ − k̃gᵀ − gk̃ᵀ,   k̃ = Σ_t s_tΔ_t;   ∂²m/∂v∂pᵀ = Σ_t s_t e_t Δ_tᵀ,  e_t = Y_i(x_t − x_r) − (u − Y_i x_r)

and L = (1/n)Σℓ(m_i), ∇L = (1/n)Σ ℓ'(m_i)∇m_i, ∇²L = (1/n)Σ [ℓ''(m_i)∇m_i∇m_iᵀ + ℓ'(m_i)∇²m_i], with ∇ over the
stacked vector ψ = (v, p). Balls throughout (``loss``, ``loss_grad``); ``grad_hess`` returns midpoints for the
Newton iterations of ``verify.dynamics.joint_rp``.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb, arb_mat

from verify.data.dataset import Dataset
from verify.models.losses import get_loss
from verify.numbers.precision import to_arb


class JointModel:
    """L(v, p) at the current working precision; ψ = (v, p) stacked (v first, ``d`` entries; p: ``dk``)."""

    def __init__(self, data: Dataset, loss="logistic"):
        self.loss = get_loss(loss)
        X, keys, Y = data.X, data.keys(), data.Y
        self.n, self.T = data.n, data.T
        self.d, self.dk = len(X[0][0]), len(keys[0][0])
        self.D = self.d + self.dk
        n, T = self.n, self.T
        # exact tables: Y_i x_it, Y_i (x_it − x_ir), k_it − k_ir (for every pivot r), as balls
        self._yx = [[[to_arb(Fraction(Y[i]) * a) for a in X[i][t]] for t in range(T)] for i in range(n)]
        self._dyx = [[[[to_arb(Fraction(Y[i]) * (a - b)) for a, b in zip(X[i][t], X[i][r])] for t in range(T)]
                      for r in range(T)] for i in range(n)]
        self._dk = [[[[to_arb(a - b) for a, b in zip(keys[i][t], keys[i][r])] for t in range(T)] for r in range(T)]
                    for i in range(n)]
        self._keys = [[[to_arb(a) for a in k] for k in seq] for seq in keys]

    def split(self, psi):
        return list(psi[:self.d]), list(psi[self.d:])

    # ----- per sequence --------------------------------------------------------------------------
    def _softmax(self, i, p):
        a = [_dot(k, p) for k in self._keys[i]]
        r = max(range(self.T), key=lambda t: a[t].mid())
        e = [arb(1) if t == r else (a[t] - a[r]).exp() for t in range(self.T)]
        tot = sum(e, arb(0))
        return r, [x / tot for x in e]

    def _sequence(self, i, v, p, derivatives: int):
        r, s = self._softmax(i, p)
        others = [t for t in range(self.T) if t != r]
        dyx, dk = self._dyx[i][r], self._dk[i][r]
        dev = {t: _dot(v, dyx[t]) for t in others}
        md = sum((s[t] * dev[t] for t in others), arb(0))
        m = _dot(v, self._yx[i][r]) + md
        if derivatives == 0:
            return m, None, None
        shift = [sum((s[t] * dyx[t][a] for t in others), arb(0)) for a in range(self.d)]
        u = [b + c for b, c in zip(self._yx[i][r], shift)]
        c = {t: s[t] * (dev[t] - md) for t in others}
        g = [sum((c[t] * dk[t][a] for t in others), arb(0)) for a in range(self.dk)]
        if derivatives == 1:
            return m, u + g, None
        kt = [sum((s[t] * dk[t][a] for t in others), arb(0)) for a in range(self.dk)]
        d, dkk = self.d, self.dk
        H = [[arb(0)] * self.D for _ in range(self.D)]
        for a in range(dkk):
            for b in range(dkk):
                H[d + a][d + b] = (sum((c[t] * dk[t][a] * dk[t][b] for t in others), arb(0))
                                   - kt[a] * g[b] - g[a] * kt[b])
        for a in range(d):
            for b in range(dkk):
                val = sum((s[t] * (dyx[t][a] - shift[a]) * dk[t][b] for t in others), arb(0))
                H[a][d + b] = H[d + b][a] = val
        return m, u + g, H

    # ----- the model ---------------------------------------------------------------------------------
    def margins(self, psi) -> list[arb]:
        """m_i = Y_i vᵀX_iᵀS(K_i p) (balls)."""
        v, p = self.split([to_arb(x) for x in psi])
        return [self._sequence(i, v, p, 0)[0] for i in range(self.n)]

    def loss_value(self, psi) -> arb:
        return sum((self.loss.value(m) for m in self.margins(psi)), arb(0)) / self.n

    def loss_grad(self, psi):
        v, p = self.split([to_arb(x) for x in psi])
        L, G = arb(0), [arb(0)] * self.D
        for i in range(self.n):
            m, gm, _ = self._sequence(i, v, p, 1)
            val, d1 = self.loss.value_d1(m)
            L += val
            G = [a + d1 * b for a, b in zip(G, gm)]
        return L / self.n, [a / self.n for a in G]

    def loss_grad_hess(self, psi):
        """(L, ∇L, ∇²L) at ψ (balls; ∇²L an arb_mat)."""
        v, p = self.split([to_arb(x) for x in psi])
        D = self.D
        L, G = arb(0), [arb(0)] * D
        H = [[arb(0)] * D for _ in range(D)]
        for i in range(self.n):
            m, gm, Hm = self._sequence(i, v, p, 2)
            val, d1 = self.loss.value_d1(m)
            d2 = self.loss.d2(m)
            L += val
            G = [a + d1 * b for a, b in zip(G, gm)]
            for a in range(D):
                for b in range(D):
                    H[a][b] += d2 * gm[a] * gm[b] + d1 * Hm[a][b]
        n = self.n
        return L / n, [a / n for a in G], arb_mat(D, D, [x / n for row in H for x in row])

    def off_mass(self, p, alpha) -> list[arb]:
        """1 − s_{iα_i}(p) for each sequence, as Σ_{t≠α_i} s_it (never 1 − s)."""
        out = []
        for i in range(self.n):
            _, s = self._softmax(i, [to_arb(x) for x in p])
            out.append(sum((s[t] for t in range(self.T) if t != alpha[i]), arb(0)))
        return out

    def softmax(self, p) -> list[list[arb]]:
        return [self._softmax(i, [to_arb(x) for x in p])[1] for i in range(self.n)]

    def selected(self, p) -> tuple[int, ...]:
        return tuple(self._softmax(i, [to_arb(x) for x in p])[0] for i in range(self.n))


def _dot(a, b) -> arb:
    return sum((x * y for x, y in zip(a, b)), arb(0))
