"""Claim-kit pieces for the cone claims (mmts Lemma 7, Theorem 3): the hypotheses of an LMM claim,
and GD / gradient-flow trajectories checked against C_{μ,R}(p^mm) at every iterate.

The static cone geometry (selections, widths, cone points, asymptotic signs) is ``verify.geometry.cones``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from flint import arb

from verify.claims import Hypothesis
from verify.dynamics import flow_through_norms
from verify.geometry.cones import LMMGeometry, choose_alpha, lmm_geometry, unit
from verify.models.attention import (
    LinearLogitModel,
    dot,
    features,
    norm2,
    one_minus_corr,
)
from verify.models.losses import get_loss
from verify.numbers.precision import to_arb, to_decimal_string


def resolve_selection(data, alpha=None, loss=None):
    """(geometry or None, hypotheses, notes) for the claims built on an LMM (Lemma 7, Theorem 3).

    Hypotheses: Assumption A on the loss, ATT-SVM(α) feasible, α locally optimal (Definition 2);
    ``None`` is returned when one of them is not met. With ``alpha=None`` α is chosen by
    ``choose_alpha`` and a note says which."""

    loss = get_loss(loss or "logistic")
    hyps, notes = [], []
    consts = {"logistic": "ℓ'(u) = −1/(1+e^u) < 0, M₀ = 1/4, M₁ = 1",
              "exponential": "ℓ'(u) = −e^{−u} < 0, M₀ = M₁ = e^B",
              "correlation": "ℓ'(u) = −1, M₀ = 0, M₁ = 1"}
    hyps.append(Hypothesis("Assumption A (loss strictly decreasing; ℓ' Lipschitz and bounded on [−B,B])", True,
                           f"{loss.name} loss: {consts.get(loss.name, '')}"))
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


def undecided(ev, reason: str = ""):
    """Make an evidence item a report (relation '~', not decided) and say why."""
    ev.holds, ev.relation = None, "~"
    if reason:
        ev.note = (ev.note + "; " if ev.note else "") + reason
    return ev


def mark_undecided(out):
    """Mark an outcome undecided (an existential witness not found in the tested range, a step budget
    exhausted): ``finish`` then makes it INCONCLUSIVE unless some evidence is certainly violated."""
    out.undecided = True


def finish(out):
    """Resolve ``mark_undecided``: INCONCLUSIVE unless some evidence is certainly violated."""
    if getattr(out, "undecided", False):
        if not any(e.decide() is False for e in out.evidence) and all(h.met for h in out.hypotheses):
            out.verdict = "INCONCLUSIVE"
    return out


def _mid(x: arb) -> arb:
    return arb(x.mid())


@dataclass
class ConeRun:
    """A trajectory checked against C_{μ,R}(p^mm) at every iterate (midpoints kept: exact iterates)."""

    method: str
    start_label: str
    steps: int = 0
    min_margin: arb | None = None  # min over iterates t ≥ 1 of μ − (1 − corr(p(t), p^mm))
    min_margin_step: int = -1
    min_norm_excess: arb | None = None  # min over t of ‖p(t)‖ − R
    norm_monotone: bool = True  # no step with ‖p(t+1)‖ < ‖p(t)‖ certainly
    omc: list = field(default_factory=list)  # (‖p‖, 1 − corr to p^mm(α), 1 − corr to the GMM or None)
    final_p: list | None = None
    final_selected: tuple = ()
    left_at: int | None = None  # first step with a certainly negative margin
    times: list = field(default_factory=list)  # (‖p‖, ln t) at the flow's records
    points: list = field(default_factory=list)  # the recorded iterates p (for plots)
    status: str = ""  # gradient flow: "reached", "max_steps", "stationary", …


def _track(run: ConeRun, t, p, pbar_mm, mu, R, prev_norm, record, gmm_bar):
    """Check iterate t (μ, R arb balls): cone margin (t ≥ 1), norm floor, norm monotone; record."""
    pn = norm2(p)
    if t >= 1:
        diff = [a / pn - b for a, b in zip(p, pbar_mm)]
        marg = mu - dot(diff, diff) / 2  # μ − (1 − corr), no cancellation
        if run.min_margin is None or marg.mid() < run.min_margin.mid():
            run.min_margin, run.min_margin_step = marg, t
        if run.left_at is None and marg < 0:
            run.left_at = t
        if prev_norm is not None and pn < prev_norm:  # certainly decreased (equal balls: a step below rounding)
            run.norm_monotone = False
    ex = pn - R
    if run.min_norm_excess is None or ex.mid() < run.min_norm_excess.mid():
        run.min_norm_excess = ex
    if record:
        run.points.append(p)
        run.omc.append((pn, one_minus_corr(p, pbar_mm),
                        one_minus_corr(p, gmm_bar) if gmm_bar is not None else None))
    return pn


def gd_in_cone(model, g: LMMGeometry, p0, eta, steps: int, mu, R, label="", record_every: int = 0,
               gmm=None) -> ConeRun:
    """Plain GD p ← p − η∇L(p) (η = 1/L_p in the theorem) for ``steps`` steps, every iterate checked."""
    pmm = [to_arb(x) for x in g.p_mm]
    pbar = unit(pmm)
    gbar = unit([to_arb(x) for x in gmm]) if gmm is not None else None
    run = ConeRun("GD", label)
    mu, R = to_arb(mu), to_arb(R)
    p = [_mid(to_arb(x)) for x in p0]
    eta = to_arb(eta)
    prev = _track(run, 0, p, pbar, mu, R, None, True, gbar)
    for t in range(1, steps + 1):
        grad = model.grad(p)
        p = [_mid(a - eta * b) for a, b in zip(p, grad)]
        rec = bool(record_every) and (t % record_every == 0 or t == steps)
        prev = _track(run, t, p, pbar, mu, R, prev, rec, gbar)
    run.steps = steps
    run.final_p = p
    run.final_selected = model.selected(p)
    return run


def flow_in_cone(data, g: LMMGeometry, p0, until_norm, mu, R, dps: int, label="", gmm=None, loss="logistic",
                 records_per_octave: int = 4, max_steps: int = 20000) -> ConeRun:
    """Gradient flow dp/dt = −∇L(p) itself (``verify.dynamics.gradient_flow``: the arc-length flow by
    Radau IIA at the working precision, local error ≤ 10^-dps) from ``p0`` until ‖p‖ = ``until_norm``;
    the cone and the norm floor are checked at every step end and at θ = 1/4, 1/2, 3/4 inside every
    step (dense output), records at geometrically spaced norms. ``steps`` counts the checked points."""
    pbar = unit([to_arb(x) for x in g.p_mm])
    gbar = unit([to_arb(x) for x in gmm]) if gmm is not None else None
    run = ConeRun("gradient flow", label)
    mu_a, R_a = to_arb(mu), to_arb(R)
    p = [_mid(to_arb(x)) for x in p0]
    state = {"prev": _track(run, 0, p, pbar, mu_a, R_a, None, True, gbar), "t": 0}
    state["next"] = float(state["prev"].mid()) * 2 ** (1 / records_per_octave)

    def on_step(points):
        for q in points:
            state["t"] += 1
            pn_f = float(norm2(q).mid())
            rec = pn_f >= state["next"]
            state["prev"] = _track(run, state["t"], q, pbar, mu_a, R_a, state["prev"], rec, gbar)
            if rec:
                state["next"] = pn_f * 2 ** (1 / records_per_octave)

    # two legs: the flow stops exactly at ‖p‖ = until_norm/10 on the way (a point reproducible across
    # precisions, for comparisons one decade apart), then at until_norm
    target = to_arb(until_norm)
    legs = [target / 10, target] if target / 10 > norm2(p) else [target]
    legs = [to_decimal_string(x, 30) for x in legs]
    for k, traj in enumerate(flow_through_norms(data, "p", legs, init=p, dps=dps, loss=loss, svm=False,
                                                on_step=on_step, max_steps=max_steps)):
        if k < len(legs) - 1 and traj.status == "reached":  # the exact stop at until_norm/10
            pl = [_mid(x) for x in traj.psi]
            run.points.append(pl)
            run.omc.append((norm2(pl), one_minus_corr(pl, pbar), one_minus_corr(pl, gbar) if gbar is not None else None))
    pf = [_mid(x) for x in traj.psi]
    _track(run, state["t"], pf, pbar, mu_a, R_a, None, True, gbar)  # already checked; recorded for the plots
    run.times = [(rec.norm, rec.log_t) for rec in traj.records if rec.log_t is not None and rec.log_t.is_finite()]
    run.steps = state["t"]
    run.final_p = pf
    run.final_selected = tuple(x.r for x in LinearLogitModel(features(data, "p"), data.scores, get_loss(loss)).states(pf))
    run.status = traj.status
    return run
