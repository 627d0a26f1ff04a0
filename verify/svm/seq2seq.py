"""Sequence-to-sequence SVMs of the SVM family: SAtt-SVM (self-attention, optionally causal) and
Gen-SVM (selected sets 𝒪_i with equality constraints), plus the finite part W^fin of Gen-SVM.

Both SVMs are Frobenius-norm QPs ``min ‖W‖_F s.t. a_jᵀ vec(W) ≥ b_j`` (vec row-major, d² entries)
and are solved by the engine's own exact path (``problem_from_rows`` → ``solve_svm``): exact
rational NNLS, exact KKT certificate, or an exact Farkas certificate when infeasible.

* ``satt_svm``: rows ``vec((x_{iα_ik} − x_it) x_ikᵀ)``, rhs 1, for every query k and t ≠ α_ik
  (causal: t ≤ k and α_ik ≤ k only; a k whose window has a single token is skipped).
* ``gen_svm``: rows ``vec((x_it − x_iτ) z_iᵀ)`` ≥ 1 for t ∈ 𝒪_i, τ ∉ 𝒪_i; each equality
  ``(x_it − x_iτ)ᵀ W z_i = 0`` (t, τ ∈ 𝒪_i; the spanning pairs (t₀, t) with t₀ = min 𝒪_i, which imply
  all pairs) is split into ``a ≥ 0`` and ``−a ≥ 0``. The exact NNLS handles rhs-0 rows (its column
  ``(a_j, 0)`` enters the passive set only when independent of the passive columns), and the exact
  certificate then proves the equalities hold exactly.
* ``w_fin``: the minimum-norm ``W^fin = M⁺c`` (M the equality rows, c the log-ratios), with the
  pseudo-inverse M⁺ computed exactly in rationals (full-rank factorisation) and applied to
  ``c`` in arb at the working precision.

Row labels: ``result.labels[j]`` is ``(i, k, t)`` (SAtt) or ``(i, t, τ, sense)`` with sense in
``"ge"``, ``"eq+"``, ``"eq-"`` (Gen); ``Problem.index`` keeps the engine's ``(i, t)`` pairs so that
the JSON/summary code works unchanged (SAtt: ``(i·T + k, t)``).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction

from flint import arb, arb_mat, fmpq, fmpq_mat

from verify.errors import DataError, UsageError
from verify.numbers.precision import to_arb, working_precision
from verify.svm.exact import independent_columns, to_fmpq
from verify.svm.problems import problem_from_rows
from verify.svm.solve import solve_svm

__all__ = ["satt_svm", "gen_svm", "w_fin", "satt_rows", "gen_rows", "WFin"]

_ZERO, _ONE = Fraction(0), Fraction(1)


def _outer_vec(diff, z):
    return tuple(a * b for a in diff for b in z)


def _sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


# ------------------------------------------------------------------------------------------------
# SAtt-SVM
# ------------------------------------------------------------------------------------------------
def _satt_select(data, select, causal):
    n, T = data.n, data.T
    if select is None:
        alpha = []
        for i, gi in enumerate(data.query_scores):  # γ_ikt = Y_ik vᵀx_it (per-query labels, else Y_i)
            row = []
            for k in range(T):
                g = gi[k]
                window = g[:k + 1] if causal else g
                top = max(window)
                arg = [t for t, x in enumerate(window) if x == top]
                if len(arg) > 1 and not (causal and k == 0):
                    raise DataError(f"SAtt-SVM: optimal token of sequence {i}, query {k} is tied "
                                    f"between tokens {arg}; pass an explicit selection")
                row.append(arg[0])
            alpha.append(tuple(row))
        return tuple(alpha)
    try:
        sel = [list(r) for r in select]
        if len(sel) != n or any(len(r) != T for r in sel):
            raise ValueError
        alpha = tuple(tuple(int(a) for a in r) for r in sel)
    except (TypeError, ValueError):
        raise UsageError(f"SAtt-SVM selection must be an n×T = {n}×{T} array of token indices")
    for i, r in enumerate(alpha):
        for k, a in enumerate(r):
            if not 0 <= a < T:
                raise UsageError(f"selection index {a} of sequence {i}, query {k} is outside 0..{T - 1}")
    return alpha


def satt_rows(data, select=None, causal=False):
    """Exact rows/rhs/labels and α (n×T) of SAtt-SVM."""
    alpha = _satt_select(data, select, causal)
    X, T = data.X, data.T
    rows, rhs, labels = [], [], []
    for i in range(data.n):
        for k in range(T):
            a = alpha[i][k]
            if causal and (k == 0 or a > k):
                continue
            z = X[i][k]
            for t in range(k + 1 if causal else T):
                if t == a:
                    continue
                rows.append(_outer_vec(_sub(X[i][a], X[i][t]), z))
                rhs.append(_ONE)
                labels.append((i, k, t))
    return rows, rhs, labels, alpha


def satt_svm(data, select=None, causal=False, dps=60, norm="fro", check_unique=True):
    """Sequence-to-sequence (self-attention) Att-SVM. ``select``: None (argmax of γ_ikt = Y_ik vᵀx_it per query,
    causal: over t ≤ k; ties → DataError) or an n×T array α_ik. ``norm``: ``"fro"`` (exact) or ``"nuc"`` (the
    nuclear SAtt-SVM⋆, polished and certified like Att-SVM⋆; its solution may be a set)."""
    rows, rhs, labels, alpha = satt_rows(data, select, causal)
    if not rows:
        raise DataError("SAtt-SVM has no constraints (every causal window has a single token)")
    if norm not in ("fro", "nuc"):
        raise UsageError(f"SAtt-SVM norm must be fro or nuc, got {norm!r}")
    d, T = data.d, data.T
    pr = problem_from_rows(rows, rhs, norm, (d, d), kind="SAtt-causal" if causal else "SAtt")
    pr = dataclasses.replace(pr, index=tuple((i * T + k, t) for i, k, t in labels),
                             select=tuple(a for r in alpha for a in r))
    res = solve_svm(pr, dps=dps, check_unique=check_unique)
    res.labels = labels
    res.alpha = alpha
    return res


# ------------------------------------------------------------------------------------------------
# Gen-SVM
# ------------------------------------------------------------------------------------------------
def _sets(data, selected_sets):
    n, T = data.n, data.T
    try:
        O = [tuple(sorted(set(int(t) for t in s))) for s in selected_sets]
    except (TypeError, ValueError):
        raise UsageError("selected sets must be n lists of token indices")
    if len(O) != n:
        raise UsageError(f"{len(O)} selected sets for n = {n} sequences")
    for i, s in enumerate(O):
        if not s or any(not 0 <= t < T for t in s):
            raise UsageError(f"selected set {list(s)} of sequence {i} is empty or outside 0..{T - 1}")
    return tuple(O)


def gen_rows(data, selected_sets):
    """Exact rows/rhs/labels of Gen-SVM (equalities split into two rhs-0 rows)."""
    O = _sets(data, selected_sets)
    X, Z, T = data.X, data.queries(), data.T
    rows, rhs, labels = [], [], []
    for i, s in enumerate(O):
        z = Z[i]
        for t in s:
            for tau in range(T):
                if tau not in s:
                    rows.append(_outer_vec(_sub(X[i][t], X[i][tau]), z))
                    rhs.append(_ONE)
                    labels.append((i, t, tau, "ge"))
        t0 = s[0]
        for t in s[1:]:
            a = _outer_vec(_sub(X[i][t0], X[i][t]), z)
            rows.append(a)
            rhs.append(_ZERO)
            labels.append((i, t0, t, "eq+"))
            rows.append(tuple(-v for v in a))
            rhs.append(_ZERO)
            labels.append((i, t0, t, "eq-"))
    return rows, rhs, labels, O


def gen_svm(data, selected_sets, dps=60):
    """Gen-SVM W^mm exactly (min ‖W‖_F; ≥ 1 across 𝒪_i / 𝒪̄_i, = 0 inside 𝒪_i)."""
    rows, rhs, labels, O = gen_rows(data, selected_sets)
    if not any(b == 1 for b in rhs):
        raise DataError("Gen-SVM has no inequality constraints (every 𝒪_i is all of [T]); W^mm = 0")
    d = data.d
    pr = problem_from_rows(rows, rhs, "fro", (d, d), kind="Gen")
    pr = dataclasses.replace(pr, index=tuple((lab[0], lab[2]) for lab in labels))
    res = solve_svm(pr, dps=dps)
    res.labels = labels
    res.selected_sets = O
    return res


# ------------------------------------------------------------------------------------------------
# W^fin
# ------------------------------------------------------------------------------------------------
@dataclass
class WFin:
    W: list                # d×d arb balls
    norm: arb              # ‖W^fin‖_F
    residual: arb          # max over all pairs t,τ ∈ 𝒪_i of |(x_it − x_iτ)ᵀW z_i − log(s_it/s_iτ)|
    consistent: bool       # residual ball contains 0 (the log-ratio system is solvable)
    rank: int              # rank of the equality system
    dps: int


def _pinv_exact(M: fmpq_mat) -> fmpq_mat:
    """Moore–Penrose pseudo-inverse of a rational matrix, exactly (full-rank factorisation)."""
    m, D = M.nrows(), M.ncols()
    rowsM = [[M[j, c] for c in range(D)] for j in range(m)]
    S = independent_columns(rowsM, list(range(m)))
    if not S:
        return fmpq_mat(D, m)
    R = fmpq_mat(len(S), D, [M[j, c] for j in S for c in range(D)])
    Rt = R.transpose()
    C = M * Rt * (R * Rt).inv()                       # M = C R, C full column rank
    Ct = C.transpose()
    return Rt * (R * Rt).inv() * (Ct * C).inv() * Ct  # R⁺ C⁺


def w_fin(data, selected_sets, s_star, dps=60) -> WFin:
    """Minimum-norm W^fin with (x_it − x_iτ)ᵀW^fin z_i = log(s⋆_it/s⋆_iτ), t, τ ∈ 𝒪_i
    (least squares when inconsistent). ``s_star`` is n×T positive numbers (exact or arb)."""
    O = _sets(data, selected_sets)
    X, Z, d = data.X, data.queries(), data.d
    pairs = [(i, t, tau) for i, s in enumerate(O) for t in s for tau in s if t < tau]
    if not pairs:
        with working_precision(dps) as prec:
            return WFin([[arb(0)] * d for _ in range(d)], arb(0), arb(0), True, 0, prec.dps)
    rows = [_outer_vec(_sub(X[i][t], X[i][tau]), Z[i]) for i, t, tau in pairs]
    M = fmpq_mat(len(rows), d * d, [to_fmpq(v) for r in rows for v in r])
    P = _pinv_exact(M)
    rank = M.rank()
    with working_precision(dps) as prec:
        c = []
        for i, t, tau in pairs:
            a, b = _to_arb(s_star[i][t]), _to_arb(s_star[i][tau])
            if not (a > 0 and b > 0):
                raise DataError(f"s⋆ of sequence {i} must be positive on its selected set")
            c.append(a.log() - b.log())
        w = arb_mat(P) * arb_mat(len(c), 1, c)
        flat = [w[k, 0] for k in range(d * d)]
        fit = arb_mat(M) * w
        errs = [abs(fit[j, 0] - c[j]) for j in range(len(c))]
        res = max(errs, key=lambda v: float(v.mid() + v.rad()))
        # consistent iff the residual of the projection is zero: check c lies in range(M)
        consistent = bool(all((fit[j, 0] - c[j]).contains(0) for j in range(len(c))))
        norm = sum((v * v for v in flat), arb(0)).sqrt()
        W = [flat[a * d:(a + 1) * d] for a in range(d)]
        return WFin(W, norm, res, consistent, rank, prec.dps)


def _to_arb(x):
    if isinstance(x, arb):
        return x
    if isinstance(x, float):
        return arb(x)
    return to_arb(Fraction(x) if not isinstance(x, (int, fmpq)) else x)
