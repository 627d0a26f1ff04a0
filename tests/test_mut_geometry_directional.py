"""verify.geometry.directional (mutation tests): Definition 3 of mmts (selected tokens, margins, neighbours, next
margin), the baseline L_σ and its excess, the leading coefficient, candidate directions, general position (the star
reading of the module docstring), realisable neighbour sets and the seeded general-position datasets.

Expected values are derived here by hand on tiny key sets (keys in ℝ¹ or ℝ², token = (key, score), v = e_last, Y = 1,
so γ_it is the token's last coordinate), losses with mpmath (logistic ℓ(u) = log(1 + e^{−u}), ℓ'(u) = −1/(1 + e^u))."""
from fractions import Fraction as F
from types import SimpleNamespace

import mpmath
import pytest
from flint import arb

from verify.data.dataset import Dataset
from verify.geometry import directional as DR
from verify.numbers.precision import to_arb, working_precision

TOL = mpmath.mpf(10) ** -25


@pytest.fixture(autouse=True)
def _thirty_digits():
    with working_precision(30):
        yield


def _mp(x):
    return mpmath.mpf(x.mid().str(40, radius=False))


def _data(keys, scores, name="k"):
    """One or more sequences: keys (lists of key vectors) and scores; token = key + [score], v = e_{d+1}."""
    d = len(keys[0][0])
    X = [[[str(F(c)) for c in k] + [str(F(s))] for k, s in zip(ks, ss)] for ks, ss in zip(keys, scores)]
    K = [[[str(F(c)) for c in k] for k in ks] for ks in keys]
    return Dataset.make(X=X, Y=[1] * len(keys), v=[0] * d + [1], K=K, name=name)


def _ll(u):
    return mpmath.log(1 + mpmath.e ** (-u))


def _ld(u):
    return -1 / (1 + mpmath.e ** u)


PLANE = _data([[(1, 0), (0, 1), (0, 0)]], [[3, 1, 2]])


def test_directional_unique_selection_margins_neighbours():
    """q = (2, 1): logits (2, 1, 0): σ = 0, margins 1 and 2, Θ (unnormalised) 1, next margin 2, N = {(0,1)};
    ‖q‖² = 5, Θ_q² = 1/5; gaps γ_σ − γ_t: 2 and 1 → neighbour-optimal, not all-higher."""
    info = DR.directional(PLANE, (2, 1))
    assert info.q == (F(2), F(1)) and info.norm_sq == 5
    assert info.selected == ((0,),) and info.unique and info.sigma == (0,)
    assert info.margins == {(0, 1): 1, (0, 2): 2}
    assert info.theta == 1 and info.next_margin == 2 and info.neighbours == ((0, 1),)
    assert info.theta_sq == F(1, 5)
    assert info.gap(0, 1) == 2 and info.gap(0, 2) == 1
    assert info.neighbour_optimal and not info.all_higher
    assert "σ = [0]" in info.describe() and "next margin" in info.describe()


def test_directional_two_neighbours_no_next_margin():
    """q = (1, 0): logits (1, 0, 0): both margins 1 → N = {(0,1), (0,2)}, no next margin."""
    info = DR.directional(PLANE, (1, 0))
    assert info.theta == 1 and info.next_margin is None and info.neighbours == ((0, 1), (0, 2))
    assert "next margin" not in info.describe()


def test_directional_tied_selection():
    """q = (1, 1): logits (1, 1, 0): σ tied {0, 1} → not unique, no margins, θ None."""
    info = DR.directional(PLANE, ("1", "1"))
    assert info.selected == ((0, 1),) and not info.unique
    assert info.margins == {} and info.theta is None and info.neighbours == ()
    assert "tied" in info.describe()


def test_neighbour_optimal_and_all_higher_both_sides():
    """q = (−1, 2): logits (−1, 2, 0): σ = 1 (γ 1), margins t=0: 3, t=2: 2 → N = {(0,2)}, γ_2 = 2 > 1: all higher,
    not neighbour-optimal; equal scores (gap 0) → neither."""
    info = DR.directional(PLANE, (-1, 2))
    assert info.sigma == (1,) and info.margins == {(0, 0): 3, (0, 2): 2} and info.neighbours == ((0, 2),)
    assert info.all_higher and not info.neighbour_optimal
    flat = _data([[(1, 0), (0, 1)]], [[1, 1]])
    eq = DR.directional(flat, (1, 0))
    assert not eq.all_higher and not eq.neighbour_optimal


def test_two_sequences_margins_across_inputs():
    """n = 2 (keys ℝ¹): seq 0 keys (0, 1, 3), seq 1 keys (2, 0); q = (1): σ = (2, 0), margins (0,0): 3, (0,1): 2,
    (1,1): 2 → Θ = 2, N = {(0,1), (1,1)}, next 3."""
    data = _data([[(0,), (1,), (3,)], [(2,), (0,), (1,)]], [[0, 1, 2], [5, 1, 0]])
    info = DR.directional(data, (1,))
    assert info.sigma == (2, 0)
    assert info.margins == {(0, 0): 3, (0, 1): 2, (1, 1): 2, (1, 2): 1}
    assert info.theta == 1 and info.next_margin == 2 and info.neighbours == ((1, 2),)


def test_unit():
    """q/‖q‖ in arb."""
    u = DR.unit((3, 4))
    assert abs(_mp(u[0]) - mpmath.mpf("0.6")) < TOL and abs(_mp(u[1]) - mpmath.mpf("0.8")) < TOL


def test_baseline_and_leading_coefficient():
    """L_σ = (1/n)Σ ℓ(γ_σ) and c = (1/n)Σ_N |ℓ'(γ_σ)|(γ_σ − γ_t) (logistic; exponential ℓ = e^{−u}), n = 2."""
    data = _data([[(0,), (1,), (3,)], [(2,), (0,), (1,)]], [[0, 1, 2], [5, 1, 0]])
    info = DR.directional(data, (1,))  # σ = (2, 0): γ_σ = (2, 5); N = {(1, 2)}: gap 5 − 0
    assert abs(_mp(DR.baseline(info, "logistic")) - (_ll(2) + _ll(5)) / 2) < TOL
    assert abs(_mp(DR.baseline(info, "exponential")) - (mpmath.e ** -2 + mpmath.e ** -5) / 2) < TOL
    assert abs(_mp(DR.leading_coefficient(info, "logistic")) - abs(_ld(5)) * 5 / 2) < TOL
    assert abs(_mp(DR.leading_coefficient(info, "exponential")) - mpmath.e ** -5 * 5 / 2) < TOL
    info2 = DR.directional(PLANE, (1, 0))  # σ = 0 (γ 3), N = {(0,1): gap 2, (0,2): gap 1}
    assert abs(_mp(DR.leading_coefficient(info2, "logistic")) - abs(_ld(3)) * 3) < TOL
    info3 = DR.directional(PLANE, (-1, 2))  # σ = 1 (γ 1), N = {(0,2)}: gap 1 − 2 = −1 (negative c)
    assert abs(_mp(DR.leading_coefficient(info3, "logistic")) - abs(_ld(1)) * -1) < TOL


def test_baseline_excess_with_given_and_computed_states():
    """L(p) − L_σ = (1/n)Σ [ℓ(φ_i) − ℓ(γ_σ)], φ_i = Σ_t s_t γ_t, for softmax weights supplied by a fake model;
    ``states`` given are used as is (the model is not called)."""
    data = _data([[(0,), (1,), (3,)], [(2,), (0,), (1,)]], [[0, 1, 2], [5, 1, 0]])
    info = DR.directional(data, (1,))
    S = [[F(1, 10), F(2, 10), F(7, 10)], [F(6, 10), F(3, 10), F(1, 10)]]
    states = [SimpleNamespace(s=[to_arb(x) for x in row]) for row in S]
    calls = []

    class Model:
        def states(self, p):
            calls.append(p)
            return states

    want = 0
    for row, g, s in zip(S, ((0, 1, 2), (5, 1, 0)), (2, 0)):
        phi = sum(mpmath.mpf(x.numerator) / x.denominator * y for x, y in zip(row, g))
        want += _ll(phi) - _ll(g[s])
    want /= 2
    got = DR.baseline_excess(Model(), info, "P", "logistic")
    assert calls == ["P"] and abs(_mp(got) - want) < TOL
    got2 = DR.baseline_excess(None, info, "P", "logistic", states=states)
    assert abs(_mp(got2) - want) < TOL


def test_candidate_directions_routes_cones(monkeypatch):
    """Every feasible α (Tⁿ ≤ limit): p^mm(α) then p^mm + c·u_k, c = ‖p^mm‖∞/(4‖u_k‖∞); infeasible α skipped;
    Tⁿ > limit → []. lmm_geometry / cone_directions replaced by recording fakes."""
    import verify.geometry.cones as C

    data = _data([[(0,), (1,)]], [[0, 1]])  # n = 1, T = 2
    seen = []

    def fake_geometry(d, alpha, dps):
        seen.append((alpha, dps))
        return SimpleNamespace(feasible=alpha == (1,), p_mm=(F(-2), F(1)))

    monkeypatch.setattr(C, "lmm_geometry", fake_geometry)
    monkeypatch.setattr(C, "cone_directions", lambda g: [(F(1), F(-4)), (F(0), F(1, 2))])
    out = DR.candidate_directions(data, limit=2, dps=33)
    assert seen == [((0,), 33), ((1,), 33)]
    assert out == [("p^mm(α = [1])", (F(-2), F(1))),
                   ("p^mm(α = [1]) tilted along u0", (F(-2) + F(1, 8), F(1) - F(1, 2))),
                   ("p^mm(α = [1]) tilted along u1", (F(-2), F(1) + F(1, 2)))]
    assert DR.candidate_directions(data, limit=1) == []
    assert len(seen) == 2


def test_general_position_true_with_the_star_count():
    """ℝ¹ keys (0, 1, 3), n = 1: every single row nonzero, every two-row star has distinct rows → met; 6 one-row
    stars + 3 two-row stars = 9. n = 2, T = 2, keys (0,1), (0,3): stars deduplicated by (i, σ_i, t): 4 + 4 = 8."""
    ok, detail = DR.general_position(_data([[(0,), (1,), (3,)]], [[0, 1, 2]]))
    assert ok is True and detail == "9 star matrices (≤ 2 rows) checked exactly, d = 1"
    ok, detail = DR.general_position(_data([[(0,), (1,)], [(0,), (3,)]], [[0, 1], [0, 1]]))
    assert ok is True and detail == "8 star matrices (≤ 2 rows) checked exactly, d = 1"


def test_general_position_fails_on_rank_and_on_the_ones_vector():
    """A zero row (two equal keys, ℝ¹) → rank 0 < 1 at one row; two sequences with the same keys (1, 0): the star
    σ = (0, 0) has rows (1), (1), so 𝟙 = M·(1) ∈ range(M); ℝ²: collinear keys give parallel rows (rank 1 < 2)."""
    ok, detail = DR.general_position(_data([[(0,), (0,), (3,)]], [[0, 1, 2]]))
    assert ok is False and detail.startswith("the 1 key differences") and "rank 0 < 1" in detail
    ok, detail = DR.general_position(_data([[(1,), (0,)], [(1,), (0,)]], [[0, 1], [0, 1]]))
    assert ok is False and detail.startswith("𝟙 ∈ range(M) for the 2 rows")
    # ℝ²: three keys on a line through no … rank test at size 2: rows k0 − k1, k0 − k2 parallel
    ok, detail = DR.general_position(_data([[(0, 0), (1, 1), (2, 2)]], [[0, 1, 2]]))
    assert ok is False and "rank 1 < 2" in detail


def test_neighbour_sets_each_outcome():
    """ℝ¹, n = 1, T = 4, keys (0, −1, −1, 1): σ = 0, S = {1, 2}: rows 1, 1 → q = 1 solves them, but row k₀ − k₃ = −1
    needs −q ≥ 1 → Farkas; keys (0, −1, −1, −2): the same S realisable by q = 1 (row 2 ≥ 1); S = {1, 3} rows 1, 2 →
    M q = 𝟙 unsolvable (exact rank)."""
    sets = {(ns.sigma, ns.S): ns for ns in DR.neighbour_sets(_data([[(0,), (-1,), (-1,), (1,)]], [[0, 1, 2, 3]]))}
    assert len(sets) == 4 * 3
    ns = sets[((0,), ((0, 1), (0, 2)))]
    assert not ns.realisable and ns.how.startswith("exact Farkas") and ns.q is None
    sets = {(ns.sigma, ns.S): ns for ns in DR.neighbour_sets(_data([[(0,), (-1,), (-1,), (-2,)]], [[0, 1, 2, 3]]))}
    ns = sets[((0,), ((0, 1), (0, 2)))]
    assert ns.realisable and ns.q == (F(1),) and ns.how.startswith("exact QP")
    ns = sets[((0,), ((0, 1), (0, 3)))]
    assert not ns.realisable and ns.how == "M q = 𝟙 has no solution (exact rank)"
    # σ = 3 (key −2): rows k₃ − k_t = −2, −1, −1; S = {1, 2}: −q = 1 → q = −1, other row −2q = 2 ≥ 1 → realisable
    ns = sets[((3,), ((0, 1), (0, 2)))]
    assert ns.realisable and ns.q == (F(-1),)


def test_general_position_dataset_and_its_options():
    """Seeded draws: the returned data is in general position, has n, T, d as asked, distinct scores per sequence,
    the documented name; the same seed gives the same data; tries = 0 raises."""
    data = DR.general_position_dataset(n=1, T=3, d=2, seed=4)
    assert data.n == 1 and data.T == 3 and len(data.keys()[0][0]) == 2
    assert data.name == "general-position-n1T3d2-s4"
    assert DR.general_position(data)[0]
    assert all(len(set(s)) == 3 for s in data.scores)
    assert list(data.v) == [0, 0, 1] and list(data.Y) == [1]
    assert all(tok[2] == g for seq, gs in zip(data.X, data.scores) for tok, g in zip(seq, gs))
    assert all(list(tok[:2]) == list(k) for seq, ks in zip(data.X, data.keys()) for tok, k in zip(seq, ks))
    again = DR.general_position_dataset(n=1, T=3, d=2, seed=4)
    assert again.X == data.X
    with pytest.raises(RuntimeError):
        DR.general_position_dataset(tries=0)
    default = DR.general_position_dataset()
    assert default.n == 2 and default.T == 3 and default.name == "general-position-n2T3d2-s0"


def test_general_position_dataset_draws(monkeypatch):
    """The draws: keys Fraction(randint(−40, 40), 13), scores Fraction(randint(0, 60), 31) from Random(seed); a
    draw with tied scores is skipped, a draw not in general position is skipped (fake general_position)."""
    import random

    verdicts = iter([False, True])
    monkeypatch.setattr(DR, "general_position", lambda data: (next(verdicts), ""))
    data = DR.general_position_dataset(n=1, T=2, d=1, seed=7, tries=5)
    rng = random.Random(7)
    draws = []
    while len(draws) < 2:
        K = [[[F(rng.randint(-40, 40), 13) for _ in range(1)] for _ in range(2)]]
        sc = [[F(rng.randint(0, 60), 31) for _ in range(2)]]
        if len(set(sc[0])) == 2:
            draws.append((K, sc))
    K, sc = draws[1]
    assert [list(k) for k in data.keys()[0]] == K[0]
    assert list(data.scores[0]) == sc[0]


def test_planar_drops_zero_coordinates():
    """Keys (x, 0, y) → (x, y); X, Y, v kept; name default '<name>-planar' or the given one."""
    data = Dataset.make(X=[[[1, 0], [0, 1]]], Y=[-1], v=[0, 1], K=[[[1, 0, 2], [3, 0, 0]]], name="fig")
    p = DR.planar(data)
    assert [list(k) for k in p.keys()[0]] == [[1, 2], [3, 0]]
    assert p.X == data.X and list(p.Y) == [-1] and list(p.v) == [0, 1] and p.name == "fig-planar"
    assert DR.planar(data, name="x").name == "x"


def test_short_and_dot():
    """_short: the exact fraction when ≤ 14 characters, else 6 significant digits; _dot exact."""
    assert DR._short(F(1, 3)) == "1/3"
    assert DR._short(F(1, 10**14)) == "1e-14"
    assert DR._short(F(12345678901234)) == "12345678901234"
    assert DR._short(F(123456789012345)) == "1.23457e+14"
    assert DR._short(F(10**400, 3)) == "3.33333e+399"  # beyond float64: 10⁴⁰⁰/3 = 3.333…·10³⁹⁹, no OverflowError
    assert DR._dot((1, F(1, 2)), (2, 4)) == 4
    assert isinstance(arb(1), arb)


# ----- G5 additions (issue 21: the survivors of dev/mutation-survivors-geometry-G3.md) -------------------------
def test_describe_exact_text():
    """PLANE, q = (2, 1): σ = [0], Θ_q = 1/√5 = 0.447214, N = [(0,1)] (γ 1 vs 3), next margin 2/√5 = 0.894427;
    q = (1, 0): Θ_q = 1, two neighbours, no next margin; q = (1, 1): the tie."""
    assert DR.directional(PLANE, (2, 1)).describe() == (
        "q ∝ (2, 1): σ = [0], Θ_q = 0.447214, N(q) = [(0,1) γ 1 vs 3], next margin 0.894427")
    assert DR.directional(PLANE, (1, 0)).describe() == (
        "q ∝ (1, 0): σ = [0], Θ_q = 1, N(q) = [(0,1) γ 1 vs 3, (0,2) γ 2 vs 3]")
    assert DR.directional(PLANE, (1, 1)).describe() == "q ∝ (1, 1): selected tokens tied [[0, 1]]"


def test_stars_rows_are_selected_minus_other():
    """ℝ¹ keys (0, 1, 3), n = 1: the one-row stars of σ = 0 are k₀ − k₁ = −1 and k₀ − k₂ = −3."""
    stars = list(DR._stars(_data([[(0,), (1,), (3,)]], [[0, 1, 2]]), 1))
    assert stars[:2] == [((0,), ((0, 1),), [(F(-1),)]), ((0,), ((0, 2),), [(F(-3),)])]


def test_candidate_directions_passes_the_data_and_geometry_and_enumerates_pairs(monkeypatch):
    """Fakes check that lmm_geometry gets the dataset and cone_directions the geometry; default dps 40; n = 2, T = 3:
    the 9 pairs α in product order; T^n = 9 > limit 8 → [] (T·n = 6 would not exceed it)."""
    import verify.geometry.cones as C

    data = _data([[(0,), (1,), (2,)], [(0,), (1,), (2,)]], [[0, 1, 2], [0, 1, 2]])
    seen, geoms = [], {}

    def fake_geometry(d, alpha, dps):
        assert d is data
        seen.append((alpha, dps))
        geoms[alpha] = SimpleNamespace(feasible=True, p_mm=(F(1),))
        return geoms[alpha]

    def fake_directions(g):
        assert g in geoms.values()
        return [(F(2),)]

    monkeypatch.setattr(C, "lmm_geometry", fake_geometry)
    monkeypatch.setattr(C, "cone_directions", fake_directions)
    assert DR.candidate_directions(data, limit=8) == []
    assert seen == []
    out = DR.candidate_directions(data, limit=9)
    assert [a for a, _ in seen] == [(i, j) for i in range(3) for j in range(3)]
    assert {dps for _, dps in seen} == {40}
    assert out[:2] == [("p^mm(α = [0, 0])", (F(1),)), ("p^mm(α = [0, 0]) tilted along u0", (F(1) + F(1, 8) * 2,))]


def test_neighbour_sets_rows_equal_one_exactly_and_the_others_at_least_one():
    """ℝ¹, σ = 0 (key 0), other keys −1, −1, −½: rows 1, 1, ½. S = {1, 2} forces q = 1 (rows = 1, not merely ≥ 1 or
    ≤ 2), and then row ½·1 < 1: not realisable (Farkas). Keys 0, −1, −1, −1: S = {1, 2}, q = 1, the other row 1 ≥ 1
    (not ≥ 2): realisable."""
    sets = {(ns.sigma, ns.S): ns for ns in DR.neighbour_sets(_data([[(0,), (-1,), (-1,), ("-1/2",)]], [[0, 1, 2, 3]]))}
    ns = sets[((0,), ((0, 1), (0, 2)))]
    assert ns.realisable is False and ns.how.startswith("exact Farkas")
    sets = {(ns.sigma, ns.S): ns for ns in DR.neighbour_sets(_data([[(0,), (-1,), (-1,), (-1,)]], [[0, 1, 2, 3]]))}
    ns = sets[((0,), ((0, 1), (0, 2)))]
    assert ns.realisable is True and ns.q == (F(1),)
    ns = sets[((1,), ((0, 0), (0, 2)))]  # σ = 1: rows k₁ − k₀ = −1, k₁ − k₂ = 0: M q = 𝟙 unsolvable
    assert ns.realisable is False and ns.how == "M q = 𝟙 has no solution (exact rank)"


def test_neighbour_sets_over_two_inputs():
    """n = 2, T = 2, ℝ¹ keys (0, 1) and (0, 2): σ ranges over the 4 pairs, pool = the other token of each input, the one
    star S = pool (d + 1 = 2 rows). σ = (1, 1): rows 1 and 2 → M q = 𝟙 unsolvable; σ = (0, 0): −1, −2 likewise."""
    sets = list(DR.neighbour_sets(_data([[(0,), (1,)], [(0,), (2,)]], [[0, 1], [0, 1]])))
    assert [ns.sigma for ns in sets] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert all(ns.S == ((0, 1 - s0), (1, 1 - s1)) for ns, (s0, s1) in zip(sets, [(0, 0), (0, 1), (1, 0), (1, 1)]))
    assert all(ns.realisable is False for ns in sets)


@pytest.mark.parametrize("seed", [38, 8])
def test_general_position_dataset_draw_ranges(monkeypatch, seed):
    """Seeds whose first draw depends on the ranges: keys Fraction(randint(−40, 40), 13) (seed 38), scores
    Fraction(randint(0, 60), 31) (seed 8), re-derived with the same generator (general_position faked True)."""
    import random

    monkeypatch.setattr(DR, "general_position", lambda data: (True, ""))
    data = DR.general_position_dataset(n=1, T=2, d=1, seed=seed)
    rng = random.Random(seed)
    K = [[F(rng.randint(-40, 40), 13)] for _ in range(2)]
    sc = [F(rng.randint(0, 60), 31) for _ in range(2)]
    assert [list(k) for k in data.keys()[0]] == K and list(data.scores[0]) == sc


def test_general_position_dataset_skips_tied_scores_and_gives_up_after_tries(monkeypatch):
    """Seed 170: the first draw ties the two scores (skipped, the next draw is used); general_position never met:
    after the default 50 tries, RuntimeError("no general-position draw"); met at the 51st call only: still an error."""
    import random

    monkeypatch.setattr(DR, "general_position", lambda data: (True, ""))
    rng = random.Random(170)
    first = ([F(rng.randint(-40, 40), 13) for _ in range(2)], [F(rng.randint(0, 60), 31) for _ in range(2)])
    assert first[1][0] == first[1][1]
    second = ([F(rng.randint(-40, 40), 13) for _ in range(2)], [F(rng.randint(0, 60), 31) for _ in range(2)])
    data = DR.general_position_dataset(n=1, T=2, d=1, seed=170)
    assert [k[0] for k in data.keys()[0]] == second[0] and list(data.scores[0]) == second[1]
    calls = []
    monkeypatch.setattr(DR, "general_position", lambda data: (calls.append(1) or len(calls) > 50, ""))
    with pytest.raises(RuntimeError, match="no general-position draw"):
        DR.general_position_dataset(n=1, T=2, d=1, seed=0)
    assert len(calls) == 50  # seed 0 draws no tied scores in 51 tries: every try reaches general_position


def test_candidate_directions_default_limit_is_64(monkeypatch):
    """n = 1, T = 65 (ℝ¹ keys 0..64): T^n = 65 > 64 → [] without building any geometry (fake: records calls)."""
    import verify.geometry.cones as C

    seen = []
    monkeypatch.setattr(C, "lmm_geometry", lambda *a: seen.append(a))
    data = _data([[(k,) for k in range(65)]], [list(range(65))])
    assert DR.candidate_directions(data) == [] and seen == []
