"""mmts.thm2.stationary / tfsvm.thm3.stationary (no finite stationary point, norm diverges): HOLDS on the
defaults; data without a feasible max-margin SVM has ∇ = 0 at 0 exactly — NOT_APPLICABLE naming the
hypothesis, VIOLATED when the hypothesis is switched off."""
from fractions import Fraction

from flint import arb

from lemmas.mmts import thm2_stationary as mstat
from verify.claims import REGISTRY, run_claim
from verify.data import mmts as D
from verify.data.generators import random_dataset
from verify.geometry.stationarity import ball_lower_bound, exact_gradient_at_zero, gmm
from verify.kit.stationarity import divergence_evidence, gd_checkpoints, step_size_p
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


# ----- tfsvm.thm3.stationary --------------------------------------------------------------------
from lemmas.tfsvm import thm3_stationary as tstat  # noqa: E402


def test_tfsvm_holds_on_defaults():
    with working_precision(30) as prec:
        for data in tstat.CLAIM.default_datasets():
            out = tstat.evaluate(data, prec, steps=300, figure=False)
            assert out.decide() == "HOLDS", (data.name, [(e.quantity, e.decide()) for e in out.evidence])
            assert out.decision().certainty == "evidence" and out.range == "t ≤ 300 GD steps"
            assert "step size η ≤ 1/L_W" in out.hypotheses[-1].name and out.hypotheses[-1].met is True


def test_tfsvm_b1_only_uses_b1():
    with working_precision(30) as prec:
        out = tstat.evaluate(tstat.b1_only(), prec, steps=100, figure=False)
    hB = [h for h in out.hypotheses if h.name.startswith("Assumption B")][0]
    assert hB.met and "B.1: met" in hB.detail and "B.2: not met" in hB.detail
    assert out.decide() == "HOLDS"


def test_tfsvm_dstat_not_applicable_and_violated_without_feasibility():
    v = run_claim(tstat.CLAIM, [tstat.d_stat()], dps=30)
    assert v.verdict == "NOT_APPLICABLE"
    failed = [h for h in v.hypotheses if not h.met]
    assert len(failed) == 1 and "W^mm exists" in failed[0].name
    with working_precision(30) as prec:
        out = tstat.evaluate(tstat.d_stat(), prec, require_feasible=False, steps=200, figure=False)
    assert out.decide() == "VIOLATED"
    assert exact_gradient_at_zero(tstat.d_stat(), "W")[0]


def test_tfsvm_no_B_not_applicable():
    # D-NB of the spec: γ = (1, 0.9, 0.18): neither B.1 nor B.2
    dnb = random_dataset(n=1, T=3, d=2, seed=0)  # placeholder shape; replaced below
    dnb = dnb.replace(X=[[[0, 1], [-5, 0], [-1, 0]]], Y=[1], v=["-0.18", 1], z=[[1, 0]], name="D-NB")
    v = run_claim(tstat.CLAIM, [dnb], dps=30)
    assert v.verdict == "NOT_APPLICABLE"
    assert any(h.name.startswith("Assumption B") and not h.met for h in v.hypotheses)


def test_tfsvm_alias_distinct_from_mmts():
    assert REGISTRY.resolve("no-stationary-points-W")[0].id == "tfsvm.thm3.stationary"
