"""verify.dynamics.flow (mutation tests): where the gradient flow stops and what it says about it. A start exactly at
the target is reached without a step, one beyond it is not "reached"; an event is located at the target to the
stated precision (|event| ≤ 10·10^−dps, relative); the step budget, the legs of ``flow_through_norms``, stationary
starts and finite minima. Expected values are derived here: ‖(3, 4, 0)‖ = 5, ln(e^u − e^{l0}) in closed form, the
arc length at least the chord, a local minimum checked by the loss at nearby points."""
from fractions import Fraction

import pytest
from flint import arb

from verify.data.dataset import Dataset
from verify.data.generators import random_dataset
from verify.data.mmts import mmts_fig1a, mmts_infeasible_B
from verify.dynamics import gradient_flow
from verify.dynamics.flow import _event_value, flow_through_norms, log_t_of
from verify.errors import UsageError
from verify.models.attention import LinearLogitModel, norm2
from verify.numbers.precision import working_precision

DPS = 30
P0 = [3, 4, 0]  # ‖p‖ = 5 exactly
TOL = arb(10) ** -DPS


def _flow(**kw):
    return gradient_flow(mmts_fig1a(), "p", dps=DPS, svm=False, **kw)


def test_a_start_exactly_at_the_target_is_reached_without_a_step():
    tr = _flow(until_norm=5, init=P0)
    assert tr.status == "reached" and tr.steps == 0 and len(tr.records) == 1
    with working_precision(DPS):
        assert tr.final.norm == 5 and tr.final.s == 0 and [x == y for x, y in zip(tr.psi, P0)] == [True] * 3
    assert tr.state["steps"] == 0 and tr.state["s"] == 0


def test_a_start_beyond_the_target_is_not_reported_reached():
    for target in (1, "4.999999"):
        tr = _flow(until_norm=target, init=P0)
        assert tr.status == "started beyond the target" and tr.steps == 0 and len(tr.records) == 1
        assert [x == y for x, y in zip(tr.psi, P0)] == [True] * 3
    tr = _flow(until_norm="5.000001", init=P0)  # just short of it: the flow moves, and reaches it
    assert tr.status == "reached" and tr.steps >= 1


def test_the_norm_event_is_located_at_the_target():
    tr = _flow(until_norm=3)
    assert tr.status == "reached" and tr.meta["event"] == "norm"
    with working_precision(DPS):
        assert abs(tr.final.norm - 3) <= 10 * TOL * 3
        assert all(r.norm < 3 for r in tr.records[:-1])  # stopped at the first crossing
        assert all(a.s < b.s for a, b in zip(tr.records, tr.records[1:]))
        assert tr.final.s >= 3 - 10 * TOL * 3  # arc length ≥ the chord from 0
    assert tr.steps == len(tr.records) - 1 == tr.state["steps"]


def test_dense_output_quarters_each_step_of_the_unit_speed_flow():
    """``on_step`` gets ψ at θ = 1/4, 1/2, 3/4, 1 of every accepted step. The arc-length flow has unit speed, so the
    four chords of a step of length h are each at most h/4 and (the path is nearly straight over a step) at least
    0.9·h/4; the last point is where the step ends (the next record)."""
    seen = []
    tr = _flow(until_norm=3, on_step=lambda pts: seen.append(pts))
    assert len(seen) == tr.steps and all(len(p) == 4 for p in seen)
    with working_precision(DPS):
        for k, pts in enumerate(seen):
            a, b = tr.records[k], tr.records[k + 1]
            h = b.s - a.s
            start = [arb(0)] * 3 if k == 0 else seen[k - 1][-1]
            chain = [start] + pts
            for p, q in zip(chain, chain[1:]):
                chord = norm2([x - y for x, y in zip(p, q)])
                assert 0.9 * h / 4 < chord <= h / 4 * (1 + arb(10) ** -20)
            assert abs(norm2(pts[-1]) - b.norm) < arb(10) ** -(DPS - 3)


def test_the_log_t_event_and_the_first_of_two_targets():
    half = Fraction(1, 2)
    tr = _flow(until_logt=str(half))
    assert tr.status == "reached" and tr.meta["event"] == "log_t"
    with working_precision(DPS):
        assert abs(tr.final.log_t - arb(1) / 2) <= 10 * TOL
        assert all(r.log_t < arb(1) / 2 for r in tr.records[:-1])
    both = _flow(until_norm=1000, until_logt=str(half))  # ln t = 1/2 comes long before ‖p‖ = 1000
    assert both.meta["event"] == "log_t" and both.steps == tr.steps
    first = _flow(until_norm="0.01", until_logt=100)
    assert first.meta["event"] == "norm"
    with working_precision(DPS):
        assert abs(first.final.norm - arb("0.01")) <= 10 * TOL * arb("0.01") and first.final.log_t < 100


def _grad_norm(ds, psi):
    m = LinearLogitModel.from_dataset(ds, "p")
    return norm2([arb(x.mid()) for x in m.grad([arb(x) for x in psi])])


def test_the_first_record_is_the_start():
    """At the start t = 0 (ln t = −∞), s = 0, and the record carries ‖∇L(ψ(0))‖ (recomputed here)."""
    for kw in ({"until_norm": 3}, {"until_norm": 1, "init": P0}, {"until_norm": 5, "init": P0}):
        tr = _flow(**kw)
        r = tr.records[0]
        with working_precision(DPS):
            assert r.s == 0 and r.log_t == arb("-inf")
            assert abs(r.grad_norm - _grad_norm(mmts_fig1a(), kw.get("init", [0, 0, 0]))) < arb(10) ** -(DPS - 3)


def test_a_resumed_run_beyond_its_new_target_keeps_its_state():
    """Resumed at ‖p‖ = 3 with target 2: started beyond it; the record is the saved point (its arc length, ln t,
    ‖∇L‖ recomputed), and the state can be resumed again (to 4)."""
    tr = _flow(until_norm=3)  # resuming continues this same trajectory object
    s_end, lt_end, psi, steps = tr.final.s, tr.final.log_t, list(tr.psi), tr.steps
    back = gradient_flow(None, until_norm=2, dps=DPS, svm=False, resume=tr)
    assert back.status == "started beyond the target" and back.steps == steps
    with working_precision(DPS):
        r = back.records[-1]
        assert abs(r.s - s_end) < arb(10) ** -(DPS - 3) and s_end > 3 - arb(10) ** -(DPS - 3)
        assert abs(r.log_t - lt_end) < arb(10) ** -(DPS - 3)
        assert abs(r.grad_norm - _grad_norm(mmts_fig1a(), psi)) < arb(10) ** -(DPS - 3)
        assert abs(back.state["s"] - s_end) < arb(10) ** -(DPS - 3)
    on = gradient_flow(None, until_norm=4, dps=DPS, svm=False, resume=back)
    assert on.status == "reached" and on.steps > steps
    with working_precision(DPS):
        assert abs(on.final.norm - 4) <= 10 * TOL * 4


def test_rejected_steps_are_retried_without_changing_the_result():
    """A first step of arc length 50 toward ‖p‖ = 3 is rejected and halved until accepted; the point reached agrees
    with the default run to the accumulated tolerance."""
    a = _flow(until_norm=3)
    b = _flow(until_norm=3, h0="50")
    assert b.status == "reached" and b.state["rejected"] >= 1
    with working_precision(DPS):
        assert norm2([x - y for x, y in zip(a.psi, b.psi)]) < arb(10) ** -(DPS - 4) * (a.steps + b.steps)
        assert abs(b.final.norm - 3) <= 10 * TOL * 3


def test_a_collapsing_step_size_is_stalled_not_stationary():
    """Keys of size 10³⁰: no step keeps the stage equations solvable (tests/test_hostile_resume.py); the run says
    it stalled — no answer — and is not a stationary point."""
    ds = Dataset.make(X=[[[1, 1, 1], [1, 0, "0.9"], [0, 0, "0.9"]]], Y=[1], v=[0, 0, 1],
                      K=[[["1e30", 1, 0], [1, 0, 0], [0, 0, 0]]], name="huge keys")
    tr = gradient_flow(ds, "p", until_norm=5, dps=20, svm=False)
    assert tr.status == "stalled" and tr.steps == 0
    assert tr.notes == ["step size collapsed without a nearby stationary point (the integrator could not continue: "
                        "no answer)"]


def test_the_stall_threshold_is_the_stated_one():
    """A step below 10^−⌊dps/3⌋·max(1, ‖ψ‖) has collapsed: started there, the run stalls at once; a step above it
    runs. At 30 digits the threshold is 10⁻¹⁰, at 20 digits 10⁻⁶, and from ‖ψ(0)‖ = 5 it is 5·10⁻¹⁰."""
    for h0, dps, kw, stalled in (("5e-11", 30, {}, True), ("2e-10", 30, {}, False), ("5e-7", 20, {}, True),
                                 ("2e-6", 20, {}, False), ("1e-10", 30, {"init": P0}, True),
                                 ("1e-9", 30, {"init": P0}, False)):
        target = 6 if kw else 1
        tr = gradient_flow(mmts_fig1a(), "p", until_norm=target, h0=h0, dps=dps, svm=False, **kw)
        assert (tr.status, tr.steps == 0) == (("stalled", True) if stalled else ("reached", False)), (h0, dps, kw)


def test_the_step_budget_is_exact():
    tr = _flow(until_norm=3, max_steps=2)
    assert tr.status == "max_steps" and tr.steps == 2 and len(tr.records) == 3
    assert tr.state["steps"] == 2 and isinstance(tr.state["rejected"], int) and tr.state["rejected"] >= 0
    with working_precision(DPS):
        assert tr.final.norm < 3
        assert abs(tr.state["s"] - tr.final.s) < arb(10) ** -(DPS - 3) and tr.state["h"] > 0


def test_progress_sees_every_step_and_the_records_count_evaluations():
    """``progress(norm, ln t)`` after every step, the last at the event; every record after the first carries the
    gradient and Hessian evaluations so far (non-decreasing, at most the run's totals); the event's record carries
    ‖∇L‖ there (recomputed here)."""
    calls = []
    tr = _flow(until_norm=3, progress=lambda n, lt: calls.append((n, lt)))
    assert len(calls) == tr.steps
    with working_precision(DPS):
        for (n, lt), r in zip(calls, tr.records[1:]):
            assert abs(n - r.norm) < arb(10) ** -(DPS - 3) and abs(lt - r.log_t) < arb(10) ** -(DPS - 3)
        assert abs(tr.final.grad_norm - _grad_norm(mmts_fig1a(), tr.psi)) < arb(10) ** -(DPS - 3)
    ev = [r.evaluations for r in tr.records[1:]]
    he = [r.hessians for r in tr.records[1:]]
    assert all(x is not None for x in ev + he)
    assert ev == sorted(ev) and he == sorted(he) and ev[0] >= 1
    assert ev[-1] <= tr.gradient_evaluations and he[-1] <= tr.hessian_evaluations


def test_rejections_are_saved_at_every_step():
    tr = _flow(until_norm=3, h0="50", max_steps=2)  # the long first step is rejected before the budget runs out
    assert tr.status == "max_steps" and tr.state["rejected"] >= 1


def test_a_resumed_run_keeps_counting_rejections():
    part = _flow(until_norm=2, h0="50")
    before = part.state["rejected"]
    assert before >= 1
    more = gradient_flow(None, until_norm=3, dps=DPS, svm=False, resume=part)
    assert more.status == "reached" and more.state["rejected"] >= before


def test_flow_through_norms_stops_after_a_leg_that_did_not_reach():
    seen = []  # one resumed run: the same trajectory after each leg
    for t in flow_through_norms(mmts_fig1a(), "p", ["1", "2", "3"], dps=DPS, svm=False):
        seen.append((t.status, t.final.norm, t.steps))
    assert [s for s, _, _ in seen] == ["reached"] * 3
    with working_precision(DPS):
        assert all(abs(n - r) <= 10 * TOL * r for (_, n, _), r in zip(seen, (1, 2, 3)))
    assert seen[0][2] < seen[1][2] < seen[2][2]
    ds = random_dataset(n=2, T=3, d=2, seed=9)  # the flow from 0 ends at a finite minimum, ‖p‖ ≈ 1.56
    seen = [t.status for t in flow_through_norms(ds, "p", ["1", "50", "100"], dps=DPS, svm=False, max_steps=400)]
    assert seen == ["reached", "stationary"]


def test_flow_through_norms_starts_at_init_with_the_given_options():
    """The first leg starts at ``init`` (‖(3, 4, 0)‖ = 5), every leg keeps the parameterisation and the options."""
    seen = []
    for t in flow_through_norms(mmts_fig1a(), "p", ["6", "7"], init=P0, dps=DPS, svm=False):
        seen.append((t.status, t.records[0].norm, t.meta["precision"], t.final.norm))
    with working_precision(DPS):
        assert [(s, n0 == 5, p) for s, n0, p, _ in seen] == [("reached", True, DPS)] * 2
        assert all(abs(n - r) <= 10 * TOL * r for (_, _, _, n), r in zip(seen, (6, 7)))
    params = [t.meta["param"] for t in flow_through_norms(mmts_fig1a(), "diag", ["1"], dps=DPS, svm=False)]
    assert params == ["diag"]


def test_a_stationary_start_does_not_move():
    tr = gradient_flow(mmts_infeasible_B(), "p", until_norm=10, dps=DPS, svm=False)
    assert tr.status == "stationary" and tr.steps == 0 and len(tr.records) == 1
    assert tr.notes == ["∇L(ψ(0)) = 0: the initial point is stationary, the flow does not move"]


def test_a_finite_minimum_is_reported_and_is_one():
    ds = random_dataset(n=2, T=3, d=2, seed=9)
    tr = gradient_flow(ds, "p", until_norm=50, dps=DPS, svm=False, max_steps=400)
    assert tr.status == "stationary" and len(tr.notes) == 1
    assert "(local minimum)" in tr.notes[0] and "the norm target is never reached" in tr.notes[0]
    with working_precision(DPS):
        p = tr.psi
        assert tr.final.grad_norm < arb(10) ** -(DPS // 2) and tr.final.norm < 50
        m = LinearLogitModel.from_dataset(ds, "p")
        assert norm2([arb(x.mid()) for x in m.grad(p)]) < arb(10) ** -(DPS // 2)
        base = m.loss_value(p)
        for k in range(len(p)):  # the loss is larger at every nearby point along the axes (a minimum)
            for sgn in (1, -1):
                q = list(p)
                q[k] = q[k] + sgn * arb("1e-4")
                assert m.loss_value(q) > base


def test_usage_errors():
    for kw in ({}, {"until_norm": 0}, {"until_norm": -1}):
        with pytest.raises(UsageError):
            _flow(**kw)
    with pytest.raises(UsageError):
        gradient_flow(mmts_fig1a(), "KQ", until_norm=2, m=0, dps=DPS, svm=False)


def test_log_t_of_closed_form():
    with working_precision(DPS):
        l0 = arb(3) / 7
        assert log_t_of(l0, l0) == arb("-inf") and log_t_of(l0 - 1, l0) == arb("-inf")
        assert abs(log_t_of(l0 + arb(2).log(), l0) - l0) < TOL  # ln(2e^{l0} − e^{l0}) = l0
        u = arb(5)
        assert abs(log_t_of(u, l0) - (u.exp() - l0.exp()).log()) < TOL


class _Par:
    def norm(self, psi):
        return norm2(psi)


class _Sys:
    par = _Par()

    def log_t(self, u):
        return u


def test_event_value_takes_the_most_advanced_event():
    with working_precision(DPS):
        y = [arb(3), arb(4), arb(0), arb(-6)]  # ‖ψ‖ = 5, "ln t" = u = −6 in the stub
        v, kind = _event_value(_Sys(), y, 3, arb(10), None)
        assert kind == "norm" and v == arb(-1) / 2  # (5 − 10)/10
        v, kind = _event_value(_Sys(), y, 3, arb(10), arb(-8))
        assert kind == "log_t" and v == arb(2) / 8  # (−6 + 8)/max(1, 8)
        v, kind = _event_value(_Sys(), y, 3, None, arb("0.5"))
        assert kind == "log_t" and v == arb(-13) / 2  # (−6 − 1/2)/max(1, 1/2)
        v, kind = _event_value(_Sys(), y, 3, arb(4), arb(-8), norm=arb(6))  # the given norm is used
        assert kind == "norm" and v == arb(1) / 2
        # overlapping balls are ordered by their midpoints: (0 ± 1 − 10)/10 ≈ −1 against (−6 + 7)/7 = 1/7
        v, kind = _event_value(_Sys(), y, 3, arb(10), arb(-7), norm=arb(0, 30))
        assert kind == "log_t" and abs(v - arb(1) / 7) < TOL
