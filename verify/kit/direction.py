"""Claim-kit piece: an asymptotic direction claim along the gradient flow, "θ/‖θ‖ → q/‖q‖".

The flow (``verify.dynamics.flow_through_norms``: Radau IIA at the working precision, local error
≤ 10^-dps, no rigorous global error bound) is stopped exactly where ‖θ‖ reaches each norm of a
ladder, so the checkpoints are the same points at every precision and their figures carry stable
digits. At each checkpoint: 1 − corr(θ, q), the smallest over the SVM solution set (one q, or several
when the solution is not unique), and the tokens selected. The item deciding "→ q" is
``rules.decays`` of 1 − corr against ‖θ‖ with the DERIVED rate 2 (a bounded transverse offset ρ_⊥:
1 − corr ≈ ‖ρ_⊥‖²/(2‖θ‖²)); a plateau (the direction settled elsewhere) fails it; too few checkpoints
leave it undecided. The values come from an integrator: ``enclosed=False`` (evidence, never a
certificate).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb

from verify.claims import Evidence, Figure, Series, rules
from verify.dynamics import flow_through_norms
from verify.models.attention import LinearLogitModel, dot, one_minus_corr
from verify.numbers.fits import fit_loglog
from verify.numbers.precision import to_arb

#: DERIVED: 1 − corr(θ, q) ≈ ‖ρ_⊥‖²/(2‖θ‖²) for a bounded offset ρ_⊥ transverse to q.
BOUNDED_OFFSET_RATE = 2


@dataclass
class FlowCheckpoints:
    steps: list = field(default_factory=list)      # cumulative Radau steps at each checkpoint
    norms: list = field(default_factory=list)      # ‖θ‖ at the checkpoints (arb)
    points: list = field(default_factory=list)
    omc: list = field(default_factory=list)        # min over the targets of 1 − corr(θ, q)
    selected: list = field(default_factory=list)   # the token each sequence's softmax selects
    status: str = "ok"


def flow_checkpoints(data, theta0, radii, dps: int, targets=(), param: str = "p", loss: str = "logistic",
                     max_steps: int = 5000) -> FlowCheckpoints:
    """The gradient flow from ``theta0`` stopped exactly at each radius of ``radii`` beyond ‖θ(0)‖;
    ``targets``: exact vectors (the SVM solution set) for 1 − corr. ``status``: the flow's last status
    ("ok" when every radius was reached; "stationary" when it converged to a finite point)."""
    th0 = [to_arb(Fraction(x)) if not isinstance(x, arb) else x for x in theta0]
    qs = [[to_arb(Fraction(x)) for x in q] for q in targets]
    run = FlowCheckpoints()
    model = LinearLogitModel.from_dataset(data, param, loss)
    n0 = dot(th0, th0).sqrt()
    norms = [str(r) for r in sorted(Fraction(x) for x in radii) if to_arb(r) > n0]
    for traj in flow_through_norms(data, param, norms, init=th0, dps=dps, loss=loss, svm=False, record=False,
                                   max_steps=max_steps):
        if traj.status != "reached":
            run.status = traj.status
            break
        th = [arb(x.mid()) for x in traj.psi]
        run.steps.append(int(traj.state["steps"]))
        run.norms.append(dot(th, th).sqrt())
        run.points.append(th)
        run.selected.append(tuple(x.r for x in model.states(th)))
        if qs:
            run.omc.append(min((one_minus_corr(th, q) for q in qs), key=lambda v: v.mid()))
    return run


def direction_evidence(run: FlowCheckpoints, quantity: str, decide: bool = True, expected=BOUNDED_OFFSET_RATE,
                       why_not: str = "", zero=None) -> Evidence:
    """1 − corr at the last checkpoint; deciding by ``rules.decays(‖θ‖, 1 − corr, expected)`` when
    ``decide`` (else informative, ``why_not`` saying why); ``zero``: the working precision's resolution
    (a path exactly along the max-margin direction has 1 − corr = 0 to every digit)."""
    rule = rules.decays(run.norms, run.omc, expected=expected, zero=zero) if decide else None
    trend = ("1 − corr = " + ", ".join(f"{float(x.mid()):.3g}" for x in run.omc[-4:]) + " at ‖θ‖ = " +
             ", ".join(f"{float(x.mid()):.4g}" for x in run.norms[-4:]) +
             f"; selected tokens at the end {run.selected[-1]}; {run.steps[-1]} Radau steps")
    head = rule.detail if rule is not None else why_not
    return Evidence(quantity, run.omc[-1], rule=rule, enclosed=False, note=(head + "; " if head else "") + trend)


def log10_upper(x) -> float | None:
    """log10 of |x|'s upper bound, computed at the working precision (a value of 10^−400 is −400, never a float
    that underflowed to 0); None for an exact 0, which has no logarithm."""
    u = arb(abs(to_arb(x)).upper()) if not isinstance(x, arb) else arb(abs(x).upper())
    if u == 0:
        return None
    return float(u.log_base(10).mid())


def direction_series(run: FlowCheckpoints, label: str, fit: bool = False) -> list[Series]:
    """log10(1 − corr) against ‖θ‖ (log x axis), with the fitted power law over the last ``rules.TAIL_POINTS``."""
    xs = [float(x.mid()) for x in run.norms]
    out = [Series(f"gradient flow from {label}", xs, [log10_upper(x) for x in run.omc], "-o")]
    k = rules.TAIL_POINTS
    slope, icpt = fit_loglog(run.norms[-k:], run.omc[-k:]) if fit and len(run.omc) >= k else (None, None)
    if slope is not None:
        out.append(Series(f"fit slope {slope:.2f}", xs[-k:],
                          [(icpt + slope * math.log(x)) / math.log(10) for x in xs[-k:]], "--"))
    return out


def direction_figure(runs, extra=(), title: str = "1 − corr(θ, q) against ‖θ‖", caption: str = "",
                     symbol: str = "p", target: str = "p^mm") -> Figure:
    """log10(1 − corr) against ‖θ‖ (log x axis) for every flow (the fit on the run from "0"), plus ``extra``: the
    logarithm taken at the working precision, so values far below float64's range are drawn where they are; an
    exact 0 (no logarithm) is named in the caption, never dropped silently."""
    series = [s for label, run in runs for s in direction_series(run, label, fit=label == "0")]
    zeros = [f"{float(n.mid()):g}" for _, run in runs for n, v in zip(run.norms, run.omc) if log10_upper(v) is None]
    if zeros:
        caption = (caption + " " if caption else "") + f"1 − corr = 0 exactly at ‖{symbol}‖ = {', '.join(zeros)} " \
                                                        "(no logarithm: not drawn)."
    return Figure("direction", title, f"‖{symbol}‖", f"log10(1 − corr({symbol}, {target})) (ball's upper end)", series + list(extra),
                  logx=True, caption=caption)


def flow_directions(out, data, targets, inits, radii, dps: int, *, decide: bool, why_not: str = "",
                    loss: str = "logistic", param: str = "p", symbol: str = "p", target: str = "p^mm",
                    part: str = "(iii)") -> list[tuple[str, FlowCheckpoints]]:
    """The direction claim from each init: a flow to the last radius, its ``direction_evidence``
    appended to ``out`` (deciding when ``decide``). A flow that reaches no radius: converging to a
    finite stationary point fails (evidence), anything else is an unmet requirement. Returns the
    (label, run) of the flows that reached at least one radius."""
    runs = []
    for label, th0 in inits:
        flow = flow_checkpoints(data, th0, radii, dps, targets=targets, param=param, loss=loss)
        if flow.status != "ok":
            out.notes.append(f"gradient flow from {label}: {flow.status} before ‖{symbol}‖ = {radii[-1]}")
        if not flow.omc:
            first = f"gradient flow from {symbol}(0) = {label} reaches ‖{symbol}‖ = {min(radii, key=Fraction)}"
            if flow.status == "stationary":
                out.add(Evidence(first, False, "==", True, enclosed=False,
                                 note="the flow converges to a finite stationary point"))
            else:
                out.require(first, False, f"flow status {flow.status}")
            continue
        out.add(direction_evidence(flow, f"{part} gradient flow from {symbol}(0) = {label}: 1 − corr({symbol}, "
                                         f"{target}) at ‖{symbol}‖ = {float(flow.norms[-1].mid()):g}",
                                   decide=decide, why_not=why_not, zero=arb(10) ** -dps))
        runs.append((label, flow))
    return runs
