"""tfsvm.thm1: feasible on every noisy draw (evidence over the draws, each certified); the statement without
"almost all" is VIOLATED on measure-zero data (Farkas); d < n is NOT_APPLICABLE."""
from lemmas.tfsvm import thm1
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.geometry.tfsvm import difference_rows
from verify.numbers.exact import rank
from verify.numbers.precision import working_precision


def test_defaults_hold_over_the_draws():
    v = run_claim(thm1.CLAIM, thm1.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"


def test_measure_zero_data_without_noise_is_violated():
    with working_precision(30) as prec:
        out = thm1.evaluate(D.thm1_degenerate(), prec, sigma=0)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"


def test_degenerate_rows_are_dependent_and_noise_repairs_it():
    """By hand: both rows are (1,0)⊗e₁ up to sign: rank 1 < n(T − 1) = 2; with noise the rows separate."""
    data = D.thm1_degenerate()
    assert rank(difference_rows(data, (0, 0))) == 1
    with working_precision(30) as prec:
        out = thm1.evaluate(data, prec)
    assert out.decide() == "HOLDS"


def test_d_below_n_is_not_applicable():
    v = run_claim(thm1.CLAIM, [D.d_stat()], dps=20)
    assert v.verdict == "NOT_APPLICABLE" and "max(T − 1, n)" in v.reasons[0]
