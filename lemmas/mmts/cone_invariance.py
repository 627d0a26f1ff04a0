"""mmts Theorem 3, Step 3 of the proof — cone invariance ("updates remain inside the cone"),
App. B.4, (54a)–(55). Claim id ``mmts.thm3.cone`` (alias ``cone-invariance``).

Setting. α locally optimal (Definition 2), p^mm = p^mm(α), μ = μ(α) of Lemma 7, R large enough,
GD p(t+1) = p(t) − η∇L(p(t)) with η ≤ 1/L_p (Lemma 6, (6)/(24)); cones (7)–(8)
C_{μ,R}(p^mm) = {p : corr(p, p^mm) ≥ 1 − μ, ‖p‖ ≥ R}.

Statement (proof of Theorem 3, Step 3; spec `mmts.thm3`): once an iterate is in C_{ε,R_ε}(p^mm) it
stays there; for ε = μ the entry time is t = 0. Induction: ρ(t) := −η⟨∇L(p(t)), p̄^mm⟩ > 0 (Step 1);
⟨p(t+1), p̄^mm⟩/‖p(t)‖ ≥ 1 − ε + ρ(t)/‖p(t)‖ (54a); ⟨∇L(p(t)), p(t)⟩ < 0 so ‖p(t+1)‖ ≥ ‖p(t)‖ ≥ R
(the norm floor is kept); (54b)–(54c) bound ‖p(t+1)‖/‖p(t)‖; (55) gives corr(p(t+1), p^mm) ≥ 1 − ε.

UNCERTAIN in the spec (§7 item 8), and what is checked: whether the paper initialises at level μ or
μ/2. Both forms are checked —
* **strong**: p(0) ∈ C_{μ,R} ⇒ p(t) ∈ C_{μ,R} for all t (starts exactly on the boundary corr = 1−μ);
* **weak**: p(0) ∈ C_{μ/2,R} ⇒ p(t) ∈ C_{μ,R} for all t (starts on the boundary corr = 1−μ/2).
μ is μ₀(α)/2 with the derived width of ``verify.geometry.cones`` (the paper's (32) is not recovered; see
``mmts.lemma7``).

How it is checked.
1. First-order invariance (the flow's version, step-size free; it finds the witness R): at the
   boundary points r((1−μ)p̄^mm + √(μ(2−μ))u) of the cone, u over ``verify.geometry.cones.cone_directions``
   plus circles of 36 directions covering the boundary sphere (``dense_directions``; a sparse set
   of directions once gave a witness R too small by a factor 4 in 3-D, which the trajectories
   caught) and r over a ladder σ·{1, 2, 5, …, 10⁸} (σ ≈ ‖p^mm‖), the inward component
   ⟨−∇L(p), p̄^mm − (1−μ)p̄⟩ (‖p‖ times d corr/dt along the flow) must be > 0 (certified). R is the
   smallest ladder radius from which it holds at every deeper radius (evidence over the ladder).
   If it fails at the deepest radius, ``verify.geometry.cones.leading_term`` decides the sign as r → ∞
   (a higher-score token nearest along the failing direction proves the failure: VIOLATED).
   Fig. 1(b) reproduces the table of spec §8.4 (μ = 0.002 from r = 20, 0.004 from 50, 0.0049 from
   400, 0.0051 never).
2. Discrete GD with η = 1/L_p (``verify.geometry.smoothness``) from every boundary point at r = R (strong)
   and at level μ/2 (weak), ``gd_steps`` steps, every iterate checked: μ − (1 − corr(p(t), p^mm)) ≥ 0
   for t ≥ 1, ‖p(t)‖ ≥ R and ‖p(t+1)‖ ≥ ‖p(t)‖. Plain GD barely moves at these norms (∇L ~ e^{−‖p‖Θ}),
   so this is the moderate-norm part, as in the spec's table.
3. The deep part, along the gradient flow dp/dt = −∇L(p) itself (``verify.dynamics.gradient_flow``:
   the arc-length flow by Radau IIA at the working precision, local error ≤ 10^-dps, the limit of GD
   as η → 0), from the in-plane boundary starts until ‖p‖ = max(10⁴·σ, 10R); the cone and the norm
   floor are checked at every step end and at θ = 1/4, 1/2, 3/4 inside every step (dense output of
   the collocation polynomial). The theorem's GD with η ≤ 1/L_p would need ~e^{‖p‖Θ} steps at these
   norms; the flow takes O(1) steps per decade of ‖p‖. A step budget (``MAX_STEPS`` Radau steps per
   path) bounds the work: when it runs out first, the verdict is INCONCLUSIVE (a cone exit seen
   before still counts).
Points are kept as exact midpoints (the checked points are exact; each membership test is a
certified ball comparison). Between the checked points of the flow the check is not certified: it
is evidence at the density stated. R is existential: if a discrete path leaves the cone from the
first-order witness (second-order terms of a step), the next ladder radii (up to 3) are tried and
the trajectory witness is reported; if every radius tried fails, the verdict is INCONCLUSIVE.
VIOLATED needs a certified asymptotic failure (leading term) or an R fixed by the caller.

False cases (tests): μ > μ* = 4.963e−3 on Fig. 1(b) (the inward component is negative on the GMM
side for every r, and GD started on the boundary leaves at the first step); R below the witness
(μ = 0.002, R = 10 on Fig. 1(b)).
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Figure, Outcome, Series, register
from verify.data import mmts as D
from verify.errors import reraise_interrupt
from verify.geometry.cones import (
    boundary_scan,
    cone_directions,
    cone_point,
    critical_width,
    dense_directions,
    in_cone_margin,
    leading_term,
    lmm_geometry,
    mu0,
    unit,
)
from verify.geometry.smoothness import smoothness_constant
from verify.kit.cones import (
    finish,
    flow_in_cone,
    gd_in_cone,
    mark_undecided,
    resolve_selection,
    undecided,
)
from verify.models.attention import LinearLogitModel, features, norm2
from verify.models.losses import get_loss
from verify.numbers.precision import Precision, to_arb

LADDER = tuple(Fraction(x) for x in ("1", "2", "5", "10", "20", "50", "100", "200", "400", "1000", "2000",
                                       "5000", "1e4", "1e5", "1e6", "1e7", "1e8"))
MAX_DEEP_STARTS = 4
MAX_STEPS = 2000  # Radau steps of the gradient flow per path (budget); beyond it the deep check is INCONCLUSIVE
DEPTH = 10**4  # default depth of the flow paths, in units of σ ≈ ‖p^mm‖
RETRIES = 3  # further ladder radii tried when a discrete path leaves the cone from the first-order witness


def radius_scale(norm_sq: Fraction) -> Fraction:
    """σ ≈ ‖p^mm‖ rounded up to two significant digits."""
    import math

    x = math.sqrt(float(norm_sq))
    e = math.floor(math.log10(x)) - 1
    return Fraction(math.ceil(x / 10**e - 1e-12)) * Fraction(10) ** e


class Setup:
    """What both Theorem 3 claims need: α, μ, the model, directions, the invariance witness R."""

    def __init__(self, data, prec, out: Outcome, alpha=None, mu=None, R=None, radii=None, loss="logistic"):
        self.ok = False
        self.dps = prec.dps
        self.loss = get_loss(loss)
        g, hyps, notes = resolve_selection(data, alpha, self.loss)
        out.hypotheses.extend(hyps)
        out.notes.extend(notes)
        if g is None:
            return
        self.g = g
        self.data = data
        self.mu0 = mu0(g)
        self.mstar, self.mstar_what = critical_width(g)
        self.mu = self.mu0 / 2 if mu is None else Fraction(mu)
        self.mu_how = "μ = μ₀(α)/2 (derived width, see mmts.lemma7)" if mu is None else "μ given by the caller"
        self.model = LinearLogitModel(features(data, "p"), data.scores, self.loss)
        self.pmm = [to_arb(x) for x in g.p_mm]
        self.nrm = to_arb(g.norm_sq).sqrt()
        self.pbar = [x / self.nrm for x in self.pmm]
        self.exact_dirs = cone_directions(g)
        self.dirs = [unit(u) for u in self.exact_dirs]
        self.flat = not self.dirs
        if self.flat:  # keys span one dimension: cone_μ(p^mm) is the open ray {c·p^mm : c > 0}
            self.exact_dirs = [tuple(Fraction(0) for _ in g.p_mm)]
            self.dirs = [[arb(0)] * len(g.p_mm)]
            out.notes.append("the keys span one dimension: the cone is the ray through p^mm, so its 'boundary' "
                             "points are ray points (corr = 1) and invariance reduces to the norm floor")
        self.sigma = radius_scale(g.norm_sq)
        self.radii = sorted(Fraction(x) for x in radii) if radii is not None else [self.sigma * x for x in LADDER]
        self.fixed_R = R is not None
        lp = smoothness_constant(data, self.loss)
        self.Lp = lp.value
        self.eta = 1 / lp.value
        self.lp_describe = lp.describe()
        try:
            opt = tuple(o[0] for o in data.optimal_tokens())
            gg = lmm_geometry(data, opt)
            self.gmm = gg.p_mm if gg.feasible else None
        except Exception as exc:  # noqa: BLE001 - a tie in the optimal token: no GMM to compare with
            reraise_interrupt(exc)
            self.gmm = None
        # first-order invariance scan ---------------------------------------------------------
        scan_radii = self.radii if R is None else sorted({Fraction(R)} | {r for r in self.radii if r >= Fraction(R)})
        # the first-order scan covers the boundary sphere densely (circles through the basis pairs)
        self.scan_dirs = self.dirs + ([] if self.flat else dense_directions(g))
        self.scan = boundary_scan(self.model, g, self.mu, scan_radii, self.scan_dirs,
                                  level=Fraction(0) if self.flat else None)
        if R is None:
            w = None
            for rec in reversed(self.scan):
                if rec["ok"]:
                    w = rec["r"]
                else:
                    break
            self.R = w
        else:
            self.R = Fraction(R)
        self.ok = True

    def in_plane_dirs(self):
        """Directions for the (costly) deep runs: those inside the span of the keys, at most a few."""
        basis_like = [u for u, ex in zip(self.dirs, self.exact_dirs)
                      if any(sum(a * b for a, b in zip(ex, row)) != 0 for row in self.g.rows.values())]
        return basis_like[:MAX_DEEP_STARTS] or self.dirs[:1]

    def first_order_evidence(self, out: Outcome):
        """Evidence for the first-order invariance; returns True when a witness R is in hand."""
        g = self.g
        out.evidence.append(Evidence("μ₀(α): derived sufficient cone width", to_arb(self.mu0)))
        side = ("" if self.mstar is None else ("; below μ*" if to_arb(self.mu) < self.mstar else "; above μ*"))
        out.evidence.append(Evidence("μ used", to_arb(self.mu), note=self.mu_how + side))
        if self.mstar is not None:
            out.evidence.append(Evidence("μ*: exact critical width (" + self.mstar_what + ")", self.mstar))
        use = [rec for rec in self.scan if self.R is not None and rec["r"] >= self.R]
        if self.R is not None and all(rec["ok"] for rec in use):
            vals = [v for rec in use for v, _ in rec["values"]]
            val = min(vals, key=lambda z: z.mid())
            out.evidence.append(Evidence(
                "first-order invariance: min over boundary points of C_(μ,r), r ≥ R, of "
                "⟨−∇L(p), p̄^mm − (1−μ)p̄⟩ / ((1/n)Σ(1 − s_iα))", val, ">", arb(0),
                note=(f"R = {float(self.R):g} given" if self.fixed_R else
                      f"witness R = {float(self.R):g} (smallest ladder radius from which it holds)")
                + f"; {len(vals)} boundary points up to r = {float(use[-1]['r']):g}"))
            return True
        # failure: at R (fixed) or at the deepest radius (search)
        recs = use if self.fixed_R else [self.scan[-1]]
        bad = [(v, k, rec["r"]) for rec in recs for v, k in rec["values"] if not v > 0]
        v, k, r = min(bad, key=lambda z: z[0].mid())
        first = min(bad, key=lambda z: z[2])
        holds, sign, note = None, None, (f"fails at r = {float(first[2]):g} (smallest failing radius ≥ R; most negative at "
                             f"r = {float(r):g}, direction {k})")
        if not self.fixed_R:
            qbar = cone_point(self.pbar, self.scan_dirs[k], self.mu, 1)
            vdir = [a - (1 - to_arb(self.mu)) * b for a, b in zip(self.pbar, qbar)]
            sign, detail = leading_term(g, qbar, vdir, self.loss)
            note = (f"no witness R up to r = {float(r):g}; along the failing boundary direction: {detail}")
        ev = Evidence("first-order invariance: min over boundary points of C_(μ,r), r ≥ R, of "
                      "⟨−∇L(p), p̄^mm − (1−μ)p̄⟩ / ((1/n)Σ(1 − s_iα))", v, ">", arb(0), holds=holds, note=note)
        out.evidence.append(ev)
        if not self.fixed_R and sign != -1:  # existential R not found in range, no asymptotic certificate
            undecided(ev, "INCONCLUSIVE (the sign for r → ∞ is not certified negative)")
            mark_undecided(out)
        return self.fixed_R  # with R given, the trajectories are still run (they show the exit)

    def start(self, u, level, r):
        """An exact point with 1 − corr ≤ ``level`` and ‖p‖ ≥ r, certified: the boundary point moved
        inward by a relative 10^{-dps/2} so that rounding cannot put it outside the cone."""
        nudge = Fraction(1, 10**12)  # fixed (not precision-dependent), far above rounding at 25+ digits
        if self.flat:
            level = Fraction(0)
        p = [arb(x.mid()) for x in cone_point(self.pbar, u, level * (1 - nudge), r * (1 + nudge))]
        assert in_cone_margin(p, self.pbar, max(level, Fraction(1, 10**30))) >= 0 and norm2(p) > to_arb(r), \
            "start not certified in the cone"
        return p


def evaluate(data, prec: Precision, alpha=None, mu=None, R=None, radii=None, gd_steps: int = 400,
             until_norm=None, forms=("strong", "weak"), deep: bool = True, loss="logistic",
             max_steps: int = MAX_STEPS, depth=None) -> Outcome:
    """Cone invariance on ``data``; ``R`` fixes the cone's radius (else the first-order witness),
    ``until_norm`` the depth of the gradient-flow runs (default max(10⁴·σ, 10R))."""
    out = Outcome()
    S = Setup(data, prec, out, alpha, mu, R, radii, loss)
    if not S.ok:
        return out
    g, mu = S.g, S.mu
    have_R = S.first_order_evidence(out)
    out.notes.append(f"{g.describe()}; η = 1/L_p, L_p = {float(S.Lp.mid()):.6g} ({S.lp_describe})")
    if not have_R:
        out.notes.append("no witness radius R: the trajectory checks were not run")
        _figures(S, out, [])
        return finish(out)
    # the first-order witness may be too small for the discrete steps (second-order terms): the
    # trajectory witness is the first of the next ladder radii from which no path leaves the cone
    cands = [S.R] if S.fixed_R else [r for r in S.radii if r >= S.R][:RETRIES + 1]
    for Rr in cands:
        target = deep_target(S, Rr, until_norm, depth)
        groups = _trajectories(S, Rr, forms, gd_steps, deep, target, max_steps)
        if not any(r.left_at is not None for _, runs_, _ in groups for r in runs_):
            break
    left_everywhere = any(r.left_at is not None for _, runs_, _ in groups for r in runs_)
    runs = []
    for label, runs_, tgt in groups:
        _run_evidence(out, label, runs_, Rr, target=tgt)
        if tgt is not None:
            runs.extend(runs_)
    if Rr != S.R:
        out.notes.append(f"trajectory witness R = {float(Rr):g}: from the first-order witness {float(S.R):g} a "
                         "discrete path left the cone (second-order terms of the step), so the next ladder radius was used")
    if left_everywhere and not S.fixed_R:
        for e in out.evidence:  # existential: no witness among the radii tried is not a counterexample
            if "μ − (1 − corr" in e.quantity and e.decide() is False:
                undecided(e, f"no trajectory witness among R ∈ {{{', '.join(f'{float(c):g}' for c in cands)}}}: "
                             "INCONCLUSIVE")
        mark_undecided(out)
    out.notes.append(f"cone C_(μ,R) with μ = {float(mu):.6g}, R = {float(Rr):g}; GD checked at every iterate for "
                     f"{gd_steps} steps from every boundary direction ({len(S.dirs)}); the deep part follows the "
                     f"gradient flow (Radau IIA at {S.dps} digits, checked at every step and 3 dense points "
                     f"inside it) to ‖p‖ = {float(target):g}: evidence over the range reached")
    _figures(S, out, runs)
    return finish(out)


def _trajectories(S: Setup, Rr, forms, gd_steps, deep, target, max_steps):
    """[(label, runs, target or None)] for GD (η = 1/L_p) and the gradient flow from the cone's boundary."""
    g, mu = S.g, S.mu
    groups = []
    for form in forms:
        level = mu if form == "strong" else mu / 2
        tag = "C_(μ,R) → C_(μ,R)" if form == "strong" else "C_(μ/2,R) → C_(μ,R)"
        gd = [gd_in_cone(S.model, g, S.start(u, level, Rr), S.eta, gd_steps, mu, Rr, label=f"{form} u{k}")
              for k, u in enumerate(S.dirs)]
        groups.append((f"{form} form ({tag}), GD η = 1/L_p, {gd_steps} steps from {len(gd)} boundary points", gd, None))
        if deep:
            fl = [flow_in_cone(S.data, g, S.start(u, level, Rr), target, mu, Rr, S.dps, label=f"{form} u{k}",
                               gmm=S.gmm, loss=S.loss.name, max_steps=max_steps)
                  for k, u in enumerate(S.in_plane_dirs())]
            groups.append((f"{form} form ({tag}), gradient flow to ‖p‖ = {float(target):g}", fl, target))
    return groups


def deep_target(S: Setup, Rr, until_norm=None, depth=None) -> Fraction:
    """‖p‖ to reach along the deep paths: ``until_norm``, else ``depth``·R, else max(10⁴σ, 10R)."""
    if until_norm is not None:
        return Fraction(until_norm)
    if depth is not None:
        return Fraction(depth) * Rr
    return max(DEPTH * S.sigma, 10 * Rr)


def reached_bound(target):
    """The flow stops at the target norm to the working precision: the final norm is ≥ this bound."""
    return to_arb(target) * (1 - arb(10) ** -12)


def target_evidence(runs, target):
    """(smallest final ‖p‖, short, note): ``short`` when a flow stopped before the target (step budget)."""
    fin = min((r.omc[-1][0] for r in runs), key=lambda z: z.mid())
    short = [r for r in runs if not r.omc[-1][0] >= reached_bound(target)]
    if short:
        return fin, True, (f"the flow stopped before ‖p‖ = {float(target):g} ("
                           f"{', '.join(r.start_label + ': ' + ('step budget exhausted' if r.status == 'max_steps' else r.status) for r in short)}"
                           "): the deep range is not "
                           "reached, INCONCLUSIVE (pass until_norm / max_steps)")
    return fin, False, f"{max(r.steps for r in runs)} checked points at most per path"


def _run_evidence(out: Outcome, label, runs, R, target=None):
    mm = min((r.min_margin for r in runs), key=lambda z: z.mid())
    worst = min(runs, key=lambda r: r.min_margin.mid())
    left = [r for r in runs if r.left_at is not None]
    pt = "checked point" if runs[0].method == "gradient flow" else "step"
    note = f"tightest: {worst.start_label} at {pt} {worst.min_margin_step}"
    if left:
        note += f"; left the cone: {', '.join(f'{r.start_label} at {pt} {r.left_at}' for r in left)}"
    out.evidence.append(Evidence(f"{label}: min over {pt}s t ≥ 1 of μ − (1 − corr(p(t), p^mm))", mm, ">=", arb(0),
                                 note=note))
    ne = min((r.min_norm_excess for r in runs), key=lambda z: z.mid())
    out.evidence.append(Evidence(f"{label}: min over {pt}s of ‖p(t)‖ − R", ne, ">=", arb(0)))
    mono = all(r.norm_monotone for r in runs)
    out.evidence.append(Evidence(f"{label}: ‖p‖ nondecreasing from {pt} to {pt}", mono, "==", True, holds=mono))
    if target is not None:
        fin, short, note = target_evidence(runs, target)
        out.evidence.append(Evidence(f"{label}: smallest final ‖p‖ (target reached, to 12 digits)", fin,
                                     "~" if short else ">=", None if short else reached_bound(target), note=note))
        if short:
            out.notes.append(f"{label}: {note}")
            mark_undecided(out)


def _flt(x):
    try:
        f = float(x.mid())
    except (OverflowError, ValueError):
        return None
    return f if abs(f) < 1e300 else None


def _figures(S: Setup, out: Outcome, runs):
    xs = [float(rec["r"]) for rec in S.scan]
    ys = [_flt(min((v for v, _ in rec["values"]), key=lambda z: z.mid())) for rec in S.scan]
    out.figures.append(Figure(
        "inward", "Cone invariance: min inward component on the boundary of C_(μ,r)", "r = ‖p‖",
        "min ⟨−∇L, p̄^mm − (1−μ)p̄⟩ / mean(1 − s_iα)", [Series("min over boundary directions", xs, ys, "-o")],
        logx=True, hlines=[(0.0, "0")], caption="Positive from the witness radius R on: the flow enters the cone."))
    if runs:
        out.figures.append(_cone_figure(S, _plane(S), runs, "cone", "Cone C_(μ,R) and gradient-flow paths"))


def _plane(S: Setup):
    """An orthonormal pair (p̄^mm, b̂) spanning the keys' effective plane, if it is 2-D."""
    from verify.geometry.cones import _orthogonal_basis

    basis, _ = _orthogonal_basis(S.g)
    if len(basis) != 1:
        return None
    return S.pbar, unit(basis[0])


def _cone_figure(S: Setup, plane, runs, name, title):
    """Paths in the cone: the (signed, in the keys' plane) angle between p and p^mm(α) against ‖p‖,
    with the cone boundary ±arccos(1 − μ), the critical angle and the GMM direction as lines."""
    import math

    e1, e2 = plane if plane is not None else (S.pbar, None)
    if e2 is not None and S.gmm is not None:  # orient the plane so that the GMM lies at a positive angle
        if sum((to_arb(x) * y for x, y in zip(S.gmm, e2)), arb(0)) < 0:
            e2 = [-x for x in e2]
    series = []
    for r in runs:
        xs, ys = [], []
        for p in r.points:
            a = _flt(sum((x * y for x, y in zip(p, e1)), arb(0)))
            if e2 is not None:
                b = _flt(sum((x * y for x, y in zip(p, e2)), arb(0)))
                ang = math.degrees(math.atan2(b, a))
            else:
                ang = math.degrees(math.acos(max(-1.0, min(1.0, a / _flt(norm2(p))))))
            xs.append(_flt(norm2(p)))
            ys.append(ang)
        series.append(Series(r.start_label, xs, ys, "-o"))
    th = math.degrees(math.acos(1 - float(S.mu)))
    hl = [(th, f"cone boundary ±{th:.3g}° (μ = {float(S.mu):.3g})"), (-th, "")]
    if S.mstar is not None:
        ts = math.degrees(math.acos(1 - _flt(S.mstar)))
        hl += [(ts, f"critical angle ±{ts:.3g}° (μ*)"), (-ts, "")]
    if S.gmm is not None and e2 is not None:
        gb = unit([to_arb(x) for x in S.gmm])
        ga = math.degrees(math.atan2(_flt(sum((x * y for x, y in zip(gb, e2)), arb(0))),
                                     _flt(sum((x * y for x, y in zip(gb, e1)), arb(0)))))
        if abs(ga) <= 20 * th:
            hl.append((ga, f"GMM direction {ga:.3g}°"))
    return Figure(name, title, "‖p‖", "angle to p^mm(α) (degrees)" + (", signed in the keys' plane" if e2 is not None else ""),
                  series, logx=True, hlines=hl,
                  caption=f"μ = {float(S.mu):.4g}, R = {float(S.R):g}: a path that stays between the boundary lines "
                          f"stays in C_(μ,R).")


_BENIGN: dict = {}


def benign_random_lmm(seed: int = 0, n: int = 2, T: int = 3, d: int = 2, max_cond=Fraction(5, 2),
                      max_R=30):
    """A seeded random dataset with a non-global LMM that a trajectory check can afford: condition
    ‖p^mm‖·max‖k_α − k_t‖ ≤ ``max_cond`` and the tokens rescaled (exactly, by a small rational c) so
    that max‖k_α − k_t‖² ≈ 5/2 (the scale of the paper's Figure 1 data; the paper's normalised-GD
    step h = 1/10 is stable there); the first-order invariance witness must be ≤ ``max_R``·σ.
    Deterministic (cached)."""
    import math

    from verify.data.generators import random_dataset
    from verify.geometry.cones import random_lmm_candidates
    from verify.numbers.precision import working_precision

    key = (seed, n, T, d, max_cond, max_R)
    if key in _BENIGN:
        return _BENIGN[key]
    for _, g, s in random_lmm_candidates(n, T, d, seed):
        a2 = max(sum(x * x for x in row) for row in g.rows.values())
        if a2 * g.norm_sq > max_cond ** 2:
            continue
        c = Fraction(math.sqrt(2.5 / float(a2))).limit_denominator(20)
        data = random_dataset(n=n, T=T, d=d, seed=s, scale=c)
        with working_precision(30) as prec:
            out = Outcome()
            S = Setup(data, prec, out)
            if not S.ok or S.R is None or S.R > max_R * S.sigma:
                continue
        res = data.with_name(f"random-lmm-n{n}T{T}d{d}-s{s}-scale{c.numerator}_{c.denominator}")
        _BENIGN[key] = res
        return res
    raise RuntimeError(f"no well-conditioned random dataset with a non-global LMM from seed {seed}")


def hunt_strategy():
    """Datasets for ``verify hunt``: small integer tokens (n ≤ 3, T ≤ 4, d ∈ {2, 3}), well-conditioned
    enough for the trajectory checks to reach their targets within the step budget."""
    from hypothesis import strategies as st

    from verify import Dataset

    @st.composite
    def small(draw):
        n, T, d = draw(st.integers(1, 3)), draw(st.integers(2, 4)), draw(st.integers(2, 3))
        ints = st.integers(-3, 3)
        X = [[[draw(ints) for _ in range(d)] for _ in range(T)] for _ in range(n)]
        v = [draw(ints) for _ in range(d)]
        if not any(v):
            v[0] = 1
        Y = [draw(st.sampled_from([-1, 1])) for _ in range(n)]
        return Dataset.make(X=X, Y=Y, v=v, name="hunt")

    return small()


def check(data, prec: Precision) -> Outcome:
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [D.mmts_fig1b(), benign_random_lmm(seed)]


CLAIM = register(Claim(
    id="mmts.thm3.cone",
    paper="mmts",
    number="Theorem 3 (proof, Step 3)",
    title="Cone invariance: GD started in C_{μ,R}(p^mm) of an LMM stays in the cone",
    kind="existential",
    statement=(
        "α locally optimal, μ = μ(α) (here μ₀/2, derived), η ≤ 1/L_p. There is R such that GD started in "
        "C_{μ,R}(p^mm(α)) stays in C_{μ,R}(p^mm(α)) (strong form) — and started in C_{μ/2,R} stays in C_{μ,R} "
        "(weak form; which one the paper uses is UNCERTAIN): corr(p(t), p^mm) ≥ 1 − μ and ‖p(t)‖ ≥ R for all t "
        "((54a)–(55)). Checked: first-order invariance ⟨−∇L(p), p̄^mm − (1−μ)p̄⟩ > 0 on the boundary for all "
        "r ≥ R (finds R), GD with η = 1/L_p at moderate norms, and the gradient flow itself (Radau IIA at the "
        "working precision, checked at every step and inside it) to ‖p‖ = 10⁴·‖p^mm‖."
    ),
    check=check,
    default_datasets=default_datasets,
    aliases=("cone-invariance",),
    default_precision=40,
    strategy=hunt_strategy,
    module=__name__,
))
