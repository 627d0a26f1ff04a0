"""tfsvm.lemma7 (Key Lemma, W form): holds; constant 1 for 2 is VIOLATED at the tight T = 2 case; a tie is
NOT_APPLICABLE; the tight case attains the bound (ratio 1, hand derivation)."""
from flint import arb

from lemmas.tfsvm import lemma7
from verify import Dataset
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.numbers.precision import working_precision


def test_defaults_hold_certified():
    v = run_claim(lemma7.CLAIM, lemma7.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_constant_one_is_violated_at_the_tight_case():
    with working_precision(30) as prec:
        out = lemma7.evaluate(D.lemma4_spec(), prec, factor=1)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"


def test_power_three_is_violated():
    with working_precision(30) as prec:
        out = lemma7.evaluate(D.d_lmm(), prec, power=3)
    assert out.decide() == "VIOLATED"


def test_tight_case_attains_the_bound():
    """x = (1, −1), z = v = 1: γ = (1, −1), Γ = 2, a = (V, −V), A = |V|; LHS = −s₂²(a₁−a₂)(γ₁−γ₂) = −4V s₂²
    and 2ΓA(1 − s₁)² = 4|V|s₂²: the ratio is 1 at every probe point away from saturation."""
    with working_precision(30) as prec:
        out = lemma7.evaluate(D.lemma4_spec(), prec)
    assert abs(out.evidence[0].value - 1) < arb("1e-25")


def test_tied_optimal_token_is_not_applicable():
    tied = Dataset.make(X=[[[1, 0], [0, 1], [0, 0]]], Y=[1], v=[1, 1], z=[[1, 1]], name="tied")
    v = run_claim(lemma7.CLAIM, [tied], dps=20)
    assert v.verdict == "NOT_APPLICABLE" and "unique" in v.reasons[0]
