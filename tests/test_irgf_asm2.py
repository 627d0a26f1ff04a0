"""irgf.asm2 (Assumption 2, equal non-optimal scores): exact; D-A2VIOL fails with spread 9/10 in sequence 1."""
from fractions import Fraction

from lemmas.irgf import asm2
from verify.claims import run_claim
from verify.data.dataset import Dataset
from verify.data.irgf import d_a2viol
from verify.kit import irgf
from verify.numbers.precision import working_precision


def _ev(out, start):
    return next(e for e in out.evidence if e.quantity.startswith(start))


def test_defaults_hold_certified():
    v = run_claim(asm2.CLAIM, asm2.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_a2viol_violated_naming_the_sequence():
    with working_precision(20) as prec:
        out = asm2.evaluate(d_a2viol(), prec)
    assert out.decide() == "VIOLATED"
    item = _ev(out, "max_i max_")
    # scores γ = y vᵀx = (1, 9/10, 0) (v = e₃): the non-optimal ones differ by 9/10
    assert item.value == Fraction(9, 10) and item.decide() is False and "sequence 1" in item.note
    assert irgf.assumption2(d_a2viol())[0] is False


def test_worst_sequence_is_named_and_l2_is_automatic():
    # sequence 1 fine (4, 0, 0), sequence 2 spread 1/2: named; L = 2 data always hold
    data = Dataset.make(X=[[[1, 4], [0, 0], [3, 0]], [[0, 2], [1, 1], [0, "1/2"]]], Y=[1, 1], v=[0, 1],
                        z=[[1, 0], [0, 1]], name="a2-second")
    with working_precision(20) as prec:
        out = asm2.evaluate(data, prec)
        assert out.decide() == "VIOLATED"
        assert _ev(out, "max_i max_").value == Fraction(1, 2) and "sequence 2" in _ev(out, "max_i max_").note
        two = Dataset.make(X=[[[1, 3], [5, -2]]], Y=[1], v=[0, 1], z=[[1, 0]], name="L2")
        assert asm2.evaluate(two, prec).decide() == "HOLDS"
