"""Nuclear-norm Att-SVM⋆: certified values, perturbation rejection, faces, rank ≤ m."""
from __future__ import annotations

import random
from fractions import Fraction as F

from flint import arb

from verify.data.dataset import Dataset
from verify.numbers.precision import working_precision
from verify.svm import solve_svm, verify_certificate


def dnuc():
    # tfsvm D-NUC: constraints W11 ≥ 1, W22 ≥ 1; nuclear set {[[1,b],[b,1]] : |b| ≤ 1}, value 2
    return Dataset.make(X=[[[1, 0], [0, 0]], [[0, 1], [0, 0]]], Y=[1, 1], v=[1, 1], z=[[1, 0], [0, 1]])


def test_dnuc_value_face_and_rank1():
    res = solve_svm(dnuc(), "KQ", "opt", dps=60, rank=1)
    assert res.status == "optimal" and res.stable_digits >= 58
    assert res.certificate.passed
    with working_precision(60):
        assert abs(res.objective - 2) < arb(10) ** -58
    assert res.unique is False
    assert res.rank_m["attained"] is True          # a rank-1 point [[1,±1],[±1,1]] is optimal
    assert sorted(res.support) == [(0, 1), (1, 1)]


def test_single_constraint_value_is_inverse_spectral_norm():
    # one row A = Δx zᵀ with ‖Δx‖ = √5, ‖z‖ = √5: min ‖W‖_* s.t. ⟨A, W⟩ ≥ 1 is 1/‖A‖₂ = 1/5
    ds = Dataset.make(X=[[[1, 2], [0, 0]]], Y=[1], v=[1, 1], z=[[2, 1]])
    for dps in (30, 120):
        res = solve_svm(ds, "KQ", "opt", dps=dps)
        with working_precision(dps):
            assert abs(res.objective - arb(1) / 5) < arb(10) ** -(dps - 2)
        assert res.unique is True


def test_nuclear_at_least_frobenius_and_digits_stable():
    rng = random.Random(3)
    X = [[[F(rng.randint(-4, 4), rng.randint(1, 3)) for _ in range(3)] for _ in range(3)] for _ in range(2)]
    z = [[F(rng.randint(-4, 4), rng.randint(1, 3)) for _ in range(3)] for _ in range(2)]
    ds = Dataset.make(X=X, Y=[1, 1], v=[1, 0, 0], z=z)
    alpha = (0, 0)
    a = solve_svm(ds, "KQ", alpha, dps=40)
    b = solve_svm(ds, "KQ", alpha, dps=80)
    fro = solve_svm(ds, "W", alpha, dps=40)
    if fro.status == "infeasible":
        assert a.status == "infeasible"
        return
    assert a.stable_digits >= 38 and b.stable_digits >= 78
    with working_precision(80):
        assert abs(a.objective - b.objective) < arb(10) ** -38
        assert a.certificate.lower >= fro.objective * (1 - arb(10) ** -30)   # ‖W‖_* ≥ ‖W‖_F


def test_perturbed_nuclear_pair_is_rejected():
    ds = Dataset.make(X=[[[1, 2], [0, 0]], [[0, 1], [1, 0]]], Y=[1, 1], v=[1, 1], z=[[2, 1], [1, 1]])
    res = solve_svm(ds, "KQ", (0, 0), dps=60)
    assert res.certificate.passed
    with working_precision(60):
        W = list(res.solution)
        lam = list(res.duals)
        assert verify_certificate(res.problem, W, lam, 60).passed
        W2 = [w + arb(10) ** -20 for w in W]
        assert not verify_certificate(res.problem, W2, lam, 60).passed
        lam2 = [l * (1 + arb(10) ** -20) for l in lam]
        c = verify_certificate(res.problem, W, lam2, 60)
        assert not c.passed and c.dual_residual > 0
        W3 = [w * (1 - arb(10) ** -20) for w in W]
        c = verify_certificate(res.problem, W3, lam, 60)
        assert not c.passed and c.primal_residual > 0


def test_nuclear_distance_to_face():
    from verify.svm import distance_to_solution_set
    res = solve_svm(dnuc(), "KQ", "opt", dps=30)
    # [[1,1],[1,1]]/2 is in the normalised face; [[1,0],[0,-1]]/2 is not
    assert float(distance_to_solution_set([[1, 1], [1, 1]], res, dps=30).mid()) < 1e-6
    assert float(distance_to_solution_set([[1, 0], [0, 1]], res, dps=30).mid()) < 1e-6
    assert float(distance_to_solution_set([[1, 0], [0, -1]], res, dps=30).mid()) > 0.5


def test_nuclear_entries_near_1e30_and_1e_minus_30():
    base = None
    for s in (F(1), F(10) ** 30, F(1, 10 ** 30)):
        ds = Dataset.make(X=[[[s, 2 * s], [0, 0]], [[0, s], [s, 0]]], Y=[1, 1], v=[1, 1], z=[[2, 1], [1, 1]])
        res = solve_svm(ds, "KQ", (0, 0), dps=50)
        assert res.certificate.passed and res.stable_digits >= 48
        with working_precision(50):
            val = res.objective * arb(s.numerator) / s.denominator
            if base is None:
                base = val
            assert abs(val - base) < arb(10) ** -45 * base
