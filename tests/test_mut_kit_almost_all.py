"""verify.kit.almost_all (mutation tests): the seeded noise draw X + σG around a dataset (entries the exact binary
values of the float Gaussian draws, in the order X then z), the generic event "the n(T − 1) rows (x_it − x_i1) ⊗ z_i
are independent" decided by exact rank, the enumeration of selections α ∈ [T]ⁿ and the certified feasibility of each
(the solver replaced by a recording fake)."""
import random
from fractions import Fraction

from verify.data.dataset import Dataset
from verify.kit import almost_all as A

DATA = Dataset.make(X=[[[1, 0], [0, 1]], [[2, 1], [1, 3]]], Y=[1, -1], v=[1, 2], z=[[1, 1], [0, 1]], name="toy")


def _gauss(seed, k):
    rng = random.Random(seed)
    return [Fraction(rng.gauss(0.0, 1.0)) for _ in range(k)]


def test_noise_draw_adds_sigma_times_the_seeded_gaussians_to_x_then_z():
    """σ = 1/2, seed 7: X entries in row-major order get the first 8 Gaussians of Random(7), z the next 4; v kept,
    K and u dropped, the name tagged with the seed (no d suffix at the full d)."""
    g = _gauss(7, 12)
    got = A.noise_draw(DATA, "1/2", 7)
    flat_x = [x for seq in got.X for tok in seq for x in tok]
    base_x = [x for seq in DATA.X for tok in seq for x in tok]
    assert flat_x == [b + Fraction(1, 2) * e for b, e in zip(base_x, g[:8])]
    flat_z = [x for row in got.z for x in row]
    assert flat_z == [b + Fraction(1, 2) * e for b, e in zip([1, 1, 0, 1], g[8:])]
    assert list(got.v) == [1, 2] and got.K is None and got.u is None
    assert got.name == "toy-noise7"
    assert got.Y == DATA.Y


def test_noise_draw_drops_keys_and_the_fixed_query():
    """K and u belong to the noise-free tokens: the draw has neither."""
    data = Dataset.make(X=[[[1, 0], [0, 1]]], Y=[1], v=[1, 0], K=[[[1], [2]]], u=[0, 1])
    got = A.noise_draw(data, 1, 2)
    assert got.K is None and got.u is None


def test_noise_draw_is_reproducible_and_seed_dependent():
    a, b, c = A.noise_draw(DATA, 1, 3), A.noise_draw(DATA, 1, 3), A.noise_draw(DATA, 1, 4)
    assert a.X == b.X and a.X != c.X


def test_noise_draw_without_queries_keeps_none_and_cuts_to_d():
    """d = 1 of a d = 2 dataset without z: every token keeps its first coordinate (+ noise), z stays None, v is cut
    to its first entry, the name gets "-d1"."""
    data = Dataset.make(X=[[[1, 5], [2, 6]]], Y=[1], v=[3, 4], name="nz")
    g = _gauss(1, 2)
    got = A.noise_draw(data, 2, 1, d=1)
    assert got.z is None and got.d == 1
    assert [tok[0] for tok in got.X[0]] == [1 + 2 * g[0], 2 + 2 * g[1]]
    assert list(got.v) == [3]
    assert got.name == "nz-noise1-d1"


def test_noise_draw_replaces_a_zero_head_cut_by_e1():
    """v = (0, 5) cut to d = 1 is 0: the draw's head becomes e₁ = (1); cut to d = 2 it is kept."""
    data = Dataset.make(X=[[[1, 5], [2, 6]]], Y=[1], v=[0, 5], name="h")
    assert list(A.noise_draw(data, 0, 0, d=1).v) == [1]
    assert list(A.noise_draw(data, 0, 0, d=2).v) == [0, 5]
    data3 = Dataset.make(X=[[[1, 5, 1], [2, 6, 1]]], Y=[1], v=[0, 0, 5], name="h3")
    assert list(A.noise_draw(data3, 0, 0, d=2).v) == [1, 0]


def test_noise_draw_with_zero_sigma_is_the_data():
    got = A.noise_draw(DATA, 0, 5)
    assert got.X == DATA.X and got.z == DATA.z


def test_generic_is_exact_rank_of_the_difference_rows():
    """n = 2, T = 2, d = 2: rows (x_i2 − x_i1) ⊗ z_i: (−1, 1) ⊗ (1, 1) and (−1, 2) ⊗ (0, 1) are independent (rank 2
    = n(T − 1)); a dataset with equal tokens in sequence 2 has a zero row: rank 1 < 2."""
    assert A.generic(DATA) == (True, 2, 2)
    tied = DATA.replace(X=[[[1, 0], [0, 1]], [[2, 1], [2, 1]]])
    assert A.generic(tied) == (False, 1, 2)
    # T = 3, n = 1, z = e₁: rows (x_2 − x_1) ⊗ e₁ and (x_3 − x_1) ⊗ e₁ with x_3 − x_1 = 2(x_2 − x_1): rank 1 < 2
    col = Dataset.make(X=[[[0, 0], [1, 1], [2, 2]]], Y=[1], v=[1, 0], z=[[1, 0]])
    assert A.generic(col) == (False, 1, 2)
    ind = Dataset.make(X=[[[0, 0], [1, 0], [0, 1]]], Y=[1], v=[1, 0], z=[[1, 0]])
    assert A.generic(ind) == (True, 2, 2)


def test_all_selections_in_product_order_up_to_the_limit():
    assert A.all_selections(DATA) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert A.all_selections(DATA, 3) == [(0, 0), (0, 1), (1, 0)]
    assert A.all_selections(DATA, 0) == []
    # 3⁷ = 2187 selections, cut at ENUMERATION_LIMIT = 729: the last is 728 = 0222222 in base 3
    big = Dataset.make(X=[[[k, 1] for k in range(3)]] * 7, Y=[1] * 7, v=[1, 0])
    assert len(A.all_selections(big)) == 729 and A.all_selections(big)[-1] == (0, 2, 2, 2, 2, 2, 2)
    assert len(A.all_selections(big, 730)) == 730


def test_feasibility_of_selections_solves_the_frobenius_svm_of_every_selection(monkeypatch):
    """Each α is solved as solve_svm(data, "W", α, dps, check_unique=False) and mapped through certified_feasible."""
    calls = []

    def fake_solve(data, kind, alpha, dps, check_unique=True):
        calls.append((data, kind, alpha, dps, check_unique))
        return alpha

    monkeypatch.setattr(A, "solve_svm", fake_solve)
    monkeypatch.setattr(A, "certified_feasible", lambda res: {(0, 0): True, (0, 1): False}.get(res))
    got = A.feasibility_of_selections(DATA, 40)
    assert got == [((0, 0), True), ((0, 1), False), ((1, 0), None), ((1, 1), None)]
    assert calls == [(DATA, "W", a, 40, False) for a in [(0, 0), (0, 1), (1, 0), (1, 1)]]
    calls.clear()
    assert [a for a, _ in A.feasibility_of_selections(DATA, 40, limit=2)] == [(0, 0), (0, 1)]
