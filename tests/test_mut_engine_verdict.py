"""The evidence vocabulary (verify.claims.verdict) in detail: comparisons at the exact ends of a ball,
margins for every relation, the JSON of hypotheses, evidence and coverage (docs/contract.md), the
reasons a decision names, and how a Tally picks its worst point (violated, then undecided, then the
tightest) — with values chosen so that each rule is tested on both sides."""
from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb

from verify.claims.verdict import (
    Coverage,
    Decision,
    Evidence,
    Hypothesis,
    Outcome,
    Tally,
    _as_arb,
    _below,
    _fmt,
    compare,
    margin_of,
)
from verify.numbers.precision import working_precision


@pytest.fixture(autouse=True)
def prec():
    with working_precision(30):
        yield


def third():
    """1/3 as a ball with a radius; its ends are exact dyadic numbers."""
    x = arb(1) / 3
    assert not x.is_exact()
    return x


# ----- hypotheses -----------------------------------------------------------------------------------
def test_hypothesis_json():
    assert Hypothesis("H", True, "d").to_json() == {"name": "H", "met": True, "detail": "d"}
    assert Hypothesis("H", None).to_json() == {"name": "H", "met": None, "detail": ""}
    assert Hypothesis("H", False).to_json()["met"] is False
    assert Hypothesis("H", 1).to_json()["met"] is True  # truthy values are reported as booleans
    assert Hypothesis("H", 0).to_json()["met"] is False


# ----- compare --------------------------------------------------------------------------------------
def test_booleans_only_against_booleans_with_equality():
    assert compare(True, "==", True) == (True, "exact") and compare(False, "==", True) == (False, "exact")
    for args in ((True, "<", True), (True, "==", 1), (1, "==", True), (Fraction(1), "<=", False)):
        with pytest.raises(TypeError, match="booleans compare only with '==' against a boolean"):
            compare(*args)


def test_residuals_compare_absolute_values_exactly():
    assert compare(Fraction(-3), "<=", 3, residual=True) == (True, "exact")
    assert compare(Fraction(-3), "<", 3, residual=True) == (False, "exact")
    assert compare(-2, "<", 3, residual=True) == (True, "exact")
    with pytest.raises(ValueError, match="a residual compares with '<' or '<='"):
        compare(Fraction(1), ">=", 0, residual=True)
    with pytest.raises(ValueError):
        compare(Fraction(1), "==", 0, residual=True)


def test_residual_balls_at_the_exact_ends():
    x = third()  # |x| = x ∈ [lo, up], lo < up exact
    lo, up = arb(x.lower()), arb(x.upper())
    assert compare(x, "<=", up, residual=True) == (True, "enclosure")  # up ≤ up
    assert compare(x, "<", up, residual=True) == (None, "enclosure")  # up < up fails, lo ≥ up fails
    assert compare(x, "<=", lo, residual=True) == (None, "enclosure")  # lo > lo fails
    assert compare(x, "<", lo, residual=True) == (False, "enclosure")  # lo ≥ lo: certainly not < lo
    assert compare(-x, "<", lo, residual=True) == (False, "enclosure")  # the sign does not matter
    assert compare(arb(1), "<=", 1, residual=True) == (True, "enclosure")  # an exact ball
    assert compare(arb(1), "<", 1, residual=True) == (False, "enclosure")
    assert compare(arb(1), "<", Fraction(3, 2), residual=True) == (True, "enclosure")


def test_plain_comparisons_of_balls():
    x = third()
    assert compare(x, "<", Fraction(1, 2)) == (True, "enclosure")
    assert compare(x, ">=", Fraction(1, 2)) == (False, "enclosure")
    assert compare(x, "==", Fraction(1, 3)) == (None, "enclosure")  # an inexact ball is never == anything
    assert compare(arb(2), "==", 2) == (True, "enclosure") and compare(arb(2), "==", 3) == (False, "enclosure")
    assert compare(0.5, "<", 1) == (True, "enclosure")  # floats compare by enclosures (never "exact")


def test_as_arb():
    assert _as_arb(3) == 3 and _as_arb(3).is_exact()
    assert _as_arb(Fraction(1, 4)) == arb("0.25")
    assert _as_arb(0.5) == arb("0.5")
    x = third()
    assert _as_arb(x) is x
    for bad in (True, "1", None):
        with pytest.raises(TypeError, match=f"cannot compare a {type(bad).__name__} by enclosures"):
            _as_arb(bad)


# ----- margins --------------------------------------------------------------------------------------
@pytest.mark.parametrize("relation,expected", [("<", -2), ("<=", -2), (">", 2), (">=", 2), ("==", 2)])
def test_margins_for_every_relation(relation, expected):
    m = margin_of(Fraction(5), relation, 3)
    assert m == expected and isinstance(m, Fraction)  # exact inputs: an exact margin
    m = margin_of(Fraction(1), relation, 3)
    assert m == (2 if relation in ("<", "<=", "==") else -2)


def test_margins_of_balls_and_no_margins():
    m = margin_of(arb(5), "<", Fraction(3))
    assert isinstance(m, arb) and m == -2
    assert margin_of(arb(1), "==", arb(4)) == 3
    assert margin_of(Fraction(1), "~", 2) is None
    assert margin_of(None, "<", 1) is None and margin_of(1, "<", None) is None
    assert margin_of(True, "==", True) is None and margin_of(Fraction(1), "==", True) is None
    assert margin_of("text", "<", 1) is None and margin_of(1, "<", "text") is None


def test_evidence_margin():
    assert Evidence("q", Fraction(1), "<", 4).margin() == 3
    assert Evidence("q", Fraction(5), ">=", 4).margin() == 1
    assert Evidence("q", Fraction(5)).margin() is None


# ----- evidence -------------------------------------------------------------------------------------
def test_residual_evidence_decides_on_the_ball_and_shows_the_upper_end():
    b = arb(0, 2e-6)  # |b| ∈ [0, 2e-6 (rounded up)]: against 1e-6 undecided, though its upper end fails
    e = Evidence("dev", b, "<=", Fraction(1, 10**6), residual=True)
    assert e.value == abs(b).upper() and e.decide() is None and e.decided_by() == "enclosure"
    e = Evidence("dev", arb(-5), "<=", 1, residual=True)  # |−5| > 1
    assert e.value == 5 and e.decide() is False
    e = Evidence("x", arb(-2), "<", 0)  # not a residual: the value is kept as it is
    assert e.value == -2 and e.decide() is True and e.residual is False
    e = Evidence("dev", Fraction(-1, 10), "<=", 1, residual=True)  # exact residuals keep their value
    assert e.value == Fraction(-1, 10) and e.decide() is True


def test_decided_by():
    assert Evidence("q", Fraction(1), "<", 2).decided_by() == "exact"
    assert Evidence("q", arb(1), "<", 2).decided_by() == "enclosure"
    assert Evidence("q", arb(1), rule=Decision(True, "decays (rate ≥ 1)")).decided_by() == "rule: decays (rate ≥ 1)"
    t = Tally("t", "<", 2)
    t.add(Fraction(1))
    assert t.evidence().decided_by() == "tally"
    i = Evidence("i", arb(1))
    assert i.decided_by() is None and i.decide() is None and i.informative and not i.certified


def test_unknown_relation():
    with pytest.raises(ValueError, match="unknown relation"):
        Evidence("q", 1, "!=", 2)


def test_evidence_json_of_an_exact_item():
    e = Evidence("q", Fraction(1, 3), "<", 1, note="a note")
    e.stable_digits = 9
    assert e.to_json(5) == {"quantity": "q", "value": "0.33333", "relation": "<", "bound": "1", "margin": "0.66667",
                            "stable_digits": 9, "holds": True, "decides": True, "decided_by": "exact",
                            "certified": True, "level": "certified", "note": "a note"}


def test_evidence_json_of_balls_floats_and_informative_items():
    e = Evidence("b", arb(7) / 4, ">", Fraction(2))
    assert e.to_json(3) == {"quantity": "b", "value": "1.75", "relation": ">", "bound": "2", "margin": "-0.25",
                            "stable_digits": None, "holds": False, "decides": True, "decided_by": "enclosure",
                            "certified": True, "level": "certified"}
    f = Evidence("f", 0.25, "<", 1)
    js = f.to_json(10)
    assert js["value"] == "0.25" and js["certified"] is False and js["holds"] is True
    i = Evidence("i", "1.97")
    assert i.to_json(10) == {"quantity": "i", "value": "1.97", "relation": "~", "bound": None, "margin": None,
                             "stable_digits": None, "holds": None, "decides": False, "decided_by": None,
                             "certified": False, "level": None}
    r = Evidence("r", arb(1), rule=Decision(None, "decays"))
    js = r.to_json(10)
    assert js["decides"] is True and js["decided_by"] == "rule: decays" and js["bound"] is None and "note" not in js


def test_fmt():
    assert _fmt(None, 5) is None and _fmt(True, 5) is True and _fmt("s", 5) == "s"
    assert _fmt(0.1, 5) == "0.1" and _fmt(Fraction(2, 3), 3) == "0.667" and _fmt(arb(1) / 8, 5) == "0.125"
    assert _fmt(12, 1) == "12"


# ----- coverage -------------------------------------------------------------------------------------
def test_coverage_describe_and_json():
    c = Coverage(points=3, holds=1, undecided=1, violated=1, worst_at="p2", first_violation="p2",
                 first_undecided="p1")
    assert c.describe() == "3 point(s): 1 certified, 1 undecided, 1 violated; first violation at p2"
    assert c.to_json() == {"points": 3, "holds": 1, "undecided": 1, "violated": 1, "worst_at": "p2",
                           "first_violation": "p2", "first_undecided": "p1"}
    u = Coverage(points=2, holds=1, undecided=1, first_undecided="q")
    assert u.describe() == "2 point(s): 1 certified, 1 undecided, 0 violated; first undecided at q"
    assert u.to_json() == {"points": 2, "holds": 1, "undecided": 1, "violated": 0, "worst_at": None,
                           "first_violation": None, "first_undecided": "q"}
    assert Coverage().describe() == "0 point(s): 0 certified, 0 undecided, 0 violated"
    assert Coverage().decision() is None and Coverage(points=1, holds=1).decision() is True
    assert Coverage(points=2, holds=1, undecided=1, violated=0).decision() is None
    assert Coverage(points=2, undecided=1, violated=1).decision() is False


# ----- outcome --------------------------------------------------------------------------------------
def test_reasons_name_the_items_with_their_notes():
    out = Outcome(evidence=[Evidence("a", Fraction(3), "<", 2, note="at p = 5"), Evidence("b", Fraction(3), "<", 2)])
    assert out.decision().reasons == ["fails: a (at p = 5)", "fails: b"]
    out = Outcome(evidence=[Evidence("a", Fraction(1), "<", 2)])
    assert out.require("budget", 0) is False and out.require("range", 1, "reached") is True
    assert out.require("covered", False, "R ≤ 10 only") is False
    assert [(r.name, r.met) for r in out.requirements] == [("budget", False), ("range", True), ("covered", False)]
    d = out.decision()
    assert d.verdict == "INCONCLUSIVE" and d.reasons == ["requirement not met: budget",
                                                          "requirement not met: covered (R ≤ 10 only)"]


def test_show_keeps_the_figures_that_exist():
    out = Outcome()
    out.show(None, "fig1", None, "fig2")
    out.show()
    assert out.figures == ["fig1", "fig2"]


def test_applicable():
    assert Outcome().applicable() is True
    assert Outcome(hypotheses=[Hypothesis("a", True), Hypothesis("b", None)]).applicable() is False
    assert Outcome(hypotheses=[Hypothesis("a", True)]).applicable() is True


# ----- tally ----------------------------------------------------------------------------------------
def test_a_tally_needs_a_relation():
    with pytest.raises(ValueError, match="a Tally decides: give it a relation"):
        Tally("q", "~")


def test_unnamed_points_are_numbered():
    t = Tally("x < 1", "<", 1)
    t.add(Fraction(1, 2))
    t.add(Fraction(2))
    t.add(arb(1) + arb(0, "0.5"))
    c = t.coverage
    assert (c.first_violation, c.first_undecided, c.worst_at) == ("point 2", "point 3", "")
    assert (c.points, c.holds, c.undecided, c.violated) == (3, 1, 1, 1)


def test_every_undecided_point_is_counted():
    t = Tally("x < 1", "<", 1)
    for k in range(3):
        t.add(arb(1) + arb(0, "0.5"), f"u{k}")
    assert t.coverage.undecided == 3 and t.coverage.first_undecided == "u0"


def test_per_point_bounds():
    t = Tally("x ≤ b(x)", "<=")
    assert t.add(Fraction(1), "a", bound=Fraction(2)) is True
    assert t.add(Fraction(3), "b", bound=Fraction(4)) is True  # margin 1 in both: the first stays
    assert t.add(Fraction(5), "c", bound=Fraction(11, 2)) is True  # margin ½: the tightest
    e = t.evidence()
    assert (e.value, e.bound, t.coverage.worst_at) == (5, Fraction(11, 2), "c")
    assert Tally("x < 5", "<", 5).evidence().bound == 5  # no points: the tally's own bound
    t = Tally("x < 5", "<", 5)
    t.add(Fraction(7), "v", bound=Fraction(6))
    assert t.evidence().bound == 6 and t.evidence().decide() is False


def test_residual_tallies_compare_absolute_values_and_show_upper_ends():
    t = Tally("dev", "<=", Fraction(1, 10**6), residual=True)
    assert t.add(Fraction(-1), "neg") is False  # |−1| > 1e-6
    t = Tally("dev", "<=", Fraction(1, 10**6), residual=True)
    b = arb(0, 1e-8) - arb(1) / 10**7
    assert t.add(b, "ball") is True
    assert t.worst_value == abs(b).upper() and t.worst_value > abs(b).lower()
    assert t.evidence().value == abs(b).upper()


def test_the_worst_point_is_violated_then_undecided_then_tightest():
    # a violated point wins over an undecided one even when the undecided midpoint lies further out
    t = Tally("x ≤ 1", "<=", 1)
    t.add(arb("1.5") + arb(0, 1), "wide")  # undecided, midpoint margin −0.5
    t.add(Fraction(11, 10), "violated")  # margin −0.1
    assert t.coverage.worst_at == "violated" and t.worst_value == Fraction(11, 10)
    # an undecided point wins over a point that holds, even one with a smaller margin
    t = Tally("x ≤ 1", "<=", 1)
    t.add(Fraction(99, 100), "tight")  # holds, margin 0.01
    t.add(arb("0.5") + arb(0, 1), "wide")  # undecided, midpoint margin 0.5
    t.add(Fraction(1, 2), "loose")  # holds, margin 0.5
    assert t.coverage.worst_at == "wide"
    # among points that hold: the smallest margin; a later tie keeps the first
    t = Tally("x ≤ 1", "<=", 1)
    for name, v in (("a", Fraction(1, 2)), ("b", Fraction(9, 10)), ("c", Fraction(9, 10)), ("d", Fraction(0))):
        t.add(v, name)
    assert t.coverage.worst_at == "b"


def test_below():
    assert _below(None, 1) is False and _below(1, None) is False and _below(None, None) is False
    assert _below(Fraction(1), Fraction(2)) is True and _below(Fraction(2), Fraction(2)) is False
    assert _below(arb(1), arb(2)) is True and _below(arb(2), arb(2)) is False
    assert _below(Fraction(1), arb(2)) is True and _below(arb(1), Fraction(2)) is True
    assert _below(Fraction(2), arb(1)) is False and _below(arb(2), Fraction(2)) is False
    # exact margins compare exactly, below any working precision (30 digits here)
    tiny = Fraction(1, 10**100)
    assert _below(Fraction(1, 3), Fraction(1, 3) + tiny) is True and _below(Fraction(1, 3) + tiny, Fraction(1, 3)) is False
    assert _below(Fraction(1), arb(2) + arb(0, 5)) is True  # against the midpoint of a wide reference
    # by midpoints: a wide ball around 1 is below 2 (its midpoint is)
    assert _below(arb(1) + arb(0, 5), Fraction(2)) is True and _below(Fraction(2), arb(1) + arb(0, 5)) is False


def test_tally_evidence_note():
    t = Tally("x < 1", "<", 1)
    t.add(Fraction(1, 2), "p0")
    e = t.evidence("from the grid")
    assert e.note == "from the grid; 1 point(s): 1 certified, 0 undecided, 0 violated; tightest at p0"
    assert t.evidence().note == "1 point(s): 1 certified, 0 undecided, 0 violated; tightest at p0"
    t.add(Fraction(2), "p1")
    assert t.evidence().note == "2 point(s): 1 certified, 0 undecided, 1 violated; first violation at p1"
    u = Tally("x < 1", "<", 1)
    u.add(Fraction(1, 2))  # no name: no "tightest at"
    assert u.evidence().note == "1 point(s): 1 certified, 0 undecided, 0 violated"
    assert Tally("x < 1", "<", 1).evidence().note == "0 point(s): 0 certified, 0 undecided, 0 violated"


def test_tally_evidence_enclosed_and_residual():
    t = Tally("x < 1", "<", 1, residual=True)
    t.add(Fraction(1, 2), "p")
    e = t.evidence(enclosed=False)
    assert e.enclosed is False and e.certified is False and e.decide() is True and e.residual is True
    assert t.evidence().enclosed is True and t.evidence().certified is True
    assert t.evidence().coverage is t.coverage


def test_extend_names_points():
    t = Tally("x < 1", "<", 1)
    t.extend([Fraction(1, 2), Fraction(3), Fraction(2)], where=lambda k: f"p{k}")
    assert t.coverage.points == 3 and t.coverage.first_violation == "p1" and t.coverage.worst_at == "p1"
    assert t.worst_value == 3
    u = Tally("x < 1", "<", 1)
    u.extend([Fraction(1, 2), Fraction(3)])
    assert u.coverage.first_violation == "point 2" and u.coverage.worst_at == ""
    u.extend([])
    assert u.coverage.points == 2
