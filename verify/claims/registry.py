"""``Claim`` and the registry: ids, aliases, discovery of the claim modules under ``lemmas/``."""
from __future__ import annotations

import difflib
import importlib
import pkgutil
import re
from dataclasses import dataclass
from typing import Callable

from verify.errors import UsageError

KINDS = ("identity", "inequality", "existential", "asymptotic", "empirical")
#: ``empirical``: a proposal or conjecture the paper supports by experiments only (tfsvm Conjectures 1, 2). Its verdict
#: is never ``certified``: HOLDS is evidence over the trial protocol (``Outcome.range``), VIOLATED is evidence with the
#: failing trial as its witness (``verdict.as_empirical``).
#: how a check covers a universally quantified parameter of its statement (docs/parameters.md):
#: the hardest case derived from the data; a ladder or search run until the check's own criterion settles;
#: a stated range, named in the verdict's ``range``; or nothing to cover (the statement is about the data alone)
COVERAGES = ("hardest", "search", "range")
OPTION_KINDS = ("rational", "rationals", "integer")
PAPERS = ("mmts", "tfsvm", "irgf")
PRIMARY_PAPER = "mmts"


@dataclass(frozen=True)
class Parameter:
    """A universally quantified parameter of a claim's statement ("for every π > 0", "from any W(0)", "every
    η(0) ≤ c/‖W^mm‖") and how the check covers it — the rows of docs/parameters.md.

    ``coverage``: ``hardest`` (the hardest case derived from the data), ``search`` (a ladder or search that
    runs until the check's own criterion settles) or ``range`` (the values covered, stated in the verdict's
    ``range``). ``option``: the check's keyword that sets it, when a user (or ``verify hunt``) may choose the
    values; ``kind`` says how a value is read from a dataset's ``options`` (``rational``: one exact number;
    ``rationals``: a list of them; ``integer``), ``low``/``high`` its bounds (``low`` exclusive for rationals,
    inclusive for integers). ``hunt``: whether ``verify hunt`` draws it (within the bounds)."""

    symbol: str
    quantifier: str
    coverage: str
    how: str
    option: str | None = None
    kind: str = "rational"
    low: object = None
    high: object = None
    hunt: bool = False

    def __post_init__(self):
        if self.coverage not in COVERAGES:
            raise ValueError(f"{self.symbol}: unknown coverage {self.coverage!r}")
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"{self.symbol}: unknown option kind {self.kind!r}")
        if self.hunt and (self.option is None or self.low is None or self.high is None):
            raise ValueError(f"{self.symbol}: a hunted parameter needs an option and its bounds")

    def parse(self, value, where: str):
        """A value from a dataset's ``options`` (JSON), converted exactly and bounded, else DataError."""
        from verify.errors import DataError

        if self.kind == "rationals":
            if not isinstance(value, list) or not value:
                raise DataError(f"{where}: expected a non-empty list of numbers")
            return tuple(self._one(x, f"{where}[{k}]") for k, x in enumerate(value))
        x = self._one(value, where)
        if self.kind == "integer":
            if x.denominator != 1:
                raise DataError(f"{where}: expected an integer, got {value!r}")
            return int(x)
        return x

    def _one(self, value, where: str):
        from fractions import Fraction

        from verify.data.inputs import parse_number
        from verify.errors import DataError

        x = parse_number(value, where)
        low = None if self.low is None else Fraction(self.low)
        high = None if self.high is None else Fraction(self.high)
        if low is not None and (x < low if self.kind == "integer" else x <= low):
            raise DataError(f"{where}: {self.symbol} must be {'at least' if self.kind == 'integer' else 'above'} "
                            f"{self.low}, got {value!r}")
        if high is not None and x > high:
            raise DataError(f"{where}: {self.symbol} must be at most {self.high}, got {value!r}")
        return x


@dataclass
class Claim:
    """One lemma or theorem: its id, where it is in the paper, its statement, and its check."""

    id: str
    paper: str
    number: str
    title: str
    kind: str
    statement: str
    check: Callable  # (Dataset, Precision) -> Outcome; further parameters must have defaults
    default_datasets: Callable | tuple  # (seed=0) -> [Dataset], or a tuple of dataset factories (no seed)
    aliases: tuple = ()
    recompute: bool = True  # recompute at a higher precision to count stable digits
    default_precision: int = 50
    module: str = ""  # default: the check's module
    strategy: Callable | None = None  # hypothesis strategy factory for ``hunt`` (default: verify.search.hunt.datasets)
    #: the statement's universally quantified parameters and their coverage (``Parameter``s; ``()``: none beyond
    #: the data). None = not inventoried yet: tests/test_parameters.py requires every registered claim to declare.
    parameters: tuple | None = None
    #: region certificates the check can write: name → builder(dataset, params) → ``verify.numbers.regions.Margin``
    #: (``python -m verify recheck`` rebuilds the margin from a certificate with it)
    regions: dict | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.id}: unknown kind {self.kind!r}")
        if self.paper not in PAPERS:
            raise ValueError(f"{self.id}: unknown paper {self.paper!r}")
        self.module = self.module or self.check.__module__
        for par in self.parameters or ():
            if not isinstance(par, Parameter):
                raise ValueError(f"{self.id}: parameters are Parameter declarations")
        if not callable(self.default_datasets):
            factories = tuple(self.default_datasets)
            self.default_datasets = lambda seed=0: [make() for make in factories]

    def option_parameters(self) -> dict:
        """{option keyword: Parameter} for the parameters a dataset's ``options`` may set."""
        return {p.option: p for p in self.parameters or () if p.option}

    def summary(self) -> dict:
        return {"id": self.id, "paper": self.paper, "number": self.number, "title": self.title, "kind": self.kind,
                "aliases": list(self.aliases)}


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
            if info.name.rsplit(".", 1)[-1] != "TEMPLATE":  # lemmas/TEMPLATE.py is a model to copy
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
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", cid)]


REGISTRY = Registry()


def register(claim: Claim) -> Claim:
    return REGISTRY.register(claim)
