"""Datasets: exact rational storage, JSON load/save, validation with one-line errors.

A ``Dataset`` stores every number as a ``fractions.Fraction``. JSON numbers and decimal strings
("0.1") convert exactly, as do rational strings ("1/3"); nothing passes through float64. The
input rules (bounded digits and exponents, duplicate keys, nesting, empty paths) are those of
``verify.data.inputs``. Saving writes each value exactly (a terminating decimal when there is
one, else "p/q"), so load/save round-trips bit for bit; ``fingerprint`` names the content (a
saved trajectory is bound to its dataset by it). The working-precision view (features and scores
as balls, built once per precision): ``verify.models.attention.LinearLogitModel.from_dataset``.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import gmpy2

from verify.data.inputs import parse_json, parse_number, read_text
from verify.data.outputs import write_atomic, write_atomic_bytes  # noqa: F401 (re-exported)
from verify.errors import DataError

KEYS = ("X", "Y", "v", "K", "z", "u", "options", "causal", "Yq", "head")


def _options(value) -> str:
    """A dataset's ``options`` — {claim id: {option: number, numeric string or list of them}}, the values of a
    claim's declared parameters that replay a ``verify hunt`` find — checked for shape and kept as canonical JSON
    text; each value is parsed against the claim's declaration when the claim runs (``Claim.parameters``)."""
    if not isinstance(value, dict):
        raise DataError("options: expected an object {claim id: {option: value}}")
    out = {}
    for cid, opts in value.items():
        if not isinstance(opts, dict):
            raise DataError(f"options[{cid!r}]: expected an object {{option: value}}")
        for name, x in opts.items():
            items = x if isinstance(x, list) else [x]
            if not items or not all(isinstance(y, (int, str)) and not isinstance(y, bool) for y in items):
                raise DataError(f"options[{cid!r}][{name!r}]: expected a number or a list of numbers")
        out[str(cid)] = {str(k): [str(y) for y in x] if isinstance(x, list) else str(x) for k, x in opts.items()}
    return json.dumps(out, sort_keys=True, ensure_ascii=False) if out else ""


def _vector(value, where: str, length: int | None = None) -> tuple[Fraction, ...]:
    if not isinstance(value, (list, tuple)):
        raise DataError(f"{where}: expected a list of numbers")
    if length is not None and len(value) != length:
        raise DataError(f"{where}: has length {len(value)}, expected {length}")
    return tuple(parse_number(x, f"{where}[{j}]") for j, x in enumerate(value))


def _matrix(value, where: str, rows: int | None, cols: int | None) -> tuple[tuple[Fraction, ...], ...]:
    if not isinstance(value, (list, tuple)):
        raise DataError(f"{where}: expected a list of rows")
    if rows is not None and len(value) != rows:
        raise DataError(f"{where}: has {len(value)} rows, expected {rows}")
    out = []
    for t, row in enumerate(value):
        r = _vector(row, f"{where}[{t}]", cols)
        cols = len(r) if cols is None else cols
        out.append(r)
    return tuple(out)


def _tensor(value, where: str, n: int | None, T: int | None, d: int | None):
    if not isinstance(value, (list, tuple)):
        raise DataError(f"{where}: expected an n×T×d nested list")
    if n is not None and len(value) != n:
        raise DataError(f"{where}: has {len(value)} sequences, expected n = {n}")
    out = []
    for i, seq in enumerate(value):
        m = _matrix(seq, f"{where}[{i}]", T, d)
        T = len(m) if T is None else T
        d = len(m[0]) if (d is None and m) else d
        out.append(m)
    return tuple(out)


@dataclass(frozen=True)
class Dataset:
    """Sequences X (n×T×d), labels Y (±1), head v (d); optional keys K (n×T×dk), queries z (n×d),
    and u (d, the fixed query of mmts Lemma 1). All entries are exact Fractions."""

    X: tuple
    Y: tuple
    v: tuple
    K: tuple | None = None
    z: tuple | None = None
    u: tuple | None = None
    name: str = "dataset"
    options_json: str = ""  # canonical JSON of the ``options`` key ("" when none): see ``options_for``
    causal: bool = False  # sequence-to-sequence self-attention with causal masking (query k sees t ≤ k)
    Yq: tuple | None = None  # per-query labels Y_ik (n×T, ±1) of sequence-to-sequence attention
    head: tuple | None = None  # prediction head (kind, parameter): ("concave", λ), ("mlp", V), ("tanh", None); see _head
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    # ----- construction -------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, obj, name: str = "dataset") -> "Dataset":
        if not isinstance(obj, dict):
            raise DataError("dataset JSON must be an object with keys X, Y, v (optional K, z, u)")
        extra = sorted(set(obj) - set(KEYS))
        if extra:
            raise DataError(f"unknown key(s) {', '.join(extra)}; allowed: {', '.join(KEYS)}")
        options = _options(obj["options"]) if obj.get("options") is not None else ""
        for key in ("X", "Y", "v"):
            if key not in obj:
                raise DataError(f"missing key {key!r}")
        X = _tensor(obj["X"], "X", None, None, None)
        n = len(X)
        if n == 0:
            raise DataError("X is empty: need n >= 1 sequences")
        T = len(X[0])
        if T < 2:
            raise DataError(f"T = {T}: every sequence needs at least 2 tokens")
        d = len(X[0][0])
        if d == 0:
            raise DataError("tokens have dimension d = 0")
        Yraw = obj["Y"]
        if not isinstance(Yraw, list) or len(Yraw) != n:
            raise DataError(f"Y: expected a list of n = {n} labels")
        Y = []
        for i, y in enumerate(Yraw):
            f = parse_number(y, f"Y[{i}]")
            if f not in (1, -1):
                raise DataError(f"Y[{i}] = {y!r}: labels must be +1 or -1")
            Y.append(int(f))
        v = _vector(obj["v"], "v", d)
        K = _tensor(obj["K"], "K", n, T, None) if obj.get("K") is not None else None
        if K is not None and len(K[0][0]) == 0:
            raise DataError("K: keys have dimension d_k = 0")
        z = _matrix(obj["z"], "z", n, d) if obj.get("z") is not None else None
        u = _vector(obj["u"], "u", d) if obj.get("u") is not None else None
        causal, Yq = _seq2seq_keys(obj, n, T)
        head = _head(obj["head"], d) if obj.get("head") is not None else None
        return cls(X=X, Y=tuple(Y), v=v, K=K, z=z, u=u, name=name, options_json=options, causal=causal, Yq=Yq,
                   head=head)

    @classmethod
    def make(cls, X, Y, v, K=None, z=None, u=None, name="dataset", options=None, causal=None, Yq=None,
             head=None) -> "Dataset":
        """Build from Python lists (numbers, decimal or rational strings), validated."""
        obj = {"X": X, "Y": Y, "v": v}
        for key, val in (("K", K), ("z", z), ("u", u), ("options", options), ("causal", causal), ("Yq", Yq),
                         ("head", head)):
            if val is not None:
                obj[key] = val
        return cls.from_dict(obj, name=name)

    # ----- shape and derived exact quantities ---------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.X)

    @property
    def T(self) -> int:
        return len(self.X[0])

    @property
    def d(self) -> int:
        return len(self.X[0][0])

    def keys(self):
        """Keys k_it (the dataset's K, else the tokens themselves)."""
        return self.K if self.K is not None else self.X

    def queries(self):
        """Queries z_i (the dataset's z, else the first token x_i1)."""
        return self.z if self.z is not None else tuple(seq[0] for seq in self.X)

    @cached_property
    def scores(self) -> tuple:
        """γ_it = Y_i vᵀ x_it, exactly."""
        return tuple(
            tuple(y * sum((a * b for a, b in zip(tok, self.v)), Fraction(0)) for tok in seq)
            for seq, y in zip(self.X, self.Y)
        )

    @cached_property
    def query_scores(self) -> tuple:
        """Sequence-to-sequence scores γ_ikt = Y_ik vᵀ x_it (n×T×T, query k, token t), exactly; Y_ik = ``Yq[i][k]``,
        else the sequence's Y_i."""
        u = tuple(tuple(sum((a * b for a, b in zip(tok, self.v)), Fraction(0)) for tok in seq) for seq in self.X)
        Yq = self.Yq if self.Yq is not None else tuple((y,) * self.T for y in self.Y)
        return tuple(tuple(tuple(y * x for x in ui) for y in yi) for ui, yi in zip(u, Yq))

    def optimal_tokens(self) -> tuple[tuple[int, ...], ...]:
        """opt_i as the set of maximisers of γ_i (a tuple; more than one when tied)."""
        out = []
        for g in self.scores:
            m = max(g)
            out.append(tuple(t for t, x in enumerate(g) if x == m))
        return tuple(out)

    def fingerprint(self) -> str:
        """SHA-256 of the exact content (names aside): equal iff the datasets are equal."""
        return hashlib.sha256(self.to_json().encode()).hexdigest()

    def with_name(self, name: str) -> "Dataset":
        return Dataset(self.X, self.Y, self.v, self.K, self.z, self.u, name, self.options_json, self.causal, self.Yq,
                       self.head)

    def options_for(self, claim_id: str) -> dict:
        """The options this dataset carries for one claim (raw JSON values; {} when none)."""
        return json.loads(self.options_json).get(claim_id, {}) if self.options_json else {}

    def with_options(self, claim_id: str, options: dict) -> "Dataset":
        """A copy carrying ``options`` (exact values: Fractions, ints, tuples of them) for ``claim_id``."""
        obj = self.to_dict()
        every = obj.get("options", {})
        every[claim_id] = {k: [format_exact(y) for y in x] if isinstance(x, (list, tuple)) else format_exact(x)
                           for k, x in options.items()}
        obj["options"] = every
        return Dataset.from_dict(obj, name=self.name)

    def replace(self, **changes) -> "Dataset":
        """A copy with some fields replaced (given as lists of numbers/strings), re-validated."""
        obj = self.to_dict()
        obj.update({k: v for k, v in changes.items() if k != "name"})
        obj = {k: v for k, v in obj.items() if v is not None}
        return Dataset.from_dict(obj, name=changes.get("name", self.name))

    # ----- the working-precision view (``LinearLogitModel.from_dataset``) is cached here, never pickled ------
    def __getstate__(self):
        state = dict(self.__dict__)
        state["_cache"] = {}
        return state

    # ----- JSON ---------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        obj = {"X": _map(self.X, format_exact), "Y": list(self.Y), "v": _map(self.v, format_exact)}
        for key in ("K", "z", "u"):
            val = getattr(self, key)
            if val is not None:
                obj[key] = _map(val, format_exact)
        if self.options_json:
            obj["options"] = json.loads(self.options_json)
        if self.causal:
            obj["causal"] = True
        if self.Yq is not None:
            obj["Yq"] = [list(r) for r in self.Yq]
        if self.head is not None:
            obj["head"] = _head_dict(self.head)
        return obj

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    def save(self, path: str) -> None:
        write_atomic(path, self.to_json() + "\n")


HEAD_KINDS = ("linear", "concave", "mlp", "tanh")


def _head(value, d: int) -> tuple:
    """The ``head`` key: {"kind": "linear"} (h(x) = vᵀx, the default), {"kind": "concave", "lambda": λ > 0}
    (h(x) = vᵀx − λ‖x‖², tfsvm Lemma 6), {"kind": "mlp", "V": d×d} (h(x) = vᵀReLU(Vx), tfsvm §6) or
    {"kind": "tanh"} (h(x) = tanh(vᵀx)); stored as (kind, λ | V | None)."""
    if not isinstance(value, dict):
        raise DataError('head: expected an object such as {"kind": "concave", "lambda": "1/2"}')
    kind = value.get("kind")
    if kind not in HEAD_KINDS:
        raise DataError(f"head.kind: expected one of {', '.join(HEAD_KINDS)}, got {kind!r}")
    allowed = {"linear": ("kind",), "tanh": ("kind",), "concave": ("kind", "lambda"), "mlp": ("kind", "V")}[kind]
    extra = sorted(set(value) - set(allowed))
    if extra:
        raise DataError(f"head: unknown key(s) {', '.join(extra)} for kind {kind!r}; allowed: {', '.join(allowed)}")
    if kind == "concave":
        if "lambda" not in value:
            raise DataError("head.lambda: missing (the concave head h(x) = vᵀx − λ‖x‖² needs λ > 0)")
        lam = parse_number(value["lambda"], "head.lambda")
        if lam <= 0:
            raise DataError(f"head.lambda = {value['lambda']!r}: must be positive")
        return ("concave", lam)
    if kind == "mlp":
        if "V" not in value:
            raise DataError("head.V: missing (the MLP head h(x) = vᵀReLU(Vx) needs a d×d matrix V)")
        return ("mlp", _matrix(value["V"], "head.V", d, d))
    return (kind, None)


def _head_dict(head: tuple) -> dict:
    kind, par = head
    if kind == "concave":
        return {"kind": kind, "lambda": format_exact(par)}
    if kind == "mlp":
        return {"kind": kind, "V": _map(par, format_exact)}
    return {"kind": kind}


def _seq2seq_keys(obj, n: int, T: int):
    """The sequence-to-sequence keys: ``causal`` (true/false) and ``Yq`` (n×T labels ±1, Y_ik of query k). Both
    describe self-attention (the queries are the tokens), so neither goes with explicit queries ``z``."""
    causal = obj.get("causal", False)
    if causal is None:
        causal = False
    if not isinstance(causal, bool):
        raise DataError(f"causal: expected true or false, got {causal!r}")
    Yq = None
    if obj.get("Yq") is not None:
        raw = obj["Yq"]
        if not isinstance(raw, list) or len(raw) != n:
            raise DataError(f"Yq: expected n = {n} rows of T = {T} per-query labels")
        rows = []
        for i, row in enumerate(raw):
            if not isinstance(row, list) or len(row) != T:
                raise DataError(f"Yq[{i}]: expected T = {T} per-query labels")
            out = []
            for k, y in enumerate(row):
                f = parse_number(y, f"Yq[{i}][{k}]")
                if f not in (1, -1):
                    raise DataError(f"Yq[{i}][{k}] = {y!r}: labels must be +1 or -1")
                out.append(int(f))
            rows.append(tuple(out))
        Yq = tuple(rows)
    if (causal or Yq is not None) and obj.get("z") is not None:
        raise DataError("z: a sequence-to-sequence dataset (causal or Yq) takes its queries from its tokens; drop z")
    return causal, Yq


def _map(obj, fn):
    if isinstance(obj, (tuple, list)):
        return [_map(x, fn) for x in obj]
    return fn(obj)


def _digits(n: int) -> str:
    """str(n) without Python's 4300-digit limit (input lengths are bounded by verify.data.inputs)."""
    return str(gmpy2.mpz(n))


def format_exact(x: Fraction):
    """Exact text for a Fraction: an int, a terminating decimal string, or "p/q"."""
    x = Fraction(x)
    if x.denominator == 1:
        return x.numerator if abs(x.numerator).bit_length() < 10000 else _digits(x.numerator)
    den, twos, fives = x.denominator, 0, 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    if den != 1:
        return f"{_digits(x.numerator)}/{_digits(x.denominator)}"
    k = max(twos, fives)
    scaled = abs(x.numerator) * (10**k // x.denominator)
    digits = _digits(scaled).rjust(k + 1, "0")
    sign = "-" if x < 0 else ""
    return f"{sign}{digits[:-k]}.{digits[-k:]}"


def loads(text: str, name: str = "dataset") -> Dataset:
    return Dataset.from_dict(parse_json(text, "dataset JSON"), name=name)


def load_dataset(path: str, flag: str = "--data") -> Dataset:
    """Read a dataset JSON file; every failure is a one-line DataError (exit 5); an empty path is a
    UsageError (exit 2)."""
    text = read_text(path, "dataset file", flag)
    try:
        return loads(text, name=os.path.basename(path))
    except MemoryError:
        pass  # raised below, after this block has released the half-built dataset
    except DataError as exc:
        raise DataError(f"{path}: {exc}")
    del text
    raise DataError(f"{path}: the dataset is too large for the available memory")
