"""mmts.thm5 (joint (v, p) RP → (p^mm(α), v^mm) under Assumption C): defaults HOLD (evidence); Fig. 3(b) — Assumption C
refuted → NOT_APPLICABLE naming it; with C dropped, 1 − corr to p^mm(α) = (5/4, 1/4) grows toward 1 − 5/√26 → VIOLATED."""
import math

from lemmas.mmts import thm5
from verify.claims import run_claim
from verify.data import mmts as D
from verify.numbers.precision import working_precision

SHORT = ("5", "10", "20", "50")


def test_holds_on_defaults():
    v = run_claim(thm5.CLAIM, thm5.CLAIM.default_datasets(), dps=60)
    assert v.verdict == "HOLDS" and v.certainty == "evidence" and "R ≤ 100" in v.range


def test_fig3b_assumption_c_refuted_and_dropped():
    with working_precision(60) as prec:
        na = thm5.evaluate(D.mmts_fig3("b"), prec, radii=SHORT, figure=False)
        bad = thm5.evaluate(D.mmts_fig3("b"), prec, radii=SHORT, assume_c=False, figure=False)
    d = na.decision()
    assert d.verdict == "NOT_APPLICABLE" and "Assumption C" in d.reasons[0]
    d = bad.decision()
    assert d.verdict == "VIOLATED" and "p^mm(α)" in d.reasons[0]
    # the limit of 1 − corr(p̄_R, p^mm(α)) when p̄_R → p^relax = (1, 0): 1 − (5/4)/√(26/16) = 1 − 5/√26 (derived)
    last = [e for e in bad.evidence if "p^mm" in e.quantity][0].value
    assert float(last.mid()) < 1 - 5 / math.sqrt(26) and float(last.mid()) > 0.5 * (1 - 5 / math.sqrt(26))


def test_coupling_option_keeps_the_verdict():
    with working_precision(60) as prec:
        out = thm5.evaluate(D.mmts_fig3("a"), prec, radii=SHORT, coupling=2, figure=False)
    assert out.decide() == "HOLDS" and "r = 2·R" in out.range


def test_assumption_c_undecided_is_inconclusive():
    from verify.data.dataset import Dataset
    X = [[("0.1", 0), (1, 1)], [(0, 0), (1, -1)], [(0, 0), ("0.5", 1)]]   # a non-selected token ≠ 0: no certificate
    data = Dataset.make(X=X, Y=[1, -1, 1], v=[0, 1], name="nonzero-token")
    with working_precision(30) as prec:
        out = thm5.evaluate(data, prec, radii=SHORT, figure=False)
    d = out.decision()
    assert d.verdict == "INCONCLUSIVE" and "Assumption C" in d.reasons[0]


def test_a_failed_sphere_search_is_no_evidence_against_the_theorem():
    """Fig. 3(a)'s tokens ×10¹⁰⁰ (the scale sweep): at r = R ≥ 1 the softmax and the label loss saturate beyond what the
    sphere search resolves, and it returned points worse than the candidate (v^mm, p^mm(α)) at every radius. Their
    1 − corr plateaus made the verdict a VIOLATED of the theorem; an optimisation failure invalidates the path, so the
    answer is INCONCLUSIVE naming it, the plateaus named but not counted."""
    fig = D.mmts_fig3("a")
    big = fig.replace(X=[[[x * 10**100 for x in tok] for tok in seq] for seq in fig.X], name="fig3a-1e100")
    with working_precision(25) as prec:
        out = thm5.evaluate(big, prec, figure=False)  # the default radii 1 … 100: the plateaus fail the rules
    d = out.decision()
    assert d.verdict == "INCONCLUSIVE"
    assert any(r.startswith("requirement not met: (vp) the sphere search") and "optimisation failure" in r
               for r in d.reasons)
    assert any(r.startswith("fails on what the check computed, not counted") for r in d.reasons)
