"""Local (cone-restricted) regularization paths of mmts (9), Theorems 4 and 7:
p̄(R) = argmin{L(p) : p ∈ C_{ε,R₀}(q), ‖p‖ ≤ R}, C_{ε,R₀}(q) = {corr(p, q) ≥ 1 − ε, ‖p‖ ≥ R₀}.

* Minimisation: projected gradient on f = log(L − L⋆) (``regpath.log_excess``) over the cone ∩ ball (polar clamp
  ``project_cone``), Barzilai–Borwein steps measured as moves — one step moves ψ by at most R, whatever ‖∇f‖ (at large
  R the gradient is e^{−cR} small, so a step length in units of ∇f would never leave the start) — and Armijo
  backtracking; several starts, the best kept. A first-order method: no optimality certificate (evidence).
* Resolution. Inside the cone the loss can vary like e^{−cR} while L − L⋆ stays of order 1 (a non-optimal token kept
  by every p of the cone): below the working precision no comparison of f decides and the search stays at its start.
  So each point is tested with one macroscopic feasible move (length R/20 along the projected −∇f, ∇f computed to full
  relative precision): *resolved* when the move is not a first-order descent, or is certainly worse (a second-order
  minimum); when it is certainly better the descent continues from it; when the first-order decrease it predicts is
  below what f resolves, the radius is recomputed at the precision that decrease needs (up to ``MAX_DPS``). A point
  still unresolved carries ``resolved=False`` and a note, and a claim must not decide on it.
"""
from __future__ import annotations

import math
import random
from fractions import Fraction

from flint import arb

from verify.dynamics.parameterization import Parameterization, make_parameterization
from verify.dynamics.regpath import RegPath, log_excess, path_point
from verify.errors import UsageError
from verify.models.attention import dot, norm2, one_minus_corr
from verify.numbers.precision import to_arb, working_precision

#: the names a path point notes for its active constraints
ACTIVE = ("cone edge", "R0", "R")
#: the highest precision (decimal digits) a radius is recomputed at to resolve the loss differences in the cone
MAX_DPS = 1500
#: a feasible move is a first-order descent move when ⟨−∇f, move⟩ ≥ DESCENT_COSINE·‖∇f‖·‖move‖
DESCENT_COSINE = Fraction(1, 10)
#: the length of the probing move, as a fraction of R
PROBE_MOVE = Fraction(1, 20)
#: extra digits beyond those the predicted decrease needs: the location of the minimiser to ~10^{-GUARD_DIGITS}
GUARD_DIGITS = 20


def _mid(x):
    return arb(x.mid())


def project_cone(p, q, eps: arb, R0: arb, R: arb):
    """Map p into {corr(p, q) ≥ 1 − ε, R₀ ≤ ‖p‖ ≤ R} (polar clamp: radius, then angle toward q)."""
    r = norm2(p)
    u = [a / r for a in p] if r > 0 else list(q)
    c = dot(u, q)
    if c < 1 - eps:
        w = [a - c * b for a, b in zip(u, q)]
        nw = norm2(w)
        cm = 1 - eps
        sm = (1 - cm * cm).sqrt()
        u = [cm * b + sm * a / nw for a, b in zip(w, q)] if nw > 0 else list(q)
    r = max(R0, min(R, r))
    return [_mid(r * a) for a in u]


def _grad_f(par, x):
    E = par.excess(x)
    return [_mid(a / E) for a in par.grad(x)]


def projected_descent(par, x, q, eps, R0, R, dps, max_iter):
    """Projected gradient with BB step lengths as moves (≤ R) and Armijo backtracking; returns (x, f)."""
    f = log_excess(par, x)
    g = _grad_f(par, x)
    gn = norm2(g)
    if not gn > 0:
        return x, f
    step = R / 20 / gn
    tol = arb(10) ** (-(dps // 2)) * R
    prev_x, prev_g = None, None
    for _ in range(max_iter):
        if prev_x is not None:  # Barzilai–Borwein step length
            sx = [a - b for a, b in zip(x, prev_x)]
            sg = [a - b for a, b in zip(g, prev_g)]
            den = dot(sx, sg)
            if den > 0:
                step = min(R / gn, dot(sx, sx) / den)
        alpha = step
        while True:
            xn = project_cone([a - alpha * b for a, b in zip(x, g)], q, eps, R0, R)
            fn = log_excess(par, xn)
            move = [a - b for a, b in zip(xn, x)]
            if fn <= f + arb("1e-4") * dot(g, move) or alpha * gn < arb(10) ** (-40) * R:
                break
            alpha = alpha / 2
        if not fn < f:
            break
        prev_x, prev_g = x, g
        x, f = xn, fn
        g = _grad_f(par, x)
        gn = norm2(g)
        if not gn > 0 or norm2(move) <= tol:
            break
    return x, f


def probe(par, x, q, eps, R0, R, dps):
    """One macroscopic feasible move from x (longer than the descent's tolerance R·10^{−dps/2}): ("resolved", None,
    None), ("better", x', None) or ("unresolved", None, digits) — the digits f needs to see the decrease it predicts."""
    g = _grad_f(par, x)
    gn = norm2(g)
    if not gn > 0:
        return "resolved", None, None
    xm = project_cone([a - R * to_arb(PROBE_MOVE) / gn * b for a, b in zip(x, g)], q, eps, R0, R)
    move = [a - b for a, b in zip(xm, x)]
    mn = norm2(move)
    pred = -dot(g, move)  # first-order decrease of f along the move
    if not mn > R * arb(10) ** (-(dps // 2)) or not pred >= to_arb(DESCENT_COSINE) * gn * mn:
        return "resolved", None, None
    f, fm = log_excess(par, x), log_excess(par, xm)
    if fm > f:
        return "resolved", None, None
    if fm < f:
        return "better", xm, None
    scale = max(abs(f).upper(), arb(1))
    need = math.ceil(float((scale / pred).log() / arb(10).log())) + GUARD_DIGITS
    return "unresolved", None, need


def _best_point(par, R, q, eps, R0, cands, dps, max_iter):
    best = None
    for x0 in cands:
        x, f = projected_descent(par, project_cone(x0, q, eps, R0, R), q, eps, R0, R, dps, max_iter)
        if best is None or f < best[1]:
            best = (x, f)
    x = best[0]
    for _ in range(20):  # continue while a macroscopic feasible move is certainly better
        state, xm, need = probe(par, x, q, eps, R0, R, dps)
        if state != "better":
            return x, state, need
        x, _ = projected_descent(par, xm, q, eps, R0, R, dps, max_iter)
    return x, "unresolved", None


def _setup(source, q, param, loss, eps, R0):
    par = source if isinstance(source, Parameterization) else make_parameterization(source, param, loss)
    if par.name not in ("p", "W", "beta"):
        raise UsageError("local regularization paths are implemented for p, W and beta")
    qv = [to_arb(Fraction(str(x))) if not isinstance(x, arb) else x for x in q]
    nq = norm2(qv)
    return par, [a / nq for a in qv], to_arb(Fraction(str(eps))), to_arb(Fraction(str(R0)))


def local_regularization_path(source, q, radii, *, eps, R0, param: str = "p", dps: int = 50, loss="logistic",
                              starts: int = 3, seed: int = 0, max_iter: int = 400, svm: bool = True,
                              max_dps: int = MAX_DPS) -> RegPath:
    """p̄(R) for each R in ``radii`` (mmts (9)); ``q`` is a direction (normalised here). Each point notes which
    constraints are active ("cone edge", "R0", "R"), the precision it needed when above ``dps``, and
    ``resolved=False`` when even ``max_dps`` digits could not see the loss differences in the cone."""
    rng = random.Random(seed)
    points, prev = [], None
    with working_precision(dps) as prec:
        par, qv, eps_a, R0_a = _setup(source, q, param, loss, eps, R0)
        for radius in radii:
            R = to_arb(Fraction(str(radius)))
            z = [[to_arb(Fraction(rng.gauss(0.0, 1.0))) for _ in qv] for _ in range(starts)]
            cands = [[R * a for a in qv], [R0_a * a for a in qv]] + ([prev] if prev else [])
            cands += [[R * (a + b * eps_a.sqrt()) for a, b in zip(qv, zk)] for zk in z]
            x, state, need = _best_point(par, R, qv, eps_a, R0_a, cands, prec.dps, max_iter)
            used, notes = prec.dps, []
            while state == "unresolved" and need is not None and used < min(need, max_dps):
                used = min(max(need, 2 * used), max_dps)
                with working_precision(used):
                    par_hi, qv_hi, eps_hi, R0_hi = _setup(source, q, param, loss, eps, R0)
                    R_hi = to_arb(Fraction(str(radius)))
                    x, state, need = _best_point(par_hi, R_hi, qv_hi, eps_hi, R0_hi, [x] + cands, used, max_iter)
            if used > prec.dps:
                notes.append(f"recomputed at {used} digits (the loss differences in the cone are below 10^−{prec.dps})")
            if state == "unresolved":
                notes.append(f"unresolved: the loss differences in the cone are below the resolution of {used} digits")
            prev = x
            r = norm2(x)
            tiny = arb(10) ** (-(prec.dps // 2))
            if dot(x, qv) / r <= 1 - eps_a + tiny:
                notes.append("cone edge")
            if r <= R0_a * (1 + tiny):
                notes.append("R0")
            if r >= R * (1 - tiny):
                notes.append("R")
            pt = path_point(par, R, x, "R" in notes, dot(par.grad(x), x) / r, None, len(cands), prec.dps, svm, notes)
            pt.resolved = state != "unresolved"
            pt.notes.append(f"1 − corr to q = {one_minus_corr(x, qv).mid().str(6, radius=False)}")
            points.append(pt)
        return RegPath(par.name, points, prec.dps)
