"""mmts.thm6 (joint RP → (p^relax, v^mm)): Fig. 3(b) HOLDS (evidence); the unrelaxed p^mm(α) as prediction → VIOLATED
(plateau); (10) infeasible → NOT_APPLICABLE naming (10); the selection hypothesis failing → NOT_APPLICABLE."""
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
    """Input 2 selects (1, 0) between (2, 0) and (0, 0): (10) asks (−1, 0)ᵀp ≥ 1 and (1, 0)ᵀp ≥ 1 (both inputs are
    support vectors of v^mm = (1, 0)) — infeasible, Farkas weights (½, ½) (derived by hand)."""
    X = [[(0, 0), (1, 1), (0, 0)], [(2, 0), (1, 0), (0, 0)]]
    data = Dataset.make(X=X, Y=[1, 1], v=[1, 1], name="relaxed-infeasible")
    with working_precision(30) as prec:
        out = thm6.evaluate(data, prec, radii=SHORT, select="1,1", figure=False)
    d = out.decision()
    assert d.verdict == "NOT_APPLICABLE" and "(10)" in d.reasons[0]


def test_not_asymptotically_selected_is_not_applicable():
    """α = (1, 1) with every SVM feasible and C over S certified, but input 2's other token has the larger score 3 and
    the path keeps its keys (1, 0), (−1, 0) near a tie: 1 − s_{2,α_2} → 1/2, a plateau — the hypothesis fails."""
    X = [[(0, 0), (0, 1)], [(0, 3), (0, 2)]]
    K = [[(0, 0), (0, 1)], [(1, 0), (-1, 0)]]
    data = Dataset.make(X=X, Y=[1, 1], v=[0, 1], K=K, name="not-selected")
    with working_precision(40) as prec:
        out = thm6.evaluate(data, prec, radii=SHORT + ("100",), select="1,1", figure=False)
    hyps = {h.name: h.met for h in out.hypotheses}
    assert hyps["relaxed SVM (10) feasible (rhs 1 on S = [1], 0 off S)"] is True
    d = out.decision()
    assert d.verdict == "NOT_APPLICABLE" and "asymptotically selected" in d.reasons[0]
