"""irgf hidden hypothesis of §4 — diagonal separability (DERIVED here: used in the proofs of Lemma 4.2
and Theorem 4.1 of arXiv 2403.08699 v1, not stated by the paper).

The proofs of Lemma 4.2 ((28): ⟨∇_βℒ(β), β_f⟩ ≤ …) and Theorem 4.1 take a feasible point β_f of

    (ℓ1-SVM)   min ‖β‖₁  s.t.  βᵀB_il ≥ 1,   B_il = z_i ⊙ (x_{i,opt(i)} − x_il),

i.e. they need separability by a **diagonal** matrix W = Diag(β). The paper's stated hypotheses for
§4 are Assumption 1 (separability by a *full* W*), Assumption 2, Assumption 3 and init (5).

Claim encoded (the implication the proofs rely on): if the data meet Assumptions 1, 2, 3, then the
ℓ1-SVM is feasible. It is false: on D-DIAGINF (B₁ = (1,0,0) = −B₂) Assumptions 1–3 hold (full-W
Frobenius SVM feasible, ‖W*‖_F = √3/2; ℒ(0) = e^{−1/2} ≤ (1 + e^{−1})/2) but the ℓ1-SVM is infeasible
(Farkas certificate λ = (1/2, 1/2): λ₁B₁ + λ₂B₂ = 0, Σλ_j·1 = 1 > 0), and ∇_βℒ(0) = 0 exactly: the
flow from (5) never moves (Lemma 4.2 and Theorem 4.1 report NOT_APPLICABLE naming irgf.hyp.diagsep).

Hypotheses (the premise): Assumptions 1, 2, 3, each decided exactly or in ball arithmetic
(``verify.kit.irgf``) → NOT_APPLICABLE when one fails (D-TRAP).
How it is checked (exact, certified either way): the ℓ1-SVM by the rational simplex, its answer
verified like ``kit.assumptions.svm_feasible`` — feasible: the solution's minimum margin ≥ 1
(exact rationals); infeasible: "(ℓ1-SVM) feasible" is refuted by the verified Farkas certificate
(‖Σλ_jB_j‖_∞ = 0 and Σλ_j > 0, exact) → VIOLATED, certified; a certificate that does not verify →
INCONCLUSIVE (requirement), never "infeasible". Shown beside: the full-W witness of Assumption 1
and the exact test of ∇_βℒ(0) = 0; the dataset JSON and the command that replays it.
Default datasets: D-SEED0 (HOLDS), D-FACE (HOLDS), D-DIAGINF (VIOLATED): the claim as a whole is
VIOLATED — the paper's stated hypotheses do not imply the one its proofs use.
False cases (tests): D-DIAGINF → VIOLATED (certified); D-TRAP (Assumption 3 fails) → NOT_APPLICABLE.
"""
from __future__ import annotations

from verify.claims import Claim, Evidence, Outcome, register
from verify.data.irgf import d_diaginf, d_face, d_seed0
from verify.kit import irgf
from verify.numbers.precision import Precision

NEEDS = (irgf.A1, irgf.A2, irgf.A3)


def evaluate(data, prec: Precision) -> Outcome:
    out = Outcome()
    hyps, ctx = irgf.check_hypotheses(data, NEEDS)
    out.hypotheses.extend(hyps)
    if not out.applicable():
        return out
    res, feasible = ctx["svm"], ctx["diagsep"]
    if not out.require("the ℓ1-SVM's answer is certified (optimum or Farkas certificate verified)",
                       feasible is not None, "" if feasible is not None else "; ".join(res.notes)):
        return out
    if feasible:
        p = res.objective
        out.add(Evidence("min_il β*ᵀB_il of the exact ℓ1-SVM solution (a diagonal separator)", irgf.min_margin(res),
                         ">=", 1, note=f"p* = ‖β*‖₁ = {p}" if p.denominator < 10**6 else f"p* = ‖β*‖₁ ≈ {float(p):.15g}"))
        return out
    far = res.farkas
    out.add(Evidence("(ℓ1-SVM) feasible (a diagonal separator exists)", False, "==", True,
                     note="refuted by the exact Farkas certificate (verified)"),
            Evidence("Farkas certificate: ‖Σ λ_il B_il‖_∞ (exact)", far.residual, "==", 0,
                     note=f"λ = {[str(x) for x in far.lam]} ≥ 0 on rows {list(far.rows)}"),
            Evidence("Farkas certificate: Σ λ_il · 1 (exact)", far.rhs, ">", 0))
    wres = ctx.get("w_svm")
    if wres is not None and wres.status == "optimal":
        out.add(Evidence("Assumption 1 witness: min margin of the full-W Frobenius SVM solution (exact)",
                         irgf.min_margin(wres), note="W* = " + str([str(x) for x in wres.solution])))
    zero, _ = irgf.grad_at_zero_is_zero(data)
    out.add(Evidence("∇_βℒ(0) = 0 (exact): the flow from init (5) never moves", zero,
                     note="Lemma 4.2 and Theorem 4.1 fail as printed on this dataset" if zero else ""))
    out.notes.append("the paper's stated hypotheses (Assumptions 1–3) hold but diagonal separability fails: "
                     "they do not imply the hypothesis the proofs of Lemma 4.2 / Theorem 4.1 use")
    out.notes.append(irgf.replay_note(data, "irgf.hyp.diagsep"))
    return out


STATEMENT = """\
The proofs of Lemma 4.2 and Theorem 4.1 use a feasible point of the ℓ1-SVM (∃ β: βᵀ(z_i ⊙ (x_{i,opt} − x_il))
≥ 1 ∀ i, l ≠ opt), i.e. separability by a diagonal W. Encoded claim: Assumptions 1–3 (separability by a full
W*, equal non-optimal scores, small initial loss) imply it. Checked exactly (rational LP; Farkas certificate
when infeasible). False on D-DIAGINF.
"""

CLAIM = register(Claim(id="irgf.hyp.diagsep", paper="irgf", number="hidden hypothesis (§4)", kind="existential",
                       title="Diagonal separability: implied by the stated hypotheses? (used by Lemma 4.2 / Theorem 4.1)",
                       statement=STATEMENT, check=evaluate, default_datasets=(d_seed0, d_face, d_diaginf),
                       aliases=("diagonal-separability", "hidden-hypothesis"), default_precision=30,
                       parameters=()))  # an implication between hypotheses on the data: nothing else quantified
