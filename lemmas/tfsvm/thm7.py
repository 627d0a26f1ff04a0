"""tfsvm Theorem 7 — local convergence of W-GD to a locally-optimal direction (v1 §5.1, App. C; Lemmas 13, 14).
FLAWED in v1 (found here): the explicit μ(α), R of Lemma 13 / eq. (74) fail when a sequence without a support index
selects a lower-scored token (below).

Statement (v1). Assumption A; α locally optimal (Def. 2), W^mm_α its Att-SVM solution. There are μ = μ(α) ∈ (0, 1) and
R > 0 such that
  (T1) C_{μ,R}(W^mm_α) = {corr(W, W^mm_α) ≥ 1 − μ, ‖W‖_F ≥ R} contains no stationary point of L;
  (T2) from any W(0) ∈ C_{μ,R}(W^mm_α), W-GD W(k+1) = W(k) − η∇L(W(k)) with η ≤ O(min(1/L_W, ζ(μ))) gives
       ‖W(k)‖_F → ∞ and W(k)/‖W(k)‖_F → W^mm_α/‖W^mm_α‖_F, the iterates staying in the cone (proof, step 3).
Constants (Lemma 13, eq. (74)): μ(α) = (1/8)(min(½, δ)/A)², R = max(2, 1/δ)/Θ·log(64TΓA/γ^gap_min)
(``verify.geometry.local_cone``; D-LMM, α = B: δ = 1/5, A = √(8/5) ≈ 1.265, μ = 1/320, R ≈ 27.66).

UNCERTAIN in the spec (§5 item 2): the step bound η ≤ O(min(1/L_W, ζ(μ))) has unspecified constants and ζ is not given
— treated as existential: the check uses η = 1/L_W rounded down, L_W the certified constant of v1 Lemma 4
(``verify.kit.global_descent.step_size_W``, the same step as Theorems 3/4; hypothesis "η ≤ 1/L_W" decided by
enclosures), and the η → 0 limit, the gradient flow.

How it is checked. "α locally optimal": every locally-optimal α of [T]^n (enumerated, the GMM included) or the given
``alphas``; μ(α) exact, R an arb ball (both shown).
* (T1), certified: −⟨∇L(W), W^mm_α⟩ > 0 (so ∇L(W) ≠ 0) at every sampled W ∈ C_{μ,R}: W^mm_α and cone-boundary points
  (certified inside exactly; toward the other LMM/GMM directions, toward/away from each non-selected token, random)
  at ‖W‖_F ≥ {1, 10}·R — a Tally.
* (T2) starts "any W(0) ∈ C_{μ,R}" (a hardest set, docs/parameters.md): R·Ŵ^mm_α and the cone-boundary points at
  ‖W(0)‖_F ≥ R (the boundary is where a start can leave first; the direction toward another locally-optimal
  direction is the one that pulls out). From each: W-GD at η = 1/L_W for ``gd_steps`` steps, every iterate (exact
  midpoints) checked in C_{μ,R} — Tallies of μ − (1 − corr(W(k), W^mm_α)) ≥ 0 and ‖W(k)‖ − R ≥ 0, certified on the
  computed trajectory (shown, see below; at ‖W‖ ≈ R the gradient is ≈ e^{−R/‖W^mm_α‖}: GD grows ‖W‖ only like
  log k, so GD alone cannot show the limit). Then, from GD's last iterate, the arc-length gradient flow (GD's η → 0 limit; Radau IIA at
  the working precision, no rigorous error bound: evidence) to ‖W‖_F = ``depth``·R, stopping exactly at
  R·{3, 5, 10, 20, 50}: cone membership and ‖W‖ ≥ R checked at every step and inside it (a Tally, enclosed =
  False; shown, see below); the direction decided by ``rules.decays`` on 1 − corr(W, W^mm_α) against ‖W‖ (DERIVED
  rate 2: a bounded transverse part, 1 − corr ≈ ‖W_⊥‖²/(2‖W‖²)); reaching ‖W‖ = depth·R is required (the norm → ∞ part, over the
  range). Reported: 1 − corr, min_i s_{iα_i} at the end.
* Cone invariance ("iterates stay in the cone", the proof's step 3 — not in the printed conclusion (T2)): shown, not
  deciding, by default (``invariance=True`` makes the four Tallies decide). FINDING (D-T2, α = opt, μ = 1/1600,
  R ≈ 33.5): from the cone-boundary start along the seeded random direction — whose part outside the feature span
  ∇L never changes — the flow leaves cone_μ (μ − (1 − corr) down to −8.2e−5, 13 % of μ) before converging to
  W^mm; confirmed by an independent float64 integration (tests). The excursion shrinks like ‖W‖^-2 but does not vanish
  at any radius tried (−3.3e−5, −1.7e−5, −5.8e−6 from 1.5R, 2R, 3R): the in-span offset relaxes to its O(1) limit
  while the inert off-span part keeps the start on the boundary, so C_{μ,R} with the printed μ(α) is not forward
  invariant for every start. The directional conclusion holds from every start. W-GD at η = 1/L_W moves
  ≈ e^{−R/‖W^mm_α‖} per step there (10⁷ steps for that excursion), so the exit is evidence, not a certificate.
* Informative (spec §4): the flow from R₀·Ŵ^mm_α, R₀ ∈ ``low_starts`` = {2, 5} (below the theorem's R, so not
  counterexamples): on D-LMM R₀ = 2 (and ½) reaches the GMM, R₀ = 5 stays at the LMM — R = 27.7 is sufficient, not
  necessary.
Figures: 1 − corr(W, W^mm_α) against ‖W‖ (log10 at the working precision) along every flow; the first column of W
projected on the plane of W^mm_α and W^mm (the cone boundary, the LMM and GMM directions, the paths).

FLAWED (found here; not in the spec): Def. 2 constrains only the support indices, so a sequence with 𝒯_i = ∅ is
unconstrained — it may select a token scored below another (the mechanism of Lemma 5's flaw). Its ℓ'(φ_i) is then
O(1) while a well-classified support sequence's is ≈ e^{−γ}: a ratio exponential in the scores, which eq. (74)'s R
(Γ, A only inside a log) does not cover. In the cone this sequence pushes W away from W^mm_α (its term of
−⟨∇L(W), W^mm_α⟩ is ≈ −|ℓ'_i|·e^{−(margin_i)‖W‖Θ}, margin_i > 1) and beats the support sequences' pull until ‖W‖
is far beyond R. ``verify.data.tfsvm.local_empty_support`` (d = 1; derivation in its docstring): R ≈ 0.1028, −L'(w) <
0 on [R, 0.4898) and > 0 beyond — a local maximum of L inside C_{μ,R} ((T1) fails, certified at W^mm_α·R/‖W^mm_α‖),
and the flow from R·Ŵ^mm_α runs to −W^mm_α's side. ``local_empty_support_2d`` (d = 2, the GMM exists): (T1) fails
(certified) and the flows from R·Ŵ^mm_α and every boundary start end at the GMM (1 − corr to W^mm_α ≈ 0.90 at 50R,
evidence). Found by the property search (a scale-10³ dataset, R ≈ 1.5·10⁻⁵, sign turn at ≈ 3.3·10⁻⁴). The
existential reading (some larger R) is not refuted: on local_empty_support every R > 0.4898 works.

False cases (tests): local_empty_support (a default dataset) and local_empty_support_2d → VIOLATED (certified, (T1)).
α not locally optimal (D-LMM, α = C: A and B, both scored higher, are support indices of W^mm_C) → NOT_APPLICABLE
naming local optimality. An altered statement (``mu``, a documented false-case option): on D-LMM with α = B and a
cone width μ = ½ (160 times μ(α)), the wider cone's boundary toward token A has A selected: −⟨∇L(W), W^mm_B⟩ < 0
there ((T1)'s sign fails, certified) and the flow from it turns to the GMM (1 − corr to W^mm_B a plateau) — the
width μ(α) matters. D-T2 with ``invariance=True`` → VIOLATED (evidence: the flow's exit above).
"""
from __future__ import annotations

import math
from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Figure, Hypothesis, Outcome, Series, Tally, register, rules
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry.local_cone import cone_directions, lmm_selections, other_directions
from verify.geometry.tfsvm_cones import CorrelationTables, at_norm, correlations
from verify.kit.assumptions import assumption_a
from verify.kit.cone_checks import as_informative, log10_series, plot_value
from verify.kit.global_descent import step_size_W
from verify.kit.local_convergence import Track, arb_vector, flow, gd, min_selected, plane_figure
from verify.models.attention import LinearLogitModel, one_minus_corr
from verify.numbers.exact import float64_or_undecided
from verify.numbers.precision import Precision, to_decimal_string

GD_STEPS = 20
DEPTH = 50  # the flow runs to ‖W‖_F = DEPTH·R
FLOW_STOPS = (3, 5, 10, 20, 50, 100, 200, 500, 1000)  # multiples of R at which the flow stops exactly (≤ depth)
T1_FACTORS = (1, 10)
LOW_STARTS = ("2", "5")  # informative starts R₀·Ŵ^mm_α (spec §4), flown for α ≠ opt
THEORY_RATE = 2
LMM = "α locally optimal (Def. 2) with Att-SVM(α) feasible (W^mm_α exists)"


def evaluate(data: Dataset, prec: Precision, alphas=None, mu=None, gd_steps: int = GD_STEPS, depth: int = DEPTH,
             random_dirs: int = 1, low_starts=LOW_STARTS, loss: str = "logistic", figure: bool = True,
             invariance: bool = False) -> Outcome:
    """``alphas``: selections (0-indexed) instead of every locally-optimal one. ``mu``: a cone width replacing μ(α)
    (an ALTERED statement, for the false case only). ``depth``: the flow's last norm in units of R.
    ``invariance=True``: cone membership of the paths (proof step 3) decides; by default it is shown (see the module
    docstring: not in the printed conclusion, and it fails on D-T2 for the flow)."""
    out = Outcome(hypotheses=[assumption_a(loss, data)])
    if not out.applicable():
        return out
    met, detail, cones = lmm_selections(data, alphas, prec.dps)
    out.hypotheses.append(Hypothesis(LMM, met, detail))
    if not out.applicable():
        return out
    eta, step = step_size_W(data, loss)
    step.detail += "; v1's η ≤ O(min(1/L_W, ζ(μ))) has unspecified constants (spec §5.2): η = 1/L_W and the flow"
    out.hypotheses.append(step)
    if not out.applicable():
        return out
    if mu is not None:
        out.notes.append(f"ALTERED statement (false case): cone width μ = {Fraction(mu)} instead of μ(α)")
    model = LinearLogitModel.from_dataset(data, "W", loss)
    opt = tuple(o[0] for o in data.optimal_tokens()) if all(len(o) == 1 for o in data.optimal_tokens()) else None
    gmm = next((c for c in cones if c.alpha == opt), None)
    stops_f = [f for f in FLOW_STOPS if f <= depth]
    omc_series, plane_paths, n_starts = [], [], 0
    for cone in cones:
        m = cone.mu if mu is None else Fraction(mu)
        R = cone.radius()
        wa = arb_vector(cone.w)
        out.add(Evidence(f"{cone.name}: δ", cone.delta, note="∞: no support/non-support pair" if cone.delta is None
                         else ""),
                Evidence(f"{cone.name}: A = max‖x_it z_iᵀ‖·‖W^mm_α‖", cone.A),
                Evidence(f"{cone.name}: μ(α) = (1/8)(min(½, δ)/A)²", cone.mu,
                         note=f"μ used: {m} (altered)" if mu is not None else ""),
                Evidence(f"{cone.name}: R = max(2, 1/δ)‖W^mm_α‖log(64TΓA/γ^gap_min) (74)", R))
        dirs = cone_directions(data, cone, m, other_directions(cones, cone), random_dirs)
        # (T1): no stationary point in C_{μ,R}
        tab = CorrelationTables(model, [cone.w])
        t1 = Tally(f"{cone.name} (T1): min over sampled W ∈ C_(μ,R) of −⟨∇L(W), W^mm_α⟩ (≠ 0 ⇒ ∇L(W) ≠ 0)", ">", 0)
        for lb, d in dirs:
            for f in T1_FACTORS:
                t1.add(correlations(tab, at_norm(d, R * f)).values[0], f"{lb}, ‖W‖_F ≥ {f}·R")
        out.add(t1.evidence())
        # (T2): GD then the flow from every start
        gd_track = Track(cone, m, R, Tally(f"{cone.name} (T2) W-GD η = 1/L_W: min over iterates of μ − (1 − corr(W(k), "
                                                 "W^mm_α))", ">=", 0),
                         Tally(f"{cone.name} (T2) W-GD: min over iterates of ‖W(k)‖_F − R", ">=", 0))
        fl_track = Track(cone, m, R, Tally(f"{cone.name} (T2) gradient flow: min over checked points of μ − (1 − corr(W, "
                                                 "W^mm_α))", ">=", 0),
                         Tally(f"{cone.name} (T2) gradient flow: min over checked points of ‖W‖_F − R", ">=", 0))
        bad = []
        for lb, d in dirs:
            n_starts += 1
            W0 = at_norm(d, R)
            label = f"{cone.name}, W(0) = {lb} at ‖W(0)‖_F ≥ R"
            Wk = gd(model, W0, eta, gd_steps, gd_track, label)
            keep = [] if figure else None
            recs, status = flow(data, Wk, [R * f for f in stops_f], prec.dps, loss, fl_track, label, keep)
            if status != "reached":
                bad.append(f"{label}: {status}")
            if not recs:
                continue
            xs, ys = [r for r, _ in recs], [one_minus_corr(W, wa) for _, W in recs]
            dec = rules.decays(xs, ys, expected=THEORY_RATE, zero=arb(10) ** -prec.dps)
            end = recs[-1][1]
            note = (f"1 − corr at ‖W‖ = {', '.join(to_decimal_string(x, 3) for x in xs)}: "
                    f"{', '.join(to_decimal_string(y, 3) for y in ys)}; min_i s_(iα_i) at the end = "
                    f"{to_decimal_string(min_selected(model, end, cone.alpha), 6)}; after {gd_steps} GD steps "
                    f"1 − corr = {to_decimal_string(one_minus_corr(Wk, wa), 3)}")
            out.add(Evidence(f"{label}: GD then gradient flow, 1 − corr(W, W^mm_α) → 0 (at ‖W‖_F = "
                             f"{to_decimal_string(xs[-1], 4)})", ys[-1], rule=dec, enclosed=False,
                             note="; ".join(x for x in (dec.detail, note) if x)))
            omc_series.append(Series(f"{cone.name}: {lb[:28]}", [plot_value(x) for x in xs], log10_series(ys), "-o"))
            if keep is not None:
                plane_paths.append((cone, lb, [arb_vector(W0)] + keep))
        items = [gd_track.cone.evidence(gd_track.exit or "", enclosed=True), gd_track.floor.evidence(),
                 fl_track.cone.evidence(fl_track.exit or "", enclosed=False), fl_track.floor.evidence(enclosed=False)]
        for e in items:
            out.add(e if invariance else as_informative(e, "cone invariance (proof step 3): shown, not deciding"))
        for tr, how in ((gd_track, "W-GD"), (fl_track, "gradient flow")):
            if tr.exit:
                out.notes.append(f"{cone.name}: the {how} path leaves C_(μ,R)(W^mm_α): first at {tr.exit} "
                                 "(cone invariance, proof step 3" + (")" if invariance else ", shown only)"))
        out.require(f"{cone.name}: every flow reached ‖W‖_F = {depth}·R", not bad, "; ".join(bad))
        if cone is not gmm and gmm is not None and low_starts:
            low(out, data, model, cone, gmm, low_starts, R, stops_f, prec, loss, omc_series, plane_paths, figure)
    out.cover(f"α ∈ {{{', '.join(c.name for c in cones)}}}" + (" (given)" if alphas is not None else
                                                              " (every locally-optimal α)"))
    out.cover(f"W(0): R·Ŵ^mm_α and cone-boundary points at ‖W(0)‖_F ≥ R ({n_starts} starts); η = 1/L_W "
              f"({gd_steps} W-GD steps) then η → 0 (the flow)")
    out.range = f"‖W‖_F ≤ {stops_f[-1]}·R along the gradient flow after {gd_steps} W-GD steps (η = 1/L_W)"
    if figure and omc_series:
        out.figures.append(Figure("omc", "Theorem 7: 1 − corr(W, W^mm_α) along W-GD + gradient flow", "‖W‖_F",
                                  "log10(1 − corr) (working precision)", omc_series, logx=True,
                                  caption="Starts in C_{μ,R}(W^mm_α) (solid): 1 − corr decays like ‖W‖^-2. "
                                          "Dotted: informative starts R₀·Ŵ^mm_α below R."))
        fig = plane_figure(plane_paths, gmm, cones, mu)
        if fig is not None:
            out.figures.append(fig)
    return out


def low(out, data, model, cone, gmm, low_starts, R, stops_f, prec, loss, series, paths, figure):
    """Informative flows from R₀·Ŵ^mm_α below R (spec §4): where they end (to W^mm_α or to the GMM)."""
    wa, ga = arb_vector(cone.w), arb_vector(gmm.w)
    nw = math.sqrt(float64_or_undecided(cone.norm_sq, "‖W^mm_α‖_F² (the informative starts below R)"))
    for r0 in low_starts:
        c = Fraction(Fraction(r0) / Fraction(nw)).limit_denominator(10**6)
        W0 = tuple(c * x for x in cone.w)
        keep = [] if figure else None
        recs, status = flow(data, W0, [R * f for f in stops_f], prec.dps, loss, None, "", keep)
        if not recs:
            continue
        W = recs[-1][1]
        to_a, to_g = one_minus_corr(W, wa), one_minus_corr(W, ga)
        out.add(Evidence(f"{cone.name}: flow from {c}·W^mm_α (‖W(0)‖_F ≈ {r0}, below R: outside the theorem) — "
                         f"1 − corr to W^mm_α at ‖W‖_F = {to_decimal_string(recs[-1][0], 4)}", to_a,
                         note=f"to the GMM: {to_decimal_string(to_g, 3)} — ends at the "
                              f"{'LMM' if to_a < to_g else 'GMM' if to_g < to_a else '?'} (informative)",
                         enclosed=False))
        xs = [r for r, _ in recs]
        series.append(Series(f"{cone.name}: from ‖W(0)‖≈{r0} (below R)", [plot_value(x) for x in xs],
                             log10_series([one_minus_corr(W, wa) for _, W in recs]), ":"))
        if keep is not None:
            paths.append((cone, f"‖W(0)‖ ≈ {r0} (below R)", [arb_vector(W0)] + keep))


def default_datasets(seed: int = 0):
    return [D.d_lmm(), D.d_t2(), D.local_empty_support()]


STATEMENT = """\
Assumption A; α locally optimal: with μ(α) = (1/8)(min(½, δ)/A)² and R of (74), (T1) no stationary point in
C_{μ,R}(W^mm_α); (T2) from any W(0) ∈ C_{μ,R}(W^mm_α), W-GD with η ≤ O(min(1/L_W, ζ(μ))) has ‖W(k)‖ → ∞,
W(k)/‖W(k)‖ → W^mm_α/‖W^mm_α‖ and stays in the cone (v1 §5.1, App. C).

(T1) certified at sampled cone points; (T2) from R·Ŵ^mm_α and cone-boundary starts: W-GD (η = 1/L_W) checked in the
cone at every iterate (certified), then the gradient flow (η → 0) to 100·R, cone membership at every step, the
direction by a decay rule (evidence over the range).

FLAWED in v1 (found here): with the explicit μ(α), R of (74), a sequence without support index that selects a
lower-scored token puts a stationary point in C_{μ,R} (tfsvm-local-empty-support: R ≈ 0.103, a local maximum of L
at ‖W‖ ≈ 0.49), certified.
"""

CLAIM = register(Claim(id="tfsvm.thm7", paper="tfsvm", number="Theorem 7", kind="asymptotic",
                       title="Local convergence of W-GD to a locally-optimal direction W^mm_α (FLAWED-v1: R of (74))",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("local-convergence",),
                       parameters=(
                           Parameter("α", "every locally-optimal α", "hardest",
                                     "every locally-optimal α of [T]^n, enumerated (α = opt alone beyond the "
                                     "enumeration limit)"),
                           Parameter("W(0)", "from any W(0) ∈ C_(μ,R)(W^mm_α)", "hardest",
                                     "R·Ŵ^mm_α and the cone-boundary points at ‖W(0)‖_F ≥ R toward every other "
                                     "locally-optimal direction, toward/away from each non-selected token, and "
                                     "`random_dirs` random directions", option="random_dirs", kind="integer", low=0,
                                     high=6),
                           Parameter("η", "η ≤ O(min(1/L_W, ζ(μ))) (constants unspecified)", "range",
                                     "η = 1/L_W rounded down (W-GD, `gd_steps` steps) and η → 0 (the gradient flow) "
                                     "— named in the verdict"),
                           Parameter("μ, R", "∃μ(α), R (given by Lemma 13, eq. (74))", "hardest",
                                     "the explicit μ(α), R of Lemma 13 / eq. (74), computed exactly / in arb")),
                       default_precision=30))
