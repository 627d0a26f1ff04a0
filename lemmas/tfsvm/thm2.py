"""tfsvm Theorem 2 — regularisation paths: Frobenius Att-SVM for W, nuclear Att-SVM⋆ for (K, Q) (v1 §3; Cor 2).

Statement. Under Assumption A (i), (iii), unique optimal tokens opt_i and Att-SVM(opt) feasible,
  (W)    W̄_R = argmin_{‖W‖_F ≤ R} L(W) satisfies  lim_R W̄_R/R = W^mm/‖W^mm‖_F;
  (K,Q)  (K̄_R, Q̄_R) = argmin_{‖K‖_F² + ‖Q‖_F² ≤ 2R} L(K Qᵀ), K, Q ∈ ℝ^{d×m}, satisfies
         lim_R dist(K̄_R Q̄_Rᵀ/R, 𝒲^mm_⋆/C⋆) = 0,
with 𝒲^mm_⋆ the solution *set* of Att-SVM⋆ (min ‖W‖_⋆, rank ≤ m, same constraints) and C⋆ its value. The 2R
budget gives ‖K̄Q̄ᵀ‖_⋆ ≤ R (Lemma 15). Here m = d: the rank constraint is void (Lemma 3 needs only m ≥ n).

Hypotheses (decided on the data): Assumption A for the logistic loss; opt_i unique in every sequence (exact
scores); Att-SVM(opt) feasible, from its verified certificate (infeasible: Farkas certificate).

How it is checked (asymptotic: evidence over the radii computed, never a proof of the limit).
* (W) ``verify.dynamics.regularization_path``: global minimisation of log(L − L⋆) (cancellation-free) on the
  sphere ‖W‖_F = R by Riemannian Newton from the candidate R·Ŵ^mm, the previous radius' optimum and seeded
  random starts; the best is kept. A found value certified (arb) worse than L(R·Ŵ^mm) is an optimisation
  failure: a requirement of the check (INCONCLUSIVE), never HOLDS. 1 − corr(W̄_R, W^mm) (arb, exact W^mm) is
  decided by ``rules.decays`` (no derived rate: the spec's observed slope ≈ −1.85 is for comparison only);
  a plateau answers VIOLATED; 0 to the working precision holds.
* (K,Q) the same search in ψ = (K, Q) on ‖ψ‖² = 2R. Distance of K̄Q̄ᵀ/‖K̄Q̄ᵀ‖_⋆ (= K̄Q̄ᵀ/R where the budget is
  active, reported) to 𝒲^mm_⋆/C⋆
  (``verify.svm.distance``: a float64 SDP over the certified optimal face, ~1e−7 — so values at or below
  ``rules.SDP_DISTANCE_RESOLUTION`` count as 0) decided by ``rules.decays``. Whether 𝒲^mm_⋆ is a point is
  reported (``verify.svm.face.nuclear_unique``: on D-NUC the set is the segment {[[1,b],[b,1]] : |b| ≤ 1}).
  ``target="frobenius"`` compares the (K,Q) path with the Frobenius W^mm instead — the FALSE CASE: where
  Att-SVM⋆ and Att-SVM differ the path's 1 − corr to W^mm plateaus and the rule answers VIOLATED.
False cases (tests): target="frobenius" on lemma4_cross (1 − corr(W^mm, W^mm_⋆) ≈ 0.11) → VIOLATED (a plateau);
tied optimal tokens → NOT_APPLICABLE naming "unique optimal tokens"; D-STAT (Att-SVM infeasible) →
NOT_APPLICABLE naming feasibility.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Figure, Hypothesis, Outcome, Series, register, rules
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.dynamics import regularization_path
from verify.kit.assumptions import assumption_a, svm_feasible
from verify.kit.paths import require_path_optimal
from verify.models.attention import one_minus_corr
from verify.numbers.precision import Precision, log10_abs, to_arb
from verify.svm import solve_svm
from verify.svm.distance import distance_to_solution_set
from verify.svm.face import nuclear_unique

RADII_W = ("1", "3", "10", "30", "100")
RADII_KQ = ("1", "3", "10", "30", "100")
UNIQUE_TOKENS = "unique optimal tokens (opt_i is the only maximiser of γ_it in every sequence)"


def hypotheses(data, prec: Precision):
    opts = data.optimal_tokens()
    ties = [i for i, o in enumerate(opts) if len(o) > 1]
    res = solve_svm(data, "W", "opt", prec.dps, check_unique=False) if not ties else None
    hyps = [assumption_a("logistic", data),
            Hypothesis(UNIQUE_TOKENS, not ties, "ties in sequence(s) " + ", ".join(str(i + 1) for i in ties) if ties
                       else "opt = " + str([o[0] + 1 for o in opts]) + " (1-indexed)")]
    if res is not None:
        hyps.append(svm_feasible(res, "Att-SVM(opt) feasible (W^mm exists)"))
    return hyps, res


def _path(out, data, param, radii, prec, starts, seed):
    """The regularisation path, with the optimisation check as a requirement of the check."""
    rp = regularization_path(data, param, radii, dps=prec.dps, starts=starts, seed=seed)
    require_path_optimal(out, rp, param, prec.tolerance)
    return rp


def evaluate(data, prec: Precision, radii_w=RADII_W, radii_kq=RADII_KQ, target: str = "nuclear", starts: int = 2,
             seed: int = 0, parts=("W", "KQ"), figure: bool = True) -> Outcome:
    hyps, res = hypotheses(data, prec)
    out = Outcome(hypotheses=hyps)
    if not out.applicable():
        return out
    Rw = [to_arb(Fraction(r)) for r in radii_w]
    Rk = [to_arb(Fraction(r)) for r in radii_kq]
    wmm = [to_arb(x) for x in res.solution]
    fig = []
    if "W" in parts:
        rp = _path(out, data, "W", radii_w, prec, starts, seed)
        omc = [one_minus_corr(p.theta, wmm) for p in rp.points]
        out.add(Evidence("(W) 1 − corr(W̄_R, W^mm) → 0 along the path (value at the largest R)", omc[-1],
                         rule=rules.decays(Rw, omc, zero=prec.tolerance), enclosed=False, note=_series(Rw, omc),
                         residual=bool(abs(omc[-1]) <= prec.tolerance)))  # 0 to the working precision: no digits
        fig.append(("W path: 1 − corr(W̄_R, W^mm)", Rw, omc))
    if "KQ" in parts:
        nuc = solve_svm(data, "KQ", "opt", prec.dps, check_unique=False)
        out.require("Att-SVM⋆ (nuclear) solved with a certified value", nuc.status == "optimal",
                    "; ".join(nuc.notes) if nuc.status != "optimal" else
                    f"C⋆ ∈ [{nuc.certificate.lower.str(8, radius=False)}, {nuc.certificate.upper.str(8, radius=False)}]")
        if nuc.status != "optimal":
            return out
        uniq = nuclear_unique(nuc.problem, nuc.duals, prec.dps)
        out.notes.append("𝒲^mm_⋆ is " + {True: "a single point", False: "not a single point (a face: distance to "
                                        "the set, not to one solution)", None: "of undecided size"}[uniq])
        rp = _path(out, data, "KQ", radii_kq, prec, starts, seed)
        within = sum(1 for p in rp.points if p.norm <= p.R * (1 + prec.tolerance))
        active = sum(1 for p in rp.points if abs(p.norm - p.R) <= p.R * prec.tolerance)
        out.notes.append(f"(K,Q) ‖K̄Q̄ᵀ‖_⋆ ≤ R (2R budget) at {within} of {len(rp.points)} radii, = R (so K̄Q̄ᵀ/R is the "
                         f"direction measured) at {active} (mpmath SVD at the working precision)")
        if target == "frobenius":
            ys = [one_minus_corr(p.theta, wmm) for p in rp.points]
            label = "(K,Q) 1 − corr(K̄_R Q̄_Rᵀ, W^mm) → 0 (Frobenius W^mm: the FALSE CASE)"
            rule = rules.decays(Rk, ys, zero=prec.tolerance)
        else:
            # the SDP's ~1e−7 accuracy as the ball's radius (a float carries no digits beyond it)
            acc = to_arb(rules.SDP_DISTANCE_RESOLUTION / 10)
            ys = [arb(distance_to_solution_set(p.theta, nuc, prec.dps).mid(), acc.mid()) for p in rp.points]
            label = "(K,Q) dist(K̄_R Q̄_Rᵀ/R, 𝒲^mm_⋆/C⋆) → 0 (float SDP over the certified face)"
            rule = rules.decays(Rk, ys, zero=rules.SDP_DISTANCE_RESOLUTION)
        zero = prec.tolerance if target == "frobenius" else rules.SDP_DISTANCE_RESOLUTION
        out.add(Evidence(label + " (value at the largest R)", ys[-1], rule=rule, enclosed=False,
                         note=_series(Rk, ys), residual=bool(abs(ys[-1]) <= to_arb(zero))))  # 0 at its resolution: no digits
        fig.append(("(K,Q) path: " + ("1 − corr to W^mm" if target == "frobenius" else "dist to the nuclear SVM⋆ set / C⋆"), Rk, ys))
    out.range = "; ".join(f"{lab.split(':')[0]} R ≤ {float(xs[-1].mid()):g}" for lab, xs, _ in fig)
    if "KQ" in parts:
        out.cover(f"(K,Q) of width m = d = {data.d}")
    if figure and fig:
        series = [Series(lab, [log10_abs(x) for x, y in zip(xs, ys) if y != 0],
                         [log10_abs(y) for y in ys if y != 0], "-o") for lab, xs, ys in fig]
        out.figures.append(Figure("paths", "Theorem 2: regularisation paths against R", "log10 R",
                                  "log10 (1 − corr) / log10 dist", series, caption=(
                                      "log10 at the working precision; values whose ball contains 0 are left out")))
    return out


def _series(xs, ys) -> str:
    return ", ".join(f"{float(x.mid()):g}: {_s(y)}" for x, y in zip(xs, ys))


def _s(y: arb) -> str:
    return y.mid().str(4, radius=False)


def check(data, prec: Precision) -> Outcome:
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [D.lemma4_cross(), D.d_nuc()]


STATEMENT = """\
Regularisation paths (v1 §3, Thm 2): with unique optimal tokens and Att-SVM(opt) feasible, lim_R W̄_R/R =
W^mm/‖W^mm‖_F for W̄_R = argmin_{‖W‖_F ≤ R} L(W), and lim_R dist(K̄_R Q̄_Rᵀ/R, 𝒲^mm_⋆/C⋆) = 0 for (K̄_R, Q̄_R) =
argmin_{‖K‖² + ‖Q‖² ≤ 2R} L(KQᵀ), 𝒲^mm_⋆ the (possibly non-unique) nuclear-norm Att-SVM⋆ solution set.

Evidence over the radii computed: global search on the sphere (multi-start, certified no worse than the SVM
direction), 1 − corr to W^mm and the distance to the nuclear solution set decaying (rules.decays). The (K,Q) path
does not approach the Frobenius W^mm where the two SVMs differ (a plateau).
"""

CLAIM = register(Claim(id="tfsvm.thm2", paper="tfsvm", number="Theorem 2", kind="asymptotic",
                       title="Regularisation paths: W → Frobenius Att-SVM, (K,Q) → nuclear Att-SVM⋆ solution set",
                       statement=STATEMENT, check=check, default_datasets=default_datasets,
                       aliases=("rp-w-frobenius", "rp-kq-nuclear"),
                       parameters=(
                           Parameter("m", "(K,Q) ∈ ℝ^{d×m}, every width m", "range",
                                     "m = d (the rank constraint void) (named in the verdict)"),)))
