"""The mmts paper's own example datasets (exact).

The mmts paper's figures (Fig. 1, App. experiments): d = 3, W = diag(1,1,0) so keys are (x₁, x₂, 0);
v = e₃ so the score is Y·x₃. Numbers are the exact decimals printed with the figures.
"""
from __future__ import annotations

import random
from fractions import Fraction

from verify.data.dataset import Dataset
from verify.data.generators import random_dataset


def _mmts(tokens_per_seq, labels=None, name="mmts", head=None):
    X = [[list(tok) for tok in seq] for seq in tokens_per_seq]
    K = [[[tok[0], tok[1], 0] for tok in seq] for seq in tokens_per_seq]
    Y = labels or [1] * len(X)
    return Dataset.make(X=X, Y=Y, v=[0, 0, 1], K=K, name=name, head=head)


def mmts_fig1a() -> Dataset:
    """Fig. 1(a): n=1, T=3, Assumption B holds (non-optimal scores 0.9, 0.9)."""
    return _mmts([[("-0.1", 1, 1), (1, 0, "0.9"), (0, 0, "0.9")]], name="mmts-fig1a")


def mmts_fig1b() -> Dataset:
    """Fig. 1(b): the (0,0) token has score 0; α = token (1,0) is a non-global LMM."""
    return _mmts([[("-0.1", 1, 1), (1, 0, "0.9"), (0, 0, 0)]], name="mmts-fig1b")


def mmts_fig1b_prime() -> Dataset:
    """Fig. 1(b′) (mmts.lemma9): the (0,0) token's score raised to 0.95 > 0.9: (1,0) is not an LMM."""
    return _mmts([[("-0.1", 1, 1), (1, 0, "0.9"), (0, 0, "0.95")]], name="mmts-fig1b-prime")


# Fig. 1(c)/Fig. 4 tokens (first two coordinates), exactly as drawn by the authors' notebook
# (MaxMarginTokenSelection/multi_input_converge.ipynb, ``data_generator``): torch.Generator().manual_seed(0),
# X = torch.randn((3, 7, 3), generator) * 0.2 in float32, then + (1,0,0) on token 0, + (−1,1,0) on tokens 1–3,
# + (−0.5,−0.5,0) on tokens 4–6 (float32 additions). Written as the float32 results' hexadecimal literals (exact).
# torch's CPU normal sampler has two kernels that differ in the last bits: the AVX2 one (avx_mathfun log/sincos,
# used on AVX2 machines) and the scalar one (std::log/cos/sin; the DEFAULT build and AVX-512 dispatch). This table is
# the AVX2 draw (torch 2.14.1, ATEN_CPU_CAPABILITY=avx2), which rounds to the 6-decimal values the spec printed; the
# scalar draw differs in 9 coordinates (below), one of them visibly at 6 decimals (0.882901 for 0.882900). Which
# kernel the authors' machine used is not recorded (their saved cvxopt output, ½‖p‖² = 0.31319, fits both).
_FIG1C_HEX = [
    [("0x1.8cb6c8p-1", "-0x1.d801bap-3"), ("-0x1.1636f0p+0", "0x1.2b7438p+0"), ("-0x1.102e0ap+0", "0x1.2766ccp-1"),
     ("-0x1.40aec8p+0", "0x1.11eb4cp+0"), ("-0x1.e774dap-2", "-0x1.028714p-2"), ("-0x1.195240p-1", "-0x1.8a8302p-1"),
     ("-0x1.8bf330p-2", "-0x1.5d7d50p-2")],
    [("0x1.60c21cp-1", "-0x1.17a476p-4"), ("-0x1.b32e3cp-1", "0x1.c40b88p-1"), ("-0x1.ed363cp-1", "0x1.4722b4p+0"),
     ("-0x1.9f195cp-1", "0x1.a99b84p-1"), ("-0x1.f987a2p-2", "-0x1.32733cp-1"), ("-0x1.a5f346p-2", "-0x1.e8fa6ap-2"),
     ("-0x1.a5a6b4p-2", "-0x1.0a79fcp-1")],
    [("0x1.e25688p-1", "0x1.581cf2p-7"), ("-0x1.144110p-1", "0x1.6995d4p-1"), ("-0x1.1d2540p+0", "0x1.2f1a40p+0"),
     ("-0x1.7beab8p-1", "0x1.68a28ep-1"), ("-0x1.30728ep-1", "-0x1.e12adcp-3"), ("-0x1.384b34p-1", "-0x1.312292p-1"),
     ("-0x1.6d4240p-1", "-0x1.1ba90ep-2")],
]
# The scalar kernel's draw where it differs from the AVX2 one: (input, token, coordinate) → float32 hex literal.
_FIG1C_SCALAR = {
    (0, 2, 1): "0x1.2766c8p-1", (0, 5, 0): "-0x1.19523cp-1", (0, 6, 0): "-0x1.8bf332p-2", (0, 6, 1): "-0x1.5d7d4ep-2",
    (1, 0, 1): "-0x1.17a472p-4", (1, 1, 1): "0x1.c40b8cp-1", (2, 0, 0): "0x1.e2568ap-1", (2, 3, 0): "-0x1.7beabcp-1",
    (2, 3, 1): "0x1.68a28cp-1", (2, 6, 0): "-0x1.6d423ep-1",
}
FIG1C_KERNELS = ("avx2", "scalar")


def fig1c_positions(kernel: str = "avx2") -> list:
    """The Fig. 1(c) token positions (first two coordinates) as exact Fractions of the float32 draw of ``kernel``."""
    if kernel not in FIG1C_KERNELS:
        raise ValueError(f"unknown kernel {kernel!r}; choose one of {', '.join(FIG1C_KERNELS)}")
    table = [[[_FIG1C_SCALAR.get((i, t, j), h) if kernel == "scalar" else h for j, h in enumerate(tok)]
              for t, tok in enumerate(seq)] for i, seq in enumerate(_FIG1C_HEX)]
    return [[[Fraction(float.fromhex(h)) for h in tok] for tok in seq] for seq in table]


def mmts_fig1c(kernel: str = "avx2") -> Dataset:
    """Fig. 1(c)/Fig. 4: n=3, T=7, the exact float32 draw of the authors' generator (torch seed 0; ``kernel`` "avx2",
    the default, or "scalar": see the note above the table); score 1 for token 0, 0.5 else (set exactly)."""
    seqs = [[(a, b, 1 if t == 0 else Fraction(1, 2)) for t, (a, b) in enumerate(seq)] for seq in fig1c_positions(kernel)]
    return _mmts(seqs, name="mmts-fig1c" if kernel == "avx2" else "mmts-fig1c-scalar")


def mmts_fig3(variant: str = "a") -> Dataset:
    """Fig. 3 (joint (v,p)): n=3, T=2, d=2, W=I."""
    third = [(0, 0), ("0.5", 1)] if variant == "a" else [(0, 0), ("0.5", "1.5")]
    X = [[(0, 0), (1, 1)], [(0, 0), (1, -1)], third]
    return Dataset.make(X=X, Y=[1, -1, 1], v=[0, 1], name=f"mmts-fig3{variant}")


def mmts_fig5(C=1) -> Dataset:
    """Fig. 5: n=2, T=2, loss-dependent transients."""
    return _mmts([[(0, 0, 0), (1, 1, C)], [(0, 0, 0), (1, -1, 1)]], name=f"mmts-fig5-C{C}")


def mmts_fig8_substitute() -> Dataset:
    """§5.6: n=2, T=2; GMM (1,−3), LMM (1,0) (input 2 has no SVM-neighbour)."""
    return _mmts([[(1, 0, 1), (0, 0, 0)], [(0, 0, 1), (2, 1, 0)]], name="mmts-fig8-substitute")


def mmts_infeasible_B() -> Dataset:
    """§thm2 false case (c): keys (0,0) score 1, (±1,0) score 0: ATT-SVM infeasible, ∇L(0)=0."""
    return _mmts([[(0, 0, 1), (1, 0, 0), (-1, 0, 0)]], name="mmts-infeasible-B")


def mmts_tie() -> Dataset:
    """§2.7's (ATT-SVM') example (App. D, restored): n=1, T=3, keys k₁=(1,0), k₂=(−1,0) optimal (score 1),
    k₃=(0,0) (score 0); O = {1, 2}, solution set P^mm = {(1,0), (−1,0)}, the midpoint infeasible."""
    return _mmts([[(1, 0, 1), (-1, 0, 1), (0, 0, 0)]], name="mmts-tie")


def mmts_tanh_head() -> Dataset:
    """Own construction (mmts Theorem 8): the tanh head h(r) = tanh(vᵀr), n=2, T=3. Input 1 is the tie example
    (Y=1); input 2 (Y=−1) has label-aligned scores 1, 0, −1/2 at keys (0,1), (1,1), (0,−1). (ATT-SVM'): the choice
    α₁ = (1,0) is infeasible against input 2 (−p₁ ≥ 1), α₁ = (−1,0) gives P^mm = {(−1, 1/2)}, ‖p^mm‖² = 5/4."""
    return _mmts([[(1, 0, 1), (-1, 0, 1), (0, 0, 0)], [(0, 1, -1), (1, 1, 0), (0, -1, "1/2")]], labels=[1, -1],
                 name="mmts-tanh-head", head={"kind": "tanh"})


def mmts_mixing_head() -> Dataset:
    """Own construction (mmts Theorem 8, false case): the head ψ(r) = −‖r − c‖² rewards mixing tokens x₁ = (1,0)
    and x₂ = (−1,0) towards their midpoint c = 0 (concave head vᵀr − λ‖r‖² with v = 2c = 0, λ = 1); x₃ = (0,2);
    keys = tokens. O = {1, 2} (ψ = −1, −1, −4), P^mm = {(1,−2)/5, (−1,−2)/5}, while the path runs to the direction
    (0,−1), which mixes x₁ and x₂ equally (ψ → 0): Assumption D fails."""
    return Dataset.make(X=[[(1, 0), (-1, 0), (0, 2)]], Y=[1], v=[0, 0], name="mmts-mixing-head",
                        head={"kind": "concave", "lambda": 1})


PAPER_DATASETS = {
    "mmts-fig1a": mmts_fig1a,
    "mmts-fig1b": mmts_fig1b,
    "mmts-fig1b-prime": mmts_fig1b_prime,
    "mmts-fig1c": mmts_fig1c,
    "mmts-fig3a": lambda: mmts_fig3("a"),
    "mmts-fig3b": lambda: mmts_fig3("b"),
    "mmts-fig5": mmts_fig5,
    "mmts-fig8-substitute": mmts_fig8_substitute,
    "mmts-infeasible-B": mmts_infeasible_B,
    "mmts-tie": mmts_tie,
    "mmts-tanh-head": mmts_tanh_head,
    "mmts-mixing-head": mmts_mixing_head,
}


def mmts_lemma6_tight() -> Dataset:
    """mmts Lemma 6's spec dataset: X = [(1.3, 1), (−0.4, 0)], v = e₂ (n = 1, T = 2, W = I): ‖∇²L‖/L_p ≈ 0.0093, the
    tightest seen."""
    return Dataset.make(X=[[["1.3", 1], ["-0.4", 0]]], Y=[1], v=[0, 1], name="mmts-lemma6-spec")


def mmts_scaled_keys(seed: int = 0, c: int = 1) -> Dataset:
    """mmts Lemma 6: random tokens with keys K_i = X_i W₀ for a seeded rational W₀ (so ‖W‖ ≠ 1), data scaled by c."""
    base = random_dataset(n=2, T=3, d=2, seed=seed)
    rng = random.Random(seed + 101)
    W0 = [[Fraction(rng.randint(-9, 9), 4) for _ in range(2)] for _ in range(2)]
    if W0[0][0] * W0[1][1] - W0[0][1] * W0[1][0] == 0:
        W0[0][0] += 1
    X = [[[c * x for x in tok] for tok in seq] for seq in base.X]
    K = [[[sum(tok[a] * W0[a][b] for a in range(2)) * c for b in range(2)] for tok in seq] for seq in X]
    return Dataset.make(X=X, Y=list(base.Y), v=list(base.v), K=K,
                        name=f"random-keysXW-s{seed}" + (f"-c{c}" if c != 1 else ""))
