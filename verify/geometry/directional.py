"""Definition 3 of mmts (App. B.5.1): selected tokens, directional margins and neighbours of a direction q, the
directional baseline L_σ, and the general position of keys (§3, Theorem 7's bullets; Lemma 10) — exact.

For a direction q (exact rationals, any positive scale; the unit q̄ = q/‖q‖):

* selected tokens σ_i(q) = argmax_t k_itᵀq (59) (a set; "unique" when every σ_i is a singleton);
* margins m_it = (k_{iσ_i} − k_it)ᵀq for t ≠ σ_i (exact; per unit norm divide by ‖q‖), directional margin
  Θ_q = min m_it / ‖q‖ (60), directional neighbours N(q) = {(i,t) : m_it = min} (61), and the next margin
  (the smallest margin above Θ_q: δ = its gap, Lemma 8 (65), Lemma 9 (70));
* q is neighbour-optimal when γ_{iσ_i} > γ_it for every (i,t) ∈ N(q);
* L_σ = (1/n)Σ_i ℓ(γ_{iσ_i}) = lim_{R→∞} L(Rq̄), and ``baseline_excess`` L(p) − L_σ without cancellation:
  φ_i − γ_{iσ_i} = Σ_{t≠σ_i} s_it(γ_it − γ_{iσ_i}) (exact score differences, softmax in arb), then
  ℓ(γ_σ + x) − ℓ(γ_σ) by the loss's expm1/log1p form (``Loss.excess(γ, −x)``, valid for either sign);
* the leading term: L(Rq̄) − L_σ = e^{−RΘ_q}(c + o(1)) with
  c = (1/n) Σ_{(i,t)∈N(q)} |ℓ'(γ_{iσ_i})| (γ_{iσ_i} − γ_it)           (DERIVED: s_it = e^{−R m_it/‖q‖}(1 + o(1)) for
  t ≠ σ_i, the other tokens' terms are O(e^{−R·min(Θ₂, 2Θ_q)}), ℓ(γ + x) − ℓ(γ) = ℓ'(γ)x + O(x²)); so c ≠ 0 fixes
  the sign of L(Rq̄) − L_σ for every sufficiently large R.

General position (§3, UNCERTAIN item 13 — the reading used): the matrices are the "stars" the proofs of Lemma 10 and
Theorem 7 form, rows k_{iσ_i} − k_it (t ∈ S_i ⊆ [T]∖{σ_i}) with one σ_i per input; keys are in general position when
every such matrix with ≤ d rows has full row rank and every one with d + 1 rows has 𝟙 ∉ range(M) (then so does
every larger one: its (d+1)-row submatrices already exclude 𝟙). A reading over all ordered differences would put
k_t − k_τ and k_τ − k_t in one matrix (rank 1 for two rows), which no key set satisfies. ``neighbour_sets`` decides
for every star with d + 1 rows whether some q has all of them as directional neighbours (exactly: the rank test,
then the exact QP ``min ‖q‖ s.t. those rows = 1, the other rows of the star ≥ 1`` or its Farkas certificate).
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb

from verify.data.dataset import Dataset
from verify.models.attention import features, norm2
from verify.models.losses import get_loss
from verify.numbers.exact import rank
from verify.numbers.precision import g_format, to_arb


def _dot(a, b) -> Fraction:
    return sum((Fraction(x) * Fraction(y) for x, y in zip(a, b)), Fraction(0))


def _short(x) -> str:
    x = Fraction(x)
    return str(x) if len(str(x)) <= 14 else g_format(x, 6)  # its twin in geometry.cones: float(x) overflows past 1e308


@dataclass
class Directional:
    """Definition 3 for one direction q (exact)."""

    q: tuple
    norm_sq: Fraction
    selected: tuple  # σ_i as tuples (several when tied)
    scores: tuple
    margins: dict = field(default_factory=dict)  # (i, t) -> (k_iσ − k_it)ᵀq, t ≠ σ_i (unique selection only)
    theta: Fraction | None = None  # min margin (unnormalised; Θ_q = theta/‖q‖)
    neighbours: tuple = ()
    next_margin: Fraction | None = None  # the smallest margin above theta (unnormalised)

    @property
    def unique(self) -> bool:
        return all(len(s) == 1 for s in self.selected)

    @property
    def sigma(self) -> tuple:
        return tuple(s[0] for s in self.selected)

    @property
    def theta_sq(self) -> Fraction:
        """Θ_q² exactly."""
        return self.theta * self.theta / self.norm_sq

    def gap(self, i, t) -> Fraction:
        """γ_{iσ_i} − γ_it."""
        return self.scores[i][self.sigma[i]] - self.scores[i][t]

    @property
    def neighbour_optimal(self) -> bool:
        return all(self.gap(i, t) > 0 for i, t in self.neighbours)

    @property
    def all_higher(self) -> bool:
        """Every directional neighbour has a strictly higher score than the selected token (Lemma 9)."""
        return all(self.gap(i, t) < 0 for i, t in self.neighbours)

    def describe(self) -> str:
        qs = "(" + ", ".join(_short(x) for x in self.q) + ")"
        if not self.unique:
            return f"q ∝ {qs}: selected tokens tied {[list(s) for s in self.selected]}"
        nb = ", ".join(f"({i},{t}) γ {_short(self.scores[i][t])} vs {_short(self.scores[i][self.sigma[i]])}"
                       for i, t in self.neighbours)
        return (f"q ∝ {qs}: σ = {list(self.sigma)}, Θ_q = {float(self.theta_sq) ** 0.5:.6g}, N(q) = [{nb}]"
                + ("" if self.next_margin is None else
                   f", next margin {float(self.next_margin * self.next_margin / self.norm_sq) ** 0.5:.6g}"))


def directional(data: Dataset, q) -> Directional:
    """Definition 3 for the direction ``q`` (exact rationals)."""
    q = tuple(Fraction(x) for x in q)
    keys = features(data, "p")
    scores = data.scores
    sel = []
    logits = [[_dot(k, q) for k in seq] for seq in keys]
    for a in logits:
        top = max(a)
        sel.append(tuple(t for t, x in enumerate(a) if x == top))
    info = Directional(q, _dot(q, q), tuple(sel), scores)
    if not info.unique:
        return info
    for i, a in enumerate(logits):
        s = info.sigma[i]
        for t in range(len(a)):
            if t != s:
                info.margins[(i, t)] = a[s] - a[t]
    if info.margins:
        vals = sorted(set(info.margins.values()))
        info.theta = vals[0]
        info.next_margin = vals[1] if len(vals) > 1 else None
        info.neighbours = tuple(k for k, m in info.margins.items() if m == info.theta)
    return info


def unit(q) -> list:
    v = [to_arb(x) for x in q]
    n = norm2(v)
    return [x / n for x in v]


def baseline(info: Directional, loss) -> arb:
    """L_σ = (1/n)Σ_i ℓ(γ_{iσ_i})."""
    loss = get_loss(loss)
    return sum((loss.value(to_arb(info.scores[i][s])) for i, s in enumerate(info.sigma)), arb(0)) / len(info.sigma)


def baseline_excess(model, info: Directional, p, loss, states=None) -> arb:
    """L(p) − L_σ without cancellation (see the module docstring)."""
    loss = get_loss(loss)
    states = states or model.states(p)
    total = arb(0)
    for i, (st, s) in enumerate(zip(states, info.sigma)):
        g = info.scores[i][s]
        x = sum((st.s[t] * to_arb(info.scores[i][t] - g) for t in range(len(st.s)) if t != s), arb(0))
        total += loss.excess(to_arb(g), -x)
    return total / len(info.sigma)


def leading_coefficient(info: Directional, loss) -> arb:
    """c with L(Rq̄) − L_σ = e^{−RΘ_q}(c + o(1)) (module docstring)."""
    loss = get_loss(loss)
    return sum((abs(loss.d1(to_arb(info.scores[i][info.sigma[i]]))) * to_arb(info.gap(i, t))
                for i, t in info.neighbours), arb(0)) / len(info.sigma)


# ----- candidate directions --------------------------------------------------------------------------
def candidate_directions(data: Dataset, limit: int = 64, dps: int = 40):
    """Labelled exact directions to test Definition-3 statements on: for every selection α with ATT-SVM(α) feasible
    (Tⁿ ≤ ``limit``), p^mm(α) and p^mm(α) + c·u for the exact directions u ⊥ p^mm(α) of
    ``verify.geometry.cones.cone_directions`` (c = ‖p^mm‖∞/(4‖u‖∞)): max-margin directions and tilted ones
    with smaller margins, selecting the same tokens."""
    from verify.geometry.cones import cone_directions, lmm_geometry

    if data.T ** data.n > limit:
        return []
    out = []
    for alpha in itertools.product(range(data.T), repeat=data.n):
        g = lmm_geometry(data, alpha, dps)
        if not g.feasible:
            continue
        p = g.p_mm
        out.append((f"p^mm(α = {list(alpha)})", p))
        pm = max(abs(x) for x in p)
        for k, u in enumerate(cone_directions(g)):
            c = pm / (4 * max(abs(x) for x in u))
            out.append((f"p^mm(α = {list(alpha)}) tilted along u{k}", tuple(a + c * b for a, b in zip(p, u))))
    return out


# ----- general position (Lemma 10, Theorem 7) -----------------------------------------------------------
def _stars(data: Dataset, size: int):
    """Every star matrix with ``size`` rows once: (σ restricted to the inputs used, ((i, t), …), rows)."""
    keys = features(data, "p")
    seen = set()
    for sigma in itertools.product(range(data.T), repeat=data.n):
        pool = [(i, t) for i in range(data.n) for t in range(data.T) if t != sigma[i]]
        for S in itertools.combinations(pool, size):
            key = frozenset((i, sigma[i], t) for i, t in S)
            if key in seen:
                continue
            seen.add(key)
            rows = [tuple(a - b for a, b in zip(keys[i][sigma[i]], keys[i][t])) for i, t in S]
            yield sigma, S, rows


def general_position(data: Dataset) -> tuple[bool, str]:
    """(met, detail): the reading of the module docstring, decided exactly."""
    d = len(features(data, "p")[0][0])
    count = 0
    for size in range(1, d + 1):
        for sigma, S, rows in _stars(data, size):
            count += 1
            if rank(rows) < size:
                return False, (f"the {size} key differences k_iσ − k_it for (i,t) ∈ {list(S)} (σ = {list(sigma)}) "
                               f"have rank {rank(rows)} < {size}")
    for sigma, S, rows in _stars(data, d + 1):
        count += 1
        if rank([list(r) + [1] for r in rows]) == rank(rows):
            return False, f"𝟙 ∈ range(M) for the {d + 1} rows (i,t) ∈ {list(S)} (σ = {list(sigma)})"
    return True, f"{count} star matrices (≤ {d + 1} rows) checked exactly, d = {d}"


@dataclass
class NeighbourSet:
    """Whether some q has the d + 1 star rows S as directional neighbours (decided exactly)."""

    sigma: tuple
    S: tuple
    realisable: bool
    how: str
    q: tuple | None = None


def neighbour_sets(data: Dataset):
    """For every star with d + 1 rows: realisable as directional neighbours of one q? (module docstring)."""
    from verify.svm.exact import solve_qp_exact

    keys = features(data, "p")
    d = len(keys[0][0])
    for sigma in itertools.product(range(data.T), repeat=data.n):
        pool = [(i, t) for i in range(data.n) for t in range(data.T) if t != sigma[i]]
        rowof = {(i, t): tuple(a - b for a, b in zip(keys[i][sigma[i]], keys[i][t])) for i, t in pool}
        for S in itertools.combinations(pool, d + 1):
            rows = [rowof[k] for k in S]
            if rank([list(r) + [1] for r in rows]) > rank(rows):
                yield NeighbourSet(sigma, S, False, "M q = 𝟙 has no solution (exact rank)")
                continue
            A = [list(r) for r in rows] + [[-x for x in r] for r in rows] + \
                [list(rowof[k]) for k in pool if k not in S]
            b = [Fraction(1)] * len(rows) + [Fraction(-1)] * len(rows) + [Fraction(1)] * (len(pool) - len(S))
            res = solve_qp_exact(A, b)
            if res[0] == "optimal":
                yield NeighbourSet(sigma, S, True, "exact QP: these rows = 1, the others ≥ 1", tuple(res[1]))
            else:
                yield NeighbourSet(sigma, S, False, "exact Farkas certificate: no q with these rows = 1, others ≥ 1")


def general_position_dataset(n: int = 2, T: int = 3, d: int = 2, seed: int = 0, tries: int = 50) -> Dataset:
    """Seeded rational keys in ℝ^d in general position (decided exactly), scores distinct, token = (key, score),
    v = e_{d+1}."""
    rng = random.Random(seed)
    for _ in range(tries):
        K = [[[Fraction(rng.randint(-40, 40), 13) for _ in range(d)] for _ in range(T)] for _ in range(n)]
        scores = [[Fraction(rng.randint(0, 60), 31) for _ in range(T)] for _ in range(n)]
        if any(len(set(s)) < T for s in scores):
            continue
        X = [[k + [s] for k, s in zip(Ki, si)] for Ki, si in zip(K, scores)]
        data = Dataset.make(X=[[[str(x) for x in tok] for tok in seq] for seq in X], Y=[1] * n,
                            v=[0] * d + [1], K=[[[str(x) for x in k] for k in Ki] for Ki in K],
                            name=f"general-position-n{n}T{T}d{d}-s{seed}")
        if general_position(data)[0]:
            return data
    raise RuntimeError("no general-position draw")


def planar(data: Dataset, name: str | None = None) -> Dataset:
    """The same data with the keys' identically zero coordinates dropped (the mmts figures' keys (x₁, x₂, 0) become
    2-D): general position and Definition 3 then refer to the keys' own dimension."""
    keys = features(data, "p")
    keep = [j for j in range(len(keys[0][0])) if any(k[j] != 0 for seq in keys for k in seq)]
    K = [[[str(k[j]) for j in keep] for k in seq] for seq in keys]
    return Dataset.make(X=[[[str(x) for x in tok] for tok in seq] for seq in data.X], Y=list(data.Y),
                        v=[str(x) for x in data.v], K=K, name=name or f"{data.name}-planar")
