"""tfsvm.thm5 (FLAWED-v1): spread 0 (T = 2) meets the score condition for every δ, so D-T2 and ``thm4_trap`` are
VIOLATED (certified, Theorem 4's trap); a spread > 0 leaves the existential δ undecided (INCONCLUSIVE naming it);
no W^mm (D-STAT) is NOT_APPLICABLE. Expected values: the spec's limit 1 − 1/√10 and score spreads read off the data."""
from fractions import Fraction

from flint import arb

from lemmas.tfsvm import thm5
from verify.data import tfsvm as D
from verify.kit.global_convergence import score_spread
from verify.numbers.precision import working_precision


def test_d_t2_violated_certified_with_theorem_4s_witness():
    with working_precision(30) as prec:
        out = thm5.evaluate(D.d_t2(), prec, gd_steps=20)
        dec = out.decision()
        assert (dec.verdict, dec.certainty) == ("VIOLATED", "certified")
        trap = [e for e in out.evidence if e.quantity.startswith("trap at")]
        assert len(trap) == 1 and trap[0].value.overlaps(1 - 1 / arb(10).sqrt()) and trap[0].certified
    assert [h.met for h in out.hypotheses if "δ" in h.name] == [True]
    assert not [e for e in out.evidence if e.quantity.startswith("gradient flow")]  # flows: Theorem 4's


def test_constructed_dataset_violated_certified():
    with working_precision(30) as prec:
        dec = thm5.evaluate(D.thm4_trap(), prec, gd_steps=20).decision()
    assert (dec.verdict, dec.certainty) == ("VIOLATED", "certified")


def test_positive_spread_leaves_delta_undecided():
    with working_precision(30) as prec:
        dec = thm5.evaluate(D.b1_only(), prec).decision()
    assert dec.verdict == "INCONCLUSIVE" and any("data-dependent δ" in r for r in dec.reasons)


def test_no_max_margin_solution_is_not_applicable():
    with working_precision(30) as prec:
        dec = thm5.evaluate(D.d_stat(), prec).decision()
    assert dec.verdict == "NOT_APPLICABLE" and any("W^mm exists" in r for r in dec.reasons)


def test_score_spread_is_exact():
    # b1_only: scores (1, 0, 1/2), opt = token 1 ⇒ non-optimal {0, 1/2}; D-T2: one non-optimal token per sequence
    assert score_spread(D.b1_only()) == Fraction(1, 2)
    assert score_spread(D.d_t2()) == 0 == score_spread(D.thm4_single())


def test_spread_zero_with_three_tokens_holds_as_evidence():
    with working_precision(30) as prec:
        out = thm5.evaluate(D.thm4_single(), prec, depth=100)
    dec = out.decision()
    assert (dec.verdict, dec.certainty) == ("HOLDS", "evidence")


def test_registered_with_the_spec_id_and_alias():
    c = thm5.CLAIM
    assert c.id == "tfsvm.thm5" and c.kind == "asymptotic" and tuple(c.aliases) == ("global-convergence-approx-scores",)


def test_ladder_dataset_violated_as_evidence():
    """thm4_ladder: T = 2, spread 0 (the δ condition holds for every δ) and n = 3 (no certificate): the ladder of
    starts along the locally-optimal ray finds the trapped one (see tests/test_tfsvm_thm4.py)."""
    with working_precision(30) as prec:
        out = thm5.evaluate(D.thm4_ladder(), prec, gd_steps=0)
    assert score_spread(D.thm4_ladder()) == 0
    dec = out.decision()
    assert (dec.verdict, dec.certainty) == ("VIOLATED", "evidence")
    assert "‖W(0)‖_F ≈ 35.4" in dec.reasons[0]
