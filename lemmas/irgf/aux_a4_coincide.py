"""irgf (DERIVED) — under Assumption 4 the Frobenius and nuclear SVMs share the solution W° (spec
``irgf.aux.a4-coincide``; about Theorem 5.1, arXiv 2403.08699 v1, §5, and the comparison of §4.2).

Statement (derived in the spec). Under Assumption 4, let b_i = max over the pairs of 1/((1 − c)‖x_{i,opt}‖‖z_i‖) and
W° = Σ_i b_i u^k_{π(i)} u^q_{π(i)}ᵀ. Then W° is *the* solution of (WF-SVM) (min ‖W‖_F) and *a* solution of (W*-SVM)
(min ‖W‖_*), both with the constraints (x_opt − x_il)ᵀ W z_i ≥ 1. Why: summing a pair's two constraints gives
u^k_{π(i)}ᵀ W u^q_{π(i)} ≥ b_i; with orthonormal families ‖W‖_* ≥ Σ_i b_i and ‖W‖_F² ≥ Σ_i b_i², both attained by W°,
which meets every single constraint (r ⊥ x_opt). Consequence: the limit of Theorem 5.1 is also the Frobenius-SVM
direction, so Theorem 5.1 cannot tell the nuclear bias of (K, Q) from the Frobenius bias of a single W (Tarzanagh et
al., §4.2); only Theorem 4.1's diagonal setting separates them.

Hypothesis (exact; → NOT_APPLICABLE naming it): Assumption 4.

How it is checked (certified, exact rational arithmetic). The Frobenius SVM is solved by the exact QP of
``verify.svm`` (verified certificate; unique). W° is the lift of (42)'s exact solution (``verify.kit.irgf_kq``;
rational). Deciding: W_F = W° entrywise (exact), and W° is nuclear-optimal by the exact dual certificate of
``irgf.prop.lift`` (feasible, λ ≥ 0, ‖Σλ A‖₂ ≤ 1, ‖W°‖_* ≤ t by a PSD block, t = Σλ); so W_F ∈ argmin (W*-SVM).
When Assumption 4's structure is missing (check bypassed) the comparison falls back to the engine: the certified
interval of ‖W_F‖_* (``verify.svm.spectral.nuclear_bounds``) minus the certified interval of p*_nuc
(``verify.svm.nuclear``) must contain 0 (≤ 0 at its lower end); a positive lower end proves W_F is not
nuclear-optimal. Shown beside: ‖W°‖_F² = Σb_i², ‖W°‖_* = Σb_i.
Note (DERIVED): the nuclear solution set is in general a face (on D-A4 every U Diag-block [[0.4, m], [m, 1]] Uᵀ with
m² ≤ 0.4 is optimal), so "share" means W° ∈ argmin (W*-SVM) ∩ argmin (WF-SVM) = {W°}.

False cases (tests): D-SEED0 (Assumption 4 fails; the Frobenius solution has ‖W_F‖_* > p*_nuc, certified) →
NOT_APPLICABLE naming Assumption 4, and VIOLATED certified with the check bypassed (the engine's difference).
"""
from __future__ import annotations

from flint import arb

from verify.claims import Claim, Evidence, Hypothesis, Outcome, register
from verify.data.irgf import d_a4, random_a4_dataset
from verify.kit import irgf
from verify.kit import irgf_kq as G
from verify.numbers.precision import Precision, to_arb


def evaluate(data, prec: Precision, check_hypotheses: bool = True) -> Outcome:
    out = Outcome()
    ok4, det4, info = irgf.assumption4(data)
    h = Hypothesis(irgf.NAMES[irgf.A4], ok4, det4)
    if check_hypotheses:
        out.hypotheses.append(h)
    elif not ok4:
        out.notes.append(f"hypothesis check bypassed (false-case mode); unmet: {h.name}: {h.detail}")
    if not out.applicable():
        return out
    wf = irgf.w_svm(data, prec.dps)
    if not out.require("the Frobenius SVM (WF-SVM) has a certified exact optimum", wf.status == "optimal",
                       f"status {wf.status}"):
        return out
    WF = [list(wf.solution[a * data.d:(a + 1) * data.d]) for a in range(data.d)]
    structured = info is not None and info["pairs"] is not None and info["ok_i"] and info["ok_ii"]
    if structured:
        lifted = G.lifted_solution(data, info, dps=prec.dps)
        if not out.require("(42) has a certified exact optimum", lifted is not None):
            return out
        diff = max(abs(a - b) for ra, rb in zip(WF, lifted.W) for a, b in zip(ra, rb))
        out.add(Evidence("max_ab |(W_F − W°)_ab|: the Frobenius solution is the lifted W° = U_K Diag(β̃) U_Qᵀ", diff,
                         "==", 0, note="exact: W_F from the exact QP (verified certificate), W° rational"))
        out.add(*G.certificate_evidence(lifted, "W°"))
        b2 = sum((x * x for x in lifted.beta), 0)
        out.add(Evidence("‖W_F‖_F² = Σ b_i² (Frobenius optimum)", wf.objective ** 2 if not isinstance(wf.objective, arb)
                         else wf.objective * wf.objective, note=f"Σ b_i² = {b2}"),
                Evidence("‖W°‖_* = Σ b_i = p*_nuc (exact)", lifted.cert.t))
        return out
    # no Assumption-4 structure (false-case mode): the engine decides whether W_F is nuclear-optimal
    from flint import arb_mat

    from verify.svm import solve_svm
    from verify.svm.spectral import nuclear_bounds

    nuc = solve_svm(data, "KQ", dps=prec.dps, check_unique=False)
    if not out.require("the nuclear SVM has a certified interval for p*_nuc", nuc.status == "optimal",
                       f"status {nuc.status}"):
        return out
    lo, hi = nuclear_bounds(arb_mat([[to_arb(x) for x in row] for row in WF]))
    plo, phi = nuc.certificate.lower, nuc.certificate.upper
    gap = arb(lo.lower() - phi.upper()).union(arb(hi.upper() - plo.lower()))
    out.add(Evidence("‖W_F‖_* − p*_nuc (certified intervals: W_F's nuclear bounds, the nuclear SVM's certificate)",
                     gap, "<=", 0, note=f"‖W_F‖_* ∈ [{lo.str(10, radius=False)}, {hi.str(10, radius=False)}], p*_nuc ∈ "
                                         f"[{plo.str(10, radius=False)}, {phi.str(10, radius=False)}] (a positive lower end "
                                         "proves W_F is not a nuclear-SVM solution)"))
    return out


def default_datasets(seed: int = 0):
    return [d_a4(), random_a4_dataset(n=3, L=5, d=4, seed=1), random_a4_dataset(n=2, L=5, d=4, seed=3)]


STATEMENT = """\
(DERIVED.) Under Assumption 4, W° = Σ_i b_i u^k_π(i) u^q_π(i)ᵀ (b_i = max_pairs 1/((1 − c)‖x_opt‖‖z_i‖)) is the unique
Frobenius-SVM solution and a nuclear-SVM solution: the two biases share their solution, so Theorem 5.1 cannot tell
them apart.

Certified: the exact Frobenius QP's solution equals W° entrywise, and W° is nuclear-optimal by an exact dual
certificate.
"""

CLAIM = register(Claim(id="irgf.aux.a4-coincide", paper="irgf", number="(derived, §5)", kind="identity",
                       title="Under Assumption 4 the Frobenius and nuclear SVMs share the solution W°",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("frobenius-equals-nuclear-under-A4",), default_precision=30, parameters=()))
