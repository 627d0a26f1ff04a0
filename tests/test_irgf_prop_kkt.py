"""irgf.prop.kkt: λ = φ/ln µ; residuals → 0 like 1/ln µ (spec constants); perturbed multipliers VIOLATED."""
from flint import arb

from lemmas.irgf import prop_kkt
from verify.claims import run_claim
from verify.data.irgf import d_diaginf, d_seed0, d_trap
from verify.numbers.precision import working_precision


def _ev(out, start):
    return next(e for e in out.evidence if e.quantity.startswith(start))


def test_holds_with_spec_rates():
    with working_precision(20) as prec:
        out = prop_kkt.evaluate(d_seed0(), prec)
    assert out.decide() == "HOLDS"
    eps_ln = float(_ev(out, "ε·ln µ").value.mid())
    pred = float(_ev(out, "predicted lim ε·ln µ").value.mid())
    assert abs(pred - 1.897) < 1e-3 and abs(eps_ln - pred) < 0.05  # spec: 1.88–1.90
    assert abs(float(_ev(out, "δ·ln µ").value.mid()) - 0.216) < 0.01


def test_run_claim_defaults():
    v = run_claim(prop_kkt.CLAIM, prop_kkt.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS"
    assert v.certainty == "evidence" and v.range == "ln(‖β‖₁/p*) ≤ 10; init (5) with ω₀ = 𝟙"
    rules_used = {e.decided_by() for e in v.evidence if e.decided_by() and e.decided_by().startswith("rule")}
    assert any(r.startswith("rule: extrapolates to 0") for r in rules_used)


def test_scaled_multipliers_violated():
    with working_precision(20) as prec:
        out = prop_kkt.evaluate(d_seed0(), prec, lam_transform=lambda lam: [arb("1.5") * x for x in lam])
    assert out.decide() == "VIOLATED"
    assert _ev(out, "ε: fitted limit").decide() is False  # ε stalls: Bλ → 1.5·g, |1.5 − 1| = 1/2 on J₁


def test_non_support_multiplier_violated():
    # pair (1,3) (column 1) is inactive at β* (margin 4.154): λ + 0.1 breaks complementary slackness
    with working_precision(20) as prec:
        out = prop_kkt.evaluate(d_seed0(), prec,
                                lam_transform=lambda lam: lam[:1] + [lam[1] + arb("0.1")] + lam[2:])
    assert out.decide() == "VIOLATED"
    assert _ev(out, "δ: fitted limit").decide() is False


def test_not_applicable_and_undefined_construction():
    with working_precision(20) as prec:
        out = prop_kkt.evaluate(d_diaginf(), prec)
        assert out.decide() == "NOT_APPLICABLE"
        assert any("irgf.hyp.diagsep" in h.name and not h.met for h in out.hypotheses)
        out = prop_kkt.evaluate(d_trap(), prec, omega0=["1/10"] * 3, target="5/2", check_hypotheses=False)
        assert out.decide() == "VIOLATED"  # µ(t) < 0: ln µ and λ undefined
