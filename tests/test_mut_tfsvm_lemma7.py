"""tfsvm.lemma7 (mutation tests): the number of seeded V's (``v_count``, default 3) reaches the scan, and the
coverage text names what was probed — W along seeded directions and ± the sequence's *feature* differences (the W
form, not the key form), ‖W‖∞ over the probe scales, and "V ∈ k seeded directions" when the hardest V (the logit
polytope's vertices) is switched off.

Counts: with ``hardest_v=False`` each probe point (sequence, W-direction, scale) is paired with every seeded V, so
the point count is linear in ``v_count``: count(3) = 3·count(1) — independent of how many W-directions there are."""
from lemmas.tfsvm import lemma7
from verify.data import tfsvm as D
from verify.geometry.probes import SCALES
from verify.numbers.precision import working_precision


def _run(**kw):
    with working_precision(30) as prec:
        return lemma7.evaluate(D.d_t2(), prec, hardest_v=False, **kw)


def _ratio(out):
    got = [e for e in out.evidence if e.coverage is not None and e.quantity.startswith("max |LHS|")]
    assert len(got) == 1
    return got[0]


def test_v_count_default_three_reaches_the_scan():
    one, default, two = _run(v_count=1), _run(), _run(v_count=2)
    n1 = _ratio(one).coverage.points
    assert n1 > 0 and n1 % (2 * len(SCALES)) == 0  # 2 sequences × (directions) × every scale
    assert _ratio(default).coverage.points == 3 * n1
    assert _ratio(two).coverage.points == 2 * n1
    assert one.decision().verdict == "HOLDS"


def test_coverage_names_w_feature_differences_and_the_seeded_vs():
    out = _run(v_count=1)
    assert "V ∈ 1 seeded directions" in out.covers
    assert any(c.startswith("probe points: W along 4 seeded directions") and "feature differences" in c
               and "‖W‖∞ ∈ {0," in c for c in out.notes), out.notes
    assert not any(c.startswith("W along") for c in out.covers)  # every W is proven: no stated range
    with working_precision(30) as prec:
        hard = lemma7.evaluate(D.d_t2(), prec, v_count=1)
    assert not [c for c in hard.covers if "seeded directions" in c and c.startswith("V ∈")]
