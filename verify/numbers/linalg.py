"""Certified linear algebra on arb ball matrices, shared by the SVM certificates, GD and the claims.

Spectral norms are enclosed rigorously: a matrix M gives ‖M‖₂² = λ_max(MᵀM), and a symmetric ball
matrix H gives ‖H‖₂ = max_j |λ_j(H)|, both from arb's certified eigenvalue enclosures
(``acb_mat.eig(multiple=True)``, which also covers repeated eigenvalues); if arb cannot isolate the
spectrum, an LDLᵀ certificate of ±H ≼ μI (or the interval [0, ‖H‖_F]) is used — still a valid enclosure.
"""
from __future__ import annotations

import flint
from flint import acb_mat, arb, arb_mat

from verify.numbers.precision import to_arb


def certainly_positive_definite(S: arb_mat) -> bool:
    """True when the symmetric ball matrix S is certainly positive definite (LDLᵀ, every pivot > 0)."""
    n = S.nrows()
    L = [[arb(0)] * n for _ in range(n)]
    D = [arb(0)] * n
    for k in range(n):
        dk = S[k, k] - sum((L[k][j] ** 2 * D[j] for j in range(k)), arb(0))
        if not dk > 0:
            return False
        D[k] = dk
        for i in range(k + 1, n):
            L[i][k] = (S[i, k] - sum((L[i][j] * L[k][j] * D[j] for j in range(k)), arb(0))) / dk
    return True


def frobenius_upper(M: arb_mat) -> arb:
    """An exact upper bound on ‖M‖_F (valid when entries are balls around 0, where sqrt gives NaN)."""
    tot = sum((arb(abs(M[i, j]).upper()) ** 2 for i in range(M.nrows()) for j in range(M.ncols())), arb(0))
    return arb(tot.upper()).sqrt().upper() if tot != 0 else arb(0)


def vector_norm_upper(vec) -> arb:
    """An exact upper bound on ‖vec‖₂ (safe for balls around 0)."""
    tot = sum((arb(abs(x).upper()) ** 2 for x in vec), arb(0))
    return arb(tot.sqrt().upper())


def _enclose(lo: arb, hi: arb) -> arb:
    """The ball [lo.lower, hi.upper]."""
    a, b = lo.lower(), hi.upper()
    return (a + b) / 2 + arb(0, ((b - a) / 2).upper())


def _spectral_norm_ldl(H: arb_mat) -> arb:
    """‖H‖₂ enclosed without isolating eigenvalues (clusters, e.g. repeated 0 or 1).

    Lower end: the Rayleigh quotient |xᵀHx|/xᵀx at an approximate top eigenvector x (any x gives a
    valid lower bound). Upper end: the least μ on a short geometric ladder above the approximate
    norm for which μI − H and μI + H are both certified positive definite; failing that (e.g. H is
    a matrix of balls around 0), ‖H‖_F."""
    import mpmath

    n = H.nrows()
    fro = frobenius_upper(H)
    if fro == 0:
        return arb(0)
    mids = mpmath.matrix([[mpmath.mpf(H[i, j].mid().str(mpmath.mp.dps + 5, radius=False)) for j in range(n)]
                          for i in range(n)])
    E, Q = mpmath.eigsy(mids)
    k = max(range(n), key=lambda j: abs(E[j]))
    x = [arb(mpmath.nstr(Q[i, k], mpmath.mp.dps + 5)) for i in range(n)]
    xm = arb_mat([[xi] for xi in x])
    rq = abs((xm.transpose() * H * xm)[0, 0]) / sum((xi * xi for xi in x), arb(0))
    lo = arb(max(rq.lower(), arb(0))) if rq.is_finite() else arb(0)
    est = arb(mpmath.nstr(abs(E[k]), mpmath.mp.dps + 5))
    I = arb_mat([[int(i == j) for j in range(n)] for i in range(n)])
    for shift in range(16, flint.ctx.prec, 24):  # relative slack 2^(16−prec), 2^(40−prec), …
        eps = arb(2) ** (shift - flint.ctx.prec)
        mu = arb((est * (1 + eps) + fro * eps).upper())
        if certainly_positive_definite(mu * I - H) and certainly_positive_definite(mu * I + H):
            return _enclose(lo, mu)
    return _enclose(lo, fro)


def sym_spectral_norm(H: arb_mat) -> arb:
    """A ball containing ‖H‖₂ = max_j |λ_j(H)| for a symmetric (ball) matrix H."""
    n = H.nrows()
    if n == 0:
        return arb(0)
    try:
        eigs = acb_mat(H).eig(multiple=True)
        best = abs(eigs[0])  # |λ| of a complex ball: a real ball (imaginary parts are ~0)
        for e in eigs[1:]:
            best = best.max(abs(e))
        if best.is_finite():
            fro = frobenius_upper(H)  # ‖H‖₂ ≤ ‖H‖_F: caps a wide enclosure (balls around 0)
            return best if best.upper() <= fro else _enclose(arb(max(best.lower(), arb(0))), fro)
    except ValueError:  # arb could not isolate the spectrum (clusters): certify by LDLᵀ instead
        pass
    return _spectral_norm_ldl(H)


def spectral_norm(rows) -> arb:
    """‖M‖₂ of a matrix given as rows (exact Fractions or arb balls), as a ball."""
    M = arb_mat([[to_arb(x) if not isinstance(x, arb) else x for x in row] for row in rows])
    G = M.transpose() * M
    lam = sym_spectral_norm(G)
    lo = arb(max(lam.lower(), arb(0)))
    return _enclose(lo.sqrt(), arb(lam.upper()).sqrt())


def norm_enclosure(vec) -> arb:
    """A ball containing ‖vec‖₂, safe when entries are balls around 0 (where √ of Σx² gives NaN):
    [√Σ(min|x|)², √Σ(max|x|)²] — both ends rigorous, so a residual compared through it can fail."""
    lo = sum((arb(x.abs_lower()) ** 2 for x in vec), arb(0)).sqrt().lower()
    hi = sum((arb(x.abs_upper()) ** 2 for x in vec), arb(0)).sqrt().upper()
    return (arb(lo) + arb(hi)) / 2 + arb(0, ((arb(hi) - arb(lo)) / 2).upper())
