"""Ctrl-C during `verify all --report`: exit 130, reports already written stay intact and parse."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigint_exits_130_and_keeps_reports(tmp_path, jobs):
    rep = tmp_path / "rep"
    proc = subprocess.Popen([sys.executable, "-m", "verify", "all", "--paper", "mmts", "--report", str(rep),
                             "--precision", "20", "--jobs", jobs], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and not (rep / "index.json").exists():
        time.sleep(0.2)
    assert (rep / "index.json").exists(), "no claim finished within 120 s"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    if proc.returncode == 0:  # every claim finished before the signal arrived: nothing to interrupt
        return
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    index = json.loads((rep / "index.json").read_text())
    assert index, "index lists the finished claims"
    for item in index:
        assert (rep / f"{item['claim']}.md").exists()
        json.loads((rep / f"{item['claim']}.json").read_text())
    assert not [f for f in os.listdir(rep) if f.startswith(".tmp-")], "no half-written temporary files left"
    if jobs != "1":  # the workers are gone with the parent
        time.sleep(1)
        alive = subprocess.run(["pgrep", "-f", "multiprocessing.forkserver|multiprocessing.spawn"],
                               capture_output=True, text=True).stdout.split()
        assert not [pid for pid in alive if _parent(pid) == proc.pid], "worker processes left running"


def _parent(pid: str) -> int:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except OSError:
        return -1


def _import_error_from_ctrl_c() -> ImportError:
    """What a C extension raises when Ctrl-C arrives while it is imported (seen with cvxpy's qdldl)."""
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as ki:
            raise ImportError("initialization failed") from ki
    except ImportError as exc:
        return exc


def test_ctrl_c_during_an_import_counts_as_an_interrupt():
    from verify.errors import interrupted

    assert interrupted(_import_error_from_ctrl_c())
    assert not interrupted(ImportError("no module named x"))
    assert not interrupted(ValueError("bad"))


def test_swallowing_handlers_let_ctrl_c_through():
    """Solver fallbacks swallow failures, but not an interrupt that surfaced as an ImportError."""
    from verify.errors import reraise_interrupt

    with pytest.raises(KeyboardInterrupt):
        reraise_interrupt(_import_error_from_ctrl_c())
    reraise_interrupt(ValueError("an ordinary failure passes"))


def test_a_swallowed_ctrl_c_still_stops_at_the_next_check():
    """Python drops KeyboardInterrupt raised inside a weakref callback ("Exception ignored in"); the
    latch remembers it, so `verify all` stops before the next claim instead of running to the end."""
    from verify.errors import SigintLatch

    before = signal.getsignal(signal.SIGINT)
    with SigintLatch() as latch:
        latch.check()  # nothing yet
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)
        except KeyboardInterrupt:
            pass  # swallowed
        with pytest.raises(KeyboardInterrupt):
            latch.check()
    assert signal.getsignal(signal.SIGINT) is before
