"""mmts Theorem 3 — local convergence of GD to a locally-optimal max-margin direction
(Sec. 2.2; proof App. B.4, Steps 1–4, (53)–(58)). Claim id ``mmts.thm3`` (alias
``local-gd-convergence``); Step 3 of the proof (cone invariance) is its own claim ``mmts.thm3.cone``.

Hypotheses: Assumption A; α locally optimal (Definition 2); p^mm = p^mm(α); μ = μ(α) from Lemma 7;
R sufficiently large; step η ≤ 1/L_p (Lemma 6); p(0) ∈ C_{μ,R}(p^mm) (cone (8)). All computed:
Assumption A for the loss used, η = 1/L_p rounded down against the certified L_p, p(0) ∈ C_{μ,R}
by enclosures.

Statement: C_{μ,R}(p^mm) contains no stationary point of L, and GD p(t+1) = p(t) − η∇L(p(t)) has
lim_t ‖p(t)‖ = ∞ and lim_t p(t)/‖p(t)‖ = p^mm/‖p^mm‖ (Step 1: −⟨∇L, p^mm⟩ > 0 in the cone (53);
Step 2: ∇L(p(t)) → 0 forces ‖p(t)‖ → ∞; Step 3: the iterates stay in the cone (54a)–(55);
Step 4: for every ε ∈ (0, μ) the iterates eventually enter C_{ε,R_ε} (56)–(58), so corr → 1).

DERIVED (the paper's μ and initial level are not recovered): μ = μ₀(α)/2 (``verify.geometry.cones``);
R = the first-order invariance witness, with the existential-R retries and their rule
(``verify.kit.invariance``); starts on the boundary of C_{μ,R} (both sides of the keys' plane) and
one inside (level μ/4).

How it is checked (kind asymptotic: evidence over the range reached, "‖p‖ ≤ 10⁴·σ"):
* no stationary point: −⟨∇L(p), p^mm⟩ > 0 at every Lemma 7 probe point of C_{μ,R} up to 10⁸·σ;
* the theorem's GD from every start for ``gd_steps`` steps (exact iterates): stays in C_{μ,R}, each
  step increases ‖p‖ (η(2⟨−∇L, p⟩ + η‖∇L‖²) ≥ 0); it barely moves at these norms (∇L ~ e^{−‖p‖Θ});
* the deep part along the gradient flow itself (GD's limit as η → 0, Radau IIA at the working
  precision; evidence, no rigorous global error bound) to ‖p‖ = max(10⁴·σ, 10R), checked at every
  step and 3 dense points inside it: stays in C_{μ,R}; ‖p‖ nondecreasing up to the target norm
  (reaching it is required: ‖p‖ → ∞ over the range); the tokens selected at the end are α (exact on
  the final points); 1 − corr(p, p^mm(α)) → 0 like a power of ‖p‖ (``rules.decays`` on records ≥ 2× apart in ‖p‖, DERIVED rate 2:
  p(t) = p̄^mm ln t/Θ + a bounded transverse part, 1 − corr ≈ ‖w̃⊥‖²/(2‖p‖²); 2.0000 on the defaults).

False cases (tests): on Fig. 1(b) with μ = 0.0065 > μ* = 4.963e−3 and R = 19, a start at +6.5°
(corr 0.99357, inside C_{0.0065,19}) leaves the cone and converges to the GMM → VIOLATED (the exit
named); a start outside the cone, α not locally optimal (Fig. 1(b′)), or a loss without Assumption
A → NOT_APPLICABLE; a step budget too small to reach the target → INCONCLUSIVE.
"""
from __future__ import annotations

from flint import arb

from verify.claims import Claim, Evidence, Outcome, register, rules
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.geometry.cone_data import benign_random_lmm
from verify.kit.cone_checks import (
    ALPHA_PARAMETER,
    STEP_PARAMETER,
    ConeChecks,
    alpha_cover,
    as_informative,
    exact_point,
    flow_in_cone,
    gd_in_cone,
    ruled,
    times_sigma,
)
from verify.kit.cone_scan import ConeScan
from verify.kit.invariance import (
    MAX_STEPS,
    Setup,
    all_paths,
    convergence_figures,
    flow_trends,
    ladder_records,
    radius_evidence,
    require_target,
    theorem_starts,
    try_radii,
)
from verify.numbers.precision import Precision
from verify.search.strategies_cones import small_integer_datasets

THEORY_RATE = 2  # DERIVED: 1 − corr(p(t), p^mm) ≈ C‖p(t)‖^{−2} along the flow


def evaluate(data, prec: Precision, alpha=None, mu=None, R=None, starts=None, gd_steps: int = 300,
             until_norm=None, loss="logistic", max_steps: int = MAX_STEPS, depth=None) -> Outcome:
    """Theorem 3 on ``data``. ``starts``: explicit initial points (each must lie in C_{μ,R}, else
    NOT_APPLICABLE; no retry of R); default: boundary points of C_{μ,R} and one interior point."""
    out = Outcome()
    S = Setup(data, prec, out, alpha, mu, R, None, loss)
    if not S.ok or not S.first_order_evidence(out):
        return out
    g, mu = S.g, S.mu

    def attempt(Rr):
        pts, hyps = theorem_starts(S, Rr, starts)
        if not all(h.met for h in hyps):
            return (hyps, None, None, None, None), None
        target, gc, fc = S.deep_target(Rr, until_norm, depth), ConeChecks("step"), ConeChecks("checked point")
        gds = [gd_in_cone(S.model, g, p, S.eta, gd_steps, mu, Rr, gc, label=lab, record_every=gd_steps) for p, lab in pts]
        runs = [flow_in_cone(data, g, p, target, mu, Rr, S.dps, fc, label=lab, gmm=S.gmm, loss=S.loss,
                             max_steps=max_steps) for p, lab in pts]
        return (hyps, (gc, gds), (fc, runs), target, Rr), next((r.left_at for r in gds + runs if r.left_at), None)

    _, (hyps, gd, flow, target, Rr), tried, decision = try_radii(S, attempt, retry=starts is None and not S.fixed_R)
    out.hypotheses.extend(hyps)
    if gd is None:
        return out
    (gc, gds), (fc, runs) = gd, flow
    deciding = radius_evidence(S, out, tried, decision)
    shown = (lambda e: e) if deciding else as_informative  # an existential R not established: shown only
    # ----- Step 1: no stationary point in C_{μ,R} (every Lemma 7 probe point up to 10⁸·σ) --------------
    scan = ConeScan(data, g, mu, [r for r in S.radii if r >= Rr] or [Rr], S.loss)
    out.add(scan.tally("no stationary point in C_(μ,R): min over the cone grid of −⟨∇L(p), p^mm⟩ / "
                       "((1/n)Σ(1 − s_iα))", "l1", ">", arb(0)))
    # ----- Step 3 along the theorem's GD and along the gradient flow -------------------------------------
    out.add(*gc.evidence(f"GD η = 1/L_p (rounded down), {gd_steps} steps", enclosed=True, deciding=deciding),
            Evidence(f"GD: max over starts of (1 − corr)(t = {gd_steps}) − (1 − corr)(0)",
                     max((r.omc[-1][1] - r.omc[0][1] for r in gds), key=lambda z: z.mid()),
                     note="shown (the theorem claims the limit, not monotonicity); GD barely moves at these norms"),
            *fc.evidence(f"gradient flow to ‖p‖ = {float(target):g}", enclosed=False, deciding=deciding),
            require_target(out, runs, target))
    # ----- the conclusions: ‖p‖ → ∞, α selected, p/‖p‖ → p^mm/‖p^mm‖ ------------------------------------
    labels = [r.start_label for r in runs]
    div = all_paths([rules.diverges([lt for _, lt in r.times], [n for n, _ in r.times]) for r in runs], labels)
    out.add(Evidence("norm divergence: smallest final ‖p‖ (decided by the target reached with ‖p‖ nondecreasing "
                     "at every checked point, above)", min((r.omc[-1][0] for r in runs), key=lambda z: z.mid()),
                     enclosed=False, note=f"shown: {div.rule} against ln t: {div.detail} (a power fit; ‖p‖ ≈ ln t/Θ "
                                          "only once ln t ≫ its offset)"))
    sel = "; ".join(f"{r.start_label}: {list(r.final_selected)}" for r in runs)
    out.add(shown(Evidence("selected tokens at the end equal α", all(tuple(r.final_selected) == tuple(g.alpha)
                                                                        for r in runs), "==", True, enclosed=False,
                           note="exact on the final points; " + sel)))
    last = max((r.omc[-1][1] for r in runs), key=lambda z: z.mid())
    if S.flat:  # d = 1: corr(p, p^mm) = 1 exactly wherever pᵀp^mm > 0
        on_ray = all(sum(a * b for a, b in zip(exact_point(r.final_p), g.p_mm)) > 0 for r in runs)
        out.add(shown(Evidence("direction convergence: p(end)ᵀp^mm > 0 on every path (d = 1: 1 − corr = 0 exactly)",
                               on_ray, "==", True, enclosed=False)))
    else:
        dec = all_paths([rules.decays(*ladder_records(r.omc), expected=THEORY_RATE) for r in runs], labels)
        out.add(shown(ruled("direction convergence: 1 − corr(p, p^mm(α)) → 0 along every path (largest final value)",
                            last, dec, enclosed=False)))
    if S.gmm is not None and not g.is_gmm:
        gm = min((r.omc[-1][2] for r in runs), key=lambda z: z.mid())
        out.add(Evidence("1 − corr(p, p^mm_GMM) at the end (smallest over paths)", gm, enclosed=False,
                         note="a path converges to the global max-margin direction instead" if gm < arb(10) ** -3
                         else "large: the paths do not go to the global max-margin direction"))
    trends, rates = flow_trends(runs, S.nrm, THEORY_RATE)
    out.add(*trends)
    out.range = out.range or f"‖p‖ ≤ {times_sigma(target, S.sigma)} along the paths"
    out.cover(alpha_cover(g, alpha))
    out.cover(f"p(0) ∈ {{{', '.join(labels)}}} at ‖p‖ = R" if starts is None else f"p(0): the {len(starts)} given start(s)")
    out.cover("η = 1/L_p rounded down (GD) and η → 0 (the gradient flow)")
    out.cover(f"p (no stationary point) at {len(scan.points[0])} grid points per ladder radius from R")
    out.notes.append(f"{g.describe()}; μ = {float(mu):.6g}, R = {float(Rr):g}, {len(runs)} starts; GD for {gd_steps} "
                     f"steps, then the gradient flow (Radau IIA at {S.dps} digits) to ‖p‖ = {float(target):g}")
    out.figures += convergence_figures(S, runs, rates, Rr, THEORY_RATE)
    return out


def default_datasets(seed: int = 0):
    return [D.mmts_fig1b(), benign_random_lmm(seed)]


STATEMENT = """\
Assumption A; α locally optimal; p^mm = p^mm(α); μ = μ(α) of Lemma 7 (here μ₀/2, derived); R large enough; η ≤
1/L_p; p(0) ∈ C_{μ,R}(p^mm). Then C_{μ,R}(p^mm) has no stationary point, lim ‖p(t)‖ = ∞ and lim p(t)/‖p(t)‖ =
p^mm/‖p^mm‖ ((53)–(58)). Checked with GD (η = 1/L_p rounded down) at moderate norms and along the gradient
flow (Radau IIA at the working precision) to ‖p‖ = 10⁴·‖p^mm‖: cone membership at every step and inside it,
norm divergence, the selected tokens, and 1 − corr decaying against ‖p‖ at the derived rate a = 2.
"""

CLAIM = register(Claim(id="mmts.thm3", paper="mmts", number="Theorem 3", kind="asymptotic",
                       title="Local convergence of GD to a locally-optimal max-margin direction", statement=STATEMENT,
                       check=evaluate, default_datasets=default_datasets, aliases=("local-gd-convergence",),
                       default_precision=40, strategy=small_integer_datasets,
                       parameters=(
                           ALPHA_PARAMETER,
                           Parameter("R", "R sufficiently large", "search",
                                     "the first-order witness on the ladder, then the next ladder radii while a path "
                                     "leaves, up to rules.REFUTING_RADII; `R` fixes it", option="R", low=0),
                           Parameter("p(0)", "every p(0) ∈ C_(μ,R)", "range",
                                     "the two in-plane boundary points and one interior point (level μ/4) at ‖p‖ = R "
                                     "(named in the verdict)"),
                           STEP_PARAMETER,
                           Parameter("p", "every p ∈ C_(μ,R) (no stationary point)", "range",
                                     "Lemma 7's cone grid at every ladder radius ≥ R up to 10⁸σ"))))
