"""tfsvm Assumptions B.1 (v1 §4.1) and D (v1 §5.2) as exact predicates on the data.

* **B.1** (all tokens are support vectors): (x_{i,opt_i} − x_it)ᵀ W^mm z_i = 1 for every t ≠ opt_i and every i —
  decided on the exact rational Att-SVM(opt) solution (``verify.geometry.stationarity.assumption_b1``).
* **D** (always an optimal support index): for every feasible α ≠ opt there is a sequence i with α_i ≠ opt_i and
  opt_i ∈ 𝒯_i(α), 𝒯_i(α) = {t ≠ α_i : (x_iα_i − x_it)ᵀ W^mm_α z_i = 1} (Def. 2). Every α ∈ [T]ⁿ is enumerated and
  its Att-SVM solved by ``verify.svm`` (exact rational solution with its certificate, or a verified Farkas
  certificate of infeasibility), so the support sets are exact. An α without a certified answer leaves D undecided.
  D implies that no α ≠ opt is locally optimal (opt_i is a support index of α with γ_{i,opt_i} > γ_{iα_i}).

Each returns a ``Hypothesis`` (met True / False / None) whose detail is one line naming what fails.
"""
from __future__ import annotations

from verify.claims import Hypothesis
from verify.geometry.stationarity import assumption_b1 as _b1
from verify.geometry.tfsvm_svm import Selection, all_selections

B1 = "Assumption B.1: every non-optimal token is a support vector of W^mm (margins exactly 1)"
D = ("Assumption D: every feasible α ≠ opt has a sequence i with α_i ≠ opt_i and opt_i a support index of "
     "W^mm_α (opt_i ∈ 𝒯_i(α))")
#: T^n selections enumerated at most (each an exact Att-SVM solve, ~5 ms at n = T = 3, d = 4)
D_LIMIT = 256


def _one(alpha) -> str:
    return "(" + ", ".join(str(t + 1) for t in alpha) + ")"


def assumption_b1(gmm_result) -> Hypothesis:
    """B.1 on the exact Att-SVM(opt) solution ``gmm_result`` (status optimal, exact)."""
    if gmm_result is None or gmm_result.status != "optimal" or not gmm_result.exact:
        return Hypothesis(B1, None, "no exact W^mm to decide the margins on")
    met, detail = _b1(gmm_result)
    return Hypothesis(B1, met, detail)


def optimal_support_witness(sel: Selection, opt: tuple) -> int | None:
    """A sequence i with α_i ≠ opt_i and opt_i ∈ 𝒯_i(α) (the first), or None."""
    for i, (a, o) in enumerate(zip(sel.alpha, opt)):
        if a != o and o in sel.support.get(i, ()):
            return i
    return None


def assumption_d(data, dps: int, limit: int = D_LIMIT) -> tuple[Hypothesis, list[Selection]]:
    """(Assumption D decided exactly, every selection α with its certified Att-SVM answer). Needs unique optimal
    tokens (the caller's hypothesis). Refuses (undecided) beyond ``limit`` selections."""
    opts = data.optimal_tokens()
    if any(len(o) != 1 for o in opts):
        return Hypothesis(D, None, "opt is not unique: D is defined for unique optimal tokens"), []
    opt = tuple(o[0] for o in opts)
    if data.T ** data.n > limit:
        return Hypothesis(D, None, f"not enumerated: {data.T}^{data.n} selections exceed the limit {limit}"), []
    sels = all_selections(data, dps, limit=limit)
    others = [s for s in sels if s.alpha != opt]
    undecided = [s.alpha for s in others if s.feasible is None]
    feasible = [s for s in others if s.feasible is True]
    bad = [s for s in feasible if optimal_support_witness(s, opt) is None]
    if bad:
        s = bad[0]
        dev = [i for i, (a, o) in enumerate(zip(s.alpha, opt)) if a != o]
        why = "; ".join(f"𝒯_{i + 1} = {{{', '.join(str(t + 1) for t in s.support.get(i, ()))}}} ∌ opt_{i + 1} = "
                        f"{opt[i] + 1}" for i in dev)
        more = f" (and {len(bad) - 1} more α)" if len(bad) > 1 else ""
        return Hypothesis(D, False, f"fails at feasible α = {_one(s.alpha)} (1-indexed): {why}{more}"), sels
    if undecided:
        return Hypothesis(D, None, f"no certified Att-SVM answer for α = {', '.join(_one(a) for a in undecided[:4])}"), sels
    return Hypothesis(D, True, f"exact: all {len(feasible)} feasible α ≠ opt (of {len(others)}) have an optimal support "
                               f"index in a deviating sequence; {len(others) - len(feasible)} infeasible (Farkas)"), sels
