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

from flint import arb

from verify.claims import Hypothesis, rules
from verify.claims.registry import Parameter
from verify.dynamics import regularization_path
from verify.dynamics.parameterization import make_parameterization
from verify.geometry.separating_cone import assumption_e
from verify.kit.paths import require_path_optimal
from verify.numbers.precision import to_arb
from verify.svm.distance import distance_to_solution_set

RADII_PARAMETER = Parameter("R", "R → ∞ (the limit along the path)", "range",
                            "the radii computed (named in the verdict's range), at the working precision (the global "
                            "path's L − L⋆ is computed cancellation-free)", option="radii", kind="rationals")


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


def path_evidence(out, label, radii, ys, prec, zero):
    """1 − corr / distance along a path, decided by ``rules.decays`` (a plateau: VIOLATED)."""
    from verify.claims import Evidence

    xs = [to_arb(r) if not isinstance(r, arb) else r for r in radii]
    out.add(Evidence(label + " (value at the largest R)", ys[-1], rule=rules.decays(xs, ys, zero=zero),
                     enclosed=False, note=series_text(xs, ys), residual=bool(abs(ys[-1]) <= to_arb(zero))))
    return xs
