"""irgf.aux.a4-coincide: under Assumption 4 the exact Frobenius solution is W° and W° is nuclear-optimal; without it
(D-SEED0, D-TRAP) the Frobenius solution is not nuclear-optimal (certified)."""
from fractions import Fraction

from lemmas.irgf import aux_a4_coincide as M
from verify.claims import run_claim
from verify.data.irgf import d_a4, d_seed0, d_trap
from verify.kit import irgf
from verify.numbers.precision import working_precision


def test_defaults_certified():
    v = run_claim(M.CLAIM, M.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_d_a4_frobenius_solution_is_w_circ():
    res = irgf.w_svm(d_a4())
    assert list(res.solution) == [Fraction(2, 5), 0, 0, 0, 1, 0, 0, 0, 0]  # spec: W° = Diag(0.4, 1.0, 0)


def test_without_assumption4_the_solutions_differ():
    for data in (d_seed0(), d_trap()):
        with working_precision(20) as prec:
            out = M.evaluate(data, prec)
        assert out.decide() == "NOT_APPLICABLE" and "irgf.asm4" in out.hypotheses[0].name
        with working_precision(20) as prec:
            out = M.evaluate(data, prec, check_hypotheses=False)
        assert out.decide() == "VIOLATED" and out.decision().certainty == "certified"
        assert out.evidence[0].value > 0  # ‖W_F‖_* − p*_nuc certainly positive: W_F is not nuclear-optimal
