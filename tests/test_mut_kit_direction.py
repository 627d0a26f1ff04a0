"""verify.kit.direction (mutation tests): the checkpoints of a gradient flow (a recording stand-in for
``flow_through_norms``: which norms are asked for — strictly beyond ‖θ(0)‖, sorted — with which options, and what is
kept at each: the midpoint, its norm, Radau steps, the selected tokens, the smallest 1 − corr over the targets), the
direction item (``rules.decays`` of 1 − corr against ‖θ‖ at the DERIVED rate 2: a rate-1.2 decay passes rate 2's
threshold 1 but not rate 3's 1.5; the zero threshold; never a certificate; the trend note), the series, and
``flow_directions``' handling of a flow that reaches no radius (a stationary limit fails, anything else is a
requirement) with the zero threshold 10^-dps."""
import math
from fractions import Fraction
from types import SimpleNamespace

import pytest
from flint import arb

from verify.claims import Outcome, rules
from verify.data.dataset import Dataset
from verify.kit import direction as D
from verify.numbers.precision import working_precision


@pytest.fixture(autouse=True)
def _digits():
    with working_precision(30):
        yield


def test_constants_and_defaults():
    assert D.BOUNDED_OFFSET_RATE == 2
    run = D.FlowCheckpoints()
    assert (run.steps, run.norms, run.points, run.omc, run.selected, run.status) == ([], [], [], [], [], "ok")
    assert D.FlowCheckpoints().steps is not run.steps


# ----- flow_checkpoints ---------------------------------------------------------------------------------------------
#: one sequence with tokens (keys) (1, 0), (0, 1), (0, 0), query = first token: logits k_tᵀp; the model's pivot r
#: is the argmax of the logits: p = (3, 1) → token 0, p = (1, 3) → token 1
DATA = Dataset.make([[[1, 0], [0, 1], [0, 0]]], [1], [1, 0], name="dir")


def _fake_flow(monkeypatch, legs):
    """``legs``: (status, psi, steps) per leg, yielded in turn (even after a leg that did not reach, so a loop that
    does not stop there is seen)."""
    calls = []

    def flow_through_norms(data, param, norms, **kw):
        calls.append((data, param, list(norms), kw))
        for status, psi, steps in legs:
            yield SimpleNamespace(status=status, psi=[arb(x) if not isinstance(x, arb) else x for x in psi],
                                  state={"steps": steps})

    monkeypatch.setattr(D, "flow_through_norms", flow_through_norms)
    return calls


def test_flow_checkpoints_asks_for_the_sorted_radii_strictly_beyond_the_start(monkeypatch):
    """θ(0) = (3, 4), ‖θ(0)‖ = 5 exactly: radii 20, 5, 7/2, "10" → "10", "20" (5 itself is not beyond); options go
    through unchanged (svm and record off, init the exact start as balls)."""
    calls = _fake_flow(monkeypatch, [])
    run = D.flow_checkpoints(DATA, (3, arb(4)), ("20", 5, "7/2", 10), 30)
    data, param, norms, kw = calls[0]
    assert data is DATA and param == "p" and norms == ["10", "20"]
    assert kw["dps"] == 30 and kw["loss"] == "logistic" and kw["svm"] is False and kw["record"] is False
    assert kw["max_steps"] == 5000
    assert [x == arb(v) for x, v in zip(kw["init"], (3, 4))] == [True, True]
    assert all(isinstance(x, arb) for x in kw["init"])
    assert run.status == "ok" and run.points == [] and run.omc == []
    D.flow_checkpoints(DATA, (Fraction(1, 2), 0), (1,), 40, param="p", loss="exponential", max_steps=7)
    _, _, norms, kw = calls[1]
    assert norms == ["1"] and kw["dps"] == 40 and kw["loss"] == "exponential" and kw["max_steps"] == 7
    assert kw["init"][0] == arb(1) / 2


def test_flow_checkpoints_keeps_midpoints_norms_steps_selection_and_smallest_omc(monkeypatch):
    """Two legs reached at ψ = (3, 1)±r and (1, 3); then a stationary leg (the status kept, the loop stopped: a
    later "reached" leg is not read). Targets (1, 0) and (0, 1): 1 − corr = 1 − max cos: at (3, 1) 1 − 3/√10, at
    (1, 3) the same (by symmetry, the other target)."""
    calls = _fake_flow(monkeypatch, [("reached", [arb(3, 1e-20), 1], 7), ("reached", [1, 3], 12),
                                     ("stationary", [1, 1], 20), ("reached", [5, 5], 30)])
    run = D.flow_checkpoints(DATA, (0, 0), (1, 2, 3), 30, targets=[(1, 0), (0, Fraction(2))])
    assert calls[0][2] == ["1", "2", "3"]
    assert run.status == "stationary" and run.steps == [7, 12]
    assert [[x.rad() == 0 for x in p] for p in run.points] == [[True, True], [True, True]]
    assert run.points[0][0] == 3
    assert [abs(n - arb(10).sqrt()) < arb(10) ** -25 for n in run.norms] == [True, True]
    assert run.selected == [(0,), (1,)]
    expect = 1 - 3 / arb(10).sqrt()
    assert [abs(v - expect) < arb(10) ** -25 for v in run.omc] == [True, True]


def test_flow_checkpoints_without_targets_has_no_omc(monkeypatch):
    _fake_flow(monkeypatch, [("reached", [3, 1], 7), ("max_steps", [3, 1], 9)])
    run = D.flow_checkpoints(DATA, (0, 0), (1, 2), 30)
    assert run.omc == [] and run.steps == [7] and run.status == "max_steps"


def test_flow_checkpoints_builds_the_model_for_the_param_and_loss(monkeypatch):
    asked = []

    class Model:
        @classmethod
        def from_dataset(cls, data, param="p", loss="logistic"):
            asked.append((data, param, loss))
            return SimpleNamespace(states=lambda th: [SimpleNamespace(r=2)])

    monkeypatch.setattr(D, "LinearLogitModel", Model)
    _fake_flow(monkeypatch, [("reached", [3, 1], 7)])
    run = D.flow_checkpoints(DATA, (0, 0), (1,), 30, param="W", loss="exponential")
    assert asked == [(DATA, "W", "exponential")] and run.selected == [(2,)]


# ----- direction_evidence -------------------------------------------------------------------------------------------
def _run(omc, norms=(1, 2, 4, 8), selected=(0,), steps=(10, 20, 30, 40)):
    run = D.FlowCheckpoints()
    run.norms = [arb(x) for x in norms]
    run.omc = [arb(x) if not isinstance(x, arb) else x for x in omc]
    run.selected = [selected] * len(run.norms)
    run.steps = list(steps)
    return run


def _power(a, norms=(1, 2, 4, 8)):
    return [arb(x) ** -arb(a) for x in norms]


def test_direction_decided_at_the_derived_rate_two():
    """1 − corr ∝ ‖θ‖^-1.2: the rule asks for RATE_FRACTION·2 = 1 → holds; at rate 3 (1.5) it is not decided."""
    assert rules.RATE_FRACTION == Fraction(1, 2)
    run = _run(_power(1.2))
    ev = D.direction_evidence(run, "q")
    assert ev.rule is not None and ev.rule.holds is True and ev.decide() is True
    assert ev.value is run.omc[-1]
    assert ev.enclosed is False and ev.certified is False and ev.quantity == "q"
    ev = D.direction_evidence(_run(_power(1.2)), "q", expected=3)
    assert ev.rule.holds is None


def test_direction_plateau_fails_unless_zero_to_the_working_precision():
    plateau = [arb(1) / 100] * 4
    ev = D.direction_evidence(_run(plateau), "q")
    assert ev.decide() is False
    assert D.direction_evidence(_run(plateau), "q", zero=arb(1) / 50).decide() is True


def test_direction_not_decided_is_informative_with_its_reason():
    ev = D.direction_evidence(_run(_power(1.2)), "q", decide=False, why_not="no reason")
    assert ev.rule is None and ev.decide() is None and ev.informative
    assert ev.note.startswith("no reason; 1 − corr = ")


def test_direction_note_lists_the_last_four_points_and_the_end_state():
    """Five checkpoints: the note shows the last four 1 − corr (3 significant digits), the last four norms (4), the
    selection and the Radau steps at the end; without a reason it starts with the trend."""
    run = _run([arb(1) / 2, arb(1) / 4, arb(1) / 8, arb(1) / 16, arb(1) / 32], norms=(1, 2, 4, 8, 16), selected=(1, 0),
               steps=(1, 2, 3, 4, 77))
    ev = D.direction_evidence(run, "q", decide=False)
    assert ev.note == ("1 − corr = 0.25, 0.125, 0.0625, 0.0312 at ‖θ‖ = 2, 4, 8, 16; selected tokens at the end (1, 0); "
                       "77 Radau steps")
    ev = D.direction_evidence(run, "q")
    assert ev.note.startswith(ev.rule.detail + "; 1 − corr = 0.25,") and ev.rule.holds is True
    run = _run([arb(1) / 3] * 4, norms=(1, 2, 4, 12345))
    assert "at ‖θ‖ = 1, 2, 4, 1.234e+04;" in D.direction_evidence(run, "q", decide=False).note
    assert "1 − corr = 0.333, 0.333," in D.direction_evidence(run, "q", decide=False).note


# ----- direction_series ---------------------------------------------------------------------------------------------
def test_direction_series_fit_only_when_asked_and_on_enough_points():
    run = _run(_power(2))
    one = D.direction_series(run, "0")  # 1 − corr = ‖θ‖⁻²: log10 = −2·log10 ‖θ‖
    assert len(one) == 1 and one[0].x == [1.0, 2.0, 4.0, 8.0]
    assert [round(y, 12) for y in one[0].y] == [round(-2 * k * math.log10(2), 12) for k in range(4)]
    two = D.direction_series(run, "0", fit=True)
    assert len(two) == 2 and two[1].label.startswith("fit slope -2.00")
    assert [round(y, 9) for y in two[1].y] == [round(-2 * k * math.log10(2), 9) for k in range(4)]
    short = _run(_power(2)[:3], norms=(1, 2, 4))
    assert len(D.direction_series(short, "0", fit=True)) == 1


def test_the_figure_draws_log10_at_the_working_precision_and_names_exact_zeros():
    """10⁻⁴⁰⁰ underflows float64 to 0.0 (a log axis would drop it): its log10 is −400, computed in arb; an exact 0
    has no logarithm and the caption says where it is."""
    with working_precision(30):
        tiny = arb(10) ** -400
        run = _run([arb(1) / 10, tiny, arb(0), tiny], norms=(1, 10, 100, 1000))
        assert float(tiny.mid()) == 0.0 and D.log10_upper(tiny) == pytest.approx(-400, abs=1e-9)
        fig = D.direction_figure([("0", run)], caption="c.")
    assert fig.logx and not fig.logy and fig.ylabel.startswith("log10(1 − corr")
    assert fig.series[0].y[:2] == [pytest.approx(-1), pytest.approx(-400)] and fig.series[0].y[2] is None
    assert fig.caption == "c. 1 − corr = 0 exactly at ‖p‖ = 100 (no logarithm: not drawn)."
    assert D.log10_upper(Fraction(1, 1000)) == pytest.approx(-3)


# ----- flow_directions ----------------------------------------------------------------------------------------------
def _fake_checkpoints(monkeypatch, runs):
    calls = []

    def flow_checkpoints(data, th0, radii, dps, targets=(), param="p", loss="logistic", max_steps=5000):
        calls.append((data, th0, radii, dps, targets, param, loss))
        return runs[len(calls) - 1]

    monkeypatch.setattr(D, "flow_checkpoints", flow_checkpoints)
    return calls


def test_flow_directions_routes_each_init_and_adds_one_item_each(monkeypatch):
    a, b = _run(_power(1.2)), _run([arb(1)] * 4)
    calls = _fake_checkpoints(monkeypatch, [a, b])
    out = Outcome()
    got = D.flow_directions(out, "DATA", ["T"], [("0", (0, 0)), ("e1", (1, 0))], ("5", "20"), 30, decide=True)
    assert got == [("0", a), ("e1", b)]
    assert calls == [("DATA", (0, 0), ("5", "20"), 30, ["T"], "p", "logistic"),
                     ("DATA", (1, 0), ("5", "20"), 30, ["T"], "p", "logistic")]
    assert [e.decide() for e in out.evidence] == [True, False] and not out.notes and not out.requirements
    assert out.evidence[0].quantity == "(iii) gradient flow from p(0) = 0: 1 − corr(p, p^mm) at ‖p‖ = 8"


def test_flow_directions_options_reach_the_flow_and_the_item(monkeypatch):
    calls = _fake_checkpoints(monkeypatch, [_run(_power(1.2))])
    out = Outcome()
    D.flow_directions(out, "DATA", (), [("z", (0,))], ("5",), 40, decide=False, why_not="why", param="W",
                      loss="exponential", symbol="W", target="W^mm", part="(ii)")
    assert calls[0][5:] == ("W", "exponential") and calls[0][3] == 40
    ev = out.evidence[0]
    assert ev.rule is None and ev.note.startswith("why; ")
    assert ev.quantity == "(ii) gradient flow from W(0) = z: 1 − corr(W, W^mm) at ‖W‖ = 8"


def test_flow_directions_zero_threshold_is_ten_to_minus_dps(monkeypatch):
    """A plateau at 5·10⁻³¹ is zero at dps = 30 (≤ 10⁻³⁰: holds) but not at dps = 31 (a plateau: fails); a plateau at
    1 fails at dps = 30."""
    tiny = [arb(5) * arb(10) ** -31] * 4
    _fake_checkpoints(monkeypatch, [_run(tiny), _run(tiny), _run([arb(1)] * 4)])
    out = Outcome()
    D.flow_directions(out, "DATA", (), [("0", 0)], ("5",), 30, decide=True)
    D.flow_directions(out, "DATA", (), [("0", 0)], ("5",), 31, decide=True)
    D.flow_directions(out, "DATA", (), [("0", 0)], ("5",), 30, decide=True)
    assert [e.decide() for e in out.evidence] == [True, False, False]


def test_flow_directions_a_flow_that_reaches_no_radius(monkeypatch):
    """Stationary before the first radius: a failing item (not a certificate) and a note; stopped otherwise (e.g.
    max_steps): an unmet requirement. Either way no run is returned and later inits still run. The first radius is
    the smallest by value ("5" < "20", though "20" < "5" as text)."""
    stationary, stopped = D.FlowCheckpoints(status="stationary"), D.FlowCheckpoints(status="max_steps")
    ok = _run(_power(1.2))
    ok.status = "max_steps"     # reached some radii, then stopped: a note, and the item still added
    calls = _fake_checkpoints(monkeypatch, [stationary, stopped, ok])
    out = Outcome()
    got = D.flow_directions(out, "DATA", (), [("a", 0), ("b", 1), ("c", 2)], ("20", "5"), 30, decide=True)
    assert len(calls) == 3 and got == [("c", ok)]
    assert len(out.notes) == 3 and out.notes[0] == "gradient flow from a: stationary before ‖p‖ = 5"
    assert out.notes[2] == "gradient flow from c: max_steps before ‖p‖ = 5"
    fail = out.evidence[0]
    assert fail.quantity == "gradient flow from p(0) = a reaches ‖p‖ = 5"
    assert fail.decide() is False and fail.enclosed is False and fail.value is False and fail.bound is True
    assert len(out.requirements) == 1
    req = out.requirements[0]
    assert req.name == "gradient flow from p(0) = b reaches ‖p‖ = 5" and req.met is False
    assert req.detail == "flow status max_steps"
    assert len(out.evidence) == 2 and out.evidence[1].decide() is True
