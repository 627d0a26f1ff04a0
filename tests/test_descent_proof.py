"""verify.kit.descent_proof: "V is a descent direction at every θ" proven by exact algebra (Assumption B / B.1).

Expected values are derived here: the identities are checked at random rational points with Fractions (an
independent route from sympy's symbolic expansion), the factors' signs from the data by hand."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from verify.claims import Outcome
from verify.kit.descent_proof import (
    descent_on_domain_b1,
    descent_on_domain_b2,
    indicator_covariance_identity,
    softmax_derivative_identity,
)

DOMAIN = "every p ∈ ℝ^d"


def cov(s, x, y):
    return sum(a * b * c for a, b, c in zip(s, x, y)) - sum(a * b for a, b in zip(s, x)) * sum(a * c for a, c in zip(s, y))


@pytest.mark.parametrize("T", [2, 3, 5])
def test_identity_i_agrees_with_fractions_at_random_points(T):
    """(I) Cov_s(c𝟙 + λe_o, y) = λ s_o Σ_t≠o s_t(y_o − y_t): checked at 20 random rational points of the simplex."""
    rng = random.Random(T)
    for _ in range(20):
        w = [Fraction(rng.randint(1, 9)) for _ in range(T)]
        s = [x / sum(w) for x in w]
        o = rng.randrange(T)
        c, lam = Fraction(rng.randint(-5, 5)), Fraction(rng.randint(-5, 5), 3)
        y = [Fraction(rng.randint(-9, 9), 7) for _ in range(T)]
        x = [c + (lam if t == o else 0) for t in range(T)]
        assert cov(s, x, y) == lam * s[o] * sum(s[t] * (y[o] - y[t]) for t in range(T) if t != o)
    assert all(indicator_covariance_identity(T, o) for o in range(T))


@pytest.mark.parametrize("T", [2, 4])
def test_identity_d_is_the_softmax_jacobian(T):
    """(D): a central difference of γᵀS(a + εb) with exact exponentials replaced by rationals u_t (S = u/Σu) agrees
    with Cov_s(γ, b) to O(ε²); sympy says the identity is exact."""
    import mpmath

    rng = random.Random(10 + T)
    a = [mpmath.mpf(rng.randint(-3, 3)) for _ in range(T)]
    b = [mpmath.mpf(rng.randint(-3, 3)) for _ in range(T)]
    g = [mpmath.mpf(rng.randint(-3, 3)) for _ in range(T)]
    with mpmath.workdps(40):
        def f(e):
            u = [mpmath.exp(x + e * y) for x, y in zip(a, b)]
            return sum(gt * ut for gt, ut in zip(g, u)) / sum(u)
        h = mpmath.mpf("1e-12")
        u = [mpmath.exp(x) for x in a]
        s = [x / sum(u) for x in u]
        assert abs((f(h) - f(-h)) / (2 * h) - cov(s, g, b)) < mpmath.mpf("1e-20")
    assert softmax_derivative_identity(T) is True


def test_b2_items_decide_with_the_exact_factors():
    """Gaps (1/2, 2) and margins 1, 3/2, 4: every item is exact and proven on the domain; min m = 1 proves the bound
    at factor 1 (Σ s_t m_t ≥ 1 − s_opt), not at factor 2 (no refutation either: the flag is False, no item)."""
    margins = [[None, 1, Fraction(3, 2)], [4, None, 4]]
    items, bound = descent_on_domain_b2(3, (0, 1), (Fraction(1, 2), 2), margins, DOMAIN)
    assert bound is True and [e.value for e in items[2:]] == [Fraction(1, 2), 1, 1]
    assert all(e.decide() is True and e.level == "proven" and e.region == DOMAIN for e in items)
    out = Outcome(evidence=items)
    assert (out.decision().certainty, out.decision().regions) == ("proven", (DOMAIN,))
    items2, bound2 = descent_on_domain_b2(3, (0, 1), (Fraction(1, 2), 2), margins, DOMAIN, factor=2)
    assert bound2 is False and len(items2) == len(items) - 1
    items3, bound3 = descent_on_domain_b2(3, (0, 1), (1, 1), [[None, 2, 3], [2, None, 5]], DOMAIN, factor=2)
    assert bound3 is True and items3[-1].value == 1  # min m = 2 = factor: the bound holds with equality


def test_b2_items_fail_where_a_factor_has_the_wrong_sign():
    """A zero gap or a non-positive margin (not an SVM solution) makes its item fail: never a silent proof."""
    items, _ = descent_on_domain_b2(2, (0,), (0,), [[None, 1]], DOMAIN)
    assert items[2].decide() is False
    items, bound = descent_on_domain_b2(2, (0,), (1,), [[None, Fraction(-1, 3)]], DOMAIN)
    assert items[3].decide() is False and bound is False


def test_b1_item_is_the_least_score_gap():
    """Scores (3, 1, 2) with opt 0 and (0, 5) with opt 1: least γ_opt − γ_t = min(2, 1, 5) = 1 > 0; a tie makes it 0."""
    items = descent_on_domain_b1(3, (0, 1), [(3, 1, 2), (0, 5, 0)], DOMAIN)
    assert items[-1].value == 1 and all(e.decide() and e.level == "proven" for e in items)
    tie = descent_on_domain_b1(2, (0,), [(1, 1)], DOMAIN)
    assert tie[-1].value == 0 and tie[-1].decide() is False


@pytest.mark.parametrize("T", [2, 3, 4])
def test_variance_identity_and_the_spread_item(T):
    """(V) Var_s(γ) = Σ_t<u s_t s_u(γ_t − γ_u)² at random rational points (Fractions); the spread item is the
    largest max − min over the sequences, 0 (failing) when every γ_i is constant."""
    from verify.kit.descent_proof import descent_on_domain_variance, variance_identity

    rng = random.Random(T)
    for _ in range(10):
        w = [Fraction(rng.randint(1, 9)) for _ in range(T)]
        s = [x / sum(w) for x in w]
        g = [Fraction(rng.randint(-9, 9), 4) for _ in range(T)]
        pairs = sum(s[t] * s[u] * (g[t] - g[u]) ** 2 for t in range(T) for u in range(t + 1, T))
        assert cov(s, g, g) == pairs
    assert variance_identity(T) is True
    items = descent_on_domain_variance(3, [(1, 1, 1), (0, Fraction(5, 2), -1)], DOMAIN)
    assert items[-1].value == Fraction(7, 2) and all(e.decide() and e.level == "proven" for e in items)
    assert descent_on_domain_variance(2, [(1, 1), (3, 3)], DOMAIN)[-1].decide() is False


def test_margin_cone_proof_decides_its_three_comparisons_from_exact_constants():
    """T = 3, Γ = 2, A = 3, least gap 1, largest gap 2, μ = 1/2: the ratios are (L1) η·2·2·3/(2·1) = 6η, (L2 lower)
    η·2·(6 + 1/2)/(1/2) = 26η, (L2 upper) η·2·2/(2·2) = η (by hand). η = 1/100 proves all three; η = 1/20 breaks the
    lower bound's condition only (26/20 > 1) — a sufficient condition failing, for the claim to fall back on its
    samples; a W^mm margin below 1 fails its exact item."""
    from flint import arb

    from verify.kit.descent_proof import margin_cone_proof

    def items(eta, margins=((None, 1, 2),)):
        return margin_cone_proof(T=3, Gamma=2, A=arb(3), gaps=(1,), gap_bars=(2,), wmm_margins=list(margins),
                                 mu=Fraction(1, 2), eta=arb(eta.numerator) / eta.denominator, domain=DOMAIN)

    good = items(Fraction(1, 100))
    assert all(e.decide() is True and e.level == "proven" for e in good)
    l1, low, up = good[3:]
    assert (l1.value - arb(6) / 100).abs_upper() < 1e-14 and (low.value - arb(26) / 100).abs_upper() < 1e-14
    assert (up.value - arb(1) / 100).abs_upper() < 1e-14  # 53-bit balls (no working precision set)
    assert [e.decide() for e in items(Fraction(1, 20))[3:]] == [True, False, True]
    assert items(Fraction(1, 100), ((None, Fraction(1, 2), 2),))[2].decide() is False
