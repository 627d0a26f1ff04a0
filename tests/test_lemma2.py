"""mmts.lemma2 / mmts.lemma11 (ATT-SVM feasibility): HOLDS on defaults; the spec's false cases are
NOT_APPLICABLE with the hypothesis named, and VIOLATED when the hypotheses are switched off; a wrong
certificate is VIOLATED."""
from fractions import Fraction

from lemmas.mmts import lemma2, lemma11
from verify import Dataset
from verify.claims import run_claim
from verify.geometry import keys as keys_module
from verify.geometry.keys import svm_witness, w_structure
from verify.numbers.precision import working_precision

MIXED = Dataset.make(X=[[[1, 0], [0, 0]], [[1, 0], [0, 0]]], Y=[1, -1], v=[1, 0], name="mixed-labels")
NOT_IN_RANGE = Dataset.make(X=[[[0, 1], [0, 0]]], Y=[1], v=[0, 1], K=[[[0, 0], [0, 0]]], name="v-not-in-range")


def test_lemma2_holds_on_defaults():
    v = run_claim(lemma2.CLAIM, lemma2.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS"
    margins = [e for e in v.evidence if "min_{i,t≠opt}" in e.quantity]
    assert margins and all(e.decide() for e in margins)


def test_lemma11_holds_on_defaults():
    v = run_claim(lemma11.CLAIM, lemma11.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS"


def test_mixed_labels_not_applicable():
    v = run_claim(lemma2.CLAIM, [MIXED], dps=30)
    assert v.verdict == "NOT_APPLICABLE"
    assert any(h.name.startswith("Y_i = 1") and not h.met for h in v.hypotheses)


def test_mixed_labels_without_hypotheses_violated():
    with working_precision(30) as prec:
        out = lemma2.evaluate(MIXED, prec, require_hypotheses=False)
    assert out.decide() == "VIOLATED"
    feasible = out.evidence[0]  # the exact solver's verified Farkas certificate
    assert feasible.value is False and feasible.decided_by() == "exact" and "Farkas" in feasible.note


def test_v_not_in_range_lemma11_not_applicable_and_violated_when_forced():
    v = run_claim(lemma11.CLAIM, [NOT_IN_RANGE], dps=30)
    assert v.verdict == "NOT_APPLICABLE"
    assert any("range(W)" in h.name and not h.met for h in v.hypotheses)
    with working_precision(30) as prec:
        out = lemma11.evaluate(NOT_IN_RANGE, prec, require_hypotheses=False)
    assert out.decide() == "VIOLATED"


def test_rank_deficient_W_is_not_lemma2_but_is_lemma11():
    data = lemma11.planar_head_dataset()
    assert run_claim(lemma2.CLAIM, [data], dps=20).verdict == "NOT_APPLICABLE"
    assert run_claim(lemma11.CLAIM, [data], dps=20).verdict == "HOLDS"


def test_wrong_certificate_violated():
    data = lemma2.CLAIM.default_datasets()[0]
    with working_precision(30) as prec:
        out = lemma2.evaluate(data, prec, gap_scale=2)
    assert out.decide() == "VIOLATED"


def test_certificate_margin_attains_one():
    """The min margin of p̂ is exactly 1 (attained at the pair that defines γ_gap)."""
    with working_precision(30) as prec:
        out = lemma2.evaluate(lemma2.keyed_full_rank_dataset(), prec)
    ev = [e for e in out.evidence if "min_{i,t≠opt}" in e.quantity][0]
    assert ev.value == 1 and ev.decide() is True
    assert ev.coverage.points == 4 and ev.coverage.holds == 4  # every constraint (i, t ≠ opt_i) counted


def test_w_structure_criteria():
    # tokens of rank 1 in d = 2 (X not full column rank): W not identified
    X = [[[1, 1], [2, 2], [0, 0]]]
    full = Dataset.make(X=X, Y=[1], v=[1, 0], K=[[[1, 0], [2, 0], [0, 0]]], name="rank1-tokens")
    ws = w_structure(full)
    assert ws.exists and not ws.identified and ws.full_rank  # rank K = rank X = 1
    zero_keys = Dataset.make(X=X, Y=[1], v=[1, 0], K=[[[0, 0], [0, 0], [0, 0]]], name="zero-keys")
    assert not w_structure(zero_keys).full_rank
    nonlinear = Dataset.make(X=[[[1, 0], [2, 0], [0, 0]]], Y=[1], v=[1, 0], K=[[[1, 0], [5, 0], [0, 0]]], name="nl")
    assert not w_structure(nonlinear).exists
    # d_k < d: no W of rank d exists, so "W full rank" is not met (W W^† ≠ I)
    narrow = Dataset.make(X=[[[1, 0], [0, 1], [0, 0]]], Y=[1], v=[1, 0], K=[[[1], [1], [0]]], name="narrow")
    assert w_structure(narrow).exists and not w_structure(narrow).full_rank


def test_witness_is_w_inverse_v_over_gap():
    """Independent derivation for keyed_full_rank_dataset: W = [[2, 1], [−1, 1]], W⁻¹ = [[1, −1], [1, 2]]/3,
    v = (1, 3): W⁻¹v = (−2/3, 7/3); scores (5/2, 3, −1/2) and (5, −2, 0) give γ_gap = min(1/2, 7/2, 7, 5)
    = 1/2, so p̂ = (−4/3, 14/3), and its margins are the score gaps over γ_gap: 1, 7, 14, 10."""
    wit = svm_witness(lemma2.keyed_full_rank_dataset())
    assert wit.gap == Fraction(1, 2)
    assert wit.p_hat == (Fraction(-4, 3), Fraction(14, 3))
    assert sorted(wit.margins.values()) == [1, 7, 10, 14]


def test_solver_without_certified_answer_is_inconclusive(monkeypatch):
    """A solver result whose certificate failed ("unknown") decides nothing: INCONCLUSIVE, named."""
    real = keys_module.solve_svm

    def unknown(*args, **kwargs):
        res = real(*args, **kwargs)
        res.status, res.notes = "unknown", ["certificate failed (simulated)"]
        return res

    monkeypatch.setattr(keys_module, "solve_svm", unknown)
    for claim in (lemma2, lemma11):
        with working_precision(30) as prec:
            out = claim.evaluate(claim.CLAIM.default_datasets()[0], prec)
        assert out.decide() == "INCONCLUSIVE"
        assert any("certified answer of the exact ATT-SVM" in r for r in out.decision().reasons)


def test_wrong_witness_scale_is_caught_by_the_tally():
    """Halving p̂ halves every margin: the smallest is 1/2 < 1 at the constraint defining γ_gap."""
    with working_precision(30) as prec:
        out = lemma2.evaluate(lemma2.keyed_full_rank_dataset(), prec, gap_scale=2)
    ev = next(e for e in out.evidence if "min_{i,t≠opt}" in e.quantity)
    assert ev.value == Fraction(1, 2) and ev.coverage.violated == 1 and ev.coverage.first_violation
