"""mmts Lemma 10 — at most d directional neighbours (App. B.5.2).

Statement (SEED+). If the keys are in general position (§3, Theorem 7's bullets), then every unit q has
|N(q)| ≤ d directional neighbours (Definition 3, (61)); d is the dimension of the keys.
Proof: the neighbours satisfy M q = Θ_q 𝟙 with M the stacked key differences k_iσ_i − k_it; with more than d rows,
general position says 𝟙 ∉ range(M).

Hypothesis (computed exactly, ``verify.geometry.directional.general_position``). UNCERTAIN in the spec (item 13):
which matrices the general-position bullets range over. Reading used: the "star" matrices the proof forms — rows
k_iσ_i − k_it with one σ_i per input —, every one with ≤ d rows of full row rank and every one with d + 1 rows
with 𝟙 ∉ range(M). (Over all ordered differences the bullets would contain k_t − k_τ beside k_τ − k_t and no key
set would satisfy them.)

How it is checked (exact, certified): |N(q)| > d for some q means some d + 1 rows of one star are tied at the
directional margin while every other row of the star is at least as large — after scaling, the rows of S equal 1
and the others are ≥ 1. For every σ ∈ [T]ⁿ and every (d+1)-subset S of its star this is decided exactly: first
whether M_S q = 𝟙 is solvable at all (exact rank), then the exact QP min ‖q‖ s.t. M_S q = 1, other rows ≥ 1 (a
solution is a witness q, verified by recomputing N(q) from Definition 3; infeasibility comes with its exact Farkas
certificate). A Tally counts every (σ, S): "realisable" must be 0 everywhere. Larger neighbour sets contain a
(d+1)-subset, so this covers every q (no probe points: the statement is decided for all q).

False cases (tests): the spec's non-general-position keys (d = 2, selected key (0,0), others (−1,−1), (−1,0), (−1,1))
→ NOT_APPLICABLE naming general position; with ``require_general_position=False`` → VIOLATED with the witness
q = (1,0) (|N(q)| = 3 > 2), certified exactly.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Evidence, Hypothesis, Outcome, Tally, register
from verify.claims.registry import Parameter
from verify.data.dataset import Dataset
from verify.geometry.directional import directional, general_position, general_position_dataset, neighbour_sets
from verify.models.attention import features
from verify.numbers.precision import Precision

GENERAL_POSITION = ("keys in general position (every star matrix of key differences k_iσ − k_it with ≤ d rows has "
                    "full row rank; with d + 1 rows, 𝟙 ∉ range(M))")


def evaluate(data, prec: Precision, require_general_position: bool = True) -> Outcome:
    """Lemma 10 on ``data``; ``require_general_position=False``: the bare conclusion (the false case)."""
    met, detail = general_position(data)
    out = Outcome(hypotheses=[Hypothesis(GENERAL_POSITION, met, detail)] if require_general_position else [])
    if not out.applicable():
        return out
    d = len(features(data, "p")[0][0])
    tally = Tally(f"(d+1) = {d + 1} key differences of one star tied as directional neighbours of some q: realisable "
                  "(1) or not (0), over every σ and subset", "==", 0)
    witnesses = []
    for ns in neighbour_sets(data):
        where = f"σ = {list(ns.sigma)}, S = {list(ns.S)}: {ns.how}"
        tally.add(Fraction(int(ns.realisable)), where)
        if ns.realisable and len(witnesses) < 3:
            witnesses.append(directional(data, ns.q))
    rows = data.n * (data.T - 1)  # N(q) ⊆ {(i, t) : t ≠ σ_i}: at most n(T − 1) neighbours for every q
    if rows <= d:  # no star has d + 1 rows: the bound holds for every q by counting, exactly
        out.add(Evidence("|N(q)| ≤ n(T − 1) (a neighbour is a non-selected token) — no star has d + 1 rows", rows,
                         "<=", d, note=f"n(T − 1) = {data.n}·{data.T - 1} = {rows} ≤ d = {d}: true for every q"))
    else:
        out.add(tally.evidence(f"{tally.coverage.points} (σ, S) pairs decided exactly"))
    for w in witnesses:
        out.add(Evidence(f"|N(q)| at the witness q ∝ ({', '.join(str(x) for x in w.q)})", len(w.neighbours), "<=", d,
                         note=w.describe() + " (Definition 3, recomputed exactly)"))
    out.add(Evidence("d (dimension of the keys)", d))
    if not require_general_position and not met:
        out.notes.append(f"general position fails: {detail}; the bare conclusion is tested")
    out.cover("every unit q (every neighbour set of size d + 1 decided exactly)")
    return out


def non_general_position() -> Dataset:
    """The spec's false case: d = 2, selected key (0,0), others (−1,−1), (−1,0), (−1,1) (all at margin 1 along (1,0))."""
    return Dataset.make(X=[[[0, 0, 1], [-1, -1, 0], [-1, 0, "1/2"], [-1, 1, "1/4"]]], Y=[1], v=[0, 0, 1],
                        K=[[[0, 0], [-1, -1], [-1, 0], [-1, 1]]], name="lemma10-not-general-position")


def default_datasets(seed: int = 0):
    return [general_position_dataset(n=1, T=4, d=2, seed=seed), general_position_dataset(n=2, T=3, d=2, seed=seed),
            general_position_dataset(n=2, T=3, d=3, seed=seed)]


STATEMENT = """\
If the keys are in general position, every unit q has at most d directional neighbours: |N(q)| ≤ d (App. B.5.2).

Decided exactly for every q: every (σ, S) with |S| = d + 1 rows of one star is shown not realisable as a set of tied
directional neighbours (exact rank, then an exact QP or its Farkas certificate).
"""

CLAIM = register(Claim(id="mmts.lemma10", paper="mmts", number="Lemma 10", kind="inequality",
                       title="At most d directional neighbours for keys in general position", statement=STATEMENT,
                       check=evaluate, default_datasets=default_datasets, aliases=("at-most-d-neighbours",),
                       default_precision=30,
                       parameters=(Parameter("q", "every unit q", "hardest",
                                             "decided for every q at once: every set of d + 1 rows of every star "
                                             "(σ ∈ [T]ⁿ) shown not realisable as tied directional neighbours, "
                                             "exactly"),)))
