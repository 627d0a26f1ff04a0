"""SVM-neighbours, local optimality of a selection α, and enumeration of LMM / GMM directions.

SVM-neighbours (support tokens) ``T_i = {t ≠ α_i : margin of (i, t) = 1}`` are read from the
solution's active rows: decided *exactly* for the QP/LP kinds (rational solution, slack = 0), and
for the nuclear norm with the tolerance ``slack ≤ 10^-(dps/2)`` on a solution polished to ~10^-dps.
``α`` is locally optimal when its SVM is feasible and ``γ_{iα_i} > γ_it`` for every neighbour
(strict, compared exactly in rationals; a tie makes α *not* locally optimal). A sequence with no
neighbour satisfies the condition vacuously (the tfsvm remark).
"""
from __future__ import annotations

import itertools

from verify.errors import UsageError
from verify.svm.solve import solve_svm


def _scores(dataset):
    s = dataset.scores
    return s() if callable(s) else s


def svm_neighbours(result) -> dict[int, list[int]]:
    """{i: sorted support tokens t} of a solved SVM (every sequence listed, possibly empty)."""
    out = {i: [] for i in range(len(result.select))}
    for i, t in result.support:
        out.setdefault(i, []).append(t)
    return {i: sorted(v) for i, v in out.items()}


def local_optimality(dataset, alpha, kind: str = "p", dps: int = 60):
    """(is_locally_optimal, result, reason)."""
    res = solve_svm(dataset, kind, tuple(alpha), dps, check_unique=False)
    if res.status != "optimal":
        return False, res, "the SVM of this selection is infeasible"
    g = _scores(dataset)
    for i, ts in svm_neighbours(res).items():
        a = res.select[i]
        for t in ts:
            if not g[i][a] > g[i][t]:
                return False, res, (f"sequence {i}: neighbour token {t} has score {g[i][t]} "
                                    f">= score {g[i][a]} of the selected token {a}")
    return True, res, "every SVM-neighbour has a strictly smaller score"


def is_locally_optimal(dataset, alpha, kind: str = "p", dps: int = 60) -> bool:
    return local_optimality(dataset, alpha, kind, dps)[0]


def locally_optimal_selections(dataset, kind: str = "p", dps: int = 60, limit: int = 4096):
    """Every locally-optimal α (with its SVM result), by enumerating [T]^n; LMM directions are
    their solutions. Refuses (UsageError) when T^n exceeds ``limit``."""
    n, T = dataset.n, dataset.T
    if T ** n > limit:
        raise UsageError(f"enumerating {T}^{n} selections exceeds the limit {limit}")
    out = []
    for alpha in itertools.product(range(T), repeat=n):
        ok, res, _ = local_optimality(dataset, alpha, kind, dps)
        if ok:
            out.append((alpha, res))
    return out


def gmm(dataset, kind: str = "p", dps: int = 60):
    """The globally-optimal max-margin SVM: α = opt (a tie in scores is a DataError)."""
    return solve_svm(dataset, kind, "opt", dps)
