"""Decoupled simplified Newton for Radau IIA (Hairer & Wanner, Solving ODEs II, §IV.8).

With one Jacobian J for all stages the Newton matrix I − h A⊗J is block-diagonalised by
A⁻¹ = V Γ V⁻¹ into s complex N × N systems (γ_k I − hJ); conjugate eigenvalues share one inverse.
The irgf dual engine (``verify.dynamics.dual``) uses this; the primal flow (``flow.py``) uses full
Newton with per-stage Jacobians instead (``radau_solver.solve_stages``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import flint
from flint import acb, acb_mat, arb, arb_mat

from verify.dynamics.radau import Tableau, tableau


@dataclass(frozen=True)
class Decoupling:
    Ainv: arb_mat
    gamma: tuple  # eigenvalues of A⁻¹ (acb)
    V: acb_mat  # right eigenvectors (columns): A⁻¹ = V diag(γ) V⁻¹
    Vinv: acb_mat


def _mid(x):
    return arb(x.mid()) if isinstance(x, arb) else acb(x.real.mid(), x.imag.mid())


def _conjugate_pairs(E, R):
    """Make eigenvectors of conjugate eigenvalues exact conjugates (and real ones real)."""
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


def decoupling(tab: Tableau) -> Decoupling:
    """A⁻¹ and its eigen-decomposition for the s-stage tableau, at the current flint precision."""
    return _decoupling(tab.s, flint.ctx.prec)


@lru_cache(maxsize=32)
def _decoupling(s: int, prec: int) -> Decoupling:
    old = flint.ctx.prec
    flint.ctx.prec = prec + 8 * s + 64
    try:
        A = tableau(s).A
        eye = arb_mat(s, s, [1 if i == j else 0 for i in range(s) for j in range(s)])
        Ainv = A.solve(eye, algorithm="approx")
        Ai_hi = [[Ainv[i, j] for j in range(s)] for i in range(s)]
        # The eigenvectors only precondition Newton: moderate precision is plenty.
        flint.ctx.prec = min(flint.ctx.prec, 4 * s + 160)
        E, R = acb_mat(Ainv).eig(right=True, algorithm="approx")
        E, R = _conjugate_pairs(list(E), R)
        Rinv = R.solve(acb_mat(eye), algorithm="approx")
    finally:
        flint.ctx.prec = old
    return Decoupling(
        Ainv=arb_mat([[_mid(x) for x in row] for row in Ai_hi]),
        gamma=tuple(_mid(acb(e)) for e in E),
        V=acb_mat([[_mid(R[i, j]) for j in range(s)] for i in range(s)]),
        Vinv=acb_mat([[_mid(Rinv[i, j]) for j in range(s)] for i in range(s)]),
    )


@dataclass
class Inverses:
    """(γ_k I − hJ)⁻¹ for one (tableau, h, J); ``partner`` maps k → (k', conjugate?)."""

    h: arb
    mats: dict  # k -> acb_mat (only for Im γ_k >= 0)
    partner: dict


def make_inverses(tab: Tableau, h: arb, J: arb_mat) -> Inverses:
    dec = decoupling(tab)
    N = J.nrows()
    hJ = acb_mat(J * h)
    mats, partner = {}, {}
    for k in range(tab.s):
        g = dec.gamma[k]
        if g.imag.mid() >= 0 or abs(g.imag.mid()) < arb(10) ** -20:
            M = -hJ
            for i in range(N):
                M[i, i] += g
            eye = acb_mat(N, N, [1 if i == j else 0 for i in range(N) for j in range(N)])
            mats[k] = M.solve(eye, algorithm="approx")
            partner[k] = (k, False)
    for k in range(tab.s):
        if k not in partner:  # Im γ_k < 0: the conjugate of some stored k'
            g = dec.gamma[k]
            kp = min(mats, key=lambda j: abs(dec.gamma[j] - acb(g.real, -g.imag)).mid())
            partner[k] = (kp, True)
    return Inverses(h, mats, partner)
