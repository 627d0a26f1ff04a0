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

Also here, for checking (6) and the descent lemma (25) of mmts Lemma 6 on the data: a float64 search
for points of large ‖∇²L‖ (``hessian_local_maxima``: it only proposes points, which are then
re-evaluated in arb), a tight enclosure of ‖∇²L‖₂ (``hessian_norm``), and the descent ratio
ρ = (L(p) − L(p⁺))/((η/2)‖∇L(p)‖²) enclosed without cancellation (``descent_ratio``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from flint import arb, arb_mat, fmpq_mat

from verify.data.dataset import Dataset
from verify.models.attention import features
from verify.models.losses import Loss, get_loss
from verify.numbers.exact import fmpq_matrix
from verify.numbers.linalg import frobenius_upper, spectral_norm, sym_spectral_norm, vector_norm_upper
from verify.numbers.precision import to_arb

# ----- rigorous norms ----------------------------------------------------------------------------
norm_upper = vector_norm_upper  # an exact upper bound on ‖vec‖₂


# ----- the key-query matrix W behind the keys ----------------------------------------------------
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
    X = fmpq_matrix(Xs)
    K = fmpq_matrix(Ks)
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


def hessian_norm(H: arb_mat) -> arb:
    """A ball containing ‖H‖₂ of a symmetric ball matrix: the eigenvalue enclosure, intersected with
    [0, ‖H‖_F] (always valid; it keeps the answer tight when H is a matrix of balls around 0, where
    arb cannot isolate the eigenvalues and may return an absurdly wide ball)."""
    fro = frobenius_upper(H)
    cap = arb(fro) / 2 + arb(0, (arb(fro) / 2).upper())  # the interval [0, ‖H‖_F]
    norm = sym_spectral_norm(H)
    return norm.intersection(cap) if norm.is_finite() else cap  # both enclose ‖H‖₂: never disjoint


# ----- a float64 search for large ‖∇²L‖ (proposes points only; every figure is recomputed in arb) --
_F64_LOSS = {
    "logistic": (lambda u: -1 / (1 + np.exp(u)), lambda u: np.exp(-abs(u)) / (1 + np.exp(-abs(u))) ** 2),
    "exponential": (lambda u: -np.exp(-u), lambda u: np.exp(-u)),
    "correlation": (lambda u: -1.0, lambda u: 0.0),
}
_SEARCH_CACHE: dict = {}


def _hessian_norm_f64(K, G, loss: str, p) -> float:
    d1, d2 = _F64_LOSS[loss]
    H = np.zeros((K.shape[2], K.shape[2]))
    for Ki, gi in zip(K, G):
        a = Ki @ p
        s = np.exp(a - a.max())
        s /= s.sum()
        phi = s @ gi
        c = s * (gi - phi)
        g = Ki.T @ c
        J = np.diag(c) - np.outer(c, s) - np.outer(s, c)
        H += d2(phi) * np.outer(g, g) + d1(phi) * (Ki.T @ J @ Ki)
    return float(np.max(np.abs(np.linalg.eigvalsh(H / len(K)))))


def hessian_local_maxima(data: Dataset, loss: str, starts, maxiter: int = 300):
    """Nelder–Mead (float64) from each start, maximising ‖∇²L(p)‖₂; the end points as exact rationals.

    The search does not depend on the working precision, so its result is cached: the recomputation
    at a higher precision re-evaluates the same points in arb. Losses other than the three built-in
    ones are not searched (an empty list)."""
    if get_loss(loss).name not in _F64_LOSS:
        return []
    key = (data.to_json(), get_loss(loss).name, tuple(starts), maxiter)
    if key not in _SEARCH_CACHE:
        if len(_SEARCH_CACHE) > 256:
            _SEARCH_CACHE.clear()
        _SEARCH_CACHE[key] = _local_maxima(data, get_loss(loss).name, starts, maxiter)
    return _SEARCH_CACHE[key]


def _local_maxima(data: Dataset, loss: str, starts, maxiter: int):
    from scipy.optimize import minimize

    K = np.array([[[float(x) for x in row] for row in seq] for seq in features(data, "p")])
    G = np.array([[float(x) for x in row] for row in data.scores])
    found = []
    for p0 in starts:
        x0 = np.array([float(x) for x in p0])
        with np.errstate(all="ignore"):
            res = minimize(lambda p: -_hessian_norm_f64(K, G, loss, p), x0, method="Nelder-Mead",
                           options={"maxiter": maxiter, "xatol": 1e-10, "fatol": 1e-14})
        if np.all(np.isfinite(res.x)):
            found.append(tuple(Fraction(float(x)).limit_denominator(10**12) for x in res.x))
    return found


# ----- the descent lemma (25) at a point ----------------------------------------------------------
def descent_terms(model, p, eta, g=None, ex=None):
    """(L(p) − L(p⁺), (η/2)‖g‖², ‖g‖², p⁺) with g = ∇L(p), p⁺ = p − ηg (a ball containing the exact
    GD image of p); the decrease is a difference of excess losses L − L⋆, never of L itself."""
    g = model.grad(p) if g is None else g
    ex = model.excess(p) if ex is None else ex
    g2 = sum((x * x for x in g), arb(0))
    p_next = [x - eta * y for x, y in zip(p, g)]
    return ex - model.excess(p_next), eta * g2 / 2, g2, p_next


@dataclass
class DescentRatio:
    """ρ = (L(p) − L(p⁺)) / ((η/2)‖∇L(p)‖²) at one point (None when ∇L(p) = 0 exactly: p⁺ = p and
    (25) reads 0 ≤ 0), how it was enclosed, and p⁺ (a ball containing the exact GD image)."""

    rho: arb | None
    how: str  # the tighter enclosure: "difference" | "mean value"; "stationary" when ∇L(p) = 0
    g2: arb
    p_next: list


def descent_ratio(model, p, eta, g=None, ex=None) -> DescentRatio:
    """ρ enclosed twice and intersected: from the difference of excess losses, and from the mean-value
    form (Taylor with Lagrange remainder along the segment [p, p⁺])

        L(p) − L(p⁺) = η‖g‖² − (η²/2) gᵀ∇²L(ξ)g,  ξ ∈ [p, p⁺],   so   ρ = 2 − η gᵀ∇²L(ξ)g / ‖g‖²,

    with ∇²L evaluated on a box containing the segment. Both are rigorous; the first is tight when the
    step moves L visibly, the second when it does not (saturation: L(p) − L(p⁺) below what the working
    precision resolves in L − L⋆, where the difference alone cannot even decide ρ ≥ 1)."""
    drop, half, g2, p_next = descent_terms(model, p, eta, g, ex)
    if g2 == 0:
        return DescentRatio(None, "stationary", g2, p_next)
    g = model.grad(p) if g is None else g
    tau = arb("0.5", "0.5")  # the interval [0, 1]
    H = model.hessian([x - eta * y * tau for x, y in zip(p, g)])
    gm = arb_mat([[y] for y in g])
    mean_value = 2 - eta * (gm.transpose() * H * gm)[0, 0] / g2
    rho = drop / half
    if not rho.is_finite() or mean_value.rad() < rho.rad():
        how = "mean value"
    else:
        how = "difference"
    rho = rho.intersection(mean_value) if rho.is_finite() else mean_value  # disjoint would be a bug: raises
    return DescentRatio(rho, how, g2, p_next)
