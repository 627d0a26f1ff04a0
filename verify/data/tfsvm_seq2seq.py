"""Sequence-to-sequence datasets for tfsvm Theorem 10 and Corollaries 1–2 (self-attention: every token is a query).

Constructed here by a seeded search over small rational data (n = 1, T = 3, d = 2; entries in ½ℤ), keeping datasets
whose SAtt-SVM has a locally-optimal α ≠ opt (Def 4) with a non-empty separating cone and one whose cone is empty
(Lemma 16's flaw); every property is re-derived exactly by the claims and tests.
"""
from __future__ import annotations

from verify.data.dataset import Dataset


def s2s_labels() -> Dataset:
    """Non-causal, per-query labels Yq = (−1, 1, 1), v = (3/2, 0), tokens (−2, 1), (3/2, −2), (−1/2, 3/2):
    γ_0 = (3, −9/4, 3/4), γ_1 = γ_2 = (−3, 9/4, −3/4); opt = (0, 1, 1); α = (0, 2, 1) is locally optimal with
    κ̂ ≈ 1.13 (W^mm_α inside its separating cone); W^mm (opt) is not symmetric."""
    return Dataset.make(X=[[[-2, 1], ["3/2", -2], ["-1/2", "3/2"]]], Y=[1], v=["3/2", 0], Yq=[[-1, 1, 1]],
                        name="tfsvm-s2s-labels")


def s2s_causal() -> Dataset:
    """Causal, Y = −1, v = (1/2, −3/2), tokens (−1/2, 2), (−1, 1/2), (3/2, −3/2): γ = (13/4, 5/4, −3); opt = (0, 0, 0);
    α = (0, 0, 1) locally optimal with κ̂ ≈ 1.14; α = (0, 0, 2) locally optimal (query 2 has no support index)
    but token 2 has the lowest score, so low = ∅ ≠ high and its separating cone is EMPTY (Lemma 16's flaw)."""
    return Dataset.make(X=[[["-1/2", 2], [-1, "1/2"], ["3/2", "-3/2"]]], Y=[-1], v=["1/2", "-3/2"], causal=True,
                        name="tfsvm-s2s-causal")


def s2s_plain() -> Dataset:
    """Non-causal, Y = 1, v = (1, −3/2), tokens (0, 1/2), (2, −2), (3/2, −1/2): γ = (−3/4, 5, 9/4); opt = (1, 1, 1);
    α = (1, 2, 1) locally optimal with κ̂ ≈ 0.199; α = (1, 0, 1) locally optimal with an empty cone."""
    return Dataset.make(X=[[[0, "1/2"], [2, -2], ["3/2", "-1/2"]]], Y=[1], v=[1, "-3/2"], name="tfsvm-s2s-plain")
