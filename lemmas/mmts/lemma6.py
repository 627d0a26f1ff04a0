"""mmts Lemma 6 — smoothness of L(p) and the descent lemma; Sec. 2 eq. (6), App. B.1 (24)–(26).

Statement. Under Assumption A (on [−B, B], B = max|γ_it|: ℓ strictly decreasing, ℓ' M₀-Lipschitz,
|ℓ'| ≤ M₁), L(p) = (1/n) Σ_i ℓ(γ_iᵀ S(K_i p)), K_i = X_i W, is L_p-smooth,

    ‖∇L(p) − ∇L(p')‖ ≤ L_p‖p − p'‖,   L_p := (1/n) Σ_i (M₀‖v‖²‖W‖²‖X_i‖⁴ + 3M₁‖v‖‖W‖²‖X_i‖³),   (6)/(24)

and for η ≤ 1/L_p gradient descent p⁺ = p − η∇L(p) satisfies
    L(p⁺) − L(p) ≤ −(η/2)‖∇L(p)‖²  (25),    Σ_t ‖∇L(p(t))‖² ≤ 2(L(p(0)) − L⋆)/η  (26).

Hypotheses, computed: Assumption A for every loss used (``kit.assumptions.assumption_a``); η ≤ 1/L_p
against the certified constant (``kit.assumptions.step_size``; default η = 1/L_p rounded down).
``enforce_step=False`` drops the step hypothesis and tests (25) anyway (the false case).

Keys and W (``verify.geometry.smoothness``): W is recovered exactly as X⁺K; keys not of the form XW
use the proof's own quantity ‖K_i‖ for ‖W‖‖X_i‖ (L_K, named in the evidence).

Proven on the whole domain (``verify.kit.smoothness_proof``): by the chain rule ∇²L(p) = (1/n)Σ_i (ℓ''(u_i)a_ia_iᵀ +
ℓ'(u_i)B_i) with a_i, B_i polynomials of s_i = S(K_ip) alone, so ‖∇²L(p)‖₂ ≤ (1/n)Σ_i (M₀‖a_i‖² + M₁‖B_i‖_F); bounding
‖a_i‖² and ‖B_i‖_F on the whole simplex by the two factors of (24)'s i-th term (exact bounds, or a region certificate
on the simplex where those are too crude) proves ‖∇²L(p)‖₂ ≤ L_p at every p, for every loss meeting Assumption A.
Then (6) for every p, p′ (mean-value theorem), (25) for every p and η ≤ 1/L_p (the descent lemma:
L(p⁺) ≤ L(p) − η(1 − ηL_p/2)‖∇L‖² ≤ L(p) − (η/2)‖∇L‖²) and (26) (telescoping (25)). The items below then corroborate:
  (i)   ‖∇²L(p)‖₂ / L_p ≤ 1 at the probe points (``verify.geometry.probes``: directions × scales up to ‖p‖∞ = 1000,
        split-attention ties) and at 3 local maxima of a float64 search (it only proposes points), for the logistic,
        exponential and correlation losses (closed-form Hessian, rigorous spectral norm);
  (i′)  a region certificate on a box (logistic): ‖∇²L(p)‖_F < L ≤ L_p for every p with ‖p‖∞ ≤ r (``hessian_box``),
        r = ``logit_box_radius`` halved until proven within 100 boxes (at most 12 sizes);
  (ii)  (6) between consecutive GD iterates (1000 steps from p(0) = 0, logistic);
  (iii) (25) as ρ = (L(p) − L(p⁺))/((η/2)‖∇L(p)‖²) ≥ 1 at every probe point and GD step: from the
        cancellation-free excess losses intersected with the mean-value form ρ = 2 − η gᵀ∇²L(ξ)g/‖g‖²
        (``descent_ratio``), tight also where saturation puts the drop below the working precision; (iv) (26) over
        the run (enclosure). Where the simplex bounds are not proven, these decide (certified at their points).
Observed: ‖∇²L‖/L_p ≤ 0.0093 (valid but loose by 10–100×); without the step hypothesis (25) first
fails on ``lemma6_tight`` near η ≈ 127/L_p on these probe points (descent is guaranteed up to
1/L_true ≈ 108/L_p).
False cases (tests): a wrong constant (‖X_i‖², no ‖W‖²) and η = 400/L_p with the step hypothesis
dropped → VIOLATED; η = 2/L_p or a square loss → NOT_APPLICABLE; no point at all → INCONCLUSIVE.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Figure, Outcome, Series, register
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.data.dataset import Dataset
from verify.data.generators import random_dataset
from verify.data.mmts import mmts_lemma6_tight as lemma6_tight
from verify.data.mmts import mmts_scaled_keys as scaled_key_dataset
from verify.geometry.probes import probe_points
from verify.geometry.smoothness import descent_ratio, hessian_local_maxima, hessian_norm, smoothness_constant
from verify.kit.assumptions import assumption_a, step_size
from verify.kit.probe_inequality import ProbeInequality, point_label
from verify.kit.region_inequality import hessian_margin, prove_on_halved_boxes
from verify.kit.smoothness_proof import hessian_bound_everywhere, input_margin
from verify.kit.trajectory_identity import norm_enclosure
from verify.models.attention import LinearLogitModel, features, norm2
from verify.models.losses import get_loss
from verify.numbers.precision import Precision, log10_abs, to_arb, to_decimal_string
from verify.numbers.regions import Margin, decimal_text, rational_below

LOSSES = ("logistic", "exponential", "correlation")
REGION = "auto"  # (i) proven on a box ‖p‖∞ ≤ r (logistic loss); "auto": the logit-scale box, None: no region
REGION_RUNGS, REGION_BOXES = 12, 100  # the box is halved until proven (at most 12 sizes, 100 boxes each)


def hessian_box(data: Dataset, params: dict) -> Margin:
    """(i) on a box, as a region margin (also rebuilt by ``verify recheck``): ‖∇²L(p)‖_F < L for every p with
    ‖p‖∞ ≤ ``radius``, L a rational not above L_p (its lower end rounded down to 12 digits: proving the bound for L
    proves it for L_p) — ``kit.region_inequality.hessian_margin``; ‖·‖₂ ≤ ‖·‖_F makes it sufficient, not equivalent
    (a point where it fails is no counterexample: the probe points' spectral norms decide there)."""
    loss = params.get("loss", "logistic")
    radius = Fraction(params["radius"])
    powers = (int(params.get("x_power", 4)), int(params.get("w_power", 2)))
    bound = rational_below(smoothness_constant(data, loss, x_power=powers[0], w_power=powers[1]).value)
    feats = features(data, "p")
    return hessian_margin(feats, data.scores, loss, bound, radius, tuple(f"p{j + 1}" for j in range(len(feats[0][0]))),
                          f"‖∇²L(p)‖_F < {decimal_text(bound)} ≤ L_p ({get_loss(loss).name}) for ‖p‖∞ ≤ {radius}")


def evaluate(data: Dataset, prec: Precision, losses=LOSSES, descent_loss: str = "logistic", eta=None,
             steps: int = 1000, enforce_step: bool = True, x_power: int = 4, w_power: int = 2,
             search: bool = True, points=None, region=REGION, region_boxes: int = REGION_BOXES) -> Outcome:
    """(i) for each loss in ``losses``; (ii)–(iv) for ``descent_loss`` with step ``eta`` (default 1/L_p
    rounded down). ``x_power``/``w_power`` alter the constant (wrong-constant tests); ``points``
    replaces the probe points (exact rationals)."""
    names = list(dict.fromkeys(list(losses) + ([descent_loss] if descent_loss else [])))
    out = Outcome(hypotheses=[assumption_a(name, data, f"Assumption A ({get_loss(name).name})") for name in names])
    if not out.applicable():
        return out
    consts = {name: smoothness_constant(data, name, x_power=x_power, w_power=w_power) for name in names}
    if descent_loss:
        Lp = consts[descent_loss].value
        eta_a = (arb((1 / Lp).lower()) if Lp > 0 else arb(1)) if eta is None else \
            eta if isinstance(eta, arb) else to_arb(Fraction(eta))
        step = step_size(eta_a, Lp, "step size η ≤ 1/L_p (for (25)–(26))")
        if enforce_step:
            out.hypotheses.append(step)
            if not out.applicable():
                return out
        else:
            out.notes.append(f"step hypothesis removed: {step.detail}")
    for name in names:
        label = "L_p (6)/(24)" if consts[name].form == "W" else "L_K (proof form: ‖K_i‖ for ‖W‖‖X_i‖)"
        altered = f" [altered: ‖X_i‖^{x_power}, ‖W‖^{w_power}]" if (x_power, w_power) != (4, 2) else ""
        out.add(Evidence(f"{get_loss(name).name}: {label}{altered}", consts[name].value, note=consts[name].describe()))
    proven = False
    if names:  # (i) on every p through the simplex, for every loss meeting Assumption A
        proven = hessian_bound_everywhere(out, data, claim="mmts.lemma6", name="hessian-simplex", dps=prec.dps,
                                          x_power=x_power, w_power=w_power).decide() is True
    def covered(text):
        out.cover(text, corroborating=proven)

    pts = probe_points(features(data, "p"), data.optimal_tokens()) if points is None else [tuple(p) for p in points]
    labels = {p: point_label(p) for p in pts}
    models = {name: LinearLogitModel.from_dataset(data, "p", name) for name in names}
    states = {p: models[names[0]].states([to_arb(x) for x in p]) for p in pts}

    # (i) ‖∇²L(p)‖₂ ≤ L_p at every probe point and at local maxima of a float64 search
    fig_x, fig_y = [], []
    for name in losses:
        c, model = consts[name], models[name]
        norms = {p: hessian_norm(model.hessian([to_arb(x) for x in p], states[p])) for p in pts}
        ranked = sorted(pts, key=lambda p: -float(norms[p].mid()))[:3]
        found = hessian_local_maxima(data, name, ranked) if search and pts else []
        for p in found:
            norms[p] = hessian_norm(model.hessian([to_arb(x) for x in p]))
        tally = ProbeInequality(f"{get_loss(name).name}: max ‖∇²L(p)‖₂ / {'L_p' if c.form == 'W' else 'L_K'} over "
                                f"{len(pts)} probe points" + (f" + {len(found)} local maxima" if search else "") + " (i)",
                                "<=", 1)
        for p in pts:
            tally.add_ratio(norms[p], c.value, labels[p])
        for p in found:
            tally.add_ratio(norms[p], c.value, "locally maximised " + point_label(p))
        out.add(tally.evidence(corroborates=proven))
        if name == "logistic" and c.value > 0:  # log10 at the working precision; p = 0 has no log10‖p‖
            fig = [(log10_abs(norm2([to_arb(x) for x in p])), log10_abs(norms[p] / c.value)) for p in pts if any(p)]
            fig_x, fig_y = [x for x, _ in fig], [y for _, y in fig]
    proven_box = ""
    if region is not None and "logistic" in losses:
        def box(r):
            params = {"loss": "logistic", "radius": str(r), "x_power": x_power, "w_power": w_power}
            return (f"logistic: L_p² − ‖∇²L(p)‖_F² > 0 on the box ‖p‖∞ ≤ {r} (i, proven)",
                    hessian_box(data, params), params, f"‖p‖∞ ≤ {r}")

        item = prove_on_halved_boxes(out, region, features(data, "p"), box, rungs=REGION_RUNGS, claim="mmts.lemma6",
                                     name="hessian-box", data=data, dps=prec.dps, max_boxes=region_boxes)
        item.corroborates = proven
        if item.decide():
            proven_box = f", proven on every p with {item.proof.region} (logistic)"
    if fig_x:
        out.figures.append(Figure(
            "hessian-ratio", "Lemma 6 (i): ‖∇²L(p)‖₂ / L_p at the probe points (logistic)", "log10 ‖p‖",
            "log10(‖∇²L‖₂ / L_p)", [Series("probe points", fig_x, fig_y, "o")], hlines=[(0.0, "L_p")],
            caption="The closed-form Hessian stays far below the constant (6)."))
    if proven:
        out.cover("every p′ and every η ≤ 1/L_p: (6) for every loss meeting Assumption A, (25)–(26) by the descent lemma")
    covered(f"p, p′: ‖∇²L‖ at {len(pts)} probe points" + (" and local maxima of a float64 search" if search else "")
              + proven_box + (", (6) between consecutive GD iterates" if descent_loss else ""))
    if descent_loss:
        descent(out, models[descent_loss], Lp, eta_a, pts, labels, states, steps, get_loss(descent_loss).name, proven)
        covered(f"η = {to_decimal_string(eta_a, 6)}" + (" (1/L_p rounded down: the largest step allowed)"
                                                          if eta is None else " (given)")
                  + f"; GD from p(0) = 0, (26)'s infinite sum bounded over t < {steps}")
    return out


def descent(out, model, Lp, eta, pts, labels, states, steps, loss, proven: bool = False):
    """(ii)–(iv): (25) at every probe point and GD step, (6) between GD iterates, (26) over the run (``proven``:
    they corroborate the proof on every p)."""
    rho = ProbeInequality(f"{loss}: min (L(p) − L(p − η∇L)) / ((η/2)‖∇L‖²) over probe points and {steps} GD steps (25)",
                          ">=", 1)
    how = {"difference": 0, "mean value": 0, "stationary": 0}

    def descent_at(p, st, where):
        g, ex = model.grad(p, st), model.excess(p, st)
        r = descent_ratio(model, p, eta, g, ex)
        how[r.how] += 1
        if r.rho is not None:
            rho.add(r.rho, where)
        return g, r

    for p in pts:
        descent_at([to_arb(x) for x in p], states[p], "probe " + labels[p])
    lip = ProbeInequality(f"{loss}: max ‖∇L(p(t+1)) − ∇L(p(t))‖ / (L_p‖p(t+1) − p(t)‖) along GD (6)", "<=", 1)
    p, g_prev, p_prev = [arb(0)] * model.D, None, None
    ex0, sum_g2, ts, rhos, gnorms = model.excess(p), arb(0), [], [], []
    for t in range(steps + 1):
        st = model.states(p)
        if t == steps:
            g = model.grad(p, st)
        else:
            g, r = descent_at(p, st, f"GD step t = {t}")
            sum_g2 += r.g2
            if r.rho is not None:
                ts.append(t)
                rhos.append(float(r.rho.mid()))
        if g_prev is not None:
            lip.add_ratio(norm_enclosure([a - b for a, b in zip(g, g_prev)]),
                          Lp * norm_enclosure([a - b for a, b in zip(p, p_prev)]), f"t = {t - 1} → {t}")
        gnorms.append((t, norm2(g)))
        if t < steps:
            g_prev, p_prev, p = g, p, [arb(x.mid()) for x in r.p_next]
    out.add(rho.evidence(f"ρ enclosed by the difference of excess losses ∩ the mean-value form; the latter tighter at "
                         f"{how['mean value']} (saturated) point(s)" +
                         (f"; {how['stationary']} point(s) with ∇L = 0 exactly ((25) reads 0 ≤ 0)" if how["stationary"] else ""),
                         corroborates=proven))
    out.add(lip.evidence(corroborates=proven))
    out.add(Evidence(f"{loss}: Σ_t ‖∇L(p(t))‖² over {steps} GD steps (26)", sum_g2, "<=", 2 * ex0 / eta,
                     note="bound 2(L(p(0)) − L⋆)/η", corroborates=proven))
    out.add(Evidence(f"{loss}: ‖∇L(p(t))‖ at t = {steps} (→ 0 by (26))", gnorms[-1][1]))
    if ts:
        out.figures.append(Figure(
            "descent-ratio", "Lemma 6 (25): (L(p) − L(p⁺)) / ((η/2)‖∇L(p)‖²) along GD", "t", "descent ratio",
            [Series("GD, η = " + to_decimal_string(eta, 4), ts, rhos, "-")], hlines=[(1.0, "(25) bound")],
            caption="(25) holds when the ratio is at least 1; with η = 1/L_p it stays near 2 (the constant is loose)."))
        out.figures.append(Figure("gradient-norm", "Lemma 6 (26): ‖∇L(p(t))‖ along GD", "t", "log10 ‖∇L‖",
                                  [Series("GD", [t for t, _ in gnorms], [log10_abs(gn) for _, gn in gnorms], "-")]))


def default_datasets(seed: int = 0):
    return [D.mmts_fig1a(), D.mmts_fig1c(), lemma6_tight(), scaled_key_dataset(seed),
            random_dataset(n=2, T=4, d=3, seed=seed, keys=True, name=f"random-n2T4d3-keys-s{seed}")]


STATEMENT = """\
Under Assumption A, L(p) is L_p-smooth: ‖∇L(p) − ∇L(p')‖ ≤ L_p‖p − p'‖ with L_p = (1/n)Σ_i (M₀‖v‖²‖W‖²‖X_i‖⁴ +
3M₁‖v‖‖W‖²‖X_i‖³) (spectral norms) (6)/(24). If η ≤ 1/L_p, GD satisfies L(p(t+1)) − L(p(t)) ≤
−(η/2)‖∇L(p(t))‖² (25), hence Σ_t‖∇L(p(t))‖² ≤ 2(L(p(0)) − L⋆)/η and ∇L(p(t)) → 0 (26).

Checked at every probe point (adversarial p up to saturation and at split-attention ties): ‖∇²L(p)‖₂ ≤ L_p for
the logistic, exponential and correlation losses; (6) between GD iterates; (25) at the probe points and along
GD with η = 1/L_p; (26) over the run. Keys not of the form XW use ‖K_i‖ for ‖W‖‖X_i‖.
"""

CLAIM = register(Claim(id="mmts.lemma6", paper="mmts", number="Lemma 6", kind="inequality",
                       title="Smoothness of L(p) and the descent lemma", statement=STATEMENT, check=evaluate,
                       default_datasets=default_datasets, aliases=("smoothness", "descent-lemma"),
                       regions={"hessian-box": hessian_box, "hessian-simplex": input_margin},
                       parameters=(
                           Parameter("p, p′", "for all p, p′ ∈ ℝ^d ((6))", "range",
                                     "proven on every p through the simplex (exact bounds or region certificates); "
                                     "else ‖∇²L(p)‖₂ ≤ L_p at the probe points, local maxima of a float64 search and "
                                     "on a box ‖p‖∞ ≤ r, (6) between GD iterates (named in the verdict)"),
                           Parameter("η", "every η ≤ 1/L_p ((25)–(26))", "range",
                                     "η = 1/L_p rounded down, the largest step allowed, unless `eta` is given (named "
                                     "in the verdict)", option="eta", low=0),
                           Parameter("p(0)", "GD from any p(0) ((26))", "range", "p(0) = 0; (25) itself at every "
                                                                                 "probe point (named in the verdict)"),
                           Parameter("T", "Σ over all t of ‖∇L(p(t))‖² ((26))", "range",
                                     "the infinite sum bounded over its first `steps` = 1000 terms (named in the "
                                     "verdict)", option="steps", kind="integer", low=1, high=100000))))
