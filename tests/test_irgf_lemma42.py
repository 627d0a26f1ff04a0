"""irgf.lemma42: inequalities (27)–(29) certified; divergence; D-DIAGINF (as printed) and a wrong constant fail."""
from lemmas.irgf import lemma42
from verify.claims import run_claim
from verify.data.irgf import d_diaginf, d_seed0, d_trap
from verify.numbers.precision import working_precision


def test_holds_on_defaults():
    v = run_claim(lemma42.CLAIM, lemma42.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS"
    assert v.certainty == "evidence"
    assert all(d.range.startswith("ln(‖β‖₁/p*) ≤ 10; init (5) with ω₀ = 𝟙; (27)–(29): β at ") for d in v.datasets)
    # (27) is compared with the flow's own dℒ/dt at every record, each point certified
    ident = [e for e in v.evidence if "dℒ/dt of the flow" in e.quantity]
    assert len(ident) == 2 and all(e.decide() is True and e.coverage.holds == e.coverage.points > 20 for e in ident)


def test_holds_without_assumption3():
    with working_precision(20) as prec:
        assert lemma42.evaluate(d_trap(), prec).decide() == "HOLDS"


def test_diaginf_not_applicable_names_diagsep():
    with working_precision(20) as prec:
        out = lemma42.evaluate(d_diaginf(), prec)
    assert out.decide() == "NOT_APPLICABLE"
    unmet = [h.name for h in out.hypotheses if not h.met]
    assert len(unmet) == 1 and "irgf.hyp.diagsep" in unmet[0]
    assert any("as printed" in n for n in out.notes) and any("replay" in n for n in out.notes)


def test_diaginf_as_printed_is_violated():
    """Assumptions 1, 2 and (5) hold, yet ∇_βℒ(0) = 0 exactly: a finite stationary point."""
    with working_precision(20) as prec:
        out = lemma42.evaluate(d_diaginf(), prec, check_hypotheses=False)
    assert out.decide() == "VIOLATED"
    assert out.evidence[0].decide() is False


def test_wrong_constant_is_violated():
    with working_precision(20) as prec:
        out = lemma42.evaluate(d_seed0(), prec, omega0=[1, 2, 1, 1], constant="max")
    assert out.decide() == "VIOLATED"
    with working_precision(20) as prec:
        assert lemma42.evaluate(d_seed0(), prec, omega0=[1, 2, 1, 1]).decide() == "HOLDS"


def test_formula_27_with_the_factor_2_dropped_is_violated():
    """The flow's dℒ/dt is −2Σ_j√(β_j²+ω₀,j⁴)(∂_jℒ)²; compared with −1·Σ… the relative deviation is
    (−2 − (−1))/(−1) = 1 exactly at every record: a wrong (27) is caught."""
    with working_precision(20) as prec:
        out = lemma42.evaluate(d_seed0(), prec, rate_factor=1)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    ident = next(e for e in out.evidence if "dℒ/dt of the flow" in e.quantity)
    assert ident.decide() is False and ident.coverage.violated == ident.coverage.points > 0
    assert abs(float(ident.value.mid()) - 1) < 1e-15
