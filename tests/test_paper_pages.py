"""One page per paper (issue 27 §2): ``verify report --paper P --report DIR`` writes DIR/<paper>.md from the claims'
report JSON alone — the verdict table in the registry's order, the findings with their witness and replay command,
the hypotheses the paper leaves out, the experiments (a departure table where an experiment's JSON is there) — and
refuses what it cannot do in one line."""
from __future__ import annotations

import json

import pytest

from tests.cli_helpers import one_line, run


def _report(claim, number, verdict, certainty=None, reasons=(), paper="tfsvm", title="t", rng=None):
    return {"claim": claim, "paper": paper, "number": number, "title": title, "verdict": verdict,
            "certainty": certainty, "range": rng, "reasons": list(reasons), "dataset": "D-X", "seconds": 1.25}


@pytest.fixture
def folder(tmp_path):
    reports = [
        _report("tfsvm.lemma4", "Lemma 4", "VIOLATED", "certified", ["D-X: fails: a | witness at K = 100"],
                title="Lipschitz gradients"),
        _report("tfsvm.lemma1", "Lemma 1", "HOLDS", "certified", rng="every α ∈ [T]ⁿ (4)", title="row space"),
        _report("tfsvm.thm1", "Theorem 1", "NOT_APPLICABLE", None, ["hypothesis not met: Assumption B"]),
        _report("irgf.hyp.diagsep", "hidden hypothesis (§4)", "VIOLATED", "certified", ["D-DIAGINF: fails: feasible"],
                paper="irgf"),
    ]
    reports[0].update(dataset="D-A, D-X", datasets=[{"name": "D-A", "verdict": "HOLDS"},
                                                    {"name": "D-X", "verdict": "VIOLATED"}])
    for js in reports:
        (tmp_path / f"{js['claim']}.json").write_text(json.dumps(js))
    (tmp_path / "index.json").write_text(json.dumps({"verdicts": []}))  # not a claim report: skipped
    exp = {"precision": 40, "curves": [{"label": "start 1", "baselines": {
        "float64": {"departure_step": 120, "relative_error_at_departure": "0.0011", "stall_step": 400},
        "float32": {"departure_step": None, "relative_error_at_departure": None, "stall_step": None}}}]}
    (tmp_path / "experiment-tfsvm.fig-visualization-W.json").write_text(json.dumps(exp))
    return tmp_path


def test_the_paper_page_from_saved_reports(folder, capsys):
    code, out, _ = run(["report", "--paper", "tfsvm", "--report", str(folder)], capsys)
    assert code == 0 and out.strip() == str(folder / "tfsvm.md") and not (folder / "irgf.md").exists()
    page = (folder / "tfsvm.md").read_text()
    assert page.startswith("# Transformers as Support Vector Machines (`tfsvm`)")
    assert "3 claims checked: HOLDS 1, NOT_APPLICABLE 1, VIOLATED 1." in page
    table = page.split("## Findings")[0]
    assert table.index("`tfsvm.lemma1`") < table.index("`tfsvm.lemma4`") < table.index("`tfsvm.thm1`")  # registry order
    assert "| Lemma 1 | [`tfsvm.lemma1`](tfsvm.lemma1.md) | row space | **HOLDS (certified)** | every α ∈ [T]ⁿ (4) | 1 |" \
        in table
    findings = page.split("## Findings")[1].split("## Hypotheses")[0]
    assert "`tfsvm.lemma4`" in findings and "`tfsvm.lemma1`" not in findings
    assert "VIOLATED (certified) on D-X." in findings and "D-A" not in findings  # the witness datasets only
    assert "witness: D-X: fails: a \\| witness at K = 100" in findings  # a | inside a table-free line is escaped
    assert "replay: `python -m verify replay tfsvm.lemma4.json`" in findings
    omitted = page.split("## Hypotheses the paper leaves out")[1].split("## Experiments")[0]
    assert "`tfsvm.thm1`" in omitted and "Assumption B" in omitted
    exps = page.split("## Experiments replayed")[1]
    assert "| start 1 | float64 | 120 | 0.0011 | 400 |" in exps and "| start 1 | float32 | never | — | — |" in exps
    assert "`tfsvm.fig-visualization-KQ`" in exps and "not run here" in exps


def test_every_paper_with_a_report_and_the_hidden_hypothesis(folder, capsys):
    code, out, _ = run(["report", "--report", str(folder)], capsys)
    assert code == 0 and sorted(out.split()) == sorted([str(folder / "tfsvm.md"), str(folder / "irgf.md")])
    page = (folder / "irgf.md").read_text()
    assert "1 claim checked: VIOLATED 1." in page
    assert "## Hypotheses the paper leaves out\n\n- [`irgf.hyp.diagsep`]" in page


@pytest.mark.parametrize("argv, code, words", [
    (["report", "--paper", "tfsvm"], 2, "give --report DIR"),
    (["report", "--paper", "nope", "--report", "."], 2, "unknown paper"),
])
def test_usage_errors(argv, code, words, capsys):
    got, _, err = run(argv, capsys)
    assert got == code and words in one_line(err)


def test_a_folder_without_reports_is_bad_data(tmp_path, capsys):
    code, _, err = run(["report", "--report", str(tmp_path)], capsys)
    assert code == 5 and "no claim report" in one_line(err)
