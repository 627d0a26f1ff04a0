"""mmts.thm2.stationary (no finite stationary point, norm diverges): HOLDS on the defaults; data without a
feasible max-margin SVM has ∇ = 0 at 0 exactly — NOT_APPLICABLE naming the hypothesis, VIOLATED when the
hypothesis is switched off. (tfsvm Theorem 3, on the same kit: tests/test_tfsvm_thm3.py.)"""
from fractions import Fraction

from flint import arb

from lemmas.mmts import thm2_stationary as mstat
from verify.claims import REGISTRY, run_claim
from verify.data import mmts as D
from verify.geometry.stationarity import ball_lower_bound, exact_gradient_at_zero, gmm
from verify.kit.global_descent import divergence_evidence, gd_checkpoints, step_size_p
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import working_precision


def test_mmts_holds_on_defaults():
    datasets = mstat.CLAIM.default_datasets()
    with working_precision(30) as prec:
        for data in datasets:
            out = mstat.evaluate(data, prec, steps=300, figure=False)
            assert out.decide() == "HOLDS", (data.name, [(e.quantity, e.decide()) for e in out.evidence])
            assert out.decision().certainty == "evidence" and out.range == "t ≤ 300 GD steps"
            assert [h.met for h in out.hypotheses] == [True] * 4 and "step size" in out.hypotheses[-1].name
            deciding = [e for e in out.evidence if not e.informative]
            # (i): the probe Tally and the ball bounds are certified; (ii): per-step Tallys and the rule
            assert deciding[0].coverage.points > 50 and all(e.certified for e in deciding[:5])
            steps = [e for e in deciding if "min over" in e.quantity and "steps" in e.quantity]
            assert [e.coverage.points for e in steps] == [300, 100]
            assert [e.decided_by() for e in deciding if "→ ∞" in e.quantity] == ["rule: diverges (exponent > 1/2)"]


def test_mmts_infeasible_not_applicable_names_feasibility():
    v = run_claim(mstat.CLAIM, [D.mmts_infeasible_B()], dps=30)
    assert v.verdict == "NOT_APPLICABLE"
    failed = [h for h in v.hypotheses if not h.met]
    assert len(failed) == 1 and "ATT-SVM(opt) feasible" in failed[0].name
    assert any("∇L(0) = 0 exactly" in n for n in v.notes)


def test_mmts_infeasible_without_hypothesis_violated():
    with working_precision(30) as prec:
        out = mstat.evaluate(D.mmts_infeasible_B(), prec, require_feasible=False, steps=200, figure=False)
    assert out.decide() == "VIOLATED"
    zero = out.evidence[0]
    assert zero.value == 0 and zero.decide() is False


def test_gradient_at_zero_is_exactly_zero_and_gd_stays():
    data = D.mmts_infeasible_B()
    assert exact_gradient_at_zero(data, "p")[0]
    with working_precision(30):
        m = LinearLogitModel.from_dataset(data, "p")
        run = gd_checkpoints(m, (2, 0, 0), arb(1) / 20, [0, 2000])
    # GD from 2·e₁ falls back towards the stationary point 0 (bounded, not diverging)
    assert run.norms[-1] < run.norms[0] / 2


def test_the_ii_items_can_fail():
    """The per-step projection Tally fails against a wrong direction, and the divergence rule fails
    where GD falls back to a finite stationary point (no feasible SVM: ∇L(0) = 0)."""
    data = D.mmts_fig1a()
    with working_precision(30):
        q = gmm(data, "p", 30).solution
        m = LinearLogitModel.from_dataset(data, "p")
        eta, _ = step_size_p(data)
        run = gd_checkpoints(m, (0, 0, 0), eta, [0, 50], q=[-x for x in q])
        assert run.increase.evidence().decide() is False and run.increase.coverage.violated == 50
        back = gd_checkpoints(LinearLogitModel.from_dataset(D.mmts_infeasible_B(), "p"), (2, 0, 0), arb(1) / 20,
                              [0, 10, 30, 100, 300, 1000, 2000])
        assert divergence_evidence(back, "‖p(t)‖ → ∞").decide() is False


def test_feasible_data_has_nonzero_gradient_at_zero():
    assert not exact_gradient_at_zero(D.mmts_fig1a(), "p")[0]


def test_ball_bound_is_a_lower_bound_at_probe_points():
    """c(R) ≤ ‖∇L(p)‖ at sampled points of the ball (the certified bound is not above the truth)."""
    data = D.mmts_fig1a()
    with working_precision(30):
        q = gmm(data, "p", 30).solution
        m = LinearLogitModel.from_dataset(data, "p")
        B = [Fraction(1, 10)]
        for R in (1, 3):
            c = ball_lower_bound(m, q, R, B)
            for p in [(R, 0, 0), (0, -R, 0), (Fraction(-R, 2), Fraction(R, 2), 0), (0, 0, 0)]:
                g = m.grad([arb(Fraction(x).numerator) / Fraction(x).denominator for x in p])
                assert c <= sum((x * x for x in g), arb(0)).sqrt()


def test_aliases_resolve():
    assert REGISTRY.resolve("no-finite-stationary-points")[0].id == "mmts.thm2.stationary"
