"""Claim-kit piece: "for almost all datasets" (tfsvm Theorems 1 and 8) — seeded noise draws around a dataset, the
generic event the proofs use, and Att-SVM feasibility of every selection with a certificate either way.

* ``noise_draw``: X + σG (and z + σG′ when the queries are given), entries the exact binary values of the float
  Gaussian draws — v1's reading of "almost all": i.i.d. Gaussian noise of any variance, probability one.
* ``generic``: the proof's event (v1 App. E via Lemma 17): the n(T − 1) rows (x_it − x_i1) ⊗ z_i, t ≥ 2, are linearly
  independent (exact rank). The row span of Att-SVM(α) is the same for every α (x_iα − x_it are the differences
  x_it − x_i1 up to an invertible change), so on this event every α has n(T − 1) independent constraints that can all
  be met with equality: every α feasible. It fails on a measure-zero set (two equal tokens, collinear tokens, …).
* ``feasibility_of_selections``: every α ∈ [T]ⁿ (up to ``limit``) solved by the exact solver; each answer
  certified (optimum certificate / verified Farkas certificate) or None.
"""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

from verify.geometry.cones import ENUMERATION_LIMIT
from verify.geometry.tfsvm import certified_feasible, difference_rows
from verify.numbers.exact import rank
from verify.svm import solve_svm


def noise_draw(data, sigma, seed: int, d: int | None = None):
    """A draw X + σG (queries too when given) around ``data``, optionally cut to its first d coordinates."""
    rng = random.Random(seed)
    d = d or data.d
    sigma = Fraction(sigma)

    def jitter(x):
        return x + sigma * Fraction(rng.gauss(0.0, 1.0))

    X = [[[jitter(x) for x in tok[:d]] for tok in seq] for seq in data.X]
    z = None if data.z is None else [[jitter(x) for x in row[:d]] for row in data.z]
    v = list(data.v[:d]) if any(data.v[:d]) else [1] + [0] * (d - 1)
    return data.replace(X=X, z=z, v=v, K=None, u=None, name=f"{data.name}-noise{seed}" + (f"-d{d}" if d != data.d else ""))


def generic(data) -> tuple[bool, int, int]:
    """(rows independent, rank, n(T − 1)) for the rows (x_it − x_i1) ⊗ z_i (exact)."""
    rows = difference_rows(data, (0,) * data.n)
    need = data.n * (data.T - 1)
    r = rank(rows) if rows else 0
    return r == need, r, need


def all_selections(data, limit: int = ENUMERATION_LIMIT) -> list[tuple]:
    return list(itertools.islice(itertools.product(range(data.T), repeat=data.n), limit))


def feasibility_of_selections(data, dps: int, limit: int = ENUMERATION_LIMIT):
    """[(α, True/False/None)] for every α of ``all_selections`` (Frobenius Att-SVM: feasibility is the linear system's,
    the same for every norm)."""
    return [(a, certified_feasible(solve_svm(data, "W", a, dps, check_unique=False))) for a in all_selections(data, limit)]
