"""Claim-kit piece for tfsvm Theorems 4/5 ("W-GD from any W(0) converges in direction to W^mm"): the
hypotheses computed on the data, the starts the check chooses, the certified trap at locally-optimal
rays (``verify.geometry.trap``), and the evidence along W-GD and the arc-length gradient flow.

Starts ("any W(0)"): W(0) = 0, seeded random rational matrices, and for every locally-optimal α ≠ opt
(enumerated, ``verify.svm.geometry.locally_optimal_selections``) the ray point ρ·W^mm_α, ρ rational with
‖W(0)‖_F ≈ the first radius of ``LMM_RADII`` at which the trap certificate is proven (else the first).

Decisions. (i) Certified: where the trap is proven, lim_k 1 − corr(W(k), W^mm) is a certified nonzero
ball for every η ∈ (0, 1/L_W] — the conclusion "= 0" certainly fails. (ii) Evidence: along the gradient
flow (GD's η → 0 limit, Radau IIA at the working precision, stopped exactly at the norms of
``FLOW_NORMS``) 1 − corr(W, W^mm) must decay like ‖W‖^{-2} (``rules.decays``, DERIVED rate 2); a
plateau fails it. W-GD itself (η = 1/L_W rounded down, exact steps from exact iterates) is reported.
"""
from __future__ import annotations

import math
import random
from fractions import Fraction

from flint import arb

from verify.claims import Evidence, Figure, Hypothesis, Outcome, Series, rules
from verify.claims.registry import Parameter
from verify.dynamics import CHECK_STEPS, flow_through_norms
from verify.geometry.stationarity import assumption_b, gmm, smoothness_W
from verify.geometry.tfsvm_cones import lmm_directions
from verify.geometry.trap import t2_reduction, trap_certificate
from verify.kit.assumptions import assumption_a, svm_feasible, unique_optimal_tokens
from verify.kit.cone_checks import log10_series, plot_value
from verify.kit.global_descent import gd_checkpoints, step_size_W
from verify.models.attention import LinearLogitModel, norm2, one_minus_corr
from verify.numbers.exact import float64_or_undecided
from verify.numbers.precision import to_arb, to_decimal_string

#: ‖W(0)‖_F of the locally-optimal ray starts tried in turn (v1 Thm 7: a start far enough out on the ray; the spec's
#: D-T2 witness is 3Ŵ^mm_α), then the scale-aware radii LMM_SCALES·‖W^mm_α‖_F (the dynamics only see W/‖W^mm_α‖)
LMM_LIMIT = 4096    # T^n selections enumerated for the locally-optimal starts
LMM_RADII = (3, 5, 10)
LMM_SCALES = (10, 30)
#: Where no trap certificate applies (T > 2 or n > 2): the ladder of starts ‖W(0)‖_F = r·‖W^mm_α‖_F along each
#: locally-optimal ray, flown in turn until one stays trapped (``trapped``) — the basin of a spurious LMM can begin
#: far out (its radius scales with ‖W^mm_α‖: the dynamics only see W/‖W^mm_α‖), so one start near the origin decides
#: nothing (coverage "search", docs/parameters.md)
LMM_LADDER = (3, 10, 30, 100)
#: the norms, in units of σ = ‖W^mm‖_F, at which the flow stops exactly (a 1-2-5 ladder: logits scale with ‖W‖/σ)
FLOW_NORMS = (2, 5, 10, 20, 50, 100, 200, 500, 1000)
#: DERIVED: 1 − corr(W, W^mm) ≈ C‖W‖^{-2} along a flow converging to W^mm (a bounded transverse part)
THEORY_RATE = 2
B2 = "Assumption B.2: γ_it = γ_iτ < γ_{i,opt} for all t, τ ≠ opt_i (exact)"
DELTA = "non-optimal scores within the data-dependent δ: |γ_it − γ_iτ| ≤ δ for all t, τ ≠ opt_i"


#: the universally quantified parameters of Theorems 4 and 5 and how ``global_convergence`` covers them
PARAMETERS = (
    Parameter("W(0)", "from any W(0)", "search",
              "W(0) = 0, `random_starts` seeded random starts, and along every locally-optimal ray: the trap certificate "
              "(T = 2, n = 2) at ‖W(0)‖_F ≈ 3, 5, 10, (10, 30)·‖W^mm_α‖ until proven, else a ladder of flows from "
              "(3, 10, 30, 100)·‖W^mm_α‖ until a start stays trapped (the rungs flown are named in the range)",
              option="random_starts", kind="integer", low=0, high=12),
    Parameter("η", "every step size η ≤ O(1/L_W) (constant unspecified)", "range",
              "the trap certificate covers every η ∈ (0, 1/L_W]; otherwise W-GD at η = 1/L_W (shown) and the gradient "
              "flow (η → 0, deciding) — named in the range"),
)


def score_spread(data) -> Fraction:
    """max_i (max − min of the non-optimal scores of sequence i), exact (0 when T = 2)."""
    out = Fraction(0)
    for g, o in zip(data.scores, data.optimal_tokens()):
        rest = [g[t] for t in range(len(g)) if t not in o]
        if rest:
            out = max(out, max(rest) - min(rest))
    return out


def hypotheses(data, loss: str, dps: int, scores: str):
    """([hypotheses], exact vec W^mm or None, (η, its hypothesis)). ``scores``: "B.2" (Theorem 4) or
    "delta" (Theorem 5: met for every δ when the spread is 0; otherwise undecided — δ is existential)."""
    hyps = [assumption_a(loss, data), unique_optimal_tokens(data)]
    if scores == "B.2":
        b = assumption_b(data)
        hyps.append(Hypothesis(B2, b.met, b.detail))
    else:
        s = score_spread(data)
        hyps.append(Hypothesis(DELTA, True if s == 0 else None,
                               "spread 0: holds for every δ > 0" + (" (T = 2: one non-optimal token)" if data.T == 2
                                                                    else "") if s == 0 else
                               f"spread {s} > 0: holds only if δ ≥ {s}; v1 gives δ only existentially"))
    if not all(h.met for h in hyps):
        return hyps, None, None
    res = gmm(data, "W", dps)
    hyps.append(svm_feasible(res, "Att-SVM(opt) feasible (W^mm exists)"))
    if not hyps[-1].met:
        return hyps, None, None
    eta, step = step_size_W(data, loss)
    hyps.append(step)
    return hyps, tuple(res.solution), eta


def _ray(w, radius) -> tuple:
    """ρ·w with ρ rational, ‖ρw‖ ≈ radius (3 significant digits of ρ are plenty: the start is exact)."""
    rho = Fraction(radius / _norm(w)).limit_denominator(1000)
    return rho, tuple(rho * x for x in w)


def _norm(w) -> float:
    return math.sqrt(sum(float64_or_undecided(x, "an entry of W^mm or W(0)") ** 2 for x in w))


def starts(data, q, loss: str, dps: int, random_starts: int, seed: int):
    """[(label, W(0), LMM info or None)]; LMM info = (α, vec W^mm_α, trap certificate or None, reason, rungs):
    ``rungs`` [(‖W(0)‖_F, ρ, W(0))] of ``LMM_LADDER`` where no certificate applies (the label names the first), else
    None."""
    D = data.d * data.d
    out = [("W(0) = 0", tuple(Fraction(0) for _ in range(D)), None)]
    rng = random.Random(seed)
    sigma = Fraction(_norm(q)).limit_denominator(1000) or Fraction(1, 1000)
    for k in range(random_starts):
        W0 = tuple(sigma * Fraction(rng.randint(-12, 12), 4) for _ in range(D))
        out.append((f"random W(0) #{k + 1} (seed {seed}, entries in [−3, 3]·{float(sigma):.4g} ≈ [−3, 3]·‖W^mm‖_F)",
                    W0, None))
    if data.T ** data.n > LMM_LIMIT:
        return out, (f"locally-optimal selections not enumerated: enumerating {data.T}^{data.n} selections "
                     f"exceeds the limit {LMM_LIMIT}")
    lmms = lmm_directions(data, dps, limit=LMM_LIMIT)
    eta_max = 1 / smoothness_W(data, loss)  # the certificate covers every η ∈ (0, 1/L_W]
    for alpha, w in lmms:
        red, why = t2_reduction(data, alpha)
        if red is None:  # no certificate: a ladder of starts flown in turn (``ladder``)
            rungs = [(float(f"{r * _norm(w):.3g}"),) + _ray(w, float(f"{r * _norm(w):.3g}")) for r in LMM_LADDER]
            R, rho, W0 = rungs[0]
            label = f"W(0) = {rho}·W^mm_α, α = ({', '.join(str(t + 1) for t in alpha)}) (‖W(0)‖_F ≈ {R})"
            out.append((label, W0, (alpha, w, None, why, rungs)))
            continue
        chosen = None
        for R in sorted(set(LMM_RADII) | {float(f"{s * _norm(w):.3g}") for s in LMM_SCALES}):
            rho, W0 = _ray(w, R)
            cert = trap_certificate(red, W0, eta_max, q, loss) if red is not None else None
            if chosen is None or (cert is not None and cert.proven):
                chosen = (R, rho, W0, cert)
            if cert is None or cert.proven:
                break
        R, rho, W0, cert = chosen
        label = f"W(0) = {rho}·W^mm_α, α = ({', '.join(str(t + 1) for t in alpha)}) (‖W(0)‖_F ≈ {R})"
        out.append((label, W0, (alpha, w, cert if cert.proven else None, cert.describe(), None)))
    return out, f"{len(lmms)} locally-optimal α ≠ opt"


def ladder_flow(data, W0, q, lmms, depth, dps, loss, max_steps=CHECK_STEPS):
    """The W flow from W0 stopped at each ladder norm σ·r above 1.05‖W0‖ (r ∈ FLOW_NORMS, r ≤ ``depth``, σ = ‖q‖),
    within ``max_steps`` steps over all legs: [(‖W‖, 1 − corr to q, [to each LMM], W)] at the legs reached, the last
    leg's status, the legs. Theorems 4/5 here and Conjecture 2 (tfsvm.conj2) read it."""
    n0, sigma = _norm(W0), float(norm2(q).mid())
    legs = [f"{r * sigma:.6g}" for r in FLOW_NORMS if n0 * 1.05 < r * sigma and r <= depth]
    recs, status = [], "not run"
    for traj in flow_through_norms(data, "W", legs, init=list(W0), dps=dps, loss=loss, svm=False,
                                   max_steps=max_steps):
        status = traj.status
        if status == "reached":
            W = [arb(x.mid()) for x in traj.psi]
            recs.append((norm2(W), one_minus_corr(W, q), [one_minus_corr(W, w) for w in lmms], W))
    return recs, status, legs


def global_convergence(out: Outcome, data, prec, q, eta, *, loss="logistic", gd_steps=2000, depth=1000,
                       random_starts=1, seed=0, flows="auto") -> None:
    """Append the trap certificates, GD and flow evidence of "W(k)/‖W(k)‖ → Ŵ^mm from any W(0)" to ``out``.
    ``flows``: "all" starts, "none", "auto" (every start when no trap is proven; else the trapped starts: the
    plateau beside the certificate) or "untrapped" (every start when no trap is proven; else none)."""
    qa = [to_arb(x) for x in q]
    pts, how = starts(data, q, loss, prec.dps, random_starts, seed)
    out.notes.append(f"starts: {len(pts)} ({how})")
    lmms = [s[2][1] for s in pts if s[2] is not None]
    lmm_arb = [[to_arb(x) for x in w] for w in lmms]
    trapped = [s for s in pts if s[2] is not None and s[2][2] is not None]
    model = LinearLogitModel.from_dataset(data, "W", loss)
    series, flown, climbed = [], [], {}  # flown: (label, status, records) per flow; climbed: α → ladder radii flown
    for label, W0, info in pts:
        gd_end = ""
        if info is not None and gd_steps:  # the theorem's own iteration at the locally-optimal starts (shown)
            gd = gd_checkpoints(model, W0, eta, [0, gd_steps])
            Wk = gd.points[-1]
            gd_end = (f"after k = {gd_steps} W-GD steps (η = 1/L_W): ‖W(k)‖_F = {to_decimal_string(gd.norms[-1], 6)}, "
                      f"1 − corr to W^mm = {to_decimal_string(one_minus_corr(Wk, qa), 4)}, to W^mm_α = "
                      f"{to_decimal_string(one_minus_corr(Wk, [to_arb(x) for x in info[1]]), 4)}")
            out.add(Evidence(f"W-GD η = 1/L_W, k = {gd_steps} from {label}: 1 − corr(W(k), W^mm)",
                             one_minus_corr(Wk, qa), note=gd_end + " (shown: GD grows ‖W‖ only like ln k)"))
        run_flow = flows == "all" or (flows in ("auto", "untrapped") and not trapped) or \
            (flows == "auto" and info is not None and info[2] is not None)
        recs = []
        if run_flow and info is not None and info[4]:  # no certificate: the ladder along the ray
            rung_series, climbed[info[0]] = ladder(out, data, info, lmms.index(info[1]), qa, lmm_arb, depth, prec.dps,
                                                   loss, flown)
            series += rung_series
            continue
        if run_flow:
            recs, status, legs = ladder_flow(data, W0, qa, lmm_arb, depth, prec.dps, loss)
            flown.append((label, status, recs))
        if recs:
            xs, ys = [r[0] for r in recs], [r[1] for r in recs]
            dec = rules.decays(xs, ys, expected=THEORY_RATE, zero=arb(10) ** -prec.dps)
            lm = "; ".join(f"to W^mm_α{k + 1}: {to_decimal_string(v, 3)}" for k, v in enumerate(recs[-1][2]))
            out.add(Evidence(f"gradient flow from {label}: 1 − corr(W, W^mm) → 0 (at ‖W‖_F = "
                             f"{to_decimal_string(recs[-1][0], 4)})", ys[-1], rule=dec, enclosed=False,
                             note="; ".join(x for x in (dec.detail, lm) if x)))
            short = label.split(" (")[0] if info is None else "ray of W^mm_α, α = " + label.split("α = ")[1].split(" (")[0]
            series.append(Series(f"from {short}: to W^mm", [plot_value(x) for x in xs], log10_series(ys), "-o"))
            for k in range(len(lmms)):
                series.append(Series(f"from {short}: to W^mm_α{k + 1}", [plot_value(x) for x in xs],
                                     log10_series([r[2][k] for r in recs]), ":"))
        if info is not None:
            trap_items(out, label, W0, info, recs, lmms, gd_end)
    skipped = len(pts) - (len(flown) - sum(map(len, climbed.values())) + len(climbed))  # starts not flown
    if flows in ("auto", "untrapped") and trapped and skipped:
        out.notes.append(f"flows from the {skipped} other start(s) skipped: the conclusion is already refuted (certified "
                         "trap); flows=\"all\" runs them")
    bad = [f"{lab}: {st}" for lab, st, recs in flown if st != "reached"]
    out.require(f"every flow reached ‖W‖_F = {depth}·‖W^mm‖_F", not bad, "; ".join(bad))
    if series:
        out.figures.append(Figure("omc", "1 − corr(W, W^mm) and 1 − corr(W, W^mm_α) along the gradient flow", "‖W‖_F",
                                  "log10(1 − corr) (working precision)", series, logx=True,
                                  caption="A trapped start keeps 1 − corr to W^mm at a plateau while it converges "
                                          "to the locally-optimal direction." if trapped else
                                  "Every start: 1 − corr to W^mm decays (derived rate ‖W‖^-2)."))
    deepest = max((r[-1][0] for _, _, r in flown if r), key=lambda z: z.mid(), default=None)
    rungs = [f"α = ({', '.join(str(t + 1) for t in alpha)}) at ‖W(0)‖_F ≈ {', '.join(radii)}"
             for alpha, radii in climbed.items()]
    parts = ([f"‖W‖_F ≤ {to_decimal_string(deepest, 4)} along the gradient flow"] if deepest is not None else []) + \
        ([f"locally-optimal ray starts {'; '.join(rungs)} (a ladder, until one stays trapped)"] if rungs else []) + \
        ([f"W-GD (η = 1/L_W) k ≤ {gd_steps} at the locally-optimal starts"] if lmms and gd_steps else []) + [f"{len(pts)} starts"]
    out.range = "; ".join(parts)


def stays_at_lmm(dec, to_lmm) -> bool:
    """A rung's flow stays at the locally-optimal direction: 1 − corr to W^mm is a plateau (``dec``, the
    ``rules.decays`` answer, fails) while 1 − corr to W^mm_α strictly decreases over the same tail (the flow converges
    there, not merely slowly away)."""
    return dec.holds is False and rules.strictly_decreasing(to_lmm[-rules.TAIL_POINTS:]) is True


def ladder(out: Outcome, data, info, k: int, qa, lmm_arb, depth, dps, loss, flown) -> tuple[list, list]:
    """Fly the rungs of one locally-optimal ray in turn (no certificate applies) until a start stays trapped: each
    rung's flow is a deciding item "1 − corr(W, W^mm) → 0" (``rules.decays``), so a trapped rung fails it (VIOLATED,
    evidence) and an escaping one holds; the ladder stops at the first trapped rung. ``k``: the ray's index among the
    locally-optimal directions ``lmm_arb``. Returns the figure's series and the radii flown."""
    alpha, _, _, why, rungs = info
    name = ", ".join(str(t + 1) for t in alpha)
    series, radii = [], []
    for R, rho, W0 in rungs:
        label = f"W(0) = {rho}·W^mm_α, α = ({name}) (‖W(0)‖_F ≈ {R})"
        radii.append(str(R))
        recs, status, _ = ladder_flow(data, W0, qa, lmm_arb, depth, dps, loss)
        flown.append((label, status, recs))
        if not recs:
            break
        xs, ys, zs = [r[0] for r in recs], [r[1] for r in recs], [r[2][k] for r in recs]
        dec = rules.decays(xs, ys, expected=THEORY_RATE, zero=arb(10) ** -dps)
        stays = stays_at_lmm(dec, zs)
        out.add(Evidence(f"gradient flow from {label}: 1 − corr(W, W^mm) → 0 (at ‖W‖_F = "
                         f"{to_decimal_string(xs[-1], 4)})", ys[-1], rule=dec, enclosed=False,
                         note="; ".join(x for x in (dec.detail, "1 − corr to W^mm_α: " + ", ".join(
                             to_decimal_string(z, 3) for z in zs), "stays at the LMM (trapped)" if stays else "",
                             f"no trap certificate: {why}") if x)))
        series.append(Series(f"from ‖W(0)‖ ≈ {R} on the ray of α = ({name}): to W^mm", [plot_value(x) for x in xs],
                             log10_series(ys), "-o"))
        series.append(Series(f"from ‖W(0)‖ ≈ {R}: to W^mm_α", [plot_value(x) for x in xs], log10_series(zs), ":"))
        if stays or dec.holds is not True:
            break
    return series, radii


def trap_items(out: Outcome, label, W0, info, recs, lmms, gd_end: str = "") -> None:
    """The certificate's constants (shown) and, when proven, the deciding item: the proven limit ≠ 0."""
    alpha, w, cert, detail, rungs = info
    if rungs:  # the ladder's flows are the items
        return
    if cert is None:
        out.add(Evidence(f"trap certificate at {label}", None, note="not proven here (evidence only): " + detail))
        return
    # the certificate's two conditions, shown as the comparisons they are (both certain when proven)
    out.add(Evidence(f"trap certificate at {label}: c (e^a(k) ≥ e^a(0) + kηc)", cert.c, ">", 0, note=detail),
            Evidence("  … certified bound on the total decrease of b over all k", cert.total, "<", cert.drop,
                     note=f"δ = {cert.drop}; the bound grows with η: it covers every η ∈ (0, 1/L_W]"))
    if cert.floor is not None:
        out.add(Evidence("  … exact floor: 1 − corr(W(k), W^mm) ≥ m₂²/(2‖W^mm‖²ĝ22) for every k", cert.floor,
                         note="v₂ = κa + b ≥ 0 on Ω: the deviating sequence keeps weight ≥ ½ on α's token"))
    at = (f"; at ‖W‖_F = {to_decimal_string(recs[-1][0], 4)} on the gradient flow: 1 − corr to W^mm = "
          f"{to_decimal_string(recs[-1][1], 4)}, to W^mm_α = {to_decimal_string(recs[-1][2][lmms.index(w)], 3)}"
          if recs else "") + (f"; {gd_end}" if gd_end else "")
    out.add(Evidence(f"trap at {label}: lim_k 1 − corr(W(k), W^mm) (proven: a(k) → ∞, b(k) bounded; the theorem "
                     "says 0)", cert.limit, "==", 0,
                     note=f"witness: W(0) = ({', '.join(str(x) for x in W0)}) stays at the LMM W^mm_α = "
                          f"({', '.join(str(x) for x in w)}) for every η ∈ (0, 1/L_W]{at}"))
