"""The tfsvm paper's reference datasets (exact), and the small datasets its claims are checked on.

Tokens are 1-indexed in the prose, 0-indexed here. Queries z_i are given explicitly (cross-attention)
unless stated; without them the engine uses the first token (self-attention).
"""
from __future__ import annotations

import math
import random
from fractions import Fraction

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


def acute_pair() -> Dataset:
    """Constructed for tfsvm.aux.no-spurious-lmm (n = 2, T = 3, d = 2, z = e₁, e₂): each sequence's tokens form an
    acute triangle, and W z_i is the i-th column of W, so the Att-SVM of every α splits per sequence and every
    non-selected token is a support index (both constraints of a vertex are tight iff the triangle has no obtuse
    angle at the other two vertices). v = (1, 1/2), Y = (1, −1): scores (2, 1, −3/2), (−2, 3/2, 1)."""
    return Dataset.make(X=[[[2, 0], [0, 2], [-1, -1]], [[1, 2], [-2, 1], [0, -2]]], Y=[1, -1], v=[1, "1/2"],
                        z=[[1, 0], [0, 1]], name="tfsvm-acute-pair")


def b2_obtuse() -> Dataset:
    """Constructed for tfsvm.aux.no-spurious-lmm (n = 1, T = 3, d = 2, z = e₁): tokens (0,1), (−3,0), (1,0), v = e₂,
    scores (1, 0, 0) (B.2); the triangle is obtuse at (0,1), so α = (1) has a non-support token (part (i)'s
    hypothesis fails, part (ii)'s holds)."""
    return Dataset.make(X=[[[0, 1], [-3, 0], [1, 0]]], Y=[1], v=[0, 1], z=[[1, 0]], name="tfsvm-b2-obtuse")


def thm4_trap() -> Dataset:
    """Constructed for tfsvm Theorems 4/5 (n = 2, T = 2, d = 2; B.2 holds as T = 2): the D-T2 mechanism with the
    roles swapped, generic rational entries (found by a seeded search over halves), Y = (+1, −1). Scores
    (1/2, −3/4) and (−9/4, −1): opt = (1, 2). α = (2, 2) is locally optimal: sequence 2 selects its optimal token
    (support), sequence 1 deviates to its lower-score token with margin κ = ĝ12/ĝ11 = 5/4 > 1 in W^mm_α (no
    support index: Def. 2 vacuous)."""
    return Dataset.make(X=[[[0, -1], [1, "-1/2"]], [[-2, "-1/2"], [-1, 0]]], Y=[1, -1], v=[-1, "-1/2"],
                        z=[[-1, "-3/2"], [-1, -1]], name="tfsvm-thm4-trap")


def thm4_ladder() -> Dataset:
    """Constructed for tfsvm Theorems 4/5 where no trap certificate applies (n = 3, T = 2, d = 2; B.2 holds as T = 2):
    D-T2's tokens scaled by 1/5 (v = (0, 5) keeps the scores), plus a third sequence like the first with query
    (1, −1). opt = (1, 2, 1); α = (1, 1, 1) is locally optimal: u = (1/5, 1/5) = x_i1 − x_i2 for sequences 1 and 3,
    W^mm_α = u·(25/2, 0)ᵀ (‖W^mm_α‖_F = 5√2/2; sequences 1 and 3 tight, sequence 2 at margin 2: no support index).
    The scale puts the LMM's basin far out: a start at ‖W(0)‖_F ≈ 3 (< ‖W^mm_α‖) lies in the GMM's basin."""
    return Dataset.make(X=[[["1/5", "1/5"], [0, 0]], [["2/5", "2/5"], [0, 0]], [["1/5", "1/5"], [0, 0]]],
                        Y=[1, -1, 1], v=[0, 5], z=[[1, 0], [1, "1/2"], [1, -1]], name="tfsvm-thm4-ladder")


def thm4_single() -> Dataset:
    """n = 1, T = 3, d = 2, scores (1, 0, 0) (B.2): every locally-optimal direction is the GMM (n = 1), so
    Theorems 4/5 have no spurious LMM to be trapped at."""
    return Dataset.make(X=[[[1, 1], [0, 1], [0, -1]]], Y=[1], v=[1, 0], z=[[1, "1/2"]], name="tfsvm-thm4-single")


def lemma10_shared_query() -> Dataset:
    """Constructed for Lemma 10 (n = 2, T = 2, d = 2, one shared query z = e₁, rank Z = 1): v = (1, −4), Y = 1,
    tokens ((1,0), 0) and ((3,1), 0): γ = (1, 0), (−1, 0); W^mm z = (1, −4) (both margins 1, ‖W^mm‖² = 17);
    α = (1, 1): W^mm_α z = (1, 0), margins 1 (support) and 3 (sequence 2 deviates, no support index): an LMM
    with corr(W^mm_α, W^mm) = 1/√17."""
    return Dataset.make(X=[[[1, 0], [0, 0]], [[3, 1], [0, 0]]], Y=[1, 1], v=[1, -4], z=[[1, 0], [1, 0]],
                        name="tfsvm-lemma10-shared-query")


def lemma10_low_limit() -> Dataset:
    """Constructed for Lemma 10 (n = 2, T = 2, d = 2, shared query z = e₁, v = (1, 1), Y = 1): key differences
    D₁ = (1, 0) and D₂ = (−3/2, 4) (second tokens 0), scores (1, 0) and (5/2, 0). W^mm z = (1, 5/8) (both margins
    1, ‖W^mm‖² = 89/64); α = (1, 2): W^mm_α z = D₁ (margin 3/2 for sequence 2: no support index), an LMM whose ray
    has ρ → ‖W^mm‖/‖W^mm_α‖ = √89/8 ≈ 1.179 < 3/2 — every π ∈ {½, 1, 2} is satisfied, π < 0.179 is not."""
    return Dataset.make(X=[[[1, 0], [0, 0]], [["-3/2", 4], [0, 0]]], Y=[1, 1], v=[1, 1], z=[[1, 0], [1, 0]],
                        name="tfsvm-lemma10-low-limit")


def n1_equal_scores() -> Dataset:
    """n = 1, T = 3, d = 2, v = e₂, z = (1, 1): tokens (0,1), (1,0), (−2,0), γ = (1, 0, 0) (B.2); W^mm z = (0, 1)."""
    return Dataset.make(X=[[[0, 1], [1, 0], [-2, 0]]], Y=[1], v=[0, 1], z=[[1, 1]], name="tfsvm-n1-equal-scores")


def thm6_lmm() -> Dataset:
    """Theorem 6 without Assumption C (n = 2, T = 3, d = 2, explicit queries): ``random_dataset(n=2, T=3, d=2,
    seed=222, scale="1/10", queries=True)`` of ``verify.data.generators``, found by a seeded search (seeds 0–299
    with unique optimal tokens and gap ≥ 1/10, failing C, whose float64 normalised-GD path from the first step
    −∇L(0) ended at a locally-optimal α ≠ opt) and kept here as exact data. Scores (−29/50, −87/20, −1) and
    (−14/5, 107/180, −107/720): opt = (0, 1); three of the four C margins are ≤ 0 (smallest ≈ −0.0779, sequence 1,
    token 0); GD from 0 then the gradient flow settle at the LMM α = (2, 1) (sequence 0 selects its lowest-but-one
    token)."""
    return Dataset.make(X=[[["-7/20", "-1/25"], ["-9/5", "1/4"], ["1/10", "2/5"]],
                           [["-19/20", "3/10"], ["11/90", "-7/60"], ["-1/18", "1/80"]]],
                        Y=[1, 1], v=[2, -3], z=[["-19/40", "6/35"], ["3/5", "-1/30"]], name="tfsvm-thm6-lmm")


def thm6_small_step() -> Dataset:
    """Theorem 6 WITH Assumption C (n = 3, T = 3, d = 2, explicit queries): ``random_dataset(n=3, T=3, d=2, seed=982,
    scale="1/10", queries=True)`` of ``verify.data.generators``, found by a seeded search (seeds 0–1499 of that shape
    with unique optimal tokens, score gap ≥ 1/10 and C met, whose float64 arc-length flow from −10⁻³∇L(0)/‖∇L(0)‖
    selected α ≠ opt at ‖W‖ = 200) and kept here as exact data. Scores (12/5, −11/30, 1081/540), (−141/20, −187/840,
    93/20), (−71/420, −31/70, 41/45): opt = (1, 3, 3) (1-indexed). Every C margin is > 0, yet W-GD from 0 with a
    first step η(0) ≤ 100/‖W^mm‖_F settles at the LMM that selects token 3 in sequence 1; only a first step of
    ~300/‖W^mm‖_F or more lands in the GMM's basin."""
    return Dataset.make(X=[[["0.6", "0.15"], ["0.2", "-0.3"], ["19/90", "0.4"]],
                           [["-1.7", "-0.5"], ["0.05", "-4/35"], ["0.1", "1.3"]],
                           [["9/70", "-1/14"], ["0.2", "-2/35"], ["-0.2", "-1/12"]]],
                        Y=[1, 1, -1], v=["19/6", "10/3"], z=[["-0.6", "-19/70"], ["-0.22", "-0.7"], ["-0.4", "19/90"]],
                        name="tfsvm-thm6-small-step")


def thm3_cancelling() -> Dataset:
    """Theorem 3's printed hypotheses without W^mm (constructed; n = 2, T = 2, d = 1, v = 1): sequences (2, 0) with
    z = 1 and (3, −1) with z = −1/4, scores = tokens. B.2 holds (T = 2); Att-SVM asks 2w ≥ 1 and −w ≥ 1 (infeasible);
    both mean scores are 1, so ∇L(0) = (1/4)ℓ'(1)[(1·2 − 1·0)·1 + (2·3 − 2·(−1))·(−1/4)] = 0 exactly although the
    sequences differ (unlike D-STAT's two copies)."""
    return Dataset.make(X=[[[2], [0]], [[3], [-1]]], Y=[1, 1], v=[1], z=[[1], ["-1/4"]], name="tfsvm-thm3-cancelling")


def conj2_trial(seed: int, n: int = 3, T: int = 3, d: int = 4) -> Dataset:
    """A seeded trial of tfsvm Conjecture 2 (the spec's protocol: n = T = 3, d = 4, cross-attention): tokens, queries
    and v with entries in {−2, −7/4, …, 2} (multiples of 1/4), labels ±1. Whether B.1 and D hold is decided by the
    claim (most seeds fail B.1: of seeds 0–199, 21 meet it and 7 of those meet D as well: 31, 94, 101, 119, 141, 173,
    176)."""
    rng = random.Random(f"tfsvm.conj2/{n}/{T}/{d}/{seed}")

    def e():
        return Fraction(rng.randint(-8, 8), 4)
    X = [[[e() for _ in range(d)] for _ in range(T)] for _ in range(n)]
    z = [[e() for _ in range(d)] for _ in range(n)]
    v = [e() for _ in range(d)]
    if not any(v):
        v[0] = Fraction(1)
    Y = [rng.choice((-1, 1)) for _ in range(n)]
    return Dataset.make(X=X, Y=Y, v=v, z=z, name=f"tfsvm-conj2-n{n}T{T}d{d}-seed{seed}")


def unit_vector(rng: random.Random, k: int, den: int = 64) -> list[Fraction]:
    """An exact rational unit vector near a uniform sample on the sphere: a Gaussian direction, its stereographic
    preimage (from the pole it is far from) rounded to 1/den, mapped back exactly: x = (2y, ±(1 − ‖y‖²))/(‖y‖² + 1)."""
    g = [rng.gauss(0, 1) for _ in range(k)]
    nr = math.sqrt(sum(a * a for a in g)) or 1.0
    x = [a / nr for a in g]
    sign = 1 if x[-1] > 0 else -1
    y = [Fraction(round(a / (1 + sign * x[-1]) * den), den) for a in x[:-1]]
    q = sum((a * a for a in y), Fraction(0))
    return [2 * a / (q + 1) for a in y] + [sign * (1 - q) / (q + 1)]


def kq_trial(seed: int, n: int = 3, T: int = 4, d: int = 4) -> Dataset:
    """A seeded trial of the (K, Q)-GD experiment (v1 Fig. 7/10; the authors' ``local_converge.ipynb``
    ``data_generator``): v, tokens x_it and queries z_i on the unit sphere (exact rationals, ``unit_vector``),
    labels ±1 at random, cross-attention."""
    rng = random.Random(f"tfsvm.kq/{n}/{T}/{d}/{seed}")
    v = unit_vector(rng, d)
    Y = [1 if rng.gauss(0, 1) > 0 else -1 for _ in range(n)]
    X = [[unit_vector(rng, d) for _ in range(T)] for _ in range(n)]
    z = [unit_vector(rng, d) for _ in range(n)]
    return Dataset.make(X=X, Y=Y, v=v, z=z, name=f"tfsvm-kq-n{n}T{T}d{d}-seed{seed}")


# The authors' TFasSVM/visualization.ipynb data (github:ucr-optml/max_margin_attention), exactly as drawn by its
# ``data_generator``: torch.Generator().manual_seed(1); v = randn(2), v /= ‖v‖; X = 0.3·randn((2, 3, 2)), then
# X[0] += (−1, 0), X[1] += (1, 0); Z = randn((2, 2)), each row divided by its norm; Y = (1, 1) — every operation in
# float32 (torch's default dtype; the notebook converts to float64 only afterwards, which is exact). Written as the
# float32 results' hexadecimal literals (exact). Drawn with torch 2.14.1 on CPU with both the default and the AVX2
# kernel (ATEN_CPU_CAPABILITY=avx2): identical — these draws are shorter than 16 values, so torch's normal sampler
# takes its scalar path on every machine (unlike mmts Fig. 1(c)'s 21-value draw, see verify/data/mmts.py).
_VISUALIZATION_X = [
    [("-0x1.f686c0p-1", "0x1.7dbcc4p-3"), ("-0x1.22b4d6p+0", "-0x1.98481cp-5"), ("-0x1.74f2d8p+0", "0x1.d50362p-4")],
    [("0x1.6228c8p-1", "-0x1.59f08cp-3"), ("0x1.76f1b4p-1", "-0x1.1e4fb0p-6"), ("0x1.e1f840p-1", "-0x1.28a4b4p-2")],
]
_VISUALIZATION_Z = [("0x1.b0a554p-1", "0x1.11ca8ap-1"), ("-0x1.45c464p-1", "-0x1.8afe4cp-1")]
_VISUALIZATION_V = ("0x1.dac9aep-1", "0x1.7f408cp-2")
# K(0) of the notebook's (K, Q) run: ``model.key.weight.data = 0.1 * torch.randn_like(model.key.weight.data)`` in
# float64 after the models' own initialisation — drawn from torch's *global* generator, which the notebook never
# seeds (its initial seed is nondeterministic per process in the torch we have): the authors' K(0) cannot be
# reproduced. This is the same sequence with the global generator seeded 0 (torch.manual_seed(0) first, then the
# notebook's cells in order: SelfAttn(2, univariate=True), SelfAttn(2, univariate=False), randn_like), transposed to
# the paper's K (logit x_tᵀ K Qᵀ z with K = key.weightᵀ, Q = query.weightᵀ): same scale, a stated seed.
_VISUALIZATION_K0 = [("-0x1.e8c381203895ap-5", "-0x1.5ee4d7826f6c4p-4"), ("0x1.2a3fa2c01c043p-6", "0x1.c2ceb63fcb54dp-4")]


def _hex(h: str) -> Fraction:
    return Fraction(float.fromhex(h))


def tfsvm_visualization() -> Dataset:
    """The authors' TFasSVM/visualization.ipynb data (tfsvm Fig. 1-style picture): n = 2, T = 3, d = 2, cross-attention
    with unit queries z_i, unit v, Y = (1, 1) — the exact float32 draw of their ``data_generator`` (torch Generator
    seed 1; see the note above the table). Optimal tokens (1, 3) (1-indexed), as the notebook's ``best_ids``."""
    X = [[[_hex(a) for a in tok] for tok in seq] for seq in _VISUALIZATION_X]
    return Dataset.make(X=X, Y=[1, 1], v=[_hex(a) for a in _VISUALIZATION_V],
                        z=[[_hex(a) for a in q] for q in _VISUALIZATION_Z], name="tfsvm-visualization")


def tfsvm_visualization_kq_start() -> tuple:
    """ψ(0) = (vec K(0), vec Q(0)) (row-major, ``verify.dynamics.parameterization.KQ``'s layout) of the notebook's
    (K, Q) run: K(0) = 0.1·randn (float64, torch's global generator seeded 0 — the notebook's own start is not
    reproducible, see the note above), Q(0) = 0."""
    return tuple(_hex(h) for row in _VISUALIZATION_K0 for h in row) + (Fraction(0),) * 4
