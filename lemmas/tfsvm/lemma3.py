"""tfsvm Lemma 3 — rank-constrained vs convex nuclear-norm Att-SVM⋆ (v1 §3).

Statement. Let 𝒲_⋆ (value C⋆) be the solution set of Att-SVM⋆ min ‖W‖_⋆ s.t. (x_iα_i − x_it)ᵀWz_i ≥ 1, rank W ≤ m,
and 𝒲_cvx (value C_cvx) that of the convex problem (m = d). (1) If 𝒲_⋆ ∩ 𝒲_cvx ≠ ∅ then C⋆ = C_cvx and 𝒲_⋆ ⊆ 𝒲_cvx.
(2) If every element of 𝒲_cvx has rank ≤ m then 𝒲_⋆ = 𝒲_cvx; with Lemma 1 (every solution has rank ≤ n) this
holds whenever m ≥ n.
Hypotheses. Att-SVM⋆ feasible (certified value); (1): a rank-≤m element of 𝒲_cvx is found (certified below); (2):
every element of 𝒲_cvx has rank ≤ m — met when m ≥ n (Lemma 1) or m ≥ d, not met when a certified member of rank > m
is found, undecided otherwise.
How it is checked. ``verify.svm.solve_svm(kind="KQ", rank=m)``: the convex solution with its certificate
C_cvx ∈ [C_lo, C_up] and a rank-m point (truncated SVD / face vertices, rescaled to feasibility). Candidate elements
of 𝒲_cvx: the polished solution, the optimal face's extreme points (random linear objectives, float SDP, then
rationalised) and the midpoints of pairs of them. A candidate is a *certified member* when every margin is
≥ 1 − 10^-dps and its nuclear upper bound is ≤ C_lo + 10^-dps (scaled) — an identity to the working precision.
Rank: > m is proved by an (m+1)-minor whose determinant ball excludes 0; ≤ m by ‖W − W_m‖_F ≤ 10^-dps (W_m the
truncated SVD). Deciding: (1) C⋆ − C_cvx ≈ 0 (C_lo ≤ C⋆ ≤ the rank-m point's upper bound) and every rank-≤m candidate
attaining C⋆ is in 𝒲_cvx; (2) every certified member of 𝒲_cvx lies in 𝒲_⋆ (has rank ≤ m).
False case (spec, tests): D-NUC with m = 1 — 𝒲_cvx = {[[1,b],[b,1]] : |b| ≤ 1} ∋ I (rank 2), 𝒲_⋆ = {b = ±1},
C⋆ = C_cvx = 2: asserting (2) without its hypothesis (``require_rank=False``) → VIOLATED at I (the midpoint of the
two vertices); with it → NOT_APPLICABLE; (1) holds there.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from flint import arb, arb_mat

from verify.claims import Claim, Evidence, Hypothesis, Outcome, Tally, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.geometry.tfsvm_svm import as_arb_mat, balanced_factors
from verify.kit.assumptions import svm_feasible
from verify.numbers.linalg import norm_enclosure
from verify.numbers.precision import Precision, to_arb
from verify.svm import solve_svm
from verify.svm.face import nuclear_face_vertices
from verify.svm.spectral import nuclear_bounds


def evaluate(data, prec: Precision, m: int | None = None, part: str = "both", require_rank: bool = True) -> Outcome:
    """``m`` (default n); ``part`` "1", "2" or "both"; ``require_rank=False`` drops (2)'s hypothesis."""
    n, d = data.n, data.d
    m = n if m is None else m
    res = solve_svm(data, "KQ", "opt", prec.dps, rank=m, check_unique=False)
    out = Outcome(hypotheses=[svm_feasible(res, "Att-SVM⋆ feasible (certified value C_cvx)")])
    if not out.applicable():
        return out
    tol, prob = prec.tolerance, res.problem
    c_lo, c_up = res.certificate.lower, res.certificate.upper
    out.add(Evidence("C_cvx (certified enclosure)", (c_lo + c_up) / 2, note=f"[{c_lo.str(12)}, {c_up.str(12)}]"))
    cands = [("the polished convex solution", arb_mat(d, d, list(res.solution)))]
    verts = nuclear_face_vertices(prob, res.duals, prec.dps)
    for k, V in enumerate(verts):
        cands.append((f"face vertex {k} (rationalised)", _rational(V)))
    for (a, V), (b, U) in itertools.combinations(enumerate(verts), 2):
        cands.append((f"midpoint of face vertices {a}, {b} (rationalised)", _rational((V + U) / 2)))
    rm = res.rank_m or {}
    if rm.get("W") is not None:
        cands.append((f"rank-{m} point ({rm['method']})", arb_mat(d, d, list(rm["W"]))))
    members, values = [], {}
    for name, W in cands:
        ok, lo_up = member(prob, W, c_lo, tol)
        values[name] = lo_up
        if ok:
            members.append((name, W, rank_le(W, m, tol)))
    out.notes.append(f"{len(cands)} candidates, {len(members)} certified members of 𝒲_cvx: " +
                     "; ".join(f"{nm} (rank ≤ {m}: {r})" for nm, _, r in members))
    low = [(nm, W) for nm, W, r in members if r is True]
    if part in ("1", "both"):
        out.hypotheses.append(Hypothesis(f"(1) 𝒲_⋆ ∩ 𝒲_cvx ≠ ∅ (a certified member of 𝒲_cvx with rank ≤ {m})",
                                         bool(low) or None, low[0][0] if low else "none found"))
    if part in ("2", "both") and require_rank:
        high = [nm for nm, _, r in members if r is False]
        met = True if m >= min(n, d) else (False if high else None)
        out.hypotheses.append(Hypothesis(f"(2) every element of 𝒲_cvx has rank ≤ m = {m}", met,
                                         f"m ≥ n = {n} (Lemma 1)" if m >= n else f"m ≥ d = {d}" if m >= d else
                                         f"member of rank > m: {high[0]}" if high else "no certificate either way"))
    elif part in ("2", "both"):
        out.notes.append("(2)'s rank hypothesis is NOT required (the false case)")
    if not out.applicable():
        return out
    if part in ("1", "both"):
        up_m = min((values[nm][1] for nm, _ in low), key=lambda x: x.mid())
        out.add(Evidence("(1) C⋆ − C_cvx ≈ 0 (C_lo ≤ C_cvx ≤ C⋆ ≤ ‖W‖_⋆ of a rank-≤m member)", up_m - c_lo, "<=",
                         tol * max(arb(1), c_up), residual=True))
        sub = Tally(f"(1) 𝒲_⋆ ⊆ 𝒲_cvx: every rank-≤{m} feasible candidate attaining C⋆ is a member of 𝒲_cvx", "==", True)
        for name, W in cands:
            if rank_le(W, m, tol) is True and feasible(prob, W, tol) and values[name][1] - up_m <= tol:
                sub.add(member(prob, W, c_lo, tol)[0] is True, name)
        out.add(sub.evidence())
    if part in ("2", "both"):
        eq = Tally(f"(2) 𝒲_cvx ⊆ 𝒲_⋆: every certified member of 𝒲_cvx has rank ≤ m = {m} (1 = yes)", "==", 1)
        for name, W, r in members:
            eq.add(arb("nan") if r is None else int(r), name + ("" if r else f": rank > {m}, so not in 𝒲_⋆"))
        out.add(eq.evidence())
    out.cover(f"m = {m}; W ∈ 𝒲_cvx at its {len(members)} certified member(s) among {len(cands)} candidates (the "
              "polished solution, face vertices and their midpoints, the rank-m point)")
    return out


def feasible(prob, W: arb_mat, tol) -> bool:
    d = W.nrows()
    flat = [W[a, c] for a in range(d) for c in range(d)]
    return all(sum((to_arb(r[k]) * flat[k] for k in range(len(flat)) if r[k]), arb(0)) - to_arb(b) >= -tol
               for r, b in zip(prob.rows, prob.rhs))


def member(prob, W: arb_mat, c_lo, tol):
    """(True when certainly feasible to 10^-dps and ‖W‖_⋆ ≤ C_lo + 10^-dps·scale, else False/None, (lo, up))."""
    lo, up = nuclear_bounds(W)
    if not feasible(prob, W, tol):
        return False, (lo, up)
    gap = up - c_lo
    scale = max(arb(1), c_lo)
    return (True if gap <= tol * scale else False if lo - c_lo > tol * scale else None), (lo, up)


def rank_le(W: arb_mat, m: int, tol):
    """True: ‖W − W_m‖_F ≤ 10^-dps (W_m truncated SVD); False: an (m+1)-minor certainly ≠ 0; else None."""
    d = W.nrows()
    if m >= d:
        return True
    for rows in itertools.combinations(range(d), m + 1):
        for cols in itertools.combinations(range(d), m + 1):
            if not arb_mat([[W[a, c] for c in cols] for a in rows]).det().contains(0):
                return False
    K, Q = balanced_factors(W, m)
    return True if norm_enclosure((W - K * Q.transpose()).entries()) <= tol else None


def _rational(V: np.ndarray) -> arb_mat:
    return as_arb_mat([[Fraction(float(x)).limit_denominator(10**6) for x in row] for row in V])


def default_datasets(seed: int = 0):
    return [D.d_nuc(), D.d_t2(), D.d_lmm()]


STATEMENT = """\
With 𝒲_⋆ (value C⋆) the rank-≤m solutions of Att-SVM⋆ and 𝒲_cvx (value C_cvx) the convex ones (m = d):
𝒲_⋆ ∩ 𝒲_cvx ≠ ∅ ⇒ C⋆ = C_cvx and 𝒲_⋆ ⊆ 𝒲_cvx; every element of 𝒲_cvx of rank ≤ m ⇒ 𝒲_⋆ = 𝒲_cvx (m ≥ n suffices,
Lemma 1) (v1 §3).

Certified to the working precision on enumerated elements of the optimal face (extreme points and midpoints):
membership by the certified value and margins, ranks by minors / truncation residuals.
"""

CLAIM = register(Claim(id="tfsvm.lemma3", paper="tfsvm", number="Lemma 3", kind="identity",
                       title="Rank-constrained vs convex nuclear Att-SVM⋆: equal values and solution sets",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("nuclear-svm-rank-constraint",),
                       parameters=(
                           Parameter("m", "the rank bound m", "range", "m = n unless `m` is given (named in the verdict)",
                                     option="m", kind="integer", low=1, high=6),
                           Parameter("W", "every W ∈ 𝒲_cvx (and 𝒲_⋆)", "range",
                                     "the certified members among the candidates: the polished solution, the optimal "
                                     "face's extreme points (random objectives) and their midpoints, the rank-m point "
                                     "(named in the verdict)"))))
