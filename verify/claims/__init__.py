"""Claims and verdicts: what a claim module imports.

``verdict`` — Hypothesis, Evidence, Tally, Outcome and the one decision table; ``rules`` — the declared
rules for trends and witnesses; ``registry`` — Claim and the registry; ``runner`` — running a claim at
two precisions into a Verdict.
"""
from verify.claims import rules
from verify.claims.registry import REGISTRY, Claim, register
from verify.claims.runner import (
    EXIT_CODES,
    Verdict,
    check,
    coerce_dataset,
    run_claim,
    worst,
)
from verify.claims.verdict import (
    CERTIFIED,
    EVIDENCE,
    HOLDS,
    INCONCLUSIVE,
    NOT_APPLICABLE,
    VIOLATED,
    Coverage,
    Decision,
    Evidence,
    Hypothesis,
    Outcome,
    Tally,
)
from verify.report.figures import Figure, Series

__all__ = [
    "CERTIFIED", "EVIDENCE", "EXIT_CODES", "HOLDS", "INCONCLUSIVE", "NOT_APPLICABLE", "REGISTRY", "VIOLATED", "Claim",
    "Coverage", "Decision", "Evidence", "Figure", "Hypothesis", "Outcome", "Series", "Tally", "Verdict", "check",
    "coerce_dataset", "register", "rules", "run_claim", "worst",
]
