"""Running a claim: every dataset at the working precision and again higher, stable digits, one Verdict.

``run_claim`` runs the check at ``dps`` digits and at ``Precision(dps).higher()``; the outcome's
verdict is decided by ``Outcome.decide`` (``verify.claims.verdict``), and a verdict that changes
between the two precisions becomes INCONCLUSIVE. For every figure it counts the digits that are
both certified by its ball and unchanged by the recomputation. Datasets combine worst-wins
(VIOLATED > INCONCLUSIVE > NOT_APPLICABLE > HOLDS).
"""
from __future__ import annotations

import copy
import dataclasses
import functools
import inspect
import time
from dataclasses import dataclass, field

from verify.claims.progress import phase
from verify.claims.registry import REGISTRY, Claim
from verify.claims.verdict import (
    CERTIFIED,
    EVIDENCE,
    HOLDS,
    INCONCLUSIVE,
    LEVELS,
    NOT_APPLICABLE,
    PROVEN,
    VIOLATED,
    Hypothesis,
    Outcome,
    _as_arb,
    _is_exact,
    as_empirical,
)
from verify.data.dataset import Dataset
from verify.errors import DataError, Undecided, UsageError
from verify.numbers.precision import Precision, agreement_digits, certified_digits, working_precision, zero_digits
from verify.report.markdown import verdict_label

EXIT_CODES = {HOLDS: 0, VIOLATED: 1, INCONCLUSIVE: 3, NOT_APPLICABLE: 4}
SEVERITY = {VIOLATED: 3, INCONCLUSIVE: 2, NOT_APPLICABLE: 1, HOLDS: 0}  # 1 > 3 > 4 > 0


def worst(verdicts) -> str:
    verdicts = list(verdicts)
    return max(verdicts, key=SEVERITY.__getitem__) if verdicts else HOLDS


@dataclass
class DatasetVerdict:
    name: str
    verdict: str
    certainty: str | None
    range: str | None
    reasons: list
    points: int | None = None  # a certified HOLDS: the most points one Tally decided (None: no Tally)

    def to_json(self) -> dict:
        return {"name": self.name, "verdict": self.verdict, "certainty": self.certainty, "range": self.range,
                "points": self.points, "reasons": list(self.reasons)}


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
    datasets: list = field(default_factory=list)  # [DatasetVerdict]
    certainty: str | None = None
    range: str | None = None
    reasons: list = field(default_factory=list)
    certificates: list = field(default_factory=list)  # (dataset name, region certificate dict)
    points: int | None = None  # a certified HOLDS: the points its tallies decided, summed over the datasets
    inputs: list = field(default_factory=list)  # (dataset name, the dataset's exact JSON dict), in order

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.verdict]

    @property
    def label(self) -> str:
        return verdict_label(self.verdict, self.certainty, self.range, self.points)

    def to_json(self) -> dict:
        digits = max(1, min(self.precision, 40))
        return {
            "claim": self.claim.id,
            "paper": self.claim.paper,
            "number": self.claim.number,
            "title": self.claim.title,
            "kind": self.claim.kind,
            "verdict": self.verdict,
            "certainty": self.certainty,
            "range": self.range,
            "points": self.points,
            "reasons": list(self.reasons),
            "precision": self.precision,
            "stable_digits": self.stable_digits,
            "hypotheses": [h.to_json() for h in self.hypotheses],
            "evidence": [e.to_json(digits) if hasattr(e, "to_json") else e for e in self.evidence],
            "dataset": self.dataset,
            "datasets": [d.to_json() for d in self.datasets],
            "seconds": round(self.seconds, 3),
            "notes": list(self.notes),
        }

    def to_markdown(self, figure_paths=None) -> str:
        from verify.report.markdown import verdict_markdown

        return verdict_markdown(self, figure_paths or {})

    def _repr_markdown_(self) -> str:  # notebooks
        return self.to_markdown()

    def __str__(self) -> str:
        why = "".join(f"\n  why: {r}" for r in self.reasons)
        return f"{self.claim.id} ({self.dataset}): {self.label}{why}"


def dataset_options(claim: Claim, data: Dataset) -> dict:
    """The values of the claim's declared parameters that the dataset carries (``options`` in its JSON: how a
    ``verify hunt`` find replays with ``--data``), parsed exactly and bounded; an undeclared one is a DataError."""
    raw = data.options_for(claim.id)
    declared = claim.option_parameters()
    unknown = sorted(set(raw) - set(declared))
    if unknown:
        raise DataError(f"{data.name}: options for {claim.id}: unknown option(s) {', '.join(unknown)}; declared: "
                        f"{', '.join(declared) or 'none'}")
    return {k: declared[k].parse(v, f"options[{claim.id!r}][{k!r}]") for k, v in raw.items()}


def _run_once(claim: Claim, data: Dataset, dps: int) -> Outcome:
    given = getattr(claim.check, "keywords", {})  # options given in Python (verify.check) win over the dataset's
    options = {k: v for k, v in dataset_options(claim, data).items() if k not in given}
    with working_precision(dps) as prec:
        try:
            out = claim.check(data, prec, **options)
        except Undecided as exc:  # a step had no answer (a flow's start not resolved, a float64 ladder beyond range):
            out = Outcome()  # this dataset is INCONCLUSIVE naming it; the other datasets and claims go on
            out.require("the check ran to its end", False, str(exc))
        if not isinstance(out, Outcome):
            raise TypeError(f"{claim.id}.check returned {type(out).__name__}, not Outcome")
        out.decided = out.decision()
        if claim.kind == "empirical":
            out.decided = as_empirical(out.decided, out.range)
        return out


def _stabilise(low: Outcome, high: Outcome | None, dps: int) -> int:
    """Fill each evidence item's stable_digits; return the minimum over value figures. A figure with no stable
    significant digit that is zero to the precision (``zero_digits``: both runs contain 0 or are below 10^−dps) gets
    ``zero_to`` (the decimal places it is 0 to) and counts in the minimum with those places only if every figure is
    such (an integrator's drift of 10⁻³⁷, a limit reached, must not make "stable: 0" of a claim's answer)."""
    digits, zeros = [], []
    for k, ev in enumerate(low.evidence):
        if isinstance(ev.value, (bool, str)) or ev.value is None or ev.residual:
            continue
        if _is_exact(ev.value):  # exact rationals: every digit is stable
            ev.stable_digits = dps
            digits.append(dps)
            continue
        d = certified_digits(_as_arb(ev.value), cap=dps) if not isinstance(ev.value, float) else 15
        hv = None
        if high is not None and k < len(high.evidence) and high.evidence[k].quantity == ev.quantity:
            hv = high.evidence[k].value
            if hv is not None and not isinstance(hv, (bool, str)) and not isinstance(ev.value, float):
                d = min(d, agreement_digits(_as_arb(ev.value), _as_arb(hv), dps))
            else:
                hv = None
        ev.stable_digits = d
        if d == 0 and not isinstance(ev.value, float):
            z = zero_digits(_as_arb(ev.value), None if hv is None else _as_arb(hv), dps)
            if z > 0:
                ev.zero_to = z
                zeros.append(z)
                continue
        digits.append(d)
    return min(digits) if digits else min(zeros) if zeros else dps


def _combine(per: list[DatasetVerdict], multi: bool):
    """(verdict, certainty, range, reasons, points) of several datasets: worst verdict; a HOLDS at the weakest
    dataset's level, its points summed over the datasets that name some."""
    verdict = worst(d.verdict for d in per)
    mine = [d for d in per if d.verdict == verdict]
    certainty, points = None, None
    if verdict == HOLDS:
        certainty = min((d.certainty for d in per), key=LEVELS.index, default=CERTIFIED)
        named = [d.points for d in per if d.points is not None]
        points = sum(named) if certainty == CERTIFIED and named else None
    elif verdict == VIOLATED:
        certainty = CERTIFIED if any(d.certainty == CERTIFIED for d in mine) else EVIDENCE
    rng = None
    if certainty == EVIDENCE:
        counted = [d for d in (per if verdict == HOLDS else mine) if d.certainty == EVIDENCE]
        ranges = list(dict.fromkeys(d.range or "the range computed" for d in counted))
        rng = ranges[0] if len(ranges) == 1 else "; ".join(f"{d.name}: {d.range or '—'}" for d in counted)
    elif verdict == HOLDS and any(d.range for d in per):  # proven on its regions; covered for the values named
        def text(d):  # a proven dataset's regions, inside a weaker claim's line, say they were proven
            return f"proven on {d.range}" if d.certainty == PROVEN != certainty else d.range

        ranges = list(dict.fromkeys(text(d) for d in per if d.range))
        rng = ranges[0] if len(ranges) == 1 and all(d.range for d in per) else \
            "; ".join(f"{d.name}: {text(d)}" for d in per if d.range)
    reasons = [(f"{d.name}: " if multi else "") + r for d in mine for r in d.reasons]
    return verdict, certainty, rng, reasons, points


@dataclass
class FrozenEvidence:
    """An evidence item formatted for the report (portable between processes: no arb balls)."""

    quantity: str
    data: dict
    holds: bool | None
    stable_digits: int | None

    @classmethod
    def of(cls, e, digits: int) -> "FrozenEvidence":
        return cls(e.quantity, e.to_json(digits), e.decide(), e.stable_digits)

    def decide(self) -> bool | None:
        return self.holds

    def to_json(self, digits: int) -> dict:
        return {**self.data, "quantity": self.quantity}


@dataclass
class DatasetRun:
    """One dataset's outcome at the working precision, checked against the higher one."""

    verdict: DatasetVerdict
    hypotheses: list
    evidence: list
    notes: list
    figures: list
    stable: int
    seconds: float
    certificates: list = field(default_factory=list)  # region certificates (dicts) of the working-precision run
    data: dict | None = None  # the dataset exactly as used (``Dataset.to_dict``): a report carries it

    def freeze(self, dps: int) -> "DatasetRun":
        """The same result with its evidence formatted: picklable, for ``verify all --jobs``."""
        digits = max(1, min(dps, 40))
        return DatasetRun(self.verdict, self.hypotheses, [FrozenEvidence.of(e, digits) for e in self.evidence],
                          self.notes, self.figures, self.stable, self.seconds, self.certificates, self.data)


def scope(out: Outcome) -> str | None:
    """The verdict's ``range``: how far an evidence verdict computed (``Outcome.range``), the regions a proven
    HOLDS covers and, for a HOLDS, the values its "for every" parameters were covered at (``Outcome.cover``);
    None for the rest."""
    d = out.decided
    parts = ([out.range] if d.certainty == EVIDENCE and out.range else []) + \
        (list(d.regions) if d.certainty == PROVEN else []) + (list(out.covers) if d.verdict == HOLDS else [])
    return "; ".join(parts) or None


def run_dataset(claim: Claim, data: Dataset, dps: int) -> DatasetRun:
    """``claim`` on one dataset at ``dps`` digits and again higher (stable digits, verdict recheck)."""
    start = time.perf_counter()
    higher = Precision(dps).higher().dps
    with phase(f"{data.name} at {dps} digits"):
        low = _run_once(claim, data, dps)
    high = None
    if claim.recompute and low.decided.verdict != NOT_APPLICABLE:
        with phase(f"{data.name}, recheck at {higher} digits"):
            high = _run_once(claim, data, higher)
    stable = _stabilise(low, high, dps)
    d = low.decided
    dv = DatasetVerdict(data.name, d.verdict, d.certainty, scope(low), list(d.reasons), d.points)
    notes = list(low.notes)
    if high is not None and high.decided.verdict != d.verdict:
        why = f"verdict {d.verdict} at {dps} digits but {high.decided.verdict} at {higher}"
        dv = DatasetVerdict(data.name, INCONCLUSIVE, None, None, [why])
        notes.append(f"{why}: INCONCLUSIVE")
    return DatasetRun(dv, low.hypotheses, low.evidence, notes, low.figures, stable, time.perf_counter() - start,
                      list(low.certificates), data.to_dict())


def combine(claim: Claim, runs: list, dps: int) -> Verdict:
    """One Verdict from the per-dataset runs (in dataset order), worst wins; several datasets prefix
    every quantity, hypothesis, note and figure with the dataset's name."""
    multi = len(runs) > 1
    hyps, evid, notes, figs, certs = [], [], [], [], []
    for run in runs:
        certs += [(run.verdict.name, cert) for cert in run.certificates]
        prefix = f"{run.verdict.name}: " if multi else ""
        hyps += [Hypothesis(prefix + h.name, h.met, h.detail) for h in run.hypotheses]
        for e in run.evidence:  # copies: the check's own objects are left as they were
            e = copy.copy(e)
            e.quantity = prefix + e.quantity
            evid.append(e)
        notes += [prefix + n for n in run.notes]
        for f in run.figures:
            f = copy.copy(f)
            f.name = (f"{run.verdict.name}-" if multi else "") + f.name
            figs.append(f)
    per = [run.verdict for run in runs]
    verdict, certainty, rng, reasons, points = _combine(per, multi)
    return Verdict(
        claim=claim, verdict=verdict, precision=dps, stable_digits=min((r.stable for r in runs), default=dps),
        hypotheses=hyps, evidence=evid, dataset=", ".join(d.name for d in per),
        seconds=sum(r.seconds for r in runs), notes=notes, figures=figs, datasets=per,
        certainty=certainty, range=rng, reasons=reasons, certificates=certs, points=points,
        inputs=[(run.verdict.name, run.data) for run in runs if run.data is not None],
    )


def run_claim(claim: Claim, datasets, dps: int = 50, progress=None) -> Verdict:
    """Run ``claim`` on each dataset at ``dps`` digits (and a higher precision); combine worst-wins."""
    runs = []
    for data in datasets:
        runs.append(run_dataset(claim, data, dps))
        if progress:
            progress(1)
    return combine(claim, runs, dps)


def coerce_dataset(data) -> Dataset:
    from verify.data.dataset import load_dataset

    if isinstance(data, Dataset):
        return data
    if isinstance(data, dict):
        return Dataset.from_dict(data, name="dataset")
    if isinstance(data, str):
        return load_dataset(data)
    raise DataError(f"cannot use a {type(data).__name__} as a dataset")


def check(claim_id: str, data=None, precision: int = 50, **options) -> Verdict:
    """Run one claim from Python: on its default datasets, or on ``data`` (Dataset, dict or path).
    ``options`` go to the claim's check (e.g. ``require_feasible=False``: a hypothesis switched off, the
    replay of a printed statement); an option the check does not take is a UsageError."""
    claim, _ = REGISTRY.resolve(claim_id)
    if options:
        params = inspect.signature(claim.check).parameters
        unknown = [k for k in options if k not in params or k in ("data", "prec")]
        if unknown:
            raise UsageError(f"{claim.id} takes no option {', '.join(unknown)}; its options: "
                             f"{', '.join(k for k in list(params)[2:]) or 'none'}")
        claim = dataclasses.replace(claim, check=functools.partial(claim.check, **options))
    datasets = [coerce_dataset(data)] if data is not None else claim.default_datasets(seed=0)
    return run_claim(claim, datasets, dps=precision)


def run_unit(claim_id: str, data, dps: int, scale: int = 1) -> DatasetRun:
    """One (claim, dataset) unit of ``verify all`` as a worker runs it (a local process or a Dask task): the claim
    by id, its region searches' budget × ``scale`` (--prove), the run frozen for the trip back (no arb balls)."""
    from verify.claims.registry import REGISTRY
    from verify.numbers.regions import budget_scale

    claim, _ = REGISTRY.resolve(claim_id)
    with budget_scale(scale):
        return run_dataset(claim, data, dps).freeze(dps)
