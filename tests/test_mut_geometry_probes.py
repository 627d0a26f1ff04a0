"""Fast unit tests pinning verify.geometry.probes (mutation testing, issue 21). Expected points derived by hand."""
from __future__ import annotations

import random
from fractions import Fraction as F

from verify.geometry import probes as P

KEYS = (((F(0), F(0)), (F(1), F(0)), (F(1), F(0))), ((F(0), F(1)), (F(0), F(1)), (F(2), F(1))))


def test_directions_seeded_then_key_differences():
    """count seeded draws randint(−100, 100)/37, then ±(k_t − k_0) for t ≥ 1 that are nonzero, in order."""
    rng = random.Random(5)
    draws = [tuple(F(rng.randint(-100, 100), 37) for _ in range(2)) for _ in range(2)]
    out = P.directions(KEYS, 2, seed=5)
    assert out[:2] == draws
    assert out[2:] == [(1, 0), (-1, 0), (1, 0), (-1, 0), (2, 0), (-2, 0)]
    assert P.directions(KEYS, 0) == [(1, 0), (-1, 0), (1, 0), (-1, 0), (2, 0), (-2, 0)]
    assert P.directions(KEYS, 1)[0] == tuple(F(random.Random(0).randint(-100, 100), 37) for _ in range(1)) + \
        (P.directions(KEYS, 1)[0][1],)
    assert len(P.directions(KEYS, 3)) == 9
    rng = random.Random(0)
    many = [tuple(F(rng.randint(-100, 100), 37) for _ in range(2)) for _ in range(40)]
    assert P.directions(KEYS, 40)[:40] == [d for d in many if any(d)][:40]


def test_scaled_by_sup_norm():
    """(−3, 1)·s/3 for s = 10 → (−10, 10/3); a positive sup norm from a negative entry."""
    assert P.scaled((F(-3), F(1)), "10") == (-10, F(10, 3))
    assert P.scaled((F(1), F(4)), 2) == (F(1, 2), 2)


def test_tie_points():
    """Sequence (k_opt = (0,0), k_1 = (2,0)): Δ = (−2, 0), ‖Δ‖² = 4, c = (2, 0) ∥ Δ → q = 0: no point.
    Sequence (k_opt = (1,1), k_1 = (1,−1)): Δ = (0, 2), c = (2, 0) ⟂ Δ → q = (2, 0); p = R·(1, 0) + θ(0, 1/2)."""
    keys = (((F(0), F(0)), (F(2), F(0)), (F(0), F(3))), ((F(1), F(1)), (F(1), F(-1)), (F(1), F(1))))
    pts = P.tie_points(keys, ((0,), (0,)), norms=("1", "10"))
    # (the first sequence's token 2 = (0, 3): Δ = (0, −3), c = (0, 3) ∥ Δ → q = 0 as well: skipped, not a stop)
    assert pts == [(1, 0), (1, F(1, 2)), (10, 0), (10, F(1, 2))]
    assert len(P.tie_points(keys, ((0,), (0,)))) == 6
    keys6 = (((F(0), F(1)), (F(0), F(3)), (F(1), F(1))),)
    # token 1: Δ = (0, −2), c = (0, 4) ∥ Δ → skipped; token 2: Δ = (−1, 0), c = (1, 2) → q = (0, 2): R(0, 1) − θ(1, 0)
    assert P.tie_points(keys6, ((0,),), norms=("1",)) == [(0, 1), (-1, 1)]
    # θ·Δ/‖Δ‖²: at θ = 1 the two logits tie: (k_opt − k_t)ᵀp = 1? no: Δᵀ(Δ/‖Δ‖²) = 1 → margin exactly 1
    # projection with a non-orthogonal c: k_opt = (1, 0), k_1 = (0, 1): Δ = (1, −1), c = (1, 1) ⟂ Δ → q = (1, 1)
    keys2 = (((F(1), F(0)), (F(0), F(1))),)
    assert P.tie_points(keys2, ((0,),), norms=("2",)) == [(2, 2), (F(5, 2), F(3, 2))]
    # c not orthogonal: k_opt = (2, 0), k_1 = (0, 1): Δ = (2, −1), c = (2, 1), Δᵀc/‖Δ‖² = 3/5,
    # q = (2, 1) − (3/5)(2, −1) = (4/5, 8/5) → scaled to R = 1: (1/2, 1); + Δ/5 = (2/5, −1/5)
    keys3 = (((F(2), F(0)), (F(0), F(1))),)
    assert P.tie_points(keys3, ((0,),), norms=("1",)) == [(F(1, 2), 1), (F(9, 10), F(4, 5))]
    # the opt index other than 0 and tokens equal to k_opt skipped
    keys4 = (((F(0), F(1)), (F(2), F(0)), (F(2), F(0))),)
    assert P.tie_points(keys4, ((1,),), norms=("1",)) == P.tie_points((((F(2), F(0)), (F(0), F(1))),), ((0,),),
                                                                   norms=("1",))


def test_probe_points():
    """0 first, then each direction at the nonzero SCALES, then the tie points; duplicates removed in order."""
    keys = (((F(1), F(0)), (F(0), F(1))),)
    pts = P.probe_points(keys, ((0,),), count=1, seed=2)
    assert pts[0] == (0, 0)
    dirs = P.directions(keys, count=1, seed=2)
    expected = [(F(0), F(0))] + [P.scaled(d, s) for d in dirs for s in P.SCALES[1:]] + P.tie_points(keys, ((0,),))
    assert pts == list(dict.fromkeys(expected))
    assert len(pts) == 1 + 3 * 7 + 6
    assert P.SCALES == ("0", "1/4", "1", "3", "10", "30", "100", "1000") and P.TIE_NORMS == ("1", "10", "100")
    assert len(P.probe_points(keys, ((0,),))) == 1 + 6 * 7 + 6
    assert P.probe_points(keys, ((0,),)) == P.probe_points(keys, ((0,),), count=4, seed=0)
    assert P.probe_points(keys, ((0,),))[1] == P.scaled(P.directions(keys, count=4, seed=0)[0], "1/4")
