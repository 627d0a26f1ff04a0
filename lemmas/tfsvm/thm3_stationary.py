"""tfsvm Theorem 3 (1)–(2) — no stationary point of L(W); W-GD diverges in norm (v1 §4.1, App. B.1).

Statement (read from v1; the "no stationary points" part, matching `mmts.thm2.stationary`). Model
L(W) = (1/n) Σ_i ℓ(Y_i vᵀX_iᵀ S(X_i W z_i)) with queries z_i. Under Assumption A and Assumption B —
unique optimal tokens and **one of** B.1 (every non-optimal token is a support vector of the Att-SVM
solution W^mm: (x_{i,opt} − x_it)ᵀW^mm z_i = 1) or B.2 (equal non-optimal scores γ_it = γ_iτ <
γ_{i,opt}) — and with W^mm existing (the proof uses it through Lemma 9; the printed hypotheses omit it):

  (1) there is no W ∈ ℝ^{d×d} with ∇L(W) = 0;
  (2) W-GD with η ≤ O(1/L_W), any W(0): ‖∇L(W(k))‖_F → 0 and ‖W(k)‖_F → ∞ (no directional claim).

Lemma 9 behind (1) (DERIVED here, exact): B.1: ⟨∇L(W), W^mm⟩ = (1/n)Σ ℓ'(φ_i) s_{i,opt}(γ_{i,opt} − φ_i);
B.2: −⟨∇L(W), W^mm⟩ ≥ (1/n)Σ|ℓ'(φ_i)| Δ_i s_{i,opt}(1 − s_{i,opt}). Both give
−⟨∇L(W), W^mm⟩ ≥ (1/n)Σ|ℓ'(φ_i)| g_i s_opt(1 − s_opt), g_i the (minimum) score gap: the ball bound.

Hypotheses (``verify.kit.stationarity.tfsvm_hypotheses``): Assumption A for the loss used, unique
optimal tokens, B.1 (decided exactly on the rational W^mm) or B.2 (exact), Att-SVM(opt) feasible from
its verified certificate; the step η = 1/L_W rounded down, η ≤ 1/L_W decided against the certified
L_W of v1 Lemma 4, L_W = (1/n)Σ_i ‖v‖‖z_i‖²‖X_i‖³(M₀‖v‖‖X_i‖ + 3M₁) (the theorem's "η ≤ O(1/L_W)" read
as η ≤ 1/L_W, for which v1's descent lemma is proven).

How it is checked: the engine of `mmts.thm2.stationary` (``verify.kit.stationarity``) with features
vec(x_it z_iᵀ): (1) certified — ⟨∇L(W), W^mm⟩ < 0 at every adversarial probe point (a Tally), and
c(R) > 0 with ‖∇L(W)‖_F ≥ c(R) on ‖W‖_F ≤ R; (2) evidence over the W-GD steps run — the projection
⟨W(k), W^mm⟩ increases at every step (certified Tally), ‖W(k)‖_F → ∞ from W(0) = 0 by
``rules.diverges`` against ln k; ‖∇L(W(k))‖_F and the descent-lemma count of steps in ‖W‖_F ≤ R are
reported (‖∇L‖ → 0 is not monotone over the steps run).

False cases (tests): D-STAT (n = 2, T = 2, d = 1, x_i1 = 1, x_i2 = 0, v = 1, z = (1, −1)): B.2 holds but
Att-SVM is infeasible (w ≥ 1 and −w ≥ 1) and ∇L(0) = 0 exactly → NOT_APPLICABLE naming "W^mm exists";
with that hypothesis off (the printed statement) → VIOLATED (certified).
"""
from __future__ import annotations

from verify.claims import Claim, Outcome, register
from verify.data.dataset import Dataset
from verify.data.tfsvm import b1_only, d_stat, d_t2  # noqa: F401 (d_stat: the false case, for tests)
from verify.geometry.stationarity import exact_gradient_at_zero, feasible_assumption_b_dataset
from verify.kit.stationarity import stationary_evidence, step_size_W, tfsvm_hypotheses
from verify.numbers.precision import Precision


def evaluate(data: Dataset, prec: Precision, require_feasible: bool = True, steps: int | None = None,
             loss: str = "logistic", figure: bool = True) -> Outcome:
    """``require_feasible=False``: the printed hypotheses only (W^mm is used when it exists)."""
    out = Outcome()
    hyps, feasible, q, gaps = tfsvm_hypotheses(data, loss, prec.dps)
    eta, step = step_size_W(data, loss)
    if require_feasible:
        out.hypotheses = hyps + [feasible, step]
    else:
        out.hypotheses = hyps[:2] + ([hyps[2]] if hyps[2].met else []) + [step]
        out.notes.append("hypothesis 'W^mm exists' NOT enforced (the printed statement): " +
                         ("met" if feasible.met else "not met") +
                         ("" if hyps[2].met else "; Assumption B not met either (B.2 and B.1 both fail)"))
    if not out.applicable():
        if feasible.met is False and hyps[1].met and exact_gradient_at_zero(data, "W")[0]:
            out.notes.append("without W^mm the conclusion fails here: ∇L(0) = 0 exactly (uniform attention)")
        return out
    if steps is None:
        steps = 6000 if data.n * data.T * data.d ** 2 <= 32 else 2000
    stationary_evidence(out, data, prec, "W", q, gaps, eta, steps=steps, loss=loss, symbol="W",
                        eta_note=step.detail, figure=figure)
    return out


def default_datasets(seed: int = 0):
    return [d_t2(), b1_only(), feasible_assumption_b_dataset(n=2, T=3, d=3, seed=seed, param="W")]


STATEMENT = """\
Under Assumption A and Assumption B (B.1: all non-optimal tokens are support vectors of W^mm, or B.2: equal
non-optimal scores), with W^mm existing: (1) no W has ∇L(W) = 0; (2) W-GD with η ≤ O(1/L_W) from any W(0) has
‖∇L(W(k))‖_F → 0 and ‖W(k)‖_F → ∞ (v1 §4.1, App. B.1).

(1) certified: the sign of ⟨∇L(W), W^mm⟩ at every adversarial probe point, lower bounds of ‖∇L‖_F on the balls
‖W‖_F ≤ R. (2) evidence over the W-GD steps run (η = 1/L_W): the projection on W^mm increases at every step
(certified), ‖W(k)‖_F diverges against ln k (declared rule).
"""

CLAIM = register(Claim(id="tfsvm.thm3.stationary", paper="tfsvm", number="Theorem 3", kind="asymptotic",
                       title="No stationary points of L(W); W-GD diverges in norm (Assumption B.1 or B.2)",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("no-stationary-points-W",)))
