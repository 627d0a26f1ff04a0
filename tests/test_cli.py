"""The CLI contract: exit codes and one-line errors for every kind of bad input (docs/contract.md). Run in-process
(``main(argv)``, what ``python -m verify`` exits with); one case goes through a real ``python -m verify`` process."""
import json
import os
import subprocess
import sys

import pytest
from cli_helpers import GOOD

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write(tmp_path, obj, name="d.json"):
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return str(path)


def assert_one_line_error(err):
    lines = [l for l in err.strip().splitlines() if l.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert lines[0].startswith("verify: error:")


BAD_DATA = {
    "missing file": None,
    "not JSON": "{not json",
    "ragged X": {"X": [[[1, 0], [0]]], "Y": [1], "v": [1, 0]},
    "NaN number": '{"X": [[[NaN, 0], [0, 1]]], "Y": [1], "v": [1, 0]}',
    "inf number": '{"X": [[[Infinity, 0], [0, 1]]], "Y": [1], "v": [1, 0]}',
    "NaN string": {"X": [[["nan", 0], [0, 1]]], "Y": [1], "v": [1, 0]},
    "inf string": {"X": [[["-inf", 0], [0, 1]]], "Y": [1], "v": [1, 0]},
    "label not ±1": {"X": [[[1, 0], [0, 1]]], "Y": [0], "v": [1, 0]},
    "Y length": {"X": [[[1, 0], [0, 1]]], "Y": [1, -1], "v": [1, 0]},
    "v length": {"X": [[[1, 0], [0, 1]]], "Y": [1], "v": [1, 0, 0]},
    "K shape": {"X": [[[1, 0], [0, 1]]], "Y": [1], "v": [1, 0], "K": [[[1, 0]]]},
    "z shape": {"X": [[[1, 0], [0, 1]]], "Y": [1], "v": [1, 0], "z": [[1, 0, 0]]},
    "T < 2": {"X": [[[1, 0]]], "Y": [1], "v": [1, 0]},
    "n = 0": {"X": [], "Y": [], "v": [1, 0]},
    "non-numeric string": {"X": [[["abc", 0], [0, 1]]], "Y": [1], "v": [1, 0]},
    "unknown key": {"X": [[[1, 0], [0, 1]]], "Y": [1], "v": [1, 0], "W": [1]},
    "ragged sequences": {"X": [[[1, 0], [0, 1]], [[1, 0]]], "Y": [1, 1], "v": [1, 0]},
}


@pytest.mark.parametrize("case", sorted(BAD_DATA))
def test_bad_data_exits_5_with_one_line(verify, tmp_path, case):
    obj = BAD_DATA[case]
    path = str(tmp_path / "missing.json") if obj is None else write(tmp_path, obj)
    code, out, err = verify("mmts.lemma3", "--data", path)
    assert code == 5, (case, code, err)
    assert_one_line_error(err)


def test_bad_data_exits_5_from_a_real_process(tmp_path):
    """The same contract through ``python -m verify`` (the process's exit status, its stderr)."""
    path = write(tmp_path, BAD_DATA["ragged X"])
    proc = subprocess.run([sys.executable, "-m", "verify", "mmts.lemma3", "--data", path], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 5, proc.stderr
    assert_one_line_error(proc.stderr)


@pytest.mark.parametrize("precision", ["14", "10001", "abc", "50.5", "-3", ""])
def test_bad_precision_exits_2(verify, tmp_path, precision):
    code, _, err = verify("mmts.lemma3", "--precision", precision, "--data", write(tmp_path, GOOD))
    assert code == 2
    assert_one_line_error(err)


def test_unknown_claim_suggests_and_exits_2(verify):
    code, _, err = verify("mmts.lema3")
    assert code == 2
    assert_one_line_error(err)
    assert "mmts.lemma3" in err


def test_unknown_flag_exits_2(verify):
    code, _, err = verify("mmts.lemma3", "--bogus")
    assert code == 2
    assert_one_line_error(err)


def test_bare_id_resolves_to_mmts_and_says_so(verify, tmp_path):
    code, out, err = verify("lemma3", "--data", write(tmp_path, GOOD), "--precision", "20")
    assert code == 0, err
    assert "resolved to mmts.lemma3" in err


def test_list_json_fields(verify):
    code, out, _ = verify("list", "--json")
    assert code == 0
    items = json.loads(out)
    assert items and {"id", "paper", "number", "title", "kind", "aliases"} <= set(items[0])
    assert any(i["id"] == "mmts.lemma3" and "key-lemma" in i["aliases"] for i in items)


def test_claim_json_has_the_contract_fields(verify, tmp_path):
    code, out, _ = verify("mmts.lemma3", "--data", write(tmp_path, GOOD), "--json", "--precision", "20")
    assert code == 0
    v = json.loads(out)
    assert {"claim", "paper", "number", "title", "kind", "verdict", "precision", "stable_digits", "hypotheses",
            "evidence", "dataset", "seconds"} <= set(v)
    assert v["verdict"] == "HOLDS" and v["precision"] == 20
    ev = v["evidence"][0]
    assert {"quantity", "value", "relation", "bound", "margin", "stable_digits"} <= set(ev)
    assert isinstance(ev["value"], str)


def test_alias_resolves(verify, tmp_path):
    code, _, err = verify("key-lemma", "--data", write(tmp_path, GOOD), "--precision", "20")
    assert code == 0
    assert "alias 'key-lemma' resolved to mmts.lemma3" in err


def test_report_files_written(verify, tmp_path):
    rep = tmp_path / "rep"
    code, _, _ = verify("mmts.lemma3", "--data", write(tmp_path, GOOD), "--precision", "20", "--report", str(rep))
    assert code == 0
    assert (rep / "mmts.lemma3.md").exists() and (rep / "mmts.lemma3.json").exists()
    md = (rep / "mmts.lemma3.md").read_text()
    assert "## Reproduce" in md and "python -m verify mmts.lemma3 --precision 20 --data" in md


def test_figure_with_an_empty_series_renders(tmp_path):
    from verify.claims import Figure, Series
    from verify.report.markdown import render_figure

    fig = Figure("f", "t", "x", "y", [Series("empty", [1, 2], [None, None]), Series("ok", [1, 2], [1, 4])], logy=True)
    render_figure(fig, str(tmp_path / "f.png"))
    assert (tmp_path / "f.png").stat().st_size > 0
