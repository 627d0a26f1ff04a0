"""tfsvm.thm6 (Theorem 6): Assumption C decided on the closed-form ∇L(0) (certified signs); GD from 0 (first step
η(0) = 1/‖W^mm‖, then η = 1/L_W) and the gradient flow converge in direction to W^mm. D-T2 fails C → NOT_APPLICABLE;
without C, ``thm6_lmm`` settles at an LMM ≠ GMM → VIOLATED. Expected values: hand derivations below (D-T2's
C margins), the spec (D-T2 from 0 reaches the GMM), an independent float64 evaluation of the closed form."""
import math
from fractions import Fraction as F

from lemmas.tfsvm import thm6
from verify.claims import REGISTRY
from verify.data.generators import random_dataset
from verify.data.tfsvm import d_t2, thm6_lmm, thm6_small_step
from verify.kit.good_start import ASSUMPTION_C, assumption_c, c_margins, good_start_dataset, gradient_at_zero
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import working_precision
from verify.svm.geometry import local_optimality

RADII = ("1", "10", "30", "100", "300", "1000")


def lp(u):  # logistic ℓ'(u) = −1/(1 + e^u)
    return -1 / (1 + math.exp(u))


def test_d_t2_fails_c_with_the_derived_margins():
    """At W = 0: γ̄ = (1/2, −1), so ∇L(0) = (1/4)[ℓ'(1/2)·½·x₁₁z₁ᵀ − ℓ'(−1)·x₂₁z₂ᵀ] with x₁₁ = (1,1), z₁ = (1,0),
    x₂₁ = (2,2), z₂ = (1, 1/2). Sequence 1 (opt token 1, other token x₁₂ = 0): −x₁₁ᵀ∇L(0)z₁ = (1/4)[4ℓ'(−1) − ℓ'(1/2)]
    ≈ −0.637; sequence 2 (opt token 2, other x₂₁): x₂₁ᵀ∇L(0)z₂ = (1/4)[2ℓ'(1/2) − 10ℓ'(−1)] > 0."""
    want = [(4 * lp(-1) - lp(0.5)) / 4, (2 * lp(0.5) - 10 * lp(-1)) / 4]
    with working_precision(30) as prec:
        ms = c_margins(d_t2())
        assert [(i, t) for i, t, _ in ms] == [(0, 1), (1, 0)]
        assert all(abs(float(m.mid()) - w) < 1e-12 and m.rad() < 1e-25 for (_, _, m), w in zip(ms, want))
        out = thm6.evaluate(d_t2(), prec, figure=False)
    assert out.decide() == "NOT_APPLICABLE"
    failed = [h for h in out.hypotheses if h.met is not True]
    assert [h.name for h in failed] == [ASSUMPTION_C] and "-0.63667" in failed[0].detail


def test_closed_form_gradient_at_zero_matches_the_engine():
    """The closed form (1/(nT))Σ_i ℓ'(γ̄_i)Σ_t(γ_it − γ̄_i)x_it z_iᵀ against the engine's ∇L at 0 (balls overlap)."""
    with working_precision(30):
        for data in (d_t2(), thm6_lmm()):
            g = LinearLogitModel.from_dataset(data, "W").grad([0] * data.d ** 2)
            assert all(a.overlaps(b) for a, b in zip(gradient_at_zero(data), g))


def _float_c_margins(data):
    """An independent float64 evaluation of C's margins from the closed form."""
    n, T, d = data.n, data.T, data.d
    G = [[0.0] * d for _ in range(d)]
    for x, z, g in zip(data.X, data.queries(), data.scores):
        gb = float(sum(g, F(0)) / T)
        for t in range(T):
            for a in range(d):
                for b in range(d):
                    G[a][b] += lp(gb) * (float(g[t]) - gb) * float(x[t][a]) * float(z[b]) / (n * T)
    out = []
    for x, z, o in zip(data.X, data.queries(), data.optimal_tokens()):
        for t in range(T):
            if t != o[0]:
                out.append(sum((float(x[t][a]) - float(x[o[0]][a])) * G[a][b] * float(z[b]) for a in range(d) for b in range(d)))
    return out


def test_good_start_datasets_meet_c_and_the_gap():
    with working_precision(30):
        for shape in ((2, 3, 2), (3, 3, 2)):
            data = good_start_dataset(0, *shape)
            assert (data.n, data.T, data.d) == shape and assumption_c(data).met is True
            assert min(_float_c_margins(data)) > 0
            assert all(sorted(g)[-1] - sorted(g)[-2] >= F(1, 10) for g in data.scores)
        bad = thm6_lmm()
        assert assumption_c(bad).met is False and sum(m < 0 for m in _float_c_margins(bad)) == 3


def test_holds_on_a_good_start_dataset():
    data = good_start_dataset(0, 2, 3, 2)
    with working_precision(30) as prec:
        out = thm6.evaluate(data, prec, radii=RADII, figure=False)
    assert out.decide() == "HOLDS" and out.decision().certainty == "evidence"
    rule = [e for e in out.evidence if e.rule is not None]
    # the η(0) ladder (1, 1/100, then the η(0) → 0 limit): one flow each, every one decided by the same rule
    assert len(rule) == 3 and all(e.decide() is True and e.rule.rule == "decays (rate ≥ 1/2·2)" for e in rule)
    assert ["η(0) = 1/‖W^mm‖_F" in rule[0].quantity, "η(0) = 1/100/‖W^mm‖_F" in rule[1].quantity,
            "η(0) → 0" in rule[2].quantity] == [True] * 3
    assert out.range.startswith("‖W‖_F ≤ 1000") and "η(0)·‖W^mm‖_F ∈ {1, 1/100, 0}" in out.range
    assert all(h.met for h in out.hypotheses)


def test_without_c_d_t2_still_reaches_the_gmm():
    """The spec (thm4 §): from W(0) = 0 GD on D-T2 reaches the GMM — C is sufficient, not necessary."""
    with working_precision(30) as prec:
        out = thm6.evaluate(d_t2(), prec, require_c=False, radii=RADII, figure=False)
    assert out.decide() == "HOLDS" and out.notes[0].startswith("Assumption C NOT required: not met")


def test_without_c_an_lmm_violates():
    """thm6_lmm fails C; from 0 the path settles at α = (2, 1) (opt = (0, 1)): 1 − corr(W, W^mm) plateaus (the
    rule fails) while α is locally optimal (checked here by the SVM geometry) and 1 − corr(W, W^mm_α) is small."""
    data = thm6_lmm()
    assert data.optimal_tokens() == ((0,), (1,))
    with working_precision(30) as prec:
        assert thm6.evaluate(data, prec, figure=False).decide() == "NOT_APPLICABLE"
        out = thm6.evaluate(data, prec, require_c=False, radii=RADII, figure=False)
        assert local_optimality(data, (2, 1), "W", 30)[0] is True
    assert out.decide() == "VIOLATED" and out.decision().certainty == "evidence"
    rule = [e for e in out.evidence if e.rule is not None]
    assert rule[0].decide() is False and "plateau" in rule[0].note
    lmm = [e for e in out.evidence if "selects α = (2, 1)" in e.quantity]
    assert len(lmm) == 1 and "locally optimal (certified)" in lmm[0].note
    assert lmm[0].value < rule[0].value / 100


def test_registration():
    assert thm6.CLAIM.id == "tfsvm.thm6" and thm6.CLAIM.kind == "asymptotic"
    assert REGISTRY.resolve("global-convergence-good-initial-gradient")[0].id == "tfsvm.thm6"


def test_with_c_a_small_first_step_ends_at_an_lmm():
    """The η(0) range decided in the module: every first step η(0) ≤ c/‖W^mm‖ is covered. thm6_small_step meets C
    (every margin > 0), yet from η(0) = 1/‖W^mm‖_F the path settles at an LMM (the ladder stops at its first rung)."""
    data = thm6_small_step()
    assert data.optimal_tokens() == ((0,), (2,), (2,))
    with working_precision(30) as prec:
        out = thm6.evaluate(data, prec, radii=RADII, figure=False)
    assert all(h.met for h in out.hypotheses) and any(h.name == ASSUMPTION_C for h in out.hypotheses)
    dec = out.decision()
    assert (dec.verdict, dec.certainty) == ("VIOLATED", "evidence") and "η(0) = 1/‖W^mm‖_F" in dec.reasons[0]
    assert "plateau" in dec.reasons[0] and "η(0)·‖W^mm‖_F ∈ {1}" in out.range
    lmm = [e for e in out.evidence if "≠ opt" in e.quantity]
    assert len(lmm) == 1 and "locally optimal (certified)" in lmm[0].note


def test_a_large_first_step_reaches_the_gmm_there():
    """… while a first step of 300/‖W^mm‖_F lands in the GMM's basin: the theorem needs a lower bound on η(0)."""
    with working_precision(30) as prec:
        out = thm6.evaluate(thm6_small_step(), prec, radii=RADII, figure=False, eta0_scales=(300,))
    assert out.decide() == "HOLDS" and "η(0)·‖W^mm‖_F ∈ {300}" in out.range


def test_assumption_c_with_exact_zero_and_ball_margins_is_decided():
    """random_dataset(seed=129) has two margins that vanish exactly (every ℓ'-group coefficient is 0) beside two
    balls: C is not met (a margin ≤ 0), decided without comparing a Fraction with a ball (it raised TypeError)."""
    data = random_dataset(n=2, T=3, d=2, seed=129, scale="1/10", queries=True)
    sc, Z = data.scores, data.queries()
    means = [sum(g, F(0)) / len(g) for g in sc]
    # exact group coefficients of each margin: (x_jt − x_jopt)ᵀ [Σ_t (γ_it − γ̄_i) x_it z_iᵀ] z_j, per sequence i
    zero = 0
    for j, (seq, o) in enumerate(zip(data.X, data.optimal_tokens())):
        for t in range(data.T):
            if t == o[0]:
                continue
            diff = [a - b for a, b in zip(seq[t], seq[o[0]])]
            coeffs = [sum(((g - m) * sum(a * b for a, b in zip(diff, x))
                           for g, x in zip(sc[i], data.X[i])), F(0)) * sum(a * b for a, b in zip(Z[i], Z[j]))
                      for i, m in enumerate(means)]
            zero += all(c == 0 for c in coeffs)
    assert zero == 2
    h = assumption_c(data)
    assert h.met is False and h.detail.startswith("2 margin(s) ≤ 0")
