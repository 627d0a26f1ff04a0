"""irgf.prop.inf-loss: ℒ > L* at every probe point (certified), L* approached along R·W_sep and the flow;
equal scores make ℒ ≡ L*."""
import math

from lemmas.irgf import prop_inf_loss
from verify.claims import run_claim
from verify.data.dataset import Dataset
from verify.data.irgf import d_trap
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import to_arb, working_precision


def equal_scores():
    """Every token of every sequence scores 1 (v = e₃, third coordinate 1): ℒ ≡ L* = e^{−1}."""
    return Dataset.make(X=[[[1, 0, 1], [0, 2, 1]], [[-1, 1, 1], [2, 0, 1]]], Y=[1, 1], v=[0, 0, 1],
                        z=[[1, 0, 0], [1, 1, 0]], name="equal-scores")


def test_defaults_hold():
    v = run_claim(prop_inf_loss.CLAIM, prop_inf_loss.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"
    seed0 = v.datasets[0]
    assert seed0.range.startswith("ln(‖β‖₁/p*) ≤ 10; W at 127 probe points")  # the flow ran on D-SEED0 only
    probes = [e for e in v.evidence if e.quantity.startswith("(a)")]
    assert all(e.certified and e.coverage.holds == e.coverage.points > 70 for e in probes)


def test_excess_at_zero_matches_the_spec():
    """D-TRAP: ℒ(0) = (e^{−0.7} + e^{−0.1})/2 = 0.700711, L* = (e^{−1.4} + e^{−0.2})/2 = 0.532664 (spec §6)."""
    with working_precision(30):
        m = LinearLogitModel.from_dataset(d_trap(), "W", "exponential")
        ex = m.excess([to_arb(0)] * 9)
    expected = (math.exp(-0.7) + math.exp(-0.1)) / 2 - (math.exp(-1.4) + math.exp(-0.2)) / 2
    assert abs(float(ex.mid()) - expected) < 1e-15
    assert abs(expected - (0.700711 - 0.532664)) < 1e-6


def test_equal_scores_not_applicable():
    with working_precision(20) as prec:
        out = prop_inf_loss.evaluate(equal_scores(), prec)
    assert out.decide() == "NOT_APPLICABLE"
    assert any("below its maximum" in h.name for h in out.hypotheses if h.met is False)


def test_equal_scores_bypassed_is_violated():
    """ℒ ≡ L*: the cancellation-free excess is exactly 0 at every point, so (a) fails everywhere."""
    with working_precision(20) as prec:
        out = prop_inf_loss.evaluate(equal_scores(), prec, check_hypotheses=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    a = out.evidence[0]
    assert a.quantity.startswith("(a)") and a.coverage.violated == a.coverage.points > 0
