"""Adversarial datasets: hypothesis strategies at the edges of the claims' hypotheses, and ``hunt``.

Exact rationals throughout, so whatever is found replays exactly with ``--data``: near-tied scores,
tiny margins, nearly collinear keys, large and small scales, T = 2, d = 1, n = 1. ``hunt`` runs a
claim's check on generated datasets for a time budget, lets hypothesis shrink the first VIOLATED
one, confirms it at a higher precision and saves it as dataset JSON.

A claim's universally quantified parameters that it declares searchable (``Parameter(hunt=True)``: π, a start
scale, η(0), …) are drawn with each dataset, inside their declared bounds, and shrunk with it; a find carries
them in its JSON (``options``), so ``--data`` replays the dataset *and* the parameter values.
"""
from __future__ import annotations

import hashlib
import os
import time
from contextlib import contextmanager
from fractions import Fraction

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample, Unsatisfiable

from verify.data.dataset import Dataset
from verify.errors import reraise_interrupt


def exact_rationals(low, high, max_denominator: int):
    """Every fraction in [low, high] with denominator ≤ ``max_denominator``, simplest first (0, ±1, ±2, …, ±1/2, …):
    the values of ``st.fractions`` with those bounds, drawn by ``sampled_from`` (an index, ~12× cheaper than
    ``st.fractions``' draws) and shrinking toward the simplest value."""
    low, high = Fraction(low), Fraction(high)
    values = {Fraction(p, q) for q in range(1, max_denominator + 1)
              for p in range(int(low * q) - 1, int(high * q) + 2) if low <= Fraction(p, q) <= high}
    return st.sampled_from(sorted(values, key=lambda x: (x.denominator, abs(x), x < 0)))


small_rationals = exact_rationals(-3, 3, 12)
scales = st.sampled_from([Fraction(1, 1000), Fraction(1), Fraction(7, 3), Fraction(1000)])


@st.composite
def datasets(draw, max_n=3, max_T=4, max_d=3, unique_opt=True, positive_labels=False):
    """Small exact datasets; one token may be a near-copy of another (near-ties, tiny margins)."""
    n = draw(st.integers(1, max_n))
    T = draw(st.integers(2, max_T))
    d = draw(st.integers(1, max_d))
    sc = draw(scales)
    X = [[[draw(small_rationals) * sc for _ in range(d)] for _ in range(T)] for _ in range(n)]
    v = [draw(small_rationals) for _ in range(d)]
    if not any(v):
        v[0] = Fraction(1)
    Y = [1] * n if positive_labels else [draw(st.sampled_from([-1, 1])) for _ in range(n)]
    if draw(st.booleans()):
        i, t = draw(st.integers(0, n - 1)), draw(st.integers(1, T - 1))
        X[i][t] = [x + Fraction(1, 10**6) for x in X[i][0]]
    data = Dataset.make(X=X, Y=Y, v=v, name="hypothesis")
    if unique_opt:
        from hypothesis import assume

        assume(all(len(o) == 1 for o in data.optimal_tokens()))
    return data


def option_strategies(claim) -> dict:
    """{option: strategy of exact values} for the claim's hunted parameters (bounds as declared: ``low``
    exclusive for rationals, inclusive for integers)."""
    out = {}
    for par in claim.parameters or ():
        if not par.hunt:
            continue
        if par.kind == "integer":
            out[par.option] = st.integers(int(par.low), int(par.high))
            continue
        low, high = Fraction(par.low), Fraction(par.high)
        one = st.fractions(min_value=low, max_value=high, max_denominator=1000).filter(lambda x, low=low: x > low)
        out[par.option] = st.lists(one, min_size=1, max_size=3).map(tuple) if par.kind == "rationals" else one
    return out


def candidates(claim):
    """The strategy ``hunt`` draws from: datasets, carrying drawn values of the hunted parameters when the claim
    declares any (``Dataset.with_options``: the values travel with the dataset into the check and its JSON)."""
    data = claim.strategy() if getattr(claim, "strategy", None) else datasets()
    opts = option_strategies(claim)
    if not opts:
        return data
    return st.tuples(data, st.fixed_dictionaries(opts)).map(lambda p: p[0].with_options(claim.id, p[1]))


def save_counterexample(data: Dataset, claim_id: str, folder: str = os.path.join("reports", "counterexamples")) -> str:
    """Write a failing dataset where ``--data`` replays it; the name is a hash of its content."""
    digest = hashlib.sha256(data.to_json().encode()).hexdigest()[:10]
    path = os.path.join(folder, f"{claim_id}-{digest}.json")
    data.with_name(os.path.basename(path)).save(path)
    return path


class _OutOfTime(Exception):
    """The budget ended inside a hypothesis batch (a batch may take minutes)."""


def _violation_test(claim, dps: int, deadline: float | None, progress=None, stop=None):
    """(violated, tried): ``violated(data)`` runs the claim's check once and says whether it is VIOLATED (a dataset
    the check cannot handle is not a counterexample); ``tried()`` counts the datasets checked. Past ``deadline``
    (time.monotonic), or once ``stop()`` says so (a cluster's hunt that has its answer), it raises _OutOfTime, so
    the budget binds inside a batch too."""
    from verify.claims import VIOLATED
    from verify.claims.runner import _run_once

    count = [0]

    def violated(data: Dataset) -> bool:
        if (deadline is not None and time.monotonic() >= deadline) or (stop is not None and stop()):
            raise _OutOfTime
        count[0] += 1
        if progress:
            progress(1)
        try:
            return _run_once(claim, data, dps).decided.verdict == VIOLATED
        except Exception as exc:
            reraise_interrupt(exc)
            return False

    return violated, lambda: count[0]


def _search_settings(batch: int, base=None):
    """One batch: ``batch`` examples, generated then shrunk; no deadline, no example database, no health checks."""
    extra = dict(max_examples=batch, deadline=None, database=None, phases=[Phase.generate, Phase.shrink],
                 suppress_health_check=list(HealthCheck))
    return settings(base, **extra) if base is not None else settings(**extra)


def hunt(claim, budget: float, dps: int = 30, batch: int = 40, progress=None, out_folder=None):
    """Search for a VIOLATED dataset within ``budget`` seconds. Returns (dataset | None, examples tried)."""
    if not (isinstance(budget, (int, float)) and 0 < budget < float("inf")):
        from verify.errors import UsageError

        raise UsageError(f"the budget must be a positive finite number of seconds, got {budget!r}")
    strategy = candidates(claim)
    deadline = time.monotonic() + budget
    violated, tried = _violation_test(claim, dps, deadline, progress)
    while time.monotonic() < deadline:
        try:
            found = find(strategy, violated, settings=_search_settings(batch))
        except (NoSuchExample, Unsatisfiable):
            continue
        except _OutOfTime:
            break
        return found, tried()
    return None, tried()


@contextmanager
def _no_source_constants():
    """Hypothesis (≥ 6.131) mixes into ~5 % of its draws constants read from the source of every local module the
    process has loaded, so what a seed draws would depend on which claims the process ran before (a cluster worker
    imports only what it runs; ``verify all`` before a hunt changed the draws). The seeded search switches that
    pool off (an internal of hypothesis: left as is if it is not there) and clears hypothesis's cache of it."""
    from hypothesis.internal.conjecture import providers

    get, cache = getattr(providers, "_get_local_constants", None), getattr(providers, "CONSTANTS_CACHE", None)
    if get is None or cache is None or not hasattr(providers, "Constants"):
        yield
        return
    empty = providers.Constants()
    providers._get_local_constants = lambda: empty
    cache.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = get
        cache.cache.clear()


def search_seeds(claim, seeds, dps: int = 30, batch: int = 40, seconds: float | None = None, stop=None):
    """The seeded search (``hunt --seeds``, and one task of ``hunt --scheduler``): for each seed in order, one
    hypothesis search of ``batch`` examples drawn from ``random.Random(seed)`` — the same seed draws the same examples
    on any machine (the settings start from hypothesis's "default" profile, never a loaded one) — and the first
    VIOLATED one shrunk. Stops at the first seed with a find, or when ``seconds`` have passed or ``stop()`` is true
    (a partial block: its finds, if any, still count). Returns (seed | None, dataset | None, tried)."""
    import random

    strategy = candidates(claim)
    deadline = None if seconds is None else time.monotonic() + seconds
    violated, tried = _violation_test(claim, dps, deadline, stop=stop)
    for seed in seeds:
        try:
            with _no_source_constants():
                found = find(strategy, violated, random=random.Random(seed),
                             settings=_search_settings(batch, settings.get_profile("default")))
        except (NoSuchExample, Unsatisfiable):
            continue
        except _OutOfTime:
            break
        return seed, found, tried()
    return None, None, tried()
