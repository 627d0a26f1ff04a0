"""Engine pieces of verify.dynamics: tableaux, the batched midpoint mode of the gradient engine
(the integrators' gradients and Hessians), parameterisations."""
from fractions import Fraction

import numpy as np
import pytest
from flint import acb, arb, arb_mat

from verify.data.generators import random_dataset
from verify.data.mmts import mmts_fig1a
from verify.dynamics.flow import ArcLength
from verify.dynamics.parameterization import make_parameterization, nuclear_norm
from verify.dynamics.radau import tableau
from verify.errors import UsageError
from verify.models.attention import LinearLogitModel, norm2
from verify.numbers.precision import to_arb, working_precision


@pytest.mark.parametrize("s", [3, 7, 12])
def test_radau_order_conditions(s):
    with working_precision(40):
        tab = tableau(s)
        b = [tab.A[s - 1, j] for j in range(s)]  # stiffly accurate: b = last row of A
        tol = arb(10) ** -45
        for k in range(1, 2 * s):  # quadrature exact to degree 2s − 2 (order 2s − 1)
            assert abs(sum((bi * ci ** (k - 1) for bi, ci in zip(b, tab.c)), arb(0)) - arb(1) / k) < tol
        for i in range(s):  # stage order s: C(s)
            for k in range(1, s + 1):
                lhs = sum((tab.A[i, j] * tab.c[j] ** (k - 1) for j in range(s)), arb(0))
                assert abs(lhs - tab.c[i] ** k / k) < tol
        assert tab.c[-1] == 1


def textbook_hessian(m: LinearLogitModel, theta) -> list[list[arb]]:
    """∇²L = (1/n) Σ_i [ℓ''(φ_i) g_i g_iᵀ + ℓ'(φ_i) F_iᵀ J_i F_i], J = diag(c) − c sᵀ − s cᵀ, g_i = F_iᵀc_i,
    written out entry by entry (the engine assembles the expanded low-rank form instead)."""
    D, T = m.D, m.T
    H = [[arb(0)] * D for _ in range(D)]
    for Fi, st in zip(m.F, m.states(theta)):
        g = [sum((Fi[t][a] * st.c[t] for t in range(T)), arb(0)) for a in range(D)]
        J = [[(st.c[t] if t == u else 0) - st.c[t] * st.s[u] - st.s[t] * st.c[u] for u in range(T)] for t in range(T)]
        d1, d2 = m.loss.d1(st.phi), m.loss.d2(st.phi)
        for a in range(D):
            for b in range(D):
                FJF = sum((Fi[t][a] * J[t][u] * Fi[u][b] for t in range(T) for u in range(T)), arb(0))
                H[a][b] += (d2 * g[a] * g[b] + d1 * FJF) / m.n
    return H


@pytest.mark.parametrize("param", ["p", "W", "diag"])
@pytest.mark.parametrize("loss", ["logistic", "exponential", "correlation"])
def test_midpoint_mode_matches_ball_mode_and_the_textbook_hessian(param, loss):
    """The integrators' mode (midpoints, ``grad_hess``/``sweep``) against the claims' mode (balls,
    ``grad``/``hessian``) and the Hessian written out as ℓ''ggᵀ + ℓ'FᵀJF (W: the Kronecker assembly)."""
    with working_precision(50):
        ds = random_dataset(n=3, T=4, d=3, seed=4)
        m = LinearLogitModel.from_dataset(ds, param, loss)
        th = [arb(j + 1) * 3 / (j + 2) - 1 for j in range(m.D)]
        g, H = m.grad_hess(th)
        H0 = textbook_hessian(m, th)
        Hb = m.hessian(th)
        tol = arb(10) ** -48
        gb = m.grad(th)
        assert all(x.rad() == 0 for x in g)  # midpoints
        assert all(abs(a - b) < tol for a, b in zip(g, gb))
        assert all(abs(a - b) < tol for a, b in zip(m.sweep([th]).grads[0], gb))
        assert all(abs(H[i, j] - H0[i][j]) < tol for i in range(m.D) for j in range(m.D))
        assert all(Hb[i, j].overlaps(H0[i][j]) and Hb[i, j].rad() < tol for i in range(m.D) for j in range(m.D))
        assert (param == "W") == (m._kron is not None)


@pytest.mark.parametrize("param", ["KQ", "diag"])
def test_pullback_gradient_and_hessian_by_finite_differences(param):
    with working_precision(40):
        ds = random_dataset(n=2, T=3, d=2, seed=1)
        par = make_parameterization(ds, param)
        psi = [to_arb(Fraction(j + 1, 3)) * (-1) ** j for j in range(par.dim)]
        g, H = par.grad_hess(psi)
        eps = arb(10) ** -12
        for k in range(par.dim):
            up = list(psi)
            dn = list(psi)
            up[k] += eps
            dn[k] -= eps
            fd = (par.model.loss_value(par.theta(up)) - par.model.loss_value(par.theta(dn))) / (2 * eps)
            assert abs(fd - g[k]) < arb(10) ** -20
            gu, gd_ = par.grad(up), par.grad(dn)
            for j in range(par.dim):
                assert abs((gu[j] - gd_[j]) / (2 * eps) - H[j, k]) < arb(10) ** -20


def test_norms_and_inits():
    with working_precision(30):
        ds = random_dataset(n=2, T=3, d=2, seed=1)
        kq = make_parameterization(ds, "KQ")
        psi = [arb(1), arb(0), arb(0), arb(2), arb(3), arb(0), arb(0), arb(-1)]  # K = diag(1,2), Q = diag(3,−1)
        assert abs(kq.norm(psi) - 5) < arb(10) ** -25  # W = diag(3, −2): ‖W‖_* = 5
        dg = make_parameterization(ds, "diag")
        psi0 = dg.default_init()
        assert dg.theta(psi0) == [0, 0] and abs(psi0[0] - arb(2).sqrt()) < arb(10) ** -30  # irgf Eq. (5)
        assert abs(dg.norm([arb(1), arb(-2), arb(3), arb(1)]) - 5) < arb(10) ** -30  # ‖k⊙q‖₁
        W = [[arb(3), arb(4)], [arb(0), arb(0)]]
        assert abs(nuclear_norm(W) - 5) < arb(10) ** -25
        with pytest.raises(UsageError):
            make_parameterization(ds, "Q")


def test_nuclear_norm_closed_forms_at_the_working_precision(monkeypatch):
    """‖W‖_* from the eigenvalues of [[0, W], [Wᵀ, 0]] against closed forms, to all working digits:
    rank one u vᵀ (‖u‖‖v‖), a rectangular matrix with orthogonal rows (the sum of the row norms),
    zero; and the mpmath SVD fallback gives the same."""
    from fractions import Fraction

    import verify.dynamics.parameterization as pm
    from verify.numbers.precision import to_arb

    with working_precision(60):
        tight = arb(10) ** -58
        u, v = [3, 4], [5, 12, 0]  # ‖u‖‖v‖ = 5·13
        W1 = [[to_arb(Fraction(a * b, 7)) for b in v] for a in u]
        assert abs(nuclear_norm(W1) - arb(65) / 7) < tight
        W2 = [[arb(1), arb(1), arb(0)], [arb(1), arb(-1), arb(2)]]  # orthogonal rows: √2 + √6
        assert abs(nuclear_norm(W2) - (arb(2).sqrt() + arb(6).sqrt())) < tight
        assert nuclear_norm([[arb(0)] * 3] * 2) == 0
        # a QR iteration that failed: the Frobenius check sends it to mpmath's SVD
        monkeypatch.setattr(arb_mat, "eig", lambda self, **kw: [acb(7)] * self.nrows())
        assert abs(pm.nuclear_norm(W2) - (arb(2).sqrt() + arb(6).sqrt())) < tight


def test_gradient_of_saturated_softmax_stays_accurate():
    """At ‖p‖ = 10⁴ the probabilities are ~e^{-10⁴}: the gradient is tiny but has full relative precision."""
    with working_precision(30):
        ds = mmts_fig1a()
        par = make_parameterization(ds, "p")
        psi = [arb(0), arb(-10000), arb(0)]
        g = par.grad(psi)
        gn = norm2([arb(x.mid()) for x in g])
        assert gn > 0 and gn < arb(10) ** -4000
        assert all(x.rel_accuracy_bits() > 90 for x in g if x != 0)
        gb = par.model.grad(psi)  # the ball mode: an enclosure with full relative precision, agreeing with the midpoints
        assert all(b.rel_accuracy_bits() > 90 and abs(a - b) < abs(b) * arb(10) ** -25 for a, b in zip(g, gb) if b != 0)
        assert par.excess(psi) > 0


def _max_rel(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).max() / np.abs(b).max())


@pytest.mark.parametrize("param", ["p", "W", "diag"])
@pytest.mark.parametrize("loss", ["logistic", "exponential"])
@pytest.mark.parametrize("scale", [1, 10000])
def test_batched_sweep_matches_the_model_even_when_softmax_saturates(param, loss, scale):
    """Gradients of s points at once (midpoints) equal the one-point ball mode's to the working precision, and the
    float64 Hessians scaled by ‖∇L‖ equal the exact ∇²L/‖∇L‖ to float64 accuracy — also at
    ‖θ‖ ~ 10⁴, where probabilities are e^{−10⁵} and ∇L itself is ~10^{−2000}."""
    with working_precision(60):
        ds = random_dataset(n=5, T=4, d=3, seed=5, labels="ones")
        m = LinearLogitModel.from_dataset(ds, param, loss)
        pts = [[arb(scale) * (arb(j + 1) * 3 / (j + 2 + k) - 1) for j in range(m.D)] for k in range(3)]
        sw = m.sweep(pts, jacobians=True)
        for k, th in enumerate(pts):
            g_ref = m.grad(th)
            gn = norm2(g_ref)
            assert all(abs(a - b) < gn * arb(10) ** -55 for a, b in zip(sw.grads[k], g_ref))
            H = m.hessian(th)
            H_ref = np.array([[float(H[a, b] / gn) for b in range(m.D)] for a in range(m.D)])
            assert _max_rel(sw.H_float[k], H_ref) < 1e-12
            assert _max_rel(sw.g_float[k], np.array([float(x / gn) for x in g_ref])) < 1e-14


@pytest.mark.parametrize("param", ["KQ", "diag"])
def test_float_pullback_matches_the_exact_one(param):
    with working_precision(40):
        ds = random_dataset(n=3, T=3, d=2, seed=1)
        par = make_parameterization(ds, param)
        psis = [[to_arb(Fraction(j + 1 + k, 3)) * (-1) ** j for j in range(par.dim)] for k in range(2)]
        grads, gf, Hf = par.grads(psis, jacobians=True)
        for k, psi in enumerate(psis):
            g, H = par.grad_hess(psi)
            assert all(abs(a - b) < arb(10) ** -35 for a, b in zip(grads[k], g))
            gn, gfn = norm2(g), np.linalg.norm(gf[k])
            H_ref = np.array([[float(H[a, b] / gn) for b in range(par.dim)] for a in range(par.dim)])
            assert _max_rel(Hf[k] / gfn, H_ref) < 1e-12
            assert _max_rel(gf[k] / gfn, np.array([float(x / gn) for x in g])) < 1e-14


@pytest.mark.parametrize("param", ["p", "diag"])
def test_arc_length_jacobian_matches_finite_differences(param):
    """The float64 Jacobian of f = (−g/‖g‖, e^{−u}/‖g‖) that drives Newton, against central
    differences of f at 40 digits."""
    with working_precision(40):
        ds = random_dataset(n=3, T=3, d=2, seed=1, labels="ones")
        par = make_parameterization(ds, param)
        sysm = ArcLength(par)
        y = [to_arb(Fraction(j + 2, 3)) * (-1) ** j for j in range(par.dim)] + [arb("0.5")]
        _F, J = sysm.rhs_batch([y], jacobians=True)
        eps = arb(10) ** -15
        fd = np.zeros((len(y), len(y)))
        for b in range(len(y)):
            up, dn = list(y), list(y)
            up[b] += eps
            dn[b] -= eps
            fu, fdn = sysm.rhs(up), sysm.rhs(dn)
            for a in range(len(y)):
                fd[a, b] = float((fu[a] - fdn[a]) / (2 * eps))
        assert _max_rel(J[0], fd) < 1e-12
        J_bad = J[0].copy()
        J_bad[0, 0] += 1e-6 * np.abs(fd).max()  # the comparison can fail
        assert _max_rel(J_bad, fd) > 1e-12
