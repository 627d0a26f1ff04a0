"""Parameterisations ψ ↦ θ of the attention models, pulled back onto the linear-logit engine.

``LinearLogitModel`` (verify.models.attention) computes L, ∇_θL and ∇²_θL for the three linear-logit
forms θ = p, vec(W) (row-major), β. The trained parameters ψ are

* ``p``    ψ = p,               θ = p                      (mmts)      norm ‖p‖₂   SVM kind ``p``
* ``W``    ψ = vec W,           θ = vec W                  (tfsvm)     norm ‖W‖_F  SVM kind ``W``
* ``KQ``   ψ = (vec K, vec Q),  θ = vec(K Qᵀ), K,Q ∈ ℝ^{d×m}  (tfsvm)  norm ‖KQᵀ‖_*  SVM kind ``KQ``
* ``diag`` ψ = (k, q),          θ = β = k ⊙ q              (irgf §4)   norm ‖k⊙q‖₁ SVM kind ``diag``
* ``beta`` ψ = β,               θ = β  (diagonal W trained directly; ℓ2 limit, irgf.aux.direct-beta)

Chain rule: ∇_ψL = Jᵀ∇_θL and ∇²_ψL = Jᵀ(∇²_θL)J + Σ_a (∇_θL)_a ∇²_ψθ_a, where θ is bilinear in ψ
for KQ and diag, so the second term has constant ±1 pattern times ∇_θL. Gradient flow on KQ
conserves KᵀK − QᵀQ and on diag conserves k_j² − q_j² (balancedness): ``invariants``.

Sequence-to-sequence attention (tfsvm App D; ``attention`` "seq2seq" or "causal", the default of a dataset flagged
``causal`` or carrying per-query labels ``Yq``): W and KQ on ``verify.models.seq2seq.Seq2SeqModel`` (nT query rows,
causal masking), whose SVM reference is SAtt-SVM (Frobenius for W, nuclear for KQ; ``svm_reference``), so the
regularisation paths and flows run through the same code.
"""
from __future__ import annotations

import random
from fractions import Fraction

import flint
import mpmath
import numpy as np
from flint import arb, arb_mat

from verify.data.dataset import Dataset
from verify.errors import UsageError
from verify.models.attention import LinearLogitModel, norm2
from verify.models.seq2seq import Seq2SeqModel, attention_of
from verify.numbers.precision import to_arb

PARAMETERIZATIONS = ("p", "W", "KQ", "diag", "beta")
NORM_NAMES = {"p": "‖p‖₂", "W": "‖W‖_F", "KQ": "‖KQᵀ‖_*", "diag": "‖k⊙q‖₁", "beta": "‖β‖₂"}


def _mid(x: arb) -> arb:
    return arb(x.mid())


def arb_to_mpf(x: arb):
    """The midpoint of an arb ball as an exact mpmath number."""
    m, e = x.mid().man_exp()
    return mpmath.mpf((int(m), int(e)))


def nuclear_norm(W: list[list[arb]]) -> arb:
    """‖W‖_* (sum of singular values) at the working precision (midpoint value).

    The eigenvalues of the symmetric [[0, W], [Wᵀ, 0]] are ±σ_i (and zeros), so ‖W‖_* = ½ Σ|λ|, from
    flint's approximate eigenvalues (~4× faster than mpmath's SVD on 4 × 4 at 100 digits; both have
    absolute errors ~2^−prec·‖W‖, no square roots of small Gram eigenvalues). Checked against
    Σλ² = 2‖W‖_F²; should that fail (a QR iteration that did not converge), mpmath's SVD decides."""
    d, e = len(W), len(W[0]) if W else 0
    if d and e:
        M = arb_mat(d + e, d + e)
        for a, row in enumerate(W):
            for b, x in enumerate(row):
                M[a, d + b] = M[d + b, a] = x.mid()
        lam = [x.real.mid() for x in M.eig(algorithm="approx")]
        fro2 = sum((x.mid() * x.mid() for row in W for x in row), arb(0))
        if abs(sum((x * x for x in lam), arb(0)) - 2 * fro2) <= arb(2) ** (16 - flint.ctx.prec) * fro2:
            return (sum((abs(x) for x in lam), arb(0)) / 2).mid()
    M = mpmath.matrix([[arb_to_mpf(x) for x in row] for row in W])
    sv = mpmath.svd_r(M, compute_uv=False)
    return sum((arb(mpmath.nstr(x, mpmath.mp.dps + 5, strip_zeros=False)) for x in sv), arb(0))


class Parameterization:
    """One parameterisation on one dataset; ``model`` is the LinearLogitModel of θ."""

    name = "?"
    base = "p"  # LinearLogitModel param of θ
    svm_kind = "p"
    attention = "single"

    def __init__(self, data: Dataset, loss="logistic", model: LinearLogitModel | None = None):
        self.data = data
        self.model = model or LinearLogitModel.from_dataset(data, self.base, loss)
        self.d = data.d

    # ----- shapes and maps -----------------------------------------------------------------------
    @property
    def dim(self) -> int:
        return self.model.D

    def theta(self, psi):
        return list(psi)

    def pull_grad(self, psi, g):
        return list(g)

    def pull_hess(self, psi, g, H: arb_mat) -> arb_mat:
        return H

    def norm(self, psi) -> arb:
        """The norm of the matching SVM, measured on θ."""
        return norm2(self.theta(psi))

    def invariants(self, psi):
        """Quantities conserved by gradient flow (None when there are none)."""
        return None

    def default_init(self, seed: int = 0):
        return [arb(0)] * self.dim

    # ----- loss and derivatives in ψ -------------------------------------------------------------
    def loss_grad(self, psi):
        th = self.theta(psi)
        st = self.model.states(th)
        return self.model.loss_value(th, st), self.pull_grad(psi, self.model.grad(th, st)), st

    def grad(self, psi):
        return self.pull_grad(psi, self.model.sweep([self.theta(psi)]).grads[0])

    def grad_hess(self, psi):
        g, H = self.model.grad_hess(self.theta(psi))
        return self.pull_grad(psi, g), self.pull_hess(psi, g, H)

    def grads(self, psis, jacobians: bool = False):
        """∇_ψL at each point of ``psis`` (arb midpoints) and, with ``jacobians``, float64 arrays
        (g̃, H̃) (s × dim, s × dim × dim): ∇_ψL and ∇²_ψL at each point divided by one positive scale
        per point (``LinearLogitModel.sweep``), for Newton matrices; otherwise (grads, None, None)."""
        thetas, pull = self.batch(psis)
        sw = self.model.sweep(thetas, jacobians)
        grads = pull(sw.grads)
        if not jacobians:
            return grads, None, None
        gf, Hf = self.pull_float(np.array([[float(x) for x in p] for p in psis]), sw.g_float, sw.H_float)
        return grads, gf, Hf

    def batch(self, psis):
        """(θ at each point, a function pulling the list of ∇_θL back to ∇_ψL midpoints) — ``grads``'
        two ends, which a parameterisation may share work between."""
        def pull(grads):
            return [arb_mat(1, len(g), g).mid().entries() for g in (self.pull_grad(p, g) for p, g in zip(psis, grads))]
        return [self.theta(p) for p in psis], pull

    def pull_float(self, P: np.ndarray, g: np.ndarray, H: np.ndarray):
        """``pull_grad``/``pull_hess`` in float64 for s points at once (rows of P)."""
        return g, H

    def excess(self, psi) -> arb:
        return self.model.excess(self.theta(psi))

    def svm_reference(self, select="opt", dps: int = 60):
        """The matching SVM's solution (flat, arb) for the selection ``select`` ("opt" or the per-row argmax
        tokens), or None when infeasible / unsolved (``verify.dynamics.svmref``)."""
        from verify.dynamics.svmref import svm_direction

        return svm_direction(self.data, self.svm_kind, select, dps)

    def selected(self, psi) -> tuple:
        return self.model.selected(self.theta(psi))

    def __repr__(self):
        return f"Parameterization({self.name})"


class Prompt(Parameterization):
    name, base, svm_kind = "p", "p", "p"


class FullW(Parameterization):
    name, base, svm_kind = "W", "W", "W"


class DirectBeta(Parameterization):
    """Diagonal W = diag(β) trained directly (ℓ2 geometry)."""

    name, base, svm_kind = "beta", "diag", "beta"


class DiagKQ(Parameterization):
    """K = [diag(k) 0], Q = [diag(q) 0]: β = k ⊙ q (irgf §4)."""

    name, base, svm_kind = "diag", "diag", "diag"

    @property
    def dim(self):
        return 2 * self.d

    def split(self, psi):
        return psi[: self.d], psi[self.d:]

    def theta(self, psi):
        k, q = self.split(psi)
        return [a * b for a, b in zip(k, q)]

    def pull_grad(self, psi, g):
        k, q = self.split(psi)
        return [gj * qj for gj, qj in zip(g, q)] + [gj * kj for gj, kj in zip(g, k)]

    def pull_hess(self, psi, g, H):
        d = self.d
        k, q = self.split(psi)
        J = arb_mat(d, 2 * d)
        for j in range(d):
            J[j, j] = q[j]
            J[j, d + j] = k[j]
        out = J.transpose() * H * J
        for j in range(d):
            out[j, d + j] += g[j]
            out[d + j, j] += g[j]
        return out

    def pull_float(self, P, g, H):
        d = self.d
        k, q = P[:, :d], P[:, d:]
        J = np.zeros((len(P), d, 2 * d))
        idx = np.arange(d)
        J[:, idx, idx], J[:, idx, d + idx] = q, k
        out = J.transpose(0, 2, 1) @ H @ J
        out[:, idx, d + idx] += g
        out[:, d + idx, idx] += g
        return np.concatenate([g * q, g * k], axis=1), out

    def norm(self, psi):
        return sum((abs(b) for b in self.theta(psi)), arb(0))

    def invariants(self, psi):
        k, q = self.split(psi)
        return [a * a - b * b for a, b in zip(k, q)]

    def default_init(self, seed: int = 0, omega0=None):
        """irgf Eq. (5): ξ_k(0) = √2·ω₀, ξ_q(0) = 0, with ω₀ = 𝟙 unless given (every ω₀_j ≠ 0)."""
        omega0 = [arb(1)] * self.d if omega0 is None else [to_arb(Fraction(x)) if not isinstance(x, arb) else x for x in omega0]
        return [arb(2).sqrt() * w for w in omega0] + [arb(0)] * self.d


class KQ(Parameterization):
    """W = K Qᵀ with K, Q ∈ ℝ^{d×m} stored row-major, ψ = (vec K, vec Q)."""

    name, base, svm_kind = "KQ", "W", "KQ"

    def __init__(self, data, loss="logistic", model=None, m: int | None = None):
        super().__init__(data, loss, model)
        self.m = m or data.d

    @property
    def dim(self):
        return 2 * self.d * self.m

    def mats(self, psi):
        d, m = self.d, self.m
        K = [psi[a * m:(a + 1) * m] for a in range(d)]
        Q = [psi[d * m + a * m: d * m + (a + 1) * m] for a in range(d)]
        return K, Q

    def _KQ(self, psi):
        d, m = self.d, self.m
        return arb_mat(d, m, list(psi[:d * m])), arb_mat(d, m, list(psi[d * m:]))

    def W(self, psi):
        K, Q = self._KQ(psi)
        return (K * Q.transpose()).tolist()

    def theta(self, psi):
        K, Q = self._KQ(psi)
        return (K * Q.transpose()).entries()

    def pull_grad(self, psi, g):
        return self._pull(*self._KQ(psi), g)

    def _pull(self, K, Q, g, mid=False):
        G = arb_mat(self.d, self.d, list(g))
        dK, dQ = G * Q, G.transpose() * K  # ∂L/∂K = G Q, ∂L/∂Q = Gᵀ K
        return (dK.mid().entries() + dQ.mid().entries()) if mid else (dK.entries() + dQ.entries())

    def batch(self, psis):
        mats = [self._KQ(p) for p in psis]  # K, Q once per point for both ends
        return ([(K * Q.transpose()).entries() for K, Q in mats],
                lambda grads: [self._pull(K, Q, g, mid=True) for (K, Q), g in zip(mats, grads)])

    def pull_hess(self, psi, g, H):
        d, m = self.d, self.m
        K, Q = self.mats(psi)
        J = arb_mat(d * d, 2 * d * m)
        for a in range(d):
            for b in range(d):
                for e in range(m):
                    J[a * d + b, a * m + e] = Q[b][e]  # ∂W_ab/∂K_ae
                    J[a * d + b, d * m + b * m + e] = K[a][e]  # ∂W_ab/∂Q_be
        out = J.transpose() * H * J
        for a in range(d):
            for b in range(d):
                for e in range(m):
                    i, j = a * m + e, d * m + b * m + e
                    out[i, j] += g[a * d + b]
                    out[j, i] += g[a * d + b]
        return out

    def pull_float(self, P, g, H):
        d, m = self.d, self.m
        # ∂W_ab/∂K_ae = Q_be and ∂W_ab/∂Q_be = K_ae: row r = ab, columns cK = ae, cQ = dm + be
        a, b, e = (x.ravel() for x in np.meshgrid(np.arange(d), np.arange(d), np.arange(m), indexing="ij"))
        r, cK, cQ = a * d + b, a * m + e, d * m + b * m + e
        J = np.zeros((len(P), d * d, 2 * d * m))
        J[:, r, cK], J[:, r, cQ] = P[:, cQ], P[:, cK]
        out = J.transpose(0, 2, 1) @ H @ J
        out[:, cK, cQ] += g[:, r]
        out[:, cQ, cK] += g[:, r]
        return np.einsum("sra,sr->sa", J, g), out

    def norm(self, psi):
        return nuclear_norm(self.W(psi))

    def invariants(self, psi):
        K, Q = self.mats(psi)
        m, d = self.m, self.d
        return [sum((K[a][e] * K[a][f] - Q[a][e] * Q[a][f] for a in range(d)), arb(0)) for e in range(m) for f in range(m)]

    def default_init(self, seed: int = 0, scale="1/10"):
        """Small seeded Gaussian K(0), Q(0) (zero is stationary); entries exact binary floats × scale."""
        rng = random.Random(seed)
        sc = Fraction(scale)
        return [to_arb(Fraction(rng.gauss(0.0, 1.0)) * sc) for _ in range(self.dim)]


class _Seq2Seq:
    """Sequence-to-sequence attention: the nT-row model (causal masking per ``causal``) and SAtt-SVM references."""

    def _setup(self, data, loss, model, causal):
        self.causal = bool(causal)
        self.attention = "causal" if self.causal else "seq2seq"
        return model or Seq2SeqModel(data, self.causal, loss)

    def svm_reference(self, select="opt", dps: int = 60):
        from verify.dynamics.svmref import satt_direction

        alpha = None if isinstance(select, str) else self.model.alpha(select)
        return satt_direction(self.data, self.causal, alpha, "nuc" if self.svm_kind == "KQ" else "fro", dps)


class Seq2SeqW(_Seq2Seq, FullW):
    """W on sequence-to-sequence attention (every token a query; causal: query k sees t ≤ k)."""

    def __init__(self, data, loss="logistic", model=None, causal: bool = False):
        super().__init__(data, loss, self._setup(data, loss, model, causal))


class Seq2SeqKQ(_Seq2Seq, KQ):
    """W = KQᵀ on sequence-to-sequence attention."""

    def __init__(self, data, loss="logistic", model=None, m: int | None = None, causal: bool = False):
        super().__init__(data, loss, self._setup(data, loss, model, causal), m=m)


_CLASSES = {"p": Prompt, "W": FullW, "KQ": KQ, "diag": DiagKQ, "beta": DirectBeta}
_SEQ2SEQ = {"W": Seq2SeqW, "KQ": Seq2SeqKQ}


def make_parameterization(data: Dataset, param: str, loss="logistic", attention: str | None = None,
                          **kw) -> Parameterization:
    """The parameterisation ``param`` (p, W, KQ, diag, beta) on ``data`` with ``loss``; ``attention`` "single",
    "seq2seq" or "causal" (default: the dataset's, ``verify.models.seq2seq.attention_of``)."""
    try:
        cls = _CLASSES[param]
    except KeyError:
        raise UsageError(f"unknown parameterisation {param!r}; choose one of {', '.join(PARAMETERIZATIONS)}")
    att = attention_of(data, attention)
    if att != "single":
        if param not in _SEQ2SEQ:
            raise UsageError(f"sequence-to-sequence ({att}) attention is implemented for W and KQ, not {param!r}")
        return _SEQ2SEQ[param](data, loss, causal=att == "causal", **kw)
    return cls(data, loss, **kw)


def mid_vector(v):
    return [_mid(x) for x in v]
