"""verify.kit.trajectory_identity (mutation tests): |residual(t)| ≤ tol at every step, each step counted and named
"t = …"; ``agrees`` is the tally's decision; ``evidence`` is the deciding residual item; ``report`` the same figure
as an informative item with the counts and the largest step."""
from fractions import Fraction

from flint import arb

from verify.kit.trajectory_identity import IdentityAlong
from verify.numbers.precision import to_arb


def test_every_step_is_decided_on_the_residual_enclosure():
    """tol = 10⁻³: |−10⁻⁴| ≤ tol holds; [10⁻³ ± 10⁻⁵] straddles tol (undecided); 2·10⁻³ certainly above (fails)."""
    ident = IdentityAlong("p − Wu", Fraction(1, 1000))
    assert ident.add(0, arb(-1) / 10**4) is True
    assert ident.steps == 1 and ident.agrees() is True
    assert ident.add(1, arb(1, to_arb(Fraction(1, 100))) / 1000) is None
    assert ident.steps == 2 and ident.agrees() is None
    assert ident.add(2, arb(2) / 1000) is False
    assert ident.steps == 3 and ident.agrees() is False
    c = ident.tally.coverage
    assert (c.holds, c.undecided, c.violated) == (1, 1, 1)
    assert c.first_violation == "t = 2" and c.first_undecided == "t = 1"


def test_the_residual_is_compared_in_absolute_value():
    """−2·10⁻³ is a residual of size 2·10⁻³ > 10⁻³: fails (as a signed value it would pass)."""
    ident = IdentityAlong("r", Fraction(1, 1000))
    assert ident.add(0, arb(-2) / 1000) is False
    assert ident.add(1, Fraction(-2, 1000)) is False


def test_an_exact_residual_at_the_tolerance_holds():
    ident = IdentityAlong("r", Fraction(1, 10))
    assert ident.add(5, Fraction(-1, 10)) is True
    assert ident.add(6, Fraction(11, 100)) is False


def test_no_step_is_undecided():
    ident = IdentityAlong("r", Fraction(1))
    assert ident.steps == 0 and ident.agrees() is None


def test_evidence_is_a_residual_item_over_every_step():
    ident = IdentityAlong("r", Fraction(1, 100))
    ident.add(0, arb(1) / 1000)
    ident.add(3, arb(1) / 200)
    ev = ident.evidence("n")
    assert ev.residual is True and ev.relation == "<=" and ev.bound == Fraction(1, 100)
    assert ev.decide() is True and ev.coverage.points == 2
    assert ev.note.startswith("n; 2 point(s)") and ident.evidence().note.startswith("2 point(s)")


def test_report_is_informative_with_the_largest_step():
    ident = IdentityAlong("r", Fraction(1, 100))
    ident.add(0, arb(1) / 1000)
    ident.add(3, arb(1) / 200)
    ev = ident.report("between runs")
    assert ev.relation == "~" and ev.informative and ev.residual is True
    assert ev.quantity == "r"
    assert abs(ev.value - arb(1) / 200) < arb(1) / 10**15  # the upper end of |5·10⁻³|
    assert ev.note == ("between runs; 2 point(s): 2 certified, 0 undecided, 0 violated; largest at t = 3")
    plain = ident.report()
    assert plain.note == "2 point(s): 2 certified, 0 undecided, 0 violated; largest at t = 3"
    empty = IdentityAlong("r", Fraction(1)).report()
    assert empty.note == "0 point(s): 0 certified, 0 undecided, 0 violated" and empty.value is None
