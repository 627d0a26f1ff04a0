"""Claims and verdicts: what a claim module imports.

``verdict`` — Hypothesis, Evidence, Tally, Outcome and the one decision table; ``rules`` — the declared
rules for trends and witnesses; ``registry`` — Claim and the registry; ``runner`` — running a claim at
two precisions into a Verdict; ``progress`` — ``steps(total, what)`` for a long check to say how far it is.
"""
from verify.claims import rules
from verify.claims.progress import steps
from verify.claims.registry import REGISTRY, Claim, register
from verify.claims.runner import EXIT_CODES, Verdict, check, coerce_dataset, run_claim, worst
from verify.claims.verdict import *  # noqa: F403 (the vocabulary of a check: verdict.__all__)
from verify.claims.verdict import __all__ as _verdict_names
from verify.report.figures import Figure, Series

__all__ = ["EXIT_CODES", "REGISTRY", "Claim", "Figure", "Series", "Verdict", "check", "coerce_dataset", "register",
           "rules", "run_claim", "steps", "worst", *_verdict_names]
