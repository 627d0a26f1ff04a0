"""irgf hidden hypothesis of §4 — diagonal separability (spec `irgf.hyp.diagsep`, DERIVED; used in
the proofs of Lemma 4.2 and Theorem 4.1 of arXiv 2403.08699 v1, not stated by the paper).

The proofs of Lemma 4.2 ((28): ⟨∇_βℒ(β), β_f⟩ ≤ …) and Theorem 4.1 take a feasible point β_f of

    (ℓ1-SVM)   min ‖β‖₁  s.t.  βᵀB_il ≥ 1,   B_il = z_i ⊙ (x_{i,opt(i)} − x_il),

i.e. they need separability by a **diagonal** matrix W = Diag(β). The paper's stated hypotheses for
§4 are Assumption 1 (separability by a *full* W*), Assumption 2, Assumption 3 and init (5).

Claim encoded (the implication the proofs rely on): if the data meet the stated hypotheses —
Assumptions 1, 2, 3 — then the ℓ1-SVM is feasible.

It is false: on D-DIAGINF (v = e₃, L = 2, y = (1, 1); sequence 1: tokens (1,0,1), 0, z₁ = (1,0,0);
sequence 2: (−1,0,1), 0, z₂ = (1,1,0)) Assumptions 1–3 hold (full-W Frobenius SVM feasible with
‖W*‖_F = √3/2; ℒ(0) = e^{−1/2} = 0.6065 ≤ (1 + e^{−1})/2 = 0.6839) but B₁ = (1,0,0) = −B₂, so the
ℓ1-SVM is infeasible (exact Farkas certificate λ = (1/2, 1/2): λ₁B₁ + λ₂B₂ = 0, Σλ_j·1 = 1 > 0),
and ∇_βℒ(0) = 0 exactly: gradient flow from (5) never moves (Lemma 4.2 and Theorem 4.1 fail as
printed; their checks report NOT_APPLICABLE naming irgf.hyp.diagsep).

How it is checked, per dataset (kind: existential — a diagonal separator is exhibited or refuted):
* hypotheses (premise): Assumptions 1, 2, 3 (→ NOT_APPLICABLE when the premise fails, e.g. D-TRAP);
* evidence: the exact ℓ1-SVM (rational simplex): feasible → its solution's minimum margin ≥ 1
  (exact) — HOLDS on the data; infeasible → VIOLATED with the exact Farkas certificate (residual
  ‖Σλ_jB_j‖_∞ = 0, Σλ_j > 0), the full-W witness of Assumption 1, and the exact test of ∇_βℒ(0) = 0;
  the dataset JSON and the command that replays it are in the notes.
Default datasets: D-SEED0 (HOLDS), D-FACE (HOLDS), D-DIAGINF (VIOLATED) — so the claim as a whole
reports VIOLATED: the paper's stated hypotheses do not imply the one its proofs use. Default
precision 30 (everything is exact rational arithmetic; the recomputation changes nothing).
False/edge cases (tests): a NOT_APPLICABLE dataset (Assumption 3 fails: D-TRAP), and the property
test that every VIOLATED verdict carries a Farkas certificate that verifies exactly.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Evidence, Outcome, register
from verify.data.irgf import d_diaginf, d_face, d_seed0
from verify.kit import irgf
from verify.numbers.precision import Precision, to_arb

NEEDS = (irgf.A1, irgf.A2, irgf.A3)


def evaluate(data, prec: Precision) -> Outcome:
    out = Outcome()
    hyps, ctx = irgf.check_hypotheses(data, NEEDS + (irgf.DIAGSEP,))
    premise = [h for h in hyps if "diagsep" not in h.name]
    out.hypotheses.extend(premise)
    if not all(h.met for h in premise):
        return out
    res = ctx["svm"]
    if res.status == "optimal":
        prob = res.problem
        margins = [sum((a * b for a, b in zip(row, res.solution)), Fraction(0)) for row in prob.rows]
        out.evidence.append(Evidence("min_il β*ᵀB_il of the exact ℓ1-SVM solution (a diagonal separator)",
                                     to_arb(min(margins)), ">=", 1,
                                     note=f"p* = ‖β*‖₁ = {res.objective}" if res.objective.denominator < 10**6
                                     else f"p* = ‖β*‖₁ ≈ {float(res.objective):.15g}"))
        return out
    far = res.farkas
    out.evidence.append(Evidence("(ℓ1-SVM) feasible (a diagonal separator exists)", False, holds=False,
                                 note="exact simplex: infeasible"))
    if far is not None:
        out.evidence.append(Evidence("Farkas certificate: ‖Σ λ_il B_il‖_∞ (exact)", to_arb(far.residual), "==", 0,
                                     note=f"λ = {[str(x) for x in far.lam]} ≥ 0 on rows {list(far.rows)}"))
        out.evidence.append(Evidence("Farkas certificate: Σ λ_il · 1 (exact)", to_arb(far.rhs), ">", 0))
    wres = ctx.get("w_svm")
    if wres is not None and wres.status == "optimal":
        prob = wres.problem
        wm = min(sum((a * b for a, b in zip(row, wres.solution)), Fraction(0)) for row in prob.rows)
        out.evidence.append(Evidence("Assumption 1 witness: min margin of the full-W Frobenius SVM solution",
                                     to_arb(wm), ">=", 1, note="W* = " + str([str(x) for x in wres.solution])))
    zero, _ = irgf.grad_at_zero_is_zero(data)
    out.evidence.append(Evidence("∇_βℒ(0) = 0 (exact): the flow from init (5) never moves", zero,
                                 note="Lemma 4.2 and Theorem 4.1 fail as printed on this dataset" if zero else ""))
    out.notes.append("the paper's stated hypotheses (Assumptions 1–3) hold but diagonal separability fails: "
                     "they do not imply the hypothesis the proofs of Lemma 4.2 / Theorem 4.1 use")
    out.notes.append(irgf.replay_note(data, "irgf.hyp.diagsep"))
    return out


def check(data, prec: Precision) -> Outcome:
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [d_seed0(), d_face(), d_diaginf()]


CLAIM = register(Claim(
    id="irgf.hyp.diagsep",
    paper="irgf",
    number="hidden hypothesis (§4)",
    title="Diagonal separability: implied by the stated hypotheses? (used by Lemma 4.2 / Theorem 4.1)",
    kind="existential",
    statement=(
        "The proofs of Lemma 4.2 and Theorem 4.1 use a feasible point of the ℓ1-SVM "
        "(∃ β: βᵀ(z_i ⊙ (x_{i,opt} − x_il)) ≥ 1 ∀ i, l ≠ opt), i.e. separability by a diagonal W. Encoded "
        "claim: Assumptions 1–3 (separability by a full W*, equal non-optimal scores, small initial loss) "
        "imply it. Checked exactly (rational LP; Farkas certificate when infeasible). False on D-DIAGINF."
    ),
    check=check,
    default_datasets=default_datasets,
    aliases=("diagonal-separability", "hidden-hypothesis"),
    default_precision=30,
    module=__name__,
))
