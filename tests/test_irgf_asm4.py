"""irgf.asm4 (Assumption 4): exact; each part an item naming what fails."""
from lemmas.irgf import asm4
from verify.claims import run_claim
from verify.data.dataset import Dataset
from verify.data.irgf import d_a4_shift, d_seed0
from verify.numbers.precision import working_precision


def _items(out):
    return {e.quantity.split()[0]: e for e in out.evidence}


def test_defaults_hold_certified():
    v = run_claim(asm4.CLAIM, asm4.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_shift_breaks_iii_only():
    # D-A4-SHIFT: sequence 1's tokens 2, 3 are (1/3, 0, 1.2) and (1/3, 0, −0.7): their sum is not 2c·x_opt
    with working_precision(20) as prec:
        out = asm4.evaluate(d_a4_shift(), prec)
    assert out.decide() == "VIOLATED"
    it = _items(out)
    assert it["(i)"].decide() is True and it["(ii)"].decide() is True
    assert it["(iii)"].decide() is False and "sequence 1: token 2 has no partner" in it["(iii)"].note


def test_seed0_breaks_i_and_ii():
    with working_precision(20) as prec:
        out = asm4.evaluate(d_seed0(), prec)
    it = _items(out)
    assert out.decide() == "VIOLATED" and it["(i)"].decide() is False and it["(ii)"].decide() is False


def test_even_length_and_c_equal_one():
    even = Dataset.make(X=[[[2, 0], [1, 1], [1, -1], [0, 0]]], Y=[1], v=[1, 0], z=[[1, 0]], name="even")
    c_one = Dataset.make(X=[[[2, 0, 0], [2, 1, 0], [2, -1, 0]]], Y=[1], v=[1, 0, 0], z=[[1, 0, 0]], name="c1")
    ok = Dataset.make(X=[[[2, 0, 0], [1, 1, 0], [1, -1, 0]]], Y=[1], v=[1, 0, 0], z=[[3, 0, 0]], name="c-half")
    with working_precision(20) as prec:
        out = asm4.evaluate(even, prec)
        assert out.decide() == "VIOLATED" and "L = 4 is even" in _items(out)["(iii)"].note
        # c = 1 never meets a unique optimum: vᵀ(x_opt ± r) < vᵀx_opt cannot hold for both signs (here all scores 2)
        assert asm4.evaluate(c_one, prec).decide() == "VIOLATED"
        assert asm4.evaluate(ok, prec).decide() == "HOLDS"  # c = 1/2, r = ±e₂ ⊥ x_opt
