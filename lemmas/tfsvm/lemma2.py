"""tfsvm Lemma 2 — optimal tokens minimise the training loss (v1 §3, App. A.2).

Statement. Under Assumption A(i), A(iii) (ℓ strictly decreasing, |ℓ'| ≤ M₁ on [−B, B]), a linear head, and not
all tokens optimal (some γ_it < max_τ γ_iτ), with L⋆ = (1/n)Σ_i ℓ(γ_i,opt_i):
  (1) L(W) > L⋆ for every W ∈ ℝ^{d×d};
  (2) if some W separates a choice of optimal indices α (Att-SVM(α) feasible, α_i ∈ opt_i), then L(R·W) → L⋆.
Bound (DERIVED in the spec, used here as the certified form of (2)). If W has margins
(x_iα_i − x_it)ᵀW z_i ≥ m > 0, then s_it ≤ e^{−Rm} (t ≠ α_i), δ_i := γ_i,opt − φ_i = Σ_{t≠α_i} s_it(γ_i,opt − γ_it)
≤ (T−1)e^{−Rm}·max_t(γ_i,opt − γ_it), and ℓ(γ_opt − δ) − ℓ(γ_opt) ≤ M₁δ (mean value, φ_i ∈ [−B, B]):
    0 ≤ L(RW) − L⋆ ≤ M₁ · max_i(γ_i,opt − min_t γ_it) · (T−1) · e^{−Rm}.
Hypotheses. Assumption A for the loss (certified by interval evaluation); not all tokens optimal (exact).
How it is checked. The excess L − L⋆ = (1/n)Σ[ℓ(γ_opt − δ_i) − ℓ(γ_opt)] is formed from the gaps δ_i = Σ_{t≠opt}
s_t(γ_opt − γ_t) with expm1/log1p (the engine's ``excess``, never a difference of O(1) numbers), so it stays
certified down to e^{−10⁶}. (1): L − L⋆ > 0 (a Tally, logistic and exponential) at the probe points (seeded
directions, ± feature differences, ties, ‖W‖∞ ≤ 1000) and at R·W^mm_α for every feasible α, R up to 10⁶. (2): for
W = W^mm_α of a choice of optimal indices α (exact, margins ≥ m = 1), the derived bound at every R of a ladder up
to 10⁶ (a Tally, certified), and the decay of L(RW) − L⋆ (``rules.decays``) — evidence over R ≤ 10⁶.
False cases (tests): (2) with a W separating a non-optimal choice α (``require_optimal=False``): L(RW) tends to
(1/n)Σℓ(γ_iα_i) > L⋆, the bound fails (certified) → VIOLATED; all scores equal in every sequence → NOT_APPLICABLE
("not all tokens optimal").
"""
from __future__ import annotations

import itertools

from verify.claims import Claim, Evidence, Hypothesis, Outcome, Tally, register, rules
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.generators import random_dataset
from verify.geometry.probes import probe_points
from verify.geometry.tfsvm_svm import excess_along, selected_limit, selection
from verify.kit.assumptions import assumption_a, score_bound
from verify.kit.probe_inequality import point_label
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import Precision, to_arb, to_decimal_string

LOSSES = ("logistic", "exponential")
#: R of the rays R·W (part (2): the derived bound at each; the decay rule on the first seven)
RAYS = (1, 2, 5, 10, 20, 50, 100, 1000, 10**4, 10**6)
RULE_RAYS = 7
MAX_SELECTIONS = 9


def evaluate(data, prec: Precision, alpha=None, require_optimal: bool = True, losses=LOSSES) -> Outcome:
    """``alpha``: the selection W = W^mm_α of part (2) (default: the first optimal token of each sequence);
    ``require_optimal=False`` lets a non-optimal α through (the false case)."""
    g = data.scores
    some = [(i, t) for i, row in enumerate(g) for t in range(data.T) if row[t] < max(row)]
    out = Outcome(hypotheses=[assumption_a(nm, data, f"Assumption A ({nm})") for nm in losses])
    out.hypotheses.append(Hypothesis("not all tokens optimal (some γ_it < max_τ γ_iτ)", bool(some),
                                     f"first non-optimal (i, t) = {some[0]}" if some else "all scores equal in "
                                     "every sequence: L ≡ L⋆"))
    opt = tuple(o[0] for o in data.optimal_tokens())
    alpha = opt if alpha is None else tuple(alpha)
    is_opt = all(g[i][a] == max(g[i]) for i, a in enumerate(alpha))
    if require_optimal:
        out.hypotheses.append(Hypothesis("(2): W separates a choice of optimal indices (α_i ∈ opt_i)", is_opt,
                                         f"α = {alpha}"))
    elif not is_opt:
        out.notes.append(f"α = {alpha} is NOT a choice of optimal indices (the false case of (2))")
    if not out.applicable():
        return out
    feats = features(data, "W")
    sels = [selection(data, a, prec.dps) for a in
            [alpha] + [a for a in itertools.product(range(data.T), repeat=data.n) if a != alpha][:MAX_SELECTIONS - 1]]
    rays = [(s.alpha, list(s.result.solution)) for s in sels if s.feasible]
    pts = [(point_label(p, 4), list(p)) for p in probe_points(feats, data.optimal_tokens())]
    pts += [(f"{R}·W^mm_{a}", [R * x for x in W]) for a, W in rays for R in RAYS]
    for nm in losses:
        model = LinearLogitModel.from_dataset(data, "W", nm)
        pos = Tally(f"{nm}: L(W) − L⋆ > 0 (1), from the gaps, at {len(pts)} points", ">", 0)
        for where, W in pts:
            pos.add(model.excess([to_arb(x) for x in W]), where)
        out.add(pos.evidence())
    if part2(out, data, sels[0], is_opt):
        out.range = f"R ≤ {RAYS[-1]:.0e} along R·W^mm_α (part (2))"
    out.cover(f"(1) W at {len(pts)} points: the probe points and R·W^mm_α for {len(rays)} feasible α, R ∈ "
              f"{{{', '.join(map(str, RAYS))}}}; (2) W = W^mm_α, α = {alpha}")
    return out


def part2(out: Outcome, data, sel, is_opt: bool) -> bool:
    """The derived bound and the decay of L(R·W^mm_α) − L⋆ (logistic), α = ``sel.alpha``."""
    if sel.feasible is not True:
        out.require("(2): Att-SVM(α) answered with a certificate", sel.feasible is False,
                    f"α = {sel.alpha}: no certified answer")
        out.notes.append(f"(2) is vacuous: Att-SVM(α = {sel.alpha}) is infeasible (no W separates α)")
        return False
    W, m = list(sel.result.solution), min(sel.margins.values())
    model = LinearLogitModel.from_dataset(data, "W", "logistic")
    _, M1 = model.loss.constants(to_arb(score_bound(data)))
    spread = max(max(row) - min(row) for row in data.scores)
    C = M1 * to_arb(spread * (data.T - 1))
    bound = Tally(f"(2) logistic: L(R·W) − L⋆ ≤ M₁·max_i(γ_i,opt − min_t γ_it)(T−1)e^{{−Rm}}, W = W^mm_α, α = "
                  f"{sel.alpha}, m = {m} (DERIVED bound)", "<=")
    excess = []
    for R in RAYS:
        e = excess_along(model, W, R)
        excess.append(e)
        bound.add(e, f"R = {R}: L − L⋆ = {to_decimal_string(e, 6)}", bound=C * (-to_arb(R) * to_arb(m)).exp())
    out.add(bound.evidence(f"M₁ = {to_decimal_string(M1, 6)}, max spread {spread}, T − 1 = {data.T - 1}"))
    rule = rules.decays(RAYS[:RULE_RAYS], excess[:RULE_RAYS])
    out.add(Evidence(f"(2) L(R·W^mm_α) − L⋆ → 0 (α = {sel.alpha}), R = {RAYS[0]}…{RAYS[RULE_RAYS - 1]}",
                     excess[RULE_RAYS - 1], rule=rule, note=rule.detail))
    if not is_opt:
        gap = selected_limit(model, sel.alpha) - model.l_star()
        out.add(Evidence("(1/n)Σℓ(γ_iα_i) − L⋆: the limit of L(R·W) − L⋆ for this non-optimal α", gap))
    return True


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.d_lmm(), D.d_nb(),
            random_dataset(n=2, T=3, d=2, seed=seed, queries=True, name=f"random-n2T3d2-z-s{seed}")]


STATEMENT = """\
Under Assumption A(i), A(iii), with not all tokens optimal: L(W) > L⋆ = (1/n)Σℓ(γ_i,opt) for every W, and
L(R·W) → L⋆ for every W separating a choice of optimal indices (v1 §3, App. A.2).

(1) certified at adversarial points (R·W^mm_α up to R = 10⁶) from the gaps γ_opt − φ_i (no cancellation); (2) the
DERIVED bound 0 ≤ L(RW) − L⋆ ≤ M₁·max_i(γ_i,opt − min_t γ_it)(T−1)e^{−Rm} certified at R ≤ 10⁶, the limit by a
decay rule (evidence).
"""

CLAIM = register(Claim(id="tfsvm.lemma2", paper="tfsvm", number="Lemma 2", kind="asymptotic",
                       title="L(W) > L⋆ for all W; L(R·W) → L⋆ along W separating optimal tokens",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("optimal-tokens-minimize-loss",),
                       parameters=(
                           Parameter("W", "(1) for every W ∈ ℝ^{d×d}", "range",
                                     "probe points (seeded directions, ± feature differences, ties; ‖W‖∞ ≤ 1000) and "
                                     "R·W^mm_α for up to 9 feasible α, R ≤ 10⁶ (named in the verdict)"),
                           Parameter("W (2)", "(2) every W separating a choice of optimal indices α", "range",
                                     "W = W^mm_α for one α (the first optimal token of each sequence unless `alpha` "
                                     "is given) (named in the verdict)"))))
