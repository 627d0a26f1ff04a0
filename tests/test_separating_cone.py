"""The separating-cone engine (``verify.geometry.separating_cone``) and Lemma 16 respect causal windows and per-query
labels: on small causal datasets the low/high sets, κ(W), cone membership, the SAtt-SVM selections, support indices and
Lemma 16's verdict are derived by hand (Fractions) and differ from what ignoring the mask / the labels would give."""
from fractions import Fraction

from lemmas.tfsvm import lemma16
from verify.data.dataset import Dataset
from verify.geometry.separating_cone import (
    NEG_INF,
    POS_INF,
    in_cone,
    row_sets,
    selection,
    selection_count,
    selections,
    separation,
)
from verify.numbers.precision import working_precision

MINUS_I = [-1, 0, 0, -1]   # W = −I (row-major)


def four_tokens(causal=True, Yq=None) -> Dataset:
    """d = 2, T = 4, v = e₁, Y = 1: x₀ = (3,0), x₁ = (0,1), x₂ = (1,1), x₃ = (2,0); γ = vᵀx = (3, 0, 1, 2)."""
    return Dataset.make(X=[[[3, 0], [0, 1], [1, 1], [2, 0]]], Y=[1], v=[1, 0], causal=causal, Yq=Yq,
                        name="four-tokens" + ("-causal" if causal else ""))


def _margin(x_t, x_tau, W, z):
    """(x_t − x_τ)ᵀ W z for a 2×2 W given row-major, in Fractions."""
    diff = [Fraction(a) - Fraction(b) for a, b in zip(x_t, x_tau)]
    Wz = [sum(Fraction(W[2 * r + c]) * Fraction(z[c]) for c in range(2)) for r in range(2)]
    return sum(a * b for a, b in zip(diff, Wz))


ALPHA = ((0, 0, 2, 0),)   # query 2 selects x₂ (score 1); every other query its window's top token x₀


def test_causal_window_changes_low_high_and_kappa():
    """(0-based indices.) Query k sees t ≤ k under the mask. Query 2: low = {1} (score 0 < 1), high = {0} (3 ≥ 1);
    without the mask token 3 (score 2 ≥ 1) joins high. Queries 0, 1, 3 select x₀, the top score of every window:
    high = ∅ (+∞), low = the rest of the window ({1} for query 1 under the mask, {1, 2, 3} without). So
    κ_causal(W) = (x₁ − x₀)ᵀWx₂ and κ_full(W) = min{(x₁ − x₀)ᵀWx₂, (x₁ − x₃)ᵀWx₂}; at W = −I (Wx₂ = (−1, −1)):
    (−3, 1)·(−1, −1) = 2 and (−2, 1)·(−1, −1) = 1 — the mask changes κ from 1 to 2."""
    X = four_tokens().X[0]
    causal, full = four_tokens(), four_tokens(causal=False)
    rc = row_sets(causal, ALPHA, "causal")
    rf = row_sets(full, ALPHA, "seq2seq")
    assert [(rs.low, rs.high) for rs in rc] == [((), ()), ((1,), ()), ((1,), (0,)), ((1, 2, 3), ())]
    assert [(rs.low, rs.high) for rs in rf] == [((1, 2, 3), ()), ((1, 2, 3), ()), ((1,), (0, 3)), ((1, 2, 3), ())]
    k_causal = _margin(X[1], X[0], MINUS_I, X[2])
    k_full = min(k_causal, _margin(X[1], X[3], MINUS_I, X[2]))
    assert (k_causal, k_full) == (2, 1)
    assert separation(rc, MINUS_I).value == k_causal and separation(rf, MINUS_I).value == k_full
    assert separation(rc, MINUS_I).where == "sequence 1, query 3"
    # cone membership: κ/‖W‖_F = 2/√2 = √2 (causal) vs 1/√2 (full); ε = 1 separates them, ε = 3/2 > √2 excludes both
    assert in_cone(rc, MINUS_I, 1) is True and in_cone(rf, MINUS_I, 1) is False
    assert in_cone(rc, MINUS_I, Fraction(3, 2)) is False


def test_per_query_labels_change_low_high_and_kappa():
    """Yq = (1, 1, −1, 1): query 2 scores −vᵀx = (−3, 0, −1, −2), so x₂ (−1) has low = {0} (−3; token 3 is outside the
    window) and high = {1} (0 ≥ −1): κ(W) = (x₀ − x₁)ᵀWx₂ = (3, −1)·(−1, −1) = −2 at W = −I — with the sequence's label
    (Y = 1) it would be +2 (test above)."""
    X = four_tokens().X[0]
    data = four_tokens(Yq=[[1, 1, -1, 1]])
    assert data.query_scores[0][2] == (-3, 0, -1, -2)
    rs = row_sets(data, ALPHA, "causal")
    assert (rs[2].low, rs[2].high) == ((0,), (1,))
    want = _margin(X[0], X[1], MINUS_I, X[2])
    assert want == -2 and separation(rs, MINUS_I).value == want
    assert in_cone(rs, MINUS_I, Fraction(1, 100)) is False


def scalar_tokens() -> Dataset:
    """d = 1, T = 3, v = 1, x = (1, 2, −1), causal, Yq = (1, 1, −1): query scores (1, 2, −1) for queries 0 and 1,
    (−1, −2, 1) for query 2."""
    return Dataset.make(X=[[[1], [2], [-1]]], Y=[1], v=[1], causal=True, Yq=[[1, 1, -1]], name="scalar-causal-Yq")


def test_lemma16_causal_per_query_labels_by_hand():
    """(0-based indices; the engine's labels are 1-based.) W = w (1×1). Causal SAtt-SVM constraints (x_α − x_t)·w·x_k ≥ 1 for t ≤ k, t ≠ α_k:
    query 1 (z = 2): α₁ = 0 → −2w ≥ 1; α₁ = 1 → 2w ≥ 1.
    query 2 (z = −1): α₂ = 0 → w ≥ 1 and −2w ≥ 1 (infeasible); α₂ = 1 → −w ≥ 1, −3w ≥ 1; α₂ = 2 → 2w ≥ 1, 3w ≥ 1.
    So of the 1·2·3 = 6 causal selections exactly (0,0,1) (w = −1) and (0,1,2) (w = 1/2) are feasible.
    (0,1,2): margins 1 (query 1, t = 0), 1 and 3/2 (query 2, t = 0, 1): 𝒯 = {0}, {0}; γ₁: 2 > 1, γ₂ (label −1): 1 > −1 —
    locally optimal, and every row selects its window's top score: high = ∅ everywhere, κ = +∞ (Lemma 16 (a), (c)).
    (0,0,1): margins 2 (query 1) and 1, 3 (query 2): 𝒯₂ = {0} with γ₂₀ = −1 ≥ γ₂₁ = −2 — not locally optimal; query 1
    selects score 1 below x₁'s 2 in its window: low = ∅, high = {1}, κ = −∞ ≤ 0 (Lemma 16 (b)). Hence HOLDS, certified.
    Ignoring the mask and the labels, α = (0,1,2) would have query 0 seeing x₁ (high = {1}, low = {2}) and query 2
    selecting its lowest score (low = ∅): κ = −∞ instead of +∞."""
    data = scalar_tokens()
    assert selection_count(data, "causal") == 6 and len(selections(data, "causal")) == 6
    sels = {a: selection(data, a, "causal") for a in selections(data, "causal")}
    feasible = {a: s for a, s in sels.items() if s.feasible is True}
    assert set(feasible) == {((0, 0, 1),), ((0, 1, 2),)}
    assert all(s.feasible is False for a, s in sels.items() if a not in feasible)
    good, bad = feasible[((0, 1, 2),)], feasible[((0, 0, 1),)]
    assert good.W == (Fraction(1, 2),) and bad.W == (Fraction(-1),)
    assert good.support == {(0, 0): [], (0, 1): [0], (0, 2): [0]} and good.locally_optimal and good.kappa == POS_INF
    assert bad.support == {(0, 0): [], (0, 1): [], (0, 2): [0]} and not bad.locally_optimal and bad.kappa == NEG_INF
    assert "query 2" in bad.sep.where
    with working_precision(30) as prec:
        d = lemma16.evaluate(data, prec, figure=False).decision()
    assert d.verdict == "HOLDS" and d.certainty == "certified"
    plain = Dataset.make(X=[[[1], [2], [-1]]], Y=[1], v=[1], name="scalar-plain")
    rs = row_sets(plain, ((0, 1, 2),), "seq2seq")
    assert (rs[0].low, rs[0].high) == ((2,), (1,)) and (rs[2].low, rs[2].high) == ((), (0, 1))
    assert separation(rs, good.W).value == NEG_INF


def test_causal_selection_outside_the_window_is_refused():
    import pytest

    from verify.errors import UsageError

    with pytest.raises(UsageError, match="outside the window"):
        row_sets(scalar_tokens(), ((0, 2, 2),), "causal")
