"""irgf.thm51: aligned init (5) → Ŵ(t) → W° (certified nuclear-optimal) at rate 1/µ; false cases."""
from lemmas.irgf import thm51
from verify.claims import run_claim
from verify.data.irgf import d_a4, d_a4_shift
from verify.numbers.precision import working_precision


def _ev(out, start):
    return next(e for e in out.evidence if e.quantity.startswith(start))


def test_d_a4_with_spec_numbers():
    with working_precision(20) as prec:
        out = thm51.evaluate(d_a4(), prec)
    assert out.decide() == "HOLDS"
    assert 0.8 < float(_ev(out, "fitted exponent").value.mid()) < 1.3  # DERIVED: O(1/µ)
    assert 0.3 < float(_ev(out, "µ(W(t)) ·").value.mid()) < 0.45  # spec: error × µ ≈ 0.38
    assert _ev(out, "t − Σλ").value == 0 and _ev(out, "β̃ of (42)").value is True


def test_defaults():
    v = run_claim(thm51.CLAIM, thm51.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"


def test_init5_broken_violated_and_not_applicable():
    """coefficient 0 at the used coordinate 1: β₁ ≡ 0, sequence 2 never separated, µ ≡ 0."""
    with working_precision(20) as prec:
        out = thm51.evaluate(d_a4(), prec, coef=["7/10", 0, "2/5"], target="30", check_hypotheses=False)
    assert out.decide() == "VIOLATED" and _ev(out, "µ(W(t))/‖W(t)‖_F").decide() is False
    with working_precision(20) as prec:
        out = thm51.evaluate(d_a4(), prec, coef=["7/10", 0, "2/5"])
    assert out.decide() == "NOT_APPLICABLE" and any("irgf.eq5" in h.name and not h.met for h in out.hypotheses)


def test_misaligned_and_broken_a4_not_applicable():
    with working_precision(20) as prec:
        out = thm51.evaluate(d_a4(), prec, misalign="1/10")
    assert out.decide() == "NOT_APPLICABLE"
    assert [h.name for h in out.hypotheses if not h.met][0].startswith("alignment (irgf.def51)")
    with working_precision(20) as prec:
        out = thm51.evaluate(d_a4_shift(), prec)
    assert out.decide() == "NOT_APPLICABLE"
    assert [h.name for h in out.hypotheses if not h.met][0].startswith("Assumption 4 (irgf.asm4)")


def test_assumption3_not_needed():
    """spec finding: D-A4 with v = (1, 1, 0) violates Assumption 3 and still converges to W°."""
    data = d_a4((1, 1, 0))
    with working_precision(20) as prec:
        out = thm51.evaluate(data, prec)
    assert out.decide() == "NOT_APPLICABLE" and any("irgf.asm3" in h.name and not h.met for h in out.hypotheses)
    with working_precision(20) as prec:
        out = thm51.evaluate(data, prec, check_hypotheses=False)
    assert out.decide() == "HOLDS"
