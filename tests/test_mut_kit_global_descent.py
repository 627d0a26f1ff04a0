"""verify.kit.global_descent (mutation tests): ``gd_limits`` decides "‖∇L(θ(k))‖ → 0" and "‖θ(k)‖ → ∞" on the last
``rules.TAIL_POINTS`` checkpoints of a GD run, and a failure counts only when the descent lemma forbids the run from
staying there (Σ_k ‖∇L‖² ≤ 2(L(θ(0)) − L⋆)/η) — both sides of each condition on hand-built runs whose numbers are
derived here; ``gd_limits_until_decided`` lengthens the run only while a rule is undecided."""
import math

import pytest
from flint import arb

from verify.claims import rules
from verify.kit import global_descent as G
from verify.kit.global_descent import GDRun, gd_limits
from verify.numbers.precision import working_precision

TAIL = (1000, 2000, 4000, 8000)   # the last TAIL_POINTS checkpoints; K = 8000


def _run(grads, thetas, loss0, eta=1, g0=1):
    """A run with checkpoints 0 and TAIL: ‖∇L‖ = g0 then ``grads``; θ = (0,) then ``thetas`` (1-D); L(θ(0)) − L⋆ =
    ``loss0``."""
    assert len(grads) == len(thetas) == rules.TAIL_POINTS == len(TAIL)
    run = GDRun(eta=arb(eta))
    run.steps = [0, *TAIL]
    run.grad_norms = [arb(g0)] + [arb(g) for g in grads]
    run.points = [[arb(0)]] + [[arb(x)] for x in thetas]
    run.norms = [abs(p[0]) for p in run.points]
    run.losses = [arb(loss0)] + [arb(loss0) / 2] * len(TAIL)
    return run


def _log_growth():
    return [math.log1p(k) for k in TAIL]   # ‖θ(k) − θ(0)‖ = ln(1 + ηk/t₀) with η = t₀ = 1: exponent 1


def test_a_decaying_gradient_and_a_growing_norm_hold():
    with working_precision(30):
        grad, norm = gd_limits(_run([1 / (k + 1) for k in TAIL], _log_growth(), 1), dps=30)
    assert grad.rule.holds is True and norm.rule.holds is True
    assert "k = 8000" in grad.quantity and "t₀ = 1/‖∇L(θ(0))‖ = 1" in grad.quantity


def test_a_gradient_plateau_fails_only_beyond_the_descent_lemmas_budget():
    """‖∇L‖ = 1/10 at the tail. L(θ(0)) − L⋆ = 1/100: at most 2·(1/100)/(1·(1/10)²) = 2 steps with ‖∇L‖ ≥ 1/10,
    far below K = 8000 → the plateau is real (fails). L(θ(0)) − L⋆ = 10⁴: 2·10⁶ such steps are allowed ≥ K → a
    pre-asymptotic plateau: undecided, and the detail gives the budget."""
    with working_precision(30):
        grad, _ = gd_limits(_run([0.1] * 4, _log_growth(), 0.01), dps=30)
        assert grad.rule.holds is False
        grad, _ = gd_limits(_run([0.1] * 4, _log_growth(), 10**4), dps=30)
    assert grad.rule.holds is None and "not confirmed" in grad.rule.detail and "2e+06 steps" in grad.rule.detail
    # m = 1/8 (exact in binary): L0 = 62.5 gives the budget 2·62.5·64 = 8000 = K exactly — not < K, still undecided
    # (the comparison is strict); L0 = 62.25 gives 7968 < K — the plateau is confirmed
    with working_precision(30):
        grad, _ = gd_limits(_run([0.125] * 4, _log_growth(), 62.5), dps=30)
        assert grad.rule.holds is None and "8e+03 steps" in grad.rule.detail
        grad, _ = gd_limits(_run([0.125] * 4, _log_growth(), 62.25), dps=30)
        assert grad.rule.holds is False


def test_the_clock_starts_at_one_over_the_first_gradient():
    """‖∇L(θ(0))‖ = 2 → t₀ = 1/2 (named in the item); ‖∇L(θ(0))‖ = 0 → t₀ = 1."""
    with working_precision(30):
        grad, _ = gd_limits(_run([1 / (k + 1) for k in TAIL], _log_growth(), 1, g0=2), dps=30)
        assert "= 0.5)" in grad.quantity
        grad, _ = gd_limits(_run([1 / (k + 1) for k in TAIL], _log_growth(), 1, g0=0), dps=30)
        assert "= 1)" in grad.quantity


def test_a_gradient_that_is_zero_to_every_digit_holds():
    with working_precision(30):
        grad, _ = gd_limits(_run([1e-40] * 4, _log_growth(), 1), dps=30)
    assert grad.rule.holds is True


def test_a_stalled_distance_fails_unless_the_ball_bound_allows_the_stay():
    """θ = 5 at every tail checkpoint (distance 5: exponent 0 < STALL_EXPONENT) → fails. With a ball bound c(R)
    (‖∇L‖ ≥ c on ‖θ‖ ≤ R): c = 1 gives 2·L0/(η c²) = 2 < K (the stall is real: fails); c = 1/1000 gives 2·10⁶ ≥ K
    (undecided, naming the ball's radius 5)."""
    stall = [5.0] * 4
    with working_precision(30):
        _, norm = gd_limits(_run([1 / (k + 1) for k in TAIL], stall, 1), dps=30)
        assert norm.rule.holds is False
        _, norm = gd_limits(_run([1 / (k + 1) for k in TAIL], stall, 1), dps=30, ball_bound=lambda R: arb(1))
        assert norm.rule.holds is False
        seen = []
        _, norm = gd_limits(_run([1 / (k + 1) for k in TAIL], stall, 1), dps=30,
                            ball_bound=lambda R: seen.append(R) or arb("0.001"))
    assert norm.rule.holds is None and "2e+06 steps in ‖θ‖ ≤ 5" in norm.rule.detail
    assert len(seen) == 1 and seen[0] >= 5  # the ball of the largest tail norm (its upper end)


def test_a_growing_distance_with_a_shrinking_norm_is_undecided():
    """θ(k) = 10 − ln(1 + k) from θ(0) = 10: the distance grows like ln(1 + k) but ‖θ(k)‖ decreases (towards a finite
    limit?) → undecided, said."""
    with working_precision(30):
        run = _run([1 / (k + 1) for k in TAIL], [10 - x for x in _log_growth()], 1)
        run.points[0] = [arb(10)]
        run.norms[0] = arb(10)
        _, norm = gd_limits(run, dps=30)
    assert norm.rule.holds is None and "does not increase" in norm.rule.detail


def test_the_budget_text():
    assert G._count(None) == "∞"
    assert G._count(arb(2000000)) == "2e+06"


def test_the_run_is_lengthened_only_while_a_rule_is_undecided(monkeypatch):
    """A stand-in GDLockstep records what it was asked; gd_limits answers undecided on the first length and decided
    on the second: the runs stop at the second length, the first advance asks for tail_checkpoints(5000), the second
    for the doubled run's tail only."""
    asked = []

    class Lockstep:
        def __init__(self, model, starts, eta, q, quantity, tally):
            self.starts = starts

        def advance(self, checkpoints):
            asked.append(tuple(checkpoints))
            return [f"run{len(asked)}-{s}" for s in self.starts]

    def limits(run, symbol, dps, ball_bound):
        decided = None if run.startswith("run1") else True
        rule = rules.Decision(decided, "stand-in", "")
        return (type("E", (), {"rule": rule})(), type("E", (), {"rule": rule})())

    monkeypatch.setattr(G, "GDLockstep", Lockstep)
    monkeypatch.setattr(G, "gd_limits", limits)
    runs, items, K = G.gd_limits_until_decided(None, ["a", "b"], arb(1), lengths=(5000, 10000, 20000))
    assert K == 10000 and runs == ["run2-a", "run2-b"] and len(items) == 2
    assert asked == [tuple(G.tail_checkpoints(5000)), tuple(G.tail_checkpoints(10000, early=()))]
    # decided at once: one advance, K the first length
    asked.clear()
    monkeypatch.setattr(G, "gd_limits", lambda run, *a: limits("run2", *a))
    _, _, K = G.gd_limits_until_decided(None, ["a"], arb(1), lengths=(5000, 10000))
    assert K == 5000 and len(asked) == 1


@pytest.mark.parametrize("holds", [False])
def test_a_failed_rule_ends_the_lengthening(monkeypatch, holds):
    """A rule that fails is decided: no longer run."""
    asked = []

    class Lockstep:
        def __init__(self, *a):
            pass

        def advance(self, checkpoints):
            asked.append(checkpoints)
            return ["r"]

    rule = rules.Decision(holds, "stand-in", "")
    monkeypatch.setattr(G, "GDLockstep", Lockstep)
    monkeypatch.setattr(G, "gd_limits", lambda *a: (type("E", (), {"rule": rule})(), type("E", (), {"rule": rule})()))
    _, _, K = G.gd_limits_until_decided(None, ["a"], arb(1), lengths=(5000, 10000))
    assert K == 5000 and len(asked) == 1


# ----- stationary_evidence: the items it adds, counted and named, with values derived here --------------------------
def _stationary(steps=30, figure=True, inits=None, q_given=True, **kw):
    from fractions import Fraction

    from verify.claims import Outcome
    from verify.data import mmts as M
    from verify.geometry.stationarity import assumption_b, gmm
    from verify.kit.global_descent import stationary_evidence, step_size_p

    data = M.mmts_fig1a()
    out = Outcome()
    with working_precision(30) as prec:
        eta, _ = step_size_p(data)
        q = list(gmm(data, "p", 30).solution) if q_given else None
        gaps = assumption_b(data).gaps if q_given else None
        stationary_evidence(out, data, prec, "p", q, gaps, eta, steps=steps, figure=figure, inits=inits, **kw)
    return out, q, Fraction


def test_stationary_evidence_items_and_their_counts():
    """Fig. 1(a), 30 steps: starts 0 (30 steps) and −2q/‖q‖∞ (max(1, 30 // 3) = 10 steps); per start the projection
    Tally, two ball-step budgets (R = 1, 10: radii[:2]), the norm (decided from 0, reported otherwise) and the gradient
    norm; the sign Tally and four ball bounds c(R) > 0 before them."""
    out, q, F = _stationary()
    names = [e.quantity for e in out.evidence]
    assert sum("certified inf of ‖∇L(p)‖ over the ball" in n for n in names) == 4
    budgets = [e for e in out.evidence if "certified max number of steps" in e.quantity]
    assert [n.quantity.rsplit("≤ ", 1)[1] for n in budgets] == ["1", "10", "1", "10"]
    # c(R) decreases with R, so the step budget in the larger ball is at least the smaller one's, for each start
    assert budgets[1].value >= budgets[0].value and budgets[3].value >= budgets[2].value
    assert any("GD from p(0) = 0: ‖p(t)‖ → ∞ (value at t = 30" in n for n in names)
    assert any(n == "GD from p(0) = −2·q/‖q‖∞ (anti-aligned): ‖p(t)‖ at t = 10" for n in names)
    assert any(n == "GD from p(0) = 0: ‖∇L(p(t))‖ at t = 30" for n in names)
    assert out.range == "t ≤ 30 GD steps"
    # the anti-aligned start: ⟨θ(0), q⟩/‖q‖ = −2‖q‖/‖q‖∞; p^mm = (−0.1, 1, 0)/1.01 → −2·√1.01 = −2.00998
    start = -2 * math.sqrt(sum(float(x) ** 2 for x in q)) / max(abs(float(x)) for x in q)
    assert abs(start + 2 * math.sqrt(1.01)) < 1e-12
    proj = [e for e in out.evidence if "min over 10 steps of ⟨p(t+1) − p(t), p^mm⟩" in e.quantity]
    assert len(proj) == 1 and f"went from {start:.6g}" in (proj[0].note or "")
    # the figure draws both starts: ‖p(t)‖ and the projection for each, the log fit for the start at 0
    assert [f.name for f in out.figures] == ["norm"]
    labels = [s.label for s in out.figures[0].series]
    assert len(labels) == 5 and labels[0] == "‖p(t)‖, p(0) = 0" and labels[2].startswith("fit ")
    assert labels[3] == "‖p(t)‖, p(0) = −2·q/‖q‖∞ (anti-aligned)"


def test_stationary_evidence_without_q_decides_the_gradient_at_zero_and_starts_at_2e1():
    out, _, _ = _stationary(q_given=False, figure=False)
    names = [e.quantity for e in out.evidence]
    assert names[0].startswith("‖∇L(0)‖ computed exactly")
    assert any(n == "GD from p(0) = 2·e₁: ‖p(t)‖ at t = 10" for n in names)
    assert not any("certified max number of steps" in n for n in names) and not out.figures


def test_zero_means_ten_to_minus_dps_and_nothing_without_dps():
    """‖∇L‖ = 10⁻³¹ at the tail: zero to every digit at dps = 30 (10⁻³¹ ≤ 10⁻³⁰: holds); without ``dps`` there is no
    such zero, and a constant tail is a plateau the descent lemma cannot confirm (2·1/(10⁻³¹)² ≫ K): undecided, the
    rule still named decays."""
    with working_precision(40):
        grad, _ = gd_limits(_run([1e-31] * 4, _log_growth(), 1), dps=30)
        assert grad.rule.holds is True
        grad, _ = gd_limits(_run([1e-31] * 4, _log_growth(), 1))
    assert grad.rule.holds is None and grad.rule.rule.startswith("decays") and "not confirmed" in grad.rule.detail


# ----- norm_ball and norm_series -------------------------------------------------------------------------------------
def test_norm_ball_is_the_norm_and_stays_in_the_reals():
    """(3, 4) → 5 exactly; a vector whose square sum's ball reaches below 0 (entries 0 ± 10⁻¹⁰) → the ball [0, h] with
    h ≥ √(upper end of the square sum), centred at h/2 (its lower end below 0 only by the radius's rounding); the zero
    vector → exactly 0."""
    from verify.kit.global_descent import norm_ball

    with working_precision(30):
        five = norm_ball([arb(3), arb(4)])
        assert five.contains(5) and five.rad() < 1e-25
        v = [arb(0, 1e-10)]
        s2_upper = float((v[0] * v[0]).upper())
        b = norm_ball(v)
        assert b.contains(0) and b.lower() >= -1e-8 * b.upper() and b.upper() >= math.sqrt(s2_upper) * (1 - 1e-12)
        assert abs(float(b.mid()) - float(b.upper()) / 2) < 1e-8 * float(b.upper()) and b.upper() < 3e-10
        z = norm_ball([arb(0), arb(0)])
        assert z == 0 and z.rad() == 0


def test_norm_series_draws_norms_projections_and_the_log_fit():
    """Checkpoints 0, 1, 10, 100, 1000 with ‖θ(t)‖ = 2 + 3 ln t (t > 0): the norm series skips t = 0, the projection
    series is drawn when there are projections, and the fit over the last 5 checkpoints recovers 2 + 3 ln t (only when
    asked)."""
    from verify.kit.global_descent import norm_series

    run = GDRun(eta=arb(1))
    run.steps = [0, 1, 10, 100, 1000]
    run.norms = [arb(7)] + [arb(2 + 3 * math.log(t)) for t in run.steps[1:]]
    run.projections = [arb(-1)] + [arb(1 + math.log(t)) for t in run.steps[1:]]
    with working_precision(30):
        series = norm_series(run, "0", "p", fit=True)
        assert [s.x for s in series[:2]] == [[1, 10, 100, 1000]] * 2
        assert series[0].y == [2 + 3 * math.log(t) for t in (1, 10, 100, 1000)]
        assert series[1].y == [1 + math.log(t) for t in (1, 10, 100, 1000)]
        assert len(series) == 3 and series[2].label == "fit 2 + 3 ln t (last 5 checkpoints)"
        assert series[2].x == [1, 10, 100, 1000]
        assert all(abs(y - (2 + 3 * math.log(t))) < 1e-9 for t, y in zip(series[2].x, series[2].y))
        run.projections = []
        assert len(norm_series(run, "0", "p", fit=False)) == 1


def test_stationary_evidence_states_what_it_covered():
    """(i) names the probe points and, with the gaps, the balls up to R = 1000; (ii) the two starts and η."""
    out, _, _ = _stationary()
    assert len(out.covers) == 2
    assert out.covers[0].endswith("(‖p‖∞ ≤ 1000) and every p with ‖p‖ ≤ 1000 (certified c(R) on the balls)")
    assert out.covers[1] == "(ii) GD from p(0) ∈ {0, −2·q/‖q‖∞ (anti-aligned)}, η = 1/L rounded down"


def test_without_q_the_gradient_at_zero_is_the_uniform_attention_formula():
    """q = None on Fig. 1(a): at p = 0 the attention is uniform, so ∇L(0) = ℓ'(γ̄)·(1/T)Σ_t (γ_t − γ̄)k_t with
    γ = (1, 9/10, 9/10), keys (−1/10, 1, 0), (1, 0, 0), (0, 0, 0), ℓ'(u) = −1/(1 + e^u): recomputed with mpmath."""
    import mpmath

    out, _, _ = _stationary(q_given=False, figure=False)
    item = out.evidence[0]
    with mpmath.workdps(40):
        g = [mpmath.mpf(1), mpmath.mpf(9) / 10, mpmath.mpf(9) / 10]
        k = [(mpmath.mpf(-1) / 10, 1, 0), (1, 0, 0), (0, 0, 0)]
        gbar = sum(g) / 3
        lp = -1 / (1 + mpmath.exp(gbar))
        grad = [lp * sum((gt - gbar) * kt[j] for gt, kt in zip(g, k)) / 3 for j in range(3)]
        want = mpmath.sqrt(sum(x * x for x in grad))
    assert item.relation == ">" and abs(float(item.value.mid()) - float(want)) < 1e-15 * float(want)


def test_descent_hypotheses_name_what_fails():
    """A tied optimal token with require_b=False: the one hypothesis "unique optimal token …" is not met ("opt
    tied"); with require_b, Assumption B carries assumption_b's own detail."""
    from verify import Dataset
    from verify.data import mmts as M
    from verify.geometry.stationarity import assumption_b
    from verify.kit.global_descent import ASSUMPTION_B, descent_hypotheses

    tied = Dataset.make(X=[[(1, 0, 1), (0, 1, 1), (0, 0, 0)]], Y=[1], v=[0, 0, 1], name="tied")
    with working_precision(30):
        hyps, _, res = descent_hypotheses(tied, "p", "logistic", 30, require_b=False)
        assert res is None
        bad = [h for h in hyps if h.met is False]
        assert [(h.name, h.detail) for h in bad] == [("unique optimal token (p^mm of α = opt defined)", "opt tied")]
        data = M.mmts_fig1a()
        hyps, B, res = descent_hypotheses(data, "p", "logistic", 30)
    b = [h for h in hyps if h.name == ASSUMPTION_B][0]
    assert b.met is True and b.detail == assumption_b(data).detail and res.status == "optimal"
    assert hyps[-1].name.startswith("ATT-SVM(opt) feasible")


def test_the_step_budgets_and_the_reported_norm_are_what_they_say():
    """The budget item is the upper end of 2(L(θ(0)) − L⋆)/(η c(R)²) (an exact point), c(R) the ball bound, the
    expression formed here the same way; the anti-aligned start's reported ‖p(10)‖ and ‖∇L(p(10))‖ are those after 10
    GD steps θ ← mid(θ − η∇L(θ)) from −2q/‖q‖∞, run here with the model."""
    from fractions import Fraction

    from verify.data import mmts as M
    from verify.geometry.stationarity import assumption_b, ball_lower_bound
    from verify.kit.global_descent import step_size_p
    from verify.models.attention import LinearLogitModel, norm2
    from verify.numbers.precision import to_arb

    out, q, _ = _stationary()
    data = M.mmts_fig1a()
    with working_precision(30):
        eta, _ = step_size_p(data)
        model = LinearLogitModel.from_dataset(data, "p", "logistic")
        gaps = assumption_b(data).gaps
        m = max(abs(Fraction(x)) for x in q)
        th0 = [to_arb(-2 * Fraction(x) / m) for x in q]
        budgets = [e for e in out.evidence if "certified max number of steps" in e.quantity]
        for item, (label, start, R) in zip(budgets, [("0", [arb(0)] * 3, "1"), ("0", [arb(0)] * 3, "10"),
                                                     ("anti", th0, "1"), ("anti", th0, "10")]):
            c = ball_lower_bound(model, q, R, gaps)
            want = 2 * model.excess(start) / (eta * c * c)
            assert want.lower() < want.upper() and item.value.mid() == want.upper() and item.value.rad() == 0, (label, R)
        th = list(th0)
        for _ in range(10):
            th = [arb((x - eta * g).mid()) for x, g in zip(th, model.grad(th))]
        reported = [e for e in out.evidence if e.quantity.endswith("(anti-aligned): ‖p(t)‖ at t = 10")][0]
        assert abs(reported.value - norm2(th)) < 1e-25
        # the ‖∇L‖ item of that start: the gradient norm at θ(10) (not at an earlier checkpoint)
        [grad] = [e for e in out.evidence if e.quantity.endswith("(anti-aligned): ‖∇L(p(t))‖ at t = 10")]
        assert abs(grad.value - norm2(model.grad(th))) < 1e-25


def test_gd_checkpoints_records_exact_gd_at_the_checkpoints():
    """Checkpoints (0, 1, 3): the recorded points are 0, 1 and 3 steps of θ ← mid(θ − η∇L(θ)) (rerun here), with
    ‖∇L‖ and L − L⋆ at those points and the projection on q."""
    from verify.data import mmts as M
    from verify.kit.global_descent import gd_checkpoints, step_size_p
    from verify.models.attention import LinearLogitModel, dot

    data = M.mmts_fig1a()
    with working_precision(30):
        eta, _ = step_size_p(data)
        model = LinearLogitModel.from_dataset(data, "p", "logistic")
        run = gd_checkpoints(model, (0, 1, 0), eta, (0, 1, 3), q=(0, 1, 0), quantity="x")
        th, seen = [arb(0), arb(1), arb(0)], {}
        for t in range(4):
            seen[t] = th
            th = [arb((x - eta * g).mid()) for x, g in zip(th, model.grad(th))]
        assert run.steps == [0, 1, 3]
        for k, t in enumerate((0, 1, 3)):
            assert all(abs(a - b) < 1e-28 for a, b in zip(run.points[k], seen[t]))
            g = model.grad(seen[t])
            assert abs(run.grad_norms[k] - dot(g, g).sqrt()) < 1e-25
            assert abs(run.losses[k] - model.excess(seen[t])) < 1e-25
            assert abs(run.projections[k] - seen[t][1]) < 1e-28  # ⟨θ, e₂⟩/‖e₂‖


def test_norm_trend_and_divergence_evidence_say_what_was_computed():
    from verify.kit.global_descent import divergence_evidence, norm_trend

    run = GDRun(eta=arb(1))
    run.steps = [0, 1, 10, 100, 1000]
    run.norms = [arb(0)] + [arb(2 + 3 * math.log(t)) for t in run.steps[1:]]
    with working_precision(30):
        text = norm_trend(run, "p", arb(5))
        assert text.startswith("‖p(t)‖ = 8.90776, 15.8155, 22.7233 at t = 10, 100, 1000")
        assert "≈ 2 + 3·ln t" in text and text.endswith("(late-time theory: b → ‖p^mm‖ = 5)")
        assert "late-time" not in norm_trend(run, "p")
        e = divergence_evidence(run, "q", note="extra")
    assert e.value == run.norms[-1] and e.rule.holds is True and e.note.endswith("; extra")
    assert e.note.startswith(e.rule.detail)


def test_descent_probes_include_the_other_selections_rays_for_p_only():
    """Fig. 1(b): the ATT-SVM directions of the other feasible selections — α = (2) (p^mm = (1, 0, 0), token (1, 0) is
    the LMM) and α = (3) ((−1, −11/10, 0): k₃ − k₁ = (0.1, −1), k₃ − k₂ = (−1, 0) ⇒ p₁ ≤ −1 and 0.1p₁ − p₂ ≥ 1 are
    active) — are probe directions, each also mixed into q; every direction is probed at each scale. W has no such
    rays (the list is p's)."""
    from fractions import Fraction as Q

    from verify.data import mmts as M
    from verify.geometry.stationarity import gmm
    from verify.kit.global_descent import descent_probes

    data = M.mmts_fig1b()
    with working_precision(30):
        q = list(gmm(data, "p", 30).solution)
        dirs, pts = descent_probes(data, "p", q, ("1", "10"), 2, 30)
    rays = {label: tuple(v) for label, v in dirs if label.startswith("max-margin direction of α")}
    assert rays == {"max-margin direction of α = (1,)": (Q(1), Q(0), Q(0)),
                    "max-margin direction of α = (2,)": (Q(-1), Q(-11, 10), Q(0))}
    assert sum(label.startswith("q + ½·(max-margin direction") for label, _ in dirs) == 2
    assert len(pts) == 2 * len(dirs) and sum(label.startswith("random") for label, _ in dirs) == 2


def test_the_lockstep_runs_are_each_starts_own_gd_and_resume():
    """Two starts on Fig. 1(b) in lockstep, checkpoints (0, 2, 5) then resumed to (5, 9): every recorded point, norm,
    gradient norm, loss, selection and projection equals the start's own GD rerun step by step here; the projection
    Tally counts one decided item per step for the flagged start only."""
    from fractions import Fraction as Q

    from verify.data import mmts as M
    from verify.kit.global_descent import GDLockstep, step_size_p
    from verify.models.attention import LinearLogitModel, dot

    data = M.mmts_fig1b()
    starts = [(0, 0, 0), (Q(1, 2), -1, 0)]
    with working_precision(30):
        eta, _ = step_size_p(data)
        model = LinearLogitModel.from_dataset(data, "p", "logistic")
        lock = GDLockstep(model, starts, eta, q=(1, 0, 0), quantity="x", tally=[True, False])
        lock.advance((0, 2, 5))
        runs = lock.advance((5, 9))
        for start, run in zip(starts, runs):
            th = [arb(Q(x).numerator) / Q(x).denominator for x in start]
            want = {}
            for t in range(10):
                want[t] = th
                th = [arb((x - eta * g).mid()) for x, g in zip(th, model.grad(th))]
            assert run.steps == [0, 2, 5, 9]
            for k, t in enumerate(run.steps):
                assert all(abs(a - b) < 1e-27 for a, b in zip(run.points[k], want[t]))
                g = model.grad(want[t])
                assert abs(run.grad_norms[k] - dot(g, g).sqrt()) < 1e-25
                assert abs(run.norms[k] - dot(want[t], want[t]).sqrt()) < 1e-25
                assert abs(run.losses[k] - model.excess(want[t])) < 1e-25
                assert run.selected[k] == model.selected(want[t])
                assert abs(run.projections[k] - want[t][0]) < 1e-27
        assert runs[0].increase is not None and runs[0].increase.coverage.points == 9 and runs[1].increase is None


# ----- gd_limits: the values the two items carry, the rule kept when undecided, the ball's budget edge --------------
def test_the_items_carry_the_last_gradient_norm_and_the_last_distance():
    """‖∇L‖ = 1/(k+1) at the tail k = 1000 … 8000 (all different): the gradient item's value is the last one,
    1/8001; θ(k) = ln(1 + k) from θ(0) = 0: the norm item's value is the last distance, ln 8001 (mpmath)."""
    import mpmath

    with working_precision(30):
        grad, norm = gd_limits(_run([1 / (k + 1) for k in TAIL], _log_growth(), 1), dps=30)
    assert isinstance(grad.value, arb) and abs(float(grad.value.mid()) - 1 / 8001) < 1e-15
    assert isinstance(norm.value, arb) and abs(float(norm.value.mid()) - float(mpmath.log(8001))) < 1e-12


def test_an_undecided_distance_keeps_its_rule_name():
    """Both "undecided" branches of the norm item keep the rule (rules.diverges' name): the shrinking norm (θ(k) =
    10 − ln(1 + k)) and the stall the ball bound cannot confirm (c = 1/1000: budget 2·10⁶ ≥ K)."""
    name = rules.diverges([arb(1), arb(2)], [arb(1), arb(2)]).rule  # the rule's own name
    with working_precision(30):
        run = _run([1 / (k + 1) for k in TAIL], [10 - x for x in _log_growth()], 1)
        run.points[0], run.norms[0] = [arb(10)], arb(10)
        _, norm = gd_limits(run, dps=30)
        assert norm.rule.holds is None and norm.rule.rule == name
        _, norm = gd_limits(_run([1 / (k + 1) for k in TAIL], [5.0] * 4, 1), dps=30, ball_bound=lambda R: arb("0.001"))
        assert norm.rule.holds is None and norm.rule.rule == name


def test_the_ball_budget_edge_is_strict():
    """A stalled distance (θ = 5 at the tail) with c(R) = 1/8 (exact in binary): L(θ(0)) − L⋆ = 62.5 gives the
    budget 2·62.5/(1·(1/8)²) = 8000 = K — not < K, so the stall is not confirmed (undecided); 62.25 gives 7968 < K:
    the stall is real (fails)."""
    with working_precision(30):
        _, norm = gd_limits(_run([1 / (k + 1) for k in TAIL], [5.0] * 4, 62.5), dps=30, ball_bound=lambda R: arb(0.125))
        assert norm.rule.holds is None and "up to 8e+03 steps" in norm.rule.detail
        _, norm = gd_limits(_run([1 / (k + 1) for k in TAIL], [5.0] * 4, 62.25), dps=30,
                            ball_bound=lambda R: arb(0.125))
        assert norm.rule.holds is False


def test_the_ball_is_that_of_the_largest_tail_norm_at_its_upper_end():
    """The ball bound is asked at the upper end of the largest tail norm, the largest taken by midpoint: tail norms
    5 ± 1, 5.5 ± 1/4, 5, 5 → R = 5.5 ± 1/4, asked at 5.75 (up to the radius's upward rounding; not 6, the upper end of the first ball, which no norm is
    certainly above; not 5, the last norm; not 5.25, the lower end)."""
    seen = []
    with working_precision(30):
        run = _run([1 / (k + 1) for k in TAIL], [5.0] * 4, 1)
        run.norms[1:] = [arb(5, 1), arb(5.5, 0.25), arb(5), arb(5)]
        _, norm = gd_limits(run, dps=30, ball_bound=lambda R: seen.append(R) or arb("0.001"))
    assert norm.rule.holds is None and len(seen) == 1 and abs(float(seen[0].mid()) - 5.75) < 1e-6  # radius rounded up


def test_a_zero_bound_means_an_unbounded_budget():
    """c(R) = 0 (no bound on the ball) and a gradient tail whose smallest value is 0: no step budget at all — the
    detail says ∞ (the division by 0 is never formed), and the item stays undecided."""
    with working_precision(30):
        _, norm = gd_limits(_run([1 / (k + 1) for k in TAIL], [5.0] * 4, 1), dps=30, ball_bound=lambda R: arb(0))
        assert norm.rule.holds is None and "up to ∞ steps in ‖θ‖ ≤ 5" in norm.rule.detail
        # ‖∇L‖ = 0, 1/10, 1/10, 1/10: a plateau (exponent 0 over the positive values, the last kept), m = 0
        grad, _ = gd_limits(_run([0, 0.1, 0.1, 0.1], _log_growth(), 1))
    assert grad.rule.holds is None and "up to ∞ steps with ‖∇L‖ ≥ 0" in grad.rule.detail


def test_the_smallest_tail_gradient_is_taken_by_midpoint():
    """‖∇L‖ = 0.101 ± 0.05, 1/10, 1/10, 1/10 (a plateau): m = 1/10 (smallest midpoint; no value is certainly below
    the first ball) → budget 2·30/(1·(1/10)²) = 6000 < K = 8000: the plateau is confirmed (fails). With the first
    ball as m the budget would straddle K (2·30/0.151² ≈ 2631 to 2·30/0.051² ≈ 23068)."""
    with working_precision(30):
        run = _run([0.1] * 4, _log_growth(), 30)
        run.grad_norms[1] = arb(0.101, 0.05)
        grad, _ = gd_limits(run, dps=30)
    assert grad.rule.holds is False


def test_the_distance_is_read_against_ln_of_one_plus_eta_k_over_t0():
    """The distance's clock is ln(1 + ηk/t₀). (a) η = 2⁻²⁰, t₀ = 1, distance (ln(1 + ηk))^(1/20) (an exponent
    1/20 < STALL_EXPONENT: fails); read against ln(2 + ηk) — nearly constant — it would grow steeply. (b) t₀ = 1/2
    (‖∇L(θ(0))‖ = 2), η = 2⁻¹⁰, distance (ln(1 + 2ηk))^0.6 (exponent 0.6 > DIVERGENCE_EXPONENT: holds); against
    ln(1 + ηk·t₀) the exponent would be ≈ 0.41 (undecided)."""
    with working_precision(30):
        eta = 2.0 ** -20
        run = _run([1 / (k + 1) for k in TAIL], [math.log1p(eta * k) ** 0.05 for k in TAIL], 1, eta=eta)
        _, norm = gd_limits(run, dps=30)
        assert norm.rule.holds is False
        eta = 2.0 ** -10
        run = _run([1 / (k + 1) for k in TAIL], [math.log1p(2 * eta * k) ** 0.6 for k in TAIL], 1, eta=eta, g0=2)
        _, norm = gd_limits(run, dps=30)
        assert norm.rule.holds is True and "fitted exponent 0.6" in norm.rule.detail


# ----- the checkpoint ladders, the fits over the last five checkpoints, small helpers -------------------------------
def test_run_checkpoints_and_tail_checkpoints_have_no_duplicates_and_no_stray_steps():
    """run_checkpoints(s): the ladder below s, then s — once, also when s is on the ladder (10 → 0, 1, 3, 10).
    tail_checkpoints(s): TAIL_POINTS = 4 steps ⌊s(3 + j)/6⌋ (at least 1), j = 0..3, and the ladder below the first:
    s = 1800 → 900, 1200, 1500, 1800 after 0 … 300 (1000 lies inside the tail and is not recorded); s = 1 → every
    tail step is max(1, ⌊j'/6⌋) = 1: the checkpoints are 0, 1."""
    assert G.run_checkpoints(10) == [0, 1, 3, 10]
    assert G.run_checkpoints(11) == [0, 1, 3, 10, 11]
    assert rules.TAIL_POINTS == 4
    assert G.tail_checkpoints(1800) == [0, 1, 3, 10, 30, 100, 300, 900, 1200, 1500, 1800]
    assert G.tail_checkpoints(1) == [0, 1]


def test_divergence_is_fitted_on_the_steps_after_the_first():
    """Checkpoints 0, 1, 2, 4 with ‖θ(t)‖ = ln t: the fit against ln t uses t = 2 and 4 (t = 0, 1 have no
    positive ln t), two points with exponent 1 → holds; the value is ‖θ(4)‖ = ln 4."""
    from verify.kit.global_descent import divergence_evidence

    run = GDRun(eta=arb(1))
    run.steps = [0, 1, 2, 4]
    with working_precision(30):
        run.norms = [arb(0), arb(0), arb(2).log(), arb(4).log()]
        e = divergence_evidence(run, "q")
    assert e.rule.holds is True and e.value is run.norms[-1] and e.note == e.rule.detail  # no note given: none added


def test_the_log_fits_use_the_last_five_checkpoints_aligned():
    """Six checkpoints 1, 10, 100, 1000, 10⁴, 10⁵ with ‖θ(t)‖ = 2 + 3 ln t except a first value 50 off the line: the
    fits over the last five (steps and norms aligned) recover 2 + 3 ln t exactly, in the trend text and in the figure's
    fit series (drawn at the last five steps). Without any fit (one step > 0) the trend has no fit clause, and without
    ‖q‖ no late-time clause — nothing else is appended."""
    from verify.kit.global_descent import norm_series, norm_trend

    run = GDRun(eta=arb(1))
    run.steps = [1, 10, 100, 1000, 10**4, 10**5]
    run.norms = [arb(50)] + [arb(2 + 3 * math.log(t)) for t in run.steps[1:]]
    with working_precision(30):
        text = norm_trend(run, "p")
        assert text.endswith("; fit over the last 5 checkpoints ‖p(t)‖ ≈ 2 + 3·ln t")
        fit = norm_series(run, "0", "p", fit=True)[-1]
        assert fit.label == "fit 2 + 3 ln t (last 5 checkpoints)" and fit.x == run.steps[1:]
        one = GDRun(eta=arb(1))
        one.steps, one.norms = [0, 1], [arb(0), arb(1)]
        assert norm_trend(one, "p") == "‖p(t)‖ = 0, 1 at t = 0, 1"
        assert norm_trend(one, "p", arb(2)) == "‖p(t)‖ = 0, 1 at t = 0, 1 (late-time theory: b → ‖p^mm‖ = 2)"


def test_the_ratio_figure_marks_the_bound_at_its_factor():
    """Lemma 4's ratio figure draws the bound as a horizontal line at ``factor`` (1 unless given)."""
    from verify.kit.global_descent import ratio_figure

    curves = {"ray": [(1.0, 2.0), (10.0, 1.5)]}
    assert ratio_figure(curves).hlines == [(1.0, "bound")]
    assert ratio_figure(curves, 3).hlines == [(3.0, "bound")]


def test_norm_ball_holds_the_square_roots_upper_end_at_a_coarse_precision():
    """At 20 bits the square root of the square sum's upper end is a ball of relative width ~2⁻²⁰, far wider than
    the radius's rounding (2⁻³⁰): the ball [0, h] must take h at the root's upper end, so that h² ≥ that upper end
    (checked exactly at 200 bits)."""
    from flint import ctx

    from verify.kit.global_descent import norm_ball

    old = ctx.prec
    try:
        ctx.prec = 20
        v = [arb(0, 1e-10)]
        s2_upper = (v[0] * v[0]).upper()
        b = norm_ball(v)
        ctx.prec = 200
        h = arb(b.upper())
        assert h * h >= arb(s2_upper) and b.contains(0)
    finally:
        ctx.prec = old


def test_gd_checkpoints_keeps_the_step_size():
    """The run carries η (gd_limits reads it); without q no Tally and no projections."""
    from verify.data import mmts as M
    from verify.kit.global_descent import gd_checkpoints, step_size_p
    from verify.models.attention import LinearLogitModel

    data = M.mmts_fig1a()
    with working_precision(30):
        eta, _ = step_size_p(data)
        model = LinearLogitModel.from_dataset(data, "p", "logistic")
        run = gd_checkpoints(model, (0, 0, 0), eta, (0, 1))
        assert run.eta is eta and run.increase is None and run.projections == []
        # with q but no quantity given, the projection Tally gets its generic name
        generic = "⟨θ(t+1) − θ(t), q⟩ > 0 at every step"
        assert gd_checkpoints(model, (0, 0, 0), eta, (0, 1), q=(0, 1, 0)).increase.quantity == generic


def test_the_lockstep_projection_tally_has_the_generic_name_by_default():
    from verify.data import mmts as M
    from verify.kit.global_descent import step_size_p
    from verify.models.attention import LinearLogitModel

    data = M.mmts_fig1a()
    with working_precision(30):
        eta, _ = step_size_p(data)
        lock = G.GDLockstep(LinearLogitModel.from_dataset(data, "p", "logistic"), [(0, 0, 0)], eta, q=(0, 1, 0))
    assert lock.runs[0].increase.quantity == "⟨θ(t+1) − θ(t), q⟩ > 0 at every step"


def test_the_lengthening_passes_its_arguments_through(monkeypatch):
    """gd_limits_until_decided hands q, the Tally's quantity and the tally flags to GDLockstep, and the symbol,
    dps and ball bound to gd_limits."""
    made, judged = [], []

    class Lockstep:
        def __init__(self, model, starts, eta, q, quantity, tally):
            made.append((q, quantity, tally))

        def advance(self, checkpoints):
            return ["r"]

    def limits(run, symbol, dps, ball_bound):
        judged.append((symbol, dps, ball_bound))
        rule = rules.Decision(True, "stand-in", "")
        return (type("E", (), {"rule": rule})(), type("E", (), {"rule": rule})())

    def bound(R):
        return arb(1)

    monkeypatch.setattr(G, "GDLockstep", Lockstep)
    monkeypatch.setattr(G, "gd_limits", limits)
    G.gd_limits_until_decided(None, ["a"], arb(1), (1, 0), symbol="W", dps=25, ball_bound=bound, quantity="Q",
                              tally=[True])
    assert made == [((1, 0), "Q", [True])] and judged == [("W", 25, bound)]
    made.clear()
    G.gd_limits_until_decided(None, ["a"], arb(1))
    assert made == [(None, "", None)]


# ----- no_stationary_evidence and stationary_evidence: bounds, counts, covers, the values of the items ---------------
def _fig1a_model():
    from verify.data import mmts as M
    from verify.geometry.stationarity import assumption_b, gmm
    from verify.models.attention import LinearLogitModel

    data = M.mmts_fig1a()
    return data, LinearLogitModel.from_dataset(data, "p", "logistic"), list(gmm(data, "p", 30).solution), \
        assumption_b(data).gaps


def test_the_sign_tally_counts_every_probe_point_and_names_the_tightest():
    """Without gaps (no ball bounds): the sign Tally decides ⟨∇L(p), p^mm⟩ < 0 (bound 0) at the probe directions of
    the geometry with 4 seeded random ones, × the 2 scales given (no 0 scale: no shared point) — every point counted,
    the tightest named by its probe label ("…, ‖p‖∞ = 1" or "= 10"); the cover names the points and no ball."""
    from verify.claims import Outcome
    from verify.geometry.stationarity import probe_directions
    from verify.models.attention import features

    with working_precision(30):
        data, model, q, _ = _fig1a_model()
        dirs = probe_directions(features(data, "p"), model.opt, q, count=4)
        assert len(probe_directions(features(data, "p"), model.opt, q, count=5)) > len(dirs)  # the count matters
        out = Outcome()
        G.no_stationary_evidence(out, data, model, "p", q, None, scales=("1", "10"))
    n = 2 * len(dirs)
    [sign] = out.evidence
    assert sign.relation == "<" and sign.bound == 0 and sign.decide() is True
    assert sign.coverage.points == n and sign.coverage.holds == n
    where = sign.coverage.worst_at
    assert where is not None and any(where in (f"{label}, ‖p‖∞ = 1", f"{label}, ‖p‖∞ = 10") for label, _ in dirs)
    assert out.covers == [f"(i) p at {n} probe points (‖p‖∞ ≤ 10)"]


def test_the_gradient_at_zero_is_decided_against_zero():
    """Without q: ‖∇L(0)‖ > 0 is the item (bound exactly 0); on Fig. 1(a) ∇L(0) ≠ 0 (≈ 0.02, uniform-attention
    formula above), so it holds."""
    out, _, _ = _stationary(q_given=False, figure=False, steps=3)
    item = out.evidence[0]
    assert item.relation == ">" and item.bound == 0 and item.decide() is True


def test_stationary_evidence_defaults(monkeypatch):
    """With its defaults stationary_evidence runs GD 10⁴ steps from 0 and max(1, 10⁴ // 3) = 3333 from the
    anti-aligned start (checkpoints: the ladder below, then the last step), draws the figure, covers BALL_RADII and
    SIGN_SCALES in part (i), and appends no η note. (GD itself is cut at t = 3 here by a stand-in that records what
    it was asked.)"""
    from verify.claims import Outcome

    asked, part_i = [], []
    real = G.gd_checkpoints

    def gd(model, th0, eta, checkpoints, q=None, quantity=""):
        asked.append(list(checkpoints))
        return real(model, th0, eta, [c for c in checkpoints if c <= 3], q=q, quantity=quantity)

    monkeypatch.setattr(G, "gd_checkpoints", gd)
    monkeypatch.setattr(G, "no_stationary_evidence", lambda *a, **kw: part_i.append((kw["radii"], kw["scales"])))
    out = Outcome()
    with working_precision(30) as prec:
        data, model, q, gaps = _fig1a_model()
        eta, _ = G.step_size_p(data)
        G.stationary_evidence(out, data, prec, "p", q, gaps, eta)
    ladder = [0, 1, 3, 10, 30, 100, 300, 1000, 3000]
    assert asked == [ladder + [10000], ladder + [3333]]
    assert out.range == "t ≤ 10000 GD steps" and [f.name for f in out.figures] == ["norm"]
    assert part_i == [(G.BALL_RADII, G.SIGN_SCALES)]
    qn = math.sqrt(sum(float(x) ** 2 for x in q))
    decided = [e for e in out.evidence if "‖p(t)‖ → ∞" in e.quantity]
    assert len(decided) == 1 and decided[0].note.endswith(f"(late-time theory: b → ‖p^mm‖ = {qn:.6g})")


def test_stationary_evidence_passes_radii_and_scales_through():
    """radii = (1, 2): two ball bounds c(R) and the budgets in both; scales = (1, 10): the cover names ‖p‖∞ ≤ 10 and
    the balls up to R = 2."""
    out, _, _ = _stationary(steps=3, figure=False, radii=("1", "2"), scales=("1", "10"))
    assert sum("certified inf of ‖∇L(p)‖ over the ball" in e.quantity for e in out.evidence) == 2
    assert out.covers[0].endswith("(‖p‖∞ ≤ 10) and every p with ‖p‖ ≤ 2 (certified c(R) on the balls)")


def test_the_notes_carry_the_trend_with_the_late_time_norm_and_the_eta_note():
    """steps = 3: the anti-aligned start runs max(1, 3 // 3) = 1 step. The notes of both starts carry the trend of
    ‖p(t)‖ (symbol p) with the late-time value ‖p^mm‖ = √(Σ q_j²) (computed here from the exact q) and then the η
    note given."""
    out, q, _ = _stationary(steps=3, figure=False, eta_note="η = test")
    qn = math.sqrt(sum(float(x) ** 2 for x in q))
    late = f"(late-time theory: b → ‖p^mm‖ = {qn:.6g}); η = test"
    [zero] = [e for e in out.evidence if e.quantity.startswith("GD from p(0) = 0: ‖p(t)‖ → ∞")]
    [anti] = [e for e in out.evidence if e.quantity == "GD from p(0) = −2·q/‖q‖∞ (anti-aligned): ‖p(t)‖ at t = 1"]
    assert zero.note.endswith(late) and "; ‖p(t)‖ = " in zero.note
    assert anti.note.startswith("‖p(t)‖ = ") and late + "; a start off the origin" in anti.note
    assert any("min over 1 steps of ⟨p(t+1) − p(t), p^mm⟩" in e.quantity for e in out.evidence)


def test_without_q_the_second_start_is_two_e1_for_one_step():
    """q = None, steps = 3: the second start is 2·e₁ = (2, 0, 0), run max(1, 3 // 3) = 1 step: its reported norm is
    ‖θ(1)‖ with θ(1) = mid(θ(0) − η∇L(θ(0))) (rerun here with the model), and its ‖∇L‖ item the gradient there."""
    from verify.kit.global_descent import step_size_p
    from verify.models.attention import norm2

    out, _, _ = _stationary(q_given=False, figure=False, steps=3)
    with working_precision(30):
        data, model, _, _ = _fig1a_model()
        eta, _ = step_size_p(data)
        th = [arb(2), arb(0), arb(0)]
        th = [arb((x - eta * g).mid()) for x, g in zip(th, model.grad(th))]
        [norm] = [e for e in out.evidence if e.quantity == "GD from p(0) = 2·e₁: ‖p(t)‖ at t = 1"]
        [grad] = [e for e in out.evidence if e.quantity == "GD from p(0) = 2·e₁: ‖∇L(p(t))‖ at t = 1"]
        assert abs(norm.value - norm2(th)) < 1e-25 and abs(grad.value - norm2(model.grad(th))) < 1e-25


# ----- the hypotheses on the data ------------------------------------------------------------------------------------
def test_tfsvm_hypotheses_with_tied_optimal_tokens_meet_nothing(monkeypatch):
    """Scores (1, 1, 0) (tokens 0 and 1 tied): "unique optimal tokens" is not met (detail "opt = {0,1}"), no W^mm is
    solved, so feasibility is not met (False, "opt tied") and neither is Assumption B (B.2 fails on the tie, B.1 is
    undefined without W^mm)."""
    from verify import Dataset
    from verify.kit.global_descent import tfsvm_hypotheses

    tied = Dataset.make(X=[[(1, 0, 1), (0, 1, 1), (0, 0, 0)]], Y=[1], v=[0, 0, 1], name="tied")
    with working_precision(30):
        hyps, feas, q, gaps = tfsvm_hypotheses(tied, "logistic", 30)
    assert (hyps[1].name, hyps[1].met, hyps[1].detail) == ("unique optimal tokens", False, "opt = {0,1}")
    assert feas.met is False and feas.detail == "opt tied" and q is None and gaps is None
    assert hyps[2].met is False and "B.1: not met (undefined (no W^mm))" in hyps[2].detail


def test_tfsvm_gaps_under_b1_only_are_each_sequences_smallest_score_gap(monkeypatch):
    """tfsvm-B1-only: scores (1, 0, 1/2), B.2 fails, B.1 holds → the gap is γ_opt − max_{t≠opt} γ_t = 1 − 1/2 = 1/2
    (exact). D-T2 (B.2): the common gaps 1 − 0 = 1 and 0 − (−2) = 2. The working precision reaches the SVM solve."""
    from fractions import Fraction

    from verify.data import tfsvm as T
    from verify.kit.global_descent import tfsvm_hypotheses

    asked = []
    real = G.gmm
    monkeypatch.setattr(G, "gmm", lambda data, param, dps: asked.append(dps) or real(data, param, dps))
    with working_precision(30):
        hyps, feas, q, gaps = tfsvm_hypotheses(T.b1_only(), "logistic", 25)
        assert feas.met is True and hyps[2].met is True and gaps == (Fraction(1, 2),)
        _, _, _, gaps = tfsvm_hypotheses(T.d_t2(), "logistic", 25)
    assert gaps == (Fraction(1), Fraction(2)) and asked == [25, 25]


def test_descent_hypotheses_solve_at_the_given_precision_and_name_w():
    """The SVM result comes back solved at the dps given (30, not the solver's default 60); for W the feasibility
    hypothesis is Att-SVM's ("W^mm exists"), on D-T2 (Assumption B holds there)."""
    from verify.data import mmts as M
    from verify.data import tfsvm as T
    from verify.kit.global_descent import descent_hypotheses

    with working_precision(30):
        _, _, res = descent_hypotheses(M.mmts_fig1a(), "p", "logistic", 30)
        assert res.dps == 30
        hyps, _, res = descent_hypotheses(T.d_t2(), "W", "logistic", 30)
    assert hyps[-1].name == "Att-SVM(opt) feasible (W^mm exists)" and hyps[-1].met is True and res is not None


def test_descent_probes_for_w_have_no_selection_rays():
    """W's probe directions carry no max-margin rays of other selections (those are ATT-SVM's, p only)."""
    from verify.data import mmts as M
    from verify.geometry.stationarity import gmm
    from verify.kit.global_descent import descent_probes

    data = M.mmts_fig1b()
    with working_precision(30):
        q = list(gmm(data, "W", 30).solution)
        dirs, _ = descent_probes(data, "W", q, ("1",), 2, 30)
    assert dirs and not any(label.startswith("max-margin direction of α") for label, _ in dirs)


# ----- GDLockstep: arb starts, one start, the projection on a q of norm 2, its Tally, its progress count -------------
def test_the_lockstep_takes_one_arb_start_and_counts_its_steps():
    """One start given as arb balls (1/2, −1, 0) on Fig. 1(b), q = (2, 0, 0) (‖q‖ = 2): the projection ⟨θ, q⟩/‖q‖
    is θ₁ (1/2 at t = 0), advanced to 2 then resumed to 4; the Tally's value is the smallest −η⟨∇L(θ(t)), q⟩ =
    −2η ∂₁L(θ(t)) over t = 0..3 (rerun here), named "t = k" where it is attained; the progress line counts each
    call's own steps (2 of 2, then 2 of 2) and never runs past its total."""
    from verify.claims.progress import progress_sink
    from verify.data import mmts as M
    from verify.kit.global_descent import GDLockstep, step_size_p
    from verify.models.attention import LinearLogitModel

    lines = []

    def show(text):
        lines.append(text)
        done, total = map(int, text.rsplit(" ", 1)[1].split("/"))
        assert done <= total, text

    data = M.mmts_fig1b()
    with working_precision(30), progress_sink(show):
        eta, _ = step_size_p(data)
        model = LinearLogitModel.from_dataset(data, "p", "logistic")
        start = [arb(1) / 2, arb(-1), arb(0)]
        lock = GDLockstep(model, [start], eta, q=(2, 0, 0))
        lock.advance((0, 2))
        [run] = lock.advance((4,))
        th, incs = list(start), []
        for t in range(5):
            if t in (0, 2, 4):
                assert abs(run.projections[run.steps.index(t)] - th[0]) < 1e-27
            g = model.grad(th)
            incs.append(-eta * 2 * g[0])
            th = [arb((x - eta * gx).mid()) for x, gx in zip(th, g)]
        incs = incs[:4]
        k = min(range(4), key=lambda j: incs[j].mid())
        assert run.steps == [0, 2, 4] and run.increase.coverage.points == 4
        assert abs(run.increase.worst_value - incs[k]) < 1e-27 and run.increase.coverage.worst_at == f"t = {k}"
    assert lines[0] == "GD steps 0/2" and lines[-1] == "GD steps 2/2" and "GD steps 2/2" in lines[:-1]
