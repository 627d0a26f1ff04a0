"""``verify all|hunt --scheduler``: a Dask LocalCluster (2 worker processes) through the code path a real scheduler
takes (its tcp:// address passed to ``--scheduler``). The cluster's output, reports and index equal the local run's;
the usage errors are one line; a worker killed mid-run is replaced and the run completes; a hunt's find is the same
whatever the number of workers and blocks for a fixed seed set. The default path never imports Dask."""
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from cli_helpers import comparable, one_line

from verify.cli.main import main

pytestmark = pytest.mark.xdist_group("cluster")  # one LocalCluster for the module (pytest runs --dist loadgroup)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SLICE = "irgf.asm1,irgf.asm2,irgf.prop.lift"  # cheap claims, several datasets each (one VIOLATED-free mix)


def test_the_module_is_one_xdist_group(request):
    """``--dist loadgroup`` keeps this module on one worker (one LocalCluster): the root conftest puts the group into
    the node id where pytest ≥ 9.2 reads it (pytest-xdist 3.8's own suffix is lost there)."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run under pytest-xdist --dist loadgroup")
    assert request.node.nodeid.endswith("@cluster")


def test_the_default_path_never_imports_dask():
    code = ("import sys; from verify.cli.main import main; assert 'distributed' not in sys.modules; "
            "c = main(['all', '--claims', 'irgf.asm2', '--jobs', '1', '--precision', '20']); "
            "assert 'distributed' not in sys.modules and 'dask' not in sys.modules, 'dask imported'; print('ok', c)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "ok 0" in proc.stdout, proc.stderr


def test_scheduler_with_jobs_is_a_usage_error(capsys):
    assert main(["all", "--scheduler", "tcp://127.0.0.1:1", "--jobs", "2"]) == 2
    assert "--scheduler and --jobs" in one_line(capsys.readouterr().err)


@pytest.mark.parametrize("verb", [["all", "--claims", "irgf.asm2"], ["hunt", "irgf.asm2", "--budget", "5"]])
def test_an_unreachable_scheduler_is_one_line_and_exit_3(verb, capsys, monkeypatch, tmp_path):
    pytest.importorskip("distributed")
    from verify.cli import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start = time.monotonic()
    assert main([*verb, "--scheduler", f"tcp://127.0.0.1:{port}", "--out" if verb[0] == "hunt" else "--seed",
                 str(tmp_path) if verb[0] == "hunt" else "0"]) == 3
    line = one_line(capsys.readouterr().err)
    assert "no scheduler answered" in line and f"127.0.0.1:{port}" in line
    assert time.monotonic() - start < 15  # the timeout, not a hang


@pytest.fixture(scope="module")
def cluster():
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster

    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = ROOT + (os.pathsep + old if old else "")  # the workers import this checkout
    try:
        local = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                             worker_dashboard_address=None)
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old
    client = Client(local.scheduler_address, set_as_default=False)
    yield local, client
    client.close()
    local.close()


def test_the_cluster_run_equals_the_local_one(cluster, capsys, tmp_path):
    local, _ = cluster
    args = ["all", "--claims", SLICE, "--json", "--precision", "20"]
    code1 = main([*args, "--jobs", "1", "--report", str(tmp_path / "one")])
    out1 = capsys.readouterr().out
    code2 = main([*args, "--scheduler", local.scheduler_address, "--report", str(tmp_path / "two")])
    out2 = capsys.readouterr().out
    assert code1 == code2 == 0
    one, two = json.loads(out1), json.loads(out2)
    assert [v["claim"] for v in two] == ["irgf.asm1", "irgf.asm2", "irgf.prop.lift"]  # the registry's order
    assert comparable(one) == comparable(two)
    i1, i2 = (json.loads((tmp_path / d / "index.json").read_text()) for d in ("one", "two"))
    assert i2["complete"] is True and i2["interrupted"] is None and i2["not_run"] == []
    assert comparable(i1) == comparable(i2)
    for v in two:  # each claim's JSON twin is the local one's
        r1, r2 = (json.loads((tmp_path / d / f"{v['claim']}.json").read_text()) for d in ("one", "two"))
        assert comparable(r1) == comparable(r2)


def test_a_worker_killed_mid_run_is_replaced_and_the_run_completes(cluster, tmp_path):
    """The first worker to start a dataset task kills its own process at that moment (a worker plugin, so the kill
    does not race the task: polling the scheduler for a running task missed tasks that finish in milliseconds); the
    scheduler gives the task to another worker, the nanny restarts the dead one, the run completes as if nothing
    happened."""
    from distributed import WorkerPlugin

    local, client = cluster
    marker = str(tmp_path / "killed")

    class KillAtFirstTask(WorkerPlugin):  # a local class: cloudpickle ships it by value to the workers
        name = "kill-at-first-task"

        def transition(self, key, start, finish, **kwargs):
            if finish == "executing" and "_dataset_task" in str(key):
                try:
                    os.close(os.open(marker, os.O_CREAT | os.O_EXCL))  # only the first task, on one worker, dies
                except FileExistsError:
                    return
                os.kill(os.getpid(), signal.SIGKILL)  # the worker process dies with its task

    client.register_plugin(KillAtFirstTask())
    try:
        proc = subprocess.run([sys.executable, "-m", "verify", "all", "--claims", "irgf.asm1", "--precision", "20",
                               "--scheduler", local.scheduler_address, "--json"], cwd=ROOT, capture_output=True,
                              text=True, timeout=180)
    finally:
        client.unregister_worker_plugin(KillAtFirstTask.name)
    assert os.path.exists(marker), "no worker started a dataset task"
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert [v["claim"] for v in out] == ["irgf.asm1"] and out[0]["verdict"] == "HOLDS"
    client.wait_for_workers(2, timeout=60)  # the nanny restarted it


def test_a_hunt_find_is_the_same_for_any_number_of_workers_and_blocks(cluster, tmp_path, capsys):
    from verify.claims import REGISTRY
    from verify.cli.cluster import hunt_blocks
    from verify.search.hunt import search_seeds

    local, client = cluster
    claim, _ = REGISTRY.resolve("irgf.asm2")  # an assumption: hunting it finds data that breaks it
    serial = search_seeds(claim, range(4), dps=30)  # one process, seed after seed: the 1-worker answer
    assert serial[1] is not None and serial[2] >= 1
    seed, found, tried = hunt_blocks(client, claim.id, 120, 30, seeds=4, block=1)  # 4 tasks, 2 workers, any order
    assert (seed, found.to_json(), tried) == (serial[0], serial[1].to_json(), serial[2])
    code = main(["hunt", "irgf.asm2", "--seeds", "4", "--budget", "120",  # blocks of 2 seeds
                 "--scheduler", local.scheduler_address, "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1 and "confirmed VIOLATED at 50 digits" in out and f"after {serial[2]} datasets" in out
    saved = list(tmp_path.glob("irgf.asm2-*.json"))
    assert len(saved) == 1 and main(["irgf.asm2", "--data", str(saved[0])]) == 1  # replays as VIOLATED

