"""``verify svm``: exact solutions printed exactly (text and JSON ``exact_solution`` / ``exact_objective``), and
Gen-SVM from the CLI (``--kind gen --select "0,1;2"``, W^fin with ``--s-star``). Expected values are derived by hand
in the comments (closed forms), never read off the program's output."""
import json
import math
from pathlib import Path

import mpmath
import pytest
from cli_helpers import one_line, run

from verify.cli import svm as svm_cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: Gen-SVM, n = 1, T = 3, z = (1, 1), 𝒪 = {0, 1}: rows (x_0 − x_2)ᵀWz = W00 + W01 ≥ 1, (x_1 − x_2)ᵀWz = W10 + W11 ≥ 1,
#: equality W00 + W01 = W10 + W11; the minimum-norm point is every entry 1/2, ‖W‖_F = 1.
GEN1 = {"X": [[[1, 0], [0, 1], [0, 0]]], "Y": [1], "v": [1, 1], "z": [[1, 1]]}
#: Gen-SVM, n = 2: sequence 0 as GEN1 (a + b = c + e ≥ 1 with W = [[a, b], [c, e]]), sequence 1 (z = (1, 0), 𝒪 = {0},
#: x_0 = e_2, x_1 = e_1): c − a ≥ 1 and c ≥ 1. With S = a + b = c + e, the unconstrained a = c = S/2 violates c − a ≥ 1,
#: so c = a + 1; minimising a² + (S − a)² + (a + 1)² + (S − a − 1)² gives a = (S − 1)/2 and the value S² + 1, least at
#: S = 1: W = [[0, 1], [1, 0]], ‖W‖_F = √2.
GEN2 = {"X": [[[1, 0], [0, 1], [0, 0]], [[0, 1], [1, 0], [0, 0]]], "Y": [1, 1], "v": [1, 1], "z": [[1, 1], [1, 0]]}
#: diag (ℓ1) SVM: one row (x_0 − x_1) ⊙ z = (2, 1): min |w1| + |w2| s.t. 2w1 + w2 ≥ 1 → w = (1/2, 0), objective 1/2.
DIAG = {"X": [[[2, 1], [0, 0]]], "Y": [1], "v": [1, 1], "z": [[1, 1]]}


def _file(tmp_path, obj, name="d.json"):
    path = tmp_path / name
    path.write_text(json.dumps(obj))
    return str(path)


def _svm(argv, capsys):
    return run(argv, capsys, entry=svm_cli.main)


def _json(argv, capsys):
    code, out, err = _svm(argv + ["--json"], capsys)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("example, kind, solution, objective", [
    # tfsvm spec §6: D-T2's W^mm = [[1/2, −3/2], [1/2, −3/2]] (‖W‖_F² = 4·… = 5)
    ("tfsvm-D-T2.json", "W", [["1/2", "-3/2"], ["1/2", "-3/2"]], "sqrt(5)"),
    # D-NUC: W^mm = I (‖I‖_F = √2)
    ("tfsvm-D-NUC.json", "W", [["1", "0"], ["0", "1"]], "sqrt(2)"),
    # mmts Fig. 1(a): rows (k_0 − k_t)ᵀp ≥ 1 with a = k_0 − k_2 = (−1/10, 1, 0): the one-row minimiser a/‖a‖² =
    # (−10/101, 100/101, 0) also meets the other row ((−11/10)(−10/101) + 100/101 = 111/101 ≥ 1); ‖p‖² = 100/101
    ("mmts-fig1a.json", "p", ["-10/101", "100/101", "0"], "sqrt(100/101)"),
])
def test_exact_solutions_of_the_papers_datasets(capsys, example, kind, solution, objective):
    path = str(EXAMPLES / example)
    obj = _json(["--data", path, "--kind", kind], capsys)
    assert obj["exact"] is True and obj["exact_solution"] == solution and obj["exact_objective"] == objective
    flat = [x for row in solution for x in (row if isinstance(row, list) else [row])]
    decimals = [x for row in obj["solution"] for x in (row if isinstance(row, list) else [row])]
    for q, dec in zip(flat, decimals):  # the decimals beside them are the same numbers
        num, _, den = q.partition("/")
        assert abs(mpmath.mpf(dec) - mpmath.mpf(int(num)) / int(den or 1)) < mpmath.mpf(10) ** -55
    code, text, err = _svm(["--data", path, "--kind", kind], capsys)
    assert code == 0, err
    assert f"objective exactly {objective}" in text
    assert "solution " + json.dumps(solution).replace('"', "") in text


def test_the_text_never_shows_the_rounded_decimal_of_an_exact_solution(capsys):
    code, text, _ = _svm(["--data", str(EXAMPLES / "mmts-fig1a.json"), "--kind", "p"], capsys)
    assert code == 0 and "-10/101" in text and "0.0990099" not in text


def test_l1_objective_is_exact_rational(tmp_path, capsys):
    obj = _json(["--data", _file(tmp_path, DIAG), "--kind", "diag"], capsys)
    assert obj["exact_solution"] == ["1/2", "0"] and obj["exact_objective"] == "1/2"


def test_a_nuclear_solve_has_no_exact_values(capsys):
    obj = _json(["--data", str(EXAMPLES / "tfsvm-D-NUC.json"), "--kind", "KQ"], capsys)
    assert obj["exact"] is False and obj["exact_solution"] is None and obj["exact_objective"] is None


def test_infeasible_has_no_exact_solution(tmp_path, capsys):
    # selecting token 1 when x_1 = x_0: (x_1 − x_0)ᵀp = 0 ≥ 1 is impossible
    path = _file(tmp_path, {"X": [[[1, 0], [1, 0], [0, 1]]], "Y": [1], "v": [1, 0]})
    obj = _json(["--data", path, "--kind", "p", "--select", "1"], capsys)
    assert obj["status"] == "infeasible" and obj["exact_solution"] is None


# ----- Gen-SVM ---------------------------------------------------------------------------------------------
def test_gen_svm_one_sequence(tmp_path, capsys):
    obj = _json(["--data", _file(tmp_path, GEN1), "--kind", "gen", "--select", "0,1"], capsys)
    assert obj["status"] == "optimal" and obj["exact_solution"] == [["1/2", "1/2"], ["1/2", "1/2"]]
    assert obj["exact_objective"] == "1" and obj["selected_sets"] == [[0, 1]] and obj["w_fin"] is None
    assert [0, 0, 1, "eq+"] in obj["support_rows"] and [0, 0, 2, "ge"] in obj["support_rows"]


def test_gen_svm_two_sequences(tmp_path, capsys):
    path = _file(tmp_path, GEN2)
    obj = _json(["--data", path, "--kind", "gen", "--select", "0,1; 0"], capsys)
    assert obj["exact_solution"] == [["0", "1"], ["1", "0"]] and obj["exact_objective"] == "sqrt(2)"
    assert obj["selected_sets"] == [[0, 1], [0]]
    code, text, _ = _svm(["--data", path, "--kind", "gen", "--select", "1,0;0"], capsys)  # order inside a set is free
    assert code == 0 and "selected sets 𝒪_i = [[0, 1], [0]]" in text and "[[0, 1], [1, 0]]   (exact)" in text


def test_gen_w_fin(tmp_path, capsys):
    """W^fin: (x_0 − x_1)ᵀW z = log(s⋆_0/s⋆_1) = log 2 with the row vec((1, −1)(1, 1)ᵀ) = (1, 1, −1, −1) of norm² 4:
    the minimum-norm solution is (log 2/4)·[[1, 1], [−1, −1]], ‖W^fin‖_F = log 2/2."""
    obj = _json(["--data", _file(tmp_path, GEN1), "--kind", "gen", "--select", "0,1", "--s-star", "2,1"], capsys)
    fin = obj["w_fin"]
    q = math.log(2) / 4
    want = [[q, q], [-q, -q]]
    for row, wrow in zip(fin["W"], want):
        for x, w in zip(row, wrow):
            assert abs(float(x) - w) < 1e-15
    with mpmath.workdps(60):
        assert abs(mpmath.mpf(fin["W"][0][0]) - mpmath.log(2) / 4) < mpmath.mpf(10) ** -45
        assert abs(mpmath.mpf(fin["norm"]) - mpmath.log(2) / 2) < mpmath.mpf(10) ** -45
    assert fin["consistent"] is True and fin["rank"] == 1
    # the weights follow the order of --select: "1,0" with "1,2" is the same s⋆ (s⋆_0 = 2, s⋆_1 = 1)
    again = _json(["--data", _file(tmp_path, GEN1), "--kind", "gen", "--select", "1,0", "--s-star", "1,2"], capsys)
    assert again["w_fin"]["W"] == fin["W"]


@pytest.mark.parametrize("argv, words", [
    (["--kind", "gen"], "needs the selected sets"),
    (["--kind", "gen", "--select", "opt"], "needs the selected sets"),
    (["--kind", "gen", "--select", "0,1;2"], "n = 1"),
    (["--kind", "gen", "--select", "0,x"], "not a token index"),
    (["--kind", "gen", "--select", "0,-1"], "not a token index"),
    (["--kind", "gen", "--select", "0,3"], "outside 0..2"),
    (["--kind", "gen", "--select", "0,0"], "twice"),
    (["--kind", "gen", "--select", " "], "empty"),
    (["--kind", "gen", "--select", "0,1,2"], "all of the T = 3"),
    (["--kind", "gen", "--select", "0,1", "--s-star", "1"], "--s-star row 0 has 1"),
    (["--kind", "gen", "--select", "0,1", "--s-star", "1,0"], "positive"),
    (["--kind", "gen", "--select", "0,1", "--s-star", "1,-2"], "positive"),
    (["--kind", "gen", "--select", "0,1", "--s-star", "1,abc"], "--s-star"),
    (["--kind", "gen", "--select", "0,1", "--s-star", "1,2;1"], "2 row(s)"),
    (["--kind", "W", "--s-star", "1,2"], "--kind gen only"),
    (["--kind", "genx", "--select", "0,1"], "unknown SVM kind"),
])
def test_gen_bad_input_exit_2_one_line(tmp_path, capsys, argv, words):
    code, out, err = _svm(["--data", _file(tmp_path, GEN1)] + argv, capsys)
    line = one_line(err)
    assert code == 2 and out == "" and words in line, line


def test_gen_bad_data_exit_5(tmp_path, capsys):
    path = _file(tmp_path, {"X": [[[1, 0], [0, 1], [0, 0]]], "Y": [1], "v": [1, 1], "z": [[1, "x"]]})
    code, out, err = _svm(["--data", path, "--kind", "gen", "--select", "0,1"], capsys)
    assert code == 5 and out == "" and one_line(err).startswith("verify: error:")
