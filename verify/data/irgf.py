"""Reference datasets of the irgf claims, exact, and the default initialisation scale ω₀.

The paper (Sheen, Chen, Wang, Zhou, arXiv 2403.08699 v1) has no experiments; these datasets were
built for the checks so that each claim has a case where its hypotheses hold and cases where one of
them fails. For the diagonal model only the constraint vectors B_il = z_i ⊙ (x_{i,opt} − x_il) and
the scores γ_il = y_i vᵀx_il matter (softmax is shift-invariant).

* ``D-SEED0``  n = 3, L = 3, d = 4, generic; Assumptions 1–3 hold; unique ℓ1-SVM solution
  (p* = 1.5953277578…, support {1,3,4}). Recipe: numpy ``default_rng(0)``; for i = 0,1,2:
  y_i = +1 if i even else −1; X_i = rng.normal(size=(3,4)); column 0 ← y_i·(4,0,0);
  z_i = rng.normal(size=4); v = e₁. The float64 values are stored as their shortest round-trip
  decimal strings (exact decimals; they differ from the binary floats by < 1e-17 relative, so
  p* agrees with the float64 recipe to ~16 digits).
* ``D-TRAP``   Assumption 3 violated (ℒ(0) = 0.700711 > 0.623298); with ω₀ = 0.1·𝟙 the flow
  locks sequence 2 onto its non-optimal token.
* ``D-A2VIOL`` Assumption 2 violated (scores (1, 0.9, 0)).
* ``D-DIAGINF`` Assumptions 1, 2 (and 3) hold but the ℓ1-SVM is infeasible: B₁ = (1,0,0) = −B₂,
  ∇_βℒ(0) = 0 exactly (the hidden hypothesis ``irgf.hyp.diagsep`` fails).
* ``D-FACE``   n = 1, L = 2, B = (1,1,0): the optimal face {β ≥ 0, β₁ + β₂ = 1, β₃ = 0}.
* ``D-FACE2``  n = 1, L = 2, B = (1, −1, 1/2, 0) (built here for irgf.aux.face): the optimal face {β₁ ≥ 0 ≥ β₂,
  β₁ − β₂ = 1, β₃ = β₄ = 0} and an off-face coordinate (β₃) that decays like µ^{−1/2} (reduced cost κ = 1/2).
* ``D-FACE3``  n = 2, L = 2, B₁ = (1, 1, 0), B₂ = (1, 2, 0) (built here): the optimal face {β ≥ 0, β₁ + β₂ = 1,
  β₃ = 0} again, but sequence 2's constraint — active only at the vertex (1, 0, 0) — takes dual mass early on
  (φ₂(∞) > 0), so the flow's point on the face is not the ω₀-weighted one: β̂₂/β̂₁ → (ω₀,2²/ω₀,1²)·e^{φ₂(∞)}.
* ``D-A4``     Assumptions 2–4 (general weights, Theorem 5.1), d = d_e = 3, c = 1/6.
* ``D-A1VIOL`` Assumption 1 violated (built here; the spec has none): two sequences with the same tokens and query
  and opposite labels, so their optimal tokens swap and the constraint matrices are A and −A — no W separates
  (Farkas λ = (1/2, 1/2)).
* ``D-A4-SHIFT`` D-A4 with one non-optimal token shifted by 0.5·e₃: Assumption 4(iii) fails (2 and 3 hold).
* ``random_a4_dataset`` seeded exact data meeting Assumptions 2 and 4 (rational orthogonal bases, Cayley).

Queries z_i are given explicitly (the paper's model has a separate query; the default "first
token" of the dataset JSON is not used here).
"""
from __future__ import annotations

import random
from fractions import Fraction

from verify.data.dataset import Dataset

# numpy default_rng(0) draws of the recipe (shortest round-trip decimals of the float64 values)
_SEED0_X = [
    [["4.0", "-0.1321048632913019", "0.6404226504432821", "0.10490011715303971"],
     ["0.0", "0.36159505490948474", "1.3040000451301372", "0.9470809631292422"],
     ["0.0", "-1.2654214710460525", "-0.6232744625373522", "0.0413259793472436"]],
    [["-4.0", "-0.31630015636915454", "0.4116305363741328", "1.0425133694426776"],
     ["0.0", "1.3664634705496859", "-0.6651946734866135", "0.3515100700930197"],
     ["0.0", "0.09401229776087457", "-0.7434992493538084", "-0.9217253762584194"]],
    [["4.0", "0.5408455846858077", "0.2146591225063409", "0.3553727090399214"],
     ["0.0", "-0.12961363369276946", "0.7839754700613295", "1.4934311452207607"],
     ["0.0", "1.5139237747390626", "1.3458754237823045", "0.7813114007004275"]],
]
_SEED0_Z = [
    ["-2.3250307746388343", "-0.21879166393254573", "-1.2459109472530652", "-0.7322673547034516"],
    ["-0.45772582566733916", "0.2201951234700494", "-1.009618183538736", "-0.20917557487171307"],
    ["0.2644556303293035", "-0.3139228145364278", "1.4580206835369587", "1.9602583164499647"],
]


def d_seed0() -> Dataset:
    """D-SEED0: generic data, Assumptions 1–3 hold, unique ℓ1-SVM solution."""
    return Dataset.make(X=_SEED0_X, Y=[1, -1, 1], v=[1, 0, 0, 0], z=_SEED0_Z, name="D-SEED0")


def d_trap() -> Dataset:
    """D-TRAP: Assumption 3 violated; ω₀ = 0.1·𝟙 traps sequence 2 on its non-optimal token."""
    return Dataset.make(
        X=[[[1, 0, "1.4"], [0, 0, 0]], [[-2, 1, "0.2"], [0, 0, 0]]],
        Y=[1, 1], v=[0, 0, 1], z=[[1, 0, 0], [1, 1, 0]], name="D-TRAP")


def d_a2viol() -> Dataset:
    """D-A2VIOL: one sequence with scores (1, 0.9, 0): Assumption 2 violated."""
    return Dataset.make(
        X=[[[-1, "0.3", 1], [3, 0, "0.9"], [0, 0, 0]]], Y=[1], v=[0, 0, 1], z=[[1, 1, 0]],
        name="D-A2VIOL")


def d_diaginf() -> Dataset:
    """D-DIAGINF: Assumptions 1–3 hold, the ℓ1-SVM is infeasible (B₁ = −B₂), ∇_βℒ(0) = 0."""
    return Dataset.make(
        X=[[[1, 0, 1], [0, 0, 0]], [[-1, 0, 1], [0, 0, 0]]],
        Y=[1, 1], v=[0, 0, 1], z=[[1, 0, 0], [1, 1, 0]], name="D-DIAGINF")


def d_a1viol() -> Dataset:
    """D-A1VIOL: no W separates (Assumption 1 fails): sequence 2 repeats sequence 1 with y = −1, so opt swaps and
    (x_opt − x_l) z ᵀ of the two sequences are A and −A. Assumption 2 holds (L = 2)."""
    return Dataset.make(X=[[[1, 0, 1], [0, 0, 0]], [[1, 0, 1], [0, 0, 0]]], Y=[1, -1], v=[0, 0, 1],
                        z=[[1, 1, 0], [1, 1, 0]], name="D-A1VIOL")


def d_face() -> Dataset:
    """D-FACE: n = 1, L = 2, B = (1,1,0): a non-unique ℓ1-SVM solution (an optimal face)."""
    return Dataset.make(X=[[[1, 1, 1], [0, 0, 0]]], Y=[1], v=[0, 0, 1], z=[[1, 1, 0]], name="D-FACE")


def d_face2() -> Dataset:
    """D-FACE2: n = 1, L = 2, B = (1, −1, 1/2, 0): a segment of ℓ1-SVM solutions and one coordinate off the face."""
    return Dataset.make(X=[[[1, -1, "1/2", 1], [0, 0, 0, 0]]], Y=[1], v=[0, 0, 0, 1], z=[[1, 1, 1, 0]], name="D-FACE2")


def d_face3() -> Dataset:
    """D-FACE3: B₁ = (1, 1, 0), B₂ = (1, 2, 0): the face of D-FACE, with a second constraint that touches it only at
    a vertex (irgf.aux.face's counterexample to the spec's face-selection heuristic)."""
    return Dataset.make(X=[[[1, 1, 1], [0, 0, 0]], [[1, 2, 1], [0, 0, 0]]], Y=[1, 1], v=[0, 0, 1],
                        z=[[1, 1, 0], [1, 1, 0]], name="D-FACE3")


def d_a4(v=(3, 4, 0)) -> Dataset:
    """D-A4: Assumptions 2–4 (general weights); ``v = (1, 1, 0)`` violates Assumption 3."""
    c = Fraction(1, 6)
    X = [
        [[2, 0, 0], [2 * c, 0, "0.7"], [2 * c, 0, "-0.7"]],
        [[0, "-1.5", 0], [0, Fraction(-3, 2) * c, "0.4"], [0, Fraction(-3, 2) * c, "-0.4"]],
    ]
    name = "D-A4" if tuple(v) == (3, 4, 0) else "D-A4-v" + "".join(str(a) for a in v)
    return Dataset.make(X=X, Y=[1, -1], v=list(v), z=[["1.5", 0, 0], [0, "-0.8", 0]], name=name)


def d_a4_shift() -> Dataset:
    """D-A4 with sequence 1's first non-optimal token shifted by 0.5·e₃: Assumption 4(iii) fails (the pair no longer
    sums to 2c·x_opt), Assumptions 2 and 3 still hold (v₃ = 0). (The spec's false case shifts by 0.5·e₂, which also
    changes that token's score and so breaks Assumption 2 as well.)"""
    c = Fraction(1, 6)
    X = [
        [[2, 0, 0], [2 * c, 0, "1.2"], [2 * c, 0, "-0.7"]],
        [[0, "-1.5", 0], [0, Fraction(-3, 2) * c, "0.4"], [0, Fraction(-3, 2) * c, "-0.4"]],
    ]
    return Dataset.make(X=X, Y=[1, -1], v=[3, 4, 0], z=[["1.5", 0, 0], [0, "-0.8", 0]], name="D-A4-SHIFT")


def rational_orthogonal(m: int, seed: int = 0) -> list:
    """A rational orthogonal m × m matrix (rows of Fractions): the Cayley transform (I − S)(I + S)⁻¹ of a skew S with
    seeded entries in {−3/4, …, 3/4} (I + S is invertible for every skew S, and the transform is exactly orthogonal)."""
    from flint import fmpq, fmpq_mat

    rng = random.Random(seed)
    S = [[Fraction(0)] * m for _ in range(m)]
    for a in range(m):
        for b in range(a + 1, m):
            S[a][b] = Fraction(rng.randint(-3, 3), 4)
            S[b][a] = -S[a][b]
    eye = fmpq_mat(m, m, [int(a == b) for a in range(m) for b in range(m)])
    Sm = fmpq_mat(m, m, [fmpq(x.numerator, x.denominator) for row in S for x in row])
    V = (eye - Sm) * (eye + Sm).inv()
    return [[Fraction(int(V[a, b].p), int(V[a, b].q)) for b in range(m)] for a in range(m)]


def random_a4_dataset(n=2, L=3, d=4, seed=0, name=None) -> Dataset:
    """Seeded exact data meeting Assumptions 2 and 4 (general weights, Theorem 5.1): U = ``rational_orthogonal(d,
    seed)``; x_{i,opt} = a_i u_i, z_i = ±b_i u_i (query ∥ optimal token, (ii)); the L − 1 non-optimal tokens in pairs
    c_i x_opt ± r (one c_i ∈ [−1/2, 1/2] per sequence: equal non-optimal scores), r ⊥ x_opt and r ⊥ v (so the pair's
    scores are equal), r drawn in span{u_j : j ≠ i} then made orthogonal to v exactly; y_i = sign(vᵀx_opt)."""
    if L % 2 == 0 or n > d or d < 3:
        raise ValueError("random_a4_dataset needs L odd, n ≤ d and d ≥ 3")
    rng = random.Random(seed)
    U = rational_orthogonal(d, seed)
    col = [[U[a][j] for a in range(d)] for j in range(d)]
    dot = lambda p, q: sum((x * y for x, y in zip(p, q)), Fraction(0))  # noqa: E731
    v = [Fraction(rng.choice([k for k in range(-4, 5) if k])) for _ in range(d)]
    while any(dot(v, col[i]) == 0 for i in range(n)):
        v = [x + 1 for x in v]
    X, Y, Z = [], [], []
    for i in range(n):
        a, b = Fraction(rng.randint(4, 12), 4), Fraction(rng.randint(2, 8), 4)
        xo = [a * x for x in col[i]]
        y = 1 if dot(v, xo) > 0 else -1
        vp = [p - dot(v, col[i]) * q for p, q in zip(v, col[i])]  # v − (vᵀu_i)u_i ⊥ u_i
        c = Fraction(rng.randint(-2, 2), 4)
        seq = [xo]
        for _ in range((L - 1) // 2):
            co = [Fraction(rng.randint(-3, 3), 2) if j != i else Fraction(0) for j in range(d)]
            r0 = [sum((co[j] * col[j][k] for j in range(d)), Fraction(0)) for k in range(d)]
            r = [p - dot(r0, vp) / dot(vp, vp) * q for p, q in zip(r0, vp)] if any(vp) else r0
            seq += [[c * p + q for p, q in zip(xo, r)], [c * p - q for p, q in zip(xo, r)]]
        X.append(seq)
        Y.append(y)
        sz = 1 if rng.random() < 0.5 else -1
        Z.append([sz * b * x for x in col[i]])
    return Dataset.make(X=X, Y=Y, v=v, z=Z, name=name or f"irgf-a4-n{n}L{L}d{d}-s{seed}")


IRGF_DATASETS = {
    "D-SEED0": d_seed0,
    "D-TRAP": d_trap,
    "D-A2VIOL": d_a2viol,
    "D-DIAGINF": d_diaginf,
    "D-A1VIOL": d_a1viol,
    "D-FACE": d_face,
    "D-FACE2": d_face2,
    "D-FACE3": d_face3,
    "D-A4": d_a4,
    "D-A4-SHIFT": d_a4_shift,
}


def irgf_dataset(name: str) -> Dataset:
    return IRGF_DATASETS[name]()


def random_diag_dataset(n=2, L=2, d=3, seed=0, gap="2", name=None) -> Dataset:
    """Random exact data meeting Assumption 2 (v = e_d; opt token scores ``gap``, others 0; random
    rational keys in the first d−1 coordinates; random queries with a zero last coordinate)."""
    rng = random.Random(seed)
    g = Fraction(gap)
    X, Z = [], []
    for _ in range(n):
        seq = []
        for t in range(L):
            key = [Fraction(rng.randint(-20, 20), 10) for _ in range(d - 1)]
            seq.append(key + [g if t == 0 else Fraction(0)])
        X.append(seq)
        Z.append([Fraction(rng.randint(-20, 20), 10) for _ in range(d - 1)] + [Fraction(0)])
    return Dataset.make(X=X, Y=[1] * n, v=[0] * (d - 1) + [1], z=Z,
                        name=name or f"irgf-random-n{n}L{L}d{d}-s{seed}")
