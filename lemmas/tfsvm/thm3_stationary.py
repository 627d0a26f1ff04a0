"""tfsvm Theorem 3 (1)–(2) — no stationary point of L(W); W-GD diverges in norm (v1 §4.1, App. B.1).

Statement (spec `tfsvm.thm3`, READ v1; registered as the "no stationary points" part, matching
`mmts.thm2.stationary`). Model L(W) = (1/n) Σ_i ℓ(Y_i vᵀX_iᵀ S(X_i W z_i)) with queries z_i. Under
Assumption A and Assumption B — unique optimal tokens and **one of** B.1 (every non-optimal token is a
support vector of the Att-SVM solution W^mm: (x_{i,opt} − x_it)ᵀW^mm z_i = 1) or B.2 (equal non-optimal
scores γ_it = γ_iτ < γ_{i,opt}) — and with W^mm existing (the proof uses it through Lemma 9; the printed
hypotheses omit feasibility, spec "FALSE CASE"):

  (1) there is no W ∈ ℝ^{d×d} with ∇L(W) = 0;
  (2) W-GD with η ≤ O(1/L_W), any W(0): ‖∇L(W(k))‖_F → 0 and ‖W(k)‖_F → ∞
      (no directional claim; that is Thm 4, FLAWED-v1).

Lemma 9 behind (1) (spec, DERIVED exact forms): B.1: ⟨∇L(W), W^mm⟩ = (1/n)Σ ℓ'(φ_i) s_{i,opt}(γ_{i,opt} − φ_i);
B.2: −⟨∇L(W), W^mm⟩ ≥ (1/n)Σ|ℓ'(φ_i)| Δ_i s_{i,opt}(1 − s_{i,opt}). Both give
−⟨∇L(W), W^mm⟩ ≥ (1/n)Σ|ℓ'(φ_i)| g_i s_opt(1 − s_opt) with g_i the (minimum) score gap, which is what
the certified ball bound uses.

How it is checked: the same engine as mmts.thm2.stationary (``verify.geometry.stationarity``) in the ``W``
parameterisation (features vec(x_it z_iᵀ), Att-SVM solved exactly in rationals, so B.1's "= 1" is
decided exactly): (a) certified sign of ⟨∇L(W), W^mm⟩ < 0 at adversarial W (‖W‖ up to 1000 in the max
entry), (b) certified c(R) > 0 with ‖∇L(W)‖_F ≥ c(R) on ‖W‖_F ≤ R, (c) W-GD with η = 1/L_W: the
projection ⟨W(k), W^mm⟩ increases at every step (certified), the certified number of steps spent in
‖W‖_F ≤ R, and ‖W(k)‖_F against ln k (spec: 3.4 → 5.0 over 2·10⁴ steps on its runs).

Step size. v1 Lemma 4's L_W = (1/n)Σ_i a_i b_i, a_i = ‖v‖‖z_i‖²‖X_i‖³, b_i = M₀‖v‖‖X_i‖ + 3M₁
(spectral ‖X_i‖; the spec certifies this constant as correct, only L_K, L_Q are flawed); the theorem's
"η ≤ O(1/L_W)" is read as η = 1/L_W (spec §5 item 2; v1's descent lemma is proven for η ≤ 1/L_W).

Aliases: the spec's `no-stationary-points` / `norm-diverges` name tfsvm.thm3 as a whole; this claim
registers the distinct alias `no-stationary-points-W`.

Negative control (spec D-STAT): n = 2, T = 2, d = 1, x_i1 = 1, x_i2 = 0, v = 1, Y = (1,1), z = (1,−1).
B.2 holds (T = 2) but Att-SVM is infeasible (w ≥ 1 and −w ≥ 1), and ∇L(0) = 0 exactly (the two
sequences cancel: equal mean scores, opposite features). Hypothesis "W^mm exists" not met →
NOT_APPLICABLE; with it switched off (the printed hypotheses) → VIOLATED.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Hypothesis, Outcome, register
from verify.data.dataset import Dataset
from verify.geometry.smoothness import score_bound
from verify.geometry.stationarity import (
    assumption_b,
    assumption_b1,
    exact_gradient_at_zero,
    feasible_assumption_b_dataset,
    gmm,
    loss_is_decreasing,
)
from verify.kit.stationarity import stationary_evidence
from verify.models.losses import get_loss
from verify.numbers.linalg import spectral_norm
from verify.numbers.precision import Precision, to_arb


def smoothness_W(data: Dataset, loss: str = "logistic"):
    """L_W of tfsvm v1 Lemma 4 (ball): (1/n)Σ_i ‖v‖‖z_i‖²‖X_i‖³ (M₀‖v‖‖X_i‖ + 3M₁)."""
    ell = get_loss(loss)
    M0, M1 = ell.constants(to_arb(score_bound(data)))
    nv = to_arb(sum((x * x for x in data.v), Fraction(0))).sqrt()
    total = arb(0)
    for Xi, z in zip(data.X, data.queries()):
        nx = spectral_norm(Xi)
        nz2 = to_arb(sum((x * x for x in z), Fraction(0)))
        total += nv * nz2 * nx ** 3 * (M0 * nv * nx + 3 * M1)
    return total / data.n


def step_size(data: Dataset, loss: str = "logistic"):
    LW = smoothness_W(data, loss)
    return arb((1 / arb(LW.upper())).lower()), f"η = 1/L_W, L_W = {float(LW.mid()):.6g} (v1 Lemma 4)"


def evaluate(data: Dataset, prec: Precision, require_feasible: bool = True, steps: int | None = None,
             loss: str = "logistic", figure: bool = True) -> Outcome:
    out = Outcome()
    ok, detail = loss_is_decreasing(loss, data)
    hyps = [Hypothesis("Assumption A: ℓ' < 0 on [−B, B]", ok, detail)]
    opts = data.optimal_tokens()
    unique = all(len(o) == 1 for o in opts)
    hyps.append(Hypothesis("unique optimal tokens", unique,
                           "opt = " + ", ".join("{" + ",".join(map(str, o)) + "}" for o in opts)))
    B2 = assumption_b(data)
    res = gmm(data, "W", prec.dps) if unique else None
    feasible = res is not None and res.status == "optimal"
    q, gaps = None, None
    if feasible:
        b1, b1_detail = assumption_b1(res)
        q = list(res.solution)
        if B2.met:
            gaps = B2.gaps
        elif b1:
            gaps = tuple(min(g[o] - g[t] for t in range(len(g)) if t != o)
                         for g, o in zip(data.scores, (o[0] for o in opts)))
        hypB = (B2.met or b1, f"B.2: {'met' if B2.met else 'not met'} ({B2.detail}); B.1: "
                              f"{'met' if b1 else 'not met'} ({b1_detail})")
    else:
        hypB = (B2.met, f"B.2: {B2.detail}; B.1 undefined (no W^mm)" if unique else "optimal token tied")
    hyps.append(Hypothesis("Assumption B: B.1 (all tokens support vectors) or B.2 (equal non-optimal scores)",
                           hypB[0], hypB[1]))
    far = res.farkas if (res is not None and not feasible) else None
    feas_h = Hypothesis("Att-SVM(opt) feasible (W^mm exists; used by the proof, omitted from the printed statement)",
                        feasible, "exact solution" if feasible else (
                            f"infeasible: Farkas certificate on rows {far.rows}" if far else "opt tied"))
    if require_feasible:
        hyps.append(feas_h)
        out.hypotheses = hyps
        if not all(h.met for h in hyps):
            if not feasible and unique and exact_gradient_at_zero(data, "W")[0]:
                out.notes.append("without W^mm the conclusion fails here: ∇L(0) = 0 exactly (uniform attention)")
            return out
    else:
        out.hypotheses = hyps[:2] + ([hyps[2]] if hyps[2].met else [])
        out.notes.append("hypothesis 'W^mm exists' NOT enforced (the printed statement): "
                         + ("met" if feasible else "not met") +
                         ("" if hyps[2].met else "; Assumption B not met either (B.2 and B.1 both fail)"))
        if not all(h.met for h in out.hypotheses):
            return out
    eta, note = step_size(data, loss)
    if steps is None:
        steps = 6000 if data.n * data.T * data.d ** 2 <= 32 else 2000
    stationary_evidence(out, data, prec, "W", q, gaps, eta, steps=steps, loss=loss, symbol="W",
                        eta_note=note, figure=figure)
    return out


def check(data, prec: Precision) -> Outcome:
    return evaluate(data, prec)


def d_t2() -> Dataset:
    """D-T2 (spec §6): n = 2, T = 2, d = 2; B.1 and B.2 both hold; W^mm = [[0.5,−1.5],[0.5,−1.5]]."""
    return Dataset.make(X=[[[1, 1], [0, 0]], [[2, 2], [0, 0]]], Y=[1, -1], v=[0, 1],
                        z=[[1, 0], [1, "0.5"]], name="tfsvm-D-T2")


def d_stat() -> Dataset:
    """D-STAT (spec §6): Att-SVM infeasible, ∇L(0) = 0 exactly."""
    return Dataset.make(X=[[[1], [0]], [[1], [0]]], Y=[1, 1], v=[1], z=[[1], [-1]], name="tfsvm-D-STAT")


def b1_only() -> Dataset:
    """n = 1, T = 3, d = 3, scores (1, 0, 1/2): B.2 fails, B.1 holds (both differences tight in W^mm)."""
    return Dataset.make(X=[[[1, 1, 1], [0, 1, 0], [1, 0, "1/2"]]], Y=[1], v=[0, 0, 1], name="tfsvm-B1-only")


def default_datasets(seed: int = 0):
    return [d_t2(), b1_only(), feasible_assumption_b_dataset(n=2, T=3, d=3, seed=seed, param="W")]


CLAIM = register(Claim(
    id="tfsvm.thm3.stationary",
    paper="tfsvm",
    number="Theorem 3",
    title="No stationary points of L(W); W-GD diverges in norm (Assumption B.1 or B.2)",
    kind="asymptotic",
    statement=(
        "Under Assumption A and Assumption B (B.1: all non-optimal tokens are support vectors of W^mm, or "
        "B.2: equal non-optimal scores), with W^mm existing: (1) no W has ∇L(W) = 0; (2) W-GD with "
        "η ≤ O(1/L_W) from any W(0) has ‖∇L(W(k))‖_F → 0 and ‖W(k)‖_F → ∞ (v1 §4.1, App. B.1).\n\n"
        "Evidence: certified sign of ⟨∇L(W), W^mm⟩ at adversarial W; certified lower bounds of ‖∇L‖_F on balls "
        "‖W‖_F ≤ R; W-GD with η = 1/L_W: certified per-step increase of ⟨W(k), W^mm⟩, ‖W(k)‖_F against ln k."
    ),
    check=check,
    default_datasets=default_datasets,
    aliases=("no-stationary-points-W",),
    module=__name__,
))
