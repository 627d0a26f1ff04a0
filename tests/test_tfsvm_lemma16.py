"""tfsvm.lemma16 (Lemma 5 for SAtt-SVM): (a) fails on the constructed ``flaw_pair`` (query 2 without support index
selects its lowest token: κ = −∞) and on seeded random data (a finite κ < 0), certified; holds where every support
is nonempty; an infeasible SAtt-SVM selection → NOT_APPLICABLE."""
from fractions import Fraction

from lemmas.tfsvm import lemma16
from verify.claims import run_claim
from verify.geometry.separating_cone import NEG_INF, selection
from verify.numbers.precision import working_precision


def test_defaults_violated_certified():
    v = run_claim(lemma16.CLAIM, lemma16.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "VIOLATED" and v.certainty == "certified"


def test_flaw_pair_by_hand():
    """x₁ = (1,0), x₂ = (−2,0), α = (1, 2): query 1 asks (x₁ − x₂)ᵀWx₁ = 3W₁₁ ≥ 1, query 2 asks (x₂ − x₁)ᵀWx₂ = 6W₁₁ ≥ 1,
    so W^mm = [[1/3, 0], [0, 0]], query 2's margin is 2 (𝒯 = ∅) and α₁₂ = 2 has the lowest score −2."""
    data = lemma16.flaw_pair()
    s = selection(data, ((0, 1),), "seq2seq")
    assert list(s.W) == [Fraction(1, 3), 0, 0, 0]
    assert s.support == {(0, 0): [1], (0, 1): []} and s.locally_optimal and s.kappa == NEG_INF
    with working_precision(30) as prec:
        d = lemma16.evaluate(data, prec, figure=False).decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified" and "query 2: low = ∅" in d.reasons[0]


def test_finite_negative_kappa_found_on_random_data():
    with working_precision(30) as prec:
        out = lemma16.evaluate(lemma16.random_seed(6), prec, figure=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and "α = (2,2,3)" in d.reasons[0]
    s = selection(lemma16.random_seed(6), ((1, 1, 2),), "seq2seq")
    assert s.locally_optimal and s.support[(0, 0)] == [] and s.kappa < 0


def test_every_support_nonempty_holds():
    data = lemma16.random_seed(5)
    with working_precision(30) as prec:
        d = lemma16.evaluate(data, prec, figure=False).decision()
    assert d.verdict == "HOLDS" and d.certainty == "certified"


def test_infeasible_selection_is_not_applicable():
    """α = (1, 1) on flaw_pair: 3W₁₁ ≥ 1 and (x₁ − x₂)ᵀWx₂ = −6W₁₁ ≥ 1 contradict."""
    with working_precision(20) as prec:
        d = lemma16.evaluate(lemma16.flaw_pair(), prec, alpha=((0, 0),), figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "SAtt-SVM" in d.reasons[0] and "feasible" in d.reasons[0]
