"""mmts.lemma2 / mmts.lemma11 (ATT-SVM feasibility): HOLDS on defaults; the spec's false cases are
NOT_APPLICABLE with the hypothesis named, and VIOLATED when the hypotheses are switched off; a wrong
certificate is VIOLATED."""
from lemmas.mmts import lemma2, lemma11
from verify import Dataset
from verify.claims import run_claim
from verify.numbers.precision import working_precision

MIXED = Dataset.make(X=[[[1, 0], [0, 0]], [[1, 0], [0, 0]]], Y=[1, -1], v=[1, 0], name="mixed-labels")
NOT_IN_RANGE = Dataset.make(X=[[[0, 1], [0, 0]]], Y=[1], v=[0, 1], K=[[[0, 0], [0, 0]]], name="v-not-in-range")


def test_lemma2_holds_on_defaults():
    v = run_claim(lemma2.CLAIM, lemma2.default_datasets(), dps=30)
    assert v.verdict == "HOLDS"
    margins = [e for e in v.evidence if "min_{i,t≠opt}" in e.quantity]
    assert margins and all(e.decide() for e in margins)


def test_lemma11_holds_on_defaults():
    v = run_claim(lemma11.CLAIM, lemma11.default_datasets(), dps=30)
    assert v.verdict == "HOLDS"


def test_mixed_labels_not_applicable():
    v = run_claim(lemma2.CLAIM, [MIXED], dps=30)
    assert v.verdict == "NOT_APPLICABLE"
    assert any(h.name.startswith("Y_i = 1") and not h.met for h in v.hypotheses)


def test_mixed_labels_without_hypotheses_violated():
    with working_precision(30) as prec:
        out = lemma2.evaluate(MIXED, prec, require_hypotheses=False)
    assert out.decide() == "VIOLATED"
    assert out.evidence[0].value == "infeasible"  # the exact solver's Farkas certificate


def test_v_not_in_range_lemma11_not_applicable_and_violated_when_forced():
    v = run_claim(lemma11.CLAIM, [NOT_IN_RANGE], dps=30)
    assert v.verdict == "NOT_APPLICABLE"
    assert any("range(W)" in h.name and not h.met for h in v.hypotheses)
    with working_precision(30) as prec:
        out = lemma2.evaluate(NOT_IN_RANGE, prec, "lemma11", require_hypotheses=False)
    assert out.decide() == "VIOLATED"


def test_rank_deficient_W_is_not_lemma2_but_is_lemma11():
    data = lemma11.planar_head_dataset()
    assert run_claim(lemma2.CLAIM, [data], dps=20).verdict == "NOT_APPLICABLE"
    assert run_claim(lemma11.CLAIM, [data], dps=20).verdict == "HOLDS"


def test_wrong_certificate_violated():
    data = lemma2.default_datasets()[0]
    with working_precision(30) as prec:
        out = lemma2.evaluate(data, prec, gap_scale=2)
    assert out.decide() == "VIOLATED"


def test_certificate_margin_attains_one():
    """The min margin of p̂ is exactly 1 (attained at the pair that defines γ_gap)."""
    with working_precision(30) as prec:
        out = lemma2.evaluate(lemma2.keyed_full_rank_dataset(), prec)
    ev = [e for e in out.evidence if "min_{i,t≠opt}" in e.quantity][0]
    assert ev.value == 1 and ev.holds is True


def test_w_structure_criteria():
    # tokens of rank 1 in d = 2 (X not full column rank): W not identified
    X = [[[1, 1], [2, 2], [0, 0]]]
    full = Dataset.make(X=X, Y=[1], v=[1, 0], K=[[[1, 0], [2, 0], [0, 0]]], name="rank1-tokens")
    ws = lemma2.w_structure(full)
    assert ws["exists"] and not ws["identified"] and ws["full_rank"]  # rank K = rank X = 1
    zero_keys = Dataset.make(X=X, Y=[1], v=[1, 0], K=[[[0, 0], [0, 0], [0, 0]]], name="zero-keys")
    assert not lemma2.w_structure(zero_keys)["full_rank"]
    nonlinear = Dataset.make(X=[[[1, 0], [2, 0], [0, 0]]], Y=[1], v=[1, 0], K=[[[1, 0], [5, 0], [0, 0]]], name="nl")
    assert not lemma2.w_structure(nonlinear)["exists"]
