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
from verify.dynamics.float_replay import replay, replay_attention, replay_joint
from verify.dynamics.flow import FLOW_STEPS
from verify.dynamics.joint_gd import joint_normalized_gd
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
#: digits of the iterates printed in the JSON (a certified iterate is an exact dyadic; a float one has ≤ 17 digits)
THETA_DIGITS = 20


@dataclass
class Point:
    """The figures at one iterate (``figures``: JSON key → arb or None, in the experiment's column order), the
    selected tokens, and for a float run its relative error to the certified iterate."""

    step: int
    selected: tuple
    figures: dict
    rel_error: arb | None = None
    theta: list = field(default_factory=list)  # the iterate itself (the stacked (v, p) for the joint runs)

    def to_json(self) -> dict:
        out = {"step": self.step, "selected": list(self.selected),
               "theta": [_text(x, THETA_DIGITS) for x in self.theta]}
        out.update({k: None if x is None else _text(x) for k, x in self.figures.items()})
        out["relative_error"] = None if self.rel_error is None else _text(self.rel_error)
        return out


@dataclass
class FloatRun:
    dtype: str
    departure: int | None        # first step with relative error > DEPARTURE (or not finite); None: never
    departure_error: str | None  # the relative error there
    stall: int | None            # first step shorter than STALL_FRACTION × the certified step; None: never
    points: list                 # Point at the table's steps
    errors: list                 # (step, log10 relative error) for the figure (steps with a finite, non-zero error)
    path: list                   # the two plotted coordinates of the plotted iterates
    nonfinite: int | None        # first step where θ is not finite (inf/NaN); None: never
    more_paths: list = field(default_factory=list)  # further plotted polylines (tfsvm: W z₂)


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
    flow: dict | None            # the continued gradient flow's end figures (None: not continued)
    trend: list                  # (step, log10 of the experiment's trend figure) along the certified run
    path: list                   # the two plotted coordinates of the certified iterates (plotted part)
    directions: dict = field(default_factory=dict)  # name → unit SVM direction in the plotted plane (rays)
    seconds: float = 0.0
    more_paths: list = field(default_factory=list)  # further plotted polylines of the certified run (tfsvm: W z₂)


@dataclass
class ExperimentResult:
    experiment: object
    dps: int
    steps: int
    baselines: tuple
    curves: list = field(default_factory=list)
    seconds: float = 0.0


#: the table's columns per kind of experiment: (JSON key, header); the trend figure's key and label
COLUMNS = {
    "p": (("norm", "norm"), ("one_minus_corr_gmm", "1-corr GMM"), ("one_minus_corr", "1-corr sel")),
    "vp": (("norm_p", "norm p"), ("norm_v", "norm v"), ("one_minus_corr_p_mm", "1-corr p^mm(α)"),
           ("one_minus_corr_p_relax", "1-corr p^relax"), ("one_minus_corr_v_mm", "1-corr v^mm")),
    "W": (("norm_W", "‖W‖_F"), ("loss_gap", "L - L*"), ("softmax_gap", "1-mean max s"),
          ("one_minus_corr_fro", "1-corr W^mm_F"), ("one_minus_corr_nuc", "1-corr W^mm_*")),
    "KQ": (("norm_K", "‖K‖_F"), ("norm_Q", "‖Q‖_F"), ("norm_W", "‖W‖_F"), ("loss_gap", "L - L*"),
           ("softmax_gap", "1-mean max s"), ("one_minus_corr_fro", "1-corr W^mm_F"), ("one_minus_corr_nuc", "1-corr W^mm_*"),
           ("ridge_over_grad", "ridge/grad")),
}
TREND = {"p": ("one_minus_corr_gmm", "1 − corr(θ(k), p^mm)"),
         "vp": ("one_minus_corr_p_relax", "1 − corr(p(k), p^relax)"),
         "W": ("one_minus_corr_fro", "1 − corr(W(k), W^mm_F)"),
         "KQ": ("one_minus_corr_nuc", "1 − corr(K(k)Q(k)ᵀ, W^mm_*)")}


def _text(x: arb, digits: int = FIGURE_DIGITS) -> str:
    return to_decimal_string(x, digits)


def _exact_vector(values) -> list:
    """Float iterate → arb balls holding its exact binary value."""
    return [arb(float(x)) for x in values]


def _finite(vec) -> bool:
    return all(math.isfinite(float(x)) for x in vec)


def _norm_diff(a, b) -> arb:
    return norm2([x - y for x, y in zip(a, b)])


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


class _Certified:
    """A certified run's iterates and what the comparisons need: the iterates θ(k) as arb vectors, their norms and
    step lengths, the table's rows, ``evaluate(ψ, k, rel)`` → Point, and the plotted coordinates."""

    def __init__(self, kept, rows, evaluate, coords, plotted, project=None):
        self.thetas = kept
        self.norms = [norm2(t) for t in kept]
        self.steps = [_norm_diff(kept[k], kept[k - 1]) for k in range(1, len(kept))]
        self.rows, self.evaluate, self.coords, self.plotted = rows, evaluate, coords, plotted
        self.project = project  # iterate (floats) → further plotted points, one per extra polyline (tfsvm: W z_i)

    def polylines(self, iterates) -> list:
        """With ``project``: one polyline per projected point (the plotted iterates, non-finite points left out);
        else [``path``]."""
        if self.project is None:
            return [self.path(iterates)]
        lines = None
        for x in iterates[: self.plotted + 1]:
            pts = self.project([float(a.mid()) if isinstance(a, arb) else float(a) for a in x])
            lines = lines or [[] for _ in pts]
            for line, (a, b) in zip(lines, pts):
                if math.isfinite(a) and math.isfinite(b):
                    line.append((a, b))
        return lines or [[]]

    def path(self, iterates) -> list:
        """The plotted coordinates of the first ``plotted`` iterates (arb lists or float arrays; non-finite
        points are not drawn — the departure table names them)."""
        i, j = self.coords
        out = []
        for x in iterates[: self.plotted + 1]:
            a, b = (float(x[i].mid()), float(x[j].mid())) if isinstance(x[i], arb) else (float(x[i]), float(x[j]))
            if math.isfinite(a) and math.isfinite(b):
                out.append((a, b))
        return out

    def compare(self, dtype: str, it) -> FloatRun:
        """One float run (``it``: its iterates, an array) against the certified one."""
        errs, f_steps, nonfinite, prev = [], [], None, None
        for k in range(len(self.thetas)):
            fv = _exact_vector(it[k]) if _finite(it[k]) else None
            if fv is None and nonfinite is None:
                nonfinite = k
            if k:  # e_k and the step k − 1 → k (None once the float run is not finite)
                errs.append((k, None if fv is None else _norm_diff(fv, self.thetas[k]) / self.norms[k]))
                f_steps.append(None if fv is None or prev is None else _norm_diff(fv, prev))
            prev = fv
        dep, dep_err = first_departure(errs)
        points = []
        for k in self.rows:
            if _finite(it[k]):
                psi = _exact_vector(it[k])
                rel = _norm_diff(psi, self.thetas[k]) / self.norms[k] if self.norms[k] > 0 else None
                points.append(self.evaluate(psi, k, rel))
        stride = max(1, (len(self.thetas) - 1) // 400)
        curve = [(k, log10_abs(e)) for k, e in errs if e is not None and e.is_finite() and e > 0
                 and (k % stride == 0 or k == dep)]
        lines = self.polylines(it)
        return FloatRun(dtype, dep, _text(dep_err, 4) if dep_err is not None else None,
                        first_stall(f_steps, self.steps), points, curve, lines[0], nonfinite, lines[1:])

    def frozen(self, eta) -> int | None:
        """The first certified step shorter than η/2 (normalised GD's ε at work)."""
        half = to_arb(Fraction(eta)) / 2
        return next((k for k, s in enumerate(self.steps, start=1) if s < half), None)

    def trend(self, key: str) -> list:
        """(k, log10 of ``key``) along the run, about 200 points and every table row."""
        out, stride = [], max(1, (len(self.thetas) - 1) // 200)
        for k in range(1, len(self.thetas)):
            if k in self.rows or k % stride == 0:
                x = self.evaluate(self.thetas[k], k, None).figures.get(key)
                if x is not None and x > 0:
                    out.append((k, log10_abs(x)))
        return out


def _continue_flow(data, exp, run, end_psi, end_norm, dps, flow_factor):
    """The gradient flow from the certified end point to ``flow_factor`` × its norm (None when not asked)."""
    if not flow_factor or not end_norm > 0:
        return None
    target = Fraction(flow_factor) * Fraction(end_norm.mid().str(20, radius=False))
    try:
        ftraj = gradient_flow(data, exp.param, until_norm=target, dps=dps, loss=run.loss, init=end_psi, svm=True,
                              max_steps=FLOW_STEPS)
    except (Undecided, Stationary) as exc:  # no answer from the integrator: said, never a figure
        return {"status": "no answer", "why": str(exc), "target_norm": format_exact(target)}
    fin = ftraj.final
    with working_precision(dps):
        f = lambda x: None if x is None else _text(x)  # noqa: E731
        return {"status": ftraj.status, "target_norm": format_exact(target), "norm": f(fin.norm),
                "selected": list(fin.selected), "loss_gap": f(fin.excess), "one_minus_corr": f(fin.one_minus_corr),
                "one_minus_corr_gmm": f(fin.one_minus_corr_gmm)}


def _unit_plane(ref, coords) -> tuple | None:
    n = norm2(ref)
    if not n > 0:
        return None
    return tuple(float((ref[c] / n).mid()) for c in coords)


def run_curve(exp, run, dps: int, steps: int, baselines, at_steps, at_norms, flow_factor, tick=None) -> CurveResult:
    """One curve of a single-parameter experiment (``exp.param`` "p"; see the module docstring)."""
    t0 = time.perf_counter()
    data = run.dataset()
    kept = []
    kwargs = dict(steps=steps, eta=exp.eta, dps=dps, loss=run.loss, init=list(run.init), svm=False,
                  on_state=lambda k, psi: kept.append(list(psi)), on_step=tick)
    if exp.method == "ngd":
        normalized_gd(data, exp.param, eps=exp.eps, **kwargs)
    else:
        gd(data, exp.param, **kwargs)
    with working_precision(dps) as prec:
        par = make_parameterization(data, exp.param, run.loss)
        obs = Observer(par, prec.dps, True)

        def evaluate(psi, k, rel):
            rec = obs.record(psi, arb(k), None)
            return Point(k, rec.selected, {"norm": rec.norm, "loss_gap": rec.excess,
                                           "one_minus_corr": rec.one_minus_corr,
                                           "one_minus_corr_gmm": rec.one_minus_corr_gmm}, rel, list(psi))

        thetas = [par.theta(psi) for psi in kept]
        rows = table_steps(at_steps, at_norms, [norm2(t) for t in thetas], len(kept) - 1)
        cert = _Certified(thetas, rows, evaluate, (0, 1), min(exp.plotted, len(kept) - 1))
        points = [evaluate(kept[k], k, None) for k in rows]
        end = points[-1]
        directions = {}
        optimal = tuple(o[0] for o in data.optimal_tokens())
        for name, select in [("GMM p^mm", "opt")] + ([(f"p^mm(α), α = {_alpha(end.selected)}", end.selected)]
                                                     if end.selected != optimal else []):
            ref = obs.reference(select)
            if ref is not None and par.dim >= 2 and (u := _unit_plane(ref, (0, 1))) is not None:
                directions[name] = u
        feats = features(data, exp.param)
        floats = {d: cert.compare(d, replay(feats, data.scores, run.init, method=exp.method, eta=Fraction(exp.eta),
                                            eps=Fraction(exp.eps), steps=len(kept) - 1, loss=run.loss, dtype=d))
                  for d in baselines}
        frozen = cert.frozen(exp.eta) if exp.method == "ngd" else None
        trend, path = cert.trend(TREND["p"][0]), cert.path(thetas) if par.dim >= 2 else []
    flow = _continue_flow(data, exp, run, kept[-1], end.figures["norm"], dps, flow_factor)
    return CurveResult(run.label, data.name, run.loss, run.init, points, end, frozen, floats, flow, trend, path,
                       directions, time.perf_counter() - t0)


def run_joint_curve(exp, run, dps: int, steps: int, baselines, at_steps, at_norms, flow_factor,
                    tick=None) -> CurveResult:
    """One curve of the joint (v, p) experiment (mmts Fig. 3): the authors' joint normalised GD certified, replayed
    in float, and measured against v^mm, p^mm(α) and p^relax of the selection α the data's v scores optimal (the
    exact SVMs of ``verify.svm``: kinds v, p, relaxed). No flow continuation (the joint flow is not in the engine;
    the joint regularization path is ``mmts.thm5``/``thm6``'s)."""
    from verify.models.attention import one_minus_corr
    from verify.models.joint import JointModel
    from verify.svm import solve_svm

    t0 = time.perf_counter()
    data = run.dataset()
    kept = []
    joint_normalized_gd(data, run.init, steps=steps, eta=exp.eta, eps_v=exp.eps, eps_p=exp.eps_p, dps=dps,
                        loss=run.loss, on_state=lambda k, psi: kept.append(list(psi)), on_step=tick)
    alpha = tuple(o[0] for o in data.optimal_tokens())
    refs = {}
    for key, kind in (("v", "v"), ("p_mm", "p"), ("p_relax", "relaxed")):
        res = solve_svm(data, kind, alpha, dps, check_unique=False)
        refs[key] = res.solution if res.status == "optimal" else None
    with working_precision(dps):
        model = JointModel(data, run.loss)
        d = model.d
        ref = {k: None if v is None else [to_arb(x) for x in v] for k, v in refs.items()}

        def evaluate(psi, k, rel):
            v, p = psi[:d], psi[d:]
            omc = lambda a, b: None if b is None or not norm2(a) > 0 else one_minus_corr(a, b)  # noqa: E731
            return Point(k, model.selected(p), {"norm_p": norm2(p), "norm_v": norm2(v),
                                                "one_minus_corr_p_mm": omc(p, ref["p_mm"]),
                                                "one_minus_corr_p_relax": omc(p, ref["p_relax"]),
                                                "one_minus_corr_v_mm": omc(v, ref["v"])}, rel, list(psi))

        rows = table_steps(at_steps, (), [norm2(t[d:]) for t in kept], len(kept) - 1)
        cert = _Certified(kept, rows, evaluate, (d, d + 1), min(exp.plotted, len(kept) - 1))
        points = [evaluate(kept[k], k, None) for k in rows]
        directions = {name: u for name, key in (("p^mm(α)", "p_mm"), ("p^relax", "p_relax"))
                      if ref[key] is not None and (u := _unit_plane(ref[key], (0, 1))) is not None}
        floats = {dt: cert.compare(dt, replay_joint(data.X, data.keys(), data.Y, run.init[:d], run.init[d:],
                                                    eta=exp.eta, eps_v=exp.eps, eps_p=exp.eps_p,
                                                    steps=len(kept) - 1, loss=run.loss, dtype=dt))
                  for dt in baselines}
        trend, path = cert.trend(TREND["vp"][0]), cert.path(kept)
    return CurveResult(run.label, data.name, run.loss, run.init, points, points[-1], None, floats, None, trend, path,
                       directions, time.perf_counter() - t0)


def run_attention_curve(exp, run, dps: int, steps: int, baselines, at_steps, at_norms, flow_factor,
                        tick=None) -> CurveResult:
    """One curve of a tfsvm experiment (``exp.param`` "W" or "KQ"; TFasSVM/visualization.ipynb): the certified run
    (``normalized_gd``; for (K, Q) with ``ridge``, the authors' ε(‖K‖² + ‖Q‖²)), the float runs
    (``float_replay.replay_attention``), the relative error measured on the iterate ψ itself (W, or (K, Q)), and at
    the table's rows ‖W‖_F, L − L⋆ (the unregularised loss), 1 − corr to the Frobenius SVM W^mm_F and to the nuclear-norm SVM W^mm_* of the
    optimal tokens (``exp.svm_select`` "opt"; "final": of the tokens the certified end point selects, as
    local_converge.ipynb does) (``verify.svm`` kinds W and KQ, certified), 1 − the mean over sequences of the largest
    softmax probability (the notebook's "softmax probability", as Σ_{t≠r} s_t: no cancellation), and for (K, Q) ‖K‖, ‖Q‖ and the ridge's share
    ‖2ε·ψ‖/‖∇_ψL‖. The plotted paths (d = 2 only) are W(k)z₁ and W(k)z₂ with the rays W^mm z_i, as the notebook draws. The
    gradient flow is continued for W only (the ridge-regularised (K, Q) objective has a finite minimiser)."""
    from verify.models.attention import one_minus_corr

    t0 = time.perf_counter()
    data = run.dataset()
    kept = []
    keep = lambda k, psi: kept.append(list(psi))  # noqa: E731
    normalized_gd(data, exp.param, eps=exp.eps, steps=steps, eta=exp.eta, dps=dps, loss=run.loss,
                  init=list(run.init), svm=False, on_state=keep, on_step=tick,
                  ridge=(exp.ridge or 0) if exp.param == "KQ" else None)
    with working_precision(dps) as prec:
        par = make_parameterization(data, exp.param, run.loss)
        wpar = make_parameterization(data, "W", run.loss)
        select = "opt" if exp.svm_select == "opt" else wpar.model.selected(par.theta(kept[-1]))
        refs = {"fro": wpar.svm_reference(select, prec.dps),
                "nuc": make_parameterization(data, "KQ", run.loss).svm_reference(select, prec.dps)}
        twice = to_arb(2 * Fraction(exp.ridge or 0))
        d = data.d

        def evaluate(psi, k, rel):
            th = par.theta(psi)
            nt = norm2(th)
            omc = lambda ref: one_minus_corr(th, ref) if ref is not None and nt > 0 else None  # noqa: E731
            st = wpar.model.states(th)
            off = wpar.model.mass_off(th, [x.r for x in st], st)
            figs = {"norm_W": nt, "loss_gap": wpar.model.excess(th, st), "softmax_gap": sum(off, arb(0)) / len(off),
                    "one_minus_corr_fro": omc(refs["fro"]), "one_minus_corr_nuc": omc(refs["nuc"])}
            if exp.param == "KQ":
                gl = norm2(par.grad(psi))
                figs = {"norm_K": norm2(psi[:d * d]), "norm_Q": norm2(psi[d * d:]), **figs,
                        "ridge_over_grad": twice * norm2(psi) / gl if gl > 0 else None}
            return Point(k, tuple(x.r for x in st), figs, rel, list(psi))

        Zf = [[float(x) for x in q] for q in data.queries()]

        def project(x):  # ψ (floats) → W z₁, W z₂ (the notebook's plotted points)
            if exp.param == "W":
                W = [x[a * d:(a + 1) * d] for a in range(d)]
            else:
                K, Q = x[:d * d], x[d * d:]
                W = [[sum(K[a * d + e] * Q[b * d + e] for e in range(d)) for b in range(d)] for a in range(d)]
            return [tuple(sum(W[a][b] * z[b] for b in range(d)) for a in range(2)) for z in Zf]

        rows = table_steps(at_steps, at_norms, [norm2(par.theta(p)) for p in kept], len(kept) - 1)
        cert = _Certified(kept, rows, evaluate, (0, 1), min(exp.plotted, len(kept) - 1), project if d == 2 else None)
        points = [evaluate(kept[k], k, None) for k in rows]
        directions = {}
        for name, key in (("W^mm_F", "fro"), ("W^mm_*", "nuc")):
            if refs[key] is not None and d == 2:
                ref = [float(x.mid()) for x in refs[key]]
                for i, z in enumerate(Zf, start=1):
                    u = [sum(ref[a * d + b] * z[b] for b in range(d)) for a in range(2)]
                    r = math.hypot(*u)
                    if r > 0:
                        directions[f"{name} z{i}"] = (u[0] / r, u[1] / r)
        floats = {dt: cert.compare(dt, replay_attention(data, exp.param, run.init, eta=exp.eta, eps=exp.eps,
                                                        ridge=exp.ridge or 0, steps=len(kept) - 1, dtype=dt))
                  for dt in baselines}
        frozen = cert.frozen(exp.eta)
        trend, lines = cert.trend(TREND[exp.param][0]), (cert.polylines(kept) if d == 2 else [[]])
    flow = None
    if exp.param == "W":
        flow = _continue_flow(data, exp, run, kept[-1], points[-1].figures["norm_W"], dps, flow_factor)
    return CurveResult(run.label, data.name, run.loss, run.init, points, points[-1], frozen, floats, flow, trend,
                       lines[0], directions, time.perf_counter() - t0, lines[1:])


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
        runner = {"vp": run_joint_curve, "W": run_attention_curve, "KQ": run_attention_curve}.get(exp.param, run_curve)
        curve = runner(exp, run, dps, steps, baselines, at_steps, at_norms, flow_factor, tick)
        out.curves.append(curve)
        if on_curve:
            on_curve(curve)
    out.seconds = time.perf_counter() - t0
    return out
