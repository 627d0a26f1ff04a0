"""verify.geometry.tfsvm_cones (mutation tests): the constants of tfsvm Lemmas 10–12 on D-T2 and small datasets by
hand (W^mm = [[1/2, −3/2], [1/2, −3/2]] of the spec, ‖W^mm‖² = 5, M² = 10, A² = 50, Γ = 2, gaps (1, 2)), the radii
R_π, R_μ from their printed formulas, the margin cone S_μ on both sides of its boundary (the boundary along a
probe solved here with mpmath), the exact norm scaling and the gradient correlations against ∇L(0) in closed form."""
from fractions import Fraction as F

import mpmath
from flint import arb

from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry.tfsvm_cones import (
    CorrelationTables,
    admissible_shrink,
    at_norm,
    cone_directions,
    cone_samples,
    correlations,
    inner,
    lemma10_radius,
    lemma11_radius,
    lemma12_radius,
    lmm_directions,
    margin_rows,
    margin_slack,
    sqrt_ball,
    w_constants,
)
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import to_arb, working_precision

Q = (F(1, 2), F(-3, 2), F(1, 2), F(-3, 2))  # D-T2's W^mm (spec)
HALF = F(1, 2)


def _close(x: arb, want: arb, rel=30):
    return abs(x - want) <= arb(10) ** -rel * (1 + abs(want))


def test_constants_of_d_t2_by_hand():
    """‖W^mm‖² = 4·(1/4 + 9/4)/2 = 5; M² = max ‖x‖²‖z‖² = ‖(2,2)‖²‖(1,1/2)‖² = 8·5/4 = 10; A² = 10·5 (the token
    differences equal the tokens, the second token being 0); Γ = max(1, 2); T = 2: γ^gap = γ̄^gap = (1, 2)."""
    with working_precision(30):
        c = w_constants(D.d_t2(), [str(x) for x in Q])
        assert c.q == Q and (c.norm_sq, c.M_sq, c.A_sq, c.Gamma) == (5, 10, 50, 2)
        assert (c.gap, c.gap_bar, c.T, c.n, c.gap_min) == ((1, 2), (1, 2), 2, 2, 1)
        assert _close(c.theta, 1 / arb(5).sqrt()) and _close(c.A, arb(50).sqrt())


def test_constants_that_tell_apart_norms_differences_and_gaps():
    """One sequence, tokens (1, 0), (−1, 0), (0, 1/2), z = (0, 2), v = (1, 1): scores (1, −1, 1/2): Γ = 2,
    γ^gap = 1 − 1/2, γ̄^gap = 1 − (−1); M² = max ‖x‖²·‖z‖² = 1·4, A² = ‖x₁ − x₂‖²‖z‖²·‖q‖² = 4·4·‖q‖² (the
    difference is longer than any token); q = (1, 2, 0, 0), ‖q‖² = 5."""
    data = Dataset.make(X=[[[1, 0], [-1, 0], [0, "1/2"]]], Y=[1], v=[1, 1], z=[[0, 2]], name="spread")
    with working_precision(30):
        c = w_constants(data, (1, 2, 0, 0))
    assert (c.M_sq, c.A_sq, c.Gamma, c.gap, c.gap_bar) == (4, 16 * 5, 2, (HALF,), (2,))
    assert (c.T, c.n, c.norm_sq) == (3, 1, 5)


def test_admissible_shrink_is_min_of_eps_theta_sq_and_two_over_four():
    assert [admissible_shrink(x) for x in (F(1, 10), 1, 2, 3, "1/2")] == [F(1, 40), F(1, 4), F(1, 2), F(1, 2), F(1, 8)]


def test_lemma10_radius_from_its_formula():
    """R_π = δ⁻¹Θ⁻¹ log(2M̄T/π), δ = min(π²/(4M²‖W^mm‖²), 2)/4 = π²/800, M̄ = √(M²‖W^mm‖²) = √50."""
    with working_precision(30):
        c = w_constants(D.d_t2(), Q)
        for pi in (1, HALF):
            R, delta = lemma10_radius(c, pi)
            assert delta == F(pi) ** 2 / 800
            want = (arb(800) / to_arb(F(pi)) ** 2) * arb(5).sqrt() * (4 * arb(50).sqrt() / to_arb(F(pi))).log()
            assert _close(R, want, 25)


def test_lemma11_radius_from_its_formula_and_its_larger_part():
    """ν = min(π²/(16A²), 2)/4 = π²/3200; (51) = (1/(μΘ))log(12TΓA/(πγ^gap_min)), ν part (1/(νΘ))log(4ΓAT/(γ^gap_min π))
    with T = Γ = 2, A = √50, γ^gap_min = 1; R_π is the larger: the ν part at μ = 1/2, (51) at μ = 10⁻⁹."""
    with working_precision(30):
        c = w_constants(D.d_t2(), Q)
        for pi, mu in ((HALF, HALF), (1, F(1, 10 ** 9))):
            R, r51, rnu, nu = lemma11_radius(c, pi, mu)
            p, m, s5, A = to_arb(F(pi)), to_arb(mu), arb(5).sqrt(), arb(50).sqrt()
            assert nu == F(pi) ** 2 / 3200
            assert _close(r51, s5 / m * (48 * A / p).log(), 25)
            assert _close(rnu, s5 / to_arb(nu) * (16 * A / p).log(), 25)
            assert _close(R, rnu if mu == HALF else r51, 25)
            assert (R > r51) if mu == HALF else (R > rnu)


def test_lemma12_radius_from_its_formula():
    """R_μ = (1/(μΘ)) log(4TΓA/(μγ^gap_min)) = (√5/μ) log(16√50/μ)."""
    with working_precision(30):
        c = w_constants(D.d_t2(), Q)
        for mu in (HALF, F(1, 10)):
            m = to_arb(mu)
            assert _close(lemma12_radius(c, mu), arb(5).sqrt() / m * (16 * arb(50).sqrt() / m).log(), 25)


def test_margin_rows_and_the_slack_on_both_sides_of_the_cone():
    """Rows F_opt − F_t: (1,1)⊗(1,0) for sequence 0, −(2,2)⊗(1,1/2) for sequence 1 (opt = token 2); with α = (1, 1)
    given, sequence 1's row is +(2,1,2,1). At W^mm both margins are 1 and Θ‖W^mm‖ = 1: slack 1 − μ; at W^mm_α
    = (1/2, 0, 1/2, 0) sequence 1's margin is −2: outside S_μ."""
    d = D.d_t2()
    assert margin_rows(d) == [(1, 0, 1, 0), (-2, -1, -2, -1)]
    assert margin_rows(d, [0, 0]) == [(1, 0, 1, 0), (2, 1, 2, 1)]
    with working_precision(30):
        theta = 1 / arb(5).sqrt()
        rows = margin_rows(d)
        assert _close(margin_slack(rows, Q, HALF, theta), arb(1) / 2, 25)
        assert _close(margin_slack(rows, [3 * x for x in Q], F(1, 4), theta), arb(9) / 4, 25)  # 3·(1 − 1/4)
        w_alpha = (HALF, 0, HALF, 0)
        assert _close(margin_slack(rows, w_alpha, HALF, theta), -2 - theta / 2 * to_arb(HALF).sqrt(), 25)
        assert margin_slack(rows, w_alpha, HALF, theta) < 0


def _t_star(mu):
    """Along U = −(1,0,1,0): W = W^mm + tU has margins 1 − 2t and 1 + 4t, ‖W‖² = 2(1/2 − t)² + 9/2; the boundary of
    S_μ solves 1 − 2t = μΘ‖W‖ (mpmath)."""
    mpmath.mp.dps = 30
    th = 1 / mpmath.sqrt(5)
    f = lambda t: 1 - 2 * t - mpmath.mpf(mu.numerator) / mu.denominator * th * mpmath.sqrt(2 * (0.5 - t) ** 2 + 4.5)  # noqa: E731
    return mpmath.findroot(f, 0.3)


def test_cone_directions_stop_at_the_boundary_and_keep_only_certified_points():
    U = (-1, 0, -1, 0)
    with working_precision(30):
        theta = 1 / arb(5).sqrt()
        rows = margin_rows(D.d_t2())
        probes = [("along q", Q), ("toward 0", tuple(-x for x in Q)), ("U", U)]
        out = cone_directions(rows, Q, HALF, theta, probes)
        assert [lb for lb, _ in out] == ["W^mm", "boundary of S_μ along along q", "boundary of S_μ along toward 0",
                                         "boundary of S_μ along U"]
        assert out[0][1] == Q
        assert out[1][1] == tuple(10001 * x for x in Q)  # the whole ray q + tq stays inside: t = 10⁴
        t0 = 1 - out[2][1][0] / Q[0]  # W = (1 − t)q: inside for t < 1
        assert 0 < 1 - t0 < F(1, 10 ** 8)
        t = HALF - out[3][1][0]
        assert out[3][1] == (HALF - t, F(-3, 2), HALF - t, F(-3, 2))
        ts = _t_star(HALF)
        assert 0 < ts - mpmath.mpf(t.numerator) / t.denominator < ts * mpmath.mpf(10) ** -8
        for _, W in out:
            assert margin_slack(rows, W, HALF, theta) >= 0
        beyond = tuple(HALF - t * F(1000001, 1000000) if k % 2 == 0 else F(-3, 2) for k in range(4))
        assert margin_slack(rows, beyond, HALF, theta) < 0  # just past the point found: outside
        # a proposal pushed outside (a negative shrink) is not certified inside: dropped
        pushed = cone_directions(rows, Q, HALF, theta, [("U", U)], shrink=F(-1, 10 ** 6))
        assert [lb for lb, _ in pushed] == ["W^mm"]
        # μ = 1: W^mm is on the boundary (slack 1 − μ = 0), so along U the largest t is 0: nothing is added
        assert [lb for lb, _ in cone_directions(rows, Q, 1, theta, [("U", U)])] == ["W^mm"]


def test_at_norm_is_a_rational_multiple_just_above_the_radius():
    with working_precision(30):
        for d, R in (((3, 4), arb(10)), ((1, 1, 1), arb(7) / 3), ((F(1, 3), 0), arb(10) ** 5)):
            W = at_norm(d, R)
            c = W[0] / F(d[0])
            assert all(w == c * F(x) for w, x in zip(W, d))
            n = sqrt_ball(sum((w * w for w in W), F(0)))
            assert n >= R and n <= R * (1 + arb(10) ** -8)
            assert (c * 10 ** 20).denominator == 1  # ten significant digits, decimal


def test_lmm_directions_of_d_t2_and_the_enumeration_limit():
    """The spec: the only locally-optimal α ≠ opt is α = (1, 1) with W^mm_α = D̂₁/ĝ11 = (1,0,1,0)/2."""
    assert lmm_directions(D.d_t2(), 30) == [((0, 0), (HALF, 0, HALF, 0))]
    assert lmm_directions(D.d_t2(), 30, limit=3) == []  # T^n = 4 > 3
    assert lmm_directions(D.d_t2(), 30, limit=4) != []


def test_inner_is_exact():
    with working_precision(15):
        assert inner((1, "1/2"), (F(3), 4)) == 5 and inner((F(1, 3),), (3,)).overlaps(arb(1))
        assert inner((F(1, 3),), (3,)).rad() < arb(10) ** -25


def test_correlations_at_zero_in_closed_form():
    """At W = 0, s = (1/2, 1/2): φ = (1/2, −1), |ℓ'(φ)| = 1/(1 + e^φ), q_i = 1/2, and
    ∇L(0) = (1/n)Σ_i ℓ'(φ_i)(1/T)Σ_t(γ_it − φ_i)F_it = (1/2)[ℓ'(1/2)(1/4)F_01... ]: by hand,
    −⟨∇L(0), V⟩ = (1/2)Σ_i |ℓ'(φ_i)|·(1/4)(γ_i0 − γ_i1)⟨F_i0 − F_i1, V⟩."""
    data = D.d_t2()
    with working_precision(30):
        model = LinearLogitModel.from_dataset(data, "W")
        V1, V2 = Q, (1, 2, 3, 4)
        c = correlations(CorrelationTables(model, [V1, V2]), [0, 0, 0, 0])
        lp = [1 / (1 + arb(1 / 2).exp()), 1 / (1 + arb(-1).exp())]
        dF = [(1, 0, 1, 0), (2, 1, 2, 1)]  # F_i0 − F_i1
        dg = [1, -2]
        for V, got in zip((V1, V2), c.values):
            want = sum(lp[i] * dg[i] * to_arb(sum(F(a) * F(b) for a, b in zip(dF[i], V))) / 4 for i in range(2)) / 2
            assert _close(got, want, 25)
        assert all(_close(a, b, 25) for a, b in zip(c.lprime, lp))
        assert all(_close(x, arb(1) / 2, 25) for x in c.q)
        # against the engine's gradient at a point off zero
        W = (F(1, 3), F(-1, 2), 2, F(1, 5))
        g = model.grad([to_arb(x) for x in W])
        c = correlations(CorrelationTables(model, [V2]), W)
        assert _close(c.values[0], -sum((a * to_arb(F(b)) for a, b in zip(g, V2)), arb(0)), 20)


def test_cone_samples_scale_every_direction_by_every_factor():
    with working_precision(30):
        theta = 1 / arb(5).sqrt()
        dirs = cone_samples(D.d_t2(), Q, HALF, theta, None, random_dirs=1)
        assert dirs[0] == ("W^mm", Q) and all(lb.startswith("boundary of S_μ along ") for lb, _ in dirs[1:])
        assert sum(lb.startswith("boundary of S_μ along random") for lb, _ in dirs) <= 1
        R = arb(50)
        pts = cone_samples(D.d_t2(), Q, HALF, theta, R, factors=(1, 3), random_dirs=1)
        assert [lb for lb, _ in pts] == [f"{lb}, ‖W‖_F ≥ {f}·R" for lb, _ in dirs for f in (1, 3)]
        for (lb, W), f in zip(pts, [1, 3] * len(dirs)):
            n = sqrt_ball(sum((w * w for w in W), F(0)))
            assert n >= f * R and n <= f * R * (1 + arb(10) ** -8)


# ----- the radii with other constants, the tie of the two parts of R_π, the seeds and the scopes ------------------
from verify.geometry.stationarity import probe_directions  # noqa: E402
from verify.geometry.tfsvm_cones import WConstants  # noqa: E402


def _c(gap_min=F(1, 2)):
    """Hand-made constants: ‖W^mm‖² = 5, M² = 10, A² = 50, Γ = 2, T = n = 2, γ^gap_min = 1/2."""
    return WConstants(Q, F(5), F(10), F(50), F(2), (gap_min, F(2)), (1, 2), 2, 2)


def test_radii_with_a_gap_below_one():
    with working_precision(30):
        c = _c()
        s5, A, g = arb(5).sqrt(), arb(50).sqrt(), arb(1) / 2
        R, r51, rnu, nu = lemma11_radius(c, HALF, HALF)
        assert _close(r51, 2 * s5 * (12 * 2 * 2 * A / (g / 2)).log(), 25)
        assert _close(rnu, s5 / to_arb(nu) * (4 * 2 * A * 2 / (g / 2)).log(), 25)
        assert _close(lemma12_radius(c, HALF), 2 * s5 * (4 * 2 * 2 * A / (g / 2)).log(), 25)


def test_the_two_parts_of_r_pi_tied_give_the_larger_upper_end():
    """μ chosen (to 10⁻⁶⁰) so that (51) equals the ν part: (1/μ)log(12X) = (1/ν)log(4X), X = TΓA/(γ^gap π); at 15
    digits the two balls overlap and R_π is the larger upper end, exactly."""
    import mpmath

    mpmath.mp.dps = 70
    X = 8 * mpmath.sqrt(50)  # T·Γ·A/(γ^gap_min·π) with γ^gap_min = 1, π = 1/2
    nu = mpmath.mpf(1) / 12800
    mu = F(str(mpmath.nstr(nu * mpmath.log(12 * X) / mpmath.log(4 * X), 65)))
    with working_precision(15):
        R, r51, rnu, _ = lemma11_radius(_c(F(1)), HALF, mu)
        assert r51.overlaps(rnu) and R.rad() == 0
        assert R >= r51 and R >= rnu and R == arb(max(r51.upper(), rnu.upper()))


def test_w_constants_start_from_zero():
    """Small data (every ‖x‖²‖z‖² < 1): M² = max(1/4, 5/16) = 5/16 and A² = 5/16·‖q‖²; with z = (2, 0) the token
    norm (not the difference (0, 1/4)) sets A: 5/16·4."""
    small = Dataset.make(X=[[["1/2", 0], ["1/2", "1/4"]]], Y=[1], v=[0, 1], z=[[1, 0]], name="small")
    c = w_constants(small, (1, 0, 0, 0))
    assert (c.M_sq, c.A_sq) == (F(5, 16), F(5, 16))
    wide = Dataset.make(X=[[["1/2", 0], ["1/2", "1/4"]]], Y=[1], v=[0, 1], z=[[2, 0]], name="wide")
    c = w_constants(wide, (1, 0, 0, 0))
    assert (c.M_sq, c.A_sq) == (F(5, 4), F(5, 4))


def test_at_norm_keeps_ten_digits_and_goes_exact_beyond_float():
    with working_precision(30):
        W = at_norm((3, 4), arb(7))
        c = W[0] / 3
        k = 9 - (len(str(int(c))) - 1)  # 10 significant digits: c·10^k is an integer
        assert (c * F(10) ** k).denominator == 1 and c * 5 >= 7
        R = arb(10) ** 400  # R/‖d‖ beyond float64: the exact rounding up
        W = at_norm((3, 4), R)
        n = sqrt_ball(sum((w * w for w in W), F(0)))
        assert n >= R and n <= R * (1 + arb(10) ** -8)
        assert (W[0] / 3 / F(10) ** 390).denominator == 1  # 10 significant digits of 2·10⁴⁰⁰


def test_correlations_take_balls_and_keep_the_states():
    data = D.d_t2()
    with working_precision(30):
        model = LinearLogitModel.from_dataset(data, "W")
        W = (F(1, 3), F(-1, 2), 2, F(1, 5))
        a = correlations(CorrelationTables(model, [Q]), W)
        b = correlations(CorrelationTables(model, [Q]), [to_arb(x) for x in W])
        assert _close(a.values[0], b.values[0], 25)
        assert len(b.states) == 2 and all(abs(sum(st.s, arb(0)) - 1) < arb(10) ** -25 for st in b.states)
        assert all(_close(x, 1 - st.s[o], 25) for x, st, o in zip(b.q, b.states, (0, 1)))


def test_cone_samples_defaults_and_seeded_probes():
    """The probes are ``probe_directions`` without ±q (its first two), with ``random_dirs`` draws of ``seed``."""
    d = D.d_t2()
    with working_precision(30):
        theta = 1 / arb(5).sqrt()
        assert cone_samples(d, Q, HALF, theta) == cone_samples(d, Q, HALF, theta, None, random_dirs=2, seed=0)
        probes = probe_directions(features(d, "W"), (0, 1), Q, count=3, seed=7)[2:]
        got = cone_samples(d, Q, HALF, theta, random_dirs=3, seed=7)
        want = cone_directions(margin_rows(d), Q, HALF, theta, probes)
        assert got == want and got[1][0] == "boundary of S_μ along " + probes[0][0]
