"""Farkas certificates of infeasibility for ``Ax ≥ b``: ``λ ≥ 0``, ``Aᵀλ = 0``, ``bᵀλ > 0``.

Found exactly (the constraints are rational) by the least-distance NNLS of ``exact.py``: the
constraints are inconsistent exactly when ``(0, 1)`` lies in the cone of the columns ``(a_j, b_j)``,
and the NNLS weights of a zero residual are the certificate. It is the same for every norm, so the
nuclear-norm problem uses it too. Normalised to ``Σλ_j = 1``; the residual ``‖Aᵀλ‖_∞`` is exact.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from verify.svm.exact import solve_qp_exact
from verify.svm.numeric import fmt


@dataclass
class FarkasCertificate:
    lam: list              # Fractions, Σ = 1
    rows: list             # (i, t) of the rows with λ_j > 0
    residual: Fraction     # ‖Σ λ_j a_j‖_∞ (0 when valid)
    rhs: Fraction          # Σ λ_j b_j (> 0 when valid)
    passed: bool

    def to_json(self, digits: int) -> dict:
        return {
            "lambda": [fmt(v, digits) for v in self.lam],
            "support": [[int(i), int(t)] for (i, t) in self.rows],
            "sum_lambda_b": fmt(self.rhs, digits),
            "residual": fmt(self.residual, digits),
            "passed": self.passed,
        }


def verify_farkas(problem, lam) -> FarkasCertificate:
    """Exact check of a Farkas vector for ``problem`` (normalises it to Σλ = 1 first)."""
    lam = [Fraction(v) for v in lam]
    tot = sum(lam, Fraction(0))
    if tot > 0:
        lam = [v / tot for v in lam]
    comb = [sum((lam[j] * problem.rows[j][k] for j in range(problem.m) if lam[j]), Fraction(0))
            for k in range(problem.dim)]
    residual = max((abs(v) for v in comb), default=Fraction(0))
    rhs = sum((lam[j] * problem.rhs[j] for j in range(problem.m)), Fraction(0))
    passed = tot > 0 and all(v >= 0 for v in lam) and residual == 0 and rhs > 0
    rows = [problem.index[j] for j in range(problem.m) if lam[j] > 0]
    return FarkasCertificate(lam, rows, residual, rhs, passed)


def find_farkas(problem) -> FarkasCertificate | None:
    """An exact Farkas certificate, or None when ``Ax ≥ b`` is feasible."""
    out = solve_qp_exact(problem.rows, problem.rhs)
    if out[0] != "infeasible":
        return None
    return verify_farkas(problem, out[1])
