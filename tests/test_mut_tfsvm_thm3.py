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
