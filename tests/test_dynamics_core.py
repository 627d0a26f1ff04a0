"""Engine pieces of verify.dynamics: tableaux, fast gradients/Hessians, parameterisations."""
from fractions import Fraction

import pytest
from flint import arb

from verify.attention import LinearLogitModel, norm2
from verify.datasets import mmts_fig1a, random_dataset
from verify.dynamics.fastgrad import FastModel
from verify.dynamics.parameterization import make_parameterization, nuclear_norm
from verify.dynamics.radau import tableau
from verify.errors import UsageError
from verify.precision import to_arb, working_precision


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


@pytest.mark.parametrize("param", ["p", "W", "diag"])
@pytest.mark.parametrize("loss", ["logistic", "exponential", "correlation"])
def test_fast_gradient_and_hessian_match_model(param, loss):
    with working_precision(50):
        ds = random_dataset(n=3, T=4, d=3, seed=4)
        m = LinearLogitModel.from_dataset(ds, param, loss)
        fm = FastModel(m)
        th = [arb(j + 1) * 3 / (j + 2) - 1 for j in range(m.D)]
        g, H = fm.grad_hess(th)
        H0 = m.hessian(th)
        tol = arb(10) ** -48
        assert all(abs(a - b) < tol for a, b in zip(g, m.grad(th)))
        assert all(abs(a - b) < tol for a, b in zip(fm.grad(th), m.grad(th)))
        assert all(abs(H[i, j] - H0[i, j]) < tol for i in range(m.D) for j in range(m.D))


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
        assert par.excess(psi) > 0
