"""verify.kit.cone_checks (mutation tests): the routing of ``resolve_selection`` through its three hypotheses (stand-ins
for Assumption A, the α choice and the geometry), the step η = 1/L rounded down by exactly a relative 2^{8−prec},
the items of ``asymptotic_evidence`` / ``width_evidence`` / ``ruled`` / ``as_informative``, exact midpoints and the
exactly-selected tokens, the three Tallies of ``ConeChecks`` (relations, bounds, the scope t ≥ 1 of the cone check),
GD and the gradient flow checked at every kept point on hand-made models whose iterates are derived here, the records
and the plotting/text helpers."""
from fractions import Fraction
from types import SimpleNamespace

import flint
import pytest
from flint import arb

from verify.claims import Evidence, Hypothesis, rules
from verify.kit import cone_checks as C
from verify.kit.cone_checks import (
    ConeChecks,
    ConeRun,
    alpha_cover,
    as_informative,
    exact_point,
    gd_in_cone,
    log10_series,
    plot_value,
    resolve_selection,
    ruled,
    selected_exactly,
    step_below,
    step_hypothesis,
    times_sigma,
    width_evidence,
)
from verify.numbers.precision import to_arb, working_precision


@pytest.fixture(autouse=True)
def _prec():
    with working_precision(30):
        yield


# ----- resolve_selection ------------------------------------------------------------------------------------------
def _geom(feasible=True, lo=True, alpha=(1,)):
    return SimpleNamespace(alpha=alpha, feasible=feasible, locally_optimal=lo, reason="why", is_gmm=False,
                           describe=lambda: "desc")


@pytest.fixture
def fakes(monkeypatch):
    """Stand-ins recording their calls: Assumption A met as ``state['a']``, choose_alpha → (state['g'], 'picked'),
    lmm_geometry → state['g']."""
    state = {"a": True, "g": _geom(), "calls": []}
    monkeypatch.setattr(C, "assumption_a", lambda loss, data: state["calls"].append(("A", loss.name, data))
                        or Hypothesis("A", state["a"], ""))
    monkeypatch.setattr(C, "choose_alpha", lambda data: state["calls"].append(("choose", data)) or (state["g"], "picked"))
    monkeypatch.setattr(C, "lmm_geometry", lambda data, alpha: state["calls"].append(("geom", data, alpha)) or state["g"])
    return state


def test_resolve_selection_all_met(fakes):
    g, hyps, notes = resolve_selection("D")
    assert g is fakes["g"] and [h.met for h in hyps] == [True, True, True] and notes == ["picked"]
    assert fakes["calls"] == [("A", "logistic", "D"), ("choose", "D")]
    g, hyps, notes = resolve_selection("D", alpha=(0,), loss="exponential")
    assert g is fakes["g"] and len(hyps) == 3 and notes == []
    assert fakes["calls"][-2:] == [("A", "exponential", "D"), ("geom", "D", (0,))]


@pytest.mark.parametrize("met", [False, None])
def test_resolve_selection_stops_at_assumption_a(fakes, met):
    fakes["a"] = met
    assert resolve_selection("D") == (None, [Hypothesis("A", met, "")], [])
    assert len(fakes["calls"]) == 1


def test_resolve_selection_without_an_lmm(fakes):
    fakes["g"] = None
    g, hyps, notes = resolve_selection("D")
    assert g is None and len(hyps) == 2 and hyps[1].met is False and hyps[1].detail == "picked" and notes == ["picked"]
    assert hyps[1].name == "a locally-optimal selection α exists (Definition 2)"


def test_resolve_selection_infeasible_and_not_locally_optimal(fakes):
    fakes["g"] = _geom(feasible=False)
    g, hyps, _ = resolve_selection("D", alpha=(1,))
    assert g is None and [h.met for h in hyps] == [True, False] and hyps[1].detail == "why"
    fakes["g"] = _geom(lo=False)
    g, hyps, _ = resolve_selection("D", alpha=(1,))
    assert g is None and [h.met for h in hyps] == [True, True, False]
    assert hyps[1].detail == "desc" and hyps[2].detail == "why"
    fakes["g"] = _geom(lo=None)
    g, hyps, _ = resolve_selection("D", alpha=(1,))
    assert g is None and hyps[2].met is None


def test_alpha_cover_says_how_alpha_was_chosen():
    g = SimpleNamespace(alpha=(1, 0), is_gmm=True)
    assert alpha_cover(g, (1, 0)) == "α = [1, 0] (given)"
    assert alpha_cover(g) == "α = [1, 0] (the GMM: no non-global LMM found)"
    g.is_gmm = False
    assert alpha_cover(g) == "α = [1, 0] (the non-global LMM with the widest μ₀)"
    assert C.ALPHA_PARAMETER.coverage == "range" and C.STEP_PARAMETER.coverage == "range"


# ----- the step ---------------------------------------------------------------------------------------------------
def _near(x, y) -> bool:
    return abs(x - to_arb(y)) < arb(10) ** -25


def _frac(x: arb) -> Fraction:
    return exact_point([x])[0]


@pytest.mark.parametrize("L", [3, 7, Fraction(1, 3)])
def test_step_below_is_one_over_L_less_a_relative_2_to_8_minus_prec(L):
    """η exact (radius 0), η·L ≤ 1 exactly, and 1 − ηL ∈ [2^{8−prec}, 2^{8−prec}·9/8] in exact Fractions (the lower
    end of the ball adds its radius, a few ulps)."""
    Lb = arb(L) if isinstance(L, int) else arb(1) / 3
    eta = step_below(Lb)
    assert eta.rad() == 0
    gap = 1 - _frac(eta) * Fraction(L)
    tiny = Fraction(1, 2 ** (flint.ctx.prec - 8))
    assert tiny <= gap <= tiny * Fraction(9, 8)


def test_step_hypothesis():
    eta, h = step_hypothesis(arb(4), "for GD")
    assert h.met is True and eta < arb(1) / 4 and eta > arb(1) / 4 * (1 - arb(2) ** -80)
    assert h.detail.endswith("; η = 1/L_p rounded down, for GD") and h.detail.startswith("η = ")
    assert h.name == "step size η ≤ 1/L_p (Lemma 6)"
    _, h = step_hypothesis(arb(4))
    assert "rounded down" not in h.detail and h.met is True


# ----- items --------------------------------------------------------------------------------------------------------
def test_asymptotic_evidence(monkeypatch):
    """The leading coefficient decides > 0 with bound 0; no coefficient → an informative item; the loss is resolved by
    name and the geometry, direction and v are passed on."""
    seen = []
    monkeypatch.setattr(C, "leading_term", lambda g, q, v, loss: seen.append((g, q, v, loss.name)) or
                        (-1, "det", arb(-2)))
    e = C.asymptotic_evidence("Q", "G", "QB", "V", "exponential", "here")
    assert seen == [("G", "QB", "V", "exponential")]
    assert e.value == -2 and e.relation == ">" and e.bound == 0 and e.decide() is False and e.note == "here; det"
    monkeypatch.setattr(C, "leading_term", lambda g, q, v, loss: (1, "det", arb(5)))
    assert C.asymptotic_evidence("Q", "G", "QB", "V", "logistic", "h").decide() is True
    monkeypatch.setattr(C, "leading_term", lambda g, q, v, loss: (None, "det", None))
    e = C.asymptotic_evidence("Q", "G", "QB", "V", "logistic", "h")
    assert e.value is None and e.relation == "~" and e.decide() is None


def test_width_evidence():
    """μ₀ and μ as balls; μ* shown when given; "below μ*" by a strict comparison (μ = μ* is not below)."""
    items = width_evidence(Fraction(1, 10), Fraction(1, 20), "how", None, "w")
    assert len(items) == 2 and _near(items[0].value, Fraction(1, 10)) and _near(items[1].value, Fraction(1, 20))
    assert items[1].note == "how" and all(e.informative for e in items)
    items = width_evidence(Fraction(1, 10), Fraction(1, 20), "how", arb(1) / 10, "w")
    assert len(items) == 3 and _near(items[2].value, Fraction(1, 10)) and items[1].note == "how; below μ*"
    items = width_evidence(Fraction(1, 10), Fraction(1, 8), "how", arb(1) / 8, "w")
    assert items[1].note == "how; not below μ*"
    items = width_evidence(Fraction(1, 10), Fraction(1, 4), "how", arb(1) / 8, "w", note="x")
    assert items[1].note == "how; not below μ*" and items[0].note == "x"


def test_ruled_and_as_informative():
    d = rules.Decision(True, "r", "the detail")
    e = ruled("Q", 5, d, ">=", 3, note="n", enclosed=False)
    assert e.rule is d and e.relation == ">=" and e.bound == 3 and e.value == 5 and not e.enclosed
    assert e.note == "n; the detail" and e.decide() is True
    assert ruled("Q", 5, d).note == "the detail" and ruled("Q", 5, d).relation == "~" and ruled("Q", 5, d).enclosed
    i = as_informative(e, "why")
    assert i.relation == "~" and i.value == 5 and i.bound == 3 and not i.enclosed and i.rule is None
    assert i.note == "n; the detail; would be True by rule: r; why" and i.decide() is None
    plain = as_informative(Evidence("Q", 1))
    assert plain.note == "" and plain.enclosed


# ----- exact points and selections ----------------------------------------------------------------------------------
def test_exact_point():
    """Dyadic midpoints: 3, 3/8, −5/4, 2^40 exactly; 1/3's midpoint is a dyadic within 2^−90 of 1/3."""
    got = exact_point([arb(3), arb(3) / 8, arb(-5) / 4, arb(2) ** 40, arb(0)])
    assert got == (3, Fraction(3, 8), Fraction(-5, 4), 2**40, 0)
    third = exact_point([arb(1) / 3])[0]
    assert abs(third - Fraction(1, 3)) < Fraction(1, 2**90)
    assert third.denominator & (third.denominator - 1) == 0


def test_selected_exactly():
    """Rows k_α − k_t (Fig. 1(b): (0,0) ↦ (11/10, −1, 0), (0,2) ↦ (1, 0, 0)): all margins > 0 → α = 1; otherwise the
    token of the smallest margin, None when tied; a margin 0 with another one positive is not α."""
    g = SimpleNamespace(n=1, alpha=(1,), rows={(0, 0): (Fraction(11, 10), -1, 0), (0, 2): (1, 0, 0)},
                        scores=((1, Fraction(9, 10), 0),))
    assert selected_exactly(g, (1, 0, 0)) == (1,)
    assert selected_exactly(g, (-1, 0, 0)) == (0,)
    assert selected_exactly(g, (0, 1, 0)) == (0,)
    assert selected_exactly(g, (0, -1, 0)) == (2,)
    assert selected_exactly(g, (0, 0, 0)) == (None,)
    assert selected_exactly(g, (Fraction(1, 100), Fraction(11, 1000), 0)) == (0,)  # margins 0, 1/100: not α
    # one token per sequence: no margins → α; two sequences
    g2 = SimpleNamespace(n=2, alpha=(0, 1), rows={(1, 0): (1, 1)}, scores=((5,), (1, 2)))
    assert selected_exactly(g2, (1, 0)) == (0, 1)
    assert selected_exactly(g2, (-1, 0)) == (0, 0)


# ----- ConeChecks ----------------------------------------------------------------------------------------------------
def test_cone_checks_tallies():
    """GD: all three relations ≥ with bound 0 (a ball for the step); the flow: the norm increase compared exactly with
    0 (``Fraction``: 0 holds, −1/10^40 fails)."""
    c = ConeChecks("step")
    for t in (c.cone, c.floor, c.monotone):
        assert t.relation == ">=" and t.bound == 0
        assert t.add(arb(0)) is True and t.add(arb(-1)) is False
    f = ConeChecks("checked point")
    assert f.monotone.add(Fraction(0)) is True and f.monotone.add(Fraction(-1, 10**40)) is False
    assert f.monotone.bound == 0 and not isinstance(f.monotone.bound, arb) and isinstance(c.monotone.bound, arb)
    assert f.cone.relation == ">=" and f.floor.bound == 0


def test_cone_checks_evidence():
    c = ConeChecks("step")
    c.cone.add(arb(-1), "a")
    c.floor.add(arb(1), "b")
    c.monotone.add(arb(1), "c")
    items = c.evidence("L", enclosed=False)
    assert [e.decide() for e in items] == [False, True, True] and all(not e.enclosed for e in items)
    assert all(e.quantity.startswith("L: ") for e in items)
    assert items[0].note.startswith("left the cone; ") and not items[1].note.startswith("went below R")
    assert items[1].note == c.floor.evidence().note and items[2].note == c.monotone.evidence().note
    shown = c.evidence("L", enclosed=True, deciding=False)
    assert all(e.relation == "~" and e.enclosed for e in shown) and "would be False" in shown[0].note
    c.floor.add(arb(-1), "d")
    c.monotone.add(arb(-1), "e")
    items = c.evidence("L", True)
    assert items[1].note.startswith("went below R") and items[2].note.startswith("‖p‖ decreased")
    assert items[0].enclosed


# ----- GD in the cone -------------------------------------------------------------------------------------------------
class _ConstGrad:
    def __init__(self, g):
        self.g = [arb(x) for x in g]

    def grad(self, p):
        return list(self.g)


_G2 = SimpleNamespace(n=1, alpha=(0,), rows={(0, 1): (1, 0)}, scores=((1, 0),), p_mm=(1, 0))


def test_gd_along_the_ray():
    """∇L = (−1, 0), η = 1/2 from p(0) = (1, 0): p(t) = (1 + t/2, 0) exactly. μ = 1/10, R = 1: the cone holds at t =
    1..3 (3 points: t = 0 not checked), the floor at 4 points with the tightest 0 at t = 0, the norm increase
    η(2⟨−∇L, p⟩ + η‖∇L‖²) = (2p₁ + 1/2)/2 at t = 0, 1, 2: 5/4, 7/4, 9/4 (worst 5/4). Records every 2 steps: t = 0, 2
    and the last (3)."""
    c = ConeChecks("step")
    run = gd_in_cone(_ConstGrad([-1, 0]), _G2, (1, 0), Fraction(1, 2), 3, Fraction(1, 10), 1, c, "lab",
                     record_every=2)
    assert exact_point(run.final_p) == (Fraction(5, 2), 0) and run.steps == 3 and run.left_at is None
    assert run.final_selected == (0,) and run.method == "GD" and run.start_label == "lab"
    assert c.cone.coverage.points == 3 and c.cone.coverage.holds == 3 and _near(c.cone.worst_value, Fraction(1, 10))
    assert c.floor.coverage.points == 4 and c.floor.worst_value == 0
    assert c.monotone.coverage.points == 3 and c.monotone.worst_value == arb(5) / 4
    assert [exact_point(p)[0] for p in run.points] == [1, 2, Fraction(5, 2)]
    assert all(_near(o[0], x) for o, x in zip(run.omc, (1, 2, Fraction(5, 2)))) and all(o[2] is None for o in run.omc)
    assert all(o[1] == 0 for o in run.omc)


def test_gd_records_only_the_start_without_record_every_and_the_gmm_column():
    c = ConeChecks("step")
    run = gd_in_cone(_ConstGrad([-1, 0]), _G2, (1, 0), Fraction(1, 2), 2, Fraction(1, 10), 1, c, gmm=(0, 1))
    assert len(run.points) == 1 and abs(run.omc[0][2] - 1) < arb(10) ** -25


def test_gd_leaving_the_cone_names_the_first_exit():
    """∇L = (0, −1), η = 1/2: p(1) = (1, 1/2), 1 − corr = 1 − 2/√5 = 0.1056 > μ = 1/10: the exit is at step 1."""
    c = ConeChecks("step")
    run = gd_in_cone(_ConstGrad([0, -1]), _G2, (1, 0), Fraction(1, 2), 2, Fraction(1, 10), 1, c, "lab")
    assert run.left_at is not None and "step 1," in run.left_at and c.cone.coverage.violated == 2
    assert "lab (p(0) = (1, 0" in run.left_at
    assert c.cone.coverage.points == 2 and c.floor.coverage.violated == 0
    assert c.cone.coverage.first_violation == run.left_at
    # μ = 1/5: 1 − corr(p(1), p^mm) = 0.1056 ≤ μ: inside, and p(2) = (1, 1) with 1 − 1/√2 = 0.29 > μ leaves at step 2
    c = ConeChecks("step")
    run = gd_in_cone(_ConstGrad([0, -1]), _G2, (1, 0), Fraction(1, 2), 2, Fraction(1, 5), 1, c, "lab")
    assert "step 2," in run.left_at and c.cone.coverage.violated == 1 and c.cone.coverage.holds == 1


class _HalfGrad:
    """∇L(p) = −p/2: GD multiplies p by 1 + η/2."""

    def grad(self, p):
        return [-x / 2 for x in p]


def test_gd_with_a_point_dependent_gradient():
    """η = 1/2 from (1/3, 0): p(t) = (5/4)^t/3; the norm increase η(2⟨p/2, p⟩ + η‖p/2‖²) = (9/16)‖p‖² at t = 0, 1:
    1/16 and 25/256 (worst 1/16). The start is described with 8 significant digits."""
    c = ConeChecks("step")
    run = gd_in_cone(_HalfGrad(), _G2, (Fraction(1, 3), 0), Fraction(1, 2), 2, Fraction(1, 10), 0, c)
    assert _near(run.final_p[0], Fraction(25, 48)) and c.monotone.coverage.points == 2
    assert _near(c.monotone.worst_value, Fraction(1, 16))
    assert run.start == "(0.33333333, 0)"


def test_gd_going_below_the_floor_inside_the_cone():
    """∇L = (1, 0), η = 1/2 from (2, 0): ‖p‖ = 2, 3/2, 1, 1/2; R = 6/5: the floor fails from step 2 (the cone holds):
    the exit is at step 2; the norm decreases: η(2⟨−∇L, p⟩ + η) = −7/4 at step 0."""
    c = ConeChecks("step")
    run = gd_in_cone(_ConstGrad([1, 0]), _G2, (2, 0), Fraction(1, 2), 3, Fraction(1, 10), Fraction(6, 5), c)
    assert run.left_at is not None and "step 2," in run.left_at
    assert c.floor.coverage.violated == 2 and c.cone.coverage.violated == 0
    assert "step 2," in c.floor.coverage.first_violation and "step 0," in c.monotone.coverage.first_violation
    assert c.monotone.coverage.violated == 3 and c.monotone.worst_value == arb(-7) / 4
    c = ConeChecks("step")
    run = gd_in_cone(_ConstGrad([1, 0]), _G2, (2, 0), Fraction(1, 2), 1, Fraction(1, 10), 3, c)
    assert "step 0," in run.left_at


# ----- the gradient flow (stand-in integrator) ------------------------------------------------------------------------
def _flow_fake(monkeypatch, steps_by_leg, statuses, records=()):
    """flow_through_norms stand-in: for each leg, on_step over its points, then a trajectory ending at the leg's last
    point."""
    seen = {}

    def fake(data, param, legs, init, dps, loss, svm, on_step, max_steps):
        seen.update(data=data, param=param, legs=legs, init=init, dps=dps, loss=loss, svm=svm, max_steps=max_steps)
        for pts, st in zip(steps_by_leg, statuses):
            on_step([[to_arb(x) for x in q] for q in pts])
            yield SimpleNamespace(status=st, psi=[to_arb(x) for x in pts[-1]], records=list(records))

    monkeypatch.setattr(C, "flow_through_norms", fake)
    return seen


def test_flow_in_cone_checks_every_point_and_records_geometrically(monkeypatch):
    """From (1, 0) to ‖p‖ = 100: two legs "10", "100"; points (2,0), (3,0), (10,0) then (50,0), (100,0): 5 checked
    points (plus t = 0); one record per octave: at 2 (≥ 2·1), not 3, at 10 (≥ 4), then the leg's end 10 again
    (replaced), 50, 100, and the last point (replacing 100). Norms exactly increasing: 5 monotone points."""
    seen = _flow_fake(monkeypatch, [[(2, 0), (3, 0), (10, 0)], [(50, 0), (100, 0)]], ["reached", "reached"],
                      records=[SimpleNamespace(norm=1, log_t=arb(2)), SimpleNamespace(norm=2, log_t=None),
                               SimpleNamespace(norm=3, log_t=arb("inf"))])
    c = ConeChecks("checked point")
    run = C.flow_in_cone("DATA", _G2, (1, 0), 100, Fraction(1, 10), 1, 25, c, "lab", loss="exponential",
                         records_per_octave=1, max_steps=7)
    assert seen["legs"] == [str(x) for x in ("10", "100")] or [float(x) for x in seen["legs"]] == [10, 100]
    assert seen["param"] == "p" and seen["dps"] == 25 and seen["loss"] == "exponential" and seen["svm"] is False
    assert seen["max_steps"] == 7 and seen["data"] == "DATA" and [float(x.mid()) for x in seen["init"]] == [1, 0]
    assert run.steps == 5 and run.status == "reached" and run.method == "gradient flow"
    assert c.cone.coverage.points == 5 and c.floor.coverage.points == 6 and c.monotone.coverage.points == 5
    assert c.monotone.worst_value == 3  # 2² − 1²
    assert [float(o[0].mid()) for o in run.omc] == [1, 2, 10, 50, 100]
    assert run.times == [(1, arb(2))] and exact_point(run.final_p) == (100, 0) and run.final_selected == (0,)


def test_flow_in_cone_one_leg_when_the_start_is_beyond_a_tenth(monkeypatch):
    """‖p(0)‖ = 20 ≥ 100/10: one leg "100"; a leg that stops early is not recorded as reached; a norm decrease on the
    kept points is a certain failure of the monotone Tally."""
    seen = _flow_fake(monkeypatch, [[(30, 0), (29, 0), (100, 0)]], ["max_steps"])
    c = ConeChecks("checked point")
    run = C.flow_in_cone("DATA", _G2, (20, 0), 100, Fraction(1, 10), 1, 25, c)
    assert [float(x) for x in seen["legs"]] == [100]
    assert run.status == "max_steps" and c.monotone.coverage.violated == 1 and c.monotone.worst_value == 29**2 - 30**2
    assert "checked point 2," in c.monotone.coverage.first_violation
    assert run.times == []
    # the same start just below a tenth of the target: two legs
    seen = _flow_fake(monkeypatch, [[(10, 0)], [(100, 0)]], ["reached", "reached"])
    C.flow_in_cone("DATA", _G2, (Fraction(99, 10), 0), 100, Fraction(1, 10), 1, 25, ConeChecks("checked point"))
    assert [float(x) for x in seen["legs"]] == [10, 100]
    seen = _flow_fake(monkeypatch, [[(100, 0)]], ["reached"])
    C.flow_in_cone("DATA", _G2, (10, 0), 100, Fraction(1, 10), 1, 25, ConeChecks("checked point"))
    assert [float(x) for x in seen["legs"]] == [100]


def test_flow_in_cone_records_a_stopped_first_leg_only_at_the_end(monkeypatch):
    """A first leg that is not "reached" is not recorded as a leg stop (only the final point is)."""
    _flow_fake(monkeypatch, [[(3, 0)], [(5, 0)]], ["max_steps", "reached"])
    run = C.flow_in_cone("DATA", _G2, (1, 0), 100, Fraction(1, 10), 1, 25, ConeChecks("checked point"),
                         records_per_octave=1)
    assert [float(o[0].mid()) for o in run.omc] == [1, 3, 5]
    _flow_fake(monkeypatch, [[(3, 0)], [(5, 0)]], ["reached", "reached"])
    run = C.flow_in_cone("DATA", _G2, (1, 0), 100, Fraction(1, 10), 1, 25, ConeChecks("checked point"),
                         records_per_octave=2)
    # 2^(1/2) spacing: 3 ≥ √2 is recorded; the leg's end 3 replaces it; 5 ≥ 3√2 is recorded, then replaced
    assert [float(o[0].mid()) for o in run.omc] == [1, 3, 5]


def test_flow_in_cone_records_a_reached_leg_end_and_the_octave_spacing(monkeypatch):
    """records_per_octave = 2 from ‖p(0)‖ = 1: next record at ≥ √2; points 1.2 (no), 1.5 (yes → next 1.5√2 = 2.12),
    2.0 (no), 2.2 (yes → 3.11), then the first leg's end 2.5 (reached: recorded, 2.5 > 2.2), then 100 on the second leg
    (replaced by the final point). Defaults: the logistic loss, 20000 steps, 4 records per octave; the GMM column."""
    seen = _flow_fake(monkeypatch, [[(Fraction(6, 5), 0), (Fraction(3, 2), 0), (2, 0), (Fraction(11, 5), 0),
                                     (Fraction(5, 2), 0)], [(100, 0)]], ["reached", "reached"])
    run = C.flow_in_cone("DATA", _G2, (1, 0), 100, Fraction(1, 10), 1, 25, ConeChecks("checked point"), "lab",
                         gmm=(0, 1), records_per_octave=2)
    assert [float(o[0].mid()) for o in run.omc] == [1, 1.5, 2.2, 2.5, 100]
    assert all(abs(o[2] - 1) < arb(10) ** -25 for o in run.omc)   # 1 − corr to (0, 1) on the ray (x, 0)
    assert run.start_label == "lab" and run.start == "(1, 0)"
    assert seen["loss"] == "logistic" and seen["max_steps"] == 20000
    # 4 per octave: 2^(1/4) = 1.189: 1.17 (no; 2^(1/5) = 1.149 would take it), 1.2 (yes → 1.427), 1.5 (yes → 1.78),
    # 2.0 (yes → 2.38), 2.2 (no), 2.5 (leg end)
    _flow_fake(monkeypatch, [[(Fraction(117, 100), 0), (Fraction(6, 5), 0), (Fraction(3, 2), 0), (2, 0), (Fraction(11, 5), 0),
                              (Fraction(5, 2), 0)], [(100, 0)]], ["reached", "reached"])
    run = C.flow_in_cone("DATA", _G2, (1, 0), 100, Fraction(1, 10), 1, 25, ConeChecks("checked point"))
    assert [float(o[0].mid()) for o in run.omc] == [1, 1.2, 1.5, 2, 2.5, 100]
    # the legs at 30 significant digits: ‖p‖ = 10/3 then 100/3
    seen = _flow_fake(monkeypatch, [[(3, 0)], [(30, 0)]], ["reached", "reached"])
    C.flow_in_cone("DATA", _G2, (1, 0), Fraction(100, 3), Fraction(1, 10), 1, 25, ConeChecks("checked point"))
    assert seen["legs"] == ["3." + "3" * 29, "33." + "3" * 28]


def test_record_new_replaces_a_point_that_is_not_farther():
    run = ConeRun("m", "l")
    tr = C._Tracker(run, ConeChecks("step"), _G2, Fraction(1, 10), 1)
    tr.record([arb(2), arb(0)])
    C._record_new(tr, [arb(2), arb(0)])
    assert len(run.points) == 1
    C._record_new(tr, [arb(3), arb(0)])
    C._record_new(tr, [arb(1), arb(0)])
    assert [float(o[0].mid()) for o in run.omc] == [2, 1]


# ----- helpers ---------------------------------------------------------------------------------------------------------
def test_plot_value():
    assert plot_value(arb(3) / 2) == 1.5 and plot_value(Fraction(1, 4)) == 0.25 and plot_value(2) == 2.0
    assert plot_value(Fraction(10) ** 400) is None and plot_value(arb(10) ** 400) is None
    assert plot_value(10.0**300) is None and plot_value(-(10.0**300)) is None and plot_value(9.99e299) == 9.99e299
    assert plot_value(float("nan")) is None and plot_value(arb("nan")) is None


def test_log10_series():
    got = log10_series([arb(100), None, arb(0), arb(-1), arb(10) ** -500])
    assert abs(got[0] - 2) < 1e-12 and got[1:4] == [None, None, None] and abs(got[4] + 500) < 1e-9


def test_times_sigma():
    assert times_sigma(10**8, 1) == "10⁸·σ" and times_sigma(3, 3) == "1·σ" and times_sigma(1, 10**6) == "10⁻⁶·σ"
    assert times_sigma(10**30, 1) == "10³⁰·σ" and times_sigma(10**31, 1) == "1e+31·σ"
    assert times_sigma(1, 10**7) == "1e-07·σ" and times_sigma(6400, 2) == "3.2e+03·σ" and times_sigma(10, 1) == "10¹·σ"
