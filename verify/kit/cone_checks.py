"""Claim-kit pieces for the cone claims (mmts Lemma 7, Theorem 3 and its Step 3): the hypotheses of
an LMM claim, a step size certified ≤ 1/L_p, and GD / gradient-flow trajectories checked against
C_{μ,R}(p^mm) at every iterate, each point decided and counted (``verify.claims.Tally``).

The static cone geometry (selections, widths, cone points, asymptotic signs) is ``verify.geometry.cones``.

Points. GD iterates are kept as exact midpoints (p(t+1) = mid(p(t) − η∇L(p(t))), an exact dyadic
vector), so every check on them is certified on the computed trajectory; the norm increase of GD
is that of the exact step from each kept iterate, η(2⟨−∇L, p⟩ + η‖∇L‖²), by enclosure (a step
below the last bit may move a rounded midpoint by an ulp either way). Points of the gradient flow
come from an integrator without a rigorous error bound: their checks are evidence
(``enclosed=False``); their norms are compared exactly on the dyadic midpoints.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import flint
from flint import arb

from verify.claims import Evidence, Hypothesis, Tally
from verify.claims.registry import Parameter
from verify.dynamics import flow_through_norms
from verify.geometry.cones import LMMGeometry, choose_alpha, leading_term, lmm_geometry, unit
from verify.kit.assumptions import assumption_a, step_size
from verify.models.attention import dot, norm2, one_minus_corr
from verify.models.losses import get_loss
from verify.numbers.precision import log10_abs, to_arb, to_decimal_string


def resolve_selection(data, alpha=None, loss=None):
    """(geometry or None, hypotheses, notes) for the claims built on an LMM (Lemma 7, Theorem 3).

    Hypotheses, computed on the data: Assumption A for ``loss`` (``verify.kit.assumptions``),
    ATT-SVM(α) feasible, α locally optimal (Definition 2); ``None`` is returned as soon as one is not
    met (or undecided). With ``alpha=None`` α is chosen by ``choose_alpha`` and a note says which."""
    loss = get_loss(loss or "logistic")
    hyps, notes = [assumption_a(loss, data)], []
    if hyps[0].met is not True:
        return None, hyps, notes
    if alpha is None:
        g, note = choose_alpha(data)
        notes.append(note)
        if g is None:
            hyps.append(Hypothesis("a locally-optimal selection α exists (Definition 2)", False, note))
            return None, hyps, notes
    else:
        g = lmm_geometry(data, alpha)
    hyps.append(Hypothesis(f"ATT-SVM(α) feasible for α = {list(g.alpha)}", g.feasible,
                           g.describe() if g.feasible else g.reason))
    if not g.feasible:
        return None, hyps, notes
    hyps.append(Hypothesis(f"α = {list(g.alpha)} locally optimal (Definition 2)", g.locally_optimal, g.reason))
    if not g.locally_optimal:
        return None, hyps, notes
    return g, hyps, notes


#: the parameters the mmts cone claims (Lemma 7, Theorem 3, its Step 3) share, covered by ``alpha_cover`` and the
#: step ``step_below`` (docs/parameters.md)
ALPHA_PARAMETER = Parameter("α", "every locally-optimal α", "range",
                            "one α: the non-global LMM with the widest μ₀, else the GMM (named in the verdict)")
STEP_PARAMETER = Parameter("η", "every η ≤ 1/L_p", "range",
                           "η = 1/L_p rounded down (GD) and its η → 0 limit, the gradient flow (named in the verdict)")


def alpha_cover(g: LMMGeometry, alpha=None) -> str:
    """What "α locally optimal" was covered at (``Outcome.cover``): the one α checked and how it was chosen."""
    how = "given" if alpha is not None else \
        "the GMM: no non-global LMM found" if g.is_gmm else "the non-global LMM with the widest μ₀"
    return f"α = {list(g.alpha)} ({how})"


def step_below(L: arb) -> arb:
    """η = 1/L rounded DOWN to an exact point, by a relative 2^{8−prec} below the ball's lower end:
    η·L ≤ 1 is then certain (a step equal to 1/L as a ball could not be decided), and η differs
    from 1/L only in its last bits."""
    return arb(((1 / L) * (1 - arb(2) ** (8 - flint.ctx.prec))).lower())


def step_hypothesis(L: arb, describe: str = "") -> tuple[arb, Hypothesis]:
    """(η, the hypothesis η ≤ 1/L_p of Lemma 6 computed for it by ``verify.kit.assumptions.step_size``)."""
    eta = step_below(L)
    h = step_size(eta, L, "step size η ≤ 1/L_p (Lemma 6)")
    if describe:
        h.detail += f"; η = 1/L_p rounded down, {describe}"
    return eta, h


def asymptotic_evidence(quantity: str, g: LMMGeometry, qbar, v, loss, where: str) -> Evidence:
    """The sign of −⟨∇L(rq̄), v⟩ as r → ∞ (``verify.geometry.cones.leading_term``) as an item deciding
    ``leading coefficient > 0``: a certainly negative coefficient proves the failure for every large r
    (VIOLATED, certified by its enclosure); without a separated nearest token it is only shown."""
    sign, detail, coef = leading_term(g, qbar, v, get_loss(loss))
    note = f"{where}; {detail}"
    if coef is None:
        return Evidence(quantity, None, "~", note=note)
    return Evidence(quantity, coef, ">", arb(0), note=note)


def width_evidence(mu0, mu, how: str, mstar, mstar_what: str, note: str = "") -> list:
    """The cone widths shown beside a cone claim: the derived μ₀, the μ used, the exact critical μ*."""
    side = "" if mstar is None else "; below μ*" if to_arb(mu) < mstar else "; not below μ*"
    items = [Evidence("μ₀(α): derived sufficient cone width" + (" (cross-input pairs)" if note else ""), to_arb(mu0),
                      note=note), Evidence("μ used", to_arb(mu), note=how + side)]
    if mstar is not None:
        items.append(Evidence(f"μ*: exact critical width ({mstar_what})", mstar))
    return items


def exact_point(p) -> tuple:
    """The dyadic midpoints of a vector of balls, as exact Fractions."""
    out = []
    for x in p:
        m, e = x.mid().man_exp()
        m, e = int(m), int(e)
        out.append(Fraction(m * 2 ** e) if e >= 0 else Fraction(m, 2 ** -e))
    return tuple(out)


def selected_exactly(g: LMMGeometry, p) -> tuple:
    """For each input the token with the largest logit kᵀp at the exact point ``p`` (Fractions), or
    None when the largest is tied — decided exactly: (k_{iα_i} − k_it)ᵀp > 0 for all t ≠ α_i means α_i."""
    out = []
    for i in range(g.n):
        a = g.alpha[i]
        marg = {t: sum((x * y for x, y in zip(g.rows[(i, t)], p)), Fraction(0)) for t in range(len(g.scores[i])) if t != a}
        low = min(marg.values(), default=Fraction(1))
        if low > 0:
            out.append(a)
            continue
        best = [t for t, m in marg.items() if m == low]
        out.append(best[0] if len(best) == 1 else None)
    return tuple(out)


@dataclass
class ConeChecks:
    """The per-point checks of a group of trajectories against C_{μ,R}(p^mm): cone membership at
    t ≥ 1, the norm floor, and ‖p‖ nondecreasing — one ``Tally`` each over every kept point. For GD
    the norm increase is that of the exact step from each kept iterate, η(2⟨−∇L, p⟩ + η‖∇L‖²), by
    enclosure: the kept iterates are rounded (a step below the last bit may move the midpoint by an
    ulp either way, which says nothing about GD); for the flow, the kept points' squared norms exactly."""

    point: str  # "step" (GD) or "checked point" (flow)
    cone: Tally = None
    floor: Tally = None
    monotone: Tally = None

    def __post_init__(self):
        pt = self.point
        self.cone = Tally(f"min over {pt}s t ≥ 1 of μ − (1 − corr(p(t), p^mm))", ">=", arb(0))
        self.floor = Tally(f"min over {pt}s of ‖p(t)‖ − R", ">=", arb(0))
        self.monotone = (Tally("min over steps of ‖p(t) − η∇L(p(t))‖² − ‖p(t)‖² = η(2⟨−∇L(p(t)), p(t)⟩ + η‖∇L(p(t))‖²) "
                               "(the exact step from each iterate)", ">=", arb(0)) if pt == "step" else
                         Tally(f"min over {pt}s of ‖p(t+1)‖² − ‖p(t)‖² (exact, on the kept points)", ">=", 0))

    def evidence(self, label: str, enclosed: bool, deciding: bool = True) -> list:
        """The three items, prefixed by ``label``; ``deciding=False`` shows them informatively (an
        existential R refuted over several radii is decided by a rule instead, see ``verify.kit.invariance``)."""
        items = []
        for t, what in ((self.cone, "left the cone"), (self.floor, "went below R"), (self.monotone, "‖p‖ decreased")):
            e = t.evidence(what if t.coverage.violated else "", enclosed=enclosed)
            e.quantity = f"{label}: {e.quantity}"
            items.append(e if deciding else as_informative(e))
        return items


def ruled(quantity: str, value, decision, relation: str = "~", bound=None, note: str = "", enclosed: bool = True):
    """An item decided by a declared rule (``verify.claims.rules``), the rule's detail in its note."""
    return Evidence(quantity, value, relation, bound, note="; ".join(x for x in (note, decision.detail) if x),
                    rule=decision, enclosed=enclosed)


def as_informative(e: Evidence, why: str = "") -> Evidence:
    """The same figure shown, not deciding (its decision, if any, kept in the note)."""
    d, how = e.decide(), e.decided_by()
    note = "; ".join(x for x in (e.note, f"would be {d} by {how}" if how else "", why) if x)
    return Evidence(e.quantity, e.value, "~", e.bound, note=note, enclosed=e.enclosed)


@dataclass
class ConeRun:
    """One trajectory checked against C_{μ,R}(p^mm) at every kept point (see ``ConeChecks``)."""

    method: str
    start_label: str
    start: str = ""  # p(0), for the witness of an exit
    steps: int = 0
    left_at: str | None = None  # the first kept point certainly outside C_{μ,R}: the witness of an exit
    omc: list = field(default_factory=list)  # (‖p‖, 1 − corr to p^mm(α), 1 − corr to the GMM or None)
    final_p: list | None = None
    final_selected: tuple = ()
    times: list = field(default_factory=list)  # (‖p‖, ln t) at the flow's records
    points: list = field(default_factory=list)  # the recorded points p (for plots)
    status: str = ""  # gradient flow: "reached", "max_steps", "stationary", …


class _Tracker:
    """Checks the kept points of one run in order (μ, R as balls) and records some for the plots."""

    def __init__(self, run: ConeRun, checks: ConeChecks, g: LMMGeometry, mu, R, gmm=None):
        self.run, self.checks = run, checks
        self.pbar = unit([to_arb(x) for x in g.p_mm])
        self.gbar = unit([to_arb(x) for x in gmm]) if gmm is not None else None
        self.mu, self.R, self.R_txt = to_arb(mu), to_arb(R), f"{float(R):g}"
        self.prev_sq = None

    def where(self, t: int) -> str:
        return f"{self.run.start_label} (p(0) = {self.run.start}) at {self.checks.point} {t}, R = {self.R_txt}"

    def check(self, t: int, p, record: bool, exact_norms: bool = True):
        run, c = self.run, self.checks
        pn = norm2(p)
        where = self.where(t)
        out = c.floor.add(pn - self.R, where) is False
        if exact_norms:
            sq = sum((x * x for x in exact_point(p)), Fraction(0))
            if self.prev_sq is not None:
                c.monotone.add(sq - self.prev_sq, where)
            self.prev_sq = sq
        if t >= 1:
            diff = [a / pn - b for a, b in zip(p, self.pbar)]
            out = (c.cone.add(self.mu - dot(diff, diff) / 2, where) is False) or out  # μ − (1 − corr)
        if out and run.left_at is None:
            run.left_at = where
        if record:
            self.record(p, pn)
        return pn

    def record(self, p, pn=None):
        pn = norm2(p) if pn is None else pn
        self.run.points.append(p)
        self.run.omc.append((pn, one_minus_corr(p, self.pbar),
                             one_minus_corr(p, self.gbar) if self.gbar is not None else None))


def _describe_point(p) -> str:
    return "(" + ", ".join(to_decimal_string(x, 8) for x in p) + ")"


def gd_in_cone(model, g: LMMGeometry, p0, eta, steps: int, mu, R, checks: ConeChecks, label="",
               record_every: int = 0, gmm=None) -> ConeRun:
    """Plain GD p ← p − η∇L(p) for ``steps`` steps from ``p0``, every iterate checked (``checks``)."""
    run = ConeRun("GD", label, _describe_point(p0))
    track = _Tracker(run, checks, g, mu, R, gmm)
    p = [arb(to_arb(x).mid()) for x in p0]
    eta = to_arb(eta)
    track.check(0, p, True, exact_norms=False)
    for t in range(1, steps + 1):
        grad = model.grad(p)
        checks.monotone.add(eta * (2 * dot(grad, [-x for x in p]) + eta * dot(grad, grad)), track.where(t - 1))
        p = [arb((a - eta * b).mid()) for a, b in zip(p, grad)]
        track.check(t, p, bool(record_every) and (t % record_every == 0 or t == steps), exact_norms=False)
    run.steps, run.final_p = steps, p
    run.final_selected = selected_exactly(g, exact_point(p))
    return run


def flow_in_cone(data, g: LMMGeometry, p0, until_norm, mu, R, dps: int, checks: ConeChecks, label="", gmm=None,
                 loss="logistic", records_per_octave: int = 4, max_steps: int = 20000) -> ConeRun:
    """The gradient flow dp/dt = −∇L(p) itself (``verify.dynamics.gradient_flow``: the arc-length flow by
    Radau IIA at the working precision, local error ≤ 10^-dps) from ``p0`` until ‖p‖ = ``until_norm``;
    the cone and the norm floor are checked (``checks``) at every step end and at θ = 1/4, 1/2, 3/4
    inside every step (dense output), records at geometrically spaced norms and at the exact stop
    ‖p‖ = until_norm/10 on the way. ``steps`` counts the checked points."""
    run = ConeRun("gradient flow", label, _describe_point(p0))
    track = _Tracker(run, checks, g, mu, R, gmm)
    p = [arb(to_arb(x).mid()) for x in p0]
    state = {"t": 0, "next": float(track.check(0, p, True).mid()) * 2 ** (1 / records_per_octave)}

    def on_step(points):
        for q in points:
            state["t"] += 1
            q = [arb(x.mid()) for x in q]
            pn = float(norm2(q).mid())
            rec = pn >= state["next"]
            track.check(state["t"], q, rec)
            if rec:
                state["next"] = pn * 2 ** (1 / records_per_octave)

    # two legs: the flow stops exactly at ‖p‖ = until_norm/10 on the way (a point reproducible across
    # precisions, one decade before the end), then at until_norm
    target = to_arb(until_norm)
    legs = [to_decimal_string(x, 30) for x in ([target / 10, target] if target / 10 > norm2(p) else [target])]
    for k, traj in enumerate(flow_through_norms(data, "p", legs, init=p, dps=dps, loss=loss, svm=False,
                                                on_step=on_step, max_steps=max_steps)):
        if k < len(legs) - 1 and traj.status == "reached":
            _record_new(track, [arb(x.mid()) for x in traj.psi])
    pf = [arb(x.mid()) for x in traj.psi]
    _record_new(track, pf)  # already checked (the step's end); recorded for the plots and the rates
    run.times = [(rec.norm, rec.log_t) for rec in traj.records if rec.log_t is not None and rec.log_t.is_finite()]
    run.steps, run.final_p, run.status = state["t"], pf, traj.status
    run.final_selected = selected_exactly(g, exact_point(pf))
    return run


def _record_new(track: _Tracker, p):
    """Record ``p`` unless it is the last recorded point again (within rounding): then ``p`` (the
    exact stop of a leg) replaces it, so the records stay strictly increasing in norm."""
    pn = norm2(p)
    if track.run.omc and not pn > track.run.omc[-1][0]:
        track.run.points.pop()
        track.run.omc.pop()
    track.record(p, pn)


def plot_value(x):
    """A float for plotting (None if it does not fit a float): never used to decide."""
    try:
        f = float(x.mid()) if isinstance(x, arb) else float(x)
    except (OverflowError, ValueError):
        return None
    return f if f == f and abs(f) < 1e300 else None


def log10_series(values):
    """log10 of positive values computed at the working precision (for plots of tiny quantities)."""
    return [log10_abs(v) if v is not None and v > 0 else None for v in values]


def times_sigma(r, sigma) -> str:
    """r/σ as '10⁸·σ' (a power of ten) or '3.2e+03·σ', for ranges and notes."""
    q = Fraction(r) / Fraction(sigma)
    sup = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
    for k in range(-6, 31):
        if q == Fraction(10) ** k:
            return ("1" if k == 0 else "10" + str(k).translate(sup)) + "·σ"
    return f"{float(q):.3g}·σ"
