"""Claim-kit pieces for "the max-margin solution is a global descent direction; no finite stationary
point; GD diverges in norm" (mmts Lemma 4 and Theorem 2, tfsvm Theorem 3): the hypotheses computed on
the data, the step size against the certified smoothness constant, GD runs whose per-step projection
increase is a ``Tally``, and the shared evidence; GD from several starts at once (``GDLockstep``) with
"‖∇L(θ(k))‖ → 0, ‖θ(k)‖ → ∞" decided by rules on the late part of the run (``gd_limits``). The static geometry (descent terms, probe points,
ball bounds) is ``verify.geometry.stationarity``; the flow direction is ``verify.kit.direction``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb, arb_mat

from verify.claims import Evidence, Figure, Hypothesis, Series, Tally, rules, steps
from verify.claims.verdict import Decision
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
    selected: list = field(default_factory=list)  # tokens selected at the checkpoints (GDLockstep)


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
def no_stationary_evidence(out, data: Dataset, model: LinearLogitModel, param: str, q, gaps, *, symbol: str = "p",
                           radii=BALL_RADII, scales=SIGN_SCALES) -> None:
    """Part (i) of ``stationary_evidence``: with the exact max-margin solution ``q``, a Tally of
    ⟨∇L(θ), q⟩ < 0 at every adversarial probe point and (with ``gaps``) the certified c(R) > 0 with
    ‖∇L‖ ≥ c(R) on the balls ‖θ‖ ≤ R; without ``q``, ∇L(0) decided exactly (0: a stationary point)."""
    if q is None:
        zero, _ = exact_gradient_at_zero(data, param)
        g0 = model.grad([arb(0)] * model.D)
        out.add(Evidence(
            f"‖∇L(0)‖ computed exactly at uniform attention (0 means {symbol} = 0 is a stationary point)",
            Fraction(0) if zero else dot(g0, g0).sqrt(), ">", 0,
            note="every per-sequence vector Σ_t (γ_it − γ̄_i) F_it vanishes exactly" if zero else ""))
        return
    margins = exact_margins(features(data, param), model.opt, q)
    dirs = probe_directions(features(data, param), model.opt, q, count=4)
    pts = probe_points(dirs, scales, symbol)
    pairs = PairTable(model, q)
    sign = Tally(f"max over {len(pts)} adversarial points of ⟨∇L({symbol}), {symbol}^mm⟩ (so ∇L ≠ 0 there)", "<", 0)
    for where, p, _, _ in pts:
        sign.add(descent_terms(model, q, margins, p, pairs=pairs).inner, where)
    out.add(sign.evidence())
    out.cover(f"(i) {symbol} at {len(pts)} probe points (‖{symbol}‖∞ ≤ {scales[-1]})" +
              (f" and every {symbol} with ‖{symbol}‖ ≤ {radii[-1]} (certified c(R) on the balls)" if gaps is not None else ""))
    if gaps is not None:
        for R in radii:
            out.add(Evidence(
                f"certified inf of ‖∇L({symbol})‖ over the ball ‖{symbol}‖ ≤ {R} (lower bound c(R))",
                ball_lower_bound(model, q, R, gaps), ">", 0,
                note="from −⟨∇L, q⟩ ≥ (1/n)Σ|ℓ'|Δ_i s_opt(1−s_opt) with s_opt, 1 − s_opt, |ℓ'| bounded over the ball"))


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
    no_stationary_evidence(out, data, model, param, q, gaps, symbol=symbol, radii=radii, scales=scales)
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
    out.cover(f"(ii) GD from {symbol}(0) ∈ {{{', '.join(label for label, _, _ in inits)}}}, η = 1/L rounded down")
    if series:
        out.figures.append(Figure(
            "norm", f"‖{symbol}(t)‖ along GD (η = 1/L)", "t (GD steps)", f"‖{symbol}(t)‖", series, logx=True,
            caption="The norm grows like a + b ln t (straight lines on a log-t axis): no finite limit."))


# ----- GD from several starts at once; "‖∇L(θ(t))‖ → 0 and ‖θ(t)‖ → ∞" decided by rules (tfsvm Thm 3) --
#: DERIVED late-time law of GD (η ≤ 1/L) towards a max-margin direction q_α (the GMM or an LMM): the
#: iterates follow the gradient flow at time t = ηk, θ(t) ≈ q_α ln(t + t₀') + a bounded part, so
#: ‖∇L(θ(k))‖ = ‖θ'‖ ≈ ‖q_α‖/(ηk + t₀') — exponent 1 in the clock ηk + t₀ — and ‖θ(k) − θ(0)‖ ≈
#: ‖q_α‖ ln(1 + ηk/t₀') — exponent 1 against ln(1 + ηk/t₀). The clock's origin t₀ = 1/‖∇L(θ(0))‖ is
#: the flow's (``verify.dynamics.flow``): from a start far out the gradient barely changes for ηk ≪ t₀,
#: which a clock started at 0 would read as a plateau.
GRADIENT_DECAY_RATE = 1


def tail_checkpoints(steps: int, early=GD_CHECKPOINTS) -> list[int]:
    """The recorded steps: the ladder ``early`` below steps/2, then ``rules.TAIL_POINTS`` equally spaced
    steps over the second half of the run ending at ``steps`` (5000, 6666, 8333, 10000 for 10⁴): the
    late part, on which the rules of ``gd_limits`` are judged (a run from 0 first crosses a hump of
    ‖∇L‖ while the attention of some sequences flips; D-T2: up to k ≈ 4000 at η = 1/L_W)."""
    k = rules.TAIL_POINTS
    tail = sorted({max(1, steps * (k - 1 + j) // (2 * (k - 1))) for j in range(k)})
    return sorted({c for c in early if c < tail[0]} | set(tail))


class GDLockstep:
    """``gd_checkpoints`` from every start of ``starts`` at once, resumable (``advance``): one batched
    evaluation of the softmax terms per step (``LinearLogitModel.terms``) for all starts, the gradients
    ∇L = (1/n)Fᵀw and the update as arb matrix products. Same iterates (each rounded to its midpoint,
    so every step is an exact GD step from an exact point); with ``q``, the per-step Tally of the
    projection increase −η⟨∇L(θ(t)), q⟩ for the starts flagged in ``tally`` (default all).
    ``runs[k].selected``: the token each sequence selects at each checkpoint."""

    def __init__(self, model: LinearLogitModel, starts, eta, q=None, quantity: str = "", tally=None):
        self.model, self.eta, self.t = model, eta, 0
        self.TH = arb_mat(len(starts), model.D, [x if isinstance(x, arb) else to_arb(Fraction(x))
                                                 for t0 in starts for x in t0])
        self.Q = arb_mat(model.D, 1, [to_arb(Fraction(x)) for x in q]) if q is not None else None
        self.qn = (self.Q.transpose() * self.Q)[0, 0].sqrt() if q is not None else None
        self.runs = [GDRun(eta=eta) for _ in starts]
        self.tally = [q is not None and (tally is None or tally[k]) for k in range(len(starts))]
        for run, on in zip(self.runs, self.tally):
            if on:
                run.increase = Tally(quantity or "⟨θ(t+1) − θ(t), q⟩ > 0 at every step", ">", 0)

    def advance(self, checkpoints, what: str = "GD steps") -> list[GDRun]:
        """Run on to the last of ``checkpoints``, recording those not before the current step."""
        m, S = self.model, len(self.runs)
        n, D = m.n, m.D
        done = self.runs[0].steps[-1] if self.runs[0].steps else -1
        cps = sorted(c for c in set(int(c) for c in checkpoints) if c > done and c >= self.t)
        work = steps(cps[-1] - self.t, what)
        while True:
            e = self.TH.entries()
            rows = [e[k * D:(k + 1) * D] for k in range(S)]
            tm = m.terms(rows)
            w = m._weights(tm)[1]
            G = arb_mat(S, n * m.T, w) * m._Fall / n  # row k: ∇L at start k (the model's (nT) × D features)
            if self.t in cps:
                self._record(rows, G.entries(), tm)
            if self.t == cps[-1]:
                return self.runs
            if any(self.tally):
                for run, v, on in zip(self.runs, (G * self.Q).entries(), self.tally):
                    if on:
                        run.increase.add(-self.eta * v, f"t = {self.t}")
            self.TH = (self.TH - G * self.eta).mid()
            self.t += 1
            work.advance()

    def _record(self, rows, Ge, tm) -> None:
        n, D = self.model.n, self.model.D
        for k, run in enumerate(self.runs):
            x, g = rows[k], Ge[k * D:(k + 1) * D]
            run.steps.append(self.t)
            run.norms.append(norm_ball(x))
            run.grad_norms.append(norm_ball(g))
            run.points.append(list(x))
            run.losses.append(self.model.excess(x))
            run.selected.append(tuple(int(r) for r in tm.R[k * n:(k + 1) * n]))
            if self.Q is not None:
                run.projections.append(dot(x, self.Q.entries()) / self.qn)


def gd_limits_until_decided(model: LinearLogitModel, starts, eta, q=None, *, lengths=(5000, 10000, 20000),
                            symbol: str = "θ", dps: int | None = None, ball_bound=None, quantity: str = "",
                            tally=None):
    """GD from ``starts`` (``GDLockstep``) for lengths[0] steps, then doubled along ``lengths`` while a
    rule of ``gd_limits`` is undecided on some start (its tail checkpoints lie in the second half of
    the run, so a longer run continues the shorter one). Returns (runs, [(‖∇L‖ item, ‖θ‖ item)] per
    start, steps run): a rule that fails ends the extension; the last length bounds the range."""
    gd = GDLockstep(model, starts, eta, q, quantity, tally)
    checkpoints = tail_checkpoints(lengths[0])
    for K in lengths:
        runs = gd.advance(checkpoints if K == lengths[0] else tail_checkpoints(K, early=()))
        items = [gd_limits(run, symbol, dps, ball_bound) for run in runs]
        if all(e.rule.holds is not None for pair in items for e in pair):
            break
    return runs, items, K


def gd_limits(run: GDRun, symbol: str = "θ", dps: int | None = None, ball_bound=None) -> tuple[Evidence, Evidence]:
    """(‖∇L(θ(k))‖ → 0, ‖θ(k)‖ → ∞) over the run, each decided by a rule on the last
    ``rules.TAIL_POINTS`` checkpoints with the clock of ``GRADIENT_DECAY_RATE`` (t₀ = 1/‖∇L(θ(0))‖, or
    1 when ∇L(θ(0)) = 0): ``rules.decays`` of ‖∇L‖ against ηk + t₀ at the derived rate 1 (``zero``:
    10^-dps, a gradient that is 0 to every digit carried), and ``rules.diverges`` of ‖θ(k) − θ(0)‖
    against ln(1 + ηk/t₀) — equivalent to ‖θ(k)‖ → ∞ since θ(0) is fixed.

    A failure of a rule (a plateau of ‖∇L‖, a stall of the distance) counts only when the run is
    longer than the descent lemma allows it (η ≤ 1/L: Σ_k ‖∇L(θ(k))‖² ≤ 2(L(θ(0)) − L⋆)/η): at most
    2(L(θ(0)) − L⋆)/(η m²) steps with ‖∇L‖ ≥ m (m: the smallest tail value), and, with ``ball_bound``
    (R ↦ certified c(R), ‖∇L‖ ≥ c(R) on ‖θ‖ ≤ R), at most 2(L(θ(0)) − L⋆)/(η c(R)²) steps in the
    ball of the largest tail norm. A shorter "plateau" is the pre-asymptotic regime: undecided."""
    g0 = run.grad_norms[0]
    t0 = 1 / g0 if g0 > 0 else arb(1)
    k = rules.TAIL_POINTS
    ks, gs = run.steps[-k:], run.grad_norms[-k:]
    K, L0 = ks[-1], run.losses[0]
    clock = [run.eta * t + t0 for t in ks]
    zero = arb(10) ** -dps if dps is not None else None
    dec = rules.decays(clock, gs, expected=GRADIENT_DECAY_RATE, zero=zero)
    if dec.holds is False:
        m = min(gs, key=lambda x: x.mid())
        budget = 2 * L0 / (run.eta * m * m) if m > 0 else None
        if budget is None or not budget < K:
            dec = Decision(None, dec.rule, dec.detail + f"; not confirmed: the descent lemma allows up to "
                                                        f"{_count(budget)} steps with ‖∇L‖ ≥ {float(m.mid()):.3g}")
    start = run.points[0]
    dist = [norm_ball([a - b for a, b in zip(x, start)]) for x in run.points[-k:]]
    div = rules.diverges([(1 + run.eta * t / t0).log() for t in ks], dist)
    if div.holds and not rules.strictly_decreasing([-x for x in run.norms[-k:]]):
        div = Decision(None, div.rule, div.detail + f"; but ‖{symbol}(k)‖ itself does not increase over these "
                                                    "checkpoints (the distance grows towards a finite limit?)")
    if div.holds is False and ball_bound is not None:
        R = max(run.norms[-k:], key=lambda x: x.mid())
        c = ball_bound(arb(R.upper()))
        budget = 2 * L0 / (run.eta * c * c) if c > 0 else None
        if budget is None or not budget < K:
            div = Decision(None, div.rule, div.detail + f"; not confirmed: the descent lemma allows up to "
                                                        f"{_count(budget)} steps in ‖{symbol}‖ ≤ {float(R.mid()):.4g}")
    s = symbol
    fig = f"‖∇L({s}(k))‖ = " + ", ".join(f"{float(x.mid()):.4g}" for x in gs) + f" at k = {', '.join(map(str, ks))}"
    grad = Evidence(f"‖∇L({s}(k))‖ → 0 (value at k = {K}; against ηk + t₀, t₀ = 1/‖∇L({s}(0))‖ = "
                    f"{float(t0.mid()):.4g})", gs[-1], rule=dec, note=dec.detail + "; " + fig)
    norm = Evidence(f"‖{s}(k) − {s}(0)‖ → ∞, i.e. ‖{s}(k)‖ → ∞ (value at k = {K}; against ln(1 + ηk/t₀))",
                    dist[-1], rule=div, note=div.detail + f"; ‖{s}(k)‖ = " +
                    ", ".join(f"{float(x.mid()):.4g}" for x in run.norms[-k:]) + f" at k = {', '.join(map(str, ks))}")
    return grad, norm


def norm_ball(v) -> arb:
    """‖v‖₂ as a ball: the square root when the square sum is certainly positive; otherwise (a square sum whose ball
    reaches below 0 has no real square root) the ball centred at h/2 with radius h/2, h ≥ √(its upper end) — it holds
    [0, h]; its lower end dips below 0 only by the radius's upward rounding (≈ 2⁻³⁰·h)."""
    s2 = dot(v, v)
    if s2 > 0:
        return s2.sqrt()
    hi = arb(arb(s2.upper()).sqrt().upper())
    return arb(hi.mid() / 2, hi.mid() / 2) if hi > 0 else arb(0)


def _count(budget) -> str:
    return "∞" if budget is None else f"{float(budget.mid()):.3g}"
