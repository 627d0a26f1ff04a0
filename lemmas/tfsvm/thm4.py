"""tfsvm Theorem 4 — global convergence of W-GD under equal non-optimal scores (v1 §4.2, App. B.2).

Statement (as printed in v1). Under Assumption A and Assumption B.2 (γ_it = γ_iτ < γ_{i,opt} for all
t, τ ≠ opt_i), W-GD W(k+1) = W(k) − η∇L(W(k)) with η ≤ O(1/L_W) from **any** W(0) satisfies
W(k)/‖W(k)‖_F → W^mm/‖W^mm‖_F (W^mm: Att-SVM of the optimal tokens, which the proof assumes exists).

FLAWED in v1. The proof rests on Lemma 10, which is false: under B.2 a locally-optimal α ≠ opt exists
whenever its deviating sequences have no support index (Def. 2 holds vacuously), and W-GD started far
enough out on that ray stays there (Thm 7's mechanism) — certified here on D-T2 and on a constructed
dataset. What survives: n = 1 (every LMM under B.2 is the GMM, ``tfsvm.aux.no-spurious-lmm``).

Hypotheses (computed): Assumption A for the loss; unique optimal tokens; B.2 (exact); W^mm exists
(verified SVM certificate); η = 1/L_W rounded down, η ≤ 1/L_W against the certified L_W of Lemma 4 (the
theorem's O(·) constant is unspecified; the certificate covers every η ∈ (0, 1/L_W]).

How it is checked (``verify.kit.global_convergence``). "Any W(0)" (coverage "search", docs/parameters.md): the check chooses
W(0) = 0, a seeded random start (entries in [−3, 3]·‖W^mm‖_F), and ρ·W^mm_α for every locally-optimal α ≠ opt
(enumerated), ρ rational with ‖W(0)‖_F ≈ 3 (then 5, 10, 10‖W^mm_α‖, 30‖W^mm_α‖ until the certificate is proven).
Where no certificate applies (T > 2 or n > 2) a ladder of starts ‖W(0)‖_F ≈ (3, 10, 30, 100)·‖W^mm_α‖ along the
ray is flown in turn until one stays trapped (1 − corr to W^mm a plateau while 1 − corr to W^mm_α decreases):
an LMM's basin can begin far from the origin (``thm4_ladder``: a start at ‖W(0)‖_F = 3 reaches the GMM, one at
10‖W^mm_α‖ ≈ 35 stays), so a single start near the origin would let the flaw through.
* Trap certificate (DERIVED, ``verify.geometry.trap``; T = 2, n = 2, one deviating sequence). With
  a = ⟨W, D̂₁⟩ (driver), b = ⟨W, D̂₂ − κD̂₁⟩, κ = ĝ12/ĝ11 of the signed differences D̂_i =
  ±vec((x_i1 − x_i2)z_iᵀ), GD is exactly a⁺ = a + η(ĝ11c₁ − ĝ12c₂), b⁺ = b − η(det ĝ/ĝ11)c₂,
  c_i = (1/n)|ℓ'(φ_i)|σ'(v_i)|Δ_i|. On Ω = {a ≥ a(0), b ≥ b(0) − δ}: a⁺ − a ≥ ηc e^{−a} with
  c = ĝ11w₁m₁/(1 + e^{−a(0)})² − ĝ12w₂M₂e^{−(κ−1)a(0) − b_lo} (m₁, M₂: |ℓ'| over the score hulls), so
  e^{a(k)} ≥ e^{a(0)} + kηc, and b decreases in total by ≤ C₂e^{−b_lo}(ηe^{−κa(0)} + e^{(1−κ)a(0)}/(c(κ−1))).
  c > 0 and total < δ (arb, at η = 1/L_W; the bound grows with η) ⇒ Ω invariant, a(k) → ∞, b bounded,
  lim 1 − corr(W(k), W^mm) = 1 − ⟨W^mm, D̂₁⟩/(√ĝ11‖W^mm‖) ≠ 0: a certified VIOLATED. D-T2, W(0) =
  (4179/985)·W^mm_α (4179/985 ≈ 3√2, ‖W(0)‖ ≈ 3), α = (1, 1): κ = 2, c ≈ 0.196, total ≤ 0.166 < δ = 1/4,
  limit 1 − 1/√10 ≈ 0.684, and the exact floor 1 − corr(W(k), W^mm) ≥ 1/100 for every k.
* Evidence: W-GD (η = 1/L_W, exact steps) for 2000 steps from the locally-optimal starts (shown), and
  the arc-length gradient flow (GD's η → 0 limit, Radau IIA at the working precision) stopped exactly at
  ‖W‖_F = σ·{2, 5, …, 500}, σ = ‖W^mm‖_F (D-T2: to 1118): 1 − corr(W, W^mm) → 0 like ‖W‖^{-2}
  (``rules.decays``, derived rate 2) — a plateau fails it. With a proven trap the flows run from the trapped
  starts only (``flows="all"``: every start; from W(0) = 0 D-T2 reaches the GMM, tested). Figure: log10 of
  1 − corr to W^mm and to W^mm_α against ‖W‖. Default precision 40 (flows; the recheck runs at 60).

False cases (tests): D-T2 and ``thm4_trap`` → VIOLATED (certified); ``thm4_ladder`` (n = 3) → VIOLATED (evidence,
the second rung of the ladder); ``thm4_single`` (n = 1) → HOLDS
(evidence); ``b1_only`` (T = 3, non-optimal scores 0 and 1/2) → NOT_APPLICABLE naming B.2.
"""
from __future__ import annotations

from verify.claims import Claim, Outcome, register
from verify.data import tfsvm as D
from verify.kit.global_convergence import PARAMETERS, global_convergence, hypotheses
from verify.numbers.precision import Precision


def evaluate(data, prec: Precision, loss: str = "logistic", gd_steps: int = 2000, depth: int = 500,
             random_starts: int = 1, seed: int = 0, flows: str = "auto") -> Outcome:
    out = Outcome()
    out.hypotheses, q, eta = hypotheses(data, loss, prec.dps, "B.2")
    if not out.applicable():
        return out
    global_convergence(out, data, prec, q, eta, loss=loss, gd_steps=gd_steps, depth=depth,
                       random_starts=random_starts, seed=seed, flows=flows)
    return out


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.thm4_trap(), D.thm4_ladder(), D.thm4_single()]


STATEMENT = """\
Assumption A and B.2 (equal non-optimal scores): W-GD with η ≤ O(1/L_W) from any W(0) has W(k)/‖W(k)‖_F →
W^mm/‖W^mm‖_F (v1 §4.2, App. B.2).

FLAWED in v1: the proof's Lemma 10 is false. Under B.2 a locally-optimal α ≠ opt exists when its deviating
sequences have no support index; W-GD started at 3Ŵ^mm_α on D-T2 stays in an invariant region where the deviating
sequence keeps selecting α's token, for every η ∈ (0, 1/L_W] (certified trap: lim 1 − corr(W(k), W^mm) =
1 − 1/√10 ≈ 0.684, and ≥ 1/100 at every k). What survives: n = 1 (every LMM is then the GMM), and the starts outside
the LMM basins (from W(0) = 0 D-T2 reaches the GMM).
"""

CLAIM = register(Claim(id="tfsvm.thm4", paper="tfsvm", number="Theorem 4", kind="asymptotic",
                       title="Global convergence of W-GD to W^mm under equal non-optimal scores (FLAWED-v1)",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("global-convergence", "global-convergence-equal-scores"),
                       parameters=PARAMETERS,
                       default_precision=40))  # flows at 40 digits + the recheck at 60, as mmts.thm3
