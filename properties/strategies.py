"""Strategies for the property tests live in the engine (``verify.search``), shared with ``hunt``; ``examples``
sizes a test's search relative to the loaded hypothesis profile."""
from hypothesis import settings

from verify.search.hunt import datasets, exact_rationals, save_counterexample  # noqa: F401


def examples(n: int):
    """``@settings`` for a search of ``n`` examples under the ``ci`` profile, scaled with the profile loaded:
    ``n`` × 2000/25 under ``deep``. (An explicit ``@settings(max_examples=n)`` would pin ``n`` under every
    profile, so ``HYPOTHESIS_PROFILE=deep`` would not lengthen that search.)"""
    unit = settings.get_profile("ci").max_examples  # registered in properties/conftest.py
    return settings(max_examples=max(1, round(n * settings().max_examples / unit)))


def save_failure(data, claim_id: str) -> str:
    return save_counterexample(data, claim_id)
