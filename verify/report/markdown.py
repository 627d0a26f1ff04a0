"""Reports: markdown per claim with its figures, an index, and the JSON twins — written atomically."""
from __future__ import annotations

import io
import json
import os
import re

from verify.data.dataset import write_atomic, write_atomic_bytes

_NUMBER = re.compile(r"(-?[0-9.]+)(e[-+]?[0-9]+)?")
VERDICT_MARK = {"HOLDS": "✅ HOLDS", "VIOLATED": "❌ VIOLATED", "INCONCLUSIVE": "❔ INCONCLUSIVE", "NOT_APPLICABLE": "➖ NOT APPLICABLE"}


def _cell(x) -> str:
    if x is None:
        return ""
    s = str(x)
    m = _NUMBER.fullmatch(s)
    if m and len(m.group(1)) > 24:  # long decimals: keep tables readable; the JSON twin has every digit
        s = m.group(1)[:22] + "…" + (m.group(2) or "")
    return s.replace("|", "\\|")


def verdict_markdown(v, figure_paths: dict, reproduce: str | None = None) -> str:
    c = v.claim
    js = v.to_json()
    lines = [
        f"# `{c.id}` — {c.number}: {c.title}",
        "",
        f"**Verdict: {VERDICT_MARK[v.verdict]}** · paper `{c.paper}` · kind *{c.kind}* · "
        f"{v.precision} digits (stable: {v.stable_digits}) · {v.seconds:.1f} s",
        "",
        "## Statement",
        "",
        c.statement.strip(),
        "",
    ]
    if len(v.datasets) > 1:
        lines += ["## Datasets", "", "| dataset | verdict |", "|---|---|"]
        lines += [f"| {name} | {verdict} |" for name, verdict in v.datasets]
        lines.append("")
    else:
        lines += [f"Dataset: `{v.dataset}`", ""]
    lines += ["## Hypotheses checked", ""]
    if js["hypotheses"]:
        lines += ["| hypothesis | met | detail |", "|---|---|---|"]
        lines += [f"| {_cell(h['name'])} | {'yes' if h['met'] else '**no**'} | {_cell(h['detail'])} |" for h in js["hypotheses"]]
    else:
        lines.append("(none beyond the data's validity)")
    lines += ["", "## Evidence", ""]
    lines += ["| quantity | value | relation | bound | margin | holds | stable digits |", "|---|---|---|---|---|---|---|"]
    for e in js["evidence"]:
        holds = {True: "yes", False: "**no**", None: "—"}[e["holds"]]
        lines.append(
            f"| {_cell(e['quantity'])} | {_cell(e['value'])} | {e['relation']} | {_cell(e['bound'])} | "
            f"{_cell(e['margin'])} | {holds} | {e['stable_digits'] if e['stable_digits'] is not None else ''} |"
        )
    lines.append("")
    if v.figures:
        lines += ["## Figures", ""]
        for f in v.figures:
            path = figure_paths.get(f.name)
            if path:
                lines += [f"![{f.title}]({path})", ""]
            if f.caption:
                lines += [f"*{f.caption}*", ""]
    if v.notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in v.notes] + [""]
    lines += [
        "## Reproduce",
        "",
        "```",
        reproduce or f"python -m verify {c.id} --precision {v.precision}",
        "```",
        "",
        "Stable digits count the digits of a figure that are both certified by its ball (interval) "
        "arithmetic and unchanged when the check is recomputed at a higher precision.",
        "",
    ]
    return "\n".join(lines)


def render_figure(fig, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    f, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    for s in fig.series:
        pts = [(x, y) for x, y in zip(s.x, s.y) if x is not None and y is not None]
        if not pts:  # nothing plottable (e.g. every value underflowed float): skip the series
            continue
        xs, ys = zip(*pts)
        ax.plot(xs, ys, s.style, label=s.label, markersize=3)
    for y, label in fig.hlines:
        ax.axhline(y, color="gray", linestyle="--", linewidth=1, label=label)
    if fig.logx:
        ax.set_xscale("log")
    if fig.logy:
        ax.set_yscale("log")
    ax.set_title(fig.title)
    ax.set_xlabel(fig.xlabel)
    ax.set_ylabel(fig.ylabel)
    ax.grid(True, which="both", alpha=0.3)
    if any(s.label for s in fig.series) or fig.hlines:
        ax.legend(fontsize=8)
    f.tight_layout()
    buf = io.BytesIO()
    f.savefig(buf, format="png")
    plt.close(f)
    write_atomic_bytes(path, buf.getvalue())


def slug(claim_id: str) -> str:
    return claim_id.replace("/", "_")


def write_claim_report(v, folder: str, reproduce: str | None = None) -> str:
    """Write <folder>/<id>.md, <id>.json and figures/<id>-<name>.png; return the markdown path."""
    os.makedirs(os.path.join(folder, "figures"), exist_ok=True)
    paths = {}
    for fig in v.figures:
        rel = f"figures/{slug(v.claim.id)}-{fig.name}.png"
        render_figure(fig, os.path.join(folder, rel))
        paths[fig.name] = rel
    md_path = os.path.join(folder, f"{slug(v.claim.id)}.md")
    write_atomic(md_path, verdict_markdown(v, paths, reproduce))
    write_atomic(os.path.join(folder, f"{slug(v.claim.id)}.json"), json.dumps(v.to_json(), indent=2) + "\n")
    return md_path


def write_index(verdicts, folder: str, interrupted: bool = False) -> None:
    lines = ["# attnverify report", ""]
    if interrupted:
        lines += ["**Interrupted**: the claims below finished; the rest did not run.", ""]
    counts = {}
    for v in verdicts:
        counts[v.verdict] = counts.get(v.verdict, 0) + 1
    lines += [", ".join(f"{k}: {n}" for k, n in sorted(counts.items())) or "no claims run", ""]
    lines += ["| claim | number | title | verdict | digits | stable | seconds |", "|---|---|---|---|---|---|---|"]
    for v in verdicts:
        c = v.claim
        lines.append(
            f"| [`{c.id}`]({slug(c.id)}.md) | {c.number} | {c.title} | {VERDICT_MARK[v.verdict]} | "
            f"{v.precision} | {v.stable_digits} | {v.seconds:.1f} |"
        )
    lines.append("")
    write_atomic(os.path.join(folder, "index.md"), "\n".join(lines))
    write_atomic(os.path.join(folder, "index.json"), json.dumps([v.to_json() for v in verdicts], indent=2) + "\n")
