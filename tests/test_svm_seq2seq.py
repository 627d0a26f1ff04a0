"""SAtt-SVM (full and causal), Gen-SVM and W^fin against independent brute force in Fractions."""
from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction as F

import pytest
from flint import arb
from test_svm_exact import dot, qp_oracle  # the independent active-set oracle (tests/ is on sys.path)

from verify.data.dataset import Dataset
from verify.errors import DataError
from verify.svm import build_problem, problem_from_rows, solve_svm
from verify.svm.seq2seq import gen_svm, satt_svm, w_fin


def bilinear(u, W, z):
    d = len(u)
    return sum((u[a] * W[a * d + b] * z[b] for a in range(d) for b in range(d)), F(0))


def vec_outer(u, z):
    return [a * b for a in u for b in z]


def satt_rows_ref(X, alpha, causal):
    rows = []
    for i, seq in enumerate(X):
        T = len(seq)
        for k in range(T):
            a = alpha[i][k]
            ts = range(k + 1) if causal else range(T)
            if causal and (k == 0 or a > k):
                continue
            for t in ts:
                if t != a:
                    rows.append(vec_outer([p - q for p, q in zip(seq[a], seq[t])], seq[k]))
    return rows


def rand_data(rng, n=2, T=3, d=2):
    X = [[[F(rng.randint(-3, 3), rng.randint(1, 2)) for _ in range(d)] for _ in range(T)]
         for _ in range(n)]
    z = [[F(rng.randint(-2, 2), rng.randint(1, 3)) for _ in range(d)] for _ in range(n)]
    return Dataset.make(X=X, Y=[1, -1][:n] + [1] * max(0, n - 2), v=[1, F(1, 3)] + [0] * (d - 2), z=z)


def check_against_oracle(res, rows, rhs):
    oracle = qp_oracle(rows, rhs)
    if oracle is None:
        assert res.status == "infeasible"
        f = res.farkas
        assert f.passed and f.residual == 0 and f.rhs > 0 and all(v >= 0 for v in f.lam)
    else:
        assert res.status == "optimal" and res.exact and res.certificate.passed
        assert res.solution == oracle[1]
        assert res.objective ** 2 == oracle[0] if isinstance(res.objective, F) else True
    return oracle


# ---------------------------------------------------------------- SAtt-SVM
@pytest.mark.parametrize("seed", range(8))
def test_satt_matches_bruteforce(seed):
    rng = random.Random(100 + seed)
    ds = rand_data(rng, n=rng.randint(1, 2)) if seed % 2 else rand_data(rng, n=1, d=3)
    T = ds.T
    alpha = [[rng.randrange(T) for _ in range(T)] for _ in range(ds.n)]
    for causal in (False, True):
        rows = satt_rows_ref(ds.X, alpha, causal)
        if not rows:
            continue
        res = satt_svm(ds, alpha, causal=causal, dps=30)
        assert len(res.labels) == len(rows)
        check_against_oracle(res, rows, [F(1)] * len(rows))


def test_satt_default_selection_is_argmax_per_query():
    ds = Dataset.make(X=[[[2, 0], [0, 1], [1, 1]]], Y=[1], v=[1, F(1, 4)])
    res = satt_svm(ds, dps=30)
    assert res.alpha == ((0, 0, 0),)       # γ = (2, 1/4, 5/4)
    resc = satt_svm(ds, causal=True, dps=30)
    assert resc.alpha == ((0, 0, 0),)
    ds2 = Dataset.make(X=[[[0, 1], [2, 0], [1, 1]]], Y=[1], v=[1, F(1, 4)])
    resc2 = satt_svm(ds2, causal=True, dps=30)
    assert resc2.alpha == ((0, 1, 1),)     # γ = (1/4, 2, 5/4); causal argmax over t ≤ k
    check_against_oracle(resc2, satt_rows_ref(ds2.X, resc2.alpha, True), [F(1)] * len(resc2.labels))


def test_satt_tie_is_data_error():
    ds = Dataset.make(X=[[[1, 0], [1, 2], [0, 1]]], Y=[1], v=[1, 0])
    with pytest.raises(DataError):
        satt_svm(ds)


@pytest.mark.parametrize("seed", range(4))
def test_causal_has_fewer_rows_and_smaller_objective(seed):
    rng = random.Random(200 + seed)
    ds = rand_data(rng, n=2, T=3, d=3)    # 12 rows in dimension 9: the full SVM is feasible
    alpha = [[rng.randrange(ds.T)] * ds.T for _ in range(ds.n)]
    full = satt_svm(ds, alpha, dps=30)
    causal = satt_svm(ds, alpha, causal=True, dps=30)
    assert set(causal.labels) < set(full.labels)
    assert full.status == "optimal" and causal.status == "optimal"
    assert dot(causal.solution, causal.solution) <= dot(full.solution, full.solution)


def test_satt_infeasible_gives_farkas():
    X = [[[1, 0], [0, 1]], [[1, 0], [0, 1]]]
    ds = Dataset.make(X=X, Y=[1, 1], v=[1, 0])
    res = satt_svm(ds, [[0, 0], [1, 1]], dps=30)
    assert res.status == "infeasible"
    f = res.farkas
    assert f.passed and f.residual == 0 and f.rhs > 0 and sum(f.lam) == 1
    # independent check of Σλ_j a_j = 0 on the reference rows
    rows = satt_rows_ref([[[F(v) for v in tok] for tok in s] for s in X], [[0, 0], [1, 1]], False)
    assert all(sum(l * r[c] for l, r in zip(f.lam, rows)) == 0 for c in range(4))


# ---------------------------------------------------------------- Gen-SVM
@pytest.mark.parametrize("seed", range(6))
def test_gen_matches_bruteforce_and_equalities_exact(seed):
    rng = random.Random(300 + seed)
    ds = rand_data(rng)
    O = [sorted(rng.sample(range(ds.T), rng.randint(1, 2))) for _ in range(ds.n)]
    Z = ds.queries()
    rows, rhs = [], []
    for i, s in enumerate(O):     # all pairs, independently of the engine's spanning pairs
        for t in s:
            for tau in range(ds.T):
                diff = [p - q for p, q in zip(ds.X[i][t], ds.X[i][tau])]
                if tau not in s:
                    rows.append(vec_outer(diff, Z[i]))
                    rhs.append(F(1))
                elif t < tau:
                    rows.append(vec_outer(diff, Z[i]))
                    rhs.append(F(0))
                    rows.append([-v for v in vec_outer(diff, Z[i])])
                    rhs.append(F(0))
    res = gen_svm(ds, O, dps=30)
    check_against_oracle(res, rows, rhs)
    if res.status == "optimal":
        for i, s in enumerate(O):
            for t, tau in itertools.combinations(s, 2):
                diff = [p - q for p, q in zip(ds.X[i][t], ds.X[i][tau])]
                assert bilinear(diff, res.solution, Z[i]) == 0
                for u in range(ds.T):
                    if u not in s:
                        d2 = [p - q for p, q in zip(ds.X[i][t], ds.X[i][u])]
                        assert bilinear(d2, res.solution, Z[i]) >= 1


@pytest.mark.parametrize("seed", range(4))
def test_gen_singletons_equal_plain_W_svm(seed):
    rng = random.Random(400 + seed)
    ds = rand_data(rng)
    alpha = tuple(rng.randrange(ds.T) for _ in range(ds.n))
    g = gen_svm(ds, [[a] for a in alpha], dps=30)
    w = solve_svm(ds, "W", alpha, dps=30)
    assert g.status == w.status
    assert build_problem(ds, "W", alpha).rows == g.problem.rows
    if w.status == "optimal":
        assert g.solution == w.solution   # objective = ‖solution‖_F, the same exact point


def test_gen_infeasible_through_equality_gives_farkas():
    # seq 0: 𝒪 = {0, 1} forces (x0 − x1)ᵀWz = 0; seq 1 (same tokens, same z): 𝒪 = {0} needs ≥ 1
    X = [[[1, 0], [0, 1], [-1, -1]], [[1, 0], [0, 1], [-1, -2]]]
    ds = Dataset.make(X=X, Y=[1, 1], v=[1, 0], z=[[1, 2], [1, 2]])
    res = gen_svm(ds, [[0, 1], [0]], dps=30)
    assert res.status == "infeasible" and res.farkas.passed and res.farkas.residual == 0
    used = {res.labels[j][3] for j in range(len(res.labels)) if res.farkas.lam[j] > 0}
    assert "eq-" in used and "ge" in used
    # without the equality rows the same ≥ constraints are feasible (u = Wz = (2, 0) works)
    pr = res.problem
    ge = [j for j, lab in enumerate(res.labels) if lab[3] == "ge"]
    only_ge = problem_from_rows([pr.rows[j] for j in ge], [pr.rhs[j] for j in ge], "fro", (2, 2))
    assert solve_svm(only_ge, dps=30).status == "optimal"


# ---------------------------------------------------------------- W^fin
def test_w_fin_min_norm_and_log_ratios():
    rng = random.Random(7)
    ds = rand_data(rng, n=2, T=3)
    O = [[0, 1, 2], [0, 2]]
    s = [[F(1, 2), F(1, 3), F(1, 6)], [F(1, 5), F(1, 5), F(3, 5)]]
    wf = w_fin(ds, O, s, dps=40)
    assert wf.consistent and wf.residual < arb(10) ** -30
    Z = ds.queries()
    flat = [v for r in wf.W for v in r]
    for i, o in enumerate(O):
        for t, tau in itertools.combinations(o, 2):
            diff = [p - q for p, q in zip(ds.X[i][t], ds.X[i][tau])]
            val = sum(float(diff[a]) * float(flat[a * 2 + b].mid()) * float(Z[i][b])
                      for a in range(2) for b in range(2))
            assert abs(val - math.log(float(s[i][t]) / float(s[i][tau]))) < 1e-9
    # minimum norm: W^fin lies in the row space of the equality rows (numpy cross-check)
    import numpy as np
    M = np.array([[float(v) for v in vec_outer([p - q for p, q in zip(ds.X[i][t], ds.X[i][tau])], Z[i])]
                  for i, o in enumerate(O) for t, tau in itertools.combinations(o, 2)])
    c = np.array([math.log(float(s[i][t]) / float(s[i][tau]))
                  for i, o in enumerate(O) for t, tau in itertools.combinations(o, 2)])
    ref = np.linalg.pinv(M) @ c
    assert np.allclose(ref, [float(v.mid()) for v in flat], atol=1e-9)


def test_w_fin_inconsistent_is_least_squares():
    # x2 = (x0 + x1)/2 makes row(0,2) = row(0,1)/2, but log(s0/s2) ≠ log(s0/s1)/2: least squares
    ds = Dataset.make(X=[[[2, 0], [0, 2], [1, 1]]], Y=[1], v=[1, 0], z=[[1, 1]])
    s = [[F(1, 2), F(1, 4), F(1, 4)]]
    wf = w_fin(ds, [[0, 1, 2]], s, dps=40)
    assert not wf.consistent and wf.rank == 1
    import numpy as np
    M = np.array([[2., 2., -2., -2.], [1., 1., -1., -1.], [-1., -1., 1., 1.]])
    c = np.log([2., 2., 1.])
    ref = np.linalg.pinv(M) @ c
    assert np.allclose(ref, [float(v.mid()) for r in wf.W for v in r], atol=1e-12)
