"""tfsvm Theorem 9 — the local regularisation path over the separating cone converges to W^mm_α (v1 §5.3; the
single-query case of Theorem 10, App. D.2).

Statement. Under Assumption A (i), (iii) and Assumption E, let α be locally optimal (Def. 2) with (⋄-SVM) feasible,
ε > 0 small and R₀ = O(1/ε) large. With C_{ε,R₀} = cone_ε(α) ∩ {‖W‖ ≥ R₀},
    cone_ε(α) = {W : min_i max_{t∈low_i} min_{τ∈high_i} (x_it − x_iτ)ᵀ W z_i ≥ ε‖W‖_F}   (Def. 3),
and W̄_R ∈ argmin{L(W) : W ∈ C_{ε,R₀}, ‖W‖ ≤ R}: dist(W̄_R/(RΞ), 𝒲^mm_α) → 0 as R → ∞, Ξ = 1/‖W^mm_α‖. Here
⋄ = Frobenius and m = d (𝒲^mm_α = {W^mm_α}), so the conclusion is W̄_R/R → W^mm_α/‖W^mm_α‖_F; it is measured as
1 − corr(W̄_R, W^mm_α) → 0 (equivalent on the sphere ‖W̄_R‖ = R). For α = opt the cone is everything and R₀ = 0
(Theorem 2).

Hypotheses (decided on the data). Assumption A for the logistic loss; α locally optimal (exact, Def. 2) with
Att-SVM(α) certified feasible; single-query data (no causal flag, no ``Yq``); Assumption E
(``verify.geometry.separating_cone.assumption_e``, shared with Theorem 10), for the linear head
c_α = min_i(γ_iα_i − max_{t∈low_i} γ_it) > 0 (every convex combination x(s) of {x_iα_i} ∪ low_i has
γ(x(s)) ≤ γ_iα_i − c_α(1 − s_α); exact; the concave head decided exactly too); "ε small": DERIVED
here as 0 < ε < κ(α) = κ(W^mm_α)/‖W^mm_α‖_F (``verify.geometry.separating_cone``), i.e. W^mm_α strictly inside
cone_ε(α) — for ε ≥ κ(α) the cone excludes W^mm_α and the path cannot converge to it (spec: the FALSE CASE
"hypothesis not met"); κ(α) = −∞ (D-T2, α = (1, 1), the flaw of Lemma 5 (a)) means cone_ε(α) = ∅ and the statement
is vacuous: NOT_APPLICABLE with that reason; "R₀ large": R₀ ≥ (1/ε) log(B·T/c_α), B = max_{i,t,τ} ‖v‖‖x_it − x_iτ‖
(the value of Thm 10's proof, spec; the default R₀ is exactly this, rounded up).

How it is checked (asymptotic: evidence over the radii computed). ``verify.dynamics.separating_rp`` (the one conic
path, shared with Theorem 10) minimises log(L − L⋆) over the sphere ‖W‖_F = R inside cone_ε(α) — a union of polyhedra
on the sphere — by an active-set Riemannian Newton method at dps + ⌈R·B_z/ln 10⌉ digits (B_z = max ‖x_it − x_iτ‖‖z_i‖:
the largest logit gap per unit norm, so e^{−R·B_z} stays resolved — the spec's "dps ≈ 0.8R + 60"), from the candidate
R·Ŵ^mm_α, the previous optimum and seeded random cone points. Requirements of the check at every radius
(``verify.kit.separating.cone_path_requirements``): the value found certainly ≤ the candidate's (or equal to
10^−dps), first-order KKT on the sphere (Riemannian gradient ≤ 10^(−dps/4) relative, every
multiplier of an active cone constraint ≥ −10^(−dps/4)), and the minimiser on the sphere (⟨∇L, W̄_R⟩ < 0 certain:
the cone is homogeneous, so that makes it the ball's minimiser). R ladder ("for R → ∞", coverage search):
R₀·(3/2)^k from R₀ until the last ``rules.TAIL_POINTS`` radii have the cone constraint inactive and ``rules.decays``
decides, at most 14 rungs and 3000 digits (``DIGIT_CAP``) — near R₀ the optimum can sit on the cone's edge (a constant 1 − corr: D-LMM, ε = 1/10, R ≤
10), which is no evidence either way. Deciding: ``rules.decays`` on 1 − corr(W̄_R, W^mm_α) along the ladder (a
plateau fails). ε ("small", coverage hardest): the spec's ε = 1/10 and ε just below κ(α) (κ(α)(1 − 1/100) rounded
down: the narrowest cone that still contains W^mm_α), unless ``eps`` is given. Figure: log10(1 − corr) vs R.
Spec's reference run (D-LMM, α = B, ε = 0.1): 1 − corr = 3.1e−2, 1.2e−8, 2.7e−20 at R = 5, 20, 50 — reproduced by
``separating_cone_path`` (tests).
False cases (tests): ``target="gmm"`` (test-only) compares the same path with the GMM W^mm instead of W^mm_α —
on D-LMM (α = B) 1 − corr tends to 1 − corr(W^mm_B, W^mm) = 1 + 1/√10 ≠ 0: a plateau, VIOLATED (evidence);
ε = 1/2 > κ(B) = 1/√5 on D-LMM → NOT_APPLICABLE ("ε small"); D-T2, α = (1, 1): cone empty → NOT_APPLICABLE;
α = C on D-LMM (not locally optimal) → NOT_APPLICABLE.
"""
from __future__ import annotations

import math
from fractions import Fraction

from verify.claims import Claim, Evidence, Figure, Hypothesis, Outcome, Series, register, rules
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.dynamics.separating_rp import logit_digits_per_radius, separating_cone_path
from verify.geometry.separating_cone import NEG_INF, POS_INF, assumption_e, selection, selections
from verify.kit.assumptions import assumption_a
from verify.kit.separating import cone_path_requirements, head_spread, single_query_hypothesis
from verify.numbers.exact import ball_upper, rational_above
from verify.numbers.precision import log10_abs, to_arb, to_decimal_string, working_precision

GROWTH = Fraction(3, 2)   # the R ladder's ratio
MAX_RUNGS = 14
DIGIT_CAP = 3000  # the R ladder stops where a radius would need more digits (the range says how far it went)
SPEC_EPS = Fraction(1, 10)
HARDEST_SHRINK = Fraction(1, 100)  # ε just below κ(α): κ(α)(1 − 1/100)


def default_alpha(data, dps):
    """The non-global locally-optimal α with the largest κ(α) (finite ones first), else opt."""
    best = None
    opt = None
    for a in selections(data):
        s = selection(data, a, dps=dps)
        if s.feasible is not True or not s.locally_optimal:
            continue
        if s.sep.value == POS_INF:
            opt = opt or s
            continue
        k = s.kappa
        key = -math.inf if k == NEG_INF else float(k.mid())
        if best is None or key > best[0]:
            best = (key, s)
    return best[1] if best else opt


def r0_of(eps, c_alpha, B, T) -> Fraction:
    """R₀(ε) = (1/ε) log(B·T/c_α), rounded up to 4 significant digits (0 when the log is ≤ 0 or c_α is undefined)."""
    if c_alpha is None:
        return Fraction(0)
    x = (B * T / to_arb(c_alpha)).log() / to_arb(Fraction(eps))
    return rational_above(x, 4) if x > 0 else Fraction(0)


def evaluate(data, prec, alpha=None, eps=None, R0=None, target: str = "alpha", starts: int = 2,
             max_rungs: int = MAX_RUNGS, figure: bool = True) -> Outcome:
    """``eps``: one ε or a list (default: 1/10 and just below κ(α)); ``R0``: R₀ (default: the proof's R₀(ε));
    ``target="gmm"``: measure against the GMM W^mm (the test-only false case)."""
    out = Outcome(hypotheses=[assumption_a("logistic", data), single_query_hypothesis(data)])
    if not out.applicable():
        return out
    sel = selection(data, alpha, dps=prec.dps) if alpha is not None else default_alpha(data, prec.dps)
    if sel is None:
        out.hypotheses.append(Hypothesis("a locally-optimal α with a feasible Att-SVM", False,
                                         "no selection of [T]ⁿ is locally optimal with a certified SVM"))
        return out
    out.hypotheses.append(Hypothesis(f"Att-SVM({sel.label[4:]}) feasible (W^mm_α exists)", sel.feasible,
                                     sel.reason or "certified optimum"))
    if not out.applicable():
        return out
    out.hypotheses.append(Hypothesis(f"{sel.label} locally optimal (Def. 2)", sel.locally_optimal, sel.reason))
    e_met, c_alpha, e_detail = assumption_e(data, sel.alpha)
    B = head_spread(data)
    out.hypotheses.append(Hypothesis("Assumption E: Y·h(x(s)) ≤ γ_α − c_α(1 − s_α) (linear head: c_α = "
                                     "min_i(γ_iα_i − max_{t∈low_i} γ_it) > 0)", e_met, e_detail))
    kappa = sel.kappa
    if eps is None:
        eps_list = [SPEC_EPS]
        if not isinstance(kappa, str):
            hard = Fraction(math.floor(-ball_upper(-kappa) * (1 - HARDEST_SHRINK) * 10**6), 10**6)
            if hard > 0 and hard != SPEC_EPS:
                eps_list.append(hard)
    else:
        eps_list = [Fraction(e) for e in (eps if isinstance(eps, (list, tuple)) else [eps])]
    ktext = kappa if isinstance(kappa, str) else to_decimal_string(kappa, 8)
    for e in eps_list:
        if kappa == POS_INF:
            met = e > 0
        elif kappa == NEG_INF:
            met = False
        else:
            ea = to_arb(e)
            met = (e > 0 and bool(ea < kappa)) if (ea < kappa or ea >= kappa) else None
        out.hypotheses.append(Hypothesis(f"ε small: 0 < ε < κ(α), W^mm_α inside cone_ε(α) (ε = {e})", met,
                                         f"κ(α) = {ktext}" + (": cone_ε(α) is empty — the statement is vacuous"
                                                              if kappa == NEG_INF else "")))
    if not out.applicable():
        return out
    T = data.T
    r0s = {e: Fraction(0) if kappa == POS_INF else r0_of(e, c_alpha, B, T) for e in eps_list}  # opt: R₀ = 0
    if R0 is not None:
        for e in eps_list:
            out.hypotheses.append(Hypothesis(f"R₀ large: R₀ ≥ (1/ε)log(BT/c_α) (ε = {e})", Fraction(R0) >= r0s[e],
                                             f"R₀ = {R0}, (1/ε)log(BT/c_α) = {r0s[e]}"))
            r0s[e] = Fraction(R0)
        if not out.applicable():
            return out
    if target == "gmm":
        from verify.svm import solve_svm

        ref = tuple(solve_svm(data, "W", "opt", prec.dps, check_unique=False).solution)
        tname = "W^mm (the GMM: test-only false case)"
    else:
        ref, tname = sel.W, f"W^mm_α, {sel.label}"
    dpr = logit_digits_per_radius(sel.sets)
    series, ranges = [], []
    for e in eps_list:
        start = max(r0s[e], Fraction(1))
        pts, radii = [], []
        while len(radii) < max_rungs:
            R = start * GROWTH ** len(radii)
            if prec.dps + dpr * R > DIGIT_CAP:
                out.notes.append(f"(ε = {e}) the ladder stopped before R = {float(R):g}: it needs more than {DIGIT_CAP} "
                                 "digits")
                break
            radii.append(R)
            pts += separating_cone_path(data, sel.alpha, [R], eps=e, dps=prec.dps, digits_per_radius=dpr,
                                        starts=starts, seed=len(radii), targets={"ref": ref})
            tail = pts[-rules.TAIL_POINTS:]
            if len(tail) == rules.TAIL_POINTS and all(p.active == 0 for p in tail):
                ys = [p.one_minus_corr["ref"] for p in pts]
                if rules.decays([to_arb(r) for r in radii], ys, zero=prec.tolerance).holds is not None:
                    break
        if not pts:
            out.require(f"(ε = {e}) at least one radius within {DIGIT_CAP} digits", False, f"R₀ = {r0s[e]}")
            continue
        cone_path_requirements(out, pts, f"ε = {e}", prec)
        Rs = [to_arb(r) for r in radii]
        ys = [p.one_minus_corr["ref"] for p in pts]
        edge = sum(1 for p in pts if p.active)
        with working_precision(pts[-1].dps):
            note = ", ".join(f"{float(r):g}: {y.mid().str(4, radius=False)}" for r, y in zip(radii, ys))
        out.add(Evidence(f"1 − corr(W̄_R, {tname}) → 0 along the cone path, ε = {e}, R₀ = {r0s[e]} (value at the "
                         "largest R)", ys[-1], rule=rules.decays(Rs, ys, zero=prec.tolerance), enclosed=False,
                         note=note + f"; cone edge active at {edge} of {len(pts)} radii",
                         residual=bool(abs(ys[-1]) <= prec.tolerance)))
        last = pts[-1]
        out.add(Evidence(f"κ(W̄_R)/‖W̄_R‖ at the largest R (→ κ(α) = {ktext}), ε = {e}", last.kappa
                         if not isinstance(last.kappa, str) else last.kappa, "~"))
        series.append((f"ε = {e}", radii, ys))
        ranges.append(f"ε = {e}: R = {float(radii[0]):g} … {float(radii[-1]):g} ({len(radii)} radii, "
                      f"up to {last.dps} digits)")
    if not ranges:
        return out
    out.range = "; ".join(ranges)
    out.cover("ε ∈ {" + ", ".join(str(e) for e in eps_list) + "}" + (
        f" (the last just below κ(α) = {ktext})" if eps is None and len(eps_list) > 1 else "")
        + "; R₀ = " + ", ".join(str(r0s[e]) for e in eps_list) + f"; α: {sel.label}")
    if figure:
        out.show(Figure("one_minus_corr", f"Theorem 9: cone path against R ({sel.label})", "R",
                        f"log10(1 − corr(W̄_R, {'W^mm' if target == 'gmm' else 'W^mm_α'}))",
                        [Series(lab, [float(r) for r, y in zip(xs, ys) if y != 0],
                                [log10_abs(y) for y in ys if y != 0], "-o") for lab, xs, ys in series],
                        caption="log10 at each radius' working precision; values whose ball contains 0 are left out"))
    return out


def default_datasets(seed: int = 0):
    return [D.d_lmm()]


STATEMENT = """\
Local regularisation path (v1 §5.3, Theorem 9): for α locally optimal with W^mm_α feasible, ε > 0 small and R₀
large, W̄_R ∈ argmin{L(W) : W ∈ cone_ε(α), R₀ ≤ ‖W‖_F ≤ R} satisfies W̄_R/R → W^mm_α/‖W^mm_α‖_F, cone_ε(α) the
separating cone {W : min_i max_{t∈low_i} min_{τ∈high_i} (x_it − x_iτ)ᵀWz_i ≥ ε‖W‖_F}.

Evidence over the radii computed (active-set Riemannian Newton on the sphere inside the cone, multi-start, at
dps + R·B_z/ln 10 digits): 1 − corr(W̄_R, W^mm_α) decays (rules.decays); ε = 1/10 and ε just below κ(α).
"""

CLAIM = register(Claim(id="tfsvm.thm9", paper="tfsvm", number="Theorem 9", kind="asymptotic",
                       title="Local regularisation path over the separating cone cone_ε(α) → W^mm_α",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("rp-local",),
                       parameters=(
                           Parameter("ε", "ε > 0 small (every ε below the theorem's threshold)", "hardest",
                                     "ε just below κ(α) (κ(α)(1 − 1/100), the narrowest cone containing W^mm_α) and the "
                                     "spec's ε = 1/10, unless `eps` is given (named in the verdict)",
                                     option="eps", kind="rationals", low=0, high=10),
                           Parameter("R₀", "R₀ = O(1/ε) large", "hardest",
                                     "the proof's R₀(ε) = (1/ε)log(BT/c_α) rounded up, unless `R0` is given (then a "
                                     "hypothesis R₀ ≥ R₀(ε))", option="R0", low=0, high=10**6),
                           Parameter("R", "R → ∞", "search",
                                     "ladder R₀·(3/2)^k until the last rules.TAIL_POINTS radii have the cone edge "
                                     "inactive and rules.decays decides, at most 14 rungs and 3000 digits (the verdict's range)"),
                           Parameter("α", "every locally-optimal α (with W^mm_α feasible)", "range",
                                     "one α: the non-global LMM with the largest κ(α), else opt, unless `alpha` is given "
                                     "(named in the verdict)"))))
