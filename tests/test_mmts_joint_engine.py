"""Engine of the joint (v, p) claims (mmts Sec. 3): the joint model's derivatives against finite differences, the joint
SVMs against a brute-force exact derivation (Fractions, independent of verify.svm), Assumption C's certificates."""
import itertools
from fractions import Fraction as F

from flint import arb

from verify.data import mmts as D
from verify.data.dataset import Dataset
from verify.dynamics.joint_rp import joint_regularization_path
from verify.kit.joint import assumption_c, joint_svms
from verify.models.joint import JointModel
from verify.numbers.precision import to_arb, working_precision


def min_norm(rows, rhs):
    """min ‖x‖ s.t. rows·x ≥ rhs in 2-D, by enumerating active sets of size ≤ 2 (Cramer's rule, exact)."""
    best = None
    cands = [[F(0), F(0)]]
    for j in range(len(rows)):
        a, b = rows[j], rhs[j]
        nn = a[0] ** 2 + a[1] ** 2
        cands.append([b * a[0] / nn, b * a[1] / nn])
    for j, k in itertools.combinations(range(len(rows)), 2):
        (a, b), (c, d) = rows[j], rows[k]
        det = a * d - b * c
        if det:
            cands.append([(rhs[j] * d - b * rhs[k]) / det, (a * rhs[k] - rhs[j] * c) / det])
    for x in cands:
        if all(r[0] * x[0] + r[1] * x[1] >= h for r, h in zip(rows, rhs)):
            if best is None or x[0] ** 2 + x[1] ** 2 < best[0] ** 2 + best[1] ** 2:
                best = x
    return best


def fig3_rows(third):
    toks = [(F(1), F(1)), (F(1), F(-1)), third]
    Y = [1, -1, 1]
    att = [list(t) for t in toks]                                  # k_iα − k_i0 = x_i (token 0 is the origin)
    label = [[y * a for a in t] for y, t in zip(Y, toks)]
    return att, label


def test_fig3_svms_match_an_exact_brute_force_derivation():
    for variant, third in (("a", (F(1, 2), F(1))), ("b", (F(1, 2), F(3, 2)))):
        att, label = fig3_rows(third)
        v = min_norm(label, [1, 1, 1])
        p = min_norm(att, [1, 1, 1])
        S = tuple(i for i in range(3) if label[i][0] * v[0] + label[i][1] * v[1] == 1)
        relax = min_norm(att, [1 if i in S else 0 for i in range(3)])
        js = joint_svms(D.mmts_fig3(variant), "opt", 30, need=("label", "att", "relaxed"))
        assert js.alpha == (1, 1, 1) and all(h.met for h in js.hypotheses)
        assert js.v_mm == v == [0, 1] and js.support == S and js.p_mm == p and js.p_relax == relax
    # the spec's numbers, derived here: Fig. 3(a) p^mm = (4/3, 1/3), S = all; Fig. 3(b) (5/4, 1/4), S = {1, 2}, (1, 0)
    att, _ = fig3_rows((F(1, 2), F(1)))
    assert min_norm(att, [1, 1, 1]) == [F(4, 3), F(1, 3)]
    att, _ = fig3_rows((F(1, 2), F(3, 2)))
    assert min_norm(att, [1, 1, 1]) == [F(5, 4), F(1, 4)] and min_norm(att, [1, 1, 0]) == [1, 0]


def test_joint_model_derivatives_match_finite_differences():
    with working_precision(60):
        M = JointModel(D.mmts_fig3("b"))
        x = [F(3, 10), F(7, 10), F(-1, 5), F(9, 10)]
        L, g, H = M.loss_grad_hess(x)
        h = F(1, 10**20)
        for k in range(4):
            xp, xm = list(x), list(x)
            xp[k] += h
            xm[k] -= h
            fd = (M.loss_value(xp) - M.loss_value(xm)) / (2 * to_arb(h))
            assert abs(fd - g[k]) < arb("1e-30")
            _, gp = M.loss_grad(xp)
            _, gm = M.loss_grad(xm)
            for j in range(4):
                assert abs((gp[j] - gm[j]) / (2 * to_arb(h)) - H[j, k]) < arb("1e-30")
        # the definition, written out: m_i = Y_i vᵀ(s_i1 x_i1) with s_i1 = σ(x_i1ᵀp) (token 0 is the origin)
        v, p = [to_arb(a) for a in x[:2]], [to_arb(a) for a in x[2:]]
        toks, Y = [(to_arb(1), to_arb(1)), (to_arb(1), to_arb(-1)), (to_arb(F(1, 2)), to_arb(F(3, 2)))], [1, -1, 1]
        ref = sum(((-(Y[i] * (v[0] * t[0] + v[1] * t[1]) / (1 + (-(p[0] * t[0] + p[1] * t[1])).exp()))).exp().log1p()
                   for i, t in enumerate(toks)), arb(0)) / 3
        assert abs(ref - L) < arb("1e-50")


def test_joint_model_keeps_the_p_dependence_beyond_float64():
    """At R = 100 the p-dependence is ~e^{−50}: two p's on the sphere must still give certainly different L."""
    with working_precision(60):
        M = JointModel(D.mmts_fig3("b"))
        a = M.loss_value([0, 100, 100, 0])
        b = M.loss_value([0, 100, F(99), F(14106735979665885, 10**15)])  # ‖p‖ ≈ 100
        assert a < b or b < a


def test_assumption_c_certificates():
    with working_precision(30):
        ha = assumption_c(D.mmts_fig3("a"), joint_svms(D.mmts_fig3("a"), "opt", 30))
        hb = assumption_c(D.mmts_fig3("b"), joint_svms(D.mmts_fig3("b"), "opt", 30))
        js = joint_svms(D.mmts_fig3("b"), "opt", 30)
        hs = assumption_c(D.mmts_fig3("b"), js, scope=js.support)
    assert ha.met is True and "ν = (Γ/2)·min_j λ_j^(j) = 0.25" in ha.detail   # λ: (½, ½, 0), (0, ⅓, ⅔) → ν = 1/4
    assert hb.met is False and "non-support input 3" in hb.detail
    assert hs.met is True and "0.25" in hs.detail
    # a non-selected token ≠ 0 (every input a support vector): no certificate either way → undecided
    X = [[(F(1, 10), 0), (1, 1)], [(0, 0), (1, -1)], [(0, 0), (F(1, 2), 1)]]
    data = Dataset.make(X=X, Y=[1, -1, 1], v=[0, 1], name="nonzero-token")
    with working_precision(30):
        hu = assumption_c(data, joint_svms(data, "opt", 30))
    assert hu.met is None


def test_joint_path_reproduces_the_spec_numbers_on_fig3a():
    """Spec §4 thm5 (float64 runs): 1 − corr(p̄, p^mm) = 5.1e−3, 1.9e−4 at R = 1, 2; 1 − corr(v̄, (0,1)) 1.1e−2, 2.7e−3."""
    c = {"pmm": ([0, 1], [F(4, 3), F(1, 3)])}
    jp = joint_regularization_path(D.mmts_fig3("a"), (1, 2), dps=30, candidates=c, starts=1)
    from verify.models.attention import one_minus_corr
    with working_precision(30):
        op = [float(one_minus_corr(p.p, [to_arb(F(4, 3)), to_arb(F(1, 3))]).mid()) for p in jp.points]
        ov = [float(one_minus_corr(p.v, [to_arb(0), to_arb(1)]).mid()) for p in jp.points]
    assert abs(op[0] - 5.1e-3) < 1e-4 and abs(op[1] - 1.9e-4) < 1e-5
    assert abs(ov[0] - 1.1e-2) < 1e-3 and abs(ov[1] - 2.7e-3) < 1e-4
    assert all(p.certified_le_candidate and p.on_spheres for p in jp.points)


def _gamma_grid_lower(features, angles=20000):
    """max over a fine grid of unit v of min_i Y_i vᵀx_i^p: a lower bound of Γ(p) (float64, test-only)."""
    import numpy as np
    th = np.linspace(0, 2 * np.pi, angles, endpoint=False)
    V = np.stack([np.cos(th), np.sin(th)], axis=1)
    return float(np.max(np.min(V @ np.array(features).T, axis=1)))


def test_assumption_c_nu_is_consistent_with_sampled_p():
    """Fig. 3(a): the certified ν = 1/4 must satisfy Γ(p) ≤ 1 − ν·max_i(1 − s_i) at sampled p — a grid lower bound of
    Γ(p) above the bound would refute the derivation (spec: sampled min ratio 0.50 ≥ 1/4). Fig. 3(b): along p = R(1, 0)
    the ratio bound (Γ − Γ_grid(p))/max_i(1 − s_i) ≥ the true ratio falls below 10^-3: no ν works (the refuting ray)."""
    import math
    import random
    rng = random.Random(1)
    toks, Y = [(1, 1), (1, -1), (0.5, 1)], [1, -1, 1]
    for _ in range(300):
        scale = rng.uniform(0.3, 10)
        a = rng.uniform(0, 2 * math.pi)
        p = (scale * math.cos(a), scale * math.sin(a))
        s = [1 / (1 + math.exp(-(t[0] * p[0] + t[1] * p[1]))) for t in toks]
        feats = [(y * si * t[0], y * si * t[1]) for y, si, t in zip(Y, s, toks)]
        assert _gamma_grid_lower(feats, 4000) <= 1 - 0.25 * max(1 - si for si in s) + 1e-9
    toks[2] = (0.5, 1.5)
    R = 30.0
    s = [1 / (1 + math.exp(-(t[0] * R))) for t in toks]
    feats = [(y * si * t[0], y * si * t[1]) for y, si, t in zip(Y, s, toks)]
    e = [math.exp(-t[0] * R) / (1 + math.exp(-t[0] * R)) for t in toks]
    assert (1 - _gamma_grid_lower(feats)) / max(e) < 1e-3


def test_product_sphere_newton_on_a_closed_form():
    """min −aᵀx₁ + ½x₂ᵀMx₂ on ‖x₁‖ = 3, ‖x₂‖ = 2, M = [[3, 1], [1, 3]]: x₁ = 3a/‖a‖, x₂ = ±√2(1, −1) (the eigenvector
    of the smaller eigenvalue 2), value −3‖a‖ + 4 — derived by hand; started far from it."""
    from flint import arb_mat

    from verify.dynamics.regpath import product_sphere_minimize
    a = [to_arb(3), to_arb(4)]

    def value(x):
        return -(a[0] * x[0] + a[1] * x[1]) + (3 * x[2] ** 2 + 2 * x[2] * x[3] + 3 * x[3] ** 2) / 2

    def newton(x):
        g = [-a[0], -a[1], 3 * x[2] + x[3], x[2] + 3 * x[3]]
        H = arb_mat([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 3, 1], [0, 0, 1, 3]])
        return value(x), g, H

    with working_precision(40):
        x, f, _ = product_sphere_minimize(value, newton, [to_arb(-1), to_arb(1), to_arb(1), to_arb("0.9")],
                                          ((0, 2, to_arb(3)), (2, 4, to_arb(2))), 40)
        assert abs(x[0] - to_arb(F(9, 5))) < arb("1e-30") and abs(x[1] - to_arb(F(12, 5))) < arb("1e-30")
        assert abs(abs(x[2]) - to_arb(2).sqrt()) < arb("1e-30") and abs(x[2] + x[3]) < arb("1e-30")
        assert abs(f - to_arb(-11)) < arb("1e-30")


def test_relaxed_svm_reduces_to_att_svm_when_every_input_is_a_support_vector():
    js = joint_svms(D.mmts_fig3("a"), "opt", 30, need=())
    assert js.support == (0, 1, 2) and js.p_relax == js.p_mm == [F(4, 3), F(1, 3)]
