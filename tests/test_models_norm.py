"""verify.models.attention.norm2: an enclosure of ‖a‖₂, also when ‖a‖² is a ball around 0 (two directions equal to
the working precision): it then encloses [0, ε] — before, the square root of a ball straddling 0 was NaN, so a
distance rule could not decide (found by the kit mutation tests of local_paths)."""
from flint import arb

from verify.models.attention import norm2


def test_norm2_of_exact_vectors():
    assert norm2([arb(3), arb(4)]) == 5


def test_norm2_of_a_ball_around_zero_is_a_small_nonnegative_enclosure():
    tiny = arb(0, 1e-30)
    n = norm2([tiny, tiny])
    assert n.is_finite() and n.upper() < 1e-14 and n.lower() <= 0 <= n.upper()
    assert not (n < 0)  # never certainly negative
    assert n < arb(1) / 10**10  # a rule comparing it with a small positive number can decide
