"""irgf.thm41.loss: HOLDS on reference data; the trap (Assumption 3 removed) and D-DIAGINF are VIOLATED."""
from flint import arb

from lemmas.irgf import thm41_loss
from verify.claims import run_claim
from verify.data.irgf import d_diaginf, d_seed0, d_trap
from verify.numbers.precision import working_precision


def test_holds_and_excess_like_exp_minus_mu():
    with working_precision(20) as prec:
        out = thm41_loss.evaluate(d_seed0(), prec)
    assert out.decide() == "HOLDS"
    r = next(e for e in out.evidence if e.quantity.startswith("ln(ℒ − L*)/µ"))
    assert abs(float(r.value.mid()) + 1) < 0.01


def test_run_claim_defaults():
    v = run_claim(thm41_loss.CLAIM, thm41_loss.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS"
    assert v.certainty == "evidence" and v.range == "ln(‖β‖₁/p*) ≤ 10; init (5) with ω₀ = 𝟙"
    assert {e.decided_by() for e in v.evidence if e.quantity.endswith("→ 0 (value: at the last record)")} == \
        {"rule: vanishes (≤ 1e-10 of its reference)"}


def test_trap_is_violated_and_not_applicable():
    with working_precision(20) as prec:
        out = thm41_loss.evaluate(d_trap(), prec, omega0=["1/10"] * 3, target="5/2", check_hypotheses=False)
    assert out.decide() == "VIOLATED"
    off = next(e for e in out.evidence if e.quantity.startswith("max_i (1 − σ_opt"))
    assert off.decide() is False  # sequence 2 attends to its non-optimal token
    # ℒ → (e^{−1.4} + 1)/2 = 0.623298 > L* = (e^{−1.4} + e^{−0.2})/2: the excess stalls near 0.0906
    lim = (arb("-1.4").exp() + 1) / 2 - (arb("-1.4").exp() + arb("-0.2").exp()) / 2
    exc = next(e for e in out.evidence if e.quantity.startswith("ℒ − L* → 0"))
    assert exc.decide() is False and abs(exc.value - lim) < arb("0.01")
    with working_precision(20) as prec:
        out = thm41_loss.evaluate(d_trap(), prec, omega0=["1/10"] * 3)
    assert out.decide() == "NOT_APPLICABLE"


def test_diaginf():
    with working_precision(20) as prec:
        assert thm41_loss.evaluate(d_diaginf(), prec).decide() == "NOT_APPLICABLE"
        assert thm41_loss.evaluate(d_diaginf(), prec, check_hypotheses=False).decide() == "VIOLATED"
