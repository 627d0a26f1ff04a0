"""Exact rational solvers for the QP (ℓ2 / Frobenius) and LP (ℓ1) members of the SVM family.

Both are active-set methods in exact arithmetic (``flint.fmpq_mat``), warm-started from the
float64 solution's active set, so that on the usual path a single exact linear solve plus an exact
check settles the problem, and on a wrong guess the same method simply continues until it is right.

* **QP** ``min ½‖x‖² s.t. Ax ≥ b`` is solved as Lawson–Hanson least-distance programming: the
  non-negative least-squares problem ``min_{u≥0} ‖Eu − f‖``, ``E = [Aᵀ; bᵀ]``, ``f = e_{n+1}``
  (Lawson & Hanson, *Solving Least Squares Problems*, ch. 23). Its passive set is the active set of
  the SVM. A zero residual means the constraints are inconsistent and ``u`` is then a Farkas
  certificate (``Aᵀu = 0``, ``bᵀu = 1``, ``u ≥ 0``); otherwise ``λ = u/(1 − bᵀu)``,
  ``x = Aᵀλ``. The warm start keeps a linearly independent subset of the guessed active set
  (exact row reduction) and drops constraints whose multipliers come out non-positive; the NNLS
  outer loop then adds the most violated constraint (largest ``w_j``) and its inner loop drops
  negative multipliers — the "repair" loop — and terminates in exact arithmetic.
* **LP** ``min ‖w‖₁ s.t. Aw ≥ b`` is solved through its dual ``max bᵀλ s.t. λ ≥ 0,
  −1 ≤ Aᵀλ ≤ 1`` by a revised primal simplex on ``[Aᵀ I 0; −Aᵀ 0 I]·(λ, s⁺, s⁻) = 1`` started at
  the all-slack basis (always feasible) with the float multipliers as the pricing priority
  (a crash toward the float basis), Dantzig pricing otherwise and Bland's rule after degenerate
  stalls (no cycling). Optimal basis ⇒ simplex multipliers ``y = (y⁺, y⁻)`` give the primal
  ``w = y⁻ − y⁺`` with ``‖w‖₁ = bᵀλ`` exactly; an unbounded ray is a Farkas certificate.
"""
from __future__ import annotations

from fractions import Fraction

from flint import fmpq, fmpq_mat

__all__ = ["solve_qp_exact", "solve_lp_exact", "to_fmpq", "to_fraction", "independent_columns"]


def to_fmpq(x) -> fmpq:
    if isinstance(x, Fraction):
        return fmpq(x.numerator, x.denominator)
    if isinstance(x, (fmpq, int)):
        return fmpq(x)
    x = Fraction(x)
    return fmpq(x.numerator, x.denominator)


def to_fraction(q) -> Fraction:
    if isinstance(q, Fraction):
        return q
    if isinstance(q, int):
        return Fraction(q)
    return Fraction(int(q.p), int(q.q))


def _col(vals) -> fmpq_mat:
    return fmpq_mat(len(vals), 1, list(vals))


def independent_columns(cols: list[list[fmpq]], order: list[int]) -> list[int]:
    """The greedy maximal linearly independent subset of ``cols[order]`` (exact), in that order."""
    if not order:
        return []
    r = len(cols[order[0]])
    M = fmpq_mat(r, len(order), [cols[j][i] for i in range(r) for j in order])
    R, rank = M.rref()
    piv, row = [], 0
    for c in range(len(order)):
        if row < rank and R[row, c] != 0:
            piv.append(order[c])
            row += 1
    return piv


# ------------------------------------------------------------------------------------------------
# QP: least-distance programming by exact NNLS
# ------------------------------------------------------------------------------------------------
def solve_qp_exact(rows, rhs, warm: list[int] | None = None, max_iter: int | None = None):
    """Exact ``min ½‖x‖² s.t. rows·x ≥ rhs``.

    Returns ``("optimal", x, lam)`` with Fraction lists (``x = Σ lam_j rows_j``), or
    ``("infeasible", u)`` with ``u ≥ 0``, ``Σ u_j rows_j = 0``, ``Σ u_j rhs_j = 1`` (Fractions).
    ``warm`` is a list of row indices, most likely active first.
    """
    m, n = len(rows), len(rows[0])
    # columns of E = [Aᵀ; bᵀ] as fmpq lists; Et = [A | b] (m × (n+1))
    cols = [[to_fmpq(a) for a in r] + [to_fmpq(b)] for r, b in zip(rows, rhs)]
    Et = fmpq_mat(m, n + 1, [v for c in cols for v in c])
    f = [fmpq(0)] * n + [fmpq(1)]
    max_iter = max_iter or 10 * (m + n + 10)

    def ls(P):
        # least squares on passive set P: (E_Pᵀ E_P) z = E_Pᵀ f = b_P
        k = len(P)
        EP = fmpq_mat(n + 1, k, [cols[j][i] for i in range(n + 1) for j in P])
        G = EP.transpose() * EP
        z = G.solve(_col([cols[j][n] for j in P]))
        return [z[i, 0] for i in range(k)], EP

    def residual(P, xP):
        if not P:
            return _col(f)
        EP = fmpq_mat(n + 1, len(P), [cols[j][i] for i in range(n + 1) for j in P])
        return _col(f) - EP * _col(xP)

    # --- warm start: independent subset of the guess with positive LS multipliers ---------------
    P: list[int] = []
    x: dict[int, fmpq] = {}
    if warm:
        seen, order = set(), []
        for j in warm:
            if 0 <= j < m and j not in seen:
                seen.add(j)
                order.append(j)
        P = independent_columns(cols, order)
        while P:
            z, _ = ls(P)
            if all(v > 0 for v in z):
                x = dict(zip(P, z))
                break
            P = [j for j, v in zip(P, z) if v > 0]
        else:
            x = {}
    it = 0
    while True:
        r = residual(P, [x[j] for j in P])
        w = Et * r
        inP = set(P)
        best, jbest = fmpq(0), -1
        for j in range(m):
            if j not in inP:
                wj = w[j, 0]
                if wj > best:
                    best, jbest = wj, j
        if jbest < 0:
            break
        it += 1
        if it > max_iter:  # pragma: no cover - exact NNLS terminates; a guard, not a path
            raise RuntimeError("exact NNLS did not terminate")
        P.append(jbest)
        x[jbest] = fmpq(0)
        while True:
            z, _ = ls(P)
            if all(v > 0 for v in z):
                x = dict(zip(P, z))
                break
            alpha, amin = None, None
            for j, v in zip(P, z):
                if v <= 0:
                    ratio = x[j] / (x[j] - v)
                    if alpha is None or ratio < alpha:
                        alpha, amin = ratio, j
            for j, v in zip(P, z):
                x[j] = x[j] + alpha * (v - x[j])
            x[amin] = fmpq(0)
            P = [j for j in P if x[j] > 0]
            x = {j: x[j] for j in P}
    r = residual(P, [x[j] for j in P])
    u = [fmpq(0)] * m
    for j in P:
        u[j] = x[j]
    if all(r[i, 0] == 0 for i in range(n + 1)):
        return "infeasible", [to_fraction(v) for v in u]
    scale = r[n, 0]            # r = f − Eu: r_{1:n} = −Aᵀu, r_{n+1} = 1 − bᵀu > 0 here
    lam = [v / scale for v in u]
    xs = [-r[i, 0] / scale for i in range(n)]   # x = Aᵀu/(1 − bᵀu)
    return "optimal", [to_fraction(v) for v in xs], [to_fraction(v) for v in lam]


# ------------------------------------------------------------------------------------------------
# LP: ℓ1-SVM through an exact revised simplex on its dual
# ------------------------------------------------------------------------------------------------
def solve_lp_exact(rows, rhs, priority: list[int] | None = None, max_iter: int | None = None):
    """Exact ``min ‖w‖₁ s.t. rows·w ≥ rhs``.

    Returns ``("optimal", w, lam)`` (Fractions; ``‖w‖₁ = Σ lam_j rhs_j``, ``‖Σ lam_j rows_j‖_∞ ≤ 1``)
    or ``("infeasible", u)`` with ``u ≥ 0``, ``Σ u_j rows_j = 0``, ``Σ u_j rhs_j > 0``.
    """
    m, n = len(rows), len(rows[0])
    R = 2 * n
    N = m + R
    A = [[to_fmpq(a) for a in r] for r in rows]
    b = [to_fmpq(v) for v in rhs]
    # columns of G
    gcols = [A[j] + [-a for a in A[j]] for j in range(m)]
    for k in range(R):
        e = [fmpq(0)] * R
        e[k] = fmpq(1)
        gcols.append(e)
    GT = fmpq_mat(N, R, [v for c in gcols for v in c])
    c = [-v for v in b] + [fmpq(0)] * R
    h = _col([fmpq(1)] * R)
    basis = list(range(m, m + R))
    pri = [j for j in (priority or []) if 0 <= j < m]
    max_iter = max_iter or 50 * (N + 10)
    stall, bland = 0, False
    for _ in range(max_iter):
        B = fmpq_mat(R, R, [gcols[j][i] for i in range(R) for j in basis])
        xB = B.solve(h)
        y = B.transpose().solve(_col([c[j] for j in basis]))
        red = GT * y
        inB = set(basis)
        enter = -1
        if not bland:
            for j in pri:
                if j not in inB and c[j] - red[j, 0] < 0:
                    enter = j
                    break
            if enter < 0:
                best = fmpq(0)
                for j in range(N):
                    if j not in inB:
                        rj = c[j] - red[j, 0]
                        if rj < best:
                            best, enter = rj, j
        else:
            for j in range(N):
                if j not in inB and c[j] - red[j, 0] < 0:
                    enter = j
                    break
        if enter < 0:
            lam = [fmpq(0)] * m
            for i, j in enumerate(basis):
                if j < m:
                    lam[j] = xB[i, 0]
            w = [y[n + k, 0] - y[k, 0] for k in range(n)]
            return "optimal", [to_fraction(v) for v in w], [to_fraction(v) for v in lam]
        dcol = B.solve(_col(gcols[enter]))
        leave, ratio = -1, None
        for i in range(R):
            di = dcol[i, 0]
            if di > 0:
                q = xB[i, 0] / di
                if ratio is None or q < ratio or (q == ratio and basis[i] < basis[leave]):
                    ratio, leave = q, i
        if leave < 0:
            ray = [fmpq(0)] * m
            if enter < m:
                ray[enter] = fmpq(1)
            for i, j in enumerate(basis):
                if j < m:
                    ray[j] = -dcol[i, 0]
            return "infeasible", [to_fraction(v) for v in ray]
        if ratio == 0:
            stall += 1
            if stall > 2 * R:
                bland = True
        else:
            stall = 0
        basis[leave] = enter
    raise RuntimeError("exact simplex exceeded its iteration limit")  # pragma: no cover
