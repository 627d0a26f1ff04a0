"""tfsvm auxiliary fact — an exact feasibility test for Att-SVM (DERIVED here; used around v1 Theorem 1).

Statement. For a selection α ∈ [T]ⁿ:
  (N) (any queries) Att-SVM(α) feasible ⇒ every x_iα_i is strictly separable from its own sequence: some u_i
      has (x_iα_i − x_it)ᵀu_i ≥ 1 ∀ t ≠ α_i (take u_i = W z_i), i.e. x_iα_i ∉ conv{x_it : t ≠ α_i};
  (C) if z_1, …, z_n are linearly independent, the converse holds too: given separators u_i, the W with
      W z_i = u_i (it exists: Z has full row rank) is feasible. So feasibility is n per-sequence LPs.
Hypothesis (for (C)): z_1, …, z_n linearly independent (exact rank; self-attention z_i = x_i1 included).
How it is checked. For α = opt and the other selections (up to 12 in all), each side certified by
``verify.svm``: Att-SVM(α) (kind W) and each sequence's separation problem (kind p on that sequence alone), each
answered only with a passed optimality certificate or a verified Farkas certificate. Deciding Tallies over
the selections: (N) joint feasible ⇒ all sequences separable; (C) joint feasible ⇔ all sequences separable.
An answer without certificate makes its point undecided.
False cases (tests): (C) without the independence hypothesis (``require_independent=False``) on D-STAT
(z = (1), (−1): each sequence separable, jointly infeasible) → VIOLATED; D-STAT with the hypothesis →
NOT_APPLICABLE.
"""
from __future__ import annotations

import itertools

from flint import arb

from verify.claims import Claim, Hypothesis, Outcome, Tally, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.data.generators import random_dataset
from verify.geometry.tfsvm import certified_feasible
from verify.numbers.exact import rank
from verify.svm import solve_svm

MAX_SELECTIONS = 12


def evaluate(data, prec, require_independent: bool = True) -> Outcome:
    n, T = data.n, data.T
    r = rank(data.queries())
    indep = Hypothesis("z_1, …, z_n linearly independent (for the equivalence (C))", r == n, f"rank Z = {r}, n = {n}")
    out = Outcome(hypotheses=[indep] if require_independent else [])
    if not require_independent:
        out.notes.append(f"independence NOT required (the false case): {indep.detail}")
    if not out.applicable():
        return out
    opt = tuple(o[0] for o in data.optimal_tokens())
    sels = [opt] + [a for a in itertools.product(range(T), repeat=n) if a != opt][:MAX_SELECTIONS - 1]
    seqs = [Dataset.make(X=[list(map(list, data.X[i]))], Y=[data.Y[i]], v=list(data.v), name=f"seq{i}")
            for i in range(n)]
    sep_cache = {}
    nec = Tally("(N) Att-SVM(α) feasible ⇒ every x_iα_i strictly separable from its sequence (1 = holds)", "==", 1)
    equiv = Tally("(C) Att-SVM(α) feasible ⇔ every x_iα_i strictly separable (1 = the two sides agree)", "==", 1)
    for alpha in sels:
        joint = certified_feasible(solve_svm(data, "W", alpha, prec.dps, check_unique=False))
        parts = []
        for i, a in enumerate(alpha):
            if (i, a) not in sep_cache:
                sep_cache[(i, a)] = certified_feasible(solve_svm(seqs[i], "p", (a,), prec.dps, check_unique=False))
            parts.append(sep_cache[(i, a)])
        every = False if False in parts else None if None in parts else True
        where = f"α = {alpha}: joint {joint}, per-sequence {parts}"
        nec.add(arb("nan") if joint is None or (joint and every is None) else int(not joint or every), where)
        equiv.add(arb("nan") if joint is None or every is None else int(joint == every), where)
    out.add(nec.evidence(), equiv.evidence())
    out.cover(f"every α ∈ [T]ⁿ ({T ** n})" if len(sels) == T ** n else
              f"α = opt and the first {len(sels) - 1} other of the {T ** n} selections in [T]ⁿ order")
    return out


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.d_lmm(), D.d_nb(), D.d_nuc(), D.hull_middle(),
            random_dataset(n=2, T=3, d=2, seed=seed, name=f"random-n2T3d2-self-s{seed}")]


STATEMENT = """\
Att-SVM(α) feasible ⇒ each x_iα_i is strictly separable from its own sequence; with z_1, …, z_n linearly
independent the converse holds, so feasibility is decided by n per-sequence LPs (DERIVED).

Both sides certified by exact solutions with certificates or verified Farkas certificates, for α = opt and the
other selections (up to 12).
"""

CLAIM = register(Claim(id="tfsvm.aux.feasibility-criterion", paper="tfsvm", number="(auxiliary)", kind="identity",
                       title="Exact feasibility test: per-sequence separability (⇔ when the queries are independent)",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("feasibility-criterion",),
                       parameters=(
                           Parameter("α", "for a selection α ∈ [T]ⁿ", "range",
                                     "α = opt and the other selections in [T]ⁿ order, 12 in all (every α when "
                                     "Tⁿ ≤ 12; named in the verdict)"),)))
