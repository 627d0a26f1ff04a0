"""What a check returns, and the one rule that turns it into a verdict.

A check returns an ``Outcome`` per dataset: the hypotheses it checked, its evidence, the
requirements of the check itself (a budget reached, a range covered), and — for asymptotic or
existential conclusions — the range it computed. Every evidence item either *decides* or is
*informative* (relation ``"~"``: shown, never deciding). A deciding item is decided by

* exact arithmetic (rationals, integers, booleans computed exactly),
* enclosures (arb balls: a comparison counts only when it is certain),
* a ``Tally``: the same comparison decided point by point at many points (every point is decided
  and counted: certainly holds / undecided / certainly fails), or
* a declared rule of ``verify.claims.rules`` (a ``Decision``: trends, divergence, witnesses).

``Outcome.decide`` — the decision table, first match wins:

====  ==============================================  ===============================
 1    a hypothesis not met                            NOT_APPLICABLE (named)
 2    a hypothesis undecided                          INCONCLUSIVE (named)
 3    a deciding item certainly fails (an evidence-   VIOLATED (named, with its witness)
      level one only while no invalidating
      requirement is unmet)
 4    a requirement of the check not met              INCONCLUSIVE (named)
 5    a deciding item undecided                       INCONCLUSIVE (named)
 6    a deciding item evaluated on zero points        INCONCLUSIVE (named)
 7    no deciding item at all                         INCONCLUSIVE (informative items only)
 8    otherwise                                       HOLDS
====  ==============================================  ===============================

Certainty: three levels, a HOLDS taking its weakest deciding item's (``Evidence.level``).

* ``proven`` — on the whole stated region (a region certificate: ``Evidence.proof``) or on the statement's whole
  domain through a stated reduction decided exactly (``Evidence.proves`` names the domain). The verdict's range
  names the region(s): "HOLDS — proven on ‖p‖∞ ≤ 1/2".
* ``certified`` — every deciding comparison decided by exact arithmetic or enclosures of enclosed values
  (``Evidence.enclosed``: False for numbers with no rigorous error bound, such as an integrator's output), at the
  points it names: "HOLDS — certified at 169 points" (``Decided.points``: the most points one Tally decided; none
  named when no Tally decides).
* ``evidence`` — anything else that decides, over the ``range`` the outcome states (e.g. "‖p‖ ≤ 10⁴"); an outcome
  that states a ``range`` is evidence whatever its items.

What a HOLDS covered of a "for every" parameter (``Outcome.cover``) is named beside it ("HOLDS — certified at 12
points for π ∈ {1/2, 1, 2}"). Items that only corroborate a proof (``Evidence.corroborates``: the same statement
probed at points beside a proof of it) can refute — a failure is a VIOLATED — but do not lower the certainty. A
VIOLATED is ``certified`` when one failing item is, else ``evidence``. No check sets a verdict by hand:
NOT_APPLICABLE comes from a hypothesis, VIOLATED from a failing item (its witness in the item's note).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb

from verify.numbers.precision import to_arb, to_decimal_string

HOLDS, VIOLATED, INCONCLUSIVE, NOT_APPLICABLE = "HOLDS", "VIOLATED", "INCONCLUSIVE", "NOT_APPLICABLE"
PROVEN, CERTIFIED, EVIDENCE = "proven", "certified", "evidence"
#: the certainty levels, weakest first: a HOLDS takes its weakest deciding item's
LEVELS = (EVIDENCE, CERTIFIED, PROVEN)
RELATIONS = ("<", "<=", ">", ">=", "==", "~")
__all__ = ["HOLDS", "VIOLATED", "INCONCLUSIVE", "NOT_APPLICABLE", "PROVEN", "CERTIFIED", "EVIDENCE", "LEVELS",
           "Coverage", "Decided", "Decision", "Evidence", "Hypothesis", "Outcome", "Proof", "Requirement", "Tally",
           "compare",
           "corroborating"]


@dataclass
class Hypothesis:
    """A hypothesis of the claim checked on the data: ``met`` True, False, or None (undecided)."""

    name: str
    met: bool | None
    detail: str = ""

    def to_json(self) -> dict:
        return {"name": self.name, "met": None if self.met is None else bool(self.met), "detail": self.detail}


@dataclass
class Requirement(Hypothesis):
    """A condition of the check itself (``Outcome.require``). ``invalidates``: unmet, it means the check computed
    another object than the statement's (a sphere search that did not find the minimiser, a precision that cannot
    resolve the quantity), so an evidence-level failure measured on that object is not counted."""

    invalidates: bool = False


@dataclass(frozen=True)
class Decision:
    """The answer of a declared rule (``verify.claims.rules``): True, False or None, and why."""

    holds: bool | None
    rule: str
    detail: str = ""


def _is_exact(x) -> bool:
    return isinstance(x, (int, Fraction)) and not isinstance(x, bool)


def _as_arb(x):
    if isinstance(x, arb):
        return x
    if isinstance(x, (int, Fraction)) and not isinstance(x, bool):
        return to_arb(x)
    if isinstance(x, float):
        return arb(x)  # a plotting-grade figure: its comparisons are never certified (see Evidence.certified)
    raise TypeError(f"cannot compare a {type(x).__name__} by enclosures")


_CERTAIN = {  # (certainly holds, certainly fails) for balls
    "<": lambda a, b: (a < b, a >= b), "<=": lambda a, b: (a <= b, a > b), ">": lambda a, b: (a > b, a <= b),
    ">=": lambda a, b: (a >= b, a < b), "==": lambda a, b: (a == b, a != b),
}
_EXACT = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
          ">=": lambda a, b: a >= b, "==": lambda a, b: a == b}


def compare(value, relation: str, bound, residual: bool = False) -> tuple[bool | None, str]:
    """Decide ``value relation bound``: (True/False/None, how: 'exact' | 'enclosure').

    Exact numbers (int, Fraction) and booleans compare exactly. Balls compare only when certain.
    A ``residual`` (a deviation that should be ~0) is ``|value| relation bound`` on the enclosure:
    it holds when the upper end is below the bound and fails only when the lower end is above it."""
    if isinstance(value, bool) or isinstance(bound, bool):
        if relation != "==" or not isinstance(value, bool) or not isinstance(bound, bool):
            raise TypeError("booleans compare only with '==' against a boolean")
        return value == bound, "exact"
    if residual:
        if relation not in ("<", "<="):
            raise ValueError("a residual compares with '<' or '<='")
        if _is_exact(value) and _is_exact(bound):
            return _EXACT[relation](abs(Fraction(value)), Fraction(bound)), "exact"
        v, b = abs(_as_arb(value)), _as_arb(bound)
        up, lo = arb(v.upper()), arb(v.lower())
        if (up <= b) if relation == "<=" else (up < b):
            return True, "enclosure"
        if (lo > b) if relation == "<=" else (lo >= b):
            return False, "enclosure"
        return None, "enclosure"
    if _is_exact(value) and _is_exact(bound):
        return _EXACT[relation](Fraction(value), Fraction(bound)), "exact"
    a, b = _as_arb(value), _as_arb(bound)
    yes, no = _CERTAIN[relation](a, b)
    return (True if yes else False if no else None), "enclosure"


def margin_of(value, relation: str, bound):
    """bound − value for ≤/<, value − bound for ≥/>, |value − bound| for == (None for booleans)."""
    if relation == "~" or value is None or bound is None or isinstance(value, (bool, str)) \
            or isinstance(bound, (bool, str)):
        return None
    if _is_exact(value) and _is_exact(bound):
        a, b = Fraction(value), Fraction(bound)
    else:
        a, b = _as_arb(value), _as_arb(bound)
    if relation in ("<", "<="):
        return b - a
    if relation in (">", ">="):
        return a - b
    return abs(a - b)


@dataclass
class Coverage:
    """Counts of a comparison decided at many points (a ``Tally``)."""

    points: int = 0
    holds: int = 0
    undecided: int = 0
    violated: int = 0
    worst_at: str = ""
    first_violation: str = ""
    first_undecided: str = ""

    def decision(self) -> bool | None:
        if self.violated:
            return False
        if self.undecided or not self.points:
            return None
        return True

    def describe(self) -> str:
        s = f"{self.points} point(s): {self.holds} certified, {self.undecided} undecided, {self.violated} violated"
        if self.first_violation:
            s += f"; first violation at {self.first_violation}"
        elif self.first_undecided:
            s += f"; first undecided at {self.first_undecided}"
        return s

    def to_json(self) -> dict:
        return {"points": self.points, "holds": self.holds, "undecided": self.undecided, "violated": self.violated,
                "worst_at": self.worst_at or None, "first_violation": self.first_violation or None,
                "first_undecided": self.first_undecided or None}


@dataclass
class Proof:
    """A comparison decided on every point of a region by a region certificate (``verify.numbers.regions``):
    ``status`` proven / violated (a certified counterexample, ``witness``) / undecided (the budget ended with
    ``undecided_share`` of the region's volume left). ``region`` names the region in words."""

    status: str
    region: str
    boxes: int = 0
    leaves: int = 0
    seconds: float = 0.0
    undecided_share: float = 0.0
    witness: str | None = None
    certificate: str | None = None  # the certificate's file name, once a report has written it

    def decision(self) -> bool | None:
        return {"proven": True, "violated": False}.get(self.status)

    def to_json(self) -> dict:
        return {"status": self.status, "region": self.region, "boxes": self.boxes, "leaves": self.leaves,
                "seconds": round(self.seconds, 3), "undecided_share": self.undecided_share,
                "witness": self.witness, "certificate": self.certificate}


@dataclass
class Evidence:
    """One figure: ``value relation bound`` (deciding) or an informative figure (relation "~").

    ``rule``: decided by a declared rule (``verify.claims.rules``) instead of a comparison.
    ``coverage``: decided point by point (built by ``Tally.evidence``); ``value`` is the worst point's.
    ``residual``: a deviation that should be ~0, compared through its enclosure's ends; the report
    shows the enclosure's upper end. ``enclosed``: False when the value carries no rigorous error
    bound (integrator output, a float fit): a decision on it is evidence, not a certificate.
    ``proof``: decided on a whole region by a region certificate (``Proof``); ``value`` is then the smallest
    lower end of the margin's enclosure over the region's leaves (or the margin at the witness).
    ``proves``: the domain on which this exact (or enclosed) comparison decides the statement, through a reduction
    stated in the claim (e.g. an algebraic identity valid for every s in the simplex): its level is ``proven``.
    ``corroborates``: the statement probed at points beside a proof of it — deciding (a failure refutes), but it
    does not lower the outcome's certainty (module docstring)."""

    quantity: str
    value: object
    relation: str = "~"
    bound: object = None
    note: str = ""
    residual: bool = False
    rule: Decision | None = None
    coverage: Coverage | None = None
    enclosed: bool = True
    stable_digits: int | None = None
    zero_to: int | None = None  # a figure zero to its precision: known to be 0 to this many decimal places
    proof: Proof | None = None
    proves: str = ""
    corroborates: bool = False

    def __post_init__(self):
        if self.relation not in RELATIONS:
            raise ValueError(f"unknown relation {self.relation!r}")
        self._ball = None
        if self.residual and isinstance(self.value, arb):
            self._ball = self.value  # decisions use the enclosure; the report shows the upper end of |value|
            self.value = abs(self.value).upper()

    @property
    def informative(self) -> bool:
        return self.relation == "~" and self.rule is None and self.coverage is None and self.proof is None

    def decide(self) -> bool | None:
        return self._decided()[0]

    def decided_by(self) -> str | None:
        return self._decided()[1]

    def _decided(self):
        if self.rule is not None:
            return self.rule.holds, f"rule: {self.rule.rule}"
        if self.coverage is not None:
            return self.coverage.decision(), "tally"
        if self.proof is not None:
            return self.proof.decision(), "region"
        if self.relation == "~":
            return None, None
        value = self._ball if self._ball is not None else self.value
        return compare(value, self.relation, self.bound, self.residual)

    @property
    def certified(self) -> bool:
        """Decided (either way) by exact arithmetic or enclosures of enclosed values."""
        d, how = self._decided()
        floats = isinstance(self.value, float) or isinstance(self.bound, float)
        return d is not None and how in ("exact", "enclosure", "tally", "region") and self.enclosed and not floats

    @property
    def level(self) -> str | None:
        """``proven`` / ``certified`` / ``evidence`` for a decided deciding item; None otherwise."""
        if self.informative or self.decide() is None:
            return None
        if not self.certified:
            return EVIDENCE
        proves = (self.proof is not None and self.proof.status == "proven") or self.proves
        return PROVEN if proves and self.decide() is True else CERTIFIED  # a refutation is certified, not proven

    @property
    def region(self) -> str:
        """The region or domain a proven item covers ("" for the others)."""
        if self.level != PROVEN:
            return ""
        return self.proof.region if self.proof is not None else self.proves

    def margin(self):
        return margin_of(self.value, self.relation, self.bound)

    def to_json(self, digits: int) -> dict:
        margin = self.margin()
        d, how = self._decided()
        out = {
            "quantity": self.quantity,
            "value": _fmt(self.value, digits),
            "relation": self.relation,
            "bound": _fmt(self.bound, digits) if self.bound is not None else None,
            "margin": _fmt(margin, digits) if margin is not None else None,
            "stable_digits": self.stable_digits,
            "holds": d,
            "decides": not self.informative,
            "decided_by": how,
            "certified": self.certified,
            "level": self.level,
        }
        if self.zero_to is not None:
            out["zero_to"] = self.zero_to
        if self.proves:
            out["proves"] = self.proves
        if self.corroborates:
            out["corroborates"] = True
        if self.coverage is not None:
            out["coverage"] = self.coverage.to_json()
        if self.proof is not None:
            out["region"] = self.proof.to_json()
        if self.note:
            out["note"] = self.note
        return out


def corroborating(items) -> list:
    """The items, marked as probes of a statement proven beside them (``Evidence.corroborates``)."""
    items = list(items)
    for item in items:
        item.corroborates = True
    return items


def _fmt(x, digits: int):
    """A figure as a decimal string; None (JSON null) for one that is not a finite number — a ball
    with no value (an undecided item: its reason says so), never printed as "nan" (docs/contract.md)."""
    if x is None:
        return None
    if isinstance(x, (bool, str)):
        return x
    if isinstance(x, float):
        return repr(x) if math.isfinite(x) else None
    if isinstance(x, arb) and not x.is_finite():
        return None
    return to_decimal_string(x, digits)


class Tally:
    """One comparison decided at every point it is evaluated: "for all probe points p, f(p) ≤ b".

    ``add`` decides one point (exactly or by enclosures) and counts it; ``evidence`` is the deciding
    item — VIOLATED if any point certainly fails (the first is named), undecided if any point could
    not be decided or none was evaluated, else holds. Its value is the worst point's (smallest
    margin by midpoint), so the report shows the tightest case, and every point is counted."""

    def __init__(self, quantity: str, relation: str, bound=None, residual: bool = False):
        if relation == "~":
            raise ValueError("a Tally decides: give it a relation")
        self.quantity, self.relation, self.bound, self.residual = quantity, relation, bound, residual
        self.coverage = Coverage()
        self.worst_value, self.worst_bound, self._worst_rank, self._worst_margin = None, None, 3, None

    def add(self, value, where: str = "", bound=None) -> bool | None:
        b = self.bound if bound is None else bound
        d, _ = compare(value, self.relation, b, self.residual)
        c = self.coverage
        c.points += 1
        if d is True:
            c.holds += 1
        elif d is False:
            c.violated += 1
            c.first_violation = c.first_violation or where or f"point {c.points}"
        else:
            c.undecided += 1
            c.first_undecided = c.first_undecided or where or f"point {c.points}"
        v = abs(_as_arb(value)).upper() if self.residual and not isinstance(value, bool) else value
        m = margin_of(v, self.relation, b)
        rank = 0 if d is False else 1 if d is None else 2  # violated first, then undecided, then the tightest
        if rank < self._worst_rank or (rank == self._worst_rank and _below(m, self._worst_margin)):
            self._worst_rank, self._worst_margin, self.worst_value, self.worst_bound = rank, m, v, b
            c.worst_at = where
        return d

    def extend(self, values, where=None):
        for k, v in enumerate(values):
            self.add(v, where(k) if where else "")

    def evidence(self, note: str = "", enclosed: bool = True, corroborates: bool = False) -> Evidence:
        """The deciding item; ``corroborates``: the points probe a statement proven beside it (``Evidence``)."""
        c = self.coverage
        text = c.describe() + (f"; tightest at {c.worst_at}" if c.worst_at and not c.first_violation else "")
        return Evidence(self.quantity, self.worst_value if c.points else None, self.relation,
                        self.worst_bound if c.points else self.bound, note=(note + "; " if note else "") + text,
                        residual=self.residual, coverage=c, enclosed=enclosed, corroborates=corroborates)


def _below(m, ref) -> bool:
    """m < ref for margins at any magnitude, by exact comparison of midpoints (None: no margin)."""
    if m is None or ref is None:
        return False
    a = m if _is_exact(m) else _as_arb(m).mid()
    b = ref if _is_exact(ref) else _as_arb(ref).mid()
    if _is_exact(a) and _is_exact(b):
        return a < b
    return bool(_as_arb(a) < _as_arb(b))


@dataclass
class Decided:
    """A decided outcome: the verdict, its certainty (HOLDS/VIOLATED only), and the named reasons; for a certified
    HOLDS the points its tallies decided (``points``, None when no Tally decides), for a proven one the regions."""

    verdict: str
    certainty: str | None
    reasons: list
    points: int | None = None
    regions: tuple = ()


def as_empirical(decided: Decided, protocol: str | None) -> Decided:
    """The decision for a claim of kind ``empirical`` (a statement the paper supports by experiments only):
    never certified — a HOLDS is evidence over the trial protocol, which must be stated (``Outcome.range``: trials,
    dimensions, depth; else INCONCLUSIVE), and a VIOLATED is evidence with the failing trial as its witness."""
    if decided.verdict not in (HOLDS, VIOLATED):
        return decided
    if decided.verdict == HOLDS and not protocol:
        return Decided(INCONCLUSIVE, None, ["an empirical claim states its trial protocol (Outcome.range)"])
    return Decided(decided.verdict, EVIDENCE, list(decided.reasons))


@dataclass(slots=True)
class Outcome:
    """What a check returns for one dataset (see the module docstring for how it is decided).

    Slotted: a check cannot attach a verdict of its own (``out.verdict = …`` raises)."""

    hypotheses: list = field(default_factory=list)
    evidence: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    figures: list = field(default_factory=list)
    requirements: list = field(default_factory=list)  # Hypothesis-like: conditions of the check itself
    range: str | None = None  # how far an asymptotic / existential conclusion was computed
    covers: list = field(default_factory=list)  # the values a "for every" parameter was covered at (``cover``)
    certificates: list = field(default_factory=list)  # region certificates (JSON-able dicts) a report writes out
    decided: Decided | None = field(default=None, init=False, repr=False)  # filled by the runner

    def require(self, name: str, met: bool, detail: str = "", invalidates: bool = False) -> bool:
        """A condition of the check itself (a budget reached, a range covered, a witness found):
        when it is not met the verdict is INCONCLUSIVE naming it (unless something certainly failed).
        ``invalidates``: unmet, the check's object is not the statement's (``Requirement``), so an evidence-level
        failure does not make the verdict VIOLATED either (a certified failure still does)."""
        self.requirements.append(Requirement(name, bool(met), detail, invalidates))
        return bool(met)

    def cover(self, text: str, corroborating: bool = False) -> None:
        """State the values a universally quantified parameter of the statement was covered at, when nothing
        better than a stated range is possible (coverage ``range`` in docs/parameters.md): e.g. "π ∈ {1/2, 1, 2}",
        "one seeded W(0), t ≤ 1000". A HOLDS names them ("HOLDS — certified for …", "… evidence over …").
        ``corroborating``: the values probe a statement proven beside them (``Evidence.corroborates``) — they are no
        part of what was shown, so they go to a note ("probes corroborating the proof: …"), not into the range."""
        if corroborating:
            self.notes.append(f"probes corroborating the proof: {text}")
        else:
            self.covers.append(text)

    def add(self, *items) -> None:
        self.evidence.extend(items)

    def show(self, *figures) -> None:
        """Add the figures that exist (a figure helper returns None when nothing is plottable)."""
        self.figures.extend(f for f in figures if f is not None)

    def applicable(self) -> bool:
        """True when every hypothesis so far is met (a check stops when it is False)."""
        return all(h.met is True for h in self.hypotheses)

    def decide(self) -> str:
        """The verdict (see ``decision`` for its certainty and reasons)."""
        return self.decision().verdict

    def decision(self) -> Decided:
        bad = [h for h in self.hypotheses if h.met is False]
        if bad:
            return Decided(NOT_APPLICABLE, None, [f"hypothesis not met: {h.name}" for h in bad])
        unknown = [h for h in self.hypotheses if h.met is None]
        if unknown:
            return Decided(INCONCLUSIVE, None, [f"hypothesis undecided: {h.name}" for h in unknown])
        deciding = [e for e in self.evidence if not e.informative]
        failed = [e for e in deciding if e.decide() is False]
        certain = any(e.certified for e in failed)
        void = any(not r.met and r.invalidates for r in self.requirements)
        if failed and (certain or not void):
            return Decided(VIOLATED, CERTIFIED if certain else EVIDENCE,
                           [f"fails: {e.quantity}" + (f" ({e.note})" if e.note else "") for e in failed])
        reasons = [f"requirement not met: {r.name}" + (f" ({r.detail})" if r.detail else "")
                   for r in self.requirements if not r.met]
        for e in deciding:
            if any(e is f for f in failed):  # evidence measured on an object an unmet requirement rules out
                reasons.append(f"fails on what the check computed, not counted (a requirement is not met): "
                               f"{e.quantity}")
                continue
            if e.coverage is not None and e.coverage.points == 0:
                reasons.append(f"evaluated on zero points: {e.quantity}")
            elif e.decide() is None:
                reasons.append(f"undecided: {e.quantity}")
        if not deciding:
            reasons.append("no deciding evidence: the conclusion rests on informative items only")
        if reasons:
            return Decided(INCONCLUSIVE, None, reasons)
        return _holds(deciding, self.range)


def _holds(deciding: list, stated_range: str | None) -> Decided:
    """A HOLDS at its weakest deciding item's level (module docstring); corroborating items refute but do not
    lower it."""
    considered = [e for e in deciding if not e.corroborates] or deciding
    if stated_range is not None or not all(e.certified for e in considered):
        return Decided(HOLDS, EVIDENCE, [])
    if all(e.level == PROVEN for e in considered):
        return Decided(HOLDS, PROVEN, [], regions=tuple(dict.fromkeys(e.region for e in considered)))
    tallies = [e.coverage.points for e in considered if e.coverage is not None]
    return Decided(HOLDS, CERTIFIED, [], points=max(tallies) if tallies else None)
