"""irgf Lemma 4.2 — the norm diverges; no stationary point at finite β (proof (27)–(29);
arXiv 2403.08699 v1).

Setting: diagonal K, Q, β = ξ_k ⊙ ξ_q, exponential loss, gradient flow (2) from init (5) with
scale ω₀ (w_min = min_j |ω₀,j|).

Statement (asymptotic, no rate): lim_{t→∞} ‖β(t)‖₂ = lim ‖ξ_k(t) ⊙ ξ_q(t)‖₂ = ∞.
Checkable steps of the proof:
  (27)  dℒ/dt = −2 Σ_j √(β_j² + ω₀,j⁴) (∂_jℒ)² ≤ −2 w_min² ‖∇_βℒ‖²
        (the paper prints the weaker −(2w_min²/n)‖∇ℒ‖², also true: a slip);
  (28)  for an ℓ1-feasible β_f (β_fᵀB_il ≥ 1): ⟨∇_βℒ(β), β_f⟩ ≤ (1/n) Σ_i Σ_{l≠opt} ℓ_i (Σ(g_i)γ_i)_l
  (29)                 = −(1/n) Σ_i ℓ_i σ_opt (1 − σ_opt)(γ_opt − γ_nopt) < 0   (Assumption 2),
hence ∇ℒ(β) ≠ 0 at every finite β, ∇ℒ(β(t)) → 0 and ‖β(t)‖ → ∞.

Hypotheses as printed: Assumption 2, init (5) (Assumption 1 standing). Actually needed: a diagonal
separator, ``irgf.hyp.diagsep``, which Assumption 1 does not imply: on D-DIAGINF ∇_βℒ(0) = 0
**exactly** (Lindemann–Weierstrass), so β(t) ≡ 0 and the printed statement fails; the check says
NOT_APPLICABLE naming irgf.hyp.diagsep and notes the failure as printed. Assumption 3 is not needed
(D-TRAP with ω₀ = 𝟙 holds; tested).

How it is checked.
* ∇_βℒ(0) ≠ 0, exact (β = 0 is the start of init (5)).
* (27) equality, an identity at every flow record (a Tally, certified per point): the flow's own
  dℒ/dt — the chain rule through the softmax along its velocity β̇ = ω₀² ⊙ cosh(Bφ) ⊙ Bφ̇
  (``DualDiagSystem.loss_rate``) — against −2Σ_j √(β_j²+ω₀,j⁴)(∂_jℒ)² with ∇ℒ from
  ``verify.models.attention``; relative deviation ≤ 10^−dps. A wrong formula (a dropped 2) fails.
* (27) inequality, (28), (29) and the agreement of (29)'s two forms: Tallies at probe points β = r·u
  (u: seeded rational directions, ±β*, ±B_il; r up to 1000, attention saturated to e^{−1000}) and
  at flow records, certified in ball arithmetic. (27) is evaluated factored,
  −2 Σ_j (β_j² + ω₀,j⁴ − w_min⁴)/(√(β_j²+ω₀,j⁴) + w_min²) g_j², so the equality case is exactly 0.
  β_f = 2β* (strictly feasible: the inequality is strict, hence decidable).
* (28)–(29)'s conclusion ⟨∇_βℒ(β), β_f⟩ < 0 proven on a whole box ‖β‖∞ ≤ r (a region certificate,
  ``kit.region_inequality.descent_margin``; r the logit-scale box halved until proven, d ≤ 4); the certificate is
  written by ``--report`` and re-checked by ``python -m verify recheck``.
* Divergence (evidence over ln(‖β‖₁/p*) ≤ 10; the dual-coordinate flow, ``enclosed=False``):
  ``rules.diverges`` on ‖β‖₂ against ln t over the window (DERIVED: µ(t)/ln t → 1, exponent 1;
  stalls fail), and ‖∇_βℒ(β(t))‖ → 0 by ``rules.vanishes`` against its value at s = 1/2. Shown: µ/ln t.
False cases (tests): D-DIAGINF with the check bypassed (∇ℒ(0) = 0: VIOLATED, certified); (27) with
w_max for w_min, ω₀ = (1, 2, 1, 1): VIOLATED at β = 0; (27) with the factor 2 dropped: VIOLATED.
"""
from __future__ import annotations

import random
from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Outcome, Series, Tally, register, rules
from verify.claims.registry import Parameter
from verify.data.irgf import d_face, d_seed0
from verify.kit import irgf
from verify.kit.region_inequality import descent_margin, prove_on_halved_boxes
from verify.models.attention import LinearLogitModel, dot, features, norm2
from verify.numbers.precision import Precision, to_arb

NEEDS = (irgf.A1, irgf.A2, irgf.INIT5, irgf.DIAGSEP)
SCALES = ("0", "1/4", "1", "3", "10", "30", "100", "1000")
REGION_RUNGS, REGION_BOXES, REGION_MAX_DIM = 10, 200, 4  # (28)–(29)'s sign proven on a box ‖β‖∞ ≤ r, d ≤ 4


def probe_points(data, res, count=3, seed=0):
    """β = r·u/‖u‖_∞ for seeded rational directions u, ±β*, ±B_il and r in SCALES."""
    rng = random.Random(seed)
    dirs = [tuple(Fraction(rng.randint(-100, 100), 37) for _ in range(data.d)) for _ in range(count)]
    if res is not None:
        dirs += [tuple(res.solution), tuple(-x for x in res.solution)]
        dirs += [tuple(s * x for x in row) for row in res.problem.rows for s in (1, -1)]
    tops = [max(abs(y) for y in u) for u in dirs]  # ‖u‖_∞ once per direction (not once per coordinate: O(d²))
    return [[to_arb(x * Fraction(r) / top) for x in u] for u, top in zip(dirs, tops) if top for r in SCALES]


def proof_steps(model, data, w2, wref2, beta_f, tol, wname="w_min"):
    """Tallies of (27) (inequality, factored), (28), (29) and the agreement of (29)'s two forms;
    ``add(β, where)`` decides each at one point."""
    t27 = Tally(f"(27) −2Σ_j√(β_j²+ω₀,j⁴)(∂_jℒ)² + 2 {wname}² ‖∇_βℒ‖² (factored)", "<=", 0)
    t28 = Tally("(28) ⟨∇_βℒ(β), β_f⟩ − (1/n)ΣΣ ℓ_i(Σγ_i)_l, β_f = 2β*", "<", 0)
    t29 = Tally("(29) (1/n)ΣΣ ℓ_i(Σγ_i)_l = −(1/n)Σ ℓ_i σ_opt(1−σ_opt)Δ_i", "<", 0)
    d29 = Tally("(29) relative deviation of the two forms", "<=", tol, residual=True)
    gaps = [to_arb(g[o] - g[next(t for t in range(data.T) if t != o)]) for g, o in zip(data.scores, model.opt)]

    def add(beta, where):
        states = model.states(beta)
        g = model.grad(beta, states)
        t27.add(sum((-2 * (b * b + w * w - wref2 * wref2) / ((b * b + w * w).sqrt() + wref2) * gj * gj
                     for b, w, gj in zip(beta, w2, g)), arb(0)), where)
        r28 = r29 = arb(0)
        for st, o, gap in zip(states, model.opt, gaps):
            ell = (-st.phi).exp()
            r28 += ell * sum((c for t, c in enumerate(st.c) if t != o), arb(0)) / model.n
            r29 -= ell * st.s[o] * sum((s for t, s in enumerate(st.s) if t != o), arb(0)) * gap / model.n
        if beta_f is not None:
            t28.add(dot(g, beta_f) - r28, where)
        t29.add(r28, where)
        d29.add((r28 - r29) / r29, where)
    return (t27, t28, t29, d29), add


def descent_box(data, params: dict):
    """The region margin (also rebuilt by ``verify recheck``): −⟨∇_βℒ(β), β_f⟩ > 0 for ‖β‖∞ ≤ radius (exponential
    loss, β_f = 2β* exact, stored in ``params``) — (28)–(29)'s conclusion, no stationary point there."""
    r = Fraction(params["radius"])
    return descent_margin(features(data, "diag"), data.scores, "exponential", [Fraction(x) for x in params["beta_f"]],
                          r, names=tuple(f"β{j + 1}" for j in range(data.d)),
                          statement=f"⟨∇_βℒ(β), β_f⟩ < 0 for ‖β‖∞ ≤ {r}, β_f = 2β*")


def evaluate(data, prec: Precision, omega0=None, target=irgf.DEFAULT_TARGET, check_hypotheses=True,
             constant="min", rate_factor=2, region="auto") -> Outcome:
    """``constant`` = "max" puts w_max² in (27) and ``rate_factor`` ≠ 2 changes the factor of (27)'s
    equality (wrong formulas: false cases)."""
    out = Outcome()
    ctx = irgf.hypotheses(out, data, NEEDS, "irgf.lemma42", omega0, check_hypotheses)
    if not out.applicable():
        return out
    out.add(irgf.moves_from_zero(data))
    res = ctx["svm"] if ctx["diagsep"] else None
    om = [abs(Fraction(w)) for w in (omega0 or [1] * data.d)]
    w2 = [to_arb(w * w) for w in om]
    wref = min(om) if constant == "min" else max(om)
    beta_f = [2 * to_arb(x) for x in res.solution] if res is not None else None
    model = LinearLogitModel.from_dataset(data, "diag", "exponential")
    traj, recs, reached = irgf.follow(out, data, omega0, target)
    tallies, add = proof_steps(model, data, w2, to_arb(wref * wref), beta_f, prec.tolerance,
                               "w_min" if constant == "min" else "w_max (wrong constant)")
    probes = probe_points(data, res)
    for k, beta in enumerate(probes):
        add(beta, f"probe point {k}")
    out.cover(f"(27)–(29): β at {len(probes)} probe points (r·u, r ∈ {{{', '.join(SCALES)}}}) and the flow records"
              + ("; β_f = 2β*" if beta_f is not None else ""))
    rate = Tally(f"(27) dℒ/dt of the flow = −{rate_factor}Σ_j√(β_j²+ω₀,j⁴)(∂_jℒ)² (relative deviation)", "<=",
                 prec.tolerance, residual=True)
    for r, p in recs:
        add(p.beta, f"flow record s = {r.s}")
        dl, beta, _ = traj.system.loss_rate(r.phi)
        formula = -rate_factor * sum(((b * b + w * w).sqrt() * gj * gj for b, w, gj in zip(beta, w2, model.grad(beta))),
                                     arb(0))
        rate.add((dl - formula) / formula, f"s = {r.s}")
    out.add(rate.evidence("the flow's own dℒ/dt (chain rule along β̇) against the formula"),
            *(t.evidence() for t in tallies if t.coverage.points))
    if res is not None and region is not None and data.d <= REGION_MAX_DIM:
        def box(r):
            params = {"radius": str(r), "beta_f": [str(2 * Fraction(x)) for x in res.solution]}
            return (f"(28)–(29): −⟨∇_βℒ(β), β_f⟩ > 0 on the box ‖β‖∞ ≤ {r}, β_f = 2β* (proven)",
                    descent_box(data, params), params, f"‖β‖∞ ≤ {r}")

        item = prove_on_halved_boxes(out, region, features(data, "diag"), box, rungs=REGION_RUNGS,
                                     claim="irgf.lemma42", name="descent-box", data=data, dps=prec.dps,
                                     max_boxes=REGION_BOXES)
        if item.decide():
            out.cover(f"(28)–(29)'s sign proven on every β with {item.proof.region}")
    win = irgf.window(recs, key=lambda p: p.l1)
    if not reached or not out.require("an asymptotic window of ≥ 3 records with ln t > 1",
                                      len(win) >= 3 and all(p.log_t > 1 for _, p in win), f"{len(win)} record(s)"):
        return out
    norms, lts = [norm2(p.beta) for _, p in win], [p.log_t for _, p in win]
    out.add(irgf.ruled("‖β(t)‖₂ → ∞ like a power of ln t over the window (value: at the last record)", norms[-1],
                       rules.diverges(lts, norms), note="DERIVED: µ(t)/ln t → 1, exponent 1"))
    gn = [norm2(p.grad) for _, p in recs]
    out.add(irgf.ruled("‖∇_βℒ(β(t))‖ → 0 (value: at the last record)", gn[-1], rules.vanishes(gn[-1], gn[0]),
                       note=f"reference: its value at s = {recs[0][0].s}"))
    last = recs[-1][1]
    if last.mu > 0:
        out.add(Evidence("µ(t)/ln t at the last record", last.mu / last.log_t, note="DERIVED: → 1"))
    xs = [irgf.fl(p.log_t) for _, p in recs]
    fig = irgf.figure(
        "norm", "Lemma 4.2: ‖β(t)‖₂ and µ(t) against ln t", "ln t", "value", [
            Series("‖β(t)‖₂", xs, [irgf.fl(norm2(p.beta)) for _, p in recs], "-o"),
            Series("µ(t)", xs, [irgf.fl(p.mu) if p.mu > 0 else None for _, p in recs], "-s"),
            Series("ln t", xs, xs, ":")],
        logx=True, logy=True, caption=f"{data.name}: the norm grows like ln t (µ/ln t → 1; the dotted line is ln t itself).")
    out.show(fig)
    return out


STATEMENT = """\
Under Assumption 2 and init (5) (Assumption 1 standing; the proof needs an ℓ1-feasible β_f, i.e.
irgf.hyp.diagsep): lim_{t→∞} ‖β(t)‖₂ = ∞. Proof steps: (27) dℒ/dt = −2Σ_j √(β_j²+ω₀,j⁴)(∂_jℒ)² ≤
−2w_min²‖∇_βℒ‖²; (28)–(29) ⟨∇_βℒ(β), β_f⟩ ≤ (1/n)ΣΣ ℓ_i(Σγ_i)_l = −(1/n)Σ ℓ_iσ_opt(1−σ_opt)Δ_i < 0.

(27) compared with the flow's own dℒ/dt; inequalities certified at probe points up to saturation and along the
flow; divergence shown over the range reached.
"""

CLAIM = register(Claim(id="irgf.lemma42", paper="irgf", number="Lemma 4.2", kind="asymptotic",
                       title="Diagonal (K, Q): ‖β(t)‖ → ∞ and no stationary point at finite β", statement=STATEMENT,
                       check=evaluate, default_datasets=(d_seed0, d_face),
                       aliases=("norm-diverges", "no-finite-stationary-point", "diag-norm-diverges"),
                       default_precision=30, regions={"descent-box": descent_box},
                       parameters=(
                           irgf.OMEGA0_PARAMETER,
                           Parameter("β", "(27)–(29) at every finite β", "range",
                                     "r·u for 3 seeded u, ±β*, ±B_il, r ∈ {0, …, 1000}, and every flow record; "
                                     "(28)–(29)'s sign proven on every β of a box ‖β‖∞ ≤ r (d ≤ 4; a region "
                                     "certificate) (named in the verdict)"),
                           Parameter("β_f", "(28) for an ℓ1-feasible β_f (any)", "range",
                                     "β_f = 2β*, strictly feasible so that (28) is strict (named in the verdict)"))))
