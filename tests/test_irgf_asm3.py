"""irgf.asm3 (Assumption 3, small initial loss at init (5)): certified both ways; numbers from mpmath here."""
import mpmath as mp

from lemmas.irgf import asm3
from verify.claims import run_claim
from verify.data.irgf import d_a2viol, d_a4, d_seed0, d_trap
from verify.numbers.precision import working_precision


def _ev(out, start):
    return next(e for e in out.evidence if e.quantity.startswith(start))


def test_defaults_hold_certified():
    v = run_claim(asm3.CLAIM, asm3.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_seed0_slack_matches_the_spec():
    with working_precision(20) as prec:
        out = asm3.evaluate(d_seed0(), prec)
    assert out.decide() == "HOLDS"
    assert abs(float(_ev(out, "slack").value.mid()) - (0.345544 - 0.263597)) < 2e-6  # spec §6


def test_trap_violated_at_j2():
    mp.mp.dps = 30
    # scores (1.4, 0) and (0.2, 0): ℒ(0) = (e^−0.7 + e^−0.1)/2, b₂ = (1 + e^−1.4)/2 (sequence 2 on its non-optimal token)
    L0 = (mp.e ** mp.mpf("-0.7") + mp.e ** mp.mpf("-0.1")) / 2
    b2 = (1 + mp.e ** mp.mpf("-1.4")) / 2
    with working_precision(20) as prec:
        out = asm3.evaluate(d_trap(), prec)
    assert out.decide() == "VIOLATED"
    item = _ev(out, "ℒ(θ(0)) − b_j")
    assert item.decide() is False and item.coverage.violated == 1 and "j = 2" in item.coverage.first_violation
    assert abs(float(_ev(out, "slack").value.mid()) - float(b2 - L0)) < 1e-15


def test_a4_variant_violated():
    # spec: D-A4 with v = (1, 1, 0): 0.46226 > 0.45707
    with working_precision(20) as prec:
        out = asm3.evaluate(d_a4((1, 1, 0)), prec)
    assert out.decide() == "VIOLATED"
    assert abs(float(_ev(out, "slack").value.mid()) - (0.45707 - 0.46226)) < 1e-5


def test_not_applicable_without_assumption2():
    with working_precision(20) as prec:
        out = asm3.evaluate(d_a2viol(), prec)
    assert out.decide() == "NOT_APPLICABLE"
    assert any("Assumption 2 (irgf.asm2)" in h.name and h.met is False for h in out.hypotheses)
