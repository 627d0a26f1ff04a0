"""Radau IIA steps at the working precision: Newton on the stage equations with float64 Jacobians.

Stage increments Z (s × N, row i ≈ y(x0 + c_i h) − y0) solve G(Z) = Z − h A F(y0 + Z) = 0. The
residual G is evaluated at the working precision (all s stages in one batched gradient sweep); the
Newton matrix I − h A⊗J_i is built from per-stage Jacobians J_i in float64 (closed-form Hessians,
scaled so that saturated softmax values neither under- nor overflow) and factorised once per
refresh (OpenBLAS kept single-threaded by ``gradient_flow``) — or, for sN > DENSE_MAX unknowns (KQ:
N = 2dm + 1), never formed: a Richardson iteration preconditioned by the same matrix with the mean
Jacobian solves it to the LU's float64 accuracy (``_Preconditioned``). Each correction is then exact to
float64, so every iteration gains ~13–15 digits at any working precision, about dps/14 sweeps per
solve. (Exact arb Hessians with iterative refinement gained the same digits per refinement pass,
but a Hessian cost 6 gradients: benchmarks/bench_flow.py.) All numbers are arb midpoints (radii
are dropped after each operation with ``arb_mat.mid()``: the integrator's error is controlled by its
estimate, not by ball arithmetic).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import flint
import numpy as np
from flint import arb, arb_mat
from scipy.linalg import LinAlgWarning, lu_factor, lu_solve

from verify.dynamics.radau import Tableau


def mid(x: arb) -> arb:
    return x.mid()  # an exact arb (radius 0)


def mid_mat(M: arb_mat) -> arb_mat:
    return M.mid()


def mid_vec(v: list) -> list:
    return arb_mat(len(v), 1, v).mid().entries() if v else []


@dataclass
class SolveResult:
    Z: arb_mat
    converged: bool
    iterations: int
    rate: float  # last observed contraction θ (float: only steers the controller)
    evaluations: int


def evaluate_stages(rhs, y0: list, Z: arb_mat) -> arb_mat:
    """F_i = f(y0 + Z_i) for every stage, as an s × N matrix."""
    rows = []
    for i in range(Z.nrows()):
        rows.append(rhs([y0[j] + Z[i, j] for j in range(len(y0))]))
    return arb_mat(rows)


def predict(tab_old: Tableau, Z_old: arb_mat, h_old: arb, tab_new: Tableau, h_new: arb) -> arb_mat:
    """Stage predictor for the next step: the old step's collocation polynomial extrapolated to the
    new nodes x1 + c_i h_new, minus its value at x1 (the new y0). Through all its nodes: measured on
    W at 100 digits (benchmarks/bench_flow.py), degree 8 / 16 / 24 / all 45 took 107k / 95k / 87k /
    77k gradient evaluations to ‖W‖ = 10 with the same steps."""
    thetas = tuple(1 + c * h_new / h_old for c in tab_new.c)
    W = _weights(tab_old, thetas)
    N = Z_old.ncols()
    end = arb_mat(1, N, [Z_old[tab_old.s - 1, j] for j in range(N)])  # the old polynomial at x1
    return mid_mat(W * Z_old - arb_mat(tab_new.s, 1, [1] * tab_new.s) * end)


def interpolate(tab: Tableau, Z: arb_mat, y0: list, theta: arb) -> list:
    """The collocation polynomial at x0 + θh (dense output)."""
    w = tab.lagrange(theta)
    return [y0[j] + sum((w[k] * Z[k, j] for k in range(tab.s)), arb(0)) for j in range(len(y0))]


def _weights(tab_from: Tableau, thetas: tuple) -> arb_mat:
    """Matrix of Lagrange weights: row i gives the collocation polynomial of ``tab_from`` at θ_i."""
    return arb_mat([tab_from.lagrange(th) for th in thetas])


def restage(tab_from: Tableau, Z: arb_mat, tab_to: Tableau, scale: arb = arb(1)) -> arb_mat:
    """Predictor for a solve of the same step start with another tableau / step h·scale."""
    if scale == 1:
        W = _cached((tab_from, tab_to), lambda: _weights(tab_from, tab_to.c))
    else:
        W = _weights(tab_from, tuple(c * scale for c in tab_to.c))
    return mid_mat(W * Z)


_CACHE: dict = {}


def _cached(key_objs: tuple, build):
    """Memoise on object identity, keeping the objects alive so that ids cannot be reused."""
    key = tuple(id(o) for o in key_objs)
    hit = _CACHE.get(key)
    if hit is None or any(a is not b for a, b in zip(hit[0], key_objs)):
        hit = (key_objs, build())
        _CACHE[key] = hit
    return hit[1]


def _a_float(tab: Tableau) -> np.ndarray:
    return _cached((tab,), lambda: np.array([[float(tab.A[i, j].mid()) for j in range(tab.s)] for i in range(tab.s)]))


def newton_matrix_float(tab: Tableau, J: np.ndarray, h: arb) -> np.ndarray:
    """I − h (A ⊗ ·) blockdiag(J_k) in float64 (J: s × N × N): block (i, k) = δ_ik I − h a_ik J_k."""
    s, N = J.shape[0], J.shape[1]
    M = (-float(h)) * (_a_float(tab)[:, :, None, None] * J[None, :, :, :])  # (i, k, a, b)
    M = M.transpose(0, 2, 1, 3).reshape(s * N, s * N)
    M += np.eye(s * N)
    return M


#: Newton systems with more than this many unknowns (s·N) are solved by the preconditioned iteration
#: of ``_Preconditioned`` instead of a dense LU: the LU costs (sN)³ once per Jacobian refresh, the
#: iteration ~10·(sN·(s + N)) per solve. Measured on the 2-core machine: KQ at 100 digits (s = 45,
#: N = 33, sN = 1485) 105 ms per LU against ~1 ms per iterative solve; at sN ≈ 600 both cost a few ms
#: per Newton solve, below it the LU (shared by all iterations of a solve) wins.
DENSE_MAX = 600


class _DenseLU:
    """Dense LU of the float64 Newton matrix; a singular one (a far-off trial point) raises ZeroDivisionError."""

    def __init__(self, M: np.ndarray):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LinAlgWarning)
            self.lu = lu_factor(M)
        if not np.all(np.diag(self.lu[0])):
            raise ZeroDivisionError("singular Newton matrix")

    def solve(self, b: np.ndarray) -> np.ndarray:
        return lu_solve(self.lu, b)


class _Preconditioned:
    """M x = b for M = I − h (A ⊗ ·) blockdiag(J_k), to float64 accuracy, without forming M.

    Preconditioner: the same matrix with every J_k replaced by their mean J̄. With J̄ = V diag(μ) V⁻¹
    it decouples into N systems (I − hμ_j A) of size s (inverted once), so P⁻¹ costs two N × N and one
    batched s × s product. Richardson iteration x ← x + P⁻¹(b − Mx): on the KQ flow the spectral radius
    of I − P⁻¹M was 0.0004–0.06 (the J_k vary little over a step relative to hA's coupling), 6–13
    iterations to the dense LU's accuracy (~7e-16 relative). Should the iteration not converge (a J̄
    with ill-conditioned eigenvectors, a far-off trial point), the dense LU of M is used instead —
    which also reports a singular M as the dense path does."""

    MAX_ITER = 40
    RTOL = 1e-15

    def __init__(self, tab: Tableau, J: np.ndarray, h: float):
        self.tab, self.J, self.h, self.A = tab, J, h, _a_float(tab)
        self.dense = None
        Jb = J.mean(axis=0)
        try:
            mu, V = np.linalg.eig(Jb)
            Vi = np.linalg.inv(V)
            s = J.shape[0]
            inv = np.linalg.inv(np.eye(s)[None] - h * mu[:, None, None] * self.A[None])  # N × s × s
        except np.linalg.LinAlgError:
            self.dense = _DenseLU(newton_matrix_float(tab, J, h))
            return
        self.V, self.Vi, self.inv = V, Vi, inv
        if not (np.isfinite(inv).all() and np.isfinite(Vi).all()):
            self.dense = _DenseLU(newton_matrix_float(tab, J, h))

    def _precondition(self, r: np.ndarray) -> np.ndarray:
        x = np.einsum("kij,jk->ik", self.inv, r @ self.Vi.T) @ self.V.T
        return x.real

    def _apply(self, x: np.ndarray) -> np.ndarray:
        return x - self.h * (self.A @ np.einsum("kab,kb->ka", self.J, x))

    def solve(self, b: np.ndarray) -> np.ndarray:
        if self.dense is None:
            s, N = self.J.shape[0], self.J.shape[1]
            B = b.reshape(s, N)
            x = np.zeros_like(B)
            r = B
            with np.errstate(all="ignore"):
                for _ in range(self.MAX_ITER):
                    dx = self._precondition(r)
                    x = x + dx
                    nx, ndx = np.linalg.norm(x), np.linalg.norm(dx)
                    if not np.isfinite(nx):
                        break
                    if ndx <= self.RTOL * nx:
                        return x.ravel()
                    r = B - self._apply(x)
            self.dense = _DenseLU(newton_matrix_float(self.tab, self.J, self.h))
        return self.dense.solve(b)


def factor(tab: Tableau, J: np.ndarray, h: arb):
    """A solver of the float64 Newton matrix (``.solve(b)``): dense LU up to DENSE_MAX unknowns, else
    the preconditioned iteration; a singular matrix (a far-off trial point) raises ZeroDivisionError."""
    if J.shape[0] * J.shape[1] > DENSE_MAX:
        return _Preconditioned(tab, J, float(h))
    return _DenseLU(newton_matrix_float(tab, J, h))


def stage_points(y0: list, Z: arb_mat) -> list:
    """The stage values y0 + Z_i, one list per stage."""
    N = len(y0)
    e = Z.entries()
    return [[y0[j] + e[i * N + j] for j in range(N)] for i in range(Z.nrows())]


def _newton_step(lu, G: arb_mat, norm, norm_float=None):
    """(−M⁻¹G, d, gsize) with the float64 LU of M, where −M⁻¹G = −gsize·d and gsize is the norm of G:
    G is scaled by it so that float64 neither under- nor overflows at any working precision. With
    ``norm_float`` (the same norm on float64 arrays) and G's entries within float64's normal range, G is
    converted once and scaled in float64 (the scale only needs to be approximate)."""
    shape = (G.nrows(), G.ncols())
    g = np.array([float(x) for x in G.entries()]) if norm_float is not None else None
    if g is not None and np.isfinite(big := np.abs(g).max(initial=0.0)) and big > 1e-280:
        gsize = arb(norm_float(g.reshape(shape)))
        g = g / float(gsize)
    else:  # scaled at the working precision (entries beyond float64's range, or no float norm)
        gsize = norm(G)
        if gsize == 0:
            return arb_mat(*shape), np.zeros(shape), gsize
        g = np.array([float(x) for x in (G * (1 / gsize)).entries()])
    d = lu.solve(g)
    if not np.isfinite(d).all():
        raise OverflowError("the Newton correction overflows float64")
    return arb_mat(shape[0], shape[1], d.tolist()) * (-gsize), d.reshape(shape), gsize


def solve_stages(tab: Tableau, system, y0, h, Z0: arb_mat, norm, tol: arb, kappa: arb = arb("1e-4"),
                 J0: np.ndarray | None = None, max_iter: int | None = None, norm_float=None):
    """Newton on the stage equations G(Z) = Z − h A F(y0 + Z) = 0 with per-stage Jacobians in
    float64 (``system.rhs_batch(points, jacobians)`` → (F, J)); ``J0`` supplies interpolated
    Jacobians to start with. Each iteration gains ~13–15 digits (float64 Jacobians at a point
    within float64 accuracy of the solution); Jacobians are refreshed until they were taken that
    close. ``norm`` measures an s × N arb_mat; ``norm_float``, if given, the same norm of a float64
    s × N array (the Newton correction's size is then taken from its float64 solution: it only
    steers the iteration). Returns (SolveResult, Jacobians, number of Hessian evaluations)."""
    s = tab.s
    if max_iter is None:
        max_iter = 10 + flint.ctx.dps // 8
    Z, prev, theta, evals, hess = Z0, None, 0.0, 0, 0
    J, lu, j_err, fresh = J0, None, 0.0, False
    if J0 is not None:
        lu = factor(tab, J0, h)
    for it in range(1, max_iter + 1):
        refresh = J is None or j_err > 1e-12 or (theta > 1e-2 and not fresh)
        F, Jn = system.rhs_batch(stage_points(y0, Z), jacobians=refresh)
        evals += s
        if refresh:
            J, hess = Jn, hess + s
            lu = factor(tab, J, h)
        fresh = refresh
        G = Z - tab.A * F * h
        dZ, d, gsize = _newton_step(lu, G, norm, norm_float)
        Z = mid_mat(Z + dZ)
        size = norm(dZ) if norm_float is None else gsize * arb(norm_float(d))
        if refresh:  # how far from the solution the Jacobians were taken (relative, scaled norm)
            j_err = float(size)
        if size == 0 or size <= kappa * tol:
            return SolveResult(Z, True, it, theta, evals), J, hess
        if prev is not None and prev > 0:
            theta = float((size / prev).mid())
            if theta >= 1:
                return SolveResult(Z, False, it, theta, evals), J, hess
            if size * theta / (1 - theta) <= kappa * tol:
                return SolveResult(Z, True, it, theta, evals), J, hess
        elif size <= kappa * tol * arb("0.01"):
            return SolveResult(Z, True, it, theta, evals), J, hess
        prev = size
    return SolveResult(Z, False, max_iter, theta, evals), J, hess


def _jacobian_weights(tab_from: Tableau, tab_to: Tableau) -> arb_mat:
    c = tab_from.c
    rows = []
    for th in tab_to.c:
        row = []
        for j in range(tab_from.s):
            w = arb(1)
            for k in range(tab_from.s):
                if k != j:
                    w *= (th - c[k]) / (c[j] - c[k])
            row.append(w)
        rows.append(row)
    return arb_mat(rows)


def interpolate_jacobians(tab_from: Tableau, J: np.ndarray, tab_to: Tableau) -> np.ndarray:
    """Jacobians at the nodes of ``tab_to`` by polynomial interpolation of those at ``tab_from``'s
    nodes (float64; starts the error-estimate solve without new Hessians)."""
    W = _cached((tab_from, tab_to, "J"), lambda: np.array(
        [[float(x) for x in row] for row in _jacobian_weights(tab_from, tab_to).tolist()]))
    s, N = J.shape[0], J.shape[1]
    return (W @ J.reshape(s, N * N)).reshape(len(W), N, N)
