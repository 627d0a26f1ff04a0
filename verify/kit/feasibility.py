"""Claim-kit piece: "ATT-SVM(opt) is feasible, with the witness p̂ = W^†v/γ_gap" — the conclusion of
mmts Lemma 2 and Lemma 11 (they differ only in the hypothesis on W), decided exactly.

Feasibility comes from the exact solver's verified certificate (``kit.assumptions.svm_feasible``: an
uncertified answer is an unmet requirement, never "feasible"/"infeasible"); the witness's margin at
every constraint is an exact Tally against 1; ‖p^mm‖² ≤ ‖p̂‖² is compared exactly.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Evidence, Hypothesis
from verify.geometry.keys import att_svm_opt
from verify.kit.assumptions import svm_feasible
from verify.kit.probe_inequality import ProbeInequality


def positive_strict_hypotheses(data) -> list[Hypothesis]:
    """Y_i = 1 for every i, and a strict optimal token in every sequence (exact)."""
    opts = data.optimal_tokens()
    return [Hypothesis("Y_i = 1 for every i", all(y == 1 for y in data.Y), "labels " + ", ".join(f"{y:+d}" for y in data.Y)),
            Hypothesis("strict optimal token: γ_it < γ_{i,opt_i} for t ≠ opt_i", all(len(o) == 1 for o in opts),
                       "opt = " + ", ".join("{" + ",".join(map(str, o)) + "}" for o in opts))]


def feasible_with_witness(out, data, dps: int, gap_scale=1):
    """Add the conclusion's items to ``out``; return the solved ``att_svm_opt`` (its witness may be None).
    ``gap_scale`` ≠ 1 builds a wrong witness p̂ = p₀/(gap_scale·γ_gap) (tests)."""
    f = att_svm_opt(data, dps, gap_scale)
    feasible = svm_feasible(f.result, "ATT-SVM(opt) feasible")
    if feasible.met is None:
        out.require("a certified answer of the exact ATT-SVM(opt) solver", False, feasible.detail)
    else:
        out.add(Evidence("ATT-SVM(opt) feasible (exact solver, verified certificate)", feasible.met, "==", True,
                         note=feasible.detail))
    if f.witness is None:
        out.add(Evidence("witness p̂ = W^†v/γ_gap exists (K p = Xv solvable, γ_gap > 0)", False, "==", True))
        return f
    margins = ProbeInequality("min_{i,t≠opt} (k_{i,opt} − k_it)ᵀ p̂,  p̂ = W^†v/γ_gap (exact rational)", ">=", 1)
    for (i, t), m in f.witness.margins.items():
        margins.add(m, f"sequence {i}, token {t}")
    out.add(margins.evidence())
    if f.pmm_margins is not None:
        out.add(Evidence("‖p^mm‖² (exact ATT-SVM) ≤ ‖p̂‖²", f.pmm_norm2, "<=",
                         sum((x * x for x in f.witness.p_hat), Fraction(0))))
        out.notes.append(f"p̂ = ({', '.join(map(str, f.witness.p_hat))}); p^mm = ({', '.join(map(str, f.result.solution))})")
    out.add(Evidence("γ_gap = min_i min_{t≠opt}(γ_{i,opt} − γ_it)", f.witness.gap))
    return f
