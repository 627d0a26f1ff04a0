"""Claims, verdicts and the registry: the public API a claim module imports."""
from verify.claims.core import (
    EXIT_CODES,
    HOLDS,
    INCONCLUSIVE,
    NOT_APPLICABLE,
    REGISTRY,
    VIOLATED,
    Claim,
    Evidence,
    Figure,
    Hypothesis,
    NotApplicable,
    Outcome,
    Series,
    Verdict,
    _run_once,
    check,
    coerce_dataset,
    register,
    run_claim,
    worst,
)

__all__ = [
    "EXIT_CODES", "HOLDS", "INCONCLUSIVE", "NOT_APPLICABLE", "REGISTRY", "VIOLATED", "Claim", "Evidence", "Figure",
    "Hypothesis", "NotApplicable", "Outcome", "Series", "Verdict", "_run_once", "check", "coerce_dataset", "register",
    "run_claim", "worst",
]
