"""verify.kit.paths (mutation tests): a path point is no worse than its candidate when certified ≤ in arb, or when
its excess exceeds the candidate's by at most tolerance × the candidate's excess; certainly more (and > 0) is an
optimisation failure; anything else undecided — and ``require_path_optimal`` turns the points into one requirement
(met only when every point is no worse), naming the radii that failed or were undecided."""
from fractions import Fraction
from types import SimpleNamespace

from flint import arb

from verify.claims import Outcome
from verify.kit.paths import no_worse_than_candidate, require_path_optimal


def _pt(excess=None, cand=None, cert=None, R=1, starts=3):
    return SimpleNamespace(excess=excess, candidate_excess=cand, certified_le_candidate=cert, R=arb(R), starts=starts)


def test_a_certified_answer_is_returned_as_is():
    assert no_worse_than_candidate(_pt(5, 1, cert=True), Fraction(0)) is True
    assert no_worse_than_candidate(_pt(0, 1, cert=False), Fraction(1)) is False


def test_no_candidate_excess_is_undecided_unless_certified():
    assert no_worse_than_candidate(_pt(1, None), Fraction(1)) is None
    assert no_worse_than_candidate(_pt(1, None, cert=True), Fraction(1)) is True


def test_the_relative_tolerance_on_both_sides():
    """candidate excess 100, tolerance 1/100: a gap of exactly 1 = 1/100·100 is within (≤, not <); 1 + 1/1000 is
    worse; a negative gap is better."""
    tol = Fraction(1, 100)
    assert no_worse_than_candidate(_pt(Fraction(101), Fraction(100)), tol) is True
    assert no_worse_than_candidate(_pt(Fraction(101) + Fraction(1, 1000), Fraction(100)), tol) is False
    assert no_worse_than_candidate(_pt(Fraction(99), Fraction(100)), tol) is True
    assert no_worse_than_candidate(_pt(Fraction(100), Fraction(100)), Fraction(0)) is True
    assert no_worse_than_candidate(_pt(Fraction(100) + Fraction(1, 10**9), Fraction(100)), Fraction(0)) is False


def test_a_zero_gap_beyond_a_negative_allowance_is_undecided_not_worse():
    """candidate excess −1, tolerance 1: the allowance is −1; a gap of exactly 0 is not ≤ −1 and not > 0: undecided
    (only a strictly positive gap is an optimisation failure)."""
    assert no_worse_than_candidate(_pt(Fraction(-1), Fraction(-1)), Fraction(1)) is None
    assert no_worse_than_candidate(_pt(Fraction(0), Fraction(-1)), Fraction(1)) is False


def test_an_overlapping_ball_is_undecided():
    """gap = [1 ± 1] vs the allowance 1/200·100 = 1/2: neither certainly ≤ 1/2 nor certainly > 0."""
    p = _pt(arb(101, 1), arb(100))
    assert no_worse_than_candidate(p, arb(1) / 200) is None


def _out(points, param="W", tol=arb(1) / 100, loss="L"):
    out = Outcome()
    require_path_optimal(out, SimpleNamespace(points=points), param, tol, loss)
    assert len(out.requirements) == 1
    return out.requirements[0]


def test_require_met_when_every_radius_is_no_worse():
    r = _out([_pt(1, 1, R=2, starts=5), _pt(cert=True, R=4, starts=5)])
    assert r.met is True
    assert r.name == "(W) the sphere search on ‖W‖_F = R found L ≤ L(candidate SVM direction) at every R"
    assert r.detail == ("at all 2 radii (5 starts each): certainly ≤ in arb, or equal to 10^-dps relative")


def test_require_fails_naming_the_failed_radii_before_undecided_ones():
    r = _out([_pt(1, 1, R=2), _pt(cert=False, R=3), _pt(arb(101, 1), arb(100), R=5), _pt(cert=False, R=7)])
    assert r.met is False
    assert r.detail == "optimisation failure at R = 3.0, 7.0"


def test_require_fails_on_one_failed_radius_alone():
    r = _out([_pt(1, 1, R=2), _pt(cert=False, R=3)])
    assert r.met is False and r.detail == "optimisation failure at R = 3.0"


def test_require_undecided_names_the_undecided_radii():
    r = _out([_pt(1, 1, R=2), _pt(arb(101, 1), arb(100), R=5), _pt(None, None, R=6)], tol=arb(1) / 200)
    assert r.met is False
    assert r.detail == "undecided at R = 5.0, 6.0"


def test_require_names_the_parametrisation_and_the_loss():
    assert "on ‖p‖ = R found Λ ≤ Λ(candidate" in _out([_pt(cert=True)], "p", loss="Λ").name
    assert "on ‖v‖ = r, ‖p‖ = R found" in _out([_pt(cert=True)], "vp").name
    assert "on ‖K‖² + ‖Q‖² = 2R found" in _out([_pt(cert=True)], "KQ").name
    assert _out([_pt(cert=True)], "KQ").name.startswith("(KQ) ")
    out = Outcome()
    require_path_optimal(out, SimpleNamespace(points=[_pt(cert=True)]), "W", arb(0))
    assert "found L ≤ L(candidate SVM direction)" in out.requirements[0].name
