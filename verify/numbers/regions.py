"""Region certificates: "g > 0 (or ≥ 0) at every point of a region", proven by interval branch-and-bound.

A region is a box with rational ends, optionally cut by domain constraints h_j(x) ≥ 0 (a simplex is the box
[0, 1]^k cut by 1 − Σx ≥ 0). The search (``prove``) evaluates the margin g on a box in arb balls, by the plain
interval extension intersected with the centred form g(c) + ∇g(X)·(X − c) (``verify.numbers.intervals``), and

* marks the box **proven** when the enclosure certainly satisfies the relation,
* marks it **outside** when some constraint is certainly negative on it,
* stops with a **violation** when g certainly fails the relation at the box's centre, a rational point that
  certainly lies in the domain (a certified counterexample, its coordinates exact),
* else bisects it — at the midpoint of the coordinate with the largest |∂ᵢg|·widthᵢ (the widest one when the
  gradient is unbounded), the most promising split for the centred form.

Boxes are taken in order of their lower bound (the most violating first, ties by position), so a false
statement is refuted early and the result is the same on every run. The search ends proven (every leaf
decided), violated, or undecided when ``max_boxes`` evaluations are spent (the undecided boxes and their share
of the region's volume are reported).

The certificate (``certificate``) lists the leaves by their bisection paths — a path ``"0-2+"`` is: halve
coordinate 0 and keep the lower half, then halve coordinate 2 and keep the upper half — so a leaf's box is
derived from the region, never trusted from the file. ``recheck`` re-verifies a certificate with the other
interval engine (mpmath's ``iv``): the paths must form a complete bisection tree of the region (every
internal node has both halves, one split coordinate per node), every proven leaf's enclosure must satisfy the
relation and every outside leaf must violate a constraint — or it names the first leaf that fails.
"""
from __future__ import annotations

import contextlib
import contextvars
import heapq
import math
import re
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Sequence

from verify.errors import DataError
from verify.numbers.intervals import ARB, IV, Dual
from verify.numbers.precision import decimal_exponent

FORMAT = "attnverify-region-certificate/1"
RELATIONS = (">", ">=")


@dataclass(frozen=True)
class Margin:
    """What is proven: ``g(x, ops) relation 0`` for x in the box ``lower ≤ x ≤ upper`` where every
    ``constraint(x, ops) ≥ 0``. ``g`` and the constraints are written with the ``ops`` namespace only (see
    ``verify.numbers.intervals``), so both interval engines and the derivative engine can run them."""

    g: Callable
    lower: tuple
    upper: tuple
    names: tuple = ()
    relation: str = ">"
    constraints: tuple = ()
    statement: str = ""
    slopes: bool = True  # g accepts ``Dual`` numbers (the centred form); False: the plain extension only
    #: g's sign is the statement's (True), or g > 0 is only sufficient for it (False: e.g. ‖H‖_F < L for ‖H‖₂ < L) —
    #: then a point where g fails is no counterexample, and the search reports it as undecided
    equivalent: bool = True

    def __post_init__(self):
        lo = tuple(Fraction(v) for v in self.lower)
        hi = tuple(Fraction(v) for v in self.upper)
        if len(lo) != len(hi) or not lo:
            raise ValueError("a region needs as many lower as upper ends, at least one")
        if any(a > b for a, b in zip(lo, hi)):
            raise ValueError("a region's lower end exceeds its upper end")
        if self.relation not in RELATIONS:
            raise ValueError(f"relation must be one of {RELATIONS}, got {self.relation!r}")
        object.__setattr__(self, "lower", lo)
        object.__setattr__(self, "upper", hi)
        object.__setattr__(self, "names", tuple(self.names) or tuple(f"x{i}" for i in range(len(lo))))

    @property
    def dim(self) -> int:
        return len(self.lower)


def rational_below(x, digits: int = 12) -> Fraction:
    """A rational not above x (a ball: its exact lower end) with ``digits`` significant digits, rounded down: a
    bound that a search and its re-check read identically at any working precision."""
    low = ARB.lower(x) if not isinstance(x, (int, Fraction)) else Fraction(x)
    if not isinstance(low, Fraction):
        raise ValueError("a bound that is not a finite number")
    if low == 0:
        return low
    e = decimal_exponent(low) - digits + 1  # exact (math.log10 of a Fraction below 10^−308 is log10(0.0))
    q = Fraction(10) ** e
    return math.floor(low / q) * q


def box_of(margin: Margin, path: str):
    """The box (lo, hi) reached from the region by following ``path`` (see the module docstring)."""
    lo, hi = list(margin.lower), list(margin.upper)
    for coord, side in parse_path(path, margin.dim):
        mid = (lo[coord] + hi[coord]) / 2
        if side == "-":
            hi[coord] = mid
        else:
            lo[coord] = mid
    return tuple(lo), tuple(hi)


_STEP = re.compile(r"(\d+)([+-])")


def parse_path(path: str, dim: int) -> list:
    steps, pos = [], 0
    for m in _STEP.finditer(path):
        if m.start() != pos:
            break
        steps.append((int(m.group(1)), m.group(2)))
        pos = m.end()
    if pos != len(path) or any(c >= dim for c, _ in steps):
        raise DataError(f"malformed leaf path {path!r}")
    return steps


def _volume(lo, hi) -> Fraction:
    v = Fraction(1)
    for a, b in zip(lo, hi):
        v *= b - a
    return v


@dataclass
class Enclosure:
    value: object          # g's enclosure on the box (the engine's number)
    slopes: tuple | None   # enclosures of ∂ᵢg on the box (None where unavailable)


def enclose(margin: Margin, lo, hi, engine=ARB) -> Enclosure:
    """g on the box by the plain extension ∩ the centred form; the gradient's enclosure beside it."""
    X = [engine.interval(a, b) for a, b in zip(lo, hi)]
    plain = margin.g(X, engine)
    if not margin.slopes:
        return Enclosure(plain, None)
    n = margin.dim
    duals = [Dual(X[i], tuple(engine.const(int(i == j)) for j in range(n))) for i in range(n)]
    d = margin.g(duals, engine)
    if not isinstance(d, Dual):  # g does not depend on x at all
        return Enclosure(plain, None)
    centre = [(a + b) / 2 for a, b in zip(lo, hi)]
    gc = margin.g([engine.const(c) for c in centre], engine)
    centred = gc
    for i in range(n):
        centred = centred + d.g[i] * engine.interval(lo[i] - centre[i], hi[i] - centre[i])
    try:
        value = engine.intersect(plain, centred)
    except (ArithmeticError, ValueError):
        raise ArithmeticError("the plain and centred enclosures of one margin are disjoint: an engine error")
    return Enclosure(value, d.g)


def decides(engine, value, relation: str) -> bool:
    return engine.positive(value) if relation == ">" else engine.nonnegative(value)


def refutes(engine, value, relation: str) -> bool:
    """The relation certainly fails for this enclosure (at a point: a counterexample)."""
    return engine.positive(-value) if relation == ">=" else engine.nonnegative(-value)


def _outside(margin: Margin, X, engine) -> bool:
    return any(engine.positive(-h(X, engine)) for h in margin.constraints)


def _inside(margin: Margin, X, engine) -> bool:
    return all(engine.nonnegative(h(X, engine)) for h in margin.constraints)


@dataclass
class RegionResult:
    status: str                      # "proven" | "violated" | "undecided"
    margin: Margin
    leaves: list = field(default_factory=list)      # (path, kind, enclosure) — kind "proven" | "outside"
    undecided: list = field(default_factory=list)   # paths of the boxes left when the budget ended
    witness: tuple | None = None     # the counterexample's exact coordinates
    witness_value: object = None     # g's enclosure there
    boxes: int = 0                   # boxes evaluated
    seconds: float = 0.0
    undecided_fraction: Fraction = Fraction(0)  # share of the region's volume left undecided
    smallest: Fraction | None = None  # the smallest lower end of g's enclosure over the proven leaves

    @property
    def witness_text(self) -> str | None:
        """The witness's exact coordinates, named ("x = 1/2, y = 3/4"), or None."""
        if self.witness is None:
            return None
        return ", ".join(f"{n} = {v}" for n, v in zip(self.margin.names, self.witness))

    def summary(self) -> str:
        if self.status == "proven":
            return f"proven on the whole region ({len(self.leaves)} leaves, {self.boxes} boxes, {self.seconds:.2f} s)"
        if self.status == "violated":
            return f"violated at ({self.witness_text}): g ∈ {self.witness_value}"
        share = float(self.undecided_fraction)
        if self.witness is not None:  # a sufficient (not equivalent) margin failed at a point
            return (f"undecided: the sufficient condition fails at ({self.witness_text}), g ∈ {self.witness_value} — "
                    "no counterexample to the statement, which the other items decide there")
        return (f"undecided: {len(self.undecided)} boxes ({share:.3g} of the region's volume) left after "
                f"{self.boxes} boxes")


def _split_coordinate(lo, hi, slopes, engine) -> int:
    widths = [b - a for a, b in zip(lo, hi)]
    best, best_key = 0, None
    for i, w in enumerate(widths):
        if w == 0:
            continue
        key = w
        if slopes is not None:
            mag = engine.upper(abs(slopes[i]))
            key = w * mag if isinstance(mag, Fraction) else None
            if key is None:  # unbounded slope somewhere: split the widest coordinate
                return max(range(len(widths)), key=lambda j: (widths[j], -j))
        if best_key is None or key > best_key:
            best, best_key = i, key
    return best


#: every search's box budget is multiplied by this (``budget_scale``: ``verify … --prove``)
_BUDGET_SCALE = contextvars.ContextVar("region_budget_scale", default=1)


@contextlib.contextmanager
def budget_scale(factor: int):
    """Multiply the box budget of every search in this context by ``factor`` (≥ 1): ``--prove`` asks for the
    certificates a default run's budget could not finish."""
    token = _BUDGET_SCALE.set(max(1, int(factor)))
    try:
        yield
    finally:
        _BUDGET_SCALE.reset(token)


def budget_factor() -> int:
    """The context's budget scale (1 unless inside ``budget_scale``)."""
    return _BUDGET_SCALE.get()


#: ``region_jobs(n)``: searches split the region into sub-boxes searched by n worker processes (None: one search)
_JOBS = contextvars.ContextVar("region_jobs", default=None)
SPLIT_DEPTH = 3  # a split search cuts the region into at most 2³ sub-boxes, each with its share of the budget


@contextlib.contextmanager
def region_jobs(jobs: int | None):
    """Searches in this context run split (``prove``'s docstring) over ``jobs`` worker processes: the result —
    status, leaves, boxes, witness — is the same for every ``jobs`` ≥ 1; None restores the single search."""
    token = _JOBS.set(None if jobs is None else max(1, int(jobs)))
    try:
        yield
    finally:
        _JOBS.reset(token)


def prove(margin: Margin, max_boxes: int = 20000, progress: Callable | None = None) -> RegionResult:
    """The branch-and-bound search (module docstring), in arb balls at the current working precision, with
    ``max_boxes`` times the context's ``budget_scale``. Within ``region_jobs(n)`` the search is split: the first
    levels of the bisection tree (the same split rule) cut the region into ≤ 2^SPLIT_DEPTH sub-boxes, each searched
    with an equal share of the budget — by n processes, merged in path order, so the result does not depend on n."""
    max_boxes *= _BUDGET_SCALE.get()
    jobs = _JOBS.get()
    if jobs is None:
        return _search(margin, margin.lower, margin.upper, "", max_boxes, progress)
    return _split_search(margin, max_boxes, progress, jobs)


def _search(margin: Margin, lo0, hi0, prefix: str, max_boxes: int, progress) -> RegionResult:
    """The search on the sub-box (lo0, hi0) reached by ``prefix``; leaves' paths start with it."""
    start = time.perf_counter()
    total = _volume(lo0, hi0)
    res = RegionResult("undecided", margin)
    heap = [(0.0, prefix, lo0, hi0)]
    left = total
    while heap:
        if res.boxes >= max_boxes:
            res.undecided = sorted(p for _, p, _, _ in heap)
            res.undecided_fraction = sum((_volume(lo, hi) for _, _, lo, hi in heap), Fraction(0)) / total if total else Fraction(1)
            break
        _, path, lo, hi = heapq.heappop(heap)
        res.boxes += 1
        step = _step(margin, lo, hi)
        if step[0] in ("proven", "outside"):
            res.leaves.append((path, step[0], step[1]))
            left -= _volume(lo, hi)
            _report(progress, res, left, total)
            continue
        if step[0] == "fails":
            centre, gc = step[1]
            if margin.equivalent:
                res.status, res.witness, res.witness_value = "violated", centre, gc
            else:  # the sufficient condition fails at a point: the statement is not refuted, the region is not proven
                res.undecided = [path]
                res.undecided_fraction = _volume(lo, hi) / total if total else Fraction(1)
                res.witness, res.witness_value = centre, gc
            break
        if step[0] == "point":  # a point that neither holds nor fails for certain: cannot be split further
            res.undecided.append(path)
            res.undecided_fraction = Fraction(0)
            continue
        _, k, key = step
        (lo1, hi1), (lo2, hi2) = _halves(lo, hi, k)
        heapq.heappush(heap, (key, path + f"{k}-", lo1, hi1))
        heapq.heappush(heap, (key, path + f"{k}+", lo2, hi2))
    if res.status == "undecided" and not res.undecided:
        res.status = "proven"
    res.leaves.sort(key=lambda leaf: leaf[0])
    res.smallest = _smallest(res.leaves)
    res.seconds = time.perf_counter() - start
    return res


def _smallest(leaves) -> Fraction | None:
    """The smallest lower end of the margin's enclosure over the proven leaves (None: no proven leaf)."""
    return min((ARB.lower(enc) for _, kind, enc in leaves if kind == "proven"), default=None)


def _step(margin: Margin, lo, hi):
    """One box: ("outside", None), ("proven", enclosure), ("fails", (centre, g there)), ("point", None) or
    ("split", coordinate, heap key)."""
    X = [ARB.interval(a, b) for a, b in zip(lo, hi)]
    if margin.constraints and _outside(margin, X, ARB):
        return "outside", None
    enc = enclose(margin, lo, hi)
    if decides(ARB, enc.value, margin.relation):
        return "proven", enc.value
    centre = tuple((a + b) / 2 for a, b in zip(lo, hi))
    C = [ARB.const(c) for c in centre]
    gc = margin.g(C, ARB)
    if refutes(ARB, gc, margin.relation) and _inside(margin, C, ARB):
        return "fails", (centre, gc)
    if lo == hi:
        return "point", None
    low = ARB.lower(enc.value)
    return "split", _split_coordinate(lo, hi, enc.slopes, ARB), (low if isinstance(low, Fraction) else float("-inf"))


def _halves(lo, hi, k):
    mid = (lo[k] + hi[k]) / 2
    lo2, hi1 = list(lo), list(hi)
    hi1[k], lo2[k] = mid, mid
    return (lo, tuple(hi1)), (tuple(lo2), hi)


_FORKED_MARGIN = None  # the margin a split search's forked workers read (closures do not pickle)


def _worker_signals() -> None:
    """A forked worker leaves signals to the parent: SIGINT ignored, SIGTERM (the pool's terminate) plain."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _sub_search(task, margin: Margin | None = None):
    """One sub-box's search, in a plain (picklable) form; a forked worker reads the margin from ``_FORKED_MARGIN``."""
    path, lo, hi, budget = task
    res = _search(margin or _FORKED_MARGIN, lo, hi, path, budget, None)
    ends = lambda x: None if x is None else (ARB.lower(x), ARB.upper(x))  # noqa: E731 (balls do not pickle)
    return (res.status, [(p, kind, ends(enc)) for p, kind, enc in res.leaves], res.undecided, res.witness,
            ends(res.witness_value), res.boxes, res.undecided_fraction * _volume(lo, hi), res.seconds)


def _split_search(margin: Margin, max_boxes: int, progress, jobs: int) -> RegionResult:
    global _FORKED_MARGIN
    start = time.perf_counter()
    total = _volume(margin.lower, margin.upper)
    res = RegionResult("undecided", margin)
    frontier, tasks = [("", margin.lower, margin.upper)], []
    for depth in range(SPLIT_DEPTH + 1):  # the first levels of the tree, box by box in path order
        nxt = []
        for path, lo, hi in frontier:
            if depth == SPLIT_DEPTH:
                tasks.append((path, lo, hi))
                continue
            res.boxes += 1
            step = _step(margin, lo, hi)
            if step[0] in ("proven", "outside"):
                res.leaves.append((path, step[0], step[1]))
            elif step[0] == "fails" and margin.equivalent:
                res.status, res.witness, res.witness_value = "violated", *step[1]
                res.seconds = time.perf_counter() - start
                return res
            elif step[0] in ("fails", "point"):
                tasks.append((path, lo, hi))  # the sub-search reports it (undecided)
            else:
                (lo1, hi1), (lo2, hi2) = _halves(lo, hi, step[1])
                nxt += [(path + f"{step[1]}-", lo1, hi1), (path + f"{step[1]}+", lo2, hi2)]
        frontier = nxt
    budget = max(1, (max_boxes - res.boxes) // max(1, len(tasks)))
    work = [(path, lo, hi, budget) for path, lo, hi in sorted(tasks)]
    if jobs > 1 and len(work) > 1:
        import multiprocessing

        _FORKED_MARGIN = margin
        pool = multiprocessing.get_context("fork").Pool(min(jobs, len(work)), initializer=_worker_signals)
        try:
            parts = pool.map(_sub_search, work, chunksize=1)
            pool.close()
        except BaseException:
            pool.terminate()  # Ctrl-C: the parent stops the workers (they ignore SIGINT)
            raise
        finally:
            pool.join()
            _FORKED_MARGIN = None
    else:
        parts = [_sub_search(t, margin) for t in work]
    undecided_volume = Fraction(0)
    for status, leaves, undecided, witness, value, boxes, volume, _ in parts:  # in path order: deterministic
        res.boxes += boxes
        res.leaves += [(p, kind, None if e is None else ARB.interval(*e)) for p, kind, e in leaves]
        res.undecided += undecided
        undecided_volume += volume
        if witness is not None and res.witness is None:
            res.witness, res.witness_value = witness, ARB.interval(*value)
            if status == "violated":
                res.status = "violated"
    res.smallest = _smallest(res.leaves)
    if res.status != "violated":
        res.status = "undecided" if res.undecided else "proven"
        res.undecided_fraction = undecided_volume / total if total else Fraction(0)
    res.leaves.sort(key=lambda leaf: leaf[0])
    res.undecided.sort()
    res.seconds = time.perf_counter() - start
    _report(progress, res, total * res.undecided_fraction, total)
    return res


def _report(progress, res, left, total):
    if progress is not None:
        progress(res.boxes, float(left / total) if total else 0.0)


# --- the certificate ------------------------------------------------------------------------------------

def _q(x: Fraction) -> str:
    return str(Fraction(x))


def certificate(res: RegionResult, *, claim: str, margin_name: str, params: dict, dps: int,
                versions: dict | None = None) -> dict:
    """The JSON-able certificate of a proven region (only a proven search has one)."""
    if res.status != "proven":
        raise ValueError("only a proven region has a certificate")
    m = res.margin
    return {
        "format": FORMAT,
        "claim": claim,
        "margin": {"name": margin_name, "params": params},
        "statement": m.statement,
        "relation": m.relation,
        "region": {"names": list(m.names), "lower": [_q(v) for v in m.lower], "upper": [_q(v) for v in m.upper],
                   "constraints": len(m.constraints)},
        "dps": dps,
        "search": {"engine": ARB.name, "boxes": res.boxes, "seconds": round(res.seconds, 3)},
        "tool": versions or {},
        "leaves": [{"path": p, "kind": kind,
                    "enclosure": None if enc is None else [enc.lower().str(12, radius=False), enc.upper().str(12, radius=False)]}
                   for p, kind, enc in res.leaves],
    }


@dataclass
class RecheckResult:
    ok: bool
    leaves: int
    seconds: float
    failure: str = ""

    def summary(self) -> str:
        if self.ok:
            return f"PROVEN: {self.leaves} leaves re-verified with mpmath.iv in {self.seconds:.2f} s"
        return f"REJECTED: {self.failure}"


def decimal_text(q: Fraction) -> str:
    """A rational whose denominator divides a power of ten, as its exact decimal (else p/q)."""
    q = Fraction(q)
    d, k = q.denominator, 0
    while 10 ** k % d and k < 400:
        k += 1
    if 10 ** k % d:
        return str(q)
    digits = str(abs(q.numerator) * (10 ** k // d)).rjust(k + 1, "0")
    return ("-" if q < 0 else "") + (digits[:-k] + "." + digits[-k:] if k else digits)


def check_tree(paths: Sequence[str], dim: int) -> str:
    """'' when the paths are the leaves of one complete bisection tree of the region, else what is wrong."""
    if not paths:
        return "no leaves"
    leaves = set(paths)
    if len(leaves) != len(paths):
        return "a leaf is listed twice"
    split_of: dict[str, int] = {}
    children: dict[str, set] = {}
    for p in paths:
        prefix = ""
        for coord, side in parse_path(p, dim):
            if prefix in leaves:
                return f"leaf {prefix!r} is also an inner node of leaf {p!r}"
            if split_of.setdefault(prefix, coord) != coord:
                return f"node {prefix!r} is split along two coordinates"
            children.setdefault(prefix, set()).add(side)
            prefix += f"{coord}{side}"
    for node, sides in sorted(children.items()):
        if sides != {"-", "+"}:
            missing = "+" if "-" in sides else "-"
            return f"the half {node}{split_of[node]}{missing} of node {node!r} is not covered"
    if "" not in children and list(paths) != [""]:
        return "the leaves do not start at the region"
    return ""


def recheck(cert: dict, margin: Margin, dps: int | None = None) -> RecheckResult:
    """Re-verify ``cert`` for ``margin`` (rebuilt by the caller from the certificate's claim and margin name)
    with mpmath's iv engine, without any search (module docstring)."""
    import mpmath

    start = time.perf_counter()

    def rejected(why: str, n: int = 0) -> RecheckResult:
        return RecheckResult(False, n, time.perf_counter() - start, why)

    if cert.get("format") != FORMAT:
        return rejected(f"not a region certificate (format {cert.get('format')!r})")
    region = cert.get("region") or {}
    try:
        same = ([Fraction(v) for v in region.get("lower", [])] == list(margin.lower)
                and [Fraction(v) for v in region.get("upper", [])] == list(margin.upper))
    except (TypeError, ValueError, ZeroDivisionError):
        same = False
    if not same:
        return rejected("the certificate's region is not the statement's region")
    if cert.get("relation") != margin.relation:
        return rejected("the certificate's relation is not the statement's")
    leaves = cert.get("leaves") or []
    try:
        problem = check_tree([leaf["path"] for leaf in leaves], margin.dim)
    except (KeyError, TypeError, DataError) as exc:
        problem = f"malformed leaf: {exc}"
    if problem:
        return rejected(problem, len(leaves))
    old = mpmath.iv.dps
    mpmath.iv.dps = int(dps or cert.get("dps", 30))
    try:
        for leaf in leaves:
            lo, hi = box_of(margin, leaf["path"])
            X = [IV.interval(a, b) for a, b in zip(lo, hi)]
            if leaf.get("kind") == "outside":
                if not _outside(margin, X, IV):
                    return rejected(f"leaf {leaf['path']!r}: not certainly outside the domain", len(leaves))
                continue
            if leaf.get("kind") != "proven":
                return rejected(f"leaf {leaf['path']!r}: unknown kind {leaf.get('kind')!r}", len(leaves))
            enc = enclose(margin, lo, hi, IV)
            if not decides(IV, enc.value, margin.relation):
                return rejected(f"leaf {leaf['path']!r}: g ∈ {enc.value} does not satisfy {margin.relation} 0",
                                len(leaves))
    finally:
        mpmath.iv.dps = old
    return RecheckResult(True, len(leaves), time.perf_counter() - start)
