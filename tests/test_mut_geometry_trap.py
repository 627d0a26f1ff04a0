"""verify.geometry.trap (mutation tests): the trap certificate of tfsvm Theorems 4/5 on both sides of each of its
conditions. Every expected value is derived here: the two-coordinate reduction of D-T2, thm4_trap and small
constructed T = 2 pairs by hand (Fractions); c and the bound on the total drift of b from the module docstring's
closed forms evaluated with mpmath, with the logistic |ℓ'(φ)| = 1/(1 + e^φ) decreasing (so m₁ = |ℓ'(max hull₁)|,
M₂ = |ℓ'(min hull₂)|); the floor m₂²/(2‖W^mm‖²ĝ22) and the limit 1 − m₁/(√ĝ11‖W^mm‖) from exact Fractions."""
from fractions import Fraction as F

import mpmath
from flint import arb

from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry.trap import DROPS, _s, t2_coordinates, t2_reduction, trap_certificate
from verify.numbers.precision import to_arb, working_precision

WMM_T2 = (F(1, 2), F(-3, 2), F(1, 2), F(-3, 2))  # D-T2's W^mm (spec), margins 1


def _dot(a, b):
    return sum((F(x) * F(y) for x, y in zip(a, b)), F(0))


def _outer(x, z):
    return tuple(F(a) * F(b) for a in x for b in z)


def _pair(u1, z1, u2, z2, Y=(1, -1)):
    """n = T = 2, d = 2, v = e₂, second tokens 0: scores (Y_i·u_i[1], 0), features D_i = u_i ⊗ z_i."""
    return Dataset.make(X=[[list(u1), [0, 0]], [list(u2), [0, 0]]], Y=list(Y), v=[0, 1], z=[list(z1), list(z2)],
                        name="pair")


def _ray(rho, D1, g11):
    """W(0) = ρ D̂₁/ĝ11: a(0) = ρ, b(0) = 0 (F ⊥ D̂₁)."""
    return tuple(F(rho) * x / g11 for x in D1)


def _m(x):
    x = F(x)
    return mpmath.mpf(x.numerator) / x.denominator


def _hand(g11, g12, g22, w1, w2, hull1, hull2, a0, b0, drop, eta):
    """c and the total drift bound of the module docstring (mpmath; logistic loss)."""
    e = mpmath.e
    m1, M2 = 1 / (1 + e ** _m(hull1[1])), 1 / (1 + e ** _m(hull2[0]))
    k, a0, b_lo = _m(F(g12) / g11), _m(a0), _m(F(b0) - drop)
    c = _m(g11 * w1) * m1 / (1 + e ** -a0) ** 2 - _m(g12 * w2) * M2 * e ** (-(k - 1) * a0 - b_lo)
    det_ratio = _m(F(g11 * g22 - g12 ** 2) / g11)
    total = det_ratio * _m(w2) * M2 * e ** -b_lo * (_m(eta) * e ** (-k * a0) + e ** ((1 - k) * a0) / (c * (k - 1)))
    return c, total


def _mp(x):
    return mpmath.mpf(x.mid().str(40, radius=False))


# ----- the reduction: scope (what is refused) and the exact constants ---------------------------------------------

def test_reduction_refuses_outside_its_scope():
    with working_precision(15):
        three = Dataset.make(X=[[[1, 1], [0, 0], [0, 2]], [[2, 2], [0, 0], [1, 0]]], Y=[1, -1], v=[0, 1],
                             name="T3")
        red, why = t2_coordinates(three, (0, 1))
        assert red is None and "(here T = 3, n = 2)" in why
        assert t2_reduction(three, (0, 1)) == (None, why)  # refused before κ is read
        one = Dataset.make(X=[[[1, 1], [0, 0]]], Y=[1], v=[0, 1], name="n1")
        red, why = t2_coordinates(one, (1,))
        assert red is None and "(here T = 2, n = 1)" in why
        tied = _pair((1, 0), (1, 0), (2, 1), (1, 0))  # sequence 1's scores (0, 0)
        assert t2_coordinates(tied, (0, 0)) == (None, "optimal token tied")
        d = D.d_t2()  # opt = (0, 1)
        red, why = t2_coordinates(d, (0, 1))
        assert red is None and "deviates from opt in 0 sequences" in why
        red, why = t2_coordinates(d, (1, 0))
        assert red is None and "deviates from opt in 2 sequences" in why
        zero = _pair((1, 1), (0, 0), (2, 1), (1, 0))  # the driver's query is 0: D̂₁ = 0
        assert t2_coordinates(zero, (0, 0)) == (None, "the driver's feature difference is 0")


def test_d_t2_reduction_by_hand():
    """α = (1, 1) (0-indexed (0, 0)): driver sequence 0 (α = opt there), deviant 1. D̂₀ = (1,1)⊗(1,0),
    D̂₁ = (2,2)⊗(1,1/2) (both select token 1: σ = +1); ĝ = (2, 4, 10), κ = 2, det ĝ/ĝ11 = (20 − 16)/2 = 2,
    F = D̂₁ − 2D̂₀ = (0,1,0,1); |Δ| = (1, 2)/n; hulls [0, 1], [−2, 0]."""
    with working_precision(15):
        red, why = t2_reduction(D.d_t2(), (0, 0))
    assert why == "" and red.alpha == (0, 0) and (red.driver, red.deviant) == (0, 1)
    assert red.D1 == _outer((1, 1), (1, 0)) and red.D2 == _outer((2, 2), (1, F(1, 2)))
    assert (red.g11, red.g12, red.g22, red.kappa, red.det_ratio) == (2, 4, 10, 2, 2)
    assert red.F == (0, 1, 0, 1) and _dot(red.F, red.D1) == 0
    assert (red.w1, red.w2, red.hull1, red.hull2) == (F(1, 2), 1, (0, 1), (-2, 0))


def test_the_other_selection_of_d_t2_is_refused_only_for_its_kappa():
    """α = (2, 2): sequence 0 deviates, sequence 1 drives; both select token 2 (σ = −1): D̂_driver = −(2,1,2,1),
    D̂_deviant = −(1,0,1,0): ĝ11 = 10, ĝ12 = 4, κ = 2/5 ≤ 1 — coordinates exist, the certificate does not."""
    with working_precision(15):
        red, why = t2_coordinates(D.d_t2(), (1, 1))
        assert why == "" and (red.driver, red.deviant) == (1, 0)
        assert red.D1 == (-2, -1, -2, -1) and red.D2 == (-1, 0, -1, 0) and red.kappa == F(2, 5)
        none, why = t2_reduction(D.d_t2(), (1, 1))
    assert none is None and why.startswith("κ = ĝ12/ĝ11 = 2/5 ≤ 1")


def test_kappa_one_is_refused_and_just_above_accepted():
    """Deviant u₂ ⊗ e₁ against the driver (1,1)⊗e₁: ĝ12 = u₂[0] + u₂[1], ĝ11 = 2."""
    with working_precision(15):
        red, why = t2_reduction(_pair((1, 1), (1, 0), (1, 1), (1, 0)), (0, 0))
        assert red is None and why.startswith("κ = ĝ12/ĝ11 = 1 ≤ 1")
        red, why = t2_reduction(_pair((1, 1), (1, 0), (2, 1), (1, 0)), (0, 0))
        assert why == "" and red.kappa == F(3, 2)
        red, why = t2_reduction(_pair((0, 1), (1, 0), (2, 2), (1, 0)), (0, 0))  # D̂₁ = (0,1)⊗e₁: ĝ11 = 1 is fine
        assert why == "" and red.g11 == 1 and red.kappa == 2  # ĝ12 = ⟨(0,0,1,0), (2,0,2,0)⟩ = 2


def test_thm4_trap_weights_and_hulls_by_hand():
    """Scores (1/2, −3/4) and (−9/4, −1): opt = (0, 1); α = (1, 1) makes sequence 0 the deviant: w₁ = |−9/4 + 1|/2,
    w₂ = |1/2 + 3/4|/2 (both 5/8), hull₁ = [−9/4, −1], hull₂ = [−3/4, 1/2]."""
    with working_precision(15):
        red, _ = t2_reduction(D.thm4_trap(), (1, 1))
    assert (red.driver, red.deviant) == (1, 0)
    assert (red.w1, red.w2) == (F(5, 8), F(5, 8))
    assert red.hull1 == (F(-9, 4), -1) and red.hull2 == (F(-3, 4), F(1, 2))


# ----- the certificate: c > 0 and total < δ on both sides -----------------------------------------------------------

def _thm4_trap_hand():
    """ĝ of thm4_trap's α = (2, 2) from its data by hand: D̂ = σ(x_i1 − x_i2) ⊗ z_i, σ = −1 (token 2 selected)."""
    drv = tuple(-x for x in _outer((-2 - (-1), F(-1, 2) - 0), (-1, -1)))
    dev = tuple(-x for x in _outer((0 - 1, -1 - F(-1, 2)), (-1, F(-3, 2))))
    return drv, dev, _dot(drv, drv), _dot(drv, dev), _dot(dev, dev)


def test_thm4_trap_certificate_constants_match_the_closed_form():
    """κ = 5/4 and w₂ = 5/8 (unlike D-T2's 2 and 1): c and the total at ρ = 6 (proven at δ = 1/4) and ρ = 4 (every δ
    certainly fails) from the closed forms."""
    drv, dev, g11, g12, g22 = _thm4_trap_hand()
    assert g12 / g11 == F(5, 4)
    eta = F(1, 64)
    mpmath.mp.dps = 40
    with working_precision(30):
        red, _ = t2_reduction(D.thm4_trap(), (1, 1))
        cert = trap_certificate(red, _ray(6, drv, g11), to_arb(eta), dev)
        low = trap_certificate(red, _ray(4, drv, g11), to_arb(eta), dev)
    hand = [_hand(g11, g12, g22, F(5, 8), F(5, 8), (F(-9, 4), -1), (F(-3, 4), F(1, 2)), 6, 0, d, eta)
            for d in DROPS]
    assert hand[0][0] > 0 and hand[0][1] < mpmath.mpf(1) / 4  # proven at the first drop (with room: 0.1 < 0.25)
    assert cert.proven is True and cert.drop == F(1, 4) and (cert.a0, cert.b0) == (6, 0)
    c, total = hand[0]
    assert cert.c < arb(str(c)) and abs(_mp(cert.c) - c) < c * mpmath.mpf(10) ** -6
    assert cert.total > arb(str(total)) and abs(_mp(cert.total) - total) < total * mpmath.mpf(10) ** -6
    assert len(cert.tried) == 1 and cert.tried[0][0] == F(1, 4)
    # ρ = 4: by hand every drop has c ≤ 0 or total ≥ δ (by a margin), so the certificate is refuted, not undecided
    hand4 = [_hand(g11, g12, g22, F(5, 8), F(5, 8), (F(-9, 4), -1), (F(-3, 4), F(1, 2)), 4, 0, d, eta)
             for d in DROPS]
    assert all(c <= 0 or t > 1.01 * d for (c, t), d in zip(hand4, DROPS))
    assert low.proven is False and low.drop is None and low.limit is None and low.floor is None
    assert [d for d, _, _ in low.tried] == list(DROPS)
    for (d, cc, t), (c, tt) in zip(low.tried, hand4):
        assert (cc > 0) == (c > 0) and (t is None) == (c <= 0)
        if t is not None:
            assert t >= to_arb(d) and abs(_mp(t) - tt) < tt * mpmath.mpf(10) ** -6


def test_near_the_origin_every_c_is_negative():
    """D-T2 at ρ = 707/500 (‖W(0)‖ ≈ 1): c < 0 for every δ (by hand), so every attempt stops at c."""
    rho = F(707, 500)
    mpmath.mp.dps = 40
    with working_precision(30):
        red, _ = t2_reduction(D.d_t2(), (0, 0))
        cert = trap_certificate(red, _ray(rho, red.D1, 2), arb(1), WMM_T2)
    for d, cc, t in cert.tried:
        c, _ = _hand(2, 4, 10, F(1, 2), 1, (0, 1), (-2, 0), rho, 0, d, 1)
        assert c < 0 and cc < 0 and t is None and abs(_mp(cc) - c) < abs(c) * mpmath.mpf(10) ** -6
    assert [d for d, _, _ in cert.tried] == list(DROPS)
    assert cert.proven is False and cert.c is None and cert.total is None


def _eta_for(K, a0):
    """The η that makes D-T2's total on the ray at a(0) = a0 equal K·e^δ up to the c-term: total(δ) =
    2M₂e^δ(ηe^{−2a₀} + e^{−a₀}/c(δ)) (ĝ12 = 4, κ = 2, det ĝ/ĝ11 = 2, w₂ = 1)."""
    M2 = 1 / (1 + mpmath.e ** -2)
    return F(mpmath.nstr((K / (2 * M2)) * mpmath.e ** (2 * a0), 12))


def test_the_first_drop_whose_total_is_below_it_is_taken():
    """D-T2 at a(0) = 8, with η chosen so the total is ≈ K·e^δ: K = 1/4 fails δ = 1/4 (e^{1/4}/4 > 1/4) and proves
    δ = 1/2; K = 1/3 fails 1/4 and 1/2 and proves 1; K = 1 fails every δ (e^δ > δ): refuted although c > 0."""
    mpmath.mp.dps = 40
    for K, want in ((mpmath.mpf(1) / 4, F(1, 2)), (mpmath.mpf(1) / 3, F(1)), (mpmath.mpf(1), None)):
        eta = _eta_for(K, 8)
        hand = [_hand(2, 4, 10, F(1, 2), 1, (0, 1), (-2, 0), 8, 0, d, eta) for d in DROPS]
        ok = [c > 0 and t < 0.99 * d for (c, t), d in zip(hand, DROPS)]
        assert all(c > 0 for c, _ in hand) and all(ok[k] or hand[k][1] > 1.01 * d for k, d in enumerate(DROPS))
        first = next((d for d, o in zip(DROPS, ok) if o), None)
        assert first == want
        with working_precision(30):
            red, _ = t2_reduction(D.d_t2(), (0, 0))
            cert = trap_certificate(red, _ray(8, red.D1, 2), to_arb(eta), WMM_T2)
        n = len(DROPS) if want is None else DROPS.index(want) + 1
        assert [d for d, _, _ in cert.tried] == list(DROPS[:n]) and cert.drop == want
        assert cert.proven is (want is not None)
        for (d, cc, t), (c, tt) in zip(cert.tried, hand):
            assert cc > 0 and t is not None and abs(_mp(t) - tt) < tt * mpmath.mpf(10) ** -6
        for d, cc, t in cert.tried[:n - 1 if want is not None else n]:
            assert t >= to_arb(d)  # the drops before the chosen one certainly fail on the total
        if want is not None:
            assert cert.total < to_arb(want) and cert.tried[-1][2] is cert.total


def test_an_undecided_total_leaves_the_certificate_undecided():
    """η̄ given as a ball 0 ± 10⁶: every total with c > 0 straddles δ. D-T2 at ρ = 4179/985: by hand c > 0 for
    δ ∈ {1/4, 1/2, 1} and c < 0 for δ ∈ {2, 4} (a0 + b_lo − δ against ln(ĝ12w₂M₂/(ĝ11w₁m₁)) ≈ 2.6)."""
    rho = F(4179, 985)
    mpmath.mp.dps = 40
    signs = [_hand(2, 4, 10, F(1, 2), 1, (0, 1), (-2, 0), rho, 0, d, 0)[0] > 0 for d in DROPS]
    assert signs == [True, True, True, False, False]
    with working_precision(30):
        red, _ = t2_reduction(D.d_t2(), (0, 0))
        cert = trap_certificate(red, _ray(rho, red.D1, 2), arb(0, 10 ** 6), WMM_T2)
    assert cert.proven is None and cert.drop is None and len(cert.tried) == 5
    assert [t is not None for _, _, t in cert.tried] == signs


def test_an_undecided_c_leaves_the_certificate_undecided():
    """A single drop δ bisected (exactly, in Fractions) until the enclosure of c contains 0: neither proven nor
    refuted. c(δ) decreases in δ; by hand c(1) > 0 > c(2) at ρ = 4179/985."""
    rho = F(4179, 985)
    lo, hi = F(1), F(2)
    with working_precision(15):
        red, _ = t2_reduction(D.d_t2(), (0, 0))
        W0 = _ray(rho, red.D1, 2)
        for _ in range(200):
            mid = (lo + hi) / 2
            cert = trap_certificate(red, W0, arb(1), WMM_T2, drops=(mid,))
            c = cert.tried[0][1]
            if c > 0:
                lo = mid
            elif c < 0:
                hi = mid
            else:
                break
        assert not (c > 0) and not (c < 0)
        assert cert.proven is None and cert.tried == [(mid, c, None)]
        # the same start with the bracketing drops: proven at lo (c > 0, total small), refuted at hi (c < 0)
        assert trap_certificate(red, W0, arb(1), WMM_T2, drops=(hi,)).proven is False
        assert trap_certificate(red, W0, arb(1), WMM_T2, drops=(F(1),)).proven is True


def test_no_drop_tried_is_undecided():
    with working_precision(15):
        red, _ = t2_reduction(D.d_t2(), (0, 0))
        cert = trap_certificate(red, _ray(8, red.D1, 2), arb(1), WMM_T2, drops=())
    assert cert.proven is None and cert.tried == [] and cert.drop is None


# ----- after the proof: which side of v₂ = 0 the start is on, the floor and the limit --------------------------------

EPS = F(1, 10000)


def _tiny_deviant():
    """Driver (1,1)⊗e₁ (scores (1, 0)), deviant (4, ε)⊗(1, 1/2) with Y = −1 (scores (−ε, 0)): D̂₂ = (4, 2, ε, ε/2),
    ĝ12 = 4 + ε, κ = 2 + ε/2, w₂ = ε/2: the deviant's pull is tiny, so a trap is proven even with v₂ < 0 on Ω."""
    return _pair((1, 1), (1, 0), (4, EPS), (1, F(1, 2)))


def test_which_side_decides_the_floor():
    """W(0) = a₀D̂₁/ĝ11 + βF/‖F‖² has a(0) = a₀, b(0) = β; with δ = 1/4 the side is κa₀ + β − 1/4 ≥ 0. a₀ = 2 and
    β = 1/4 − κa₀ + s for s = 0 (the boundary: on the side), −1/8 (off it: no floor) and 1/2."""
    data = _tiny_deviant()
    D1, D2 = _outer((1, 1), (1, 0)), _outer((4, EPS), (1, F(1, 2)))
    g11, g12, g22 = _dot(D1, D1), _dot(D1, D2), _dot(D2, D2)
    kappa = g12 / g11
    assert kappa == 2 + EPS / 2 and g22 == 20 + F(5, 4) * EPS ** 2
    Fv = tuple(y - kappa * x for x, y in zip(D1, D2))
    q = tuple(-x for x in D2)  # m_dev = ⟨−q, D̂₂⟩ = ĝ22 > 0: floor ĝ22²/(2ĝ22·ĝ22) = 1/2
    mpmath.mp.dps = 40
    with working_precision(30):
        red, _ = t2_reduction(data, (0, 0))
        assert red.kappa == kappa and red.F == Fv
        for s, side in ((F(0), True), (F(-1, 8), False), (F(1, 2), True)):
            beta = F(1, 4) - kappa * 2 + s
            W0 = tuple(2 * x / g11 + beta * y / _dot(Fv, Fv) for x, y in zip(D1, Fv))
            c, total = _hand(g11, g12, g22, F(1, 2), EPS / 2, (0, 1), (-EPS, 0), 2, beta, F(1, 4), 1)
            assert c > 0 and total < 0.1  # proven at δ = 1/4 (by hand)
            cert = trap_certificate(red, W0, arb(1), q)
            assert (cert.a0, cert.b0) == (2, beta) and cert.proven is True and cert.drop == F(1, 4)
            assert cert.wrong_side is side
            assert cert.floor == (F(1, 2) if side else None)
            want = 1 + to_arb(g12) / (to_arb(g11) * to_arb(g22)).sqrt()  # 1 − ⟨q, D̂₁⟩/(√ĝ11‖q‖), q = −D̂₂
            assert cert.limit.overlaps(want) and cert.limit.rad() < arb(10) ** -25
        # on the side, a W^mm candidate without a positive deviant margin gives no floor
        beta = F(1, 4) - kappa * 2
        W0 = tuple(2 * x / g11 + beta * y / _dot(Fv, Fv) for x, y in zip(D1, Fv))
        ortho = (1, -2, 0, 0)  # ⟨ortho, D̂₂⟩ = 4 − 4 = 0: m_dev = 0
        assert _dot(ortho, D2) == 0
        for qq in (ortho, D2):
            cert = trap_certificate(red, W0, arb(1), qq)
            assert cert.proven is True and cert.wrong_side is True and cert.floor is None


def test_floor_and_limit_are_scale_invariant_in_w_mm():
    """D-T2's floor m₂²/(2‖W^mm‖²ĝ22) = 1/(2·5·10) and limit 1 − 1/√10 (spec) with W^mm or 3·W^mm (m₂ = 1 or 3)."""
    with working_precision(30):
        red, _ = t2_reduction(D.d_t2(), (0, 0))
        for scale in (1, 3):
            q = tuple(scale * x for x in WMM_T2)
            cert = trap_certificate(red, _ray(F(4179, 985), red.D1, 2), arb(1) / 4, q)
            assert cert.proven is True and cert.wrong_side is True
            assert -_dot(q, red.D2) == scale and cert.floor == F(1, 100)
            assert cert.limit.overlaps(1 - 1 / arb(10).sqrt()) and cert.limit.rad() < arb(10) ** -25


def test_exponential_loss_constants():
    """ℓ = e^{−u}: |ℓ'(φ)| = e^{−φ}, decreasing: m₁ = e^{−1} (hull₁ = [0, 1]), M₂ = e^{2} (hull₂ = [−2, 0])."""
    with working_precision(30):
        red, _ = t2_reduction(D.d_t2(), (0, 0))
        cert = trap_certificate(red, _ray(12, red.D1, 2), arb(1) / 4, WMM_T2, loss="exponential")
        assert cert.proven is True
        assert cert.m1 <= (-arb(1)).exp() and abs(cert.m1 - (-arb(1)).exp()) < arb(10) ** -6
        assert cert.M2 >= arb(2).exp() and abs(cert.M2 - arb(2).exp()) < arb(10) ** -5


def test_describe_names_the_region_only_when_proven():
    with working_precision(30):
        red, _ = t2_reduction(D.d_t2(), (0, 0))
        ok = trap_certificate(red, _ray(F(4179, 985), red.D1, 2), arb(1) / 4, WMM_T2)
        no = trap_certificate(red, _ray(F(707, 500), red.D1, 2), arb(1) / 4, WMM_T2)
    head = "driver sequence 0, deviant 1; ĝ11 = 2, ĝ12 = 4, ĝ22 = 10, κ = 2; a(0) = 4.24264, b(0) = 0"
    assert no.describe() == "driver sequence 0, deviant 1; ĝ11 = 2, ĝ12 = 4, ĝ22 = 10, κ = 2; a(0) = 1.414, b(0) = 0"
    text = ok.describe()
    assert text.startswith(head + "; Ω = {a ≥ a(0), b ≥ b(0) − 1/4}: m₁ = 0.268941, M₂ = 0.880797, c = ")
    assert text.endswith(" < δ = 1/4")


def test_short_figures():
    assert _s(None) == "?"
    assert _s(arb("1.23456789")) == "1.23457"
    assert _s(arb("-0.000123456789")) == "-0.000123457"
