"""mmts Lemma 5 — gradient correlation for a single input (App. B.1).

Statement (RECALLED in the spec; the n = 1 global analogue of Lemma 7 L3). Under Assumption A, Assumption B,
n = 1 and ATT-SVM(opt) feasible: for every π > 0 there is R_π such that every p with ‖p‖ ≥ R_π obeys

    ⟨∇L(p), p/‖p‖⟩ ≥ (1 + π) ⟨∇L(p), p^mm/‖p^mm‖⟩,   i.e.   ρ(p) := ⟨−∇L(p), p̄⟩ / ⟨−∇L(p), p̄^mm⟩ ≤ 1 + π

(⟨−∇L(p), p̄^mm⟩ > 0 everywhere by Lemma 4 under B, so ρ is defined; the denominator is checked certainly > 0 at
every point, a ball containing 0 leaves the point undecided).

Hypotheses (computed): Assumption A for the loss used, Assumption B exactly on the rational scores, ATT-SVM(opt)
feasible from its verified certificate (``verify.kit.global_descent.descent_hypotheses``), and n = 1.
UNCERTAIN in the spec (item 6): the statement is recalled, not read; encoded as above, the form of Lemma 7 L3 with
the cone replaced by the whole space. Checked numerically: the spec's sup ρ on Fig. 1(a) (1.069, 1.049, 1.022,
1.0082, 1.0016, 1.000014 at ‖p‖ = 1, 2, 5, 10, 20, 50) is reproduced from below (the probe supremum).

How it is checked (``verify.kit.sphere_ratio``): at every radius r of the ladder σ·{1, 2, 5, …, 10⁸} (σ ≈ ‖p^mm‖)
ρ at probe points covering the whole sphere ‖p‖ = r (every level 1 − corr(p, p^mm) ∈ [0, 2] along every direction
of the keys' span and one outside it, radius-adapted angles where the supremum sits, plus a golden-section
refinement of the best point), every point decided in arb and counted. For each π the existential R_π is the
smallest ladder radius from which ρ ≤ 1 + π holds at every point of every deeper radius (``rules.witness``:
evidence, range ‖p‖ ≤ 10⁸σ), then a Tally over all points from R_π (certified at the probe points). With ``R``
given: every point with ‖p‖ ≥ R. Where no witness exists, the limit of ρ along the deepest failing direction
(the nearest token's leading terms, certified) decides: a limit above 1 + π proves no R_π exists.

False cases (tests): the n = 2 data of §5.6 (Fig. 8 substitute) → NOT_APPLICABLE naming n = 1; with
``require_n1=False`` the bare inequality is VIOLATED there: along p = r(1, 0, 0) (the LMM) ρ → √10 = ‖p^mm‖ (both
inputs' leading terms: input 1's neighbour at margin 1 leads, (k₁ − k₂)ᵀq̄ = 1 against (k₁ − k₂)ᵀp̄^mm = 1/√10),
for every r. π = 10⁻³ checked on ‖p‖ ≥ 10, below its witness 50 → VIOLATED (a certain failing point). Fig. 1(b)
(Assumption B fails) → NOT_APPLICABLE naming B.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Evidence, Hypothesis, Outcome, register
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.geometry.cones import lmm_geometry, radius_scale
from verify.geometry.stationarity import feasible_assumption_b_dataset
from verify.kit.cone_checks import times_sigma
from verify.kit.cone_scan import LADDER, scan_radii
from verify.kit.global_descent import descent_hypotheses
from verify.kit.sphere_ratio import ratio_figure, ratio_limit, sphere_scan, sup_ratio
from verify.numbers.precision import Precision

PIS = (Fraction(1, 10), Fraction(1, 100), Fraction(1, 1000), Fraction(1, 10**4))
N1 = "n = 1 (a single input)"


def evaluate(data, prec: Precision, pis=PIS, R=None, radii=None, require_n1: bool = True, loss: str = "logistic",
             ladder=LADDER, refine: bool = True, figure: bool = True) -> Outcome:
    """Lemma 5 on ``data``: R_π searched on the ladder (or ``radii``); with ``R`` every probe point with ‖p‖ ≥ R.
    ``require_n1=False``: the bare inequality for any n (the false case)."""
    out = Outcome()
    hyps, _, res = descent_hypotheses(data, "p", loss, prec.dps)
    if require_n1:
        hyps.append(Hypothesis(N1, data.n == 1, f"n = {data.n}"))
    out.hypotheses = hyps
    if res is None or not out.applicable():
        return out
    opt = tuple(o[0] for o in data.optimal_tokens())
    g = lmm_geometry(data, opt)
    sigma = radius_scale(g.norm_sq)
    S = sphere_scan(data, g, scan_radii(sigma, ladder, radii, None, R), loss, pis, refine)
    for pi in pis:
        name = f"ρ ≤ 1 + π (π = {float(pi):g})"
        w = S.existential(out, name, S.l3_decider(pi), lambda r, pi=pi: S.l3_tally(
            f"{name}: sup over the sphere probe points with ‖p‖ ≥ R_π of ⟨−∇L(p), p̄⟩/⟨−∇L(p), p̄^mm⟩", pi, from_r=r,
            note="the denominator certainly > 0 at every point (Lemma 4), else the point is undecided"), R)
        if w is None and R is None:
            bad = S.deepest_failure(S.l3_decider(pi), "num")
            if bad is not None:
                out.add(ratio_limit(data, S, bad, loss, pi))
    sups = [sup_ratio(pts) for pts in S.points]
    out.add(Evidence("sup ρ over the probe points at the largest radius (the first radii in the note)", sups[-1], note=(
        ", ".join(f"‖p‖ = {float(r):g}: {v.mid().str(8, radius=False) if v is not None else '—'}"
                  for r, v in list(zip(S.radii, sups))[:8]) + " …")))
    out.range = f"‖p‖ ≤ {times_sigma(S.radii[-1], sigma)}"
    out.cover(f"π ∈ {{{', '.join(str(Fraction(pi)) for pi in pis)}}}")
    npts = sum(len(p) for p in S.points)
    out.cover(f"p at {npts} probe points on {len(S.radii)} spheres ‖p‖ = {float(S.radii[0]):g} … "
              f"{float(S.radii[-1]):g} (every level 1 − corr ∈ [0, 2] × {len(S.dirs)} directions, refined)")
    out.notes.append(f"{g.describe()}; σ = {float(sigma):g}")
    if figure:
        out.figures.append(ratio_figure(S, pis, "Lemma 5: sup over the sphere ‖p‖ = r of ⟨−∇L,p̄⟩/⟨−∇L,p̄^mm⟩ − 1"))
    return out


def default_datasets(seed: int = 0):
    return [D.mmts_fig1a(), feasible_assumption_b_dataset(n=1, T=4, d=3, seed=seed),
            feasible_assumption_b_dataset(n=1, T=3, d=2, seed=seed + 1)]


STATEMENT = """\
Under Assumption A, Assumption B, n = 1 and ATT-SVM(opt) feasible: for every π > 0 there is R_π such that
⟨∇L(p), p/‖p‖⟩ ≥ (1 + π)⟨∇L(p), p^mm/‖p^mm‖⟩ for every p with ‖p‖ ≥ R_π (App. B.1; RECALLED form).

Checked at probe points covering whole spheres ‖p‖ = r up to 10⁸σ (certified at each point); R_π is the ladder
witness (evidence).
"""

CLAIM = register(Claim(id="mmts.lemma5", paper="mmts", number="Lemma 5", kind="existential",
                       title="Gradient correlation for a single input: ⟨−∇L, p̄⟩ ≤ (1+π)⟨−∇L, p̄^mm⟩ for ‖p‖ ≥ R_π",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("gradient-correlation-n1",), default_precision=40,
                       parameters=(
                           Parameter("π", "for every π > 0", "range",
                                     "π ∈ {1/10, 1/100, 1/1000, 1/10⁴}, each with its own witness R_π (named in the "
                                     "verdict)", option="pis", kind="rationals", low=0, high=1),
                           Parameter("R", "for all ‖p‖ ≥ R_π (R_π exists)", "search",
                                     "the smallest radius of the ladder σ·{1 … 10⁸} from which ρ ≤ 1 + π at every "
                                     "deeper radius (rules.witness); with `R` given, every probe point with ‖p‖ ≥ R",
                                     option="R", low=0),
                           Parameter("p", "every p with ‖p‖ ≥ R_π", "range",
                                     "whole spheres at every ladder radius: every level 1 − corr ∈ [0, 2] along the "
                                     "keys' span directions and one outside it, radius-adapted angles, a refined "
                                     "best point (named in the verdict)"))))
