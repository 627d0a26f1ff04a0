"""tfsvm's margin cone and the gradient correlations of its Lemmas 9–12 (v1 App. B.1, B.2, B.4).

W-form throughout: θ = vec(W) (row-major), features F_it = vec(x_it z_iᵀ) (``features(data, "W")``), so
⟨F_{i,opt} − F_it, W⟩ = (x_{i,opt} − x_it)ᵀW z_i is the margin of token t under W.

* ``WConstants``: the exact data constants of the proofs — W^mm, ‖W^mm‖² (Θ = 1/‖W^mm‖), M² = max‖x_it z_iᵀ‖²_F
  (Lemma 10), A² = max(‖x_it‖ ∨ ‖x_it − x_iτ‖)²‖z_i‖²/Θ² (eq. (53)), Γ, γ^gap_i, γ̄^gap_i.
* ``admissible_shrink``: the margin loss δ(ε) (Lemma 10) / ν(ε) (Lemma 11) that v1 leaves implicit ("for some
  δ = δ(ε)"). DERIVED here: if ‖W̄‖ = ‖W^mm‖ and ‖W̄ − W^mm‖ ≥ ε then min_{i,t} margin(W̄) ≤ 1 − 2δ with
  δ = min(ε²Θ², 2)/4. Proof: m = min margin; if m > 0, W̄/m is Att-SVM-feasible and W^mm is the projection of 0
  onto that convex set, so ⟨W̄/m − W^mm, W^mm⟩ ≥ 0, i.e. ⟨W̄, W^mm⟩ ≥ m‖W^mm‖², and
  ε² ≤ ‖W̄ − W^mm‖² = 2‖W^mm‖² − 2⟨W̄, W^mm⟩ ≤ 2‖W^mm‖²(1 − m): m ≤ 1 − ε²Θ²/2; if m ≤ 0 the bound holds when
  ε²Θ² ≤ 2, and when ε²Θ² > 2 the case m > 0 is impossible (δ = 1/2, m ≤ 0 = 1 − 2δ).
* ``CorrelationTables`` / ``correlations``: −⟨∇L(W), V⟩ for several exact V at one W, by the covariance
  identity in pairwise form with exact products (``verify.geometry.stationarity.PairTable``), states computed
  once; with the per-sequence |ℓ'(φ_i)| and q_i = 1 − s_{i,opt} = Σ_{t≠opt} s_it (stable).
* ``margin_slack``: min_{i,t} ⟨F_opt − F_t, W⟩ − μΘ‖W‖ (≥ 0 ⇔ W ∈ S_μ, eq. (48a)), a ball.
* ``cone_directions``: exact directions inside S_μ — W^mm and, along probe directions U, the points
  W^mm + tU on the boundary of S_μ (t proposed by float bisection, shrunk by 10⁻⁹ and then certified).
* ``lmm_directions``: W^mm_α of every locally-optimal α ≠ opt (the LMM rays; ``verify.svm.geometry``).
* ``at_norm``: a rational multiple of a direction with ‖·‖_F ≥ R (certified).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from flint import arb

from verify.geometry.cones import ENUMERATION_LIMIT
from verify.geometry.stationarity import PairTable
from verify.models.attention import LinearLogitModel, dot, features
from verify.numbers.exact import float_or_none, rational_above
from verify.numbers.precision import to_arb
from verify.svm.geometry import locally_optimal_selections

SHRINK = Fraction(1, 10**9)  # boundary points of S_μ are pulled inside by this relative step, then certified


def _fdot(a, b) -> Fraction:
    return sum((Fraction(x) * Fraction(y) for x, y in zip(a, b)), Fraction(0))


def sqrt_ball(x: Fraction) -> arb:
    return to_arb(Fraction(x)).sqrt()


@dataclass
class WConstants:
    q: tuple              # W^mm (exact, row-major)
    norm_sq: Fraction     # ‖W^mm‖²_F = 1/Θ²
    M_sq: Fraction        # max_{i,t} ‖x_it z_iᵀ‖²_F (Lemma 10's M²)
    A_sq: Fraction        # A² of eq. (53): max_{i,t,τ}(‖x_it‖ ∨ ‖x_it − x_iτ‖)²‖z_i‖² · ‖W^mm‖²
    Gamma: Fraction       # max_{i,t,τ} |γ_it − γ_iτ|
    gap: tuple            # γ^gap_i = γ_{i,opt} − max_{t≠opt} γ_it
    gap_bar: tuple        # γ̄^gap_i = γ_{i,opt} − min_{t≠opt} γ_it
    T: int
    n: int

    @property
    def theta(self) -> arb:
        return 1 / sqrt_ball(self.norm_sq)

    @property
    def gap_min(self) -> Fraction:
        return min(self.gap)

    @property
    def A(self) -> arb:
        return sqrt_ball(self.A_sq)


def w_constants(data, q) -> WConstants:
    q = tuple(Fraction(x) for x in q)
    Z = data.queries()
    M_sq, A0 = Fraction(0), Fraction(0)
    for seq, z in zip(data.X, Z):
        zz = _fdot(z, z)
        for x in seq:
            M_sq = max(M_sq, _fdot(x, x) * zz)
            A0 = max(A0, _fdot(x, x) * zz)
            for y in seq:
                diff = [a - b for a, b in zip(x, y)]
                A0 = max(A0, _fdot(diff, diff) * zz)
    opts = [o[0] for o in data.optimal_tokens()]
    sc = data.scores
    Gamma = max(max(g) - min(g) for g in sc)
    gap = tuple(g[o] - max(g[t] for t in range(len(g)) if t != o) for g, o in zip(sc, opts))
    gap_bar = tuple(g[o] - min(g[t] for t in range(len(g)) if t != o) for g, o in zip(sc, opts))
    nsq = _fdot(q, q)
    return WConstants(q, nsq, M_sq, A0 * nsq, Gamma, gap, gap_bar, data.T, data.n)


def admissible_shrink(eps_theta_sq: Fraction) -> Fraction:
    """δ(ε) = min(ε²Θ², 2)/4 from ε²Θ² (see the module docstring: a valid choice of v1's implicit δ, ν)."""
    return min(Fraction(eps_theta_sq), Fraction(2)) / 4


def lemma10_radius(c: WConstants, pi) -> tuple[arb, Fraction]:
    """(R_π, δ) of v1 eq. (32): R_π = δ⁻¹Θ⁻¹ log(2M̄T/π), M̄ = M/Θ, δ = δ(ε), ε = π/(2M): ε²Θ² = π²/(4M²‖W^mm‖²)."""
    pi = Fraction(pi)
    delta = admissible_shrink(pi ** 2 / (4 * c.M_sq * c.norm_sq))
    Mbar = sqrt_ball(c.M_sq * c.norm_sq)
    return (1 / (to_arb(delta) * c.theta)) * (2 * Mbar * c.T / to_arb(pi)).log(), delta


def lemma11_radius(c: WConstants, pi, mu) -> tuple[arb, arb, arb, Fraction]:
    """(R_π, R of (51), R of the ν part, ν): R_π = max((1/(μΘ))log(12TΓA/(πγ^gap_min)),
    (1/(νΘ))log(4ΓAT/(γ^gap_min π))), ν = ν(ε), ε = π/(4AΘ): ε²Θ² = π²/(16A²)."""
    pi, mu = Fraction(pi), Fraction(mu)
    nu = admissible_shrink(pi ** 2 / (16 * c.A_sq))
    G, A, g = to_arb(c.Gamma), c.A, to_arb(c.gap_min)
    r1 = (1 / (to_arb(mu) * c.theta)) * (12 * c.T * G * A / (to_arb(pi) * g)).log()
    r2 = (1 / (to_arb(nu) * c.theta)) * (4 * G * A * c.T / (g * to_arb(pi))).log()
    return (r1 if r1 > r2 else r2 if r2 > r1 else arb(max(r1.upper(), r2.upper()))), r1, r2, nu


def lemma12_radius(c: WConstants, mu) -> arb:
    """R_μ of v1 eq. (59): (1/(μΘ)) log(4TΓA/(μγ^gap_min)) (v1 prints sup for γ^gap_min; read min)."""
    mu = to_arb(Fraction(mu))
    return (1 / (mu * c.theta)) * (4 * c.T * to_arb(c.Gamma) * c.A / (mu * to_arb(c.gap_min))).log()


# ----- gradient correlations ------------------------------------------------------------------------
class CorrelationTables:
    """PairTables of several exact directions V for one model (products exact, zeros dropped)."""

    def __init__(self, model: LinearLogitModel, directions):
        self.model = model
        self.directions = [tuple(Fraction(x) for x in V) for V in directions]
        self.tables = [PairTable(model, V) for V in self.directions]


@dataclass
class Correlations:
    values: list       # −⟨∇L(W), V⟩ for each direction (arb)
    lprime: list       # |ℓ'(φ_i)|
    q: list            # q_i = 1 − s_{i,opt} (as Σ_{t≠opt} s_it)
    states: list


def correlations(tab: CorrelationTables, theta) -> Correlations:
    """−⟨∇L(W), V⟩ = −(1/n)Σ_i ℓ'(φ_i) Σ_{t<u} s_t s_u (γ_t − γ_u)((F_t − F_u)ᵀV) for every V of ``tab``."""
    model = tab.model
    theta = [x if isinstance(x, arb) else to_arb(Fraction(x)) for x in theta]
    states = model.states(theta)
    lp = [model.loss.d1(st.phi) for st in states]
    vals = []
    for pairs in tab.tables:
        tot = arb(0)
        for i, st in enumerate(states):
            tot += lp[i] * sum((st.s[t] * st.s[u] * P for t, u, P in pairs.rows[i]), arb(0))
        vals.append(-tot / model.n)
    q = [sum((st.s[t] for t in range(model.T) if t != o), arb(0)) for st, o in zip(states, model.opt)]
    return Correlations(vals, [-x for x in lp], q, states)


# ----- the margin cone S_μ --------------------------------------------------------------------------
def margin_rows(data, opt=None):
    """Exact rows F_{i,opt} − F_it (t ≠ opt_i) of the W-form margins."""
    feats = features(data, "W")
    opt = opt or [o[0] for o in data.optimal_tokens()]
    return [tuple(a - b for a, b in zip(Fi[o], Fi[t])) for Fi, o in zip(feats, opt) for t in range(len(Fi)) if t != o]


def margin_slack(rows, W, mu, theta: arb) -> arb:
    """min_{i,t} ⟨F_opt − F_t, W⟩ − μΘ‖W‖_F (a ball; certainly ≥ 0 ⇒ W ∈ S_μ)."""
    Wf = [Fraction(x) for x in W]
    m = min(_fdot(r, Wf) for r in rows)
    return to_arb(m) - to_arb(Fraction(mu)) * theta * sqrt_ball(_fdot(Wf, Wf))


def _float_slack(rows, W, mu, theta: float) -> float:
    return min(sum(float(a) * b for a, b in zip(r, W)) for r in rows) - mu * theta * math.sqrt(sum(x * x for x in W))


def cone_directions(rows, q, mu, theta: arb, probes, shrink=SHRINK):
    """[(label, exact direction)] in S_μ: W^mm, and W^mm + tU on the boundary of S_μ along each probe U
    (largest t ≤ 10⁴ by float bisection, shrunk by ``shrink`` toward W^mm; kept only if certified in S_μ)."""
    out = [("W^mm", tuple(q))]
    qf = [float_or_none(x) if x else 0.0 for x in q]
    mf, th = float_or_none(Fraction(mu)), float_or_none(theta.mid())
    if None in qf or mf is None or th is None or any(float_or_none(a) is None for r in rows for a in r if a):
        return out  # the float bisection cannot see data beyond float64: W^mm only (each probe is listed)
    for label, U in probes:
        Uf = [float_or_none(x) if x else 0.0 for x in U]
        if None in Uf:
            continue
        if _float_slack(rows, [a + 1e4 * b for a, b in zip(qf, Uf)], mf, th) >= 0:
            t = Fraction(10**4)
        else:
            lo, hi = 0.0, 1e4
            for _ in range(80):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if _float_slack(rows, [a + mid * b for a, b in zip(qf, Uf)], mf, th) >= 0 else (lo, mid)
            t = Fraction(lo).limit_denominator(10**12) * (1 - shrink)
        if t <= 0:
            continue
        W = tuple(Fraction(a) + t * Fraction(b) for a, b in zip(q, U))
        if margin_slack(rows, W, mu, theta) >= 0:
            out.append((f"boundary of S_μ along {label}", W))
    return out


def at_norm(direction, R: arb) -> tuple:
    """c·direction with c rational and ‖c·direction‖_F ≥ R certified (c rounded up to 10 significant digits). R not
    certainly > 0 (e.g. Lemma 10's R_π = δ⁻¹Θ⁻¹log(2M̄T/π) for π ≥ 2M̄T: every W qualifies): norm ≥ 1."""
    if not R > 0:
        R = arb(1)
    d = [Fraction(x) for x in direction]
    nrm = sqrt_ball(_fdot(d, d))
    cf = float_or_none((R / nrm).upper())
    if cf is not None and 1e-300 < cf < 1e300:
        c = cf * (1 + 1e-9)
        e = math.floor(math.log10(c)) - 9
        c = Fraction(math.ceil(c / 10.0 ** e)) * Fraction(10) ** e
    else:  # beyond float64: the same rounding up to 10 significant digits, exactly
        c = rational_above(R / nrm, 10)
    while not to_arb(c) * nrm >= R:
        c *= Fraction(11, 10)
    return tuple(c * x for x in d)


def lmm_directions(data, dps: int = 40, limit: int = ENUMERATION_LIMIT) -> list[tuple[tuple, tuple]]:
    """[(α, W^mm_α)] for every locally-optimal α ≠ opt (Def. 2, [T]^n enumerated by
    ``verify.svm.geometry.locally_optimal_selections``; [] when T^n exceeds ``limit``). Needs unique opt."""
    if data.T ** data.n > limit:
        return []
    opt = tuple(o[0] for o in data.optimal_tokens())
    return [(tuple(a), tuple(r.solution)) for a, r in locally_optimal_selections(data, "W", dps, limit)
            if tuple(a) != opt]


def inner(a, b) -> arb:
    return dot([to_arb(Fraction(x)) for x in a], [to_arb(Fraction(x)) for x in b])


def cone_samples(data, q, mu, theta: arb, R: arb | None = None, factors=(1,), random_dirs: int = 2, seed: int = 0):
    """[(label, exact W)]: the ``cone_directions`` of S_μ (W^mm; the boundary along ±(F_t − F_opt), ±F_it, random
    directions and mixtures of ``verify.geometry.stationarity.probe_directions``), each at ‖W‖_F ≥ f·R for f in
    ``factors`` (unscaled when R is None)."""
    from verify.geometry.stationarity import probe_directions

    opt = [o[0] for o in data.optimal_tokens()]
    probes = [(lb, d) for lb, d in probe_directions(features(data, "W"), opt, q, count=random_dirs, seed=seed)[2:]]
    dirs = cone_directions(margin_rows(data, opt), q, mu, theta, probes)
    if R is None:
        return dirs
    return [(f"{label}, ‖W‖_F ≥ {f}·R", at_norm(d, R * f)) for label, d in dirs for f in factors]
