"""mmts.lemma7 and the cone engine (verify.geometry.cones): paper numbers, false cases, hypotheses."""
from fractions import Fraction

from flint import arb

from lemmas.mmts import lemma7
from verify import Dataset
from verify.claims import rules, run_claim
from verify.data import mmts as D
from verify.geometry.cone_data import random_dataset_with_lmm
from verify.geometry.cones import (
    cap_extremes,
    choose_alpha,
    cone_directions,
    cone_point,
    critical_width,
    lmm_geometry,
    mu0,
    unit,
)
from verify.kit.cone_scan import ConeScan, deep_limits
from verify.models.attention import dot, norm2, one_minus_corr
from verify.models.losses import Square, get_loss
from verify.numbers.precision import to_arb, working_precision

# n = 2: input 0 has the only SVM-neighbour, input 1 only a higher-score non-neighbour. The spec's
# within-input width (pairs inside one input) allows μ up to 0.1538, but the higher-score token of
# input 1 overtakes input 0's neighbour at μ* = 1 − √0.8 = 0.1056: the cross-input width is needed.
CROSS = Dataset.make(X=[[[1, 0, 1], [0, 0, 0]], [[0, 0, "0.5"], ["-1.5", 1, 1]]], Y=[1, 1], v=[0, 0, 1],
                     K=[[[1, 0, 0], [0, 0, 0]], [[0, 0, 0], ["-1.5", 1, 0]]], name="cross-input")


def test_fig1b_geometry_matches_the_spec():
    g = lmm_geometry(D.mmts_fig1b(), (1,))
    assert g.locally_optimal and not g.is_gmm
    assert g.p_mm == (1, 0, 0) and g.neighbours == {0: [2]} and g.non_neighbours == {0: [0]}
    assert g.delta(0, 0) == Fraction(1, 10)
    # μ₀ = ½ (0.1/1.005)² = 0.0049505, μ* = 1 − 1/√1.01 = 4.963e−3 (spec §4 lemma7, §8.4)
    assert mu0(g) == Fraction(1, 2) * Fraction(1, 100) / Fraction(101, 100)
    with working_precision(30):
        mstar, what = critical_width(g)
        assert abs(mstar - (1 - 1 / arb("1.01").sqrt())) < arb(10) ** -25
        assert "(0,0)" in what


def test_holds_on_defaults():
    v = run_claim(lemma7.CLAIM, lemma7.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS"
    assert v.stable_digits >= 20


def test_fig1b_witnesses_and_limits():
    with working_precision(30) as prec:
        out = lemma7.evaluate(D.mmts_fig1b(), prec)
    assert out.decide() == "HOLDS"
    ev = {e.quantity.split(":")[0]: e for e in out.evidence}
    # L2 upper: the ratio approaches |ℓ'(0.9)|·0.9 = 0.2601 (spec: [0.2594, 0.2601] at R = 200)
    up = next(e for e in out.evidence if e.quantity.startswith("L2 (31a) upper"))
    assert abs(up.value - arb("0.9") / (1 + arb("0.9").exp())) < arb(10) ** -6
    # L3 witness for π = 10⁻³ is 50 (spec: sup ratio 1.0016 at R = 20, 1.0000003 at R = 50)
    l3 = next(e for e in out.evidence if e.quantity.startswith("witness R for L3 (π = 0.001)"))
    assert l3.value == 50 and l3.decide() is True and "R = 50" in l3.note
    assert "μ₀(α)/2" in ev["μ used"].note
    with working_precision(30):
        assert abs(ev["μ used"].value - to_arb(Fraction(1, 404))) < arb(10) ** -25


def test_mu_too_large_is_violated_with_an_asymptotic_certificate():
    with working_precision(30) as prec:
        out = lemma7.evaluate(D.mmts_fig1b(), prec, mu=Fraction("0.0065"))
    assert out.decide() == "VIOLATED"
    l1 = next(e for e in out.evidence if e.quantity.startswith("L1"))
    assert l1.decide() is False
    assert "negative for every large r" in l1.note


def test_pi_below_its_witness_radius_is_violated():
    with working_precision(30) as prec:
        out = lemma7.evaluate(D.mmts_fig1b(), prec, R=10, pis=(Fraction(1, 1000),))
    assert out.decide() == "VIOLATED"
    l3 = next(e for e in out.evidence if e.quantity.startswith("L3"))
    assert l3.decide() is False and l3.value > 1 + arb("0.001")
    with working_precision(30) as prec:  # from its witness on, the same π holds
        out = lemma7.evaluate(D.mmts_fig1b(), prec, R=50, pis=(Fraction(1, 1000),))
    assert out.decide() == "HOLDS"


def test_spec_within_input_width_is_not_enough_for_several_inputs():
    g = lmm_geometry(CROSS, (0, 0))
    assert g.locally_optimal and g.neighbours == {0: [1], 1: []}
    assert mu0(g, within_only=True) == Fraction(2, 13) and mu0(g) == Fraction(1, 10)
    with working_precision(30) as prec:
        bad = lemma7.evaluate(CROSS, prec, alpha=(0, 0), mu=Fraction("0.13"))
        good = lemma7.evaluate(CROSS, prec, alpha=(0, 0))
    assert bad.decide() == "VIOLATED"
    assert good.decide() == "HOLDS"


def test_not_locally_optimal_is_not_applicable():
    v = run_claim(lemma7.CLAIM, [D.mmts_fig1b_prime()], dps=20)  # automatic α: only the GMM is an LMM
    assert v.verdict == "HOLDS"
    assert any("no non-global LMM" in n for n in v.notes)
    with working_precision(20) as prec:
        out = lemma7.evaluate(D.mmts_fig1b_prime(), prec, alpha=(1,))
    assert out.decide() == "NOT_APPLICABLE"
    bad = [h for h in out.hypotheses if not h.met]
    assert "locally optimal" in bad[0].name and "19/20" in bad[0].detail


def test_infeasible_svm_is_not_applicable():
    with working_precision(20) as prec:
        out = lemma7.evaluate(D.mmts_infeasible_B(), prec, alpha=(0,))
    assert out.decide() == "NOT_APPLICABLE"
    assert "feasible" in [h for h in out.hypotheses if not h.met][0].name
    with working_precision(20) as prec:
        out = lemma7.evaluate(D.mmts_infeasible_B(), prec)  # no α at all is locally optimal
    assert out.decide() == "NOT_APPLICABLE"


def test_choose_alpha_prefers_a_non_global_lmm():
    g, note = choose_alpha(D.mmts_fig1b())
    assert g.alpha == (1,) and "non-global" in note


def test_cap_extremes_against_sampling():
    g = lmm_geometry(D.mmts_fig1b(), (1,))
    mu = Fraction(1, 50)
    with working_precision(30):
        pbar = unit(g.p_mm)
        w = [to_arb(x) for x in ("0.3", "-0.7", "0.2")]
        lo, hi = cap_extremes(w, pbar, mu)
        dirs = [unit(u) for u in cone_directions(g, random_count=6)]
        for u in dirs:
            for m in (mu, mu / 3, 0):
                q = cone_point(pbar, u, m, 1)
                val = dot(w, q)
                assert val >= lo - arb(10) ** -25 and val <= hi + arb(10) ** -25
                assert abs(norm2(q) - 1) < arb(10) ** -25
                assert abs(one_minus_corr(q, pbar) - to_arb(m)) < arb(10) ** -25


# ----- computed hypotheses, the derived constants on both sides -------------------------------------


def test_a_loss_without_assumption_a_is_not_applicable():
    # scores up to B = 25/2: ℓ'(u) = −2(1 − u) > 0 for u > 1, so the square loss is certainly not decreasing on
    # [−B, B] (the check HOLDS/VIOLATED with it before Assumption A was computed)
    with working_precision(30) as prec:
        out = lemma7.evaluate(random_dataset_with_lmm(n=2, T=3, d=2, seed=0), prec, loss=Square())
    assert out.decide() == "NOT_APPLICABLE"
    bad = [h for h in out.hypotheses if h.met is False]
    assert len(bad) == 1 and bad[0].name.startswith("Assumption A") and "not strictly decreasing" in bad[0].detail
    # on Fig. 1(b) B = 1 and ℓ'(1) = 0 sits exactly at the end of [−B, B]: the ends are evaluated as points,
    # so ℓ'(B) = 0 (not < 0) is decided there and the hypothesis is not met (never HOLDS)
    with working_precision(30) as prec:
        d = lemma7.evaluate(D.mmts_fig1b(), prec, loss=Square()).decision()
    assert d.verdict == "NOT_APPLICABLE" and "Assumption A" in d.reasons[0]


def _fig1b_closed_forms():
    """Fig. 1(b), α = (1,0): keys (−0.1,1), (1,0), (0,0) (third coordinate only in the head), scores 1, 0.9, 0;
    p^mm = (1,0,0), neighbour t = 2 (row (1,0,0)), non-neighbour t = 0 (row (1.1,−1,0), δ = 0.1), μ = μ₀/2 = 1/404."""
    mu = Fraction(1, 404)
    s2mu = (2 * to_arb(mu)).sqrt()
    lp = 1 / (1 + arb("0.9").exp())  # |ℓ'(0.9)|, logistic
    C1 = arb("2.21").sqrt()  # C' = M₁ Γ A = 1 · 1 · ‖(1.1, −1)‖
    lim = lp * arb("0.9")  # |ℓ'(γ_α)|(γ_α − γ_t) for the only neighbour
    rate = arb("0.1") - arb("1.01").sqrt() * s2mu  # δ_0/‖p^mm‖ − ‖w‖√(2μ), w = k_0 − k_2 = (−0.1, 1)
    spread = (arb("0.5") * C1 / lim).log() + arb(3).log()  # heavy = |ℓ'(0)|·Γ·A, nT = 3
    return mu, C1, lim * (1 - s2mu), lim * (1 + s2mu), rate, spread


def test_fig1b_derived_constants_against_closed_forms():
    data = D.mmts_fig1b()
    g = lmm_geometry(data, (1,))
    with working_precision(30):
        mu, C1, c_lim, C_lim, rate, spread = _fig1b_closed_forms()
        r_deep, c, C = deep_limits(data, g, mu, get_loss("logistic"))
        assert abs(c - c_lim) < arb(10) ** -25 and abs(C - C_lim) < arb(10) ** -25
        assert r_deep == int(float(((rules.LIMIT_DEPTH_EXPONENT + spread) / rate).mid())) + 1 == 1098
        S = ConeScan(data, g, mu, [Fraction(1)], get_loss("logistic"))
        assert abs(S.Cp - C1) < arb(10) ** -25


def test_compactness_depth_on_both_sides():
    # from R_deep the L2 ratios are in [c_lim, C_lim] up to LIMIT_SLACK; at ‖p‖ = σ = 1 they are ~70 % below
    data = D.mmts_fig1b()
    g = lmm_geometry(data, (1,))
    with working_precision(30):
        mu, _, c_lim, C_lim, _, _ = _fig1b_closed_forms()
        S = ConeScan(data, g, mu, [Fraction(1), Fraction(1098)], get_loss("logistic"))
        shallow, deep = ([pt["l2lo"] for pt in pts] for pts in S.points)
        assert rules.near_limit(deep, lo=c_lim).holds is True
        assert rules.near_limit([pt["l2hi"] for pt in S.points[1]], hi=C_lim).holds is True
        assert rules.near_limit(shallow, lo=c_lim).holds is False
        assert min(shallow, key=lambda v: v.mid()) < c_lim / 2


def test_upper_constant_is_the_derived_c_prime_and_is_tight_at_saturation():
    # T = 2, scores −10 (α) and −11: ‖∇L‖/mean = s_α Γ A |ℓ'(φ)| → Γ A/(1 + e^{−10}) = C'·0.99995 (M₁ = 1):
    # the comparison ≤ C' holds at every probe point, and C' could not be lowered by even 10⁻⁴
    data = Dataset.make(X=[[[-10, 0], [-11, 1]]], Y=[1], v=[1, 0], name="saturated-T2")
    with working_precision(30) as prec:
        out = lemma7.evaluate(data, prec, pis=())
        up = next(e for e in out.evidence if e.quantity.startswith("(31b) upper"))
        C1 = arb(2).sqrt()  # Γ = 1, A = ‖(1, −1)‖, M₁ = 1
        assert abs(up.bound - C1) < arb(10) ** -25
        assert up.decide() is True and up.coverage.violated == 0
        assert up.value > C1 * (1 - arb(10) ** -4)
    assert out.decide() == "HOLDS"
