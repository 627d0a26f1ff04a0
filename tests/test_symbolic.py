"""The closed forms of ``LinearLogitModel`` against the independent sympy derivation (``verify.models.symbolic``).

At the working precision of 50 digits (arb carries 60 with the guard) every figure — loss, gradient,
Hessian, excess L − L⋆ — must agree with the symbolic reference to 10^-45 relative (norm-wise for
vectors and matrices), and the reference must lie inside the arb ball (the closed form's error bound
is honest). Points: random θ, and SATURATED θ where every non-selected softmax probability is
e^{-100} or e^{-1000} or smaller, which is the regime the closed forms were written for.

Why the reference is evaluated at raised precision: the symbolic expressions are the naive ones
(softmax = e^{a_t}/Σ e^{a_u}, and sympy's derivative of it). mpmath does not overflow, but with
gaps a_r − a_t ≈ G the gradient is a difference of O(1) terms whose true value is ≈ e^{-G}: about
G/ln 10 ≈ G/2.3 leading digits cancel, and L − L⋆ cancels the same way. So the reference runs at
mp.dps = 60 + spread/2.3 + |γ|max/2.3 + 20 (``symbolic.reference_dps``; spread = max logit spread ≥ G,
the |γ| term covers log(1 + e^{-u}) for large u), and is then good to ≥ 60 digits — more than the
10^-45 the test asks of the closed form. The arb → mpmath conversion is exact (mantissa, exponent).
"""
from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from flint import arb, arb_mat

from verify.data.generators import random_dataset
from verify.models import symbolic as S
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import to_arb, working_precision

DPS = 50
TOL_DIGITS = 45
LOSSES = ("logistic", "exponential", "correlation")
PARAMS = ("p", "W", "diag")


def _datasets():
    return {
        # T = 3, d = 2 keeps the sympy Hessians small (W has D = d² = 4); entries exact. Seed 7: unique
        # optimal tokens, distinct features, and saturating directions exist for every param/selection
        "int": random_dataset(n=2, T=3, d=2, seed=7, entries="integer", scale="1/2"),
        "float": random_dataset(n=2, T=3, d=2, seed=5, entries="float", scale="1/2"),  # floats taken exactly
        "keys": random_dataset(n=1, T=4, d=3, seed=11, entries="rational", scale="1/8", keys=True, queries=True),
    }


DATA = _datasets()
CASES_RANDOM = [(k, p) for k in ("int", "float") for p in PARAMS] + [("keys", "p"), ("keys", "diag")]


# ----- helpers -----------------------------------------------------------------------------------
def arbs(theta):
    return [to_arb(x) for x in theta]


def exact_logits(feats, theta):
    return [[sum((f * x for f, x in zip(row, theta)), Fraction(0)) for row in seq] for seq in feats]


def ref_precision(data, feats, theta, target=DPS + 10):
    logits = exact_logits(feats, theta)
    spread = max(max(a) - min(a) for a in logits)
    gmax = max(abs(x) for g in data.scores for x in g)
    return S.reference_dps(target, spread, gmax)


def closed_forms(data, param, loss, theta):
    """loss, grad, Hessian, excess from the closed forms at DPS (arb)."""
    with working_precision(DPS):
        M = LinearLogitModel.from_dataset(data, param, loss)
        th = arbs(theta)
        st = M.states(th)
        val, grad = M.loss_grad(th)
        return val, grad, M.hessian(th, st), M.excess(th, st), M


def reference(data, param, loss, theta, dps):
    with mpmath.workdps(dps):
        val, grad, hess = S.full_loss_grad(data, param, theta, loss, hessian=True)
        exc = val - S.loss_star(data, loss)
        return val, grad, hess, exc


def assert_agree(closed, ref, dps, what, enclosure=True):
    """closed: arb | list[arb] | arb_mat; ref: mpf | list | list of lists (the symbolic reference).

    |closed − ref| ≤ 10^-45 · max|ref| (entrywise error, norm-wise scale), and (``enclosure``) ref lies
    inside the arb ball up to the reference's own error (≤ 10^-(DPS+10) · scale)."""
    if isinstance(closed, arb_mat):
        closed = [closed[i, j] for i in range(closed.nrows()) for j in range(closed.ncols())]
        ref = [x for row in ref for x in row]
    if isinstance(closed, arb):
        closed, ref = [closed], [ref]
    assert len(closed) == len(ref), what
    with mpmath.workdps(dps):
        scale = max(abs(r) for r in ref)
        tol = mpmath.mpf(10) ** -TOL_DIGITS * scale
        slack = mpmath.mpf(10) ** -(DPS + 10) * scale
        for j, (c, r) in enumerate(zip(closed, ref)):
            mid, rad = S.to_mpf(c), S.to_mpf(c.rad())
            err = abs(mid - r)
            assert err <= tol, (
                f"{what}[{j}]: closed {mpmath.nstr(mid, 20)} vs symbolic {mpmath.nstr(r, 20)}: "
                f"|diff| = {mpmath.nstr(err, 3)} > 1e-{TOL_DIGITS}·{mpmath.nstr(scale, 3)}")
            assert not enclosure or err <= rad + slack, (
                f"{what}[{j}]: symbolic value {mpmath.nstr(r, 25)} outside the arb ball {c}")
        return scale


def compare_all(data, param, loss, theta):
    feats = features(data, param)
    dps = ref_precision(data, feats, theta)
    val, grad, hess, exc, _ = closed_forms(data, param, loss, theta)
    rval, rgrad, rhess, rexc = reference(data, param, loss, theta, dps)
    assert_agree(val, rval, dps, "loss")
    gscale = assert_agree(grad, rgrad, dps, "grad")
    assert_agree(hess, rhess, dps, "hessian")
    escale = assert_agree(exc, rexc, dps, "excess")
    return gscale, escale


def random_theta(D, rng, num=12):
    return [Fraction(rng.randint(-num, num), rng.randint(1, 6)) for _ in range(D)]


def saturating_theta(data, param, gap, select, seed=0, max_ratio=12):
    """θ = R·u with every non-argmax logit at least ``gap`` below the argmax (probabilities ≤ e^{-gap}).

    select="opt": each sequence's argmax-logit token is its optimal (highest-score) token, so
    L − L⋆ ≈ e^{-gap} is the cancelling case; select="other": each selects a non-optimal token."""
    feats = features(data, param)
    D = len(feats[0][0])
    opt = [o[0] for o in data.optimal_tokens()]
    rng = random.Random(seed)
    for _ in range(5000):
        u = [Fraction(rng.randint(-6, 6)) for _ in range(D)]
        ok, gaps, spreads = True, [], []
        for a, o in zip(exact_logits(feats, u), opt):
            r = max(range(len(a)), key=a.__getitem__)
            top2 = sorted(a, reverse=True)[:2]
            if top2[0] == top2[1] or (r == o) != (select == "opt"):
                ok = False
                break
            gaps.append(top2[0] - top2[1])
            spreads.append(max(a) - min(a))
        if ok and max(spreads) <= max_ratio * min(gaps):
            R = Fraction(-(-gap // min(gaps)))  # ceil: every gap ≥ ``gap`` after scaling
            return [R * x for x in u]
    raise AssertionError(f"no saturating direction found for {data.name}/{param}/{select}")


# ----- the symbolic oracle checks itself -------------------------------------------------------------
def test_to_mpf_is_exact():
    with working_precision(DPS):
        x = arb(1) / 3
    with mpmath.workdps(200):
        y = S.to_mpf(x)
        m, e = x.mid().man_exp()
        assert Fraction(int(y.man)) * Fraction(2) ** int(y.exp) == Fraction(int(m)) * Fraction(2) ** int(e)
        assert y != mpmath.mpf(1) / 3  # exact midpoint of the 60-digit ball, not re-rounded to 200 digits
        assert S.to_mpf(Fraction(1, 3)) * 3 - 1 < mpmath.mpf(10) ** -199
        assert S.to_mpf("0.1") == mpmath.mpf(1) / 10
    with pytest.raises(TypeError):
        S.to_mpf(0.1)


def test_symbolic_gradient_matches_numerical_differentiation():
    """The oracle against mpmath.diff (high-order finite differences at 60 digits): a third derivation."""
    data = DATA["int"]
    feats, gam = features(data, "p")[0], data.scores[0]
    theta = [Fraction(1, 3), Fraction(-2, 5)]
    with mpmath.workdps(60):
        val, grad, hess = S.symbolic_loss_grad(feats, gam, theta, "logistic", "p", shape=(3, 2), hessian=True)
        def f(a, b):
            return S.symbolic_loss(feats, gam, [a, b], "logistic", "p")
        th = [S.to_mpf(x) for x in theta]
        for j, order in enumerate(((1, 0), (0, 1))):
            assert abs(mpmath.diff(f, th, order) - grad[j]) < mpmath.mpf(10) ** -40
        assert abs(mpmath.diff(f, th, (1, 1)) - hess[0][1]) < mpmath.mpf(10) ** -35
        assert hess[0][1] == hess[1][0]


# ----- closed forms vs symbolic, random points ---------------------------------------------------
@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("name,param", CASES_RANDOM)
def test_closed_forms_random_points(name, param, loss):
    data = DATA[name]
    D = len(features(data, param)[0][0])
    rng = random.Random(f"{name}-{param}-{loss}")
    for _ in range(2):
        compare_all(data, param, loss, random_theta(D, rng))


@pytest.mark.parametrize("param", PARAMS)
def test_closed_forms_at_zero(param):
    data = DATA["int"]
    D = len(features(data, param)[0][0])
    compare_all(data, param, "logistic", [Fraction(0)] * D)


# ----- saturated points ----------------------------------------------------------------------------
@pytest.mark.parametrize("select", ("opt", "other"))
@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("param", PARAMS)
def test_closed_forms_saturated(param, loss, select):
    data = DATA["int"]
    theta = saturating_theta(data, param, gap=100, select=select)
    gscale, escale = compare_all(data, param, loss, theta)
    # it really is saturated: the gradient is O(e^{-100}) — a naive 50-digit evaluation would have
    # no correct digit left — and so is L − L⋆ when the optimal tokens are selected
    assert gscale < mpmath.mpf(10) ** -40
    if select == "opt":
        assert escale < mpmath.mpf(10) ** -40
    else:
        assert escale > mpmath.mpf(10) ** -3


@pytest.mark.parametrize("loss", LOSSES)
def test_closed_forms_deeply_saturated(loss):
    """Probabilities e^{-1000}: the reference runs at ≈ 60 + spread/2.3 + 20 ≈ 1000+ digits."""
    data = DATA["keys"]
    theta = saturating_theta(data, "p", gap=1000, select="opt")
    gscale, escale = compare_all(data, "p", loss, theta)
    assert gscale < mpmath.mpf(10) ** -400 and escale < mpmath.mpf(10) ** -400


# ----- the batched midpoint mode (the integrators') against the same oracle ----------------------------
@pytest.mark.parametrize("loss", ("logistic", "exponential"))
@pytest.mark.parametrize("param", PARAMS)
def test_batched_midpoint_mode(param, loss):
    """``sweep`` (s points in one pass, midpoints; with the float64 Hessians scaled by 1/‖∇L‖) and
    ``grad_hess`` at a random, a saturated-on-the-optimal-tokens and a saturated-elsewhere point, each
    against the symbolic reference at that point's exact midpoint (to 10^-45; midpoints carry no radius,
    and the mode rounds the scores to midpoints, so no enclosure is asked for)."""
    data = DATA["int"]
    D = len(features(data, param)[0][0])
    thetas = [random_theta(D, random.Random(f"batched-{param}"))]
    thetas += [saturating_theta(data, param, gap=100, select=sel) for sel in ("opt", "other")]
    with working_precision(DPS):
        M = LinearLogitModel.from_dataset(data, param, loss)
        pts = [[arb(x.mid()) for x in arbs(th)] for th in thetas]  # the mode evaluates at midpoints
        sw = M.sweep(pts, jacobians=True)
        g0, H0 = M.grad_hess(pts[0])
    for k, pt in enumerate(pts):
        exact = [Fraction(int(m)) * Fraction(2) ** int(e) for m, e in (x.mid().man_exp() for x in pt)]
        dps = ref_precision(data, features(data, param), exact)
        with mpmath.workdps(dps):
            _, rgrad, rhess = S.full_loss_grad(data, param, pt, loss, hessian=True)
            gscale = assert_agree(sw.grads[k], rgrad, dps, f"sweep grad {k}", enclosure=False)
            rn = mpmath.sqrt(sum(x * x for x in rgrad))
            Hf = np.array([[float(x / rn) for x in row] for row in rhess])  # ∇²L/‖∇L‖
            gf = np.array([float(x / rn) for x in rgrad])
        assert np.abs(sw.H_float[k] - Hf).max() <= 1e-12 * np.abs(Hf).max(), f"float Hessian {k}"
        assert np.abs(sw.g_float[k] - gf).max() <= 1e-14, f"float gradient {k}"
        if k == 0:
            assert_agree(g0, rgrad, dps, "grad_hess grad", enclosure=False)
            assert_agree(H0, rhess, dps, "grad_hess Hessian", enclosure=False)
        else:
            assert gscale < mpmath.mpf(10) ** -40  # saturated: e^{-100}-sized, still right to 45 digits


# ----- factorised parameterisations: sympy through the product vs the chain rule on the closed forms --
def _kq_chain(data, loss, K, Q):
    """(L, ∇_(K,Q), ∇²_(K,Q)) from the closed forms at W = KQᵀ by the chain rule (tfsvm spec:
    ∇_K = G Q, ∇_Q = Gᵀ K with G = ∇L(W)), plus the Gᵀ-transposed variant of the paper's v1 eq. (18)."""
    d, m = len(K), len(K[0])
    W = [[sum((K[a][c] * Q[b][c] for c in range(m)), Fraction(0)) for b in range(d)] for a in range(d)]
    w = [x for row in W for x in row]
    with working_precision(DPS):
        M = LinearLogitModel.from_dataset(data, "W", loss)
        th = arbs(w)
        st = M.states(th)
        val, g = M.loss_value(th, st), M.grad(th, st)
        HW = M.hessian(th, st)
        Ka, Qa = arb_mat([arbs(r) for r in K]), arb_mat([arbs(r) for r in Q])
        G = arb_mat([[g[a * d + b] for b in range(d)] for a in range(d)])
        gK, gQ = G * Qa, G.transpose() * Ka
        grad = [gK[a, c] for a in range(d) for c in range(m)] + [gQ[b, c] for b in range(d) for c in range(m)]
        wK, wQ = G.transpose() * Qa, G * Ka  # v1 eq. (18): ∇_K = GᵀQ, ∇_Q = GK (wrong for W = KQᵀ)
        wrong = [wK[a, c] for a in range(d) for c in range(m)] + [wQ[b, c] for b in range(d) for c in range(m)]
        P = 2 * d * m
        J = arb_mat(d * d, P)  # ∂vec W / ∂(vec K, vec Q)
        for a in range(d):
            for b in range(d):
                for c in range(m):
                    J[a * d + b, a * m + c] += Qa[b, c]
                    J[a * d + b, d * m + b * m + c] += Ka[a, c]
        H = J.transpose() * HW * J
        for a in range(d):  # + Σ_ab G_ab ∂²W_ab: ∂²W_ab/∂K_ac∂Q_bc = 1
            for b in range(d):
                for c in range(m):
                    i, j = a * m + c, d * m + b * m + c
                    H[i, j] += G[a, b]
                    H[j, i] += G[a, b]
    return val, grad, H, wrong


@pytest.mark.parametrize("saturated", (False, True))
def test_kq_through_the_product(saturated):
    data, loss = DATA["int"], "logistic"
    rng = random.Random(17)
    if saturated:  # K = R·W₀, Q = I: W = KQᵀ saturates exactly like the W test
        w = saturating_theta(data, "W", gap=100, select="opt")
        K = [w[0:2], w[2:4]]
        Q = [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]
    else:
        K = [random_theta(2, rng, 4) for _ in range(2)]
        Q = [random_theta(2, rng, 4) for _ in range(2)]
    W = [[sum((K[a][c] * Q[b][c] for c in range(2)), Fraction(0)) for b in range(2)] for a in range(2)]
    dps = ref_precision(data, features(data, "W"), [x for r in W for x in r])
    val, grad, H, wrong = _kq_chain(data, loss, K, Q)
    theta = [x for r in K for x in r] + [x for r in Q for x in r]
    with mpmath.workdps(dps):
        rval, rgrad, rH = S.full_loss_grad(data, "KQ", theta, loss, hessian=True)
    assert_agree(val, rval, dps, "KQ loss")
    assert_agree(grad, rgrad, dps, "KQ grad")
    assert_agree(H, rH, dps, "KQ hessian")
    with pytest.raises(AssertionError, match="KQ grad v1"):  # the comparison can fail: eq. (18) as printed
        assert_agree(wrong, rgrad, dps, "KQ grad v1")


@pytest.mark.parametrize("loss", ("exponential", "logistic"))
@pytest.mark.parametrize("saturated", (False, True))
def test_diag_kq_through_the_product(loss, saturated):
    data = DATA["int"]
    rng = random.Random(23)
    if saturated:
        k, q = saturating_theta(data, "diag", gap=100, select="opt"), [Fraction(1)] * 2
    else:
        k, q = random_theta(2, rng, 4), random_theta(2, rng, 4)
    beta = [a * b for a, b in zip(k, q)]
    dps = ref_precision(data, features(data, "diag"), beta)
    with working_precision(DPS):
        M = LinearLogitModel.from_dataset(data, "diag", loss)
        th = arbs(beta)
        st = M.states(th)
        val, g, Hb = M.loss_value(th, st), M.grad(th, st), M.hessian(th, st)
        ka, qa = arbs(k), arbs(q)
        grad = [gj * qj for gj, qj in zip(g, qa)] + [gj * kj for gj, kj in zip(g, ka)]  # ∇_k = g⊙q, ∇_q = g⊙k
        J = arb_mat(2, 4)
        for j in range(2):
            J[j, j], J[j, 2 + j] = qa[j], ka[j]
        H = J.transpose() * Hb * J
        for j in range(2):  # ∂²β_j/∂k_j∂q_j = 1
            H[j, 2 + j] += g[j]
            H[2 + j, j] += g[j]
    with mpmath.workdps(dps):
        rval, rgrad, rH = S.full_loss_grad(data, "diag_kq", k + q, loss, hessian=True)
    assert_agree(val, rval, dps, "diag_kq loss")
    assert_agree(grad, rgrad, dps, "diag_kq grad")
    assert_agree(H, rH, dps, "diag_kq hessian")


# ----- the comparison is able to fail ----------------------------------------------------------------
def test_a_wrong_hessian_is_caught():
    """Drop the −s cᵀ − c sᵀ part of J = diag(c) − c sᵀ − s cᵀ: the comparison must reject it."""
    data, param, loss = DATA["int"], "p", "logistic"
    theta = [Fraction(1, 2), Fraction(-3, 4)]
    dps = ref_precision(data, features(data, param), theta)
    with working_precision(DPS):
        M = LinearLogitModel.from_dataset(data, param, loss)
        th = arbs(theta)
        H = arb_mat(2, 2)
        for Fi, st in zip(M.F, M.states(th)):
            Fm = arb_mat(Fi)
            g = Fm.transpose() * arb_mat([[x] for x in st.c])
            J = arb_mat(3, 3)
            for t in range(3):
                J[t, t] = st.c[t]
            H += M.loss.d2(st.phi) * (g * g.transpose()) + M.loss.d1(st.phi) * (Fm.transpose() * J * Fm)
        H = H * (arb(1) / M.n)
    with mpmath.workdps(dps):
        _, _, rH = S.full_loss_grad(data, param, theta, loss, hessian=True)
    with pytest.raises(AssertionError, match="mutant"):
        assert_agree(H, rH, dps, "mutant hessian")


def test_shape_errors():
    from verify.errors import UsageError

    with pytest.raises(UsageError):
        S.symbolic_loss_grad([[1, 2], [3, 4]], [0, 1], [1, 2, 3], param="p")
    with pytest.raises(UsageError):
        S.symbolic_loss_grad([[1, 2, 3], [3, 4, 5]], [0, 1], [1] * 4, param="KQ")
    with pytest.raises(UsageError):
        S.symbolic_loss_grad([[1, 2], [3, 4]], [0, 1], [1, 2], loss="hinge")
