"""mmts.lemma12 (asymptotic selection forces the quadrant): defaults HOLD; threshold 1/3 with s = (0.4, 0.45, 0.15)
→ VIOLATED certified; a selection that is not asymptotically selected → NOT_APPLICABLE naming the hypothesis."""
import math
from fractions import Fraction as F

from lemmas.mmts import lemma12
from verify.claims import Tally, run_claim
from verify.data import mmts as D
from verify.numbers.precision import working_precision

SHORT = ("5", "10", "20", "50")


def test_holds_on_defaults():
    v = run_claim(lemma12.CLAIM, lemma12.CLAIM.default_datasets(), dps=60)
    assert v.verdict == "HOLDS"


def test_threshold_one_third_is_violated_at_the_split():
    assert 0.4 > 1 / 3 and math.log(0.4) < math.log(0.45)          # s₁ > 1/3 yet a₁ < a₂ (derived)
    with working_precision(60) as prec:
        out = lemma12.evaluate(D.mmts_fig3("b"), prec, threshold=F(1, 3), radii=SHORT)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    with working_precision(30):
        split = [pt for pt in lemma12.point_set(0) if pt[0].startswith("s = ")]
        t, und = Tally("gap", ">", F(0)), []
        lemma12.core_tally(split, F(1, 3), t, und)
        assert t.coverage.first_violation == "s = (0.4, 0.45, 0.15), α = 1" and t.coverage.points == 2
        t, und = Tally("gap", ">", F(0)), []
        lemma12.core_tally(split, F(1, 2), t, und)          # no weight > 1/2: nothing to check
        assert t.coverage.points == 0 and not und


def test_core_never_fails_at_one_half():
    with working_precision(30):
        t, und = Tally("gap", ">", F(0)), []
        lemma12.core_tally(lemma12.point_set(50, seed=3), F(1, 2), t, und)
    assert t.coverage.violated == 0 and t.coverage.points > 0 and not und


def test_not_selected_is_not_applicable():
    with working_precision(60) as prec:
        out = lemma12.evaluate(D.mmts_fig3("b"), prec, select="0,0,0", radii=SHORT)
    d = out.decision()
    assert d.verdict == "NOT_APPLICABLE" and "asymptotically selected" in d.reasons[0]
