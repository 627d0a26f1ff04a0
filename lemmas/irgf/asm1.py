"""irgf Assumption 1 — separability (§3; arXiv 2403.08699 v1), the standing hypothesis of every result.

Statement. For every sequence i the optimal token opt(i) = argmax_l γ_il (γ_il = y_i vᵀx_il) is unique, and there is
a matrix W* ∈ ℝ^{d×d} with

    (x_{i,opt(i)} − x_il)ᵀ W* z_i ≥ 1   for all i and l ≠ opt(i).

A statement about the data alone (no quantifier besides ∃W*): parameters = ().
How it is checked (exact: certified either way). Uniqueness: the rational scores compared exactly (the item names the
first tied sequence). Separation: the Frobenius SVM min ‖W‖_F under the constraints (``verify.kit.irgf.w_svm``, the
same exact solve the other irgf claims use to decide this hypothesis, ``kit.irgf.assumption1``) — feasible: its exact
solution W* is the witness, min margin ≥ 1 in rational arithmetic; infeasible: a Farkas vector λ ≥ 0, Σλ = 1 with
Σλ_il (x_opt − x_il) z_iᵀ = 0 and Σλ_il > 0, verified exactly, and the item names the pairs it combines
(``kit.irgf.separator_items``). Shown beside: whether a *diagonal* W separates (irgf.hyp.diagsep; D-DIAGINF: A1 holds,
the diagonal SVM is infeasible).
Defaults: D-SEED0, D-DIAGINF, D-A4 (it holds). False cases (tests): D-A1VIOL (sequence 2 = sequence 1 with y = −1:
constraints A and −A) → VIOLATED, Farkas λ = (1/2, 1/2); all scores of a sequence equal → VIOLATED naming the tie.
"""
from __future__ import annotations

from verify.claims import Claim, Evidence, Outcome, register
from verify.data.irgf import d_a4, d_diaginf, d_seed0
from verify.kit import irgf
from verify.numbers.precision import Precision


def evaluate(data, prec: Precision) -> Outcome:
    out = Outcome()
    ties = [i for i, o in enumerate(data.optimal_tokens()) if len(o) > 1]
    out.add(Evidence("sequences whose optimal token is tied (exact scores)", len(ties), "==", 0,
                     note=(f"sequence {ties[0] + 1} (1-indexed) has scores {[str(x) for x in data.scores[ties[0]]]}"
                           if ties else "opt(i) unique in every sequence")))
    if ties:
        return out
    items = irgf.separator_items(irgf.w_svm(data), "a separating W* exists (full-W Frobenius SVM feasible)",
                                 "the exact Frobenius SVM solution W*")
    if not out.require("the full-W SVM's answer is certified (optimum or Farkas certificate verified)",
                       items is not None):
        return out
    out.add(*items)
    diag, detail, _ = irgf.diagsep(data)
    out.add(Evidence("a diagonal W separates too (irgf.hyp.diagsep, shown only)", diag, note=detail))
    return out


STATEMENT = """\
opt(i) is unique for every i, and ∃ W* ∈ ℝ^{d×d}: (x_{i,opt(i)} − x_il)ᵀ W* z_i ≥ 1 for all i, l ≠ opt(i).
Decided exactly: the exact Frobenius SVM's solution is the witness, or a verified Farkas certificate refutes it.
"""

CLAIM = register(Claim(id="irgf.asm1", paper="irgf", number="Assumption 1", kind="existential",
                       title="Separability: unique optimal tokens and a W* separating them", statement=STATEMENT,
                       check=evaluate, default_datasets=(d_seed0, d_diaginf, d_a4), aliases=("separability",),
                       default_precision=30, parameters=()))  # a statement about the data alone
