"""verify.geometry.smoothness (mutation tests): W = X⁺K recovered exactly (identity, zero, rank-deficient, not of the
form XW), B = max|γ|, L_p of (6)/(24) and its K-form from hand-computed norms, the Hessian-norm enclosure, and the
float64 Hessian search against a finite-difference Hessian."""
from fractions import Fraction as F

import numpy as np
import pytest
from flint import arb, arb_mat

from verify.data.dataset import Dataset
from verify.geometry import smoothness as sm
from verify.geometry.smoothness import hessian_norm, key_matrix, score_bound, smoothness_constant
from verify.models.losses import Square


@pytest.fixture(autouse=True)
def _fresh_search_cache():
    """The float64 search's cache is module state: each test starts empty (mutmut forks from a warmed process)."""
    sm._SEARCH_CACHE.clear()
    yield
    sm._SEARCH_CACHE.clear()


def ds(X, K=None, v=(1, 0), Y=None) -> Dataset:
    return Dataset.make(X=X, Y=Y or [1] * len(X), v=list(v), K=K, name="s")


def test_key_matrix_cases():
    """No keys: I; X = I: W = K; X rows (1,1), (2,2), K = (2), (4): least-norm W = (1, 1)ᵀ; X = 0: W = 0 iff K = 0;
    keys not of the form XW: None."""
    assert key_matrix(ds([[[1, 0], [0, 1]]])) == ((1, 0), (0, 1))
    assert key_matrix(ds([[[1, 0], [0, 1]]], K=[[[1, 2, 3], [4, 5, 6]]])) == ((1, 2, 3), (4, 5, 6))
    assert key_matrix(ds([[[1, 1], [2, 2]]], K=[[[2], [4]]])) == ((1,), (1,))
    assert key_matrix(ds([[[1, 0], [2, 0]]], K=[[[3, 1], [6, 2]]])) == ((3, 1), (0, 0))
    assert key_matrix(ds([[[0, 0], [0, 0]]], K=[[[0], [0]]])) == ((0,), (0,))
    assert key_matrix(ds([[[0, 0], [0, 0]]], K=[[[0], [1]]])) is None
    assert key_matrix(ds([[[1, 0], [2, 0]]], K=[[[1], [1]]])) is None
    W = key_matrix(ds([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], K=[[[1], [1]], [[1], [1]]]))
    assert W == ((-1,), (1,))   # X has full column rank over both sequences: (1,2)·W = (3,4)·W = 1 → W = (−1, 1)ᵀ
    assert isinstance(key_matrix(ds([[[1, 1], [2, 2]]], K=[[[1], [2]]]))[0][0], F)


def test_score_bound():
    """B = max |γ_it|, a negative score counts by its magnitude."""
    assert score_bound(ds([[[1, 0], [3, 0]], [[5, 0], [0, 0]]], Y=[1, -1])) == 5
    assert score_bound(ds([[[F(1, 2), 0], [F(-7, 2), 0]]])) == F(7, 2)


def test_smoothness_constant_w_form():
    """X = diag(2, 1) (‖X‖ = 2), v = (3, 4) (‖v‖ = 5, γ = (6, 4): B = 6), no keys (W = I): logistic M₀ = 1/4, M₁ = 1:
    L = (1/4)·25·1·16 + 3·1·5·1·8 = 100 + 120 = 220; the proof form with ‖K‖ = 2: same 220. Powers (2, 1):
    (1/4)·25·4 + 3·5·2 = 25 + 30 = 55."""
    d = ds([[[2, 0], [0, 1]]], v=(3, 4))
    c = smoothness_constant(d)
    assert c.form == "W" and c.value == 220 and c.proof_form == 220 and c.norm_v == 5 and c.norm_W == 1
    assert c.B == 6 and c.M0 == arb(1) / 4 and c.M1 == 1 and c.loss == "logistic"
    assert c.norms_X == [2] and c.norms_K == [2]
    assert smoothness_constant(d, x_power=2, w_power=1).value == 55
    assert "W = X⁺K recovered exactly" in c.describe()


def test_smoothness_constant_k_form_and_average():
    """Keys not of the form XW (X = diag(1, 0), K = diag(1, 1)): ‖K‖ = 1, ‖X‖ = 1, ‖v‖ = 1 (v = e₁), B = 1,
    correlation loss M₀ = 0, M₁ = 1: L_K = 3·1·1·1 = 3 (first term vanishes). Exponential (M₀ = M₁ = e): n = 2
    identical sequences average: e + 3e = 4e; x_power 3, w_power 1 (K-form: ‖K‖^1 ‖X‖^2, ‖K‖ ‖X‖^1): unchanged with
    unit norms; with X = diag(2, 0), K = diag(1, 1): e·1·1·4 + 3e·1·1·2... see below."""
    d = ds([[[1, 0], [0, 0]]], K=[[[1, 0], [0, 1]]])
    c = smoothness_constant(d, "correlation")
    assert c.form == "K" and c.norm_W is None and c.value == 3 and c.proof_form == 3
    assert "keys are not of the form X W" in c.describe()
    d2 = ds([[[1, 0], [0, 0]]] * 2, K=[[[1, 0], [0, 1]]] * 2)
    e = arb(1).exp()
    assert abs(smoothness_constant(d2, "exponential").value - 4 * e) < 1e-12
    # X = diag(2, 0) (‖X‖ = 2), K = I (‖K‖ = 1), v = e₁ (B = 2), M₀ = M₁ = e²:
    # K-form (4, 2): M₀·1·1·4 + 3M₁·1·1·2 = 10e²; (3, 1): M₀·1·4 + 3M₁·1·2... = 4e² + 6e² (powers x−w = 2, x−1−w = 1)
    d3 = ds([[[2, 0], [0, 0]]], K=[[[1, 0], [0, 1]]])
    e2 = arb(2).exp()
    assert abs(smoothness_constant(d3, "exponential").value - 10 * e2) < 1e-12
    assert abs(smoothness_constant(d3, "exponential", x_power=3, w_power=1).value - 10 * e2) < 1e-12
    assert abs(smoothness_constant(d3, "exponential", x_power=4, w_power=1).value - (8 + 12) * e2) < 1e-12
    # proof form: M₀‖v‖²‖X‖²‖K‖² + 3M₁‖v‖‖X‖‖K‖² = 4e² + 6e²
    assert abs(smoothness_constant(d3, "exponential").proof_form - 10 * e2) < 1e-12


def test_hessian_norm():
    """diag(3, −5): ‖H‖₂ = 5 (eigenvalue enclosure); a matrix of balls around 0 stays within [0, ‖H‖_F]."""
    assert hessian_norm(arb_mat([[3, 0], [0, -5]])).contains(5)
    assert abs(hessian_norm(arb_mat([[3, 0], [0, -5]])) - 5) < 1e-20
    wide = arb_mat([[arb(0, 1), arb(0, 1)], [arb(0, 1), arb(0, 1)]])
    h = hessian_norm(wide)
    assert h.lower() > -1e-6 and h.upper() <= 2.0001


def _loss_f64(K, G, d0, p):
    tot = 0.0
    for Ki, gi in zip(K, G):
        a = Ki @ p
        s = np.exp(a - a.max())
        s /= s.sum()
        tot += d0(s @ gi)
    return tot / len(K)


def test_hessian_norm_f64_matches_finite_differences():
    """_hessian_norm_f64 equals the largest |eigenvalue| of a central-difference Hessian of L(p) = mean ℓ(γᵀS(Kp))
    for the logistic and exponential losses (correlation: ℓ = −u)."""
    K = np.array([[[1.0, 0.5], [0.0, 1.0], [2.0, -1.0]], [[0.5, 0.5], [1.0, -2.0], [0.0, 1.0]]])
    G = np.array([[1.0, -0.5, 2.0], [0.3, 1.5, -1.0]])
    p = np.array([0.2, -0.4])
    losses = {"logistic": lambda u: np.log1p(np.exp(-u)), "exponential": lambda u: np.exp(-u),
              "correlation": lambda u: -u}
    h = 1e-4
    for name, d0 in losses.items():
        H = np.zeros((2, 2))
        for i in range(2):
            for j in range(2):
                ei, ej = np.eye(2)[i] * h, np.eye(2)[j] * h
                H[i, j] = (_loss_f64(K, G, d0, p + ei + ej) - _loss_f64(K, G, d0, p + ei - ej)
                           - _loss_f64(K, G, d0, p - ei + ej) + _loss_f64(K, G, d0, p - ei - ej)) / (4 * h * h)
        want = np.max(np.abs(np.linalg.eigvalsh(H)))
        assert abs(sm._hessian_norm_f64(K, G, name, p) - want) < 1e-5 * max(1, want), name


class _Quadratic:
    """L(p) = (a/2)‖p‖² (L⋆ = 0): ∇L = a p, ∇²L = a I — the descent ratio is 2 − ηa exactly."""

    def __init__(self, a):
        self.a = arb(a)

    def excess(self, p):
        return self.a * sum((x * x for x in p), arb(0)) / 2

    def grad(self, p):
        return [self.a * x for x in p]

    def hessian(self, p):
        return arb_mat([[self.a if i == j else 0 for j in range(len(p))] for i in range(len(p))])


def test_descent_terms_and_ratio_closed_form():
    """a = 2, p = (1, 1), η = 1/4: g = (2, 2), ‖g‖² = 8, p⁺ = (1/2, 1/2), drop = 2 − 1/2 = 3/2, (η/2)‖g‖² = 1,
    ρ = 3/2 = 2 − ηa; at p = 0 the point is stationary (ρ None, p⁺ = p)."""
    m = _Quadratic(2)
    p, eta = [arb(1), arb(1)], arb(1) / 4
    drop, half, g2, p_next = sm.descent_terms(m, p, eta)
    assert drop == arb(3) / 2 and half == 1 and g2 == 8 and p_next == [arb(1) / 2, arb(1) / 2]
    drop, half, g2, _ = sm.descent_terms(m, p, eta, g=[arb(1), arb(0)], ex=arb(5))   # given g and excess are used
    assert g2 == 1 and half == arb(1) / 8 and drop == 5 - m.excess([arb(3) / 4, arb(1)])
    r = sm.descent_ratio(m, p, eta)
    assert r.how in ("difference", "mean value") and abs(r.rho - arb(3) / 2) < 1e-12 and r.g2 == 8
    assert r.rho.contains(arb(3) / 2)
    r0 = sm.descent_ratio(m, [arb(0), arb(0)], eta)
    assert r0.rho is None and r0.how == "stationary" and r0.g2 == 0 and r0.p_next == [0, 0]


def test_hessian_local_maxima_cache_and_unsearched_losses():
    """Only the three built-in losses are searched; one end point per start, exact rationals; a repeat call is cached."""
    d = ds([[[1, 0], [0, 1]], [[0, 1], [1, 1]]])
    assert sm.hessian_local_maxima(d, Square(), [(0, 0)]) == []
    pts = sm.hessian_local_maxima(d, "logistic", [(0, 0), (1, -1)], maxiter=20)
    assert len(pts) == 2 and all(isinstance(x, F) for pt in pts for x in pt)
    assert sm.hessian_local_maxima(d, "logistic", [(0, 0), (1, -1)], maxiter=20) is pts
