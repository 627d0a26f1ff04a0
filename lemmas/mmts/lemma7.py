"""mmts Lemma 7 — local gradient condition in the cone around a locally-optimal max-margin direction
(App. B.1, proof (32)–(50)).

Setting. α locally optimal (Definition 2), p^mm = p^mm(α), cones (7)–(8): cone_μ(p^mm) = {p : corr(p, p^mm)
≥ 1 − μ}, C_{μ,R}(p^mm) = cone_μ(p^mm) ∩ {‖p‖ ≥ R}; mean(p) = (1/n)Σ_i(1 − s_{iα_i}(p)).

Statement. There is μ = μ(α) > 0 such that for all sufficiently large R:
**L1** C_{μ,R} has no stationary point of L (−⟨∇L(p), p^mm⟩ > 0 there); **L2 (31a)** for q ∈ cone_μ,
‖q‖ = ‖p^mm‖, p ∈ C_{μ,R}: C·mean(p) ≥ −⟨∇L(p), q⟩ ≥ c·mean(p) > 0, **(31b)** the same for ‖∇L(p)‖,
**(31c)** ‖∇L(p)‖ ≤ C'(T−1)e^{−m_μ‖p‖} on cone_μ; **L3** for every π > 0 there is R_π with
⟨−∇L(p), p̄⟩ ≤ (1+π)⟨−∇L(p), p̄^mm⟩ on C_{μ,R_π}.

Hypotheses (computed): Assumption A for the loss used, ATT-SVM(α) feasible (exact SVM), α locally
optimal; with no α given a non-global LMM with the widest μ₀ is chosen (else the GMM).
DERIVED (the paper's (32) and constants are not recovered; ``verify.kit.cone_scan``): μ = μ₀(α)/2
(Fig. 1(b): μ₀ = 4.950e−3 beside the exact critical μ* = 1 − 1/√1.01 = 4.963e−3); C' = M₁ max_i Γ_i A_i,
proved for every p ((31a)–(31b) upper); m_μ (31c); the limit [c_lim, C_lim] of the L2 ratio from R_deep.

How it is checked (``ConeScan``: probe points at 1 − corr ≤ μ covering the cone, radii σ·{1, 2, 5,
…, 10⁸} (σ ≈ ‖p^mm‖) and R_deep; every point decided and counted). Each "for all sufficiently large
R" part has a witness, the smallest radius from which it holds at every deeper radius
(``rules.witness``: evidence, range "‖p‖ ≤ 10⁸·σ"), and a Tally from it; with no L1 witness the sign
as r → ∞ along the failing direction decides (certainly negative: VIOLATED). With ``R`` given every
point of C_{μ,R} is checked. Upper constants and (31c): every point; compactness: ``rules.near_limit``.

False cases (tests): μ = 0.0065 > μ* on Fig. 1(b) (L1 fails for every R: VIOLATED); π = 10⁻³ on
C_{μ,10}, below its witness 50 (VIOLATED); a square loss, and α = (1) on Fig. 1(b′): NOT_APPLICABLE.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Outcome, register
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.geometry.cone_data import random_dataset_with_lmm
from verify.geometry.cones import critical_width, mu0, radius_scale
from verify.kit.cone_checks import ALPHA_PARAMETER, alpha_cover, resolve_selection, times_sigma, width_evidence
from verify.kit.cone_scan import LADDER, ConeScan, deep_limits, scan_radii
from verify.models.losses import get_loss
from verify.numbers.precision import Precision

PIS = (Fraction(1, 10), Fraction(1, 100), Fraction(1, 1000), Fraction(1, 10**4))
MEAN = "((1/n)Σ(1 − s_iα))"


def evaluate(data, prec: Precision, alpha=None, mu=None, radii=None, pis=PIS, R=None, loss="logistic",
             levels=(), ladder=LADDER) -> Outcome:
    """Lemma 7 on ``data``: α given or chosen, μ given or μ₀/2, witnesses searched on ``radii`` (default
    the ladder times σ) — or, with ``R``, every part checked on C_{μ,R} itself."""
    loss = get_loss(loss)
    g, hyps, notes = resolve_selection(data, alpha, loss)
    out = Outcome(hypotheses=hyps, notes=notes)
    if g is None:
        return out
    m0, (mstar, mstar_what) = mu0(g), critical_width(g)
    how, mu = ("μ = μ₀(α)/2", m0 / 2) if mu is None else ("μ given by the caller", Fraction(mu))
    sigma = radius_scale(g.norm_sq)
    r_deep, c_lim, C_lim = deep_limits(data, g, mu, loss)
    S = ConeScan(data, g, mu, scan_radii(sigma, ladder, radii, r_deep, R), loss, pis, levels)
    out.add(*width_evidence(m0, mu, how, mstar, mstar_what,
                            f"the within-input formula gives {float(mu0(g, within_only=True)):.6g}"))
    # ----- L1 ----------------------------------------------------------------------------------------
    if S.existential(out, "L1", S.positive("l1"), lambda r: S.tally(
            f"L1: min over the C_(μ,R) grid of −⟨∇L(p), p^mm⟩ / {MEAN}", "l1", ">", arb(0), from_r=r), R) is None:
        out.add(S.l1_limit(g, loss))
    # ----- L2 (31a)–(31c) ------------------------------------------------------------------------------
    R2 = S.existential(out, "L2 (31a) lower", S.positive("l2lo"), lambda r: S.tally(
        f"L2 (31a) lower: c = inf over q ∈ cone_μ, ‖q‖ = ‖p^mm‖, and grid p of −⟨∇L(p), q⟩ / {MEAN}", "l2lo", ">",
        arb(0), from_r=r, note="the infimum over q is exact (spherical cap), over p a grid"), R)
    out.add(S.tally("L2 (31a) upper: C = sup of the same ratio", "l2hi", "<=", S.Cp * S.nrm,
                    note="against the derived C'‖p^mm‖, C' = M₁ max_i Γ_i A_i (proved for every p); all points"),
            S.tally(f"(31b) upper: max over all grid points of ‖∇L(p)‖ / {MEAN}", "gn", "<=", S.Cp,
                    note="against the derived C'"))
    if R2 is not None:
        out.add(S.tally(f"(31b) lower: min over the C_(μ,R) grid of ‖∇L(p)‖ / {MEAN}", "gn", ">", arb(0), from_r=R2))
    if S.m_mu > 0:
        out.add(S.tally("(31c): max over cone_μ grid of ‖∇L(p)‖ e^{m_μ‖p‖} / (C'(T−1))", "c31", "<=", arb(1),
                        note=f"m_μ = {S.m_mu.mid().str(6, radius=False)} (derived exponential rate)"))
    S.compactness(out, r_deep, c_lim, C_lim)
    # ----- L3 ----------------------------------------------------------------------------------------
    for pi in pis:
        S.existential(out, f"L3 (π = {float(pi):g})", S.l3_decider(pi), lambda r, pi=pi: S.l3_tally(
            f"L3 (π = {float(pi):g}): sup over C_(μ,R_π) grid of ⟨−∇L, p̄⟩/⟨−∇L, p̄^mm⟩", pi, from_r=r), R)
    out.range = f"‖p‖ ≤ {times_sigma(S.radii[-1], sigma)}"
    out.cover(alpha_cover(g, alpha))
    out.cover(f"π ∈ {{{', '.join(str(Fraction(pi)) for pi in pis)}}}")
    out.cover(f"p at {len(S.points[0])} points per radius ({len(S.dirs)} cone directions × levels 1 − corr ≤ μ)")
    out.notes.append(f"{g.describe()}; μ = {float(mu):.6g}; existential parts (R, c, C, R_π) witnessed on "
                     f"{len(S.radii)} radii {float(S.radii[0]):g} … {float(S.radii[-1]):g}, {len(S.dirs)} cone "
                     f"directions, {len(S.points[0])} points per radius")
    out.figures.extend(S.figures())
    return out


def default_datasets(seed: int = 0):
    return [D.mmts_fig1b(), random_dataset_with_lmm(n=2, T=3, d=2, seed=seed),
            random_dataset_with_lmm(n=3, T=3, d=2, seed=seed), random_dataset_with_lmm(n=2, T=3, d=3, seed=seed)]


STATEMENT = """\
α locally optimal, p^mm = p^mm(α), C_{μ,R}(p^mm) = {corr(p,p^mm) ≥ 1−μ, ‖p‖ ≥ R}. There is μ = μ(α) > 0 such
that for all large R: (L1) −⟨∇L(p),p^mm⟩ > 0 on C_{μ,R}; (L2, (31a)–(31c)) C·mean ≥ −⟨∇L(p),q⟩ ≥ c·mean > 0
(mean = (1/n)Σ(1−s_iα(p)), q ∈ cone_μ, ‖q‖ = ‖p^mm‖), the same for ‖∇L(p)‖, ‖∇L(p)‖ ≤ C'(T−1)e^{−m_μ‖p‖}; (L3)
for every π > 0 there is R_π with ⟨−∇L(p), p̄⟩ ≤ (1+π)⟨−∇L(p), p̄^mm⟩ on C_{μ,R_π}. μ = μ₀/2 (derived).
"""

CLAIM = register(Claim(id="mmts.lemma7", paper="mmts", number="Lemma 7", kind="existential",
                       title="Local gradient condition in the cone around an LMM direction", statement=STATEMENT,
                       check=evaluate, default_datasets=default_datasets,
                       aliases=("local-gradient-condition", "no-stationary-in-cone"), default_precision=50,
                       parameters=(
                           ALPHA_PARAMETER,
                           Parameter("R", "for all sufficiently large R", "search",
                                     "per part, the smallest radius of the ladder σ·{1 … 10⁸} (+ R_deep) from which "
                                     "it holds at every deeper radius (rules.witness); with `R` given, C_(μ,R) itself",
                                     option="R", low=0),
                           Parameter("π", "for every π > 0 (L3)", "range",
                                     "π ∈ {1/10, 1/100, 1/1000, 1/10⁴}, each with its own witness R_π (named in the "
                                     "verdict)", option="pis", kind="rationals", low=0, high=1),
                           Parameter("q", "every q ∈ cone_μ with ‖q‖ = ‖p^mm‖ (L2)", "hardest",
                                     "the infimum and supremum over q in closed form on the spherical cap"),
                           Parameter("p", "every p ∈ C_(μ,R)", "range",
                                     "cone directions × levels 1 − corr ∈ μ·{1 … 10⁻⁸, 0} and radius-adapted angles, at "
                                     "every ladder radius (named in the verdict)"))))
