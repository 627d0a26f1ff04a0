"""tfsvm Theorem 5 — global convergence of W-GD under approximately equal non-optimal scores (v1 §4.2,
App. B.3).

Statement (as printed in v1). Under Assumption A, for any W(0) there is a data-dependent δ > 0 such
that, if |γ_it − γ_iτ| ≤ δ for all t, τ ≠ opt_i and all i, W-GD with η ≤ O(1/L_W) from W(0) satisfies
W(k)/‖W(k)‖_F → W^mm/‖W^mm‖_F.

FLAWED in v1 (as Theorem 4): App. B.3 perturbs the data to an equal-score dataset (B.2) and invokes
Theorem 4, so it inherits Theorem 4's gap — whenever the spread is 0 the score condition holds for every
δ > 0 and the statement is Theorem 4's. On D-T2 (T = 2: one non-optimal token per sequence, spread 0)
W-GD from (4179/985)·W^mm_α (4179/985 ≈ 3√2), ‖W(0)‖_F ≈ 3, stays trapped at the locally-optimal W^mm_α for every
η ∈ (0, 1/L_W]: lim 1 − corr(W(k), W^mm) = 1 − 1/√10 (certified, ``verify.geometry.trap``).

Hypotheses (computed): Assumption A; unique optimal tokens; the score condition — DECIDED HERE: δ is
existential and data-dependent (v1 gives no formula), so the condition is met for every δ when the
spread max_i(max − min of the non-optimal scores) is exactly 0 (always for T = 2), and undecided
otherwise (T ≥ 3 with spread s > 0: met only if δ ≥ s; INCONCLUSIVE naming it); W^mm exists (verified
SVM certificate, used by the proof); η = 1/L_W rounded down, η ≤ 1/L_W certified.

How it is checked: ``verify.kit.global_convergence`` as for ``tfsvm.thm4`` (starts 0, a seeded random start and the
locally-optimal rays; the certified trap at every ray where its inequalities are proven; W-GD at those
starts). Where a trap is certified the gradient-flow evidence and its figure are Theorem 4's (same witness;
``flows="auto"`` runs them here too — off by default for time); without one, the flows from every start decide
(evidence, as in Theorem 4), along each locally-optimal ray a ladder of starts until one stays trapped
(``thm4_ladder``, n = 3: VIOLATED as evidence at ‖W(0)‖_F ≈ 10‖W^mm_α‖).

False cases (tests): D-T2 and ``thm4_trap`` → VIOLATED (certified); ``b1_only`` (T = 3, non-optimal
scores 0 and 1/2) → INCONCLUSIVE naming the δ condition; D-STAT (no W^mm) → NOT_APPLICABLE.
"""
from __future__ import annotations

from verify.claims import Claim, Outcome, register
from verify.data import tfsvm as D
from verify.kit.global_convergence import PARAMETERS, global_convergence, hypotheses
from verify.numbers.precision import Precision


def evaluate(data, prec: Precision, loss: str = "logistic", gd_steps: int = 2000, depth: int = 500,
             random_starts: int = 1, seed: int = 0, flows: str = "untrapped") -> Outcome:
    out = Outcome()
    out.hypotheses, q, eta = hypotheses(data, loss, prec.dps, "delta")
    if not out.applicable():
        return out
    global_convergence(out, data, prec, q, eta, loss=loss, gd_steps=gd_steps, depth=depth,
                       random_starts=random_starts, seed=seed, flows=flows)
    return out


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.thm4_trap()]


STATEMENT = """\
Assumption A; for any W(0) there is a data-dependent δ > 0 such that if |γ_it − γ_iτ| ≤ δ for all t, τ ≠ opt_i,
W-GD with η ≤ O(1/L_W) has W(k)/‖W(k)‖_F → W^mm/‖W^mm‖_F (v1 §4.2, App. B.3).

FLAWED in v1: the proof perturbs to equal scores and invokes Theorem 4, inheriting its gap. With spread 0 (T = 2)
the condition holds for every δ, and on D-T2 W-GD from 3Ŵ^mm_α stays at the locally-optimal direction for every
η ∈ (0, 1/L_W] (certified trap: lim 1 − corr(W(k), W^mm) = 1 − 1/√10). What survives: as for Theorem 4 (n = 1, and
starts outside the LMM basins). δ is existential: for spread > 0 the hypothesis is undecided.
"""

CLAIM = register(Claim(id="tfsvm.thm5", paper="tfsvm", number="Theorem 5", kind="asymptotic",
                       title="Global convergence of W-GD to W^mm under approximately equal scores (FLAWED-v1)",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("global-convergence-approx-scores",),
                       parameters=PARAMETERS))
