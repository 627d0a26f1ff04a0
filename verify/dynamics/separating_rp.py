"""The local (conic) regularisation path over tfsvm's separating cone — the one implementation behind Theorem 9
(single-query attention, v1 §5.3) and Theorem 10 (sequence-to-sequence and causal attention, App. D.2):

    W̄_R ∈ argmin { L(W) : W ∈ cone_ε(α), R₀ ≤ ‖W‖_F ≤ R },
    cone_ε(α) = {W : min over the row sets of max_{t∈low} min_{τ∈high} (x_t − x_τ)ᵀ W z ≥ ε‖W‖_F}
(``verify.geometry.separating_cone``: one row set per sequence (single) or per query (seq2seq; causal windows), the
W parameterisation of the matching model — ``make_parameterization(data, "W", attention=...)``, L = L_seq for
sequence-to-sequence data).

On the sphere ‖W‖_F = R the cone is a union of polyhedra: choosing one t ∈ low per row set with high ≠ ∅ (a
*branch*) the constraints read a_jᵀW ≥ εR, a_j = vec((x_t − x_τ) zᵀ), τ ∈ high. Within a branch the minimisation of
f = log(L − L⋆) (cancellation-free, ``model.excess``) on the sphere is done by an active-set Riemannian Newton method:
on the face {a_jᵀW = εR, j active} ∩ sphere — itself a sphere of radius ρ = √(R² − ‖c‖²) around the least-norm point
c of the active affine set — the Riemannian Newton step (exact Hessian), Armijo backtracking that keeps every
inactive constraint satisfied; a step blocked by a constraint adds it (the crossing located by bisection and the
point projected onto the new face); at a face-stationary point the multipliers of ∇f = Σ λ_j a_j + νW are computed
and a constraint with λ_j < 0 is released. Converged: Riemannian gradient ≤ 10^(−dps/2) relative and every λ_j ≥ 0
(first-order KKT of the sphere problem). The ball: the minimiser lies on the sphere when ⟨∇f, W⟩ < 0 (the cone is
homogeneous, so moving inward stays in it; ⟨∇f, W⟩ = −μR² with μ the ball's multiplier), reported per point.
Starts: the candidate R·Ŵ^mm_α, the previous radius' optimum rescaled, seeded random points of the cone; each runs
in the branch it lies in; the best is kept. Global optimality over the cone is evidence from multi-start, not a proof.
Everything at the working precision (arb balls, mid-rounded iterates); radius R at dps + ⌈digits_per_radius·R⌉
digits, the model rebuilt there (``logit_digits_per_radius``: B_z/ln 10, B_z = max ‖x_t − x_τ‖‖z‖ over the row sets,
so e^{−R·B_z} stays resolved — the spec's "dps ≈ 0.8R + 60").
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb, arb_mat

from verify.dynamics.parameterization import make_parameterization
from verify.dynamics.regpath import log_excess, log_excess_newton, normal_scale
from verify.errors import UsageError
from verify.geometry.separating_cone import in_cone, normalised, selection, separation
from verify.models.attention import dot, norm2, one_minus_corr
from verify.numbers.exact import rational_above
from verify.numbers.precision import to_arb, working_precision

__all__ = ["ConePoint", "separating_cone_path", "logit_spread", "logit_digits_per_radius", "path_digits"]


def _mid(x):
    return arb(x.mid())


def logit_spread(sets) -> arb:
    """B_z = max over the row sets of ‖x_t − x_τ‖‖z‖ (t, τ in the window): the largest logit gap per unit ‖W‖_F."""
    sq = max((sum(((a - b) ** 2 for a, b in zip(rs.tokens[t], rs.tokens[u])), Fraction(0))
              * sum((Fraction(x) ** 2 for x in rs.z), Fraction(0)) for rs in sets for t in rs.visible for u in rs.visible),
             default=Fraction(0))
    return to_arb(sq).sqrt()


def path_digits(dps: int, digits_per_radius, R) -> int:
    """The working precision of the path's point at radius R: dps + ⌈digits_per_radius·R⌉ (checks compare it with
    their caps before running a radius)."""
    return dps + int(-(-Fraction(digits_per_radius) * Fraction(R) // 1))


def logit_digits_per_radius(sets) -> Fraction:
    """B_z/ln 10 rounded up (3 significant digits): the digits a radius R needs per unit of R."""
    return rational_above(logit_spread(sets) / arb(10).log(), 3)


@dataclass
class ConePoint:
    R: arb
    W: list                       # W̄_R, flat row-major arb (midpoints)
    f: arb                        # log(L − L⋆) at W̄_R
    candidate_f: arb | None       # at R·Ŵ^mm_α
    kappa: object                 # κ(W̄_R)/‖W̄_R‖_F (the largest ε with W̄_R ∈ cone_ε)
    in_cone: bool | None          # W̄_R ∈ cone_ε(α), certified (None on the boundary, to the working precision)
    active: int                   # cone constraints active at W̄_R
    min_multiplier: arb | None    # smallest λ_j (≥ 0 at a KKT point), None when nothing is active
    riemannian_gradient: arb      # ‖grad f‖ on the face, relative
    radial: arb                   # ⟨∇f, W̄_R⟩ (< 0: the ball's minimiser is on the sphere)
    dps: int
    starts: int
    one_minus_corr: dict = field(default_factory=dict)   # name → 1 − corr(W̄_R, target), at this point's precision
    selected: tuple = ()          # the argmax-attention selection at W̄_R (α's shape)
    distance: dict = field(default_factory=dict)   # name → ‖W̄_R‖V‖_F/R − V‖_F for each target V (dist(W̄/(RΞ), V))
    notes: list = field(default_factory=list)


def _rows(branch):
    return [rs.row(t, tau) for rs, t in branch for tau in rs.high]


def _branch_of(sets, W):
    """The branch W lies in: per row set the t ∈ low with the largest min_τ margin."""
    out = []
    for rs in sets:
        if not rs.high:
            continue
        best = None
        for t in rs.low:
            m = min((dot([to_arb(x) for x in rs.row(t, tau)], W) for tau in rs.high), key=lambda v: v.mid())
            if best is None or m.mid() > best[0].mid():
                best = (m, t)
        out.append((rs, best[1]))
    return out


class _Face:
    """The face {a_jᵀx = b, j ∈ active} ∩ {‖x‖ = R}: projector P onto null(A), least-norm point c, radius ρ."""

    def __init__(self, A, active, b, R, D):
        self.active = sorted(active)
        self.D = D
        if not self.active:
            self.P = arb_mat(D, D, [arb(int(i == j)) for i in range(D) for j in range(D)])
            self.c = [arb(0)] * D
        else:
            M = arb_mat([[to_arb(x) for x in A[j]] for j in self.active])
            G = M * M.transpose()
            Gi = G.inv()
            self.P = arb_mat(D, D, [arb(int(i == j)) for i in range(D) for j in range(D)]) - M.transpose() * Gi * M
            self.P = arb_mat(D, D, [self.P[i, j].mid() for i in range(D) for j in range(D)])
            cv = M.transpose() * Gi * arb_mat(len(self.active), 1, [b] * len(self.active))
            self.c = [cv[i, 0].mid() for i in range(D)]
        rho2 = R * R - dot(self.c, self.c)
        self.rho = rho2.sqrt() if rho2 > 0 else None

    def project(self, x):
        """The point of the face nearest to x (radially within the face sphere)."""
        y = [a - b for a, b in zip(x, self.c)]
        Py = self.P * arb_mat(self.D, 1, y)
        Py = [Py[i, 0] for i in range(self.D)]
        n = norm2(Py)
        return [_mid(a + self.rho * v / n) for a, v in zip(self.c, Py)]


def _face_newton(par, A, b, face, x, max_iter, dps):
    """Riemannian Newton on one face, Armijo, keeping the inactive constraints ≥ b. Returns (x, f, gf, blocked j)."""
    D = len(x)
    f, gf, Hf = log_excess_newton(par, x)
    inactive = [j for j in range(len(A)) if j not in face.active]
    tol = arb(10) ** (-(dps // 2))
    for _ in range(max_iter):
        y = [a - c for a, c in zip(x, face.c)]
        yh = [v / face.rho for v in y]
        Pm = face.P
        PT = Pm - arb_mat(D, 1, yh) * arb_mat(1, D, yh)
        g = PT * arb_mat(D, 1, gf)
        rg = [g[i, 0] for i in range(D)]
        # relative to the gradient (scale-free: tokens at 10⁻⁶ give W ~ 10¹², ∇f ~ 10⁻¹²; "tol·(1 + ‖∇f‖)" stopped
        # Newton at its start), the normal lines at the Hessian's scale (``normal_scale``)
        if norm2(rg) <= tol * norm2(gf):
            return x, f, gf, None
        radial = dot(yh, gf)
        Hr = PT * Hf * PT - PT * (radial / face.rho)
        M = Hr + (arb_mat(D, D, [arb(int(i == j)) for i in range(D) for j in range(D)]) - PT) * normal_scale(Hr)
        try:
            v = [_mid(a) for a in M.solve(arb_mat(D, 1, [-a for a in rg]), algorithm="approx").entries()]
            vv = PT * arb_mat(D, 1, v)
            v = [_mid(vv[i, 0]) for i in range(D)]
            slope = dot(v, rg)
            if not slope < 0:
                raise ZeroDivisionError
        except ZeroDivisionError:
            v = [-a for a in rg]
            slope = dot(v, rg)
        nv = norm2(v)
        if nv > face.rho / 2:
            v = [a * (face.rho / 2) / nv for a in v]
            slope = slope * (face.rho / 2) / nv

        def point(t):
            z = [a + t * w for a, w in zip(y, v)]
            n = norm2(z)
            return [_mid(c + face.rho * a / n) for c, a in zip(face.c, z)]

        def feasible(p):
            return all(dot([to_arb(q) for q in A[j]], p) >= b for j in inactive)

        t, blocked = arb(1), None
        while True:
            xn = point(t)
            if feasible(xn):
                fn = log_excess(par, xn)
                if fn <= f + arb("1e-4") * t * slope:
                    break
            elif blocked is None:
                blocked = t
            t = t / 2
            if t < arb(10) ** -30:
                xn = None
                break
        if blocked is not None and (xn is None or t < blocked):  # a constraint cut the step: walk to it
            lo, hi = arb(0) if xn is None else t, blocked
            for _ in range(60):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if feasible(point(mid)) else (lo, mid)
            xb = point(lo)
            worst = min(inactive, key=lambda j: (dot([to_arb(q) for q in A[j]], point(hi)) - b).mid())
            if log_excess(par, xb) <= f:
                return xb, log_excess(par, xb), None, worst
            return x, f, gf, worst
        if xn is None:
            return x, f, gf, None
        x = xn
        f, gf, Hf = log_excess_newton(par, x)
    return x, f, gf, None


def _multipliers(A, active, gf, x):
    """(λ_j for j ∈ active, ν) from the least-squares fit ∇f = Σ λ_j a_j + ν x."""
    active = list(active)
    cols = [[to_arb(q) for q in A[j]] for j in active] + [list(x)]
    M = arb_mat([list(r) for r in zip(*cols)])
    sol = (M.transpose() * M).solve(M.transpose() * arb_mat(len(gf), 1, list(gf)), algorithm="approx")
    vals = [sol[i, 0] for i in range(len(cols))]
    return vals[:-1], vals[-1]


def _minimise(par, sets, eps, R, x0, dps, max_outer=30, max_iter=60):
    """Active-set minimisation in the branch of x0. Returns (x, f, active, λ_min, rel. Riemannian gradient)."""
    branch = _branch_of(sets, x0)
    A = _rows(branch)
    b = eps * R
    D = len(x0)
    tiny = arb(10) ** (-(dps // 2)) * R
    active = {j for j in range(len(A)) if dot([to_arb(q) for q in A[j]], x0) - b <= tiny}
    face = _Face(A, active, b, R, D)
    x = face.project(x0) if active else x0
    lam_min = None
    for _ in range(max_outer):
        x, f, gf, blocked = _face_newton(par, A, b, face, x, max_iter, dps)
        if blocked is not None:
            active = set(face.active) | {blocked}
            face = _Face(A, active, b, R, D)
            if face.rho is None:
                break
            x = face.project(x)
            continue
        f, gf, _ = log_excess_newton(par, x)
        if not face.active:
            lam_min = None
            break
        lams, _nu = _multipliers(A, face.active, gf, x)
        k = min(range(len(lams)), key=lambda i: lams[i].mid())
        lam_min = lams[k]
        if lam_min.mid() >= 0:
            break
        face = _Face(A, set(face.active) - {face.active[k]}, b, R, D)
    f, gf, _ = log_excess_newton(par, x)
    lams, nu = _multipliers(A, face.active, gf, x)
    rows = [[to_arb(q) for q in A[j]] for j in face.active]
    ghat = [g - nu * c - sum((lam * r[i] for lam, r in zip(lams, rows)), arb(0)) for i, (g, c) in enumerate(zip(gf, x))]
    upper = sum(((abs(v.mid()) + v.rad()) ** 2 for v in ghat), arb(0)).sqrt()  # an upper bound of ‖ghat‖ (≈ 0)
    return x, f, len(face.active), lam_min, upper / (1 + norm2(gf))


def separating_cone_path(data, alpha, radii, *, eps, dps: int, digits_per_radius=0, attention: str = "single",
                         loss="logistic", starts: int = 2, seed: int = 0, targets=None,
                         progress=None) -> list[ConePoint]:
    """W̄_R for each R in ``radii`` (see the module docstring) for the selection ``alpha`` under ``attention``
    ("single": α ∈ [T]ⁿ; "seq2seq" / "causal": α an n×T array); radius R is computed at
    dps + ⌈digits_per_radius·R⌉ digits, and 1 − corr(W̄_R, V) and ‖W̄_R‖V‖_F/R − V‖_F for each exact V of
    ``targets`` ({name: V}) there. Raises UsageError when cone_ε(α) is empty or W^mm_α is not in it."""
    sel = selection(data, alpha, attention, 60)
    sets = sel.sets
    if sel.empty_cone():
        raise UsageError("cone_ε(α) is empty (a row set with low = ∅ and high ≠ ∅)")
    if sel.W is None:
        raise UsageError(f"the SVM of α has no certified exact solution: {sel.reason}")
    wmm = list(sel.W)
    rng = random.Random(seed)
    eps = Fraction(eps)
    points, prev = [], None
    for R in radii:
        R = Fraction(R)
        digits = path_digits(dps, digits_per_radius, R)
        with working_precision(digits) as prec:
            par = make_parameterization(data, "W", loss, attention=attention)
            Ra, ea = to_arb(R), to_arb(eps)
            nq = norm2([to_arb(x) for x in wmm])
            cand = [_mid(Ra * to_arb(x) / nq) for x in wmm]
            if in_cone(sets, cand, ea) is not True:
                raise UsageError("W^mm_α is not in cone_ε(α) (ε ≥ κ(α))")
            cands = [cand]
            if prev is not None:
                n = norm2(prev)
                cands.append([_mid(Ra * v / n) for v in prev])
            for _ in range(starts):
                G = [Fraction(rng.gauss(0.0, 1.0)) for _ in wmm]
                for s in (Fraction(1), Fraction(1, 2), Fraction(1, 4), Fraction(1, 8)):
                    W = [to_arb(a) / nq + to_arb(s * g / len(wmm)) for a, g in zip(wmm, G)]
                    n = norm2(W)
                    W = [_mid(Ra * a / n) for a in W]
                    if in_cone(sets, W, ea):
                        cands.append(W)
                        break
            best = None
            for x0 in cands:
                try:
                    got = _minimise(par, sets, ea, Ra, x0, prec.dps)
                except (ArithmeticError, ZeroDivisionError, ValueError):
                    continue
                if best is None or got[1] < best[1]:
                    best = got
            if best is None:
                raise ArithmeticError("no start converged")
            x, f, active, lam_min, gnorm = best
            cand_f = log_excess(par, cand)
            sep = separation(sets, x)
            g = par.grad(x)
            picked = par.selected(x)
            if attention != "single":
                picked = par.model.alpha(picked)
            dist = {}
            for k, V in (targets or {}).items():
                Va = [to_arb(Fraction(v)) for v in V]
                nV = norm2(Va)
                dist[k] = norm2([a * nV / Ra - v for a, v in zip(x, Va)])
            pt = ConePoint(R=Ra, W=x, f=f, candidate_f=cand_f, kappa=normalised(sep, x), in_cone=in_cone(sets, x, ea),
                           active=active, min_multiplier=lam_min, riemannian_gradient=gnorm, radial=dot(g, x),
                           dps=prec.dps, starts=len(cands),
                           one_minus_corr={k: one_minus_corr(x, [to_arb(Fraction(v)) for v in V])
                                           for k, V in (targets or {}).items()},
                           selected=tuple(picked), distance=dist)
            points.append(pt)
            prev = x
            if progress:
                progress(pt)
    return points
