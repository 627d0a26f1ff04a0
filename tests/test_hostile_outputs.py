"""The output layer (issue 14): destinations checked before the work starts, files atomic and with the
umask's permissions, a closed stdout one line with the result's exit code kept."""
import io
import json
import os
import subprocess
import sys

import pytest
from cli_helpers import one_line, run

from verify.cli.main import main
from verify.data.outputs import check_file, check_folder, write_atomic
from verify.errors import DestinationError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def read_only(tmp_path):
    """A folder nobody can write into: permission bits for a normal user; root ignores them, so
    then a read-only system folder (/sys) when there is one."""
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        yield str(ro)
        ro.chmod(0o755)
        return
    for candidate in ("/sys", "/proc/sys"):
        if os.path.isdir(candidate) and not _writable(candidate):
            yield candidate
            return
    pytest.skip("no read-only place available to root here")


def _writable(folder) -> bool:
    try:
        check_folder(folder, "--x", create=False)
        return True
    except DestinationError:
        return False


# ----- class: destinations checked before the work --------------------------------------------------
def test_report_into_a_read_only_place(read_only, data, capsys, no_work):
    code, _out, err = run(["mmts.lemma3", "--data", data, "--report", os.path.join(read_only, "rep")], capsys)
    assert code == 2 and "cannot" in one_line(err)


def test_report_on_a_path_that_is_a_file(data, capsys, no_work):
    code, _out, err = run(["mmts.lemma3", "--data", data, "--report", data], capsys)
    assert code == 2 and "is a file" in one_line(err)


def test_report_whose_figures_is_a_file(tmp_path, data, capsys, no_work):
    rep = tmp_path / "rep"
    rep.mkdir()
    (rep / "figures").write_text("not a folder")
    for argv in (["mmts.lemma3", "--data", data], ["all", "--paper", "mmts"]):
        code, _out, err = run(argv + ["--report", str(rep)], capsys)
        assert code == 2 and "figures" in one_line(err)


@pytest.mark.parametrize("where", ["folder", "read-only", "under a file"])
def test_flow_save_destination_is_checked_before_the_run(where, tmp_path, data, read_only, capsys, no_work):
    """``flow --save /readonly/t.json`` used to fail after the whole run, losing it."""
    save = {"folder": str(tmp_path), "read-only": os.path.join(read_only, "t.json"),
            "under a file": os.path.join(data, "t.json")}[where]
    code, _out, err = run(["flow", "--data", data, "--until-norm", "2", "--save", save], capsys)
    assert code == 2 and "--save" in one_line(err)


def test_hunt_out_is_checked_before_the_search(data, capsys, no_work):
    code, _out, err = run(["hunt", "mmts.lemma3", "--budget", "1", "--out", data], capsys)
    assert code == 2 and "is a file" in one_line(err)


def test_checks_create_nothing_when_asked_not_to(tmp_path):
    target = tmp_path / "a" / "b" / "t.json"
    assert check_file(str(target), "--save") == str(target)
    assert not (tmp_path / "a").exists()
    assert check_folder(str(tmp_path / "rep"), "--report", ("figures",))
    assert (tmp_path / "rep" / "figures").is_dir() and not os.listdir(tmp_path / "rep" / "figures")


# ----- class: files written with the umask's permissions, atomically ---------------------------------
@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600), (0o002, 0o664)])
def test_written_files_follow_the_umask(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        path = tmp_path / "f.txt"
        write_atomic(str(path), "x")
        assert (os.stat(path).st_mode & 0o777) == mode  # mkstemp alone gave 0600 whatever the umask
        assert [f.name for f in tmp_path.iterdir()] == ["f.txt"]  # no temporary file left
    finally:
        os.umask(old)


def test_reports_and_trajectories_are_readable_by_others(tmp_path, data, capsys):
    old = os.umask(0o022)
    try:
        rep = tmp_path / "rep"
        assert run(["mmts.lemma3", "--data", data, "--precision", "20", "--report", str(rep)], capsys)[0] == 0
        traj = tmp_path / "t.json"
        assert run(["flow", "--data", data, "--until-norm", "2", "--precision", "15", "--no-svm",
                    "--save", str(traj)], capsys)[0] == 0
    finally:
        os.umask(old)
    files = [os.path.join(d, f) for d, _, fs in os.walk(rep) for f in fs] + [str(traj)]
    assert files and all(os.stat(f).st_mode & 0o777 == 0o644 for f in files)


def test_a_write_that_fails_midway_is_one_line_and_leaves_no_temporary(tmp_path, monkeypatch):
    def full(*a):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(DestinationError, match="No space left"):
        write_atomic(str(tmp_path / "f.txt"), "x")
    assert not list(tmp_path.iterdir())


# ----- class: a closed stdout -------------------------------------------------------------------------
class _ClosedPipe(io.StringIO):
    def write(self, text):
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self):
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("argv,code", [(["mmts.lemma3", "--precision", "20", "--json"], 0), (["list"], 0)])
def test_broken_stdout_keeps_the_result_exit_code(argv, code, data, monkeypatch, capsys):
    """The reader went away (``| head``): quiet, as Python tools conventionally are (issue 22), and
    the exit code is the result's."""
    if "--json" in argv:
        argv = argv + ["--data", data]
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main(argv) == code
    assert capsys.readouterr().err == ""


def test_broken_stdout_keeps_a_no_answer_code_too(tmp_path, monkeypatch, capsys):
    """A flow whose integrator stalls (keys of size 10³⁰: no step size works) prints its JSON and
    exits 3; with stdout closed it still exits 3, and says there is no answer (nothing about the pipe)."""
    path = tmp_path / "k.json"
    path.write_text(json.dumps({"X": [[[1, 1, 1], [1, 0, "0.9"], [0, 0, "0.9"]]], "Y": [1], "v": [0, 0, 1],
                                "K": [[["1e30", 1, 0], [1, 0, 0], [0, 0, 0]]]}))
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main(["flow", "--data", str(path), "--until-norm", "5", "--precision", "15", "--json"]) == 3
    err = capsys.readouterr().err
    assert "no answer" in one_line(err) and "broken pipe" not in err and "Traceback" not in err


def test_broken_pipe_in_a_real_pipeline(data):
    """``verify flow … --json | head -c 1``: head exits after one byte; verify keeps its exit code and
    exits quietly (no 'Exception ignored' from Python's final flush, no line about the pipe)."""
    script = (f"{sys.executable} -m verify flow --data {data} --until-norm 2 --precision 15 --no-svm --json "
              "| head -c 1 >/dev/null; echo rc=${PIPESTATUS[0]} >&2")
    env = dict(os.environ, PYTHONUNBUFFERED="1")  # every write reaches the pipe: the break is certain
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120, env=env,
                       check=False)
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert lines == ["rc=0"], r.stderr
