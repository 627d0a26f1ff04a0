"""verify.kit.cone_scan (mutation tests): see the tests below."""
from fractions import Fraction

from verify.kit.cone_scan import scan_radii


def test_scan_radii_ladder_times_sigma():
    """σ = 2 on the ladder (1, 5): radii 2, 10; R_deep = 30 beyond it is appended, R_deep = 5 is not."""
    assert scan_radii(2, (1, 5)) == [2, 10]
    assert scan_radii(2, (1, 5), r_deep=Fraction(30)) == [2, 10, 30]
    assert scan_radii(2, (1, 5), r_deep=Fraction(5)) == [2, 10]
