"""The tfsvm paper's reference datasets (exact), and the small datasets its claims are checked on.

Tokens are 1-indexed in the prose, 0-indexed here. Queries z_i are given explicitly (cross-attention)
unless stated; without them the engine uses the first token (self-attention).
"""
from __future__ import annotations

from verify.data.dataset import Dataset


def d_t2() -> Dataset:
    """D-T2 (n = 2, T = 2, d = 2): v = (0,1), Y = (+1, −1), z = ((1,0), (1,1/2)); scores (1,0), (−2,0);
    W^mm = [[1/2, −3/2], [1/2, −3/2]], both margins 1 (B.1 and B.2)."""
    return Dataset.make(X=[[[1, 1], [0, 0]], [[2, 2], [0, 0]]], Y=[1, -1], v=[0, 1],
                        z=[[1, 0], [1, "1/2"]], name="tfsvm-D-T2")


def d_stat() -> Dataset:
    """D-STAT (n = 2, T = 2, d = 1): x_i = (1, 0), z = (1, −1): Att-SVM infeasible, ∇L(0) = 0."""
    return Dataset.make(X=[[[1], [0]], [[1], [0]]], Y=[1, 1], v=[1], z=[[1], [-1]], name="tfsvm-D-STAT")


def b1_only() -> Dataset:
    """n = 1, T = 3, d = 3, scores (1, 0, 1/2): B.2 fails, B.1 holds (both differences tight in W^mm)."""
    return Dataset.make(X=[[[1, 1, 1], [0, 1, 0], [1, 0, "1/2"]]], Y=[1], v=[0, 0, 1], name="tfsvm-B1-only")


def d_lmm() -> Dataset:
    """D-LMM (n = 1, T = 3, d = 3): v = e₃, z = e₁, tokens A = (0,1,1), B = (0,−1,1/2), C = 0."""
    return Dataset.make(X=[[[0, 1, 1], [0, -1, "1/2"], [0, 0, 0]]], Y=[1], v=[0, 0, 1], z=[[1, 0, 0]],
                        name="tfsvm-D-LMM")


def d_nb() -> Dataset:
    """D-NB (n = 1, T = 3, d = 2): z = e₁, v = (−0.18, 1), tokens (0,1), (−5,0), (−1,0); γ = (1, 0.9, 0.18)."""
    return Dataset.make(X=[[[0, 1], [-5, 0], [-1, 0]]], Y=[1], v=["-0.18", 1], z=[[1, 0]], name="tfsvm-D-NB")


def d_nuc() -> Dataset:
    """D-NUC (n = 2, T = 2, d = 2): x_i1 = e_i, x_i2 = 0, z_i = e_i, v = (1,1): W^mm = I."""
    return Dataset.make(X=[[[1, 0], [0, 0]], [[0, 1], [0, 0]]], Y=[1, 1], v=[1, 1], z=[[1, 0], [0, 1]],
                        name="tfsvm-D-NUC")


def lemma4_spec() -> Dataset:
    """The smoothness false case: n = 1, T = 2, d = 1, x = (1, −1), v = z = Y = 1 (γ = (1, −1));
    logistic L_W = 2√2(√2/4 + 3) = 1 + 6√2."""
    return Dataset.make(X=[[[1], [-1]]], Y=[1], v=[1], z=[[1]], name="tfsvm-lemma4-spec")


def lemma4_cross() -> Dataset:
    """Constructed here (n = 2, T = 3, d = 2, cross-attention, mixed labels): generic rational tokens
    and queries, every score distinct, no symmetry (a second witness for the (K,Q) constants)."""
    return Dataset.make(X=[[[1, "1/2"], ["-1/3", 1], [0, "-2/3"]], [["1/2", "-1"], [2, "1/4"], ["-1", "1/3"]]],
                        Y=[1, -1], v=["3/4", "-1/2"], z=[[1, "1/3"], ["-1/2", 1]], name="tfsvm-lemma4-cross")


def thm1_degenerate() -> Dataset:
    """Measure zero (n = 2, T = 2, d = 2 ≥ max(T − 1, n)): equal queries z = e₁, sequence 2 the mirror of sequence 1,
    so Att-SVM(opt) asks (1,0)We₁ ≥ 1 and (−1,0)We₁ ≥ 1: infeasible."""
    return Dataset.make(X=[[[1, 0], [0, 0]], [[0, 0], [1, 0]]], Y=[1, -1], v=[1, 0], z=[[1, 0], [1, 0]],
                        name="tfsvm-thm1-degenerate")


def hull_middle() -> Dataset:
    """n = 1, T = 3, d = 2: tokens (0,0), (1,0), (2,0), z = (1,1), v = e₁: the middle token lies in the hull of the
    others, so Att-SVM with α = (1) is infeasible (and so is its per-sequence separation); α = (0), (2) are feasible."""
    return Dataset.make(X=[[[0, 0], [1, 0], [2, 0]]], Y=[1], v=[1, 0], z=[[1, 1]], name="tfsvm-hull-middle")
