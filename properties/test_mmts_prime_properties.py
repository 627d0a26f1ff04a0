"""Property tests of (ATT-SVM') (mmts App. D, ``verify.svm.prime``): on small rational data with ties inside the optimal
sets, the solution set equals the minimum-norm solutions of an independent active-set enumeration over every choice
α ∈ Π O_i, and each element satisfies the non-convex constraint max_{α∈O_i}(k_iα − k_it)ᵀp ≥ 1 exactly."""
from __future__ import annotations

import itertools
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from properties.test_svm_properties import _qp_oracle
from verify.data.dataset import Dataset
from verify.svm.prime import solve_att_svm_prime

coord = st.builds(F, st.integers(-3, 3), st.integers(1, 2))


@st.composite
def tied_data(draw):
    n, T = draw(st.integers(1, 2)), draw(st.integers(2, 4))
    keys = [[(draw(coord), draw(coord)) for _ in range(T)] for _ in range(n)]
    sets = []
    for _ in range(n):
        k = draw(st.integers(1, T - 1))
        sets.append(tuple(sorted(draw(st.permutations(range(T)))[:k])))
    return keys, sets


def _dot(a, b):
    return sum((x * y for x, y in zip(a, b)), F(0))


@settings(deadline=None)
@given(tied_data())
def test_prime_equals_enumerated_oracle(case):
    keys, sets = case
    data = Dataset.make(X=[[list(k) for k in seq] for seq in keys], Y=[1] * len(keys), v=[0, 0])
    res = solve_att_svm_prime(data, sets, dps=20)
    sols = []
    for alpha in itertools.product(*sets):
        rows = [tuple(a - b for a, b in zip(keys[i][alpha[i]], keys[i][t]))
                for i in range(len(keys)) for t in range(len(keys[i])) if t not in sets[i]]
        x = _qp_oracle(rows, [F(1)] * len(rows))
        if x is not None:
            sols.append(tuple(x))
    if not sols:
        assert res.status == "infeasible"
        return
    best = min(_dot(x, x) for x in sols)
    assert res.status == "optimal" and res.norm2 == best
    assert set(res.solutions) == {x for x in sols if _dot(x, x) == best}
    for p in res.solutions:
        for i, seq in enumerate(keys):
            for t in range(len(seq)):
                if t not in sets[i]:
                    assert max(_dot([a - b for a, b in zip(seq[o], seq[t])], p) for o in sets[i]) >= 1
