"""tfsvm Theorem 3 — no stationary point of L(W); W-GD has ‖∇L(W(k))‖_F → 0 and ‖W(k)‖_F → ∞ (v1 §4.1,
proof App. B.1 via Lemmas 8, 9).

Statement (v1). L(W) = (1/n) Σ_i ℓ(Y_i vᵀX_iᵀ S(X_i W z_i)). Under Assumption A and Assumption B — unique
optimal tokens and B.1 (every non-optimal token is a support vector of W^mm: (x_{i,opt} − x_it)ᵀW^mm z_i = 1)
**or** B.2 (equal non-optimal scores γ_it = γ_iτ < γ_{i,opt}):
  (1) there is no W ∈ ℝ^{d×d} with ∇L(W) = 0;
  (2) W-GD with η ≤ O(1/L_W) from any W(0): ‖∇L(W(k))‖_F → 0 and ‖W(k)‖_F → ∞ (no directional claim).

The printed hypotheses omit feasibility of Att-SVM(opt); the proof uses W^mm through Lemma 9. Without it
(1) is false: D-STAT (n = 2, T = 2, d = 1, x_i = (1, 0), v = 1, z = (1, −1)) meets A and B.2 (T = 2), its
Att-SVM asks w ≥ 1 and −w ≥ 1, and ∇L(0) = 0 exactly (uniform attention; the two sequences cancel).
Default: "W^mm exists" is required (as the proof does) → NOT_APPLICABLE naming it; ``require_feasible=
False`` encodes the printed hypotheses only → VIOLATED (certified).

Hypotheses (``verify.kit.global_descent.tfsvm_hypotheses``): Assumption A for the loss used; unique optimal
tokens; B.1 (decided exactly on the rational W^mm) or B.2 (exact); Att-SVM(opt) feasible from its verified
certificate; η = 1/L_W rounded down, η ≤ 1/L_W decided against the certified L_W of v1 Lemma 4 (the
theorem's "η ≤ O(1/L_W)" read as η ≤ 1/L_W, for which the descent lemma is proven).

How it is checked. (1) certified: ⟨∇L(W), W^mm⟩ < 0 at every adversarial probe point (Tally; Lemma 9's
sign), and c(R) > 0 with ‖∇L(W)‖_F ≥ c(R) on the balls ‖W‖_F ≤ R = 1 … 1000. (2) evidence over the GD
steps run (η = 1/L_W, exact iterates; 5000 steps, doubled up to 2·10⁴ while a rule is undecided) from three
starts ("any W(0)"), run together (``verify.kit.global_descent.GDLockstep``): 0; a seeded random W(0)
(entries in [−1, 1]); W(0) = c·W^mm_α on the ray of a locally-optimal α ≠ opt (an LMM, enumerated and
certified by ``verify.svm.geometry``; ‖W(0)‖_F ≈ 3, where D-T2's GD stays at the LMM), or on the GMM ray
when opt is the only one. From 0 the projection ⟨W(k), W^mm⟩ increases at every step (certified Tally,
Lemma 9 at the iterates). Per start: ‖∇L(W(k))‖_F → 0 by ``rules.decays`` at the DERIVED rate 1 against ηk + t₀ and ‖W(k) − W(0)‖_F →
∞ by ``rules.diverges`` against ln(1 + ηk/t₀), both on the last four checkpoints (second half of the run;
law and clock in ``verify.kit.global_descent.GRADIENT_DECAY_RATE``); a rule's failure counts only beyond
the descent lemma's step budget (``gd_limits``). Reported: the tokens selected at the end (D-T2: the LMM
start keeps α — the theorem makes no directional claim), the descent-lemma bound on the steps in ‖W‖ ≤ R.

False cases (tests): D-STAT as above, and ``thm3_cancelling`` (constructed: two different sequences, equal mean
scores, queries 1 and −1/4, ∇L(0) = 0 exactly) → VIOLATED with the printed hypotheses, NOT_APPLICABLE by default;
D-NB (neither B.1 nor B.2) → NOT_APPLICABLE naming Assumption B.
"""
from __future__ import annotations

import random
from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Figure, Outcome, Series, register
from verify.claims.registry import Parameter
from verify.data.dataset import Dataset
from verify.data.tfsvm import b1_only, d_t2
from verify.geometry.stationarity import ball_lower_bound, exact_gradient_at_zero, feasible_assumption_b_dataset
from verify.geometry.tfsvm_cones import lmm_directions
from verify.kit.global_descent import gd_limits_until_decided, no_stationary_evidence, step_size_W, tfsvm_hypotheses
from verify.models.attention import LinearLogitModel
from verify.numbers.exact import float64_or_undecided
from verify.numbers.precision import Precision, log10_abs

LENGTHS = (5000, 10000, 20000)  # GD steps (η = 1/L_W), doubled while a rule is undecided (D-T2: hump to k ≈ 4000)
RAY_NORM = 3        # ‖W(0)‖_F on the LMM / GMM ray (the spec's D-T2 start 3·Ŵ^mm_α)
LMM_LIMIT = 64      # enumerate the selections α ∈ [T]^n when T^n is at most this


def starts(data: Dataset, q, dps: int, seed: int = 0) -> list[tuple[str, tuple]]:
    """(label, exact W(0)): 0, a seeded random point, and a point on an LMM ray (else the GMM ray)."""
    D = data.d ** 2
    rng = random.Random(seed)
    out = [("0", tuple(Fraction(0) for _ in range(D))),
           (f"random (seed {seed}, entries in [−1, 1])", tuple(Fraction(rng.randint(-10, 10), 10) for _ in range(D)))]
    if q is None:
        return out
    rays = lmm_directions(data, dps, limit=LMM_LIMIT)
    label, w = (f"{RAY_NORM}·Ŵ^mm_α, LMM ray α = {rays[0][0]}", rays[0][1]) if rays else \
        (f"{RAY_NORM}·Ŵ^mm (GMM ray: no other locally-optimal α)", list(q))
    c = Fraction(RAY_NORM / float64_or_undecided(sum(Fraction(x) ** 2 for x in w), "‖ray‖² of the start")
                 ** 0.5).limit_denominator(1000)
    return out + [(label, tuple(c * Fraction(x) for x in w))]


def evaluate(data: Dataset, prec: Precision, require_feasible: bool = True, lengths=LENGTHS,
             loss: str = "logistic", figure: bool = True, seed: int = 0) -> Outcome:
    """``require_feasible=False``: the printed hypotheses only — A, unique optimal tokens, B, the step size; not "W^mm
    exists" (W^mm is used when it exists). Without W^mm, B.1 is undefined, so B then means B.2."""
    out = Outcome()
    hyps, feasible, q, gaps = tfsvm_hypotheses(data, loss, prec.dps)
    eta, step = step_size_W(data, loss)
    if require_feasible:
        out.hypotheses = hyps + [feasible, step]
    else:
        out.hypotheses = hyps + [step]  # Assumption B is printed: only "W^mm exists" is dropped
        out.notes.append("hypothesis 'W^mm exists' NOT enforced (the printed statement): " +
                         ("met" if feasible.met else "not met") +
                         ("" if hyps[2].met else "; Assumption B not met either (B.2 and B.1 both fail)"))
    if not out.applicable():
        if feasible.met is False and hyps[1].met and exact_gradient_at_zero(data, "W")[0]:
            out.notes.append("without W^mm the conclusion fails here: ∇L(0) = 0 exactly (uniform attention)")
        return out
    model = LinearLogitModel.from_dataset(data, "W", loss)
    # ----- (1) no stationary point (certified) ----------------------------------------------------------
    no_stationary_evidence(out, data, model, "W", q, gaps, symbol="W")
    # ----- (2) GD from several starts: ‖∇L‖ → 0, ‖W‖ → ∞ (rules over the steps run) ------------------------
    inits = starts(data, q, prec.dps, seed)
    bound = (lambda R: ball_lower_bound(model, q, R, gaps)) if gaps is not None else None
    runs, items, K = gd_limits_until_decided(
        model, [w for _, w in inits], eta, q, lengths=lengths, symbol="W", dps=prec.dps, ball_bound=bound,
        quantity="GD from W(0) = 0: min over the GD steps of ⟨W(k+1) − W(k), W^mm⟩", tally=[lab == "0" for lab, _ in inits])
    for (label, _), run, (grad, norm) in zip(inits, runs, items):
        if run.increase is not None:
            out.add(run.increase.evidence(f"from W(0) = {label}: ⟨W(k), Ŵ^mm⟩ went from "
                                          f"{float(run.projections[0].mid()):.6g} to {float(run.projections[-1].mid()):.6g}"))
        grad.quantity, norm.quantity = f"GD from W(0) = {label}: {grad.quantity}", f"GD from W(0) = {label}: {norm.quantity}"
        out.add(grad, norm, Evidence(f"GD from W(0) = {label}: tokens selected at k = {run.steps[-1]}",
                                     str(run.selected[-1]), note="shown: Theorem 3 makes no directional claim"))
    if bound is not None:
        for R in ("1", "10"):
            c = bound(R)
            out.add(Evidence(f"GD from W(0) = 0: certified max number of steps with ‖W(k)‖_F ≤ {R}",
                             arb((2 * runs[0].losses[0] / (eta * c * c)).upper()),
                             note="2(L(0) − L⋆)/(η c(R)²): the descent lemma (v1 Lemma 8, η ≤ 1/L_W) with the "
                                  "certified ‖∇L‖ ≥ c(R) on the ball — finite for every R, the proof's route to ‖W‖ → ∞"))
    out.range = f"k ≤ {K} GD steps (η = 1/L_W) from {len(inits)} starts"
    out.cover(f"(2) W(0) ∈ {{{'; '.join(label for label, _ in inits)}}}, η = 1/L_W rounded down")
    out.notes.append(step.detail)
    if figure:
        out.figures += figures(inits, runs)
    return out


def figures(inits, runs) -> list[Figure]:
    def series(attr, f):
        return [Series(f"W(0) = {label}"[:48], [t for t in r.steps if t > 0],
                       [f(v) for t, v in zip(r.steps, getattr(r, attr)) if t > 0], "-o")
                for (label, _), r in zip(inits, runs)]

    def log10(v):  # at the working precision; an exact 0 is not plotted
        y = log10_abs(v)
        return None if y == float("-inf") else y
    return [Figure("norm", "‖W(k)‖_F along GD (η = 1/L_W)", "k (GD steps)", "‖W(k)‖_F",
                   series("norms", lambda v: float(v.mid())), logx=True,
                   caption="Grows like a + b ln k (straight on a log-k axis) from every start."),
            Figure("gradient", "‖∇L(W(k))‖_F along GD (η = 1/L_W)", "k (GD steps)", "log10 ‖∇L(W(k))‖_F",
                   series("grad_norms", log10), logx=True,
                   caption="A hump while attention flips, then ≈ ‖W^mm_α‖/(ηk): slope −1 against log10 k.")]


def default_datasets(seed: int = 0):
    return [d_t2(), b1_only(), feasible_assumption_b_dataset(n=2, T=3, d=3, seed=seed, param="W")]


STATEMENT = """\
Under Assumption A and Assumption B (B.1: all non-optimal tokens are support vectors of W^mm, or B.2: equal
non-optimal scores): (1) no W has ∇L(W) = 0; (2) W-GD with η ≤ O(1/L_W) from any W(0) has ‖∇L(W(k))‖_F → 0
and ‖W(k)‖_F → ∞ (v1 §4.1, App. B.1). (1) certified (sign of ⟨∇L(W), W^mm⟩ at adversarial points, ‖∇L‖_F ≥
c(R) > 0 on balls); (2) evidence over 5000–20000 GD steps (η = 1/L_W) from 0, a random W(0) and an LMM ray:
declared rules on ‖∇L(W(k))‖_F (derived rate 1) and on ‖W(k) − W(0)‖_F against ln k.

The printed hypotheses omit that W^mm exists (Att-SVM(opt) feasible), which the proof uses (Lemma 9). Without it
(1) fails: on D-STAT (n = 2, T = 2, d = 1, x_i = (1, 0), v = 1, z = (1, −1); B.2 holds since T = 2, Att-SVM asks
w ≥ 1 and −w ≥ 1) ∇L(0) = 0 exactly, a finite stationary point, and GD from elsewhere converges to it. Checked as
the proof reads (W^mm required; D-STAT: NOT_APPLICABLE); with `require_feasible=False` D-STAT is VIOLATED
(certified). With W^mm existing the theorem holds on every dataset tried.
"""

CLAIM = register(Claim(id="tfsvm.thm3", paper="tfsvm", number="Theorem 3", kind="asymptotic",
                       title="No stationary points of L(W); W-GD: ‖∇L‖ → 0 and ‖W‖ → ∞ (Assumption B.1 or B.2)",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("no-stationary-points", "norm-diverges", "no-stationary-points-W",
                                "tfsvm.thm3.stationary"),
                       parameters=(
                           Parameter("W", "(1) every W ∈ ℝ^{d×d}", "range",
                                     "every W with ‖W‖_F ≤ 1000 (a certified lower bound c(R) > 0 of ‖∇L‖ on the balls) "
                                     "and adversarial probe points up to ‖W‖∞ = 1000 (named in the verdict)"),
                           Parameter("W(0)", "(2) from any W(0)", "range",
                                     "0, one seeded random point and 3·Ŵ^mm_α on an LMM ray (else the GMM ray) (named in "
                                     "the verdict)"),
                           Parameter("η", "(2) η ≤ O(1/L_W)", "range", "η = 1/L_W rounded down (named in the verdict)"))))
