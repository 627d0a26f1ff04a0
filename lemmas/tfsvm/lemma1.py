"""tfsvm Lemma 1 — row space and rank of Att-SVM / Att-SVM⋆ solutions (v1 §2.1, App. A.1).

Statement. Every optimal solution W of (Att-SVM) min ‖W‖_F s.t. (x_iα_i − x_it)ᵀWz_i ≥ 1 (t ≠ α_i), and of
(Att-SVM⋆) (the same with ‖W‖_⋆), has row space ⊂ span{z_i}; hence rank W ≤ n.
Proof idea (v1): W P_Z meets the same constraints (they see W only through Wz_i) and has no larger norm.
DERIVED extras, checked too: the column space lies in span{x_iα_i − x_it} (the same argument on the left),
and the KKT form W = Σ λ_it (x_iα_i − x_it)z_iᵀ with λ ≥ 0 exact.
Hypothesis: Att-SVM(opt) feasible, from its verified certificate (infeasible data has no solution to speak of).
How it is checked. For α = opt and every other selection α ∈ [T]ⁿ (up to 12) whose Att-SVM is feasible, on the
exact rational solution of ``verify.svm`` (certificate passed): W w = 0 for an exact basis of span{z_i}^⊥,
uᵀW = 0 for an exact basis of span{x_iα − x_it}^⊥, rank W ≤ min(n, rank Z) and the KKT sum equals W — all
exact (Tallies over the selections, certified). Att-SVM⋆ (nuclear): its solution is polished, not exact, so
‖W(I − P_Z)‖_F at the polished solution is reported only (informative), for α = opt.
False cases (tests): a "solution" W^mm + u wᵀ with w ⊥ span{z_i} (feasible, larger norm) → VIOLATED (its rows
leave the span and its norm exceeds the certified optimum); D-STAT (infeasible) → NOT_APPLICABLE.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Outcome, Tally, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.generators import random_dataset
from verify.geometry.tfsvm import null_basis
from verify.kit.assumptions import svm_feasible
from verify.numbers.exact import rank
from verify.numbers.precision import Precision, to_arb
from verify.svm import solve_svm

MAX_SELECTIONS = 12


def evaluate(data, prec: Precision, perturb=None, nuclear: bool = True) -> Outcome:
    """``perturb = (u, w)``: check W + u wᵀ instead of each solution W (a wrong "solution", the false case)."""
    res = solve_svm(data, "W", "opt", prec.dps, check_unique=False)
    out = Outcome(hypotheses=[svm_feasible(res, "Att-SVM(opt) feasible (W^mm exists)")])
    if not out.applicable():
        return out
    n, d, Z = data.n, data.d, data.queries()
    z_perp = null_basis(Z, d)
    rz = rank(Z)
    opt = tuple(o[0] for o in data.optimal_tokens())
    sels = [opt] + [a for a in itertools.product(range(data.T), repeat=n) if a != opt][:MAX_SELECTIONS - 1]
    rows_ok = Tally("W w = 0 for every w ⊥ span{z_i} (row space ⊂ span{z_i}), exact, over the feasible selections",
                    "==", True)
    cols_ok = Tally("uᵀW = 0 for every u ⊥ span{x_iα − x_it} (column space, DERIVED), exact", "==", True)
    rank_ok = Tally(f"rank W ≤ min(n, rank Z) = {min(n, rz)}, exact", "==", True)
    kkt_ok = Tally("W = Σ λ_it (x_iα − x_it)z_iᵀ with the exact multipliers λ ≥ 0 (KKT form), exact", "==", True)
    norm_ok = Tally("‖W‖_F² equals the certified optimum (W is a solution), exact", "==", True)
    skipped = 0
    for alpha in sels:
        r = res if alpha == opt else solve_svm(data, "W", alpha, prec.dps, check_unique=False)
        if r.status != "optimal" or not r.exact:
            skipped += 1
            continue
        W = [list(row) for row in r.matrix()]
        opt_sq = sum((x * x for x in r.solution), Fraction(0))
        if perturb is not None:
            u, w = perturb
            W = [[W[a][b] + Fraction(u[a]) * Fraction(w[b]) for b in range(d)] for a in range(d)]
        where = f"α = {alpha}"
        rows_ok.add(all(sum((W[a][b] * v[b] for b in range(d)), Fraction(0)) == 0 for v in z_perp for a in range(d)),
                    where)
        diffs = [[x - y for x, y in zip(data.X[i][alpha[i]], data.X[i][t])] for i in range(n) for t in range(data.T)
                 if t != alpha[i]]
        cols_ok.add(all(sum((v[a] * W[a][b] for a in range(d)), Fraction(0)) == 0
                        for v in null_basis(diffs, d) for b in range(d)), where)
        rank_ok.add(rank(W) <= min(n, rz), where)
        lam = list(r.duals)
        kkt = [[sum((Fraction(lam[j]) * row[a * d + b] for j, row in enumerate(r.problem.rows)), Fraction(0))
                for b in range(d)] for a in range(d)]
        kkt_ok.add(kkt == W and all(Fraction(x) >= 0 for x in lam), where)
        norm_ok.add(sum((x * x for row in W for x in row), Fraction(0)) == opt_sq, where)
    out.add(rows_ok.evidence(), cols_ok.evidence(), rank_ok.evidence(), kkt_ok.evidence(), norm_ok.evidence())
    out.notes.append(f"{len(sels) - skipped} of {len(sels)} selections feasible and solved exactly (opt first)")
    total = data.T ** n
    out.cover(f"every α ∈ [T]ⁿ ({total})" if len(sels) == total else
              f"α = opt and the first {len(sels) - 1} other of the {total} selections in [T]ⁿ order")
    if nuclear:
        nuc = solve_svm(data, "KQ", "opt", prec.dps, check_unique=False)
        if nuc.status == "optimal":
            Wn = nuc.matrix()
            off = sum(((sum((to_arb(Wn[a][b]) * to_arb(v[b]) for b in range(d)), arb(0))) ** 2
                       for v in z_perp for a in range(d)), arb(0))
            out.add(Evidence("Att-SVM⋆ (nuclear), α = opt: Σ_w ‖W w‖² over a basis of span{z_i}^⊥ at the polished "
                             "solution (informative)", off, note=f"certified ‖W‖_⋆ ∈ [{nuc.certificate.lower}, "
                             f"{nuc.certificate.upper}]" if nuc.certificate is not None else ""))
    return out


def low_span():
    """n = 2, T = 3, d = 3, queries spanning a plane (z = e₁, e₂): the row-space inclusion is not vacuous."""
    return random_dataset(n=2, T=3, d=3, seed=4, name="tfsvm-low-span-n2T3d3").replace(
        z=[[1, 0, 0], [0, 1, 0]], name="tfsvm-low-span-n2T3d3")


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.d_lmm(), D.d_nb(), low_span()]


STATEMENT = """\
Every solution of Att-SVM (‖W‖_F) or Att-SVM⋆ (‖W‖_⋆) has row space ⊂ span{z_i}, hence rank ≤ n (v1 §2.1, App. A.1).

Certified on the exact Att-SVM solutions for α = opt and every feasible selection α (up to 12): row space, column
space (DERIVED), rank and the KKT form, all in exact rationals. The nuclear solution is reported, not decided.
"""

CLAIM = register(Claim(id="tfsvm.lemma1", paper="tfsvm", number="Lemma 1", kind="identity",
                       title="Att-SVM / Att-SVM⋆ solutions: row space ⊂ span{z_i}, rank ≤ n",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("svm-rank", "svm-span"),
                       parameters=(
                           Parameter("α", "the solution of Att-SVM(α), for every α", "range",
                                     "α = opt and the other selections in [T]ⁿ order, 12 in all (every α when "
                                     "Tⁿ ≤ 12), the feasible ones checked (named in the verdict)"),)))
