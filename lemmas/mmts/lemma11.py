"""mmts Lemma 11 — ATT-SVM(opt) is feasible when v ∈ range(W) (App. B.6, "slightly general restatement").

Statement (spec `mmts.lemma11`, SEED+ / DERIVED): Lemma 2 with "W full rank" replaced by the weaker
v ∈ range(W) (W W^† v = v). If Y_i = 1 and γ_it < γ_{i,opt_i} for all i, t ≠ opt_i, then (ATT-SVM)
with α = opt is feasible; witness p̂ = W^† v / γ_gap, γ_gap = min_i min_{t≠opt_i}(γ_{i,opt_i} − γ_it),
whose margins are (γ_{i,opt} − γ_it)/γ_gap ≥ 1.

Key-level form used by the check (exact rationals; shared code in ``lemmas/mmts/lemma2.py``): the
dataset stores keys K_i = X_i W, not W. "v ∈ range(W) for some W with K = XW" is equivalent to
"the stacked system K p = X v is solvable": ⇒ take p = W^†v; ⇐ if Kp = Xv = XWp then v − Wp ∈ null(X),
and W' = W + (v − Wp)pᵀ/‖p‖² still has K = XW' and W'p = v (p ≠ 0 because some score is nonzero).
So the hypothesis is decided exactly, and p̂ = (min-norm solution of K p = X v)/γ_gap (= W^†v/γ_gap
when W is unique).

UNCERTAIN (spec §7 item 4): the weaker condition is read as v ∈ range(W).

Default datasets: W rank-deficient but v ∈ range(W) — the paper's own W = diag(1,1,0) with a head in
the key plane, and a rank-one W = v vᵀ (one-dimensional keys). False case (spec (ii)): W = diag(1,0),
tokens (0,1) (score 1) and (0,0): identical keys, v ∉ range(W) → NOT_APPLICABLE; with the hypothesis
switched off the exact solver returns a Farkas certificate → VIOLATED.
"""
from __future__ import annotations

from fractions import Fraction

from lemmas.mmts.lemma2 import evaluate
from verify.claims import Claim, register
from verify.data.dataset import Dataset
from verify.numbers.precision import Precision


def check(data, prec: Precision):
    return evaluate(data, prec, "lemma11")


def _keys(X, W):
    return [[[str(sum(Fraction(tok[a]) * Fraction(W[a][b]) for a in range(len(W)))) for b in range(len(W[0]))]
             for tok in seq] for seq in X]


def planar_head_dataset() -> Dataset:
    """d = 3, W = diag(1,1,0) (the paper's key–query product), head v = (1, 1/2, 0) ∈ range(W)."""
    X = [[[1, 0, 5], [0, 1, -2], ["-1/2", "1/2", 0]], [[2, -1, 0], [0, 0, 1], [1, 2, 3]]]
    W = [[1, 0, 0], [0, 1, 0], [0, 0, 0]]
    return Dataset.make(X=X, Y=[1, 1], v=[1, "1/2", 0], K=_keys(X, W), name="W-diag110-v-in-range")


def rank_one_dataset() -> Dataset:
    """d = 2, rank-one W = v vᵀ with v = (1, 2): keys k = v·(vᵀx) are one-dimensional."""
    v = [1, 2]
    W = [[v[a] * v[b] for b in range(2)] for a in range(2)]
    X = [[[1, 1], [0, "1/2"], [-1, 3]], [["1/3", 0], [2, -1], [0, 0]]]
    return Dataset.make(X=X, Y=[1, 1], v=v, K=_keys(X, W), name="W-rank-one-vvT")


def default_datasets(seed: int = 0):
    return [planar_head_dataset(), rank_one_dataset()]


CLAIM = register(Claim(
    id="mmts.lemma11",
    paper="mmts",
    number="Lemma 11",
    title="ATT-SVM(opt) is feasible for positive labels and v ∈ range(W)",
    kind="existential",
    statement=(
        "If for all i and t ≠ opt_i: γ_it < γ_{i,opt_i} and Y_i = 1, and v ∈ range(W), then (ATT-SVM) with "
        "α = opt is feasible, with witness p̂ = W^†v/γ_gap whose margins are all ≥ 1 (App. B.6).\n\n"
        "Checked exactly in rationals at key level: v ∈ range(W) for some W with K = XW ⟺ K p = Xv solvable."
    ),
    check=check,
    default_datasets=default_datasets,
    aliases=("svm-feasible-range",),
    recompute=False,
    module=__name__,
))
