"""Property search for mmts.lemma6: ‖∇²L(p)‖₂ ≤ L_p at random points, from moderate to saturated
norms and at split-attention ties, for the three losses; the descent inequality (25) with
η = 1/L_p at random points; the spectral-norm enclosure contains numpy's value."""
from fractions import Fraction

import numpy as np
from flint import arb, arb_mat
from hypothesis import given
from hypothesis import strategies as st

from lemmas.mmts import lemma6
from properties.strategies import exact_rationals
from verify import Dataset
from verify.geometry.smoothness import descent_terms, smoothness_constant
from verify.models.attention import LinearLogitModel
from verify.numbers.linalg import sym_spectral_norm
from verify.numbers.precision import to_arb, working_precision

DPS = 30
small = exact_rationals(-3, 3, 8)


@st.composite
def dataset(draw, keys=False):
    n = draw(st.integers(1, 3))
    T = draw(st.integers(2, 4))
    d = draw(st.integers(1, 3))
    X = [[[draw(small) for _ in range(d)] for _ in range(T)] for _ in range(n)]
    Y = [draw(st.sampled_from([1, -1])) for _ in range(n)]
    v = [draw(small) for _ in range(d)]
    if not any(v):
        v[0] = Fraction(1)
    K = None
    if keys:
        W = [[draw(small) for _ in range(d)] for _ in range(d)]
        K = [[[str(sum(tok[a] * W[a][b] for a in range(d))) for b in range(d)] for tok in seq] for seq in X]
    return Dataset.make(X=[[[str(x) for x in tok] for tok in seq] for seq in X], Y=Y, v=[str(x) for x in v], K=K)


@st.composite
def point(draw, data):
    d = len(data.keys()[0][0])
    direction = [draw(exact_rationals(-1, 1, 50)) for _ in range(d)]
    if not any(direction):
        direction[0] = Fraction(1)
    if draw(st.booleans()) and data.T >= 2:  # a tie between two tokens of one sequence, then scaled up
        i = draw(st.integers(0, data.n - 1))
        t, u = draw(st.sampled_from([(a, b) for a in range(data.T) for b in range(data.T) if a < b]))
        k = data.keys()[i]
        delta = [a - b for a, b in zip(k[t], k[u])]
        dd = sum(x * x for x in delta)
        if dd:
            proj = sum(x * y for x, y in zip(direction, delta)) / dd
            direction = [x - proj * y for x, y in zip(direction, delta)]
    scale = draw(st.sampled_from([Fraction(1, 10), Fraction(1), Fraction(5), Fraction(30), Fraction(300), Fraction(3000)]))
    return [x * scale for x in direction]


@given(st.data())
def test_hessian_bounded_by_lp(draw):
    data = draw.draw(dataset(keys=draw.draw(st.booleans())))
    p = draw.draw(point(data))
    with working_precision(DPS):
        pa = [to_arb(x) for x in p]
        for loss in lemma6.LOSSES:
            Lp = smoothness_constant(data, loss).value
            H = LinearLogitModel.from_dataset(data, "p", loss).hessian(pa)
            norm = sym_spectral_norm(H)
            assert norm <= Lp, (loss, norm, Lp, p)


@given(st.data())
def test_descent_inequality_at_random_points(draw):
    data = draw.draw(dataset())
    p = draw.draw(point(data))
    with working_precision(DPS):
        model = LinearLogitModel.from_dataset(data, "p", "logistic")
        Lp = smoothness_constant(data, "logistic").value
        eta = arb((1 / Lp).lower())
        pa = [to_arb(x) for x in p]
        drop, half, g2, _ = descent_terms(model, pa, eta)
        if half > arb(10) ** -(DPS // 2) * abs(model.excess(pa)):  # resolvable at this precision
            assert drop >= half, (p, drop, half)


@given(st.lists(st.lists(exact_rationals(-5, 5, 6), min_size=4, max_size=4),
                min_size=4, max_size=4), st.integers(1, 4))
def test_spectral_norm_encloses(rows, n):
    A = [row[:n] for row in rows[:n]]
    S = [[A[i][j] + A[j][i] for j in range(n)] for i in range(n)]
    with working_precision(DPS):
        got = sym_spectral_norm(arb_mat([[to_arb(x) for x in row] for row in S]))
        ref = float(max(abs(np.linalg.eigvalsh(np.array(S, dtype=float)))))
        assert got.lower() <= ref * (1 + 1e-12) + 1e-12
        assert got.upper() >= ref * (1 - 1e-12) - 1e-12
        assert float(got.rad()) <= 1e-20 * max(1.0, ref)
