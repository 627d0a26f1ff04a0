"""mmts Theorem 3 — local convergence of GD to a locally-optimal max-margin direction
(Sec. 2.2; proof App. B.4, Steps 1–4, (53)–(58)). Claim id ``mmts.thm3`` (alias
``local-gd-convergence``); Step 3 of the proof (cone invariance) is its own claim ``mmts.thm3.cone``.

Hypotheses: Assumption A; α locally optimal (Definition 2); p^mm = p^mm(α); μ = μ(α) from Lemma 7;
R sufficiently large; step η ≤ 1/L_p (Lemma 6); p(0) ∈ C_{μ,R}(p^mm) (cone (8)).

Statement: C_{μ,R}(p^mm) contains no stationary point of L, and GD p(t+1) = p(t) − η∇L(p(t)) has
lim_t ‖p(t)‖ = ∞ and lim_t p(t)/‖p(t)‖ = p^mm/‖p^mm‖ (Step 1: −⟨∇L, p^mm⟩ > 0 in the cone (53);
Step 2: ∇L(p(t)) → 0 forces ‖p(t)‖ → ∞; Step 3: the iterates stay in the cone (54a)–(55);
Step 4: for every ε ∈ (0, μ) the iterates eventually enter C_{ε,R_ε} (56)–(58), so corr → 1). The
authors' slides ("Theorem I") confirm the conclusion; the initial cone level and μ are UNCERTAIN
(spec §7 items 7–8).

What is used where the spec is UNCERTAIN: μ = μ₀(α)/2 with the derived width of ``verify.geometry.cones``
(see ``mmts.lemma7``); R = the first-order invariance witness of ``mmts.thm3.cone`` (the smallest
ladder radius from which ⟨−∇L(p), p̄^mm − (1−μ)p̄⟩ > 0 on the cone's boundary at every deeper
radius); starts on the boundary of C_{μ,R} (both sides of the keys' plane) and one inside (level μ/4).

How it is checked (kind: asymptotic — evidence over the range reached, with the trend and its rate):
* no stationary point: −⟨∇L(p), p^mm⟩ > 0 on the Lemma 7 grid of C_{μ,R} up to ‖p‖ = 10⁸·σ;
* the theorem's GD (η = 1/L_p) from every start for ``gd_steps`` steps: stays in C_{μ,R}, ‖p(t)‖
  nondecreasing, 1 − corr decreased (it barely moves at these norms: ∇L ~ e^{−‖p‖Θ});
* the deep part along the gradient flow itself (GD's limit as η → 0: ``verify.dynamics.gradient_flow``,
  Radau IIA at the working precision, local error ≤ 10^-dps) to ‖p‖ = max(10⁴·σ, 10R), checked at
  every step end and at three dense-output points inside every step: stays in C_{μ,R}; the norm
  grows monotonically to the target (divergence) and ‖p‖ ≈ ‖p^mm‖·ln t (flow time; reported);
  the selected tokens at the end are α; 1 − corr(p, p^mm(α)) falls over the last decade of ‖p‖.
  The rate: a least-squares fit 1 − corr ≈ C‖p‖^{−a} over the second half (in log ‖p‖) of each
  path; the DERIVED expectation is a = 2 (p(t) = p̄^mm·ln t/Θ + a bounded transverse part, as for
  max-margin implicit bias: 1 − corr ≈ ‖w̃⊥‖²/(2‖p‖²)); it is reported, not decided (observed
  2.0000 on both defaults). Same step budget (INCONCLUSIVE when it runs out) and
  existential-R retries (next ladder radii when a discrete path leaves from the first-order witness)
  as ``mmts.thm3.cone``; with explicit ``starts`` or ``R`` there is no retry.
Figures: 1 − corr vs ‖p‖ on log axes with the fitted rate; the cone and the paths for 2-D keys.

False cases (tests): on Fig. 1(b) with μ = 0.0065 > μ* = 4.963e−3, a start at +6.5° (corr 0.99357,
inside C_{0.0065,20}) leaves the cone and converges to the GMM → VIOLATED for the claim encoded with
that μ; a start outside the cone, or α not locally optimal (Fig. 1(b′)) → NOT_APPLICABLE.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from lemmas.mmts import lemma7
from lemmas.mmts.cone_invariance import (
    MAX_STEPS,
    RETRIES,
    Setup,
    _cone_figure,
    _flt,
    _plane,
    benign_random_lmm,
    deep_target,
    hunt_strategy,
    reached_bound,
    target_evidence,
)
from verify.claims import Claim, Evidence, Figure, Hypothesis, Outcome, Series, register
from verify.data import mmts as D
from verify.geometry.cones import in_cone_margin
from verify.kit.cones import finish, flow_in_cone, gd_in_cone, mark_undecided, undecided
from verify.models.attention import norm2
from verify.numbers.fits import fit_rate, line_fit
from verify.numbers.precision import Precision, log10_abs, to_arb

THEORY_RATE = 2


def _as_point(x):
    return [arb(v.mid()) if isinstance(v, arb) else to_arb(Fraction(v)) for v in x]


def evaluate(data, prec: Precision, alpha=None, mu=None, R=None, starts=None, gd_steps: int = 300,
             until_norm=None, loss="logistic", max_steps: int = MAX_STEPS, depth=None) -> Outcome:
    """Theorem 3 on ``data``. ``starts``: explicit initial points (each must lie in C_{μ,R}, else
    NOT_APPLICABLE); default: boundary points of C_{μ,R} and one interior point."""
    out = Outcome()
    S = Setup(data, prec, out, alpha, mu, R, None, loss)
    if not S.ok:
        return out
    g, mu = S.g, S.mu
    out.hypotheses.append(Hypothesis("step size η ≤ 1/L_p (Lemma 6)", True,
                                     f"η = 1/L_p, L_p = {float(S.Lp.mid()):.6g} ({S.lp_describe})"))
    have_R = S.first_order_evidence(out)
    if not have_R:
        out.notes.append("no radius R from which the cone is invariant to first order: the trajectories were not run")
        return finish(out)
    # default starts: if a discrete path leaves the cone from the first-order witness R (second-order
    # terms of the steps), the next ladder radii are tried (existential R); explicit R or starts: no retry
    retry = starts is None and not S.fixed_R
    cands = [r for r in S.radii if r >= S.R][:RETRIES + 1] if retry else [S.R]
    for Rr in cands:
        # ----- starts (hypothesis p(0) ∈ C_{μ,R}) -----------------------------------------------
        if starts is None:
            dirs = S.in_plane_dirs()[:2]
            pts = [(S.start(u, mu, Rr), f"boundary u{k}") for k, u in enumerate(dirs)]
            pts.append((S.start(dirs[0], mu / 4, Rr), "interior (level μ/4) u0"))
        else:
            pts = [(_as_point(p), f"start {k}") for k, p in enumerate(starts)]
        hyps = []
        for p0, label in pts:
            marg = in_cone_margin(p0, S.pbar, mu)
            inside = bool(marg >= 0) and bool(norm2(p0) >= to_arb(Rr))
            hyps.append(Hypothesis(f"p(0) ∈ C_(μ,R)(p^mm) for {label}", inside,
                                   f"μ − (1 − corr) = {marg.mid().str(5)}, ‖p(0)‖ = {norm2(p0).mid().str(8)}, "
                                   f"μ = {float(mu):.6g}, R = {float(Rr):g}"))
        if not all(hh.met for hh in hyps):
            break
        target = deep_target(S, Rr, until_norm, depth)
        gds = [gd_in_cone(S.model, g, p0, S.eta, gd_steps, mu, Rr, label=label, record_every=gd_steps)
               for p0, label in pts]
        runs = [flow_in_cone(data, g, p0, target, mu, Rr, S.dps, label=label, gmm=S.gmm, loss=S.loss.name,
                             max_steps=max_steps) for p0, label in pts]
        if not any(r.left_at is not None for r in gds + runs):
            break
    out.hypotheses.extend(hyps)
    if not all(hh.met for hh in out.hypotheses):
        return out
    left_everywhere = any(r.left_at is not None for r in gds + runs)
    if Rr != S.R:
        out.notes.append(f"trajectory witness R = {float(Rr):g}: from the first-order witness {float(S.R):g} a "
                         "discrete path left the cone, so the next ladder radius was used")
    # ----- Step 1: no stationary point in C_{μ,R} -----------------------------------------------
    radii = [r for r in S.radii if r >= Rr] or [Rr]
    recs, _ = lemma7.scan_cone(data, g, mu, radii, S.loss, ())
    l1 = [v for rec in recs for v, _, _ in rec["l1"]]
    out.evidence.append(Evidence("no stationary point in C_(μ,R): min over the cone grid of −⟨∇L(p), p^mm⟩ / "
                                 "((1/n)Σ(1 − s_iα))", min(l1, key=lambda z: z.mid()), ">", arb(0),
                                 note=f"{len(l1)} points, R ≤ ‖p‖ ≤ {float(radii[-1]):g}"))
    first_traj = len(out.evidence)
    # ----- the theorem's GD at moderate norms -----------------------------------------------------
    mm = min((r.min_margin for r in gds), key=lambda z: z.mid())
    out.evidence.append(Evidence(f"GD η = 1/L_p, {gd_steps} steps: min over iterates of μ − (1 − corr(p(t), p^mm))",
                                 mm, ">=", arb(0)))
    mono = all(r.norm_monotone for r in gds)
    out.evidence.append(Evidence("GD η = 1/L_p: ‖p(t)‖ nondecreasing at every step", mono, "==", True, holds=mono))
    dec = [r.omc[-1][1] - r.omc[0][1] for r in gds]
    out.evidence.append(Evidence(f"GD η = 1/L_p: max over starts of (1 − corr)(t = {gd_steps}) − (1 − corr)(0)",
                                 max(dec, key=lambda z: z.mid()),
                                 note="reported, not decided (the theorem claims the limit, not monotonicity); "
                                      "GD barely moves at these norms (∇L ~ e^{−‖p‖Θ})"))
    # ----- deep part along the gradient-flow curve ----------------------------------------------------
    mm = min((r.min_margin for r in runs), key=lambda z: z.mid())
    left = [r for r in runs if r.left_at is not None]
    out.evidence.append(Evidence(f"gradient flow to ‖p‖ = {float(target):g}: min over checked points of "
                                 "μ − (1 − corr(p, p^mm)) (stays in the cone)", mm, ">=", arb(0),
                                 note=("left the cone: " + ", ".join(f"{r.start_label} at checked point {r.left_at}"
                                                                      for r in left))
                                 if left else f"{sum(r.steps for r in runs)} points checked (step ends and 3 dense "
                                              "points inside each step)"))
    fin, short, tnote = target_evidence(runs, target)
    mono = all(r.norm_monotone for r in runs)
    out.evidence.append(Evidence("norm divergence: smallest final ‖p‖ (‖p‖ increasing from point to point)", fin,
                                 "~" if short else ">=", None if short else reached_bound(target),
                                 holds=None if mono else False,
                                 note=("monotone; " if mono else "‖p‖ decreased at some step; ") + tnote))
    if short:
        out.notes.append(tnote)
        mark_undecided(out)
    sel_ok = all(tuple(r.final_selected) == tuple(g.alpha) for r in runs)
    out.evidence.append(Evidence("selected tokens at the end equal α", sel_ok, "==", True, holds=sel_ok,
                                 note="; ".join(f"{r.start_label}: {list(r.final_selected)}" for r in runs)))
    ratios, rates = [], []
    for r in runs:
        end_n, end_v, _ = r.omc[-1]
        earlier = [(n_, v_) for n_, v_, _ in r.omc if n_ <= end_n / 10 * (1 + arb(10) ** -12)]  # the flow stops at end/10
        if earlier:
            ratios.append((end_v / earlier[-1][1], r.start_label))
        half = [(n_, v_) for n_, v_, _ in r.omc
                if log10_abs(n_) >= (log10_abs(r.omc[0][0]) + log10_abs(end_n)) / 2]
        fr = fit_rate(half)
        if fr is not None:
            rates.append((fr, r))
    if ratios:
        worst = max(ratios, key=lambda z: z[0].mid())
        out.evidence.append(Evidence("direction convergence: max over paths of (1 − corr at the end) / (1 − corr one "
                                     "decade of ‖p‖ earlier)", worst[0], "<", arb(1), note=f"worst: {worst[1]}"))
    final_omc = max((r.omc[-1][1] for r in runs), key=lambda z: z.mid())
    out.evidence.append(Evidence(f"1 − corr(p, p^mm(α)) at ‖p‖ ≥ {float(target):g} (largest over paths)", final_omc))
    if S.gmm is not None and not g.is_gmm:
        gm = min((r.omc[-1][2] for r in runs), key=lambda z: z.mid())
        to_gmm = gm < arb(10) ** -3
        out.evidence.append(Evidence("1 − corr(p, p^mm_GMM) at the end (smallest over paths)", gm,
                                     note="a path converges to the global max-margin direction instead" if to_gmm
                                     else "large: the paths do not go to the global max-margin direction"))
    if rates:
        lo = min(a for (a, _), _ in rates)
        hi = max(a for (a, _), _ in rates)
        out.evidence.append(Evidence("fitted rate a in 1 − corr ≈ C‖p‖^(−a) (second half of each path)",
                                     f"{lo:.4f} … {hi:.4f}", note=f"DERIVED expectation a = {THEORY_RATE}"))
    slopes = []
    for r in runs:
        tail = [(n_, lt) for n_, lt in r.times if lt is not None]
        tail = tail[len(tail) // 2:]
        fit = line_fit([(float(lt.mid()), float(n_.mid())) for n_, lt in tail]) if len(tail) >= 3 else None
        if fit is not None:
            slopes.append(fit[1])
    if slopes:
        out.evidence.append(Evidence("d‖p‖/d ln t along the flow (tail fit)", f"{min(slopes):.4f} … {max(slopes):.4f}",
                                     note=f"expected ‖p^mm‖ = 1/Θ = {float(S.nrm.mid()):.6g} (‖p‖ ≈ ln t/Θ)"))
    if left_everywhere and retry:
        for e in out.evidence[first_traj:]:  # existential R: no witness among the radii tried ≠ counterexample
            if e.decide() is False:
                undecided(e, "paths leave the cone from every R tried "
                             f"({', '.join(f'{float(c):g}' for c in cands)}): INCONCLUSIVE")
        mark_undecided(out)
    out.notes.append(f"{g.describe()}; μ = {float(mu):.6g}, R = {float(Rr):g}, {len(runs)} starts; GD with η = 1/L_p "
                     f"for {gd_steps} steps, then the gradient flow (Radau IIA at {S.dps} digits) to ‖p‖ = "
                     f"{float(target):g}: asymptotic statement, evidence over the range reached")
    # ----- figures --------------------------------------------------------------------------------
    series = []
    for r in runs:
        xs = [_flt(n_) for n_, _, _ in r.omc]
        ys = [10 ** log10_abs(v) if v > 0 and log10_abs(v) > -300 else None for _, v, _ in r.omc]
        series.append(Series(r.start_label, xs, ys, "-o"))
    for (a, C), r in rates:
        xs = [_flt(r.omc[len(r.omc) // 2][0]), _flt(r.omc[-1][0])]
        series.append(Series(f"fit {r.start_label}: a = {a:.3f}", xs, [C * x ** (-a) for x in xs], "--"))
    out.figures.append(Figure("convergence", "Theorem 3: 1 − corr(p, p^mm(α)) along the paths", "‖p‖",
                              "1 − corr", series, logx=True, logy=True,
                              caption=f"Fitted rates beside the derived a = {THEORY_RATE}."))
    out.figures.append(Figure("norm-vs-logt", "Theorem 3: ‖p‖ against ln t (flow time)", "ln t", "‖p‖",
                              [Series(r.start_label, [_flt(lt) for _, lt in r.times], [_flt(n_) for n_, _ in r.times], "-o")
                               for r in runs], caption="Norm grows like ln t / Θ."))
    out.figures.append(_cone_figure(S, _plane(S), runs, "cone", "Theorem 3: the paths in the cone C_(μ,R)"))
    return finish(out)


def check(data, prec: Precision) -> Outcome:
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [D.mmts_fig1b(), benign_random_lmm(seed)]


CLAIM = register(Claim(
    id="mmts.thm3",
    paper="mmts",
    number="Theorem 3",
    title="Local convergence of GD to a locally-optimal max-margin direction",
    kind="asymptotic",
    statement=(
        "Assumption A; α locally optimal; p^mm = p^mm(α); μ = μ(α) of Lemma 7 (here μ₀/2, derived); R large "
        "enough; η ≤ 1/L_p; p(0) ∈ C_{μ,R}(p^mm). Then C_{μ,R}(p^mm) has no stationary point, "
        "lim ‖p(t)‖ = ∞ and lim p(t)/‖p(t)‖ = p^mm/‖p^mm‖ ((53)–(58)). Checked with GD (η = 1/L_p) at moderate "
        "norms and along the gradient flow (Radau IIA at the working precision) to ‖p‖ = 10⁴·‖p^mm‖: cone membership "
        "at every step and inside it, "
        "norm growth, the selected tokens, 1 − corr falling, and its rate against ‖p‖ (derived a = 2)."
    ),
    check=check,
    default_datasets=default_datasets,
    aliases=("local-gd-convergence",),
    default_precision=40,
    strategy=hunt_strategy,
    module=__name__,
))
