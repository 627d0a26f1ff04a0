"""flow (issue 22): an ``--until-logt`` target at any ln t is reached (not "stationary at norm 0"), and a
resume file whose state disagrees with its own records is refused (exit 5), never continued from.

The exactly solvable case used throughout: n = 1, T = 2, d = d_k = 1, tokens x = (1, 0), keys k = (1, −1),
v = Y = 1, correlation loss ℓ(u) = −u. Then L(p) = −σ(2p), and gradient flow dp/dt = 2σ'(2p) with p(0) = 0
integrates (q = 2p: cosh²(q/2) dq = dt) to

    t = p + sinh(2p)/2,

so ln t at ‖p‖ = N is ln(N + sinh(2N)/2), and the norm at ln t = L solves p + sinh(2p)/2 = e^L.
"""
import json

import mpmath
import pytest
from cli_helpers import one_line
from cli_helpers import run as run_cli

from verify.cli.flow import main as flow_main
from verify.data.dataset import Dataset
from verify.dynamics import gradient_flow
from verify.dynamics.trajectory import Trajectory

EXACT = {"X": [[[1], [0]]], "Y": [1], "v": [1], "K": [[[1], [-1]]]}


def run(argv, capsys):
    return run_cli(argv, capsys, entry=flow_main)


@pytest.fixture
def exact(tmp_path):
    path = tmp_path / "exact.json"
    path.write_text(json.dumps(EXACT))
    return str(path)


def norm_at(log_t, dps=40):
    mpmath.mp.dps = dps
    return mpmath.findroot(lambda p: p + mpmath.sinh(2 * p) / 2 - mpmath.exp(log_t), (0, 20), solver="anderson")


# ----- class: ln t targets before, at and after the first step ----------------------------------------
@pytest.mark.parametrize("log_t", ["-30", "-8", "-5", "-2", "-1/2", "0", "1", "3"])
def test_until_logt_reaches_the_exact_norm(log_t, exact, capsys):
    """``--until-logt -5`` printed "stationary at norm 0": the event search divided by ln t = −∞ at the
    start. Every target below, at and beyond the first step now stops where the closed form says."""
    code, out, err = run(["--data", exact, "--param", "p", "--loss", "correlation", "--until-logt", log_t,
                          "--precision", "30", "--json"], capsys)
    assert code == 0, err
    got = json.loads(out)
    from fractions import Fraction

    expected = norm_at(mpmath.mpf(Fraction(log_t).numerator) / Fraction(log_t).denominator)
    assert got["status"] == "reached" and got["steps"] >= 1
    assert abs(mpmath.mpf(got["norm"]) / expected - 1) < mpmath.mpf(10) ** -18, (got["norm"], expected)


def test_until_norm_gives_the_exact_time(exact, capsys):
    code, out, _err = run(["--data", exact, "--param", "p", "--loss", "correlation", "--until-norm", "3/2",
                           "--precision", "30", "--json"], capsys)
    mpmath.mp.dps = 40
    expected = mpmath.log(mpmath.mpf(3) / 2 + mpmath.sinh(3) / 2)
    assert code == 0 and abs(mpmath.mpf(json.loads(out)["log_t"]) - expected) < mpmath.mpf(10) ** -18


def test_a_logt_target_on_another_dataset_too(tmp_path, capsys):
    """mmts Fig. 1(a) (logistic, three tokens): for small t, ‖p(t)‖ = t‖∇L(0)‖(1 + O(t)); the ratio
    norm/t at ln t = −12 and −10 must agree to ~5 digits (the O(t) term), and neither is "stationary"."""
    from verify.data.mmts import mmts_fig1a

    path = tmp_path / "a.json"
    mmts_fig1a().save(str(path))
    ratios = []
    for log_t in (-12, -10):
        code, out, err = run(["--data", str(path), "--param", "p", "--until-logt", str(log_t), "--precision", "25",
                              "--json"], capsys)
        got = json.loads(out)
        assert code == 0 and got["status"] == "reached", err
        ratios.append(mpmath.mpf(got["norm"]) / mpmath.exp(log_t))
    assert abs(ratios[0] / ratios[1] - 1) < 1e-3 and ratios[0] > 0


# ----- class: a resume file whose state disagrees with its records --------------------------------
@pytest.fixture
def saved(tmp_path, exact):
    traj = tmp_path / "t.json"
    assert flow_main(["--data", exact, "--param", "p", "--loss", "correlation", "--until-norm", "1",
                      "--precision", "30", "--save", str(traj)]) == 0
    return traj


def _edit(path, out, change):
    obj = json.loads(path.read_text())
    change(obj)
    out.write_text(json.dumps(obj))
    return str(out)


@pytest.mark.parametrize("what", ["u", "psi", "s", "psi0", "last record's norm"])
def test_an_edited_state_is_refused(what, saved, tmp_path, capsys):
    """The issue's case: state changed, records not → it continued from the edited state ("ln t = 100")."""
    def change(obj):
        st = obj["state"]
        if what == "u":
            st["u"] = "100"
        elif what == "psi":
            st["psi"] = ["-" + st["psi"][0]]  # same norm, the other direction
        elif what == "s":
            st["s"] = "0.5"
        elif what == "psi0":
            obj["meta"]["psi0"] = ["1"]
        else:
            obj["records"][-1]["norm"] = "2"
    bad = _edit(saved, tmp_path / "bad.json", change)
    code, out, err = run(["--resume", bad, "--until-norm", "2"], capsys)
    line = one_line(err)
    assert code == 5 and out == ""
    assert line.startswith(f"verify: error: {bad}: the saved state disagrees with the file's own records")


def test_the_untouched_file_resumes_to_the_exact_answer(saved, capsys):
    code, out, err = run(["--resume", str(saved), "--until-norm", "2", "--json"], capsys)
    mpmath.mp.dps = 40
    assert code == 0, err
    assert abs(mpmath.mpf(json.loads(out)["log_t"]) - mpmath.log(2 + mpmath.sinh(4) / 2)) < mpmath.mpf(10) ** -18


def test_a_gd_trajectory_is_not_resumed_as_a_flow(tmp_path, capsys):
    from verify.dynamics import gd

    traj = gd(Dataset.from_dict(EXACT), "p", steps=3, eta="1/10", dps=20, svm=False)
    path = tmp_path / "gd.json"
    traj.save(str(path))
    code, out, err = run(["--resume", str(path), "--until-norm", "2"], capsys)
    assert code == 5 and "is a gd trajectory, not a gradient flow" in one_line(err)


def test_an_interrupted_run_saves_a_file_that_resumes(tmp_path):
    """Interrupted between recording a step and saving the state, the file's state and records used to
    disagree by one step; what is saved now always resumes (and the resumed run is the same flow)."""
    data = Dataset.from_dict(EXACT)
    calls = []

    def stop_at_third(norm, log_t):
        calls.append(norm)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as info:
        gradient_flow(data, "p", until_norm=3, dps=30, loss="correlation", svm=False, progress=stop_at_third)
    partial = info.value.trajectory
    path = tmp_path / "partial.json"
    partial.save(str(path))
    cont = gradient_flow(None, until_norm=3, dps=30, svm=False, resume=Trajectory.load(str(path)))
    mpmath.mp.dps = 40
    assert cont.status == "reached"
    assert abs(mpmath.mpf(cont.final.log_t.mid().str(30, radius=False)) - mpmath.log(3 + mpmath.sinh(6) / 2)) \
        < mpmath.mpf(10) ** -18
