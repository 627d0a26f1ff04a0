"""Hypotheses computed on the data, never assumed: Assumption A for the loss actually used, a step
size against a certified smoothness constant, SVM feasibility from a verified certificate.

Each returns a ``Hypothesis`` with ``met`` True, False, or None when it could not be decided (the
verdict is then INCONCLUSIVE naming it, never a silent HOLDS or a wrong NOT_APPLICABLE).
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Hypothesis
from verify.geometry.stationarity import gmm
from verify.models.losses import certify_assumption_a, get_loss
from verify.numbers.precision import to_arb, to_decimal_string


def score_bound(data) -> Fraction:
    """B = max_{i,t} |γ_it| (exact): the interval [−B, B] of Assumption A."""
    return max(abs(g) for row in data.scores for g in row)


def assumption_a(loss, data, name: str = "Assumption A") -> Hypothesis:
    """ℓ strictly decreasing on [−B, B] (certified by interval evaluation), with the loss's M₀, M₁."""
    met, detail, _, _ = certify_assumption_a(get_loss(loss), to_arb(score_bound(data)))
    return Hypothesis(f"{name}: ℓ' < 0 on [−B, B], ℓ' M₀-Lipschitz, |ℓ'| ≤ M₁", met, detail)


def step_size(eta, L, name: str = "step size η ≤ 1/L") -> Hypothesis:
    """η·L ≤ 1 decided by enclosures (a step equal to 1/L as a ball is undecidable: round η down)."""
    eta_a = eta if isinstance(eta, arb) else to_arb(Fraction(eta))
    prod = eta_a * L
    met = True if prod <= 1 else False if prod > 1 else None
    return Hypothesis(name, met, f"η = {to_decimal_string(eta_a, 10)}, L = {to_decimal_string(L, 10)}, "
                                 f"η·L = {to_decimal_string(prod, 10)}")


def svm_feasible(res, name: str) -> Hypothesis:
    """An SVM's feasibility from its verified certificate: met when the solver's optimum is
    certified, not met when a Farkas certificate of infeasibility verifies, undecided otherwise
    (a failed certificate is never read as "optimal" or "infeasible")."""
    if res.status == "optimal":
        cert = res.certificate
        upper = getattr(cert, "upper", None)
        if cert is not None and (cert.passed or (isinstance(upper, arb) and upper.is_finite())):
            return Hypothesis(name, True, f"certified feasible (optimum certified), support {list(res.support)}")
        return Hypothesis(name, None, "the solver's optimum did not pass its certificate")
    if res.status == "infeasible":
        far = res.farkas
        if far is not None and far.passed:
            return Hypothesis(name, False, f"infeasible: verified Farkas certificate on rows {list(far.rows)}")
        return Hypothesis(name, None, "reported infeasible, but the Farkas certificate did not verify")
    return Hypothesis(name, None, "no certified answer: " + "; ".join(res.notes or ["solver failed"]))


def unique_optimal_tokens(data, name: str = "unique optimal tokens") -> Hypothesis:
    """opt_i is the only maximiser of γ_it in every sequence (exact scores)."""
    opts = data.optimal_tokens()
    ties = [i + 1 for i, o in enumerate(opts) if len(o) > 1]
    return Hypothesis(name, not ties, f"tied in sequence(s) {ties} (1-indexed)" if ties else
                      "opt = " + ", ".join("{" + ",".join(str(t + 1) for t in o) + "}" for o in opts) + " (1-indexed)")


def w_mm_hypotheses(data, dps: int, name: str = "Att-SVM(opt) feasible (W^mm exists)",
                    unique_name: str = "unique optimal tokens") -> tuple[list[Hypothesis], tuple | None]:
    """[unique optimal tokens, Att-SVM(opt) feasible] and the exact W^mm (row-major) or None; the SVM is
    solved only when the optimal tokens are unique (W^mm is otherwise undefined)."""
    unique = unique_optimal_tokens(data, unique_name)
    if not unique.met:
        return [unique], None
    res = gmm(data, "W", dps)
    feasible = svm_feasible(res, name)
    return [unique, feasible], tuple(res.solution) if feasible.met else None
