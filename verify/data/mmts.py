"""The mmts paper's own example datasets (exact).

The mmts paper's figures (Fig. 1, App. experiments): d = 3, W = diag(1,1,0) so keys are (x₁, x₂, 0);
v = e₃ so the score is Y·x₃. Numbers are the exact decimals printed with the figures.
"""
from __future__ import annotations

from verify.data.dataset import Dataset


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


_FIG1C = [
    [("0.774832", "-0.230472"), ("-1.086776", "1.169742"), ("-1.063203", "0.576956"), ("-1.252667", "1.069997"),
     ("-0.476032", "-0.252468"), ("-0.549456", "-0.770531"), ("-0.386670", "-0.341298")],
    [("0.688981", "-0.068272"), ("-0.849962", "0.882900"), ("-0.963304", "1.277873"), ("-0.810740", "0.831265"),
     ("-0.493681", "-0.598535"), ("-0.412061", "-0.477518"), ("-0.411769", "-0.520462")],
    [("0.942066", "0.010501"), ("-0.539559", "0.706221"), ("-1.113850", "1.183994"), ("-0.742025", "0.704365"),
     ("-0.594624", "-0.234945"), ("-0.609949", "-0.595967"), ("-0.713396", "-0.277012")],
]


def mmts_fig1c() -> Dataset:
    """Fig. 1(c)/Fig. 4: n=3, T=7 (torch seed 0, 6 d.p. as printed); score 1 for token 0, 0.5 else."""
    seqs = [[(a, b, 1 if t == 0 else "0.5") for t, (a, b) in enumerate(seq)] for seq in _FIG1C]
    return _mmts(seqs, name="mmts-fig1c")


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
