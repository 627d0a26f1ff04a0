"""Replay one of the papers' experiments: the certified run at the working precision, the same algorithm in float64
and float32, where each float run departs from the certified one, and the gradient flow continued beyond the
paper's horizon.

For every curve of the figure (a start, a dataset, a loss):

* the certified run — ``verify.dynamics.gd`` / ``normalized_gd`` at the working precision, every iterate kept (each
  is the exact midpoint of its ball: the iteration is exact given its rounded gradient, as the claims' GD runs);
* the float runs — ``verify.dynamics.float_replay`` in float64 and float32 from the same start;
* at every iteration k ≥ 1 the relative error e_k = ‖θ_float(k) − θ(k)‖ / ‖θ(k)‖, computed in arb from the float
  iterate's exact binary value: the float run **departs** at the first k with e_k certainly > ``DEPARTURE`` (10⁻³),
  or where it is no longer a finite number; it **stalls** at the first k where its step is shorter than
  ``STALL_FRACTION`` of the certified step (a gradient rounded to 0, or an update lost in the rounding of θ);
* normalised GD itself freezes where ‖∇L‖ falls below ε: the certified run's first step shorter than η/2 is
  reported as ``frozen`` (the algorithm's ε, not the arithmetic);
* figures at chosen steps (``at_steps``) and at the first steps where the certified norm reaches ``at_norms``:
  ‖θ‖, L − L⋆, the selected tokens, 1 − corr to the SVM of the selected tokens and to the GMM (exact SVMs), for the
  certified run and each float run (the float iterate evaluated at the working precision: its figures are the
  float run's position, measured exactly);
* the gradient flow from the certified end point to ``flow_factor`` × its norm (Radau IIA at the working
  precision), so the limit the paper's horizon could not show is shown.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb

from verify.data.dataset import format_exact
from verify.dynamics import gd, gradient_flow, make_parameterization, normalized_gd
from verify.dynamics.float_replay import replay
from verify.dynamics.observe import Observer
from verify.errors import Undecided
from verify.models.attention import Stationary, features, norm2
from verify.numbers.precision import log10_abs, to_arb, to_decimal_string, working_precision

#: the relative error at which a float run has departed from the certified one (the issue's 1e-3: three digits)
DEPARTURE = Fraction(1, 1000)
#: a float step shorter than this fraction of the certified step is a stall (the run no longer moves as it should)
STALL_FRACTION = Fraction(1, 2)
#: digits of the figures printed (the certified figures are stable to far more; the float ones are what they are)
FIGURE_DIGITS = 10
BASELINES = ("float32", "float64")


@dataclass
class Point:
    """The figures at one iterate: ‖θ‖, L − L⋆, selected tokens, 1 − corr to the selected SVM and to the GMM."""

    step: int
    norm: arb
    loss_gap: arb
    selected: tuple
    one_minus_corr: arb | None
    one_minus_corr_gmm: arb | None
    rel_error: arb | None = None   # float runs: ‖θ_float − θ‖/‖θ‖ at this step

    def to_json(self) -> dict:
        f = lambda x: None if x is None else _text(x)  # noqa: E731
        return {"step": self.step, "norm": f(self.norm), "loss_gap": f(self.loss_gap),
                "selected": list(self.selected), "one_minus_corr": f(self.one_minus_corr),
                "one_minus_corr_gmm": f(self.one_minus_corr_gmm), "relative_error": f(self.rel_error)}


@dataclass
class FloatRun:
    dtype: str
    departure: int | None        # first step with relative error > DEPARTURE (or not finite); None: never
    departure_error: str | None  # the relative error there
    stall: int | None            # first step shorter than STALL_FRACTION × the certified step; None: never
    points: list                 # Point at the table's steps
    errors: list                 # (step, log10 relative error) for the figure (steps with a finite, non-zero error)
    path: list                   # (θ₁, θ₂) of the plotted iterates
    nonfinite: int | None        # first step where θ is not finite (inf/NaN); None: never


@dataclass
class CurveResult:
    label: str
    dataset: str
    loss: str
    init: tuple
    points: list                 # certified Points at the table's steps
    end: Point
    frozen: int | None           # ngd: first certified step shorter than η/2 (‖∇L‖ < ε); None: never
    floats: dict                 # dtype → FloatRun
    flow: dict | None            # the continued gradient flow's end figures
    gmm_curve: list              # (step, log10(1 − corr to the GMM)) of the certified run
    path: list                   # (θ₁, θ₂) of the certified iterates (plotted part)
    directions: dict = field(default_factory=dict)  # "GMM" / "SVM(α)" → (θ₁, θ₂) of the unit SVM direction (plots)
    seconds: float = 0.0


@dataclass
class ExperimentResult:
    experiment: object
    dps: int
    steps: int
    baselines: tuple
    curves: list = field(default_factory=list)
    seconds: float = 0.0


def _text(x: arb, digits: int = FIGURE_DIGITS) -> str:
    return to_decimal_string(x, digits)


def _exact_vector(values) -> list:
    """Float iterate → arb balls holding its exact binary value (NaN/inf kept as such)."""
    out = []
    for x in values:
        x = float(x)
        out.append(arb(x) if math.isfinite(x) else arb("nan"))
    return out


def _finite(vec) -> bool:
    return all(math.isfinite(float(x)) for x in vec)


def _norm_diff(a, b) -> arb:
    return norm2([x - y for x, y in zip(a, b)])


def _point(obs, psi, step: int, rel=None) -> Point:
    rec = obs.record(psi, arb(step), None)
    return Point(step, rec.norm, rec.excess, rec.selected, rec.one_minus_corr, rec.one_minus_corr_gmm, rel)


def _alpha(selected) -> str:
    return "(" + ",".join(str(t + 1) for t in selected) + ")"


def table_steps(at_steps, at_norms, norms, steps: int) -> list[int]:
    """The table's iterations: ``at_steps`` within [0, steps], the first step whose certified norm reaches each of
    ``at_norms`` (when the run gets there), and the last step; sorted, each once."""
    out = {k for k in at_steps if 0 <= k <= steps} | {steps}
    for target in at_norms:
        hit = next((k for k, nk in enumerate(norms) if nk >= target), None)
        if hit is not None:
            out.add(hit)
    return sorted(out)


def first_departure(errors, threshold=DEPARTURE):
    """(step, error) of the first error certainly above ``threshold`` or not finite; (None, None) when none.
    ``errors``: [(step, arb or None)] (None: the float iterate is not finite)."""
    for k, e in errors:
        if e is None or not e.is_finite():
            return k, None
        if e > to_arb(threshold):
            return k, e
    return None, None


def first_stall(float_steps, certified_steps, fraction=STALL_FRACTION):
    """The first k (1-based step index) where the float step is certainly shorter than ``fraction`` × the certified
    step (a lost update), or None. Both lists hold the step lengths ‖θ(k) − θ(k − 1)‖, k = 1, 2, …"""
    c = to_arb(fraction)
    for k, (fs, cs) in enumerate(zip(float_steps, certified_steps), start=1):
        if fs is None:
            return None  # not finite from here: the departure says it
        if fs < c * cs:
            return k
    return None


def run_curve(exp, run, dps: int, steps: int, baselines, at_steps, at_norms, flow_factor, tick=None) -> CurveResult:
    """One curve of the experiment (see the module docstring)."""
    t0 = time.perf_counter()
    data = run.dataset()
    kept = []
    kwargs = dict(steps=steps, eta=exp.eta, dps=dps, loss=run.loss, init=list(run.init), svm=False,
                  on_state=lambda k, psi: kept.append(list(psi)), on_step=tick)
    traj = (normalized_gd(data, exp.param, eps=exp.eps, **kwargs) if exp.method == "ngd" else gd(data, exp.param,
                                                                                                  **kwargs))
    with working_precision(dps) as prec:
        par = make_parameterization(data, exp.param, run.loss)
        obs = Observer(par, prec.dps, True)
        thetas = [par.theta(psi) for psi in kept]
        norms = [norm2(t) for t in thetas]
        rows = table_steps(at_steps, at_norms, norms, len(kept) - 1)
        points = [_point(obs, kept[k], k) for k in rows]
        end = points[-1]
        c_steps = [norm2([x - y for x, y in zip(thetas[k], thetas[k - 1])]) for k in range(1, len(thetas))]
        eta = to_arb(Fraction(exp.eta))
        frozen = (next((k for k, s in enumerate(c_steps, start=1) if s < eta / 2), None)
                  if exp.method == "ngd" else None)
        plotted = min(exp.plotted, len(kept) - 1)
        gmm_curve = []
        for k in range(1, len(kept)):
            if k in rows or k % max(1, (len(kept) - 1) // 200) == 0:
                rec = obs.record(kept[k], arb(k), None)
                if rec.one_minus_corr_gmm is not None and rec.one_minus_corr_gmm > 0:
                    gmm_curve.append((k, log10_abs(rec.one_minus_corr_gmm)))
        path = [(float(t[0].mid()), float(t[1].mid())) for t in thetas[:plotted + 1]] if par.dim >= 2 else []
        directions = {}
        optimal = tuple(o[0] for o in data.optimal_tokens())
        wanted = [("GMM p^mm", "opt")] + ([(f"p^mm(α), α = {_alpha(end.selected)}", end.selected)]
                                          if end.selected != optimal else [])
        for name, select in wanted:
            ref = obs.reference(select)
            if ref is not None and par.dim >= 2 and norm2(ref) > 0:
                n = norm2(ref)
                directions[name] = (float((ref[0] / n).mid()), float((ref[1] / n).mid()))
        floats = {}
        feats = features(data, exp.param)
        for dtype in baselines:
            it = replay(feats, data.scores, run.init, method=exp.method, eta=Fraction(exp.eta),
                        eps=Fraction(exp.eps), steps=len(kept) - 1, loss=run.loss, dtype=dtype)
            errs, f_steps, nonfinite = [], [], None
            prev = None
            for k in range(len(kept)):
                fv = _exact_vector(it[k]) if _finite(it[k]) else None
                if fv is None and nonfinite is None:
                    nonfinite = k
                if k:  # e_k and the step k − 1 → k (None once the float run is not finite)
                    errs.append((k, None if fv is None else _norm_diff(fv, thetas[k]) / norms[k]))
                    f_steps.append(None if fv is None or prev is None else _norm_diff(fv, prev))
                prev = fv
            dep, dep_err = first_departure(errs)
            stall = first_stall(f_steps, c_steps)
            fpoints = []
            for k in rows:
                if _finite(it[k]):
                    psi = _exact_vector(it[k])
                    rel = _norm_diff(psi, thetas[k]) / norms[k] if norms[k] > 0 else None
                    fpoints.append(_point(obs, psi, k, rel))
            stride = max(1, (len(kept) - 1) // 400)
            curve = [(k, log10_abs(e)) for k, e in errs if e is not None and e.is_finite() and e > 0
                     and (k % stride == 0 or k == dep)]
            fpath = [(float(x[0]), float(x[1])) for x in it[:plotted + 1] if _finite(x)] if par.dim >= 2 else []
            floats[dtype] = FloatRun(dtype, dep, _text(dep_err, 4) if dep_err is not None else None, stall, fpoints,
                                     curve, fpath, nonfinite)
    flow = None
    if flow_factor and end.norm > 0:
        target = Fraction(flow_factor) * Fraction(str(end.norm.mid().str(20, radius=False)))
        try:
            ftraj = gradient_flow(data, exp.param, until_norm=target, dps=dps, loss=run.loss, init=kept[-1],
                                  svm=True)
        except (Undecided, Stationary) as exc:  # no answer from the integrator: said, never a figure
            flow = {"status": "no answer", "why": str(exc), "target_norm": format_exact(target)}
        else:
            fin = ftraj.final
            with working_precision(dps):
                flow = {"status": ftraj.status, "target_norm": format_exact(target), "norm": _text(fin.norm),
                        "selected": list(fin.selected), "loss_gap": _text(fin.excess),
                        "one_minus_corr": None if fin.one_minus_corr is None else _text(fin.one_minus_corr),
                        "one_minus_corr_gmm": (None if fin.one_minus_corr_gmm is None
                                               else _text(fin.one_minus_corr_gmm))}
    del traj
    return CurveResult(run.label, data.name, run.loss, run.init, points, end, frozen, floats, flow, gmm_curve, path,
                       directions, time.perf_counter() - t0)


def run_experiment(exp, dps: int, *, baselines=BASELINES, steps: int | None = None, at_steps=None, at_norms=(),
                   flow_factor=10, tick=None, on_curve=None) -> ExperimentResult:
    """Every curve of ``exp`` (see the module docstring); ``tick(k)`` after every certified iteration,
    ``on_curve(curve)`` after every curve."""
    t0 = time.perf_counter()
    steps = exp.steps if steps is None else steps
    if at_steps is None:
        at_steps = tuple(k for k in (10, 100, exp.plotted, steps) if k <= steps)
    out = ExperimentResult(exp, dps, steps, tuple(baselines))
    for run in exp.run_list():
        curve = run_curve(exp, run, dps, steps, baselines, at_steps, at_norms, flow_factor, tick)
        out.curves.append(curve)
        if on_curve:
            on_curve(curve)
    out.seconds = time.perf_counter() - t0
    return out
