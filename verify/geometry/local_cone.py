"""tfsvm's local cone around a locally-optimal direction W^mm_α and its constants (v1 §5.1, App. C: Theorem 7,
Lemmas 13 and 14).

W-form throughout (θ = vec W row-major, F_it = vec(x_it z_iᵀ), ``features(data, "W")``): the margin of token t under
W is ⟨F_{iα_i} − F_it, W⟩ = (x_{iα_i} − x_it)ᵀW z_i.

* ``LocalCone``: a selection α, its exact Att-SVM solution W^mm_α (``verify.svm.geometry.local_optimality``), the
  support indices 𝒯_i = {t ≠ α_i : margin exactly 1} (exact: the QP solution is rational), 𝒯̄_i the others, and
  the constants of Lemma 13 / eq. (74), exact where no root or logarithm enters:
    δ = ½ min_i min_{t∈𝒯_i, τ∈𝒯̄_i} (x_it − x_iτ)ᵀW^mm_α z_i = ½ min (m_iτ − 1)   (None = +∞: no such pair),
    A² = max_{i,t} ‖x_it z_iᵀ‖²_F · ‖W^mm_α‖²_F            (A = max‖x_it z_iᵀ‖/Θ, Θ = 1/‖W^mm_α‖_F),
    μ(α) = (1/8)(min(½, δ)/A)² = min(½, δ)²/(8A²)           (exact rational),
    Γ = max_{i,t,τ}|γ_it − γ_iτ|, γ^gap_i = γ_{iα_i} − max_{t∈𝒯_i}γ_it, γ̄^gap_i = γ_{iα_i} − min_{t∈𝒯_i}γ_it
      (None where 𝒯_i = ∅: the spec restricts the per-sequence bounds to sequences with a support index),
    R = max(2, 1/δ)·‖W^mm_α‖·log(64TΓA/γ^gap_min)          (eq. (74), an arb ball; 1/δ = 0 when δ = ∞).
  On D-LMM, α = B: δ = 1/5, A² = 8/5, μ = 1/320, R ≈ 27.7 (spec §4).
* Cone membership cone_μ(W^mm_α) = {corr(W, W^mm_α) ≥ 1 − μ} decided EXACTLY for rational W (``cone_slack``:
  ⟨W,w⟩|⟨W,w⟩| − (1 − μ)²‖W‖²‖w‖², same sign as corr − (1 − μ)); ``corr_margin`` is μ − (1 − corr) as a ball
  (what the reports show).
* ``boundary_point``: w + tU for U ⊥ W^mm_α (exact projection), t rational just below the exact boundary value
  (t² ≤ ‖w‖²((1 − μ)^{-2} − 1)/‖U‖², decided exactly), so the point is certified inside the cone, within a relative
  ``SHRINK`` of its boundary. ``transverse_directions``: the U's — toward every other locally-optimal direction
  W^mm_β (the GMM included), toward ±(F_t − F_{α}) of every token, and seeded random ones (a random direction in
  d² also leaves the feature span, where ∇L has no component); directions on the same ray are listed once.
* ``local_cones``: the locally-optimal α of a dataset (enumerated, bounded by ``ENUMERATION_LIMIT``).
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb

from verify.geometry.cones import ENUMERATION_LIMIT
from verify.models.attention import features
from verify.numbers.exact import float_or_none
from verify.numbers.precision import to_arb
from verify.svm.geometry import local_optimality

#: boundary points of cone_μ are pulled inside by this relative step of t (then certified exactly)
SHRINK = Fraction(1, 10**9)


def _fdot(a, b) -> Fraction:
    return sum((Fraction(x) * Fraction(y) for x, y in zip(a, b)), Fraction(0))


def sqrt_ball(x) -> arb:
    return to_arb(Fraction(x)).sqrt()


def one_indexed(alpha) -> str:
    return "(" + ", ".join(str(a + 1) for a in alpha) + ")"


@dataclass
class LocalCone:
    """A selection α, its SVM and the local-cone constants of v1 Lemma 13 / eq. (74) (see the module docstring)."""

    alpha: tuple
    feasible: bool
    locally_optimal: bool
    reason: str
    w: tuple = ()                 # vec W^mm_α (exact, row-major)
    norm_sq: Fraction = Fraction(0)
    support: dict = field(default_factory=dict)      # i -> [t ∈ 𝒯_i]
    non_support: dict = field(default_factory=dict)  # i -> [τ ∈ 𝒯̄_i]
    margins: dict = field(default_factory=dict)      # (i, t) -> exact margin of W^mm_α
    delta: Fraction | None = None  # None: +∞ (no pair t ∈ 𝒯_i, τ ∈ 𝒯̄_i in any sequence)
    A_sq: Fraction = Fraction(0)
    Gamma: Fraction = Fraction(0)
    gap: tuple = ()               # γ^gap_i (None where 𝒯_i = ∅)
    gap_bar: tuple = ()           # γ̄^gap_i (None where 𝒯_i = ∅)
    n: int = 0
    T: int = 0

    @property
    def name(self) -> str:
        return f"α = {one_indexed(self.alpha)}"

    @property
    def mu(self) -> Fraction:
        """μ(α) = (1/8)(min(½, δ)/A)² (exact)."""
        m = Fraction(1, 2) if self.delta is None else min(Fraction(1, 2), self.delta)
        return m * m / (8 * self.A_sq)

    @property
    def gap_min(self) -> Fraction | None:
        """min γ^gap_i over the sequences with 𝒯_i ≠ ∅ (None if there is none)."""
        gs = [g for g in self.gap if g is not None]
        return min(gs) if gs else None

    @property
    def A(self) -> arb:
        return sqrt_ball(self.A_sq)

    @property
    def norm(self) -> arb:
        return sqrt_ball(self.norm_sq)

    @property
    def radius_factor(self) -> Fraction:
        """max(2, 1/δ) of eq. (74) (1/δ = 0 for δ = ∞)."""
        return Fraction(2) if self.delta is None else max(Fraction(2), 1 / self.delta)

    def radius(self) -> arb | None:
        """R of eq. (74): max(2, 1/δ)/Θ · log(64TΓA/γ^gap_min); None when γ^gap_min is undefined or ≤ 0 (α not
        locally optimal: the logarithm's argument is not positive)."""
        g = self.gap_min
        if g is None or not g > 0:
            return None
        return to_arb(self.radius_factor) * self.norm * (64 * self.T * to_arb(self.Gamma) * self.A / to_arb(g)).log()

    def empty_support(self) -> list[int]:
        """The sequences with 𝒯_i = ∅ (0-indexed)."""
        return [i for i in range(self.n) if not self.support.get(i)]

    def describe(self) -> str:
        if not self.feasible:
            return f"{self.name}: Att-SVM(α) infeasible"
        sup = "; ".join(f"𝒯_{i + 1} = {{{', '.join(str(t + 1) for t in self.support.get(i, []))}}}"
                        for i in range(self.n))
        return (f"{self.name}: ‖W^mm_α‖² = {self.norm_sq}, {sup} (1-indexed), δ = "
                f"{'∞' if self.delta is None else self.delta}, A² = {self.A_sq}, μ(α) = {self.mu}, Γ = {self.Gamma}, "
                f"γ^gap_min = {self.gap_min}")


def local_cone(data, alpha, dps: int = 40) -> LocalCone:
    """The exact local-cone data of selection ``alpha`` (0-indexed tokens)."""
    alpha = tuple(int(a) for a in alpha)
    ok, res, reason = local_optimality(data, alpha, "W", dps)
    n, T = data.n, data.T
    if res.status != "optimal":
        return LocalCone(alpha, False, False, reason, n=n, T=T)
    w = tuple(Fraction(x) for x in res.solution)
    feats = features(data, "W")
    margins, nb, non = {}, {}, {}
    for i, Fi in enumerate(feats):  # 𝒯_i decided on the exact margins of the rational solution
        a = alpha[i]
        nb[i], non[i] = [], []
        for t in range(T):
            if t == a:
                continue
            margins[(i, t)] = _fdot([x - y for x, y in zip(Fi[a], Fi[t])], w)
            (nb if margins[(i, t)] == 1 else non)[i].append(t)
    pairs = [margins[(i, tau)] - margins[(i, t)] for i in range(n) for t in nb.get(i, []) for tau in non[i]]
    delta = min(pairs) / 2 if pairs else None
    Z = data.queries()
    M_sq = max(_fdot(x, x) * _fdot(z, z) for seq, z in zip(data.X, Z) for x in seq)
    sc = data.scores
    Gamma = max(max(g) - min(g) for g in sc)
    gap = tuple((sc[i][alpha[i]] - max(sc[i][t] for t in nb[i])) if nb.get(i) else None for i in range(n))
    gap_bar = tuple((sc[i][alpha[i]] - min(sc[i][t] for t in nb[i])) if nb.get(i) else None for i in range(n))
    nsq = _fdot(w, w)
    return LocalCone(alpha, True, ok, reason, w, nsq, {i: list(nb.get(i, [])) for i in range(n)}, non, margins,
                     delta, M_sq * nsq, Gamma, gap, gap_bar, n, T)


def local_cones(data, dps: int = 40, limit: int = ENUMERATION_LIMIT) -> list[LocalCone] | None:
    """Every locally-optimal α (enumerating [T]^n; the GMM included); None when T^n exceeds ``limit``."""
    if data.T ** data.n > limit:
        return None
    out = []
    for alpha in itertools.product(range(data.T), repeat=data.n):
        c = local_cone(data, alpha, dps)
        if c.locally_optimal:
            out.append(c)
    return out


# ----- membership -------------------------------------------------------------------------------------
def cone_slack(W, w, mu) -> Fraction:
    """⟨W,w⟩|⟨W,w⟩| − (1 − μ)²‖W‖²‖w‖² (exact): ≥ 0 ⇔ corr(W, w) ≥ 1 − μ (for 0 < μ < 1, W ≠ 0)."""
    W = [Fraction(x) for x in W]
    ip = _fdot(W, w)
    return ip * abs(ip) - (1 - Fraction(mu)) ** 2 * _fdot(W, W) * _fdot(w, w)


def corr_margin(W, w, mu) -> arb:
    """μ − (1 − corr(W, w)) as a ball (1 − corr as ‖Ŵ − ŵ‖²/2: no cancellation near the axis)."""
    Wa = [x if isinstance(x, arb) else to_arb(Fraction(x)) for x in W]
    wa = [to_arb(Fraction(x)) for x in w]
    nW = sum((x * x for x in Wa), arb(0)).sqrt()
    nw = sum((x * x for x in wa), arb(0)).sqrt()
    diff = [a / nW - b / nw for a, b in zip(Wa, wa)]
    return to_arb(Fraction(mu)) - sum((x * x for x in diff), arb(0)) / 2


# ----- probe points in the cone -------------------------------------------------------------------------
def project_out(U, w) -> tuple:
    """U − (⟨U,w⟩/‖w‖²)w (exact)."""
    c = _fdot(U, w) / _fdot(w, w)
    return tuple(Fraction(u) - c * x for u, x in zip(U, w))


def same_ray(a, b) -> bool:
    """a = c·b for some c > 0 (exact; a, b ≠ 0)."""
    k = next((j for j, x in enumerate(b) if x != 0), None)
    if k is None or a[k] == 0:
        return False
    c = Fraction(a[k]) / Fraction(b[k])
    return c > 0 and all(Fraction(x) == c * Fraction(y) for x, y in zip(a, b))


def _root_below(q: Fraction) -> Fraction:
    """A rational r ≤ √q within a relative 10⁻¹² of it (q ≥ 0), exactly: isqrt(ab·S²)/(bS) for q = a/b, S = 10¹²·b."""
    a, b = q.numerator, q.denominator
    S = 10**12 * b
    return Fraction(math.isqrt(a * b * S * S), b * S)


def boundary_point(w, U, mu, shrink=SHRINK) -> tuple | None:
    """w + tU (U ⊥ w) with t ≤ its boundary value, certified in cone_μ(w) exactly; None if U = 0."""
    uu = _fdot(U, U)
    if uu == 0:
        return None
    mu = Fraction(mu)
    bound = _fdot(w, w) * (1 / (1 - mu) ** 2 - 1) / uu  # t² ≤ bound ⇔ corr ≥ 1 − μ
    f = float_or_none(bound)
    t = Fraction(math.sqrt(f)).limit_denominator(10**12) * (1 - shrink) if f is not None else None
    if t is None or t * t > bound:  # beyond float64, or √bound below ~10⁻¹² (a 10¹² denominator overshoots it)
        t = _root_below(bound) * (1 - shrink)
    W = tuple(Fraction(a) + t * Fraction(b) for a, b in zip(w, U))
    return W if cone_slack(W, w, mu) >= 0 else None


def transverse_directions(data, cone: LocalCone, others=(), random_dirs: int = 2, seed: int = 0):
    """[(label, U ⊥ W^mm_α)] — toward each direction of ``others`` ([(label, W)]: the other locally-optimal
    directions), toward ±(F_it − F_{iα_i}) (a non-selected token gaining), and seeded random directions."""
    w = cone.w
    out: list = []

    def add(label, d):
        U = project_out(d, w)
        if any(U) and not any(same_ray(U, e) for _, e in out):
            out.append((label, U))

    for label, d in others:
        add(f"toward {label}", d)
    feats = features(data, "W")
    for i, Fi in enumerate(feats):
        a = cone.alpha[i]
        for t in range(data.T):
            if t == a:
                continue
            diff = tuple(x - y for x, y in zip(Fi[t], Fi[a]))
            add(f"toward token {t + 1} of sequence {i + 1}", diff)
            add(f"away from token {t + 1} of sequence {i + 1}", tuple(-x for x in diff))
    rng = random.Random(seed)
    for k in range(random_dirs):
        add(f"random {k + 1} (seed {seed})", tuple(Fraction(rng.randint(-100, 100), 37) for _ in range(len(w))))
    return out


def cone_directions(data, cone: LocalCone, mu=None, others=(), random_dirs: int = 2, seed: int = 0):
    """[(label, exact direction in cone_μ(W^mm_α))]: W^mm_α itself and a boundary point along every transverse
    direction (μ = μ(α) unless given)."""
    mu = cone.mu if mu is None else Fraction(mu)
    out = [("W^mm_α", cone.w)]
    for label, U in transverse_directions(data, cone, others, random_dirs, seed):
        W = boundary_point(cone.w, U, mu)
        if W is not None:
            out.append((f"cone boundary {label}", W))
    return out


def lmm_selections(data, alphas=None, dps: int = 40, require: bool = True) -> tuple[bool | None, str, list]:
    """(met, detail, cones) of the hypothesis "α locally optimal (Def. 2), W^mm_α exists": the given ``alphas``
    (0-indexed; each must be locally optimal — ``require=False`` keeps every feasible one, for false cases) or every
    locally-optimal α of [T]^n (enumerated; beyond ``ENUMERATION_LIMIT`` α = opt alone, said in the detail)."""
    if alphas is not None:
        cones = [local_cone(data, a, dps) for a in alphas]
        bad = [c for c in cones if not c.locally_optimal]
        detail = ("; ".join(f"{c.name}: {c.reason}" for c in bad) if bad else
                  "; ".join(c.describe() for c in cones))
        if not require:
            return True, "not required (false case): " + detail, [c for c in cones if c.feasible]
        return not bad, detail, cones
    cones = local_cones(data, dps)
    if cones is None:
        opts = data.optimal_tokens()
        c = local_cone(data, tuple(o[0] for o in opts), dps) if all(len(o) == 1 for o in opts) else None
        ok = c is not None and c.locally_optimal
        return ok, (f"[T]^n = {data.T}^{data.n} too large to enumerate: α = opt only" +
                    (f"; {c.describe()}" if c is not None else "; opt tied")), [c] if ok else []
    if not cones:
        return False, "no locally-optimal selection in [T]^n", []
    return True, "every locally-optimal α of [T]^n: " + "; ".join(c.describe() for c in cones), cones


def other_directions(cones, cone: LocalCone) -> list:
    """[(label, W^mm_β)] of the locally-optimal β ≠ α among ``cones`` (the transverse probes "toward W^mm_β")."""
    return [(f"W^mm_β, β = {one_indexed(c.alpha)}", c.w) for c in cones if c.alpha != cone.alpha]
