"""Gradient flow (arc-length Radau IIA): independent RK4 check, tolerance/stage halving, events,
invariants, stationary points, save/load/resume, GD → flow as η → 0."""
from fractions import Fraction

import pytest
from flint import arb

from verify.data.generators import random_dataset
from verify.data.mmts import mmts_fig1a, mmts_infeasible_B
from verify.dynamics import gd, gradient_flow, normalized_gd
from verify.dynamics.svmref import svm_direction
from verify.dynamics.trajectory import Trajectory
from verify.models.attention import LinearLogitModel, norm2, one_minus_corr
from verify.numbers.precision import working_precision

DPS = 30


def _rk4_to_norm(ds, target, h, dps):
    """Independent check: classical RK4 on dp/ds = −∇L/‖∇L‖ (LinearLogitModel's gradient), fixed
    step h, the last step shortened by bisection so that ‖p‖ = target."""
    with working_precision(dps):
        m = LinearLogitModel.from_dataset(ds, "p")

        def f(p):
            g = [arb(x.mid()) for x in m.grad(p)]
            n = norm2(g)
            return [-x / n for x in g]

        def step(p, hh):
            k1 = f(p)
            k2 = f([a + hh / 2 * b for a, b in zip(p, k1)])
            k3 = f([a + hh / 2 * b for a, b in zip(p, k2)])
            k4 = f([a + hh * b for a, b in zip(p, k3)])
            return [a + hh / 6 * (b + 2 * c + 2 * d + e) for a, b, c, d, e in zip(p, k1, k2, k3, k4)]

        p = [arb(0)] * m.D
        T = arb(target)
        while True:
            q = step(p, h)
            if norm2(q) >= T:
                break
            p = q
        lo, hi = arb(0), h
        for _ in range(60):
            mid_ = (lo + hi) / 2
            if norm2(step(p, mid_)) < T:
                lo = mid_
            else:
                hi = mid_
        return step(p, (lo + hi) / 2)


def test_flow_agrees_with_independent_rk4_at_norm_20():
    ds = mmts_fig1a()
    tr = gradient_flow(ds, "p", until_norm=20, dps=DPS, svm=False)
    assert tr.status == "reached"
    with working_precision(DPS):
        p_rk = _rk4_to_norm(ds, 20, arb("0.05"), DPS)
        pmm = svm_direction(ds, "p", "opt", DPS) or [arb(-1), arb(1), arb(0)]  # the GMM when verify.svm is there
        p_fl = tr.psi
        assert abs(norm2(p_fl) - 20) < arb(10) ** -(DPS - 3)
        diff = abs(one_minus_corr(p_fl, pmm) - one_minus_corr(p_rk, pmm))
        assert diff < arb("1e-8"), diff
        assert norm2([a - b for a, b in zip(p_fl, p_rk)]) < arb("1e-6")


def test_tolerance_and_stage_changes_stay_within_the_stated_error():
    ds = mmts_fig1a()
    a = gradient_flow(ds, "p", until_norm=10, dps=DPS, svm=False)
    b = gradient_flow(ds, "p", until_norm=10, dps=DPS, svm=False, tol="1e-24")
    c = gradient_flow(ds, "p", until_norm=10, dps=DPS, svm=False, stages=10)
    with working_precision(DPS):
        # local tolerance 10^-dps (relative to max(1, ‖p‖)); accumulated over the steps
        assert norm2([x - y for x, y in zip(a.psi, b.psi)]) < arb(10) ** -22 * a.steps
        assert norm2([x - y for x, y in zip(a.psi, c.psi)]) < arb(10) ** -(DPS - 4)
        assert abs(a.final.log_t - c.final.log_t) < arb(10) ** -(DPS - 5)


def test_until_logt_event_and_gd_converges_to_flow_as_eta_halves():
    ds = mmts_fig1a()
    t_end = Fraction(3, 2)
    with working_precision(DPS):
        logt = arb(3).log() - arb(2).log()
    fl = gradient_flow(ds, "p", until_logt=logt.mid().str(40, radius=False), dps=DPS, svm=False)
    assert fl.meta["event"] == "log_t"
    errs = []
    for eta in (Fraction(1, 50), Fraction(1, 100)):
        g = gd(ds, "p", steps=int(t_end / eta), eta=str(eta), dps=DPS, svm=False)
        with working_precision(DPS):
            assert abs(fl.final.log_t - logt) < arb(10) ** -(DPS - 4)
            errs.append(norm2([x - y for x, y in zip(g.psi, fl.psi)]))
    with working_precision(DPS):
        ratio = errs[0] / errs[1]
        assert errs[1] < arb("1e-2") and arb("1.7") < ratio < arb("2.3"), (errs, ratio)  # O(η)


def test_normalized_gd_follows_the_flow_curve():
    ds = mmts_fig1a()
    fl = gradient_flow(ds, "p", until_norm=3, dps=DPS, svm=False)
    ng = normalized_gd(ds, "p", steps=10 ** 5, eta="0.005", until_norm=3, dps=DPS, svm=False)
    assert ng.status == "reached"
    with working_precision(DPS):
        assert one_minus_corr(ng.psi, fl.psi) < arb("1e-4")


@pytest.mark.parametrize("param", ["diag", "KQ"])
def test_invariants_are_conserved_to_working_precision(param):
    ds = random_dataset(n=2, T=3, d=2, seed=3, labels="ones")
    tr = gradient_flow(ds, param, until_norm=8, dps=DPS, svm=False)
    assert tr.status == "reached"
    with working_precision(DPS):
        drift = max(r.invariant_drift for r in tr.records)
        assert drift < arb(10) ** -(DPS - 3), drift
        assert abs(tr.final.norm - 8) < arb(10) ** -(DPS - 3)


def test_stationary_start_and_saddle_free_cases():
    tr = gradient_flow(mmts_infeasible_B(), "p", until_norm=10, dps=DPS, svm=False)
    assert tr.status == "stationary" and tr.steps == 0


def test_flow_to_finite_minimum_is_detected():
    ds = random_dataset(n=2, T=3, d=2, seed=9)  # gradient flow from 0 ends at a finite minimum (‖p‖ ≈ 1.6)
    tr = gradient_flow(ds, "p", until_norm=50, dps=DPS, svm=False, max_steps=400)
    assert tr.status == "stationary", (tr.status, tr.notes)
    assert tr.final.norm < 50


def test_save_load_resume_continues_the_same_run(tmp_path):
    ds = mmts_fig1a()
    full = gradient_flow(ds, "p", until_norm=12, dps=DPS, svm=False)
    part = gradient_flow(ds, "p", until_norm=6, dps=DPS, svm=False)
    path = tmp_path / "traj.json"
    part.save(str(path))
    again = Trajectory.load(str(path))
    assert again.meta["param"] == "p" and len(again.records) == len(part.records)
    cont = gradient_flow(None, until_norm=12, dps=DPS, svm=False, resume=again)
    assert cont.status == "reached" and cont.steps > part.steps
    with working_precision(DPS):
        assert norm2([x - y for x, y in zip(cont.psi, full.psi)]) < arb(10) ** -(DPS - 6)
        assert abs(cont.final.log_t - full.final.log_t) < arb(10) ** -(DPS - 6)


def test_direction_trend_is_fitted():
    tr = gradient_flow(mmts_fig1a(), "p", until_norm=200, dps=DPS)
    fit = tr.fit_rate("one_minus_corr_gmm") if tr.final.one_minus_corr_gmm is not None else None
    if fit is None:
        pytest.skip("the SVM package is not available")
    assert 1.5 < fit["rate"] < 2.5  # 1 − cos(p, p^mm) ~ C/‖p‖²
