"""verify.kit.probe_inequality and verify.kit.trajectory_identity (mutation tests): a ratio with an exactly zero denominator decided as
the module docstring says (0 if the numerator is exactly 0, +∞ if certainly nonzero, undecided otherwise), a
skipped point counted as undecided, point labels; an identity along a trajectory counted step by step, its
decision on both sides and the report naming the largest residual's step."""
from fractions import Fraction as F

from flint import arb

from verify.kit.probe_inequality import ProbeInequality, point_label
from verify.kit.trajectory_identity import IdentityAlong
from verify.numbers.precision import working_precision


def test_ratio_with_a_zero_denominator():
    t = ProbeInequality("r", "<=", 1)
    assert t.add_ratio(0, 0, "a") is True and t.worst_value == 0
    assert t.add_ratio(arb(0), arb(0), "b") is True
    assert t.add_ratio(arb(1) / 10, 0, "c") is False and t.worst_value == arb("inf") and t.coverage.worst_at == "c"
    assert t.add_ratio(F(-1), 0, "d") is False
    assert t.add_ratio(arb(0, 1), arb(0), "e") is None  # a ball around 0: undecided
    assert t.add_ratio(arb(3), arb(6), "f") is True
    assert t.add_ratio(F(3), F(2), "g") is False
    c = t.coverage
    assert (c.points, c.holds, c.violated, c.undecided) == (7, 3, 3, 1)
    assert (c.first_violation, c.first_undecided) == ("c", "e")


def test_ratio_against_a_positive_denominator():
    t = ProbeInequality("r", "<=", F(1, 2))
    assert t.add_ratio(F(1), F(2), "eq") is True  # 1/2 ≤ 1/2 exactly
    assert t.add_ratio(arb(1), arb(3), "third") is True
    assert t.add_ratio(F(2), F(3), "two thirds") is False
    assert t.evidence().decide() is False


def test_skip_counts_an_undecided_point():
    t = ProbeInequality("r", "<=", 1)
    assert t.skip("nowhere") is None
    t.add_ratio(F(1, 2), 1, "ok")
    c = t.coverage
    assert (c.points, c.holds, c.undecided, c.first_undecided) == (2, 1, 1, "nowhere")
    assert c.decision() is None and t.evidence().decide() is None


def test_point_label():
    with working_precision(20):
        assert point_label((1, F(-1, 3), F(2, 3))) == "p = (1, -0.333333, 0.666667)"
        assert point_label((F(1, 3),), digits=3) == "p = (0.333)"


def test_identity_along_a_trajectory_on_both_sides():
    tol = arb(10) ** -10
    ok = IdentityAlong("p(t) = W(t)u", tol)
    for t, r in enumerate((arb(0), arb(10) ** -12, -arb(10) ** -11)):
        assert ok.add(t, r) is True
    assert ok.steps == 3 and ok.agrees() is True
    ev = ok.evidence("note")
    assert ev.decide() is True and ev.residual is True and ev.coverage.points == 3
    assert ev.note.startswith("note; 3 point(s): 3 certified")
    assert ok.tally.coverage.worst_at == "t = 2"  # the largest |residual| (10⁻¹¹)
    bad = IdentityAlong("q", tol)
    bad.add(0, arb(0))
    assert bad.add(1, arb(10) ** -5) is False and bad.add(2, arb(0, 1)) is None
    assert bad.steps == 3 and bad.agrees() is False and bad.evidence().decide() is False
    rep = bad.report("between runs")
    assert rep.relation == "~" and rep.residual is True and rep.quantity == "q"
    assert rep.note == ("between runs; 3 point(s): 1 certified, 1 undecided, 1 violated; first violation at t = 1; "
                        "largest at t = 1")
    unsure = IdentityAlong("u", tol)
    unsure.add(0, arb(0, 1))
    assert unsure.agrees() is None
    assert IdentityAlong("none", tol).agrees() is None  # zero steps: nothing decided
    plain = IdentityAlong("plain", tol)
    plain.add(0, arb(0))
    assert plain.report().note == "1 point(s): 1 certified, 0 undecided, 0 violated; largest at t = 0"
