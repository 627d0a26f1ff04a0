"""tfsvm Corollary 2 — global RP of sequence-to-sequence attention: Frobenius for W, nuclear for (K, Q) (v1 App D.3).

Statement (as printed). With (SAtt-SVM) feasible for opt (and Cor 1's A, E, unique opt):
  (W)    W̄_R = argmin_{‖W‖_F ≤ R} L_seq(W) satisfies W̄_R/R → W^mm/‖W^mm‖_F;
  (K,Q)  (K̄_R, Q̄_R) = argmin_{‖K‖_F² + ‖Q‖_F² ≤ 2R} L_seq(KQᵀ) satisfies dist(Q̄_R K̄_Rᵀ/R, 𝒲^mm_⋆/‖W^mm_⋆‖_⋆) → 0,
𝒲^mm_⋆ the nuclear SAtt-SVM⋆ solution set (K = 1, m = d gives Theorem 2). L_seq as in Cor 1 (sum over the queries
k, per-query labels Y_ik; causal: query k sees t ≤ k, model and SVM alike).

FLAWED as printed (transposition). The attention logits are x_itᵀ K Qᵀ x_ik (v1 §1: W := KQᵀ), so the (K,Q) path's
W is K̄Q̄ᵀ and the printed Q̄K̄ᵀ = (K̄Q̄ᵀ)ᵀ converges to (𝒲^mm_⋆)ᵀ/C⋆ — which is at positive distance from 𝒲^mm_⋆/C⋆
whenever the solution set is not closed under transposition (the spec notes the slip; Theorem 2, the same
statement for K = 1, prints K̄Q̄ᵀ). Per the project's standards the printed statement is kept: the check measures
BOTH orders; the printed Q̄K̄ᵀ plateaus (rules.decays: VIOLATED, evidence) on the default datasets, whose W^mm_⋆ is
a single non-symmetric rank-one matrix (tests: its asymmetry exactly, ‖W_⋆ − W_⋆ᵀ‖ > 0), while the corrected
K̄Q̄ᵀ decays (shown as its own item, holding). ``order="KQ"`` checks the corrected statement only.

Hypotheses: Assumption A (logistic); unique optimal token per query (window); Assumption E at opt; SAtt-SVM(opt)
feasible (verified certificate).
How it is checked (asymptotic: evidence over the radii computed): as Cor 1 / Theorem 2 — the W path on ‖W‖_F = R
and the (K,Q) path on ‖K‖² + ‖Q‖² = 2R (multi-start Riemannian Newton on log(L − L⋆), certified no worse than the
SVM direction: a requirement); dist(W̄_R/R, Ŵ^mm) exact in arb; the nuclear distances (of K̄Q̄ᵀ and of Q̄K̄ᵀ, each
normalised by its nuclear norm — = /R where the budget is active, reported) by the float SDP over the certified
face (~1e−7); all decided by ``rules.decays``.
Radii (scaled to the data, ``verify.kit.seq2seq.path_r0``): R = R₀·(1, 3, 10, 30, 100) per norm ⋄, R₀ =
‖W^mm‖_⋄·max(1, ln(B·T/min(c, 1))) — the proof's R₀ = (1/ε)·log(B·T/c) at the SVM direction's margin per unit norm
ε = 1/‖W^mm‖_⋄ — so R·(margin per unit norm) spans the same logit range on every dataset (tokens at 10⁻³: R₀ ~ 10⁶;
the defaults: R₀ = 2.55 / 2.67 (s2s_labels, F / ⋆), 7.97 (s2s_causal), formerly a fixed R ∈ {1, …, 100}). A plateau is
read only where the rule's last radii are ≥ R₀ (``rules.in_regime``): radii given below it (option ``radii``) give
INCONCLUSIVE naming the regime, never VIOLATED.
False cases (tests): the printed order on the defaults → VIOLATED (the finding); a symmetric dataset (D-NUC as a
seq2seq dataset, its 𝒲^mm_⋆ closed under transposition) → the printed order holds too; tied optimal tokens →
NOT_APPLICABLE; an infeasible SAtt-SVM → NOT_APPLICABLE naming feasibility.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Figure, Outcome, Series, register, rules
from verify.claims.registry import Parameter
from verify.data import tfsvm_seq2seq as D
from verify.kit.seq2seq import (
    FACTORS,
    RADII_PARAMETER,
    distance_series,
    format_r,
    frobenius_norm,
    global_path,
    global_path_outcome,
    path_evidence,
    path_r0,
    path_radii,
    transpose,
)
from verify.numbers.precision import Precision, log10_abs
from verify.svm.face import nuclear_unique
from verify.svm.seq2seq import satt_svm

ORDERS = ("both", "KQ", "QK")


def evaluate(data, prec: Precision, radii=None, factors=FACTORS, order: str = "both", parts=("W", "KQ"),
             starts: int = 2, seed: int = 0, figure: bool = True) -> Outcome:
    """``radii``: absolute radii for both paths (default R₀·``factors`` per norm, R₀ = ``path_r0``)."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}")
    causal = data.causal
    out, fro, ready = global_path_outcome(data, prec)
    if not ready:
        return out
    given = None if radii is None else tuple(str(r) for r in radii)
    ranges = []
    d, fig = data.d, []
    if "W" in parts:
        r0 = path_r0(data, frobenius_norm(fro.solution))
        radii = given or path_radii(r0, factors)
        _, rp = global_path(out, data, "W", radii, prec, starts, seed)
        ys = distance_series([p.theta for p in rp.points], fro, prec.dps, nuclear=False)
        xs = path_evidence(out, "(W) ‖W̄_R/R − W^mm/‖W^mm‖_F‖_F → 0", [p.R for p in rp.points], ys, prec,
                           prec.tolerance, r0=r0)
        ranges.append(f"W: R₀ = {format_r(r0)} ≤ R ≤ {format_r(Fraction(radii[-1]))}")
        fig.append(("W: dist(W̄_R/R, Ŵ^mm)", xs, ys))
    if "KQ" in parts:
        nuc = satt_svm(data, None, causal, dps=prec.dps, norm="nuc", check_unique=False)
        out.require("SAtt-SVM⋆ (nuclear) solved with a certified value", nuc.status == "optimal",
                    "; ".join(nuc.notes) if nuc.status != "optimal" else
                    f"‖W^mm_⋆‖_⋆ = C⋆ ∈ [{nuc.certificate.lower.str(8, radius=False)}, "
                    f"{nuc.certificate.upper.str(8, radius=False)}]")
        if nuc.status != "optimal":
            return out
        uniq = nuclear_unique(nuc.problem, nuc.duals, prec.dps)
        out.notes.append("𝒲^mm_⋆ is " + {True: "a single point", False: "not a single point (distance to the set)",
                                        None: "of undecided size"}[uniq])
        r0 = path_r0(data, nuc.certificate.upper)
        radii = given or path_radii(r0, factors)
        ranges.append(f"(K,Q): R₀ = {format_r(r0)} ≤ R ≤ {format_r(Fraction(radii[-1]))}")
        _, rp = global_path(out, data, "KQ", radii, prec, starts, seed)
        active = sum(1 for p in rp.points if abs(p.norm - p.R) <= p.R * prec.tolerance)
        out.notes.append(f"(K,Q) ‖K̄Q̄ᵀ‖_⋆ = R (budget active, so /‖·‖_⋆ = /R) at {active} of {len(rp.points)} radii")
        Rs = [p.R for p in rp.points]
        if order in ("both", "KQ"):
            ys = distance_series([p.theta for p in rp.points], nuc, prec.dps, nuclear=True)
            xs = path_evidence(out, "(K,Q) dist(K̄_R Q̄_Rᵀ/R, 𝒲^mm_⋆/‖W^mm_⋆‖_⋆) → 0 (the corrected order W = KQᵀ)",
                               Rs, ys, prec, rules.SDP_DISTANCE_RESOLUTION, r0=r0)
            fig.append(("(K,Q) K̄Q̄ᵀ (corrected)", xs, ys))
        if order in ("both", "QK"):
            ys = distance_series([transpose(p.theta, d) for p in rp.points], nuc, prec.dps, nuclear=True)
            xs = path_evidence(out, "(K,Q) dist(Q̄_R K̄_Rᵀ/R, 𝒲^mm_⋆/‖W^mm_⋆‖_⋆) → 0 (AS PRINTED: Q̄K̄ᵀ)",
                               Rs, ys, prec, rules.SDP_DISTANCE_RESOLUTION, r0=r0)
            fig.append(("(K,Q) Q̄K̄ᵀ (as printed)", xs, ys))
    out.range = "; ".join(ranges) + (" (causal)" if causal else "")
    if "KQ" in parts:
        out.cover(f"(K,Q) of width m = d = {d}")
    if figure and fig:
        out.figures.append(Figure("paths", "Corollary 2: seq2seq paths against R", "log10 R", "log10 dist",
                                  [Series(lab, [log10_abs(x) for x, y in zip(xs, ys) if y != 0],
                                          [log10_abs(y) for y in ys if y != 0], "-o") for lab, xs, ys in fig],
                                  caption="log10 at the working precision (nuclear distances: float SDP, ~1e−7); "
                                          "values whose ball contains 0 are left out"))
    return out


def check(data, prec: Precision, radii=None) -> Outcome:
    return evaluate(data, prec, radii=None if radii is None else tuple(str(Fraction(r)) for r in radii))


def default_datasets(seed: int = 0):
    return [D.s2s_labels(), D.s2s_causal()]


STATEMENT = """\
Global RP for sequence-to-sequence attention (v1 App D.3, Cor 2): with SAtt-SVM(opt) feasible, W̄_R/R → W^mm/‖W^mm‖_F
and dist(Q̄_R K̄_Rᵀ/R, 𝒲^mm_⋆/‖W^mm_⋆‖_⋆) → 0 as printed — the attention's W is KQᵀ, so the printed Q̄K̄ᵀ is the
transpose of the path's W and fails wherever 𝒲^mm_⋆ is not closed under transposition (VIOLATED on the defaults);
the corrected K̄Q̄ᵀ is checked beside it.
"""

CLAIM = register(Claim(id="tfsvm.cor2", paper="tfsvm", number="Corollary 2", kind="asymptotic",
                       title="Global seq2seq RP: W → Frobenius SAtt-SVM, (K,Q) → nuclear set (printed as Q̄K̄ᵀ)",
                       statement=STATEMENT, check=check, default_datasets=default_datasets,
                       aliases=("rp-seq2seq-global",),
                       parameters=(
                           Parameter("m", "(K,Q) ∈ ℝ^{d×m}, every width m", "range",
                                     "m = d (the rank constraint void) (named in the verdict)"),
                           RADII_PARAMETER,)))
