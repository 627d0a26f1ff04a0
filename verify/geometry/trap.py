"""The trap certificate of tfsvm Theorems 4/5 (DERIVED here): W-GD started near a spurious
locally-optimal direction W^mm_α stays trapped, for every step η ∈ (0, η̄] — a proof, not a trend.

Setting: T = 2, n = 2, α ≠ opt with one *driver* sequence (α_1 = opt_1) and one *deviant* (α_2 ≠ opt_2).
Signed feature differences D̂_i = σ_i vec((x_i1 − x_i2) z_iᵀ), σ_i = +1 if α_i is token 1 else −1, so
v_i = ⟨W, D̂_i⟩ is the logit margin of α_i; Gram ĝ_ij = ⟨D̂_i, D̂_j⟩, κ = ĝ12/ĝ11. With
c_i = (1/n)|ℓ'(φ_i)|σ'(v_i)|Δ_i| (σ the sigmoid, Δ_i = γ_i1 − γ_i2), GD W⁺ = W − η∇L acts on
a = v_1 and b = ⟨W, F⟩, F = D̂_2 − κD̂_1 (so v_2 = κa + b), exactly as

    a⁺ = a + η(ĝ11 c_1 − ĝ12 c_2),        b⁺ = b − η (det ĝ/ĝ11) c_2     (b never increases).

If κ > 1 (⇔ the deviant has margin κ > 1 in W^mm_α = D̂_1/ĝ11: no support index, Def. 2 vacuous — the
D-T2 mechanism) and ĝ12 > 0, take Ω = {a ≥ a₀, b ≥ b_lo} with a₀ = a(0), b_lo = b(0) − δ. On Ω, with
m₁ = min|ℓ'| over the driver's score hull, M₂ = max|ℓ'| over the deviant's, σ'(u) ≤ e^{−u} and
σ'(u) ≥ e^{−u}/(1 + e^{−a₀})² for u ≥ a₀:

    a⁺ − a ≥ η c e^{−a},   c = ĝ11 w₁ m₁/(1 + e^{−a₀})² − ĝ12 w₂ M₂ e^{−(κ−1)a₀ − b_lo}     (w_i = |Δ_i|/n),

so e^{a_k} ≥ e^{a₀} + kηc (e^{a⁺} ≥ e^{a}(1 + ηce^{−a})), and the total decrease of b is at most

    Σ_k η(det ĝ/ĝ11) w₂ M₂ e^{−κa_k − b_lo} ≤ C₂ e^{−b_lo} (η e^{−κa₀} + e^{(1−κ)a₀}/(c(κ − 1))),   C₂ = (det ĝ/ĝ11) w₂ M₂

(Σ_k (A + kh)^{−κ} ≤ A^{−κ} + A^{1−κ}/(h(κ−1))). If c > 0 and this total is < δ, induction keeps every
iterate in Ω: a_k → ∞, b_k ∈ [b_lo, b(0)], hence W(k)/‖W(k)‖ → D̂_1/‖D̂_1‖ = Ŵ^mm_α and
1 − corr(W(k), W^mm) → 1 − m₁^mm/(√ĝ11 ‖W^mm‖) (m₁^mm = ⟨W^mm, D̂_1⟩) ≠ 0. The total grows with η, so
one certificate at η̄ covers every η ∈ (0, η̄]. If also κa₀ + b_lo ≥ 0 (v_2 ≥ 0 on Ω: the deviant keeps
weight ≥ ½ on α_2), then for *every* k: 1 − corr(W(k), W^mm) ≥ m₂²/(2‖W^mm‖²ĝ22) with
m₂ = −⟨W^mm, D̂_2⟩ ≥ 1 (Cauchy–Schwarz on ⟨Ŵ − Ŵ^mm, D̂_2⟩ ≥ m₂/‖W^mm‖) — an exact rational floor.
Every constant is an arb enclosure or exact; the comparisons count only when certain.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb

from verify.data.dataset import Dataset
from verify.models.attention import features
from verify.models.losses import get_loss
from verify.numbers.precision import to_arb

#: the drops δ = b(0) − b_lo tried in turn (the first certified one is used: a choice independent of precision)
DROPS = (Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(4))


def _dot(a, b):
    return sum((x * y for x, y in zip(a, b)), Fraction(0))


@dataclass
class T2Reduction:
    """The two-coordinate form of W-GD on a T = 2, n = 2 dataset for the selection ``alpha``."""

    alpha: tuple
    driver: int
    deviant: int
    D1: tuple  # D̂_driver (exact, vec row-major)
    D2: tuple  # D̂_deviant
    g11: Fraction
    g12: Fraction
    g22: Fraction
    w1: Fraction  # |Δ_driver|/n
    w2: Fraction  # |Δ_deviant|/n
    hull1: tuple  # (min, max) of the driver's scores: φ_1 stays inside
    hull2: tuple

    @property
    def kappa(self) -> Fraction:
        return self.g12 / self.g11

    @property
    def det_ratio(self) -> Fraction:
        return (self.g11 * self.g22 - self.g12 ** 2) / self.g11

    @property
    def F(self) -> tuple:
        return tuple(y - self.kappa * x for x, y in zip(self.D1, self.D2))


def t2_reduction(data: Dataset, alpha) -> tuple[T2Reduction | None, str]:
    """(the reduction, "") or (None, why the certificate does not apply: also when κ ≤ 1)."""
    red, why = t2_coordinates(data, alpha)
    if red is not None and not red.kappa > 1:
        return None, (f"κ = ĝ12/ĝ11 = {red.kappa} ≤ 1: the deviant sequence is a support index of W^mm_α "
                      "(or pulls against the driver); the trap argument needs κ > 1")
    return red, why


def t2_coordinates(data: Dataset, alpha) -> tuple[T2Reduction | None, str]:
    """The (a, b) coordinates for ``alpha`` (T = 2, n = 2, exactly one deviating sequence, ĝ11 > 0), any κ."""
    if data.T != 2 or data.n != 2:
        return None, f"the trap certificate is derived for T = 2, n = 2 (here T = {data.T}, n = {data.n})"
    opts = data.optimal_tokens()
    if any(len(o) != 1 for o in opts):
        return None, "optimal token tied"
    opt = tuple(o[0] for o in opts)
    dev = [i for i in range(2) if alpha[i] != opt[i]]
    if len(dev) != 1:
        return None, f"α = {list(alpha)} deviates from opt in {len(dev)} sequences (the certificate needs exactly one)"
    j = dev[0]
    i = 1 - j
    feats = features(data, "W")
    D = []
    for s in range(2):
        sign = 1 if alpha[s] == 0 else -1
        D.append(tuple(sign * (x - y) for x, y in zip(feats[s][0], feats[s][1])))
    g = data.scores
    red = T2Reduction(tuple(alpha), i, j, D[i], D[j], _dot(D[i], D[i]), _dot(D[i], D[j]), _dot(D[j], D[j]),
                      abs(g[i][0] - g[i][1]) / data.n, abs(g[j][0] - g[j][1]) / data.n,
                      (min(g[i]), max(g[i])), (min(g[j]), max(g[j])))
    if red.g11 == 0:
        return None, "the driver's feature difference is 0"
    return red, ""


@dataclass
class TrapCertificate:
    """The constants of the trap proof at one start (arb balls), and what they prove."""

    red: T2Reduction
    a0: Fraction
    b0: Fraction
    drop: Fraction | None = None
    m1: arb | None = None
    M2: arb | None = None
    c: arb | None = None
    total: arb | None = None  # the certified bound on the total decrease of b
    proven: bool | None = None  # c > 0 and total < δ, both certain
    wrong_side: bool = False  # κa₀ + b_lo ≥ 0 (exact)
    floor: Fraction | None = None  # 1 − corr(W(k), W^mm) ≥ floor for every k (when wrong_side)
    limit: arb | None = None  # lim 1 − corr(W(k), W^mm)
    tried: list = field(default_factory=list)

    def describe(self) -> str:
        r = self.red
        s = (f"driver sequence {r.driver}, deviant {r.deviant}; ĝ11 = {r.g11}, ĝ12 = {r.g12}, ĝ22 = {r.g22}, "
             f"κ = {r.kappa}; a(0) = {float(self.a0):.6g}, b(0) = {float(self.b0):.6g}")
        if self.drop is not None:
            s += (f"; Ω = {{a ≥ a(0), b ≥ b(0) − {self.drop}}}: m₁ = {_s(self.m1)}, M₂ = {_s(self.M2)}, "
                  f"c = {_s(self.c)}, total decrease of b ≤ {_s(self.total)} < δ = {self.drop}")
        return s


def _s(x) -> str:
    return "?" if x is None else x.mid().str(6, radius=False)


def _abs_d1_range(loss, lo: Fraction, hi: Fraction) -> arb:
    """An enclosure of {|ℓ'(φ)| : φ ∈ [lo, hi]} (interval evaluation on a ball covering [lo, hi])."""
    ball = to_arb(lo).union(to_arb(hi))
    return abs(loss.d1(ball))


def trap_certificate(red: T2Reduction, W0, eta_max: arb, q, loss="logistic", drops=DROPS) -> TrapCertificate:
    """The trap proof from the exact start ``W0`` for every step η ∈ (0, ``eta_max``]; ``q`` = vec W^mm (exact)."""
    ell = get_loss(loss)
    a0, b0 = _dot(W0, red.D1), _dot(W0, red.F)
    cert = TrapCertificate(red, a0, b0)
    k = red.kappa
    rng1, rng2 = _abs_d1_range(ell, *red.hull1), _abs_d1_range(ell, *red.hull2)
    m1, M2 = arb(rng1.lower()), arb(rng2.upper())
    A0, kk = to_arb(a0), to_arb(k)
    lead = to_arb(red.g11 * red.w1) * m1 / (1 + (-A0).exp()) ** 2
    for drop in drops:
        b_lo = to_arb(b0 - drop)
        c = lead - to_arb(red.g12 * red.w2) * M2 * (-(kk - 1) * A0 - b_lo).exp()
        if not c > 0:
            cert.tried.append((drop, c, None))
            continue
        total = to_arb(red.det_ratio * red.w2) * M2 * (-b_lo).exp() * (
            eta_max * (-kk * A0).exp() + ((1 - kk) * A0).exp() / (c * (kk - 1)))
        cert.tried.append((drop, c, total))
        if total < to_arb(drop) and m1 > 0:
            cert.drop, cert.m1, cert.M2, cert.c, cert.total, cert.proven = drop, m1, M2, c, total, True
            break
    else:
        last = cert.tried[-1] if cert.tried else None
        # False only when every drop certainly fails (c ≤ 0 or total ≥ δ, certain); an undecided c or total: None
        cert.proven = False if (last and all(cc <= 0 or (t is not None and t >= to_arb(d))
                                             for d, cc, t in cert.tried)) else None
        return cert
    qq = _dot(q, q)
    m_drv, m_dev = _dot(q, red.D1), -_dot(q, red.D2)
    cert.wrong_side = k * a0 + b0 - cert.drop >= 0
    if cert.wrong_side and m_dev > 0:
        cert.floor = m_dev ** 2 / (2 * qq * red.g22)
    cert.limit = 1 - to_arb(m_drv) / (to_arb(red.g11) * to_arb(qq)).sqrt()
    return cert
