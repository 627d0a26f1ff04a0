"""Fast unit tests pinning verify.geometry.cone_data's seeded search (mutation testing, issue 21).

The filter is re-derived here from the definitions (a non-global locally-optimal α with μ₀ ≥ min_mu0, ‖p^mm‖ ≤ max_norm/scale,
a non-neighbour scoring above γ_α) on the same seeded ``random_dataset``s."""
from __future__ import annotations

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
