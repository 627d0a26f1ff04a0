"""A claim's report stands alone (issue 27 §1): it carries the datasets exactly as used (with their SHA-256) and the
run's provenance, and ``python -m verify replay REPORT.json`` re-runs the claim from it and agrees — also when the
dataset file the run was given is gone; a report whose recorded figures were altered disagrees, naming the first
difference; a dataset altered after the run (its SHA-256 no longer matches), a missing dataset file, a file that is
not a report: one line, exit 5."""
from __future__ import annotations

import hashlib
import json
import shutil

import pytest

from tests.cli_helpers import one_line, run
from verify.report import provenance

CLAIM = "mmts.lemma3"
DATA = {"X": [[["-0.1", 1, 1], [1, 0, "0.9"], [0, 0, "0.9"]]], "Y": [1], "v": [0, 0, 1],
        "K": [[["-0.1", 1, 0], [1, 0, 0], [0, 0, 0]]]}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """One report of mmts.lemma3 on a dataset file that is deleted afterwards (the report must not need it)."""
    folder = tmp_path_factory.mktemp("report")
    data = folder.parent / "given.json"
    data.write_text(json.dumps(DATA))
    from verify.cli.main import main

    code = main([CLAIM, "--data", str(data), "--precision", "30", "--report", str(folder / "out")])
    assert code == 0
    data.unlink()
    return folder / "out"


def _copy(report, tmp_path):
    dest = tmp_path / "copy"
    shutil.copytree(report, dest)
    return dest, json.loads((dest / f"{CLAIM}.json").read_text())


def test_the_report_carries_the_dataset_and_the_provenance(report):
    js = json.loads((report / f"{CLAIM}.json").read_text())
    (entry,) = js["inputs"]
    canonical = json.dumps(DATA, sort_keys=True, separators=(",", ":"))
    assert entry["dataset"] == DATA and entry["sha256"] == hashlib.sha256(canonical.encode()).hexdigest()
    p = js["provenance"]
    assert p["precision"] == 30 and p["recheck_precision"] > 30 and p["options"] == {"prove": False}
    assert p["command"].startswith(f"python -m verify {CLAIM} --data ") and p["command"].endswith("--report " +
                                                                                                   str(report))
    assert p["libraries"]["python-flint"] and p["libraries"]["mpmath"] and p["toolkit"]["version"]
    assert p["git"] is None or len(p["git"]["commit"]) == 40
    page = (report / f"{CLAIM}.md").read_text()
    assert "## Datasets as used" in page and entry["sha256"] in page and "## Provenance" in page
    assert f"python -m verify replay {CLAIM}.json" in page


def test_replay_agrees_from_the_report_alone(report, capsys):
    code, out, err = run(["replay", str(report / f"{CLAIM}.json")], capsys)
    assert code == 0, out + err
    assert out.startswith(f"replay {CLAIM}: AGREES — HOLDS")


def test_an_altered_figure_makes_the_replay_disagree(report, tmp_path, capsys):
    dest, js = _copy(report, tmp_path)
    k = next(i for i, e in enumerate(js["evidence"]) if e["value"] not in (None, ""))
    js["evidence"][k]["value"] = "0.12345"
    (dest / f"{CLAIM}.json").write_text(json.dumps(js))
    code, out, _ = run(["replay", str(dest / f"{CLAIM}.json")], capsys)
    assert code == 1 and out.startswith(f"replay {CLAIM}: DISAGREES — first difference: evidence[{k}] ")
    assert "'0.12345' in the report" in out


def test_a_consistently_altered_dataset_replays_to_different_figures(report, tmp_path, capsys):
    """Another dataset with its hash updated (a report edited by hand): the replay runs it and disagrees."""
    dest, js = _copy(report, tmp_path)
    other = json.loads(json.dumps(DATA))
    other["X"][0][1][2] = "0.95"  # token 2's score moves
    js["inputs"][0] = {"name": js["inputs"][0]["name"], "sha256": provenance.sha256(other), "dataset": other}
    (dest / f"{CLAIM}.json").write_text(json.dumps(js))
    code, out, _ = run(["replay", str(dest / f"{CLAIM}.json")], capsys)
    assert code == 1 and "DISAGREES" in out


def test_a_dataset_altered_after_the_run_is_refused(report, tmp_path, capsys):
    dest, js = _copy(report, tmp_path)
    js["inputs"][0]["dataset"]["Y"] = [-1]
    (dest / f"{CLAIM}.json").write_text(json.dumps(js))
    code, out, err = run(["replay", str(dest / f"{CLAIM}.json")], capsys)
    assert code == 5 and "does not match its SHA-256" in one_line(err)


def test_a_large_dataset_is_written_beside_the_report_and_read_back(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(provenance, "INLINE_LIMIT", 10)
    data = tmp_path / "d.json"
    data.write_text(json.dumps(DATA))
    code, _, _ = run([CLAIM, "--data", str(data), "--precision", "20", "--report", str(tmp_path / "r")], capsys)
    assert code == 0
    js = json.loads((tmp_path / "r" / f"{CLAIM}.json").read_text())
    (entry,) = js["inputs"]
    assert "dataset" not in entry and entry["file"] == f"datasets/{CLAIM}-d.json.json"  # the dataset is named d.json
    assert json.loads((tmp_path / "r" / entry["file"]).read_text()) == DATA
    code, out, _ = run(["replay", str(tmp_path / "r" / f"{CLAIM}.json")], capsys)
    assert code == 0 and "AGREES" in out
    (tmp_path / "r" / entry["file"]).unlink()
    code, _, err = run(["replay", str(tmp_path / "r" / f"{CLAIM}.json")], capsys)
    assert code == 5 and "cannot read" in one_line(err)


@pytest.mark.parametrize("content, words", [
    ({"verdict": "HOLDS"}, "not a claim report"),
    ({"claim": CLAIM, "precision": 30, "evidence": []}, "carries no datasets or provenance"),
    ("not json", "claim report"),
])
def test_what_is_not_a_report_is_one_line_exit_5(tmp_path, capsys, content, words):
    path = tmp_path / "r.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    code, _, err = run(["replay", str(path)], capsys)
    assert code == 5 and words in one_line(err)
