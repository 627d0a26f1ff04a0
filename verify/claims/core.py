"""Claims, verdicts and the registry.

A claim module (``lemmas/<paper>/<claim>.py``) builds one ``Claim`` and calls ``register``. Its
``check(data, prec)`` returns an ``Outcome``: the hypotheses checked on the data, the evidence
(value, relation, bound — arb balls, compared with certainty), figures and notes. ``run_claim``
runs the check at the working precision and again at a higher one, and counts for every figure the
digits that are both certified by its ball and unchanged by the recomputation; a verdict that
changes between the two precisions becomes INCONCLUSIVE.
"""
from __future__ import annotations

import difflib
import importlib
import pkgutil
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from flint import arb

from verify.data.dataset import Dataset
from verify.errors import DataError, NotApplicable, UsageError
from verify.numbers.precision import (
    Precision,
    agreement_digits,
    certified_digits,
    to_arb,
    to_decimal_string,
    working_precision,
)

HOLDS, VIOLATED, INCONCLUSIVE, NOT_APPLICABLE = "HOLDS", "VIOLATED", "INCONCLUSIVE", "NOT_APPLICABLE"
EXIT_CODES = {HOLDS: 0, VIOLATED: 1, INCONCLUSIVE: 3, NOT_APPLICABLE: 4}
SEVERITY = {VIOLATED: 3, INCONCLUSIVE: 2, NOT_APPLICABLE: 1, HOLDS: 0}  # 1 > 3 > 4 > 0
KINDS = ("identity", "inequality", "existential", "asymptotic")
PAPERS = ("mmts", "tfsvm", "irgf")
PRIMARY_PAPER = "mmts"
RELATIONS = ("<", "<=", ">", ">=", "==", "~")


def worst(verdicts) -> str:
    verdicts = list(verdicts)
    return max(verdicts, key=SEVERITY.__getitem__) if verdicts else HOLDS


@dataclass
class Hypothesis:
    name: str
    met: bool
    detail: str = ""

    def to_json(self) -> dict:
        return {"name": self.name, "met": bool(self.met), "detail": self.detail}


@dataclass
class Evidence:
    """One figure compared with its bound: ``value relation bound``.

    A ``residual`` (a deviation expected to be ~0, e.g. of an identity) is stored as a rigorous upper
    bound of its absolute value; its digits are not counted as a figure's stable digits.

    ``decided`` is filled by ``decide``: True (certainly holds), False (certainly fails), None (the
    balls overlap). Relation "~" is a reported trend with no bound; ``holds`` may be set by the
    claim to override the automatic decision (for trends it judged itself)."""

    quantity: str
    value: object
    relation: str = "~"
    bound: object = None
    holds: bool | None = None
    stable_digits: int | None = None
    note: str = ""
    residual: bool = False  # a deviation that should be ~0: reported as a rigorous upper bound of |value|

    def __post_init__(self):
        if self.relation not in RELATIONS:
            raise ValueError(f"unknown relation {self.relation!r}")
        self._ball = None
        if self.residual and isinstance(self.value, arb):
            self._ball = abs(self.value)  # decisions use the enclosure; the report shows its upper end
            self.value = self._ball.upper()

    def decide(self) -> bool | None:
        if self.holds is not None or self.relation == "~":
            return self.holds
        if self._ball is not None and self.relation in ("<", "<=") and self.bound is not None:
            # a residual certainly holds when its upper end is below the bound, and is certainly
            # violated only when its lower end is above it (an upper end above it decides nothing)
            b = _as_arb(self.bound)
            if self._ball.upper() <= b if self.relation == "<=" else self._ball.upper() < b:
                return True
            if self._ball.lower() > b if self.relation == "<=" else self._ball.lower() >= b:
                return False
            return None
        if _is_exact(self.value) and _is_exact(self.bound):  # exact data: decide exactly
            a, b = Fraction(self.value), Fraction(self.bound)
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b}[self.relation]
        a, b = _as_arb(self.value), _as_arb(self.bound)
        ops = {
            "<": (lambda: a < b, lambda: a >= b),
            "<=": (lambda: a <= b, lambda: a > b),
            ">": (lambda: a > b, lambda: a <= b),
            ">=": (lambda: a >= b, lambda: a < b),
            "==": (lambda: a == b, lambda: a != b),
        }
        yes, no = ops[self.relation]
        if yes():
            return True
        if no():
            return False
        return None

    def margin(self):
        """bound − value for ≤/<, value − bound for ≥/>, |value − bound| for ==."""
        if self.relation == "~" or self.bound is None:
            return None
        if _is_exact(self.value) and _is_exact(self.bound):
            a, b = Fraction(self.value), Fraction(self.bound)
        else:
            a, b = _as_arb(self.value), _as_arb(self.bound)
        if self.relation in ("<", "<="):
            return b - a
        if self.relation in (">", ">="):
            return a - b
        return abs(a - b)

    def to_json(self, digits: int) -> dict:
        margin = self.margin()
        return {
            "quantity": self.quantity,
            "value": _fmt(self.value, digits),
            "relation": self.relation,
            "bound": _fmt(self.bound, digits) if self.bound is not None else None,
            "margin": _fmt(margin, digits) if margin is not None else None,
            "stable_digits": self.stable_digits,
            "holds": self.decide(),
            **({"note": self.note} if self.note else {}),
        }


def _is_exact(x) -> bool:
    return isinstance(x, (int, Fraction)) and not isinstance(x, bool)


def _as_arb(x):
    if isinstance(x, arb):
        return x
    if isinstance(x, (int, Fraction)):
        return to_arb(x)
    if isinstance(x, float):
        return arb(x)  # only for plotting-grade figures a claim chose to report as floats
    raise TypeError(f"cannot compare a {type(x).__name__}")


def _fmt(x, digits: int):
    if x is None:
        return None
    if isinstance(x, (bool, str)):
        return x
    if isinstance(x, float):
        return repr(x)
    return to_decimal_string(x, digits)


@dataclass
class Series:
    label: str
    x: list
    y: list
    style: str = "-o"


@dataclass
class Figure:
    """A plot a claim wants in its report; ``report`` draws it with matplotlib."""

    name: str
    title: str
    xlabel: str
    ylabel: str
    series: list
    logx: bool = False
    logy: bool = False
    hlines: list = field(default_factory=list)  # (y, label)
    caption: str = ""


@dataclass
class Outcome:
    """What a check returns for one dataset. ``verdict`` None means: decide from the evidence."""

    hypotheses: list = field(default_factory=list)
    evidence: list = field(default_factory=list)
    verdict: str | None = None
    notes: list = field(default_factory=list)
    figures: list = field(default_factory=list)

    def decide(self) -> str:
        if any(not h.met for h in self.hypotheses):
            return NOT_APPLICABLE
        if self.verdict is not None:
            return self.verdict
        decided = [e.decide() for e in self.evidence if e.relation != "~" or e.holds is not None]
        if any(d is False for d in decided):
            return VIOLATED
        if any(d is None for d in decided) or not decided:
            return INCONCLUSIVE
        return HOLDS


@dataclass
class Claim:
    id: str
    paper: str
    number: str
    title: str
    kind: str
    statement: str
    check: Callable[[Dataset, Precision], Outcome]
    default_datasets: Callable[[], list]
    aliases: tuple = ()
    recompute: bool = True  # recompute at a higher precision to count stable digits
    default_precision: int = 50
    module: str = ""
    strategy: Callable | None = None  # hypothesis strategy factory for ``hunt`` (default: verify.search.datasets)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.id}: unknown kind {self.kind!r}")
        if self.paper not in PAPERS:
            raise ValueError(f"{self.id}: unknown paper {self.paper!r}")

    def summary(self) -> dict:
        return {
            "id": self.id,
            "paper": self.paper,
            "number": self.number,
            "title": self.title,
            "kind": self.kind,
            "aliases": list(self.aliases),
        }


@dataclass
class Verdict:
    claim: Claim
    verdict: str
    precision: int
    stable_digits: int
    hypotheses: list
    evidence: list
    dataset: str
    seconds: float
    notes: list = field(default_factory=list)
    figures: list = field(default_factory=list)
    datasets: list = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.verdict]

    def to_json(self) -> dict:
        digits = max(1, min(self.precision, 40))
        return {
            "claim": self.claim.id,
            "paper": self.claim.paper,
            "number": self.claim.number,
            "title": self.claim.title,
            "kind": self.claim.kind,
            "verdict": self.verdict,
            "precision": self.precision,
            "stable_digits": self.stable_digits,
            "hypotheses": [h.to_json() for h in self.hypotheses],
            "evidence": [e.to_json(digits) for e in self.evidence],
            "dataset": self.dataset,
            "seconds": round(self.seconds, 3),
            "notes": list(self.notes),
        }

    def to_markdown(self, figure_paths=None) -> str:
        from verify.report.markdown import verdict_markdown

        return verdict_markdown(self, figure_paths or {})

    def _repr_markdown_(self) -> str:  # notebooks
        return self.to_markdown()


# ----- running a claim ---------------------------------------------------------------------------
def _run_once(claim: Claim, data: Dataset, dps: int) -> Outcome:
    with working_precision(dps) as prec:
        out = claim.check(data, prec)
        if not isinstance(out, Outcome):
            raise TypeError(f"{claim.id}.check returned {type(out).__name__}, not Outcome")
        out.verdict = out.decide()
        return out


def _stabilise(claim: Claim, low: Outcome, high: Outcome | None, dps: int) -> int:
    """Fill each evidence item's stable_digits; return the minimum over value figures."""
    digits = []
    for k, ev in enumerate(low.evidence):
        if isinstance(ev.value, (bool, str)) or ev.residual:
            continue
        if _is_exact(ev.value):  # exact rationals: every digit is stable
            ev.stable_digits = dps
            digits.append(dps)
            continue
        d = certified_digits(_as_arb(ev.value), cap=dps) if not isinstance(ev.value, float) else 15
        if high is not None and k < len(high.evidence) and high.evidence[k].quantity == ev.quantity:
            hv = high.evidence[k].value
            if not isinstance(hv, (bool, str)) and not isinstance(ev.value, float):
                d = min(d, agreement_digits(_as_arb(ev.value), _as_arb(hv), dps))
        ev.stable_digits = d
        digits.append(d)
    return min(digits) if digits else dps


def run_claim(claim: Claim, datasets, dps: int = 50, progress=None) -> Verdict:
    """Run ``claim`` on each dataset at ``dps`` digits (and a higher precision); combine worst-wins."""
    start = time.perf_counter()
    datasets = list(datasets)
    hyps, evid, notes, figs, verdicts, stable = [], [], [], [], [], []
    multi = len(datasets) > 1
    for data in datasets:
        prefix = f"{data.name}: " if multi else ""
        low = _run_once(claim, data, dps)
        high = None
        if claim.recompute and low.verdict != NOT_APPLICABLE:
            high = _run_once(claim, data, Precision(dps).higher().dps)
        stable.append(_stabilise(claim, low, high, dps))
        v = low.verdict
        if high is not None and high.verdict != v:
            notes.append(
                f"{prefix}verdict {v} at {dps} digits but {high.verdict} at {Precision(dps).higher().dps}: INCONCLUSIVE"
            )
            v = INCONCLUSIVE
        verdicts.append(v)
        for h in low.hypotheses:
            hyps.append(Hypothesis(prefix + h.name, h.met, h.detail))
        for e in low.evidence:
            e.quantity = prefix + e.quantity
            evid.append(e)
        notes.extend(prefix + n for n in low.notes)
        for f in low.figures:
            f.name = (f"{data.name}-" if multi else "") + f.name
            figs.append(f)
        if progress:
            progress(1)
    return Verdict(
        claim=claim,
        verdict=worst(verdicts),
        precision=dps,
        stable_digits=min(stable) if stable else dps,
        hypotheses=hyps,
        evidence=evid,
        dataset=", ".join(d.name for d in datasets),
        seconds=time.perf_counter() - start,
        notes=notes,
        figures=figs,
        datasets=list(zip([d.name for d in datasets], verdicts)),
    )


# ----- registry ----------------------------------------------------------------------------------
class Registry:
    def __init__(self):
        self.claims: dict[str, Claim] = {}
        self.aliases: dict[str, list[str]] = {}
        self._discovered = False

    def register(self, claim: Claim) -> Claim:
        if claim.id in self.claims and self.claims[claim.id].module != claim.module:
            raise ValueError(f"claim id {claim.id} registered twice")
        self.claims[claim.id] = claim
        for alias in claim.aliases:
            ids = self.aliases.setdefault(alias, [])
            if claim.id not in ids:
                ids.append(claim.id)
        return claim

    def discover(self, package: str = "lemmas") -> None:
        if self._discovered:
            return
        self._discovered = True
        pkg = importlib.import_module(package)
        for info in pkgutil.walk_packages(pkg.__path__, prefix=package + "."):
            importlib.import_module(info.name)

    def all(self, paper: str | None = None) -> list[Claim]:
        self.discover()
        claims = [c for c in self.claims.values() if paper is None or c.paper == paper]
        order = {p: k for k, p in enumerate(PAPERS)}
        return sorted(claims, key=lambda c: (order[c.paper], _natural(c.id)))

    def resolve(self, name: str) -> tuple[Claim, str | None]:
        """The claim for an id, a bare number (resolved in mmts) or an alias; note says what was chosen."""
        self.discover()
        key = name.strip()
        if key in self.claims:
            return self.claims[key], None
        if key.split(".")[0] not in PAPERS and f"{PRIMARY_PAPER}.{key}" in self.claims:
            cid = f"{PRIMARY_PAPER}.{key}"
            return self.claims[cid], f"'{key}' resolved to {cid} ({self.claims[cid].number} of {PRIMARY_PAPER})"
        if key in self.aliases:
            ids = self.aliases[key]
            if len(ids) == 1:
                return self.claims[ids[0]], f"alias '{key}' resolved to {ids[0]}"
            raise UsageError(f"alias '{key}' is shared by {', '.join(ids)}: name one of them")
        names = list(self.claims) + list(self.aliases)
        close = difflib.get_close_matches(key, names, n=5, cutoff=0.5)
        hint = f"; closest: {', '.join(close)}" if close else "; see 'python -m verify list'"
        if key.lower() in PAPERS:
            hint = f"; to run a paper's claims use 'python -m verify all --paper {key.lower()}'"
        raise UsageError(f"unknown claim id '{key}'{hint}")


def _natural(cid: str):
    import re

    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", cid)]


REGISTRY = Registry()


def register(claim: Claim) -> Claim:
    return REGISTRY.register(claim)


def coerce_dataset(data) -> Dataset:
    from verify.data.dataset import load_dataset

    if isinstance(data, Dataset):
        return data
    if isinstance(data, dict):
        return Dataset.from_dict(data, name="dataset")
    if isinstance(data, str):
        return load_dataset(data)
    raise DataError(f"cannot use a {type(data).__name__} as a dataset")


def check(claim_id: str, data=None, precision: int = 50) -> Verdict:
    """Run one claim from Python: on its default datasets, or on ``data`` (Dataset, dict or path)."""
    claim, _ = REGISTRY.resolve(claim_id)
    datasets = [coerce_dataset(data)] if data is not None else claim.default_datasets(seed=0)
    return run_claim(claim, datasets, dps=precision)


__all__ = [
    "Claim",
    "Evidence",
    "Figure",
    "Hypothesis",
    "NotApplicable",
    "Outcome",
    "REGISTRY",
    "Series",
    "Verdict",
    "check",
    "register",
    "run_claim",
]
