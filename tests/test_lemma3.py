"""mmts.lemma3 (Key Lemma): holds on paper data; a wrong constant is VIOLATED; a tie is NOT_APPLICABLE."""
from lemmas.mmts import lemma3
from verify import Dataset
from verify.claims import Outcome, run_claim
from verify.numbers.precision import working_precision

# T = 2 with symmetric keys: a₁ − a₂ = 2A for every q, so the bound is attained with equality.
TIGHT = Dataset.make(X=[[[1, 0, 1], [-1, 0, 0]]], Y=[1], v=[0, 0, 1], K=[[[1, 0, 0], [-1, 0, 0]]], name="tight")


def test_holds_on_defaults():
    v = run_claim(lemma3.CLAIM, lemma3.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS"
    assert v.stable_digits >= 25


def test_wrong_constant_is_violated():
    with working_precision(30) as prec:
        out = lemma3.evaluate(TIGHT, prec, factor=1)
    assert out.decide() == "VIOLATED"


def test_wrong_power_is_violated():
    data = lemma3.CLAIM.default_datasets()[0]
    with working_precision(30) as prec:
        out = lemma3.evaluate(data, prec, power=3)
    assert out.decide() == "VIOLATED"


def test_tight_case_is_attained_not_exceeded():
    with working_precision(30) as prec:
        out = lemma3.evaluate(TIGHT, prec)
    ratio = out.evidence[0].value
    assert abs(ratio - 1) < 1e-25  # equality: the constant 2 cannot be improved


def test_tied_reference_is_not_applicable():
    tied = Dataset.make(X=[[[1, 0, 1], [0, 1, 1], [0, 0, 0]]], Y=[1], v=[0, 0, 1], name="tied")
    v = run_claim(lemma3.CLAIM, [tied], dps=20)
    assert v.verdict == "NOT_APPLICABLE"
    assert "unique" in v.hypotheses[0].name


def test_identity_residual_is_not_fooled_by_cancellation():
    """Found by `verify hunt`: Σ s_t(a₁−a_t) ≈ 0 by cancellation made a residual relative to |identity|
    meaningless; relative to the terms' magnitude it is certified tiny."""
    import os

    from verify.data.dataset import load_dataset

    data = load_dataset(os.path.join(os.path.dirname(__file__), "data_lemma3_cancellation.json"))
    v = run_claim(lemma3.CLAIM, [data], dps=30)
    assert v.verdict == "HOLDS"


def test_identity_with_logits_of_size_a_million():
    """Found by `verify hunt`: keys ~10³ at ‖p‖ = 10³ cost ~10 digits; judged per the design's 10^-(dps−guard)
    and by overlap of the two enclosures, the identity holds."""
    import os

    from verify.data.dataset import load_dataset

    for name in ("data_lemma3_large_logits.json", "data_lemma3_saturated_ties.json"):
        data = load_dataset(os.path.join(os.path.dirname(__file__), name))
        assert run_claim(lemma3.CLAIM, [data], dps=50).verdict == "HOLDS", name


def _vertex_pairs(K) -> int:
    """The number of vertex pairs ±a of {a = Kq : ‖a‖∞ ≤ 1}, independently of the check: scipy's halfspace
    intersection of |Kq|_t ≤ 1 in q (K of full column rank here), vertices rounded and counted."""
    import numpy as np
    from scipy.spatial import HalfspaceIntersection

    A = np.array([[float(x) for x in row] for row in K])
    hs = np.vstack([np.hstack([A, -np.ones((len(A), 1))]), np.hstack([-A, -np.ones((len(A), 1))])])
    pts = HalfspaceIntersection(hs, np.zeros(A.shape[1])).intersections
    return len({tuple(np.round(p, 9)) for p in pts}) // 2


def test_every_probe_point_is_counted():
    """Every (sequence, direction, scale, q) is a Tally point of both deciding items, none hidden; a
    sequence is probed along 4 seeded directions and ± each of its own nonzero key differences k_t − k_0,
    q along 3 seeded directions and every vertex pair of its logit polytope {‖Kq‖∞ ≤ 1}."""
    from verify.geometry.probes import SCALES
    from verify.models.attention import features

    data = lemma3.CLAIM.default_datasets()[2]  # random, n = 3, T = 5: no zero key difference
    with working_precision(30) as prec:
        out = lemma3.evaluate(data, prec)
    keys = features(data, "p")
    per_sequence = [4 + 2 * sum(1 for t in range(1, data.T) if keys[i][t] != keys[i][0]) for i in range(data.n)]
    assert per_sequence == [4 + 2 * (data.T - 1)] * data.n
    qs = [3 + _vertex_pairs(keys[i]) for i in range(data.n)]
    assert all(q > 3 for q in qs)
    expected = sum(p * q for p, q in zip(per_sequence, qs)) * len(SCALES)
    ratio, overlap = out.evidence[0], out.evidence[1]
    assert ratio.coverage.points == overlap.coverage.points == expected
    assert ratio.coverage.holds == expected and overlap.coverage.holds == expected


def test_zero_right_hand_side_needs_an_exactly_zero_left_side():
    """Keys of sequence 1 all zero: a = Kq = 0, so A = 0 and the bound reads |LHS| ≤ 0. Every a₁ − a_t
    is exactly 0, so LHS is exactly 0 and the point holds (reported as ratio 0), certified."""
    X = [[[1, 0], [0, 1], [0, 0]], [[2, 1], [0, 1], [1, 1]]]
    K = [[[1, 0], [0, 1], [0, 0]], [[0, 0], [0, 0], [0, 0]]]
    data = Dataset.make(X=X, Y=[1, 1], v=[1, 0], K=K, name="zero-keys-in-sequence-2")
    with working_precision(30) as prec:
        out = lemma3.evaluate(data, prec)
    assert out.decide() == "HOLDS"
    assert out.evidence[0].coverage.undecided == 0


def test_ratio_tally_fails_at_a_named_point():
    """Constant 1 on the tight case: |LHS| = 2ΓA(1−s₁)² > ΓA(1−s₁)² at every point with 1 − s₁ > 0
    (T = 2, symmetric keys: a₁ − a₂ = 2A for every q); the Tally names the first failing point."""
    with working_precision(30) as prec:
        out = lemma3.evaluate(TIGHT, prec, factor=1)
    ratio = out.evidence[0]
    assert ratio.decide() is False and ratio.coverage.violated > 0 and "sequence 0" in ratio.coverage.first_violation
    assert abs(ratio.value - 2) < 1e-25  # |LHS| / (1·ΓA(1−s₁)²) = 2 at the tight points


def test_logit_vertices_are_the_polytope_vertices():
    """{a = Fq : ‖a‖∞ ≤ 1} by hand: F = [[1, 0], [1, 1/100]] has range ℝ² (the square: ±(1, 1), ±(1, −1));
    F = [[1, 0], [0, 1], [1, 1]] gives a = (x, y, x + y) with |x|, |y|, |x + y| ≤ 1, a hexagon with vertices
    ±(1, 0, 1), ±(0, 1, 1), ±(1, −1, 0)."""
    from fractions import Fraction

    from verify.kit.key_lemma import logit_vertices

    assert set(logit_vertices([[1, 0], [1, Fraction(1, 100)]])) == {(1, 1), (1, -1)}
    assert set(logit_vertices([[1, 0], [0, 1], [1, 1]])) == {(1, 0, 1), (0, 1, 1), (1, -1, 0)}
    assert logit_vertices([[0, 0], [0, 0]]) == []


def test_hardest_q_finds_the_worst_direction_the_seeded_ones_miss():
    """skewed_pair (T = 2): at every p the ratio is |a₁ − a₂| / (factor·max|a_t|) (LHS = −s₂²(a₁ − a₂)Γ, 1 − s₁ = s₂),
    whose supremum over q is 2/factor at a = (1, −1); a seeded q has a₁ − a₂ = −q₂/100, far from it. With the
    constant 1 the seeded q's alone find no violation at their points (their tally holds — only the domain-wide
    exact item refutes it); the hardest q refutes it at a probe point too (ratio 2, certified); with the paper's 2
    it is attained exactly (the exact-structure tie: ratio 1, HOLDS)."""
    data = lemma3.skewed_pair()
    with working_precision(30) as prec:
        old = lemma3.evaluate(data, prec, factor=1, hardest_q=False)
        new = lemma3.evaluate(data, prec, factor=1)
        paper = lemma3.evaluate(data, prec)
    assert old.evidence[0].decide() is True and old.evidence[0].value < 1 and "q ∈ 3 seeded directions" in old.covers
    assert old.decision().reasons == [r for r in old.decision().reasons if "whole domain" in r]  # only the exact item
    d = new.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified" and "vertex" in new.evidence[0].coverage.first_violation
    assert abs(new.evidence[0].value - 2) < 1e-25
    assert paper.decision().verdict == "HOLDS" and paper.decision().certainty == "proven"  # the exact proof
    assert paper.evidence[0].value == 1 and not any(c.startswith("q") for c in paper.covers)


def test_the_verdict_names_the_probe_points_it_covered():
    v = run_claim(lemma3.CLAIM, [TIGHT], dps=20)
    # every p is covered by the exact proof on the whole domain, which the verdict names; the probes corroborate it
    assert v.label == "HOLDS — proven on every s in the open simplex, all a, γ"
    assert all(e.corroborates for e in v.evidence if e.coverage is not None)
    assert ("probe points: p along 4 seeded directions and ± each sequence's key differences, "
            "‖p‖∞ ∈ {0, 1/4, 1, 3, 10, 30, 100, 1000} (every p is covered by the exact proof on the whole domain)") in v.notes


def test_domain_proof_names_its_domain_and_a_wrong_constant_still_refutes():
    """kit.key_lemma.domain_proof: both exact items name the domain (level proven); with the constant 1 the supremum
    2/1 = 2 > 1 fails — a certified refutation, never proven."""
    from verify.kit.key_lemma import domain_proof

    items = domain_proof(3)
    assert all(e.decide() is True and e.level == "proven" for e in items)
    assert {e.proves for e in items} == {"every s in the open simplex, all a, γ"}
    bad = domain_proof(3, factor=1)
    assert bad[1].decide() is False and bad[1].level == "certified"
    assert Outcome(evidence=bad).decision().verdict == "VIOLATED"
