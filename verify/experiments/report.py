"""An experiment's result as JSON, text, a markdown page and its figures (paths, the float runs' relative error,
1 − corr to the GMM)."""
from __future__ import annotations

import json
import os

from verify.data.dataset import format_exact
from verify.data.outputs import write_atomic
from verify.experiments.replay import COLUMNS, DEPARTURE, STALL_FRACTION, TREND
from verify.report.figures import Figure, Series, render_figure

STYLES = {"certified": "-", "float64": "--", "float32": ":"}
RAY_COLOURS = ("red", "gray", "green", "purple", "orange", "brown")  # the SVM directions, in the order the curve names them (the GMM first)


def _init_text(init) -> list:
    return [format_exact(x) for x in init]


def to_json(res) -> dict:
    e = res.experiment
    return {
        "experiment": e.id, "paper": e.paper, "figure": e.figure, "title": e.title, "source": e.source,
        "paper_shows": e.shows,
        "algorithm": {"method": e.method, "param": e.param, "eta": e.eta, "eps": e.eps, "steps": res.steps,
                      "plotted": e.plotted, **({"eps_p": e.eps_p} if e.eps_p else {}),
                      **({"ridge": e.ridge} if e.ridge else {}),
                      **({"svm_select": e.svm_select} if e.param in ("W", "KQ") else {})},
        "precision": res.dps, "baselines": list(res.baselines),
        "departure_threshold": format_exact(DEPARTURE), "stall_fraction": format_exact(STALL_FRACTION),
        "curves": [{
            "label": c.label, "dataset": c.dataset, "loss": c.loss, "init": _init_text(c.init),
            "certified": {"at": [p.to_json() for p in c.points], "frozen_at_step": c.frozen},
            "baselines": {d: {"departure_step": f.departure, "relative_error_at_departure": f.departure_error,
                              "stall_step": f.stall, "first_nonfinite_step": f.nonfinite,
                              "at": [p.to_json() for p in f.points]} for d, f in c.floats.items()},
            "flow_continued": c.flow, "seconds": round(c.seconds, 3)} for c in res.curves],
        "seconds": round(res.seconds, 3),
    }


def _short(x, width=10) -> str:
    if x is None:
        return "-"
    mant, e, exp = str(x).partition("e")
    return mant[:width] + e + exp


def _alpha(selected) -> str:
    """Selected tokens as the papers number them (from 1); the JSON keeps the 0-based indices of the Flow JSON."""
    return "(" + ",".join(str(t + 1) for t in selected) + ")"


def text_lines(res) -> list[str]:
    """The result as a reader's table: per curve, the figures at the table's steps and the float runs' departure."""
    e, js = res.experiment, to_json(res)
    out = [f"{e.id} — {e.figure}: {e.title}",
           f"  {e.method} on {e.param}, η = {e.eta}, ε = {e.eps}"
           + (f", loss + {e.ridge}·(‖K‖² + ‖Q‖²)" if e.ridge else "") + f", {res.steps} iterations ({e.source}); "
           f"certified at {res.dps} digits, baselines {', '.join(res.baselines) or 'none'}",
           f"  the paper shows: {e.shows}"]
    for c in js["curves"]:
        out.append(f"\n  {c['label']}  ({c['dataset']}, loss {c['loss']})")
        cols = COLUMNS[e.param]
        out.append(f"    {'step':>6} {'run':>9} " + " ".join(f"{h:>14}" for _, h in cols) + f" {'rel. error':>11}"
                   "  selected α")
        rows = {p["step"]: [("certified", p)] for p in c["certified"]["at"]}
        for d, b in c["baselines"].items():
            for p in b["at"]:
                rows.setdefault(p["step"], []).append((d, p))
        for k in sorted(rows):
            for who, p in rows[k]:
                out.append(f"    {k:>6} {who:>9} " + " ".join(f"{_short(p[key], 14):>14}" for key, _ in cols)
                           + f" {_short(p['relative_error'], 9):>11}  {_alpha(p['selected'])}")
        if c["certified"]["frozen_at_step"] is not None:
            out.append(f"    normalised GD freezes from step {c['certified']['frozen_at_step']} (‖∇L‖ < ε = {e.eps}: "
                       f"the step is below η/2) — the algorithm's ε, in exact arithmetic too")
        for d, b in c["baselines"].items():
            dep = ("never (relative error ≤ 1/1000 at every step)" if b["departure_step"] is None else
                   f"step {b['departure_step']}" + (f" (relative error {b['relative_error_at_departure']})"
                                                    if b["relative_error_at_departure"] else " (not finite)"))
            stall = "never" if b["stall_step"] is None else f"step {b['stall_step']}"
            out.append(f"    {d}: departs {dep}; stalls {stall}")
        f = c["flow_continued"]
        if f is not None:
            if f.get("norm") is None:
                out.append(f"    gradient flow continued: no answer ({f.get('why')})")
            else:
                out.append(f"    gradient flow continued to ‖θ‖ = {_short(f['norm'], 12)}: 1 − corr to the GMM "
                           f"{_short(f['one_minus_corr_gmm'])}, to the selected tokens' SVM {_short(f['one_minus_corr'])}"
                           f", selected α = {_alpha(f['selected'])}")
    out.append(f"\n  {round(res.seconds, 1)} s")
    return out


def render_paths(res, path: str) -> bool:
    """The paper-style figure: each start's path (θ₁, θ₂) over the plotted iterations — one colour per start, the
    certified run solid, float64 dashed, float32 dotted — with the SVM directions as rays from 0. False when the
    parameter has fewer than two coordinates."""
    curves = [c for c in res.curves if c.path]
    if not curves:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import io

    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    from verify.data.outputs import write_atomic_bytes

    f, ax = plt.subplots(figsize=(7.2, 5.4), dpi=110)
    names = {"vp": ("p₁", "p₂"), "W": ("(W z_i)₁", "(W z_i)₂"), "KQ": ("(KQᵀz_i)₁", "(KQᵀz_i)₂")}.get(
        res.experiment.param, ("θ₁", "θ₂"))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    reach = max(max(abs(x), abs(y)) for c in curves for line in [c.path, *c.more_paths] for x, y in line) or 1.0
    drawn = {}
    for j, c in enumerate(curves):
        col = colours[j % len(colours)]
        for line in [c.path, *c.more_paths]:
            if line:
                ax.plot(*zip(*line), STYLES["certified"], color=col, linewidth=1.6)
        for d, fr in c.floats.items():
            for line in [fr.path, *fr.more_paths]:
                if line:
                    ax.plot(*zip(*line), STYLES[d], color=col, linewidth=1.2)
        for name, (ux, uy) in c.directions.items():
            if name not in drawn:
                ray = RAY_COLOURS[len(drawn) % len(RAY_COLOURS)]
                drawn[name] = ax.plot([0, reach * ux], [0, reach * uy], "--", color=ray, linewidth=2.5, alpha=0.5)[0]
    handles = [Line2D([], [], color=colours[j % len(colours)], label=c.label) for j, c in enumerate(curves)]
    handles += [Line2D([], [], color="black", linestyle=STYLES[k], label=k) for k in
                ("certified", *res.baselines)]
    handles += [Line2D([], [], color=h.get_color(), linestyle="--", linewidth=2.5, alpha=0.5, label=n)
                for n, h in drawn.items()]
    ax.legend(handles=handles, fontsize=7, loc="best", ncol=2)
    ax.set_title(f"{res.experiment.figure}: the first {min(res.experiment.plotted, res.steps)} iterations")
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    ax.set_aspect("equal", adjustable="datalim")
    ax.grid(True, alpha=0.3)
    f.tight_layout()
    buf = io.BytesIO()
    f.savefig(buf, format="png")
    plt.close(f)
    write_atomic_bytes(path, buf.getvalue())
    return True


def figures(res) -> list[Figure]:
    """The figures drawn by the generic renderer: the float runs' relative error and the certified 1 − corr."""
    e = res.experiment
    figs = []
    errs = [Series(f"{c.label} {d}", [k for k, _ in f.errors], [y for _, y in f.errors], STYLES[d])
            for c in res.curves for d, f in c.floats.items() if f.errors]
    if errs:
        figs.append(Figure("float-error", f"{e.figure}: relative error of the float runs",
                           "iteration k", "log10 ‖θ_float(k) − θ(k)‖/‖θ(k)‖", errs, hlines=[(-3, "departure: 10⁻³")],
                           caption="computed at the working precision from each float iterate's exact value; a "
                                   "run that is no longer finite ends its curve (its departure step is in the table)"))
    gm = [Series(c.label, [k for k, _ in c.trend], [y for _, y in c.trend], "-") for c in res.curves if c.trend]
    if gm:
        label = TREND[e.param][1]
        figs.append(Figure("trend", f"{e.figure}: {label}, certified run", "iteration k", f"log10 {label}", gm,
                           caption="log10 at the working precision"))
    return figs


def write_report(res, folder: str) -> str:
    """folder/experiment-<id>.md with figures/experiment-<id>-<name>.png and the JSON twin; returns the page."""
    e = res.experiment
    slug = "experiment-" + e.id.replace("/", "_")
    os.makedirs(os.path.join(folder, "figures"), exist_ok=True)
    links = []
    rel = f"figures/{slug}-paths.png"
    if render_paths(res, os.path.join(folder, rel)):
        links.append((Figure("paths", f"{e.figure}: paths", "", "", [], caption="one colour per start: the "
                             "certified run solid, float64 dashed, float32 dotted; the SVM directions as rays"), rel))
    for fig in figures(res):
        rel = f"figures/{slug}-{fig.name}.png"
        render_figure(fig, os.path.join(folder, rel))
        links.append((fig, rel))
    js = to_json(res)
    write_atomic(os.path.join(folder, slug + ".json"), json.dumps(js, indent=2, ensure_ascii=False) + "\n")
    md = [f"# {e.id} — {e.figure}", "", e.title, "",
          f"Replayed with `python -m verify experiment {e.id} --precision {res.dps}`: the authors' algorithm ({e.source})",
          f"at the working precision ({res.dps} digits; every iterate is exact given its rounded gradient), beside the "
          f"same algorithm in {', '.join(res.baselines) or 'no float arithmetic'}. A float run *departs* at the first "
          f"iteration whose relative error to the certified iterate exceeds {format_exact(DEPARTURE)}, and *stalls* "
          f"where its step is shorter than {format_exact(STALL_FRACTION)} of the certified step.", "",
          "```", *text_lines(res), "```", ""]
    for fig, rel in links:
        md += [f"![{fig.title}]({rel})", "", f"*{fig.caption}*" if fig.caption else "", ""]
    path = os.path.join(folder, slug + ".md")
    write_atomic(path, "\n".join(md))
    return path
