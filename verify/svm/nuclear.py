"""Nuclear-norm Att-SVM⋆: polish a float SDP solution to the working precision.

Method (fixed-structure Newton on the KKT system of the factored problem). For a solution of rank
``r``, ``‖W‖_* = min_{W = PQᵀ} ½(‖P‖_F² + ‖Q‖_F²)`` with ``P, Q ∈ ℝ^{d×r}``, so the SVM's KKT system
on the active set ``S`` reads

    P − ΛQ = 0,   Q − ΛᵀP = 0,   ⟨A_j, PQᵀ⟩ = b_j (j ∈ S),   Λ = Σ_{j∈S} λ_j A_j,

and at a solution ``½(‖P‖² + ‖Q‖²) = bᵀλ`` (the primal and dual values agree). ``r`` and ``S`` come
from the float solution (cvxpy/Clarabel: singular values above 10⁻⁶·σ_max; rows with slack below
10⁻⁶ or multiplier above 10⁻⁶·max λ). The system is singular along the orthogonal gauge
``(P, Q) → (PR, QR)`` and along any non-uniqueness of λ or of W, so the unknowns and equations are
reduced to a maximal non-singular square block (column- then row-pivoted QR of the float Jacobian)
and Newton runs on that block in arb midpoints at the working precision (quadratic convergence:
about log₂(dps/8) steps). Nothing here is trusted: ``certificate.py`` then proves a value interval
``[bᵀλ⁺/‖Λ⁺‖₂, ‖W‖_*^upper / t]`` (λ⁺ = max(λ, 0), t = min_j ⟨A_j,W⟩/b_j) in ball arithmetic.

Rank ≤ m (non-convex): ``rank_m_heuristic`` returns the convex value as a certified lower bound and,
when the convex solution has rank > m, the best rank-m feasible point among truncated SVDs of the
convex solution and of extreme points of the optimal face, rescaled to feasibility (an upper
bound, labelled as heuristic; it is the optimum when it meets the lower bound).
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import scipy.linalg
from flint import arb, arb_mat, ctx, fmpq

from verify.svm.numeric import to_arb


def _rank_of(W0: np.ndarray, rel: float = 1e-6) -> int:
    sv = np.linalg.svd(W0, compute_uv=False)
    if sv.size == 0 or sv[0] == 0:
        return 0
    return int(np.sum(sv > rel * sv[0]))


def active_rows(problem, x0: np.ndarray, lam0: np.ndarray, rel: float = 1e-6) -> list[int]:
    """Rows whose float slack is below ``rel`` (relative to |b_j| and to the row's scale)."""
    A = np.array([[float(a) for a in r] for r in problem.rows])
    b = np.array([float(v) for v in problem.rhs])
    slack = A @ x0 - b
    scale = np.maximum(np.abs(b), np.abs(A) @ np.abs(x0))
    return [j for j in range(problem.m) if slack[j] <= rel * max(scale[j], 1e-300)]


class _KKT:
    def __init__(self, problem, S, r):
        self.d = problem.shape[0]
        self.r = r
        self.S = S
        d = self.d
        self.A = [arb_mat(d, d, [arb(fmpq(a.numerator, a.denominator)) for a in problem.rows[j]]) for j in S]
        self.b = [to_arb(problem.rhs[j]) for j in S]
        self.N = 2 * d * r + len(S)

    def unpack(self, z):
        d, r = self.d, self.r
        P = arb_mat(d, r, z[:d * r])
        Q = arb_mat(d, r, z[d * r:2 * d * r])
        lam = z[2 * d * r:]
        return P, Q, lam

    def eval(self, z, jac=True):
        d, r, s = self.d, self.r, len(self.S)
        P, Q, lam = self.unpack(z)
        Lam = arb_mat(d, d)
        for lj, Aj in zip(lam, self.A):
            Lam = Lam + Aj * lj
        LQ = Lam * Q
        LtP = Lam.transpose() * P
        AQ = [Aj * Q for Aj in self.A]
        AtP = [Aj.transpose() * P for Aj in self.A]
        F = []
        for a in range(d):
            for k in range(r):
                F.append(P[a, k] - LQ[a, k])
        for c in range(d):
            for k in range(r):
                F.append(Q[c, k] - LtP[c, k])
        for j in range(s):
            F.append(sum((P[a, k] * AQ[j][a, k] for a in range(d) for k in range(r)), arb(0)) - self.b[j])
        if not jac:
            return F, None
        N = self.N
        zero = arb(0)
        J = [[zero] * N for _ in range(N)]
        oq = d * r
        ol = 2 * d * r
        for a in range(d):
            for k in range(r):
                row = J[a * r + k]
                row[a * r + k] = arb(1)
                for c in range(d):
                    row[oq + c * r + k] = -Lam[a, c]
                for j in range(s):
                    row[ol + j] = -AQ[j][a, k]
        for c in range(d):
            for k in range(r):
                row = J[oq + c * r + k]
                row[oq + c * r + k] = arb(1)
                for a in range(d):
                    row[a * r + k] = -Lam[a, c]
                for j in range(s):
                    row[ol + j] = -AtP[j][c, k]
        for j in range(s):
            row = J[ol + j]
            for a in range(d):
                for k in range(r):
                    row[a * r + k] = AQ[j][a, k]
                    row[oq + a * r + k] = AtP[j][a, k]
        return F, J


def _float(v: arb) -> float:
    return float(v.mid())


def polish_nuclear(problem, x0: np.ndarray, lam0: np.ndarray, max_iter: int = 40) -> dict:
    """Newton polish (see module doc), retried with neighbouring ranks / active sets when the
    first structure guess does not converge. Call inside ``working_precision``. Returns
    ``{W: flat arb list, lam: arb list (all rows), rank, active, converged, iterations, residual}``."""
    from verify.svm.floatsolve import float_data
    _, _, k = float_data(problem)
    if k != 0:   # polish the row-scaled problem (A/s)(sW) ≥ b, s = 2^k: numbers near 1, then scale back
        s = Fraction(2) ** k
        scaled = dataclasses.replace(problem, rows=tuple(tuple(a / s for a in r) for r in problem.rows))
        out = polish_nuclear(scaled, np.ldexp(x0, k), np.ldexp(lam0, k), max_iter)
        sa = to_arb(s)
        out["W"] = [w / sa for w in out["W"]]
        out["lam"] = [v / sa for v in out["lam"]]
        return out
    d = problem.shape[0]
    r0 = max(1, _rank_of(x0.reshape(d, d)))
    S0 = active_rows(problem, x0, lam0)
    lmax = max(float(np.max(lam0)), 1e-300) if lam0.size else 1e-300
    S_lam = [j for j in S0 if lam0[j] > 1e-6 * lmax]
    tried, best = set(), None
    queue = [(r, S) for r in (r0, r0 - 1, r0 + 1) for S in (S0, S_lam)]
    while queue and len(tried) < 12:
        r, S = queue.pop(0)
        S = sorted(set(S))
        if r < 1 or r > d or not S or (r, tuple(S)) in tried:
            continue
        tried.add((r, tuple(S)))
        out = _polish(problem, x0, lam0, r, S, max_iter)
        if out["converged"]:
            fix = _structure_repair(problem, out)
            if fix is None:
                return out
            queue.insert(0, (r, fix))     # active-set repair: drop λ < 0, add violated rows
        if best is None:
            best = out
    return best if best is not None else _polish(problem, x0, lam0, r0, S0, max_iter)


def _structure_repair(problem, out):
    """None when the polished point has λ ≥ 0 and satisfies every row (to the working
    precision); else a repaired active set."""
    tol = arb(10) ** (-(ctx.dps // 2))
    S = list(out["active"])
    lam = out["lam"]
    neg = [j for j in S if lam[j] < -tol]
    W = out["W"]
    viol = []
    for j in range(problem.m):
        if j in S:
            continue
        val = sum((W[k] * to_arb(problem.rows[j][k]) for k in range(problem.dim) if problem.rows[j][k]),
                  arb(0))
        if val - to_arb(problem.rhs[j]) < -tol:
            viol.append(j)
    if not neg and not viol:
        return None
    worst = min(neg, key=lambda j: lam[j].mid()) if neg else None
    return [j for j in S if j != worst] + viol


def _polish(problem, x0, lam0, r, S, max_iter):
    d = problem.shape[0]
    W0 = x0.reshape(d, d)
    out = {"W": [arb(float(v)) for v in x0], "lam": [arb(float(max(v, 0.0))) for v in lam0],
           "rank": r, "active": S, "converged": False, "iterations": 0, "residual": None}
    if not S:
        return out
    U, sv, Vt = np.linalg.svd(W0)
    P0 = U[:, :r] * np.sqrt(sv[:r])
    Q0 = Vt[:r].T * np.sqrt(sv[:r])
    kkt = _KKT(problem, S, r)
    z = [arb(float(v)) for v in P0.ravel()] + [arb(float(v)) for v in Q0.ravel()] + \
        [arb(float(lam0[j])) for j in S]
    F, J = kkt.eval(z)
    Jf = np.array([[_float(v) for v in row] for row in J])
    _, Rc, piv = scipy.linalg.qr(Jf, pivoting=True, mode="economic")
    # the orthogonal gauge (P, Q) → (PR, QR) always leaves r(r−1)/2 null directions; the float
    # start is only ~1e-8 accurate, so count further null directions with a generous threshold
    svals = np.linalg.svd(Jf, compute_uv=False)
    nullity = max(r * (r - 1) // 2, int(np.sum(svals < 1e-6 * max(svals[0], 1e-300))))
    k = kkt.N - nullity
    cols = sorted(piv[:k].tolist())
    _, Rr, pivr = scipy.linalg.qr(Jf[:, cols].T, pivoting=True, mode="economic")
    rows = sorted(pivr[:k].tolist())
    target = arb(10) ** (-(ctx.dps - 3))
    scale = max(1.0, max(abs(_float(v)) for v in z))
    prev = None
    it = 0
    for it in range(1, max_iter + 1):
        Js = arb_mat([[J[i][c].mid() for c in cols] for i in rows])
        Fs = arb_mat(len(rows), 1, [F[i].mid() for i in rows])
        try:
            step = Js.solve(Fs, algorithm="approx")
        except (ZeroDivisionError, ValueError):
            break
        for t, c in enumerate(cols):
            sv_ = step[t, 0]
            if not sv_.is_finite():
                break
            z[c] = arb((z[c] - sv_).mid())
        F, J = kkt.eval(z)
        res = max(abs(v).upper() for v in F)
        res = arb(res)
        if res <= target * scale:
            out["converged"] = True
            break
        if prev is not None and it > 4 and res >= prev:
            break
        prev = res
    P, Q, lam = kkt.unpack(z)
    W = P * Q.transpose()
    full = [arb(0)] * problem.m
    for j, v in zip(S, lam):
        full[j] = v
    res = max((abs(v).upper() for v in F), default=0)
    out.update({"W": [W[a, c] for a in range(d) for c in range(d)], "lam": full,
                "converged": out["converged"] or bool(arb(res) <= target * scale),
                "iterations": it, "residual": arb(res)})
    return out


def rank_m_heuristic(problem, W_flat, m: int, rank_tol=None, lam=None, dps: int | None = None) -> dict:
    """Rank ≤ m: the convex solution if its rank is ≤ m; else the best of rank-m candidates rescaled
    to feasibility (a certified upper bound): the truncated SVD of the convex solution and, given
    the dual ``lam``, of extreme points of the optimal face (random linear objectives; their rank-m
    factors P, Qᵀ rounded to nearby rationals, so a rational vertex is hit exactly). Call inside
    ``working_precision``. Values are arb."""
    import mpmath

    from verify.svm.numeric import arb_from_mpf
    from verify.svm.spectral import nuclear_bounds, svd_mp

    d = problem.shape[0]
    W = arb_mat(d, d, W_flat)
    U, s, V = svd_mp(W)
    tol = rank_tol if rank_tol is not None else mpmath.mpf(10) ** (-(mpmath.mp.dps // 2))
    smax = max(s) if len(s) else 0
    rank = sum(1 for x in s if x > tol * max(smax, 1e-300))
    if rank <= m:
        return {"m": m, "convex_rank": rank, "attained": True, "W": list(W_flat),
                "method": "the convex solution already has rank <= m, so it solves the rank-m problem"}
    cands = [("truncated SVD of the convex solution",
              arb_mat(d, d, [arb_from_mpf(sum((U[a, k] * s[k] * V[k, c] for k in range(m)), mpmath.mpf(0)))
                             for a in range(d) for c in range(d)]))]
    if lam is not None:
        from verify.svm.face import nuclear_face_vertices

        for Wv in nuclear_face_vertices(problem, lam, dps or int(mpmath.mp.dps)):
            cands.append(("truncated SVD of an extreme point of the optimal face, rationalised", _rational_rank_m(Wv, m)))
    best = None
    for how, Wm in cands:
        Wf = _rescale_to_feasibility(problem, Wm)
        if Wf is not None:
            hi = nuclear_bounds(arb_mat(d, d, Wf))[1]
            if best is None or hi < best[2]:
                best = (how, Wf, hi)
    if best is None:
        return {"m": m, "convex_rank": rank, "attained": False, "W": None, "upper_bound": None,
                "method": "truncated SVD + rescale (heuristic) found no feasible rank-m point"}
    how, Wf, hi = best
    return {"m": m, "convex_rank": rank, "attained": False, "W": Wf, "upper_bound": hi,
            "method": f"{how}, rescaled to feasibility (heuristic upper bound)"}


def _rational_rank_m(Wv: np.ndarray, m: int) -> arb_mat:
    """P Qᵀ with P = U_m√S_m, Q = V_m√S_m of the float SVD, entries rounded to rationals (rank ≤ m)."""
    from fractions import Fraction

    U, S, Vt = np.linalg.svd(Wv)
    r = np.sqrt(S[:m])
    to_q = lambda x: arb(fmpq(*Fraction(float(x)).limit_denominator(10 ** 6).as_integer_ratio()))  # noqa: E731
    d = Wv.shape[0]
    P = arb_mat(d, m, [to_q(U[a, k] * r[k]) for a in range(d) for k in range(m)])
    Q = arb_mat(d, m, [to_q(Vt[k, c] * r[k]) for c in range(d) for k in range(m)])
    return P * Q.transpose()


def _rescale_to_feasibility(problem, Wm: arb_mat):
    """Wm/t with t = min_j ⟨A_j, Wm⟩/b_j over rows with b_j > 0 (None if some row cannot be met)."""
    d = problem.shape[0]
    rows = [arb_mat(d, d, [to_arb(v) for v in problem.rows[j]]) for j in range(problem.m)]
    vals = [sum((rows[j][a, c] * Wm[a, c] for a in range(d) for c in range(d)), arb(0)) for j in range(problem.m)]
    ratios = []
    for j, v in enumerate(vals):
        bj = problem.rhs[j]
        if bj > 0:
            ratios.append(v / to_arb(bj))
        elif not v >= to_arb(bj):
            ratios.append(arb(-1))
    t = min(ratios, key=lambda q: q.lower()) if ratios else arb(1)
    if not t > 0:
        return None
    return [Wm[a, c] / t for a in range(d) for c in range(d)]
