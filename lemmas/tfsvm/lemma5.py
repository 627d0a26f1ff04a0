"""tfsvm Lemma 5 — locally optimal ⇔ W^mm_α lies in the separating cone (v1 §5.3; proof App. D.2 via Lemma 16).

Statement (as printed in v1). For a selection α ∈ [T]ⁿ with W^mm_α the Att-SVM solution (Def. 2) and the separating
cone (Def. 3)
    cone_ε(α) = {W : min_i max_{t∈low_i} min_{τ∈high_i} (x_it − x_iτ)ᵀ W z_i ≥ ε‖W‖_F},
    low_i = {t : γ_it < γ_iα_i},  high_i = {t ≠ α_i : γ_it ≥ γ_iα_i}
(empty inner min = +∞, empty outer max = −∞; m = d, so the rank bound is void):
  (a) α locally optimal ⇒ W^mm_α ∈ cone_ε(α) for all sufficiently small ε > 0;
  (b) α not locally optimal ⇒ W^mm_α ∉ cone_ε(α) for every ε > 0;
  (c) opt unique ⇒ cone_ε(opt) is the set of all matrices.

FLAWED in v1 (part (a)). Local optimality (Def. 2) asks γ_iα_i > γ_it only for support indices t ∈ 𝒯_i, so a
sequence with 𝒯_i = ∅ meets it vacuously. If that sequence's α_i has the lowest score, low_i = ∅ while high_i ≠ ∅:
the separation is −∞ and cone_ε(α) is empty for every ε. D-T2, α = (1, 1) (spec §4, §6): sequence 2 has 𝒯_2 = ∅
(margin 2) and α_2 scores −2 < 0 — VIOLATED, certified. Constructed here with the same mechanism (``flaw_t3``:
T = 3, sequence 2 a doubled copy of sequence 1 with flipped label, so its margins are 2 and its α_2 is the
lowest-scored token) — VIOLATED too. The proof assumes 𝒯_i ≠ ∅; (a) holds whenever every 𝒯_i is nonempty
(argument: t ∈ 𝒯_i is in low_i by local optimality and beats every τ ∈ high_i ⊆ 𝒯̄_i by margin_τ − 1 > 0), e.g.
for n = 1 (D-LMM: HOLDS). (b) and (c) hold (spec: proof read).

Hypotheses. Single-query data (a dataset flagged causal or with per-query labels ``Yq`` is sequence-to-sequence:
Lemma 16). W^mm_α exists: with ``alpha`` given, "Att-SVM(α) feasible" for that α (certified either way);
otherwise "some Att-SVM(α) feasible" (an α whose SVM is infeasible is outside the statement — W^mm_α is undefined
— and is skipped; its Farkas certificate is verified). (c) additionally needs unique optimal tokens; with a tie
(c) is not checked (a note says so).

How it is checked (``verify.kit.separating``, engine ``verify.geometry.separating_cone``, exact throughout).
Every α ∈ [T]ⁿ (up to 729, opt first; the verdict names the range) is solved exactly; 𝒯_i are the active rows of
the rational solution; κ(α) = κ(W^mm_α)/‖W^mm_α‖_F is the largest ε with W^mm_α ∈ cone_ε(α) (its sign is exact,
±∞ kept symbolic). Deciding: (a) the exact Tally "κ(α) > 0" over the locally-optimal α; (b) "κ(α) ≤ 0" over the
feasible, not locally-optimal α (ε → 0⁺ is the hardest ε, decided by the sign); (c) "high_i(opt) = ∅ for every i"
(exact). Informative: the locally-optimal α with an empty 𝒯_i (the flaw's mechanism), κ(α) per α; figure κ(α).
False cases (tests): D-T2 and ``flaw_t3`` → VIOLATED (certified), with κ = −∞ derived by hand in the test;
a dataset whose only sequence has two equal tokens (every Att-SVM(α) infeasible) and ``alpha`` = the middle
token of ``hull_middle`` (infeasible) → NOT_APPLICABLE naming feasibility.
"""
from __future__ import annotations

from verify.claims import Claim, register
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.kit.separating import ALPHA_PARAMETER, EPS_PARAMETER, W_PARAMETER, lmm_cone_outcome


def flaw_t3() -> Dataset:
    """Constructed (n = 2, T = 3, d = 2): sequence 1 tokens a = (1,1), b = 0, c = (1,−1), z₁ = e₁, Y₁ = +1, v = e₂:
    γ₁ = (1, 0, −1); sequence 2 = 2·(a, b, c), z₂ = (1, 1/2), Y₂ = −1: γ₂ = (−2, 0, 2). α = (1, 1): W^mm_α = w eᵀ₁,
    w = (1/2, 1/2), margins 1, 1 in sequence 1 (support {2, 3}, lower scores) and 2, 2 in sequence 2 (𝒯₂ = ∅), so α is
    locally optimal while low₂ = ∅, high₂ = {2, 3}: κ(α) = −∞."""
    return Dataset.make(X=[[[1, 1], [0, 0], [1, -1]], [[2, 2], [0, 0], [2, -2]]], Y=[1, -1], v=[0, 1],
                        z=[[1, 0], [1, "1/2"]], name="tfsvm-lemma5-flaw-T3")


def evaluate(data, prec, alpha=None, figure: bool = True):
    """Lemma 5 (a)–(c) over every α (or ``alpha`` only)."""
    return lmm_cone_outcome(data, prec, seq2seq=False, alpha=alpha, figure=figure)


def check(data, prec):
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [D.d_t2(), flaw_t3(), D.d_lmm(), D.lemma4_cross()]


STATEMENT = """\
(a) α locally optimal ⇒ W^mm_α ∈ cone_ε(α) for all small ε > 0; (b) α not locally optimal ⇒ W^mm_α ∉ cone_ε(α) for
every ε > 0; (c) opt unique ⇒ cone_ε(opt) = all matrices (v1 §5.3, Lemma 5), with the separating cone
cone_ε(α) = {W : min_i max_{t∈low_i} min_{τ∈high_i} (x_it − x_iτ)ᵀWz_i ≥ ε‖W‖_F}.

FLAWED (a): a locally-optimal α whose deviating sequence has no support index and selects its lowest-scored token
has low_i = ∅, so cone_ε(α) is empty (D-T2, α = (1, 1)). Decided exactly over every α ∈ [T]ⁿ through
κ(α) = κ(W^mm_α)/‖W^mm_α‖_F.
"""

CLAIM = register(Claim(id="tfsvm.lemma5", paper="tfsvm", number="Lemma 5", kind="inequality",
                       title="Locally optimal α ⇔ W^mm_α in the separating cone cone_ε(α) (FLAWED (a): empty support)",
                       statement=STATEMENT, check=check, default_datasets=default_datasets,
                       aliases=("lmm-separating-cone",),
                       parameters=(ALPHA_PARAMETER, EPS_PARAMETER, W_PARAMETER)))
