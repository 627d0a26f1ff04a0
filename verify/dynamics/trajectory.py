"""Trajectories: sparse records along a run, the final state, save / load / resume.

A ``Trajectory`` holds the run's metadata (method, parameterisation, loss, dataset, precision and
options), a list of ``Record``s and the full-precision ``state`` needed to continue. Saved as JSON
with every number a decimal string (state at dps + guard digits), so ``load`` followed by
``gradient_flow(..., resume=traj)`` / ``gd(..., resume=traj)`` continues the same run.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

from flint import arb

from verify.data.dataset import Dataset, write_atomic
from verify.errors import DataError
from verify.numbers.fits import line_fit
from verify.numbers.fits import tail as last_part
from verify.numbers.precision import agreement_digits, log10_abs, to_decimal_string

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
        return Dataset.from_dict(self.meta["dataset"], name=self.meta.get("dataset_name", "dataset"))

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
        return {"format": FORMAT, "meta": self.meta, "status": self.status, "notes": self.notes,
                "seconds": self.seconds, "state": st, "records": [r.to_json(dps) for r in self.records]}

    def save(self, path: str) -> None:
        write_atomic(path, json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def from_json(cls, obj: dict) -> "Trajectory":
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise DataError(f"not an attnverify trajectory (expected format {FORMAT!r})")
        st = dict(obj["state"])
        st["psi"] = [arb(x) for x in st["psi"]]
        for k, v in list(st.items()):
            if isinstance(v, str):
                st[k] = arb(v)
        traj = cls(obj["meta"], [Record.from_json(r) for r in obj["records"]], st, obj.get("status", "?"),
                   list(obj.get("notes", [])), float(obj.get("seconds", 0.0)))
        traj.raw_state = dict(obj["state"])  # decimal strings: re-parsed at the resuming precision
        return traj

    @classmethod
    def load(cls, path: str) -> "Trajectory":
        """Read a saved trajectory; parse it inside the working precision you will resume at."""
        try:
            with open(path, encoding="utf-8") as fh:
                obj = json.load(fh)
        except FileNotFoundError:
            raise DataError(f"no such trajectory file: {path}")
        except (OSError, ValueError) as exc:
            raise DataError(f"cannot read trajectory {path}: {exc}")
        try:
            return cls.from_json(obj)
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"{path}: malformed trajectory ({type(exc).__name__}: {exc})")


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
