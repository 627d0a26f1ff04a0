"""tfsvm.lemma3 on D-NUC (spec §6), with the values derived here: every feasible W has W₁₁, W₂₂ ≥ 1 and
‖W‖_⋆ ≥ tr W ≥ 2 (‖·‖_⋆ is the dual of ‖·‖₂ and ‖I‖₂ = 1), attained by I (rank 2) and by [[1,±1],[±1,1]] (PSD,
rank 1, trace 2): C_cvx = C⋆(m = 1) = 2. So (1) holds at m = 1, and asserting (2) without its hypothesis is
VIOLATED (a member of rank 2); with the hypothesis it is NOT_APPLICABLE."""
from fractions import Fraction

from lemmas.tfsvm import lemma3 as M
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.numbers.precision import to_arb, working_precision


def _trace_bound_members():
    """Fractions: I and [[1,±1],[±1,1]] meet W₁₁ ≥ 1, W₂₂ ≥ 1 with trace 2 (= ‖·‖_⋆: symmetric PSD)."""
    mats = {"I": [[1, 0], [0, 1]], "+": [[1, 1], [1, 1]], "-": [[1, -1], [-1, 1]]}
    for W in mats.values():
        assert W[0][0] >= 1 and W[1][1] >= 1 and Fraction(W[0][0] + W[1][1]) == 2
        assert W[0][0] * W[1][1] - W[0][1] * W[1][0] >= 0  # PSD (2×2, positive diagonal)
    return mats


def test_defaults_hold_certified():
    v = run_claim(M.CLAIM, [D.d_nuc(), D.d_lmm()], dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_DNUC_m1_part1_holds_with_value_two():
    _trace_bound_members()
    with working_precision(30) as prec:
        out = M.evaluate(D.d_nuc(), prec, m=1, part="1")
        assert out.decision().verdict == "HOLDS" and out.decision().certainty == "certified"
        c = next(e for e in out.evidence if e.quantity.startswith("C_cvx"))
        assert abs(c.value - to_arb(2)) < to_arb(Fraction(1, 10**25))


def test_DNUC_m1_set_equality_without_the_rank_hypothesis_is_violated():
    _trace_bound_members()
    with working_precision(30) as prec:
        out = M.evaluate(D.d_nuc(), prec, m=1, part="2", require_rank=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    eq = next(e for e in out.evidence if e.quantity.startswith("(2)"))
    assert eq.coverage.violated >= 1 and eq.coverage.holds >= 2  # rank-2 members and the rank-1 vertices b = ±1


def test_DNUC_m1_set_equality_with_the_hypothesis_is_not_applicable():
    with working_precision(30) as prec:
        d = M.evaluate(D.d_nuc(), prec, m=1, part="2").decision()
    assert d.verdict == "NOT_APPLICABLE" and "every element of 𝒲_cvx has rank ≤ m = 1" in d.reasons[0]
