"""tfsvm Theorem 6 — global convergence of W-GD from W(0) = 0 after a good first step (v1 §4.2, App. B.4).

Statement (v1). Under Assumption A, with unique optimal tokens and W^mm existing, and Assumption C —
(x_it − x_{i,opt})ᵀ∇L(0) z_i > 0 for all t ≠ opt_i, i (the first GD step from 0 separates every optimal
token) — W-GD from W(0) = 0 with η(0) ≤ O(1/‖W^mm‖_F) and η(k) ≤ O(1/L_W) for k ≥ 1 satisfies
W(k)/‖W(k)‖_F → W^mm/‖W^mm‖_F. (No Assumption B.)

Hypotheses, computed on the data: Assumption A for the loss used; unique optimal tokens; Att-SVM(opt) feasible
(verified certificate); Assumption C with ∇L(0) in closed form, ∇L(0) = (1/(nT))Σ_i ℓ'(γ̄_i)Σ_t(γ_it − γ̄_i)x_it z_iᵀ
(DERIVED: uniform attention at 0), each margin exact in its ℓ'(γ̄)-groups and its sign certified
(``verify.kit.good_start``); the steps, η(k) = 1/L_W (v1 Lemma 4, rounded down), decided against certified balls.

UNCERTAIN in the spec — the range of η(0), DECIDED HERE. The statement bounds the first step from above only,
η(0) ≤ O(1/‖W^mm‖_F) with an unspecified constant c: read as printed, it claims the conclusion for every first step
η(0) ∈ (0, c/‖W^mm‖_F] — every small step included, whatever c is. (The proof needs the opposite: W(1) deep in the
cone C̄_{μ,R} with R large, i.e. a *large* first step, ‖W(1)‖ = η(0)‖∇L(0)‖ ≥ R.) So the check covers the small
steps (coverage "search", docs/parameters.md): a ladder η(0)·‖W^mm‖_F = 1, 1/100 and the η(0) → 0 limit (W(1) = 0:
GD from 0), each followed through GD and the flow, stopping at the first that fails. A failure at any rung refutes
the statement for every c ≥ that rung, and a failure in the η(0) → 0 limit refutes it for every c. FINDING:
``thm6_small_step`` meets Assumption C, yet η(0) = 1/‖W^mm‖_F (and every η(0) ≤ 100/‖W^mm‖_F tried) ends at an LMM
(1 − corr(W, W^mm) plateaus at ≈ 0.47, 1 − corr to the LMM ≈ 2·10⁻⁵ at ‖W‖_F = 1000), while first steps of
300/‖W^mm‖_F and 1000/‖W^mm‖_F reach the GMM (``eta0_scales=(300,)`` → HOLDS as evidence): Theorem 6 needs a
lower bound on η(0), which v1 does not state.

How it is checked (kind asymptotic: evidence over ‖W‖_F ≤ 10³): the exact first step W(1) = −η(0)∇L(0)
(its margins are C's margins times η(0)); then ``GD_STEPS`` steps with η = 1/L_W (exact iterates,
``verify.kit.global_descent.gd_checkpoints``; GD at this step moves ‖W‖ like ln k, so 1 − corr(W(k), W^mm)
is shown there); then the arc-length gradient flow — GD's η → 0 limit, labelled as such (Radau IIA at the
working precision, ``verify.kit.direction``; evidence, no global error bound) — from W(K) through
‖W‖_F = 1, 2, 5, … 1000: 1 − corr(W, W^mm) → 0 decided by ``rules.decays`` at the DERIVED rate 2 (a bounded
transverse offset). Where the flow selects α ≠ opt at the end, the LMM is named (certified locally
optimal, ``verify.svm.geometry``) with 1 − corr(W, W^mm_α). The spec's DERIVED numbers (25 datasets n = T = 4,
d = 3: median 1 − corr 8.3e−4 at ‖W‖ = 60) are for comparison only.

False cases (tests): ``thm6_small_step`` (C met) → VIOLATED (evidence) at η(0) = 1/‖W^mm‖_F, HOLDS with a first step
300/‖W^mm‖_F; D-T2 fails C (margin −0.6367 on sequence 1) → NOT_APPLICABLE naming Assumption C; with
C not required, ``thm6_lmm`` (a seeded search, ``verify.data.tfsvm``) fails C and its flow from 0 settles at
an LMM ≠ GMM → VIOLATED (1 − corr(W, W^mm) plateaus).
"""
from __future__ import annotations

import math
from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Outcome, Series, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.kit.assumptions import assumption_a, step_size, w_mm_hypotheses
from verify.kit.direction import direction_figure, flow_directions, log10_upper
from verify.kit.global_descent import gd_checkpoints, step_size_W
from verify.kit.good_start import assumption_c, good_start_dataset, gradient_at_zero
from verify.models.attention import LinearLogitModel, dot, one_minus_corr
from verify.numbers.precision import Precision, to_arb
from verify.svm.geometry import locally_optimal_selections

GD_STEPS = 300                                  # GD steps with η = 1/L_W after the first step
RADII = ("1", "2", "5", "10", "20", "50", "100", "200", "500", "1000")  # ‖W‖_F ladder of the flow (the range)
THEORY_RATE = 2                                 # DERIVED: 1 − corr ≈ ‖ρ_⊥‖²/(2‖W‖²)
#: first steps η(0)·‖W^mm‖_F tried in turn (decided below: the statement covers every η(0) ≤ c/‖W^mm‖, c unspecified,
#: so every small first step; 0 is the η(0) → 0 limit, GD from W(1) = 0)
ETA0_SCALES = (Fraction(1), Fraction(1, 100), Fraction(0))


def eta0_of(scale: Fraction, S: Fraction) -> Fraction:
    """η(0) = scale/‖W^mm‖_F rounded down to 12 decimals, exact (S = ‖W^mm‖_F²; 0 for scale 0)."""
    if scale == 0:
        return Fraction(0)
    return Fraction(math.isqrt(10**24 * scale.numerator ** 2 * S.denominator // (scale.denominator ** 2 * S.numerator)),
                    10**12)


def evaluate(data: Dataset, prec: Precision, require_c: bool = True, loss: str = "logistic", gd_steps: int = GD_STEPS,
             radii=RADII, figure: bool = True, eta0_scales=ETA0_SCALES) -> Outcome:
    """``require_c=False``: Assumption C computed and reported, not required (the false case). ``eta0_scales``: the
    first steps η(0)·‖W^mm‖_F tried in turn, from the largest down (the ladder stops at the first that fails)."""
    hyps, wmm = w_mm_hypotheses(data, prec.dps)
    out = Outcome(hypotheses=[assumption_a(loss, data)] + hyps)
    if not out.applicable():
        return out
    C = assumption_c(data, loss)
    if require_c:
        out.hypotheses.append(C)
    else:
        out.notes.append(f"Assumption C NOT required: {'met' if C.met else 'not met'} ({C.detail})")
    q = list(wmm)
    qn = to_arb(sum((x * x for x in q), Fraction(0))).sqrt()
    S = sum((x * x for x in q), Fraction(0))
    scales = sorted({Fraction(x) for x in eta0_scales}, reverse=True)
    c = max(Fraction(1), scales[0])  # the O(1/‖W^mm‖) constant is unspecified: 1, or the largest first step asked for
    out.hypotheses.append(step_size(eta0_of(scales[0], S) / c, qn, f"first steps η(0) ≤ c/‖W^mm‖_F, c = {c} (the "
                                    "O(1/‖W^mm‖) constant is unspecified; every η(0) tried is ≤ the largest)"))
    eta, step = step_size_W(data, loss)
    out.hypotheses.append(step)
    if not out.applicable():
        return out
    model = LinearLogitModel.from_dataset(data, "W", loss)
    qa = [to_arb(x) for x in q]
    grad0 = gradient_at_zero(data, loss)
    runs, extra, tried = [], [], []
    for scale in scales:  # the ladder: η(0) = scale/‖W^mm‖, down to the η(0) → 0 limit
        eta0 = eta0_of(scale, S)
        tried.append(str(scale))
        name = f"η(0) = {scale}/‖W^mm‖_F" if scale else "η(0) → 0 (W(1) = 0)"
        w1 = [arb((-to_arb(eta0) * g).mid()) for g in grad0]
        run = gd_checkpoints(model, w1, eta, [0, gd_steps])
        norm1 = float(dot(w1, w1).sqrt().mid())
        if scale:
            out.add(Evidence(f"{name}: 1 − corr(W(1), W^mm) after the first step W(1) = −η(0)∇L(0)",
                             one_minus_corr(w1, qa), note=f"‖W(1)‖_F = {norm1:.4g}; η(0) = {float(eta0):.6g}"))
        out.add(Evidence(f"{name}: 1 − corr(W(k), W^mm) after k = {gd_steps} more GD steps (η = 1/L_W)",
                         one_minus_corr(run.points[-1], qa), note=f"‖W‖_F = {float(run.norms[-1].mid()):.4g} "
                         f"(GD at η = 1/L_W grows ‖W‖ like ln k: the deep part follows the flow)"))
        label = f"W({gd_steps + 1}) (GD from 0, {name})"
        before = len(out.evidence)
        got = flow_directions(out, data, [q], [(label, [arb(x.mid()) for x in run.points[-1]])], radii, prec.dps,
                              decide=True, loss=loss, param="W", symbol="W", target="W^mm", part="W(k)/‖W(k)‖ → "
                              "Ŵ^mm:")
        for _, flow in got:
            name_lmm(out, data, flow, prec.dps)
        runs += got
        if scale and norm1 > 0:
            extra.append(Series(f"GD, {name}: W(1), W({gd_steps + 1})", [norm1, float(run.norms[-1].mid())],
                                [log10_upper(one_minus_corr(w, qa)) for w in (w1, run.points[-1])], "s"))
        if any(e.decide() is False for e in out.evidence[before:]):
            break  # a first step the statement covers fails: the ladder stops
    if runs:
        out.range = (f"‖W‖_F ≤ {float(runs[-1][1].norms[-1].mid()):g} (gradient flow after {gd_steps + 1} GD steps); "
                     f"first steps η(0)·‖W^mm‖_F ∈ {{{', '.join(tried)}}} (tried in turn, largest first; 0: the η(0) → 0 limit)")
    if figure and runs:
        out.figures.append(direction_figure(runs, extra=extra, symbol="W", target="W^mm",
                                            title="1 − corr(W, W^mm): GD's first steps, then the gradient flow"))
    return out


def name_lmm(out: Outcome, data: Dataset, flow, dps: int) -> None:
    """Where the flow selects α ≠ opt at the end, name the locally-optimal direction it settles at (the witness)."""
    sel = flow.selected[-1]
    if sel == tuple(o[0] for o in data.optimal_tokens()):
        return
    lmm = [r for a, r in locally_optimal_selections(data, "W", dps) if a == sel]
    qa = [to_arb(x) for x in lmm[0].solution] if lmm else None
    trend = [one_minus_corr(p, qa) for p in flow.points[-4:]] if lmm else []
    out.add(Evidence(f"the flow selects α = {sel} ≠ opt: 1 − corr(W, W^mm_α) at ‖W‖_F = {float(flow.norms[-1].mid()):g}",
                     trend[-1] if lmm else "α not locally optimal",
                     note=("α locally optimal (certified): an LMM ≠ GMM; 1 − corr(W, W^mm_α) = " +
                           ", ".join(f"{float(v.mid()):.3g}" for v in trend) + " at ‖W‖_F = " +
                           ", ".join(f"{float(r.mid()):g}" for r in flow.norms[-4:]) if lmm else "") +
                     f"; 1 − corr(W, W^mm) = {float(flow.omc[-1].mid()):.4g} at the end"))


def default_datasets(seed: int = 0):
    """Two seeded datasets meeting C (d = 2: smaller than the spec's n = T = 4, d = 3 runs, for time) and the finding
    ``thm6_small_step`` (C met, small first steps end at an LMM). D-T2, which fails C, is a test (NOT_APPLICABLE),
    not a default: worst-wins would make it the headline."""
    return [good_start_dataset(seed, n=2, T=3, d=2), good_start_dataset(seed, n=3, T=3, d=2), D.thm6_small_step()]


STATEMENT = """\
Assumption A, unique optimal tokens, W^mm exists, and Assumption C ((x_it − x_{i,opt})ᵀ∇L(0) z_i > 0: the first GD
step from 0 separates every optimal token): W-GD from W(0) = 0 with η(0) ≤ O(1/‖W^mm‖_F) and η(k) ≤ O(1/L_W)
converges in direction, W(k)/‖W(k)‖_F → W^mm/‖W^mm‖_F (v1 Thm 6, App. B.4). C is decided on the closed form
∇L(0) = (1/(nT))Σ_i ℓ'(γ̄_i)Σ_t(γ_it − γ̄_i)x_it z_iᵀ (certified signs). As printed the bound on η(0) is an upper
bound with an unspecified constant, so every small first step is covered: checked with η(0)·‖W^mm‖_F = 1, 1/100 and
η(0) → 0 in turn, GD steps η = 1/L_W, then the gradient flow (labelled) to ‖W‖_F = 1000: 1 − corr(W, W^mm) → 0 at the
derived rate 2 (evidence). FINDING: on thm6_small_step (C met) every first step ≤ 100/‖W^mm‖_F tried ends at an LMM,
first steps of 300/‖W^mm‖_F reach the GMM — the theorem needs a lower bound on η(0).
D-T2 fails C (margin −0.637 on sequence 1): not applicable; without C a flow from 0 can settle at an LMM ≠ GMM.
"""

CLAIM = register(Claim(id="tfsvm.thm6", paper="tfsvm", number="Theorem 6", kind="asymptotic",
                       title="Global convergence of W-GD from 0 to W^mm under Assumption C (good first step)",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("global-convergence-good-initial-gradient",),
                       parameters=(
                           Parameter("η(0)", "every first step η(0) ≤ O(1/‖W^mm‖_F) (upper bound, constant unspecified)",
                                     "search", "a ladder η(0)·‖W^mm‖_F = 1, 1/100, then the η(0) → 0 limit (GD from 0), "
                                     "each through GD and the flow, stopping at the first that fails",
                                     option="eta0_scales", kind="rationals", low=0, high=10000, hunt=True),
                           Parameter("η(k)", "every η(k) ≤ O(1/L_W), k ≥ 1", "range",
                                     "η = 1/L_W for 300 GD steps, then the gradient flow (η → 0) — named in the range"))))
