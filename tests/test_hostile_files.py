"""Inputs and destinations (issue 22): every input file is opened by one function (inputs.open_input)
that refuses what is not a regular file and what is over the size limit, before reading anything;
report folders that are broken symbolic links, or that another run is writing, are one-line errors;
a search that searched nothing says so."""
import json
import os
import socket
import subprocess
import sys
import time

import pytest
from cli_helpers import GOOD, one_line, run

from verify.data import inputs
from verify.data.outputs import LOCK_NAME, lock_folder
from verify.errors import DataError, DestinationError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _fifo(tmp_path):
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return str(path)


def _socket(tmp_path):
    path = str(tmp_path / "sock.json")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(path)
    return path, sock


# ----- class: inputs that are not regular files ---------------------------------------------------
@pytest.mark.parametrize("flag", ["--data", "--resume", "--init"])
def test_a_fifo_is_refused_at_once_not_waited_on(flag, tmp_path, data):
    """``--data FIFO`` waited forever for a writer. A subprocess with a deadline: a regression hangs
    the test no longer than the timeout."""
    fifo = _fifo(tmp_path)
    argv = {"--data": ["mmts.lemma3", "--data", fifo],
            "--resume": ["flow", "--resume", fifo, "--until-norm", "2"],
            "--init": ["flow", "--data", data, "--init", fifo, "--until-norm", "2"]}[flag]
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "verify", *argv], capture_output=True, text=True, cwd=ROOT,
                       timeout=60, check=False)
    assert r.returncode == 5 and r.stdout == "" and time.monotonic() - t0 < 30
    assert one_line(r.stderr) == f"verify: error: {flag} {fifo}: is a FIFO (named pipe), not a regular " \
        f"{ {'--data': 'dataset file', '--resume': 'trajectory file', '--init': '--init file'}[flag]} " \
        "(inputs are read from regular files only)"


@pytest.mark.parametrize("kind", ["character device", "socket", "directory"])
def test_other_non_regular_inputs(kind, tmp_path, capsys, no_work):
    sock = None
    if kind == "character device":
        path = "/dev/zero"  # reading it never ends
        if not os.path.exists(path):
            pytest.skip("no /dev/zero")
    elif kind == "socket":
        path, sock = _socket(tmp_path)
    else:
        path = str(tmp_path)
    try:
        for argv in (["mmts.lemma3", "--data", path], ["svm", "--data", path, "--kind", "p"]):
            code, out, err = run(argv, capsys)
            assert code == 5 and out == "" and f"--data {path}: is a {kind}" in one_line(err)
    finally:
        if sock is not None:
            sock.close()


def test_a_symbolic_link_to_a_regular_file_is_read(tmp_path, data):
    link = tmp_path / "link.json"
    link.symlink_to(data)
    assert json.loads(inputs.read_text(str(link))) == GOOD


# ----- class: inputs over the size limit -----------------------------------------------------------
def test_an_oversized_dataset_is_refused_before_reading(tmp_path, monkeypatch, capsys, no_work):
    """A 52 MB dataset ran for minutes into 13.5 GB: refused with its size and the limit, nothing read."""
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:  # a sparse file: 5 MiB that costs no disk and no time to make
        fh.truncate(5 * 2**20)

    def no_read(*a):
        raise AssertionError("the file was read")

    monkeypatch.setattr(os, "read", no_read)
    code, out, err = run(["mmts.lemma3", "--data", str(big)], capsys)
    assert code == 5 and out == ""
    assert one_line(err) == (f"verify: error: --data {big}: the dataset file is 5.0 MiB, over the limit of 4.0 MiB "
                             "(docs/contract.md, input limits)")


def test_the_limit_is_exact_and_applies_to_every_input(tmp_path, monkeypatch):
    text = json.dumps(GOOD)
    path = tmp_path / "d.json"
    path.write_text(text)
    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", len(text))
    assert inputs.read_text(str(path)) == text  # exactly at the limit: read
    path.write_text(text + " ")
    with pytest.raises(DataError, match=f"is {len(text) + 1} bytes, over the limit of {len(text)} bytes"):
        inputs.read_text(str(path), "dataset file")
    with pytest.raises(DataError, match="over the limit"):
        inputs.read_json(str(path), "trajectory file", "--resume")
    with pytest.raises(DataError, match="over the limit"):  # a saved trajectory has its own, larger limit
        inputs.read_json(str(path), "trajectory file", "--resume", limit=len(text))


def test_not_utf8_is_a_data_error(tmp_path):
    path = tmp_path / "latin.json"
    path.write_bytes(b'{"X": "\xe9"}')
    with pytest.raises(DataError, match="not UTF-8 text"):
        inputs.read_text(str(path))


# ----- class: report folders that are broken symbolic links ----------------------------------------
@pytest.mark.parametrize("kind", ["dangling", "self-loop", "dangling parent"])
def test_broken_symlink_report_folders(kind, tmp_path, data, capsys, no_work):
    """They said 'File exists'."""
    link = tmp_path / "rep"
    link.symlink_to(tmp_path / "nowhere" if kind != "self-loop" else link)
    target = link / "sub" if kind == "dangling parent" else link
    for argv in (["mmts.lemma3", "--data", data, "--report", str(target)],
                 ["hunt", "mmts.lemma3", "--budget", "1", "--out", str(target)],
                 ["flow", "--data", data, "--until-norm", "2", "--save", str(target / "t.json")]):
        code, out, err = run(argv, capsys)
        line = one_line(err)
        assert code == 2 and out == ""
        assert f"{link} is a symbolic link to" in line and "does not exist or loops back on itself" in line
        assert "File exists" not in line


# ----- class: two writers of one report folder ------------------------------------------------------
def test_a_second_writer_is_refused_and_the_lock_ends_with_the_run(tmp_path, data, capsys):
    import fcntl

    rep = tmp_path / "rep"
    rep.mkdir()
    held = os.open(rep / LOCK_NAME, os.O_RDWR | os.O_CREAT)  # another run holds the folder (flock locks are
    fcntl.flock(held, fcntl.LOCK_EX)  # per open file: this conflicts with the CLI's own open, same process or not)
    os.write(held, str(os.getpid()).encode())
    try:
        for argv in (["mmts.lemma3", "--data", data, "--precision", "20"], ["all", "--paper", "mmts"]):
            code, out, err = run(argv + ["--report", str(rep)], capsys)
            assert code == 2 and out == ""
            assert one_line(err) == (f"verify: error: --report {rep}: another verify run (pid {os.getpid()}) is "
                                     "writing reports into this folder; wait for it to finish or choose another folder")
        assert not (rep / "index.md").exists() and not (rep / "mmts.lemma3.md").exists()
    finally:
        os.close(held)
    for _ in range(2):  # released: two runs one after the other both write (each releases at its end)
        code, _out, err = run(["mmts.lemma3", "--data", data, "--precision", "20", "--report", str(rep)], capsys)
        assert code == 0, err
    assert (rep / "mmts.lemma3.md").exists() and (rep / LOCK_NAME).exists()
    probe = os.open(rep / LOCK_NAME, os.O_RDWR)
    try:
        fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)  # raises if a finished run still held the folder
    finally:
        os.close(probe)


def test_overlapping_runs_in_two_processes(tmp_path, data):
    """The issue's case: two runs on one folder at the same time; the one that comes second is refused
    while the first holds the folder (whose page is then the first run's)."""
    rep = tmp_path / "rep"
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from verify.data.outputs import check_folder, lock_folder; "
        f"check_folder({str(rep)!r}, '--report'); lock_folder({str(rep)!r}, '--report'); print('locked', flush=True); "
        "sys.stdin.read()")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert holder.stdout.readline().strip() == "locked"
        r = subprocess.run([sys.executable, "-m", "verify", "mmts.lemma3", "--data", data, "--report", str(rep)],
                           capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
        assert r.returncode == 2 and f"(pid {holder.pid})" in one_line(r.stderr)
    finally:
        holder.communicate("", timeout=30)
    r = subprocess.run([sys.executable, "-m", "verify", "mmts.lemma3", "--data", data, "--precision", "20", "--report",
                        str(rep)], capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert r.returncode == 0, r.stderr  # the holder exited: its lock went with it


def test_lock_errors_are_destination_errors(tmp_path):
    with pytest.raises(DestinationError, match="cannot create its lock file"):
        lock_folder(str(tmp_path / "missing"), "--report")


# ----- class: a search that searched nothing -------------------------------------------------------
@pytest.mark.parametrize("budget", ["1e-9", "0.000001"])
def test_a_budget_too_short_to_search_is_inconclusive(budget, tmp_path, capsys):
    """'no counterexample in 0 generated datasets', exit 0, used to read like evidence."""
    code, out, err = run(["hunt", "mmts.lemma3", "--budget", budget, "--out", str(tmp_path)], capsys)
    assert code == 3 and "nothing was searched" in out and "0 generated" not in out
    assert not os.listdir(tmp_path)
