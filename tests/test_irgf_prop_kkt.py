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


def test_short_range_is_inconclusive_not_a_stall():
    """Issue 25: to ln(‖β‖₁/p*) = 3 (ln µ ≤ 3.17) the stationarity residual rises from 0.44 to 0.49 while β̂₄ settles
    (−0.22 → −0.10; its limit is β*₄ = −0.0750, so by (31) ε·ln µ → |ln(2·0.0750)| = 1.897 — the default run reaches
    1.896): the fit alone extrapolated a limit 0.47 and called it a stall. The drift of ln|β̂_j| on the support bounds
    the limit only to [−0.13, 1.05]: undecided, INCONCLUSIVE — and on the same short range a genuinely wrong
    multiplier (λ + 0.1 on the non-support pair (1,3), whose margin stays ≈ 4) is still a stall of δ: VIOLATED."""
    with working_precision(20) as prec:
        out = prop_kkt.evaluate(d_seed0(), prec, target="3")
        assert out.decide() == "INCONCLUSIVE"
        eps = _ev(out, "ε: fitted limit")
        assert eps.decide() is None and "range too short" in eps.note
        assert not any(e.decide() is False for e in out.evidence)
        bad = prop_kkt.evaluate(d_seed0(), prec, target="3",
                                lam_transform=lambda lam: lam[:1] + [lam[1] + arb("0.1")] + lam[2:])
    assert bad.decide() == "VIOLATED"
    assert _ev(bad, "δ: fitted limit").decide() is False
