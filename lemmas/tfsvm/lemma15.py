"""tfsvm Lemma 15 — the (K,Q) regularisation path is the nuclear-norm path on W (v1 App. D).

Statement. For K, Q ∈ ℝ^{d×m}:
  (a) ‖W‖_⋆ = min{½(‖K‖_F² + ‖Q‖_F²) : KQᵀ = W} for rank W ≤ m, attained at K = U_mΣ_m^{1/2}, Q = V_mΣ_m^{1/2};
  (b) ‖KQᵀ‖_⋆ ≤ ½(‖K‖_F² + ‖Q‖_F²) for all K, Q;
  (c) hence (KQ-RP) min{L(KQᵀ) : ‖K‖²+‖Q‖² ≤ 2R} and min{L(W) : rank W ≤ m, ‖W‖_⋆ ≤ R} have the same value and
      each solution maps to one of the other: (K,Q) ↦ KQᵀ (rank ≤ m, ‖KQᵀ‖_⋆ ≤ R by (b)) and W ↦ (U_mΣ_m^{1/2},
      V_mΣ_m^{1/2}) (‖K‖²+‖Q‖² = 2‖W‖_⋆ ≤ 2R by (a)), with L(KQᵀ) = L(W).
Hypothesis. rank W ≤ m for the W mapped (else no factorisation with m columns exists; exact rank).
How it is checked. (a) at seeded rational W = ABᵀ (A, B ∈ ℚ^{d×m}, m = 1 and d) and adversarial W (0, rank one,
condition 10³⁰, scale 10⁶): the factors come from an mpmath SVD at the working precision (a proposal), then in arb
‖KQᵀ − W‖_F and ½(‖K‖²+‖Q‖²) − ‖W‖_⋆ are enclosed, ‖W‖_⋆ by certified bounds (``verify.svm.spectral.
nuclear_bounds``: the lower one is the dual certificate ⟨UVᵀ, W⟩/‖UVᵀ‖₂); both residuals ≤ 10^-dps·max(1, ‖W‖_F).
(b) at seeded rational (K, Q) and adversarial pairs (balanced and rotated-balanced factors: equality; unbalanced
c·K, Q/c; KQᵀ = 0): ½(‖K‖²+‖Q‖²) − ‖KQᵀ‖_⋆ ≥ −10^-dps·scale (upper nuclear bound). (c) on the data's loss
(logistic): for each W above with budget R = its nuclear upper bound, ‖K‖²+‖Q‖² ≤ 2R and L(KQᵀ) = L(W) (residuals);
for each (K, Q) with R = ½(‖K‖²+‖Q‖²), rank KQᵀ ≤ m (exact) and ‖KQᵀ‖_⋆ ≤ R. All Tallies, certified.
False cases (tests): m < rank W with the rank hypothesis dropped — the truncated factors miss W (‖KQᵀ − W‖_F =
σ_{m+1}) → VIOLATED; with it → NOT_APPLICABLE; the budget pitfall ‖K‖²+‖Q‖² ≤ R (``budget_factor=1``) → VIOLATED.
"""
from __future__ import annotations

import random
from fractions import Fraction

from flint import arb, arb_mat

from verify.claims import Claim, Hypothesis, Outcome, Tally, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.generators import random_dataset
from verify.geometry.tfsvm_svm import as_arb_mat, balanced_factors, fro2
from verify.models.attention import LinearLogitModel
from verify.numbers.exact import rank
from verify.numbers.linalg import norm_enclosure
from verify.numbers.precision import Precision, to_arb
from verify.svm.spectral import nuclear_bounds


def _rand(rng, r, c):
    return [[Fraction(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(c)] for _ in range(r)]


def _mul(A, B):
    return [[sum((a * b for a, b in zip(row, col)), Fraction(0)) for col in zip(*B)] for row in A]


def _t(A):
    return [list(c) for c in zip(*A)]


def matrices(d: int, m: int, seed: int = 0):
    """(name, W) with rank W ≤ m: seeded products ABᵀ and the adversarial ones."""
    rng = random.Random(seed)
    out = [(f"ABᵀ #{k}, m = {m}", _mul(_rand(rng, d, m), _t(_rand(rng, d, m)))) for k in range(3)]
    u, v = _rand(rng, d, 1), _rand(rng, d, 1)
    out += [("0", [[Fraction(0)] * d for _ in range(d)]), ("rank one uvᵀ", _mul(u, _t(v))),
            ("10⁶·uvᵀ", [[10**6 * x for x in r] for r in _mul(u, _t(v))])]
    if m >= 2 and d >= 2:
        diag = {0: Fraction(1), 1: Fraction(1, 10**30)}
        out.append(("diag(1, 10⁻³⁰, 0…)", [[diag.get(a, Fraction(0)) if a == b else Fraction(0) for b in range(d)]
                                           for a in range(d)]))
    return out


def pairs(d: int, m: int, seed: int = 1):
    """(name, K, Q) d×m: seeded rational pairs and the adversarial ones."""
    rng = random.Random(seed)
    out = [(f"random #{k}, m = {m}", _rand(rng, d, m), _rand(rng, d, m)) for k in range(3)]
    K, Q = _rand(rng, d, m), _rand(rng, d, m)
    out.append(("c·K, Q/c, c = 10³", [[1000 * x for x in r] for r in K], [[x / 1000 for x in r] for r in Q]))
    if m >= 2:
        a, b = _rand(rng, d, 1), _rand(rng, d, 1)
        out.append(("K = [a, a], Q = [b, −b] (KQᵀ = 0)", [[r[0]] * 2 + [0] * (m - 2) for r in a],
                    [[r[0], -r[0]] + [0] * (m - 2) for r in b]))
    return out


def evaluate(data, prec: Precision, ms=None, extra=(), require_rank: bool = True, budget_factor: int = 2) -> Outcome:
    """``ms``: the widths m (default 1 and d); ``extra``: further (name, W, m) to map; ``budget_factor``: the
    (KQ-RP) budget ‖K‖² + ‖Q‖² ≤ budget_factor·R (2 in v1)."""
    d = data.d
    ms = sorted({1, d}) if ms is None else list(ms)
    jobs = [(nm, W, m) for m in ms for nm, W in matrices(d, m)] + [tuple(x) for x in extra]
    too_big = [(nm, rank(W), m) for nm, W, m in jobs if rank(W) > m]
    hyp = Hypothesis("rank W ≤ m for every W mapped (a factorisation with m columns exists)", not too_big,
                     f"rank W > m at {too_big[:3]}" if too_big else f"{len(jobs)} matrices, exact ranks ≤ m")
    out = Outcome(hypotheses=[hyp] if require_rank else [])
    if not require_rank and too_big:
        out.notes.append(f"the rank hypothesis is NOT required (the false case): {hyp.detail}")
    if not out.applicable():
        return out
    tol = prec.tolerance
    model = LinearLogitModel.from_dataset(data, "W", "logistic")
    fact = Tally("(a) ‖U_mΣ_m^{1/2}(V_mΣ_m^{1/2})ᵀ − W‖_F ≈ 0 (the factorisation)", "<=", residual=True)
    ident = Tally("(a) ½(‖K‖²+‖Q‖²) − ‖W‖_⋆ ≈ 0 at K = U_mΣ_m^{1/2}, Q = V_mΣ_m^{1/2}", "<=", residual=True)
    budget = Tally(f"(c) W ↦ (K,Q): ‖K‖²+‖Q‖² ≤ {budget_factor}R, R ≥ ‖W‖_⋆ (its certified upper bound)", "<=")
    same = Tally("(c) L(KQᵀ) = L(W) at the mapped factors (logistic)", "<=", residual=True)
    for nm, W, m in jobs:
        Wa = as_arb_mat(W)
        scale = max(arb(1), fro2(Wa).sqrt())
        K, Q = balanced_factors(Wa, m)
        P = K * Q.transpose()
        lo, up = nuclear_bounds(Wa)
        half = (fro2(K) + fro2(Q)) / 2
        where = f"W = {nm} (m = {m})"
        fact.add(norm_enclosure((P - Wa).entries()), where, bound=tol * scale)
        ident.add(half - arb_interval(lo, up), where, bound=tol * scale)
        budget.add(2 * half - budget_factor * up, where, bound=tol * scale)
        same.add(model.loss_value(P.entries()) - model.loss_value([to_arb(x) for r in W for x in r]), where,
                 bound=tol * scale)
    out.add(fact.evidence(), ident.evidence(), budget.evidence(), same.evidence())
    ineq = Tally("(b) ½(‖K‖²+‖Q‖²) − ‖KQᵀ‖_⋆ ≥ 0 (upper nuclear bound) at seeded and unbalanced (K, Q); with "
                 "R = ½(‖K‖²+‖Q‖²) this is (c)'s ‖KQᵀ‖_⋆ ≤ R", ">=", 0)
    equal = Tally("(b) at balanced factors, where it is an equality: |½(‖K‖²+‖Q‖²) − ‖KQᵀ‖_⋆| ≈ 0", "<=",
                  residual=True)
    back = Tally("(c) (K,Q) ↦ KQᵀ: rank KQᵀ ≤ m (exact)", "==", True)
    for m in ms:
        cands = pairs(d, m)
        for nm, K, Q in cands:
            back.add(rank(_mul(K, _t(Q))) <= m, f"(K, Q) = {nm}")
        Kb, Qb = balanced_factors(as_arb_mat(matrices(d, m)[0][1]), m)
        for nm, K, Q in cands:
            K, Q = as_arb_mat(K), as_arb_mat(Q)
            _, up = nuclear_bounds(K * Q.transpose())
            ineq.add((fro2(K) + fro2(Q)) / 2 - up, f"(K, Q) = {nm}, m = {m}")
        for nm, K, Q in (("balanced factors of ABᵀ #0", Kb, Qb),
                         ("rotated balanced factors (K·R, Q·R, R orthogonal)", Kb * rotation(m), Qb * rotation(m))):
            half = (fro2(K) + fro2(Q)) / 2
            lo, up = nuclear_bounds(K * Q.transpose())
            equal.add(half - arb_interval(lo, up), f"(K, Q) = {nm}, m = {m}", bound=tol * max(arb(1), half))
    out.add(ineq.evidence(), equal.evidence(), back.evidence())
    out.cover(f"m ∈ {{{', '.join(map(str, ms))}}}; W at {len(jobs)} matrices (seeded ABᵀ and adversarial ones); (K, Q) "
              f"at {sum(len(pairs(d, m)) + 2 for m in ms)} pairs (seeded, unbalanced, KQᵀ = 0, balanced and rotated)")
    return out


def arb_interval(lo: arb, up: arb) -> arb:
    """The ball [lo, up]."""
    return (lo + up) / 2 + arb(0, ((up - lo) / 2).upper())


def rotation(m: int) -> arb_mat:
    """An exact orthogonal m×m matrix: the rotation (3/5, 4/5) in the first two coordinates (identity if m = 1)."""
    R = [[Fraction(int(a == b)) for b in range(m)] for a in range(m)]
    if m >= 2:
        R[0][0], R[0][1], R[1][0], R[1][1] = Fraction(3, 5), Fraction(-4, 5), Fraction(4, 5), Fraction(3, 5)
    return as_arb_mat(R)


def default_datasets(seed: int = 0):
    return [D.d_nuc(), D.d_t2(), random_dataset(n=2, T=3, d=3, seed=seed, queries=True, name=f"random-n2T3d3-z-s{seed}")]


STATEMENT = """\
‖W‖_⋆ = min{½(‖K‖²+‖Q‖²) : KQᵀ = W} (rank W ≤ m), attained at K = U_mΣ_m^{1/2}, Q = V_mΣ_m^{1/2}; ‖KQᵀ‖_⋆ ≤
½(‖K‖²+‖Q‖²); hence (KQ-RP) with budget ‖K‖²+‖Q‖² ≤ 2R and min{L(W) : rank W ≤ m, ‖W‖_⋆ ≤ R} have equal values
and map onto each other (v1 App. D).

Certified at seeded and adversarial W and (K, Q): the SVD factors in arb, ‖·‖_⋆ by certified bounds, the maps'
budgets and L(KQᵀ) = L(W) on the data's loss.
"""

CLAIM = register(Claim(id="tfsvm.lemma15", paper="tfsvm", number="Lemma 15", kind="identity",
                       title="(K,Q)-RP ≡ nuclear-norm RP: ‖W‖_⋆ = min ½(‖K‖²+‖Q‖²) over KQᵀ = W",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("kq-nuclear-identity", "nuclear-variational"),
                       parameters=(
                           Parameter("m", "for every width m", "range", "m ∈ {1, d} (named in the verdict)"),
                           Parameter("W", "(a), (c) every W with rank W ≤ m", "range",
                                     "3 seeded products ABᵀ per m, 0, a rank-one uvᵀ, 10⁶·uvᵀ and diag(1, 10⁻³⁰, 0…) "
                                     "(named in the verdict)"),
                           Parameter("K, Q", "(b), (c) for all K, Q ∈ ℝ^{d×m}", "range",
                                     "3 seeded pairs per m, an unbalanced one (c·K, Q/c), KQᵀ = 0, balanced and "
                                     "rotated-balanced factors (named in the verdict)"))))
