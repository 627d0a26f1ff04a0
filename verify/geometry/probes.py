"""Deterministic adversarial probe points for explicit inequalities: directions × scales.

A claim that must hold for *all* parameters is checked on points chosen to stress it: random
unit directions, directions along key differences (which tie two tokens and split the attention
mass), and scales from 0 up to saturation, where 1 − s_max is e^{-1000} or smaller; ``tie_points``
adds points where two tokens share the largest logit exactly (split attention, where the softmax
curvature lives). ``verify.kit.probe_inequality`` decides an inequality at every such point.
"""
from __future__ import annotations

import random
from fractions import Fraction

SCALES = ("0", "1/4", "1", "3", "10", "30", "100", "1000")
TIE_NORMS = ("1", "10", "100")


def directions(rows, count: int, seed: int = 0):
    """``count`` seeded random directions plus ± each key difference (exact Fractions, unnormalised)."""
    rng = random.Random(seed)
    D = len(rows[0][0])
    out = []
    for _ in range(count):
        out.append(tuple(Fraction(rng.randint(-100, 100), 37) for _ in range(D)))
    for seq in rows:
        for t in range(1, len(seq)):
            diff = tuple(a - b for a, b in zip(seq[t], seq[0]))
            if any(diff):
                out.append(diff)
                out.append(tuple(-x for x in diff))
    return [d for d in out if any(d)]


def scaled(direction, scale) -> tuple:
    """direction · scale / ‖direction‖_∞ (exact rationals: probe points replay exactly)."""
    m = max(abs(x) for x in direction)
    c = Fraction(scale) / m
    return tuple(x * c for x in direction)


def tie_points(keys, opts, norms=TIE_NORMS):
    """Exact points where the optimal token of a sequence ties with another for the largest logit:
    p = R·q/‖q‖∞ + θ·Δ/‖Δ‖², Δ := k_opt − k_t, q ⟂ Δ along k_opt + k_t (projected), θ ∈ {0, 1}."""
    pts = []
    for seq, opt in zip(keys, opts):
        o = opt[0]
        for t in range(len(seq)):
            delta = [a - b for a, b in zip(seq[o], seq[t])]
            dd = sum(x * x for x in delta)
            if t == o or dd == 0:
                continue
            c = [a + b for a, b in zip(seq[o], seq[t])]
            proj = sum(x * y for x, y in zip(delta, c)) / dd
            q = [x - proj * y for x, y in zip(c, delta)]
            if not any(q):
                continue
            for R in norms:
                base = scaled(q, R)
                pts.extend(tuple(b + Fraction(theta) * x / dd for b, x in zip(base, delta)) for theta in (0, 1))
    return pts


def probe_points(keys, opts, count: int = 4, seed: int = 0):
    """0, ``count`` seeded directions and ± key differences at every scale of SCALES, and the tie
    points: exact rationals, deduplicated, in a fixed order."""
    pts = [tuple(Fraction(0) for _ in range(len(keys[0][0])))]
    pts += [scaled(dvec, sc) for dvec in directions(keys, count=count, seed=seed) for sc in SCALES[1:]]
    pts += tie_points(keys, opts)
    return list(dict.fromkeys(pts))
