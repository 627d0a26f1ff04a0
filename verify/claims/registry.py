"""``Claim`` and the registry: ids, aliases, discovery of the claim modules under ``lemmas/``."""
from __future__ import annotations

import difflib
import importlib
import importlib.util
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


MANIFEST = "manifest.json"  # in the claims package (lemmas/): ids, aliases, modules and each module file's SHA-256


class Registry:
    """The claims by id and alias. ``all()`` imports every claim module; ``resolve`` and ``summaries`` read the
    claims package's manifest (``lemmas/manifest.json``, written by ``python dev/make_manifest.py``) and import one
    module or none — the CLI answers an unknown id in a fraction of a second, not after importing 80 modules. The
    manifest is used only while every module file's SHA-256 is the one it records (else: full discovery, so a stale
    manifest can never make a claim unknown or resolve a name wrongly)."""

    def __init__(self):
        self.claims: dict[str, Claim] = {}
        self.aliases: dict[str, list[str]] = {}
        self._discovered = False
        self._manifest: dict | None | bool = False  # False: not read yet; None: absent or stale

    def register(self, claim: Claim) -> Claim:
        if claim.id in self.claims and self.claims[claim.id].module != claim.module:
            raise ValueError(f"claim id {claim.id} registered twice")
        self.claims[claim.id] = claim
        for alias in claim.aliases:
            ids = self.aliases.setdefault(alias, [])
            if claim.id not in ids:
                ids.append(claim.id)
        return claim

    @staticmethod
    def module_files(package: str = "lemmas") -> dict[str, str]:
        """{claim module name: its file's SHA-256} for every module of ``package`` (the template excluded)."""
        import hashlib

        out = {}
        for name in _claim_modules(package, packages=False):
            with open(importlib.util.find_spec(name).origin, "rb") as f:
                out[name] = hashlib.sha256(f.read()).hexdigest()
        return out

    def discover(self, package: str = "lemmas") -> None:
        if self._discovered:
            return
        self._discovered = True
        for name in _claim_modules(package):
            importlib.import_module(name)

    def manifest(self, package: str = "lemmas") -> dict | None:
        """The claims package's manifest if it matches every module file, else None (read once per process)."""
        if self._manifest is False:
            import json
            import os

            self._manifest = None
            try:
                pkg = importlib.import_module(package)
                with open(os.path.join(os.path.dirname(pkg.__file__), MANIFEST), encoding="utf-8") as f:
                    manifest = json.load(f)
                if manifest.get("modules") == self.module_files(package):
                    self._manifest = manifest
            except (OSError, ValueError, AttributeError):
                pass
        return self._manifest

    def build_manifest(self, package: str = "lemmas") -> dict:
        """The manifest of the claims as discovery registers them (``dev/make_manifest.py`` writes it)."""
        self.discover(package)
        return {"modules": self.module_files(package),
                "claims": [dict(c.summary(), module=c.module) for c in self.all() if c.module.startswith(package)]}

    def all(self, paper: str | None = None) -> list[Claim]:
        self.discover()
        claims = [c for c in self.claims.values() if paper is None or c.paper == paper]
        return sorted(claims, key=lambda c: registry_order(c.id))

    def summaries(self, paper: str | None = None) -> list[dict]:
        """``Claim.summary()`` of every claim in the registry's order (from the manifest when it is fresh)."""
        manifest = None if self._discovered else self.manifest()
        if manifest is None:
            return [c.summary() for c in self.all(paper)]
        return [{k: v for k, v in c.items() if k != "module"} for c in manifest["claims"]
                if paper is None or c["paper"] == paper]

    def resolve(self, name: str) -> tuple[Claim, str | None]:
        """The claim for an id, a bare number (resolved in mmts) or an alias; note says what was chosen."""
        manifest = None if self._discovered else self.manifest()
        if manifest is None:
            self.discover()
            return self._resolve_in(self.claims, self.aliases, name, self.claims.__getitem__)
        ids = {c["id"]: c["module"] for c in manifest["claims"]}
        ids.update({cid: c.module for cid, c in self.claims.items()})  # claims registered by hand (tests, plugins)
        aliases: dict[str, list[str]] = {}
        for c in manifest["claims"]:
            for alias in c["aliases"]:
                aliases.setdefault(alias, []).append(c["id"])
        for alias, owners in self.aliases.items():
            aliases.setdefault(alias, []).extend(cid for cid in owners if cid not in aliases[alias])

        def load(cid: str) -> Claim:
            if cid not in self.claims:
                importlib.import_module(ids[cid])
            return self.claims[cid]

        return self._resolve_in(ids, aliases, name, load)

    @staticmethod
    def _resolve_in(ids, aliases: dict, name: str, load: Callable) -> tuple[Claim, str | None]:
        key = name.strip()
        if key in ids:
            return load(key), None
        if key.split(".")[0] not in PAPERS and f"{PRIMARY_PAPER}.{key}" in ids:
            claim = load(f"{PRIMARY_PAPER}.{key}")
            return claim, f"'{key}' resolved to {claim.id} ({claim.number} of {PRIMARY_PAPER})"
        if key in aliases:
            owners = aliases[key]
            if len(owners) == 1:
                return load(owners[0]), f"alias '{key}' resolved to {owners[0]}"
            owners = sorted(owners, key=registry_order)
            raise UsageError(f"alias '{key}' is shared by {', '.join(owners)}: name one of them")
        names = list(ids) + list(aliases)
        close = difflib.get_close_matches(key, names, n=5, cutoff=0.5)
        hint = f"; closest: {', '.join(close)}" if close else "; see 'python -m verify list'"
        if key.lower() in PAPERS:
            hint = f"; to run a paper's claims use 'python -m verify all --paper {key.lower()}'"
        raise UsageError(f"unknown claim id '{key}'{hint}")


def _claim_modules(package: str, packages: bool = True):
    """The module names under ``package`` in walk order (its subpackages too unless ``packages`` is False), the
    template excluded (lemmas/TEMPLATE.py is a model to copy)."""
    pkg = importlib.import_module(package)
    for info in pkgutil.walk_packages(pkg.__path__, prefix=package + "."):
        if (packages or not info.ispkg) and info.name.rsplit(".", 1)[-1] != "TEMPLATE":
            yield info.name


def registry_order(cid: str):
    """The registry's order: by paper (PAPERS), then by id with numbers compared as numbers."""
    paper = cid.split(".")[0]
    return (PAPERS.index(paper) if paper in PAPERS else len(PAPERS), _natural(cid))


def _natural(cid: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", cid)]


REGISTRY = Registry()


def register(claim: Claim) -> Claim:
    return REGISTRY.register(claim)
