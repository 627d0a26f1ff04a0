"""(ATT-SVM') of mmts App. D — several optimal tokens per input — solved exactly as a finite union of convex QPs.

Given optimal sets O_i ⊂ [T] (Ō_i = [T] ∖ O_i),

    P^mm := argmin_p ‖p‖  s.t.  max_{α∈O_i} (k_iα − k_it)ᵀp ≥ 1  for all t ∈ Ō_i, i ∈ [n]        (ATT-SVM')

The feasible set is the union over the choices α = (α_i) ∈ Π_i O_i of the polyhedra
{p : (k_{iα_i} − k_it)ᵀp ≥ 1, t ∈ Ō_i} (the max over O_i is attained by some α_i), so the problem is the minimum
over α of one ATT-SVM-type QP each (rows k_{iα_i} − k_it for t ∈ Ō_i only: the other optimal tokens carry no
constraint). Each QP goes through ``solve_svm`` (exact rational solve, certificate, or a verified Farkas
certificate); the norms ‖p^mm(α)‖² are exact rationals and compared exactly; the solution set P^mm is the set of
distinct minimisers (non-convex when some |O_i| ≥ 2: mmts's tie example has P^mm = {(1,0), (−1,0)}).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb

from verify.errors import DataError
from verify.numbers.precision import to_arb, working_precision
from verify.svm.problems import Problem
from verify.svm.solve import solve_svm

#: Above this many choices α ∈ Π O_i the enumeration is refused (one exact QP each).
MAX_CHOICES = 4096


def prime_problem(dataset, optimal_sets, alpha) -> Problem:
    """The convex piece of (ATT-SVM') for the choice α: rows k_{iα_i} − k_it (t ∈ Ō_i), right-hand side 1."""
    keys = dataset.keys()
    rows, rhs, index = [], [], []
    for i, (O, a) in enumerate(zip(optimal_sets, alpha)):
        for t in range(dataset.T):
            if t not in O:
                rows.append(tuple(x - y for x, y in zip(keys[i][a], keys[i][t])))
                rhs.append(Fraction(1))
                index.append((i, t))
    return Problem("p", "l2", tuple(rows), tuple(rhs), tuple(index), tuple(alpha), (len(keys[0][0]),))


@dataclass
class PrimeResult:
    """(ATT-SVM') answer: ``status`` "optimal" (``solutions`` = P^mm, exact Fractions; ``norm2`` = ‖p^mm‖²),
    "infeasible" (every piece has a verified Farkas certificate), "vacuous" (no constraint: every O_i = [T]) or
    "unknown" (some piece has no certified answer)."""

    status: str
    optimal_sets: tuple
    pieces: list = field(default_factory=list)   # (α, SVMResult) for every choice
    solutions: list = field(default_factory=list)
    minimisers: list = field(default_factory=list)  # the α attaining the minimum (one per solution, first found)
    norm2: Fraction | None = None

    def summary(self) -> str:
        feas = [a for a, r in self.pieces if r.status == "optimal"]
        if self.status != "optimal":
            return f"(ATT-SVM') {self.status}: {len(self.pieces)} choice(s) α, {len(feas)} feasible"
        sols = "; ".join("(" + ", ".join(str(x) for x in s) + ")" for s in self.solutions)
        return (f"(ATT-SVM'): {len(self.pieces)} choice(s) α ∈ Π O_i, {len(feas)} feasible; ‖p^mm‖² = {self.norm2} "
                f"(exact); P^mm = {{{sols}}} (attained by α = {[list(a) for a in self.minimisers]})")


def solve_att_svm_prime(dataset, optimal_sets, dps: int = 60) -> PrimeResult:
    """Solve (ATT-SVM') exactly for the optimal sets ``optimal_sets`` (one iterable of 0-based tokens per input)."""
    sets = tuple(tuple(sorted(set(int(t) for t in O))) for O in optimal_sets)
    if len(sets) != dataset.n or any(not O for O in sets) or any(not 0 <= t < dataset.T for O in sets for t in O):
        raise DataError("optimal sets: one non-empty set of token indices in 0..T−1 per input")
    if all(len(O) == dataset.T for O in sets):
        return PrimeResult("vacuous", sets)
    count = 1
    for O in sets:
        count *= len(O)
    if count > MAX_CHOICES:
        raise DataError(f"(ATT-SVM') has {count} choices α ∈ Π O_i; at most {MAX_CHOICES} are enumerated")
    pieces = [(alpha, solve_svm(prime_problem(dataset, sets, alpha), dps=dps, check_unique=False))
              for alpha in itertools.product(*sets)]
    if any(r.status == "unknown" for _, r in pieces):
        return PrimeResult("unknown", sets, pieces)
    feasible = [(a, r) for a, r in pieces if r.status == "optimal"]
    if not feasible:
        return PrimeResult("infeasible", sets, pieces)
    norms = [(a, r, sum((Fraction(x) ** 2 for x in r.solution), Fraction(0))) for a, r in feasible]
    best = min(n2 for _, _, n2 in norms)
    sols, mins = [], []
    for a, r, n2 in norms:
        sol = tuple(Fraction(x) for x in r.solution)
        if n2 == best and sol not in sols:
            sols.append(sol)
            mins.append(a)
    return PrimeResult("optimal", sets, pieces, sols, mins, best)


def distance_to_prime_set(direction, result: PrimeResult, dps: int = 60, radius=None) -> arb:
    """min over p ∈ P^mm of ‖u/‖u‖ − p/‖p^mm‖‖ (an arb ball; ‖p^mm‖ is common to all elements); with ``radius`` R,
    of ‖u/R − p/‖p^mm‖‖ instead (mmts Theorem 8's p̄(R)/R, which is not a unit vector when p̄(R) is interior)."""
    if result.status != "optimal":
        raise ValueError(f"(ATT-SVM') has no solution set (status {result.status})")
    with working_precision(dps):
        u = [x if isinstance(x, arb) else to_arb(Fraction(x)) for x in direction]
        scale = sum((x * x for x in u), arb(0)).sqrt() if radius is None else (
            radius if isinstance(radius, arb) else to_arb(Fraction(radius)))
        npm = to_arb(result.norm2).sqrt()
        best = None
        for sol in result.solutions:
            dist = sum(((a / scale - to_arb(c) / npm) ** 2 for a, c in zip(u, sol)), arb(0)).sqrt()
            best = dist if best is None else best.min(dist)
        return best
