"""irgf.rem.asm3: the remark's exact form agrees with Assumption 3 computed directly; large gaps imply it."""
import math
from fractions import Fraction

from lemmas.irgf import rem_asm3
from verify.claims import run_claim
from verify.data.irgf import d_a2viol, random_diag_dataset
from verify.numbers.precision import working_precision


def equal_gaps(gap, n=3, L=3):
    return random_diag_dataset(n=n, L=L, d=3, seed=1, gap=gap, name=f"equal-gaps-{gap}")


def test_defaults_hold_certified():
    v = run_claim(rem_asm3.CLAIM, rem_asm3.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "certified"
    assert all(d.range.startswith("gaps c·Δ for c ∈ {") for d in v.datasets)


def slack_of(data):
    with working_precision(30) as prec:
        out = rem_asm3.evaluate(data, prec)
    assert out.decide() == "HOLDS"
    return next(e for e in out.evidence if e.quantity.startswith("Assumption 3 directly")).value


def test_spec_examples_decided_like_the_exact_form():
    # n = L = 3, equal gaps: ℒ(0) = e^{−Δ/3}, bound (1 + 2e^{−Δ})/3 (independent closed form)
    for gap, holds in (("3", False), ("4", True)):
        s = slack_of(equal_gaps(gap))
        expected = (1 + 2 * math.exp(-int(gap))) / 3 - math.exp(-int(gap) / 3)
        assert (expected >= 0) is holds
        assert abs(float(s.mid()) - expected) < 1e-15
    assert float(slack_of(equal_gaps("3")).mid()) < 0  # 3e^{−1} = 1.1036 > 1 + 2e^{−3} = 1.0996
    # n = 2, L = 2, equal gaps: slack = (1 − e^{−Δ/2})²/2 ≥ 0 always
    for gap in ("1/10", "1", "5"):
        s = slack_of(equal_gaps(gap, n=2, L=2))
        dv = float(Fraction(gap))
        assert abs(float(s.mid()) - (1 - math.exp(-dv / 2)) ** 2 / 2) < 1e-15
    # n = 1: always (bound e^{−γ_nopt} ≥ ℒ(0))
    assert float(slack_of(equal_gaps("1/100", n=1, L=4)).mid()) > 0


def test_wrong_threshold_is_violated():
    """Without ln n the 'threshold' Δ ≥ L(max g − g_i) = 0 holds at c = 1 on n = L = 3, Δ = 3, where
    Assumption 3 fails (3e^{−1} > 1 + 2e^{−3})."""
    with working_precision(30) as prec:
        out = rem_asm3.evaluate(equal_gaps("3"), prec, threshold="no-log")
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    item = next(e for e in out.evidence if e.quantity.startswith("ℒ_c(θ(0))"))
    assert item.coverage.first_violation == "c = 1"


def test_assumption2_fails_not_applicable():
    with working_precision(30) as prec:
        out = rem_asm3.evaluate(d_a2viol(), prec)
    assert out.decide() == "NOT_APPLICABLE"
    assert [h.name for h in out.hypotheses if not h.met] == [h.name for h in out.hypotheses]
    assert "Assumption 2" in out.hypotheses[0].name
