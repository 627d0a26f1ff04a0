"""tfsvm.cor2: the printed Q̄K̄ᵀ fails where the nuclear SAtt-SVM⋆ solution is not symmetric (VIOLATED — the transposition
slip, kept as printed); the corrected K̄Q̄ᵀ and the W path hold (evidence); with d = 1 (every W symmetric) the printed
order holds too; an infeasible SAtt-SVM is NOT_APPLICABLE."""
from fractions import Fraction

import lemmas.tfsvm.cor2 as C
from verify.data.dataset import Dataset
from verify.data.tfsvm_seq2seq import s2s_labels
from verify.numbers.precision import to_arb, working_precision
from verify.svm.seq2seq import satt_svm

RADII = ("1", "3", "10", "30")


def test_printed_order_is_violated_on_a_non_symmetric_solution():
    data = s2s_labels()
    with working_precision(30) as prec:
        nuc = satt_svm(data, None, False, dps=30, norm="nuc")
        W = nuc.solution
        assert nuc.unique and abs(W[1] - W[2]) > to_arb(Fraction(1, 100))  # W_⋆ ≠ W_⋆ᵀ, the set a point
        out = C.evaluate(data, prec, radii=RADII, figure=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and "AS PRINTED" in d.reasons[0]
    held = [e for e in out.evidence if "AS PRINTED" not in e.quantity]
    assert len(held) == 2 and all(e.rule.holds for e in held)  # the W path and the corrected K̄Q̄ᵀ


def test_corrected_order_holds_on_the_defaults():
    for data in C.default_datasets():
        with working_precision(30) as prec:
            d = C.evaluate(data, prec, radii=RADII, order="KQ", figure=False).decision()
        assert d.verdict == "HOLDS" and d.certainty == "evidence", (data.name, d)


def test_printed_order_holds_when_every_w_is_symmetric():
    """d = 1, tokens 2 and 1, v = 1: constraints 2W ≥ 1 (query 0) and W ≥ 1 (query 1) ⇒ W^mm = W^mm_⋆ = 1."""
    data = Dataset.make(X=[[[2], [1]]], Y=[1], v=[1], Yq=[[1, 1]], name="cor2-d1")
    assert satt_svm(data, None, False, dps=30).solution == [Fraction(1)]
    with working_precision(30) as prec:
        d = C.evaluate(data, prec, radii=RADII, order="QK", figure=False).decision()
    assert d.verdict == "HOLDS", d


def test_infeasible_satt_svm_is_not_applicable():
    data = Dataset.make(X=[[[1, 0], [0, 0]]], Y=[1], v=[1, 0], Yq=[[1, 1]], name="cor2-infeasible")
    with working_precision(20) as prec:
        d = C.evaluate(data, prec, figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "feasible" in d.reasons[0]
