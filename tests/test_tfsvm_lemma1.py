"""tfsvm.lemma1: exact Att-SVM solutions have rows in span{z_i} (certified); a perturbed "solution" with rows off
the span is VIOLATED; infeasible data (D-STAT) is NOT_APPLICABLE; D-T2's W^mm from the spec."""
from fractions import Fraction

from lemmas.tfsvm import lemma1
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.numbers.precision import working_precision
from verify.svm import solve_svm


def test_defaults_hold_certified():
    v = run_claim(lemma1.CLAIM, lemma1.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_off_span_perturbation_is_violated():
    """D-LMM: z = e₁, so w = e₂ ⊥ span{z}; W^mm + e₃e₂ᵀ meets every constraint (W z unchanged) with a larger norm."""
    with working_precision(30) as prec:
        out = lemma1.evaluate(D.d_lmm(), prec, perturb=((0, 0, 1), (0, 1, 0)), nuclear=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    failed = {e.quantity for e in out.evidence if e.decide() is False}
    assert any("row space" in q for q in failed) and any("certified optimum" in q for q in failed)


def test_infeasible_svm_is_not_applicable():
    v = run_claim(lemma1.CLAIM, [D.d_stat()], dps=20)
    assert v.verdict == "NOT_APPLICABLE" and "feasible" in v.reasons[0]


def test_DT2_solution_matches_the_spec():
    """D-T2: W^mm = [[1/2, −3/2], [1/2, −3/2]] (rank 1 ≤ n = 2; rows ∝ (1, −3), in span{z} = ℝ²)."""
    res = solve_svm(D.d_t2(), "W", "opt", 30, check_unique=False)
    assert [list(r) for r in res.matrix()] == [[Fraction(1, 2), Fraction(-3, 2)], [Fraction(1, 2), Fraction(-3, 2)]]
