"""tfsvm.lemma15: the defaults hold (certified); m = 1 < rank I = 2 with the rank hypothesis dropped is VIOLATED
(the truncated factors miss I by σ₂ = 1 and give ½(‖K‖²+‖Q‖²) = 1 ≠ ‖I‖_⋆ = 2), NOT_APPLICABLE with it; the budget
pitfall ‖K‖²+‖Q‖² ≤ R is VIOLATED; the balanced factors of [[3,0],[4,0]] (σ = 5) give ½(‖K‖²+‖Q‖²) = 5."""
from fractions import Fraction

from flint import arb

from lemmas.tfsvm import lemma15 as M
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.geometry.tfsvm_svm import as_arb_mat, balanced_factors, fro2
from verify.numbers.precision import to_arb, working_precision

I2 = [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]


def test_defaults_hold_certified():
    v = run_claim(M.CLAIM, M.CLAIM.default_datasets()[:2], dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_rank_above_m_is_violated_without_the_hypothesis():
    with working_precision(30) as prec:
        out = M.evaluate(D.d_nuc(), prec, ms=[1], extra=[("I", I2, 1)], require_rank=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    fact = next(e for e in out.evidence if "the factorisation" in e.quantity)
    assert fact.coverage.first_violation == "W = I (m = 1)"
    assert abs(fact.value - 1) < 1e-25  # ‖I − u uᵀ‖_F = 1 for any unit u (σ₂ = 1)
    assert any(e.decide() is False and "½(‖K‖²+‖Q‖²) − ‖W‖_⋆" in e.quantity for e in out.evidence)


def test_rank_above_m_is_not_applicable_with_the_hypothesis():
    with working_precision(20) as prec:
        d = M.evaluate(D.d_nuc(), prec, ms=[1], extra=[("I", I2, 1)]).decision()
    assert d.verdict == "NOT_APPLICABLE" and "rank W ≤ m" in d.reasons[0]


def test_budget_R_instead_of_2R_is_violated():
    with working_precision(20) as prec:
        out = M.evaluate(D.d_t2(), prec, budget_factor=1)
    assert out.decide() == "VIOLATED"
    assert [e.quantity for e in out.evidence if e.decide() is False] == [
        "(c) W ↦ (K,Q): ‖K‖²+‖Q‖² ≤ 1R, R ≥ ‖W‖_⋆ (its certified upper bound)"]


def test_balanced_factors_of_a_known_matrix():
    """[[3,0],[4,0]] = 5·(3/5, 4/5)ᵀ(1, 0): ‖·‖_⋆ = 5, and U√Σ, V√Σ give ½(‖K‖²+‖Q‖²) = ½(5 + 5) = 5."""
    with working_precision(40):
        W = as_arb_mat([[3, 0], [4, 0]])
        K, Q = balanced_factors(W, 1)
        half = (fro2(K) + fro2(Q)) / 2
        assert abs(half - to_arb(5)) < arb(10) ** -35
        assert abs(fro2(K) - fro2(Q)) < arb(10) ** -35  # balanced
