"""Rigorous (ball-arithmetic) bounds on spectral and nuclear norms of small matrices.

An approximate SVD/eigendecomposition at the working precision (mpmath) only *proposes* numbers;
the bounds themselves are proved in arb:

* ``spectral_upper(M)``: ``μ ≥ λ_max(MᵀM)`` is certified by an LDLᵀ factorisation of ``μI − MᵀM``
  whose pivots are all certainly positive; returns ``√μ`` (upper end of the ball).
* ``nuclear_bounds(W)``: with ``W ≈ Σ s_i u_i v_iᵀ`` (mpmath SVD, vectors not assumed orthonormal)
  ``‖W‖_* ≤ ½Σ s_i(‖u_i‖² + ‖v_i‖²) + √d‖W − PQᵀ‖_F`` and ``‖W‖_* ≥ ⟨UVᵀ, W⟩/‖UVᵀ‖₂``.
"""
from __future__ import annotations

import mpmath
from flint import arb, arb_mat, ctx

from verify.numbers.linalg import certainly_positive_definite, frobenius_upper
from verify.svm.numeric import arb_from_mpf, mid_mpf


def _mid_mp(M: arb_mat) -> mpmath.matrix:
    return mpmath.matrix([[mid_mpf(M[i, j]) for j in range(M.ncols())] for i in range(M.nrows())])


def spectral_upper(M: arb_mat) -> arb:
    """A certified upper bound on ‖M‖₂ (an exact-midpoint arb, no radius)."""
    G = M.transpose() * M
    n = G.nrows()
    fro2 = sum((G[i, i] for i in range(n)), arb(0))   # ‖M‖_F² ≥ λ_max, always valid
    if fro2 == 0:
        return arb(0)
    est = max(mpmath.eigsy(_mid_mp(G), eigvals_only=True))
    est = arb_from_mpf(mpmath.mpf(est)) if est > 0 else arb(0)
    eps = arb(10) ** (-(ctx.dps - 4))
    I = arb_mat([[1 if i == j else 0 for j in range(n)] for i in range(n)])
    for _ in range(8):
        mu = est * (1 + eps) + eps * fro2 * eps
        mu = arb(mu.upper())
        if mu >= fro2.upper():
            break
        if certainly_positive_definite(I * mu - G):
            return arb(mu.sqrt().upper())
        eps = eps * 10 ** 4
    return arb(fro2.sqrt().upper())


def svd_mp(W: arb_mat):
    """mpmath SVD of the midpoint: U (d×d), s (d), V (d×d, rows = right singular vectors)."""
    U, s, V = mpmath.svd_r(_mid_mp(W))
    return U, s, V


def nuclear_bounds(W: arb_mat) -> tuple[arb, arb]:
    """Certified (lower, upper) bounds on ‖W‖_*."""
    d1, d2 = W.nrows(), W.ncols()
    U, s, V = svd_mp(W)
    k = len(s)
    Ua = arb_mat([[arb_from_mpf(U[i, j]) for j in range(k)] for i in range(d1)])
    Va = arb_mat([[arb_from_mpf(V[j, i]) for j in range(k)] for i in range(d2)])   # columns v_j
    sa = [arb_from_mpf(mpmath.mpf(x)) for x in s]
    S = arb_mat([[sa[i] if i == j else 0 for j in range(k)] for i in range(k)])
    R = W - Ua * S * Va.transpose()
    frob = frobenius_upper(R)
    half = sum((sa[j] * (sum((Ua[i, j] ** 2 for i in range(d1)), arb(0))
                          + sum((Va[i, j] ** 2 for i in range(d2)), arb(0))) for j in range(k)), arb(0)) / 2
    upper = half + arb(min(d1, d2)).sqrt() * frob
    UV = Ua * Va.transpose()
    inner = sum((UV[i, j] * W[i, j] for i in range(d1) for j in range(d2)), arb(0))
    sp = spectral_upper(UV)
    lower = inner / sp if sp > 0 else arb(0)
    lo = arb(lower.lower()) if lower > 0 else arb(0)
    return lo, arb(upper.upper())
