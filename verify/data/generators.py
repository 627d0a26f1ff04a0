"""Seeded random datasets with exact entries (generic: used by every paper's checks and by the tests)."""
from __future__ import annotations

import random
from fractions import Fraction

from verify.data.dataset import Dataset


def _entry(rng: random.Random, entries: str, scale: Fraction) -> Fraction:
    if entries == "integer":
        return Fraction(rng.randint(-3, 3)) * scale
    if entries == "rational":
        return Fraction(rng.randint(-20, 20), rng.randint(1, 9)) * scale
    if entries == "float":
        return Fraction(rng.gauss(0.0, 1.0)) * scale  # the float's exact binary value
    raise ValueError(f"unknown entries kind {entries!r}")


def random_dataset(n=2, T=3, d=2, seed=0, entries="rational", scale="1", labels="random",
                   name=None, keys=False, queries=False) -> Dataset:
    """A seeded random dataset with exact entries (integer, small rationals, or floats taken exactly)."""
    rng = random.Random(seed)
    sc = Fraction(scale)
    X = [[[_entry(rng, entries, sc) for _ in range(d)] for _ in range(T)] for _ in range(n)]
    v = [_entry(rng, entries, Fraction(1)) for _ in range(d)]
    if all(x == 0 for x in v):
        v[0] = Fraction(1)
    Y = [rng.choice((-1, 1)) for _ in range(n)] if labels == "random" else [1] * n
    K = [[[_entry(rng, entries, sc) for _ in range(d)] for _ in range(T)] for _ in range(n)] if keys else None
    z = [[_entry(rng, entries, sc) for _ in range(d)] for _ in range(n)] if queries else None
    return Dataset.make(X=X, Y=Y, v=v, K=K, z=z, name=name or f"random-n{n}T{T}d{d}-{entries}-s{seed}")


def assumption_b_dataset(n=1, T=3, d=3, seed=0, gap="1/2", name=None) -> Dataset:
    """Random keys with exact scores meeting Assumption B: v = e_d, token 0 scores 1, the rest 1 − gap."""
    rng = random.Random(seed)
    g = Fraction(gap)
    X, K = [], []
    for _ in range(n):
        seq, keys = [], []
        for t in range(T):
            key = [Fraction(rng.randint(-20, 20), 10) for _ in range(d - 1)]
            seq.append(key + [Fraction(1) if t == 0 else 1 - g])
            keys.append(key + [Fraction(0)])
        X.append(seq)
        K.append(keys)
    v = [0] * (d - 1) + [1]
    return Dataset.make(X=X, Y=[1] * n, v=v, K=K, name=name or f"assumptionB-n{n}T{T}d{d}-s{seed}")
