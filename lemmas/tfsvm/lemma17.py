"""tfsvm Lemma 17 — a rank lemma behind Theorems 1 and 8 (v1 App. E).

Statement. Let A ∈ ℝ^{n×p} have full row rank, B ∈ ℝ^{m×p}, n + m ≤ p, and P ⊆ null(A) a subspace such that the
rows of B projected onto P are linearly independent. Then [A; B] has full row rank n + m.
(Proof: if aᵀA + bᵀB = 0, projecting onto P ⊆ null(A) kills aᵀA, so bᵀ(B Π_P) = 0, b = 0, then a = 0.)
Hypotheses, per instance, all exact: A full row rank; n + m ≤ p; P ⊆ null(A) (A·basis(P) = 0); the projected
rows B Π_P (Π_P = U(UᵀU)⁻¹Uᵀ for an exact basis U of P) have rank m.
How it is checked, exact rationals throughout. The dataset's own instance — A = the Att-SVM(opt) constraint
rows (x_i,opt − x_it) ⊗ z_i of sequences 1..n−1, B = those of sequence n, P = null(A), p = d² — decides the
hypotheses (not met → NOT_APPLICABLE) and is the first point; then 60 seeded random instances (p ≤ 6, entries
in −3..3, P spanned by random combinations of a null-space basis of A), those meeting the hypotheses counted.
Deciding: a Tally "rank [A; B] = n + m" over every instance meeting the hypotheses.
False cases (tests): dropping P ⊆ null(A) (P = ℝ^p and B = rows of A: B Π_P = B has full rank, [A; B] does not)
→ VIOLATED; a dataset whose first sequences' rows are dependent (A not of full row rank) → NOT_APPLICABLE.
"""
from __future__ import annotations

import random
from fractions import Fraction

from verify.claims import Claim, Hypothesis, Outcome, Tally, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.geometry.tfsvm import difference_rows, null_basis
from verify.numbers.exact import fmpq_matrix, rank, to_fraction

INSTANCES = 60


def projected(B, U):
    """Rows of B projected onto span(U) (U: spanning rows), exactly: B Uᵀ(UUᵀ)⁻¹U with U reduced to a basis."""
    if not B:
        return []
    U = [u for u in U if any(u)]
    if not U:
        return [[Fraction(0)] * len(B[0]) for _ in B]
    R, r = fmpq_matrix(U).rref()  # a basis of span(U): the nonzero rows of its rref
    Um, Bm = fmpq_matrix([[to_fraction(R[i, j]) for j in range(R.ncols())] for i in range(r)]), fmpq_matrix(B)
    M = Bm * Um.transpose() * (Um * Um.transpose()).inv() * Um
    return [[to_fraction(M[i, j]) for j in range(M.ncols())] for i in range(M.nrows())]


def hypotheses(A, B, U, p, inside_null: bool = True):
    """(list of (name, met, detail)) for one instance."""
    out = [("A has full row rank", (rank(A) if A else 0) == len(A), f"rank A = {rank(A) if A else 0}, n = {len(A)}"),
           ("n + m ≤ p", len(A) + len(B) <= p, f"n + m = {len(A) + len(B)}, p = {p}")]
    if inside_null:
        out.append(("P ⊆ null(A)", all(sum((a * u for a, u in zip(row, vec)), Fraction(0)) == 0 for row in A for vec in U),
                    f"dim P = {len(U)}"))
    PB = projected(B, U)
    out.append(("rows of B projected onto P independent", (rank(PB) if PB else 0) == len(B), f"m = {len(B)}"))
    return out


def full_rank(A, B) -> bool:
    rows = list(A) + list(B)
    return (rank(rows) if rows else 0) == len(rows)


def evaluate(data, prec, inside_null: bool = True, instances: int = INSTANCES) -> Outcome:
    """``inside_null=False``: P = ℝ^p and B = rows of A in the random instances (the false case)."""
    p = data.d ** 2
    rows = difference_rows(data, tuple(o[0] for o in data.optimal_tokens()))
    per = data.T - 1
    A, B = [list(r) for r in rows[:-per]], [list(r) for r in rows[-per:]]
    U = null_basis(A, p) if A else null_basis([], p)
    out = Outcome(hypotheses=[Hypothesis(f"dataset instance: {name}", met, detail)
                              for name, met, detail in hypotheses(A, B, U, p)])
    if not out.applicable():
        return out
    tally = Tally("rank [A; B] = n + m, exact, over the instances meeting the hypotheses", "==", True)
    tally.add(full_rank(A, B), f"the dataset's constraint rows (n = {len(A)}, m = {len(B)}, p = {p})")
    rng, skipped = random.Random(17), 0
    for k in range(instances):
        q = rng.randint(2, 6)
        n = rng.randint(1, q - 1)
        A = [[Fraction(rng.randint(-3, 3)) for _ in range(q)] for _ in range(n)]
        if inside_null:
            m = rng.randint(1, q - n)
            N = null_basis(A, q)
            coefs = [[Fraction(rng.randint(-2, 2)) for _ in N] for _ in range(rng.randint(m, len(N)) if N else 0)]
            U = [[sum((c * v[j] for c, v in zip(cs, N)), Fraction(0)) for j in range(q)] for cs in coefs]
            U = [u for u in U if any(u)]
            B = [[Fraction(rng.randint(-3, 3)) for _ in range(q)] for _ in range(m)]
        else:
            B = [list(r) for r in A[:max(1, min(len(A), q - n))]]
            U = [[Fraction(int(i == j)) for j in range(q)] for i in range(q)]
        if not all(met for _, met, _ in hypotheses(A, B, U, q, inside_null)):
            skipped += 1
            continue
        tally.add(full_rank(A, B), f"instance {k} (p = {q}, n = {n}, m = {len(B)})")
    out.add(tally.evidence(f"{skipped} of {instances} random instances did not meet the hypotheses"
                           + ("" if inside_null else "; P ⊆ null(A) NOT required (P = ℝ^p, B = rows of A)")))
    out.cover(f"(A, B, P): the dataset's instance and the {instances - skipped} of {instances} seeded random instances "
              "meeting the hypotheses (p ≤ 6, entries in −3..3)")
    return out


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.d_lmm(), D.lemma4_cross(), D.d_nuc()]


STATEMENT = """\
A full row rank, n + m ≤ p, P ⊆ null(A) with the rows of B projected onto P independent ⇒ [A; B] has full row
rank (v1 App. E, Lemma 17). Checked exactly on the dataset's Att-SVM constraint rows and on seeded random instances.
"""

CLAIM = register(Claim(id="tfsvm.lemma17", paper="tfsvm", number="Lemma 17", kind="identity",
                       title="Rank lemma: [A; B] has full row rank when B projected onto P ⊆ null(A) does",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("rank-lemma",),
                       parameters=(
                           Parameter("A, B, P", "every A, B, P meeting the hypotheses", "range",
                                     "the dataset's own instance (its Att-SVM constraint rows) and `instances` = 60 "
                                     "seeded random instances (named in the verdict)",
                                     option="instances", kind="integer", low=0, high=10000),)))
