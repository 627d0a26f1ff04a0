"""``--scheduler tcp://HOST:PORT``: ``verify all`` and ``verify hunt`` on a Dask distributed cluster.

Imported only when ``--scheduler`` is given (Dask is the optional extra ``.[cluster]``; the default path never
imports it). The units are the local ones: ``all`` submits the (claim, dataset) runs (``verify.claims.runner.run_unit``,
as the local workers run them) and merges them as the local pool does (``combine`` per claim, printed and indexed in the registry's order);
``hunt`` submits (claim, seed block) searches (``verify.search.hunt.search_seeds``), so no two workers draw the same
examples, and the find of the lowest seed wins once every lower seed is done — the same result for any number of
workers. Every task is submitted with ``pure=False, retries=2`` (a task that fails is run again; a lost worker's
tasks are re-run by the scheduler). Ctrl-C / SIGTERM cancels the cluster's futures; what was written stays. A
running hunt block stops at its next example once the client has its answer (a Dask ``Event``); a running
(claim, dataset) of ``all`` finishes on its worker (a claim's check has no such hook), its result unused.

A worker process runs one task at a time (the working precision is process-wide): start workers with
``--nthreads 1`` and as many ``--nworkers`` as cores; a worker with more threads still runs its tasks one by one.
"""
from __future__ import annotations

import logging
import threading
import time

from verify.errors import VerifyError

CONNECT_TIMEOUT = 10.0  # seconds: an unreachable scheduler is an error after this, never a hang
POLL = 0.2  # seconds between looks at the futures (signals are checked in between)
GRACE = 10.0  # seconds past a hunt's deadline to collect the blocks that stop at it (their datasets count)


class SchedulerUnreachable(VerifyError):
    """No answer from the scheduler: nothing was run (exit 3, like any run that decided nothing)."""

    exit_code = 3


_one_at_a_time = threading.Lock()  # in a worker: the working precision and the registry are process-wide


def connect(address: str):
    """A Dask client of the scheduler at ``address``, or a one-line SchedulerUnreachable after CONNECT_TIMEOUT."""
    from distributed import Client

    quiet = [logging.getLogger(n) for n in ("distributed", "tornado")]
    levels = [q.level for q in quiet]
    for q in quiet:  # the connection's retries log tracebacks: the error below is the one line that counts
        q.setLevel(logging.CRITICAL)
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise SchedulerUnreachable(f"--scheduler {address}: no scheduler answered within {CONNECT_TIMEOUT:g} s "
                                   f"({str(exc).splitlines()[0] if str(exc) else type(exc).__name__}); "
                                   "nothing was run") from None
    finally:
        for q, level in zip(quiet, levels):
            q.setLevel(level)


def close(client) -> None:
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)  # closing while futures are cancelled logs their cancellation
    try:
        client.close(timeout=CONNECT_TIMEOUT)
    except Exception:  # noqa: BLE001 — the results are in; a slow goodbye is not an error
        pass
    finally:
        quiet.setLevel(level)


# ----- tasks (run on the workers) -------------------------------------------------------------------------
def _claim(ref):
    if not isinstance(ref, str):
        return ref  # a Claim object (tests: a claim that is not registered)
    from verify.claims import REGISTRY

    return REGISTRY.resolve(ref)[0]


def _dataset_task(claim_id: str, data, dps: int, scale: int):
    from verify.claims.runner import run_unit

    with _one_at_a_time:
        return run_unit(claim_id, data, dps, scale)


def _seeds_task(claim_ref, seeds: list, dps: int, batch: int, until: float | None, stop_event: str | None = None):
    import warnings

    from hypothesis.errors import HypothesisDeprecationWarning

    from verify.search.hunt import search_seeds

    stop = None
    if stop_event is not None:  # set by the client once it has its answer: this block stops between examples
        from distributed import Event

        event = Event(stop_event)
        stop = event.is_set
    with _one_at_a_time, warnings.catch_warnings():  # the worker's own threads use `random`: hypothesis would
        warnings.simplefilter("ignore", HypothesisDeprecationWarning)  # warn that the strategy did (it does not)
        seconds = None if until is None else until - time.time()  # the hunt's deadline, however long it queued
        return search_seeds(_claim(claim_ref), seeds, dps=dps, batch=batch, seconds=seconds, stop=stop)


def _finished_futures(futures):
    return [f for f in futures if f.status in ("finished", "error", "cancelled", "lost")]


# ----- verify all --scheduler ------------------------------------------------------------------------------
def run_claims(client, claims, a, finished, latch, running, status) -> None:
    """The (claim, dataset) runs on the cluster, merged per claim as ``verify.cli.all._parallel`` merges them."""
    from verify.claims.runner import combine
    from verify.cli.common import PROVE_SCALE, precision_for

    futures = {}  # future -> (claim id, dataset index)
    try:
        runs, pending = {}, {}
        for claim in claims:
            latch.check()
            dps = precision_for(a.precision, claim)
            datasets = claim.default_datasets(seed=a.seed)
            runs[claim.id] = [None] * len(datasets)
            pending[claim.id] = (claim, dps)
            for k, data in enumerate(datasets):
                f = client.submit(_dataset_task, claim.id, data, dps, PROVE_SCALE if a.prove else 1,
                                  pure=False, retries=2)
                futures[f] = (claim.id, k)
            if not datasets:
                finished(combine(claim, [], dps))
        running[:] = [c.id for c in claims if runs[c.id]][:3]
        status()
        left = set(futures)
        while left:
            latch.check()
            done = _finished_futures(left)
            if not done:
                time.sleep(POLL)
                continue
            order = {f: n for n, f in enumerate(futures)}
            for f in sorted(done, key=order.get):  # submission order within a poll
                left.discard(f)
                cid, k = futures[f]
                runs[cid][k] = f.result()  # a task that failed after its retries raises here: one line, exit 3
                if all(r is not None for r in runs[cid]):
                    claim, dps = pending[cid]
                    finished(combine(claim, runs[cid], dps))
            running[:] = [c.id for c in claims if any(r is None for r in runs[c.id])][:3]
            status()
    finally:
        client.cancel(list(futures), force=True)  # Ctrl-C / SIGTERM / a failure: the cluster stops our tasks


# ----- verify hunt --scheduler -----------------------------------------------------------------------------
def hunt_blocks(client, claim_ref, budget: float, dps: int, seeds: int | None = None, block: int = 2,
                batch: int = 40, latch=None, progress=None):
    """Seed blocks [s, s + block) of one claim on the cluster until ``budget`` seconds pass, every seed of
    ``seeds`` (if given) is searched, or a find has every lower seed searched. Returns (seed | None,
    dataset | None, tried), tried counted over the blocks up to the find (so the same for any number of workers)."""
    import uuid

    from distributed import Event

    deadline = time.monotonic() + budget
    until = time.time() + budget  # the same deadline on the workers' clocks (a queued block honours it too)
    width = 2 * max(1, len(client.scheduler_info(n_workers=-1).get("workers", {})))  # blocks in flight
    futures, results = {}, {}  # future -> first seed; first seed -> (seed, found, tried)
    next_seed = 0
    stop = Event(f"verify-hunt-{uuid.uuid4().hex}", client=client)  # the running blocks stop when it is set

    def answer():
        """The lowest-seed find whose lower blocks are all done, or None while that is not known yet."""
        for start in sorted(set(results) | set(futures.values())):
            if start not in results:
                return None
            if results[start][1] is not None:
                return start
        return None

    try:
        while True:
            if latch is not None:
                latch.check()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            while len(futures) < width and (seeds is None or next_seed < seeds) and answer() is None \
                    and not any(r[1] is not None for r in results.values()):
                chunk = list(range(next_seed, next_seed + block if seeds is None else min(seeds, next_seed + block)))
                f = client.submit(_seeds_task, claim_ref, chunk, dps, batch, until, stop.name,
                                  pure=False, retries=2)
                futures[f] = next_seed
                next_seed += len(chunk)
            if answer() is not None or not futures:
                break
            done = _finished_futures(futures)
            if not done:
                time.sleep(POLL)
                continue
            for f in done:
                start = futures.pop(f)
                results[start] = f.result()
                if progress:
                    progress(results[start][2])
        if answer() is None:  # out of time: the running blocks end at the deadline themselves; count what they did
            for f, start in list(futures.items()):
                try:
                    results[start] = f.result(timeout=max(0.0, deadline + GRACE - time.monotonic()))
                except Exception:  # noqa: BLE001 — late, lost or failed: that block's datasets are not counted
                    continue
                futures.pop(f)
                if progress:
                    progress(results[start][2])
    finally:
        stop.set()  # the blocks still running end at their next example (cancel alone cannot stop a running task)
        client.cancel(list(futures), force=True)
    win = answer()
    if win is None:  # out of time (or seeds): the lowest find among the blocks done, if any
        finds = sorted(s for s, r in results.items() if r[1] is not None)
        win = finds[0] if finds else None
    upto = [r for s, r in sorted(results.items()) if win is None or s <= win]
    tried = sum(r[2] for r in upto)
    if win is None:
        return None, None, tried
    seed, found, _ = results[win]
    return seed, found, tried
