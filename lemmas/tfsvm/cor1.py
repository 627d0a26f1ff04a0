"""tfsvm Corollary 1 — global regularisation path of sequence-to-sequence attention, any norm (v1 App D.3).

Statement. Under Assumptions A and E with unique optimal tokens opt_ik (every query k of every sequence i), the
global path W̄_{⋄,R} ∈ argmin{L_seq(W) : ‖W‖_⋄ ≤ R} satisfies
    lim_R dist(W̄_{⋄,R}/R, 𝒲^mm_⋄) = 0,
𝒲^mm_⋄ the unit-⋄-norm solution set of (SAtt-SVM) with norm ⋄ (v1 App D: min ‖W‖_⋄ s.t.
(x_{iα_ik} − x_it)ᵀ W x_ik ≥ 1, α = opt; a set when ⋄ is not strictly convex), and
L_seq(W) = (1/n) Σ_i Σ_k ℓ(Y_ik vᵀ X_iᵀ S(X_i W x_ik)) (sum over the queries, no 1/K; per-query labels Y_ik,
``verify.models.seq2seq``). Causal attention (query k sees t ≤ k; v1 §7 formulates it without a theorem) is
checked the same way, masking model and SVM alike (causal query 0 has no constraint).

Hypotheses (decided on the data): Assumption A (logistic loss); unique optimal token of every query over its window
(exact scores γ_ikt = Y_ik vᵀx_it); Assumption E at opt (exact; the linear head satisfies it with c = the smallest
score gap); SAtt-SVM(opt) feasible (verified certificate; the corollary presupposes 𝒲^mm_⋄ — its proof is Theorem 10
with α = opt, whose separating cone is every matrix).
How it is checked (asymptotic: evidence over the radii computed). ⋄ ∈ {Frobenius, nuclear}:
* ⋄ = F: ``regularization_path`` on the sphere ‖W‖_F = R (multi-start Riemannian Newton on log(L − L⋆), certified no
  worse than R·Ŵ^mm); dist(W̄/R, W^mm/‖W^mm‖_F) (exact W^mm, arb) decided by ``rules.decays``.
* ⋄ = ⋆ (nuclear): the nuclear ball is the (K, Q) path with budget ‖K‖² + ‖Q‖² ≤ 2R (Lemma 15: ‖KQᵀ‖_⋆ ≤ R, equal
  at the balanced optimum), m = d; dist(W̄/‖W̄‖_⋆, 𝒲^mm_⋆/C⋆) by the float SDP over the certified optimal face
  (``verify.svm.distance``, ~1e−7: values ≤ ``rules.SDP_DISTANCE_RESOLUTION`` count as 0), ``rules.decays``.
  Whether 𝒲^mm_⋆ is one point is reported.
Radii (scaled to the data, ``verify.kit.seq2seq.path_r0``): R = R₀·(1, 3, 10, 30, 100) per norm ⋄, R₀ =
‖W^mm‖_⋄·max(1, ln(B·T/min(c, 1))) — the proof's R₀ = (1/ε)·log(B·T/c) at the SVM direction's margin per unit norm
ε = 1/‖W^mm‖_⋄ — so R·(margin per unit norm) spans the same logit range on every dataset (tokens at 10⁻³: R₀ ~ 10⁶;
the defaults: R₀ = 2.55 / 2.67 (s2s_labels, F / ⋆), 7.97 (s2s_causal), formerly a fixed R ∈ {1, …, 100}). A plateau is
read only where the rule's last radii are ≥ R₀ (``rules.in_regime``): radii given below it (option ``radii``) give
INCONCLUSIVE naming the regime, never VIOLATED.
False cases (tests): target="transpose" compares the path's Wᵀ with the solution set (the order printed in Cor 2)
→ VIOLATED (a plateau) on a dataset with non-symmetric W^mm; tied optimal tokens → NOT_APPLICABLE; a concave head
h(x) = vᵀx − λ‖x‖² with Y = +1 rising toward a low-score token → NOT_APPLICABLE naming Assumption E; an infeasible
SAtt-SVM → NOT_APPLICABLE.
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


def evaluate(data, prec: Precision, radii=None, factors=FACTORS, norms=("F", "nuclear"), target: str = "svm",
             starts: int = 2, seed: int = 0, figure: bool = True) -> Outcome:
    """``radii``: absolute radii for both norms (default R₀·``factors`` per norm, R₀ = ``path_r0``)."""
    causal = data.causal
    out, fro, ready = global_path_outcome(data, prec)
    if not ready:
        return out
    given = None if radii is None else tuple(str(r) for r in radii)
    ranges = []
    T = "Wᵀ (transposed: the FALSE CASE)" if target == "transpose" else "W̄"
    fig = []
    d = data.d
    if "F" in norms:
        r0 = path_r0(data, frobenius_norm(fro.solution))
        radii = given or path_radii(r0, factors)
        _, rp = global_path(out, data, "W", radii, prec, starts, seed)
        th = [transpose(p.theta, d) if target == "transpose" else p.theta for p in rp.points]
        ys = distance_series(th, fro, prec.dps, nuclear=False)
        xs = path_evidence(out, f"(⋄ = F) dist({T}_R/R, W^mm/‖W^mm‖_F) → 0", [p.R for p in rp.points], ys, prec,
                           prec.tolerance, r0=r0)
        ranges.append(f"⋄ = F: R₀ = {format_r(r0)} ≤ R ≤ {format_r(Fraction(radii[-1]))}")
        fig.append(("⋄ = F: dist to W^mm/‖W^mm‖_F", xs, ys))
    if "nuclear" in norms:
        nuc = satt_svm(data, None, causal, dps=prec.dps, norm="nuc", check_unique=False)
        out.require("SAtt-SVM⋆ (nuclear) solved with a certified value", nuc.status == "optimal",
                    "; ".join(nuc.notes) if nuc.status != "optimal" else
                    f"C⋆ ∈ [{nuc.certificate.lower.str(8, radius=False)}, {nuc.certificate.upper.str(8, radius=False)}]")
        if nuc.status != "optimal":
            return out
        uniq = nuclear_unique(nuc.problem, nuc.duals, prec.dps)
        out.notes.append("𝒲^mm_⋆ is " + {True: "a single point", False: "not a single point (distance to the set)",
                                        None: "of undecided size"}[uniq])
        r0 = path_r0(data, nuc.certificate.upper)
        radii = given or path_radii(r0, factors)
        _, rp = global_path(out, data, "KQ", radii, prec, starts, seed)
        active = sum(1 for p in rp.points if abs(p.norm - p.R) <= p.R * prec.tolerance)
        out.notes.append(f"(⋄ = ⋆) ‖K̄Q̄ᵀ‖_⋆ = R (budget active) at {active} of {len(rp.points)} radii")
        th = [transpose(p.theta, d) if target == "transpose" else p.theta for p in rp.points]
        ys = distance_series(th, nuc, prec.dps, nuclear=True)
        xs = path_evidence(out, f"(⋄ = ⋆) dist({T}_R/‖W̄_R‖_⋆, 𝒲^mm_⋆/C⋆) → 0 (float SDP over the certified face)",
                           [p.R for p in rp.points], ys, prec, rules.SDP_DISTANCE_RESOLUTION, r0=r0)
        ranges.append(f"⋄ = ⋆: R₀ = {format_r(r0)} ≤ R ≤ {format_r(Fraction(radii[-1]))}")
        fig.append(("⋄ = ⋆: dist to 𝒲^mm_⋆/C⋆ (SDP, ~1e−7)", xs, ys))
    out.range = "; ".join(ranges) + (" (causal)" if causal else "")
    out.cover("⋄ ∈ {" + ", ".join("Frobenius" if n == "F" else "nuclear" for n in norms) + "}, m = d")
    if figure and fig:
        out.figures.append(Figure("paths", "Corollary 1: global seq2seq paths against R", "log10 R", "log10 dist",
                                  [Series(lab, [log10_abs(x) for x, y in zip(xs, ys) if y != 0],
                                          [log10_abs(y) for y in ys if y != 0], "-o") for lab, xs, ys in fig],
                                  caption="log10 at the working precision; values whose ball contains 0 are left out"))
    return out


def check(data, prec: Precision, radii=None) -> Outcome:
    return evaluate(data, prec, radii=None if radii is None else tuple(str(Fraction(r)) for r in radii))


def default_datasets(seed: int = 0):
    return [D.s2s_labels(), D.s2s_causal()]


STATEMENT = """\
Global RP for sequence-to-sequence attention (v1 App D.3, Cor 1): under A, E and unique optimal tokens,
dist(W̄_{⋄,R}/R, 𝒲^mm_⋄) → 0 for W̄_{⋄,R} ∈ argmin{L_seq(W) : ‖W‖_⋄ ≤ R}, 𝒲^mm_⋄ the unit-⋄-norm SAtt-SVM solution set.

Evidence over the radii computed, ⋄ = Frobenius (W path) and nuclear ((K,Q) path, budget 2R ≡ ‖W‖_⋆ ≤ R), causal
masking applied to model and SVM alike on causal datasets.
"""

CLAIM = register(Claim(id="tfsvm.cor1", paper="tfsvm", number="Corollary 1", kind="asymptotic",
                       title="Global regularisation path of sequence-to-sequence attention → ⋄-norm SAtt-SVM set",
                       statement=STATEMENT, check=check, default_datasets=default_datasets,
                       aliases=("rp-seq2seq-global",),
                       parameters=(
                           Parameter("⋄", "every norm ‖·‖_⋄", "range",
                                     "Frobenius and nuclear (named in the verdict)"),
                           RADII_PARAMETER,)))
