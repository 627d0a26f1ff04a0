"""Claim-kit piece: mmts App. D — Assumption D ("mixing non-optimal tokens hurts") decided on the data, through
Lemma 14's linear label mixing (a sufficient condition) or refuted by a ray whose limit loss beats P^mm's.

Assumption D (spec §3; quantifiers UNCERTAIN, read as): with q_i^p = Σ_{t∈Ō_i} s_it(p), q^p_max = max_i q_i^p, for
every μ > 0 there is ε_μ > 0 such that for all p, p' with q^p_max ≤ ε_μ:
log q^{p'}_max ≤ (1+μ) log q^p_max ⇒ L(p') < L(p).

* **Linear label mixing (Lemma 14, (85)) ⇒ D.** If Y_i f_p(X_i) = γ⋆_i − Σ_{t∈Ō_i} s_it c_it(p) with
  c_it(p) ∈ [c_min, c_max], c_min > 0, then (Taylor with integral remainder, ℓ' bounds on [−B, B])
  (ℓ'_min c_min/n)·q_max ≤ L − L⋆ ≤ ℓ'_max c_max·q_max, hence D with ε_μ = (ℓ'_min c_min/(n ℓ'_max c_max))^{1/μ}.
  Heads of the form h(r) = g(vᵀr), g increasing and C¹, mix linearly: with γ_it = Y_i vᵀx_it, O_i its argmax
  set and γ⋆ its maximum, Y_i vᵀr_i = γ⋆ − Σ_{t∈Ō_i} s_it(γ⋆ − γ_it) exactly (the optimal tokens share γ⋆), and
  Y g(u) = g(Yu) for the odd g used (identity, tanh), so by the mean value theorem
  Y_i h(r_i) = g(γ⋆) − Σ_{t∈Ō_i} s_it g'(ξ_i)(γ⋆ − γ_it), ξ_i ∈ [−B, B]:
  c_it = g'(ξ_i)(γ⋆ − γ_it) ∈ [min_{[−B,B]} g'·gap_min, max g'·gap_max] — g' = 1 (linear), g' = sech² ∈
  [sech² B, 1] (tanh). gap_min > 0 because Ō_i holds exactly the tokens below the maximum.
* **Refutation by a ray.** If a direction u selects only optimal tokens (argmax_t k_itᵀu ⊂ O_i for every i, so
  q^{Ru} → 0) and its limit loss L_∞(u) = (1/n) Σ_i ℓ(Y_i h(mean of x_it over argmax_t k_itᵀu)) is certainly below
  L_∞(p^mm) for a p^mm ∈ P^mm (which selects within O_i too: its margins are ≥ 1), then D fails for every μ: for
  any ε take R with q^{Ru} ≤ ε and L(Ru) < m (m the midpoint of the two limits), then R' with
  q^{R'p^mm} ≤ (q^{Ru})^{1+μ} and L(R'p^mm) > m — a pair with L(p') > L(p). (A head that rewards mixing two
  optimal tokens, ψ(r) = −‖r − c‖² with c their midpoint, is refuted this way.)
* Otherwise D is undecided (None): no general decision procedure is known for other heads.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Hypothesis
from verify.models.heads import LinearHead, TanhScalarHead, token_head_order_values
from verify.models.losses import get_loss
from verify.numbers.precision import to_arb

ASSUMPTION_D = "Assumption D (mixing non-optimal tokens hurts: q^{p'} ≤ (q^p)^{1+μ}, q^p ≤ ε_μ ⇒ L(p') < L(p))"


def score_gaps(data, head, sets) -> tuple[Fraction, Fraction] | None:
    """(gap_min, gap_max) of γ⋆_i − γ_it over t ∈ Ō_i (exact; γ the head's order values), None when every O_i = [T]."""
    vals = token_head_order_values(data, head)
    gaps = [max(g) - g[t] for g, O in zip(vals, sets) for t in range(len(g)) if t not in O]
    return (min(gaps), max(gaps)) if gaps else None


def linear_mixing(data, head, sets):
    """(c_min, c_max, how) of Lemma 14's (85) for heads g(vᵀr) (linear, tanh) — arb balls (exact for the linear
    head) — or None when the head is outside this sufficient condition (see the module docstring)."""
    if not isinstance(head, (LinearHead, TanhScalarHead)):
        return None
    gaps = score_gaps(data, head, sets)
    if gaps is None:
        return None
    lo, hi = gaps
    if isinstance(head, LinearHead):
        return to_arb(lo), to_arb(hi), f"linear head: c_it = γ⋆_i − γ_it ∈ [{lo}, {hi}] (exact)"
    B = max(abs(g) for row in token_head_order_values(data, head) for g in row)
    sech2 = 1 / to_arb(B).cosh() ** 2
    return (sech2 * to_arb(lo), to_arb(hi),
            f"tanh head: c_it = sech²(ξ)(γ⋆ − γ_it), ξ ∈ [−B, B], B = {B}: c ∈ [sech²(B)·{lo}, {hi}]")


def selected_by(data, u) -> tuple:
    """argmax_t k_itᵀu per input (exact: u rational)."""
    out = []
    for seq in data.keys():
        a = [sum((Fraction(x) * Fraction(y) for x, y in zip(k, u)), Fraction(0)) for k in seq]
        out.append(tuple(t for t, x in enumerate(a) if x == max(a)))
    return tuple(out)


def ray_limit_loss(data, head, u, loss="logistic") -> tuple[arb, tuple]:
    """lim_{R→∞} L(Ru) = (1/n) Σ_i ℓ(Y_i h(mean of the tokens x_it, t ∈ argmax_t k_itᵀu)) and the selected sets."""
    ell = get_loss(loss)
    sel = selected_by(data, u)
    acc = arb(0)
    for seq, y, S in zip(data.X, data.Y, sel):
        r = [to_arb(sum((Fraction(seq[t][j]) for t in S), Fraction(0)) / len(S)) for j in range(data.d)]
        acc += ell.value(y * head.value(r))
    return acc / data.n, sel


def assumption_d(data, head, sets, prime, witnesses=(), loss="logistic") -> Hypothesis:
    """Assumption D on the data: met through linear mixing, not met through a refuting ray among ``witnesses``
    (rational directions), else undecided (module docstring)."""
    mix = linear_mixing(data, head, sets)
    if mix is not None:
        c_min, c_max, how = mix
        if c_min > 0:
            return Hypothesis(ASSUMPTION_D, True, f"implied by linear label mixing (Lemma 14, (85)): {how}; "
                                                  f"c_min > 0 certified")
    if prime is not None and prime.status == "optimal":
        ref = [ray_limit_loss(data, head, s, loss)[0] for s in prime.solutions]
        for u in witnesses:
            if all(x == 0 for x in u):
                continue
            lu, sel = ray_limit_loss(data, head, u, loss)
            if not all(set(S) <= set(O) for S, O in zip(sel, sets)):
                continue
            beaten = [j for j, lp in enumerate(ref) if lu < lp]
            if beaten:
                return Hypothesis(ASSUMPTION_D, False, (
                    f"refuted by the ray u = ({', '.join(str(x) for x in u)}): it selects {[list(S) for S in sel]} ⊂ O_i "
                    f"with limit loss {lu.mid().str(8, radius=False)} certainly < "
                    f"{ref[beaten[0]].mid().str(8, radius=False)} = lim L(R·p^mm), p^mm = "
                    f"({', '.join(str(x) for x in prime.solutions[beaten[0]])}): for every μ and ε a pair (p, p') "
                    "with L(p') > L(p)"))
    return Hypothesis(ASSUMPTION_D, None, "not decided: the head is outside the linear-mixing sufficient condition "
                                          "(Lemma 14) and no refuting ray was found")
