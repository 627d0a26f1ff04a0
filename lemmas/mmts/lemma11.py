"""mmts Lemma 11 — ATT-SVM(opt) is feasible when v ∈ range(W) (App. B.6, "slightly general restatement").

Statement: Lemma 2 with "W full rank" replaced by the weaker v ∈ range(W) (W W^†v = v). If Y_i = 1 and
γ_it < γ_{i,opt_i} for all i, t ≠ opt_i, then (ATT-SVM) with α = opt is feasible; witness
p̂ = W^†v/γ_gap, γ_gap = min_i min_{t≠opt_i}(γ_{i,opt_i} − γ_it), with margins (γ_{i,opt} − γ_it)/γ_gap ≥ 1.

Hypotheses, decided exactly: Y_i = 1, a strict optimal token, and v ∈ range(W) — the dataset stores
keys K_i = X_i W, and "v ∈ range(W) for some W with K = XW" ⟺ "K p = X v is solvable"
(``verify.geometry.keys.head_in_range``, with the proof of the equivalence). Reading DERIVED here: the
weaker condition is v ∈ range(W).

How it is checked (exact rationals): the exact ATT-SVM(opt) solver's verified certificate
(``kit.assumptions.svm_feasible``); the witness p̂ = (min-norm solution of K p = Xv)/γ_gap (= W^†v/γ_gap
when W is unique), its margin ≥ 1 at every constraint (a Tally); ‖p^mm‖² ≤ ‖p̂‖².
Defaults: rank-deficient W with v ∈ range(W) — the paper's W = diag(1,1,0) with a head in the key
plane, and W = v vᵀ (one-dimensional keys). False case: W = diag(1,0), tokens (0,1), (0,0), v = e₂
(identical keys, v ∉ range(W)) → NOT_APPLICABLE; with the hypotheses switched off the solver returns
a Farkas certificate → VIOLATED.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Hypothesis, Outcome, register
from verify.data.dataset import Dataset
from verify.geometry.keys import head_in_range
from verify.kit.feasibility import feasible_with_witness, positive_strict_hypotheses
from verify.numbers.precision import Precision


def evaluate(data: Dataset, prec: Precision, require_hypotheses: bool = True) -> Outcome:
    """Lemma 11 on ``data``; ``require_hypotheses=False`` tests the conclusion on any data with a
    strict optimal token (tests: VIOLATED)."""
    in_range, detail = head_in_range(data)
    hyps = positive_strict_hypotheses(data) + [Hypothesis("v ∈ range(W) (for a W with K_i = X_i W)", in_range, detail)]
    out = Outcome(hypotheses=hyps if require_hypotheses else hyps[1:2])
    if not out.applicable():
        return out
    feasible_with_witness(out, data, prec.dps)
    return out


def _keys(X, W):
    return [[[str(sum(Fraction(tok[a]) * Fraction(W[a][b]) for a in range(len(W)))) for b in range(len(W[0]))]
             for tok in seq] for seq in X]


def planar_head_dataset() -> Dataset:
    """d = 3, W = diag(1,1,0) (the paper's key–query product), head v = (1, 1/2, 0) ∈ range(W)."""
    X = [[[1, 0, 5], [0, 1, -2], ["-1/2", "1/2", 0]], [[2, -1, 0], [0, 0, 1], [1, 2, 3]]]
    return Dataset.make(X=X, Y=[1, 1], v=[1, "1/2", 0], K=_keys(X, [[1, 0, 0], [0, 1, 0], [0, 0, 0]]),
                        name="W-diag110-v-in-range")


def rank_one_dataset() -> Dataset:
    """d = 2, rank-one W = v vᵀ with v = (1, 2): keys k = v·(vᵀx) are one-dimensional."""
    v = [1, 2]
    X = [[[1, 1], [0, "1/2"], [-1, 3]], [["1/3", 0], [2, -1], [0, 0]]]
    return Dataset.make(X=X, Y=[1, 1], v=v, K=_keys(X, [[a * b for b in v] for a in v]), name="W-rank-one-vvT")


STATEMENT = """\
If for all i and t ≠ opt_i: γ_it < γ_{i,opt_i} and Y_i = 1, and v ∈ range(W), then (ATT-SVM) with α = opt is
feasible, with witness p̂ = W^†v/γ_gap whose margins are all ≥ 1 (App. B.6).

Checked exactly in rationals at key level: v ∈ range(W) for some W with K = XW ⟺ K p = Xv solvable; the exact
ATT-SVM's verified certificate, every margin of p̂, and ‖p^mm‖² ≤ ‖p̂‖².
"""

CLAIM = register(Claim(id="mmts.lemma11", paper="mmts", number="Lemma 11", kind="existential",
                       title="ATT-SVM(opt) is feasible for positive labels and v ∈ range(W)", statement=STATEMENT,
                       check=evaluate, default_datasets=(planar_head_dataset, rank_one_dataset),
                       aliases=("svm-feasible-range",), recompute=False,
                       parameters=()))  # the keys (W), labels and head are the data: nothing else quantified
