"""tfsvm.lemma4 (smoothness): L_W holds; the printed L_K = ‖Q‖L_W, L_Q = ‖K‖L_W are VIOLATED (FLAWED-v1) with a
certified witness; the corrected ‖·‖²L_W hold at the same points; a loss failing Assumption A is NOT_APPLICABLE."""
from fractions import Fraction

from flint import arb

from lemmas.tfsvm import lemma4
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.geometry.stationarity import smoothness_W
from verify.geometry.tfsvm import kq_probe
from verify.models.attention import LinearLogitModel
from verify.models.losses import Square
from verify.numbers.precision import working_precision


def test_defaults_violated_certified():
    v = run_claim(lemma4.CLAIM, lemma4.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "VIOLATED" and v.certainty == "certified"
    assert all(d.verdict == "VIOLATED" for d in v.datasets)


def test_printed_constants_violated_on_spec_case_with_witness():
    with working_precision(30) as prec:
        out = lemma4.evaluate(D.lemma4_spec(), prec, parts=("KQ",))
    assert out.decide() == "VIOLATED"
    failed = [e for e in out.evidence if e.decide() is False]
    assert len(failed) == 2  # L_Q and L_K
    assert all("first violation at" in e.note and "= 100·" in e.note for e in failed)  # K ≈ 38 < 100


def test_printed_constants_violated_on_constructed_data():
    with working_precision(30) as prec:
        out = lemma4.evaluate(D.lemma4_cross(), prec, parts=("KQ",))
    assert out.decide() == "VIOLATED"


def test_LW_part_alone_holds_certified():
    for data in (D.lemma4_spec(), D.lemma4_cross(), D.d_t2()):
        with working_precision(30) as prec:
            out = lemma4.evaluate(data, prec, parts=("W",))
        d = out.decision()
        assert d.verdict == "HOLDS" and d.certainty == "certified", data.name


def test_corrected_constants_hold_at_the_witness_points():
    for data in (D.lemma4_spec(), D.lemma4_cross()):
        with working_precision(30) as prec:
            out = lemma4.evaluate(data, prec, parts=("KQ",), constants="corrected")
        assert out.decision().verdict == "HOLDS", data.name


def test_square_loss_is_not_applicable():
    with working_precision(30) as prec:
        out = lemma4.evaluate(D.lemma4_spec(), prec, losses=(Square(centre=0),), parts=("W",))
    d = out.decision()
    assert d.verdict == "NOT_APPLICABLE" and "Assumption A (square)" in d.reasons[0]


def test_LW_closed_forms():
    """Spec case: 2√2(√2/4 + 3) = 1 + 6√2; D-T2: (9.485 + 104.85)/2 = (21 + 66√2)/2 (hand-computed norms)."""
    with working_precision(40):
        r2 = arb(2).sqrt()
        assert abs(smoothness_W(D.lemma4_spec()) - (1 + 6 * r2)) < arb("1e-35")
        assert abs(smoothness_W(D.d_t2()) - (21 + 66 * r2) / 2) < arb("1e-35")


def test_witness_quotient_is_K_squared_over_4():
    """At Q = 0 the quotient of ∇_Q L(K,·) is K²·f''(ξ), f(w) = ℓ(tanh w), f''(0) = ℓ''(0) = 1/4 (tanh'' (0) = 0):
    K = 100, Q: 0 → 10⁻⁵ gives 2500 to about 10⁻³ relative (f''' (0) ≠ 0 moves it by O(K·h))."""
    with working_precision(30):
        model = LinearLogitModel.from_dataset(D.lemma4_spec(), "W")
        ratio, knorm = kq_probe(model, "Q", (Fraction(1),), (Fraction(1),), 100, Fraction(1, 100000))
        assert abs(ratio / 2500 - 1) < arb("0.003")
        assert knorm == 100
