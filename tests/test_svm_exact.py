"""Exact SVM solves against independent brute-force oracles written here in plain Fractions,
and the paper values (mmts Fig. 1, Fig. 3)."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import pytest

from verify.data.dataset import Dataset
from verify.svm import build_problem, problem_from_rows, solve_svm, verify_certificate
from verify.svm.geometry import is_locally_optimal, locally_optimal_selections, svm_neighbours


# ---------------------------------------------------------------- independent oracles (Fractions)
def gauss_solve(M, rhs):
    """Solve a square system in Fractions; None when singular."""
    n = len(M)
    A = [list(r) + [v] for r, v in zip(M, rhs)]
    for c in range(n):
        p = next((r for r in range(c, n) if A[r][c] != 0), None)
        if p is None:
            return None
        A[c], A[p] = A[p], A[c]
        for r in range(n):
            if r != c and A[r][c] != 0:
                f = A[r][c] / A[c][c]
                A[r] = [a - f * b for a, b in zip(A[r], A[c])]
    return [A[i][n] / A[i][i] for i in range(n)]


def dot(a, b):
    return sum((x * y for x, y in zip(a, b)), F(0))


def qp_oracle(rows, rhs):
    """min ½‖x‖² s.t. rows·x ≥ rhs by enumerating active sets; None when infeasible."""
    m, n = len(rows), len(rows[0])
    best = None
    for k in range(0, min(m, n) + 1):
        for S in itertools.combinations(range(m), k):
            G = [[dot(rows[i], rows[j]) for j in S] for i in S]
            lam = gauss_solve(G, [rhs[i] for i in S]) if S else []
            if lam is None or any(v < 0 for v in lam):
                continue
            x = [sum((lam[t] * rows[S[t]][c] for t in range(k)), F(0)) for c in range(n)]
            if all(dot(r, x) >= b for r, b in zip(rows, rhs)):
                val = dot(x, x)
                if best is None or val < best[0]:
                    best = (val, x)
    return best


def l1_dual_oracle(rows, rhs):
    """max bᵀλ s.t. λ ≥ 0, −1 ≤ Aᵀλ ≤ 1 by enumerating vertices of the dual polytope."""
    m, n = len(rows), len(rows[0])
    cons = []   # (c, e): cᵀλ ≤ e
    for j in range(m):
        cons.append(([F(-1) if i == j else F(0) for i in range(m)], F(0)))
    for k in range(n):
        col = [rows[j][k] for j in range(m)]
        cons.append((col, F(1)))
        cons.append(([-v for v in col], F(1)))
    best = None
    for S in itertools.combinations(range(len(cons)), m):
        lam = gauss_solve([cons[s][0] for s in S], [cons[s][1] for s in S])
        if lam is None or any(dot(c, lam) > e for c, e in cons):
            continue
        val = dot(rhs, lam)
        best = val if best is None or val > best else best
    return best


def random_rows(rng, m, n, lo=-4, hi=4, den=3):
    return [tuple(F(rng.randint(lo, hi), rng.randint(1, den)) for _ in range(n)) for _ in range(m)]


# ---------------------------------------------------------------- QP (ℓ2, Frobenius)
@pytest.mark.parametrize("seed", range(12))
def test_l2_matches_bruteforce(seed):
    rng = random.Random(seed)
    m, n = rng.randint(1, 5), rng.randint(1, 3)
    rows = random_rows(rng, m, n)
    rhs = [F(1)] * m
    res = solve_svm(problem_from_rows(rows, rhs, "l2"), dps=30)
    oracle = qp_oracle(rows, rhs)
    if oracle is None:
        assert res.status == "infeasible"
        assert res.farkas.passed and res.farkas.residual == 0 and res.farkas.rhs > 0
        assert sum(res.farkas.lam) == 1
    else:
        assert res.status == "optimal" and res.exact
        assert res.solution == oracle[1]
        assert res.certificate.passed


def test_frobenius_matches_bruteforce_on_dataset():
    rng = random.Random(5)
    for _ in range(4):
        X = [[[F(rng.randint(-3, 3), 2) for _ in range(2)] for _ in range(3)] for _ in range(2)]
        ds = Dataset.make(X=X, Y=[1, -1], v=[1, 0], z=[[1, F(1, 2)], [F(-1, 3), 1]])
        pr = build_problem(ds, "W", (0, 2))
        res = solve_svm(ds, "W", (0, 2), dps=25)
        oracle = qp_oracle(list(pr.rows), list(pr.rhs))
        if oracle is None:
            assert res.status == "infeasible" and res.farkas.passed
        else:
            assert res.solution == oracle[1]


def test_wrong_warm_start_is_repaired():
    from verify.svm.exact import solve_qp_exact
    rng = random.Random(11)
    rows = random_rows(rng, 8, 3)
    rhs = [F(1)] * 8
    oracle = qp_oracle(rows, rhs)
    for warm in ([0, 1, 2, 3, 4, 5, 6, 7], [7, 6], [3], []):
        out = solve_qp_exact(rows, rhs, warm=warm)
        if oracle is None:
            assert out[0] == "infeasible"
        else:
            assert out[0] == "optimal" and out[1] == oracle[1]


# ---------------------------------------------------------------- LP (ℓ1)
@pytest.mark.parametrize("seed", range(10))
def test_l1_matches_dual_bruteforce(seed):
    rng = random.Random(100 + seed)
    m, n = rng.randint(1, 4), rng.randint(1, 3)
    rows = random_rows(rng, m, n)
    rhs = [F(1)] * m
    res = solve_svm(problem_from_rows(rows, rhs, "l1"), dps=30)
    if qp_oracle(rows, rhs) is None:
        assert res.status == "infeasible" and res.farkas.passed
        return
    assert res.status == "optimal"
    assert res.objective == l1_dual_oracle(rows, rhs)
    assert sum(abs(v) for v in res.solution) == res.objective
    assert res.certificate.passed


def test_l1_nonunique_face_and_distance():
    pr = problem_from_rows([(1, 1)], [1], "l1")
    res = solve_svm(pr, dps=30)
    assert res.objective == 1 and res.unique is False
    from verify.svm import distance_to_solution_set
    assert distance_to_solution_set([F(1), F(1)], res, dps=30) == 0
    assert distance_to_solution_set([1, 0], res, dps=30) == 0
    d = distance_to_solution_set([1, -1], res, dps=30)   # nearest face point (1, 0): √½
    from flint import arb

    from verify.numbers.precision import working_precision
    with working_precision(30):
        assert abs(d * d - arb(1) / 2) < arb(10) ** -30


def test_l1_unique_detected():
    res = solve_svm(problem_from_rows([(1, 0), (0, 1)], [1, 1], "l1"), dps=20)
    assert res.unique is True and res.solution == [1, 1]


# ---------------------------------------------------------------- paper values
def fig1(c="0.9"):
    return Dataset.make(X=[[["-0.1", 1, 1], [1, 0, "0.9"], [0, 0, c]]], Y=[1], v=[0, 0, 1],
                        K=[[["-0.1", 1], [1, 0], [0, 0]]])


def test_fig1_gmm_and_lmm():
    res = solve_svm(fig1("0"), "p", "opt", dps=40)
    assert res.solution == [F(-10, 101), F(100, 101)]          # (−0.1, 1)/1.01
    assert sum(v * v for v in res.solution) / 2 == F(50, 101)   # ½‖p‖² = 0.49505…
    assert svm_neighbours(res) == {0: [2]}
    lmm = solve_svm(fig1("0"), "p", (1,), dps=40)
    assert lmm.solution == [1, 0] and svm_neighbours(lmm) == {0: [2]}
    assert is_locally_optimal(fig1("0"), (1,))
    assert not is_locally_optimal(fig1("0.9"), (1,))           # neighbour score ties 0.9
    alphas = [a for a, _ in locally_optimal_selections(fig1("0"))]
    assert alphas == [(0,), (1,)]


def fig3(b=False):
    x3 = [[0, 0], ["0.5", "1.5" if b else 1]]
    return Dataset.make(X=[[[0, 0], [1, 1]], [[0, 0], [1, -1]], x3], Y=[1, -1, 1], v=[0, 1])


def test_fig3_pmm_and_relaxed():
    res = solve_svm(fig3(), "p", "opt", dps=30)
    assert res.select == (1, 1, 1)
    assert res.solution == [F(4, 3), F(1, 3)]
    assert sum(v * v for v in res.solution) / 2 == F(17, 18)
    assert sorted(i for i, _ in res.support) == [1, 2]
    rb = solve_svm(fig3(True), "p", "opt", dps=30)
    assert rb.solution == [F(5, 4), F(1, 4)]
    rel = solve_svm(fig3(True), "relaxed", "opt", dps=30)
    assert rel.problem.support_set == (0, 1)
    assert rel.solution == [1, 0]
    v = solve_svm(fig3(True), "v", "opt", dps=30)
    assert v.solution == [0, 1]


# ---------------------------------------------------------------- certificates reject perturbations
def test_perturbed_solution_or_duals_fail():
    res = solve_svm(fig3(), "p", "opt", dps=30)
    x, lam = list(res.solution), list(res.duals)
    assert verify_certificate(res.problem, x, lam).passed
    bad = [x[0] + F(1, 10**20), x[1]]
    assert not verify_certificate(res.problem, bad, lam).passed
    lam2 = [l + (F(1, 10**20) if l else 0) for l in lam]
    assert not verify_certificate(res.problem, x, lam2).passed
    rescaled = [v * (1 - F(1, 10**12)) for v in x]                 # margin 1 − ε
    c = verify_certificate(res.problem, rescaled, lam)
    assert not c.passed and c.primal_residual > 0
    r1 = solve_svm(problem_from_rows([(1, 0), (0, 1)], [1, 1], "l1"), dps=20)
    off = [r1.solution[0] + F(1, 10**15), r1.solution[1]]
    assert not verify_certificate(r1.problem, off, r1.duals).passed
    lam_bad = [r1.duals[0] * (1 + F(1, 10**15)), r1.duals[1]]      # ‖Aᵀλ‖_∞ > 1
    c = verify_certificate(r1.problem, r1.solution, lam_bad)
    assert not c.passed and c.dual_residual > 0


# ---------------------------------------------------------------- degenerate data
def test_huge_and_tiny_entries_scale_exactly():
    big = F(10) ** 30
    ds = Dataset.make(X=[[[1, 1], [0, 0]], [[1, -1], [0, 0]]], Y=[1, 1], v=[1, 0])
    dsb = Dataset.make(X=[[[big, big], [0, 0]], [[big, -big], [0, 0]]], Y=[1, 1], v=[1, 0])
    r, rb = solve_svm(ds, "p", dps=40), solve_svm(dsb, "p", dps=40)
    assert rb.solution == [v / big for v in r.solution]
    small = F(1, 10**30)
    dss = Dataset.make(X=[[[small, small], [0, 0]], [[small, -small], [0, 0]]], Y=[1, 1], v=[1, 0])
    assert solve_svm(dss, "p", dps=40).solution == [v / small for v in r.solution]
    assert solve_svm(dsb, "diag", dps=40).certificate.passed


def test_nearly_parallel_constraints():
    eps = F(1, 10**25)
    rows = [(1, 0), (1, eps), (1, -eps), (1, 2 * eps)]
    res = solve_svm(problem_from_rows(rows, [1, 1, 1, F(1) + eps], "l2"), dps=60)
    assert res.solution == qp_oracle(rows, [1, 1, 1, F(1) + eps])[1]


def test_tied_opt_is_a_data_error():
    from verify.errors import DataError
    ds = Dataset.make(X=[[[1, 0], [1, 1]]], Y=[1], v=[1, 0])
    with pytest.raises(DataError):
        solve_svm(ds, "p", "opt")


def test_unnormalised_distance_and_nearest_face_point():
    """F = {β ≥ 0, β₁ + β₂ = 1} (rows [(1, 1)], ℓ1): from (1, −1) the nearest point of F itself is (1, 0) (distance 1,
    where the ℓ1-normalised distance is √½); from (2, 2) it is (1/2, 1/2) (distance √(9/2)). ℓ2 point (1/2, 1/2):
    unnormalised distance from (1, 1) is √½."""
    from flint import arb

    from verify.numbers.precision import working_precision
    from verify.svm import distance_to_solution_set, nearest_in_l1_face
    res = solve_svm(problem_from_rows([(1, 1)], [1], "l1"), dps=30)
    assert nearest_in_l1_face([1, -1], res) == [1, 0]
    assert nearest_in_l1_face([F(2), F(2)], res) == [F(1, 2), F(1, 2)]
    with working_precision(30):
        assert abs(distance_to_solution_set([1, -1], res, dps=30, normalise=False) - 1) < arb(10) ** -30
        d = distance_to_solution_set([2, 2], res, dps=30, normalise=False)
        assert abs(d * d - arb(9) / 2) < arb(10) ** -30
        r2 = solve_svm(problem_from_rows([(1, 1)], [1], "l2"), dps=30)
        d2 = distance_to_solution_set([1, 1], r2, dps=30, normalise=False)
        assert abs(d2 * d2 - arb(1) / 2) < arb(10) ** -30
        assert distance_to_solution_set([1, 1], r2, dps=30) < arb(10) ** -30  # normalised: the same direction (was nan)


@pytest.mark.parametrize("norm", ["l2", "l1"])
def test_the_direct_float_guess_agrees_with_cvxpy(norm):
    """The float64 guess from Clarabel called directly and the one through cvxpy (its former path, kept as the
    fallback) on seeded random problems, a third with signed right-hand sides (some infeasible): same status, the
    same optimal value, and direct duals that satisfy the KKT conditions on cvxpy's scale."""
    import numpy as np

    from verify.svm import floatsolve as FS

    rng = np.random.default_rng(7)
    for trial in range(30):
        m, n = int(rng.integers(1, 9)), int(rng.integers(1, 6))
        A = rng.normal(size=(m, n))
        b = rng.normal(size=m) if trial % 3 == 0 else np.ones(m)
        direct, via = FS._clarabel_direct(A, b, norm), FS._cvxpy(None, A, b, norm)
        assert direct is not None and direct[0] == via[0], (trial, direct, via)
        if direct[0] != "optimal":
            continue
        x, lam = direct[1], direct[2]
        value = (lambda z: z @ z) if norm == "l2" else (lambda z: np.abs(z).sum())
        scale = max(1.0, value(via[1]))
        assert abs(value(x) - value(via[1])) <= 1e-6 * scale
        assert (A @ x >= b - 1e-7 * scale).all() and (lam >= -1e-7 * scale).all()
        assert abs(lam @ (A @ x - b)) <= 1e-6 * scale  # complementary slackness (= the duality gap)
        if norm == "l2":  # stationarity of ‖x‖² − λᵀ(Ax − b): 2x = Aᵀλ
            assert np.abs(2 * x - A.T @ lam).max() <= 1e-6 * scale
        else:  # ‖x‖₁: Aᵀλ is a subgradient, |Aᵀλ| ≤ 1 and = sign(x_j) where x_j ≠ 0
            g = A.T @ lam
            assert np.abs(g).max() <= 1 + 1e-6
            assert all(abs(g[j] - np.sign(x[j])) <= 1e-5 for j in range(n) if abs(x[j]) > 1e-5 * scale)


def test_the_float_guess_falls_back_to_cvxpy_when_clarabel_gives_no_answer(monkeypatch):
    from verify.svm import floatsolve as FS

    monkeypatch.setattr(FS, "_clarabel_direct", lambda A, b, norm: None)
    pr = problem_from_rows([[F(1), F(0)], [F(0), F(2)]], [1, 1], "l2")
    fs = FS.solve_float(pr)  # min ‖x‖² s.t. x₁ ≥ 1, 2x₂ ≥ 1: x = (1, 1/2), λ = (2, 1/2)
    assert fs.status == "optimal" and abs(fs.x[0] - 1) < 1e-6 and abs(fs.x[1] - 0.5) < 1e-6
    assert abs(fs.duals[0] - 1) < 1e-6 and abs(fs.duals[1] - 0.25) < 1e-6  # on the ½‖x‖² scale of solve_float
