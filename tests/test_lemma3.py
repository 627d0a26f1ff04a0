"""mmts.lemma3 (Key Lemma): holds on paper data; a wrong constant is VIOLATED; a tie is NOT_APPLICABLE."""
from lemmas.mmts import lemma3
from verify import Dataset
from verify.claims import run_claim
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


def test_every_probe_point_is_counted():
    """Every (sequence, direction, scale, q) is a Tally point of both deciding items, none hidden; a
    sequence is probed along 4 seeded directions and ± each of its own nonzero key differences k_t − k_0."""
    from verify.geometry.probes import SCALES
    from verify.models.attention import features

    data = lemma3.CLAIM.default_datasets()[2]  # random, n = 3, T = 5: no zero key difference
    with working_precision(30) as prec:
        out = lemma3.evaluate(data, prec)
    keys = features(data, "p")
    per_sequence = [4 + 2 * sum(1 for t in range(1, data.T) if keys[i][t] != keys[i][0]) for i in range(data.n)]
    assert per_sequence == [4 + 2 * (data.T - 1)] * data.n
    expected = sum(per_sequence) * len(SCALES) * 3
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
