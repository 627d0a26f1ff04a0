"""Shared pieces of tfsvm Theorem 10 and Corollaries 1–2 (sequence-to-sequence regularisation paths, App D).

* ``attention_for``: the claims treat every dataset as sequence-to-sequence self-attention (every token a query),
  causal when the dataset is flagged so.
* ``head_hypothesis``: the paths are computed with the linear head h(x) = vᵀx (v1's theory); Assumption E is
  decided exactly for linear and concave heads (``verify.geometry.separating_cone.assumption_e``, the separating-cone
  engine shared with Lemmas 5/16 and Theorems 9/10).
* ``global_path``: the global path (Cor 1, Cor 2; Theorem 10 with α = opt, whose cone is every matrix) in W
  (Frobenius ball, ``regularization_path``) or (K, Q) (budget ‖K‖² + ‖Q‖² ≤ 2R ≡ nuclear ball ‖W‖_⋆ ≤ R, Lemma 15),
  with the sphere search's "no worse than the candidate SVM direction" check as a requirement.
* ``distance_series``: the distance to the unit-norm SVM solution set along a path, per radius
  (``verify.svm.distance``: exact for Frobenius, a float SDP over the certified face for nuclear, ~1e−7).
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Hypothesis, Outcome, rules
from verify.claims.registry import Parameter
from verify.dynamics import regularization_path
from verify.dynamics.parameterization import make_parameterization
from verify.geometry.separating_cone import assumption_e
from verify.kit.paths import require_path_optimal
from verify.numbers.exact import rational_above
from verify.numbers.precision import g_format, to_arb
from verify.svm.distance import distance_to_solution_set

#: The global paths' ladder in units of the proof's R₀ (``path_r0``): R = R₀·FACTORS, two decades past the regime.
FACTORS = ("1", "3", "10", "30", "100")

RADII_PARAMETER = Parameter("R", "R → ∞ (the limit along the path)", "range",
                            "R = R₀·(1, 3, 10, 30, 100) per norm, R₀ = ‖W^mm‖_⋄·max(1, ln(B·T/c)) scaled to the data "
                            "(`radii` sets absolute radii; a plateau is read only from R₀ on), named in the verdict's "
                            "range, at the working precision (the global path's L − L⋆ is computed cancellation-free)",
                            option="radii", kind="rationals")


def attention_for(data) -> str:
    return "causal" if data.causal else "seq2seq"


def head_hypothesis(data, alpha, causal, what: str = "α") -> Hypothesis:
    """Assumption E at ``alpha`` (an n×T array; None: the head's optimal tokens) under seq2seq / causal attention."""
    met, c, detail = assumption_e(data, alpha, "causal" if causal else "seq2seq")
    return Hypothesis(f"Assumption E at {what} (the head keeps the top score: Y·h(x(s)) ≤ γ_α − c_α(1 − s_α))",
                      met, detail)


def linear_head(data) -> tuple[bool, str]:
    head = getattr(data, "head", None)
    kind = head[0] if head else "linear"
    return kind == "linear", f"head: {kind}"


def global_path(out, data, param: str, radii, prec, starts: int = 2, seed: int = 0):
    """The global path of ``param`` ("W" or "KQ") on ``data`` (sequence-to-sequence attention), with the sphere
    search's optimisation check as a requirement of the check."""
    par = make_parameterization(data, param, "logistic", attention=attention_for(data))
    rp = regularization_path(par, param, radii, dps=prec.dps, starts=starts, seed=seed)
    require_path_optimal(out, rp, param, prec.tolerance, "L_seq")
    return par, rp


def path_r0(data, norm, alpha=None) -> Fraction:
    """R₀ = ‖W^mm‖_⋄·max(1, ln(B·T/min(c, 1))), rounded up to 3 significant digits: the radius from which the SVM
    direction R·W^mm/‖W^mm‖_⋄ (margins ≥ R/‖W^mm‖_⋄) has logit margins ≥ ln(B·T/c) — the proof's
    R₀ = (1/ε)·log(B·T/c_α) of Theorems 9/10 at ε = 1/‖W^mm‖_⋄ (B = max ‖v‖‖x_it − x_iτ‖, c = Assumption E's constant
    at ``alpha``, None: the optimal tokens) — and ≥ ln(B·T): the loss is linear in the off-token mass only once
    B·T·e^{−margin} ≲ 1 in absolute score units (the logistic loss has unit curvature scale, ℓ''/|ℓ'| ≤ 1), which
    B/c does not see. Tokens ×s with s ≤ 1/c scale R₀ by s⁻² exactly; for larger scores R₀ grows with ln s: at
    scores ~10³ (n = 1, T = 2, self-attention) the query with the smaller margin keeps a doubly-exponential weight
    until R ≈ ln(10³)·‖W^mm‖, and the path's distance rises before it decays (tests/test_tfsvm_thm10.py). Below R₀
    the logits can be ≪ 1 (tokens at 10⁻³: R·10⁻⁶), where the path's direction is frozen at −∇L(0)'s and its
    distance flat whatever the limit (``rules.in_regime``). ``norm``: ‖W^mm‖_⋄, exact or a ball."""
    from verify.kit.separating import head_spread

    _, c, _ = assumption_e(data, alpha, attention_for(data))
    arg = head_spread(data) * data.T / to_arb(min(Fraction(c), Fraction(1))) if c else None
    log = arg.log() if arg is not None and arg > 1 else to_arb(0)
    f = log if log > 1 else to_arb(1)
    return rational_above(to_arb(norm) * f if not isinstance(norm, arb) else norm * f, 3)


def path_radii(r0: Fraction, factors=FACTORS) -> tuple[str, ...]:
    """R₀·f for each factor f (exact rationals, as strings for ``regularization_path``)."""
    return tuple(str(r0 * Fraction(f)) for f in factors)


def frobenius_norm(solution) -> arb:
    """‖W^mm‖_F (a ball) of an exact or ball solution."""
    return sum(((to_arb(x) if not isinstance(x, arb) else x) ** 2 for x in solution), to_arb(0)).sqrt()


def distance_series(thetas, res, dps: int, nuclear: bool):
    """dist(θ/‖θ‖_⋄, 𝒲/‖𝒲‖_⋄) per path point; nuclear values carry the SDP's resolution as their radius."""
    if not nuclear:
        return [distance_to_solution_set(th, res, dps) for th in thetas]
    acc = to_arb(rules.SDP_DISTANCE_RESOLUTION / 10)
    return [arb(distance_to_solution_set(th, res, dps).mid(), acc.mid()) for th in thetas]


def transpose(theta, d: int):
    """vec(Wᵀ) from vec(W) (row-major)."""
    return [theta[b * d + a] for a in range(d) for b in range(d)]


def series_text(xs, ys) -> str:
    return ", ".join(f"{float(x.mid()):g}: {y.mid().str(4, radius=False)}" for x, y in zip(xs, ys))


def opt_hypotheses(data, prec, causal: bool):
    """A, unique optimal tokens per query (within the causal window), SAtt-SVM(opt) feasible (Frobenius result),
    Assumption E at opt. Returns (hypotheses, Frobenius SAtt-SVM result or None)."""
    from verify.kit.assumptions import assumption_a, svm_feasible
    from verify.models.seq2seq import row_optimal
    from verify.svm.seq2seq import satt_svm

    opts = row_optimal(data, causal)
    T = data.T
    ties = [(j // T, j % T) for j, o in enumerate(opts) if len(o) > 1]
    hyps = [assumption_a("logistic", data),
            Hypothesis("unique optimal token of every query (over its window)", not ties,
                       "ties at (sequence, query) " + ", ".join(map(str, ties)) if ties else
                       "opt = " + str([list(o[0] for o in opts[i * T:(i + 1) * T]) for i in range(data.n)]))]
    if ties:
        return hyps, None
    alpha = tuple(tuple(o[0] for o in opts[i * T:(i + 1) * T]) for i in range(data.n))
    hyps.append(head_hypothesis(data, alpha if linear_head(data)[0] else None, causal, "opt"))
    res = satt_svm(data, alpha, causal, dps=prec.dps)
    hyps.append(svm_feasible(res, "SAtt-SVM(opt) feasible (W^mm exists)" + (" — causal" if causal else "")))
    return hyps, res


def path_evidence(out, label, radii, ys, prec, zero, r0=None):
    """1 − corr / distance along a path, decided by ``rules.decays`` (a plateau: VIOLATED) — read only in the
    asymptotic regime (``rules.in_regime``): the rule's tail must start at R ≥ ``r0`` (``path_r0``), else the item is
    undecided and the check INCONCLUSIVE naming the range (a requirement)."""
    from verify.claims import Evidence

    xs = [to_arb(r) if not isinstance(r, arb) else r for r in radii]
    rule = rules.decays(xs, ys, zero=zero)
    if r0 is not None:
        start = xs[-rules.TAIL_POINTS] if len(xs) >= rules.TAIL_POINTS else xs[0]
        floor = to_arb(r0) * (1 - to_arb(prec.tolerance))  # R = R₀ itself passes: R₀ is a rounded-up rational
        ok = True if start >= floor else False if start < floor else None
        why = (f"the tail starts at R = {start.mid().str(4, radius=False)} < R₀ = {format_r(r0)} "
               "(logits below ln(B·T/c) along the SVM direction)")
        rule = rules.in_regime(rule, ok, why)
        out.require(f"{label}: the plateau rule's last {rules.TAIL_POINTS} radii in the asymptotic regime "
                    "R ≥ R₀ = ‖W^mm‖·max(1, ln(B·T/c))",
                    ok is True, why if ok is not True else f"from R = {start.mid().str(4, radius=False)} ≥ R₀ = "
                                                           f"{format_r(r0)}")
    out.add(Evidence(label + " (value at the largest R)", ys[-1], rule=rule,
                     enclosed=False, note=series_text(xs, ys), residual=bool(abs(ys[-1]) <= to_arb(zero))))
    return xs


def format_r(r) -> str:
    """A radius to 4 significant digits at any magnitude (beyond float64's range too)."""
    return g_format(r, 4)


def global_path_outcome(data, prec):
    """The opening of a global-path claim (Corollaries 1, 2): an Outcome with ``opt_hypotheses`` and the requirement
    that the path is computed with the linear head. Returns (outcome, Frobenius SAtt-SVM result, ready to run)."""
    hyps, fro = opt_hypotheses(data, prec, data.causal)
    out = Outcome(hypotheses=hyps)
    if not out.applicable():
        return out, fro, False
    ok, what = linear_head(data)
    out.require("the path is computed with the linear head h(x) = vᵀx (v1's theory)", ok, what)
    return out, fro, ok
