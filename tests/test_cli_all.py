"""`verify all --jobs N`: worker processes give the serial run's output, in the same order. In-process runs
(``main(argv)``); `verify all --jobs 2` as a real process: tests/test_interrupt.py."""
import json

import pytest
from cli_helpers import comparable

#: a quick slice of irgf (several datasets per claim, exact and ball items, one VIOLATED-free mix): the whole paper
#: takes minutes, and what is tested — the workers' output equals the serial run's, in the registry's order — does
#: not depend on how many claims run
SLICE = "irgf.hyp.diagsep,irgf.prop.lift,irgf.asm4,irgf.asm2,irgf.prop.diag-l1,irgf.rem.asm3,irgf.asm1"


def test_parallel_run_equals_the_serial_one(verify, tmp_path):
    code1, out1, _ = verify("all", "--paper", "irgf", "--claims", SLICE, "--jobs", "1", "--json", "--precision", "20")
    code2, out2, _ = verify("all", "--paper", "irgf", "--claims", SLICE, "--jobs", "2", "--json", "--precision", "20",
                            "--report", str(tmp_path / "rep"))
    assert code1 == code2
    one, two = json.loads(out1), json.loads(out2)
    assert [v["claim"] for v in one] == [v["claim"] for v in two]  # the registry's order
    assert len(one) == len(SLICE.split(",")) and [v["claim"] for v in one] != SLICE.split(",")  # not the flag's
    assert comparable(one) == comparable(two)
    index = json.loads((tmp_path / "rep" / "index.json").read_text())
    assert index["complete"] is True and index["interrupted"] is None and index["not_run"] == []
    assert [v["claim"] for v in index["verdicts"]] == [v["claim"] for v in one]
    assert all((tmp_path / "rep" / f"{v['claim']}.md").exists() for v in index["verdicts"])
    assert "PARTIAL" not in (tmp_path / "rep" / "index.md").read_text()
    # one page per paper run (irgf only here), linked from the index, its table in the index's order
    page = (tmp_path / "rep" / "irgf.md").read_text()
    assert not (tmp_path / "rep" / "mmts.md").exists() and "(irgf.md)" in (tmp_path / "rep" / "index.md").read_text()
    rows = [line.split("[`")[1].split("`]")[0] for line in page.split("## Findings")[0].splitlines() if "[`" in line]
    assert rows == [v["claim"] for v in one]


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
def test_bad_jobs_is_a_usage_error(verify, jobs):
    code, out, err = verify("all", "--jobs", jobs)
    assert code == 2 and err.count("\n") == 1 and "--jobs" in err and "Traceback" not in err


@pytest.mark.parametrize("args,needle", [(("--claims", "irgf.nope"), "nope"),
                                         (("--paper", "mmts", "--claims", "irgf.asm1"), "not a claim of --paper"),
                                         (("--claims", ","), "--claims")])
def test_bad_claims_are_a_usage_error(verify, args, needle):
    code, out, err = verify("all", *args)
    assert code == 2 and err.count("\n") == 1 and needle in err and "Traceback" not in err
