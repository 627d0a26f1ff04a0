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


def test_key_matrix_least_norm_is_exact_rational():
    """X rows (1, 1), (2, 2), K = (1), (2): every W with w₁ + w₂ = 1 solves XW = K; the least-norm one is (1/2, 1/2)ᵀ,
    returned as exact Fractions (not truncated to integers)."""
    assert key_matrix(ds([[[1, 1], [2, 2]]], K=[[[1], [2]]])) == ((F(1, 2),), (F(1, 2),))


def test_smoothness_constant_w_form_non_unit_norms():
    """Two sequences X₁ = diag(2, 1), X₂ = I, keys K = 2X (W = 2I recovered, ‖W‖ = 2), v = (3, 4) (‖v‖ = 5),
    γ₁ = (6, 4), γ₂ = (3, 4): B = 6. Per sequence M₀‖v‖²‖W‖²‖X_i‖⁴ + 3M₁‖v‖‖W‖²‖X_i‖³ with ‖X₁‖ = 2, ‖X₂‖ = 1:
    (25·4·16 M₀ + 3·5·4·8 M₁) + (25·4 M₀ + 3·5·4 M₁) = 1700 M₀ + 540 M₁, halved (n = 2).
    Logistic (M₀, M₁) = (1/4, 1): 965/2; exponential M₀ = M₁ = e⁶: 1120 e⁶. The proof form with ‖K₁‖ = 4, ‖K₂‖ = 2:
    M₀‖v‖²‖X‖²‖K‖² + 3M₁‖v‖‖X‖‖K‖² = (1600 + 100) M₀ + (480 + 60) M₁ — the same numbers, halved."""
    d = ds([[[2, 0], [0, 1]], [[1, 0], [0, 1]]], K=[[[4, 0], [0, 2]], [[2, 0], [0, 2]]], v=(3, 4))
    c = smoothness_constant(d)
    assert c.form == "W" and c.norm_W.contains(2) and abs(c.norm_W - 2) < 1e-12 and c.B == 6
    assert abs(c.value - arb(965) / 2) < 1e-9 and abs(c.proof_form - arb(965) / 2) < 1e-9
    e6 = arb(6).exp()
    ce = smoothness_constant(d, "exponential")
    assert abs(ce.value - 1120 * e6) < 1e-6 and abs(ce.proof_form - 1120 * e6) < 1e-6
    assert "M₀ = 403.42879, M₁ = 403.42879 on [−B, B], B = 6; ‖v‖ = 5" in ce.describe()   # e⁶ = 403.428793…, 8 digits


def test_smoothness_constant_k_form_non_unit_norms():
    """X = diag(3, 0) with keys K = 3I (not of the form XW: the second token has key ≠ 0 but x = 0), v = (3, 4):
    ‖X‖ = 3, ‖K‖ = 3, ‖v‖ = 5, γ = (9, 0): B = 9, exponential M₀ = M₁ = e⁹. K-form (x, w) = (4, 2):
    M₀·25·3²·3² + 3M₁·5·3²·3 = (2025 + 405) e⁹ = 2430 e⁹; (5, 2): M₀·25·3²·3³ + 3M₁·5·3²·3² = (6075 + 1215) e⁹;
    proof form M₀·25·3²·3² + 3M₁·5·3·3² = 2430 e⁹."""
    d = ds([[[3, 0], [0, 0]]], K=[[[3, 0], [0, 3]]], v=(3, 4))
    e9 = arb(9).exp()
    c = smoothness_constant(d, "exponential")
    assert c.form == "K" and c.B == 9 and abs(c.value - 2430 * e9) < 1e-6 and abs(c.proof_form - 2430 * e9) < 1e-6
    assert abs(smoothness_constant(d, "exponential", x_power=5, w_power=2).value - 7290 * e9) < 1e-6


def test_hessian_norm_small_exact_matrix():
    """diag(1/4, 1/4): ‖H‖₂ = 1/4, inside [0, ‖H‖_F] = [0, √2/4] (a cap shifted away from 0 would exclude it)."""
    h = hessian_norm(arb_mat([[arb(1) / 4, 0], [0, arb(1) / 4]]))
    assert h.contains(arb(1) / 4) and abs(h - arb(1) / 4) < 1e-15


class _Quartic:
    """L(p) = p⁴/4 in one dimension (L⋆ = 0): ∇L = p³, ∇²L = 3p², counting calls; ``noise`` widens every excess
    by ±noise (an excess the working precision does not resolve), ``bad`` makes it NaN/±∞ at the GD image."""

    def __init__(self, noise=0, bad=None):
        self.noise, self.bad, self.calls = noise, bad, {"grad": 0, "excess": 0, "hessian": 0}

    def excess(self, p):
        self.calls["excess"] += 1
        if self.bad is not None and self.calls["excess"] > 1:
            return arb(self.bad) if self.bad == "nan" else arb(0, "inf")
        return p[0] ** 4 / 4 + (arb(0, self.noise) if self.noise else 0)

    def grad(self, p):
        self.calls["grad"] += 1
        return [p[0] ** 3]

    def hessian(self, p):
        self.calls["hessian"] += 1
        return arb_mat([[3 * p[0] * p[0]]])


# p = 1/2, η = 1: g = 1/8, p⁺ = 3/8, drop = ((1/2)⁴ − (3/8)⁴)/4 = 175/16384, (η/2)g² = 1/128: ρ = 175/128 exactly;
# the mean-value form 2 − η·3ξ² over ξ ∈ [3/8, 1/2] (ball 7/16 ± 1/16, ξ·ξ ⊂ [34, 64]/256) lies in [5/4, 1.602].
_P, _ETA, _RHO = [arb(1) / 2], arb(1), arb(175) / 128


def test_descent_ratio_quartic_difference_is_tighter():
    """Exact excess: the difference ρ = 175/128 is tight (how = "difference", radius ≈ 0), p⁺ = 3/8, ‖g‖² = 1/64."""
    r = sm.descent_ratio(_Quartic(), _P, _ETA)
    assert r.how == "difference" and r.rho.contains(_RHO) and r.rho.rad() < 1e-20
    assert r.p_next == [arb(3) / 8] and r.g2 == arb(1) / 64


def test_descent_ratio_quartic_mean_value_is_tighter():
    """Excess known only to ±1/256: the difference gives 175/128 ± 1, the mean-value form over the segment
    [3/8, 1/2] gives ⊂ [5/4, 1.61]: how = "mean value", ρ is that enclosure (it contains 175/128)."""
    r = sm.descent_ratio(_Quartic(noise=1 / 256), _P, _ETA)
    assert r.how == "mean value" and r.rho.contains(_RHO)
    assert r.rho.lower() >= 1.2499 and r.rho.upper() <= 1.61


def test_descent_ratio_falls_back_on_mean_value_when_the_drop_is_not_finite():
    """An excess that is ±∞ or NaN at p⁺: ρ is the mean-value enclosure alone (⊂ [5/4, 1.61], contains 175/128)."""
    for bad in ("inf", "nan"):
        r = sm.descent_ratio(_Quartic(bad=bad), _P, _ETA)
        assert r.how == "mean value" and r.rho.is_finite() and r.rho.contains(_RHO), bad
        assert r.rho.lower() >= 1.2499 and r.rho.upper() <= 1.61, bad


def test_descent_ratio_uses_the_given_gradient_and_excess():
    """With g and L(p) − L⋆ supplied, the model's gradient is never evaluated and its excess only once (at p⁺)."""
    m = _Quartic()
    r = sm.descent_ratio(m, _P, _ETA, g=[arb(1) / 8], ex=arb(1) / 64)
    assert m.calls["grad"] == 0 and m.calls["excess"] == 1 and r.rho.contains(_RHO)


def test_descent_ratio_tie_reports_the_difference():
    """Quadratic a = 2, p = (1, 1), η = 1/4: both enclosures are exactly 3/2 (radius 0); the mean-value form is
    reported only when strictly tighter, so how = "difference"."""
    r = sm.descent_ratio(_Quadratic(2), [arb(1), arb(1)], arb(1) / 4)
    assert r.rho == arb(3) / 2 and r.how == "difference"


# ----- the float64 search on a case with a closed-form maximiser ---------------------------------------------------
def _one_key_gap(dk, v):
    """n = 1, T = 2, d = 1: tokens x = (dk, 0), keys = tokens, v = (v): L(p) = −γᵀS(Kp) for the correlation loss, with
    γ = (v·dk, 0); ‖∇²L(p)‖ = |v|·dk³·|σ''(dk·p)|·… — maximal where σ''(dk·p) is, dk·p = ±ln(2 + √3)."""
    return Dataset.make(X=[[[dk], [0]]], Y=[1], v=[v], name="gap")


def _argmax_sigma2():
    import mpmath

    mpmath.mp.dps = 30
    return float(mpmath.log(2 + mpmath.sqrt(3)))   # σ'' = σ(1−σ)(1−2σ) is extremal at σ = (1 ± 1/√3)/2


def test_search_finds_the_closed_form_maximiser():
    """v = 10⁻⁶ (a flat objective, ‖∇²L‖ ≲ 10⁻⁷: only the simplex-size tolerance xatol = 10⁻¹⁰ can pin the point) —
    from p = 1 the search ends at ln(2 + √3) (dk = 1) and at ln(2 + √3)/2 (dk = 2, from p = 1/2) to 10⁻⁶; the points
    are exact rationals; distinct datasets are distinct searches."""
    target = _argmax_sigma2()
    (p1,) = sm.hessian_local_maxima(_one_key_gap(1, F(1, 10**6)), "correlation", [(1,)])
    assert isinstance(p1[0], F) and abs(float(p1[0]) - target) < 1e-6
    (p2,) = sm.hessian_local_maxima(_one_key_gap(2, F(1, 10**6)), "correlation", [(F(1, 2),)])
    assert abs(float(p2[0]) - target / 2) < 1e-6


def test_search_respects_maxiter():
    """Three Nelder–Mead iterations from p = 1/2 (initial simplex width 1/40) cannot travel to ln(2 + √3) ≈ 1.317."""
    (p,) = sm.hessian_local_maxima(_one_key_gap(1, F(1, 10**6)), "correlation", [(F(1, 2),)], maxiter=3)
    assert abs(float(p[0]) - _argmax_sigma2()) > 0.1


def test_search_is_silent_in_saturation():
    """Scores of 1000 saturate the logistic loss (e^1000 overflows float64): the search ignores the overflow (no
    warning even when warnings are errors) and still returns one finite point."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pts = sm.hessian_local_maxima(_one_key_gap(1000, 1), "logistic", [(10,)], maxiter=5)
    assert len(pts) == 1 and all(isinstance(x, F) for x in pts[0])


def test_hessian_norm_f64_in_saturation():
    """Logits (400, 0): the softmax is e₁ up to e⁻⁴⁰⁰, so ‖∇²L‖ ≈ |Δγ|·|σ''(400)| ≈ e⁻⁴⁰⁰ — finite and tiny (a softmax
    not shifted by max(a) would overflow to NaN)."""
    K = np.array([[[1.0], [0.0]]])
    G = np.array([[1.0, 0.0]])
    with np.errstate(all="ignore"):
        h = sm._hessian_norm_f64(K, G, "correlation", np.array([400.0]))
    assert np.isfinite(h) and 0 <= h < 1e-150
