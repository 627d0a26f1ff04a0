"""Strategies for the property tests live in the engine (``verify.search``), shared with ``hunt``."""
from verify.search.hunt import datasets, save_counterexample  # noqa: F401


def save_failure(data, claim_id: str) -> str:
    return save_counterexample(data, claim_id)
