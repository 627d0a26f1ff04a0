"""irgf.hyp.diagsep: the stated hypotheses do not imply diagonal separability (D-DIAGINF, exact)."""
from lemmas.irgf import hyp_diagsep
from verify.claims import REGISTRY, run_claim
from verify.data.irgf import d_diaginf, d_seed0, d_trap
from verify.kit import irgf
from verify.numbers.precision import working_precision


def test_defaults_report_the_gap():
    v = run_claim(hyp_diagsep.CLAIM, hyp_diagsep.default_datasets(), dps=20)
    assert v.verdict == "VIOLATED"
    assert {d.name: d.verdict for d in v.datasets} == {"D-SEED0": "HOLDS", "D-FACE": "HOLDS", "D-DIAGINF": "VIOLATED"}
    assert any("replay" in n and '"X"' in n for n in v.notes)


def test_diaginf_certificate_is_exact():
    res = irgf.l1_svm(d_diaginf())
    assert res.status == "infeasible"
    far = res.farkas
    assert far.passed and far.residual == 0 and far.rhs > 0 and all(x >= 0 for x in far.lam)
    assert irgf.assumption1(d_diaginf())[0]  # full-W separable


def test_seed0_holds_and_trap_premise_fails():
    with working_precision(20) as prec:
        assert hyp_diagsep.evaluate(d_seed0(), prec).decide() == "HOLDS"
        out = hyp_diagsep.evaluate(d_trap(), prec)
    assert out.decide() == "NOT_APPLICABLE"


def test_aliases():
    claim, _ = REGISTRY.resolve("diagonal-separability")
    assert claim.id == "irgf.hyp.diagsep"
    for cid in ("irgf.thm41", "irgf.thm41.loss", "irgf.prop.kkt", "irgf.lemma41", "irgf.lemma42", "irgf.hyp.diagsep"):
        c = REGISTRY.claims[cid]
        assert any(REGISTRY.aliases[a] == [cid] for a in c.aliases), cid
