"""verify.geometry.separating_cone (mutation tests): windows, row sets, low/high (ties go to high), κ(W) as a
max–min with its infinite cases and where it is attained, cone membership on both sides of κ = ε‖W‖_F, the
selections' SVMs solved by hand (support indices, local optimality), the enumeration order and counts, and
Assumption E on both sides for the linear and concave heads — every expected value derived by hand in Fractions."""
from fractions import Fraction as F

import pytest
from flint import arb

from verify.data.dataset import Dataset
from verify.errors import UsageError
from verify.geometry import separating_cone as sc
from verify.geometry.separating_cone import (
    NEG_INF,
    POS_INF,
    RowSet,
    Separation,
    alpha_text,
    assumption_e,
    frobenius,
    head_scores,
    in_cone,
    normalised,
    optimal_selection,
    row_sets,
    selection,
    selection_count,
    selections,
    separation,
    windows,
)


def three() -> Dataset:
    """d = 2, n = 1, T = 3, v = e₁, z = e₁: x = (2,0), (1,1), (0,1); γ = (2, 1, 0)."""
    return Dataset.make(X=[[[2, 0], [1, 1], [0, 1]]], Y=[1], v=[1, 0], z=[[1, 0]], name="three")


def scalar_causal() -> Dataset:
    """d = 1, T = 3, x = (1, 2, −1), causal, Yq = (1, 1, −1)."""
    return Dataset.make(X=[[[1], [2], [-1]]], Y=[1], v=[1], causal=True, Yq=[[1, 1, -1]], name="sc")


def two_seq() -> Dataset:
    """n = 2, T = 2, d = 1: x₁ = (1, 0), x₂ = (0, 2), Y = (1, −1), v = 1: γ₁ = (1, 0), γ₂ = (0, −2)."""
    return Dataset.make(X=[[[1], [0]], [[0], [2]]], Y=[1, -1], v=[1], name="two")


def test_unknown_attention_is_a_usage_error():
    """Every entry point validates the attention name with a one-line message listing the choices."""
    with pytest.raises(UsageError, match=r"unknown attention 'cross'; choose one of single, seq2seq, causal"):
        windows(three(), "cross")
    with pytest.raises(UsageError, match="unknown attention"):
        row_sets(three(), (0,), "cross")
    with pytest.raises(UsageError, match="unknown attention"):
        selection(three(), (0,), "cross")
    assert sc._check_attention("causal") == "causal"


def test_windows_per_attention():
    """single: one full window per sequence; seq2seq: n·T full windows; causal: query k sees 0..k."""
    d = two_seq()
    assert windows(d, "single") == [(0, 1), (0, 1)]
    assert windows(d, "seq2seq") == [(0, 1)] * 4
    assert windows(d, "causal") == [(0,), (0, 1), (0,), (0, 1)]


def test_single_row_sets_fields():
    """Single: key (i,), tokens, query z_i (the first token by default), scores Y_i vᵀx, α_i, no window, label Y_i."""
    rs = row_sets(two_seq(), (0, 1))
    assert [r.key for r in rs] == [(0,), (1,)]
    assert rs[1].tokens == ((0,), (2,)) and rs[1].z == (0,) and rs[0].z == (1,)
    assert rs[1].scores == (0, -2) and rs[1].alpha == 1 and rs[1].window == () and rs[1].y == -1
    assert rs[0].y == 1 and isinstance(rs[1].y, F)
    assert rs[1].label == "sequence 2" and rs[1].visible == (0, 1)
    # α = (0, 1): sequence 2 selects its lower score → low = ∅, high = {0}
    assert (rs[0].low, rs[0].high, rs[1].low, rs[1].high) == ((1,), (), (), (0,))


def test_seq2seq_and_causal_row_sets():
    """seq2seq: key (i, k), z = x_ik, per-query scores and labels; causal: window 0..k, α outside it is refused
    (α = k is allowed)."""
    d = scalar_causal()
    alpha = ((0, 1, 2),)
    rs = row_sets(d, alpha, "causal")
    assert [r.key for r in rs] == [(0, 0), (0, 1), (0, 2)]
    assert [r.window for r in rs] == [(0,), (0, 1), (0, 1, 2)]
    assert [r.z for r in rs] == [(1,), (2,), (-1,)]
    assert rs[2].scores == (-1, -2, 1) and rs[2].y == -1 and rs[1].y == 1
    assert rs[1].label == "sequence 1, query 2"
    full = row_sets(d, alpha, "seq2seq")
    assert [r.window for r in full] == [()] * 3 and full[0].visible == (0, 1, 2)
    with pytest.raises(UsageError, match=r"causal selection: α of sequence 1, query 2 is token 3, outside the window 1\.\.2"):
        row_sets(d, ((0, 2, 2),), "causal")
    # the same selection is fine without the mask
    assert row_sets(d, ((0, 2, 2),), "seq2seq")[1].alpha == 2
    # Yq absent: every query takes Y_i
    plain = Dataset.make(X=[[[1], [2]], [[1], [0]]], Y=[1, -1], v=[1], name="p")
    assert [r.y for r in row_sets(plain, ((0, 0), (0, 0)), "seq2seq")] == [1, 1, -1, -1]
    assert row_sets(plain, ((0, 0), (0, 0)), "seq2seq")[2].scores == (-1, 0)


def test_low_high_ties_and_row():
    """A token tied with α is in high (γ_t ≥ γ_α), never low; α itself is in neither; row(t, τ) = vec((x_t − x_τ)zᵀ)."""
    rs = RowSet((0,), ((1, 2), (3, 5), (0, 0)), (2, 7), (1, 1, 0), 0)
    assert rs.low == (2,) and rs.high == (1,)
    assert rs.row(1, 0) == (4, 14, 6, 21)
    masked = RowSet((0, 1), ((1,), (3,), (0,)), (1,), (1, 2, 0), 0, (0, 1))
    assert masked.visible == (0, 1) and masked.low == () and masked.high == (1,)


def test_dot_min_max_exact_and_balls():
    """_dot is exact on Fractions and a ball on balls (zero entries skipped); _min/_max use ball min/max."""
    assert sc._dot((F(1, 2), 3), (F(2), F(1, 3))) == 2
    b = sc._dot((F(1, 2), 0, 3), (arb(2), arb(5), arb(1)))
    assert isinstance(b, arb) and b == 4
    assert sc._min(F(1), F(2)) == 1 and sc._max(F(1), F(2)) == 2
    assert sc._min(arb(1), arb(2)) == 1 and sc._max(arb(1), arb(2)) == 2
    assert isinstance(sc._max(arb(3), arb(2)), arb) and sc._max(arb(3), arb(2)) == 3 and sc._min(arb(3), arb(2)) == 2


def test_separation_max_min_and_where():
    """Scalar tokens, z = 1, W = w: a row set's value is w·max_{low} min_{high} (x_t − x_τ). A: x = (5, 4, 1, 2),
    scores (5, 6, 1, 2), α = 0: low = {2, 3}, high = {1}: (1 − 4, 2 − 4) = (−3, −2), max −2. B: x = (0, 1, 3, 7),
    scores (3, 4, 5, 0): low = {3}, high = {1, 2}: (7 − 1, 7 − 3) = (6, 4), min 4. κ = min over sets = −2 (at A)."""
    A = RowSet((0,), ((5,), (4,), (1,), (2,)), (1,), (5, 6, 1, 2), 0)
    B = RowSet((1,), ((0,), (1,), (3,), (7,)), (1,), (3, 4, 5, 0), 0)
    s = separation([B, A], [1])
    assert s.value == -2 and s.where == "sequence 1" and s.per_set == [("sequence 2", 4), ("sequence 1", -2)]
    s = separation([B], [1])
    assert s.value == 4 and s.where == "sequence 2" and not s.infinite and s.sign() == 1
    # W = 2: everything doubles; W given as ints is made exact
    assert separation([B, A], [2]).value == -4
    # three sets: the minimum over all of them (not only the first two)
    C = RowSet((2,), ((0,), (1,), (2,)), (1,), (0, 1, -1), 0)   # low {2}, high {1}: x₂ − x₁ = 1
    s = separation([B, C, A], [1])
    assert s.value == -2 and s.where == "sequence 1"
    s = separation([A, B, C], [1])
    assert s.value == -2 and s.where == "sequence 1"
    s = separation([B, C], [1])
    assert s.value == 1 and s.where == "sequence 3"
    # the extremum comes first in each loop, so every t and τ must be read: D's max at its first low token, E's min
    # at its first high token
    D = RowSet((3,), ((0,), (9,), (5,), (3,)), (1,), (5, 1, 2, 6), 0)     # low {1, 2}, high {3}: (6, 2) → 6
    assert separation([D], [1]).value == 6
    E = RowSet((4,), ((0,), (1,), (5,), (2,)), (1,), (5, 1, 6, 7), 0)     # low {1}, high {2, 3}: (−4, −1) → −4
    assert separation([E], [1]).value == -4


def test_separation_infinite_cases():
    """high = ∅ everywhere → +∞; one row set with low = ∅, high ≠ ∅ → −∞ (named, with its high set, 1-based),
    even when another set is finite."""
    top = RowSet((0,), ((2,), (1,)), (1,), (2, 1), 0)
    bottom = RowSet((1,), ((2,), (1,), (0,)), (1,), (2, 1, 0), 2)
    mid = RowSet((2,), ((2,), (1,), (0,)), (1,), (2, 1, 0), 1)
    s = separation([top], [1])
    assert s.value == POS_INF and s.where == "every row set has high = ∅" and s.infinite and s.sign() == 1
    s = separation([top, mid, bottom], [1])
    assert s.value == NEG_INF and s.where == "sequence 2: low = ∅, high = {1, 2}" and s.sign() == -1
    assert s.per_set[0] == ("sequence 1", POS_INF)
    s = separation([top, mid], [1])
    assert s.value == -2 and s.where == "sequence 3"   # mid: low {2}, high {0}: x₂ − x₀ = −2


def test_separation_with_a_ball_matrix():
    """A ball W gives a ball κ; where is the set of least midpoint."""
    A = RowSet((0,), ((5,), (4,), (1,), (2,)), (1,), (5, 6, 1, 2), 0)
    C = RowSet((2,), ((0,), (1,), (2,)), (1,), (0, 1, -1), 0)
    s = separation([C, A], [arb(1)])
    assert isinstance(s.value, arb) and s.value == -2 and s.where == "sequence 1"
    s = separation([A, C], [arb(-1)])   # values flip: A → max(3, 2) = 3, C → −1
    assert s.value == -1 and s.where == "sequence 3"


def test_sign_of_every_kind():
    """+∞ → 1, −∞ → −1, exact → sign, a ball → its certain sign or 0 for an exact zero ball, None across 0."""
    assert Separation(POS_INF, "").sign() == 1 and Separation(NEG_INF, "").sign() == -1
    assert [Separation(F(v), "").sign() for v in (3, 0, -2)] == [1, 0, -1]
    assert Separation(arb(2), "").sign() == 1 and Separation(arb(-2), "").sign() == -1
    assert Separation(arb(0), "").sign() == 0 and Separation(arb(0, 1), "").sign() is None
    assert Separation(arb(1, 2), "").sign() is None and Separation(arb(-1, 2), "").sign() is None
    assert not Separation(F(1), "").infinite and Separation(NEG_INF, "").infinite


def test_frobenius_and_normalised():
    """‖(3, 4)‖_F = 5; κ/‖W‖ for an exact and a ball κ; infinities pass through."""
    assert frobenius([3, 4]) == 5 and frobenius([arb(3), F(4)]) == 5 and frobenius([F(1, 2)] * 4) == 1
    W = [3, 4]
    assert normalised(Separation(F(10), ""), W) == 2 and normalised(Separation(arb(-5), ""), W) == -1
    assert normalised(Separation(POS_INF, ""), W) == POS_INF and normalised(Separation(NEG_INF, ""), W) == NEG_INF


def test_in_cone_on_both_sides():
    """Scalar set B (κ(w) = 4w); W = (w, 0) with ‖W‖ = |w|: κ/‖W‖ = 4 for w > 0, so ε = 4 is in (equality),
    4 + 1/10⁶ out; a −∞ set is in no cone, a +∞ set in every one; ε as a ball; an undecided ball → None."""
    B = RowSet((1,), ((0,), (1,), (3,), (7,)), (1,), (3, 4, 5, 0), 0)
    B2 = RowSet((1,), ((0, 0), (1, 0), (3, 0), (7, 0)), (1, 0), (3, 4, 5, 0), 0)
    assert in_cone([B2], [3, 4, 0, 0], 4) is False     # Wz = (3, 0): κ = min(6, 4)·3 = 12, ‖W‖ = 5: 12/5 < 4
    assert in_cone([B2], [3, 4, 0, 0], 2) is True     # 12 ≥ 2·5
    assert in_cone([B2], [3, 4, 0, 0], F(12, 5) + F(1, 10**6)) is False
    assert in_cone([B], [1], 4) is True and in_cone([B], [1], F(4000001, 1000000)) is False
    assert in_cone([B], [-1], 0) is False      # κ = −4 < 0
    assert in_cone([B], [0], 0) is True        # κ = 0 = ε‖W‖
    assert in_cone([B], [1], arb(4)) is True and in_cone([B], [1], arb("4.5")) is False
    assert in_cone([B], [arb(1, 0.1)], 4) is None
    assert in_cone([B], [arb(0, 0.1)], 0) is None     # κ = 4w straddles 0 at ε = 0: undecided, not True
    top = RowSet((0,), ((2,), (1,)), (1,), (2, 1), 0)
    bottom = RowSet((1,), ((2,), (1,)), (1,), (2, 1), 1)
    assert in_cone([top], [-5], 100) is True and in_cone([bottom], [5], 0) is False


def test_alpha_text():
    """1-based by default; seq2seq rows separated by '; '; base 0 keeps the indices."""
    assert alpha_text((0, 2)) == "(1,3)" and alpha_text((0, 2), base=0) == "(0,2)"
    assert alpha_text(((0, 1), (1, 0))) == "(1,2; 2,1)"
    assert alpha_text(()) == "()"


def test_selection_optimal_single_solved_by_hand():
    """three(), α = opt = 0: Wz = (a, b) (first column of W); constraints (x₀ − x_t)ᵀ(a, b) ≥ 1: a − b ≥ 1 (t = 1),
    2a − b ≥ 1 (t = 2); least norm: a = 1/2, b = −1/2 (2a − b = 3/2: slack), so W = (1/2, 0; −1/2, 0), 𝒯 = {1},
    γ₀ = 2 > γ₁ = 1: locally optimal; high = ∅ → κ = +∞."""
    s = selection(three(), (0,))
    assert s.feasible is True and s.W == (F(1, 2), 0, F(-1, 2), 0) and s.support == {(0,): [1]}
    assert s.locally_optimal is True and s.reason.startswith("γ_α > γ_t for every support index")
    assert s.sep.value == POS_INF and s.kappa == POS_INF and s.norm2 == F(1, 2)
    assert s.label == "α = (1)" and s.attention == "single"
    assert s.empty_support() == [] and s.deviating() == [] and s.empty_cone() == []


def test_selection_not_locally_optimal_single():
    """three(), α = 1: (x₁ − x_t)ᵀ(a, b) ≥ 1: −a + b ≥ 1 (t = 0), a ≥ 1 (t = 2): least norm a = 1, b = 2, both active:
    𝒯 = {0, 2}; γ₀ = 2 ≥ γ₁ = 1 breaks local optimality (reported 1-based); κ = (x₂ − x₀)ᵀ(1, 2) = −2 + 2 = 0."""
    s = selection(three(), (1,))
    assert s.W == (1, 0, 2, 0) and s.support == {(0,): [0, 2]} and s.norm2 == 5
    assert s.locally_optimal is False
    assert s.reason == "sequence 1: support index 1 has score 2 ≥ 1 of α = 2"
    assert s.sep.value == 0 and s.kappa == 0
    assert [r.key for r in s.deviating()] == [(0,)] and s.empty_cone() == []
    s = selection(three(), (2,))    # α = the lowest score: low = ∅, high = {0, 1}
    assert [r.key for r in s.empty_cone()] == [(0,)] and s.sep.value == NEG_INF and s.locally_optimal is False
    assert s.reason == "sequence 1: support index 2 has score 1 ≥ 0 of α = 3"


def test_selection_causal_supports_and_infeasible():
    """scalar_causal(), α = (0, 1, 2) (w scalar; query k's constraints (x_α − x_t)·w·x_k·Y_k ≥ 1 over its window):
    query 1: (2 − 1)·w·2 ≥ 1; query 2 (Y = −1, z = −1): (−1 − x_t)·w·(−1)... = (1 + x_t)w ≥ 1 → 2w ≥ 1, 3w ≥ 1. Least
    |w|: w = 1/2, active at query 1 (t = 0) and query 2 (t = 0), not t = 1 (3/2 > 1). Query 0 sees one token: 𝒯 = ∅.
    α = (0, 0, 0): query 1 needs (1 − 2)·w·2 ≥ 1, query 2 needs (1 + 2)·w ≥ ... infeasible (Farkas)."""
    d = scalar_causal()
    s = selection(d, ((0, 1, 2),), "causal")
    assert s.W == (F(1, 2),) and s.support == {(0, 0): [], (0, 1): [0], (0, 2): [0]}
    assert s.locally_optimal is True and [r.key for r in s.empty_support()] == [(0, 0)]
    assert s.label == "α = (1,2,3)" and s.attention == "causal"
    bad = selection(d, ((0, 0, 0),), "causal")
    assert bad.feasible is False and bad.reason == "the SVM of α is infeasible (verified Farkas certificate)"
    assert bad.W is None and bad.norm2 is None and bad.kappa is None and bad.support == {}
    s = selection(d, ((0, 0, 1),), "causal")
    assert s.locally_optimal is False
    assert s.reason == "sequence 1, query 3: support index 1 has score -1 ≥ -2 of α = 2"


def test_selection_two_sequences_support_keys():
    """two_seq(), α = opt = (0, 0) (γ₂ = (0, −2)): z₁ = 1, z₂ = 0 → sequence 2's constraint reads 0 ≥ 1: infeasible."""
    s = selection(two_seq(), (0, 0))
    assert s.feasible is False


def test_selection_count_and_optimal_selection():
    """Counts: Tⁿ (single), T^{nT} (seq2seq), (T!)ⁿ (causal); opt: each row's unique maximiser in its window."""
    d = two_seq()
    assert selection_count(d, "single") == 4 and selection_count(d, "seq2seq") == 16
    assert selection_count(d, "causal") == 4
    assert selection_count(scalar_causal(), "causal") == 6 and selection_count(three()) == 3
    assert optimal_selection(d) == (0, 0)
    # query scores of two_seq: sequence 1 (1, 0) for both queries; sequence 2 (0, −2)
    assert optimal_selection(d, "seq2seq") == ((0, 0), (0, 0)) and optimal_selection(d, "causal") == ((0, 0), (0, 0))
    # scalar_causal: query 0 sees {0}; query 1 scores (1, 2); query 2 scores (−1, −2, 1)
    assert optimal_selection(scalar_causal(), "causal") == ((0, 1, 2),)
    assert optimal_selection(scalar_causal(), "seq2seq") == ((1, 1, 2),)
    tied = Dataset.make(X=[[[1], [1], [0]]], Y=[1], v=[1], name="tied")
    assert optimal_selection(tied) is None
    # a tie outside the causal window does not count
    late = Dataset.make(X=[[[2], [1], [3]]], Y=[1], v=[1], causal=True, name="late")
    assert optimal_selection(late, "causal") == ((0, 0, 2),) and optimal_selection(late, "seq2seq") == ((2, 2, 2),)


def test_selections_order_and_limit():
    """Product order with opt moved first; limit counts opt; None: all."""
    d = Dataset.make(X=[[[0], [1]], [[1], [0]]], Y=[1, 1], v=[1], name="o")   # opt = (1, 0)
    assert selections(d) == [(1, 0), (0, 0), (0, 1), (1, 1)]
    assert selections(d, limit=2) == [(1, 0), (0, 0)] and selections(d, limit=1) == [(1, 0)]
    assert selections(d, limit=None) == selections(d, limit=4) == selections(d, limit=5)
    tied = Dataset.make(X=[[[1], [1]]], Y=[1], v=[1], name="tied")
    assert selections(tied) == [(0,), (1,)] and selections(tied, limit=1) == [(0,)]
    assert selections(scalar_causal(), "causal", limit=3) == [((0, 1, 2),), ((0, 0, 0),), ((0, 0, 1),)]
    assert len(selections(scalar_causal(), "causal")) == 6


def concave(X, Y, lam="1/2", Yq=None) -> Dataset:
    return Dataset.make(X=X, Y=Y, v=[1], head={"kind": "concave", "lambda": lam}, Yq=Yq, name="cv")


def test_head_scores_per_head():
    """linear: the row set's scores; concave: Y(vᵀx − λ‖x‖²) exactly; tanh: None."""
    d = concave([[[1], [0], [3]]], [1])
    rs = row_sets(d, (0,))[0]
    assert head_scores(d, rs) == (F(1, 2), 0, F(-3, 2))
    dm = concave([[[1], [0], [3]]], [-1], lam="1/4")
    assert head_scores(dm, row_sets(dm, (0,))[0]) == (F(-3, 4), 0, F(-3, 4))
    lin = three()
    assert head_scores(lin, row_sets(lin, (1,))[0]) == (2, 1, 0)
    tanh = Dataset.make(X=[[[1], [0]]], Y=[1], v=[1], head={"kind": "tanh"}, name="t")
    assert head_scores(tanh, row_sets(tanh, (0,))[0]) is None


def test_assumption_e_linear_and_other_heads():
    """Linear head: c_α = min over rows of γ_α − γ_t over low (t with γ_t < γ_α); rows without low are skipped;
    α None: the first maximiser; tanh/MLP: undecided."""
    d = Dataset.make(X=[[[3], [1], [0]], [[2], [1], [5]]], Y=[1, 1], v=[1], name="l")
    assert assumption_e(d, (0, 2)) == (True, 2, "linear head: c_α = 2")     # gaps (2, 3), (3, 4) → 2
    assert assumption_e(d, (0, 0)) == (True, 1, "linear head: c_α = 1")     # row 2 low {1}: 2 − 1
    assert assumption_e(d, None) == (True, 2, "linear head: c_α = 2")
    assert assumption_e(d, (2, 2)) == (True, 3, "linear head: c_α = 3")     # row 1: α = x 0, low = ∅ → skipped
    low_free = Dataset.make(X=[[[0], [1]]], Y=[1], v=[1], name="lf")
    assert assumption_e(low_free, (0,)) == (True, None, "linear head: no low-score tokens (vacuous)")
    tanh = Dataset.make(X=[[[1], [0]]], Y=[1], v=[1], head={"kind": "tanh"}, name="t")
    assert assumption_e(tanh, None) == (None, None, "Assumption E is not decided for the tanh head "
                                                    "(only linear and concave heads)")


def test_assumption_e_concave_both_sides():
    """h(x) = x − x²/2 (λ = 1/2), Y = 1: ∇h(x_α) = 1 − x_α; slope to t: (1 − x_α)(x_t − x_α).
    x = (1/2, 0, −1): h = (3/8, 0, −3/2), α = 0, slopes (−1/4, −3/4): E holds, c = 1/4 (the max slope's magnitude).
    x = (1/2, 0, 2): h(2) = 0 < 3/8, slope to 2: (1/2)(3/2) = 3/4 ≥ 0: fails, naming token 3.
    x = (1, 0, 3): ∇h(1) = 0, slopes 0: a zero slope already fails."""
    ok = concave([[[F(1, 2)], [0], [-1]]], [1])
    assert assumption_e(ok, (0,)) == (True, F(1, 4), "concave head: c_α = 1/4")
    bad = concave([[[F(1, 2)], [0], [2]]], [1])
    met, c, detail = assumption_e(bad, (0,))
    assert (met, c) == (False, None)
    assert detail == ("sequence 1: Y·h rises from x_α toward token 3 (slope 3/4 ≥ 0), so Y·h(x(s)) > γ_α − "
                      "c(1 − s_α) near s_α = 1 for every c > 0")
    flat = concave([[[1], [0], [3]]], [1])
    assert assumption_e(flat, (0,))[0] is False
    # Y = −1: Y·h = (x²/2 − x) is convex: the vertices decide, c = min(γ_α − γ_t)
    neg = concave([[[4], [1], [0]]], [-1])     # Y·h = (4, −1/2, 0): α = 0, gaps 9/2, 4
    assert assumption_e(neg, None) == (True, 4, "concave head: c_α = 4")


def test_assumption_e_concave_alpha_none_tie_break_and_many_rows():
    """α None: the first maximiser of the head's score. x = (0, 2, 3): h = (0, 0, −3/2) tied at 0 and 2; α = 0 has
    slope 1·(3 − 0) = 3 ≥ 0 (fails), α = 1 would give (1 − 2)(3 − 2) = −1 (holds). Four failing rows: the detail
    names three."""
    d = concave([[[0], [2], [3]]], [1])
    assert assumption_e(d, None)[0] is False and assumption_e(d, (1,)) == (True, 1, "concave head: c_α = 1")
    many = concave([[[1], [0], [3]]] * 4, [1] * 4)
    met, _, detail = assumption_e(many, None)
    assert met is False and detail.count("sequence") == 3 and "sequence 3" in detail and "sequence 4" not in detail
    assert detail.count("; ") == 2


def test_assumption_e_causal_windows():
    """Causal: low is taken inside the window. x = (2, 0, 1), linear, query 1 sees (2, 0): α = 0, gap 2; query 2
    sees all: α = 0, gaps 2, 1 → c = 1; query 0 has no low token."""
    d = Dataset.make(X=[[[2], [0], [1]]], Y=[1], v=[1], causal=True, name="c")
    assert assumption_e(d, ((0, 0, 0),), "causal") == (True, 1, "linear head: c_α = 1")
    assert assumption_e(d, None, "causal") == (True, 1, "linear head: c_α = 1")
    only_two = Dataset.make(X=[[[2], [0], [5]]], Y=[1], v=[1], causal=True, name="c2")
    assert assumption_e(only_two, ((0, 0, 2),), "causal") == (True, 2, "linear head: c_α = 2")


# ----- G5 additions (issue 21: the survivors of dev/mutation-survivors-geometry-G2.md) -------------------------
def test_dot_of_a_zero_row_with_a_ball_matrix_is_a_ball():
    """A zero row against ball W is the ball 0 (so the min/max of balls can follow): low token 1 (x = 1) against high
    tokens 2 (x = 1: row 0) and 3 (x = 3: row −2) with W = 1 as a ball: min(0, −2) = −2."""
    z = sc._dot((0,), (arb(3),))
    assert isinstance(z, arb) and z == 0
    rs = RowSet((0,), ((5,), (1,), (1,), (3,)), (1,), (5, 1, 6, 7), 0)
    s = separation([rs], [arb(1)])
    assert isinstance(s.value, arb) and s.value == -2


def test_min_max_of_overlapping_balls_enclose_both():
    """x ∈ [0.9, 1.1], y ∈ [0.5, 1.5]: min(x, y) ranges over [0.5, 1.1] and max(x, y) over [0.9, 1.5]; the results
    must reach 0.5 and 1.5 (Python's min/max would return x: neither ordering is certain)."""
    x, y = arb(1, 0.1), arb(1, 0.5)
    assert sc._min(x, y).lower() <= arb("0.5") and sc._max(x, y).upper() >= arb("1.5")


def test_in_cone_with_an_epsilon_ball_reaching_kappa_is_undecided():
    """C: κ(W = 1) = x₂ − x₁ = 1 exactly, ‖W‖ = 1; ε ∈ [1, 2] (an exact ball): κ ≥ ε‖W‖ holds for ε = 1 and fails
    for ε = 2, so membership is undecided (None) — not False because the slack's upper end is exactly 0."""
    C = RowSet((2,), ((0,), (1,), (2,)), (1,), (0, 1, -1), 0)
    assert in_cone([C], [1], arb("1.5", "0.5")) is None


def test_seq2seq_row_sets_keep_the_tokens():
    """Every query's row set holds the whole sequence's tokens (the mask is the window, not the tokens)."""
    for attention in ("seq2seq", "causal"):
        rs = row_sets(scalar_causal(), ((0, 1, 2),), attention)
        assert all(r.tokens == ((1,), (2,), (-1,)) for r in rs)


def _tied() -> Dataset:
    """x₀ = (1, 1), x₁ = (0, 1), v = e₂: both scores 1; z = e₁: α = 0's one constraint (x₀ − x₁)ᵀWz = (Wz)₁ ≥ 1 is
    active: W = (1, 0; 0, 0), 𝒯 = {1} with a score equal to γ_α."""
    return Dataset.make(X=[[[1, 1], [0, 1]]], Y=[1], v=[0, 1], z=[[1, 0]], name="tied")


def test_selection_tied_support_index_is_not_locally_optimal():
    """Definition 2 needs γ_α > γ_t (strict) at every support index: a tie breaks it (reported 1-based)."""
    s = selection(_tied(), (0,))
    assert s.W == (1, 0, 0, 0) and s.support == {(0,): [1]}
    assert s.locally_optimal is False and s.reason == "sequence 1: support index 2 has score 1 ≥ 1 of α = 1"
    assert s.result.status == "optimal"


def test_selection_passes_its_precision_and_options(monkeypatch):
    """Single: solve_svm(data, "W", α, dps, check_unique=False) (default dps 40); seq2seq/causal:
    satt_svm(data, select, causal, dps) — recorded, then solved by the real functions."""
    import verify.svm as svm
    import verify.svm.seq2seq as s2s

    calls = []
    real_svm, real_satt = svm.solve_svm, s2s.satt_svm

    def spy_svm(data, kind, select, *args, **kwargs):
        calls.append(("svm", kind, select, args, kwargs))
        return real_svm(data, kind, select, *args, **kwargs)

    def spy_satt(data, **kwargs):
        calls.append(("satt", kwargs))
        return real_satt(data, **kwargs)

    monkeypatch.setattr(svm, "solve_svm", spy_svm)
    monkeypatch.setattr(s2s, "satt_svm", spy_satt)
    selection(three(), (0,))
    selection(three(), (0,), dps=33)
    assert calls == [("svm", "W", (0,), (40,), {"check_unique": False}),
                     ("svm", "W", (0,), (33,), {"check_unique": False})]
    calls.clear()
    selection(scalar_causal(), ((0, 1, 2),), "causal")
    selection(scalar_causal(), ((0, 1, 2),), "seq2seq", dps=34)
    assert calls == [("satt", {"select": [[0, 1, 2]], "causal": True, "dps": 40}),
                     ("satt", {"select": [[0, 1, 2]], "causal": False, "dps": 34})]


def test_selection_with_an_inexact_solution(monkeypatch):
    """A certified optimum whose solution is not exact: support indices cannot be decided → feasible None, said."""
    from types import SimpleNamespace

    import verify.svm as svm
    monkeypatch.setattr(svm, "solve_svm", lambda *a, **k: SimpleNamespace(
        status="optimal", certificate=SimpleNamespace(passed=True), exact=False, farkas=None))
    s = selection(three(), (0,))
    assert s.feasible is None and s.reason == "the SVM solution is not exact (support indices undecidable)"
    assert s.W is None


def test_separation_infinite_keeps_every_row_sets_value():
    top = RowSet((0,), ((2,), (1,)), (1,), (2, 1), 0)
    top2 = RowSet((1,), ((2,), (1,)), (1,), (2, 1), 0)
    assert separation([top, top2], [1]).per_set == [("sequence 1", POS_INF), ("sequence 2", POS_INF)]


def test_separation_takes_w_as_anything_fraction_accepts():
    """W = ("1/2",): B's κ = 4w = 2 exactly."""
    B = RowSet((1,), ((0,), (1,), (3,), (7,)), (1,), (3, 4, 5, 0), 0)
    assert separation([B], ["1/2"]).value == 2


def test_separation_where_is_the_least_midpoint_for_balls():
    """W = w ∈ [1/2, 3/2]: P's value 3w (midpoint 3), Q's 2w (midpoint 2) overlap; the minimum is named by the least
    midpoint: Q ("sequence 2"), though P comes first."""
    P = RowSet((0,), ((9,), (3,), (0,)), (1,), (1, 0, 2), 0)
    Q = RowSet((1,), ((9,), (2,), (0,)), (1,), (1, 0, 2), 0)
    s = separation([P, Q], [arb(1, 0.5)])
    assert s.where == "sequence 2"


def test_sign_below_one():
    """½ is positive, exact or as a ball."""
    assert Separation(F(1, 2), "").sign() == 1 and Separation(arb("0.5"), "").sign() == 1
