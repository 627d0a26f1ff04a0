"""tfsvm.cor1: the global seq2seq paths → the Frobenius and the nuclear SAtt-SVM sets (evidence); the path's transpose
against the set plateaus on a dataset with non-symmetric W^mm (VIOLATED); tied optimal tokens, an infeasible SAtt-SVM
and a head violating Assumption E are NOT_APPLICABLE naming them."""
from fractions import Fraction

import lemmas.tfsvm.cor1 as C
from tests.test_tfsvm_thm10 import head_e_violation
from verify.data.dataset import Dataset
from verify.data.tfsvm_seq2seq import s2s_labels
from verify.kit.seq2seq import frobenius_norm, path_r0
from verify.numbers.precision import working_precision
from verify.svm.seq2seq import satt_svm

FACTORS = ("1", "3", "10", "30")  # R = R₀·f, R₀ = ‖W^mm‖·max(1, ln(B·T/min(c, 1))) (verify.kit.seq2seq.path_r0)


def small_causal() -> Dataset:
    """A hunt's find at the 10⁻³ scale: logits R·10⁻⁶, so a fixed ladder R ≤ 100 never leaves the linear regime."""
    return Dataset.make(X=[[["-1/1500", "1/1200"], ["-0.00125", "7/3000"], ["-0.0025", "-1/350"]]], Y=[1],
                        v=[3, "2.5"], causal=True, name="cor1-small")


def scaled(data, s) -> Dataset:
    return data.replace(X=[[[s * x for x in tok] for tok in seq] for seq in data.X])


def test_defaults_hold_as_evidence():
    for data in C.default_datasets():
        with working_precision(30) as prec:
            d = C.evaluate(data, prec, figure=False).decision()  # the default ladder R₀·(1, …, 100)
        assert d.verdict == "HOLDS" and d.certainty == "evidence", (data.name, d)


def test_transposed_path_is_violated_where_wmm_is_not_symmetric():
    W = satt_svm(s2s_labels(), None, False, dps=30).solution  # exact, flat 2×2
    assert W[1] != W[2]
    with working_precision(30) as prec:
        d = C.evaluate(s2s_labels(), prec, factors=FACTORS, norms=("F",), target="transpose", figure=False).decision()
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


def test_small_scale_data_is_not_violated():
    """The unit of the ladder is ‖W^mm‖ (~10⁶ here, exact check below: every margin constraint is quadratic in the
    tokens, so W^mm of the data ×1000 is W^mm/10⁶), so the paths reach the regime: not VIOLATED."""
    small = small_causal()
    W = satt_svm(small, None, True, dps=30).solution
    assert satt_svm(scaled(small, 1000), None, True, dps=30).solution == [x / 10**6 for x in W]
    with working_precision(30) as prec:
        d = C.evaluate(small, prec, factors=FACTORS, figure=False).decision()
    assert d.verdict == "HOLDS" or (d.verdict == "INCONCLUSIVE" and "regime" in str(d.reasons)), d


def test_a_ladder_below_the_regime_is_inconclusive_never_violated():
    """Absolute radii 1…30 on the 10⁻³-scale data: the plateau of the linear regime (dist 1.109 at every R) is not
    read — INCONCLUSIVE naming the regime requirement."""
    with working_precision(30) as prec:
        d = C.evaluate(small_causal(), prec, radii=("1", "3", "10", "30"), norms=("F",), figure=False).decision()
    assert d.verdict == "INCONCLUSIVE" and any("asymptotic regime" in str(r) for r in d.reasons), d


def test_scaled_default_gives_the_default_verdict():
    """Tokens ×1/1000: W^mm ×10⁶ and B/c unchanged, so the path is the same up to that scale (the statement is
    scale-covariant in R): the same verdict, HOLDS. R₀ = ‖W^mm‖·max(1, ln(B·T/min(c, 1))) scales exactly (×s⁻²) while
    c ≤ 1 at both scales (×1/1000 → ×1/10⁶); the floor ln(B·T) breaks it only for large scores (c > 1)."""
    data = s2s_labels()
    with working_precision(30) as prec:
        a = C.evaluate(data, prec, norms=("F",), figure=False)  # the default ladder: the path rises up to R ≈ 3R₀
        b = C.evaluate(scaled(data, Fraction(1, 1000)), prec, norms=("F",), figure=False)
    assert a.decision().verdict == b.decision().verdict == "HOLDS"
    small, smaller = scaled(data, Fraction(1, 1000)), scaled(data, Fraction(1, 10**6))
    with working_precision(30):
        assert path_r0(smaller, frobenius_norm(satt_svm(smaller, None, False, dps=30).solution)) == \
            10**6 * path_r0(small, frobenius_norm(satt_svm(small, None, False, dps=30).solution))  # exactly
