"""mmts Lemma 2 — (ATT-SVM) is feasible for the optimal tokens when labels are positive (Sec. 2.1).

Statement. Keys k_it = Wᵀx_it (K_i = X_i W), scores γ_it = Y_i vᵀx_it. If for all i and t ≠ opt_i
γ_it < γ_{i,opt_i} (a strict optimal token) and Y_i = 1, and W is full rank, then (ATT-SVM) for α = opt,

    p^mm = argmin ‖p‖  s.t.  (k_{i,opt_i} − k_it)ᵀ p ≥ 1  for all t ≠ opt_i, i ∈ [n],

is feasible. The proof's witness: γ_gap := min_i min_{t≠opt_i}(γ_{i,opt_i} − γ_it) > 0 and
p̂ := W^†v/γ_gap, whose margins are (γ_{i,opt} − γ_it)/γ_gap ≥ 1; hence ‖p^mm‖ ≤ ‖p̂‖.

Hypotheses, decided exactly: Y_i = 1; a strict optimal token; "W full rank": some W with K = XW has
rank d (``geometry.keys.w_structure``; no keys: W = I). DERIVED readings: the second condition as
Y_i = 1 (the only one under which the witness works); full rank as rank d (W W^† = I, the paper's W).

How it is checked — exact rational arithmetic, no rounding:
  * feasibility: the exact ATT-SVM(opt) solver's verified certificate (``kit.assumptions.svm_feasible``:
    optimum certified → True; verified Farkas certificate → False; otherwise undecided → INCONCLUSIVE);
  * the witness p̂ = (min-norm solution of K p = X v)/γ_gap (= W^†v/γ_gap when W is unique): its margin
    ≥ 1 at every constraint (i, t), a Tally of exact rationals;
  * ‖p^mm‖² ≤ ‖p̂‖², exact.
False cases (tests): mixed labels on identical inputs → NOT_APPLICABLE (Y_i = 1 named); with the
hypotheses switched off (``require_hypotheses=False``) the solver returns a Farkas certificate →
VIOLATED; a wrong witness (p̂ scaled by 1/2) → VIOLATED.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Figure, Hypothesis, Outcome, Series, register
from verify.data.dataset import Dataset
from verify.data.generators import random_dataset
from verify.geometry.keys import w_structure
from verify.kit.feasibility import feasible_with_witness, positive_strict_hypotheses
from verify.numbers.precision import Precision


def evaluate(data: Dataset, prec: Precision, require_hypotheses: bool = True, gap_scale=1) -> Outcome:
    """Lemma 2 on ``data``; ``require_hypotheses=False`` tests the conclusion on any data with a
    strict optimal token (tests: VIOLATED); ``gap_scale`` ≠ 1 is a wrong witness."""
    ws = w_structure(data)
    hyps = positive_strict_hypotheses(data) + [
        Hypothesis("W full rank (some W with K_i = X_i W has rank d)", ws.full_rank, ws.detail)]
    out = Outcome(hypotheses=hyps if require_hypotheses else hyps[1:2])
    if not require_hypotheses:
        out.notes.append("hypotheses NOT enforced (test mode): " +
                         "; ".join(f"{h.name}: {'met' if h.met else 'NOT met'}" for h in hyps))
    if not out.applicable():
        return out
    f = feasible_with_witness(out, data, prec.dps, gap_scale)
    if f.witness is None:
        return out
    rows = list(f.witness.margins)
    series = [Series(name, list(range(len(rows))), [float(m[k]) for k in rows], mark) for name, m, mark in
              (("p̂ = W^†v/γ_gap", f.witness.margins, "o"), ("p^mm (exact ATT-SVM)", f.pmm_margins, "x")) if m]
    out.figures.append(Figure(
        "margins", "Margins (k_{i,opt} − k_it)ᵀp of the witness and of p^mm", "constraint (i, t), in order", "margin",
        series, hlines=[(1.0, "ATT-SVM constraint")],
        caption="On or above 1: p̂ is feasible, so p^mm exists and ‖p^mm‖ ≤ ‖p̂‖. Constraints (i, t): "
                + ", ".join(map(str, rows[:12])) + ("…" if len(rows) > 12 else "")))
    return out


def keyed_full_rank_dataset() -> Dataset:
    """n = 2, T = 3, d = 2, keys K_i = X_i W with the full-rank W = [[2, 1], [−1, 1]] (rational)."""
    X = [[[1, "1/2"], [0, 1], ["-1/2", 0]], [[2, 1], [1, -1], [0, 0]]]
    W = [[2, 1], [-1, 1]]
    Xf = [[[Fraction(x) for x in tok] for tok in seq] for seq in X]
    K = [[[str(sum(tok[a] * W[a][b] for a in range(2))) for b in range(2)] for tok in seq] for seq in Xf]
    return Dataset.make(X=X, Y=[1, 1], v=[1, 3], K=K, name="keys-XW-full-rank")


def default_datasets(seed: int = 0):
    return [
        random_dataset(n=3, T=4, d=3, seed=seed, labels="positive", name=f"random-positive-n3T4d3-s{seed}"),
        keyed_full_rank_dataset(),
        random_dataset(n=2, T=3, d=1, seed=seed + 1, labels="positive", name=f"random-positive-n2T3d1-s{seed + 1}"),
    ]


STATEMENT = """\
If for all i and t ≠ opt_i: γ_it < γ_{i,opt_i} and Y_i = 1, and W is full rank, then (ATT-SVM) with α = opt is
feasible. Witness: p̂ = W^†v/γ_gap, γ_gap = min_i min_{t≠opt_i}(γ_{i,opt_i} − γ_it), with every margin
(k_{i,opt} − k_it)ᵀp̂ ≥ 1; hence ‖p^mm‖ ≤ ‖p̂‖ (Sec. 2.1).

Checked exactly in rationals: the exact ATT-SVM's verified certificate, every margin of p̂ (the min-norm
solution of K p = Xv divided by γ_gap), and ‖p^mm‖² ≤ ‖p̂‖².
"""

CLAIM = register(Claim(id="mmts.lemma2", paper="mmts", number="Lemma 2", kind="existential",
                       title="ATT-SVM(opt) is feasible for positive labels and full-rank W", statement=STATEMENT,
                       check=evaluate, default_datasets=default_datasets, aliases=("svm-feasible-positive-labels",),
                       recompute=False, parameters=()))  # the keys, labels and head are the data: nothing else quantified
