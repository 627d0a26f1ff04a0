"""Infeasible SVMs (exact Farkas certificates) and the ``svm`` command line."""
from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from verify.cli.svm import main
from verify.data.dataset import Dataset
from verify.svm import build_problem, solve_svm, verify_farkas


def opposite_labels():
    # mmts false case: n = 2 identical inputs with opposite labels → opt picks different tokens
    return Dataset.make(X=[[[1, 0], [0, 1]], [[1, 0], [0, 1]]], Y=[1, -1], v=[1, 0])


@pytest.mark.parametrize("kind", ["p", "W", "KQ", "diag"])
def test_opposite_labels_infeasible(kind):
    res = solve_svm(opposite_labels(), kind, "opt", dps=30)
    assert res.status == "infeasible"
    far = res.farkas
    assert far.passed and far.residual == 0 and far.rhs > 0 and sum(far.lam) == 1
    d = res.to_dict()
    assert d["status"] == "infeasible" and d["certificate"]["type"] == "farkas"


def test_identical_keys_give_zero_row():
    # keys K = diag(1,0)·x: tokens differing only in the 2nd coordinate have identical keys
    X = [[[1, 2], [1, 0]]]
    ds = Dataset.make(X=X, Y=[1], v=[0, 1], K=[[[1, 0], [1, 0]]])
    res = solve_svm(ds, "p", "opt", dps=20)
    assert res.status == "infeasible" and res.farkas.passed
    assert res.farkas.rows == [(0, 1)]


def test_bogus_farkas_vector_fails():
    pr = build_problem(opposite_labels(), "p", "opt")
    assert verify_farkas(pr, [1, 1]).passed
    assert not verify_farkas(pr, [1, 2]).passed
    assert not verify_farkas(pr, [F(1), F(0)]).passed


@pytest.fixture()
def fig1_file(tmp_path):
    p = tmp_path / "fig1.json"
    p.write_text(json.dumps({"X": [[["-0.1", 1, 1], [1, 0, "0.9"], [0, 0, 0]]], "Y": [1],
                             "v": [0, 0, 1], "K": [[["-0.1", 1], [1, 0], [0, 0]]]}))
    return str(p)


def test_cli_json(fig1_file, capsys):
    assert main(["--data", fig1_file, "--kind", "p", "--json", "--precision", "30"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("kind", "status", "select", "solution", "objective", "support", "certificate", "stable_digits"):
        assert key in out
    assert out["status"] == "optimal" and out["select"] == [0] and out["support"] == [[0, 2]]
    assert out["solution"][0].startswith("-0.09900990099009900990099")
    assert set(out["certificate"]) == {"primal_residual", "dual_residual", "complementarity", "duality_gap"}


def test_cli_summary_and_select(fig1_file, capsys):
    assert main(["--data", fig1_file, "--kind", "W", "--select", "1"]) == 0
    assert "OPTIMAL" in capsys.readouterr().out


@pytest.mark.parametrize("argv,code", [
    (["--kind", "q"], 2), (["--kind", "p", "--select", "3"], 2), (["--kind", "p", "--select", "0,1"], 2),
    (["--kind", "p", "--precision", "14"], 2), (["--kind", "p", "--precision", "10001"], 2),
    (["--kind", "p", "--precision", "abc"], 2), (["--kind", "p", "--bogus"], 2),
])
def test_cli_usage_errors(fig1_file, capsys, argv, code):
    assert main(["--data", fig1_file] + argv) == code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_cli_bad_data(tmp_path, capsys):
    p = tmp_path / "bad.json"
    p.write_text('{"X": [[[1, 0]]], "Y": [1], "v": [1, 0]}')    # T = 1
    assert main(["--data", str(p), "--kind", "p"]) == 5
    assert main(["--data", str(tmp_path / "missing.json"), "--kind", "p"]) == 5
    p.write_text('{"X": [[[1, 0], [1, 0]]], "Y": [1], "v": [1, 0]}')    # tied optimal token
    assert main(["--data", str(p), "--kind", "p"]) == 5
    assert capsys.readouterr().err.count("\n") == 3


def test_cli_infeasible_exits_zero(tmp_path, capsys):
    p = tmp_path / "inf.json"
    p.write_text(json.dumps({"X": [[[1, 0], [0, 1]], [[1, 0], [0, 1]]], "Y": [1, -1], "v": [1, 0]}))
    assert main(["--data", str(p), "--kind", "diag", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "infeasible"
