"""verify experiment: the float replay against closed forms, the departure / stall rules on both sides, the certified
run against an independent mpmath loop, and the verb as a user runs it."""
import json
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from cli_helpers import one_line, run
from flint import arb

from verify.dynamics.float_replay import gradient, replay
from verify.experiments import EXPERIMENTS, get_experiment, run_experiment
from verify.experiments.replay import DEPARTURE, first_departure, first_stall, table_steps


def _closed_form_gradient(a: float):
    """n = 1, T = 2, keys k₁ = (1, 0), k₂ = (0, 0), scores γ = (1, 0), logistic, θ = (a, 0): s₁ = σ(a), u = s₁,
    ∂L/∂θ₁ = ℓ'(u)·s₁(γ₁ − u)·1 + ℓ'(u)·s₂(γ₂ − u)·0, ℓ'(u) = −e^{−u}/(1 + e^{−u}) (mpmath, 40 digits)."""
    with mpmath.workdps(40):
        s1 = 1 / (1 + mpmath.exp(-a))
        u = s1
        lp = -mpmath.exp(-u) / (1 + mpmath.exp(-u))
        return float(lp * s1 * (1 - u))


@pytest.mark.parametrize("a", [-3.0, 0.0, 0.7, 5.0])
def test_float_gradient_is_the_chain_rule(a):
    F = np.array([[[1.0, 0.0], [0.0, 0.0]]])
    G = np.array([[1.0, 0.0]])
    g = gradient(F, G, np.array([a, 0.0]), "logistic")
    assert g[1] == 0.0
    # float64 as the authors' autograd: γ₁ − u = 1 − s₁ cancels by ~e^a ulps (that is the baseline's arithmetic)
    assert math.isclose(g[0], _closed_form_gradient(a), rel_tol=1e-12)
    # the correlation loss ℓ(u) = −u: ℓ' = −1
    gc = gradient(F, G, np.array([a, 0.0]), "correlation")
    s1 = 1 / (1 + math.exp(-a))
    assert math.isclose(gc[0], -s1 * (1 - s1), rel_tol=1e-14)


def test_normalised_steps_have_length_eta_and_keep_the_dtype():
    feats = [[(1, 0), (0, 0)], [(0, 1), (1, 1)]]
    scores = [(1, 0), (Fraction(1, 2), 0)]
    it = replay(feats, scores, (0, 0), method="ngd", eta="1/10", eps=0, steps=20, loss="logistic", dtype="float64")
    assert it.dtype == np.float64 and it.shape == (21, 2)
    steps = np.linalg.norm(np.diff(it, axis=0), axis=1)
    assert np.allclose(steps, 0.1, rtol=1e-14, atol=0)
    it32 = replay(feats, scores, (0, 0), method="ngd", eta="1/10", eps=0, steps=5, loss="logistic", dtype="float32")
    assert it32.dtype == np.float32


def test_departure_and_stall_rules_on_both_sides():
    just_below = arb(DEPARTURE.numerator) / DEPARTURE.denominator * arb("0.999")
    just_above = arb(DEPARTURE.numerator) / DEPARTURE.denominator * arb("1.001")
    assert first_departure([(1, just_below), (2, just_below)]) == (None, None)
    k, e = first_departure([(1, just_below), (2, just_above), (3, just_above)])
    assert k == 2 and e > just_below
    assert first_departure([(1, just_below), (2, None)]) == (2, None)  # not finite: departed
    one = arb(1)
    assert first_stall([one, arb("0.51"), arb("0.6")], [one, one, one]) is None
    assert first_stall([one, arb("0.49"), one], [one, one, one]) == 2
    assert first_stall([one, None], [one, one]) is None  # a non-finite run is the departure's business


def test_table_steps():
    norms = [arb(k) for k in range(11)]
    assert table_steps((0, 3, 99), (arb("4.5"),), norms, 10) == [0, 3, 5, 10]


def _independent_ngd(keys, scores, p0, eta, eps, steps, dps=30):
    """Normalised GD written out with mpmath (logistic, one input): p ← p − η∇/(‖∇‖ + ε)."""
    def mp(x):
        x = Fraction(x)
        return mpmath.mpf(x.numerator) / x.denominator

    with mpmath.workdps(dps):
        keys = [[mp(a) for a in k] for k in keys]
        scores = [mp(g) for g in scores]
        p = [mp(x) for x in p0]
        eta, eps = mp(eta), mp(eps)
        for _ in range(steps):
            z = [sum(a * b for a, b in zip(k, p)) for k in keys]
            m = max(z)
            e = [mpmath.exp(x - m) for x in z]
            s = [x / sum(e) for x in e]
            u = sum(si * g for si, g in zip(s, scores))
            lp = -mpmath.exp(-u) / (1 + mpmath.exp(-u))
            g = [sum(lp * si * (gi - u) * k[j] for si, gi, k in zip(s, scores, keys)) for j in range(len(p))]
            gn = mpmath.sqrt(sum(x * x for x in g))
            p = [pj - eta * gj / (gn + eps) for pj, gj in zip(p, g)]
        return p


def test_the_certified_run_is_normalised_gd_and_float64_stays_with_it():
    """Fig. 1(a) (keys (−0.1, 1), (1, 0), (0, 0); scores 1, 0.9, 0.9), 60 steps from (0, 1, 0): the certified end
    point against the mpmath loop above; float64 never departs over those steps."""
    exp = get_experiment("mmts.fig1a")
    res = run_experiment(exp, 30, baselines=("float64",), steps=60, at_steps=(60,), flow_factor=0)
    curve = res.curves[0]
    want = _independent_ngd([(Fraction(-1, 10), 1), (1, 0), (0, 0)], [1, Fraction(9, 10), Fraction(9, 10)],
                            (0, 1), Fraction(1, 10), Fraction(1, 10**9), 60)
    end = curve.end
    with mpmath.workdps(30):
        got = mpmath.mpf(end.figures["norm"].mid().str(30, radius=False))
        assert abs(got - mpmath.sqrt(want[0] ** 2 + want[1] ** 2)) < mpmath.mpf(10) ** -20
    assert curve.floats["float64"].departure is None
    assert len(res.curves) == 6 and all(c.end.step == 60 for c in res.curves)


def test_every_experiment_lists_and_has_its_curves(capsys):
    code, out, err = run(["experiment", "list", "--json"], capsys)
    assert code == 0, err
    rows = json.loads(out)
    assert [r["id"] for r in rows] == list(EXPERIMENTS)
    assert {r["id"] for r in rows} >= {"mmts.fig1a", "mmts.fig1b", "mmts.fig1c", "mmts.fig5"}
    fig5 = next(r for r in rows if r["id"] == "mmts.fig5")
    assert fig5["curves"] == 22 and fig5["eps"] == "1e-9"  # 11 values of C × 2 losses, the notebook's ε


@pytest.mark.parametrize("args,needle", [
    (("experiment", "mmts.fig99"), "unknown experiment"),
    (("experiment", "mmts.fig1a", "--baseline", "float16"), "--baseline"),
    (("experiment", "mmts.fig1a", "--steps", "0"), "--steps"),
    (("experiment", "mmts.fig1a", "--flow-factor", "1"), "--flow-factor"),
    (("experiment", "mmts.fig1a", "--at-norms", "-1"), "--at-norms"),
])
def test_bad_flags_are_one_line_exit_2(args, needle, capsys):
    code, out, err = run(list(args), capsys)
    assert code == 2 and needle in one_line(err)


def test_json_and_report_as_a_user_runs_them(tmp_path, capsys):
    code, out, err = run(["experiment", "mmts.fig8-substitute", "--steps", "30", "--flow-factor", "0",
                          "--baseline", "float32", "--json", "--report", str(tmp_path)], capsys)
    assert code == 0, err
    js = json.loads(out)
    assert js["experiment"] == "mmts.fig8-substitute" and js["algorithm"]["steps"] == 30
    assert len(js["curves"]) == 4 and set(js["curves"][0]["baselines"]) == {"float32"}
    page = tmp_path / "experiment-mmts.fig8-substitute.md"
    assert page.exists() and (tmp_path / "experiment-mmts.fig8-substitute.json").exists()
    assert (tmp_path / "figures" / "experiment-mmts.fig8-substitute-paths.png").exists()


def test_joint_float_gradient_against_central_differences():
    """f_i = vᵀX_iᵀ softmax(X_i p) (keys = tokens, Fig. 3's W = I), logistic; ∇ by central differences of the
    loss written out with mpmath at 40 digits (step 10⁻¹²): the float64 chain rule agrees to 1e-9."""
    from verify.dynamics.float_replay import joint_gradient

    X = [[(0, 0), (1, 1)], [(0, 0), (1, -1)], [(0, 0), (0.5, 1)]]
    Y = [1, -1, 1]
    v, p = [-0.3, 0.7], [0.4, -1.1]

    def loss(vv, pp):
        tot = 0
        for seq, y in zip(X, Y):
            z = [sum(mpmath.mpf(a) * b for a, b in zip(x, pp)) for x in seq]
            e = [mpmath.exp(t) for t in z]
            s = [t / sum(e) for t in e]
            f = sum(si * sum(mpmath.mpf(a) * b for a, b in zip(x, vv)) for si, x in zip(s, seq))
            tot += mpmath.log(1 + mpmath.exp(-y * f))
        return tot / len(X)

    with mpmath.workdps(40):
        h = mpmath.mpf(10) ** -12
        num = []
        for which in (0, 1):
            for j in range(2):
                a = [mpmath.mpf(x) for x in (v, p)[which]]
                b = list(a)
                a[j] += h
                b[j] -= h
                args = ((a, p), (b, p)) if which == 0 else ((v, a), (v, b))
                num.append(float((loss(*args[0]) - loss(*args[1])) / (2 * h)))
    gv, gp = joint_gradient(np.array(X, dtype=float), np.array(X, dtype=float), np.array(Y, dtype=float),
                            np.array(v), np.array(p), "logistic")
    assert np.allclose(np.concatenate([gv, gp]), num, rtol=1e-9, atol=1e-12)


def test_the_joint_experiment_is_measured_against_its_three_svms(capsys):
    """Fig. 3(b) for 50 steps: the table carries ‖p‖, ‖v‖ and 1 − corr to p^mm(α), p^relax and v^mm; the start
    (v, p) = ((−1, 0), (0, −1)) is exact, so the certified and float figures at step 0 coincide: ‖p‖ = ‖v‖ = 1."""
    code, out, err = run(["experiment", "mmts.fig3b", "--steps", "50", "--at-steps", "0,50", "--json"], capsys)
    assert code == 0, err
    js = json.loads(out)
    curve = js["curves"][0]
    first = curve["certified"]["at"][0]
    assert first["step"] == 0 and Fraction(first["norm_p"]) == 1 and Fraction(first["norm_v"]) == 1
    assert set(first) >= {"one_minus_corr_p_mm", "one_minus_corr_p_relax", "one_minus_corr_v_mm"}
    assert js["algorithm"]["eps_p"] == "1e-19" and curve["flow_continued"] is None
    assert curve["baselines"]["float64"]["departure_step"] is None


def test_the_json_carries_each_iterate():
    """Fig. 1(a) from p(0) = (0, 1, 0): step 0's theta is the start exactly, in the certified and the float runs;
    one normalised step later ‖θ(1) − θ(0)‖ = η·‖∇‖/(‖∇‖ + ε) < η = 1/10 (and > 0.0999: ‖∇‖ ≫ ε at the start)."""
    exp = get_experiment("mmts.fig1a")
    res = run_experiment(exp, 30, baselines=("float32",), steps=1, at_steps=(0, 1), flow_factor=0)
    from verify.experiments.report import to_json

    curve = to_json(res)["curves"][0]
    c0, c1 = curve["certified"]["at"]
    assert [Fraction(x) for x in c0["theta"]] == [0, 1, 0]
    assert [Fraction(x) for x in curve["baselines"]["float32"]["at"][0]["theta"]] == [0, 1, 0]
    step = sum((Fraction(a) - Fraction(b)) ** 2 for a, b in zip(c1["theta"], c0["theta"]))
    assert Fraction(999, 10000) ** 2 < step < Fraction(1, 10) ** 2


# ---- tfsvm (TFasSVM/visualization.ipynb) ----------------------------------------------------------------------------

TF_EPS = Fraction(1, 2**52)  # torch.finfo(torch.double).eps


def _mp(x):
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def _tf_loss_grad(data, W):
    """∇_W of mean_i log(1 + exp(−Y_i out_i)), out_i = Σ_t s_it x_itᵀv, s_i = softmax_t(x_itᵀ W z_i), written out in
    mpmath from the definition: ∂L/∂W = (1/n) Σ_i ℓ'(Y_i out_i) Y_i Σ_t s_it (x_itᵀv − out_i) x_it z_iᵀ."""
    d, n = data.d, data.n
    G = [[mpmath.mpf(0)] * d for _ in range(d)]
    for seq, z, y in zip(data.X, data.queries(), data.Y):
        x = [[_mp(a) for a in tok] for tok in seq]
        zz, v = [_mp(a) for a in z], [_mp(a) for a in data.v]
        logit = [sum(t[a] * W[a][b] * zz[b] for a in range(d) for b in range(d)) for t in x]
        m = max(logit)
        e = [mpmath.exp(c - m) for c in logit]
        s = [c / sum(e) for c in e]
        score = [sum(a * b for a, b in zip(t, v)) for t in x]
        out = sum(a * b for a, b in zip(s, score))
        u = _mp(y) * out
        slope = -mpmath.exp(-u) / (1 + mpmath.exp(-u))
        for t, st, gt in zip(x, s, score):
            c = slope * _mp(y) * st * (gt - out) / n
            for a in range(d):
                for b in range(d):
                    G[a][b] += c * t[a] * zz[b]
    return G


def _tf_independent_ngd(data, param, psi0, steps, ridge, dps=50):
    """The notebook's normalised GD in mpmath: W ← W − η∇/(‖∇‖ + ε); for (K, Q) (W = KQᵀ) each factor with its own
    norm, the gradient ∇_K = GQ + 2·ridge·K, ∇_Q = GᵀK + 2·ridge·Q (G = ∂L/∂W)."""
    d = data.d
    with mpmath.workdps(dps):
        eta, eps = _mp(Fraction(1, 10)), _mp(TF_EPS)
        psi = [_mp(x) for x in psi0]
        for _ in range(steps):
            if param == "W":
                W = [psi[a * d:(a + 1) * d] for a in range(d)]
                G = _tf_loss_grad(data, W)
                blocks = [[G[a][b] for a in range(d) for b in range(d)]]
            else:
                K = [psi[a * d:(a + 1) * d] for a in range(d)]
                Q = [psi[d * d + a * d: d * d + (a + 1) * d] for a in range(d)]
                W = [[sum(K[a][e] * Q[b][e] for e in range(d)) for b in range(d)] for a in range(d)]
                G = _tf_loss_grad(data, W)
                gK = [sum(G[a][b] * Q[b][e] for b in range(d)) + 2 * _mp(ridge) * K[a][e]
                      for a in range(d) for e in range(d)]
                gQ = [sum(G[a][b] * K[a][e] for a in range(d)) + 2 * _mp(ridge) * Q[b][e]
                      for b in range(d) for e in range(d)]
                blocks = [gK, gQ]
            new = []
            for g, start in zip(blocks, range(0, len(psi), d * d)):
                gn = mpmath.sqrt(sum(x * x for x in g))
                new += [p - eta * x / (gn + eps) for p, x in zip(psi[start:start + d * d], g)]
            psi = new
        return psi


def test_the_visualization_data_is_the_notebooks_float32_draw():
    """best_ids = (0, 2) as the notebook's argmax of Y·Xv; every stored value a float32 number; v and z_i unit up to
    float32 rounding; the seeded K(0) of scale 0.1 (float64 draws) and Q(0) = 0."""
    from verify.data.tfsvm import tfsvm_visualization, tfsvm_visualization_kq_start

    data = tfsvm_visualization()
    assert data.optimal_tokens() == ((0,), (2,)) and data.n == 2 and data.T == 3 and data.d == 2
    values = [a for seq in data.X for tok in seq for a in tok] + list(data.v) + [a for z in data.z for a in z]
    assert all(Fraction(float(np.float32(float(a)))) == a for a in values)
    for u in [data.v, *data.z]:
        assert abs(sum(a * a for a in u) - 1) < Fraction(1, 10**6)
    start = tfsvm_visualization_kq_start()
    assert start[4:] == (0,) * 4 and 0 < max(abs(a) for a in start[:4]) < Fraction(1, 2)


@pytest.mark.parametrize("param", ["W", "KQ"])
def test_attention_float_gradient_against_central_differences(param):
    """The float64 chain rule of ``attention_gradient`` (ridge 10⁻³, large enough to show) against central
    differences (step 10⁻¹²) of L(ψ) + ridge·(‖K‖² + ‖Q‖²) written out in mpmath at 40 digits; at Q = 0 the ridge
    adds nothing to ∇_Q (torch's norm backward at 0) and nothing is NaN."""
    from verify.data.tfsvm import tfsvm_visualization
    from verify.dynamics.float_replay import attention_gradient

    data = tfsvm_visualization()
    ridge = 1e-3
    psi = [0.7, -1.3, 0.4, 2.1] if param == "W" else [0.7, -1.3, 0.4, 2.1, -0.5, 0.9, 1.6, -0.2]

    def total(p):
        if param == "W":
            W = [p[0:2], p[2:4]]
            reg = 0
        else:
            W = [[sum(p[2 * a + e] * p[4 + 2 * b + e] for e in range(2)) for b in range(2)] for a in range(2)]
            reg = ridge * sum(x * x for x in p)
        tot = 0
        for seq, z, y in zip(data.X, data.queries(), data.Y):
            logit = [sum(_mp(t[a]) * W[a][b] * _mp(z[b]) for a in range(2) for b in range(2)) for t in seq]
            e = [mpmath.exp(c) for c in logit]
            out = sum(c / sum(e) * sum(_mp(a) * _mp(b) for a, b in zip(t, data.v)) for c, t in zip(e, seq))
            tot += mpmath.log(1 + mpmath.exp(-_mp(y) * out))
        return tot / data.n + reg

    with mpmath.workdps(40):
        h = mpmath.mpf(10) ** -12
        num = []
        for j in range(len(psi)):
            a, b = [mpmath.mpf(x) for x in psi], [mpmath.mpf(x) for x in psi]
            a[j] += h
            b[j] -= h
            num.append(float((total(a) - total(b)) / (2 * h)))
    X = np.array([[[float(a) for a in t] for t in seq] for seq in data.X])
    Z = np.array([[float(a) for a in z] for z in data.queries()])
    args = (X, Z, np.array([float(a) for a in data.v]), np.array([float(y) for y in data.Y]), param)
    g = attention_gradient(*args, np.array(psi), ridge)
    assert np.allclose(g, num, rtol=1e-9, atol=1e-12)
    if param == "KQ":
        at_zero = attention_gradient(*args, np.array(psi[:4] + [0.0] * 4), ridge)
        assert np.all(np.isfinite(at_zero))
        with_ridge_0 = attention_gradient(*args, np.array(psi[:4] + [0.0] * 4), 0.0)
        assert np.array_equal(at_zero[4:], with_ridge_0[4:]) and not np.array_equal(at_zero[:4], with_ridge_0[:4])


# torch 2.14.1 running the notebook's own code (TFasSVM/base.py SelfAttn, the cell's loop, float64; the (K, Q) run
# after torch.manual_seed(0), the start stored in verify.data.tfsvm): the iterates at steps 10 and 100, in the paper's
# layout (W = weightᵀ; K = key.weightᵀ, Q = query.weightᵀ), as float64 hex — the authors' arithmetic, not ours.
TORCH_ITERATES = {
    ("W", 10): ["0x1.ac9b2dcf43517p-1", "0x1.f7b6f54c7a688p-2", "0x1.8b9e3213df1f3p-3", "0x1.1dbadc0aee28cp-3"],
    ("W", 100): ["0x1.c1e1026f69a49p+2", "0x1.d0094f8139a4fp+1", "0x1.270d5fba9fdb0p+2", "0x1.92ddb2714dba9p+1"],
    ("KQ", 10): ["-0x1.44c38865c18b6p-1", "-0x1.73dff01d90ec6p-1", "-0x1.ed0c95cfb55ccp-4", "-0x1.dfa837714fd16p-5",
                 "-0x1.263697613fff6p-1", "-0x1.4ad05089a96c7p-1", "-0x1.5a831eddfa77dp-2", "-0x1.7bf6829f7b1b9p-2"],
    ("KQ", 100): ["-0x1.9ce892e2752c4p-2", "-0x1.68b44563026b3p-1", "-0x1.48dca63738d9cp+2", "-0x1.4d4991aa92f1fp+2",
                  "-0x1.6de60aab598adp+2", "-0x1.7984831db71a3p+2", "-0x1.79d2cd3410748p+1", "-0x1.55b43f2ddf40cp+1"],
}


@pytest.mark.parametrize("param", ["W", "KQ"])
def test_the_float64_replay_follows_the_authors_torch_run(param):
    """The float64 replay against the authors' code run in torch: within 10⁻¹² relative at steps 10 and 100 (not
    bit-identical: torch's matmul/softmax kernels round in another order)."""
    from verify.data.tfsvm import tfsvm_visualization, tfsvm_visualization_kq_start
    from verify.dynamics.float_replay import replay_attention

    start = (0,) * 4 if param == "W" else tfsvm_visualization_kq_start()
    it = replay_attention(tfsvm_visualization(), param, start, eta="1/10", eps=TF_EPS, ridge=TF_EPS if param == "KQ"
                          else 0, steps=100, dtype="float64")
    for k in (10, 100):
        want = np.array([float.fromhex(h) for h in TORCH_ITERATES[(param, k)]])
        assert np.linalg.norm(it[k] - want) / np.linalg.norm(want) < 1e-12


@pytest.mark.parametrize("name,param", [("tfsvm.fig-visualization-W", "W"), ("tfsvm.fig-visualization-KQ", "KQ")])
def test_the_certified_tfsvm_runs_match_an_independent_mpmath_loop(name, param):
    """Six certified iterations (30 digits) against the mpmath loop above (50 digits): the iterates agree to 10⁻²⁰;
    float64 never departs over them."""
    exp = get_experiment(name)
    res = run_experiment(exp, 30, baselines=("float64",), steps=6, at_steps=(6,), flow_factor=0)
    curve = res.curves[0]
    data = exp.run_list()[0].dataset()
    want = _tf_independent_ngd(data, param, exp.run_list()[0].init, 6, TF_EPS if param == "KQ" else 0)
    with mpmath.workdps(50):
        got = [mpmath.mpf(x.mid().str(40, radius=False)) for x in curve.end.theta]
        assert max(abs(a - b) for a, b in zip(got, want)) < mpmath.mpf(10) ** -20
    assert curve.floats["float64"].departure is None


def test_the_kq_experiment_as_a_user_runs_it(tmp_path, capsys):
    """``experiment tfsvm.fig-visualization-KQ --steps 20``: the JSON carries the ridge and, at step 0, the stored
    start exactly, ‖K‖, ‖Q‖, 1 − corr to both SVMs and the ridge's share of the gradient; the page and the paths
    figure are written; both tfsvm ids are listed."""
    from verify.data.tfsvm import tfsvm_visualization_kq_start

    code, out, err = run(["experiment", "tfsvm.fig-visualization-KQ", "--steps", "20", "--at-steps", "0,20",
                          "--json", "--report", str(tmp_path)], capsys)
    assert code == 0, err
    js = json.loads(out)
    assert js["algorithm"]["ridge"] == "1/4503599627370496" and js["algorithm"]["param"] == "KQ"
    curve = js["curves"][0]
    first = curve["certified"]["at"][0]
    assert all(abs(Fraction(x) - y) <= abs(y) / 10**19 for x, y in zip(first["theta"], tfsvm_visualization_kq_start()))
    assert Fraction(first["norm_Q"]) == 0 and first["ridge_over_grad"] is not None
    assert {"norm_K", "norm_W", "one_minus_corr_fro", "one_minus_corr_nuc"} <= set(first)
    assert curve["flow_continued"] is None and curve["baselines"]["float64"]["departure_step"] is None
    assert (tmp_path / "figures" / "experiment-tfsvm.fig-visualization-KQ-paths.png").exists()
    code, out, err = run(["experiment", "list"], capsys)
    assert code == 0 and "tfsvm.fig-visualization-W" in out and "tfsvm.fig-visualization-KQ" in out


def test_the_ridge_term_decides_the_kq_run_after_its_first_200_steps():
    """The authors' ε(‖K‖² + ‖Q‖²) is not negligible: by step 250 its gradient 2ε‖ψ‖ is a sizeable share of ∇L
    (‖∇L‖ has decayed to ~10⁻¹⁴), while at step 10 it is below 10⁻¹²."""
    exp = get_experiment("tfsvm.fig-visualization-KQ")
    res = run_experiment(exp, 30, baselines=(), steps=250, at_steps=(10, 250), flow_factor=0)
    share = {p.step: p.figures["ridge_over_grad"] for p in res.curves[0].points}
    assert share[10] < arb("1e-12") and share[250] > arb("0.05")


def test_the_local_converge_data_is_the_notebooks_draw():
    """Seeds 0, 1, 2 of local_converge.ipynb: the optimal tokens are the notebook's ``best_ids`` (printed by torch
    running its data_generator), tokens, queries and v unit up to float32 rounding, every value a float32 number;
    the starts lie in nn.Linear's kaiming-uniform range |w| ≤ 1/√10."""
    from verify.data.tfsvm import LOCAL_CONVERGE_SEEDS, tfsvm_local_converge, tfsvm_local_converge_start

    best = {0: (7, 4, 6, 1, 3, 2), 1: (3, 2, 6, 2, 6, 2), 2: (6, 5, 2, 2, 0, 4)}
    assert LOCAL_CONVERGE_SEEDS == (0, 1, 2)
    for seed in LOCAL_CONVERGE_SEEDS:
        data = tfsvm_local_converge(seed)
        assert (data.n, data.T, data.d) == (6, 8, 10)
        assert tuple(o[0] for o in data.optimal_tokens()) == best[seed]
        for u in [data.v, *data.z, *(tok for seq in data.X for tok in seq)]:
            assert abs(sum(a * a for a in u) - 1) < Fraction(1, 10**6)
            assert all(Fraction(float(np.float32(float(a)))) == a for a in u)
        for param, size in (("W", 100), ("KQ", 200)):
            start = tfsvm_local_converge_start(seed, param)
            assert len(start) == size and all(a * a <= Fraction(1, 10) for a in start)
    with pytest.raises(ValueError):
        tfsvm_local_converge(3)


def test_the_local_converge_kq_run_matches_the_mpmath_loop():
    """Three certified (K, Q) iterations on seed 0 (d = 10, 200 parameters) against the independent mpmath loop."""
    exp = get_experiment("tfsvm.fig-local-converge-KQ")
    run0 = exp.run_list()[0]
    from verify.experiments.replay import run_attention_curve

    curve = run_attention_curve(exp, run0, 30, 3, ("float64",), (3,), (), 0)
    want = _tf_independent_ngd(run0.dataset(), "KQ", run0.init, 3, TF_EPS)
    with mpmath.workdps(50):
        got = [mpmath.mpf(x.mid().str(40, radius=False)) for x in curve.end.theta]
        assert max(abs(a - b) for a, b in zip(got, want)) < mpmath.mpf(10) ** -20
    assert curve.end.figures["softmax_gap"] > 0 and curve.floats["float64"].departure is None
