"""``verify all [--paper P] [--claims A,B] [--report DIR] [--jobs N]``: every claim on its default datasets.

With ``--jobs N`` (default: every core) the (claim, dataset) runs go to N worker processes
(``multiprocessing.Pool``); each returns its result formatted for the report (``DatasetRun.freeze``),
and the parent combines them per claim exactly as a serial run does. Claims are printed, and the
index written, in the registry's order, so the output is the serial one whatever order the workers
finish in; a claim's report is written as soon as its last dataset is done, and the index after
it (marked partial until the last claim). Ctrl-C or SIGTERM (or a worker failing) terminates the
workers; the reports already written stay, and the index lists them, marked as interrupted.

With ``--scheduler tcp://HOST:PORT`` the same (claim, dataset) runs go to a Dask cluster instead
(``verify.cli.cluster``, imported only then), merged the same way; ``--scheduler`` with ``--jobs`` is a usage
error, an unreachable scheduler a one-line error (exit 3) after ``cluster.CONNECT_TIMEOUT`` seconds.
"""
from __future__ import annotations

import json
import queue
import sys

from verify.claims.progress import progress_sink
from verify.cli.common import (
    PROVE_SCALE,
    claim_parser,
    default_jobs,
    jobs_flag,
    path_flag,
    precision_for,
    progress,
    seed_flag,
    summary_line,
)
from verify.errors import (
    SignalLatch,
    Terminated,
    UsageError,
    find_interrupt,
    interrupt_exit_code,
    interrupt_name,
    signals_deferred,
)


def _jobs(value) -> int:
    """--jobs: 1..4 × the cores (more workers than that only share the same cores, each with its memory)."""
    return default_jobs() if value is None else jobs_flag(value)


def main(argv) -> int:
    from verify.claims import REGISTRY

    p = claim_parser("verify all", with_data=False)
    p.add_argument("--jobs", default=None, help="worker processes (default: every core; 1 runs in this process)")
    p.add_argument("--claims", default=None, help="only these claims (comma-separated ids or aliases), in the "
                                                  "registry's order")
    p.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                   help="run on this Dask scheduler's workers (pip install -e '.[cluster]') instead of local ones")
    a = p.parse_args(argv)
    if a.scheduler is not None and a.jobs is not None:
        raise UsageError("--scheduler and --jobs exclude each other: the cluster's workers replace the local ones")
    a.scheduler = path_flag(a.scheduler, "--scheduler")
    jobs = _jobs(a.jobs)
    a.seed = seed_flag(a.seed)
    a.report = path_flag(a.report, "--report")
    if a.precision is not None:
        from verify.numbers.precision import parse_precision

        parse_precision(a.precision)
    # --claims imports only the named claims' modules (through the registry's manifest), not every claim's
    claims = REGISTRY.all(a.paper) if a.claims is None else _chosen(a.claims, a.paper)
    planned = [c.id for c in claims]
    if a.report:  # before the work: a destination that fails fails now (and before a scheduler is waited for)
        from verify.report.markdown import prepare_report_folder

        prepare_report_folder(a.report)
    client = None
    if a.scheduler:
        from verify.cli import cluster

        client = cluster.connect(a.scheduler)  # before the work: an unreachable scheduler fails now (exit 3)
    try:
        return _run(a, claims, planned, jobs, client)
    finally:
        if client is not None:
            cluster.close(client)


def _run(a, claims, planned, jobs, client) -> int:
    from verify.claims import worst
    from verify.report.markdown import write_claim_report, write_index

    if a.report:  # an index from the start, marked partial until the last claim (even a killed run leaves one)
        with signals_deferred():
            write_index([], a.report, planned=planned)
    out = sys.stderr if a.json else sys.stdout
    verdicts = {}  # claim id -> Verdict, filled in any order
    shown = 0

    def finished(v):
        """Report a finished claim; print every claim that is now next in order."""
        nonlocal shown
        if a.report:  # the page first: an interrupted run's index lists only claims whose page exists
            write_claim_report(v, a.report, f"python -m verify {v.claim.id} --precision {v.precision}"
                               + (" --prove" if a.prove else ""), {"prove": bool(a.prove)})
        verdicts[v.claim.id] = v
        if a.report:
            write_index([verdicts[c.id] for c in claims if c.id in verdicts], a.report, planned=planned)
        while shown < len(claims) and claims[shown].id in verdicts:
            if not a.json:
                bar.write(summary_line(verdicts[claims[shown].id]), file=out)
            shown += 1
        bar.update(1)

    running = []  # what the bar shows beside the count: the claims being checked now

    def status(text: str = "") -> None:
        bar.set_postfix_str(running_text(running) + (f" — {text}" if text and running else text))

    try:
        with progress(len(claims), "claims", a.json) as bar, SignalLatch() as latch, progress_sink(status):
            if client is not None:
                from verify.cli.cluster import run_claims

                run_claims(client, claims, a, finished, latch, running, status)
            elif jobs == 1 or len(claims) <= 1:
                _serial(claims, a, finished, latch, running, status)
            else:
                _parallel(claims, a, jobs, finished, latch, running, status)
            latch.check()
    except BaseException as exc:
        found = find_interrupt(exc)
        if found is None:
            raise
        done = [verdicts[c.id] for c in claims if c.id in verdicts]
        if a.report:
            with signals_deferred(reraise=False):  # a second signal must not leave the index half-marked
                write_index(done, a.report, interrupted="SIGTERM" if isinstance(found, Terminated) else "SIGINT",
                            planned=planned)
        print(f"verify: {interrupt_name(exc)} after {len(done)} of {len(claims)} claims; reports written so far "
              "are intact" + (f" and {a.report}/index.md lists them as a partial run" if a.report else ""),
              file=sys.stderr)
        return interrupt_exit_code(exc)
    ordered = [verdicts[c.id] for c in claims]
    if a.report:
        write_index(ordered, a.report, planned=planned)
        if not a.json:
            print(f"report: {a.report}/index.md", file=sys.stderr)
    if a.json:
        print(json.dumps([v.to_json() for v in ordered], indent=2))
    return {"HOLDS": 0, "VIOLATED": 1, "INCONCLUSIVE": 3, "NOT_APPLICABLE": 4}[worst(v.verdict for v in ordered)]


def _chosen(text: str, paper) -> list:
    """--claims: the named claims (ids or aliases, resolved as ``verify <claim>`` does), in the registry's order;
    an unknown name, or one outside --paper, is a usage error (exit 2) before any work."""
    from verify.claims import REGISTRY
    from verify.claims.registry import registry_order
    from verify.errors import UsageError

    names = [x.strip() for x in str(text).split(",") if x.strip()]
    if not names:
        raise UsageError("--claims: expected comma-separated claim ids")
    wanted = {}
    for name in names:
        claim, _ = REGISTRY.resolve(name)
        if paper is not None and claim.paper != paper:
            raise UsageError(f"--claims: {claim.id} is not a claim of --paper {paper}")
        wanted[claim.id] = claim
    return sorted(wanted.values(), key=lambda c: registry_order(c.id))


def running_text(ids) -> str:
    """What the bar shows beside the count while claims run: the claims being checked now."""
    ids = list(ids)
    if not ids:
        return ""
    return "running " + ", ".join(ids[:3]) + (f" (+{len(ids) - 3} more)" if len(ids) > 3 else "")


def _serial(claims, a, finished, latch, running, status) -> None:
    from verify.claims import run_claim
    from verify.numbers.regions import budget_scale

    for claim in claims:
        latch.check()
        dps = precision_for(a.precision, claim)
        running[:] = [claim.id]  # the claim's own progress lines (probe points, steps) follow its id
        status()
        with budget_scale(PROVE_SCALE if a.prove else 1):
            v = run_claim(claim, claim.default_datasets(seed=a.seed), dps=dps)
        running[:] = []
        finished(v)


# ----- worker processes --------------------------------------------------------------------------
_started = None  # in a worker: the pipe on which it says which claim it starts


def _worker_init(started=None) -> None:
    import signal

    global _started
    _started = started
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and terminates the pool
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)  # one BLAS thread per worker: the workers already fill the cores
    # claims are imported as the tasks name them (the registry's manifest): a worker imports only what it runs


def _run_task(claim_id: str, data, dps: int, scale: int = 1):
    from verify.claims.runner import run_unit

    if _started is not None:
        try:  # one short write: atomic on a pipe, so the workers need no lock (no semaphore to leak)
            _started.send_bytes(claim_id.encode())
        except OSError:
            pass  # the parent is gone or stopped listening: only the progress line is lost
    return run_unit(claim_id, data, dps, scale)  # scale: --prove's region budget, as in the serial path


def _parallel(claims, a, jobs, finished, latch, running, status) -> None:
    import multiprocessing

    from verify.claims.runner import combine

    ctx = multiprocessing.get_context("forkserver" if "forkserver" in multiprocessing.get_all_start_methods()
                                      else "spawn")
    results = queue.Queue()
    started, started_w = ctx.Pipe(duplex=False)  # the workers say which claim they start (shown beside the bar)
    pool = None
    try:
        with signals_deferred():  # a pool interrupted half-built leaks its locks (a warning on stderr at exit)
            pool = ctx.Pool(processes=jobs, initializer=_worker_init, initargs=(started_w,))
        runs, pending = {}, {}
        for claim in claims:  # datasets are built here, while the workers already run earlier claims
            latch.check()
            dps = precision_for(a.precision, claim)
            datasets = claim.default_datasets(seed=a.seed)
            runs[claim.id] = [None] * len(datasets)
            pending[claim.id] = (claim, dps, len(datasets))
            for k, data in enumerate(datasets):
                pool.apply_async(_run_task, (claim.id, data, dps, PROVE_SCALE if a.prove else 1),
                                 callback=lambda r, cid=claim.id, k=k: results.put((cid, k, r, None)),
                                 error_callback=lambda e, cid=claim.id, k=k: results.put((cid, k, None, e)))
            if not datasets:
                finished(combine(claim, [], dps))
        left = sum(n for _, _, n in pending.values())
        def note_started():
            changed = False
            while started.poll():
                cid = started.recv_bytes().decode()
                if cid not in running and not all(r is not None for r in runs.get(cid, [None])):
                    running.append(cid)
                    changed = True
            if changed:
                status()

        while left:
            latch.check()
            note_started()
            try:
                cid, k, run, err = results.get(timeout=0.2)
            except queue.Empty:
                continue
            note_started()  # a task says it started before its result arrives: shown even if it was quick
            if err is not None:
                raise err
            left -= 1
            runs[cid][k] = run
            if all(r is not None for r in runs[cid]):
                claim, dps, _ = pending[cid]
                if cid in running:
                    running.remove(cid)
                finished(combine(claim, runs[cid], dps))
                status()
        pool.close()
        pool.join()
    finally:
        with signals_deferred(reraise=False):  # the pool's locks are released before the process exits
            if pool is not None:
                pool.terminate()
                pool.join()
            pool = None
            started.close()
            started_w.close()
            import gc

            gc.collect()  # else the resource tracker warns on stderr about "leaked semaphores" at exit
