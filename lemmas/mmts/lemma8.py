"""mmts Lemma 8 — when one direction dominates another (App. B.5.1, proof (62)–(65)).

Statement (SEED+). Let q, q' be unit directions with identical unique selected tokens σ (Definition 3, (59)) and
directional margins Θ_q' > Θ_q (60), δ := Θ_q' − Θ_q; Assumption A.
 (i)  If q and q' are both neighbour-optimal (γ_iσ_i > γ_it on their directional neighbours (61)), there is R_δ
      (depending only on δ and global data constants) with L(Rq') < L(Rq) for all R > R_δ.
 (ii) If q has a unique directional neighbour and it is not neighbour-optimal (its score exceeds γ_iσ_i), then with
      δ' the gap between its margin and the second-smallest margin (65), L(Rq) < L_σ = (1/n)Σ_i ℓ(γ_iσ_i) for
      R > R_δ' (≈ 1/δ' up to logs).

Hypotheses (computed exactly on the rational data and directions, ``verify.geometry.directional``): Assumption A for
the loss used; per pair / direction the conditions above. Pairs and directions: those given, else candidates
(max-margin directions p^mm(α) of the feasible selections and tilted ones) that meet them.

DERIVED (mechanism (62)–(64)): L(Rq̄) − L_σ = e^{−RΘ_q}(c_q + o(1)), c_q = (1/n)Σ_{N(q)}|ℓ'(γ_σ)|(γ_σ − γ_it). In (i)
L(Rq) − L(Rq') = e^{−RΘ_q}(c_q + o(1)) since the q' term is O(e^{−RΘ_q'}): asymptotically only the smaller-margin
direction's neighbour-optimality matters (c_q > 0); the hypothesis on q' enters only the explicit R_δ.

How it is checked (``verify.kit.ray_signs``): the differences without cancellation (each loss relative to L_σ,
log-domain softmax in arb) at radii RΘ_q ∈ {1/2, …, 10⁶}: the witness R (``rules.witness``, evidence) and a Tally
from it, and the sign of the leading coefficient c_q (certified: (i) c_q > 0, (ii) c_q < 0). Informative: R·δ.

Spec numbers (n = 1, keys (1,0), (0,0), (0.3,1), scores 1, 0.2, 0.5; q = (1,0) (Θ = 0.7) against q' = p̄^mm
= (1,−0.3)/√1.09 (Θ = 0.958)): L(Rq) − L(Rq') decays like e^{−0.7R}.

False cases (tests): (i) with q not neighbour-optimal (Fig. 1(b′): q ∝ (1,−1/20) whose only neighbour (0,0) has score
0.95 > 0.9, against q' = (1,0), Θ_q' = 1 > Θ_q) → NOT_APPLICABLE naming neighbour-optimality; with
``require_optimal=False`` the conclusion is VIOLATED (c_q < 0: the smaller margin wins for every large R,
certified). Different selected tokens → NOT_APPLICABLE naming "identical unique selected tokens".
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Evidence, Hypothesis, Outcome, register
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.data.dataset import Dataset
from verify.geometry.directional import (
    baseline_excess,
    candidate_directions,
    directional,
    general_position_dataset,
    leading_coefficient,
    unit,
)
from verify.kit.assumptions import assumption_a
from verify.kit.ray_signs import RaySign, baseline_ray, ladder, next_margin_gap, sign_figure
from verify.models.attention import LinearLogitModel
from verify.models.losses import get_loss
from verify.numbers.precision import Precision, to_arb

MAX_PAIRS, MAX_SINGLES = 3, 2


def _q(v) -> tuple:
    return tuple(Fraction(x) for x in v)


def _auto(data):
    """(pairs, singles) among the candidate directions meeting the hypotheses of (i) and (ii)."""
    infos = [(label, directional(data, q)) for label, q in candidate_directions(data)]
    infos = [(label, i) for label, i in infos if i.unique and i.neighbours]
    pairs = []
    for a, (la, ia) in enumerate(infos):
        for lb, ib in infos[a + 1:]:
            if ia.sigma != ib.sigma or not (ia.neighbour_optimal and ib.neighbour_optimal) or ia.theta_sq == ib.theta_sq:
                continue
            small, large = ((la, ia), (lb, ib)) if ia.theta_sq < ib.theta_sq else ((lb, ib), (la, ia))
            pairs.append(((small[0], small[1].q), (large[0], large[1].q)))
    singles = [(label, i.q) for label, i in infos if len(i.neighbours) == 1 and not i.neighbour_optimal]
    return pairs[:MAX_PAIRS], singles[:MAX_SINGLES]


def _pair_hypotheses(label, a, b, require_optimal):
    hyps = [Hypothesis(f"{label}: identical unique selected tokens σ(q) = σ(q')", a.unique and b.unique and
                       a.sigma == b.sigma and bool(a.margins), f"q: {a.describe()}; q': {b.describe()}")]
    if hyps[0].met:
        hyps.append(Hypothesis(f"{label}: Θ_q' > Θ_q", b.theta_sq > a.theta_sq,
                               f"Θ_q² = {a.theta_sq}, Θ_q'² = {b.theta_sq} (exact)"))
        if require_optimal:
            hyps.append(Hypothesis(f"{label}: q and q' neighbour-optimal (i)", a.neighbour_optimal and
                                   b.neighbour_optimal, f"q: {a.describe()}; q': {b.describe()}"))
    return hyps


def evaluate(data, prec: Precision, pairs=None, singles=None, require_optimal: bool = True, loss: str = "logistic",
             figure: bool = True) -> Outcome:
    """Lemma 8: part (i) on ``pairs`` [(q, q')] and part (ii) on ``singles`` [q] (exact vectors, any scale); with
    neither given, the candidates meeting the hypotheses. ``require_optimal=False``: (i) without
    neighbour-optimality (the false case)."""
    loss = get_loss(loss)
    out = Outcome(hypotheses=[assumption_a(loss, data)])
    if not out.applicable():
        return out
    if pairs is None and singles is None:
        P, S1 = _auto(data)
        out.hypotheses.append(Hypothesis("a pair (i) or a direction (ii) meeting the hypotheses exists among the "
                                         "candidate directions", bool(P or S1), f"{len(P)} pair(s), {len(S1)} "
                                                                                 f"direction(s)"))
    else:
        P = [((f"pair {k} q", _q(a)), (f"pair {k} q'", _q(b))) for k, (a, b) in enumerate(pairs or [])]
        S1 = [(f"(ii) q{k}", _q(q)) for k, q in enumerate(singles or [])]
    todo_i = []
    for k, ((la, qa), (lb, qb)) in enumerate(P):
        a, b = directional(data, qa), directional(data, qb)
        label = f"(i) pair {k}"
        out.hypotheses.extend(_pair_hypotheses(label, a, b, require_optimal))
        todo_i.append((label, a, b, la, lb))
    todo_ii = []
    for label, q in S1:
        info = directional(data, q)
        label = label if label.startswith("(ii)") else f"(ii) {label}"
        out.hypotheses.append(Hypothesis(f"{label}: unique selected tokens, a unique directional neighbour, not "
                                         "neighbour-optimal", info.unique and len(info.neighbours) == 1 and
                                         not info.neighbour_optimal, info.describe()))
        todo_ii.append((label, info))
    if not out.applicable():
        return out
    model = LinearLogitModel.from_dataset(data, "p", loss)
    rays, covered = [], []
    for label, a, b, la, lb in todo_i:
        ua, ub = unit(a.q), unit(b.q)

        def diff(R, ua=ua, ub=ub, a=a, b=b):
            return (baseline_excess(model, a, [R * x for x in ua], loss)
                    - baseline_excess(model, b, [R * x for x in ub], loss))
        ray = RaySign(label, diff, ladder(a.theta_sq), +1)
        R, items = ray.items("L(Rq̄) − L(Rq̄')", leading_coefficient(a, loss),
                             "c_q = (1/n)Σ_N(q) |ℓ'(γ_σ)|(γ_σ − γ_it); the q' term is o(e^(−RΘ_q))")
        out.add(*items)
        delta = to_arb(b.theta_sq).sqrt() - to_arb(a.theta_sq).sqrt()
        out.add(Evidence(f"{label}: δ = Θ_q' − Θ_q and R_δ·δ", None if R is None else to_arb(R) * delta,
                         note=f"δ = {float(delta.mid()):.6g}" + ("" if R is None else f", R_δ = {float(R):.4g}")))
        out.notes.append(f"{label}: q = {la}: {a.describe()}; q' = {lb}: {b.describe()}")
        covered.append(f"{label}: q ∝ ({', '.join(map(str, a.q))}), q' ∝ ({', '.join(map(str, b.q))})")
        rays.append(ray)
    for label, info in todo_ii:
        ray, R = baseline_ray(out, model, label, info, loss, "(1/n)|ℓ'(γ_σ)|(γ_σ − γ_it) of the unique neighbour")
        dp = next_margin_gap(info)
        if dp is not None:
            out.add(Evidence(f"{label}: R_δ'·δ' (δ' = second-smallest margin − Θ_q, (65))",
                             None if R is None else to_arb(R) * dp,
                             note=f"δ' = {float(dp.mid()):.6g}" + ("" if R is None else f", R_δ' = {float(R):.4g}")))
        out.notes.append(f"{label}: {info.describe()}")
        covered.append(f"{label}: q ∝ ({', '.join(map(str, info.q))})")
        rays.append(ray)
    out.range = "RΘ_q ≤ 10⁶ (the ladder RΘ_q ∈ {1/2, …, 10⁶})"
    out.cover("; ".join(covered))
    if figure:
        out.show(sign_figure(rays, "Lemma 8: |L(Rq̄) − L(Rq̄')| (i) and |L(Rq̄) − L_σ| (ii) along the rays",
                             "log10 |difference|"))
    return out


def spec_dataset() -> Dataset:
    """The spec's Lemma 8 data: n = 1, keys (1,0), (0,0), (0.3,1), scores 1, 0.2, 0.5."""
    return Dataset.make(X=[[[1, 0, 1], [0, 0, "0.2"], ["0.3", 1, "0.5"]]], Y=[1], v=[0, 0, 1],
                        K=[[[1, 0], [0, 0], ["0.3", 1]]], name="lemma8-spec")


def check(data, prec: Precision) -> Outcome:
    if data.name == "lemma8-spec":
        return evaluate(data, prec, pairs=[((1, 0), (1, "-0.3"))])
    if data.name == "mmts-fig1b-prime":
        return evaluate(data, prec, singles=[(1, 0, 0)])
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [spec_dataset(), D.mmts_fig1b_prime(), general_position_dataset(n=2, T=3, d=2, seed=seed)]


STATEMENT = """\
q, q' unit with identical unique selected tokens σ and Θ_q' > Θ_q. (i) If both are neighbour-optimal there is R_δ
with L(Rq') < L(Rq) for all R > R_δ. (ii) If q has a unique directional neighbour which is not neighbour-optimal,
L(Rq) < L_σ for R > R_δ' (δ' the gap to the second-smallest margin) (App. B.5.1, (62)–(65)).

Checked along the rays up to RΘ_q = 10⁶ (certified at the ladder radii; the witness is evidence) and by the sign of
the derived leading coefficient (certified).
"""

CLAIM = register(Claim(id="mmts.lemma8", paper="mmts", number="Lemma 8", kind="existential",
                       title="Direction dominance: the larger directional margin wins; a bad unique neighbour beats "
                             "the baseline", statement=STATEMENT, check=check, default_datasets=default_datasets,
                       aliases=("direction-dominance",), default_precision=40,
                       parameters=(
                           Parameter("q, q′", "every pair (i) / direction (ii) meeting the hypotheses", "range",
                                     "the given pairs and directions, else up to 3 pairs and 2 directions among the "
                                     "candidates (max-margin directions of the feasible selections and tilted ones; "
                                     "named in the verdict)"),
                           Parameter("R", "for all R > R_δ (R_δ exists)", "search",
                                     "the smallest ladder radius (RΘ_q ∈ {1/2 … 10⁶}) from which the sign holds at "
                                     "every deeper one (rules.witness), and the sign of the leading coefficient"))))
