"""irgf auxiliary — rates of the diagonal direction and of the approximate-KKT residuals (spec ``irgf.aux.rates``;
DERIVED, no statement in the paper: Sheen, Chen, Wang, Zhou, arXiv 2403.08699 v1, §4.1 and App. A.5).

Setting. The diagonal (K, Q) flow (2) from init (5), β̂(t) = β(t)/µ(t), the paper's multipliers λ = φ/ln µ and
identity (31) β̂_j = (ω₀,j²/2)(µ^{(Bλ)_j − 1} − µ^{−(Bλ)_j − 1}); p*, λ*, g = Bλ* of the exact ℓ1-SVM; J₁ = {j : |g_j| = 1},
J₀ its complement, κ = min_{J₀} (1 − |g_j|) (the smallest reduced cost).

Statement (the spec marks these rates UNCERTAIN: heuristics on one dataset). Derived here:
(a) off the support, by (31) with (Bλ)_j → g_j: |β̂_j| ≈ (ω₀,j²/2) µ^{|g_j| − 1}, so ε′ = ‖β̂_{J₀}‖₂ ∝ µ^{−κ};
(b) the direction gap: exactly ‖β̂‖₁ − p* = Σ_j (|β̂_j| − g_jβ̂_j) + Σ_il λ*_il (β̂ᵀB_il − 1) (as p* = Σλ* and gᵀβ̂ =
    Σλ*_il β̂ᵀB_il); the first sum is (1 − |g_j|)|β̂_j| ∝ µ^{−(1−|g_j|)} off the support and 0 on it once the signs
    settle, the second is the support vectors' slack, O(1/µ) (their margins balance up to O(1)); so gap ∝ µ^{−min(κ,1)};
(c) stationarity: on J₁, β̂_j → β*_j ≠ 0 in (31) gives (Bλ)_j − sign β*_j = ln(2|β*_j|/ω₀,j²)/ln µ + o(1/ln µ), so
    ε·ln µ → c_ε = max_{J₁} |ln(2|β*_j|/ω₀,j²)| (1.8965 on D-SEED0, ω₀ = 𝟙) and ε ∝ (ln µ)^{−1};
(d) complementary slackness δ and the duality gap ‖β̂‖₁ − Σλ/‖Bλ‖_∞: λ_il = φ_il/ln µ with φ_il bounded off the
    support (its attention e^{−margin} is integrable in t once µ ≈ ln t) and Σλ = (p* ln µ + O(1))/ln µ, so both are
    ∝ (ln µ)^{−1}; their constants (δ·ln µ ≈ 0.216, gap·ln µ ≈ 1.0 on D-SEED0) are observed, not derived.
Hypotheses of the derivation (exact): a unique ℓ1-SVM solution, some reduced cost (J₀ ≠ ∅: κ defined) and strict
complementarity on J₁ (β*_j ≠ 0 there: ln|β*_j| finite); of the setting: Assumptions 1–3, init (5), irgf.hyp.diagsep.

How it is checked (evidence over ln(‖β‖₁/p*) ≤ 10, the flow of ``irgf.thm41``). Over the last ``rules.TAIL_POINTS``
records of the asymptotic window (ln µ ≈ 9–10 on D-SEED0) the local exponents are fitted — of the gap and ε′ against
µ, of ε, δ and the duality gap against ln µ — and ε·ln µ is taken at the last record; each is compared with its
derived value by ``rules.matches_derived`` (within RATE_AGREEMENT = 10 % holds, ≥ RATE_DISAGREEMENT = 25 % off fails).
Observed on D-SEED0 at ln µ = 10.08: gap exponent 0.659 (κ = 0.639; the spec's 0.68 → 0.644 between ln µ = 6 and 15
approach it from above), ε′ 0.638, ε·ln µ 1.8960, ε 0.998, δ 0.995, duality gap 0.942 (its µ^{−κ}·ln µ correction
fades slowly). Shown: δ·ln µ, gap·ln µ and µ/ln t (→ 1: the time scale, so the direction error is ≈ (ln t)^{−κ}).

False cases (tests): the rate of an ℓ2-type bounded residual (exponent 1) claimed for the direction gap
(``direction_rate=1``: 0.659 is 34 % off) → VIOLATED; D-FACE (non-unique solution) → NOT_APPLICABLE naming the
derivation's hypothesis; D-DIAGINF → NOT_APPLICABLE naming irgf.hyp.diagsep.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Evidence, Hypothesis, Outcome, Series, register, rules
from verify.data.irgf import d_seed0
from verify.kit import irgf, kkt
from verify.numbers.precision import Precision, to_arb

NEEDS = (irgf.A1, irgf.A2, irgf.A3, irgf.INIT5, irgf.DIAGSEP)


def derivation_hypothesis(res) -> Hypothesis:
    """Unique ℓ1 solution, J₀ ≠ ∅ (κ defined) and β*_j ≠ 0 on J₁ — decided exactly."""
    J1 = irgf.support_coordinates(res)
    kappa = irgf.smallest_reduced_cost(res)
    zero = sorted(j + 1 for j in J1 if res.solution[j] == 0)
    met = bool(res.unique) and kappa is not None and not zero
    why = [] if res.unique else ["the ℓ1-SVM solution is not unique (an optimal face)"]
    why += [] if kappa is not None else ["every |(Bλ*)_j| = 1: no reduced cost"]
    why += [f"β*_j = 0 on J₁ at j = {zero} (degenerate)"] if zero else []
    return Hypothesis("rates' derivation: a unique, non-degenerate ℓ1-SVM solution with a reduced cost κ", met,
                      "; ".join(why) if why else f"unique; κ = {float(kappa):.6f}; β*_j ≠ 0 on J₁ = "
                                                 f"{sorted(j + 1 for j in J1)} (1-based; exact)")


def local_exponent(xs, ys) -> float | None:
    """a in y ∝ x^(−a) over the last TAIL_POINTS points (``rules.fitted_exponent``; None without a fit)."""
    k = rules.TAIL_POINTS
    a = rules.fitted_exponent(list(xs)[-k:], list(ys)[-k:])
    return None if a is None else -a


def matched(out, quantity, value, derived, note=""):
    if value is None:
        out.require(f"a fit for {quantity}", False, "non-positive values at the end of the window")
        return
    out.add(irgf.ruled(quantity, value, rules.matches_derived(value, derived), note=note))


def evaluate(data, prec: Precision, omega0=None, target=irgf.DEFAULT_TARGET, check_hypotheses=True,
             direction_rate=None) -> Outcome:
    """``direction_rate``: the exponent claimed for the direction gap (default: the derived min(κ, 1))."""
    out = Outcome()
    ctx = irgf.hypotheses(out, data, NEEDS, "irgf.aux.rates", omega0, check_hypotheses)
    if not out.applicable():
        return out
    res = ctx["svm"] if ctx["diagsep"] else None
    if not out.require("the exact ℓ1-SVM optimum (p*, λ*)", res is not None):
        return out
    hyp = derivation_hypothesis(res)
    if check_hypotheses:
        out.hypotheses.append(hyp)
    if not out.applicable() or not hyp.met:
        out.require("the derivation's quantities (κ, c_ε)", bool(hyp.met), hyp.detail)
        return out
    traj, recs, reached = irgf.follow(out, data, omega0, target)
    if not reached:
        return out
    win = irgf.window(recs)
    if not out.require(f"an asymptotic window of ≥ {rules.TAIL_POINTS} records with µ > 1",
                       len(win) >= rules.TAIL_POINTS, f"{len(win)} record(s)"):
        return out
    J1 = irgf.support_coordinates(res)
    rows = kkt.rows(traj.system, win, J1)
    kappa = irgf.smallest_reduced_cost(res)
    gap_rate = Fraction(direction_rate) if direction_rate is not None else min(kappa, Fraction(1))
    pstar = to_arb(res.objective)
    mus, lnm = [r.point.mu for r in rows], [r.ln_mu for r in rows]
    gaps = [r.point.l1 / r.point.mu - pstar for r in rows]
    last = rows[-1]
    span = f"last {rules.TAIL_POINTS} window records, ln µ ∈ [{lnm[-rules.TAIL_POINTS].str(4, radius=False)}, " \
           f"{lnm[-1].str(4, radius=False)}]"
    matched(out, "(b) exponent a of the direction gap ‖β̂‖₁ − p* ∝ µ^(−a)", local_exponent(mus, gaps), gap_rate,
            note=f"derived min(κ, 1) = {float(min(kappa, 1)):.6f}"
                 + (f"; claimed here {float(gap_rate):g}" if direction_rate is not None else "") + f"; {span}")
    matched(out, "(a) exponent a of ε′ = ‖β̂_J₀‖₂ ∝ µ^(−a) (off-support mass)",
            local_exponent(mus, [r.eps_off for r in rows]), kappa, note=f"derived κ = {float(kappa):.6f}; {span}")
    pred = kkt.predicted_eps_limit(res, J1, [to_arb(w) for w in traj.system.w2_exact])
    matched(out, "(c) ε·ln µ at the last record → c_ε = max_J₁ |ln(2|β*_j|/ω₀,j²)|", last.eps * last.ln_mu,
            pred.value, note=f"c_ε = {pred.value.str(8, radius=False)} (exact β*, ω₀)")
    for name, short, vals in (("(c) stationarity", "ε", [r.eps for r in rows]),
                              ("(d) complementary slackness", "δ", [r.delta for r in rows]),
                              ("(d) duality gap ‖β̂‖₁ − Σλ/‖Bλ‖_∞", "gap", [r.gap for r in rows])):
        matched(out, f"{name}: exponent a of {short} ∝ (ln µ)^(−a)", local_exponent(lnm, vals), 1,
                note=f"derived 1 (a 1/ln µ residual); {span}")
    out.add(Evidence("δ·ln µ at the last record (constant observed, not derived)", last.delta * last.ln_mu,
                     note="spec ≈ 0.216 on D-SEED0"),
            Evidence("(‖β̂‖₁ − Σλ/‖Bλ‖_∞)·ln µ at the last record (constant observed)", last.gap * last.ln_mu,
                     note="spec ≈ 1.0 on D-SEED0"),
            Evidence("µ/ln t at the last record (the time scale: direction error ≈ (ln t)^(−κ))",
                     last.point.mu / last.point.log_t))
    xs = [irgf.fl(x) for x in lnm]
    fig = irgf.figure("rates", "Rates along the diagonal flow: fitted against derived", "ln µ(t)", "log10", [
        Series("gap ‖β̂‖₁ − p*", xs, [irgf.log10f(g) for g in gaps], "-o"),
        Series(f"C·µ^(−{float(min(kappa, 1)):.3f}) (derived)", xs,
               [irgf.log10f(gaps[-1]) + float(min(kappa, 1)) * float((lnm[-1] - x).mid()) / 2.302585092994046
                for x in lnm], "--"),
        Series("ε (stationarity)", xs, [irgf.log10f(r.eps) for r in rows], "-s"),
        Series("c_ε/ln µ (derived)", xs, [irgf.log10f(pred.value / x) for x in lnm], ":"),
        Series("δ", xs, [irgf.log10f(r.delta) for r in rows], "-^"),
        Series("duality gap", xs, [irgf.log10f(r.gap) for r in rows], "-x")],
        caption=f"{data.name}: asymptotic window of the flow from init (5); the derived gap line is anchored at the "
                "last record; log10 at the working precision.")
    out.show(fig)
    return out


STATEMENT = """\
Along the diagonal (K, Q) flow from init (5) (DERIVED; the spec's heuristic rates): the direction gap ‖β̂‖₁ − p*
decays like µ^(−min(κ,1)) and the off-support mass like µ^(−κ) (κ = the LP's smallest reduced cost); the paper's
approximate-KKT residuals decay like 1/ln µ, stationarity with the constant c_ε = max_J₁ |ln(2|β*_j|/ω₀,j²)|.

Fitted exponents and constants against the derived ones (rules.matches_derived), over the range reached.
"""

CLAIM = register(Claim(id="irgf.aux.rates", paper="irgf", number="(aux.) rates", kind="asymptotic",
                       title="Rates of the diagonal direction (µ^−κ) and of the KKT residuals (1/ln µ): fitted vs "
                             "derived", statement=STATEMENT, check=evaluate, default_datasets=(d_seed0,),
                       aliases=("direction-rate", "kkt-residual-rate"), default_precision=30,
                       parameters=(irgf.OMEGA0_PARAMETER,)))
