"""irgf.thm41.loss: HOLDS on reference data; the trap (Assumption 3 removed) and D-DIAGINF are VIOLATED."""
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
    assert run_claim(thm41_loss.CLAIM, thm41_loss.default_datasets(), dps=20).verdict == "HOLDS"


def test_trap_is_violated_and_not_applicable():
    with working_precision(20) as prec:
        out = thm41_loss.evaluate(d_trap(), prec, omega0=["1/10"] * 3, target="5/2", check_hypotheses=False)
    assert out.decide() == "VIOLATED"
    off = next(e for e in out.evidence if e.quantity.startswith("max_i (1 − σ_opt"))
    assert off.decide() is False  # sequence 2 attends to its non-optimal token
    with working_precision(20) as prec:
        out = thm41_loss.evaluate(d_trap(), prec, omega0=["1/10"] * 3)
    assert out.decide() == "NOT_APPLICABLE"


def test_diaginf():
    with working_precision(20) as prec:
        assert thm41_loss.evaluate(d_diaginf(), prec).decide() == "NOT_APPLICABLE"
        assert thm41_loss.evaluate(d_diaginf(), prec, check_hypotheses=False).decide() == "VIOLATED"
