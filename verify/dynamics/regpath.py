"""Regularization paths p̄(R) = argmin_{‖ψ‖ ≤ ρ(R)} L (mmts Thm 1, tfsvm Thm 2) and the pieces the local,
cone-restricted path shares (``verify.dynamics.local_regpath``), at the working precision.

* The objective is log(L − L⋆) (``model.excess`` is cancellation-free and arb keeps it meaningful at
  e^{−10⁴}), so the landscape is not flat at large R.
* ``regularization_path``: for every radius the global minimum on the sphere ‖ψ‖ = ρ is sought by
  Riemannian Newton (exact Hessian, Armijo backtracking, gradient fallback) from several starts —
  the candidate SVM direction scaled to the radius, the previous radius' solution, seeded random
  points — and the best is kept. For the factorised parameterisations the ball is
  ‖K‖²_F + ‖Q‖²_F ≤ 2R (resp. ‖k‖² + ‖q‖² ≤ 2R), which equals ‖KQᵀ‖_* ≤ R (‖k⊙q‖₁ ≤ R) at the balanced
  optimum (tfsvm (KQ-RP)); ρ = √(2R), else ρ = R. The value found is certified (arb) to be ≤ the
  candidate's; a positive radial derivative at the sphere optimum triggers an interior search.
  Global optimality over the sphere is evidence from multi-start, not a proof.
* ``product_sphere_minimize`` is the Newton behind both: one sphere here, the product ‖v‖ = r, ‖p‖ = R of the joint
  (v, p) path of mmts Sec. 3 in ``verify.dynamics.joint_rp``.
* The local, cone-restricted path (mmts (9)) is ``verify.dynamics.local_regpath``.
* The path over tfsvm's separating cone (Theorems 9 and 10) is ``verify.dynamics.separating_rp``; it shares the
  objective ``log_excess`` / ``log_excess_newton`` below.
* Sequence-to-sequence (and causal) attention runs through the same code: the parameterisation carries the model
  and its SVM reference (``Parameterization.svm_reference``).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
from flint import arb, arb_mat

from verify.dynamics.parameterization import Parameterization, arb_to_mpf, make_parameterization
from verify.errors import UsageError
from verify.models.attention import dot, features, norm2, one_minus_corr
from verify.numbers.precision import to_arb, working_precision


def _mid(x):
    return arb(x.mid())


@dataclass
class PathPoint:
    R: arb
    psi: list
    theta: list
    norm: arb  # SVM-matching norm of θ
    excess: arb  # L − L⋆
    selected: tuple
    one_minus_corr: arb | None  # to the SVM of the selected tokens
    one_minus_corr_gmm: arb | None
    on_sphere: bool
    radial_derivative: arb  # ⟨∇L, ψ⟩/ρ at the optimum (< 0: the ball optimum is on the sphere)
    candidate_excess: arb | None = None
    certified_le_candidate: bool | None = None  # found ≤ candidate, certain in ball arithmetic
    starts: int = 0
    notes: list = field(default_factory=list)
    resolved: bool = True  # local paths: False when no precision up to the cap saw the loss differences


@dataclass
class RegPath:
    param: str
    points: list
    precision: int

    def fit_rate(self, tail: float = 0.5):
        """Fit 1 − corr(p̄(R), SVM) ≈ C R^{−a} over the last part of the path (floats, reporting only)."""
        from verify.numbers.precision import log10_abs

        pts = [(log10_abs(p.R), log10_abs(p.one_minus_corr_gmm)) for p in self.points
               if p.one_minus_corr_gmm is not None and p.one_minus_corr_gmm > 0]
        from verify.numbers.fits import line_fit
        from verify.numbers.fits import tail as last_part

        if len(pts) < 3:
            return None
        pts = last_part(pts, tail) or pts
        fit = line_fit(pts)
        if fit is None:
            return None
        a, b, _ = fit
        return {"rate": -b, "C": 10 ** a, "points": len(pts)}


# ----- objective ------------------------------------------------------------------------------------
def log_excess_newton(par: Parameterization, psi):
    """f = log E, ∇f, ∇²f with E = L − L⋆ (ψ-space)."""
    g, H = par.grad_hess(psi)
    g = [_mid(x) for x in g]
    E = par.excess(psi)
    if not E > 0:
        raise ArithmeticError("L − L⋆ is not certainly positive (raise the precision)")
    D = len(psi)
    gf = [x / E for x in g]
    Hf = arb_mat(D, D, [_mid(H[i, j] / E - gf[i] * gf[j]) for i in range(D) for j in range(D)])
    return E.log(), gf, Hf


def log_excess(par, psi):
    """f = log(L − L⋆) at ψ (+∞ when L − L⋆ is not certainly positive)."""
    E = par.excess(psi)
    return E.log() if E > 0 else arb("inf")


def normal_scale(H: arb_mat) -> arb:
    """The weight of the normal lines added to a Riemannian Hessian H to make it invertible: its largest |diagonal|
    entry as an exact midpoint (1 if H's diagonal is 0), so that neither swamps the other whatever the data's scale —
    with tokens at 10⁻⁶ (ψ ~ 10¹², ∇²f ~ 10⁻²⁴) a unit weight left the Newton step noise at 25 digits."""
    h = max((abs(H[i, i]) for i in range(H.nrows())), key=lambda z: z.mid(), default=arb(0))
    return arb(h.mid()) if h > 0 else arb(1)


def _retract(x, rho):
    n = norm2(x)
    return [_mid(rho * v / n) for v in x]


def _retract_blocks(x, blocks):
    out = []
    for a, b, rho in blocks:
        out.extend(_retract(x[a:b], rho))
    return out


def sphere_minimize(par: Parameterization, x0, rho: arb, dps: int, max_iter: int = 200):
    """Riemannian Newton for min log(L − L⋆) on ‖ψ‖ = ρ; returns (ψ, f, iterations)."""
    return product_sphere_minimize(lambda x: log_excess(par, x), lambda x: log_excess_newton(par, x), x0,
                                   ((0, len(x0), rho),), dps, max_iter)


def product_sphere_minimize(value, newton, x0, blocks, dps: int, max_iter: int = 200):
    """Riemannian Newton for min f on a product of spheres ‖ψ[a:b]‖ = ρ (``blocks`` = ((a, b, ρ), ...), covering ψ);
    ``value(ψ)`` is f (+∞ where it cannot be evaluated), ``newton(ψ)`` is (f, ∇f, ∇²f). One block is the sphere of
    the regularization path; two are the joint (v, p) path (``verify.dynamics.joint_rp``). Returns (ψ, f, iterations).

    The Riemannian Hessian is P ∇²f P − ⊕_b (x̂_bᵀ∇_b f/ρ_b) P_b (P = ⊕ P_b, P_b = I − x̂_b x̂_bᵀ), made invertible on
    the normal lines by + h·Σ_b x̂_b x̂_bᵀ (h: its largest diagonal entry, so that neither swamps the other whatever
    the data's scale); each block moves at most ~30° per step (the whole step is scaled)."""
    x = _retract_blocks(x0, blocks)
    D = len(x)
    f, gf, Hf = newton(x)
    tols = [arb(10) ** (-dps) * rho for _, _, rho in blocks]
    it = 0
    for it in range(1, max_iter + 1):
        xh = [None] * D
        radial = []
        for a, b, rho in blocks:
            xh[a:b] = [v / rho for v in x[a:b]]
            radial.append(dot(xh[a:b], gf[a:b]))
        rg = list(gf)
        for (a, b, _), rad in zip(blocks, radial):
            rg[a:b] = [g - rad * h for g, h in zip(gf[a:b], xh[a:b])]
        proj = [[arb(0)] * D for _ in range(D)]
        curv = [[arb(0)] * D for _ in range(D)]
        normal = [[arb(0)] * D for _ in range(D)]
        for (a, b, rho), rad in zip(blocks, radial):
            for i in range(a, b):
                for j in range(a, b):
                    proj[i][j] = (1 if i == j else 0) - xh[i] * xh[j]
                    curv[i][j] = proj[i][j] * (rad / rho)
                    normal[i][j] = xh[i] * xh[j]
        P = arb_mat(D, D, [e for row in proj for e in row])
        Hr = P * Hf * P - arb_mat(D, D, [e for row in curv for e in row])
        M = Hr + arb_mat(D, D, [e for row in normal for e in row]) * normal_scale(Hr)
        try:
            v = M.solve(arb_mat(D, 1, [-a for a in rg]), algorithm="approx").entries()
            v = [_mid(a) for a in v]
            for a, b, _ in blocks:
                along = dot(v[a:b], xh[a:b])
                v[a:b] = [c - along * h for c, h in zip(v[a:b], xh[a:b])]
            slope = dot(v, rg)
            if not slope < 0:
                raise ZeroDivisionError
        except ZeroDivisionError:
            v = [-a for a in rg]
            slope = dot(v, rg)
        if norm2(v) == 0:
            break
        shrink = arb(1)
        for a, b, rho in blocks:
            nb = norm2(v[a:b])
            if nb > rho / 2 and (rho / 2) / nb < shrink:  # at most ~30° per step
                shrink = (rho / 2) / nb
        if shrink < 1:
            v = [a * shrink for a in v]
            slope = slope * shrink
        alpha = arb(1)
        while True:
            xn = _retract_blocks([a + alpha * b for a, b in zip(x, v)], blocks)
            fn = value(xn)
            if fn <= f + arb("1e-4") * alpha * slope or alpha < arb(10) ** (-30):
                break
            alpha = alpha / 2
        steps = [norm2([p - q for p, q in zip(xn[a:b], x[a:b])]) for a, b, _ in blocks]
        if not fn <= f:
            break
        x = xn
        f, gf, Hf = newton(x)
        if all(s <= t for s, t in zip(steps, tols)):
            break
    return x, f, it


def _interior_minimize(par, x0, dps, max_iter=200):
    """Damped Newton for min log(L − L⋆) without constraint (used when the radial derivative is > 0)."""
    x = list(x0)
    f, gf, Hf = log_excess_newton(par, x)
    D = len(x)
    for _ in range(max_iter):
        try:
            v = [_mid(a) for a in Hf.solve(arb_mat(D, 1, [-a for a in gf]), algorithm="approx").entries()]
            if not dot(v, gf) < 0:
                raise ZeroDivisionError
        except ZeroDivisionError:
            v = [-a for a in gf]
        slope = dot(v, gf)
        alpha = arb(1)
        while True:
            xn = [_mid(a + alpha * b) for a, b in zip(x, v)]
            fn = log_excess(par, xn)
            if fn <= f + arb("1e-4") * alpha * slope or alpha < arb(10) ** (-30):
                break
            alpha = alpha / 2
        if not fn < f:
            break
        step = norm2([a - b for a, b in zip(xn, x)])
        x = xn
        f, gf, Hf = log_excess_newton(par, x)
        if step <= arb(10) ** (-dps) * max(arb(1), norm2(x)):
            break
    return x, f


# ----- starts -----------------------------------------------------------------------------------------
def _psi_from_theta(par: Parameterization, theta):
    """A balanced ψ with θ(ψ) = θ (p, W, beta: identity; diag: k = sgn·√|β|, q = √|β|; KQ: SVD)."""
    if par.name in ("p", "W", "beta"):
        return list(theta)
    if par.name == "diag":
        k = [(abs(b)).sqrt() * (1 if b >= 0 else -1) for b in theta]
        q = [(abs(b)).sqrt() for b in theta]
        return k + q
    d, m = par.d, par.m
    W = mpmath.matrix([[arb_to_mpf(theta[a * d + b]) for b in range(d)] for a in range(d)])
    U, S, V = mpmath.svd_r(W)
    toarb = lambda z: arb(mpmath.nstr(z, mpmath.mp.dps + 5, strip_zeros=False))  # noqa: E731
    K = [[toarb(U[a, e] * mpmath.sqrt(S[e])) if e < d else arb(0) for e in range(m)] for a in range(d)]
    Q = [[toarb(V[e, b] * mpmath.sqrt(S[e])) if e < d else arb(0) for e in range(m)] for b in range(d)]
    return [x for row in K for x in row] + [x for row in Q for x in row]


def _radius(par, R: arb) -> arb:
    return (2 * R).sqrt() if par.name in ("KQ", "diag") else R


def regularization_path(source, param: str = "p", radii=(1, 2, 5, 10, 20, 50, 100), *, dps: int = 50,
                        loss="logistic", starts: int = 4, seed: int = 0, svm: bool = True,
                        progress=None, candidates=None) -> RegPath:
    """Global regularization path over ``radii`` (in the SVM-matching norm; see module docstring).

    ``candidates``: directions θ (instead of the GMM when ``svm`` is False, e.g. the solution set of mmts
    (ATT-SVM')) each scaled to the radius as a start; the value found is certified against the best of them.
    A model without Hessians (a nonlinear head, ``verify.dynamics.heads.HeadParameterization``) is minimised by
    projected gradient over the ball (``ball_minimize_first_order``) on L − L_tok itself (it may be negative)."""
    with working_precision(dps) as prec:
        par = source if isinstance(source, Parameterization) else make_parameterization(source, param, loss)
        if not hasattr(par.model, "grad_hess"):
            return _first_order_path(par, radii, prec, starts, seed, candidates or [], progress)
        gmm = par.svm_reference("opt", prec.dps) if svm else None
        rng = random.Random(seed)
        points, prev = [], None
        for R in radii:
            R = to_arb(Fraction(str(R)))
            if not R > 0:
                raise UsageError("radii must be positive")
            rho = _radius(par, R)
            cands = []
            if gmm is not None:
                cands.append(("candidate", _psi_from_theta(par, gmm)))
            if prev is not None:
                cands.append(("previous", prev))
            for _ in range(starts):
                cands.append(("random", [to_arb(Fraction(rng.gauss(0.0, 1.0))) for _ in range(par.dim)]))
            best, cand_E = None, None
            for name, x0 in cands:
                if norm2(x0) == 0:
                    continue
                try:
                    x, f, _ = sphere_minimize(par, x0, rho, prec.dps)
                except ArithmeticError:
                    continue
                if name == "candidate":
                    cand_E = par.excess(_retract(x0, rho))
                if best is None or f < best[1]:
                    best = (x, f)
            if best is None:
                raise ArithmeticError("no start converged")
            x = best[0]
            g = par.grad(x)
            radial = dot(g, x) / rho
            on_sphere, notes = True, []
            if radial > 0:  # moving inward decreases L: look inside the ball
                xi, fi = _interior_minimize(par, [v * arb("0.9") for v in x], prec.dps)
                if fi < best[1] and norm2(xi) <= rho:
                    x, on_sphere = xi, False
                    notes.append("the minimiser is interior to the ball")
            prev = x
            points.append(path_point(par, R, x, on_sphere, radial, cand_E, len(cands), prec.dps, svm, notes))
            if progress:
                progress(points[-1])
        return RegPath(par.name, points, prec.dps)


def ball_minimize_first_order(par: Parameterization, x0, rho: arb, dps: int, max_iter: int = 300):
    """min E(ψ) = L − L_tok over ‖ψ‖ ≤ ρ by projected gradient with Barzilai–Borwein steps and Armijo backtracking
    (first-order: for models without Hessians); converged when a step moves ≤ 10^(−dps/2)·ρ. Returns (ψ, E)."""
    def project(y):
        ny = norm2(y)
        return [_mid(v) for v in y] if ny <= rho else [_mid(rho * v / ny) for v in y]

    x = project(list(x0))
    f = par.excess(x)
    g = [_mid(a) for a in par.grad(x)]
    gn = norm2(g)
    step = rho / (10 * gn) if gn > 0 else arb(0)
    tol = arb(10) ** (-(dps // 2)) * rho
    prev = None
    for _ in range(max_iter):
        if prev is not None:
            sx = [a - b for a, b in zip(x, prev[0])]
            sg = [a - b for a, b in zip(g, prev[1])]
            den = dot(sx, sg)
            if den > 0:
                step = dot(sx, sx) / den
        alpha = step
        while True:
            xn = project([a - alpha * b for a, b in zip(x, g)])
            fn = par.excess(xn)
            move = [a - b for a, b in zip(xn, x)]
            if fn <= f + arb("1e-4") * dot(g, move) or alpha < arb(10) ** (-40) * rho:
                break
            alpha = alpha / 2
        for _ in range(60):  # expand while it keeps decreasing (exponentially flat stretches, e^{−cR} gradients)
            xe = project([a - 2 * alpha * b for a, b in zip(x, g)])
            fe = par.excess(xe)
            if not fe < fn or xe == xn:
                break
            alpha, xn, fn = 2 * alpha, xe, fe
            move = [a - b for a, b in zip(xn, x)]
        if not fn < f:
            break
        prev = (x, g)
        x, f = xn, fn
        g = [_mid(a) for a in par.grad(x)]
        if norm2(move) <= tol:
            break
    return x, f


def _first_order_path(par, radii, prec, starts, seed, candidates, progress) -> RegPath:
    rng = random.Random(seed)
    rows = [row for seq in features(par.data, par.name) for row in seq]
    cand_dirs = [[v if isinstance(v, arb) else to_arb(Fraction(v)) for v in c] for c in candidates]
    points, prev = [], None
    tiny = arb(10) ** (-(prec.dps // 2))
    for R in radii:
        R = to_arb(Fraction(str(R)))
        if not R > 0:
            raise UsageError("radii must be positive")
        rho = _radius(par, R)
        cands = [_retract(c, rho) for c in cand_dirs if norm2(c) > 0]
        cand_points = list(cands)
        cand_E = None
        for c in cands:
            E = par.excess(c)
            cand_E = E if cand_E is None or E < cand_E else cand_E
        if prev is not None:
            cands.append(prev)
        for _ in range(starts):  # random combinations of the feature rows: a component outside their span never
            # changes a logit (its gradient is 0), so it would only waste the norm budget
            z = [arb(0)] * par.dim
            for row in rows:
                g = to_arb(Fraction(rng.gauss(0.0, 1.0)))
                z = [a + g * to_arb(b) for a, b in zip(z, row)]
            if norm2(z) > 0:
                cands.append(_retract(z, rho))
        best = None
        for x0 in cands:
            x, f = ball_minimize_first_order(par, x0, rho, prec.dps)
            if best is None or f < best[1]:
                best = (x, f)
        x = best[0]
        prev = x
        on_sphere = bool(norm2(x) >= rho * (1 - tiny))
        notes = [] if on_sphere else ["the minimiser is interior to the ball"]
        if not on_sphere:  # an interior point not certainly better than its radial image is a precision tie
            xs = _retract(x, rho)
            if not par.excess(x) < par.excess(xs):
                x, on_sphere = xs, True
                notes = ["interior point and its radial image on the sphere tie at the working precision: "
                         "the sphere point kept"]
        radial = dot(par.grad(x), x) / rho
        points.append(path_point(par, R, x, on_sphere, radial, cand_E, len(cands), prec.dps, False, notes))
        if any(x == c for c in cand_points):  # the search stayed at a candidate: no worse than it, trivially
            points[-1].certified_le_candidate = True
        if progress:
            progress(points[-1])
    return RegPath(par.name, points, prec.dps)


def path_point(par, R, x, on_sphere, radial, cand_E, nstarts, dps, svm, notes):
    th = par.theta(x)
    E = par.excess(x)
    sel = par.selected(x)
    ref = par.svm_reference(sel, dps) if svm else None
    gmm = par.svm_reference("opt", dps) if svm else None
    cert = None
    if cand_E is not None:
        cert = True if E <= cand_E else (False if E > cand_E else None)
    return PathPoint(R=R, psi=x, theta=th, norm=par.norm(x), excess=E, selected=sel,
                     one_minus_corr=one_minus_corr(th, ref) if ref is not None else None,
                     one_minus_corr_gmm=one_minus_corr(th, gmm) if gmm is not None else None,
                     on_sphere=on_sphere, radial_derivative=radial, candidate_excess=cand_E,
                     certified_le_candidate=cert, starts=nstarts, notes=notes)
