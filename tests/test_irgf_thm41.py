"""irgf.thm41: HOLDS on the reference data (set, not point); false cases VIOLATED; hypotheses NOT_APPLICABLE."""
from lemmas.irgf import thm41
from verify.claims import run_claim
from verify.data.irgf import d_a2viol, d_diaginf, d_face, d_seed0, d_trap
from verify.numbers.precision import working_precision


def _ev(out, start):
    return next(e for e in out.evidence if e.quantity.startswith(start))


def test_holds_on_seed0_with_spec_numbers():
    with working_precision(20) as prec:
        out = thm41.evaluate(d_seed0(), prec)
    assert out.decide() == "HOLDS"
    a = _ev(out, "fitted exponent a")
    assert 0.5 < float(a.value.mid()) < 0.9  # spec: slopes → κ = 0.639
    assert float(_ev(out, "gap").value.mid()) < 4e-3  # spec: 1.8e-3 at ln µ = 8, 4.7e-4 at 10


def test_face_compared_as_a_set():
    """D-FACE: the solver returns the vertex (1,0,0), the flow converges to (1/2,1/2,0) ∈ F."""
    with working_precision(20) as prec:
        out = thm41.evaluate(d_face(), prec)
        res = thm41.irgf.l1_svm(d_face())
    assert list(res.solution) != [0.5, 0.5, 0] and res.unique is False
    assert out.decide() == "HOLDS"
    assert any("on the optimal face" in e.quantity for e in out.evidence)


def test_run_claim_defaults():
    v = run_claim(thm41.CLAIM, thm41.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS"
    assert v.stable_digits >= 8
    assert v.certainty == "evidence" and v.range == "ln(‖β‖₁/p*) ≤ 10; init (5) with ω₀ = 𝟙"
    assert not any(e.decided_by() == "rule: legacy override" for e in v.evidence) and not hasattr(v.evidence[0], "holds")
    trend = next(e for e in v.evidence if "→ 0 like µ^(−a)" in e.quantity)
    assert trend.decided_by().startswith("rule: decays") and trend.decide() is True and not trend.enclosed


def test_assumption3_removed_is_violated():
    """D-TRAP, ω₀ = 0.1: sequence 2 is trapped, µ(t) → −∞ (spec: β̂ → (−1/2, 0, 0))."""
    with working_precision(20) as prec:
        out = thm41.evaluate(d_trap(), prec, omega0=["1/10"] * 3, target="5/2", check_hypotheses=False)
    assert out.decide() == "VIOLATED"
    assert float(_ev(out, "µ(t)").value.mid()) < -10


def test_init5_violated_is_violated():
    """ω₀,3 = 0 on D-SEED0: ‖β̂‖₁ → 6.94 ≠ p*; the distance to the face plateaus."""
    with working_precision(20) as prec:
        out = thm41.evaluate(d_seed0(), prec, omega0=[1, 1, 0, 1], target="6", check_hypotheses=False)
    assert out.decide() == "VIOLATED"
    plateau = _ev(out, "dist(β/‖β‖₁, F/p*) → 0")
    assert plateau.decide() is False and "plateau" in plateau.note  # rules.decays: PLATEAU_EXPONENT
    with working_precision(20) as prec:
        out = thm41.evaluate(d_seed0(), prec, omega0=[1, 1, 0, 1], target="6")
    assert out.decide() == "NOT_APPLICABLE"
    assert any("irgf.eq5" in h.name and not h.met for h in out.hypotheses)


def test_diaginf_not_applicable_names_diagsep_and_violated_if_bypassed():
    with working_precision(20) as prec:
        out = thm41.evaluate(d_diaginf(), prec)
    assert out.decide() == "NOT_APPLICABLE"
    unmet = [h.name for h in out.hypotheses if not h.met]
    assert len(unmet) == 1 and "irgf.hyp.diagsep" in unmet[0]
    assert any("∇_βℒ(0) = 0 exactly" in n for n in out.notes)
    with working_precision(20) as prec:
        out = thm41.evaluate(d_diaginf(), prec, check_hypotheses=False)
    assert out.decide() == "VIOLATED"
    assert out.decision().certainty == "certified"  # ∇_βℒ(0) = 0 decided exactly


def test_other_hypotheses_not_applicable():
    v = run_claim(thm41.CLAIM, [d_trap()], dps=20)
    assert v.verdict == "NOT_APPLICABLE" and any("irgf.asm3" in h.name and not h.met for h in v.hypotheses)
    v = run_claim(thm41.CLAIM, [d_a2viol()], dps=20)
    assert v.verdict == "NOT_APPLICABLE" and any("irgf.asm2" in h.name and not h.met for h in v.hypotheses)
