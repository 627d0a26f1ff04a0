"""mmts.lemma13 (quadrant-restricted joint RP → (p^relax, v^mm)): Fig. 3(b) HOLDS with every p̄_R certified in P;
the unrelaxed target → VIOLATED; Assumption C over S undecided → INCONCLUSIVE."""
from lemmas.mmts import lemma13
from verify.claims import run_claim
from verify.data import mmts as D
from verify.data.dataset import Dataset
from verify.kit.joint import quadrant_margins
from verify.numbers.precision import working_precision

SHORT = ("5", "10", "20", "50")


def test_holds_on_defaults():
    v = run_claim(lemma13.CLAIM, lemma13.CLAIM.default_datasets(), dps=60)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"


def test_unrelaxed_target_is_violated():
    with working_precision(60) as prec:
        out = lemma13.evaluate(D.mmts_fig3("b"), prec, radii=SHORT, target="pmm", figure=False)
    assert out.decision().verdict == "VIOLATED"


def test_quadrant_margins_exact_on_a_point():
    # P for Fig. 3(b) (token 0 the origin): x_iᵀp ≥ 0; at p = (1, −1): 0, 2, −1 (derived by hand)
    with working_precision(30):
        ms = [float(m.mid()) for _, m in quadrant_margins(D.mmts_fig3("b"), (1, 1, 1), [1, -1])]
    assert ms == [0.0, 2.0, -1.0]


def test_assumption_c_undecided_is_inconclusive():
    X = [[(0, 0), (1, 1)], [(0, 0), (1, -1)], [("0.1", 0), ("0.5", 1)]]
    data = Dataset.make(X=X, Y=[1, -1, 1], v=[0, 1], name="nonzero-token")
    with working_precision(30) as prec:
        out = lemma13.evaluate(data, prec, radii=SHORT, figure=False)
    d = out.decision()
    assert d.verdict == "INCONCLUSIVE" and "Assumption C" in d.reasons[0]
