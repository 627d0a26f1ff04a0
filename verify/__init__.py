"""attnverify: executable high-precision checks of the claims of three papers on softmax attention.

    >>> import verify
    >>> v = verify.check("mmts.lemma3", precision=60)   # a Verdict; renders as markdown
"""
from verify.claims import REGISTRY, Claim, Evidence, Figure, Hypothesis, Outcome, Series, Verdict, check, register
from verify.data.dataset import Dataset, load_dataset
from verify.numbers.precision import allow_exact_text, working_precision

allow_exact_text()  # exact values of valid data reach beyond Python's 4300-digit int↔str limit

__all__ = [
    "REGISTRY",
    "Claim",
    "Dataset",
    "Evidence",
    "Figure",
    "Hypothesis",
    "Outcome",
    "Series",
    "Verdict",
    "check",
    "load_dataset",
    "register",
    "working_precision",
]
__version__ = "0.1.0"
