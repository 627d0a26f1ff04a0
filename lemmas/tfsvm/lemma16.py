"""tfsvm Lemma 16 — Lemma 5 for sequence-to-sequence self-attention (SAtt-SVM) (v1 App. D.2).

Statement (as printed in v1). Every query k of sequence i (self-attention: z_ik = x_ik, K = T queries) selects its
own token α_ik; W^mm_α solves (SAtt-SVM) min ‖W‖_F s.t. (x_iα_ik − x_it)ᵀ W x_ik ≥ 1 for all t ≠ α_ik (Def. 4), with
support indices 𝒯_ik and local optimality γ_ikα_ik > γ_ikt for t ∈ 𝒯_ik (γ_ikt = Y_ik vᵀx_it: linear head; Y_ik the
dataset's per-query labels ``Yq``, else Y_i). With low_ik = {t : γ_ikt < γ_ikα_ik}, high_ik = {t ≠ α_ik : γ_ikt ≥ γ_ikα_ik} and
    cone_ε(α) = {W : min_{i,k} max_{t∈low_ik} min_{τ∈high_ik} (x_it − x_iτ)ᵀ W x_ik ≥ ε‖W‖_F}   (Def. 5, m = d):
  (a) α locally optimal ⇒ W^mm_α ∈ cone_ε(α) for all small ε > 0; (b) otherwise W^mm_α ∉ cone_ε(α) for every ε > 0;
  (c) opt unique ⇒ cone_ε(opt) = all matrices.

FLAWED in v1 (part (a)), the same flaw as Lemma 5: a query with 𝒯_ik = ∅ meets Def. 4 vacuously, and if its α_ik has
the lowest score then low_ik = ∅ ≠ high_ik and the cone is empty. Constructed here: ``flaw_pair`` (n = 1, T = 2,
x₁ = (1, 0), x₂ = (−2, 0), v = e₁: γ = (1, −2)); α = (1, 2): W^mm_α = [[1/3, 0], [0, 0]], query 1 has margin 1
(support {2}, lower score: locally optimal), query 2 margin 2 (𝒯 = ∅) while α₁₂ = 2 is the lowest-scored token —
κ = −∞, VIOLATED, certified. A second, found by enumerating seeded random data (``random_seed6``: n = 1, T = 3,
d = 3): α = (2, 2, 3) is locally optimal with 𝒯 = ∅ for query 1 and κ(α) < 0 finite (there low ≠ ∅, but a
high token beats every low one). (a) holds when every 𝒯_ik is nonempty (``random_seed5``: seven locally-optimal α,
every support nonempty: HOLDS).

Hypotheses, how it is checked, and false cases: as Lemma 5 (``verify.kit.separating`` with the seq2seq row sets —
one function for both lemmas): every α ∈ [T]^{n×T} (up to 729, opt first) solved exactly by ``satt_svm``
(certified feasible, or a verified Farkas certificate — e.g. a query token 0 makes every row of that query 0 ≥ 1);
exact Tallies (a) κ(α) > 0 over locally-optimal α, (b) κ(α) ≤ 0 over the others, (c) high_ik(opt) = ∅. On a causal
dataset (v1 §7 formulates causal attention, no lemma) the statement is read with the mask: query k sees t ≤ k, so α_ik
ranges over its window, and the SAtt-SVM constraints, low_ik/high_ik, 𝒯_ik and opt are all taken inside it (the
engine ``verify.geometry.separating_cone``, attention "causal"; ``tests/test_separating_cone.py`` derives a causal,
per-query-label case by hand: HOLDS, and ignoring the mask/labels would flip κ from +∞ to −∞). Tests: ``flaw_pair`` → VIOLATED with κ = −∞ derived by hand;
``alpha`` with an infeasible SAtt-SVM (``flaw_pair``, α = (1, 1): 3·W₁₁ ≥ 1 and −6·W₁₁ ≥ 1) → NOT_APPLICABLE.
"""
from __future__ import annotations

from verify.claims import Claim, register
from verify.data.dataset import Dataset
from verify.data.generators import random_dataset
from verify.kit.separating import ALPHA_PARAMETER, EPS_PARAMETER, W_PARAMETER, lmm_cone_outcome


def flaw_pair() -> Dataset:
    """Constructed (n = 1, T = 2, d = 2, self-attention): x₁ = (1, 0), x₂ = (−2, 0), v = e₁, Y = 1: γ = (1, −2)."""
    return Dataset.make(X=[[[1, 0], [-2, 0]]], Y=[1], v=[1, 0], name="tfsvm-lemma16-flaw-pair")


def random_seed(seed: int) -> Dataset:
    return random_dataset(n=1, T=3, d=3, seed=seed, labels="pos", name=f"tfsvm-lemma16-random-n1T3d3-s{seed}")


def evaluate(data, prec, alpha=None, figure: bool = True):
    """Lemma 16 (a)–(c) over every α ∈ [T]^{n×T} (or ``alpha``, an n×T array, only)."""
    return lmm_cone_outcome(data, prec, seq2seq=True, alpha=alpha, figure=figure)


def check(data, prec):
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [flaw_pair(), random_seed(6), random_seed(5)]


STATEMENT = """\
Lemma 5 for SAtt-SVM (v1 App. D.2, Lemma 16): with one selected token α_ik per query (self-attention), (a) α locally
optimal ⇒ W^mm_α ∈ cone_ε(α) for all small ε > 0; (b) otherwise W^mm_α ∉ cone_ε(α) for every ε > 0; (c) opt unique ⇒
cone_ε(opt) = all matrices; cone_ε(α) = {W : min_{i,k} max_{t∈low_ik} min_{τ∈high_ik} (x_it − x_iτ)ᵀWx_ik ≥ ε‖W‖_F}.

FLAWED (a), as Lemma 5: a query without support index whose α_ik is its lowest-scored token empties the cone.
"""

CLAIM = register(Claim(id="tfsvm.lemma16", paper="tfsvm", number="Lemma 16", kind="inequality",
                       title="Lemma 5 for SAtt-SVM: locally optimal α ⇔ W^mm_α in cone_ε(α) (FLAWED (a): empty support)",
                       statement=STATEMENT, check=check, default_datasets=default_datasets,
                       parameters=(ALPHA_PARAMETER, EPS_PARAMETER, W_PARAMETER)))
