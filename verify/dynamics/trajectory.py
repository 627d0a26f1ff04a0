"""Trajectories: sparse records along a run, the final state, save / load / resume.

A ``Trajectory`` holds the run's metadata (method, parameterisation, loss, dataset, precision and
options), a list of ``Record``s and the full-precision ``state`` needed to continue. Saved as JSON
with every number a decimal string (state at dps + guard digits), so ``load`` followed by
``gradient_flow(..., resume=traj)`` / ``gd(..., resume=traj)`` continues the same run.

A saved file is input like a dataset and is validated like one (``from_json``): format, every
field's type, numbers finite and bounded (``verify.data.inputs``), the embedded dataset re-validated
and bound to the file by its fingerprint (``meta.dataset_sha256``; ``bind`` refuses another
dataset). Numbers are parsed at the saved run's own precision (records) and the state again at the
resuming precision by the integrator (``state_at``) — parsing them at Python's default 53 bits
turned the step size into a ball too wide for the Newton solves, and resumed runs at 50 or 100
digits "stalled" at the saved norm.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

from flint import arb

from verify.data.dataset import Dataset, write_atomic
from verify.data.inputs import MAX_TRAJECTORY_BYTES, parse_decimal_text, read_json
from verify.errors import DataError
from verify.numbers.fits import line_fit
from verify.numbers.fits import tail as last_part
from verify.numbers.precision import MAX_DPS, MIN_DPS, agreement_digits, log10_abs, to_decimal_string, working_precision

FORMAT = "attnverify-trajectory/1"


@dataclass
class Record:
    """One sample of a trajectory (arb values; None where not available)."""

    s: arb  # arc length (flow) or iteration count (GD)
    norm: arb  # the SVM-matching norm of θ
    log_t: arb | None  # ln t (flow time; GD: ln(iterations·η))
    excess: arb  # L − L⋆ (cancellation-free)
    selected: tuple
    one_minus_corr: arb | None  # to the SVM of the selected tokens
    one_minus_corr_gmm: arb | None  # to the SVM of the optimal tokens
    direction: list  # θ/‖θ‖₂
    grad_norm: arb | None = None
    invariant_drift: arb | None = None
    evaluations: int | None = None  # cumulative gradient evaluations when recorded
    hessians: int | None = None  # cumulative Hessian evaluations when recorded

    @property
    def log10_excess(self) -> float:
        return log10_abs(self.excess)

    def to_json(self, digits: int) -> dict:
        f = lambda x: None if x is None else to_decimal_string(x, digits)  # noqa: E731
        return {
            "s": f(self.s), "norm": f(self.norm), "log_t": f(self.log_t), "loss_gap": f(self.excess),
            "log10_loss_gap": f(arb(self.excess.mid()).log_base(10)) if self.excess > 0 else None,
            "selected": list(self.selected), "one_minus_corr": f(self.one_minus_corr),
            "one_minus_corr_gmm": f(self.one_minus_corr_gmm), "direction": [f(x) for x in self.direction],
            "grad_norm": f(self.grad_norm), "invariant_drift": f(self.invariant_drift),
            "evaluations": self.evaluations, "hessians": self.hessians,
        }

    @classmethod
    def from_json(cls, obj: dict) -> "Record":
        a = lambda x: None if x is None else arb(x)  # noqa: E731
        return cls(a(obj["s"]), a(obj["norm"]), a(obj["log_t"]), a(obj["loss_gap"]), tuple(obj["selected"]),
                   a(obj["one_minus_corr"]), a(obj["one_minus_corr_gmm"]), [a(x) for x in obj["direction"]],
                   a(obj.get("grad_norm")), a(obj.get("invariant_drift")), obj.get("evaluations"),
                   obj.get("hessians"))


@dataclass
class Trajectory:
    meta: dict
    records: list = field(default_factory=list)
    state: dict = field(default_factory=dict)  # psi (list of arb), scalars, counters
    status: str = "running"
    notes: list = field(default_factory=list)
    seconds: float = 0.0

    # ----- convenience ---------------------------------------------------------------------------
    @property
    def final(self) -> Record | None:
        return self.records[-1] if self.records else None

    @property
    def psi(self) -> list:
        return self.state["psi"]

    @property
    def steps(self) -> int:
        return int(self.state.get("steps", 0))

    @property
    def gradient_evaluations(self) -> int:
        return int(self.state.get("gradient_evaluations", 0))

    @property
    def hessian_evaluations(self) -> int:
        return int(self.state.get("hessian_evaluations", 0))

    def dataset(self) -> Dataset:
        if getattr(self, "_dataset", None) is None:
            self._dataset = Dataset.from_dict(self.meta["dataset"], name=self.meta.get("dataset_name", "dataset"))
        return self._dataset

    def series(self, key: str) -> list:
        """A column of the records as floats (plots only; tiny values underflow to 0)."""
        return [None if getattr(r, key) is None else float(getattr(r, key).mid()) for r in self.records]

    def log10_series(self, key: str) -> list:
        """log10|value| of a column (exact exponent even far below float range)."""
        return [None if getattr(r, key) is None else log10_abs(getattr(r, key)) for r in self.records]

    def fit_rate(self, key: str = "one_minus_corr", tail: float = 0.5) -> dict | None:
        """Least-squares fit of log(1 − corr) = log C − a·log ‖θ‖ over the last ``tail`` of the
        records in log ‖θ‖ (expected a ≈ 2 for p and W: 1 − cos ~ C/‖p‖²). Floats, for reporting."""
        pts = [(log10_abs(r.norm), log10_abs(getattr(r, key))) for r in self.records
               if getattr(r, key) is not None and getattr(r, key) > 0 and r.norm > 1]
        pts = last_part(pts, tail) if len(pts) >= 3 else []
        fit = line_fit(pts) if len(pts) >= 3 else None
        if fit is None:
            return None
        a, slope, resid = fit
        return {"rate": -slope, "C": 10 ** a, "points": len(pts),
                "norm_range": [10 ** pts[0][0], 10 ** pts[-1][0]], "max_log10_residual": resid}

    # ----- JSON ----------------------------------------------------------------------------------
    def to_json(self) -> dict:
        dps = int(self.meta.get("precision", 30))
        full = dps + int(self.meta.get("guard", 10))
        st = {}
        for k, v in self.state.items():
            if k == "psi":
                st[k] = [to_decimal_string(x, full) for x in v]
            elif isinstance(v, arb):
                st[k] = to_decimal_string(v, full)
            else:
                st[k] = v
        meta = self.meta
        if "dataset" in meta and "dataset_sha256" not in meta:
            meta = dict(meta, dataset_sha256=self.dataset().fingerprint())
        return {"format": FORMAT, "meta": meta, "status": self.status, "notes": self.notes,
                "seconds": self.seconds, "state": st, "records": [r.to_json(dps) for r in self.records]}

    def save(self, path: str) -> None:
        write_atomic(path, json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def from_json(cls, obj) -> "Trajectory":
        """A validated trajectory (DataError naming the first bad field)."""
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise DataError(f"not an attnverify trajectory (expected format {FORMAT!r})")
        meta = _object(obj, "meta")
        state = _object(obj, "state")
        records = obj.get("records")
        if not isinstance(records, list):
            raise DataError("records: expected a list")
        _choice(meta, "method", METHODS)
        _choice(meta, "param", PARAMS)
        _choice(meta, "loss", LOSSES)
        dps = _integer(meta, "precision", MIN_DPS, MAX_DPS)
        guard = _integer(meta, "guard", 0, 1000, default=10)
        if meta.get("m") is not None:
            _integer(meta, "m", 1, 10**6)
        try:
            data = Dataset.from_dict(meta.get("dataset"), name=str(meta.get("dataset_name", "dataset")))
        except DataError as exc:
            raise DataError(f"meta.dataset: {exc}")
        saved_print = meta.get("dataset_sha256")
        if saved_print is not None and saved_print != data.fingerprint():
            raise DataError("meta.dataset does not match its fingerprint meta.dataset_sha256 (the file was edited)")
        stationary = obj.get("status") == "stationary"
        raw = {}
        raw["psi"] = _numbers(state, "psi", "state.psi")
        if not raw["psi"]:
            raise DataError("state.psi: empty")
        for key in ("u", "s", "h"):
            if key in state or meta["method"] == "flow":
                raw[key] = _number(state.get(key), f"state.{key}", infinite=(key == "u" and stationary))
        for key in ("steps", "rejected", "gradient_evaluations", "hessian_evaluations"):
            if key in state:
                raw[key] = _integer(state, key, 0, 10**15, where="state")
        psi0 = _numbers(meta, "psi0", "meta.psi0")
        if len(psi0) != len(raw["psi"]):
            raise DataError(f"meta.psi0 has {len(psi0)} numbers, state.psi {len(raw['psi'])}")
        if meta["method"] == "flow":
            _number(meta.get("log_t0"), "meta.log_t0")
            if not arb(raw["h"]) > 0:
                raise DataError(f"state.h: the step size must be positive, got {raw['h']}")
        else:
            _number(meta.get("eta"), "meta.eta")
        for k, r in enumerate(records):
            _check_record(r, f"records[{k}]")
        with working_precision(dps, guard):  # every saved digit kept (not Python's default 53 bits)
            st = {k: ([arb(x) for x in v] if k == "psi" else (arb(v) if isinstance(v, str) else v))
                  for k, v in raw.items()}
            recs = [Record.from_json(r) for r in records]
        meta = dict(meta, dataset=data.to_dict(), dataset_sha256=data.fingerprint())
        seconds = obj.get("seconds", 0.0)
        traj = cls(meta, recs, st, str(obj.get("status", "?")), [str(n) for n in obj.get("notes", []) or []],
                   float(seconds) if isinstance(seconds, (int, float)) and math.isfinite(seconds) else 0.0)
        traj.raw_state = raw  # validated decimal strings: re-parsed at the resuming precision (state_at)
        traj._dataset = data
        return traj

    @classmethod
    def load(cls, path: str) -> "Trajectory":
        """Read and validate a saved trajectory; every failure is a one-line DataError (exit 5)."""
        obj = read_json(path, "trajectory file", "--resume", MAX_TRAJECTORY_BYTES)
        try:
            traj = cls.from_json(obj)
        except DataError as exc:
            raise DataError(f"{path}: {exc}")
        traj.path = path  # named in later errors about the file (flow's check of the state against the records)
        return traj

    def state_at(self, key: str):
        """A state value parsed at the *current* working precision (call inside it): the saved
        decimal strings when loaded from a file, else the value kept in memory."""
        raw = getattr(self, "raw_state", None) or {}
        if key in raw and isinstance(raw[key], (str, list)):
            return [arb(x) for x in raw[key]] if isinstance(raw[key], list) else arb(raw[key])
        value = self.state[key]
        return [arb(x) for x in value] if isinstance(value, list) else arb(value)

    def bind(self, data: Dataset | None) -> Dataset:
        """The dataset to resume on: the saved one, or ``data`` if it is the same (by fingerprint)."""
        own = self.dataset()
        if data is not None and data.fingerprint() != own.fingerprint():
            raise DataError(f"the dataset {data.name} is not the one this trajectory was computed on "
                            f"({own.name}, fingerprint {own.fingerprint()[:12]}; this one {data.fingerprint()[:12]}); "
                            "resume without --data to continue on the saved dataset")
        return own if data is None else data


# ----- validation of a loaded file (numbers as decimal strings, checked like dataset entries) -----
METHODS = ("flow", "gd", "ngd")
PARAMS = ("p", "W", "KQ", "diag", "beta")
LOSSES = ("logistic", "exponential", "correlation")
_RECORD_NUMBERS = ("s", "norm", "log_t", "loss_gap", "one_minus_corr", "one_minus_corr_gmm", "grad_norm",
                   "invariant_drift", "log10_loss_gap")


def _object(obj: dict, key: str) -> dict:
    if not isinstance(obj.get(key), dict):
        raise DataError(f"{key}: missing or not an object")
    return obj[key]


def _choice(meta: dict, key: str, allowed) -> str:
    if meta.get(key) not in allowed:
        raise DataError(f"meta.{key}: expected one of {', '.join(allowed)}, got {json.dumps(meta.get(key))}")
    return meta[key]


def _integer(obj: dict, key: str, low: int, high: int, default=None, where: str = "meta") -> int:
    x = obj.get(key, default)
    if isinstance(x, bool) or not isinstance(x, int) or not low <= x <= high:
        raise DataError(f"{where}.{key}: expected an integer in {low}..{high}, got {json.dumps(x)[:40]}")
    return x


def _number(x, where: str, infinite: bool = False) -> str:
    """A finite decimal string (``infinite``: "inf"/"-inf" allowed too); never NaN."""
    if infinite and x in ("inf", "-inf", "+inf"):
        return x
    if isinstance(x, bool) or not isinstance(x, (str, int)):
        raise DataError(f"{where}: expected a number as a decimal string, got {json.dumps(x)[:40]}")
    return parse_decimal_text(str(x), where, exact=False)


def _numbers(obj: dict, key: str, where: str) -> list:
    xs = obj.get(key)
    if not isinstance(xs, list):
        raise DataError(f"{where}: expected a list of numbers")
    return [_number(x, f"{where}[{j}]") for j, x in enumerate(xs)]


def _check_record(r, where: str) -> None:
    if not isinstance(r, dict):
        raise DataError(f"{where}: expected an object")
    for key in _RECORD_NUMBERS:
        if r.get(key) is not None:
            _number(r[key], f"{where}.{key}", infinite=(key in ("log_t", "log10_loss_gap")))
    for key in ("s", "norm", "loss_gap"):
        if r.get(key) is None:
            raise DataError(f"{where}.{key}: missing")
    sel, direction = r.get("selected"), r.get("direction")
    if not isinstance(sel, list) or not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in sel):
        raise DataError(f"{where}.selected: expected a list of token indices")
    if not isinstance(direction, list):
        raise DataError(f"{where}.direction: expected a list of numbers")
    for j, x in enumerate(direction):
        _number(x, f"{where}.direction[{j}]")
    for key in ("evaluations", "hessians"):
        x = r.get(key)
        if x is not None and (isinstance(x, bool) or not isinstance(x, int) or x < 0):
            raise DataError(f"{where}.{key}: expected a non-negative integer")


# Figures of a final record, by their Flow JSON names.
FIGURES = {"norm": "norm", "log_t": "log_t", "loss_gap": "excess", "one_minus_corr": "one_minus_corr",
           "one_minus_corr_gmm": "one_minus_corr_gmm"}


def stable_digits(run: Trajectory, check: Trajectory, cap: int) -> dict:
    """Significant digits on which the final figures of ``run`` and of ``check`` (the same flow
    recomputed at a higher precision) agree, capped at ``cap``; ``direction`` counts the digits of
    the worst component of θ/‖θ‖ after the point (a unit vector). None where a figure is missing."""
    a, b = run.final, check.final
    out = {}
    for name, key in FIGURES.items():
        x, y = getattr(a, key), getattr(b, key)
        ok = x is not None and y is not None and x.is_finite() and y.is_finite()
        out[name] = agreement_digits(x, y, cap) if ok else None
    worst = max((abs(arb(x.mid()) - arb(y.mid())) for x, y in zip(a.direction, b.direction)), default=arb(0))
    out["direction"] = cap if worst == 0 else max(0, min(cap, math.floor(-float(worst.log_base(10)))))
    return out
