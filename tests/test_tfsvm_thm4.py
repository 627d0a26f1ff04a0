"""tfsvm.thm4 (FLAWED-v1): the certified trap on D-T2 and on ``thm4_trap`` (VIOLATED, certified), the n = 1 B.2
dataset (HOLDS as evidence), B.2 failing (NOT_APPLICABLE). Expected values are derived here by hand: the spec's
W^mm and W^mm_α of D-T2 (limit 1 − 1/√10, floor 1/(2·5·10)), the 2×2 Gram system of ``thm4_trap`` solved in
Fractions, and the two-coordinate GD update recomputed from the sigmoid and ℓ' of the logistic loss."""
import math
from fractions import Fraction

import mpmath
from flint import arb

from lemmas.tfsvm import thm4
from verify.data import tfsvm as D
from verify.geometry.stationarity import smoothness_W
from verify.geometry.trap import t2_reduction, trap_certificate
from verify.kit.global_descent import gd_checkpoints, step_size_W
from verify.models.attention import LinearLogitModel, one_minus_corr
from verify.numbers.precision import to_arb, working_precision


def _item(out, prefix):
    found = [e for e in out.evidence if e.quantity.startswith(prefix)]
    assert found, [e.quantity for e in out.evidence]
    return found[0]


def _dot(a, b):
    return sum((Fraction(x) * Fraction(y) for x, y in zip(a, b)), Fraction(0))


def _outer(x, z):
    return tuple(Fraction(a) * Fraction(b) for a in x for b in z)


def test_d_t2_violated_certified_with_the_spec_limit_and_floor():
    with working_precision(30) as prec:
        out = thm4.evaluate(D.d_t2(), prec, gd_steps=20, flows="none")
        dec = out.decision()
        assert (dec.verdict, dec.certainty) == ("VIOLATED", "certified")
        trap = _item(out, "trap at")
        assert trap.decide() is False and trap.certified
        # spec: corr(W^mm_α, W^mm) = 1/√10, W^mm_α ∝ [[1,0],[1,0]] = the limit direction
        assert trap.value.overlaps(1 - 1 / arb(10).sqrt())
        assert trap.value.rad() < arb(10) ** -25
    # W^mm = [[1/2, −3/2], [1/2, −3/2]] (margins 1); deviating sequence 2: D̂₂ = (2,2)⊗(1,1/2), m₂ = 1
    wmm = (Fraction(1, 2), Fraction(-3, 2), Fraction(1, 2), Fraction(-3, 2))
    d2 = _outer((2, 2), (1, Fraction(1, 2)))
    assert -_dot(wmm, d2) == 1
    assert _item(out, "  … exact floor").value == Fraction(1, 1) / (2 * _dot(wmm, wmm) * _dot(d2, d2)) == Fraction(1, 100)


def test_constructed_dataset_violated_certified_with_the_gram_limit():
    data = D.thm4_trap()
    # by hand from the docstring's data: D_i = (x_i1 − x_i2) ⊗ z_i; opt = (1, 2) ⇒ W^mm = Σ λ_i s_i D_i, s = (+1, −1)
    d1 = _outer((0 - 1, -1 - Fraction(-1, 2)), (-1, Fraction(-3, 2)))
    d2 = _outer((-2 - (-1), Fraction(-1, 2) - 0), (-1, -1))
    s1, s2 = d1, tuple(-x for x in d2)
    g11, g12, g22 = _dot(s1, s1), _dot(s1, s2), _dot(s2, s2)
    det = g11 * g22 - g12 ** 2
    lam1, lam2 = (g22 - g12) / det, (g11 - g12) / det  # both constraints active: G λ = 1
    assert lam1 > 0 and lam2 > 0
    wmm = tuple(lam1 * a + lam2 * b for a, b in zip(s1, s2))
    # α = (2, 2): driver = sequence 2 (signed D̂ = −D₂ = s2), deviant = sequence 1 (D̂ = −D₁); κ = 5/4 (docstring)
    drv, dev = s2, tuple(-x for x in d1)
    assert _dot(drv, dev) / _dot(drv, drv) == Fraction(5, 4) == t2_reduction(data, (1, 1))[0].kappa
    with working_precision(30) as prec:
        out = thm4.evaluate(data, prec, gd_steps=20, flows="none")
        dec = out.decision()
        assert (dec.verdict, dec.certainty) == ("VIOLATED", "certified")
        want = 1 - to_arb(_dot(wmm, drv)) / (to_arb(_dot(drv, drv)) * to_arb(_dot(wmm, wmm))).sqrt()
        trap = _item(out, "trap at")
        assert trap.value.overlaps(want) and trap.decide() is False
    m_dev = -_dot(wmm, dev)
    assert _item(out, "  … exact floor").value == m_dev ** 2 / (2 * _dot(wmm, wmm) * _dot(dev, dev))


def test_single_sequence_holds_as_evidence():
    with working_precision(30) as prec:
        out = thm4.evaluate(D.thm4_single(), prec, depth=100)
    dec = out.decision()
    assert (dec.verdict, dec.certainty) == ("HOLDS", "evidence")
    flows = [e for e in out.evidence if e.quantity.startswith("gradient flow from")]
    assert len(flows) == 2 and all(e.decide() is True for e in flows)
    # W^mm = u zᵀ, u = (1/‖z‖², 0) (both margins active), ‖W^mm‖ = 2/√5: the flows stop at 100·‖W^mm‖
    assert f"‖W‖_F ≤ {100 * 2 / math.sqrt(5):.4g} " in out.range


def test_b2_failing_is_not_applicable():
    with working_precision(30) as prec:
        out = thm4.evaluate(D.b1_only(), prec)
    dec = out.decision()
    assert dec.verdict == "NOT_APPLICABLE" and any("B.2" in r for r in dec.reasons)


def test_from_zero_the_flow_reaches_the_gmm_while_the_lmm_start_plateaus():
    with working_precision(30) as prec:
        out = thm4.evaluate(D.d_t2(), prec, gd_steps=10, depth=100, flows="all")
    assert _item(out, "gradient flow from W(0) = 0").decide() is True
    assert _item(out, "gradient flow from W(0) = 4179/985").decide() is False


def _sigmoid_terms(u):
    e = (-u).exp()
    return 1 / (1 + e), e / (1 + e) ** 2  # σ(u), σ'(u)


def test_reduction_is_exactly_one_gd_step():
    """a⁺ − a = η(ĝ11c₁ − ĝ12c₂), b⁺ − b = −η(det ĝ/ĝ11)c₂ with c_i = (1/n)|ℓ'(φ_i)|σ'(v_i)|Δ_i|, against the
    engine's gradient, at points off the ray."""
    for data, alpha in ((D.d_t2(), (0, 0)), (D.thm4_trap(), (1, 1))):
        with working_precision(50):
            red, why = t2_reduction(data, alpha)
            assert red is not None, why
            model = LinearLogitModel.from_dataset(data, "W", "logistic")
            eta = Fraction(1, 7)
            g = data.scores
            for W in ((Fraction(1, 3),) * 4, (Fraction(2), Fraction(-1), Fraction(1, 2), Fraction(3))):
                Wa = [to_arb(x) for x in W]
                Wn = [w - to_arb(eta) * gr for w, gr in zip(Wa, model.grad(Wa))]
                F = red.F
                a, b = _dot(W, red.D1), _dot(W, F)
                cs = []
                for seq, Dh in ((red.driver, red.D1), (red.deviant, red.D2)):
                    v = to_arb(_dot(W, Dh))
                    sig, dsig = _sigmoid_terms(v)
                    p = sig if alpha[seq] == 0 else 1 - sig  # weight of token 1
                    phi = to_arb(g[seq][1]) + p * to_arb(g[seq][0] - g[seq][1])
                    lp = 1 / (1 + phi.exp())  # |ℓ'(φ)| of the logistic loss
                    cs.append(lp * dsig * to_arb(abs(g[seq][0] - g[seq][1])) / data.n)
                da = sum((x * to_arb(y) for x, y in zip(Wn, red.D1)), arb(0)) - to_arb(a)
                db = sum((x * to_arb(y) for x, y in zip(Wn, F)), arb(0)) - to_arb(b)
                want_a = to_arb(eta) * (to_arb(red.g11) * cs[0] - to_arb(red.g12) * cs[1])
                want_b = -to_arb(eta) * to_arb(red.det_ratio) * cs[1]
                assert abs(da - want_a) < arb(10) ** -40 and abs(db - want_b) < arb(10) ** -40


def test_gd_stays_in_the_certified_region_and_above_the_floor():
    data = D.d_t2()
    w_alpha = (Fraction(1, 2), 0, Fraction(1, 2), 0)
    wmm = (Fraction(1, 2), Fraction(-3, 2), Fraction(1, 2), Fraction(-3, 2))
    W0 = tuple(Fraction(4179, 985) * x for x in w_alpha)
    with working_precision(40):
        red, _ = t2_reduction(data, (0, 0))
        eta, _ = step_size_W(data)
        cert = trap_certificate(red, W0, eta, wmm)
        assert cert.proven is True
        run = gd_checkpoints(LinearLogitModel.from_dataset(data, "W", "logistic"), W0, eta, list(range(0, 301, 20)))
        b_lo = cert.b0 - cert.drop
        qa = [to_arb(x) for x in wmm]
        for W in run.points:
            a = sum((x * to_arb(y) for x, y in zip(W, red.D1)), arb(0))
            b = sum((x * to_arb(y) for x, y in zip(W, red.F)), arb(0))
            assert a >= to_arb(cert.a0) - arb(10) ** -30 and b > to_arb(b_lo)
            assert one_minus_corr(W, qa) > arb(1) / 100
        assert run.points[-1][0] > to_arb(W0[0])  # a grows


def test_certificate_not_proven_at_one_unit_on_the_ray():
    """spec: from 1·Ŵ^mm_α GD reaches the GMM, so no certificate may prove a trap there (c < 0 for every δ)."""
    data = D.d_t2()
    with working_precision(30):
        red, _ = t2_reduction(data, (0, 0))
        eta, _ = step_size_W(data)
        W0 = tuple(Fraction(707, 500) * x for x in (Fraction(1, 2), 0, Fraction(1, 2), 0))  # ‖W(0)‖ ≈ 1
        cert = trap_certificate(red, W0, eta, (Fraction(1, 2), Fraction(-3, 2), Fraction(1, 2), Fraction(-3, 2)))
    assert cert.proven is not True and cert.limit is None


def test_registered_with_the_spec_id_and_aliases():
    c = thm4.CLAIM
    assert c.kind == "asymptotic" and set(c.aliases) == {"global-convergence", "global-convergence-equal-scores"}
    assert [d.name for d in c.default_datasets()] == ["tfsvm-D-T2", "tfsvm-thm4-trap", "tfsvm-thm4-ladder",
                                                    "tfsvm-thm4-single"]


def test_d_t2_certificate_constants_match_the_hand_formula():
    """D-T2 by hand (mpmath, the docstring's formulas): ĝ11 = 2, ĝ12 = 4, det ĝ/ĝ11 = 2, w = (1/2, 1), κ = 2; logistic |ℓ'(φ)| = 1/(1 + e^φ)
    is decreasing, so m₁ = 1/(1 + e) (φ₁ ∈ [0, 1]) and M₂ = 1/(1 + e^{−2}) (φ₂ ∈ [−2, 0]); δ = 1/4, b(0) = 0."""
    mpmath.mp.dps = 40
    a0 = mpmath.mpf(4179) / 985 * (mpmath.mpf(1) / 2 + mpmath.mpf(1) / 2)  # ⟨ρW^mm_α, E_a⟩ = ρ(1/2 + 1/2)
    m1, M2 = 1 / (1 + mpmath.e), 1 / (1 + mpmath.e ** -2)
    W0 = tuple(Fraction(4179, 985) * x for x in (Fraction(1, 2), 0, Fraction(1, 2), 0))
    with working_precision(40):
        eta = 1 / smoothness_W(D.d_t2())
        red, _ = t2_reduction(D.d_t2(), (0, 0))
        cert = trap_certificate(red, W0, eta, (Fraction(1, 2), Fraction(-3, 2), Fraction(1, 2), Fraction(-3, 2)))
        eta_f = mpmath.mpf(eta.mid().str(35, radius=False))
    c = 2 * mpmath.mpf(1) / 2 * m1 / (1 + mpmath.e ** -a0) ** 2 - 4 * M2 * mpmath.e ** (-a0 + mpmath.mpf(1) / 4)
    total = 2 * M2 * mpmath.e ** (mpmath.mpf(1) / 4) * (eta_f * mpmath.e ** (-2 * a0) + mpmath.e ** -a0 / c)
    assert cert.drop == Fraction(1, 4)
    # m₁, M₂ come from an interval evaluation (a lower / an upper bound, radii kept to ~30 bits): the certified c is
    # at most the hand value and the certified total at least, both within 10⁻⁶ relative
    got_c, got_t = (mpmath.mpf(x.mid().str(35, radius=False)) for x in (cert.c, cert.total))
    assert cert.c < arb(str(c)) and abs(got_c - c) < c * mpmath.mpf(10) ** -6
    assert cert.total > arb(str(total)) and abs(got_t - total) < total * mpmath.mpf(10) ** -6


def test_ladder_finds_the_trap_where_no_certificate_applies():
    """thm4_ladder (n = 3: no T = 2, n = 2 certificate): W^mm_α = u·(25/2, 0)ᵀ with u = (1/5, 1/5) (sequences 1 and
    3 tight, derived in the dataset's docstring), ‖W^mm_α‖_F = 5√2/2. A start at ‖W(0)‖_F = 3 lies in the GMM's
    basin; the ladder flies the ray from 3·‖W^mm_α‖ (escapes) and 10·‖W^mm_α‖ (stays): a plateau of 1 − corr to W^mm
    while 1 − corr to W^mm_α decreases — VIOLATED as evidence, and the ladder stops there."""
    norm_a = 5 * math.sqrt(2) / 2
    first, second = (float(f"{r * norm_a:.3g}") for r in (3, 10))
    assert (first, second) == (10.6, 35.4)
    with working_precision(30) as prec:
        out = thm4.evaluate(D.thm4_ladder(), prec, gd_steps=0)
    dec = out.decision()
    assert (dec.verdict, dec.certainty) == ("VIOLATED", "evidence")
    rungs = [e for e in out.evidence if "·W^mm_α" in e.quantity]
    assert [f"‖W(0)‖_F ≈ {first})" in rungs[0].quantity, f"‖W(0)‖_F ≈ {second})" in rungs[1].quantity] == [True, True]
    assert len(rungs) == 2 and rungs[0].decide() is True and rungs[1].decide() is False
    assert "stays at the LMM (trapped)" in rungs[1].note and "plateau" in rungs[1].note
    assert f"ray starts α = (1, 1, 1) at ‖W(0)‖_F ≈ {first}, {second} (a ladder" in out.range


def test_stays_at_lmm_needs_both_the_plateau_and_the_lmm_convergence():
    from verify.claims.verdict import Decision
    from verify.kit.global_convergence import stays_at_lmm

    plateau, decays = Decision(False, "decays"), Decision(True, "decays")
    down, flat = [Fraction(1, 10 ** k) for k in range(1, 6)], [Fraction(1, 2)] * 5
    assert stays_at_lmm(plateau, down) is True
    assert stays_at_lmm(plateau, flat) is False      # neither at W^mm nor converging to W^mm_α: not "trapped"
    assert stays_at_lmm(decays, down) is False
    assert stays_at_lmm(Decision(None, "decays"), down) is False
