"""mmts Theorem 2 — global convergence of GD under Assumption B (Sec. 2.1; proof App. B.3, (51)–(52)).

Statement. Under Assumption A, Assumption B (γ_it = γ_iτ < γ_{i,opt} for all t, τ ≠ opt_i), step
η ≤ 1/L_p (Lemma 6, L_p of (6)), any p(0), and ATT-SVM(opt) feasible (p^mm exists; used through
Lemma 4), GD p(t+1) = p(t) − η∇L(p(t)) satisfies

   (i)   no finite p has ∇L(p) = 0                      — registered separately as `mmts.thm2.stationary`;
   (ii)  lim_t ‖p(t)‖ = ∞;
   (iii) if n = 1:  lim_t p(t)/‖p(t)‖ = p^mm/‖p^mm‖.

"The restriction n = 1 is necessary and tight" (App. E, Fig. 8): on the substitute data (n = 2, T = 2,
B holds; GMM (1,−3,0), LMM (1,0,0)) GD from p(0) = 0 goes to the GMM, from (2,0,0) to the LMM.

Paper numbers (Fig. 1(a), p(0) = 0, η = 1/L_p, L_p = 20.75): ‖p(t)‖ = 0.37, 2.59, 5.16, 7.43 and
1 − corr = 8.8e−2, 5.4e−2, 3.3e−2, 2.2e−2 at t = 10³…10⁶; normalised GD (lr 0.1, the paper's
optimiser) reaches ‖p‖ ≈ 100 in 1000 steps with 1 − corr ≈ 2.5e−4 (reproduced in ``tests/test_thm2.py``).
UNCERTAIN: the exact form of (ii)/(iii) is not in the slides; the step hypothesis is read as
η ≤ 1/L_p with L_p of (6) as recalled (``verify.geometry.smoothness``).

Hypotheses (``verify.kit.global_descent``): Assumption A for the loss used, Assumption B exact,
ATT-SVM(opt) feasible from its verified certificate, η = 1/L_p rounded down with η ≤ 1/L_p decided
against the certified ball L_p.

How it is checked (an asymptotic claim: evidence over the range computed, never a proof of the limit):
* (ii), the theorem's algorithm: GD from p(0) = 0, 10⁴ steps (4·10³ for n > 1) in high-precision
  midpoint arithmetic: ⟨p(t+1) − p(t), p^mm⟩ > 0 at every step (a certified Tally: Lemma 4 at the
  iterates) and ‖p(t)‖ → ∞ by ``rules.diverges`` against ln t;
* (iii) for n = 1, in depth (``verify.kit.direction``): the gradient flow (GD's limit as η → 0) from
  p(0) = 0 and from an anti-aligned start, stopped exactly at ‖p‖ = 1, 2, 5, …, 10⁴ (softmax gaps
  e^{−10⁴}: fine in arb), 1 − corr(p, p^mm) decided by ``rules.decays`` with the DERIVED rate 2
  (1 − corr ≈ ‖ρ_⊥‖²/(2‖p‖²) for a bounded transverse offset ρ_⊥); a plateau → VIOLATED; too few
  checkpoints → INCONCLUSIVE. Integrator output: evidence (``enclosed=False``). For n > 1 (iii) is not
  asserted: the directions are reported and the verdict rests on (ii); ``direction_for_all_n=True``
  decides them anyway (the false case: Fig. 8's data from (2,0,0) → VIOLATED).

False cases (tests): the above; Fig. 1(b) (B fails) → NOT_APPLICABLE naming Assumption B;
`mmts_infeasible_B` → NOT_APPLICABLE naming "ATT-SVM(opt) feasible".
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Evidence, Figure, Outcome, Series, register
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.data.dataset import Dataset
from verify.geometry.stationarity import feasible_assumption_b_dataset
from verify.kit.direction import direction_figure, flow_directions, log10_upper
from verify.kit.global_descent import (
    descent_hypotheses,
    divergence_evidence,
    gd_checkpoints,
    norm_series,
    norm_trend,
    run_checkpoints,
    step_size_p,
)
from verify.models.attention import LinearLogitModel, one_minus_corr
from verify.numbers.precision import Precision, to_arb

RADII = ("1", "2", "5", "10", "20", "50", "100", "200", "500", "1000", "2000", "5000", "10000")


def evaluate(data: Dataset, prec: Precision, steps: int | None = None, radii=RADII, inits=None,
             direction_for_all_n: bool = False, loss: str = "logistic", figure: bool = True) -> Outcome:
    out = Outcome()
    hyps, _, res = descent_hypotheses(data, "p", loss, prec.dps)
    eta, step = step_size_p(data, loss)
    out.hypotheses = hyps + [step]
    if res is None or not out.applicable():
        return out
    q = list(res.solution)
    qa, qn = [to_arb(x) for x in q], to_arb(sum((x * x for x in q), Fraction(0))).sqrt()
    model = LinearLogitModel.from_dataset(data, "p", loss)
    judge = data.n == 1 or direction_for_all_n
    steps = steps or (10000 if data.n == 1 else 4000)

    # (ii) the theorem's algorithm: GD with η = 1/L_p from p(0) = 0
    run = gd_checkpoints(model, [0] * model.D, eta, run_checkpoints(steps), q=q, quantity=(
        f"(ii) GD (η = 1/L_p, p(0) = 0): min over {steps} steps of ⟨p(t+1) − p(t), p^mm⟩ (projection increases)"))
    out.add(run.increase.evidence(step.detail),
            divergence_evidence(run, f"(ii) GD: ‖p(t)‖ → ∞ (value at t = {steps}; fitted against ln t)",
                                norm_trend(run, "p", qn)))
    gd_omc = [one_minus_corr(p, qa) for t, p in zip(run.steps, run.points) if t > 0]
    out.add(Evidence(f"(iii) GD: 1 − corr(p(t), p^mm) at t = {steps}", gd_omc[-1], note=(
        "1 − corr = " + ", ".join(f"{float(x.mid()):.3g}" for x in gd_omc[-4:]) + " at t = " +
        ", ".join(str(t) for t in run.steps[-4:]) + " (the fixed-step algorithm: logarithmically slow)")))

    # (iii) in depth: the gradient flow stopped at exact norms
    if inits is None:
        m = max(abs(x) for x in q)
        inits = [("0", [Fraction(0)] * model.D), ("−q/‖q‖∞ (anti-aligned)", [-x / m for x in q])]
    runs = flow_directions(out, data, [q], inits, radii, prec.dps, decide=judge, loss=loss,
                           why_not="n > 1: (iii) is not asserted — reported only")
    reached = [float(flow.norms[-1].mid()) for _, flow in runs]
    out.range = (f"‖p‖ ≤ {max(reached):g} along the gradient flow, " if judge and reached else "") + \
        f"t ≤ {steps} GD steps"
    out.cover("(ii) GD from p(0) = 0, η = 1/L_p rounded down" + (
        f"; (iii) the gradient flow (η → 0) from p(0) ∈ {{{', '.join(label for label, _ in inits)}}}" if judge else ""))
    if data.n > 1 and not direction_for_all_n:
        other = [label for label, flow in runs if flow.selected[-1] != model.opt]
        out.notes.append("n > 1: only (ii) is asserted; directions are reported, not judged" + (
            f"; from p(0) = {', '.join(other)} the run ends selecting non-optimal tokens (an LMM), not p^mm — "
            "the paper's point that n = 1 is necessary (App. E, Fig. 8)" if other else ""))
    if figure:
        gx = [float(r.mid()) for t, r in zip(run.steps, run.norms) if t > 0]
        out.figures.append(direction_figure(
            runs, [Series("GD η = 1/L_p, p(0) = 0", gx, [log10_upper(x) for x in gd_omc], "s:")],
            "Theorem 2: 1 − corr(p, p^mm) against ‖p‖", "The gradient flow (GD's limit as η → 0) deep into "
            "saturation; GD with η = 1/L_p covers the first few units of norm."))
        out.figures.append(Figure("norm", "Theorem 2 (ii): ‖p(t)‖ against t", "t", "‖p(t)‖",
                                  norm_series(run, "0", "p", fit=True), logx=True,
                                  caption="Straight on a log-t axis: ‖p(t)‖ ≈ a + b ln t, unbounded."))
    return out


def check(data, prec: Precision) -> Outcome:
    if data.name == "mmts-fig8-substitute":
        return evaluate(data, prec, inits=[("0", [0, 0, 0]), ("(2,0,0) (LMM basin)", [2, 0, 0])])
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [D.mmts_fig1a(), feasible_assumption_b_dataset(n=1, T=4, d=3, seed=seed), D.mmts_fig8_substitute()]


STATEMENT = """\
Under Assumption A, Assumption B, η ≤ 1/L_p and ATT-SVM(opt) feasible, GD from any p(0) has lim ‖p(t)‖ = ∞,
and if n = 1, lim p(t)/‖p(t)‖ = p^mm/‖p^mm‖ (Sec. 2.1, App. B.3). (Part (i), no finite stationary points, is
`mmts.thm2.stationary`.)

Evidence over the range computed: GD with η = 1/L_p (certified per-step growth of ⟨p, p^mm⟩; ‖p(t)‖ diverging
against ln t) and, for n = 1, the gradient flow to ‖p‖ = 10⁴ (1 − corr decaying at the derived rate 2 against
‖p‖).
"""

CLAIM = register(Claim(id="mmts.thm2", paper="mmts", number="Theorem 2", kind="asymptotic",
                       title="Global convergence of GD under Assumption B: norm diverges; for n = 1 direction → p^mm",
                       statement=STATEMENT, check=check, default_datasets=default_datasets,
                       aliases=("global-gd-convergence", "norm-diverges"),
                       parameters=(
                           Parameter("p(0)", "from any p(0)", "range",
                                     "(ii) GD from p(0) = 0; (iii) (n = 1) the gradient flow from 0 and −q/‖q‖∞ "
                                     "(named in the verdict)"),
                           Parameter("η", "every η ≤ 1/L_p", "range",
                                     "η = 1/L_p rounded down (GD) and, for (iii), its η → 0 limit, the gradient flow "
                                     "(named in the verdict)"))))
