"""tfsvm Lemma 12 — no stationary points in the margin cone; two-sided gradient bounds (v1 App. B.4, eqs. (53)–(60)).

Statement (v1). Assumption A; opt unique with W^mm the Att-SVM solution, Θ = 1/‖W^mm‖_F. Margin cone (48):
S_μ = {W : ⟨(x_{i,opt} − x_it)z_iᵀ, W/‖W‖_F⟩ ≥ μΘ ∀ t ≠ opt_i, i}, C̄_{μ,R} = S_μ ∩ {‖W‖_F ≥ R}. For any μ > 0, with
R_μ = (1/(μΘ)) log(4TΓA/(μγ^gap_min)) (59), A = max_{i,t,τ}(‖x_it‖ ∨ ‖x_it − x_iτ‖)‖z_i‖/Θ (53),
Γ = max|γ_it − γ_iτ|, γ^gap_i = γ_{i,opt} − max_{t≠opt}γ_it, γ̄^gap_i = γ_{i,opt} − min_{t≠opt}γ_it:
  (L1) no stationary point in C̄_{μ,R_μ};
  (L2) for all V ∈ S_μ with ‖V‖_F = ‖W^mm‖_F and W ∈ C̄_{μ,R_μ}, with q_i = 1 − s_{i,opt}:
       (μ/2n) Σ_i |ℓ'_i| q_i γ^gap_i ≤ −⟨∇L(W), V⟩ ≤ (2A/n) Σ_i |ℓ'_i| q_i γ̄^gap_i.
Encoded in this meaningful form: v1's (60) prints (2A/n)Σℓ'_i q_i γ̄ ≥ ⟨∇L(W), V⟩ ≥ (μ/2n)Σℓ'_i q_i γ with ℓ'_i < 0, where
both sides are negative and the inequality signs are reversed (an ℓ' < 0 slip; the proof's (57)–(58) give the form
above). v1 also writes sup for γ^gap_min in (59): read min (the worst gap), as the proof needs.

Proven on the whole cone (``kit.descent_proof.margin_cone_proof``, DERIVED here): in S_μ every logit gap is ≥ μΘ‖W‖,
so s_t ≤ η s_opt with η = e^{−μΘR_μ}; the pairwise covariance form splits −⟨∇L(W), V⟩ into the pairs with opt
(≥ s_opt q γ^gap m, m = 1 for W^mm, μ for V) and the rest (≤ ΓA q (T−1)η s_opt/2), so (L1), (L2) lower and upper
follow from η(T−1)ΓA < 2γ^gap_i, η(T−1)(ΓA + μγ^gap_i) ≤ μγ^gap_i and η(T−1)Γ ≤ 2γ̄^gap_i for every i — three
certified comparisons, plus the identities (sympy; certificates re-expanded by FLINT) and W^mm's exact margins ≥ 1.
Where a condition fails at R_μ the samples below decide (certified at their points). The samples corroborate.

How the samples are checked (certified, arb balls at exact rational W). Samples W ∈ C̄_{μ,R_μ}: W^mm and boundary points of
S_μ along adversarial directions (``verify.geometry.tfsvm_cones.cone_samples``; membership and ‖W‖_F ≥ f·R_μ,
f ∈ ``factors``, certified), V: the same directions rescaled to ‖V‖ = ‖W^mm‖ (V = W^mm included, so (L1) is
the case V = W^mm of the lower bound). −⟨∇L(W), V⟩ by pairwise covariances with exact products. Tallies over every
(W, V): (L1) −⟨∇L(W), W^mm⟩ > 0; (L2) −⟨∇L(W), V⟩/lower ≥ 1 and −⟨∇L(W), V⟩/upper ≤ 1.

False case (tests): W outside the cone — D-NB, V = W^mm, W z = (0, −10): −⟨∇L(W), V⟩ = −0.1325 < lower
(VIOLATED with the cone requirement dropped; NOT_APPLICABLE naming the cone with it). A tie in opt → NOT_APPLICABLE.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Evidence, Hypothesis, Outcome, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry.stationarity import exact_margins
from verify.geometry.tfsvm_cones import (
    CorrelationTables,
    cone_samples,
    correlations,
    lemma12_radius,
    margin_rows,
    margin_slack,
    sqrt_ball,
    w_constants,
)
from verify.kit.assumptions import assumption_a, w_mm_hypotheses
from verify.kit.descent_proof import margin_cone_proof
from verify.kit.identity_certificates import identity_certificates
from verify.kit.probe_inequality import ProbeInequality
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import Precision, to_arb, to_decimal_string

MUS = ("1/2",)
FACTORS = (1, 10)


def hypotheses(data: Dataset, loss: str, dps: int):
    """([Assumption A, unique opt, Att-SVM(opt) feasible], exact W^mm or None) — Lemmas 11 and 12."""
    hyps, q = w_mm_hypotheses(data, dps)
    return [assumption_a(loss, data)] + hyps, q


def evaluate(data: Dataset, prec: Precision, mus=MUS, factors=FACTORS, require_cone: bool = True,
             loss: str = "logistic", random_dirs: int = 2, points=None, vs=None) -> Outcome:
    """``points`` / ``vs``: [(label, exact W)] / [(label, exact direction of V)] replace the samples;
    ``require_cone=False`` drops W ∈ C̄_{μ,R_μ} and V ∈ S_μ for them (the false case)."""
    out = Outcome()
    out.hypotheses, q = hypotheses(data, loss, prec.dps)
    if q is None:
        return out
    c = w_constants(data, q)
    model = LinearLogitModel.from_dataset(data, "W", loss)
    rows, N = margin_rows(data), sqrt_ball(c.norm_sq)
    wmm_margins = exact_margins(features(data, "W"), model.opt, q)
    proven = []
    for mu in mus:
        R = lemma12_radius(c, mu)
        out.add(Evidence(f"μ = {mu}: R_μ = (1/(μΘ))log(4TΓA/(μγ^gap_min)) (59)", R),
                Evidence("A of (53)", c.A))
        proof = []
        if require_cone:  # the statement on the whole (unbounded) cone, by a reduction (kit.descent_proof)
            eta = (-to_arb(Fraction(mu)) * c.theta * R).exp()
            proof = margin_cone_proof(T=data.T, Gamma=c.Gamma, A=c.A, gaps=c.gap, gap_bars=c.gap_bar,
                                      wmm_margins=wmm_margins, mu=Fraction(mu), eta=eta,
                                      domain=f"every W ∈ C̄_(μ,R_μ) and V ∈ S_μ with ‖V‖ = ‖W^mm‖ (μ = {Fraction(mu)})")
            if all(e.decide() for e in proof):
                proven.append(mu)
            else:  # the reduction's sufficient conditions fail at R_μ: the samples decide (no refutation)
                out.notes.append(f"μ = {mu}: the reduction to the whole cone does not apply at R_μ: "
                                 + "; ".join(e.quantity for e in proof if not e.decide()))
                proof = []
        Ws = cone_samples(data, q, mu, c.theta, R, factors, random_dirs) if points is None else \
            [(lb, tuple(Fraction(x) for x in p)) for lb, p in points]
        Vs = cone_samples(data, q, mu, c.theta, None, random_dirs=random_dirs) if vs is None else \
            [(lb, tuple(Fraction(x) for x in p)) for lb, p in vs]
        if require_cone and (points is not None or vs is not None):
            bad = [lb for lb, W in Ws if not (margin_slack(rows, W, mu, c.theta) >= 0 and
                                             sqrt_ball(sum((x * x for x in W), Fraction(0))) >= R)]
            bad += [lb for lb, V in Vs if not margin_slack(rows, V, mu, c.theta) >= 0]
            out.hypotheses.append(Hypothesis(f"μ = {mu}: every W ∈ C̄_(μ,R_μ) and every V ∈ S_μ (certified)", not bad,
                                             f"not certified inside: {bad[:3]}" if bad else "all certified inside"))
            if bad:
                return out
        tab = CorrelationTables(model, [V for _, V in Vs])
        scale = [N / sqrt_ball(sum((x * x for x in V), Fraction(0))) for _, V in Vs]
        l1 = ProbeInequality(f"μ = {mu} (L1): min over W ∈ C̄_(μ,R_μ) of −⟨∇L(W), W^mm⟩", ">", 0)
        low = ProbeInequality(f"μ = {mu} (L2): min of −⟨∇L(W), V⟩ / [(μ/2n)Σ|ℓ'_i|q_iγ^gap_i]", ">=", 1)
        up = ProbeInequality(f"μ = {mu} (L2): max of −⟨∇L(W), V⟩ / [(2A/n)Σ|ℓ'_i|q_iγ̄^gap_i]", "<=", 1)
        mu_a = to_arb(Fraction(mu))
        for wl, W in Ws:
            cr = correlations(tab, W)
            lower = mu_a / (2 * c.n) * sum((a * b * to_arb(g) for a, b, g in zip(cr.lprime, cr.q, c.gap)), to_arb(0))
            upper = 2 * c.A / c.n * sum((a * b * to_arb(g) for a, b, g in zip(cr.lprime, cr.q, c.gap_bar)), to_arb(0))
            for (vl, V), val, sc in zip(Vs, cr.values, scale):
                if V == q:
                    l1.add(val, f"W: {wl}")
                low.add_ratio(val * sc, lower, f"W: {wl}; V: {vl}")
                up.add_ratio(val * sc, upper, f"W: {wl}; V: {vl}")
        out.add(l1.evidence(corroborates=bool(proof)),
                low.evidence(f"{len(Ws)} W × {len(Vs)} V; R_μ = {to_decimal_string(R, 8)}", corroborates=bool(proof)),
                up.evidence(corroborates=bool(proof)), *proof)
    if not require_cone:
        out.notes.append("W ∈ C̄_(μ,R_μ) and V ∈ S_μ NOT required (false case)")
    out.cover(f"μ ∈ {{{', '.join(str(Fraction(mu)) for mu in mus)}}}")
    sampled = (f"W at W^mm and boundary points of S_μ, ‖W‖_F ∈ R_μ·{{{', '.join(map(str, factors))}}}; V along the "
               "same directions" if points is None and vs is None else "W, V at the given points")
    out.cover(sampled, corroborating=len(proven) == len(mus))
    if len(proven) == len(mus):
        identity_certificates(out, claim="tfsvm.lemma12", data=data, statement="the identities of the reduction to "
                              "the whole margin cone", identities=[("softmax-derivative", 0), ("pairwise-covariance", 0)])
    return out


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.d_nb(), D.d_lmm(), D.lemma4_cross()]


STATEMENT = """\
Assumption A, opt unique, Θ = 1/‖W^mm‖, any μ > 0, R_μ = (1/(μΘ))log(4TΓA/(μγ^gap_min)) (v1 (59)): (L1) no stationary
point in C̄_{μ,R_μ} = {W ∈ S_μ : ‖W‖_F ≥ R_μ}; (L2) for V ∈ S_μ with ‖V‖ = ‖W^mm‖ and W ∈ C̄_{μ,R_μ}:
(μ/2n)Σ|ℓ'_i|q_iγ^gap_i ≤ −⟨∇L(W), V⟩ ≤ (2A/n)Σ|ℓ'_i|q_iγ̄^gap_i, q_i = 1 − s_{i,opt} (v1 App. B.4; (60) prints the
signs reversed — an ℓ' < 0 slip — and sup for γ^gap_min; the meaningful form is encoded).

Proven on the whole cone by a reduction to three certified comparisons at R_μ; also checked at sampled W (W^mm and
boundary points of S_μ, ‖W‖_F ∈ {1, 10}·R_μ) and V (the same directions).
"""

CLAIM = register(Claim(id="tfsvm.lemma12", paper="tfsvm", number="Lemma 12", kind="inequality",
                       title="No stationary points in the margin cone; two-sided gradient bounds",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("margin-cone-no-stationary",),
                       parameters=(
                           Parameter("μ", "for any μ > 0", "range", "μ ∈ {1/2} (named in the verdict)",
                                     option="mus", kind="rationals", low=0, high=1, hunt=True),
                           Parameter("W", "every W ∈ C̄_(μ,R_μ)", "hardest",
                                     "proven on the whole (unbounded) cone by a reduction to three certified "
                                     "comparisons at R_μ per sequence (kit.descent_proof.margin_cone_proof); where "
                                     "they fail, W^mm and boundary points of S_μ at ‖W‖_F ∈ R_μ·{1, 10}, named in "
                                     "the verdict"),
                           Parameter("V", "every V ∈ S_μ with ‖V‖ = ‖W^mm‖ (L2)", "hardest",
                                     "proven with W by the same reduction; else the same directions as W, rescaled "
                                     "(V = W^mm included), named in the verdict"))))
