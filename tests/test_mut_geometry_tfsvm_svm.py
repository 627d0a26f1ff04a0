"""verify.geometry.tfsvm_svm (mutation tests): Definition 2 decided exactly on both sides (strict score inequality,
vacuous support, unknown feasibility), the support sets and margins of D-T2's selections derived by hand, the
enumeration limit, the loss along a ray from ℓ(u) = log(1 + e^{−u}) and the balanced factorisation of a matrix
with known singular values."""
from fractions import Fraction as F

import pytest
from flint import arb, arb_mat

from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry.tfsvm_svm import (
    Selection,
    all_selections,
    as_arb_mat,
    balanced_factors,
    excess_along,
    fro2,
    selected_limit,
    selection,
)
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import to_arb, working_precision


def _ell(u):
    return (1 + (-u).exp()).log()


def test_definition_2_on_both_sides():
    scores = ((1, 0, 1), (F(1, 2), F(1, 2)))
    assert Selection((0, 0), False).locally_optimal(scores) is False
    assert Selection((0, 0), None).locally_optimal(scores) is None
    assert Selection((0, 0), True, support={0: [1]}).locally_optimal(scores) is True  # 1 > 0
    assert Selection((0, 0), True, support={0: [2]}).locally_optimal(scores) is False  # 1 = 1: not strict
    assert Selection((0, 0), True, support={1: [1]}).locally_optimal(scores) is False
    assert Selection((1, 0), True, support={0: [0]}).locally_optimal(scores) is False  # 0 < 1
    assert Selection((0, 0), True, support={0: [], 1: []}).locally_optimal(scores) is True  # vacuous
    assert Selection((0,), True, margins={(0, 1): F(1), (0, 2): F(1)}).all_support() is True
    assert Selection((0,), True, margins={(0, 1): F(1), (0, 2): F(3, 2)}).all_support() is False


def test_selections_of_d_t2_by_hand():
    """Scores (1, 0), (−2, 0). α = (1, 1): W^mm_α = (1,0,1,0)/2 (spec), margins 1 and κ = 2 — support {1} in sequence
    0 only, locally optimal (1 > 0). α = opt = (1, 2): both margins 1 (spec). α = (2, 1): with a = W₀₀ + W₁₀,
    b = W₀₁ + W₁₁ the constraints are −a ≥ 1, 2a + b ≥ 1, least norm a = −1, b = 3: both tight; sequence 0 selects
    its lower score: not locally optimal. D-STAT: infeasible (verified Farkas)."""
    d = D.d_t2()
    with working_precision(30):
        s = selection(d, (0, 0), 30)
        assert (s.alpha, s.feasible, s.support, s.margins) == ((0, 0), True, {0: [1], 1: []}, {(0, 1): 1, (1, 1): 2})
        assert s.locally_optimal(d.scores) is True and s.all_support() is False
        assert list(s.result.solution) == [F(1, 2), 0, F(1, 2), 0]
        s = selection(d, (0, 1), 30)
        assert (s.support, s.margins) == ({0: [1], 1: [0]}, {(0, 1): 1, (1, 0): 1}) and s.all_support() is True
        s = selection(d, (1, 0), 30)
        assert (s.feasible, s.support, s.margins) == (True, {0: [0], 1: [1]}, {(0, 0): 1, (1, 1): 1})
        assert s.locally_optimal(d.scores) is False
        s = selection(D.d_stat(), (0, 0), 30)
        assert (s.feasible, s.support, s.margins) == (False, {}, {}) and s.locally_optimal(D.d_stat().scores) is False


def test_all_selections_enumerates_t_to_the_n_within_the_limit():
    with working_precision(30):
        sel = all_selections(D.d_t2(), 30)
        assert [s.alpha for s in sel] == [(0, 0), (0, 1), (1, 0), (1, 1)]
        assert len(all_selections(D.d_t2(), 30, limit=4)) == 4
        with pytest.raises(ValueError, match="2\\^2 selections exceed the limit 3"):
            all_selections(D.d_t2(), 30, limit=3)


def test_loss_along_a_ray_and_its_limit():
    """D-T2: L(0) − L⋆ = ½[ℓ(1/2) − ℓ(1)] + ½[ℓ(−1) − ℓ(0)] (uniform attention: φ = mean score, L⋆ at the optimal
    scores 1 and 0); along W^mm the excess vanishes; selecting α the loss tends to ½[ℓ(γ_0α₀) + ℓ(γ_1α₁)]."""
    d = D.d_t2()
    with working_precision(30):
        model = LinearLogitModel.from_dataset(d, "W")
        half = arb(1) / 2
        want = half * (_ell(half) - _ell(arb(1))) + half * (_ell(arb(-1)) - _ell(arb(0)))
        for R in (0, F(0), arb(0)):
            assert abs(excess_along(model, (1, 2, 3, 4), R) - want) < arb(10) ** -25
        far = excess_along(model, (F(1, 2), F(-3, 2), F(1, 2), F(-3, 2)), 60)
        assert 0 <= far.mid() < 1e-20
        assert abs(excess_along(model, (1, 0, 1, 0), arb(2)) - excess_along(model, (2, 0, 2, 0), 1)) < arb(10) ** -25
        for alpha, g in (((0, 0), (1, -2)), ((1, 1), (0, 0)), ((0, 1), (1, 0))):
            want = (_ell(to_arb(g[0])) + _ell(to_arb(g[1]))) / 2
            assert abs(selected_limit(model, alpha) - want) < arb(10) ** -25


def test_balanced_factors_of_a_known_svd():
    """W = [[3, 0], [0, 1]]: K = Q = diag(√3, 1) (up to signs): KQᵀ = W and ½(‖K‖² + ‖Q‖²) = ‖W‖_* = 4; W = [[0, 2]]
    (rank 1, d₁ = 1): one column, ‖K‖² = ‖Q‖² = 2; m larger than the rank pads zero columns."""
    with working_precision(30):
        W = as_arb_mat([[3, 0], [0, F(1)]])
        assert isinstance(W, arb_mat) and W[0, 0] == 3 and W[1, 1] == 1
        K, Q = balanced_factors(W)
        assert (K.nrows(), K.ncols(), Q.nrows(), Q.ncols()) == (2, 2, 2, 2)
        assert all(abs(x) < arb(10) ** -25 for x in (K * Q.transpose() - W).entries())
        assert abs((fro2(K) + fro2(Q)) / 2 - 4) < arb(10) ** -25 and abs(fro2(K) - fro2(Q)) < arb(10) ** -25
        K, Q = balanced_factors(as_arb_mat([[0, 2]]))
        assert (K.ncols(), Q.nrows()) == (1, 2) and abs(fro2(K) - 2) < arb(10) ** -25
        K, Q = balanced_factors(W, m=3)
        assert K.ncols() == 3 and all(K[r, 2] == 0 and Q[r, 2] == 0 for r in range(2))
        assert all(abs(x) < arb(10) ** -25 for x in (K * Q.transpose() - W).entries())
        assert fro2(arb_mat([[1, 2], [3, 4]])) == 30
        assert as_arb_mat([[arb(1) / 3]])[0, 0].overlaps(arb(1) / 3)


def test_the_enumeration_limit_counts_t_to_the_n():
    """n = 3, T = 2: 2³ = 8 selections (not 2·3) exceed a limit of 7; one sequence of 257 tokens exceeds the
    default 256 (refused before any solve)."""
    three = Dataset.make(X=[[[1], [0]]] * 3, Y=[1] * 3, v=[1], name="three")
    with pytest.raises(ValueError, match="2\\^3 selections exceed the limit 7"):
        all_selections(three, 15, limit=7)
    long = Dataset.make(X=[[[k] for k in range(257)]], Y=[1], v=[1], name="long")
    with pytest.raises(ValueError, match="257\\^1 selections exceed the limit 256"):
        all_selections(long, 15)
