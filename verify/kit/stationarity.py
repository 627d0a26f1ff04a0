"""Claim-kit pieces for "the max-margin solution is a global descent direction; no finite stationary
point; GD diverges in norm" (mmts Lemma 4 and Theorem 2, tfsvm Theorem 3): the hypotheses computed on
the data, the step size against the certified smoothness constant, GD runs whose per-step projection
increase is a ``Tally``, and the shared evidence. The static geometry (descent terms, probe points,
ball bounds) is ``verify.geometry.stationarity``; the flow direction is ``verify.kit.direction``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb

from verify.claims import Evidence, Figure, Hypothesis, Series, Tally, rules
from verify.data.dataset import Dataset
from verify.geometry.smoothness import smoothness_constant
from verify.geometry.stationarity import (
    PairTable,
    assumption_b,
    assumption_b1,
    ball_lower_bound,
    descent_terms,
    exact_gradient_at_zero,
    exact_margins,
    gmm,
    other_selection_directions,
    probe_directions,
    probe_points,
    smoothness_W,
)
from verify.kit.assumptions import assumption_a, step_size, svm_feasible
from verify.models.attention import LinearLogitModel, dot, features
from verify.numbers.fits import fit_log_rate
from verify.numbers.precision import to_arb

#: ‖θ‖∞ of the sign probes of "no stationary point" (uniform attention … 1 − s ≈ e^{−1000}).
SIGN_SCALES = ("0", "1/10", "1", "3", "10", "30", "100", "1000")
#: radii R of the balls ‖θ‖ ≤ R on which ‖∇L‖ ≥ c(R) > 0 is certified.
BALL_RADII = ("1", "10", "100", "1000")
#: GD steps at which the iterates are recorded.
GD_CHECKPOINTS = (0, 1, 3, 10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000)
ASSUMPTION_B = "Assumption B: γ_it = γ_iτ < γ_{i,opt} for all t, τ ≠ opt_i (exact)"


# ----- hypotheses, computed on the data -------------------------------------------------------------
def descent_hypotheses(data: Dataset, param: str, loss: str, dps: int, require_b: bool = True):
    """(hypotheses, AssumptionB, exact SVM result or None) for mmts Lemma 4 / Theorem 2: Assumption A
    for ``loss`` (``kit.assumptions``), Assumption B decided exactly on the rational scores (rounded
    data fails it), and ATT-SVM(opt) feasible from its verified certificate. ``require_b=False``
    keeps only a unique optimal token (the bare inequality of Lemma 4, for tests)."""
    hyps = [assumption_a(loss, data)]
    B = assumption_b(data)
    if require_b:
        hyps.append(Hypothesis(ASSUMPTION_B, B.met, B.detail))
    elif not all(len(o) == 1 for o in data.optimal_tokens()):
        hyps.append(Hypothesis("unique optimal token (p^mm of α = opt defined)", False, "opt tied"))
    if not all(h.met is True for h in hyps):
        return hyps, B, None
    res = gmm(data, param, dps)
    hyps.append(svm_feasible(res, "ATT-SVM(opt) feasible (p^mm exists)" if param == "p"
                             else "Att-SVM(opt) feasible (W^mm exists)"))
    return hyps, B, res if hyps[-1].met else None


def tfsvm_hypotheses(data: Dataset, loss: str, dps: int):
    """tfsvm Theorem 3: ([Assumption A, unique optimal tokens, Assumption B (B.1 or B.2)],
    feasibility of Att-SVM(opt) (W^mm exists), exact W^mm or None, per-sequence gaps or None).
    B.1 (every non-optimal token a support vector: margins exactly 1) is decided on the exact W^mm;
    the gaps are B.2's common gaps, else (B.1) the smallest score gap of each sequence."""
    opts = data.optimal_tokens()
    unique = all(len(o) == 1 for o in opts)
    hyps = [assumption_a(loss, data), Hypothesis("unique optimal tokens", unique, "opt = " + ", ".join(
        "{" + ",".join(map(str, o)) + "}" for o in opts))]
    B2 = assumption_b(data)
    res = gmm(data, "W", dps) if unique else None
    feas = svm_feasible(res, "Att-SVM(opt) feasible (W^mm exists; used by the proof, omitted from the printed "
                             "statement)") if res is not None else Hypothesis(
        "Att-SVM(opt) feasible (W^mm exists; used by the proof, omitted from the printed statement)", False, "opt tied")
    q, gaps, b1, b1_detail = None, None, False, "undefined (no W^mm)"
    if feas.met:
        q = list(res.solution)
        b1, b1_detail = assumption_b1(res)
        if B2.met:
            gaps = B2.gaps
        elif b1:
            gaps = tuple(min(g[o[0]] - g[t] for t in range(len(g)) if t != o[0]) for g, o in zip(data.scores, opts))
    hyps.append(Hypothesis("Assumption B: B.1 (all tokens support vectors) or B.2 (equal non-optimal scores)",
                           B2.met or b1, f"B.2: {'met' if B2.met else 'not met'} ({B2.detail}); B.1: "
                                         f"{'met' if b1 else 'not met'} ({b1_detail})"))
    return hyps, feas, q, gaps


def gd_step(L: arb, name: str) -> tuple[arb, Hypothesis]:
    """η = 1/L rounded down, and the hypothesis η ≤ 1/L decided against the certified ball L."""
    eta = arb((1 / arb(L.upper())).lower())
    return eta, step_size(eta, L, name)


def step_size_p(data: Dataset, loss: str = "logistic") -> tuple[arb, Hypothesis]:
    """mmts: η = 1/L_p with L_p of (6)/(24) (``verify.geometry.smoothness``)."""
    Lp = smoothness_constant(data, loss)
    return gd_step(Lp.value, f"step size η ≤ 1/L_p (L_p of (6), {Lp.form}-form; η = 1/L_p rounded down)")


def step_size_W(data: Dataset, loss: str = "logistic") -> tuple[arb, Hypothesis]:
    """tfsvm: η = 1/L_W with L_W of v1 Lemma 4 (the theorem's "η ≤ O(1/L_W)" read as η ≤ 1/L_W)."""
    return gd_step(smoothness_W(data, loss), "step size η ≤ 1/L_W (L_W of tfsvm v1 Lemma 4; η = 1/L_W rounded down)")


# ----- probe points of Lemma 4 ----------------------------------------------------------------------
def descent_probes(data: Dataset, param: str, q, scales, random_dirs: int, dps: int, symbol: str = "p"):
    """(directions, probe points): ±q, non-optimal selections, keys, the max-margin directions of the
    other feasible selections (LMM rays, ``p`` only), seeded random directions, at every scale."""
    feats = features(data, param)
    opt = tuple(o[0] for o in data.optimal_tokens())
    extra = other_selection_directions(data, param, dps) if param == "p" else []
    dirs = probe_directions(feats, opt, q, extra=extra, count=random_dirs)
    return dirs, probe_points(dirs, scales, symbol)


def ratio_figure(curves: dict, factor=1) -> Figure:
    """Lemma 4's ratio −⟨∇L(p), p^mm⟩/bound along the first six probe rays ({label: [(‖p‖₂, ratio)]})."""
    return Figure(
        "ratio", "Lemma 4: −⟨∇L(p), p^mm⟩ / derived bound along probe rays", "‖p‖₂", "ratio (≥ 1 required)",
        [Series(label[:40], [x for x, _ in c], [y for _, y in c], "-o") for label, c in list(curves.items())[:6]],
        logx=True, hlines=[(float(factor), "bound")],
        caption="The ratio never drops below 1; it tends to the weighted mean margin Σ s_t m_t/(1 − s_opt).")


# ----- GD with the per-step projection tallied ------------------------------------------------------
@dataclass
class GDRun:
    eta: arb
    steps: list = field(default_factory=list)     # t at the checkpoints
    norms: list = field(default_factory=list)     # ‖θ(t)‖ (arb)
    grad_norms: list = field(default_factory=list)
    points: list = field(default_factory=list)    # θ(t) (arb lists)
    losses: list = field(default_factory=list)    # L(θ(t)) − L⋆ (arb)
    projections: list = field(default_factory=list)  # ⟨θ(t), q⟩/‖q‖ when q is given
    increase: Tally | None = None                 # ⟨θ(t+1) − θ(t), q⟩ = −η⟨∇L(θ(t)), q⟩ > 0 at every step


def gd_checkpoints(model: LinearLogitModel, theta0, eta, checkpoints, q=None, quantity: str = "") -> GDRun:
    """θ(t+1) = θ(t) − η∇L(θ(t)), recorded at the (increasing) ``checkpoints``. Each iterate is
    rounded to its midpoint (a high-precision floating-point trajectory: ball radii would otherwise
    compound over thousands of steps), so every step is an exact GD step from an exact point and the
    per-step quantities are certified for it. With ``q``, the increment −η⟨∇L(θ(t)), q⟩ of the
    projection on q is decided at every step (``run.increase``, a Tally named ``quantity``)."""
    th = [to_arb(Fraction(x)) if not isinstance(x, arb) else x for x in theta0]
    run = GDRun(eta=eta)
    qa = [to_arb(Fraction(x)) for x in q] if q is not None else None
    qn = dot(qa, qa).sqrt() if qa is not None else None
    if qa is not None:
        run.increase = Tally(quantity or "⟨θ(t+1) − θ(t), q⟩ > 0 at every step", ">", 0)
    t = 0
    for c in sorted(set(int(c) for c in checkpoints)):
        while True:
            st = model.states(th)
            g = model.grad(th, st)
            if t == c:
                run.steps.append(t)
                run.norms.append(dot(th, th).sqrt())
                run.grad_norms.append(dot(g, g).sqrt())
                run.points.append(list(th))
                run.losses.append(model.excess(th, st))
                if qa is not None:
                    run.projections.append(dot(th, qa) / qn)
                break
            if qa is not None:
                run.increase.add(-eta * dot(g, qa), f"t = {t}")
            th = [arb((x - eta * gx).mid()) for x, gx in zip(th, g)]
            t += 1
    return run


def run_checkpoints(steps: int) -> list[int]:
    return [c for c in GD_CHECKPOINTS if c < steps] + [steps]


def divergence_evidence(run: GDRun, quantity: str, note: str = "") -> Evidence:
    """‖θ(t)‖ → ∞ over the run, decided by ``rules.diverges`` on ‖θ(t)‖ against ln t (the late-time
    theory: ‖θ(t)‖ ≈ a + ‖q‖ ln t); the value is ‖θ‖ at the last step."""
    pts = [(to_arb(t).log(), r) for t, r in zip(run.steps, run.norms) if t > 1]
    rule = rules.diverges([x for x, _ in pts], [y for _, y in pts])
    return Evidence(quantity, run.norms[-1], rule=rule, note=rule.detail + (f"; {note}" if note else ""))


def norm_trend(run: GDRun, symbol: str, qn=None) -> str:
    """‖θ(t)‖ at the last checkpoints and the fit a + b ln t (a reported trend)."""
    a, b = fit_log_rate(run.steps[-5:], run.norms[-5:])
    return (f"‖{symbol}(t)‖ = " + ", ".join(f"{float(x.mid()):.6g}" for x in run.norms[-3:]) +
            f" at t = {', '.join(str(t) for t in run.steps[-3:])}" +
            (f"; fit over the last 5 checkpoints ‖{symbol}(t)‖ ≈ {a:.4g} + {b:.4g}·ln t" if b is not None else "") +
            (f" (late-time theory: b → ‖{symbol}^mm‖ = {float(qn.mid()):.6g})" if qn is not None else ""))


def norm_series(run: GDRun, label: str, symbol: str, fit: bool) -> list[Series]:
    xs = [t for t in run.steps if t > 0]
    out = [Series(f"‖{symbol}(t)‖, {symbol}(0) = {label}", xs,
                  [float(r.mid()) for t, r in zip(run.steps, run.norms) if t > 0], "-o")]
    if run.projections:
        out.append(Series(f"⟨{symbol}(t), {symbol}̂^mm⟩, {symbol}(0) = {label}", xs,
                          [float(r.mid()) for t, r in zip(run.steps, run.projections) if t > 0], ":"))
    a, b = fit_log_rate(run.steps[-5:], run.norms[-5:])
    if fit and b is not None:
        xf = [t for t in run.steps[-5:] if t > 0]
        out.append(Series(f"fit {a:.3g} + {b:.3g} ln t (last 5 checkpoints)", xf, [a + b * math.log(t) for t in xf], "--"))
    return out


# ----- "no finite stationary point; GD diverges in norm": the shared evidence -----------------------
def stationary_evidence(out, data: Dataset, prec, param: str, q, gaps, eta, *, steps: int = 10000,
                        inits=None, loss: str = "logistic", symbol: str = "p", eta_note: str = "",
                        radii=BALL_RADII, scales=SIGN_SCALES, figure: bool = True) -> None:
    """Append the evidence of "∇L has no zero; GD diverges in norm" to ``out`` and set its range.

    With the exact max-margin solution ``q`` and per-sequence gaps (the common gap under Assumption
    B / B.2, the minimum gap under B.1; None skips the ball bounds):
      (i)  a Tally: ⟨∇L(θ), q⟩ < 0 at every adversarial probe point (so ∇L(θ) ≠ 0 there), and
           c(R) > 0 with ‖∇L(θ)‖ ≥ c(R) on the whole ball ‖θ‖ ≤ R (``ball_lower_bound``) — certified;
      (ii) along GD with step ``eta`` from 0 and from an anti-aligned start: a Tally of
           ⟨θ(t+1) − θ(t), q⟩ = −η⟨∇L(θ(t)), q⟩ > 0 at every step (certified per step); from 0,
           ‖θ(t)‖ → ∞ decided by ``rules.diverges`` against ln t (evidence over the steps run; the
           anti-aligned start first shrinks in norm, so its norm is reported only); the descent-lemma
           count of steps GD can spend in ‖θ‖ ≤ R and ‖∇L(θ(t))‖ are reported.
    Without ``q`` (negative control: no max-margin solution) ∇L(0) is decided exactly and GD reported."""
    model = LinearLogitModel.from_dataset(data, param, loss)
    D = model.D
    if q is None:
        zero, _ = exact_gradient_at_zero(data, param)
        g0 = model.grad([arb(0)] * D)
        out.add(Evidence(
            f"‖∇L(0)‖ computed exactly at uniform attention (0 means {symbol} = 0 is a stationary point)",
            Fraction(0) if zero else dot(g0, g0).sqrt(), ">", 0,
            note="every per-sequence vector Σ_t (γ_it − γ̄_i) F_it vanishes exactly" if zero else ""))
    else:
        margins = exact_margins(features(data, param), model.opt, q)
        dirs = probe_directions(features(data, param), model.opt, q, count=4)
        pts = probe_points(dirs, scales, symbol)
        pairs = PairTable(model, q)
        sign = Tally(f"max over {len(pts)} adversarial points of ⟨∇L({symbol}), {symbol}^mm⟩ (so ∇L ≠ 0 there)", "<", 0)
        for where, p, _, _ in pts:
            sign.add(descent_terms(model, q, margins, p, pairs=pairs).inner, where)
        out.add(sign.evidence())
        if gaps is not None:
            for R in radii:
                out.add(Evidence(
                    f"certified inf of ‖∇L({symbol})‖ over the ball ‖{symbol}‖ ≤ {R} (lower bound c(R))",
                    ball_lower_bound(model, q, R, gaps), ">", 0,
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
        run = gd_checkpoints(model, th0, eta, run_checkpoints(n_steps), q=q, quantity=(
            f"GD from {symbol}(0) = {label}: min over {n_steps} steps of ⟨{symbol}(t+1) − {symbol}(t), {symbol}^mm⟩"))
        trend = norm_trend(run, symbol, qn) + (f"; {eta_note}" if eta_note else "")
        if q is not None:
            out.add(run.increase.evidence(
                f"the projection ⟨{symbol}(t), {symbol}^mm⟩/‖{symbol}^mm‖ went from {float(run.projections[0].mid()):.6g} "
                f"to {float(run.projections[-1].mid()):.6g}"))
            if gaps is not None:
                # descent lemma (η ≤ 1/L): Σ_t ‖∇L(θ(t))‖² ≤ 2(L(θ(0)) − L⋆)/η, and ‖∇L‖ ≥ c(R) on the ball
                L0 = model.excess([to_arb(x) for x in th0])
                for R in radii[:2]:
                    c = ball_lower_bound(model, q, R, gaps)
                    out.add(Evidence(
                        f"GD from {symbol}(0) = {label}: certified max number of steps with ‖{symbol}(t)‖ ≤ {R}",
                        arb((2 * L0 / (eta * c * c)).upper()),
                        note="2(L(θ(0)) − L⋆)/(η c(R)²): the descent lemma (Σ_t ‖∇L(θ(t))‖² ≤ 2(L(θ(0)) − L⋆)/η "
                             "for η ≤ 1/L, L a smoothness constant: mmts Lemma 6 / tfsvm Lemma 4, 8) with the "
                             "ball bound c(R) — finite for every R, so ‖θ(t)‖ → ∞"))
        if all(x == 0 for x in th0):
            out.add(divergence_evidence(run, f"GD from {symbol}(0) = 0: ‖{symbol}(t)‖ → ∞ (value at t = "
                                             f"{run.steps[-1]}; fitted against ln t)", trend))
        else:
            out.add(Evidence(f"GD from {symbol}(0) = {label}: ‖{symbol}(t)‖ at t = {run.steps[-1]}", run.norms[-1],
                             note=trend + f"; a start off the origin may first shrink (its projection on "
                                          f"{symbol}^mm grows, its norm dips): reported, not decided"))
        out.add(Evidence(f"GD from {symbol}(0) = {label}: ‖∇L({symbol}(t))‖ at t = {run.steps[-1]}",
                         run.grad_norms[-1]))
        if figure:
            series += norm_series(run, label, symbol, fit=label == "0")
    out.range = f"t ≤ {steps} GD steps"
    if series:
        out.figures.append(Figure(
            "norm", f"‖{symbol}(t)‖ along GD (η = 1/L)", "t (GD steps)", f"‖{symbol}(t)‖", series, logx=True,
            caption="The norm grows like a + b ln t (straight lines on a log-t axis): no finite limit."))
