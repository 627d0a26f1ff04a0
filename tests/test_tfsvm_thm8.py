"""tfsvm.thm8 (⋄-SVM feasible for every α): defaults HOLD as evidence over the noise draws; a dataset meeting only an
ALTERED threshold d ≥ max(T − 1, n) − 1 (three collinear tokens, d = 1) → VIOLATED with a Farkas certificate; d below
the threshold → NOT_APPLICABLE; σ = 0 on a measure-zero dataset → NOT_APPLICABLE naming genericity, while its noise
draws HOLD."""
from fractions import Fraction

from lemmas.tfsvm import thm8
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.kit.almost_all import generic, noise_draw
from verify.numbers.precision import working_precision
from verify.svm import solve_svm

LINE = Dataset.make(X=[[[0], [1], [2]]], Y=[1], v=[1], z=[[1]], name="three-on-a-line")  # n = 1, T = 3, d = 1


def test_defaults_hold_as_evidence():
    v = run_claim(thm8.CLAIM, thm8.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"


def test_altered_threshold_violated_by_the_middle_token():
    """d = 1 = max(T − 1, n) − 1: in one dimension the middle of three tokens can never win — (x₂ − x₁)w ≥ 1 and
    (x₂ − x₃)w ≥ 1 need w of both signs once x₁ < x₂ < x₃ (checked exactly on the draw below)."""
    with working_precision(30) as prec:
        out = thm8.evaluate(LINE, prec, threshold_slack=1, draws=2)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified" and "feasible" in d.reasons[0]
    draw = noise_draw(LINE, thm8.SIGMA, 0)
    xs = [tok[0] for tok in draw.X[0]]
    middle = sorted(range(3), key=lambda t: xs[t])[1]
    lo, hi = (xs[middle] - min(xs)), (xs[middle] - max(xs))
    assert lo > 0 > hi  # (x_mid − x_t)·w·z ≥ 1 for both: w > 0 and w < 0 at once
    assert solve_svm(draw, "W", (middle,), 30, check_unique=False).farkas.passed


def test_below_the_threshold_is_not_applicable():
    with working_precision(20) as prec:
        for data in (D.d_stat(), LINE):
            d = thm8.evaluate(data, prec).decision()
            assert d.verdict == "NOT_APPLICABLE" and "d ≥ max(T − 1, n)" in d.reasons[0], data.name


def test_measure_zero_dataset_is_not_applicable_without_noise():
    """hull_middle: tokens (0,0), (1,0), (2,0) are collinear, so the rows (x_t − x_1) ⊗ z have rank 1 < n(T − 1) = 2,
    and α = (2) is infeasible (the middle token) — a null set: NOT_APPLICABLE with σ = 0, HOLDS over its noise draws."""
    data = D.hull_middle()
    assert generic(data)[:2] == (False, 1)
    assert solve_svm(data, "W", (1,), 20, check_unique=False).status == "infeasible"
    with working_precision(20) as prec:
        d0 = thm8.evaluate(data, prec, sigma=0).decision()
        d1 = thm8.evaluate(data, prec, draws=3).decision()
    assert d0.verdict == "NOT_APPLICABLE" and "generic" in d0.reasons[0]
    assert d1.verdict == "HOLDS" and d1.certainty == "evidence"


def test_generic_dataset_itself_is_certified():
    """D-T2 (σ = 0): rows (x_2 − x_1) ⊗ z_i = −(1,1) ⊗ (1,0) and −(2,2) ⊗ (1,1/2) are independent: certified, no range."""
    with working_precision(20) as prec:
        out = thm8.evaluate(D.d_t2(), prec, sigma=Fraction(0))
    d = out.decision()
    assert d.verdict == "HOLDS" and d.certainty == "certified" and out.evidence[0].coverage.points == 4
