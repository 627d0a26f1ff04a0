"""Softmax-attention models: loss, gradient and Hessian, one engine for the claims and the integrators.

Every model of the three papers has logits that are linear in a parameter vector θ:

* ``p``    (mmts):  a_it = k_itᵀ p,                  features F_it = k_it           (D = d_k)
* ``W``    (tfsvm): a_it = x_itᵀ W z_i = ⟨W, x_it z_iᵀ⟩, F_it = vec(x_it z_iᵀ)      (D = d², row-major)
* ``diag`` (irgf):  a_it = βᵀ(z_i ⊙ x_it),            F_it = z_i ⊙ x_it              (D = d)

so one engine, ``LinearLogitModel``, computes L(θ) = (1/n) Σ_i ℓ(φ_i), φ_i = γ_iᵀ S(F_i θ), with
γ_it = Y_i vᵀ x_it. The factorised parameterisations (K,Q) and diagonal (k,q) sit on top
(``verify.dynamics.parameterization``) and pull the θ-gradient back by the chain rule.

The formulas (stable: never 1 − s for s ≈ 1). Per sequence let r = argmax_t a_t (the first maximum;
with balls a later logit wins only if certainly larger), dev_t = γ_t − γ_r (from the exact scores: 0
exactly at t = r and for equal scores), s_t = e^{a_t − a_r}/Σ_u e^{a_u − a_r} (e^0 = 1 exactly at r),
md = Σ_t s_t dev_t, so φ = γ_r + md and c_t := s_t(γ_t − φ) = s_t(dev_t − md). Then, with
w_it = ℓ'(φ_i) c_it, g_i = F_iᵀc_i and m_i = F_iᵀs_i,

    n·∇L  = Σ_it w_it F_it,
    n·∇²L = Σ_it w_it F_it F_itᵀ + Σ_i (g_i a_iᵀ + a_i g_iᵀ),   a_i = ½ℓ''(φ_i) g_i − ℓ'(φ_i) m_i

(= Σ_i ℓ''g_i g_iᵀ + ℓ'F_iᵀ(diag c_i − c_i s_iᵀ − s_i c_iᵀ)F_i). Excess loss: δ_i = Σ_{t≠opt} s_t(γ_opt − γ_t)
(a sum of nonnegative terms) and L − L⋆ = (1/n) Σ_i [ℓ(γ_opt − δ_i) − ℓ(γ_opt)] via expm1/log1p. arb
has an unbounded exponent, so softmax weights of e^{−10⁶} stay exact in relative terms.

One implementation (``terms``, ``_weights``, ``_gradients``, ``_hessian``) with two modes. Any number
of points go through together: one matrix product for the logits of all of them, element-wise arb
operations in plain loops over lists (one row per point and sequence), one product for the gradients.
(numpy object arrays, used before, cost a per-call dispatch that dominated at the papers' sizes: one point of
Fig. 1(a), n = 1, T = 3, took 66 µs against 25 µs now at 30 digits; at n = 8, T = 6 the two are even —
benchmarks/bench_attention.py.)

* balls (``states``, ``grad``, ``loss_grad``, ``hessian``, ``excess``; one point, what the claims
  use): θ, the features and the scores carry their radii, so every figure is an enclosure.
* midpoints (``sweep``, ``grad_hess``; s points, what the integrators of verify.dynamics use):
  the logits and score tables enter as midpoints and the gradients leave as midpoints (the
  integrators control their error by estimates). ``sweep(..., jacobians=True)`` also gives ∇L and
  ∇²L in float64 for the Newton matrices: the same expression evaluated with w scaled by 1/(n‖∇L‖)
  and ℓ'' folded in as ρ = ℓ''/|ℓ'|, so that every factor stays in float64 range however
  saturated the softmax is (``_scaled_hessians``).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import flint
import numpy as np
from flint import arb, arb_mat

from verify.data.dataset import Dataset
from verify.errors import UsageError
from verify.models.losses import Loss, get_loss
from verify.numbers.precision import to_arb

PARAMS = ("p", "W", "diag")

_NEG_INF = arb("-inf")


def features(data: Dataset, param: str):
    """Exact feature rows F_it (Fractions) for the linear-logit form of ``param`` — computed once per dataset and
    parameterisation (part of the dataset's working-precision view, ``LinearLogitModel.from_dataset``)."""
    key = ("features", param)
    if key not in data._cache:
        data._cache[key] = _exact_features(data, param)
    return data._cache[key]


def _exact_features(data: Dataset, param: str):
    if param == "p":
        return data.keys()
    Z = data.queries()
    if param == "W":
        return tuple(tuple(tuple(a * b for a in x for b in z) for x in seq) for seq, z in zip(data.X, Z))
    if param == "diag":
        return tuple(tuple(tuple(a * b for a, b in zip(x, z)) for x in seq) for seq, z in zip(data.X, Z))
    raise UsageError(f"unknown parameterisation {param!r}; choose p, W or diag")


class Stationary(Exception):
    """∇L = 0 at a point: the flow does not move."""


@dataclass
class SampleState:
    """The softmax state of one sequence at θ."""

    r: int  # argmax of the logits
    s: list  # softmax probabilities
    md: arb  # Σ_{t≠r} s_t (γ_t − γ_r), so φ = γ_r + md
    phi: arb
    c: list  # c_t = s_t (γ_t − φ)


@dataclass
class Terms:
    """Softmax terms of s points, one row per (point k, sequence i), row k·n + i: lists of arb."""

    n: int
    R: list  # (s·n,) pivot r = argmax_t a_t (ints)
    S: list  # s·n rows of T: s_t
    C: list  # s·n rows of T: c_t
    md: list  # (s·n,)
    phi: list  # (s·n,) φ = γ_r + md

    @classmethod
    def of_states(cls, states) -> "Terms":
        """One point's terms from its ``SampleState`` list."""
        return cls(len(states), [st.r for st in states], [st.s for st in states], [st.c for st in states],
                   [st.md for st in states], [st.phi for st in states])

    def states(self, k: int = 0) -> list[SampleState]:
        """The terms of point k as one ``SampleState`` per sequence."""
        a, b = k * self.n, (k + 1) * self.n
        return [SampleState(*x) for x in zip(self.R[a:b], self.S[a:b], self.md[a:b], self.phi[a:b], self.C[a:b])]


@dataclass
class Sweep:
    """∇_θL at s points (arb, to the working precision) and, when asked for, float64 copies scaled
    by the gradient norm: ``g_float[k] = ∇L/‖∇L‖``, ``H_float[k] = ∇²L/‖∇L‖`` (the scale cancels
    in the arc-length Jacobian; unscaled, e^{−10⁴}-sized values would underflow float64)."""

    grads: list  # midpoints (exact arbs)
    g_float: np.ndarray | None = None
    H_float: np.ndarray | None = None


class LinearLogitModel:
    """L(θ) = (1/n) Σ_i ℓ(γ_iᵀ S(F_i θ)) at the current working precision.

    ``kron = (X, Z)`` declares the W structure F_it = x_it ⊗ z_i (row-major; ``from_dataset`` does so
    for ``W``), which turns Σ_k w_k F_k F_kᵀ into Σ_i (X_iᵀ diag(w_i) X_i) ⊗ z_i z_iᵀ (cheaper for d²
    parameters)."""

    def __init__(self, feats, scores, loss: Loss | str = "logistic", opt=None, kron=None, mask=None):
        self.loss = get_loss(loss)
        self.n = len(feats)
        self.T = len(feats[0])
        self.D = len(feats[0][0])
        self._exact_feats = feats
        self._exact_scores = scores
        self._kron = kron
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
        # row i·T + r: γ_it − γ_ir (t = 0..T−1) from the exact scores for every possible argmax r (one
        # rounding each; 0 exactly at t = r and for equal scores); γ flat, entry i·T + r
        self._dev_rows = [[to_arb(g[t] - g[r]) for t in range(self.T)] for g in scores for r in range(self.T)]
        self._gamma_flat = [x for row in self.gamma for x in row]
        self._one = arb(1)
        # ``mask`` (n×T booleans, False = not attended: causal attention) sets those logits to −∞, so their
        # softmax weight is exactly 0 (e^−∞ = 0 in arb) and they drop out of φ, ∇L and ∇²L; token 0 of every row
        # must stay visible (the pivot search starts there). ``_masked[i]``: the hidden tokens of sequence i.
        self._masked = None
        if mask is not None and not all(all(r) for r in mask):
            if not all(r[0] for r in mask):
                raise UsageError("a mask must leave the first token of every row visible")
            self._masked = [[t for t, x in enumerate(r) if not x] for r in mask]

    @classmethod
    def from_dataset(cls, data: Dataset, param: str = "p", loss: Loss | str = "logistic") -> "LinearLogitModel":
        """The dataset's working-precision view for ``param``: features, scores, score gaps and the optimal
        tokens as arb balls at the current precision, built once per (parameterisation, loss, precision) and
        handed down — every layer that evaluates the model on this dataset shares it (a named loss; a ``Loss``
        object of the caller's own builds a fresh model)."""
        key = ("model", param, loss, flint.ctx.prec) if isinstance(loss, str) else None
        if key is not None and key in data._cache:
            return data._cache[key]
        opts = data.optimal_tokens()
        opt = tuple(o[0] for o in opts)
        kron = (data.X, data.queries()) if param == "W" else None
        model = cls(features(data, param), data.scores, loss, opt=opt, kron=kron)
        if key is not None:
            data._cache[key] = model
        return model

    # ----- the softmax terms of s points (the one implementation of the formulas) ---------------
    def terms(self, thetas, balls: bool = True) -> Terms:
        """s_t, c_t, md, φ of every sequence at each point of ``thetas``; ``balls=False`` evaluates
        at the midpoints of θ, the logits and the scores (the integrators' mode)."""
        n, T, D, s = self.n, self.T, self.D, len(thetas)
        P = arb_mat(s, D, [_arb(x) for th in thetas for x in _entries(th)]) * self._FallT  # s × nT: logits
        if balls:
            dev, gamma = self._dev_rows, self._gamma_flat
        else:
            P, dev, gamma = P.mid(), self._dev_rows_mid, self._gamma_flat_mid
        a, masked, one = P.entries(), self._masked, self._one
        R, S, C, MD, PHI = [], [], [], [], []
        for row in range(s * n):
            i = row % n
            A = a[row * T:(row + 1) * T]
            if masked is not None:
                for t in masked[i]:
                    A[t] = _NEG_INF
            r, top = 0, A[0]
            for t in range(1, T):  # the first maximum; a ball replaces it only if certainly larger
                if A[t] > top:
                    r, top = t, A[t]
            # e^0 = 1 exactly at the pivot (with balls a_r − a_r would be a ball around 0, its exp a ball around 1)
            E = [one if t == r else (x - top).exp() for t, x in enumerate(A)]
            total = E[0]
            for e in E[1:]:
                total = total + e
            St = [e / total for e in E]
            q = i * T + r  # row of (sequence, pivot) in the tables
            DV = dev[q]  # γ_t − γ_r
            md = St[0] * DV[0]  # the t = r term is s_r·0 = 0 exactly
            for t in range(1, T):
                md = md + St[t] * DV[t]
            R.append(r)
            S.append(St)
            C.append([x * (d - md) for x, d in zip(St, DV)])
            MD.append(md)
            PHI.append(gamma[q] + md)
        return Terms(n, R, S, C, MD, PHI)

    def _weights(self, tm: Terms, lp=None):
        """(ℓ'(φ) per row, the weights w_t = ℓ'(φ) c_t as one flat list, row by row; ``lp``: ℓ'(φ) when at hand)."""
        lp = [self.loss.d1(x) for x in tm.phi] if lp is None else lp
        return lp, [w * c for w, row in zip(lp, tm.C) for c in row]

    def _gradients(self, w, balls: bool = True) -> list:
        """∇L = (1/n) Fᵀw at each point (as lists; midpoints unless ``balls``); w: the weights of s points as one
        flat list (``_weights``)."""
        n, T, D = self.n, self.T, self.D
        s = len(w) // (n * T)
        G = arb_mat(s, n * T, w) * self._Fall
        E = [x / n for x in G.entries()] if balls else (G / n).mid().entries()  # the same rounding
        return [E[k * D:(k + 1) * D] for k in range(s)]

    def _hessian(self, tm: Terms, lp: list, W: list, k: int = 0) -> arb_mat:
        """∇²L at point k (arb): (Σ_t w_t F_t F_tᵀ + Σ_i g_i a_iᵀ + a_i g_iᵀ)/n."""
        n, T, D = self.n, self.T, self.D
        w = W[k * n * T:(k + 1) * n * T]
        if self._kron is None:  # Σ_k w_k F_k F_kᵀ as one product with the tabulated outer products
            H = arb_mat(D, D, (self._outer * arb_mat(len(w), 1, w)).entries())
        else:
            d, Xs, Q, perm = self._kron_tables
            P = []
            for i, Xi in enumerate(Xs):
                wi = w[i * T:(i + 1) * T]
                WX = arb_mat(T, d, [wi[t] * Xi[t, a] for t in range(T) for a in range(d)])
                P.append((Xi.transpose() * WX).entries())
            R = (arb_mat(n, d * d, [x for row in P for x in row]).transpose() * Q).entries()
            H = arb_mat(D, D, [R[j] for j in perm])
        Gcols, Acols = [], []
        for i in range(n):
            j = k * n + i
            gi = (self._FT[i] * arb_mat(T, 1, tm.C[j])).entries()
            mi = (self._FT[i] * arb_mat(T, 1, tm.S[j])).entries()
            half2 = self.loss.d2(tm.phi[j]) / 2
            Gcols.extend(gi)
            Acols.extend([half2 * a - lp[j] * b for a, b in zip(gi, mi)])
        X = arb_mat(n, D, Gcols).transpose() * arb_mat(n, D, Acols)
        return (H + X + X.transpose()) / n

    def _scaled_hessians(self, tm: Terms, lp: list, W: list, grads):
        """The same ∇²L (and ∇L) in float64 at every point, divided by ‖∇L‖: with w̃ = w/(n‖∇L‖),
        U_i = −F_iᵀw̃_i = −ℓ'_i g_i/(n‖∇L‖) and V_i = F_iᵀ(½ρ_i c_i + s_i) = −a_i/ℓ'_i, ρ_i = ℓ''_i/|ℓ'_i|
        (ℓ' < 0: the losses decrease), the low-rank part is Σ_i U_iV_iᵀ + V_iU_iᵀ."""
        n, T, s = self.n, self.T, len(grads)
        gn = [norm2(g) for g in grads]
        if any(not x > 0 for x in gn):
            raise Stationary("∇L = 0 at a stage point")
        inv, nT = [1 / (n * x) for x in gn], n * T
        Wf = np.array([float(w * inv[j // nT]) for j, w in enumerate(W)]).reshape(s, n, T)
        rho = np.array([float(self.loss.d2(x) / -y) for x, y in zip(tm.phi, lp)])  # (s·n,)
        Cf, Sf = (np.array([float(x) for row in rows for x in row]).reshape(s * n, T) for rows in (tm.C, tm.S))
        Vc = (0.5 * rho[:, None] * Cf + Sf).reshape(s, n, T)
        F = self._F_float
        H = np.einsum("sit,itab->sab", Wf, self._FF_float)
        U = -np.einsum("sit,ita->sia", Wf, F)
        V = np.einsum("sit,ita->sia", Vc, F)
        X = np.einsum("sia,sib->sab", U, V)
        H += X + X.transpose(0, 2, 1)
        return np.einsum("sit,ita->sa", Wf, F), H

    # ----- tables, built on first use ------------------------------------------------------------
    @cached_property
    def _dev_rows_mid(self):
        return [[x.mid() for x in row] for row in self._dev_rows]

    @cached_property
    def _gamma_flat_mid(self):
        return [x.mid() for x in self._gamma_flat]

    @cached_property
    def _FT(self):
        return [arb_mat(Fi).transpose() for Fi in self.F]  # per-sequence F_iᵀ (D × T)

    @cached_property
    def _outer(self):
        rows = [row for seq in self.F for row in seq]  # F_k F_kᵀ as columns (D² × nT, row-major in D²)
        D = self.D
        return arb_mat(D * D, len(rows), [rows[k][a] * rows[k][b] for a in range(D) for b in range(D)
                                          for k in range(len(rows))])

    @cached_property
    def _kron_tables(self):
        X, Z = self._kron
        d = len(Z[0])
        Xs = [arb_mat([[to_arb(v) for v in x] for x in seq]) for seq in X]
        Q = arb_mat(self.n, d * d, [to_arb(a * b) for z in Z for a in z for b in z])
        # H[(a,b),(c,e)] = R[(a,c),(b,e)] with R = P·Q, P[(a,c), i] = (XᵀWX)_i[a,c], Q[i,(b,e)] = z_b z_e
        perm = [(a * d + c) * d * d + (b * d + e)
                for a in range(d) for b in range(d) for c in range(d) for e in range(d)]
        return d, Xs, Q, perm

    @cached_property
    def _F_float(self):
        return np.array([[[float(x) for x in row] for row in seq] for seq in self.F]).reshape(self.n, self.T, self.D)

    @cached_property
    def _FF_float(self):
        return np.einsum("ita,itb->itab", self._F_float, self._F_float)

    # ----- one point, balls (the claims) ---------------------------------------------------------
    def logits(self, theta) -> list[list[arb]]:
        th = theta if isinstance(theta, arb_mat) else arb_mat(self.D, 1, [to_arb(x) for x in theta])
        a = self._Fall * th
        T = self.T
        return [[a[i * T + t, 0] for t in range(T)] for i in range(self.n)]

    def states(self, theta) -> list[SampleState]:
        return self.terms([theta]).states()

    def loss_value(self, theta, states=None) -> arb:
        states = states or self.states(theta)
        return sum((self.loss.value(st.phi) for st in states), arb(0)) / self.n

    def grad(self, theta, states=None) -> list[arb]:
        tm = self.terms([theta]) if states is None else Terms.of_states(states)
        return self._gradients(self._weights(tm)[1])[0]

    def loss_grad(self, theta):
        """(L, ∇L) from one evaluation of the terms (ℓ and ℓ' from one exp)."""
        tm = self.terms([theta])
        values, lp = zip(*[self.loss.value_d1(x) for x in tm.phi])
        return sum(values, arb(0)) / self.n, self._gradients(self._weights(tm, lp)[1])[0]

    def hessian(self, theta, states=None) -> arb_mat:
        tm = self.terms([theta]) if states is None else Terms.of_states(states)
        return self._hessian(tm, *self._weights(tm))

    # ----- s points, midpoints (the integrators) -------------------------------------------------
    def sweep(self, thetas: list, jacobians: bool = False) -> Sweep:
        """∇L at every point of ``thetas`` (midpoints); with ``jacobians`` also the scaled float64
        Hessians and gradients."""
        tm = self.terms(thetas, balls=False)
        lp, W = self._weights(tm)
        grads = self._gradients(W, balls=False)
        if not jacobians:
            return Sweep(grads)
        return Sweep(grads, *self._scaled_hessians(tm, lp, W, grads))

    def grad_hess(self, theta, balls: bool = False):
        """∇L and ∇²L at one point (∇L as midpoints unless ``balls``; ∇²L in arb)."""
        tm = self.terms([theta], balls)
        lp, W = self._weights(tm)
        return self._gradients(W, balls)[0], self._hessian(tm, lp, W)

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
        """L(θ) − L⋆ without cancellation."""
        ds = self.deltas(theta, states)
        return sum((self.loss.excess(g, dl) for g, dl in zip(self._gopt, ds)), arb(0)) / self.n

    def mass_off(self, theta, alpha, states=None) -> list[arb]:
        """1 − s_{iα_i} for each sequence, computed as Σ_{t≠α_i} s_it."""
        states = states or self.states(theta)
        return [sum((st.s[t] for t in range(self.T) if t != a), arb(0)) for st, a in zip(states, alpha)]

    def selected(self, theta) -> tuple[int, ...]:
        return tuple(st.r for st in self.states(theta))


def _arb(x) -> arb:
    return x if type(x) is arb else to_arb(x)


def _entries(theta):
    return theta.entries() if isinstance(theta, arb_mat) else theta


# ----- small vector helpers at the working precision (used across the engine) -------------------
def dot(a, b) -> arb:
    return sum((x * y for x, y in zip(a, b)), arb(0))


def norm2(a) -> arb:
    """‖a‖₂, an enclosure: the square root of ‖a‖²'s non-negative part (a ball around 0, e.g. the distance between two
    directions equal to the working precision, encloses [0, ε] instead of being NaN)."""
    return dot(a, a).nonnegative_part().sqrt()


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
