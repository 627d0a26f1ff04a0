"""irgf engine: reference datasets, hypotheses helpers, the dual-coordinate flow (Lemma A.1) and GBS."""
from fractions import Fraction

from flint import arb, arb_mat

from verify.data.irgf import IRGF_DATASETS, d_a2viol, d_diaginf, d_face, d_seed0, d_trap
from verify.dynamics import radau_solver as rs
from verify.dynamics.dual import DualDiagSystem, gbs_integrate, integrate_dual, newton_update
from verify.dynamics.radau import tableau
from verify.dynamics.radau_decoupled import make_inverses
from verify.kit import irgf
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import to_arb, working_precision


def test_seed0_matches_spec():
    d = d_seed0()
    assert all(g == (4, 0, 0) for g in d.scores)
    sysm = DualDiagSystem(d)
    b12 = [float(x) for x in sysm.B_exact[0]]
    assert abs(b12[0] + 9.300123099) < 1e-9 and abs(b12[3] - 0.6167015403) < 1e-9
    res = irgf.l1_svm(d)
    assert abs(float(res.objective) - 1.59532775783559631) < 1e-15
    assert abs(float(irgf.smallest_reduced_cost(res)) - 0.639) < 1e-3
    assert [i for i, x in enumerate(res.solution) if x != 0] == [0, 2, 3]


def test_assumption3_numbers():
    with working_precision(20):
        L0, b = irgf.initial_loss_and_bound(d_seed0())
        assert abs(float(L0.mid()) - 0.263597) < 1e-6 and abs(float(b.mid()) - 0.345544) < 1e-6
        L0, b = irgf.initial_loss_and_bound(d_trap())
        assert abs(float(L0.mid()) - 0.700711) < 1e-6 and abs(float(b.mid()) - 0.623298) < 1e-6
        assert irgf.assumption3(d_trap())[0] is False


def test_grad_at_zero_exact():
    assert irgf.grad_at_zero_is_zero(d_diaginf())[0]
    for name in ("D-SEED0", "D-TRAP", "D-FACE", "D-A4"):
        assert not irgf.grad_at_zero_is_zero(IRGF_DATASETS[name]())[0]


def test_jacobian_matches_finite_differences():
    with working_precision(40):
        s = DualDiagSystem(d_seed0(), ["7/10", "13/10", "2/5", 1])
        y = [arb(x) for x in ("0.1", "0.2", "0.05", "0.3", "0.1", "0.2", "0.5")]
        J = s.jac(y)
        e = arb("1e-15")
        for j in range(7):
            yp, ym = list(y), list(y)
            yp[j] += e
            ym[j] -= e
            fp, fm = s.rhs(yp), s.rhs(ym)
            for k in range(7):
                assert abs((fp[k] - fm[k]) / (2 * e) - J[k, j]) < arb("1e-20")


def test_newton_update_converges_in_one_step_on_a_linear_ode():
    # documents the conjugate-pair fix: exact Newton on y' = Jy converges at once
    with working_precision(30):
        for s in (3, 6):
            tab, h = tableau(s), arb("0.1")
            J = arb_mat([[-1, 0], [0, -2]])
            inv = make_inverses(tab, h, J)
            Z = arb_mat(s, 2)
            F = rs.evaluate_stages(lambda y: [-y[0], -2 * y[1]], [arb(1), arb(1)], Z)
            Z = Z + newton_update(tab, inv, Z, F, h)
            assert abs(Z[s - 1, 0] - ((-h).exp() - 1)) < arb(10) ** (-(2 * s - 2))


def test_dual_flow_invariant_and_lemma_a1_against_primal():
    """s = Σφ (Assumption 2); the dual engine's β equals the primal (ξ_k, ξ_q) flow's β at the same t."""
    data = d_seed0()
    om = ["7/10", "13/10", "2/5", 1]
    with working_precision(25):
        sysm = DualDiagSystem(data, om)
        traj = integrate_dual(sysm, s_max="1", ds="1/4")
        rec = traj.records[2]  # s = 1/2
        assert abs(sum(rec.phi, arb(0)) - to_arb(rec.s)) < arb("1e-20")
        t = rec.T.expm1()
        beta_dual = sysm.beta(rec.phi)
        model = LinearLogitModel.from_dataset(data, "diag", "exponential")
        w = [to_arb(Fraction(x)) for x in om]
        s2 = arb(2).sqrt()

        def f(y):
            g = model.grad([a * b for a, b in zip(y[:4], y[4:])])
            return [arb((-gj * b).mid()) for gj, b in zip(g, y[4:])] + [arb((-gj * a).mid()) for gj, a in zip(g, y[:4])]

        ys, _ = gbs_integrate(f, [s2 * x for x in w] + [arb(0)] * 4, [arb(t.mid())], arb("1e-24"))
        beta_primal = [a * b for a, b in zip(ys[0][:4], ys[0][4:])]
        assert max(abs(a - b) for a, b in zip(beta_dual, beta_primal)) < arb("1e-11")


def test_face_dataset_flow_is_on_the_face():
    with working_precision(20):
        traj = integrate_dual(DualDiagSystem(d_face()), target_log_l1="3")
        assert traj.status == "reached"
        p = traj.system.observe(traj.records[-1].phi, traj.records[-1].T)
        assert p.beta[2] == 0 and p.beta[0].mid() == p.beta[1].mid()


def test_diaginf_flow_never_moves_beta():
    with working_precision(20):
        traj = integrate_dual(DualDiagSystem(d_diaginf()), s_max="5")
        assert traj.status == "s_max"
        assert all(all(b == 0 for b in traj.system.beta(r.phi)) for r in traj.records)


def test_gbs_exponential():
    with working_precision(30):
        ys, st = gbs_integrate(lambda y: [-y[0]], [arb(1)], ["1", "2"], arb("1e-33"))
        assert abs(ys[1][0] - arb(-2).exp()) < arb("1e-30")


def test_loss_rate_matches_a_central_difference_of_the_loss():
    """dℒ/dt of the dual flow (chain rule, ``loss_rate``) against (ℒ(φ + hφ̇) − ℒ(φ − hφ̇))/(2h),
    which uses only the loss value: error O(h²) = 1e-24 relative."""
    with working_precision(40):
        s = DualDiagSystem(d_seed0(), ["7/10", "13/10", "2/5", 1])
        phi = [arb(x) for x in ("0.3", "0.2", "0.05", "0.4", "0.1", "0.2")]
        rate, _, _ = s.loss_rate(phi)
        pd = s.observe(phi).phidot
        h = arb("1e-12")
        plus = s.observe([a + h * b for a, b in zip(phi, pd)]).loss
        minus = s.observe([a - h * b for a, b in zip(phi, pd)]).loss
        assert rate < 0 and abs((plus - minus) / (2 * h) / rate - 1) < arb("1e-20")


def test_softmax_state_accurate_when_a_non_optimal_token_dominates():
    """D-A2VIOL, scores (1, 9/10, 0): with logits (0, 40, −5) (margins −40 and 5) token B carries all but ~e^−40 of
    the attention; c_B = σ_B(γ_B − σᵀγ) with γ_B − σᵀγ = σ_A(γ_B − γ_A) + σ_C(γ_B − γ_C) ≈ −0.1e^−40 is computed from
    the small σ's (relative to the largest logit), not as δ − gap_B (which cancels ~17 digits). Reference: the same
    sums from exact exponentials in mpmath at 120 digits."""
    import mpmath as mp



    data = d_a2viol()
    with working_precision(30):
        s = DualDiagSystem(data, [1, 1, 1])
        (_, s_opt, sig, delta, _, cc, _), = s.softmax_state([arb(-40), arb(5)])
        got_B, got_C = cc
    with mp.workdps(120):
        lg = [mp.mpf(0), mp.mpf(40), mp.mpf(-5)]
        g = [mp.mpf(1), mp.mpf("0.9"), mp.mpf(0)]
        e = [mp.e ** x for x in lg]
        Z = sum(e)
        sg = [x / Z for x in e]
        mean = sum(a * b for a, b in zip(sg, g))
        want_B, want_C = sg[1] * (g[1] - mean), sg[2] * (g[2] - mean)
    assert abs(float(mp.mpf(got_B.mid().str(40, radius=False)) / want_B) - 1) < 1e-25  # the midpoint to 25 digits
    assert abs(float(mp.mpf(got_C.mid().str(40, radius=False)) / want_C) - 1) < 1e-25
    assert got_B.rad() < abs(got_B.mid()) * 1e-30  # the ball, too: the old formula left it ~1e-22 relative
