"""verify.geometry.keys (mutation tests): the stacked system, the structure of W with K = XW (exists / unique / of
rank d, every branch with its detail), v ∈ range(W), the ATT-SVM witness p̂ = p₀/(scale·γ_gap) and its margins, Lemma
1's fixed query from each source, the query features, and ATT-SVM(opt) — all derived by hand in Fractions."""
from fractions import Fraction as F

from verify.data.dataset import Dataset
from verify.geometry.keys import (
    att_svm_opt,
    fixed_query,
    head_in_range,
    query_features,
    stacked,
    svm_margins,
    svm_witness,
    unsigned_scores,
    w_structure,
)


def ds(X, K=None, v=(1, 0), Y=None, z=None, u=None) -> Dataset:
    return Dataset.make(X=X, Y=Y or [1] * len(X), v=list(v), K=K, z=z, u=u, name="k")


def test_stacked_rows():
    """X and K stacked over sequences, in order."""
    d = ds([[[1, 0], [0, 1]], [[2, 3], [4, 5]]], K=[[[1], [2]], [[3], [4]]])
    X, K = stacked(d)
    assert X == [[1, 0], [0, 1], [2, 3], [4, 5]] and K == [[1], [2], [3], [4]]
    assert stacked(ds([[[1, 0], [0, 1]]]))[1] == [[1, 0], [0, 1]]   # no keys: K = X


def test_w_structure_every_branch():
    """No keys → W = I; X = I fixes W = K (unique; rank d iff rank K = d and d_k ≥ d); X of rank 1 < d = 2: not
    unique, rank-d W exists iff rank K = rank X and d_k ≥ d; rank[X|K] > rank X → no W."""
    w = w_structure(ds([[[1, 0], [0, 1]]]))
    assert (w.exists, w.identified, w.full_rank, w.rank_X, w.rank_K) == (True, True, True, 2, 2)
    assert w.detail == "no keys given: W = I (full rank)"
    w = w_structure(ds([[[1, 0], [0, 1]]], K=[[[1, 2], [3, 4]]]))
    assert (w.exists, w.identified, w.full_rank, w.rank_X, w.rank_K) == (True, True, True, 2, 2)
    assert w.detail == "W unique (X has full column rank 2); rank W = rank K = 2, d = 2, d_k = 2"
    w = w_structure(ds([[[1, 0], [0, 1]]], K=[[[1, 2], [2, 4]]]))     # rank K = 1 < 2
    assert (w.identified, w.full_rank, w.rank_K) == (True, False, 1)
    w = w_structure(ds([[[1, 0], [0, 1]]], K=[[[1], [2]]]))           # d_k = 1 < d
    assert (w.identified, w.full_rank) == (True, False)
    assert w.detail == "W unique (X has full column rank 2); rank W = rank K = 1, d = 2, d_k = 1"
    w = w_structure(ds([[[1, 0], [2, 0]]], K=[[[1], [1]]]))
    assert (w.exists, w.identified, w.full_rank, w.rank_X, w.rank_K) == (False, False, False, 1, 1)
    assert w.detail == "keys are not a linear image of the tokens: rank[X|K] = 2 > rank X = 1"
    w = w_structure(ds([[[1, 0], [2, 0]]], K=[[[1, 0], [2, 0]]]))
    assert (w.exists, w.identified, w.full_rank) == (True, False, True)
    assert w.detail == ("W not unique (rank X = 1 < d = 2); a W of rank d with K = XW exists (rank K = 1, d_k = 2)")
    w = w_structure(ds([[[1, 0], [2, 0]]], K=[[[1], [2]]]))
    assert (w.exists, w.identified, w.full_rank) == (True, False, False)
    assert w.detail == ("W not unique (rank X = 1 < d = 2); a W of rank d with K = XW does not exist "
                        "(rank K = 1, d_k = 1)")
    w = w_structure(ds([[[1, 0], [2, 0]]], K=[[[0, 0], [0, 0]]]))     # rank K = 0 ≠ rank X
    assert (w.exists, w.full_rank, w.rank_K) == (True, False, 0)


def test_unsigned_scores_and_head_in_range():
    """vᵀx per stacked token (no label); v ∈ range(W): K p = X v solvable; the two ways it fails."""
    d = ds([[[1, 2], [3, 4]]], v=(F(1, 2), 1), Y=[-1])
    assert unsigned_scores(d) == [F(5, 2), F(11, 2)]
    assert head_in_range(ds([[[1, 0], [0, 1]]], K=[[[1, 2], [3, 4]]])) == (
        True, "K p = X v is solvable, i.e. v ∈ range(W) for some W with K = XW")
    assert head_in_range(ds([[[1, 0], [0, 1]]], K=[[[1], [0]]], v=(0, 1))) == (
        False, "X v ∉ range(K): no W with K = XW has v in its range")
    assert head_in_range(ds([[[1, 0], [0, 1]]], K=[[[1], [0]]], v=(1, 0)))[0] is True
    bad = ds([[[1, 0], [2, 0]]], K=[[[1], [1]]])
    assert head_in_range(bad) == (False, "keys are not a linear image of the tokens: rank[X|K] = 2 > rank X = 1")


def test_svm_witness_and_margins():
    """X₁ = ((2,0), (0,1)), X₂ = ((0,0), (3,0)), v = e₁, no keys: γ = (2, 0), (0, 3): opt = (0, 1), γ_gap = min(2, 3)
    = 2; p₀ = v (X has full column rank) → p̂ = (1/2, 0); margins (k_opt − k_t)ᵀp̂: (2, −1)·p̂ = 1, (3, 0)·p̂ = 3/2.
    gap_scale 2 halves them."""
    d = ds([[[2, 0], [0, 1]], [[0, 0], [3, 0]]])
    w = svm_witness(d)
    assert w.gap == 2 and w.p_hat == (F(1, 2), 0) and w.margins == {(0, 1): 1, (1, 0): F(3, 2)}
    w = svm_witness(d, gap_scale=2)
    assert w.p_hat == (F(1, 4), 0) and w.margins == {(0, 1): F(1, 2), (1, 0): F(3, 4)}
    assert svm_margins(d, (1, 1)) == {(0, 1): 1, (1, 0): 3}
    # the gap is the minimum over every sequence and every non-optimal token
    d3 = ds([[[2, 0], [0, 1], [1, 5]]])   # γ = (2, 0, 1): gap 1
    w = svm_witness(d3)
    assert w.gap == 1 and w.p_hat == (1, 0) and w.margins == {(0, 1): 2, (0, 2): 1}


def test_svm_witness_none_cases():
    """A tie (γ_gap = 0) or K p = X v unsolvable → None."""
    assert svm_witness(ds([[[1, 0], [1, 1]]])) is None
    assert svm_witness(ds([[[1, 0], [0, 1]]], K=[[[1], [0]]], v=(0, 1))) is None
    tie_later = ds([[[2, 0], [0, 1]], [[1, 0], [1, 3]]])   # second sequence tied
    assert svm_witness(tie_later) is None


def test_fixed_query_sources():
    """data.u first (shared only if every z equals it), then z₁ (shared iff all z equal), then x₁₁ (shared)."""
    X = [[[1, 0], [0, 1]], [[2, 3], [4, 5]]]
    assert fixed_query(ds(X)) == ((1, 0), "default u = x_11 (first token of sequence 1)", True)
    assert fixed_query(ds(X, u=[7, 8])) == ((7, 8), "data.u", True)
    assert fixed_query(ds(X, u=[7, 8], z=[[7, 8], [7, 8]])) == ((7, 8), "data.u", True)
    assert fixed_query(ds(X, u=[7, 8], z=[[7, 8], [1, 8]]))[2] is False
    assert fixed_query(ds(X, z=[[1, 2], [1, 2]])) == ((1, 2), "data.z (z_1)", True)
    assert fixed_query(ds(X, z=[[1, 2], [1, 3]])) == ((1, 2), "data.z (z_1)", False)


def test_query_features():
    """F_it = vec(x_it uᵀ) row-major for every sequence, whatever the dataset's own queries."""
    d = ds([[[2, 0], [1, 3]]], z=[[5, 5]])
    got = [tuple(r) for seq in query_features(d, (1, 2)) for r in seq]
    assert got == [(2, 4, 0, 0), (1, 2, 3, 6)]


def test_att_svm_opt():
    """X = ((2,0), (0,1)), v = e₁: ATT-SVM(opt = 0): (2, −1)ᵀp ≥ 1, least norm p = (2, −1)/5, margin 1, ‖p‖² = 1/5;
    the witness is p̂ = (1/2, 0). Equal keys for both tokens (K = (1, 1)): 0 ≥ 1 is infeasible, no margins; K p = X v = (1, 0) is unsolvable: no
    witness."""
    o = att_svm_opt(ds([[[2, 0], [0, 1]]]), 30)
    assert o.result.status == "optimal" and o.pmm_margins == {(0, 1): 1} and o.pmm_norm2 == F(1, 5)
    assert o.witness.p_hat == (F(1, 2), 0)
    assert att_svm_opt(ds([[[2, 0], [0, 1]]]), 30, gap_scale=4).witness.p_hat == (F(1, 8), 0)
    o = att_svm_opt(ds([[[1, 0], [0, 1]]], K=[[[1], [1]]]), 30)
    assert o.result.status != "optimal" and o.pmm_margins is None and o.pmm_norm2 is None and o.witness is None


def test_att_svm_opt_passes_its_precision_and_skips_the_uniqueness_check(monkeypatch):
    """ATT-SVM(opt) in p at the given dps, uniqueness not checked (p's SVM is strictly convex): recorded, then solved."""
    import verify.geometry.keys as keys

    real, calls = keys.solve_svm, []

    def spy(data, kind, select, *args, **kwargs):
        calls.append((kind, select, args, kwargs))
        return real(data, kind, select, *args, **kwargs)

    monkeypatch.setattr(keys, "solve_svm", spy)
    att_svm_opt(ds([[[2, 0], [0, 1]]]), 31)
    assert calls == [("p", "opt", (31,), {"check_unique": False})]


def test_att_svm_opt_without_a_certified_optimum_has_no_margins(monkeypatch):
    """Status "unknown" with a (float) solution attached: p^mm is not known, so no margins are reported."""
    from types import SimpleNamespace

    import verify.geometry.keys as keys
    monkeypatch.setattr(keys, "solve_svm", lambda *a, **k: SimpleNamespace(status="unknown", solution=(1, 0)))
    o = att_svm_opt(ds([[[2, 0], [0, 1]]]), 30)
    assert o.pmm_margins is None and o.pmm_norm2 is None
