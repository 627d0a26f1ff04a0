"""irgf Theorem 4.1 — diagonal (K, Q): the margin-normalised limit solves the ℓ1-SVM
(Sheen, Chen, Wang, Zhou, arXiv 2403.08699 v1, §4.1; proof App. A.5).

Setting. K = [Diag(ξ_k) 0], Q = [Diag(ξ_q) 0], β = ξ_k ⊙ ξ_q, W = Diag(β); logits g_il = βᵀ(z_i ⊙ x_il);
exponential loss ℒ = (1/n) Σ_i exp(−γ_iᵀσ(g_i)); gradient flow (2) from init (5):
ξ_k(0) ⊙ ξ_q(0) = 0, ξ_k(0)^{⊙2} + ξ_q(0)^{⊙2} = 2ω₀^{⊙2}, every ω₀,j ≠ 0 (so β(0) = 0).
B_il = z_i ⊙ (x_{i,opt(i)} − x_il), margin µ(β) = min_il βᵀB_il (Def. 4.1), β̂ = β/µ(β).

Statement (Theorem 4.1). Under Assumptions 2 and 3 (1 standing) and *assuming the limit
β̂_∞ = lim_{t→∞} β(t)/µ(β(t)) exists*, Diag(β̂_∞) solves (W^diag_*-SVM), i.e. β̂_∞ solves

    (ℓ1-SVM)   min ‖β‖₁  s.t.  βᵀB_il ≥ 1 for all i, l ≠ opt(i).

Equivalently (β̂(t) is feasible with minimum margin exactly 1 once µ > 0): β(t)/‖β(t)‖₁ → F/p*,
F the optimal face, p* its value.

Hypotheses (→ NOT_APPLICABLE naming the failed one; ``verify.kit.irgf``): Assumptions 1–3, init (5)
and ``irgf.hyp.diagsep`` — the (ℓ1-SVM) is feasible, used by the proof, not stated (D-DIAGINF:
Assumptions 1–3 hold, ∇_βℒ(0) = 0 exactly, the flow never moves).

How it is checked (asymptotic: evidence over ln(‖β‖₁/p*) ≤ 10). The ℓ1-SVM is solved exactly (p*,
a dual optimum λ*, the optimal face F). The flow is integrated in dual coordinates (Lemma A.1,
``verify.dynamics.dual``, Radau IIA; no rigorous error bound: its figures are ``enclosed=False``) to
ln(‖β‖₁/p*) = 10 (D-SEED0: ln µ = 10.08, ln t = 23 922). Deciding: µ(t) > 0 at the last record;
the exact distance dist(β/‖β‖₁, F/p*) to the **set** (never to one solver output: on D-FACE the
solver returns (1,0,0), the flow tends to (1/2,1/2,0) ∈ F) decays over the asymptotic window
(records with ln µ ≥ ln µ_end/2) by ``rules.decays`` with the DERIVED rate κ = the smallest reduced
cost of the LP (D-SEED0: κ = 0.639, fitted 0.6391): strictly decreasing at every window record,
exponent ≥ RATE_FRACTION·κ; a plateau (the wrong limit) fails. gap = ‖β̂‖₁ − p* ≥ 0 (feasibility).
A distance ≤ 10^−dps (D-FACE: the flow is on the face) holds without a trend. Shown beside: the gap's
fitted exponent, 1 − cos(β, β*). Reference numbers (D-SEED0): p* = 1.59532775783559631…, gap 7.0e−3 at
ln µ = 6, 4.7e−4 at ln µ = 10 (ours 4.52e−4 at ln µ = 10.08).

False cases (tests), each VIOLATED with the hypothesis check bypassed and NOT_APPLICABLE with it:
D-TRAP, ω₀ = 0.1·𝟙 (Assumption 3; µ(t) → −∞); ω₀,3 = 0 on D-SEED0 (init (5); the distance plateaus);
D-DIAGINF (irgf.hyp.diagsep; ∇_βℒ(0) = 0 exactly, the exact item fails).
"""
from __future__ import annotations

from verify.claims import Claim, Evidence, Outcome, Series, register, rules
from verify.data.irgf import d_face, d_seed0
from verify.kit import irgf
from verify.models.attention import one_minus_corr
from verify.numbers.precision import Precision, to_arb

NEEDS = (irgf.A1, irgf.A2, irgf.A3, irgf.INIT5, irgf.DIAGSEP)


def evaluate(data, prec: Precision, omega0=None, target=irgf.DEFAULT_TARGET, check_hypotheses=True) -> Outcome:
    out = Outcome()
    ctx = irgf.hypotheses(out, data, NEEDS, "irgf.thm41", omega0, check_hypotheses)
    if not out.applicable():
        return out
    _, recs, reached = irgf.follow(out, data, omega0, target)
    if not reached:
        return out
    last = recs[-1][1]
    out.add(Evidence("µ(t) = min_il β(t)ᵀB_il at the last record", last.mu, ">", 0, enclosed=False,
                     note="β̂ = β/µ is ℓ1-SVM-feasible (min margin exactly 1) iff µ > 0"))
    res = ctx["svm"] if ctx["diagsep"] else None
    if not out.require("the exact ℓ1-SVM optimum (p*, optimal face F)", res is not None) or not last.mu > 0:
        return out
    pstar = to_arb(res.objective)
    out.add(Evidence("p* = optimal value of the ℓ1-SVM (exact rational LP)", pstar,
                     note=f"solution unique: {res.unique}; solver's point {[str(x) for x in res.solution]}"))
    win = irgf.window(recs)
    if not out.require("an asymptotic window of ≥ 3 records with µ > 1", len(win) >= 3, f"{len(win)} record(s)"):
        return out
    dists = [irgf.face_distance(p.beta, res, prec.total) for _, p in win]
    gaps = [p.l1 / p.mu - pstar for _, p in win]
    mus = [p.mu for _, p in win]
    tol, kappa = prec.tolerance, irgf.smallest_reduced_cost(res)
    if dists[-1] <= tol:
        out.add(Evidence("dist(β/‖β‖₁, F/p*) at the last record (on the optimal face)", dists[-1], "<=", tol,
                         residual=True, enclosed=False),
                Evidence("|gap| = |‖β̂‖₁ − p*| at the last record (on the optimal face)", gaps[-1], "<=", tol,
                         residual=True, enclosed=False))
    else:
        kap = f"κ = smallest reduced cost of the LP = {float(kappa):.6f}" if kappa is not None else "no κ"
        out.add(irgf.ruled("dist(β/‖β‖₁, F/p*) → 0 like µ^(−a) over the window (value: at the last record)",
                           dists[-1], rules.decays(mus, dists, expected=irgf.expected_rate(res), tail=len(win)),
                           note=f"DERIVED rate {kap}; window ln µ ∈ [{mus[0].log().str(4, radius=False)}, "
                                f"{mus[-1].log().str(4, radius=False)}], distance {dists[0].str(5, radius=False)} at its start"),
                Evidence("gap = ‖β̂‖₁ − p* at the last record", gaps[-1], ">=", -tol, enclosed=False,
                         note="≥ 0 because β̂ is feasible (bound −10^−dps: rounding); → 0 is the theorem"))
        out.add(Evidence("fitted exponent a: dist ∝ µ^(−a) over the window", -irgf.fitted_exponent(mus, dists),
                         note=f"DERIVED prediction {kap}"))
        if all(g > 0 for g in gaps):
            out.add(Evidence("fitted exponent of gap = ‖β̂‖₁ − p* ∝ µ^(−a) (window)",
                             -irgf.fitted_exponent(mus, gaps), note=f"DERIVED prediction {kap}"))
    if res.unique:
        out.add(Evidence("1 − cos(β(t), β*) at the last record (unique solution)",
                         one_minus_corr(last.beta, [to_arb(x) for x in res.solution])))
    pos = [(p, irgf.face_distance(p.beta, res, prec.total)) for _, p in recs if p.mu > 0]
    xs = [irgf.fl(p.l1) for p, _ in pos]
    series = [Series("log10 dist(β/‖β‖₁, F/p*)", xs, [irgf.log10f(dd) for _, dd in pos], "-o"),
              Series("log10 (‖β̂‖₁ − p*)", xs, [irgf.log10f(p.l1 / p.mu - pstar) for p, _ in pos], "-s")]
    fig = irgf.figure("direction", "Theorem 4.1: distance of β/‖β‖₁ to the ℓ1-SVM solution set", "‖β(t)‖₁",
                      "log10 distance / gap", series, logx=True,
                      caption=f"{data.name}: exact distance to the optimal face F/p* (p* = {pstar.str(12, radius=False)}) "
                              "and the margin-normalised gap, along the flow from init (5); log10 at the working precision.")
    out.show(fig)
    return out


STATEMENT = """\
Diagonal K = Diag(ξ_k), Q = Diag(ξ_q), β = ξ_k ⊙ ξ_q, exponential loss, gradient flow (2) from init (5) (β(0)
= 0, every ω₀,j ≠ 0). Under Assumptions 1–3 (and diagonal separability, irgf.hyp.diagsep, which the proof
uses), if β̂_∞ = lim β(t)/µ(β(t)) exists then Diag(β̂_∞) solves (W^diag_*-SVM), i.e. β̂_∞ ∈ argmin{‖β‖₁ :
βᵀB_il ≥ 1}, B_il = z_i ⊙ (x_{i,opt} − x_il).

Checked as β(t)/‖β(t)‖₁ → F/p* (exact distance to the optimal face F of the ℓ1-SVM) along the dual-coordinate
flow (Lemma A.1), over the range reached (ln(‖β‖₁/p*) ≤ 10).
"""

CLAIM = register(Claim(id="irgf.thm41", paper="irgf", number="Theorem 4.1", kind="asymptotic",
                       title="Diagonal (K, Q): the margin-normalised limit solves the ℓ1-SVM", statement=STATEMENT,
                       check=evaluate, default_datasets=(d_seed0, d_face),
                       aliases=("implicit-l1", "nuclear-norm-diag", "l1-svm-diag"), default_precision=30,
                       parameters=(
                           irgf.OMEGA0_PARAMETER,)))
