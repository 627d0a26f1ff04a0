"""irgf.prop.kkt (mutation tests): the outcome on D-SEED0 at a low target carries exactly the documented
items, in order — identity (31), dual and primal feasibility, the (C1) and (C3) trends, the off-support
mass against the derived rate κ, the duality gap — each equal to the kit's item on the same window; a short
window stops with the µ item (µ > 1) and a requirement that names its count."""
from lemmas.irgf import prop_kkt
from verify.data.irgf import d_diaginf, d_seed0
from verify.kit import irgf, kkt
from verify.numbers.precision import working_precision

TARGET = "3"


def _eval(data=None, **kw):
    with working_precision(20) as prec:
        return prop_kkt.evaluate(data or d_seed0(), prec, target=TARGET, **kw), prec


def test_items_are_the_kit_items_on_the_window():
    data = d_seed0()
    out, prec = _eval(data)
    with working_precision(20):
        traj, recs = irgf.flow(data, None, TARGET)
        res = irgf.l1_svm(data)
        win = irgf.window(recs)
        J1 = irgf.support_coordinates(res)
        rows = kkt.rows(traj.system, win, J1)
        tol = prec.tolerance
        want = [kkt.identity31(traj.system, win, tol), kkt.dual_feasible(rows, tol), kkt.primal_feasible(rows, tol),
                *kkt.trend("(C1) stationarity", "ε", rows, [r.eps for r in rows], tol, kkt.support_drift(rows, J1)),
                *kkt.trend("(C3) complementary slackness", "δ", rows, [r.delta for r in rows], tol),
                kkt.off_support(rows, irgf.expected_rate(res), tol), kkt.duality_gap(rows, tol)]
    got = out.evidence[:len(want)]
    assert [e.quantity for e in got] == [e.quantity for e in want]
    assert [(e.relation, e.decide()) for e in got] == [(e.relation, e.decide()) for e in want]
    for a, b in zip(got, want):
        if a.rule is not None:
            assert a.rule.rule == b.rule.rule
    assert any("((C1) stationarity;" in e.quantity for e in got)
    assert any("((C3) complementary slackness;" in e.quantity for e in got)
    assert out.evidence[len(want)].quantity.startswith("predicted lim ε·ln µ")
    assert len(win) >= 3
    # the figure: residuals against ln t of the window records, with the fitted ε ≈ a + c/ln µ curve
    (fig,) = out.figures
    assert fig.name == "kkt" and fig.series[-1].label.startswith("ε fit")
    xs = [float(p.log_t.mid()) for _, p in win]
    assert len(fig.series[0].x) == len(xs) and all(abs(a - b) < 1e-9 * b for a, b in zip(fig.series[0].x, xs))


def test_window_of_three_suffices_and_two_stops(monkeypatch):
    real = irgf.window
    data = d_seed0()
    with working_precision(20):
        _, recs = irgf.flow(data, None, TARGET)
    for k in (3, 2):
        monkeypatch.setattr(irgf, "window", lambda recs, k=k: real(recs)[-k:])
        out, _ = _eval(data)
        req = [r for r in out.requirements if r.name.startswith("the exact ℓ1-SVM optimum and an asymptotic window")]
        mu = [e for e in out.evidence if e.quantity == "µ(t) at the last record (λ = φ/ln µ needs µ > 1)"]
        if k == 3:
            assert req == [] and mu == [] and any("((C1) stationarity;" in e.quantity for e in out.evidence)
        else:
            assert [(r.name, r.met, r.detail) for r in req] == [
                ("the exact ℓ1-SVM optimum and an asymptotic window of ≥ 3 records with µ > 1", False,
                 "2 window record(s)")]
            (e,) = mu
            assert (e.relation, e.bound, e.enclosed) == (">", 1, False)
            assert float(e.value.mid()) == float(recs[-1][1].mu.mid())
            assert out.evidence == [e] and out.decide() == "INCONCLUSIVE"


def test_omega0_and_replay_reach_the_hypotheses():
    out, _ = _eval(omega0=[1, 0, 1, 1])
    assert out.decide() == "NOT_APPLICABLE"
    assert [h.name for h in out.hypotheses if h.met is False] == [irgf.NAMES[irgf.INIT5]]
    out, _ = _eval(d_diaginf())
    assert any("python -m verify irgf.prop.kkt --data D-DIAGINF.json" in n for n in out.notes)
