"""Ctrl-C during `verify all --report`: exit 130, reports already written stay intact and parse."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("jobs,sig,code", [("1", signal.SIGINT, 130), ("2", signal.SIGINT, 130),
                                           ("1", signal.SIGTERM, 143)])
def test_signal_exits_130_or_143_and_keeps_reports(tmp_path, jobs, sig, code):
    """Ctrl-C (130) and SIGTERM, what a batch scheduler sends (143): one line, the pages written so
    far intact, and the index lists exactly them, marked as a partial run."""
    rep = tmp_path / "rep"
    # a claim of milliseconds, then one of many seconds: the signal always finds the second one running
    proc = subprocess.Popen([sys.executable, "-m", "verify", "all", "--claims", "mmts.lemma2,mmts.thm2", "--report",
                             str(rep), "--precision", "20", "--jobs", jobs], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and not _finished(rep):
        time.sleep(0.2)
    assert _finished(rep), "no claim finished within 120 s"
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("verify: " + ("terminated" if code == 143 else "interrupted"))
    index = json.loads((rep / "index.json").read_text())
    assert index["verdicts"], "index lists the finished claims"
    assert index["complete"] is False and index["interrupted"] == ("SIGTERM" if code == 143 else "SIGINT")
    assert index["finished"] == len(index["verdicts"]) and index["not_run"]
    assert "PARTIAL" in (rep / "index.md").read_text()
    for item in index["verdicts"]:
        assert (rep / f"{item['claim']}.md").exists()
        json.loads((rep / f"{item['claim']}.json").read_text())
    assert not [f for f in os.listdir(rep) if f.startswith(".tmp-")], "no half-written temporary files left"
    if jobs != "1":  # the workers are gone with the parent
        time.sleep(1)
        alive = subprocess.run(["pgrep", "-f", "multiprocessing.forkserver|multiprocessing.spawn"],
                               capture_output=True, text=True).stdout.split()
        assert not [pid for pid in alive if _parent(pid) == proc.pid], "worker processes left running"


def _finished(rep) -> int:
    """How many claims the index lists (it exists from the start, marked partial, listing none)."""
    try:
        return len(json.loads((rep / "index.json").read_text())["verdicts"])
    except (OSError, ValueError, KeyError):
        return 0


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
    from verify.errors import SignalLatch

    before = signal.getsignal(signal.SIGINT)
    with SignalLatch() as latch:
        latch.check()  # nothing yet
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)
        except KeyboardInterrupt:
            pass  # swallowed
        with pytest.raises(KeyboardInterrupt):
            latch.check()
    assert signal.getsignal(signal.SIGINT) is before


def _wait_for_cpu(pid: int, seconds: float, timeout: float = 120) -> None:
    """Until the process has used ``seconds`` of CPU (it is past its imports and computing): a wall-clock sleep
    is not enough on a loaded machine, where the imports alone can take longer."""
    tick = os.sysconf("SC_CLK_TCK")
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / tick >= seconds:  # utime + stime
            return
        time.sleep(0.2)
    raise AssertionError(f"process {pid} used less than {seconds} s of CPU in {timeout} s")


@pytest.mark.parametrize("sig,code", [(signal.SIGTERM, 143)])  # SIGINT takes the same path (Terminated is a
def test_flow_save_keeps_the_partial_run_on_a_signal(tmp_path, sig, code):  # KeyboardInterrupt)
    """SIGTERM used to kill `flow --save` with nothing saved; now it saves the partial trajectory
    like Ctrl-C does, and the file resumes."""
    from verify.data.mmts import mmts_fig1a

    data, traj = tmp_path / "d.json", tmp_path / "t.json"
    mmts_fig1a().save(str(data))
    proc = subprocess.Popen([sys.executable, "-m", "verify", "flow", "--data", str(data), "--until-norm", "1e300",
                             "--precision", "60", "--no-svm", "--save", str(traj)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for_cpu(proc.pid, 3)  # imports (under 1 s of CPU), then steps: the run to 10^300 takes about a minute
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err
    assert "partial trajectory saved" in lines[0] and traj.exists()
    saved = json.loads(traj.read_text())
    assert saved["status"] == "interrupted" and saved["state"]["steps"] > 0
    target = str(2 * float(saved["records"][-1]["norm"]))  # beyond where it stopped
    r = subprocess.run([sys.executable, "-m", "verify", "flow", "--resume", str(traj), "--until-norm", target,
                        "--no-svm", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and json.loads(r.stdout)["status"] == "reached", r.stderr


def test_sigterm_in_process_is_143_and_one_line(capsys):
    from verify.cli.common import run_verb
    from verify.errors import Terminated

    def killed():
        os.kill(os.getpid(), signal.SIGTERM)  # run_verb turns SIGTERM into Terminated
        time.sleep(5)
        raise AssertionError("SIGTERM did not interrupt")

    before = signal.getsignal(signal.SIGTERM)
    assert run_verb(killed) == 143
    assert capsys.readouterr().err.strip() == "verify: terminated (SIGTERM)"
    assert signal.getsignal(signal.SIGTERM) is before
    assert run_verb(lambda: (_ for _ in ()).throw(Terminated())) == 143


def test_the_latch_remembers_which_signal():
    from verify.errors import SignalLatch, Terminated

    with SignalLatch() as latch:
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.5)
        except Terminated:
            pass  # swallowed, as inside a weakref callback
        with pytest.raises(Terminated):
            latch.check()


def test_signals_are_held_back_for_a_short_write():
    from verify.errors import signals_deferred

    with pytest.raises(KeyboardInterrupt):
        with signals_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.2)
            finished = True  # the block ran to its end
    assert finished
    with signals_deferred(reraise=False):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.2)
