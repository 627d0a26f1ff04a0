"""tfsvm.thm3 datasets (mutation tests): each built-in dataset is the documented one, checked by what the
docstrings derive from it — D-T2's W^mm = [[1/2, −3/2], [1/2, −3/2]], B1-only's scores and its W^mm derived
here by hand, D-STAT infeasible with ∇L(0) = 0 exactly; the defaults follow ``--seed``; evaluate's two
hypothesis modes."""
from fractions import Fraction as F

from lemmas.tfsvm import thm3 as m
from verify.data.tfsvm import d_stat
from verify.geometry.stationarity import exact_gradient_at_zero, feasible_assumption_b_dataset
from verify.svm import solve_svm


def _margins(res):
    return [sum(a * b for a, b in zip(row, res.solution)) for row in res.problem.rows]


def test_d_t2_is_the_documented_dataset():
    d = m.d_t2()
    assert d.name == "tfsvm-D-T2" and (d.n, d.T, d.d) == (2, 2, 2)
    assert [list(s) for s in d.scores] == [[1, 0], [-2, 0]]  # y_i vᵀx_il with v = e₂, y = (1, −1)
    res = solve_svm(d, "W", dps=30, check_unique=False)
    assert res.status == "optimal"
    assert list(res.solution) == [F(1, 2), F(-3, 2), F(1, 2), F(-3, 2)]
    assert _margins(res) == [1, 1]  # both constraints tight (B.1)


def test_b1_only_is_the_documented_dataset():
    """One sequence, z = x_opt = (1, 1, 1), a₁ = x_opt − x₁ = (1, 0, 1), a₂ = x_opt − x₂ = (0, 1, 1/2).
    W^mm = (λ₁a₁ + λ₂a₂)zᵀ with 3[2λ₁ + λ₂/2] = 1 and 3[λ₁/2 + 5λ₂/4] = 1: λ = (1/9, 2/9), both > 0
    (both constraints tight: B.1), Σλa = (1/9, 2/9, 2/9)."""
    d = m.b1_only()
    assert d.name == "tfsvm-B1-only" and (d.n, d.T, d.d) == (1, 3, 3)
    assert list(d.scores[0]) == [1, 0, F(1, 2)]
    res = solve_svm(d, "W", dps=30, check_unique=False)
    w = [F(1, 9)] * 3 + [F(2, 9)] * 6
    assert res.status == "optimal" and list(res.solution) == w and _margins(res) == [1, 1]


def test_d_stat_is_infeasible_with_zero_gradient():
    d = d_stat()
    assert d.name == "tfsvm-D-STAT" and (d.n, d.T, d.d) == (2, 2, 1)
    assert [list(s) for s in d.scores] == [[1, 0], [1, 0]]
    assert solve_svm(d, "W", dps=30, check_unique=False).status == "infeasible"
    assert exact_gradient_at_zero(d, "W")[0] is True


def test_default_datasets_follow_the_seed():
    for seed in (0, 3):
        got = m.default_datasets(seed)
        want = [m.d_t2(), m.b1_only(), feasible_assumption_b_dataset(n=2, T=3, d=3, seed=seed, param="W")]
        assert [g.to_json() for g in got] == [w.to_json() for w in want]
        assert (got[2].n, got[2].T, got[2].d) == (2, 3, 3)
    assert [g.to_json() for g in m.default_datasets()] == [g.to_json() for g in m.default_datasets(0)]


# ----- evaluate: the hypotheses in both modes, the notes ---------------------------------------------
from verify.data.dataset import Dataset  # noqa: E402
from verify.kit.global_descent import step_size_W, tfsvm_hypotheses  # noqa: E402
from verify.numbers.precision import working_precision  # noqa: E402


def _infeasible_moving():
    """Two sequences with opposite constraints (Att-SVM infeasible) but different scores (2, 0) and (1, 0):
    ∇L(0) ≠ 0 (the mean scores differ)."""
    return Dataset.make(X=[[[2], [0]], [[1], [0]]], Y=[1, 1], v=[1], z=[[1], [-2]], name="infeasible-moving")


def test_printed_statement_mode_and_the_zero_gradient_note():
    d = d_stat()
    with working_precision(15) as prec:
        hyps, feasible, _, _ = tfsvm_hypotheses(d, "logistic", prec.dps)
        assert feasible.met is False and hyps[1].met and hyps[2].met  # B.2 holds, W^mm does not exist
        out = m.evaluate(d, prec)
        assert out.decide() == "NOT_APPLICABLE"
        assert [h.name for h in out.hypotheses] == [h.name for h in hyps] + [feasible.name, step_size_W(d)[1].name]
        assert "without W^mm the conclusion fails here: ∇L(0) = 0 exactly (uniform attention)" in out.notes
        loose = m.evaluate(d, prec, require_feasible=False, lengths=(30,), figure=False)
        assert [h.name for h in loose.hypotheses] == [h.name for h in hyps] + [step_size_W(d)[1].name]
        assert loose.notes[0] == "hypothesis 'W^mm exists' NOT enforced (the printed statement): not met"
        assert loose.range == "k ≤ 30 GD steps (η = 1/L_W) from 2 starts"  # no W^mm: no ray start
        ok = m.evaluate(m.d_t2(), prec, require_feasible=False, lengths=(30,), figure=False)
        assert ok.notes[0] == "hypothesis 'W^mm exists' NOT enforced (the printed statement): met"
        assert ok.range == "k ≤ 30 GD steps (η = 1/L_W) from 3 starts"
        h2, f2, _, _ = tfsvm_hypotheses(m.d_t2(), "logistic", prec.dps)
        assert [h.name for h in ok.hypotheses] == [h.name for h in h2] + [step_size_W(m.d_t2())[1].name]
        mv = _infeasible_moving()
        hm, fm, _, _ = tfsvm_hypotheses(mv, "logistic", prec.dps)
        assert fm.met is False
        out = m.evaluate(mv, prec)
        assert out.decide() == "NOT_APPLICABLE" and not any("∇L(0) = 0" in n for n in out.notes)


def test_exponential_loss_reaches_the_step_size():
    """The loss argument reaches the step size: η = 1/L_W of the exponential loss (M₀ = M₁ = e^B)."""
    d = m.d_t2()
    with working_precision(20) as prec:
        out = m.evaluate(d, prec, lengths=(20,), loss="exponential", figure=True)
    step = step_size_W(d, "exponential")[1]
    assert out.hypotheses[-1].detail == step.detail != step_size_W(d, "logistic")[1].detail
    assert step.detail in out.notes and len(out.figures) == 2


# ----- evaluate with the GD engine replaced by a recorder (fast) ----------------------------------------
import random  # noqa: E402
from types import SimpleNamespace  # noqa: E402

import mpmath  # noqa: E402
from flint import arb  # noqa: E402

from verify.claims import Evidence  # noqa: E402
from verify.kit.global_descent import GDRun  # noqa: E402
from verify.numbers.precision import to_arb  # noqa: E402

#: c(R) handed out by the ball-bound stand-in, per radius
C_OF_R = {"1": F(1, 2), "10": F(1, 8)}


def _stat3():
    """One-dimensional, both sequences with scores (1, 0, −1) (unique opt, non-optimal scores 0 ≠ −1: B.2 fails),
    queries 1 and −1: Att-SVM asks w ≥ 1 and −w ≥ 1 (infeasible, so B.1 is undefined: Assumption B fails).
    At W = 0 both sequences have the same mean score 0 and Σ_t (γ_it − 0) x_it z_i = (1 + 1)·z_i = ±2 cancel:
    ∇L(0) = 0 exactly."""
    return Dataset.make(X=[[[1], [0], [-1]], [[1], [0], [-1]]], Y=[1, 1], v=[1], z=[[1], [-1]], name="stat3")


class FakeGD:
    """Stands in for ``gd_limits_until_decided``: records its arguments; start k's run has losses (L0_k, 7, 8),
    selected tokens ((k,), (k + 5,), (k + 1,)) at its three checkpoints, and two informative items."""

    def __init__(self):
        self.calls = []

    def __call__(self, model, starts, eta, q=None, **kw):
        self.calls.append(SimpleNamespace(model=model, starts=starts, eta=eta, q=q, kw=kw))
        runs, items = [], []
        for k, _ in enumerate(starts):
            run = GDRun(eta=eta, steps=[0, 5, 10], norms=[arb(1), arb(2), arb(3)],
                        grad_norms=[arb(1), arb("0.5"), arb("0.25")], losses=[self.loss0(k), arb(7), arb(8)],
                        selected=[(k,), (k + 5,), (k + 1,)])
            runs.append(run)
            items.append((Evidence("‖∇L‖ → 0", arb(1)), Evidence("‖W‖ → ∞", arb(2))))
        return runs, items, 10

    @staticmethod
    def loss0(k):
        """L(W(0)) − L⋆ of start k: 3/4 ± 1/1000 for start 0 (a ball: its upper end differs from its lower end),
        5 for the others."""
        return arb("0.75", "0.001") if k == 0 else arb(5)


def _fake(monkeypatch):
    gd, bounds = FakeGD(), []

    def bound(model, q, R, gaps):
        bounds.append((model, q, R, gaps))
        return to_arb(C_OF_R[R])
    monkeypatch.setattr(m, "gd_limits_until_decided", gd)
    monkeypatch.setattr(m, "ball_lower_bound", bound)
    gd.stationary = []
    monkeypatch.setattr(m, "no_stationary_evidence", lambda *a, **k: gd.stationary.append((a, k)))
    return gd, bounds


def test_what_evaluate_hands_the_gd_engine(monkeypatch):
    """D-T2 (q = W^mm exact, gaps from B.1; part (1) replaced by a recorder too): the three starts (0, random at the seed, the LMM ray) as ``starts``
    builds them, η = 1/L_W, q = W^mm, the lengths, the working dps, a ball bound that is c(R) of
    ``ball_lower_bound(model, q, R, gaps)``, the projection Tally only for the start at 0; the model carries the
    loss asked for."""
    gd, bounds = _fake(monkeypatch)
    d = m.d_t2()
    with working_precision(30) as prec:
        hyps, feasible, q, gaps = tfsvm_hypotheses(d, "exponential", prec.dps)
        out = m.evaluate(d, prec, lengths=(11, 22), loss="exponential", seed=5)
        want = m.starts(d, q, prec.dps, 5)
        eta = step_size_W(d, "exponential")[0]
    (call,) = gd.calls
    assert call.starts == [w for _, w in want] and call.q == q == [F(1, 2), F(-3, 2), F(1, 2), F(-3, 2)]
    assert call.eta.mid() == eta.mid() and call.eta.rad() == eta.rad()
    assert call.model.loss.name == "exponential"
    assert gd.stationary == [((out, d, call.model, "W", q, gaps), {"symbol": "W"})]  # part (1): its own tests
    assert call.kw["lengths"] == (11, 22) and call.kw["dps"] == 30 and call.kw["tally"] == [True, False, False]
    with working_precision(30):
        assert call.kw["ball_bound"]("10") == to_arb(C_OF_R["10"])
    assert [b[2] for b in bounds] == ["1", "10", "10"] and bounds[-1] == (call.model, q, "10", gaps) and gaps == (1, 2)
    assert out.range == "k ≤ 10 GD steps (η = 1/L_W) from 3 starts"
    assert "random (seed 5, entries in [−1, 1])" in out.covers[-1]


def test_selected_tokens_and_the_descent_lemma_step_bound(monkeypatch):
    """Per start the tokens selected at the LAST checkpoint (the recorder's (k + 1,)); the certified step count in
    ‖W‖ ≤ R is the upper end of 2(L(W(0)) − L⋆)/(η c(R)²) of the run from 0 (its first loss, a ball 3/4 ± 10⁻³):
    compared with mpmath interval arithmetic on the same inputs (η: the ends of its ball)."""
    gd, _ = _fake(monkeypatch)
    d = m.d_t2()
    with working_precision(30) as prec:
        out = m.evaluate(d, prec, lengths=(10,))
        eta = gd.calls[0].eta
    sel = [e for e in out.evidence if "tokens selected" in e.quantity]
    assert [e.value for e in sel] == ["(1,)", "(2,)", "(3,)"]  # the last checkpoint's, not the second
    eta_iv = mpmath.iv.mpf([eta.lower().str(40, radius=False), eta.upper().str(40, radius=False)])
    mpmath.iv.dps = mpmath.mp.dps = 40
    for R, c in C_OF_R.items():
        (item,) = [e for e in out.evidence if e.quantity.endswith(f"steps with ‖W(k)‖_F ≤ {R}")]
        want = 2 * mpmath.iv.mpf(["0.749", "0.751"]) / (eta_iv * (mpmath.iv.mpf(c.numerator) / c.denominator) ** 2)
        got = mpmath.mpf(item.value.mid().str(40, radius=False))  # arb radii carry 30 bits: 10⁻⁸ relative
        assert abs(got - want.b) < mpmath.mpf(10) ** -8 * want.b and got > want.a * (1 + mpmath.mpf(10) ** -5)


def test_defaults_seed_zero_and_a_figure(monkeypatch):
    """Without options: the random start uses seed 0 (entries k/10, k = random.Random(0).randint(−10, 10) drawn
    d² times, as the docstring says) and the two figures are drawn."""
    gd, _ = _fake(monkeypatch)
    d = m.d_t2()
    with working_precision(30) as prec:
        out = m.evaluate(d, prec)
    rng = random.Random(0)
    assert gd.calls[0].starts[1] == tuple(F(rng.randint(-10, 10), 10) for _ in range(4))
    assert gd.calls[0].kw["lengths"] == m.LENGTHS == (5000, 10000, 20000)
    assert "random (seed 0, entries in [−1, 1])" in out.covers[-1] and len(out.figures) == 2


def test_starts_random_entries_seed_and_ray_scaling(monkeypatch):
    """``starts``: 0; entries k/10 with k uniform in −10 … 10 from random.Random(seed) (seed 0 by default); the LMM
    enumeration asked at the given dps with the limit 64 (T^n ≤ 64); the ray start c·w with c the best rational
    approximation of 3/‖w‖ with denominator ≤ 1000, found here by brute force over the denominators
    (w = (13, 7, 5, 2)/13: ‖w‖² = 247/169 = 19/13 — a case where denominators up to 1001 would give another c)."""
    calls = []
    w = (F(1), F(7, 13), F(5, 13), F(2, 13))

    def lmm(data, dps, limit):
        calls.append((dps, limit))
        return [((1, 0), w)]
    monkeypatch.setattr(m, "lmm_directions", lmm)
    d = m.d_t2()
    got = m.starts(d, [1, 0, 0, 0], 17)
    assert calls == [(17, 64)]
    for seed in (0, 4, 12):  # seed 12 draws a 21 from getrandbits(5) (rejected: k ≤ 10)
        rng = random.Random(seed)
        want = tuple(F(rng.randint(-10, 10), 10) for _ in range(4))
        assert m.starts(d, None, 17, seed)[1] == (f"random (seed {seed}, entries in [−1, 1])", want)
    assert got[1] == m.starts(d, None, 17, 0)[1]
    mpmath.mp.dps = 30
    target = 3 / mpmath.sqrt(mpmath.mpf(19) / 13)

    def best(qmax):
        return min((F(int(mpmath.nint(target * q)), q) for q in range(1, qmax + 1)),
                   key=lambda f: (abs(mpmath.mpf(f.numerator) / f.denominator - target), f.denominator))
    c = best(1000)
    assert best(1001) != c
    assert got[2] == ("3·Ŵ^mm_α, LMM ray α = (1, 0)", tuple(c * x for x in w))
    monkeypatch.setattr(m, "lmm_directions", lambda data, dps, limit: [])
    assert m.starts(d, [1, 0, 0, 0], 17)[2][0] == "3·Ŵ^mm (GMM ray: no other locally-optimal α)"


def test_notes_when_w_mm_is_missing(monkeypatch):
    """stat3 (W^mm missing, B fails, unique opt, ∇L(0) = 0): in the printed-statement mode the note says both are
    unmet; in the required mode the zero-gradient note is given whether or not B holds (it needs unique optimal
    tokens: the statement's hypothesis, not B)."""
    _fake(monkeypatch)
    d = _stat3()
    with working_precision(30) as prec:
        hyps, feasible, q, _ = tfsvm_hypotheses(d, "logistic", prec.dps)
        assert hyps[1].met and hyps[2].met is False and feasible.met is False and q is None
        assert exact_gradient_at_zero(d, "W")[0] is True
        loose = m.evaluate(d, prec, require_feasible=False)
        strict = m.evaluate(d, prec)
    assert loose.notes[0] == ("hypothesis 'W^mm exists' NOT enforced (the printed statement): not met; "
                              "Assumption B not met either (B.2 and B.1 both fail)")
    assert "without W^mm the conclusion fails here: ∇L(0) = 0 exactly (uniform attention)" in strict.notes


def test_printed_statement_mode_keeps_assumption_b(monkeypatch):
    """stat3: the printed statement assumes B, which fails there → NOT_APPLICABLE naming it even with
    ``require_feasible=False`` (before the fix B was dropped when unmet, and the check answered VIOLATED, certified,
    for a statement whose hypotheses fail); the engine is not run."""
    gd, _ = _fake(monkeypatch)
    d = _stat3()
    with working_precision(30) as prec:
        hyps, _, _, _ = tfsvm_hypotheses(d, "logistic", prec.dps)
        loose = m.evaluate(d, prec, require_feasible=False)
    assert loose.decide() == "NOT_APPLICABLE" and gd.calls == []
    assert [h.name for h in loose.hypotheses] == [h.name for h in hyps] + [step_size_W(d)[1].name]
    assert [h.name for h in loose.hypotheses if h.met is False] == [hyps[2].name]
