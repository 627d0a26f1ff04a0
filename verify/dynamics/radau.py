"""Radau IIA collocation tableaux of any order, at the working precision (cached).

An s-stage Radau IIA method collocates at the zeros c_1 < … < c_s = 1 of
P_s(2x−1) − P_{s−1}(2x−1) (shifted Legendre); it has order 2s−1, is L-stable and stiffly
accurate (y_1 = Y_s), so it suits the stiff arc-length flow at any precision. ``Tableau`` also
carries the diagonalisation A⁻¹ = V Γ V⁻¹ used to decouple the simplified Newton iteration into
s small complex systems (Hairer & Wanner, Solving ODEs II, §IV.8), and Lagrange weights for the
collocation polynomial (dense output, predictors).

The coefficients are computed with extra working bits (the Vandermonde and eigenvector problems
are ill-conditioned for large s) and rounded to the current precision.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import flint
from flint import acb, acb_mat, arb, arb_mat, arb_poly, fmpq, fmpq_poly


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


def _conjugate_pairs(E, R):
    """Make eigenvectors of conjugate eigenvalues exact conjugates (and real ones real), so that a
    real right-hand side gives conjugate transformed components (the solver exploits this)."""
    s = len(E)
    R = acb_mat(R)
    done = set()
    for k in range(s):
        if k in done:
            continue
        g = E[k]
        if abs(g.imag.mid()) < arb(10) ** -20:
            piv = max(range(s), key=lambda i: abs(R[i, k]).mid())
            ph = R[piv, k] / abs(R[piv, k])
            for i in range(s):
                R[i, k] = acb((R[i, k] / ph).real)
            E[k] = acb(g.real)
            done.add(k)
            continue
        if g.imag.mid() < 0:
            continue
        kp = min((j for j in range(s) if j != k and j not in done),
                 key=lambda j: abs(E[j] - acb(g.real, -g.imag)).mid())
        E[kp] = acb(g.real, -g.imag)
        for i in range(s):
            R[i, kp] = acb(R[i, k].real, -R[i, k].imag)
        done.update((k, kp))
    return E, R


def _mid(x):
    return arb(x.mid()) if isinstance(x, arb) else acb(x.real.mid(), x.imag.mid())


@dataclass(frozen=True)
class Tableau:
    s: int
    c: tuple  # nodes (arb), c[-1] == 1
    A: arb_mat  # s × s
    Ainv: arb_mat
    gamma: tuple  # eigenvalues of A⁻¹ (acb)
    V: acb_mat  # right eigenvectors (columns): A⁻¹ = V diag(γ) V⁻¹
    Vinv: acb_mat

    def lagrange(self, theta: arb) -> list:
        """Weights w_j(θ) of the collocation polynomial through nodes (0, c_1, …, c_s): the
        polynomial is y0 + Σ_j w_j(θ) Z_j (the node 0 carries Z_0 = 0, so it is dropped)."""
        nodes = (arb(0),) + self.c
        out = []
        for j in range(1, self.s + 1):
            w = arb(1)
            for k, xk in enumerate(nodes):
                if k != j:
                    w *= (theta - xk) / (nodes[j] - xk)
            out.append(w)
        return out


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
        eye = arb_mat(s, s, [1 if i == j else 0 for i in range(s) for j in range(s)])
        Ainv = A.solve(eye, algorithm="approx")
        # The eigenvectors only precondition Newton: moderate precision is plenty.
        flint.ctx.prec = min(flint.ctx.prec, 4 * s + 160)
        E, R = acb_mat(Ainv).eig(right=True, algorithm="approx")
        E, R = _conjugate_pairs(list(E), R)
        Rinv = R.solve(acb_mat(eye), algorithm="approx")
        A_hi = [[A[i, j] for j in range(s)] for i in range(s)]
        Ai_hi = [[Ainv[i, j] for j in range(s)] for i in range(s)]
    finally:
        flint.ctx.prec = old
    return Tableau(
        s=s,
        c=tuple(_mid(x) for x in c),
        A=arb_mat([[_mid(x) for x in row] for row in A_hi]),
        Ainv=arb_mat([[_mid(x) for x in row] for row in Ai_hi]),
        gamma=tuple(_mid(acb(e)) for e in E),
        V=acb_mat([[_mid(R[i, j]) for j in range(s)] for i in range(s)]),
        Vinv=acb_mat([[_mid(Rinv[i, j]) for j in range(s)] for i in range(s)]),
    )
