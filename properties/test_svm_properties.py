"""Property tests of the SVM engine (hypothesis; profiles ``ci``/``deep`` from conftest)."""
from __future__ import annotations

import itertools
from fractions import Fraction as F

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from verify.data.dataset import Dataset
from verify.svm import problem_from_rows, solve_svm, verify_certificate
from verify.svm.geometry import is_locally_optimal

rat = st.builds(F, st.integers(-4, 4), st.integers(1, 3))


@st.composite
def rows_rhs(draw, max_m=5, max_n=3):
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(1, max_m))
    rows = [tuple(draw(rat) for _ in range(n)) for _ in range(m)]
    rhs = [draw(st.sampled_from([F(1), F(1), F(0), F(1, 2)])) for _ in range(m)]
    return rows, rhs


def _dot(a, b):
    return sum((x * y for x, y in zip(a, b)), F(0))


def _solve(M, r):
    n = len(M)
    A = [list(row) + [v] for row, v in zip(M, r)]
    for c in range(n):
        p = next((i for i in range(c, n) if A[i][c] != 0), None)
        if p is None:
            return None
        A[c], A[p] = A[p], A[c]
        for i in range(n):
            if i != c and A[i][c] != 0:
                f = A[i][c] / A[c][c]
                A[i] = [a - f * b for a, b in zip(A[i], A[c])]
    return [A[i][n] / A[i][i] for i in range(n)]


def _qp_oracle(rows, rhs):
    m, n = len(rows), len(rows[0])
    for k in range(0, min(m, n) + 1):
        for S in itertools.combinations(range(m), k):
            lam = _solve([[_dot(rows[i], rows[j]) for j in S] for i in S], [rhs[i] for i in S]) if S else []
            if lam is None or any(v < 0 for v in lam):
                continue
            x = [sum((lam[t] * rows[S[t]][c] for t in range(k)), F(0)) for c in range(n)]
            if all(_dot(r, x) >= b for r, b in zip(rows, rhs)):
                return x
    return None


@settings(deadline=None)
@given(rows_rhs())
def test_l2_exact_equals_active_set_enumeration(data):
    rows, rhs = data
    res = solve_svm(problem_from_rows(rows, rhs, "l2"), dps=20)
    oracle = _qp_oracle(rows, rhs)
    if oracle is None:
        assert res.status == "infeasible" and res.farkas.passed
    else:
        assert res.status == "optimal" and res.solution == oracle and res.certificate.passed


@settings(deadline=None)
@given(rows_rhs(max_m=4), st.builds(F, st.integers(1, 7), st.integers(1, 5)))
def test_scaling_rows_scales_solution(data, c):
    rows, rhs = data
    for norm in ("l2", "l1"):
        a = solve_svm(problem_from_rows(rows, rhs, norm), dps=20)
        b = solve_svm(problem_from_rows([tuple(c * v for v in r) for r in rows], rhs, norm), dps=20)
        assert a.status == b.status
        if a.status == "optimal":
            assert b.objective == a.objective / c if norm == "l1" else True
            if norm == "l2":
                assert b.solution == [v / c for v in a.solution]


@settings(deadline=None)
@given(rows_rhs())
def test_l1_certificate_and_perturbation(data):
    rows, rhs = data
    res = solve_svm(problem_from_rows(rows, rhs, "l1"), dps=20)
    if res.status == "infeasible":
        assert res.farkas.passed
        return
    assert res.certificate.passed
    assert sum(abs(v) for v in res.solution) == res.objective
    if res.objective > 0:  # any nonzero perturbation of a vertex solution breaks the exact certificate
        bad = [res.solution[0] * (1 + F(1, 10**9))] + list(res.solution[1:])
        if bad != res.solution:
            assert not verify_certificate(res.problem, bad, res.duals).passed


@st.composite
def datasets(draw):
    n, T, d = draw(st.integers(1, 3)), draw(st.integers(2, 3)), draw(st.integers(1, 3))
    X = [[[draw(rat) for _ in range(d)] for _ in range(T)] for _ in range(n)]
    Y = [draw(st.sampled_from([1, -1])) for _ in range(n)]
    v = [draw(rat) for _ in range(d)]
    return Dataset.make(X=X, Y=Y, v=v)


@settings(deadline=None)
@given(datasets())
def test_gmm_is_locally_optimal_when_feasible(ds):
    opt = ds.optimal_tokens()
    assume(all(len(o) == 1 for o in opt))
    res = solve_svm(ds, "p", "opt", dps=20)
    if res.status == "optimal":
        assert is_locally_optimal(ds, tuple(o[0] for o in opt))
