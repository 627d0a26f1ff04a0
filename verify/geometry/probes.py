"""Deterministic adversarial probe points for explicit inequalities: directions × scales.

A claim that must hold for *all* parameters is checked on points chosen to stress it: random
unit directions, directions along key differences (which tie two tokens and split the attention
mass), and scales from 0 up to saturation, where 1 − s_max is e^{-1000} or smaller.
"""
from __future__ import annotations

import random
from fractions import Fraction

SCALES = ("0", "1/4", "1", "3", "10", "30", "100", "1000")


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
