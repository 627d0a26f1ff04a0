"""irgf.lemma42: inequalities (27)–(29) certified; divergence; D-DIAGINF (as printed) and a wrong constant fail."""
from lemmas.irgf import lemma42
from verify.claims import run_claim
from verify.data.irgf import d_diaginf, d_seed0, d_trap
from verify.numbers.precision import working_precision


def test_holds_on_defaults():
    assert run_claim(lemma42.CLAIM, lemma42.default_datasets(), dps=20).verdict == "HOLDS"


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
