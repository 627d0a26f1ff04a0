"""mmts Theorem 2 — global convergence of GD under Assumption B (Sec. 2.1; proof App. B.3, (51)–(52)).

Statement (spec `mmts.thm2`, SEED+). Under Assumption A, Assumption B (γ_it = γ_iτ < γ_{i,opt} for all
t, τ ≠ opt_i), step η ≤ 1/L_p (Lemma 6, L_p of (6)), any p(0), and ATT-SVM(opt) feasible (p^mm exists;
used through Lemma 4), GD p(t+1) = p(t) − η∇L(p(t)) satisfies

   (i)   no finite p has ∇L(p) = 0                      — registered separately as `mmts.thm2.stationary`;
   (ii)  lim_t ‖p(t)‖ = ∞;
   (iii) if n = 1:  lim_t p(t)/‖p(t)‖ = p^mm/‖p^mm‖.

"The restriction n = 1 is necessary and tight" (App. E, Fig. 8): the spec's §5.6 substitute (n = 2, T = 2,
B holds) has GMM (1,−3,0) and an LMM (1,0,0); GD from p(0) = 0 goes to the GMM, from (2,0,0) to the LMM.

Paper/spec numbers (Fig. 1(a), p(0) = 0, η = 1/L_p, L_p = 20.75): ‖p(t)‖ = 0.37, 2.59, 5.16, 7.43 and
1 − corr = 8.8e−2, 5.4e−2, 3.3e−2, 2.2e−2 at t = 10³…10⁶ (+2.3 in norm per decade); normalised GD
(lr 0.1, the paper's optimiser) reaches ‖p‖ ≈ 100 in 1000 steps with 1 − corr ≈ 2.5e−4 (reproduced in
``tests/test_thm2.py``; the gradient flow here gives 1 − corr = 2.47e−4 at ‖p‖ = 100 exactly).

How it is checked (an asymptotic claim: evidence over the range reached, never a proof of the limit):

* hypotheses decided exactly (Assumption B on the rational scores; p^mm the exact rational ATT-SVM);
* the theorem's own algorithm: GD with η = 1/L_p rounded down, from p(0) = 0, 10⁴ steps (4·10³ for
  n > 1) in high-precision midpoint arithmetic: the projection ⟨p(t), p^mm⟩ increases at every step
  (certified per step, Lemma 4 at the iterates — so (ii) cannot fail by settling), ‖p(t)‖ fitted by
  a + b ln t, and 1 − corr(p(t), p^mm) at the checkpoints;
* depth: the gradient flow itself (GD's limit as η → 0; ``verify.dynamics.gradient_flow``, Radau IIA
  at the working precision, local error ≤ 10^-dps) from p(0) = 0 and from an anti-aligned start,
  stopped exactly at ‖p‖ = 1, 2, 5, …, 5000, 10⁴ (softmax gaps e^{−10⁴}: fine in arb, far beyond
  float64's e^{−745}; the checkpoints are the same points at both precisions, so their figures carry
  stable digits). For n = 1, (iii) is decided from the trend:
  HOLDS when 1 − corr(p, p^mm) decreases over the last checkpoints with a log–log slope ≤ −1 (observed
  ≈ −2.0, the rate of a bounded transverse offset, derived: 1 − corr ≈ ‖ρ_⊥‖²/(2‖p‖²)); VIOLATED when
  the direction has settled (successive checkpoints agree to 1% of the error) away from p^mm;
  INCONCLUSIVE otherwise. For n > 1 the direction is reported, not judged ((iii) is not asserted);
  ``direction_for_all_n=True`` judges it anyway (the false-case test: §5.6 from (2,0,0) → VIOLATED).

UNCERTAIN (spec §7 item 8): the exact form of (ii)/(iii) is SEED+ (not in the slides); the step-size
hypothesis is read as η ≤ 1/L_p with L_p of (6) as recalled (``verify.geometry.smoothness``).
"""
from __future__ import annotations

import math
from fractions import Fraction

from flint import arb

from lemmas.mmts.lemma4 import hypotheses as lemma4_hypotheses
from lemmas.mmts.thm2_stationary import step_size
from verify.claims import Claim, Evidence, Figure, Outcome, Series, register
from verify.data import mmts as D
from verify.data.dataset import Dataset
from verify.geometry.stationarity import feasible_assumption_b_dataset
from verify.kit.stationarity import GD_CHECKPOINTS, flow_checkpoints, gd_checkpoints
from verify.models.attention import LinearLogitModel, one_minus_corr
from verify.numbers.fits import fit_log_rate, fit_loglog
from verify.numbers.precision import Precision, to_arb

RADII = ("1", "2", "5", "10", "20", "50", "100", "200", "500", "1000", "2000", "5000", "10000")


def judge_direction(norms, omc, settled):
    """Decide (iii) from the flow's checkpoints: (holds, slope, reason)."""
    if len(omc) < 4:
        return None, None, "too few checkpoints"
    slope, _ = fit_loglog(norms[-4:], omc[-4:])
    dec = all(b < a for a, b in zip(omc[-3:], omc[-2:]))
    if dec and slope is not None and slope <= -1:
        return True, slope, "decreasing with a power-law rate"
    last, prev, sett = omc[-1], omc[-2], settled[-1]
    if (not last < prev) and sett is not None and sett < last / 100 and last > arb(10) ** -3:
        return False, slope, "the direction has settled away from p^mm"
    return None, slope, "no clear trend over the range reached"


def evaluate(data: Dataset, prec: Precision, steps: int | None = None, radii=RADII, inits=None,
             direction_for_all_n: bool = False, loss: str = "logistic", figure: bool = True) -> Outcome:
    out = Outcome()
    hyps, B, res = lemma4_hypotheses(data, "p", loss, prec, require_B=True)
    out.hypotheses = hyps
    if res is None:
        return out
    q = list(res.solution)
    qa = [to_arb(x) for x in q]
    model = LinearLogitModel.from_dataset(data, "p", loss)
    eta, eta_note = step_size(data, loss)
    judge = data.n == 1 or direction_for_all_n
    if steps is None:
        steps = 10000 if data.n == 1 else 4000

    # --- the theorem's algorithm: GD with η = 1/L_p from p(0) = 0 --------------------------------
    cps = [c for c in GD_CHECKPOINTS if c < steps] + [steps]
    run = gd_checkpoints(model, [Fraction(0)] * model.D, eta, cps, q=q)
    out.evidence.append(Evidence(
        f"(ii) GD (η = 1/L_p, p(0) = 0): min over {steps} steps of ⟨p(t+1) − p(t), p^mm⟩ (projection increases)",
        run.min_increment, ">", arb(0),
        holds=(run.uncertified == 0 and bool(run.min_increment > 0)) or (False if run.min_increment < 0 else None),
        note=f"{run.uncertified} step(s) not certified; {eta_note}"))
    a_fit, b_fit = fit_log_rate(run.steps[-5:], run.norms[-5:])
    out.evidence.append(Evidence(
        f"(ii) GD: ‖p(t)‖ at t = {run.steps[-1]}", run.norms[-1],
        note=("‖p(t)‖ = " + ", ".join(f"{float(x.mid()):.4g}" for x in run.norms[-4:]) + " at t = " +
              ", ".join(str(t) for t in run.steps[-4:]) +
              (f"; fit ‖p(t)‖ ≈ {a_fit:.4g} + {b_fit:.4g}·ln t (+{b_fit * math.log(10):.3g} per decade; "
               f"late-time theory b → ‖p^mm‖ = {float(sum(x * x for x in q)) ** 0.5:.4g})" if b_fit else ""))))
    gd_omc = [one_minus_corr(p, qa) for t, p in zip(run.steps, run.points) if t > 0]
    out.evidence.append(Evidence(
        f"(iii) GD: 1 − corr(p(t), p^mm) at t = {run.steps[-1]}", gd_omc[-1],
        note="1 − corr = " + ", ".join(f"{float(x.mid()):.3g}" for x in gd_omc[-4:]) + " at t = " +
             ", ".join(str(t) for t in run.steps[-4:]) + " (the fixed-step algorithm: logarithmically slow)"))

    # --- depth: the gradient flow -----------------------------------------------------------------
    if inits is None:
        m = max(abs(x) for x in q)
        inits = [("0", [Fraction(0)] * model.D), ("−q/‖q‖∞ (anti-aligned)", [-x / m for x in q])]
    series, series_gd, ends = [], [], []
    for label, th0 in inits:
        ng = flow_checkpoints(data, th0, radii, prec.dps, q=q, loss=loss)
        if ng.status != "ok":
            out.notes.append(f"gradient flow from {label}: {ng.status} before ‖p‖ = {radii[-1]}")
        if not ng.omc:  # not even the first radius reached
            stuck = ng.status == "stationary"
            out.evidence.append(Evidence(
                f"(ii) gradient flow from p(0) = {label} reaches ‖p‖ = {min(radii, key=Fraction)}", stuck is False,
                "==", True, holds=False if stuck else None,
                note="the flow converges to a finite stationary point" if stuck else f"flow status {ng.status}"))
            continue
        holds, slope, reason = judge_direction(ng.norms, ng.omc, ng.settled) if ng.omc else (None, None, "")
        if not judge:
            holds = None
            reason = "n > 1: (iii) is not asserted — reported only"
        sel = ng.selected[-1] if ng.selected else ()
        ends.append((label, sel))
        out.evidence.append(Evidence(
            f"(iii) gradient flow from p(0) = {label}: 1 − corr(p, p^mm) at ‖p‖ = {float(ng.norms[-1].mid()):g}",
            ng.omc[-1], "~", holds=holds,
            note=(f"{reason}; 1 − corr = " + ", ".join(f"{float(x.mid()):.3g}" for x in ng.omc[-4:]) +
                  " at ‖p‖ = " + ", ".join(f"{float(x.mid()):.4g}" for x in ng.norms[-4:]) +
                  (f"; log–log slope {slope:.4f} (bounded transverse offset: −2)" if slope is not None else "") +
                  f"; selected tokens at the end {sel}; {ng.steps[-1] if ng.steps else 0} Radau steps")))
        if figure and ng.omc:
            xs = [float(x.mid()) for x in ng.norms]
            ys = [float(x.mid()) for x in ng.omc]
            series.append(Series(f"gradient flow, p(0) = {label}", xs, ys, "-o"))
            if slope is not None and label == "0":
                _, icpt = fit_loglog(ng.norms[-4:], ng.omc[-4:])
                series.append(Series(f"fit slope {slope:.2f}", xs[-4:], [math.exp(icpt) * x ** slope for x in xs[-4:]], "--"))
    if figure:
        gx = [float(run.norms[k].mid()) for k, t in enumerate(run.steps) if t > 0]
        series.append(Series("GD η = 1/L_p, p(0) = 0", gx, [float(x.mid()) for x in gd_omc], "s:"))
        out.figures.append(Figure(
            "direction", "Theorem 2: 1 − corr(p, p^mm) against ‖p‖", "‖p‖", "1 − corr(p, p^mm)", series,
            logx=True, logy=True,
            caption="The gradient flow (GD's limit as η → 0) deep into saturation; GD with η = 1/L_p "
                    "covers the first few units of norm."))
        xs = [t for t in run.steps if t > 0]
        series_gd = [Series("‖p(t)‖, GD η = 1/L_p", xs, [float(r.mid()) for t, r in zip(run.steps, run.norms) if t > 0], "-o")]
        if b_fit:
            xf = [t for t in run.steps[-5:] if t > 0]
            series_gd.append(Series(f"{a_fit:.3g} + {b_fit:.3g} ln t (last 5 checkpoints)", xf,
                                    [a_fit + b_fit * math.log(t) for t in xf], "--"))
        out.figures.append(Figure("norm", "Theorem 2 (ii): ‖p(t)‖ against t", "t", "‖p(t)‖", series_gd, logx=True,
                                  caption="Straight on a log-t axis: ‖p(t)‖ ≈ a + b ln t, unbounded."))
    if data.n > 1 and not direction_for_all_n:
        other = [lbl for lbl, sel in ends if sel != model.opt]
        out.notes.append("n > 1: only (ii) is asserted; directions are reported, not judged" + (
            f"; from p(0) = {', '.join(other)} the run ends selecting non-optimal tokens (an LMM), not p^mm — "
            "the paper's point that n = 1 is necessary (App. E, Fig. 8)" if other else ""))
    return out


def check(data, prec: Precision) -> Outcome:
    if data.name == "mmts-fig8-substitute":
        return evaluate(data, prec, inits=[("0", [0, 0, 0]), ("(2,0,0) (LMM basin)", [2, 0, 0])])
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [
        D.mmts_fig1a(),
        feasible_assumption_b_dataset(n=1, T=4, d=3, seed=seed),
        D.mmts_fig8_substitute(),
    ]


CLAIM = register(Claim(
    id="mmts.thm2",
    paper="mmts",
    number="Theorem 2",
    title="Global convergence of GD under Assumption B: norm diverges; for n = 1 direction → p^mm",
    kind="asymptotic",
    statement=(
        "Under Assumption A, Assumption B, η ≤ 1/L_p and ATT-SVM(opt) feasible, GD from any p(0) has "
        "lim ‖p(t)‖ = ∞, and if n = 1, lim p(t)/‖p(t)‖ = p^mm/‖p^mm‖ (Sec. 2.1, App. B.3). "
        "(Part (i), no finite stationary points, is `mmts.thm2.stationary`.)\n\n"
        "Evidence over the range reached: GD with η = 1/L_p (certified per-step growth of ⟨p, p^mm⟩, ‖p(t)‖ ≈ a + b ln t) "
        "and the gradient flow to ‖p‖ = 10⁴ (1 − corr against ‖p‖ on log axes, fitted rate)."
    ),
    check=check,
    default_datasets=default_datasets,
    aliases=("global-gd-convergence", "norm-diverges"),
    module=__name__,
))
