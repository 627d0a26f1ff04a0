"""mmts Theorem 1 — the regularization path converges to the GMM direction (Sec. 2.1; proof App. B.2, a corollary
of Lemma 14 and Theorem 8).

Statement (SEED+). Under Assumption A and γ_it < γ_{i,opt_i} for all i and t ≠ opt_i (unique optimal tokens), the
regularization path (2) p̄(R) ∈ argmin_{‖p‖ ≤ R} L(p) satisfies

    lim_{R→∞} p̄(R)/R = p^mm/‖p^mm‖,      p^mm = p^mm(opt) of (ATT-SVM)

for every selection p̄(R) (in particular ‖p̄(R)‖ = R eventually). No Assumption B, any n. ATT-SVM(opt) feasible is
implicit (p^mm must exist) and is checked as a hypothesis.

Hypotheses (computed): Assumption A for the logistic loss; unique optimal tokens (exact scores); ATT-SVM(opt)
feasible from its verified certificate (infeasible: Farkas certificate).

How it is checked (asymptotic: evidence over the radii computed). ``verify.dynamics.regularization_path``: at each
R the global minimum of log(L − L⋆) (cancellation-free) on the sphere ‖p‖ = R by Riemannian Newton from R·p̄^mm,
the previous optimum and seeded random starts, the best kept; a positive radial derivative triggers an interior
search (the ball's minimiser). Global optimality is multistart evidence; a found value certainly worse than
L(R·p̄^mm) is an optimisation failure (a requirement of the check: INCONCLUSIVE, ``verify.kit.paths``). Deciding:
1 − corr(p̄(R), p^mm) (arb, exact p^mm) → 0 by ``rules.decays`` (no rate is stated; 0 to the working precision
holds), and ‖p̄(R)‖ = R (the sphere) at the largest radii. Spec numbers: Fig. 1(a) 1 − corr = 5.9e−3, 1.2e−3,
1.4e−5, 1.0e−9 at R = 10, 20, 50, 100; Fig. 1(b) 3.7e−4, 5.8e−5, 2.3e−7 at R = 10, 20, 50 (the path goes to the
GMM although GD from some starts goes to the LMM).

False cases (tests): ``target=alpha`` compares the path with another max-margin direction (the printed statement
with p^mm replaced by the LMM p^mm((1)) on Fig. 1(b)): 1 − corr plateaus at 1 − corr(GMM, LMM) → VIOLATED (a
plateau); ATT-SVM(opt) infeasible (optimal key strictly inside the hull, ``mmts_infeasible_B``) → NOT_APPLICABLE
naming feasibility; tied optimal tokens → NOT_APPLICABLE naming uniqueness.
"""
from __future__ import annotations

from verify.claims import Claim, Evidence, Hypothesis, Outcome, register, rules
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.dynamics import regularization_path
from verify.geometry.cones import lmm_geometry, locally_optimal_geometries
from verify.geometry.stationarity import gmm
from verify.kit.assumptions import assumption_a, svm_feasible
from verify.kit.path_figures import omc_figure, path_plane_figure, plane_basis
from verify.kit.paths import require_path_optimal
from verify.models.attention import norm2, one_minus_corr
from verify.numbers.precision import Precision, to_arb

RADII = ("1", "2", "5", "10", "20", "50", "100", "200", "500", "1000")
UNIQUE = "unique optimal tokens: γ_it < γ_{i,opt_i} for all t ≠ opt_i (exact scores)"


def hypotheses(data, prec: Precision):
    opts = data.optimal_tokens()
    ties = [i for i, o in enumerate(opts) if len(o) > 1]
    hyps = [assumption_a("logistic", data),
            Hypothesis(UNIQUE, not ties, f"ties in input(s) {ties}" if ties else f"opt = {[o[0] for o in opts]}")]
    res = None
    if not ties:
        res = gmm(data, "p", prec.dps)
        hyps.append(svm_feasible(res, "ATT-SVM(opt) feasible (p^mm exists; implicit in the statement)"))
    return hyps, res


def _fmt(xs, ys) -> str:
    return ", ".join(f"{float(x.mid()):g}: {y.mid().str(3, radius=False)}" for x, y in zip(xs, ys))


def evaluate(data, prec: Precision, radii=RADII, starts: int = 2, seed: int = 0, target=None,
             figure: bool = True) -> Outcome:
    """Theorem 1 on ``data``; ``target`` (a selection α) replaces p^mm(opt) by p^mm(α) (the false case)."""
    hyps, res = hypotheses(data, prec)
    out = Outcome(hypotheses=hyps)
    if not out.applicable():
        return out
    ref, what = [to_arb(x) for x in res.solution], "p^mm"
    if target is not None:
        g = lmm_geometry(data, tuple(target))
        out.require(f"ATT-SVM(α) feasible for the altered target α = {list(target)}", g.feasible, g.reason)
        if not g.feasible:
            return out
        ref, what = [to_arb(x) for x in g.p_mm], f"p^mm(α = {list(target)}) (NOT the GMM: the false case)"
    rp = regularization_path(data, "p", radii, dps=prec.dps, starts=starts, seed=seed)
    require_path_optimal(out, rp, "p", prec.tolerance)
    Rs = [p.R for p in rp.points]
    omc = [one_minus_corr(p.theta, ref) for p in rp.points]
    out.add(Evidence(f"1 − corr(p̄(R), {what}) → 0 along the path (value at the largest R)", omc[-1],
                     rule=rules.decays(Rs, omc, zero=prec.tolerance), enclosed=False, note=_fmt(Rs, omc),
                     residual=bool(abs(omc[-1]) <= prec.tolerance)))
    tail = rp.points[-3:]
    out.add(Evidence("‖p̄(R)‖ = R (the minimiser on the sphere) at the three largest radii", all(p.on_sphere for p in tail),
                     "==", True, note=", ".join(f"R = {float(p.R.mid()):g}: ‖p̄‖ = {p.norm.mid().str(8, radius=False)}"
                                                  for p in tail), enclosed=False))
    out.notes.append("selected tokens along the path: " + ", ".join(
        f"{float(p.R.mid()):g}: {list(p.selected)}" for p in rp.points))
    out.range = f"R ≤ {float(Rs[-1].mid()):g}"
    out.cover(f"the selection found by the multistart sphere search ({starts} random starts + the SVM candidate + "
              "the previous optimum)")
    if figure:
        gm = [to_arb(x) for x in res.solution]
        out.figures.append(omc_figure("omc", "Theorem 1: 1 − corr(p̄(R), p^mm) along the regularization path",
                                      [(f"1 − corr to {what}", Rs, omc)]))
        basis = plane_basis(gm)
        if basis is not None and all(norm2(p.theta) > 0 for p in rp.points):
            lmms = [g for g in (locally_optimal_geometries(data) or []) if not g.is_gmm]
            refs = [("GMM p̄^mm", gm)] + [(f"LMM p^mm(α = {list(g.alpha)})", g.p_mm) for g in lmms] + (
                [("target", ref)] if target is not None else [])
            out.figures.append(path_plane_figure(
                "path", "Theorem 1: p̄(R)/R in the keys' plane against the SVM direction",
                [("p̄(R)/R, R = " + f"{float(Rs[0].mid()):g} … {float(Rs[-1].mid()):g}", [p.theta for p in rp.points])],
                refs, basis, caption="The path's unit directions approach the GMM direction (dashed), not the LMMs."))
    return out


def check(data, prec: Precision) -> Outcome:
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [D.mmts_fig1a(), D.mmts_fig1b(), D.mmts_fig1c(), D.mmts_fig8_substitute()]


STATEMENT = """\
Under Assumption A and unique optimal tokens (γ_it < γ_{i,opt_i}), the regularization path p̄(R) ∈ argmin_{‖p‖≤R}
L(p) satisfies lim_{R→∞} p̄(R)/R = p^mm/‖p^mm‖ (Sec. 2.1, App. B.2); ATT-SVM(opt) feasible is implicit.

Evidence over the radii computed: global multistart search on the sphere (certified no worse than the SVM
direction), 1 − corr(p̄(R), p^mm) decaying (rules.decays).
"""

CLAIM = register(Claim(id="mmts.thm1", paper="mmts", number="Theorem 1", kind="asymptotic",
                       title="The regularization path converges to the GMM direction p^mm", statement=STATEMENT,
                       check=check, default_datasets=default_datasets, aliases=("rp-to-gmm", "regularization-path"),
                       default_precision=40,
                       parameters=(
                           Parameter("p̄(R)", "for every selection p̄(R) of the argmin", "range",
                                     "the global minimiser found by the multistart sphere search at each radius "
                                     "(named in the verdict)"),)))

