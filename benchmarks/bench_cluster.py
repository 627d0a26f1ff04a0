"""``--scheduler`` on a Dask cluster against the local ``--jobs``: the overhead of ``verify all`` on a LocalCluster
of 2 worker processes against ``--jobs 2``, the hunt's throughput from 1 to 2 workers, and what 16 workers would
give by the same measure.

    pip install -e '.[cluster]'
    python benchmarks/bench_cluster.py                    # irgf's claims, 3 hunted claims × 40 s (about 6 min)
    python benchmarks/bench_cluster.py --paper mmts --hunt-seconds 60

A script, not a pytest module (benchmarks/ is outside CI's default run). Wall-clock seconds of the command as a user
runs it (``python -m verify …`` in a fresh process, so imports count on both sides). The cluster is a
``distributed.LocalCluster`` (processes, 1 thread each, this checkout on the workers' PYTHONPATH); it is started
once and warmed by one run (``verify all --claims irgf.asm2``) before the timed one, as a long-lived cluster is.

The 16-worker estimate is a best case: ``all`` cannot finish before its longest (claim, dataset) task (here bounded
below by the slowest claim's mean task: the JSON has per-claim seconds) nor before the tasks' total work spread over
16 workers, each task paying the per-task overhead measured here (cluster run − --jobs 2 run, over the tasks); the hunt's throughput is 16 × the per-worker throughput at 2 workers (seed blocks are
independent: no shared state but the client's merge).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HUNTED = ("mmts.lemma3", "tfsvm.lemma7", "irgf.lemma41")  # true claims: a hunt runs its whole budget


def _verify(*args) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "verify", *args], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1, 3, 4):
        raise SystemExit(f"verify {' '.join(args)} failed ({proc.returncode}): {proc.stderr.strip()[-300:]}")
    return wall, proc.stdout


def _cluster(workers: int):
    from distributed import Client, LocalCluster

    os.environ["PYTHONPATH"] = ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")
    local = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                         worker_dashboard_address=None)
    return local, Client(local.scheduler_address, set_as_default=False)


def bench_all(paper: str) -> dict:
    jobs_wall, out = _verify("all", "--paper", paper, "--jobs", "2", "--json")
    verdicts = json.loads(out)
    tasks = [len(v["datasets"]) or 1 for v in verdicts]  # (claim, dataset) tasks per claim
    per_task = [v["seconds"] / n for v, n in zip(verdicts, tasks)]  # a claim's mean task: ≤ its longest task
    local, client = _cluster(2)
    try:
        _verify("all", "--claims", "irgf.asm2", "--scheduler", local.scheduler_address, "--json")  # warm the workers
        cluster_wall, out2 = _verify("all", "--paper", paper, "--scheduler", local.scheduler_address, "--json")
    finally:
        client.close()
        local.close()
    same = [(v["claim"], v["verdict"]) for v in verdicts] == [(v["claim"], v["verdict"]) for v in json.loads(out2)]
    return {"paper": paper, "claims": len(verdicts), "tasks": sum(tasks), "jobs2": jobs_wall,
            "cluster2": cluster_wall, "same": same, "work": sum(v["seconds"] for v in verdicts),
            "longest": max(per_task, default=0.0)}


def bench_hunt(seconds: float) -> dict:
    from verify.cli.cluster import hunt_blocks

    rows = {}
    for workers in (1, 2):
        local, client = _cluster(workers)
        try:
            for claim in HUNTED:  # warm every worker on every hunted claim (imports, caches), untimed
                hunt_blocks(client, claim, 60, 30, seeds=2 * workers, block=1)
            tried = 0
            for claim in HUNTED:
                _, found, n = hunt_blocks(client, claim, seconds, 30)
                assert found is None, f"{claim}: a true claim's hunt found {found}"
                tried += n
            rows[workers] = tried / (seconds * len(HUNTED))
        finally:
            client.close()
            local.close()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--paper", default="irgf", help="the paper whose claims `verify all` runs (default irgf)")
    ap.add_argument("--hunt-seconds", type=float, default=40.0, help="budget of each hunted claim (default 40)")
    ap.add_argument("--only", choices=("all", "hunt"), default=None, help="run one of the two parts")
    a = ap.parse_args()
    if a.only != "hunt":
        _print_all(bench_all(a.paper))
    if a.only != "all":
        _print_hunt(bench_hunt(a.hunt_seconds), a.hunt_seconds)


def _print_all(r: dict) -> None:
    overhead = (r["cluster2"] - r["jobs2"]) / max(1, r["tasks"])
    print(f"verify all --paper {r['paper']}: {r['claims']} claims, {r['tasks']} (claim, dataset) tasks, "
          f"{r['work']:.0f} s of task work, longest task ≥ {r['longest']:.1f} s; verdicts identical: {r['same']}")
    print("| run | wall s | ratio to --jobs 2 |\n|---|---|---|")
    print(f"| --jobs 2 | {r['jobs2']:.1f} | 1.00 |")
    print(f"| --scheduler (LocalCluster, 2 workers) | {r['cluster2']:.1f} | {r['cluster2'] / r['jobs2']:.2f} |")
    est16 = max(r["longest"], r["work"] / 16) + max(overhead, 0.0) * r["tasks"] / 16
    print(f"per-task overhead of the cluster: {overhead:+.3f} s; 16 workers (best case): {est16:.1f} s "
          f"(longest task ≥ {r['longest']:.1f} s, work/16 {r['work'] / 16:.1f} s)")


def _print_hunt(h: dict, seconds: float) -> None:
    print(f"\nhunt, {len(HUNTED)} true claims × {seconds:g} s each ({', '.join(HUNTED)}; workers warmed on each):")
    print("| workers | datasets checked / s | speed-up |\n|---|---|---|")
    for w in sorted(h):
        print(f"| {w} | {h[w]:.2f} | {h[w] / h[1]:.2f} |")
    print(f"| 16 (estimate: 8 × the rate at 2 workers) | {8 * h[2]:.1f} | {8 * h[2] / h[1]:.1f} |")


if __name__ == "__main__":
    main()
