"""tfsvm auxiliary fact — no spurious locally-optimal directions (talk "Lemma"; DERIVED in the spec, §4 Auxiliary).

Statement. Let the optimal tokens be unique and Att-SVM(opt) feasible (W^mm exists). With Def. 2 (support indices
𝒯_i(α) = {t ≠ α_i : (x_iα_i − x_it)ᵀW^mm_α z_i = 1}; α locally optimal iff Att-SVM(α) is feasible and
γ_iα_i > γ_it for every i and t ∈ 𝒯_i(α)):
  (i)  if for every feasible α every non-selected token is a support index (𝒯_i(α) = [T]∖{α_i}), then α is
       locally optimal iff α = opt — "opt is the only feasible locally-optimal solution" (talk);
  (ii) under B.2 (γ_it = γ_iτ < γ_i,opt for t, τ ≠ opt_i) with n = 1, only α = opt is locally optimal.
Proof (DERIVED). (i): α ≠ opt has some i with α_i ≠ opt_i; opt_i ∈ 𝒯_i(α) and γ_i,opt > γ_iα_i. (ii): n = 1 and
α ≠ opt: W^mm_α has at least one tight constraint (else it could be scaled down), and every token t ≠ α has
γ_t ≥ γ_α under B.2 (γ_α is the common non-optimal score), so the strict inequality fails at a support index.
For n ≥ 2, B.2 does not suffice: a deviating sequence can have 𝒯_i(α) = ∅ and meets Def. 2 vacuously (D-T2,
α = (1,1) in the paper's 1-indexing: 𝒯_2 = ∅, corr(W^mm_α, W^mm) = 1/√10).
Hypotheses (decided exactly on the rational data). Unique optimal tokens; Att-SVM(opt) feasible (certificate);
(i) all-support for every feasible α (exact margins of the exact Att-SVM(α) solutions), or (ii) B.2 and n = 1.
How it is checked. Every α ∈ [T]ⁿ (T^n ≤ 64) is solved by ``verify.svm`` (exact rational solution with its
certificate, or a verified Farkas certificate); support sets are exact. Deciding: a Tally over the selections
"α locally optimal ⇒ α = opt" (exact) and "opt is locally optimal" (exact). Certified.
False cases (tests): D-T2 (B.2 holds since T = 2, n = 2) with (ii)'s n = 1 dropped → VIOLATED, witness α = (0,0)
(0-indexed) with 𝒯_2 = ∅; with the hypothesis → NOT_APPLICABLE naming "n = 1". D-LMM (n = 1, B.2 fails, spurious
LMM α = B) with B.2 dropped → VIOLATED.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Hypothesis, Outcome, Tally, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.geometry.tfsvm_svm import all_selections
from verify.numbers.precision import Precision

MAX_SELECTIONS = 64


def _or(*xs):
    return True if True in xs else None if None in xs else False


def evaluate(data, prec: Precision, part: str = "auto", require_n1: bool = True, require_b2: bool = True) -> Outcome:
    """``part`` "i", "ii" or "auto" (either hypothesis); ``require_n1`` / ``require_b2`` False drop (ii)'s
    hypotheses (the false cases)."""
    opts = data.optimal_tokens()
    unique = all(len(o) == 1 for o in opts)
    out = Outcome(hypotheses=[Hypothesis("unique optimal tokens", unique, "opt = " + str([list(o) for o in opts]))])
    if not out.applicable():
        return out
    out.require(f"T^n ≤ {MAX_SELECTIONS} selections to enumerate", data.T ** data.n <= MAX_SELECTIONS,
                f"T^n = {data.T ** data.n}")
    if data.T ** data.n > MAX_SELECTIONS:
        return out
    opt = tuple(o[0] for o in opts)
    sels = all_selections(data, prec.dps, limit=MAX_SELECTIONS)
    by = {s.alpha: s for s in sels}
    out.hypotheses.append(Hypothesis("Att-SVM(opt) feasible (W^mm exists)", by[opt].feasible,
                                     "certified by the exact solution / Farkas certificate"))
    g = data.scores
    undecided = [s.alpha for s in sels if s.feasible is None]
    bad = [s.alpha for s in sels if s.feasible and not s.all_support()]
    h1 = False if bad else None if undecided else True
    b2 = all(len({row[t] for t in range(data.T) if t != o}) <= 1 for row, o in zip(g, opt))
    d1 = (f"feasible α with a non-support token: {bad[:4]}" if bad else "every feasible α: all tokens support") + \
         (f"; no certified answer for {undecided}" if undecided else "")
    d2 = f"B.2 {'holds' if b2 else 'fails'} (exact scores {[[str(x) for x in r] for r in g]}), n = {data.n}"
    if part == "i":
        out.hypotheses.append(Hypothesis("(i) every non-selected token is a support index, for every feasible α",
                                         h1, d1))
    elif part == "ii":
        if require_b2:
            out.hypotheses.append(Hypothesis("(ii) B.2: equal non-optimal scores", b2, d2))
        if require_n1:
            out.hypotheses.append(Hypothesis("(ii) n = 1", data.n == 1, f"n = {data.n}"))
    else:
        h2 = (b2 or not require_b2) and (data.n == 1 or not require_n1)
        out.hypotheses.append(Hypothesis("(i) all tokens support indices for every feasible α, or (ii) B.2 with n = 1",
                                         _or(h1, h2), f"(i): {d1}; (ii): {d2}"))
    if not require_n1 or not require_b2:
        out.notes.append("a hypothesis of (ii) is NOT required here (the false case): " + d2)
    if not out.applicable():
        return out
    only = Tally("α locally optimal ⇒ α = opt, over every α ∈ [T]ⁿ (1 = holds; exact support sets)", "==", 1)
    lmms = []
    for s in sels:
        lo = s.locally_optimal(g)
        if lo:
            lmms.append(s)
        empty = [i for i in range(data.n) if not s.support.get(i)]
        where = (f"α = {s.alpha}: locally optimal, support sets {s.support}" +
                 (f" (𝒯_i = ∅ for i = {empty}: Def. 2 holds vacuously there)" if empty else "")) if lo else f"α = {s.alpha}"
        only.add(arb("nan") if lo is None else int(not lo or s.alpha == opt), where)
    out.add(only.evidence())
    out.add(Evidence("α = opt is locally optimal (γ_i,opt > γ_it at every support index, exact)",
                     bool(by[opt].locally_optimal(g)), "==", True))
    for s in lmms:
        if s.alpha != opt:
            out.add(Evidence(f"corr(W^mm_α, W^mm)² at the spurious LMM α = {s.alpha} (exact)",
                             _corr2(s.result.solution, by[opt].result.solution)))
    n_feas = sum(1 for s in sels if s.feasible)
    out.notes.append(f"{len(sels)} selections, {n_feas} feasible, {len(lmms)} locally optimal: "
                     f"{[s.alpha for s in lmms]}")
    return out


def _corr2(a, b) -> Fraction:
    dot = sum((x * y for x, y in zip(a, b)), Fraction(0))
    return dot * dot / (sum((x * x for x in a), Fraction(0)) * sum((y * y for y in b), Fraction(0)))


def default_datasets(seed: int = 0):
    return [D.acute_pair(), D.b2_obtuse(), D.d_nuc()]


STATEMENT = """\
With unique optimal tokens and W^mm existing: (i) if for every feasible α every non-selected token is a support
index of W^mm_α, then α is locally optimal (Def. 2) iff α = opt; (ii) under B.2 with n = 1, only opt is locally
optimal (talk "Lemma"; DERIVED). For n ≥ 2 B.2 does not suffice: D-T2 has the spurious LMM α = (1,1) (1-indexed),
whose second sequence has no support index.

Certified: every α ∈ [T]ⁿ solved exactly (or proved infeasible), support sets exact.
"""

CLAIM = register(Claim(id="tfsvm.aux.no-spurious-lmm", paper="tfsvm", number="(auxiliary)", kind="identity",
                       title="All tokens support vectors (or B.2 with n = 1) ⇒ the only locally-optimal α is opt",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=(),
                       parameters=(
                           Parameter("α", "every α ∈ [T]ⁿ", "hardest",
                                     "exhaustive: every α ∈ [T]ⁿ solved exactly or proved infeasible (Tⁿ ≤ 64 "
                                     "required), so the hardest α is among them"),)))
