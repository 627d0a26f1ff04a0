"""``verify flow --method flow|gd|ngd --eta --eps --steps``, nonlinear heads, and the Flow JSON's end point, fit and
text twin. Expected values are computed here by hand (mpmath at 60 digits, the update rules written out from their
definitions), never taken from the program's own output."""
import json
from fractions import Fraction

import mpmath
import pytest
from cli_helpers import one_line, run

from verify.cli import flow as flow_cli
from verify.data.generators import random_dataset


@pytest.fixture(autouse=True)
def _sixty_digits():
    """The hand computations at 60 digits (mpmath's global precision restored afterwards)."""
    with mpmath.workdps(60):
        yield


#: n = 1, T = 3, d = 2, keys = tokens: logits a = (p₁, p₂, 0), scores γ = vᵀx_t = (1, 1/2, 0)
TINY = {"X": [[[1, 0], [0, 1], [0, 0]]], "Y": [1], "v": [1, "1/2"]}
#: n = 1, T = 2, d = 1: for W = KQᵀ (K, Q scalars) the logits are (W, 0); ∂L/∂W < 0
LINE = {"X": [[[1], [0]]], "Y": [1], "v": [1]}
#: TINY with the concave head h(r) = vᵀr − λ‖r‖², λ = 1/2
HEAD = dict(TINY, head={"kind": "concave", "lambda": "1/2"})


def _file(tmp_path, obj, name="d.json"):
    path = tmp_path / name
    path.write_text(json.dumps(obj))
    return str(path)


def _flow(argv, capsys):
    return run(argv, capsys, entry=flow_cli.main)


def _json(argv, capsys):
    code, out, err = _flow(argv + ["--json"], capsys)
    assert code == 0, err
    return json.loads(out)


# ----- the update rules, by hand ------------------------------------------------------------------------
def _softmax(a):
    e = [mpmath.e ** x for x in a]
    z = sum(e)
    return [x / z for x in e]


def _dlogistic(u):  # ℓ(u) = log(1 + e^{−u}), ℓ'(u) = −1/(1 + e^u)
    return -1 / (1 + mpmath.e ** u)


def _grad_linear(p):
    """∇_p of ℓ(vᵀXᵀS(Xp)) on TINY: ℓ'(φ)·Σ_t s_t(γ_t − φ)x_t (x_t = e_t for t < 2, x_3 = 0)."""
    gam = [mpmath.mpf(1), mpmath.mpf(1) / 2, mpmath.mpf(0)]
    s = _softmax(list(p) + [0])
    phi = sum(a * b for a, b in zip(s, gam))
    return [_dlogistic(phi) * s[t] * (gam[t] - phi) for t in range(2)]


def _grad_concave(p, lam=mpmath.mpf(1) / 2):
    """∇_p of ℓ(h(XᵀS(Xp))) with h(r) = vᵀr − λ‖r‖² on TINY: ℓ'(h)·Σ_t s_t(gᵀx_t − gᵀr)x_t, g = v − 2λr."""
    v = [mpmath.mpf(1), mpmath.mpf(1) / 2]
    s = _softmax(list(p) + [0])
    r = s[:2]  # Xᵀs: x_t = e_t for t < 2, x_3 = 0
    h = v[0] * r[0] + v[1] * r[1] - lam * (r[0] ** 2 + r[1] ** 2)
    g = [v[j] - 2 * lam * r[j] for j in range(2)]
    gr = g[0] * r[0] + g[1] * r[1]
    return [_dlogistic(h) * s[t] * (g[t] - gr) for t in range(2)]  # gᵀx_3 = 0 drops out


def _ngd(grad, steps, eta, eps, p=None):
    p = p or [mpmath.mpf(0), mpmath.mpf(0)]
    for _ in range(steps):
        g = grad(p)
        c = eta / (mpmath.sqrt(sum(x * x for x in g)) + eps)  # the authors': η∇/(‖∇‖ + ε)
        p = [x - c * y for x, y in zip(p, g)]
    return p


def _close(text, value, digits):
    assert abs(mpmath.mpf(text) - value) <= mpmath.mpf(10) ** (-digits) * max(1, abs(value)), (text, value)


# ----- ngd / gd ---------------------------------------------------------------------------------------------
def test_ngd_first_steps_match_the_authors_rule_by_hand(tmp_path, capsys):
    data = _file(tmp_path, TINY)
    obj = _json(["--data", data, "--method", "ngd", "--eta", "1/2", "--eps", "1/100", "--steps", "3",
                 "--precision", "40", "--no-svm"], capsys)
    want = _ngd(_grad_linear, 3, mpmath.mpf(1) / 2, mpmath.mpf(1) / 100)
    assert obj["method"] == "ngd" and obj["steps"] == 3 and obj["status"] == "done"
    assert obj["eta"] == "0.5" and obj["eps"] == "0.01" and obj["log_t"] is None
    for got, w in zip(obj["point"]["p"], want):
        _close(got, w, 25)
    _close(obj["norm"], mpmath.sqrt(sum(x * x for x in want)), 25)


def test_ngd_eps_is_added_to_the_norm_not_a_floor(tmp_path, capsys):
    """ε = 10 ≫ ‖∇L‖: the authors' η/(‖∇‖ + ε) makes a tiny step (a floor max(‖∇‖, ε) would too, but the two
    differ, and the expected value is the sum's)."""
    data = _file(tmp_path, TINY)
    obj = _json(["--data", data, "--method", "ngd", "--eta", "1", "--eps", "10", "--steps", "1",
                 "--precision", "40", "--no-svm"], capsys)
    g = _grad_linear([mpmath.mpf(0), mpmath.mpf(0)])
    gn = mpmath.sqrt(sum(x * x for x in g))
    want = [-x / (gn + 10) for x in g]
    floor = [-x / max(gn, 10) for x in g]
    got = [mpmath.mpf(x) for x in obj["point"]["p"]]
    for x, w in zip(got, want):
        _close(str(x), w, 25)
    assert mpmath.norm([x - f for x, f in zip(got, floor)]) > mpmath.mpf(10) ** -10


def test_ngd_default_eta_and_zero_eps(tmp_path, capsys):
    data = _file(tmp_path, TINY)
    obj = _json(["--data", data, "--method", "ngd", "--steps", "2", "--precision", "35", "--no-svm"], capsys)
    assert obj["eta"] == "0.1" and obj["eps"] == "0"
    want = _ngd(_grad_linear, 2, mpmath.mpf(1) / 10, 0)
    for got, w in zip(obj["point"]["p"], want):
        _close(got, w, 20)


def test_gd_step_is_psi_minus_eta_grad(tmp_path, capsys):
    data = _file(tmp_path, TINY)
    obj = _json(["--data", data, "--method", "gd", "--eta", "3/4", "--steps", "2", "--precision", "40",
                 "--no-svm"], capsys)
    p = [mpmath.mpf(0), mpmath.mpf(0)]
    for _ in range(2):
        p = [x - mpmath.mpf(3) / 4 * y for x, y in zip(p, _grad_linear(p))]
    for got, w in zip(obj["point"]["p"], p):
        _close(got, w, 25)
    _close(obj["log_t"], mpmath.log(2 * mpmath.mpf(3) / 4), 25)  # ln(k·η)
    assert obj["eps"] is None and obj["eta"] == "0.75"


def test_gd_default_eta_is_reported_and_used(tmp_path, capsys):
    """Default η = 1/L (the engine's certified constant): whatever it is, the step taken is p − η∇L with it."""
    data = _file(tmp_path, TINY)
    obj = _json(["--data", data, "--method", "gd", "--steps", "1", "--precision", "30", "--no-svm"], capsys)
    eta = mpmath.mpf(obj["eta"])
    assert eta > 0
    want = [-eta * y for y in _grad_linear([mpmath.mpf(0), mpmath.mpf(0)])]
    for got, w in zip(obj["point"]["p"], want):
        _close(got, w, 18)


def test_gd_until_logt_stops_at_the_first_k_with_ln_k_eta_past_the_target(tmp_path, capsys):
    data = _file(tmp_path, TINY)
    obj = _json(["--data", data, "--method", "gd", "--eta", "1/2", "--until-logt", "2.3", "--precision", "20",
                 "--no-svm"], capsys)
    k = int(mpmath.ceil(mpmath.e ** mpmath.mpf("2.3") / mpmath.mpf("0.5")))  # e^2.3/η = 19.95… → 20
    assert obj["steps"] == k == 20 and obj["status"] == "reached"


def test_ngd_until_norm_stops_at_the_first_iterate_past_the_norm(tmp_path, capsys):
    data = _file(tmp_path, TINY)
    obj = _json(["--data", data, "--method", "ngd", "--eta", "1/10", "--until-norm", "1/4", "--steps", "100",
                 "--precision", "20", "--no-svm"], capsys)
    k, p = 0, [mpmath.mpf(0), mpmath.mpf(0)]
    while mpmath.norm(p) < mpmath.mpf(1) / 4:  # by hand: the first iterate with ‖p‖ ≥ 1/4
        p, k = _ngd(_grad_linear, 1, mpmath.mpf(1) / 10, 0, p), k + 1
    assert obj["status"] == "reached" and obj["steps"] == k


def test_kq_ngd_normalises_each_factor_as_the_authors_do(tmp_path, capsys):
    """(K, Q) scalars, both gradients negative: each factor moves by exactly η (per-factor normalisation); the
    whole-vector rule would move K by η·Q/‖(K, Q)‖ instead."""
    data = _file(tmp_path, LINE)
    obj = _json(["--data", data, "--param", "KQ", "--method", "ngd", "--eta", "1/10", "--steps", "1",
                 "--init", "1/2,1/4", "--precision", "25", "--no-svm"], capsys)
    assert obj["point"]["K"] == [["0.6"]] and obj["point"]["Q"] == [["0.35"]]


def test_save_and_resume_continue_the_same_iteration(tmp_path, capsys):
    data = _file(tmp_path, TINY)
    traj = str(tmp_path / "t.json")
    base = ["--method", "ngd", "--eta", "1/2", "--eps", "1/100", "--precision", "25", "--no-svm"]
    whole = _json(["--data", data, "--steps", "6"] + base, capsys)
    _json(["--data", data, "--steps", "4", "--save", traj] + base, capsys)
    resumed = _json(["--resume", traj, "--method", "ngd", "--steps", "2", "--no-svm"], capsys)
    assert resumed["steps"] == 6 and resumed["eps"] == "0.01"  # ε read back from the file, exactly
    assert resumed["point"] == whole["point"] and resumed["norm"] == whole["norm"]


def test_check_digits_for_gd_measures_the_point(tmp_path, capsys):
    data = _file(tmp_path, TINY)
    obj = _json(["--data", data, "--method", "gd", "--eta", "1/2", "--steps", "20", "--precision", "20",
                 "--check-digits", "--no-svm"], capsys)
    assert obj["check_precision"] == 30
    assert 15 <= obj["point_stable_digits"] <= 20
    assert obj["stable_digits"]["norm"] >= 15


def test_default_step_budget_without_target_reached_is_no_answer(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(flow_cli, "DEFAULT_STEPS", 5)
    data = _file(tmp_path, TINY)
    code, out, err = _flow(["--data", data, "--method", "ngd", "--until-norm", "100", "--precision", "20",
                            "--no-svm", "--json"], capsys)
    assert code == 3 and json.loads(out)["status"] == "max_steps"
    assert "step limit" in one_line(err)


# ----- nonlinear heads ------------------------------------------------------------------------------------
def test_head_runs_normalised_gd_with_its_own_gradient(tmp_path, capsys):
    data = _file(tmp_path, HEAD)
    obj = _json(["--data", data, "--method", "ngd", "--eta", "1/2", "--eps", "1/10", "--steps", "2",
                 "--precision", "40"], capsys)
    want = _ngd(_grad_concave, 2, mpmath.mpf(1) / 2, mpmath.mpf(1) / 10)
    for got, w in zip(obj["point"]["p"], want):
        _close(got, w, 25)
    assert obj["head"] == "concave" and obj["one_minus_corr"] is None
    assert any("L − L_tok" in n for n in obj["notes"])


@pytest.mark.parametrize("argv, words", [
    ([], ("Hessian", "--method ngd")),                                   # the flow is the default
    (["--method", "flow"], ("Hessian", "--method ngd")),
    (["--method", "gd", "--steps", "3"], ("--eta",)),                    # no certified 1/L for a head
    (["--method", "ngd", "--steps", "3", "--param", "KQ"], ("p, W or diag",)),
    (["--method", "ngd", "--steps", "3", "--param", "W", "--attention", "seq2seq"], ("single-query",)),
])
def test_head_refusals_are_one_line_usage_errors(tmp_path, capsys, argv, words):
    data = _file(tmp_path, HEAD)
    code, out, err = _flow(["--data", data, "--until-norm", "2", "--precision", "20"] + argv, capsys)
    line = one_line(err)
    assert code == 2 and out == "" and all(w in line for w in words), line


# ----- bad flags -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["--method", "sgd", "--steps", "3"],
    ["--method", "flow", "--until-norm", "2", "--eta", "1/2"],
    ["--until-norm", "2", "--eps", "1e-9"],                              # flow is the default
    ["--until-norm", "2", "--steps", "10"],
    ["--method", "gd", "--steps", "3", "--eps", "1e-9"],
    ["--method", "ngd", "--until-logt", "2"],
    ["--method", "gd"],                                                  # no stop rule
    ["--method", "ngd", "--steps", "0"],
    ["--method", "ngd", "--steps", "1.5"],
    ["--method", "ngd", "--steps", "x"],
    ["--method", "ngd", "--steps", "3", "--eta", "0"],
    ["--method", "ngd", "--steps", "3", "--eta", "-1/2"],
    ["--method", "ngd", "--steps", "3", "--eta", "abc"],
    ["--method", "ngd", "--steps", "3", "--eta", "nan"],
    ["--method", "ngd", "--steps", "3", "--eps", "-1e-9"],
    ["--method", "ngd", "--steps", "3", "--eps", "inf"],
    ["--method", "gd", "--steps", "3", "--stages", "10"],
])
def test_bad_method_flags_exit_2_one_line(tmp_path, capsys, argv):
    data = _file(tmp_path, TINY)
    code, out, err = _flow(["--data", data, "--precision", "20"] + argv, capsys)
    assert code == 2 and out == ""
    assert one_line(err).startswith("verify: error:")


def test_resume_with_another_method_or_step_size(tmp_path, capsys):
    data = _file(tmp_path, TINY)
    traj = str(tmp_path / "t.json")
    _json(["--data", data, "--method", "ngd", "--steps", "2", "--save", traj, "--precision", "20", "--no-svm"], capsys)
    code, _, err = _flow(["--resume", traj, "--method", "gd", "--steps", "2"], capsys)
    assert code == 5 and "resume it with --method ngd" in one_line(err)
    code, _, err = _flow(["--resume", traj, "--until-norm", "3"], capsys)  # the default method is the flow
    assert code == 5 and "not a gradient flow" in one_line(err)
    code, _, err = _flow(["--resume", traj, "--method", "ngd", "--steps", "2", "--eta", "1"], capsys)
    assert code == 2 and "--eta" in one_line(err)


def test_resume_refuses_an_edited_state(tmp_path, capsys):
    data = _file(tmp_path, TINY)
    traj = tmp_path / "t.json"
    _json(["--data", data, "--method", "ngd", "--steps", "2", "--save", str(traj), "--precision", "20", "--no-svm"],
          capsys)
    obj = json.loads(traj.read_text())
    obj["state"]["psi"][0] = str(Fraction(obj["state"]["psi"][0]) + Fraction(1, 100))
    traj.write_text(json.dumps(obj))
    code, _, err = _flow(["--resume", str(traj), "--method", "ngd", "--steps", "2"], capsys)
    assert code == 5 and "edited" in one_line(err)


# ----- the Flow JSON's end point, fit and text twin --------------------------------------------------------------
def test_flow_point_lies_on_the_stopping_norm(tmp_path, capsys):
    from verify.data.mmts import mmts_fig1a

    path = str(tmp_path / "f.json")
    mmts_fig1a().save(path)
    obj = _json(["--data", path, "--until-norm", "5", "--precision", "30"], capsys)
    p = [mpmath.mpf(x) for x in obj["point"]["p"]]
    _close(str(mpmath.norm(p)), mpmath.mpf(5), 18)
    assert obj["method"] == "flow" and obj["point_stable_digits"] is None
    assert all(len(x.lstrip("-").replace(".", "").lstrip("0").split("e")[0]) <= 20 for x in obj["point"]["p"])


def test_kq_flow_point_has_the_stopping_nuclear_norm(tmp_path, capsys):
    path = str(tmp_path / "r.json")
    random_dataset(n=2, T=3, d=2, seed=3, labels="ones").save(path)
    obj = _json(["--data", path, "--param", "KQ", "--until-norm", "3", "--precision", "20", "--no-svm"], capsys)
    K = mpmath.matrix([[mpmath.mpf(x) for x in row] for row in obj["point"]["K"]])
    Q = mpmath.matrix([[mpmath.mpf(x) for x in row] for row in obj["point"]["Q"]])
    assert K.rows == 2 and K.cols == 2 and Q.rows == 2 and Q.cols == 2
    nuclear = sum(mpmath.svd_r(K * Q.T, compute_uv=False))
    _close(str(nuclear), mpmath.mpf(3), 12)


def test_text_carries_the_json_figures_and_the_fit(tmp_path, capsys):
    from verify.data.mmts import mmts_fig1a

    path = str(tmp_path / "f.json")
    mmts_fig1a().save(path)
    argv = ["--data", path, "--until-norm", "100", "--precision", "30"]
    obj = _json(argv, capsys)
    code, text, err = _flow(argv, capsys)
    assert code == 0, err
    for key in ("norm", "log_t", "loss_gap", "one_minus_corr", "one_minus_corr_gmm"):
        assert obj[key] in text, key  # every digit of the JSON's figure
    fit = obj["one_minus_corr_fit"]
    assert fit is not None and fit["rate"] in text and fit["C"] in text
    # the note's digit count is what is printed: L − L⋆ = 6.23…e-46 carries 20 significant digits
    assert "printed to 20 digits" in text
    mant = obj["loss_gap"].split("e")[0].replace(".", "").lstrip("0")
    assert len(mant) == 20
    # the fit is the least-squares line through the records' (log ‖p‖, log(1 − corr)) — here only checked to be a
    # rate near the 1 − cos ~ C/‖p‖² the theory predicts for p
    assert 1.5 < float(fit["rate"]) < 2.5
    assert "end point p = [" in text


def test_a_users_flow_asks_for_the_long_budget_and_a_checks_flow_has_the_short_one(tmp_path, capsys, monkeypatch):
    """gradient_flow's own default is a check's budget (1000 steps: a claim cannot forget it); ``verify flow`` asks for
    100000 explicitly."""
    import inspect

    from verify.dynamics import flow as F

    assert inspect.signature(F.gradient_flow).parameters["max_steps"].default == F.CHECK_STEPS == 1000
    assert F.FLOW_STEPS == 100000
    seen = []
    real = F.gradient_flow
    monkeypatch.setattr(F, "gradient_flow", lambda *a, **k: seen.append(k.get("max_steps")) or real(*a, **k))
    code, _, err = _flow(["--data", _file(tmp_path, TINY), "--until-norm", "2", "--precision", "20"], capsys)
    assert code == 0, err
    assert seen and set(seen) == {100000}
