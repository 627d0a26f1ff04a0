"""The correlation ratio ρ(p) = ⟨−∇L(p), p̄⟩ / ⟨−∇L(p), p̄^mm⟩ over whole spheres ‖p‖ = r (mmts Lemma 5, the global
n = 1 analogue of Lemma 7 L3), decided at probe points; and its limit along a ray.

Probe points. Lemma 7's cone scan (``verify.kit.cone_scan.ConeScan``) with the cone widened to the whole sphere:
μ = 2 (corr ≥ −1), so the points r((1−m)p̄^mm + √(m(2−m))u) run over every level m ∈ [0, 2] (m = 2 is −p̄^mm) along
every direction u ⊥ p^mm of ``verify.geometry.cones.cone_directions`` (both signs of an orthonormal basis of the keys'
span, the adversarial directions, one outside the span), with the radius-adapted angles θ ≈ x/(r·A_max) where the
supremum sits (θ ~ 1/r), the uniform levels m = k/16 and, in ≥ 3 dimensions, circles of directions. Then
``refine``: at each radius the best point's level is refined by a golden-section search on log m between its
neighbouring levels (floats only propose m, an exact rational; every proposed point is evaluated in arb and
counted like the others). The supremum over the sphere is therefore certified *at the probe points*.

Limit along a ray (``ratio_limit``): for a unit q̄ selecting α uniquely, −∇L(rq̄) = e^{−r m_min}(c + o(1)) with the
nearest token's terms leading (``verify.geometry.cones.leading_term``), so
ρ(rq̄) → (k_{iα_i} − k_it)ᵀq̄ / (k_{iα_i} − k_it)ᵀp̄^mm for the nearest (i, t) — certified when the nearest token is
separated and the denominator's coefficient is certainly > 0. A limit above 1 + π proves that no R_π exists.
"""
from __future__ import annotations

import math
from fractions import Fraction

from verify.claims import Evidence, Figure, Series
from verify.geometry.cones import cone_point, leading_term, lmm_geometry
from verify.kit.cone_checks import log10_series
from verify.kit.cone_scan import ConeScan
from verify.models.attention import LinearLogitModel, dot, features
from verify.models.losses import get_loss
from verify.numbers.precision import to_arb

#: the whole sphere as a "cone": corr(p, p^mm) ≥ 1 − 2 = −1
WHOLE_SPHERE = Fraction(2)
#: uniform levels 1 − corr = k/16 over [0, 2]
UNIFORM_LEVELS = tuple(Fraction(k, 16) for k in range(1, 32))
#: golden-section evaluations per radius in ``refine``
REFINE_STEPS = 24


def sphere_scan(data, g, radii, loss, pis=(), refine: bool = True) -> ConeScan:
    """The cone scan over whole spheres ‖p‖ = r, r in ``radii`` (see the module docstring), refined."""
    loss = get_loss(loss)
    S = ConeScan(data, g, WHOLE_SPHERE, radii, loss, pis, levels=UNIFORM_LEVELS)
    if refine:
        model = LinearLogitModel.from_dataset(data, "p", loss)
        for k, r in enumerate(S.radii):
            S.points[k].extend(_refined(S, model, S.points[k], r))
    return S


def point(S: ConeScan, model, u, m: Fraction, k: int, r) -> dict:
    """The L3 quantities of Lemma 7 at one sphere point (num = ⟨−∇L, p̄⟩, den = ⟨−∇L, p̄^mm⟩)."""
    p = cone_point(S.pbar, u, m, r)
    w = [-x for x in model.grad(p)]
    mm = to_arb(m)
    c, s = 1 - mm, (mm * (2 - mm)).sqrt()
    return {"m": m, "k": k, "r": r, "num": dot(w, [c * a + s * b for a, b in zip(S.pbar, u)]),
            "den": dot(w, S.pmm) / S.nrm, "where": f"‖p‖ = {float(r):g}, 1 − corr = {float(m):.6g}, direction {k} "
                                                  "(refined)"}


def ratio(pt):
    return pt["num"] / pt["den"] if pt["den"] > 0 else None


def _refined(S: ConeScan, model, pts, r) -> list:
    """Golden-section search on log m around the best point of this radius (points with den > 0 only)."""
    scored = [(ratio(pt), pt) for pt in pts]
    scored = [(v, pt) for v, pt in scored if v is not None]
    if not scored:
        return []
    _, best = max(scored, key=lambda z: z[0].mid())
    k, m0 = best["k"], best["m"]
    levels = sorted({pt["m"] for pt in pts if pt["k"] == k} | {Fraction(0)})
    i = levels.index(m0)
    lo = levels[i - 1] if i > 0 else m0 / 4
    hi = levels[i + 1] if i + 1 < len(levels) else min(WHOLE_SPHERE, m0 * 4)
    if lo <= 0:
        lo = m0 / 100 if m0 > 0 else None
    if lo is None or not 0 < lo < hi:
        return []
    u = S.dirs[k]
    out = []

    def f(x):  # x = log m; the point's m an exact rational near e^x
        m = Fraction(math.exp(x)).limit_denominator(10**12)
        if not 0 < m <= WHOLE_SPHERE:
            return -math.inf
        pt = point(S, model, u, m, k, r)
        out.append(pt)
        v = ratio(pt)
        return float(v.mid()) if v is not None else -math.inf

    a, b = math.log(float(lo)), math.log(float(hi))
    gr = (math.sqrt(5) - 1) / 2
    c, d = b - gr * (b - a), a + gr * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(REFINE_STEPS):
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - gr * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + gr * (b - a)
            fd = f(d)
    return out


def sup_ratio(pts):
    """The largest ρ over points with a certainly positive denominator (None if none)."""
    vals = [v for v in (ratio(pt) for pt in pts) if v is not None]
    return max(vals, key=lambda z: z.mid()) if vals else None


def ratio_limit(data, S: ConeScan, pt, loss, pi) -> Evidence:
    """lim_{r→∞} ρ(r q̄) along the direction of ``pt`` (unit q̄), against 1 + π (see the module docstring)."""
    loss = get_loss(loss)
    qbar = cone_point(S.pbar, S.dirs[pt["k"]], pt["m"], 1)
    quantity = f"lim_(r→∞) ρ(r q̄) along the failing direction ({pt['where']}) vs 1 + π"
    logits = [[dot([to_arb(x) for x in k], qbar) for k in seq] for seq in features(data, "p")]
    alpha = []
    for a in logits:
        top = max(range(len(a)), key=lambda t: a[t].mid())
        if not all(a[top] > a[t] for t in range(len(a)) if t != top):
            return Evidence(quantity, None, "~", note="no unique selected token along q̄: the limit is not derived")
        alpha.append(top)
    g = lmm_geometry(data, tuple(alpha))
    _, detail, c_num = leading_term(g, qbar, qbar, loss)
    _, _, c_den = leading_term(g, qbar, S.pbar, loss)
    if c_num is None or c_den is None or not c_den > 0:
        return Evidence(quantity, None, "~", note=f"selection α = {alpha}; {detail}; the limit is not derived")
    return Evidence(quantity, c_num / c_den, "<=", 1 + to_arb(pi), note=(
        f"selection α = {alpha} along q̄; {detail}; the ratio of the leading coefficients "
        "(k_α − k_t)ᵀq̄ / (k_α − k_t)ᵀp̄^mm of the nearest token: above 1 + π, no R_π exists"))


def ratio_figure(S: ConeScan, pis, title: str) -> Figure:
    """log10(sup ρ − 1) against r, with the levels π (computed at the working precision)."""
    xs = [float(r) for r in S.radii]
    sups = [sup_ratio(pts) for pts in S.points]
    return Figure("sup-ratio", title, "‖p‖", "log10(sup ρ − 1) (working precision)",
                  [Series("sup over the sphere's probe points", xs,
                          log10_series([None if v is None else v - 1 for v in sups]), "-o")], logx=True,
                  hlines=[(math.log10(float(pi)), f"π = {float(pi):g}") for pi in pis],
                  caption="ρ = ⟨−∇L(p), p̄⟩/⟨−∇L(p), p̄^mm⟩; R_π is where the curve drops below log10 π for good.")
