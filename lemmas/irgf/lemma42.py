"""irgf Lemma 4.2 — the norm diverges; no stationary point at finite β (proof (27)–(29);
arXiv 2403.08699 v1; spec `irgf.lemma42`).

Setting: diagonal K, Q, β = ξ_k ⊙ ξ_q, exponential loss, gradient flow (2) from init (5) with
scale ω₀ (w_min = min_j |ω₀,j|).

Statement (asymptotic, no rate): lim_{t→∞} ‖β(t)‖₂ = lim ‖ξ_k(t) ⊙ ξ_q(t)‖₂ = ∞.
Checkable steps of the proof:
  (27)  dℒ/dt = −2 Σ_j √(β_j² + ω₀,j⁴) (∂_jℒ)² ≤ −2 w_min² ‖∇_βℒ‖²
        (the paper prints the weaker −(2w_min²/n)‖∇ℒ‖², also true; a slip noted in spec §7);
  (28)  for an ℓ1-feasible β_f (β_fᵀB_il ≥ 1):
        ⟨∇_βℒ(β), β_f⟩ ≤ (1/n) Σ_i Σ_{l≠opt} ℓ_i (Σ(g_i)γ_i)_l
  (29)                 = −(1/n) Σ_i ℓ_i σ_opt (1 − σ_opt)(γ_opt − γ_nopt) < 0   (Assumption 2),
hence ∇ℒ(β) ≠ 0 at every finite β, ∇ℒ(β(t)) → 0 and ‖β(t)‖ → ∞.

Hypotheses as printed: Assumption 2, init (5) (Assumption 1 standing). Actually needed: a
diagonal separator — ``irgf.hyp.diagsep`` — which Assumption 1 does not imply. On D-DIAGINF
(Assumptions 1, 2 hold; ℓ1-SVM infeasible) ∇_βℒ(0) = 0 **exactly** (decided in exact arithmetic:
the e^{−m} for distinct rational mean scores m are ℚ-linearly independent), so β(t) ≡ 0: the
printed statement fails. The check reports NOT_APPLICABLE naming irgf.hyp.diagsep and notes the
failure as printed. Assumption 3 is not needed: on D-TRAP, where it fails, the lemma holds with
ω₀ = 𝟙 (tested; not a default dataset, to keep the default run short).

How it is checked.
* (27) and (28)–(29) at deterministic probe points β = r·u (u: seeded random rational directions,
  ±β*, ±B_il; r ∈ {0, 1/4, 1, 3, 10, 30, 100, 1000}, i.e. up to attention saturated to e^{−1000}) and
  along the flow records: certified in ball arithmetic. (27) is evaluated in the factored form
  −2 Σ_j (√(β_j²+ω₀,j⁴) − w_min²) g_j² with √(β²+ω⁴) − w_min² = (β² + ω⁴ − w_min⁴)/(√(β²+ω⁴) + w_min²),
  so the equality case β = 0, ω₀ = 𝟙 is exactly 0, not an undecidable ball. ∇ℒ comes from the feature
  form of ``verify.models.attention`` (z_i ⊙ x_il, all tokens), the right side of (28) from the per-token
  c_il = σ_il(γ_il − Φ_i): two code paths. β_f = 2β* (strictly feasible: the inequality is strict,
  hence decidable).
* Divergence (evidence over the range reached): the dual-coordinate flow (``irgf.thm41``) to
  ln(‖β‖₁/p*) = 10; decisive: the fitted exponent of ‖β‖₂ against ln t over the window is > 1/2 (spec:
  µ(t)/ln t → 1, i.e. exponent 1), ‖∇_βℒ‖ at the end < its value at s = 1/2. Reported: µ/ln t
  (D-SEED0: 1.0003 at ln t = 23 922, ln µ = 10.08; spec 22 318/22 310 at ln µ = 10).
Spec numbers: at t = 0.5, dℒ/dt = −0.0491 ≤ −0.0190 and ⟨∇ℒ, β_f⟩ = −0.280 ≤ −0.189 (D-SEED0).

False cases (tests): D-DIAGINF with the hypothesis check bypassed — ∇ℒ(0) = 0 exactly, a
stationary point at finite β: VIOLATED; (27) with w_max in place of w_min and ω₀ = (1, 2, 1, 1):
VIOLATED at β = 0. Default precision 30 digits (recomputed at 50).
"""
from __future__ import annotations

import random
from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Outcome, Series, register
from verify.data.irgf import d_face, d_seed0
from verify.kit import irgf
from verify.models.attention import LinearLogitModel, dot
from verify.numbers.precision import Precision, to_arb

NEEDS = (irgf.A1, irgf.A2, irgf.INIT5, irgf.DIAGSEP)
SCALES = ("0", "1/4", "1", "3", "10", "30", "100", "1000")


def _directions(data, res, count=3, seed=0):
    rng = random.Random(seed)
    dirs = [tuple(Fraction(rng.randint(-100, 100), 37) for _ in range(data.d)) for _ in range(count)]
    if res is not None:
        dirs += [tuple(res.solution), tuple(-x for x in res.solution)]
    for col in res.problem.rows if res is not None else ():
        dirs += [tuple(col), tuple(-x for x in col)]
    return [d for d in dirs if any(d)]


def _scaled(u, r):
    m = max(abs(x) for x in u)
    return [to_arb(x * Fraction(r) / m) for x in u]


def step_quantities(model, data, beta, w2, wref2, beta_f):
    """(dℒ/dt + 2 w_ref²‖∇ℒ‖² [factored], ⟨∇ℒ, β_f⟩ − RHS(28), RHS(28), |RHS(28) − RHS(29)|, ‖∇ℒ‖)."""
    states = model.states(beta)
    g = model.grad(beta, states)
    lhs27 = arb(0)
    for j in range(len(beta)):
        root = (beta[j] ** 2 + w2[j] ** 2).sqrt()
        lhs27 += -2 * ((beta[j] ** 2 + w2[j] ** 2 - wref2 ** 2) / (root + wref2)) * g[j] ** 2
    opt = model.opt
    rhs28 = arb(0)
    rhs29 = arb(0)
    for i, st in enumerate(states):
        ell = (-st.phi).exp()
        o = opt[i]
        rhs28 += ell * sum((st.c[l] for l in range(model.T) if l != o), arb(0))
        gaps = [model._gap[i][l] for l in range(model.T) if l != o]
        s_off = sum((st.s[l] for l in range(model.T) if l != o), arb(0))
        rhs29 += -ell * st.s[o] * s_off * gaps[0]
    rhs28 /= model.n
    rhs29 /= model.n
    inner = dot(g, beta_f) - rhs28 if beta_f is not None else None
    return lhs27, inner, rhs28, abs(rhs28 - rhs29), dot(g, g).sqrt()


def probe_inequalities(model, data, res, w2, wref2, beta_f, extra=()):
    """Worst values of (27), (28), the (29) right side and the (29) deviation over the probe points
    β = r·u (and the ``extra`` points, e.g. along the flow)."""
    worst27, worst28, max_rhs, dev29, npts = None, None, None, arb(0), 0
    points = [_scaled(u, r) for u in _directions(data, res) for r in SCALES] + list(extra)
    for beta in points:
        a27, a28, rhs, dv, _ = step_quantities(model, data, beta, w2, wref2, beta_f)
        npts += 1
        worst27 = a27 if worst27 is None or a27.mid() > worst27.mid() else worst27
        if a28 is not None:
            worst28 = a28 if worst28 is None or a28.mid() > worst28.mid() else worst28
        max_rhs = rhs if max_rhs is None or rhs.mid() > max_rhs.mid() else max_rhs
        dev29 = max(dev29, dv / abs(rhs) if rhs != 0 else dv, key=lambda z: z.mid())
    return worst27, worst28, max_rhs, dev29, npts


def evaluate(data, prec: Precision, omega0=None, target=irgf.DEFAULT_TARGET, check_hypotheses=True,
             constant="min") -> Outcome:
    """``constant`` = "min" (the lemma: w_min² in (27)) or "max" (a wrong constant, false case)."""
    out = Outcome()
    hyps, ctx = irgf.check_hypotheses(data, NEEDS, omega0)
    zero, groups = irgf.grad_at_zero_is_zero(data)
    if check_hypotheses:
        out.hypotheses.extend(hyps)
        if not ctx["diagsep"]:
            printed = all(h.met for h in hyps if "diagsep" not in h.name)
            out.notes.append(
                ("as printed (Assumptions 1, 2 and init (5) hold) " if printed else "")
                + "the lemma fails on this dataset: "
                + ("∇_βℒ(0) = 0 exactly, so β(t) ≡ 0 from every init (5) — " if zero else "")
                + "the stated hypotheses do not imply diagonal separability (irgf.hyp.diagsep)")
            out.notes.append(irgf.replay_note(data, "irgf.lemma42"))
        if not all(h.met for h in hyps):
            return out
    else:
        out.notes.append("hypothesis check bypassed (false-case mode); unmet: "
                         + ("; ".join(h.name for h in hyps if not h.met) or "none"))
    res = ctx["svm"] if ctx["svm"].status == "optimal" else None
    om = [Fraction(w) for w in (omega0 or [1] * data.d)]
    w2 = [to_arb(w * w) for w in om]
    wref = min(abs(w) for w in om) if constant == "min" else max(abs(w) for w in om)
    wref2 = to_arb(wref * wref)
    beta_f = [2 * to_arb(x) for x in res.solution] if res is not None else None
    model = LinearLogitModel.from_dataset(data, "diag", "exponential")
    # exact stationarity at β = 0
    out.evidence.append(Evidence("∇_βℒ(0) ≠ 0 (exact test; β = 0 is the start of init (5))", not zero,
                                 holds=not zero,
                                 note="exact: grouped by mean score (Lindemann–Weierstrass)"))
    traj, recs = irgf.flow(data, omega0, target)
    extra = [p.beta for _, p in recs[:: max(1, len(recs) // 8)] + recs[-1:]]
    worst27, worst28, max_rhs, dev29, npts = probe_inequalities(model, data, res, w2, wref2, beta_f, extra)
    wname = "w_min" if constant == "min" else "w_max (wrong constant)"
    out.evidence.append(Evidence(f"(27) max [dℒ/dt + 2 {wname}² ‖∇_βℒ‖²] over {npts} probe/flow points",
                                 worst27, "<=", 0))
    if worst28 is not None:
        out.evidence.append(Evidence("(28) max [⟨∇_βℒ(β), β_f⟩ − (1/n)ΣΣ ℓ_i(Σγ_i)_l], β_f = 2β*", worst28, "<", 0))
    out.evidence.append(Evidence("(29) max (1/n)ΣΣ ℓ_i(Σγ_i)_l = max −(1/n)Σ ℓ_i σ_opt(1−σ_opt)Δ_i", max_rhs, "<", 0,
                                 note="< 0 at every point: no stationary point (at saturation it is ~e^{−1000}, still certainly < 0)"))
    out.evidence.append(Evidence("(29) max relative deviation of the two forms", dev29, "<=", prec.tolerance, residual=True))
    out.notes.append(irgf.range_note(traj, recs))
    if irgf.unreached(out, traj, recs, data):
        return out
    win = irgf.window(recs, key=lambda p: p.l1)
    if len(win) >= 3 and all(p.log_t > 1 for _, p in win):
        norms = [sum((b * b for b in p.beta), arb(0)).sqrt() for _, p in win]
        lts = [p.log_t for _, p in win]
        ex = irgf.loglog_slope(lts, norms)
        irgf.judge(out, Evidence("fitted exponent of ‖β(t)‖₂ against ln t over the window", ex, ">", arb("0.5"),
                                 note="divergence like a power of ln t (spec: µ ≈ ln t, exponent 1); "
                                      "VIOLATED below 0.1 (the norm stalls)"),
                   bool(ex > arb("0.5")), bool(ex < arb("0.1")))
        gn = [sum((x * x for x in p.grad), arb(0)).sqrt() for _, p in recs]
        irgf.judge(out, Evidence("‖∇_βℒ(β(t))‖ at the last record", gn[-1], "<", gn[0],
                                 note="bound: its value at s = 1/2 (∇ℒ(β(t)) → 0)"), bool(gn[-1] < gn[0]),
                   bool(gn[-1] >= gn[0]))
        last = recs[-1][1]
        if last.mu > 0:
            out.evidence.append(Evidence("µ(t)/ln t at the last record", last.mu / last.log_t, note="spec: → 1"))
    else:
        last = recs[-1][1] if recs else None
        out.evidence.append(Evidence("‖β(t)‖₁ at the last record", last.l1 if last else arb(0), ">", 1,
                                     note="the flow did not leave a bounded set over the range integrated"))
    irgf.settle(out)
    xs = [irgf.fl(p.log_t) for _, p in recs]
    fig = irgf.figure(
        "norm", "Lemma 4.2: ‖β(t)‖₂ and µ(t) against ln t", "ln t", "value", [
            Series("‖β(t)‖₂", xs, [irgf.fl(sum((b * b for b in p.beta), arb(0)).sqrt()) for _, p in recs], "-o"),
            Series("µ(t)", xs, [irgf.fl(p.mu) if p.mu > 0 else None for _, p in recs], "-s"),
            Series("ln t", xs, xs, ":")],
        logx=True, logy=True, caption=f"{data.name}: the norm grows like ln t (µ/ln t → 1; the dotted line is ln t itself).")
    if fig:
        out.figures.append(fig)
    return out


def check(data, prec: Precision) -> Outcome:
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [d_seed0(), d_face()]


CLAIM = register(Claim(
    id="irgf.lemma42",
    paper="irgf",
    number="Lemma 4.2",
    title="Diagonal (K, Q): ‖β(t)‖ → ∞ and no stationary point at finite β",
    kind="asymptotic",
    statement=(
        "Under Assumption 2 and init (5) (Assumption 1 standing; the proof needs an ℓ1-feasible β_f, i.e. "
        "irgf.hyp.diagsep): lim_{t→∞} ‖β(t)‖₂ = ∞. Proof steps: (27) dℒ/dt = −2Σ_j √(β_j²+ω₀,j⁴)(∂_jℒ)² ≤ "
        "−2w_min²‖∇_βℒ‖²; (28)–(29) ⟨∇_βℒ(β), β_f⟩ ≤ (1/n)ΣΣ ℓ_i(Σγ_i)_l = −(1/n)Σ ℓ_iσ_opt(1−σ_opt)Δ_i < 0.\n\n"
        "Inequalities certified at probe points up to saturation and along the flow; divergence shown over "
        "the range reached."
    ),
    check=check,
    default_datasets=default_datasets,
    aliases=("norm-diverges", "no-finite-stationary-point", "diag-norm-diverges"),
    default_precision=30,
    module=__name__,
))
