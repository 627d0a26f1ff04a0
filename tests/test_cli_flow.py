"""``python -m verify flow``: Flow JSON fields, exit codes, save/resume."""
import json
import subprocess
import sys

import pytest

from verify.cli.flow import main
from verify.data.generators import random_dataset
from verify.data.mmts import mmts_fig1a

FIELDS = {"param", "loss", "norm", "log_t", "steps", "gradient_evaluations", "selected", "one_minus_corr",
          "one_minus_corr_gmm", "loss_gap", "seconds", "precision"}


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "d.json"
    mmts_fig1a().save(str(path))
    return str(path)


def _run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_flow_json_fields(data, capsys):
    code, out, err = _run(["--data", data, "--param", "p", "--until-norm", "5", "--precision", "20", "--json"], capsys)
    assert code == 0, err
    obj = json.loads(out)
    assert FIELDS <= set(obj)
    assert obj["param"] == "p" and obj["loss"] == "logistic" and obj["precision"] == 20
    assert obj["norm"] == "5" and isinstance(obj["selected"], list) and obj["selected"] == [0]
    assert isinstance(obj["norm"], str) and isinstance(obj["log_t"], str) and isinstance(obj["loss_gap"], str)
    assert obj["steps"] > 0 and obj["gradient_evaluations"] > obj["steps"]
    assert float(obj["loss_gap"]) > 0 and obj["status"] == "reached"
    assert err == ""  # no progress bar under --json


@pytest.mark.parametrize("param", ["W", "diag", "KQ"])
def test_flow_other_parameterisations(tmp_path, capsys, param):
    path = tmp_path / "d.json"
    random_dataset(n=2, T=3, d=2, seed=3, labels="ones").save(str(path))
    code, out, err = _run(["--data", str(path), "--param", param, "--until-norm", "3", "--precision", "16",
                           "--json", "--no-svm"], capsys)
    assert code == 0, err
    obj = json.loads(out)
    assert obj["param"] == param and obj["norm"] == "3"
    if param in ("diag", "KQ"):
        assert obj["invariant_drift"] is not None


def test_until_logt_and_save_resume(data, tmp_path, capsys):
    traj = tmp_path / "t.json"
    code, out, _ = _run(["--data", data, "--until-logt", "2", "--precision", "20", "--json", "--save", str(traj),
                         "--no-svm"], capsys)
    assert code == 0 and json.loads(out)["log_t"].startswith("2")
    code, out, err = _run(["--resume", str(traj), "--until-norm", "4", "--precision", "20", "--json", "--no-svm"], capsys)
    assert code == 0, err
    assert json.loads(out)["norm"] == "4"


@pytest.mark.parametrize("argv", [
    ["--param", "p", "--until-norm", "5", "--precision", "14"],
    ["--param", "p", "--until-norm", "5", "--precision", "10001"],
    ["--param", "Q", "--until-norm", "5"],
    ["--param", "p", "--until-norm", "0"],
    ["--param", "p", "--until-norm", "-3"],
    ["--param", "p", "--until-norm", "abc"],
    ["--param", "p"],
    ["--param", "p", "--until-norm", "5", "--bogus"],
    ["--param", "p", "--until-norm", "5", "--init", "1,x,3"],
])
def test_usage_errors_exit_2(data, capsys, argv):
    code, out, err = _run(["--data", data] + argv, capsys)
    assert code == 2
    assert err.startswith("verify: error:") and err.count("\n") == 1 and "Traceback" not in err


def test_bad_data_exits_5(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"X": [[[1, 2]]], "Y": [1], "v": [1, 0]}')  # T = 1
    for path in (str(bad), str(tmp_path / "missing.json")):
        code, out, err = _run(["--data", path, "--until-norm", "5"], capsys)
        assert code == 5 and err.count("\n") == 1


def test_dispatch_through_python_m_verify(data):
    r = subprocess.run([sys.executable, "-m", "verify", "flow", "--data", data, "--until-norm", "2",
                        "--precision", "15", "--json", "--no-svm"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["norm"] == "2"


def test_check_digits_measures_every_figure(data, tmp_path, capsys):
    """--check-digits reruns at precision + 10 and prints each figure to the digits the runs share."""
    code, out, err = _run(["--data", data, "--until-norm", "50", "--precision", "25", "--json", "--check-digits"],
                          capsys)
    assert code == 0, err
    obj = json.loads(out)
    st = obj["stable_digits"]
    assert obj["check_precision"] == 35
    assert set(st) == {"norm", "log_t", "loss_gap", "one_minus_corr", "one_minus_corr_gmm", "direction"}
    assert all(isinstance(v, int) and 15 <= v <= 25 for v in st.values())
    mantissa = obj["log_t"].split("e")[0].replace("-", "").replace(".", "").lstrip("0")
    assert len(mantissa) <= st["log_t"]
    # without the flag the digits are not measured, and the output says so
    code, out, _ = _run(["--data", data, "--until-norm", "50", "--precision", "25", "--json"], capsys)
    obj = json.loads(out)
    assert obj["stable_digits"] is None and any("not measured" in n for n in obj["notes"])


def test_stable_digits_sees_a_disagreement():
    """The comparison can fail: a run against a perturbed copy of itself loses the digits."""
    from flint import arb

    from verify.dynamics import gradient_flow
    from verify.dynamics.trajectory import stable_digits
    from verify.numbers.precision import working_precision

    run = gradient_flow(mmts_fig1a(), "p", until_norm=5, dps=30, svm=False)
    check = gradient_flow(mmts_fig1a(), "p", until_norm=5, dps=40, svm=False)
    with working_precision(40):
        assert stable_digits(run, check, 30)["log_t"] >= 25
        check.final.log_t = check.final.log_t * (1 + arb(10) ** -12)
        check.final.direction[0] += arb(10) ** -7
        st = stable_digits(run, check, 30)
        assert 11 <= st["log_t"] <= 12 and 6 <= st["direction"] <= 7
