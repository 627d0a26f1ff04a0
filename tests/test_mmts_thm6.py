"""mmts.thm6 (joint RP → (p^relax, v^mm)): Fig. 3(b) HOLDS (evidence); the unrelaxed p^mm(α) as prediction → VIOLATED
(plateau); (10) infeasible → NOT_APPLICABLE naming (10); the selection hypothesis failing → NOT_APPLICABLE."""
from fractions import Fraction as F

from lemmas.mmts import thm6
from verify.claims import run_claim
from verify.data import mmts as D
from verify.data.dataset import Dataset
from verify.numbers.precision import working_precision

SHORT = ("5", "10", "20", "50")


def test_holds_on_defaults():
    v = run_claim(thm6.CLAIM, thm6.CLAIM.default_datasets(), dps=60)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"


def test_unrelaxed_prediction_is_violated():
    with working_precision(60) as prec:
        out = thm6.evaluate(D.mmts_fig3("b"), prec, radii=SHORT, target="pmm", figure=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and "NOT p^relax" in d.reasons[0]


def test_relaxed_svm_infeasible_is_not_applicable():
    # input 2's selected token is a convex combination (midpoint) of... here: its key equals the other token's key
    # negated through the origin: keys (1, 0) selected vs (2, 0) and (0, 0) → (k_α − k_t)ᵀp ≥ 1 and ≥ 1 with
    # (−1, 0) and (1, 0): infeasible (Farkas: ½ + ½); the label SVM is feasible (selected token (1, 0), label 1)
    X = [[(0, 0), (1, 1)], [(2, 0), (1, 0), (0, 0)][:2]]
    X = [[(0, 0), (1, 1), (0, 0)], [(2, 0), (1, 0), (0, 0)]]
    data = Dataset.make(X=X, Y=[1, 1], v=[1, 1], name="relaxed-infeasible")
    with working_precision(30) as prec:
        out = thm6.evaluate(data, prec, radii=SHORT, select="1,1", figure=False)
    d = out.decision()
    assert d.verdict == "NOT_APPLICABLE" and "(10)" in d.reasons[0]


def test_not_selected_is_not_applicable():
    with working_precision(60) as prec:
        out = thm6.evaluate(D.mmts_fig3("a"), prec, radii=SHORT, select="0,0,0", figure=False)
    assert out.decide() == "NOT_APPLICABLE"
    assert F(1) > 0
