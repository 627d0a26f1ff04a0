"""tfsvm Lemma 10 — under equal non-optimal scores the gradient correlates more with W^mm than with W
(v1 App. B.2, eqs. (31)–(32)). FLAWED in v1.

Statement (as printed). Let W^mm solve (Att-SVM); Assumption B.2 (γ_it = γ_iτ < γ_{i,opt}, t, τ ≠ opt_i); ℓ strictly
decreasing and differentiable. For any π > 0 there is R = R_π such that for every W with ‖W‖_F ≥ R_π:

    ⟨∇L(W), W/‖W‖_F⟩ ≥ (1 + π)⟨∇L(W), W^mm/‖W^mm‖_F⟩,   i.e.   ρ(W) := ⟨−∇L, Ŵ⟩/⟨−∇L, Ŵ^mm⟩ ≤ 1 + π,

with R_π = δ⁻¹Θ⁻¹ log(2M̄T/π) (32), Θ = 1/‖W^mm‖_F, M = sup_{i,t}‖x_it z_iᵀ‖_F, M̄ = M/Θ (both defined in the proof),
and δ = δ(ε), ε = π/(2M), left implicit ("for some δ": in scenario ‖W̄ − W^mm‖ ≥ ε, W̄ = ‖W^mm‖Ŵ, some margin of W̄
is ≤ 1 − 2δ). DERIVED here (``verify.geometry.tfsvm_cones.admissible_shrink``): δ = min(ε²Θ², 2)/4 is admissible.

Why it fails. Scenario 2 of the proof yields a small margin for *one* example only, but (31) is then used for every
example. A locally-optimal α ≠ opt whose deviating sequences have no support index (Def. 2 vacuous; always possible
under B.2 for n ≥ 2) gives a ray along which the inequality fails for every R. Closed form on D-T2, α = (1, 1):
W = r·W^mm_α (‖W‖ = r/√2) gives logit gaps r (sequence 1, support) and 2r (sequence 2, selects its non-optimal
token). With T = 2, −⟨∇L, V⟩ = (1/n)Σ|ℓ'_i| s_i1 s_i2 (γ_i1 − γ_i2)(X_iVz_i)_{1−2}, so with
A_i = |ℓ'(φ_i)| s_i1 s_i2 (A₁ = |ℓ'(φ₁)|e^{−r}/(1+e^{−r})², A₂ = |ℓ'(φ₂)|e^{−2r}/(1+e^{−2r})²):
    V = W^mm_α: A₁·1·1 + A₂·(−2)·2 ;   V = W^mm: A₁·1·1 + A₂·(−2)·(−1),
    ρ(r) = (‖W^mm‖/‖W^mm_α‖)·(A₁ − 4A₂)/(A₁ + 2A₂) = √10·(1 − 6A₂/(A₁ + 2A₂)) → √10 (A₂/A₁ = O(e^{−r})),
so ρ > 1 + π for every π < √10 − 1 once r is large: no R_π exists. In general ρ → ‖W^mm‖/‖W^mm_α‖ along an LMM
ray whose support pairs all have GMM margin 1. On ``lemma10_shared_query`` (constructed: shared query, rank Z = 1)
ρ(r) = √17(A₁ − 3A₂)/(A₁ + A₂) → √17 with A₂ ∝ e^{−3r}.

What survives. n = 1 (every LMM is the GMM under B.2, ``tfsvm.aux.no-spurious-lmm``; the proof's single example is
then the only one), and the margin-cone version (Lemma 11).

How it is checked. Hypotheses: Assumption A for the loss, B.2 (exact), Att-SVM(opt) feasible. "For every π > 0"
is covered by the hardest π the data allow (docs/parameters.md): along every locally-optimal ray, ρ far out
(‖W‖_F = 10⁶) is computed; where it is certainly > 1, π = (ρ − 1)/2 rounded down (3 significant digits) is checked
along that ray at R_π·(1, 10, 100, 10⁴, 10⁶) until a point certainly refutes it — a certified VIOLATED whenever the
limit exceeds 1, however close (fixed values π ∈ {½, 1, 2} let a ray with limit < 3/2 through). For each π in
``pis`` too (and only those when no ray's ratio exceeds 1: the verdict then names them): R_π with the derived δ; points W at ‖W‖_F ≥ R_π·f (f ∈ ``factors``, rational multiples, norm certified)
along the LMM rays W^mm_α (every locally-optimal α ≠ opt, enumerated) and adversarial directions (±W^mm,
non-optimal selections, ±F_it, random); ρ(W) from pairwise covariances with exact products (arb; e^{−10⁵}-sized
softmax weights are exact in relative terms). Deciding: a Tally "ρ(W) ≤ 1 + π" per π (certified either way).
Informative: R_π, δ, and ρ along each LMM ray at ‖W‖ = 5…10⁶ against its limit ‖W^mm‖/‖W^mm_α‖.

False cases (tests): D-T2, ``lemma10_shared_query`` and ``lemma10_low_limit`` (limit √89/8 ≈ 1.179: every
π ∈ {½, 1, 2} holds, the derived π = 56/625 fails) → VIOLATED (certified; ρ against the closed forms above);
n = 1 B.2 data → HOLDS; B.2 fails (B.1 only) → NOT_APPLICABLE naming B.2.
"""
from __future__ import annotations

import math
from fractions import Fraction

from verify.claims import Claim, Evidence, Figure, Hypothesis, Outcome, Series, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry.stationarity import assumption_b, probe_directions
from verify.geometry.tfsvm_cones import (
    CorrelationTables,
    at_norm,
    correlations,
    inner,
    lemma10_radius,
    lmm_directions,
    sqrt_ball,
    w_constants,
)
from verify.kit.assumptions import assumption_a, w_mm_hypotheses
from verify.kit.probe_inequality import ProbeInequality
from verify.models.attention import LinearLogitModel, features
from verify.numbers.exact import rational_below
from verify.numbers.precision import Precision, to_arb, to_decimal_string

PIS = ("1/2", "1", "2")
FACTORS = (1, 10)
LADDER = (1, 10, 100, 10**4, 10**6)  # R_π multiples along the ray a hardest π was derived on, in turn
RAY_NORMS = (5, 10, 20, 50, 100, 1000, 10**6)
FIGURE_NORMS = (1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 100)  # ‖W‖_F of the figure's points along each ray


def _one(alpha) -> str:
    return "(" + ", ".join(str(a + 1) for a in alpha) + ") (1-indexed)"


def ratio(model, q, W, qn):
    """ρ(W) as (numerator ⟨−∇L, Ŵ⟩, denominator ⟨−∇L, Ŵ^mm⟩)."""
    c = correlations(CorrelationTables(model, [W, q]), W)
    return c.values[0] / sqrt_ball(sum((Fraction(x) ** 2 for x in W), Fraction(0))), c.values[1] / qn


def hardest_pi(rho_far) -> Fraction | None:
    """The hardest π the data allow (coverage "hardest", docs/parameters.md): half of ρ_far − 1 rounded down to
    3 significant digits (``rational_below``: the same at every precision), where ρ_far is ρ far out on a
    locally-optimal ray (‖W‖_F = 10⁶); None when ρ_far is not certainly > 1 (no π is refuted along that ray)."""
    gap = (rho_far - 1) / 2
    return rational_below(gap) if gap > 0 else None


def evaluate(data: Dataset, prec: Precision, pis=PIS, factors=FACTORS, require_B2: bool = True,
             loss: str = "logistic", random_dirs: int = 2, points=None, figure: bool = True,
             derive_pi: bool = True) -> Outcome:
    """``points``: [(label, exact W)] replaces the probe set (each must have ‖W‖_F ≥ R_π to count).
    ``derive_pi``: add, for every locally-optimal ray whose ratio far out exceeds 1, the hardest π
    (``hardest_pi``), checked along that ray at R_π·``LADDER`` until a point certainly refutes it."""
    B = assumption_b(data)
    out = Outcome(hypotheses=[assumption_a(loss, data)] + (
        [Hypothesis("Assumption B.2: γ_it = γ_iτ < γ_{i,opt} for t, τ ≠ opt_i (exact)", B.met, B.detail)]
        if require_B2 else []))
    hyps, q = w_mm_hypotheses(data, prec.dps)
    out.hypotheses += hyps
    if not out.applicable():
        return out
    c = w_constants(data, q)
    qn = sqrt_ball(c.norm_sq)
    model = LinearLogitModel.from_dataset(data, "W", loss)
    lmms = lmm_directions(data, prec.dps)
    along = {a: [ratio(model, q, at_norm(d, to_arb(r)), qn) for r in RAY_NORMS] for a, d in lmms}  # ρ on each ray
    runs = [(Fraction(pi), None) for pi in pis]  # (π, None: every probe direction | the ray it was derived on)
    if derive_pi and points is None:
        for alpha, d in lmms:
            num, den = along[alpha][-1]  # far out: ‖W‖_F = 10⁶
            pi = hardest_pi(num / den)
            if pi is not None:
                runs.append((pi, (alpha, d, num / den)))
    if points is None:
        dirs = [(f"LMM ray W^mm_α, α = {_one(a)}", d) for a, d in lmms]
        dirs += probe_directions(features(data, "W"), model.opt, q, count=random_dirs)
    for pi, derived in runs:
        R, delta = lemma10_radius(c, pi)
        name = f"π = {pi}" + (f" (hardest: below ρ − 1 far out on the ray of α = {_one(derived[0])}, ρ = "
                              f"{to_decimal_string(derived[2], 8)})" if derived else "")
        out.add(Evidence(f"{name}: R_π = δ⁻¹Θ⁻¹log(2M̄T/π) (32), derived δ = min(ε²Θ², 2)/4 = {delta}, ε = π/(2M)", R))
        tally = ProbeInequality(f"{name}: max over W with ‖W‖_F ≥ R_π of ρ(W) = ⟨−∇L, Ŵ⟩/⟨−∇L, Ŵ^mm⟩", "<=",
                                1 + pi)
        if derived:  # the ray outward from R_π until a point certainly refutes π (a ladder: ρ → its limit)
            for f in LADDER:
                num, den = ratio(model, q, at_norm(derived[1], R * f), qn)
                if tally.add_ratio(num, den, f"the ray of α = {_one(derived[0])} at ‖W‖_F ≥ {f}·R_π") is False:
                    break
            out.add(tally.evidence(f"R_π = {to_decimal_string(R, 8)}"))
            continue
        if points is None:
            pts = [(f"{label}, ‖W‖_F ≥ {f}·R_π", at_norm(d, R * f)) for label, d in dirs for f in factors]
        else:
            pts = [(label, tuple(Fraction(x) for x in p)) for label, p in points]
        for where, W in pts:
            if not sqrt_ball(sum((x * x for x in W), Fraction(0))) >= R:
                out.require(f"π = {pi}: every given point has ‖W‖_F ≥ R_π", False, where)
                continue
            num, den = ratio(model, q, W, qn)
            tally.add_ratio(num, den, where)
        out.add(tally.evidence(f"R_π = {to_decimal_string(R, 8)}"))
    if not any(derived for _, derived in runs):
        out.cover(f"π ∈ {{{', '.join(str(Fraction(pi)) for pi in pis)}}}" + (
            " (no locally-optimal ray with a ratio > 1 far out to derive a harder π from)" if derive_pi else ""))
    out.cover(f"W at ‖W‖_F ≥ R_π·{{{', '.join(map(str, factors))}}} along {len(lmms)} locally-optimal ray(s) and "
              f"the probe directions" if points is None else f"the {len(points)} given point(s)")
    series = []
    for alpha, d in lmms:  # the ray's ratio against its limit (informative)
        qa = sqrt_ball(sum((x * x for x in d), Fraction(0)))
        limit = qn / qa
        rhos = [ratio(model, q, at_norm(d, to_arb(r)), qn) for r in FIGURE_NORMS]
        series.append(Series(f"ρ along the ray of W^mm_α, α = {_one(alpha)} (limit {to_decimal_string(limit, 6)})",
                             [math.log10(r) for r in FIGURE_NORMS], [float((a / b).mid()) for a, b in rhos]))
        out.add(Evidence(f"LMM α = {_one(alpha)}: corr(W^mm_α, W^mm)", inner(d, q) / (qa * qn)),
                Evidence(f"LMM α = {_one(alpha)}: limit ‖W^mm‖/‖W^mm_α‖ of ρ along the ray", limit))
        for r, (num, den) in zip(RAY_NORMS, along[alpha]):
            gap = num / den - limit  # → 0 like e^{−c‖W‖}: below the working precision it is noise, no digits
            out.add(Evidence(f"LMM α = {_one(alpha)}: ρ at ‖W‖_F ≈ {r} (minus the limit)", gap,
                             residual=bool(abs(gap) < to_arb(10) ** -prec.dps)))
    if figure and series:  # ρ is O(1): plotted as is (float of a ball at the working precision)
        out.figures.append(Figure("ratio", "Lemma 10: ρ(W) = ⟨−∇L, Ŵ⟩/⟨−∇L, Ŵ^mm⟩ along locally-optimal rays",
                                  "log10 ‖W‖_F", "ρ", series,
                                  hlines=[(1 + float(Fraction(pi)), f"1 + π, π = {pi} (the claim: ρ ≤ 1 + π)")
                                          for pi in pis],
                                  caption="The claim bounds ρ by 1 + π beyond R_π; along the ray of a spurious "
                                          "locally-optimal direction ρ tends to ‖W^mm‖/‖W^mm_α‖ instead."))
    return out


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.lemma10_shared_query(), D.lemma10_low_limit(), D.n1_equal_scores()]


STATEMENT = """\
Under Assumption B.2 (equal non-optimal scores), ℓ strictly decreasing: for every π > 0 there is R_π = δ⁻¹Θ⁻¹log(2M̄T/π)
(v1 (32); M̄ = ‖W^mm‖·sup‖x_it z_iᵀ‖, δ implicit — derived admissible δ = min(ε²Θ², 2)/4, ε = π/(2M)) such that
⟨∇L(W), Ŵ⟩ ≥ (1+π)⟨∇L(W), Ŵ^mm⟩ for every ‖W‖_F ≥ R_π (v1 App. B.2).

FLAWED in v1: the proof's scenario 2 gives a small margin for one example only but applies (31) to all. A locally-optimal
α ≠ opt whose deviating sequences have no support index (possible under B.2 for n ≥ 2) gives a ray on which
ρ = ⟨−∇L, Ŵ⟩/⟨−∇L, Ŵ^mm⟩ → ‖W^mm‖/‖W^mm_α‖ (√10 on D-T2, √17 on lemma10_shared_query): certified ρ > 1 + π at
‖W‖_F ≥ R_π for π ∈ {1/2, 1, 2} and for the hardest π derived on each ray (π = 56/625 on lemma10_low_limit, whose
limit √89/8 ≈ 1.179 lets every fixed π through). What survives: n = 1 (every LMM is the GMM), and the margin-cone version (Lemma 11).
"""

CLAIM = register(Claim(id="tfsvm.lemma10", paper="tfsvm", number="Lemma 10", kind="inequality",
                       title="B.2 ⇒ the gradient correlates more with W^mm than with W (FLAWED-v1)",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("equal-score-correlation",),
                       parameters=(
                           Parameter("π", "for every π > 0", "hardest",
                                     "π = (ρ − 1)/2 rounded down, ρ far out (‖W‖_F = 10⁶) on every locally-optimal ray "
                                     "where it exceeds 1, checked along the ray at R_π·(1 … 10⁶) until refuted; and "
                                     "every π of `pis` (default ½, 1, 2) at all probe points",
                                     option="pis", kind="rationals", low=0, high=10, hunt=True),
                           Parameter("W", "every W with ‖W‖_F ≥ R_π", "range",
                                     "points at R_π·{1, 10} along every locally-optimal ray, ±W^mm, the non-optimal "
                                     "selections' directions, ±F_it and 2 random directions (named in the verdict)"))))
