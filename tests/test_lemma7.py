"""mmts.lemma7 and the cone engine (verify.geometry.cones): paper numbers, false cases, hypotheses."""
from fractions import Fraction

from flint import arb

from lemmas.mmts import lemma7
from verify import Dataset
from verify.claims import run_claim
from verify.data import mmts as D
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
from verify.models.attention import dot, norm2, one_minus_corr
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
    v = run_claim(lemma7.CLAIM, lemma7.default_datasets(), dps=30)
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
    l3 = next(e for e in out.evidence if e.quantity.startswith("L3 (π = 0.001)"))
    assert "R_π = 50" in l3.note
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
