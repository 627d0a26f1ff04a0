"""Claim-kit pieces for "no finite stationary point; the norm diverges" (mmts Theorem 2, tfsvm
Theorem 3): the shared evidence, GD runs with certified per-step projections, and the gradient flow
stopped at exact norms. The static descent-direction geometry is ``verify.geometry.stationarity``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb

from verify.claims import Evidence, Figure, Series
from verify.data.dataset import Dataset
from verify.dynamics import flow_through_norms
from verify.geometry.stationarity import (
    PairTable,
    ball_lower_bound,
    descent_terms,
    exact_gradient_at_zero,
    exact_margins,
    exact_states,
    probe_directions,
    scaled_point,
)
from verify.models.attention import LinearLogitModel, dot, features, one_minus_corr
from verify.numbers.fits import fit_log_rate
from verify.numbers.precision import to_arb


@dataclass
class GDRun:
    eta: arb
    steps: list = field(default_factory=list)     # t at the checkpoints
    norms: list = field(default_factory=list)     # ‖θ(t)‖ (arb)
    grad_norms: list = field(default_factory=list)
    points: list = field(default_factory=list)    # θ(t) (arb lists)
    losses: list = field(default_factory=list)    # L(θ(t)) − L⋆ (arb)
    projections: list = field(default_factory=list)  # ⟨θ(t), q⟩/‖q‖ when q is given
    min_increment: arb | None = None              # min_t ⟨θ(t+1) − θ(t), q⟩ = −η⟨∇L(θ(t)), q⟩
    min_increment_at: int = -1
    uncertified: int = 0                          # steps whose increment is not certainly > 0


def gd_checkpoints(model: LinearLogitModel, theta0, eta, checkpoints, q=None) -> GDRun:
    """θ(t+1) = θ(t) − η∇L(θ(t)), recorded at the (increasing) ``checkpoints``. Each iterate is
    rounded to its midpoint (a high-precision floating-point trajectory: ball radii would otherwise
    compound over thousands of steps), so every step is an exact GD step from an exact point and the
    per-step quantities are certified for it; two precisions then show which digits of the
    trajectory are stable. With ``q`` the increment ⟨θ(t+1) − θ(t), q⟩ = −η⟨∇L(θ(t)), q⟩ of the
    projection on q is tracked at every step (its minimum must be certainly > 0 under Lemma 4)."""
    th = [to_arb(Fraction(x)) if not isinstance(x, arb) else x for x in theta0]
    run = GDRun(eta=eta)
    qa = [to_arb(Fraction(x)) for x in q] if q is not None else None
    qn = dot(qa, qa).sqrt() if qa is not None else None
    cps = sorted(set(int(c) for c in checkpoints))
    t = 0

    def record(st, g):
        run.steps.append(t)
        run.norms.append(dot(th, th).sqrt())
        run.grad_norms.append(dot(g, g).sqrt())
        run.points.append(list(th))
        run.losses.append(model.excess(th, st))
        if qa is not None:
            run.projections.append(dot(th, qa) / qn)

    for c in cps:
        while True:
            st = exact_states(model, th)
            g = model.grad(th, st)
            if t == c:
                record(st, g)
                break
            if qa is not None:
                inc = -eta * dot(g, qa)
                if run.min_increment is None or inc.mid() < run.min_increment.mid():
                    run.min_increment, run.min_increment_at = inc, t
                if not inc > 0:
                    run.uncertified += 1
            th = [arb((x - eta * gx).mid()) for x, gx in zip(th, g)]
            t += 1
    return run


GD_CHECKPOINTS = (0, 1, 3, 10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000)


SIGN_SCALES = ("0", "1/10", "1", "3", "10", "30", "100", "1000")


BALL_RADII = ("1", "10", "100", "1000")


def stationary_evidence(out, data: Dataset, prec, param: str, q, gaps, eta, *, steps: int = 10000,
                        inits=None, loss: str = "logistic", symbol: str = "p", eta_note: str = "",
                        radii=BALL_RADII, scales=SIGN_SCALES, figure: bool = True) -> None:
    """Append the evidence of "∇L has no zero; GD diverges in norm" to ``out``.

    With the max-margin solution ``q`` (exact) and per-sequence gaps (``gaps``: the common gap under
    Assumption B / B.2, the minimum gap under B.1; None skips the ball bounds):
      1. max over adversarial probe points of ⟨∇L(θ), q⟩ < 0 (certified): ∇L(θ) ≠ 0 there;
      2. c(R) > 0 with ‖∇L(θ)‖ ≥ c(R) on the whole ball ‖θ‖ ≤ R (``ball_lower_bound``; rests on the
         derived inequality −⟨∇L, q⟩ ≥ (1/n)Σ|ℓ'|Δ s_opt(1 − s_opt), itself checked by mmts.lemma4);
      3. along GD with step ``eta`` from each init: ⟨θ(t+1) − θ(t), q⟩ = −η⟨∇L(θ(t)), q⟩ > 0 at every
         step (certified per step) — the projection on q increases strictly; and the certified number
         of steps GD can spend in ‖θ‖ ≤ R, 2(L(θ(0)) − L⋆)/(η c(R)²) (descent lemma + item 2);
      4. ‖θ(t)‖ and ‖∇L(θ(t))‖ at the checkpoints and the fit ‖θ(t)‖ ≈ a + b ln t (b next to ‖q‖, the
         late-time rate 1/Θ): reported trends, not decisive (an anti-aligned start first shrinks).
    Without ``q`` (negative control: no max-margin solution) only the exact gradient at 0 and the GD
    trend are reported."""
    model = LinearLogitModel.from_dataset(data, param, loss)
    feats = features(data, param)
    D = model.D
    opt = model.opt
    zero_exact, _ = exact_gradient_at_zero(data, param)
    if q is None:
        out.evidence.append(Evidence(
            f"‖∇L(0)‖ computed exactly at uniform attention (0 means {symbol} = 0 is a stationary point)",
            to_arb(Fraction(0)) if zero_exact else dot(*(2 * [model.grad([arb(0)] * D)])).sqrt(),
            ">", arb(0), holds=(False if zero_exact else None),
            note="every per-sequence vector Σ_t (γ_it − γ̄_i) F_it vanishes exactly" if zero_exact else ""))
    else:
        margins = exact_margins(feats, opt, q)
        dirs = probe_directions(feats, opt, q, count=4)
        pairs = PairTable(model, q)
        worst, where, npts = None, "", 0
        for label, dvec in dirs:
            for sc in scales:
                if sc == "0" and npts:
                    continue
                p = scaled_point(dvec, sc)
                dt = descent_terms(model, q, margins, p, pairs=pairs)
                npts += 1
                if worst is None or dt.inner.mid() > worst.mid():
                    worst, where = dt.inner, f"{label}, ‖{symbol}‖∞ = {sc}"
        out.evidence.append(Evidence(
            f"max over {npts} adversarial points of ⟨∇L({symbol}), {symbol}^mm⟩ (so ∇L ≠ 0 there)",
            worst, "<", arb(0), note=f"attained at {where}"))
        if gaps is not None:
            for R in radii:
                c = ball_lower_bound(model, q, R, gaps)
                out.evidence.append(Evidence(
                    f"certified inf of ‖∇L({symbol})‖ over the ball ‖{symbol}‖ ≤ {R} (lower bound c(R))",
                    c, ">", arb(0),
                    note="from −⟨∇L, q⟩ ≥ (1/n)Σ|ℓ'|Δ_i s_opt(1−s_opt) with s_opt, 1 − s_opt, |ℓ'| bounded over the ball"))

    qn = None if q is None else to_arb(sum((Fraction(x) ** 2 for x in q), Fraction(0))).sqrt()
    if inits is None:
        inits = [("0", tuple(Fraction(0) for _ in range(D)), steps)]
        if q is not None:
            m = max(abs(Fraction(x)) for x in q)
            inits.append(("−2·q/‖q‖∞ (anti-aligned)", tuple(-2 * Fraction(x) / m for x in q), max(1, steps // 3)))
        else:
            inits.append(("2·e₁", tuple(Fraction(2 if j == 0 else 0) for j in range(D)), max(1, steps // 3)))
    series = []
    for label, th0, n_steps in inits:
        cps = [c for c in GD_CHECKPOINTS if c < n_steps] + [n_steps]
        run = gd_checkpoints(model, th0, eta, cps, q=q)
        if q is not None:
            out.evidence.append(Evidence(
                f"GD from {symbol}(0) = {label}: min over {n_steps} steps of ⟨{symbol}(t+1) − {symbol}(t), {symbol}^mm⟩",
                run.min_increment, ">", arb(0), holds=(run.uncertified == 0 and bool(run.min_increment > 0)) or (
                    False if run.min_increment < 0 else None),
                note=(f"at t = {run.min_increment_at}; {run.uncertified} step(s) not certified > 0; the projection "
                      f"⟨{symbol}(t), {symbol}^mm⟩/‖{symbol}^mm‖ went from {float(run.projections[0].mid()):.6g} "
                      f"to {float(run.projections[-1].mid()):.6g}")))
            if gaps is not None:
                # descent lemma (Lemma 6, η ≤ 1/L): Σ_t ‖∇L(θ(t))‖² ≤ 2(L(θ(0)) − L⋆)/η, and ‖∇L‖ ≥ c(R) on
                # the ball: at most 2(L(θ(0)) − L⋆)/(η c(R)²) steps of GD lie in ‖θ‖ ≤ R.
                L0 = model.excess([to_arb(x) for x in th0])
                for R in radii[:2]:
                    c = ball_lower_bound(model, q, R, gaps)
                    N = 2 * L0 / (eta * c * c)
                    out.evidence.append(Evidence(
                        f"GD from {symbol}(0) = {label}: certified max number of steps with ‖{symbol}(t)‖ ≤ {R}",
                        arb(N.upper()), "~",
                        note="2(L(θ(0)) − L⋆)/(η c(R)²): the descent lemma (Σ_t ‖∇L(θ(t))‖² ≤ 2(L(θ(0)) − L⋆)/η "
                             "for η ≤ 1/L, L a smoothness constant: mmts Lemma 6 / tfsvm Lemma 4, 8) with the "
                             "ball bound c(R) — finite for every R, so ‖θ(t)‖ → ∞"))
        last = run.norms[-3:]
        a_fit, b_fit = fit_log_rate(run.steps[-5:], run.norms[-5:])
        out.evidence.append(Evidence(
            f"GD from {symbol}(0) = {label}: ‖{symbol}(t)‖ at t = {run.steps[-1]}",
            run.norms[-1], "~",
            note=(f"‖{symbol}(t)‖ = " + ", ".join(f"{float(x.mid()):.6g}" for x in last) +
                  f" at t = {', '.join(str(t) for t in run.steps[-3:])}" +
                  (f"; fit over the last 5 checkpoints ‖{symbol}(t)‖ ≈ {a_fit:.4g} + {b_fit:.4g}·ln t"
                   if b_fit is not None else "") +
                  (f" (late-time theory: b → ‖{symbol}^mm‖ = {float(qn.mid()):.6g})" if qn is not None else "")
                  + (f"; {eta_note}" if eta_note else "") +
                  "; a trend over the range reached (an anti-aligned start first shrinks: its projection on "
                  f"{symbol}^mm grows, its norm dips)")))
        out.evidence.append(Evidence(f"GD from {symbol}(0) = {label}: ‖∇L({symbol}(t))‖ at t = {run.steps[-1]}",
                                     run.grad_norms[-1]))
        if figure:
            xs = [t for t in run.steps if t > 0]
            ys = [float(r.mid()) for t, r in zip(run.steps, run.norms) if t > 0]
            series.append(Series(f"‖{symbol}(t)‖, {symbol}(0) = {label}", xs, ys, "-o"))
            if q is not None:
                series.append(Series(f"⟨{symbol}(t), {symbol}̂^mm⟩, {symbol}(0) = {label}", xs,
                                     [float(r.mid()) for t, r in zip(run.steps, run.projections) if t > 0], ":"))
            if b_fit is not None and label == "0":
                xf = [t for t in run.steps[-5:] if t > 0]
                series.append(Series(f"fit {a_fit:.3g} + {b_fit:.3g} ln t (last 5 checkpoints)", xf,
                                     [a_fit + b_fit * math.log(t) for t in xf], "--"))
    if series:
        out.figures.append(Figure(
            "norm", f"‖{symbol}(t)‖ along GD (η = 1/L)", "t (GD steps)", f"‖{symbol}(t)‖", series, logx=True,
            caption="The norm grows like a + b ln t (straight lines on a log-t axis): no finite limit."))


@dataclass
class FlowCheckpoints:
    steps: list = field(default_factory=list)
    norms: list = field(default_factory=list)
    points: list = field(default_factory=list)
    omc: list = field(default_factory=list)        # 1 − corr(θ, q) at the checkpoints (q given)
    selected: list = field(default_factory=list)
    settled: list = field(default_factory=list)    # 1 − corr(θ_k, θ_{k−1}) between checkpoints
    status: str = "ok"


def flow_checkpoints(data, theta0, radii, dps: int, q=None, loss="logistic", max_steps: int = 5000) -> FlowCheckpoints:
    """Gradient flow of p (``verify.dynamics.gradient_flow``: Radau IIA at ``dps`` digits, local error
    ≤ 10^-dps) from ``theta0``, stopped exactly where ‖p‖ reaches each radius of ``radii`` (beyond
    ‖p(0)‖): the checkpoints are the same points at every precision, so their figures have stable
    digits. ``steps`` holds the cumulative Radau steps; ``status`` the flow's last status."""
    th0 = [to_arb(Fraction(x)) if not isinstance(x, arb) else x for x in theta0]
    qa = [to_arb(Fraction(x)) for x in q] if q is not None else None
    run = FlowCheckpoints()
    model = LinearLogitModel.from_dataset(data, "p", loss)
    n0 = dot(th0, th0).sqrt()
    prev = None
    norms = [str(r) for r in sorted(Fraction(x) for x in radii) if to_arb(r) > n0]
    for traj in flow_through_norms(data, "p", norms, init=th0, dps=dps, loss=loss, svm=False, record=False,
                                   max_steps=max_steps):
        if traj.status != "reached":
            run.status = traj.status
            break
        th = [arb(x.mid()) for x in traj.psi]
        run.steps.append(int(traj.state["steps"]))
        run.norms.append(dot(th, th).sqrt())
        run.points.append(th)
        run.selected.append(tuple(x.r for x in exact_states(model, th)))
        if qa is not None:
            run.omc.append(one_minus_corr(th, qa))
        run.settled.append(one_minus_corr(th, prev) if prev is not None else None)
        prev = th
    return run
