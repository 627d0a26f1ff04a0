"""tfsvm.lemma17 (rank lemma): holds exactly; without P ⊆ null(A) it is VIOLATED; a dataset whose first
sequences' constraint rows are dependent (A not of full row rank) is NOT_APPLICABLE; a hand instance."""
from fractions import Fraction

from lemmas.tfsvm import lemma17
from verify import Dataset
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.numbers.precision import working_precision


def test_defaults_hold_certified():
    v = run_claim(lemma17.CLAIM, lemma17.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_without_P_inside_null_A_is_violated():
    with working_precision(20) as prec:
        out = lemma17.evaluate(D.d_t2(), prec, inside_null=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"


def test_dependent_A_is_not_applicable():
    seq = [[1, 0], [0, 0]]
    data = Dataset.make(X=[seq, seq, [[0, 1], [0, 0]]], Y=[1, 1, 1], v=[1, 1], z=[[1, 0], [1, 0], [0, 1]], name="dup")
    v = run_claim(lemma17.CLAIM, [data], dps=20)
    assert v.verdict == "NOT_APPLICABLE" and "A has full row rank" in v.reasons[0]


def test_hand_instance():
    """A = e₁ᵀ (p = 3), B = (1, 1, 0), P = span{e₂} ⊆ null(A): B projected = (0, 1, 0) ≠ 0, so [A; B] has rank 2."""
    A, B, U = [[1, 0, 0]], [[1, 1, 0]], [[0, 1, 0]]
    A, B, U = ([[Fraction(x) for x in r] for r in M] for M in (A, B, U))
    assert lemma17.projected(B, U) == [[0, 1, 0]]
    assert all(met for _, met, _ in lemma17.hypotheses(A, B, U, 3)) and lemma17.full_rank(A, B)
