"""tfsvm.cor2: the printed Q̄K̄ᵀ fails where the nuclear SAtt-SVM⋆ solution is not symmetric (VIOLATED — the transposition
slip, kept as printed); the corrected K̄Q̄ᵀ and the W path hold (evidence); with d = 1 (every W symmetric) the printed
order holds too; an infeasible SAtt-SVM is NOT_APPLICABLE."""
from fractions import Fraction

import lemmas.tfsvm.cor2 as C
from verify.data.dataset import Dataset
from verify.data.tfsvm_seq2seq import s2s_labels
from verify.numbers.precision import to_arb, working_precision
from verify.svm.seq2seq import satt_svm

FACTORS = ("1", "3", "10", "30")  # R = R₀·f (verify.kit.seq2seq.path_r0)


def test_printed_order_is_violated_on_a_non_symmetric_solution():
    data = s2s_labels()
    with working_precision(30) as prec:
        nuc = satt_svm(data, None, False, dps=30, norm="nuc")
        W = nuc.solution
        assert nuc.unique and abs(W[1] - W[2]) > to_arb(Fraction(1, 100))  # W_⋆ ≠ W_⋆ᵀ, the set a point
        out = C.evaluate(data, prec, figure=False)  # the default ladder: the W path rises up to R ≈ 3R₀
    d = out.decision()
    assert d.verdict == "VIOLATED" and "AS PRINTED" in d.reasons[0]
    held = [e for e in out.evidence if "AS PRINTED" not in e.quantity]
    assert len(held) == 2 and all(e.rule.holds for e in held)  # the W path and the corrected K̄Q̄ᵀ


def test_corrected_order_holds_on_the_defaults():
    for data in C.default_datasets():
        with working_precision(30) as prec:
            d = C.evaluate(data, prec, order="KQ", figure=False).decision()
        assert d.verdict == "HOLDS" and d.certainty == "evidence", (data.name, d)


def test_printed_order_holds_when_every_w_is_symmetric():
    """d = 1, tokens 2 and 1, v = 1: constraints 2W ≥ 1 (query 0) and W ≥ 1 (query 1) ⇒ W^mm = W^mm_⋆ = 1."""
    data = Dataset.make(X=[[[2], [1]]], Y=[1], v=[1], Yq=[[1, 1]], name="cor2-d1")
    assert satt_svm(data, None, False, dps=30).solution == [Fraction(1)]
    with working_precision(30) as prec:
        d = C.evaluate(data, prec, factors=FACTORS, order="QK", figure=False).decision()
    assert d.verdict == "HOLDS", d


def test_infeasible_satt_svm_is_not_applicable():
    data = Dataset.make(X=[[[1, 0], [0, 0]]], Y=[1], v=[1, 0], Yq=[[1, 1]], name="cor2-infeasible")
    with working_precision(20) as prec:
        d = C.evaluate(data, prec, figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "feasible" in d.reasons[0]


def test_w_part_not_violated_at_the_small_scale():
    """The 10⁻³-scale hunt find (tests/test_tfsvm_cor1.py): the W path on the ladder R₀·f reaches the regime."""
    from tests.test_tfsvm_cor1 import small_causal

    with working_precision(30) as prec:
        d = C.evaluate(small_causal(), prec, parts=("W",), figure=False).decision()
    assert d.verdict == "HOLDS" or (d.verdict == "INCONCLUSIVE" and "regime" in str(d.reasons)), d


def test_printed_order_violated_on_the_scaled_default_too():
    """Tokens ×1/1000 (W^mm_⋆ ×10⁶, still non-symmetric): the same verdict as the default, VIOLATED as printed."""
    from tests.test_tfsvm_cor1 import scaled

    with working_precision(30) as prec:
        out = C.evaluate(scaled(s2s_labels(), Fraction(1, 1000)), prec, factors=FACTORS, figure=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and "AS PRINTED" in d.reasons[0]
