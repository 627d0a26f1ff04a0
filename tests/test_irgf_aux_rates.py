"""irgf.aux.rates: the fitted rates agree with the derived ones on D-SEED0 (HOLDS); a wrong rate claimed for the
direction gap VIOLATED; a non-unique LP (D-FACE) and D-DIAGINF NOT_APPLICABLE."""
import math
from fractions import Fraction as F

from lemmas.irgf import aux_rates
from verify.data.irgf import d_diaginf, d_face, d_seed0
from verify.numbers.precision import working_precision

# spec §6 (D-SEED0): β* and Bλ* (reduced cost of coordinate 2: κ = 1 − 0.361043695308)
BETA_SPEC = (-0.227432915853, 0, -1.29284678222, -0.0750480597582)
KAPPA_SPEC = 1 - 0.361043695308


def _ev(out, start):
    return next(e for e in out.evidence if e.quantity.startswith(start))


def test_holds_on_seed0_against_the_spec_rates():
    with working_precision(20) as prec:
        out = aux_rates.evaluate(d_seed0(), prec)
    assert out.decide() == "HOLDS" and out.decision().certainty == "evidence"
    ruled = [e for e in out.evidence if (e.decided_by() or "").startswith("rule: matches")]
    assert len(ruled) == 6 and all(e.decide() is True for e in ruled)
    # c_ε = max_J₁ |ln(2|β*_j|/ω₀,j²)| with ω₀ = 𝟙, from the spec's β* (coordinates 1, 3, 4)
    c_eps = max(abs(math.log(2 * abs(b))) for b in BETA_SPEC if b)
    assert abs(c_eps - 1.897) < 1e-3  # the spec's predicted constant
    eps_ln = _ev(out, "(c) ε·ln µ")
    assert abs(float(eps_ln.value.mid()) - c_eps) < 0.01
    gap = _ev(out, "(b) exponent a of the direction gap")
    assert abs(gap.value - KAPPA_SPEC) < 0.05 and gap.value > KAPPA_SPEC  # spec: 0.68 → 0.644 → κ from above
    assert abs(_ev(out, "(a) exponent a of ε′").value - KAPPA_SPEC) < 0.01
    assert abs(float(_ev(out, "δ·ln µ").value.mid()) - 0.216) < 0.005  # spec ≈ 0.216


def test_a_wrong_direction_rate_is_violated():
    """The ℓ2-type rate 1 claimed for the gap: fitted ≈ 0.66 is ≥ 25 % off."""
    with working_precision(20) as prec:
        out = aux_rates.evaluate(d_seed0(), prec, direction_rate=1)
    assert out.decide() == "VIOLATED"
    bad = _ev(out, "(b) exponent a of the direction gap")
    assert bad.decide() is False and "not the derived rate" in bad.note


def test_derivation_hypothesis_and_diagsep_not_applicable():
    with working_precision(20) as prec:
        out = aux_rates.evaluate(d_face(), prec)
    assert out.decide() == "NOT_APPLICABLE"
    unmet = [h for h in out.hypotheses if not h.met]
    assert len(unmet) == 1 and "rates' derivation" in unmet[0].name and "not unique" in unmet[0].detail
    hyp = aux_rates.derivation_hypothesis(aux_rates.irgf.l1_svm(d_seed0()))
    assert hyp.met and abs(float(F(hyp.detail.split("κ = ")[1].split(";")[0])) - KAPPA_SPEC) < 1e-6
    with working_precision(20) as prec:
        out = aux_rates.evaluate(d_diaginf(), prec)
    assert out.decide() == "NOT_APPLICABLE" and any("irgf.hyp.diagsep" in h.name and not h.met for h in out.hypotheses)
