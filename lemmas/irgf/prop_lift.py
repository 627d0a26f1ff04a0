"""irgf — the spectral ℓ1 solution lifts to a nuclear-SVM solution (Sheen, Chen, Wang, Zhou, arXiv 2403.08699 v1,
Eq. (9) = (42), proof of Theorem 5.1 (43)–(45)).

Statement (static). Under Assumption 4 (d_e ≥ d, so the rank constraint of (W*-SVM) is vacuous), if β̃ solves

    (42)   min ‖β‖₁  s.t.  βᵀB̃_il ≥ 1,   B̃_il = sign⟨x_{i,opt}, z_i⟩ ⟨x_{i,opt} − x_il, z_i⟩ e_{π(i)},

then U_K Diag(β̃) U_Qᵀ solves (W*-SVM): min ‖W‖_* s.t. (x_opt − x_il)ᵀ W z_i ≥ 1, with U_K, U_Q the data's bases (7)
(x_{i,opt}/‖x_{i,opt}‖ = u^k_{π(i)}, z_i/‖z_i‖ = u^q_{π(i)}). Ingredients: β(t)ᵀB̃_il = (x_opt − x_il)ᵀ W z_i; paired tokens
carry equal multipliers, so Σλ_il (x_opt − x_il) z_iᵀ = U_K Diag(Σλ_il B̃_il) U_Qᵀ (44); ∂‖W‖_* = conv{U Diag(d) Vᵀ :
d ∈ ∂‖β‖₁} (Watson 1992, (45)).

Hypotheses (exact; → NOT_APPLICABLE naming it): Assumption 4 (``verify.kit.irgf.assumption4``); the lift uses the
bases of (7) (u^q_{π(i)} = +z_i/‖z_i‖: the option ``flip`` negates one used column, the false case).

How it is checked (certified, exact rational arithmetic throughout). (42) is solved by the exact LP of
``verify.svm`` (verified certificate) and compared with its DERIVED closed form β̃_{π(i)} = max over the pairs of
1/((1 − c)|⟨x_opt, z_i⟩|) (= 1/((1 − c)‖x_opt‖‖z_i‖) by (ii)), other entries 0. The lift W = Σ_i β̃_i x_i z_iᵀ/|⟨x_i, z_i⟩|
is rational. Certificate of optimality (``verify.kit.irgf_kq``): feasibility (min margin − 1 ≥ 0); the duals of (42)
made equal within each pair (44) are ≥ 0 and Λ = Σλ_il (x_opt − x_il)z_iᵀ has ‖Λ‖₂ ≤ 1 ([[I, Λ], [Λᵀ, I]] ⪰ 0);
‖W‖_* ≤ t by the PSD block [[P, W], [Wᵀ, R]] (P = Σ|β̃_i| u^k_i u^k_iᵀ, R = Σ|β̃_i| u^q_i u^q_iᵀ, t = ‖β̃‖₁); t = Σλ
(zero gap). PSD is decided by the signs of the exact characteristic polynomial. Shown beside: the engine's
polished nuclear SVM (``verify.svm.nuclear``), its certified interval for p*_nuc.
Spec: cvxpy on D-A4 gave 1.39999999998 vs the lifted 1.4; here p*_nuc = 7/5 exactly.

False cases (tests): the lift with a wrong basis (``flip`` = i: u^q_{π(i)} negated) → sequence i's margins become
−1 < 1: VIOLATED certified (exact) with the basis hypothesis bypassed, NOT_APPLICABLE naming (7) with it; data
violating Assumption 4 (D-A4-SHIFT, D-SEED0) → NOT_APPLICABLE naming Assumption 4.
"""
from __future__ import annotations

from verify.claims import Claim, Evidence, Hypothesis, Outcome, register
from verify.data.irgf import d_a4, random_a4_dataset
from verify.errors import UsageError
from verify.kit import irgf
from verify.kit import irgf_kq as G
from verify.numbers.precision import Precision


def evaluate(data, prec: Precision, flip=None, check_hypotheses: bool = True) -> Outcome:
    """``flip``: the sequence whose u^q column is negated in the lift (a wrong basis, the false case)."""
    out = Outcome()
    ok4, det4, info = irgf.assumption4(data)
    if flip is not None and not (0 <= int(flip) < data.n):
        raise UsageError(f"flip must be a sequence index in 0..{data.n - 1}, got {flip}")
    flip = None if flip is None else int(flip)
    hyps = [Hypothesis(irgf.NAMES[irgf.A4], ok4, det4),
            Hypothesis("the lift uses the bases of (7): u^q_π(i) = z_i/‖z_i‖, u^k_π(i) = x_i,opt/‖x_i,opt‖", flip is None,
                       "the data's bases" if flip is None else f"u^q of sequence {flip} negated (a wrong basis)")]
    if check_hypotheses:
        out.hypotheses.extend(hyps)
    else:
        unmet = "; ".join(f"{h.name}: {h.detail}" for h in hyps if h.met is not True) or "none"
        out.notes.append(f"hypothesis check bypassed (false-case mode); unmet: {unmet}")
    if not out.applicable():
        return out
    if not out.require("Assumption 4's structure (bases (7) and pairs)", info is not None and info["pairs"] is not None
                       and info["ok_i"] and info["ok_ii"], det4):
        return out
    lifted = G.lifted_solution(data, info, flip=flip, dps=prec.dps)
    if not out.require("(42) has a certified exact optimum", lifted is not None):
        return out
    out.add(Evidence("β̃ of (42) (exact LP, verified certificate) = the DERIVED closed form", lifted.beta == lifted.closed,
                     "==", True, note=f"β̃ = ({', '.join(map(str, lifted.beta))}); closed form "
                                      f"({', '.join(map(str, lifted.closed))})"))
    out.add(*G.certificate_evidence(lifted, "W"))
    out.add(Evidence("‖β̃‖₁ = ‖U_K Diag(β̃) U_Qᵀ‖_* (certified value p*_nuc)", lifted.cert.t,
                     note="t of the certificate; = Σλ when the gap is 0"))
    from verify.svm import solve_svm

    nuc = solve_svm(data, "KQ", dps=prec.dps, check_unique=False)
    if nuc.status == "optimal":
        out.add(Evidence("p*_nuc from the engine's polished nuclear SVM (certified interval, midpoint shown)",
                         nuc.objective, note=f"[{nuc.certificate.lower.str(10, radius=False)}, "
                                             f"{nuc.certificate.upper.str(10, radius=False)}] (verify.svm.nuclear)"))
    out.notes.append("W = " + "; ".join("(" + ", ".join(map(str, row)) + ")" for row in lifted.W))
    return out


def default_datasets(seed: int = 0):
    return [d_a4(), random_a4_dataset(n=3, L=5, d=4, seed=1), random_a4_dataset(n=2, L=5, d=4, seed=3)]


STATEMENT = """\
Under Assumption 4 (d_e ≥ d), if β̃ solves (42) min ‖β‖₁ s.t. βᵀB̃_il ≥ 1 (B̃_il = sign⟨x_opt, z_i⟩⟨x_opt − x_il, z_i⟩
e_π(i)), then U_K Diag(β̃) U_Qᵀ solves (W*-SVM) min ‖W‖_* s.t. (x_opt − x_il)ᵀ W z_i ≥ 1.

Certified in exact rational arithmetic: (42) by the exact LP, the lift by a dual certificate (feasible, λ ≥ 0 equal
within pairs (44), ‖Σλ A‖₂ ≤ 1 and ‖W‖_* ≤ ‖β̃‖₁ = Σλ by PSD blocks decided from exact characteristic polynomials).
"""

CLAIM = register(Claim(id="irgf.prop.lift", paper="irgf", number="Eq. (9)=(42), (43)–(45)", kind="identity",
                       title="The spectral ℓ1 solution lifts to a nuclear-SVM solution", statement=STATEMENT,
                       check=evaluate, default_datasets=default_datasets,
                       aliases=("spectral-l1-lifts-to-nuclear",), default_precision=30, parameters=()))
