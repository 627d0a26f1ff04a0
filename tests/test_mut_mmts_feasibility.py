"""mmts Lemmas 2 and 11 in detail (mutation testing, area mmts): the hypotheses and their details, the
test mode (hypotheses off), the margins figure, and the two Lemma 11 datasets against their docstrings
(witness p̂ = W^†v/γ_gap derived by hand)."""
import os
from fractions import Fraction as F

from lemmas.mmts import lemma2, lemma11
from verify import Dataset
from verify.geometry.keys import svm_witness
from verify.geometry.stationarity import gmm
from verify.numbers.precision import working_precision
from verify.report.figures import render_figure

MIXED = Dataset.make(X=[[[1, 0], [0, 0]], [[1, 0], [0, 0]]], Y=[1, -1], v=[1, 0], name="mixed-labels")
NOT_IN_RANGE = Dataset.make(X=[[[0, 1], [0, 0]]], Y=[1], v=[0, 1], K=[[[0, 0], [0, 0]]], name="v-not-in-range")
STRICT = "strict optimal token"


def test_lemma2_full_rank_hypothesis_has_its_detail():
    with working_precision(30) as prec:
        out = lemma2.evaluate(lemma2.keyed_full_rank_dataset(), prec)
        planar = lemma2.evaluate(lemma11.planar_head_dataset(), prec)
    h = out.hypotheses[-1]
    assert h.name.startswith("W full rank") and h.met is True and "rank W = rank K = 2, d = 2" in h.detail
    h = planar.hypotheses[-1]
    assert h.met is False and "rank W = rank K = 2, d = 3" in h.detail  # W = diag(1,1,0): rank 2 < d = 3


def test_lemma2_test_mode_keeps_only_the_strict_optimal_token_and_says_so():
    with working_precision(30) as prec:
        off = lemma2.evaluate(MIXED, prec, require_hypotheses=False)
        on = lemma2.evaluate(lemma2.keyed_full_rank_dataset(), prec)
    assert [h.name.split(":")[0] for h in off.hypotheses] == [f"{STRICT}"]
    note = next(n for n in off.notes if n.startswith("hypotheses NOT enforced (test mode): "))
    assert "Y_i = 1 for every i: NOT met" in note and f"{STRICT}: γ_it < γ_{{i,opt_i}} for t ≠ opt_i: met" in note
    assert "W full rank (some W with K_i = X_i W has rank d): met" in note
    assert not any("NOT enforced" in n for n in on.notes)
    assert len(on.hypotheses) == 3


def test_lemma2_margins_figure_shows_both_witnesses(tmp_path):
    """keyed_full_rank_dataset: p̂'s margins in constraint order (0,0), (0,2), (1,1), (1,2) are the score gaps
    over γ_gap = 1/2 (scores (5/2, 3, −1/2) and (5, −2, 0)): 1, 7, 14, 10; p^mm's are its own margins."""
    data = lemma2.keyed_full_rank_dataset()
    with working_precision(30) as prec:
        out = lemma2.evaluate(data, prec)
        q = gmm(data, "p", 30).solution
    fig = next(f for f in out.figures if f.name == "margins")
    wit, pmm = fig.series
    assert wit.x == [0, 1, 2, 3] and wit.y == [1.0, 7.0, 14.0, 10.0]
    K, opt = data.K, (1, 0)
    rows = [(0, 0), (0, 2), (1, 1), (1, 2)]
    assert pmm.y == [float(sum((a - b) * x for a, b, x in zip(K[i][opt[i]], K[i][t], q))) for i, t in rows]
    assert min(pmm.y) == 1.0  # p^mm has an active constraint
    path = os.path.join(tmp_path, "margins.png")
    render_figure(fig, path)  # the styles are valid matplotlib formats
    assert os.path.getsize(path) > 0


def test_lemma2_violated_witness_still_drawn():
    """Mixed labels with the hypotheses off: no p^mm (Farkas), but p̂'s margins are drawn (1, −1)."""
    with working_precision(30) as prec:
        out = lemma2.evaluate(MIXED, prec, require_hypotheses=False)
    fig = next(f for f in out.figures if f.name == "margins")
    assert [s.y for s in fig.series] == [[1.0, -1.0]]


def test_lemma11_range_hypothesis_detail_and_test_mode():
    with working_precision(30) as prec:
        out = lemma11.evaluate(NOT_IN_RANGE, prec)
        off = lemma11.evaluate(NOT_IN_RANGE, prec, require_hypotheses=False)
    h = out.hypotheses[-1]
    assert "range(W)" in h.name and h.met is False and h.detail.startswith("X v ∉ range(K)")
    assert [h.name.split(":")[0] for h in off.hypotheses] == [STRICT]


def test_planar_head_dataset_is_the_documented_one():
    """d = 3, W = diag(1,1,0), v = (1, 1/2, 0): keys are the tokens' first two coordinates; W^†v = (1, 1/2, 0);
    scores (1, 1/2, −1/4) and (3/2, 0, 2), so γ_gap = min(1/2, 5/4, 1/2, 2) = 1/2, p̂ = (2, 1, 0) and the
    margins (γ_opt − γ_t)/γ_gap are 1, 5/2 (sequence 0) and 1, 4 (sequence 1)."""
    data = lemma11.planar_head_dataset()
    assert data.d == 3 and data.v == (1, F(1, 2), 0)
    for seq, keys in zip(data.X, data.K):
        assert [tuple(k) for k in keys] == [(x[0], x[1], 0) for x in seq]
    wit = svm_witness(data)
    assert wit.gap == F(1, 2) and wit.p_hat == (2, 1, 0)
    assert wit.margins == {(0, 1): 1, (0, 2): F(5, 2), (1, 0): 1, (1, 1): 4}


def test_rank_one_dataset_is_the_documented_one():
    """v = (1, 2), W = v vᵀ: k = v·(vᵀx); W^†v = v/‖v‖² = (1/5, 2/5); scores vᵀx = (3, 1, 5) and (1/3, 0, 0),
    γ_gap = min(2, 4, 1/3, 1/3) = 1/3, p̂ = (3/5, 6/5), margins 6, 12 and 1, 1."""
    data = lemma11.rank_one_dataset()
    assert data.v == (1, 2)
    for seq, keys in zip(data.X, data.K):
        assert [tuple(k) for k in keys] == [(x[0] + 2 * x[1], 2 * (x[0] + 2 * x[1])) for x in seq]
    wit = svm_witness(data)
    assert wit.gap == F(1, 3) and wit.p_hat == (F(3, 5), F(6, 5))
    assert wit.margins == {(0, 0): 6, (0, 1): 12, (1, 1): 1, (1, 2): 1}
