"""Fast unit tests pinning verify.geometry.cone_data's seeded search (mutation testing, issue 21).

The filter is re-derived here from the definitions (a non-global locally-optimal α with μ₀ ≥ min_mu0, ‖p^mm‖ ≤ max_norm/scale,
a non-neighbour scoring above γ_α) on the same seeded ``random_dataset``s."""
from __future__ import annotations

import types
from fractions import Fraction as F

import pytest

from verify.data.generators import random_dataset
from verify.geometry import cone_data as D
from verify.geometry.cones import locally_optimal_geometries, mu0


@pytest.fixture(autouse=True)
def _fresh_benign_cache():
    """benign_random_lmm's cache is module state: each test starts empty (mutmut forks from a warmed process)."""
    D._BENIGN.clear()
    yield
    D._BENIGN.clear()


def _qualifies(data, min_mu0=F(1, 1000), max_norm=10, need_higher=True, scale=1):
    if any(len(o) > 1 for o in data.optimal_tokens()):
        return []
    return [g for g in locally_optimal_geometries(data) or [] if not g.is_gmm and mu0(g) >= min_mu0
            and g.norm_sq <= (F(max_norm) / F(scale)) ** 2
            and (not need_higher or any(g.scores[j][t] > g.scores[j][g.alpha[j]] for j, t in g.non_neighbour_pairs()))]


def test_random_dataset_with_lmm_is_the_first_qualifying_seed():
    """Seeds 0, 1, … are tried in turn; the first that qualifies names the dataset."""
    data = D.random_dataset_with_lmm(tries=20)
    first = next(s for s in range(20) if _qualifies(random_dataset(n=2, T=3, d=2, seed=s)))
    assert data.name == f"random-lmm-n2T3d2-s{first}"
    assert data.X == random_dataset(n=2, T=3, d=2, seed=first).X
    assert D.random_dataset_with_lmm(tries=20, name="mine").name == "mine"


def test_candidates_yield_widest_mu0_geometry_and_seed():
    for data, g, s in D.random_lmm_candidates(tries=12):
        good = _qualifies(random_dataset(n=2, T=3, d=2, seed=s))
        assert good and not g.is_gmm
        assert mu0(g) == max(mu0(h) for h in good)
        assert data.X == random_dataset(n=2, T=3, d=2, seed=s).X
    seeds = [s for _, _, s in D.random_lmm_candidates(tries=12)]
    assert seeds == [s for s in range(12) if _qualifies(random_dataset(n=2, T=3, d=2, seed=s))]
    seeds1 = [s for _, _, s in D.random_lmm_candidates(seed=1, tries=6)]
    assert seeds1 == [s for s in range(1000, 1006) if _qualifies(random_dataset(n=2, T=3, d=2, seed=s))]


def test_candidate_filters():
    """need_higher=False and a larger min_mu0 / smaller max_norm change the accepted seeds as the definitions say."""
    for kw in ({"need_higher": False}, {"min_mu0": "1/50"}, {"max_norm": 2}):
        seeds = [s for _, _, s in D.random_lmm_candidates(tries=12, **kw)]
        kk = {"min_mu0": F(kw.get("min_mu0", "1/1000")), "max_norm": kw.get("max_norm", 10),
              "need_higher": kw.get("need_higher", True)}
        assert seeds == [s for s in range(12) if _qualifies(random_dataset(n=2, T=3, d=2, seed=s), **kk)]


def test_scale_suffix_and_no_dataset():
    data = D.random_dataset_with_lmm(tries=20, scale="1/2")
    assert data.name.endswith("-scale1_2")
    with pytest.raises(RuntimeError):
        D.random_dataset_with_lmm(tries=0)


def test_invariance_ladder():
    assert D.INVARIANCE_LADDER[0] == 1 and D.INVARIANCE_LADDER[-1] == 10 ** 8 and len(D.INVARIANCE_LADDER) == 17
    assert list(D.INVARIANCE_LADDER) == sorted(D.INVARIANCE_LADDER)


# ----- random_lmm_candidates / random_dataset_with_lmm with recording stand-ins (routing, filters, counts) ----------
class _FakeData:
    """Stands in for a random dataset: its seed and its optimal tokens (a tie when ``tied``)."""

    def __init__(self, seed, tied=False):
        self.seed, self.tied = seed, tied

    def optimal_tokens(self):
        return ((0, 1),) if self.tied else ((0,),)


class _FakeGeometry:
    """Only what the filter reads: GMM flag, ‖p^mm‖², scores, α, the non-neighbours, and μ₀ (via a patched mu0)."""

    def __init__(self, mu, norm_sq, higher, alpha=(0, 0), gmm=False):
        self.mu, self.norm_sq, self.alpha, self.is_gmm = F(mu), F(norm_sq), alpha, gmm
        # one non-neighbour (0, τ), τ = α₀ + 1 mod 3: its score is above, equal to, or below γ_α = 1 ("higher" = 1, 0, −1)
        self.tau = (alpha[0] + 1) % 3
        row = [F(0)] * 3
        row[alpha[0]], row[self.tau] = F(1), F(1) + higher
        self.scores = (tuple(row), (F(1), F(0), F(0)))

    def non_neighbour_pairs(self):
        return [(0, self.tau)]


def _patch_search(monkeypatch, geometries=None, tied=()):
    """random_dataset → a recorder; locally_optimal_geometries → ``geometries(seed)``; mu0 → the fake's μ."""
    import verify.data.generators as gen

    calls, searched = [], []

    def fake_random_dataset(**kw):
        calls.append(kw)
        return _FakeData(kw["seed"], tied=kw["seed"] in tied)

    def fake_lmms(data):
        searched.append(data.seed)
        return geometries(data.seed) if geometries else []

    monkeypatch.setattr(gen, "random_dataset", fake_random_dataset)
    monkeypatch.setattr(D, "locally_optimal_geometries", fake_lmms)
    monkeypatch.setattr(D, "mu0", lambda g: g.mu)
    return calls, searched


def test_candidates_try_count_seeds_and_arguments(monkeypatch):
    """Seed k tries random_dataset(n, T, d, seed=1000k + j, scale) for j = 0 … tries − 1 (400 by default); a tie in
    the optimal tokens skips the LMM search, an empty search moves on (both keep going: nothing is yielded)."""
    calls, searched = _patch_search(monkeypatch, tied={2, 3})
    assert list(D.random_lmm_candidates()) == []
    assert [c["seed"] for c in calls] == list(range(400))
    assert searched == [s for s in range(400) if s not in (2, 3)]
    assert calls[0] == {"n": 2, "T": 3, "d": 2, "seed": 0, "scale": "1"}
    calls.clear()
    assert list(D.random_lmm_candidates(n=1, T=4, d=3, seed=2, tries=5, scale="1/3")) == []
    assert calls == [{"n": 1, "T": 4, "d": 3, "seed": 2000 + j, "scale": "1/3"} for j in range(5)]
    calls.clear()
    with pytest.raises(RuntimeError):
        D.random_dataset_with_lmm()
    assert len(calls) == 400


def test_candidate_filter_boundaries(monkeypatch):
    """μ₀ ≥ min_mu0 and ‖p^mm‖² ≤ (max_norm/scale)² are inclusive; a non-neighbour must score strictly above γ_α
    when need_higher (the default); a GMM never qualifies; the widest μ₀ wins, ties to the smallest α."""
    table = {
        0: [_FakeGeometry("1/1000", 100, 1)],                              # both bounds met with equality
        1: [_FakeGeometry("1/1001", 1, 1)],                                # μ₀ below
        2: [_FakeGeometry("1/2", F(10001, 100), 1)],                        # ‖p^mm‖² just above 100
        3: [_FakeGeometry("1/2", 50, 1)],                                   # 50 ≤ 100 (but > 2·10)
        4: [_FakeGeometry("1/2", 1, 0)],                                    # the non-neighbour only ties γ_α
        5: [_FakeGeometry("1/2", 1, -1)],                                   # … or scores below
        6: [_FakeGeometry("1/2", 1, 1, gmm=True)],                          # the GMM
        7: [_FakeGeometry("1/4", 1, 1, (0, 1)), _FakeGeometry("1/3", 1, 1, (2, 1)),
            _FakeGeometry("1/3", 1, 1, (1, 2))],                             # widest μ₀ 1/3; tie → α = (1, 2)
        8: [_FakeGeometry("1/2", 500, 1)],                                  # 500 > 100 (but ≤ 10³)
    }
    _patch_search(monkeypatch, geometries=lambda s: table.get(s, []))
    got = {s: g for _, g, s in D.random_lmm_candidates(tries=9)}
    assert sorted(got) == [0, 3, 7]
    assert got[7].alpha == (1, 2) and got[7].mu == F(1, 3)
    relaxed = {s for _, _, s in D.random_lmm_candidates(tries=9, need_higher=False)}
    assert relaxed == {0, 3, 4, 5, 7}
    # scale 1/2: the bound is (10/(1/2))² = 400 (not (10·(1/2))² = 25): seed 2 (100.01) now qualifies, 8 (500) not
    assert sorted(s for _, _, s in D.random_lmm_candidates(tries=9, scale="1/2")) == [0, 2, 3, 7]
    assert sorted(s for _, _, s in D.random_lmm_candidates(tries=9, max_norm=11)) == [0, 2, 3, 7]


def test_random_dataset_with_lmm_passes_its_arguments(monkeypatch):
    """random_dataset_with_lmm forwards every filter argument (defaults: μ₀ ≥ 1/1000, max_norm 10, 400 tries,
    need_higher) and names the scaled dataset after its seed and scale."""
    seen = []

    def fake_candidates(*args):
        seen.append(args)
        yield random_dataset(n=2, T=3, d=2, seed=7, scale=args[-1]), None, 7

    monkeypatch.setattr(D, "random_lmm_candidates", fake_candidates)
    assert D.random_dataset_with_lmm().name == "random-lmm-n2T3d2-s7"
    assert seen[-1] == (2, 3, 2, 0, "1/1000", 10, 400, True, "1")
    data = D.random_dataset_with_lmm(1, 4, 3, 5, "1/7", 3, 9, False, scale="2/3")
    assert seen[-1] == (1, 4, 3, 5, "1/7", 3, 9, False, "2/3")
    assert data.name == "random-lmm-n1T4d3-s7-scale2_3"


def test_random_dataset_with_lmm_scaled_data():
    """scale = 1/2 halves every token: the dataset is random_dataset(seed = s, scale = 1/2) itself."""
    data = D.random_dataset_with_lmm(tries=20, scale="1/2")
    s = int(data.name.split("-s")[1].split("-")[0])
    assert data.X == random_dataset(n=2, T=3, d=2, seed=s, scale="1/2").X


# ----- benign_random_lmm -------------------------------------------------------------------------------------------
def _closest_with_denominator_at_most_20(x2):
    """The rational p/q (q ≤ 20) closest to √x2, by brute force with mpmath at 40 digits."""
    import mpmath

    mpmath.mp.dps = 40
    root = mpmath.sqrt(mpmath.mpf(x2.numerator) / x2.denominator)
    best = None
    for q in range(1, 21):
        for p in (int(mpmath.floor(root * q)), int(mpmath.ceil(root * q))):
            err = abs(root - mpmath.mpf(p) / q)
            if best is None or err < best[0]:
                best = (err, F(p, q))
    return best[1]


def _benign_walk(seed, n, T, d, max_cond, max_R, refuse=0):
    """benign_random_lmm's selection re-derived from its docstring: the first candidate (random_lmm_candidates) with
    ‖p^mm‖²·max‖k_α − k_t‖² ≤ max_cond², rescaled by c (q ≤ 20) closest to √(5/2 / max‖k_α − k_t‖²), whose automatic
    α is locally optimal with first-order witness R ≤ max_R·σ at μ = μ₀/2 (the first ``refuse`` rescaled candidates
    refused, as if their α were not locally optimal). Returns (seed, c, reasons skipped)."""
    from verify.geometry.cones import choose_alpha, first_order_witness, radius_scale
    from verify.models.attention import LinearLogitModel
    from verify.numbers.precision import working_precision

    skipped = []
    for _, g, s in D.random_lmm_candidates(n, T, d, seed):
        a2 = max(sum(x * x for x in row) for row in g.rows.values())
        if a2 * g.norm_sq > F(max_cond) ** 2:
            skipped.append("cond")
            continue
        c = _closest_with_denominator_at_most_20(F(5, 2) / a2)
        if refuse:
            refuse -= 1
            skipped.append("refused")
            continue
        data = random_dataset(n=n, T=T, d=d, seed=s, scale=c)
        with working_precision(30):
            gs, _ = choose_alpha(data)
            assert gs is not None and gs.locally_optimal
            sigma = radius_scale(gs.norm_sq)
            model = LinearLogitModel.from_dataset(data, "p", "logistic")
            R, _, _ = first_order_witness(model, gs, mu0(gs) / 2, [sigma * x for x in D.INVARIANCE_LADDER])
        if R is None or R > max_R * sigma:
            skipped.append("R")
            continue
        return s, c, skipped
    raise AssertionError("no benign dataset")


def _check_benign(data, n, T, d, s, c):
    assert data.name == f"random-lmm-n{n}T{T}d{d}-s{s}-scale{c.numerator}_{c.denominator}"
    assert data.X == random_dataset(n=n, T=T, d=d, seed=s, scale=c).X
    assert data.v == random_dataset(n=n, T=T, d=d, seed=s, scale=c).v


def _only_candidate(monkeypatch, n, T, d, s, geometry=None):
    """random_lmm_candidates → the single real candidate (seed s), or ``geometry`` in place of its geometry."""
    data = random_dataset(n=n, T=T, d=d, seed=s)
    good = _qualifies(data)
    g = max(good, key=lambda h: (mu0(h), tuple(-a for a in h.alpha)))
    monkeypatch.setattr(D, "random_lmm_candidates", lambda *a: iter([(data, geometry(g) if geometry else g, s)]))
    return g


def test_benign_random_lmm_witness_cut_is_inclusive_at_mu0_over_2(monkeypatch):
    """Seed 108 (n = 2, T = 3, d = 2, ‖p^mm‖·max‖k_α − k_t‖ ≈ 2.64): rescaled, its witness at μ = μ₀/2 is R = 5σ (at
    μ₀/3 it would be 10σ): max_R = 5 accepts it (R ≤ max_R·σ inclusive), max_R = 4 leaves nothing."""
    _only_candidate(monkeypatch, 2, 3, 2, 108)
    s, c, _ = _benign_walk(0, 2, 3, 2, 3, 5)
    _check_benign(D.benign_random_lmm(max_cond=3, max_R=5), 2, 3, 2, s, c)
    with pytest.raises(RuntimeError):
        D.benign_random_lmm(max_cond=3, max_R=4)


def test_benign_random_lmm_condition_cut_is_inclusive(monkeypatch):
    """The same candidate with ‖p^mm‖² set to (25/4)/max‖k_α − k_t‖²: its condition number is exactly 5/2 — accepted
    at max_cond = 5/2, refused (nothing left) at 249/100."""
    def exact_cond(g):
        a2 = max(sum(x * x for x in row) for row in g.rows.values())
        return types.SimpleNamespace(rows=g.rows, norm_sq=F(25, 4) / a2)

    _only_candidate(monkeypatch, 2, 3, 2, 108, exact_cond)
    s, c, _ = _benign_walk(0, 2, 3, 2, F(5, 2), 30)
    _check_benign(D.benign_random_lmm(), 2, 3, 2, s, c)
    with pytest.raises(RuntimeError):
        D.benign_random_lmm(max_cond=F(249, 100))


def test_benign_random_lmm_other_shapes(monkeypatch):
    """n = 1 (T = 3, d = 2, seed 0: the walk) and d = 3 (n = 2, T = 3: the candidate of seed 4): the rescaled dataset
    has the requested shape."""
    s, c, _ = _benign_walk(0, 1, 3, 2, F(5, 2), 30)
    _check_benign(D.benign_random_lmm(n=1), 1, 3, 2, s, c)
    _only_candidate(monkeypatch, 2, 3, 3, 4)
    s, c, _ = _benign_walk(0, 2, 3, 3, F(5, 2), 30)
    _check_benign(D.benign_random_lmm(d=3), 2, 3, 3, s, c)


def test_benign_random_lmm_default_and_cache():
    """Seed 0 (n = 2, T = 3, d = 2, max_cond = 5/2, max_R = 30): the walk above; the rescaled keys' largest squared
    difference is within the rounding of c (q ≤ 20) of 5/2; a repeat call returns the cached object."""
    data = D.benign_random_lmm()
    s, c, _ = _benign_walk(0, 2, 3, 2, F(5, 2), 30)
    _check_benign(data, 2, 3, 2, s, c)
    assert D.benign_random_lmm() is data
    assert D.benign_random_lmm(0, 2, 3, 2, F(5, 2), 30) is data


def test_benign_random_lmm_skips_ill_conditioned_and_slow_witnesses():
    """n = T = d = 2, seed 1, max_cond = 14/5: candidates are skipped for their condition number and for a witness
    beyond max_R·σ before one is accepted (max_R = 9), and the cut R ≤ max_R·σ is inclusive (max_R = 10 accepts an
    earlier one); the cache keys on every argument."""
    s9, c9, skipped9 = _benign_walk(1, 2, 2, 2, F(14, 5), 9)
    s10, c10, skipped10 = _benign_walk(1, 2, 2, 2, F(14, 5), 10)
    assert "cond" in skipped9 and "R" in skipped9 and s10 < s9     # both branches exercised; 10 accepts earlier
    _check_benign(D.benign_random_lmm(1, 2, 2, 2, F(14, 5), 9), 2, 2, 2, s9, c9)
    _check_benign(D.benign_random_lmm(1, 2, 2, 2, F(14, 5), 10), 2, 2, 2, s10, c10)
    assert skipped10.count("R") < skipped9.count("R")


def test_benign_random_lmm_condition_cut():
    """Seed 1 (n = 2, T = 3, d = 2) with max_cond = 3: candidates with 9 < cond² (≤ 27) are skipped, so the result
    is the walk's (the cut is on cond², not a higher power)."""
    s, c, skipped = _benign_walk(1, 2, 3, 2, 3, 30)
    assert "cond" in skipped
    _check_benign(D.benign_random_lmm(1, max_cond=3), 2, 3, 2, s, c)


def test_benign_random_lmm_skips_non_locally_optimal_and_raises(monkeypatch):
    """A rescaled candidate whose automatic α is missing or not locally optimal is skipped; with no candidate left
    the search raises."""
    import dataclasses

    from verify.geometry import cones

    s, c, _ = _benign_walk(1, 2, 2, 2, F(14, 5), 10, refuse=2)
    answers = iter([lambda g: None, lambda g: dataclasses.replace(g, locally_optimal=False)])

    def fake_choose_alpha(data):
        g, note = cones.choose_alpha(data)
        return next(answers, lambda g: g)(g), note

    monkeypatch.setattr(D, "choose_alpha", fake_choose_alpha)
    # the first two rescaled candidates are refused whatever their witness: the answer moves past s10
    _check_benign(D.benign_random_lmm(1, 2, 2, 2, F(14, 5), 10), 2, 2, 2, s, c)
    monkeypatch.setattr(D, "random_lmm_candidates", lambda *a: iter(()))
    with pytest.raises(RuntimeError):
        D.benign_random_lmm(3)
