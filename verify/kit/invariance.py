"""What the two Theorem 3 claims of mmts share (``mmts.thm3``, and Step 3 of its proof ``mmts.thm3.cone``):
the setup (α, μ, η ≤ 1/L_p, directions), the first-order invariance witness R, the existential-R
retries with their declared rule, and the figures of the paths in the cone.

First-order invariance (the flow's version, step-size free): at the boundary points
r((1−μ)p̄^mm + √(μ(2−μ))u) of the cone (u over ``boundary_directions`` plus circles of 36 directions
covering the boundary sphere) and r over the ladder σ·{1, 2, 5, …, 10⁸}, the inward component
⟨−∇L(p), p̄^mm − (1−μ)p̄⟩ (‖p‖ times d corr/dt along the flow) must be > 0. R is the smallest ladder
radius from which it holds at every deeper radius (``rules.witness``); with no witness, the sign as
r → ∞ along the failing boundary direction (``leading_term``) decides: certainly negative proves the
failure for every R (VIOLATED). With R given by the caller every boundary point from R is checked.

Existential R for the paths (``try_radii``): the discrete paths may leave from the first-order
witness (second-order terms of a step), so the next ladder radii are tried; the first radius with
no exit is the trajectory witness. Paths leaving from each of ``rules.REFUTING_RADII`` radii refute
"there is R" over the range "R ≤ <largest tried>" (``rules.radius_refuted``: VIOLATED as evidence,
the exits named). With R given (or explicit starts) an exit is a failure of the claim itself.
"""
from __future__ import annotations

import math
from fractions import Fraction

from flint import arb

from verify.claims import Decision, Evidence, Figure, Hypothesis, Outcome, Series, Tally, rules
from verify.claims.verdict import compare
from verify.errors import reraise_interrupt
from verify.geometry.cone_data import INVARIANCE_LADDER
from verify.geometry.cones import (
    boundary_directions,
    cone_point,
    critical_width,
    first_order_witness,
    in_cone_margin,
    lmm_geometry,
    mu0,
    plane_direction,
    radius_scale,
    unit,
)
from verify.geometry.smoothness import smoothness_constant
from verify.kit.cone_checks import (
    ConeChecks,
    asymptotic_evidence,
    flow_in_cone,
    gd_in_cone,
    log10_series,
    plot_value,
    resolve_selection,
    ruled,
    step_hypothesis,
    times_sigma,
    width_evidence,
)
from verify.models.attention import LinearLogitModel, dot, norm2
from verify.models.losses import get_loss
from verify.numbers.fits import fit_rate, line_fit
from verify.numbers.precision import Precision, log10_abs, to_arb

MAX_DEEP_STARTS = 4  # in-plane boundary directions followed by the (costly) gradient-flow paths
MAX_STEPS = 2000  # Radau steps per flow path (budget); beyond it the deep check is INCONCLUSIVE
DEPTH = 10**4  # default depth of the flow paths, in units of σ ≈ ‖p^mm‖
INWARD = "⟨−∇L(p), p̄^mm − (1−μ)p̄⟩ / ((1/n)Σ(1 − s_iα))"


class Setup:
    """α, μ, the model, η ≤ 1/L_p, the boundary directions and the first-order scan (``ok`` False when
    a hypothesis is not met: they are on ``out``)."""

    def __init__(self, data, prec: Precision, out: Outcome, alpha=None, mu=None, R=None, radii=None, loss="logistic"):
        self.ok, self.dps, self.data, self.loss = False, prec.dps, data, get_loss(loss)
        g, hyps, notes = resolve_selection(data, alpha, self.loss)
        out.hypotheses.extend(hyps)
        out.notes.extend(notes)
        if g is None:
            return
        self.g, self.mu0 = g, mu0(g)
        self.mstar, self.mstar_what = critical_width(g)
        self.mu = self.mu0 / 2 if mu is None else Fraction(mu)
        self.mu_how = "μ = μ₀(α)/2 (derived width, see mmts.lemma7)" if mu is None else "μ given by the caller"
        self.model = LinearLogitModel.from_dataset(data, "p", self.loss)
        self.pmm = [to_arb(x) for x in g.p_mm]
        self.nrm = to_arb(g.norm_sq).sqrt()
        self.pbar = [x / self.nrm for x in self.pmm]
        self.exact_dirs, self.dirs, self.flat = boundary_directions(g)
        if self.flat:
            out.notes.append("the keys span one dimension: the cone is the ray through p^mm, so its 'boundary' "
                             "points are ray points (corr = 1) and invariance reduces to the norm floor")
        self.sigma = radius_scale(g.norm_sq)
        self.radii = sorted(Fraction(x) for x in radii) if radii is not None else [self.sigma * x for x in INVARIANCE_LADDER]
        lp = smoothness_constant(data, self.loss)
        self.Lp, self.lp_describe = lp.value, lp.describe()
        self.eta, h = step_hypothesis(lp.value, f"L_p = {lp.value.mid().str(6, radius=False)} ({lp.describe()})")
        out.hypotheses.append(h)
        if h.met is not True:
            return
        try:
            gg = lmm_geometry(data, tuple(o[0] for o in data.optimal_tokens()))
            self.gmm = gg.p_mm if gg.feasible else None
        except Exception as exc:  # noqa: BLE001 - a tie in the optimal token: no GMM to compare with
            reraise_interrupt(exc)
            self.gmm = None
        self.fixed_R = R is not None
        scan_radii = self.radii if R is None else sorted({Fraction(R)} | {r for r in self.radii if r >= Fraction(R)})
        _, self.scan, self.scan_dirs = first_order_witness(self.model, g, self.mu, scan_radii)
        self.R = Fraction(R) if R is not None else rules.witness(scan_radii, self._radius_ok)[0]
        self.ok = True

    def _radius_ok(self, r):
        seen = [compare(v, ">", arb(0))[0] for rec in self.scan if rec["r"] == r for v, _ in rec["values"]]
        return False if False in seen else None if None in seen else True

    def first_order_evidence(self, out: Outcome) -> bool:
        """The first-order items (see the module doc); True when the paths are to be run (an R in hand)."""
        out.add(*width_evidence(self.mu0, self.mu, self.mu_how, self.mstar, self.mstar_what))
        quantity = f"first-order invariance: min over boundary points of C_(μ,r), r ≥ R, of {INWARD}"
        if not self.fixed_R:
            R, d = rules.witness([rec["r"] for rec in self.scan], self._radius_ok)
            out.add(ruled("witness R for first-order invariance (smallest ladder radius from which the inward "
                          "component is > 0 on the boundary at every deeper radius)", R, d))
        if self.R is not None:
            t = Tally(quantity, ">", arb(0))
            for rec in self.scan:
                if rec["r"] >= self.R:
                    for v, k in rec["values"]:
                        t.add(v, f"r = {float(rec['r']):g}, boundary direction {k}")
            out.add(t.evidence(f"R = {float(self.R):g} given" if self.fixed_R else f"witness R = {float(self.R):g}"))
            return True
        v, k = min(self.scan[-1]["values"], key=lambda z: z[0].mid())
        qbar = cone_point(self.pbar, self.scan_dirs[k], self.mu, 1)
        vdir = [a - (1 - to_arb(self.mu)) * b for a, b in zip(self.pbar, qbar)]
        out.add(asymptotic_evidence(
            "first-order invariance as r → ∞ along the failing boundary direction: leading coefficient of the inward "
            "component", self.g, qbar, vdir, self.loss, f"r = {float(self.scan[-1]['r']):g}, direction {k}"))
        out.notes.append("no first-order witness R on the ladder: the paths were not run")
        return False

    def in_plane_dirs(self):
        """Directions for the (costly) deep runs: those inside the span of the keys, at most a few."""
        rows = self.g.rows.values()
        inside = [u for u, ex in zip(self.dirs, self.exact_dirs) if any(sum(a * b for a, b in zip(ex, row)) != 0
                                                                       for row in rows)]
        return inside[:MAX_DEEP_STARTS] or self.dirs[:1]

    def start(self, u, level, r):
        """An exact point with 1 − corr ≤ ``level`` and ‖p‖ ≥ r, certified: the boundary point moved inward
        by a relative 10⁻¹² (fixed, far above rounding at 25+ digits)."""
        nudge = Fraction(1, 10**12)
        level = Fraction(0) if self.flat else level
        p = [arb(x.mid()) for x in cone_point(self.pbar, u, level * (1 - nudge), r * (1 + nudge))]
        assert in_cone_margin(p, self.pbar, max(level, Fraction(1, 10**30))) >= 0 and norm2(p) > to_arb(r), \
            "start not certified in the cone"
        return p

    def deep_target(self, Rr, until_norm=None, depth=None) -> Fraction:
        """‖p‖ to reach along the flow paths: ``until_norm``, else ``depth``·R, else max(10⁴σ, 10R)."""
        if until_norm is not None:
            return Fraction(until_norm)
        return Fraction(depth) * Rr if depth is not None else max(DEPTH * self.sigma, 10 * Rr)


def boundary_paths(S: Setup, Rr, forms, gd_steps: int, deep: bool, target, max_steps: int):
    """[(label, runs, checks, target or None)]: GD (η ≤ 1/L_p) from every boundary direction and the gradient
    flow from the in-plane ones, started at r = R on the cone's boundary (strong form: level μ) or at
    level μ/2 (weak form), checked against C_{μ,R}."""
    groups = []
    for form in forms:
        level = S.mu if form == "strong" else S.mu / 2
        tag = f"{form} form (" + ("C_(μ,R) → C_(μ,R))" if form == "strong" else "C_(μ/2,R) → C_(μ,R))")
        checks = ConeChecks("step")
        gd = [gd_in_cone(S.model, S.g, S.start(u, level, Rr), S.eta, gd_steps, S.mu, Rr, checks, label=f"{form} u{k}")
              for k, u in enumerate(S.dirs)]
        groups.append((f"{tag}, GD η = 1/L_p (rounded down), {gd_steps} steps from {len(gd)} boundary points",
                       gd, checks, None))
        if deep:
            checks = ConeChecks("checked point")
            fl = [flow_in_cone(S.data, S.g, S.start(u, level, Rr), target, S.mu, Rr, S.dps, checks, label=f"{form} u{k}",
                               gmm=S.gmm, loss=S.loss, max_steps=max_steps) for k, u in enumerate(S.in_plane_dirs())]
            groups.append((f"{tag}, gradient flow to ‖p‖ = {float(target):g}", fl, checks, target))
    return groups


def theorem_starts(S: Setup, Rr, starts=None):
    """(points with labels, hypotheses p(0) ∈ C_{μ,R}): ``starts`` (exact), else the two in-plane boundary
    points of C_{μ,R} and one inside (level μ/4)."""
    if starts is None:
        dirs = S.in_plane_dirs()[:2]
        pts = [(S.start(u, S.mu, Rr), f"boundary u{k}") for k, u in enumerate(dirs)]
        pts.append((S.start(dirs[0], S.mu / 4, Rr), "interior (level μ/4) u0"))
    else:
        pts = [([arb(to_arb(Fraction(x)).mid()) for x in p], f"start {k}") for k, p in enumerate(starts)]
    hyps = []
    for p, lab in pts:
        marg = in_cone_margin(p, S.pbar, S.mu)
        hyps.append(Hypothesis(f"p(0) ∈ C_(μ,R)(p^mm) for {lab}", bool(marg >= 0) and bool(norm2(p) >= to_arb(Rr)),
                               f"μ − (1 − corr) = {marg.mid().str(5)}, ‖p(0)‖ = {norm2(p).mid().str(8)}, "
                               f"μ = {float(S.mu):.6g}, R = {float(Rr):g}"))
    return pts, hyps


def try_radii(S: Setup, attempt, retry: bool):
    """Run ``attempt(R) -> (result, exit witness or None)`` at S.R and — existential R (``retry``) — at
    the next ladder radii until one has no exit, at most ``rules.REFUTING_RADII`` in all.
    Returns (R used, its result, [(R, exit)], Decision or None when R is fixed)."""
    cands = [r for r in S.radii if r >= S.R][:rules.REFUTING_RADII] if retry else [S.R]
    tried = []
    for Rr in cands:
        result, exit_ = attempt(Rr)
        tried.append((Rr, exit_))
        if exit_ is None or result is None:
            break
    return Rr, result, tried, (rules.radius_refuted([(r, e is not None) for r, e in tried]) if retry else None)


def radius_evidence(S: Setup, out: Outcome, tried, decision) -> bool:
    """The trajectory-witness item of an existential R (rule ``radius_refuted``, the exits named), and
    the range of a refutation. Returns whether the per-point items of the paths decide (not when the
    existential R is refuted or undecided: the rule decides then)."""
    if decision is None:
        return True
    exits = "; ".join(f"R = {float(r):g}: left at {e}" for r, e in tried if e is not None)
    out.add(ruled("trajectory witness R (first radius tried from which no path leaves C_(μ,R))",
                  tried[-1][0] if decision.holds else None, decision, note=exits))
    if decision.holds is False:
        out.range = f"R ≤ {times_sigma(tried[-1][0], S.sigma)}"
    if len(tried) > 1 and decision.holds:
        out.notes.append(f"trajectory witness R = {float(tried[-1][0]):g}: from the first-order witness "
                         f"{float(S.R):g} a discrete path left the cone, so the next ladder radius was used")
    return bool(decision.holds)


def require_target(out: Outcome, runs, target, label: str = "") -> Evidence:
    """The requirement that every flow path reached ‖p‖ = target within its step budget (else
    INCONCLUSIVE naming it), and the smallest final ‖p‖ (shown)."""
    fin = min((r.omc[-1][0] for r in runs), key=lambda z: z.mid())
    short = [r for r in runs if not r.omc[-1][0] >= to_arb(target) * (1 - arb(10) ** -12)]
    why = ", ".join(f"{r.start_label}: {'step budget exhausted' if r.status == 'max_steps' else r.status}" for r in short)
    name = f"{label + ': ' if label else ''}the gradient flow reached ‖p‖ = {float(target):g}"
    out.require(name, not short, why + " (pass until_norm / max_steps)" if short else "")
    if short:
        out.notes.append(f"{name}: not met ({why}): the deep range is not reached")
    return Evidence(f"{label + ': ' if label else ''}smallest final ‖p‖ (target reached, to 12 digits)", fin, "~",
                    enclosed=False, note=f"{max(r.steps for r in runs)} checked points at most per path")


def ladder_records(omc, ratio: int = 2):
    """(‖p‖'s, 1 − corr's) of a path's records thinned from its end to norms at least ``ratio`` apart — the
    1-2-5-like spacing ``rules.TAIL_POINTS`` assumes (its last points then span a decade); a path too
    short for the rule gives it too few points, and the rule is then undecided."""
    kept = []
    for n, v, _ in reversed(omc):
        if not kept or n * ratio <= kept[-1][0]:
            kept.append((n, v))
    kept.reverse()
    return [n for n, _ in kept], [v for _, v in kept]


def all_paths(decisions, labels) -> Decision:
    """One rule's decisions on several paths as one: fails if one fails, undecided if one is, else holds."""
    hs = [d.holds for d in decisions]
    holds = False if False in hs else None if (None in hs or not hs) else True
    return Decision(holds, decisions[0].rule if decisions else "no path",
                    "; ".join(f"{lab}: {d.detail}" for lab, d in zip(labels, decisions)))


def flow_trends(runs, nrm, theory_rate) -> tuple[list, list]:
    """Shown beside Theorem 3's decisions: the fitted rate a of 1 − corr ≈ C‖p‖^(−a) over the second half
    (in log ‖p‖) of each flow path, and d‖p‖/d ln t over its tail. Returns (items, [((a, C), run)])."""
    rates = []
    for r in runs:
        mid = (log10_abs(r.omc[0][0]) + log10_abs(r.omc[-1][0])) / 2
        fr = fit_rate([(n, v) for n, v, _ in r.omc if log10_abs(n) >= mid])
        if fr is not None:
            rates.append((fr, r))
    items = []
    if rates:
        items.append(Evidence("fitted rate a in 1 − corr ≈ C‖p‖^(−a) (second half of each path)",
                              f"{min(a for (a, _), _ in rates):.4f} … {max(a for (a, _), _ in rates):.4f}",
                              note=f"DERIVED expectation a = {theory_rate}"))
    fits = [line_fit([(float(lt.mid()), float(n.mid())) for n, lt in r.times[len(r.times) // 2:]]) for r in runs]
    slopes = [f[1] for f in fits if f is not None]
    if slopes:
        items.append(Evidence("d‖p‖/d ln t along the flow (tail fit)", f"{min(slopes):.4f} … {max(slopes):.4f}",
                              note=f"expected ‖p^mm‖ = 1/Θ = {float(nrm.mid()):.6g} (‖p‖ ≈ ln t/Θ)"))
    return items, rates


def convergence_figures(S: Setup, runs, rates, Rr, theory_rate) -> list:
    """1 − corr(p, p^mm(α)) against ‖p‖ (log10 at the working precision, with the fitted rates), ‖p‖
    against ln t, and the paths in the cone."""
    series = [Series(r.start_label, [plot_value(n) for n, _, _ in r.omc], log10_series([v for _, v, _ in r.omc]), "-o")
              for r in runs]
    for (a, C), r in rates:
        xs = [plot_value(r.omc[len(r.omc) // 2][0]), plot_value(r.omc[-1][0])]
        if C > 0 and None not in xs:
            series.append(Series(f"fit {r.start_label}: a = {a:.3f}", xs,
                                 [math.log10(C) - a * math.log10(x) for x in xs], "--"))
    return [
        Figure("convergence", "Theorem 3: 1 − corr(p, p^mm(α)) along the paths", "‖p‖",
               "log10(1 − corr) (working precision)", series, logx=True,
               caption=f"Fitted rates beside the derived a = {theory_rate}."),
        Figure("norm-vs-logt", "Theorem 3: ‖p‖ against ln t (flow time)", "ln t", "‖p‖",
               [Series(r.start_label, [plot_value(lt) for _, lt in r.times], [plot_value(n) for n, _ in r.times], "-o")
                for r in runs], caption="Norm grows like ln t / Θ."),
        cone_figure(S, runs, "cone", "Theorem 3: the paths in the cone C_(μ,R)", Rr)]


def inward_figure(S: Setup) -> Figure:
    xs = [float(rec["r"]) for rec in S.scan]
    ys = [plot_value(min((v for v, _ in rec["values"]), key=lambda z: z.mid())) for rec in S.scan]
    return Figure("inward", "Cone invariance: min inward component on the boundary of C_(μ,r)", "r = ‖p‖",
                  "min " + INWARD, [Series("min over boundary directions", xs, ys, "-o")], logx=True,
                  hlines=[(0.0, "0")], caption="Positive from the witness radius R on: the flow enters the cone.")


def cone_figure(S: Setup, runs, name: str, title: str, R) -> Figure:
    """Paths in the cone: the angle between p and p^mm(α) (signed in the keys' plane when it is 2-D)
    against ‖p‖, with the cone boundary ±arccos(1 − μ), the critical angle and the GMM direction."""
    e1, e2 = S.pbar, plane_direction(S.g)
    if e2 is not None and S.gmm is not None and dot([to_arb(x) for x in S.gmm], e2) < 0:
        e2 = [-x for x in e2]  # the GMM at a positive angle

    def angle(p):
        a = plot_value(dot(p, e1))
        if e2 is not None:
            return math.degrees(math.atan2(plot_value(dot(p, e2)), a))
        return math.degrees(math.acos(max(-1.0, min(1.0, a / plot_value(norm2(p))))))

    series = [Series(r.start_label, [plot_value(norm2(p)) for p in r.points], [angle(p) for p in r.points], "-o")
              for r in runs]
    th = math.degrees(math.acos(1 - float(S.mu)))
    hl = [(th, f"cone boundary ±{th:.3g}° (μ = {float(S.mu):.3g})"), (-th, "")]
    if S.mstar is not None:
        ts = math.degrees(math.acos(1 - plot_value(S.mstar)))
        hl += [(ts, f"critical angle ±{ts:.3g}° (μ*)"), (-ts, "")]
    if S.gmm is not None and e2 is not None:
        ga = angle(unit([to_arb(x) for x in S.gmm]))
        if abs(ga) <= 20 * th:
            hl.append((ga, f"GMM direction {ga:.3g}°"))
    return Figure(name, title, "‖p‖", "angle to p^mm(α) (degrees)" + (", signed in the keys' plane" if e2 else ""),
                  series, logx=True, hlines=hl,
                  caption=f"μ = {float(S.mu):.4g}, R = {float(R):g}: a path between the boundary lines stays in C_(μ,R).")
