"""Certified linear algebra on arb ball matrices, shared by the SVM certificates and the claims."""
from __future__ import annotations

from flint import arb, arb_mat


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
