"""mmts Theorem 2 (i)–(ii) — no finite stationary point, and GD diverges in norm (Sec. 2.1, App. B.3).

Statement (spec `mmts.thm2`, parts (i) and (ii); registered separately from the directional part (iii),
which is `mmts.thm2`). Under Assumption A, Assumption B (γ_it = γ_iτ < γ_{i,opt} for t, τ ≠ opt_i) and
ATT-SVM(opt) feasible (p^mm exists — used through Lemma 4; the spec lists it as a hypothesis):

  (i)  no p ∈ ℝ^d has ∇L(p) = 0   (Lemma 4: ⟨∇L(p), p^mm⟩ < 0 for all p);
  (ii) GD p(t+1) = p(t) − η∇L(p(t)) with η ≤ 1/L_p, any p(0), has ‖p(t)‖ → ∞
       (Lemma 6 gives ∇L(p(t)) → 0; with (i) and the bound of Lemma 4 no bounded subsequence exists).

Paper/spec numbers: Fig. 1(a), p(0) = 0, η = 1/L_p (L_p = 20.75): ‖p(t)‖ = 0.37, 2.59, 5.16, 7.43 at
t = 10³, 10⁴, 10⁵, 10⁶ (≈ +2.3 per decade, i.e. b ≈ 1 in ‖p‖ ≈ a + b ln t).

How it is checked (engine ``verify.geometry.stationarity.stationary_evidence``; all balls are certified):

  1. the largest ⟨∇L(p), p^mm⟩ over adversarial p (aligned, anti-aligned, selecting non-optimal tokens,
     keys, random; ‖p‖∞ from 0 to 1000) is certainly < 0, so ∇L(p) ≠ 0 at each;
  2. for R = 1, 10, 100, 1000 a certified c(R) > 0 with ‖∇L(p)‖ ≥ c(R) on the whole ball ‖p‖ ≤ R,
     from Lemma 4's derived bound (proved in the spec; checked numerically by `mmts.lemma4`) with
     s_opt, 1 − s_opt and |ℓ'| bounded over the ball — a proof that no stationary point lies in it;
  3. GD with η = 1/L_p (L_p of (6) from ``verify.geometry.smoothness``, rounded down) from p(0) = 0 and from
     an anti-aligned start: ⟨p(t+1) − p(t), p^mm⟩ = −η⟨∇L(p(t)), p^mm⟩ > 0 certified at every step —
     the projection on p^mm increases strictly;
  4. ‖p(t)‖ increasing over the last checkpoints, the fit ‖p(t)‖ ≈ a + b ln t, ‖∇L(p(t))‖ → 0.
  Items 1–2 are certified for all points of the probes / balls; items 3–4 are evidence over the
  range reached (10⁴ steps here), not a proof of the limit.

Negative control (spec Thm 2 false case (c)): `mmts_infeasible_B` — keys (0,0) score 1, (±1,0) score 0,
n = 1; Assumption B holds but ATT-SVM(opt) is infeasible (the optimal key is the midpoint of the
others): ∇L(0) = 0 exactly. The check returns NOT_APPLICABLE naming "ATT-SVM(opt) feasible"; with
``require_feasible=False`` it reports the exact zero gradient and GD settling at 0 → VIOLATED.
"""
from __future__ import annotations

from flint import arb

from lemmas.mmts.lemma4 import hypotheses as lemma4_hypotheses
from verify.claims import Claim, Hypothesis, Outcome, register
from verify.data import mmts as D
from verify.data.dataset import Dataset
from verify.geometry.smoothness import smoothness_constant
from verify.geometry.stationarity import (
    assumption_b,
    exact_gradient_at_zero,
    feasible_assumption_b_dataset,
    loss_is_decreasing,
)
from verify.kit.stationarity import stationary_evidence
from verify.numbers.precision import Precision


def step_size(data: Dataset, loss: str = "logistic"):
    """η = 1/L_p of (6)/(24), rounded down (so η ≤ 1/L_p holds for the exact constant)."""
    Lp = smoothness_constant(data, loss)
    eta = arb((1 / arb(Lp.value.upper())).lower())
    return eta, f"η = 1/L_p, L_p = {float(Lp.value.mid()):.6g} ({Lp.form}-form of (6))"


def evaluate(data: Dataset, prec: Precision, require_feasible: bool = True, steps: int | None = None,
             loss: str = "logistic", figure: bool = True) -> Outcome:
    out = Outcome()
    if require_feasible:
        hyps, B, res = lemma4_hypotheses(data, "p", loss, prec, require_B=True)
        out.hypotheses = hyps
        if res is None:
            if all(h.met for h in hyps[:2]) and exact_gradient_at_zero(data, "p")[0]:
                out.notes.append("without a feasible ATT-SVM the conclusion fails here: ∇L(0) = 0 exactly "
                                 "(uniform attention) — a finite stationary point")
            return out
        q = list(res.solution)
        gaps = B.gaps
    else:
        ok, detail = loss_is_decreasing(loss, data)
        B = assumption_b(data)
        out.hypotheses = [Hypothesis("Assumption A: ℓ' < 0 on [−B, B]", ok, detail)]
        out.notes.append("hypothesis 'ATT-SVM(opt) feasible' NOT enforced (test mode); Assumption B: "
                         + ("met" if B.met else "not met"))
        q, gaps = None, None
        from verify.geometry.stationarity import gmm

        if all(len(o) == 1 for o in data.optimal_tokens()):
            res = gmm(data, "p", prec.dps)
            if res.status == "optimal":
                q, gaps = list(res.solution), (B.gaps if B.met else None)
    eta, note = step_size(data, loss)
    if steps is None:  # the budget: ~0.7 s per 10⁴ steps and sequence, run at two precisions
        steps = 10000 if data.n == 1 else 4000
    stationary_evidence(out, data, prec, "p", q, gaps, eta, steps=steps, loss=loss, symbol="p",
                        eta_note=note, figure=figure)
    return out


def check(data, prec: Precision) -> Outcome:
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [
        D.mmts_fig1a(),
        D.mmts_fig8_substitute(),
        feasible_assumption_b_dataset(n=2, T=4, d=4, seed=seed),
    ]


CLAIM = register(Claim(
    id="mmts.thm2.stationary",
    paper="mmts",
    number="Theorem 2 (i)–(ii)",
    title="No finite stationary points; GD diverges in norm (Assumption B)",
    kind="asymptotic",
    statement=(
        "Under Assumption A, Assumption B and ATT-SVM(opt) feasible: (i) ∇L(p) ≠ 0 for every p ∈ ℝ^d "
        "(Lemma 4: ⟨∇L(p), p^mm⟩ < 0); (ii) GD with η ≤ 1/L_p from any p(0) has ‖p(t)‖ → ∞ (App. B.3).\n\n"
        "Evidence: certified sign of ⟨∇L(p), p^mm⟩ at adversarial p; certified lower bounds of ‖∇L‖ on balls "
        "‖p‖ ≤ R (R ≤ 1000); GD with η = 1/L_p: the projection on p^mm increases at every step (certified), "
        "‖p(t)‖ grows like a + b ln t over the range reached."
    ),
    check=check,
    default_datasets=default_datasets,
    aliases=("no-finite-stationary-points",),
    module=__name__,
))
