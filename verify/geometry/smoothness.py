"""Smoothness of L(p): the constant L_p of mmts (6)/(24).

mmts Lemma 6 bounds the Hessian of L(p) = (1/n) Σ_i ℓ(γ_iᵀ S(K_i p)), keys K_i = X_i W, by

    L_p := (1/n) Σ_i ( M₀ ‖v‖² ‖W‖² ‖X_i‖⁴ + 3 M₁ ‖v‖ ‖W‖² ‖X_i‖³ )        (6)/(24)

with spectral norms and (M₀, M₁) the Assumption-A constants of ℓ on [−B, B], B = max_{i,t}|γ_it|.
The same number fixes the step of GD in mmts (3), Theorems 2–3 and Lemma 1's experiments, so it
lives here and not in one claim module.

Our ``Dataset`` stores the keys (``data.K``, default X, i.e. W = I), not W. ``key_matrix`` recovers
W exactly: it solves the stacked system X W = K over the rationals and returns the minimum-norm
solution W = X⁺K (it has the least spectral norm among all solutions, so the constant is the best
the formula allows), or None when K is not of the form X W. In that case ``smoothness_constant``
uses the quantity the proof actually bounds, ‖K_i‖ in place of ‖W‖‖X_i‖ (‖K_i‖ ≤ ‖X_i‖‖W‖ is the
only place W enters the proof, (28)–(29)):

    L_K := (1/n) Σ_i ( M₀ ‖v‖² ‖X_i‖² ‖K_i‖² + 3 M₁ ‖v‖ ‖X_i‖ ‖K_i‖² )    (≤ L_p whenever K = XW).

Spectral norms are enclosed rigorously by ``verify.numbers.linalg``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb, fmpq, fmpq_mat

from verify.data.dataset import Dataset
from verify.models.losses import Loss, get_loss
from verify.numbers.linalg import spectral_norm, vector_norm_upper
from verify.numbers.precision import to_arb

# ----- rigorous norms ----------------------------------------------------------------------------
norm_upper = vector_norm_upper  # an exact upper bound on ‖vec‖₂


# ----- the key-query matrix W behind the keys ----------------------------------------------------
def _fmpq_mat(rows) -> fmpq_mat:
    return fmpq_mat([[fmpq(Fraction(x).numerator, Fraction(x).denominator) for x in row] for row in rows])


def key_matrix(data: Dataset):
    """The minimum-norm exact W (d × d_k, Fractions) with K_i = X_i W for every i, or None.

    W = I when the dataset has no keys. Otherwise W = X⁺K with X, K stacked over all sequences,
    computed in exact rationals from a rank factorisation X = C R (R: a basis of the row space)."""
    d = data.d
    if data.K is None:
        return tuple(tuple(Fraction(int(i == j)) for j in range(d)) for i in range(d))
    Xs = [row for seq in data.X for row in seq]
    Ks = [row for seq in data.K for row in seq]
    dk = len(Ks[0])
    X = _fmpq_mat(Xs)
    K = _fmpq_mat(Ks)
    R_full, r = X.rref()
    if r == 0:  # X = 0: only K = 0 is of the form X W, with W = 0
        if all(x == 0 for row in Ks for x in row):
            return tuple(tuple(Fraction(0) for _ in range(dk)) for _ in range(d))
        return None
    R = fmpq_mat([[R_full[i, j] for j in range(d)] for i in range(r)])
    Rt = R.transpose()
    C = X * Rt * (R * Rt).inv()
    Xpinv = Rt * (R * Rt).inv() * (C.transpose() * C).inv() * C.transpose()
    W = Xpinv * K
    if X * W != K:
        return None
    return tuple(tuple(Fraction(int(W[i, j].p), int(W[i, j].q)) for j in range(dk)) for i in range(d))


# ----- the constant -----------------------------------------------------------------------------
@dataclass
class SmoothnessConstant:
    """L_p of (6)/(24) (``value``) with every ingredient, for reports."""

    value: arb
    form: str  # "W" (keys = X W, W recovered) or "K" (keys not of the form X W: ‖K_i‖ used)
    loss: str
    M0: arb
    M1: arb
    B: Fraction
    norm_v: arb
    norm_W: arb | None
    norms_X: list = field(default_factory=list)
    norms_K: list = field(default_factory=list)
    proof_form: arb | None = None  # L_K (always computed; ≤ value when form == "W")

    def describe(self) -> str:
        base = f"{self.loss}: M₀ = {_s(self.M0)}, M₁ = {_s(self.M1)} on [−B, B], B = {_s(to_arb(self.B))}; ‖v‖ = {_s(self.norm_v)}"
        if self.form == "W":
            return base + f", ‖W‖₂ = {_s(self.norm_W)} (W = X⁺K recovered exactly)"
        return base + "; keys are not of the form X W: ‖W‖‖X_i‖ replaced by ‖K_i‖ (the proof's quantity)"


def _s(x, digits: int = 8) -> str:
    from verify.numbers.precision import to_decimal_string

    return to_decimal_string(x, digits)


def score_bound(data: Dataset) -> Fraction:
    """B = max_{i,t} |γ_it| (ℓ is only evaluated on [−B, B])."""
    return max(abs(g) for row in data.scores for g in row)


def smoothness_constant(data: Dataset, loss: Loss | str = "logistic", x_power: int = 4,
                        w_power: int = 2) -> SmoothnessConstant:
    """L_p of (6)/(24) at the current working precision.

    ``x_power``/``w_power`` are the exponents of ‖X_i‖ in the first term and of ‖W‖ (4 and 2 in the
    paper; the second term carries ‖X_i‖^(x_power − 1)); they exist so that tests can feed the check
    a wrong constant."""
    ell = get_loss(loss)
    B = score_bound(data)
    M0, M1 = ell.constants(to_arb(B))
    norm_v = sum((to_arb(x) ** 2 for x in data.v), arb(0)).sqrt()
    norms_X = [spectral_norm(seq) for seq in data.X]
    keys = data.keys()
    norms_K = [spectral_norm(seq) for seq in keys]
    W = key_matrix(data)
    n = data.n
    proof = sum(
        (M0 * norm_v**2 * nx**2 * nk**2 + 3 * M1 * norm_v * nx * nk**2 for nx, nk in zip(norms_X, norms_K)),
        arb(0),
    ) / n
    if W is not None:
        norm_W = spectral_norm(W)
        value = sum(
            (M0 * norm_v**2 * norm_W**w_power * nx**x_power + 3 * M1 * norm_v * norm_W**w_power * nx ** (x_power - 1)
             for nx in norms_X),
            arb(0),
        ) / n
        form = "W"
    else:
        norm_W = None
        # ‖W‖^w ‖X_i‖^x  →  ‖K_i‖^w ‖X_i‖^(x−w)   (equal powers of the key factor, as in the proof)
        value = sum(
            (M0 * norm_v**2 * nk**w_power * nx ** (x_power - w_power)
             + 3 * M1 * norm_v * nk**w_power * nx ** (x_power - 1 - w_power)
             for nx, nk in zip(norms_X, norms_K)),
            arb(0),
        ) / n
        form = "K"
    return SmoothnessConstant(value, form, ell.name, M0, M1, B, norm_v, norm_W, norms_X, norms_K, proof)
