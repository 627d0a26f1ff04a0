"""Optimality certificates: residuals of a (solution, multipliers) pair, checked exactly or in arb.

For ``min ‖x‖ s.t. Ax ≥ b`` with multipliers ``λ`` (one per row):

* ``primal_residual`` = max(0, max_j (b_j − a_jᵀx))
* ``dual_residual``   ℓ2/Frobenius: max(0, −min λ, ‖x − Aᵀλ‖_∞);
                      ℓ1: max(0, −min λ, ‖Aᵀλ‖_∞ − 1); nuclear: max(0, −min λ, ‖Σλ_j A_j‖₂ − 1)
* ``complementarity`` = max_j |λ_j (a_jᵀx − b_j)|
* ``duality_gap``     ℓ2/Frobenius: ½‖x‖² − (bᵀλ − ½‖Aᵀλ‖²) (the QP gap, ≥ 0 for feasible pairs);
                      ℓ1: ‖x‖₁ − bᵀλ; nuclear: (certified upper bound of ‖W‖_*) − bᵀλ.

Exact inputs (Fractions) on ℓ2/Frobenius/ℓ1 give exact residuals, and ``passed`` means *proved
optimal*: primal feasible, λ ≥ 0, dual feasible and zero gap. Otherwise residuals are arb balls at
the working precision and ``passed`` means each residual is certainly below its tolerance
(``10^-dps`` relative to the scale of b and of the optimal value). ``lower``/``upper`` bound the
optimal value of the norm (certified, from weak duality and from the primal point).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb, arb_mat, fmpq, fmpq_mat

from verify.svm.numeric import flatten, fmt, is_exact, to_arb, to_exact
from verify.svm.spectral import nuclear_bounds, spectral_upper

FIELDS = ("primal_residual", "dual_residual", "complementarity", "duality_gap")


@dataclass
class Certificate:
    norm: str
    primal_residual: object
    dual_residual: object
    complementarity: object
    duality_gap: object
    lower: object            # certified lower bound on the optimal value of the norm
    upper: object            # certified upper bound (inf when the point is infeasible)
    passed: bool
    exact: bool
    tolerance: object = None
    notes: list = field(default_factory=list)

    def residuals(self) -> dict:
        return {k: getattr(self, k) for k in FIELDS}

    def to_json(self, digits: int) -> dict:
        out = {}
        for k in FIELDS:
            v = getattr(self, k)
            if isinstance(v, arb):
                v = arb(v.upper()) if v.is_finite() else v   # report the certified upper end
            out[k] = fmt(v, min(digits, 20) if not is_exact(v) else digits)
        return out


def _fq_matrix(problem) -> fmpq_mat:
    cached = getattr(problem, "_fq_cache", None)
    if cached is None:
        cached = fmpq_mat(problem.m, problem.dim,
                          [fmpq(a.numerator, a.denominator) if a else 0 for r in problem.rows for a in r])
        object.__setattr__(problem, "_fq_cache", cached)
    return cached


def active_exact(problem, x) -> list[int]:
    """Rows with zero slack at the exact point x (fmpq arithmetic)."""
    Ax = _fq_matrix(problem) * _col([_fq(Fraction(v)) for v in x], fmpq_mat)
    return [j for j in range(problem.m) if Ax[j, 0] == _fq(problem.rhs[j])]


def _arb_matrix(problem) -> arb_mat:
    key = ("_arb_cache", __import__("flint").ctx.prec)
    cached = getattr(problem, "_arb_cache", None)
    if cached is None or cached[0] != key:
        cached = (key, arb_mat(_fq_matrix(problem)))
        object.__setattr__(problem, "_arb_cache", cached)
    return cached[1]


def _col(vals, ctor):
    return ctor(len(vals), 1, list(vals))


def _fq(x: Fraction) -> fmpq:
    return fmpq(x.numerator, x.denominator)


def _fr(q: fmpq) -> Fraction:
    return Fraction(int(q.p), int(q.q))


def verify_certificate(problem, solution, duals, dps: int = 60) -> Certificate:
    """Residuals of ``(solution, duals)`` for ``problem``; call inside ``working_precision``
    when the inputs are not exact. ``solution`` may be flat or a matrix (list of rows)."""
    x = flatten(solution)
    lam = flatten(duals)
    if len(x) != problem.dim:
        raise ValueError(f"solution has {len(x)} entries, the problem has {problem.dim}")
    if len(lam) != problem.m:
        raise ValueError(f"{len(lam)} multipliers for {problem.m} rows")
    if problem.norm != "nuc" and all(is_exact(v) or isinstance(v, (str, float)) for v in x + lam):
        return _exact_certificate(problem, [to_exact(v) for v in x], [to_exact(v) for v in lam])
    return _ball_certificate(problem, [to_arb(v) for v in x], [to_arb(v) for v in lam], dps)


def _exact_certificate(problem, x, lam) -> Certificate:
    A = _fq_matrix(problem)
    xq = _col([_fq(v) for v in x], fmpq_mat)
    lq = _col([_fq(v) for v in lam], fmpq_mat)
    b = [_fq(v) for v in problem.rhs]
    Ax = A * xq
    slack = [Ax[j, 0] - b[j] for j in range(problem.m)]
    g = A.transpose() * lq
    zero = fmpq(0)
    primal = max([zero] + [-s for s in slack])
    neg = max([zero] + [-v for v in (lq[j, 0] for j in range(problem.m))])
    comp = max([zero] + [abs(lq[j, 0] * slack[j]) for j in range(problem.m)])
    btl = sum((lq[j, 0] * b[j] for j in range(problem.m)), zero)
    if problem.norm == "l1":
        ginf = max([zero] + [abs(g[k, 0]) for k in range(problem.dim)])
        dual = max(neg, ginf - 1, zero)
        value = sum((abs(xq[k, 0]) for k in range(problem.dim)), zero)
        gap = value - btl
        lower_v = _fr(btl) if dual == 0 else Fraction(0)
        upper_v = _fr(value) if primal == 0 else None
        lower = lower_v
        upper = upper_v
    else:
        diff = max([zero] + [abs(xq[k, 0] - g[k, 0]) for k in range(problem.dim)])
        dual = max(neg, diff)
        xx = sum((xq[k, 0] ** 2 for k in range(problem.dim)), zero)
        gg = sum((g[k, 0] ** 2 for k in range(problem.dim)), zero)
        gap = xx / 2 - (btl - gg / 2)
        # ½‖x*‖² ≥ bᵀλ − ½‖Aᵀλ‖² for λ ≥ 0 (weak duality); value bounds are for ‖x‖ itself
        low_sq = max(zero, 2 * btl - gg) if neg == 0 else zero
        lower = _sqrt_bound(_fr(low_sq), lower=True)
        upper = _sqrt_bound(_fr(xx), lower=False) if primal == 0 else None
    passed = primal == 0 and dual == 0 and gap == 0
    return Certificate(problem.norm, _fr(primal), _fr(dual), _fr(comp), _fr(gap),
                       lower, upper if upper is not None else arb("inf"), passed, True, Fraction(0))


def _sqrt_bound(q: Fraction, lower: bool):
    """√q exactly as a Fraction when q is a rational square, else an arb ball."""
    from math import isqrt
    if q >= 0:
        a, b = isqrt(q.numerator), isqrt(q.denominator)
        if a * a == q.numerator and b * b == q.denominator:
            return Fraction(a, b)
    return arb(fmpq(q.numerator, q.denominator)).sqrt()


def _ball_certificate(problem, x, lam, dps) -> Certificate:
    A = _arb_matrix(problem)
    m, n = problem.m, problem.dim
    xa = arb_mat(n, 1, x)
    la = arb_mat(m, 1, lam)
    b = [to_arb(v) for v in problem.rhs]
    Ax = A * xa
    slack = [Ax[j, 0] - b[j] for j in range(m)]
    g = A.transpose() * la
    zero = arb(0)
    primal = _upper_max([zero] + [-s for s in slack])
    neg = _upper_max([zero] + [-v for v in lam])
    comp = _upper_max([zero] + [abs(lam[j] * slack[j]) for j in range(m)])
    btl = sum((lam[j] * b[j] for j in range(m)), zero)
    bmax = _upper_max([abs(v) for v in b] + [arb(0)])
    tol = arb(10) ** (-dps)
    notes = []
    lam_pos = [v.max(zero) if not v > 0 else v for v in lam]
    btl_pos = sum((lam_pos[j] * b[j] for j in range(m)), zero)
    if problem.norm == "l1":
        ginf = _upper_max([abs(g[k, 0]) for k in range(n)])
        dual = _upper_max([neg, ginf - 1, zero])
        value = sum((abs(v) for v in x), zero)
        gp = A.transpose() * arb_mat(m, 1, lam_pos)
        gpinf = _upper_max([abs(gp[k, 0]) for k in range(n)])
        lower = btl_pos / gpinf.max(arb(1))
        gap = value - btl
        value_lo, value_hi = value, value
    elif problem.norm == "nuc":
        d = problem.shape[0]
        Wm = arb_mat(d, d, x)
        Lam = arb_mat(d, d, [g[k, 0] for k in range(n)])
        Lp = arb_mat(d, d, list((A.transpose() * arb_mat(m, 1, lam_pos)).entries()))
        spec = spectral_upper(Lam)
        dual = _upper_max([neg, spec - 1, zero])
        value_lo, value_hi = nuclear_bounds(Wm)
        gap = value_hi - btl
        sp = spectral_upper(Lp)
        lower = btl_pos / sp.max(arb(1))
    else:
        diff = _upper_max([abs(x[k] - g[k, 0]) for k in range(n)])
        dual = _upper_max([neg, diff])
        xx = sum((v * v for v in x), zero)
        gg = sum((g[k, 0] ** 2 for k in range(n)), zero)
        gap = xx / 2 - (btl - gg / 2)
        low_sq = 2 * btl_pos - sum(((A.transpose() * arb_mat(m, 1, lam_pos))[k, 0] ** 2 for k in range(n)), zero)
        lower = low_sq.sqrt() if low_sq > 0 else zero
        value_hi = xx.sqrt()
    # an upper bound on the optimum from the primal point, rescaled to feasibility when needed
    upper = arb("inf")
    ratios = []
    ok = True
    for j in range(m):
        if problem.rhs[j] > 0:
            ratios.append(Ax[j, 0] / b[j])
        elif problem.rhs[j] == 0:
            ok = ok and bool(Ax[j, 0] >= 0)
        else:
            ok = ok and bool(Ax[j, 0] >= b[j])
    if ok:
        t = min(ratios, key=lambda r: r.lower()) if ratios else arb(1)
        t = arb(t.lower())
        if t >= 1:
            upper = value_hi
        elif t > 0 and all(problem.rhs[j] >= 0 for j in range(m)):
            upper = value_hi / t
    scale_val = value_hi.abs_upper() if value_hi.is_finite() else arb(1)
    scale_val = arb(scale_val) if scale_val > 0 else arb(1)
    gscale = tol * scale_val * (scale_val if problem.norm in ("l2", "fro") else 1)
    passed = (bool(primal <= tol * bmax) and bool(dual <= tol)
              and bool(abs(gap) <= gscale) and bool(comp <= gscale))
    lower = arb(lower.lower()) if lower > 0 else arb(0)
    return Certificate(problem.norm, primal, dual, comp, gap, lower, upper, passed, False, tol, notes)


def _upper_max(vals) -> arb:
    """max of the upper ends (a certified upper bound of the max)."""
    best = None
    for v in vals:
        u = arb(v.upper()) if isinstance(v, arb) else to_arb(v)
        best = u if best is None or u > best else best
    return best if best is not None else arb(0)
