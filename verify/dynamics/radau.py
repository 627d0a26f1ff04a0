"""Radau IIA collocation tableaux of any order, at the working precision (cached).

An s-stage Radau IIA method collocates at the zeros c_1 < … < c_s = 1 of
P_s(2x−1) − P_{s−1}(2x−1) (shifted Legendre); it has order 2s−1, is L-stable and stiffly
accurate (y_1 = Y_s), so it suits the stiff arc-length flow at any precision (Hairer & Wanner,
Solving ODEs II, §IV.5). ``Tableau`` also gives the Lagrange weights of the collocation polynomial
(dense output, predictors).

The nodes are polished by Newton's method on the exact polynomial and A_ij = ∫_0^{c_i} ℓ_j is
integrated exactly as polynomials, with extra working bits, then rounded to the current precision.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import flint
from flint import arb, arb_mat, arb_poly, fmpq, fmpq_poly


def _shifted_legendre(k: int) -> fmpq_poly:
    """P_k(2x − 1) with exact rational coefficients."""
    x = fmpq_poly([-1, 2])
    p0, p1 = fmpq_poly([1]), x
    if k == 0:
        return p0
    for j in range(1, k):
        p0, p1 = p1, (fmpq(2 * j + 1, j + 1) * x * p1 - fmpq(j, j + 1) * p0)
    return p1


def _polish(q, dq, x: arb) -> arb:
    """Newton steps on the exact polynomial q from a close approximation x (simple root)."""
    for _ in range(60):
        step = q(x) / dq(x)
        x = arb((x - step).mid())
        if abs(step.mid()) < arb(2) ** (-flint.ctx.prec + 4):
            break
    return x


def _rounded(x: arb) -> arb:
    """x rounded to the current precision, as an exact arb: ``arb(x.mid())`` would keep all the extra
    working bits, and every product with A or c would then run at twice the precision (A·F for
    45 stages at 100 digits: 6.0 → 3.2 ms)."""
    return (+x).mid()


@dataclass(frozen=True)
class Tableau:
    s: int
    c: tuple  # nodes (arb), c[-1] == 1
    A: arb_mat  # s × s

    def lagrange(self, theta: arb) -> list:
        """Weights w_j(θ) of the collocation polynomial through nodes (0, c_1, …, c_s): the
        polynomial is y0 + Σ_j w_j(θ) Z_j (the node 0 carries Z_0 = 0, so it is dropped).
        Barycentric form, O(s) per point."""
        nodes = (arb(0),) + self.c
        lam = _barycentric(self)
        diffs = [theta - x for x in nodes]
        for j, dj in enumerate(diffs):
            if dj == 0:  # θ is a node
                return [arb(1) if k == j else arb(0) for k in range(1, self.s + 1)]
        terms = [l / dj for l, dj in zip(lam, diffs)]
        den = sum(terms[1:], terms[0])
        return [t / den for t in terms[1:]]


_BARY: dict = {}


def _barycentric(tab: "Tableau") -> list:
    key = id(tab)
    hit = _BARY.get(key)
    if hit is None or hit[0] is not tab:
        nodes = (arb(0),) + tab.c
        lam = []
        for j, xj in enumerate(nodes):
            w = arb(1)
            for k, xk in enumerate(nodes):
                if k != j:
                    w *= xj - xk
            lam.append(1 / w)
        hit = (tab, lam)
        _BARY[key] = hit
    return hit[1]


def tableau(s: int) -> Tableau:
    """The s-stage Radau IIA tableau at the current flint precision."""
    return _tableau(s, flint.ctx.prec)


@lru_cache(maxsize=32)
def _tableau(s: int, prec: int) -> Tableau:
    if s < 1:
        raise ValueError("s >= 1")
    old = flint.ctx.prec
    flint.ctx.prec = prec + 8 * s + 64
    try:
        q = _shifted_legendre(s) - _shifted_legendre(s - 1)
        c = sorted((z.real for z, _mult in q.complex_roots()), key=lambda x: x.mid())
        q, dq = arb_poly(q), arb_poly(q.derivative())
        c = [_polish(q, dq, arb(x.mid())) for x in c[:-1]] + [arb(1)]
        # A_ij = ∫_0^{c_i} ℓ_j (Lagrange basis on the nodes), integrated exactly as polynomials.
        A = arb_mat(s, s)
        for j in range(s):
            lj = arb_poly([1])
            for k in range(s):
                if k != j:
                    lj = lj * arb_poly([-c[k], 1]) * (1 / (c[j] - c[k]))
            Ij = lj.integral()
            for i in range(s):
                A[i, j] = Ij(c[i])
        A_hi = [[A[i, j] for j in range(s)] for i in range(s)]
    finally:
        flint.ctx.prec = old
    return Tableau(
        s=s,
        c=tuple(_rounded(x) for x in c),
        A=arb_mat([[_rounded(x) for x in row] for row in A_hi]),
    )
