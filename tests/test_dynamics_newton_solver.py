"""The float64 Newton-matrix solvers of verify/dynamics/radau_solver.py: the preconditioned iteration (large
systems) solves I − h (A ⊗ ·) blockdiag(J_k) to the accuracy of the dense LU and falls back to the LU when it does
not converge."""
import numpy as np
import pytest

import verify.dynamics.radau_solver as rs
from verify.dynamics.radau import tableau
from verify.numbers.precision import working_precision


def _system(s, N, h, spread, seed=0):
    rng = np.random.default_rng(seed)
    base = rng.normal(size=(N, N))
    J = np.array([base + spread * rng.normal(size=(N, N)) for _ in range(s)])
    with working_precision(30):
        tab = tableau(s)
    return tab, J, h


@pytest.mark.parametrize("spread", [0.01, 0.3])
def test_preconditioned_solve_matches_the_dense_solution(spread):
    tab, J, h = _system(12, 9, 0.2, spread)
    b = np.random.default_rng(1).normal(size=12 * 9)
    x_ref = np.linalg.solve(rs.newton_matrix_float(tab, J, h), b)  # the matrix itself, formed explicitly
    solver = rs._Preconditioned(tab, J, h)
    x = solver.solve(b)
    assert solver.dense is None  # the iteration converged on its own
    assert np.linalg.norm(x - x_ref) <= 1e-13 * np.linalg.norm(x_ref)


def test_no_convergence_falls_back_to_the_dense_lu():
    """Stage Jacobians far from their mean (spread ≫ 1): the iteration diverges, the LU answers."""
    tab, J, h = _system(8, 5, 3.0, 20.0)
    b = np.random.default_rng(2).normal(size=8 * 5)
    x_ref = np.linalg.solve(rs.newton_matrix_float(tab, J, h), b)
    solver = rs._Preconditioned(tab, J, h)
    x = solver.solve(b)
    assert solver.dense is not None
    assert np.linalg.norm(x - x_ref) <= 1e-10 * np.linalg.norm(x_ref)

