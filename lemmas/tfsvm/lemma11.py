"""tfsvm Lemma 11 — inside the margin cone the gradient correlates more with W^mm than with W (v1 App. B.4, (49)–(52)).

Statement (v1). Assumption A; opt unique, W^mm the Att-SVM solution, Θ = 1/‖W^mm‖_F; fix μ > 0. For any π > 0 there is
R = R_{π,μ} such that for every W ∈ C̄_{μ,R} (margin cone (48): S_μ = {W : ⟨(x_{i,opt} − x_it)z_iᵀ, W/‖W‖_F⟩ ≥ μΘ},
C̄_{μ,R} = S_μ ∩ {‖W‖_F ≥ R}):

    ⟨∇L(W), W/‖W‖_F⟩ ≥ (1 + π)⟨∇L(W), W^mm/‖W^mm‖_F⟩,   i.e.   ρ(W) = ⟨−∇L, Ŵ⟩/⟨−∇L, Ŵ^mm⟩ ≤ 1 + π.

Constant (printed): R_π = max of (51) (1/(μΘ)) log(12TΓA/(πγ^gap_min)) (C = 12) and (1/(νΘ)) log(4ΓAT/(γ^gap_min π)),
A of (53), ν = ν(ε), ε = π/(4AΘ), left implicit ("for some ν": off the ε-ball around W^mm some margin of
W̄ = ‖W^mm‖Ŵ is ≤ 1 − 2ν; v1 writes W̄ = ‖W‖W/‖W^mm‖, a typo). DERIVED here: ν = min(ε²Θ², 2)/4 is admissible
(``verify.geometry.tfsvm_cones.admissible_shrink``: strong convexity of the SVM at W^mm). The ν part dominates
(ν ≈ π²/(64A²)), so R_π is large (1.6·10⁵ on D-T2 at π = μ = ½); arb evaluates e^{−10⁵}-sized softmax weights.

Why the D-T2 mechanism of Lemma 10 is excluded: inside S_μ every sequence selects its optimal token. The proof
still argues (52) example by example with a small margin from one example; no counterexample inside the cone was
found (spec §4: random n = T = d = 3, μ = ½, max ρ ≈ 1 at R = 20…160).

How it is checked (certified, arb balls at exact rational W). For each (μ, π): R_π with the derived ν; samples
W ∈ C̄_{μ,R_π}: W^mm and boundary points of S_μ (to 10⁻⁹, certified inside) along adversarial directions, at
‖W‖_F ≥ f·R_π (f ∈ ``factors``, certified) — ``verify.geometry.tfsvm_cones.cone_samples``; ρ(W) from pairwise
covariances with exact products. Deciding: a Tally ρ(W) ≤ 1 + π per (μ, π). Also reported: the first radius of
the ladder 5…R_π from which the sampled directions satisfy it (informative: R_π is sufficient, not necessary).

False case (tests): W outside the cone — D-T2 on the LMM ray W = r·W^mm_α, α = (1, 1) (sequence 2 selects its
non-optimal token, so W ∉ S_μ): ρ → √10 > 1 + π → VIOLATED with the cone requirement dropped, NOT_APPLICABLE
naming the cone with it; a tie in opt → NOT_APPLICABLE.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Evidence, Hypothesis, Outcome, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry.tfsvm_cones import (
    CorrelationTables,
    at_norm,
    cone_samples,
    correlations,
    lemma11_radius,
    margin_rows,
    margin_slack,
    sqrt_ball,
    w_constants,
)
from verify.kit.global_descent import tfsvm_hypotheses
from verify.kit.probe_inequality import ProbeInequality
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import Precision, to_arb, to_decimal_string

MUS = ("1/2",)
PIS = ("1/2", "1")
FACTORS = (1, 10)
LADDER = (5, 20, 100)


def rho(model, q, W, qn):
    c = correlations(CorrelationTables(model, [W, q]), W)
    return c.values[0] / sqrt_ball(sum((Fraction(x) ** 2 for x in W), Fraction(0))), c.values[1] / qn


def evaluate(data: Dataset, prec: Precision, mus=MUS, pis=PIS, factors=FACTORS, require_cone: bool = True,
             loss: str = "logistic", random_dirs: int = 2, points=None) -> Outcome:
    """``points``: [(label, exact W)] replaces the samples; ``require_cone=False`` drops W ∈ C̄_{μ,R_π} for them."""
    out = Outcome()
    hyps, feas, q, _ = tfsvm_hypotheses(data, loss, prec.dps)
    out.hypotheses = hyps[:2] + [feas]  # Assumption A, unique opt, W^mm exists (no Assumption B)
    if not out.applicable():
        return out
    q = tuple(q)
    c = w_constants(data, q)
    qn = sqrt_ball(c.norm_sq)
    model = LinearLogitModel.from_dataset(data, "W", loss)
    rows = margin_rows(data)
    for mu in mus:
        dirs = cone_samples(data, q, mu, c.theta, None, random_dirs=random_dirs)
        for pi in pis:
            R, r51, rnu, nu = lemma11_radius(c, pi, mu)
            out.add(Evidence(f"μ = {mu}, π = {pi}: R_π = max((51), ν part), derived ν = {nu}; (51) = "
                             f"{to_decimal_string(r51, 6)}", R))
            if points is None:
                pts = [(f"{lb}, ‖W‖_F ≥ {f}·R_π", W) for lb, d in dirs for f in factors
                       for W in [at_norm(d, R * f)]]
            else:
                pts = [(lb, tuple(Fraction(x) for x in p)) for lb, p in points]
                if require_cone:
                    bad = [lb for lb, W in pts if not (margin_slack(rows, W, mu, c.theta) >= 0 and
                                                      sqrt_ball(sum((x * x for x in W), Fraction(0))) >= R)]
                    out.hypotheses.append(Hypothesis(f"μ = {mu}, π = {pi}: every W ∈ C̄_(μ,R_π) (certified)", not bad,
                                                     f"not certified inside: {bad[:3]}" if bad else "all inside"))
                    if bad:
                        return out
            tally = ProbeInequality(f"μ = {mu}, π = {pi}: max over W ∈ C̄_(μ,R_π) of ρ(W) = ⟨−∇L, Ŵ⟩/⟨−∇L, Ŵ^mm⟩",
                                    "<=", 1 + Fraction(pi))
            for where, W in pts:
                num, den = rho(model, q, W, qn)
                tally.add_ratio(num, den, where)
            out.add(tally.evidence(f"R_π = {to_decimal_string(R, 8)}"))
            if points is None:  # where the inequality starts to hold on the sampled directions (informative)
                ok_from = None
                for r in sorted(LADDER, reverse=True):
                    vals = [rho(model, q, at_norm(d, to_arb(r)), qn) for _, d in dirs]
                    if all(n / m <= to_arb(1 + Fraction(pi)) for n, m in vals):
                        ok_from = r
                    else:
                        break
                out.add(Evidence(f"μ = {mu}, π = {pi}: smallest ladder radius from which every sampled direction "
                                 f"has ρ ≤ 1 + π (ladder {LADDER[0]}…{LADDER[-1]}; none: 0)", Fraction(ok_from or 0)))
    if not require_cone:
        out.notes.append("W ∈ C̄_(μ,R_π) NOT required (false case)")
    out.cover(f"μ ∈ {{{', '.join(str(Fraction(mu)) for mu in mus)}}}, π ∈ {{{', '.join(str(Fraction(pi)) for pi in pis)}}}")
    out.cover(f"W at W^mm and boundary points of S_μ along the adversarial directions ({random_dirs} random), "
              f"‖W‖_F ∈ R_π·{{{', '.join(map(str, factors))}}}" if points is None else
              f"W at the {len(points)} given point(s)")
    return out


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.d_nb(), D.d_lmm(), D.lemma4_cross()]


STATEMENT = """\
Assumption A, opt unique, μ > 0: for every π > 0 and W ∈ C̄_{μ,R_π} (margin cone S_μ with ‖W‖_F ≥ R_π),
⟨∇L(W), Ŵ⟩ ≥ (1+π)⟨∇L(W), Ŵ^mm⟩ (v1 App. B.4, (49)–(52)); R_π = max((1/(μΘ))log(12TΓA/(πγ^gap_min)),
(1/(νΘ))log(4ΓAT/(γ^gap_min π))) with the implicit ν(π/(4AΘ)) derived as min(ε²Θ², 2)/4.

Certified at sampled W ∈ C̄_{μ,R_π} (W^mm and boundary points of S_μ, ‖W‖_F ∈ {1, 10}·R_π), μ = ½, π ∈ {½, 1}.
"""

CLAIM = register(Claim(id="tfsvm.lemma11", paper="tfsvm", number="Lemma 11", kind="inequality",
                       title="Inside the margin cone the gradient correlates more with W^mm than with W",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("margin-cone-correlation",),
                       parameters=(
                           Parameter("μ", "fix μ > 0 (any)", "range", "μ ∈ {1/2} (named in the verdict)",
                                     option="mus", kind="rationals", low=0, high=1, hunt=True),
                           Parameter("π", "for any π > 0", "range", "π ∈ {1/2, 1} (named in the verdict)",
                                     option="pis", kind="rationals", low=0, high=2, hunt=True),
                           Parameter("W", "every W ∈ C̄_(μ,R_π)", "range",
                                     "W^mm and boundary points of S_μ along adversarial directions, at ‖W‖_F ∈ "
                                     "R_π·{1, 10} (named in the verdict)"))))
