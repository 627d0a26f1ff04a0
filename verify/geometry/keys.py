"""The key–query matrix W behind a dataset's keys, exactly: K_i = X_i W, the fixed query u of mmts
Lemma 1, and the ATT-SVM feasibility witness p̂ = W^†v/γ_gap of mmts Lemmas 2 and 11.

A ``Dataset`` stores keys, not W. A W with K = XW (X, K stacked over all tokens) exists iff
rank[X | K] = rank X; it is unique iff X has full column rank d; otherwise it is fixed on the row
space of X (the minimum-norm part X⁺K, of rank = rank K) and free on the null space of X. Everything
here is exact rational arithmetic (``verify.numbers.exact``).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from verify.data.dataset import Dataset
from verify.models.attention import features
from verify.numbers.exact import min_norm_solution, rank
from verify.svm import solve_svm


def stacked(data: Dataset):
    """(X, K): the tokens and the keys of every sequence stacked as rows (Fractions)."""
    return [list(row) for seq in data.X for row in seq], [list(row) for seq in data.keys() for row in seq]


@dataclass(frozen=True)
class WStructure:
    """Exact facts about the W with K_i = X_i W: does one exist, is it unique, does one of rank d exist."""

    exists: bool
    identified: bool
    full_rank: bool  # some W with K = XW has rank d (so W W^† = I and every v is in its range)
    rank_X: int
    rank_K: int
    detail: str


def w_structure(data: Dataset) -> WStructure:
    X, K = stacked(data)
    d, dk = data.d, len(K[0])
    rX, rK = rank(X), rank(K)
    if data.K is None:
        return WStructure(True, True, True, rX, rK, "no keys given: W = I (full rank)")
    rXK = rank([x + k for x, k in zip(X, K)])
    if rXK != rX:
        return WStructure(False, False, False, rX, rK,
                          f"keys are not a linear image of the tokens: rank[X|K] = {rXK} > rank X = {rX}")
    # rank W = d needs d_k ≥ d; W = X⁺K + (free part on null X) reaches rank d iff rank K = rank X
    full = dk >= d and rK == rX
    if rX == d:
        detail = f"W unique (X has full column rank {d}); rank W = rank K = {rK}, d = {d}, d_k = {dk}"
    else:
        detail = (f"W not unique (rank X = {rX} < d = {d}); a W of rank d with K = XW "
                  f"{'exists' if full else 'does not exist'} (rank K = {rK}, d_k = {dk})")
    return WStructure(True, rX == d, full, rX, rK, detail)


def unsigned_scores(data: Dataset):
    """vᵀx_it for every stacked token (exact)."""
    return [sum((a * b for a, b in zip(x, data.v)), Fraction(0)) for x in stacked(data)[0]]


def head_in_range(data: Dataset) -> tuple[bool, str]:
    """v ∈ range(W) for some W with K = XW ⟺ the stacked system K p = X v is solvable (⇒: p = W^†v;
    ⇐: Kp = Xv = XWp puts v − Wp in null(X), and W' = W + (v − Wp)pᵀ/‖p‖² has K = XW', W'p = v)."""
    ws = w_structure(data)
    if not ws.exists:
        return False, ws.detail
    if min_norm_solution(stacked(data)[1], unsigned_scores(data)) is None:
        return False, "X v ∉ range(K): no W with K = XW has v in its range"
    return True, "K p = X v is solvable, i.e. v ∈ range(W) for some W with K = XW"


@dataclass(frozen=True)
class Witness:
    """p̂ = p₀/(scale·γ_gap), p₀ the minimum-norm solution of K p = X v (= W^†v when W is unique),
    and its exact ATT-SVM(opt) margins (k_{i,opt} − k_it)ᵀp̂ for every t ≠ opt_i."""

    gap: Fraction
    p_hat: tuple
    margins: dict  # (i, t) -> Fraction


def svm_witness(data: Dataset, gap_scale=1) -> Witness | None:
    """The proof's witness (``gap_scale`` ≠ 1: a wrong one, for tests); None when K p = X v has no
    solution or the optimal tokens are not strict (γ_gap ≤ 0)."""
    p0 = min_norm_solution(stacked(data)[1], unsigned_scores(data))
    if p0 is None:
        return None
    opts = [o[0] for o in data.optimal_tokens()]
    g = data.scores
    gap = min(g[i][opts[i]] - g[i][t] for i in range(data.n) for t in range(data.T) if t != opts[i])
    if gap <= 0:
        return None
    p_hat = tuple(x / (Fraction(gap_scale) * gap) for x in p0)
    return Witness(gap, p_hat, svm_margins(data, p_hat))


def svm_margins(data: Dataset, p) -> dict:
    """(k_{i,opt} − k_it)ᵀp for every i and t ≠ opt_i (exact)."""
    keys, opts = data.keys(), [o[0] for o in data.optimal_tokens()]
    return {(i, t): sum(((a - b) * x for a, b, x in zip(keys[i][opts[i]], keys[i][t], p)), Fraction(0))
            for i in range(data.n) for t in range(data.T) if t != opts[i]}


# ----- mmts Lemma 1: one fixed query u ------------------------------------------------------------
def fixed_query(data: Dataset):
    """(u, source, shared): Lemma 1's fixed query — ``data.u``, else the queries z_i when given (shared
    only when they are all equal), else the first token x_11 — and whether every sequence uses it."""
    if data.u is not None:
        u, source = tuple(data.u), "data.u"
    elif data.z is not None:
        u, source = tuple(data.z[0]), "data.z (z_1)"
    else:
        return tuple(data.X[0][0]), "default u = x_11 (first token of sequence 1)", True
    return u, source, data.z is None or all(tuple(z) == u for z in data.z)


def query_features(data: Dataset, u) -> tuple:
    """F_it = vec(x_it uᵀ) (row-major): ⟨F_it, vec W⟩ = x_itᵀ W u, the W-model with the query u."""
    shared = Dataset(data.X, data.Y, data.v, None, tuple(tuple(u) for _ in data.X), tuple(u), data.name)
    return features(shared, "W")


@dataclass(frozen=True)
class OptFeasibility:
    """ATT-SVM(opt) solved exactly (``result``: its status is certified or "unknown"), the proof's
    witness (None when it does not exist), and the margins of p^mm (None unless solved)."""

    result: object
    witness: Witness | None
    pmm_margins: dict | None

    @property
    def pmm_norm2(self):
        return None if self.pmm_margins is None else sum((x * x for x in self.result.solution), Fraction(0))


def att_svm_opt(data: Dataset, dps: int, gap_scale=1) -> OptFeasibility:
    """ATT-SVM(α = opt) by the exact solver, and the witness p̂ (mmts Lemmas 2 and 11)."""
    res = solve_svm(data, "p", "opt", dps, check_unique=False)
    solved = res.status == "optimal" and res.solution is not None
    return OptFeasibility(res, svm_witness(data, gap_scale), svm_margins(data, res.solution) if solved else None)
