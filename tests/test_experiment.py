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
