"""mmts Lemma 9 — directions whose directional neighbours all have higher scores beat the baseline (App. B.5.2,
(69)–(70)).

Statement (SEED+). Let q be a unit direction with unique selected tokens σ_i = σ_i(q) (Definition 3, (59)) such that
γ_it > γ_{iσ_i} for every directional neighbour (i,t) ∈ N(q) (61). Then there is R_q with

    L(Rq) < L_σ := (1/n) Σ_i ℓ(γ_{iσ_i})   for all R ≥ R_q,

R_q ≈ 1/δ up to logarithms, δ the gap between the neighbours' margin Θ_q and the next margin (70).

Hypotheses (computed, exactly on the rational data): Assumption A for the loss used; for each direction q tested:
unique selected tokens and every directional neighbour strictly higher-scored (``verify.geometry.directional``).
The directions: those given, else every candidate (max-margin directions p^mm(α) of the feasible selections and
tilted ones, ``candidate_directions``) that meets both; none → NOT_APPLICABLE.

How it is checked (``verify.kit.ray_signs``): L(Rq̄) − L_σ without cancellation (φ_i − γ_σ = Σ s_it(γ_it − γ_σ)
with exact score differences, then ℓ(γ_σ + x) − ℓ(γ_σ) by expm1/log1p) at radii RΘ_q ∈ {1/2, …, 10⁶}; the witness
R_q (``rules.witness``, evidence over RΘ_q ≤ 10⁶) and a Tally from it; and the leading coefficient (DERIVED)
c = (1/n)Σ_{N(q)} |ℓ'(γ_σ)|(γ_σ − γ_it) of L(Rq̄) − L_σ = e^{−RΘ_q}(c + o(1)), which must be certainly < 0 (under
the hypothesis it is a sum of negative terms; its sign proves the conclusion for every sufficiently large R).
Informative: R_q against 1/δ.

Spec numbers (Fig. 1(b′), q = (1,0,0)): L(Rq) − ℓ(0.9) = −4.1e−3, −2.1e−4, −1.1e−6, −3.8e−11 at R = 2, 5, 10, 20.

False cases (tests): one neighbour higher (weight γ_σ − γ_t = −0.1) and one lower (weight +0.5) at the same margin
(the spec's false case) → NOT_APPLICABLE naming the hypothesis; with ``require_higher=False`` the bare conclusion
is VIOLATED there (c = +0.4|ℓ'(γ_σ)| > 0: L(Rq) > L_σ for every large R, certified). A tie in the selected tokens →
NOT_APPLICABLE.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Evidence, Hypothesis, Outcome, register
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.data.dataset import Dataset
from verify.geometry.directional import candidate_directions, directional, general_position_dataset
from verify.kit.assumptions import assumption_a
from verify.kit.ray_signs import baseline_ray, next_margin_gap, sign_figure
from verify.models.attention import LinearLogitModel
from verify.models.losses import get_loss
from verify.numbers.precision import Precision, to_arb

MAX_DIRECTIONS = 4


def _select(data, limit=MAX_DIRECTIONS):
    found = []
    for label, q in candidate_directions(data):
        info = directional(data, q)
        if info.unique and info.neighbours and info.all_higher:
            found.append((label, q))
    return found[:limit]


def evaluate(data, prec: Precision, directions=None, require_higher: bool = True, loss: str = "logistic",
             figure: bool = True) -> Outcome:
    """Lemma 9 for each direction of ``directions`` (exact vectors, any scale), else the candidates that meet the
    hypotheses. ``require_higher=False``: the bare conclusion without the score hypothesis (the false case)."""
    loss = get_loss(loss)
    out = Outcome(hypotheses=[assumption_a(loss, data)])
    if not out.applicable():
        return out
    if directions is None:
        chosen = _select(data)
        out.hypotheses.append(Hypothesis(
            "a unit q with unique selected tokens whose directional neighbours all have higher scores (among the "
            "candidate directions)", bool(chosen), f"{len(chosen)} found" if chosen else "none among the candidates"))
    else:
        chosen = [(f"q{k}", tuple(Fraction(x) for x in q)) for k, q in enumerate(directions)]
    infos = []
    for label, q in chosen:
        info = directional(data, q)
        out.hypotheses.append(Hypothesis(f"{label}: unique selected tokens σ(q) (59)", info.unique and bool(info.margins),
                                         info.describe()))
        if info.unique and require_higher:
            out.hypotheses.append(Hypothesis(f"{label}: γ_it > γ_iσ for every directional neighbour (i,t) ∈ N(q)",
                                             info.all_higher, info.describe()))
        infos.append((label, info))
    if not chosen or not out.applicable():
        return out
    model = LinearLogitModel.from_dataset(data, "p", loss)
    rays = []
    for label, info in infos:
        ray, R = baseline_ray(out, model, label, info, loss, "(1/n)Σ_N(q) |ℓ'(γ_σ)|(γ_σ − γ_it)")
        delta = next_margin_gap(info)
        if delta is not None:
            out.add(Evidence(f"{label}: R_q·δ (witness times the gap δ to the next margin per unit norm, (70): "
                             "R_q ≈ 1/δ up to logs)", None if R is None else to_arb(R) * delta,
                             note=f"1/δ = {float((1 / delta).mid()):.4g}" + (
                                 "" if R is None else f", R_q = {float(R):.4g}")))
        out.notes.append(f"{label}: {info.describe()}")
        rays.append(ray)
    out.range = "RΘ_q ≤ 10⁶ (the ladder RΘ_q ∈ {1/2, …, 10⁶})"
    out.cover("q ∈ {" + "; ".join(label + " ∝ (" + ", ".join(str(x) for x in info.q) + ")" for label, info in infos)
              + "}")
    if figure:
        out.show(sign_figure(rays, "Lemma 9: |L(Rq̄) − L_σ| along the tested directions (all negative from R_q)",
                             "log10 |L(Rq̄) − L_σ|"))
    return out


def mixed_neighbours() -> Dataset:
    """The spec's false case: selected key (0,0) (score 1/2), neighbours (−1,1) (score 3/5, higher) and (−1,−1)
    (score 0, lower) at the same margin 1 along q = (1,0); the lower one carries the larger weight."""
    return Dataset.make(X=[[[0, 0, "1/2"], [-1, 1, "3/5"], [-1, -1, 0]]], Y=[1], v=[0, 0, 1],
                        K=[[[0, 0], [-1, 1], [-1, -1]]], name="lemma9-mixed-neighbours")


def check(data, prec: Precision) -> Outcome:
    if data.name == "mmts-fig1b-prime":
        return evaluate(data, prec, directions=[(1, 0, 0)])
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [D.mmts_fig1b_prime(), D.mmts_fig1b(), general_position_dataset(n=2, T=3, d=2, seed=seed)]


STATEMENT = """\
Let q be a unit direction with unique selected tokens σ(q) whose directional neighbours (i,t) ∈ N(q) all have
γ_it > γ_iσ_i. Then there is R_q (≈ 1/δ up to logs, δ the gap to the next margin) with L(Rq) < L_σ =
(1/n)Σ_i ℓ(γ_iσ_i) for all R ≥ R_q (App. B.5.2, (69)–(70)).

Checked along each direction up to RΘ_q = 10⁶ (certified at the ladder radii; the witness is evidence) and by the
sign of the derived leading coefficient (certified).
"""

CLAIM = register(Claim(id="mmts.lemma9", paper="mmts", number="Lemma 9", kind="existential",
                       title="Directions whose directional neighbours all have higher scores beat the baseline L_σ",
                       statement=STATEMENT, check=check, default_datasets=default_datasets,
                       aliases=("bad-neighbour-beats-baseline",), default_precision=40,
                       parameters=(
                           Parameter("q", "every unit q meeting the hypotheses", "range",
                                     "the given directions, else up to 4 candidates meeting the hypotheses "
                                     "(max-margin directions of the feasible selections and tilted ones; named "
                                     "in the verdict)"),
                           Parameter("R", "for all R ≥ R_q (R_q exists)", "search",
                                     "the smallest ladder radius (RΘ_q ∈ {1/2 … 10⁶}) from which the sign holds at "
                                     "every deeper one (rules.witness), and the sign of the leading coefficient"))))
