"""tfsvm.cor1: the global seq2seq paths → the Frobenius and the nuclear SAtt-SVM sets (evidence); the path's transpose
against the set plateaus on a dataset with non-symmetric W^mm (VIOLATED); tied optimal tokens, an infeasible SAtt-SVM
and a head violating Assumption E are NOT_APPLICABLE naming them."""
from fractions import Fraction

import lemmas.tfsvm.cor1 as C
from tests.test_tfsvm_thm10 import head_e_violation
from verify.data.dataset import Dataset
from verify.data.tfsvm_seq2seq import s2s_labels
from verify.numbers.precision import working_precision
from verify.svm.seq2seq import satt_svm

RADII = ("1", "3", "10", "30")


def test_defaults_hold_as_evidence():
    for data in C.default_datasets():
        with working_precision(30) as prec:
            d = C.evaluate(data, prec, radii=RADII, figure=False).decision()
        assert d.verdict == "HOLDS" and d.certainty == "evidence", (data.name, d)


def test_transposed_path_is_violated_where_wmm_is_not_symmetric():
    W = satt_svm(s2s_labels(), None, False, dps=30).solution  # exact, flat 2×2
    assert W[1] != W[2]
    with working_precision(30) as prec:
        d = C.evaluate(s2s_labels(), prec, radii=RADII, norms=("F",), target="transpose", figure=False).decision()
    assert d.verdict == "VIOLATED" and "transposed" in d.reasons[0]


def test_tied_tokens_are_not_applicable():
    tie = Dataset.make(X=[[[1, 0], [0, 1], [1, 1]]], Y=[1], v=[1, -1], name="cor1-tie")  # vᵀx = (1, −1, 0)
    tie = tie.replace(X=[[[1, 0], [0, 1], [1, 0]]])                                    # tokens 0, 2 equal: a tie
    with working_precision(20) as prec:
        d = C.evaluate(tie, prec, figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "unique optimal token" in d.reasons[0]


def test_infeasible_satt_svm_is_not_applicable():
    """Query 1 is the zero token: every logit of its row is 0, so (x_0 − x_1)ᵀW·0 = 0 ≥ 1 is impossible."""
    data = Dataset.make(X=[[[1, 0], [0, 0]]], Y=[1], v=[1, 0], Yq=[[1, 1]], name="cor1-infeasible")
    assert data.X[0][1] == (Fraction(0), Fraction(0))
    with working_precision(20) as prec:
        d = C.evaluate(data, prec, figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "feasible" in d.reasons[0]


def test_head_violating_e_is_not_applicable():
    with working_precision(20) as prec:
        d = C.evaluate(head_e_violation(), prec, figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "Assumption E" in d.reasons[0]
