"""Softmax-attention models, their losses, gradients and Hessians at the working precision.

Every model of the three papers has logits that are linear in a parameter vector θ:

* ``p``    (mmts):  a_it = k_itᵀ p,                  features F_it = k_it           (D = d_k)
* ``W``    (tfsvm): a_it = x_itᵀ W z_i = ⟨W, x_it z_iᵀ⟩, F_it = vec(x_it z_iᵀ)      (D = d², row-major)
* ``diag`` (irgf):  a_it = βᵀ(z_i ⊙ x_it),            F_it = z_i ⊙ x_it              (D = d)

so one engine, ``LinearLogitModel``, computes L(θ) = (1/n) Σ_i ℓ(φ_i), φ_i = γ_iᵀ S(F_i θ), with
γ_it = Y_i vᵀ x_it. The factorised parameterisations (K,Q) and diagonal (k,q) sit on top
(``verify.dynamics.parameterization``) and pull the θ-gradient back by the chain rule.

Stability (mmts spec §1.4; never 1 − s for s ≈ 1): per sequence let r = argmax_t a_it,
dev_t = γ_t − γ_r (exact data), s_t = e^{a_t − a_r}/Σ_u e^{a_u − a_r}, md = Σ_{t≠r} s_t dev_t, so
φ = γ_r + md and c_t := s_t(γ_t − φ) = s_t(dev_t − md), c_r = −s_r·md. Then
∇L = (1/n) Σ_i ℓ'(φ_i) F_iᵀ c_i and ∇²L = (1/n) Σ_i [ℓ''(φ_i) g_i g_iᵀ + ℓ'(φ_i) F_iᵀ J_i F_i] with
g_i = F_iᵀ c_i, J = diag(c) − c sᵀ − s cᵀ. Excess loss: δ_i = Σ_{t≠opt} s_t(γ_opt − γ_t) (a sum of
nonnegative terms) and L − L⋆ = (1/n) Σ_i [ℓ(γ_opt − δ_i) − ℓ(γ_opt)] via expm1/log1p. arb has an
unbounded exponent, so softmax weights of e^{−10⁶} stay exact in relative terms.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from operator import mul

from flint import arb, arb_mat

from verify.data.dataset import Dataset
from verify.errors import UsageError
from verify.models.losses import Loss, get_loss
from verify.numbers.precision import to_arb

PARAMS = ("p", "W", "diag")


def features(data: Dataset, param: str):
    """Exact feature rows F_it (Fractions) for the linear-logit form of ``param``."""
    if param == "p":
        return data.keys()
    Z = data.queries()
    if param == "W":
        return tuple(tuple(tuple(a * b for a in x for b in z) for x in seq) for seq, z in zip(data.X, Z))
    if param == "diag":
        return tuple(tuple(tuple(a * b for a, b in zip(x, z)) for x in seq) for seq, z in zip(data.X, Z))
    raise UsageError(f"unknown parameterisation {param!r}; choose p, W or diag")


@dataclass
class SampleState:
    """The softmax state of one sequence at θ."""

    r: int  # argmax of the logits
    s: list  # softmax probabilities
    md: arb  # Σ_{t≠r} s_t (γ_t − γ_r), so φ = γ_r + md
    phi: arb
    c: list  # c_t = s_t (γ_t − φ)


class LinearLogitModel:
    """L(θ) = (1/n) Σ_i ℓ(γ_iᵀ S(F_i θ)) at the current working precision."""

    def __init__(self, feats, scores, loss: Loss | str = "logistic", opt=None):
        self.loss = get_loss(loss)
        self.n = len(feats)
        self.T = len(feats[0])
        self.D = len(feats[0][0])
        self._exact_feats = feats
        self._exact_scores = scores
        self.F = [[[to_arb(x) for x in row] for row in seq] for seq in feats]
        self.gamma = [[to_arb(x) for x in row] for row in scores]
        rows = [row for seq in self.F for row in seq]
        self._Fall = arb_mat(rows)  # (nT) × D
        self._FallT = self._Fall.transpose()
        if opt is None:
            opt = tuple(max(range(self.T), key=lambda t: g[t]) for g in scores)
        self.opt = tuple(opt)
        # exact score gaps γ_opt − γ_t (≥ 0) for the excess loss
        self._gap = [[to_arb(g[o] - g[t]) for t in range(self.T)] for g, o in zip(scores, self.opt)]
        self._gopt = [to_arb(g[o]) for g, o in zip(scores, self.opt)]
        # exact γ_t − γ_r for every possible argmax r (one rounding each; 0 exactly at t = r)
        self._dev = [[[to_arb(g[t] - g[r]) for t in range(self.T)] for r in range(self.T)] for g in scores]
        self._one = arb(1)

    @classmethod
    def from_dataset(cls, data: Dataset, param: str = "p", loss: Loss | str = "logistic") -> "LinearLogitModel":
        opts = data.optimal_tokens()
        opt = tuple(o[0] for o in opts)
        return cls(features(data, param), data.scores, loss, opt=opt)

    # ----- core ---------------------------------------------------------------------------------
    def logits(self, theta) -> list[list[arb]]:
        th = theta if isinstance(theta, arb_mat) else arb_mat(self.D, 1, [to_arb(x) for x in theta])
        a = self._Fall * th
        T = self.T
        return [[a[i * T + t, 0] for t in range(T)] for i in range(self.n)]

    def states(self, theta) -> list[SampleState]:
        out = []
        for i, (a, g) in enumerate(zip(self.logits(theta), self.gamma)):
            r = max(range(self.T), key=lambda t: a[t].mid())
            ar, gr = a[r], g[r]
            dev = self._dev[i][r]  # γ_t − γ_r from the exact scores: equal scores give exactly 0
            e = [(a[t] - ar).exp() if t != r else arb(1) for t in range(self.T)]
            Z = sum(e[1:], e[0])
            s = [x / Z for x in e]
            md = sum((s[t] * dev[t] for t in range(self.T) if t != r), arb(0))
            c = [s[t] * (dev[t] - md) if t != r else -s[r] * md for t in range(self.T)]
            out.append(SampleState(r, s, md, gr + md, c))
        return out

    def loss_value(self, theta, states=None) -> arb:
        states = states or self.states(theta)
        return sum((self.loss.value(st.phi) for st in states), arb(0)) / self.n

    def grad(self, theta, states=None) -> list[arb]:
        states = states or self.states(theta)
        w = []
        for st in states:
            lp = self.loss.d1(st.phi)
            w.extend(lp * ct for ct in st.c)
        G = self._FallT * arb_mat([[x] for x in w])
        return [G[j, 0] / self.n for j in range(self.D)]

    def loss_grad(self, theta):
        """(L, ∇L) in one pass: the formulas of ``states``/``grad`` with fewer arb operations —
        no softmax vector (one 1/Z per sequence, c_t = (e_t/Z)(dev_t − md)), ℓ'/Z folded into the
        weights, ℓ and ℓ' from one exp, C-level sum/map/max, arb_mat built from flat lists.
        (benchmarks/bench_attention.py: 1.35–1.5× faster than states()+grad() at 30–100 digits.)"""
        n, T, D = self.n, self.T, self.D
        th = theta if isinstance(theta, arb_mat) else arb_mat(D, 1, [to_arb(x) for x in theta])
        a = (self._Fall * th).entries()
        one, value_d1 = self._one, self.loss.value_d1
        w = []
        total = arb(0)
        for i in range(n):
            ai = a[i * T:(i + 1) * T]
            ar = max(ai)  # arb ">" is certain-only: near-ties within the radius keep the first
            r = ai.index(ar)
            dev = self._dev[i][r]
            e = [(x - ar).exp() if x is not ar else one for x in ai]
            invZ = 1 / sum(e)
            md = sum(map(mul, e, dev)) * invZ  # Σ_{t≠r} s_t(γ_t − γ_r): the r term is 1·0
            v, lp = value_d1(self.gamma[i][r] + md)
            total += v
            k = lp * invZ
            w.extend([(k * et) * (dt - md) for et, dt in zip(e, dev)])  # ℓ'·c_t; at t = r: −ℓ'·md/Z
        G = self._FallT * arb_mat(n * T, 1, w)
        return total / n, [x / n for x in G.entries()]

    def hessian(self, theta, states=None) -> arb_mat:
        states = states or self.states(theta)
        D, T = self.D, self.T
        H = arb_mat(D, D)
        for Fi, st in zip(self.F, states):
            Fm = arb_mat(Fi)
            g = Fm.transpose() * arb_mat([[x] for x in st.c])
            J = arb_mat(T, T)
            for t in range(T):
                for u in range(T):
                    J[t, u] = (st.c[t] if t == u else 0) - st.c[t] * st.s[u] - st.s[t] * st.c[u]
            H += self.loss.d2(st.phi) * (g * g.transpose()) + self.loss.d1(st.phi) * (Fm.transpose() * J * Fm)
        return H * (arb(1) / self.n)

    # ----- excess loss, L⋆ ----------------------------------------------------------------------
    def l_star(self) -> arb:
        return sum((self.loss.value(g) for g in self._gopt), arb(0)) / self.n

    def deltas(self, theta, states=None) -> list[arb]:
        """δ_i = Σ_{t≠opt} s_it (γ_opt − γ_it) ≥ 0, so φ_i = γ_opt − δ_i."""
        states = states or self.states(theta)
        return [
            sum((st.s[t] * gap[t] for t in range(self.T) if t != o), arb(0))
            for st, gap, o in zip(states, self._gap, self.opt)
        ]

    def excess(self, theta, states=None) -> arb:
        """L(θ) − L⋆ without cancellation (mmts spec §1.4)."""
        ds = self.deltas(theta, states)
        return sum((self.loss.excess(g, dl) for g, dl in zip(self._gopt, ds)), arb(0)) / self.n

    def mass_off(self, theta, alpha, states=None) -> list[arb]:
        """1 − s_{iα_i} for each sequence, computed as Σ_{t≠α_i} s_it."""
        states = states or self.states(theta)
        return [sum((st.s[t] for t in range(self.T) if t != a), arb(0)) for st, a in zip(states, alpha)]

    def selected(self, theta) -> tuple[int, ...]:
        return tuple(st.r for st in self.states(theta))


# ----- small vector helpers at the working precision (used across the engine) -------------------
def dot(a, b) -> arb:
    return sum((x * y for x, y in zip(a, b)), arb(0))


def norm2(a) -> arb:
    return dot(a, a).sqrt()


def scale(c, a):
    return [c * x for x in a]


def add(a, b):
    return [x + y for x, y in zip(a, b)]


def sub(a, b):
    return [x - y for x, y in zip(a, b)]


def corr(a, b) -> arb:
    return dot(a, b) / (norm2(a) * norm2(b))


def one_minus_corr(a, b) -> arb:
    """1 − cos(a, b) computed as ‖â − b̂‖²/2 (no cancellation when a ∥ b)."""
    na, nb = norm2(a), norm2(b)
    diff = [x / na - y / nb for x, y in zip(a, b)]
    return dot(diff, diff) / 2


def as_arb_vector(values) -> list[arb]:
    return [to_arb(Fraction(x)) if isinstance(x, (int, str)) else to_arb(x) for x in values]
