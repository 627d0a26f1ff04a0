"""One page per paper (``DIR/<paper>.md``): which of its results hold, which fail, how sure we are.

Built from the claims' report JSON (``DIR/<claim>.json``), so ``verify report --paper P --report DIR`` rewrites it
without re-running anything and ``verify all --report DIR`` writes it as the last step:

* the verdict table, one row per claim in the registry's order (number, id, the statement in one line, verdict,
  certainty, range, seconds);
* the findings: every VIOLATED claim with the item that fails (its witness) and the command that replays it from
  its report;
* the hypotheses the paper leaves out (claims whose number names a hidden hypothesis) and every NOT_APPLICABLE
  verdict with the hypothesis it names;
* the paper's experiments (``verify experiment``; the catalogue given by the caller, else those replayed into DIR)
  with their float-departure table where ``DIR/experiment-<id>.json``
  exists, else the command that writes it.
"""
from __future__ import annotations

import glob
import json
import os

from verify.data.outputs import write_atomic

PAPER_TITLES = {
    "mmts": "Max-Margin Token Selection in Attention Mechanism",
    "tfsvm": "Transformers as Support Vector Machines",
    "irgf": "Implicit Regularization of Gradient Flow on One-Layer Softmax Attention",
}
RANGE_WIDTH = 160  # characters of a range shown in the table (the claim's page has all of it)


def _cell(x, width: int | None = None) -> str:
    text = "" if x is None else " ".join(str(x).split()).replace("|", "\\|")
    return text if width is None or len(text) <= width else text[:width - 1] + "…"


def load_reports(folder: str) -> list:
    """The claim reports (dicts) in ``folder``: every ``<claim>.json`` with a claim id (not index or experiments)."""
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        name = os.path.basename(path)
        if name == "index.json" or name.startswith("experiment-"):
            continue
        try:
            with open(path, encoding="utf-8") as f:
                js = json.load(f)
        except (OSError, ValueError):
            continue
        if isinstance(js, dict) and "claim" in js and "verdict" in js:
            out.append(js)
    return out


def _order(reports: list, order) -> list:
    rank = {cid: k for k, cid in enumerate(order or ())}
    return sorted(reports, key=lambda js: (rank.get(js["claim"], len(rank)), js["claim"]))


def _verdict(js: dict) -> str:
    return js["verdict"] + (f" ({js['certainty']})" if js.get("certainty") else "")


def _experiment_reports(folder: str) -> dict:
    """{id: report JSON} of the experiments replayed into ``folder`` (``DIR/experiment-<id>.json``)."""
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, "experiment-*.json"))):
        try:
            with open(path, encoding="utf-8") as f:
                js = json.load(f)
        except (OSError, ValueError):
            continue
        if isinstance(js, dict) and "curves" in js:
            out[os.path.basename(path)[len("experiment-"):-len(".json")]] = js
    return out


def _experiments(paper: str, folder: str, catalog) -> list:
    """The paper's experiments: ``catalog`` [(id, paper, figure)] (None: only those replayed into the folder)."""
    done = _experiment_reports(folder)
    known = list(catalog) if catalog is not None else \
        [(js.get("experiment", k), js.get("paper"), js.get("figure", k)) for k, js in done.items()]
    lines = []
    for eid, epaper, figure in known:
        if epaper != paper:
            continue
        js = done.get(eid.replace("/", "_"))
        if js is None:
            lines.append(f"- `{eid}` ({figure}): not run here — `python -m verify experiment {eid} --report DIR`")
            continue
        lines += [f"- [`{eid}`](experiment-{eid.replace('/', '_')}.md) ({figure}), {js['precision']} digits:", "",
                  "  | curve | float | departs at step | relative error there | stalls at step |",
                  "  |---|---|---|---|---|"]
        for c in js["curves"]:
            for dtype, b in c["baselines"].items():
                lines.append(f"  | {_cell(c['label'])} | {dtype} | {b['departure_step'] if b['departure_step'] is not None else 'never'} "
                             f"| {_cell(b['relative_error_at_departure']) or '—'} | "
                             f"{b['stall_step'] if b['stall_step'] is not None else '—'} |")
        lines.append("")
    return lines


def paper_markdown(paper: str, reports: list, folder: str, order=None, catalog=None) -> str:
    """The page (module docstring); ``order`` the claim ids in the registry's order, ``catalog`` the experiments
    [(id, paper, figure)] (both given by the caller: the report layer does not read the registries)."""
    mine = _order([js for js in reports if js.get("paper") == paper], order)
    counts = {}
    for js in mine:
        counts[js["verdict"]] = counts.get(js["verdict"], 0) + 1
    lines = [f"# {PAPER_TITLES.get(paper, paper)} (`{paper}`)", "",
             f"{len(mine)} claim{'s' if len(mine) != 1 else ''} checked: " + (", ".join(f"{k} {n}" for k, n in sorted(counts.items())) or "none")
             + ". Each id links the claim's page (statement, hypotheses, evidence, figures, datasets, provenance).",
             "", "## Verdicts", "",
             "| number | claim | statement | verdict | range | s |", "|---|---|---|---|---|---|"]
    for js in mine:
        lines.append(f"| {_cell(js['number'])} | [`{js['claim']}`]({js['claim']}.md) | {_cell(js['title'])} | "
                     f"**{_verdict(js)}** | {_cell(js.get('range'), RANGE_WIDTH)} | {js['seconds']:.0f} |")
    lines += ["", "## Findings", ""]
    flawed = [js for js in mine if js["verdict"] == "VIOLATED"]
    if not flawed:
        lines.append("No statement of this paper was found false on the datasets checked.")
    for js in flawed:
        witness = js["reasons"][0] if js.get("reasons") else "(see the page)"
        on = [d["name"] for d in js.get("datasets") or [] if d.get("verdict") == "VIOLATED"] or [js["dataset"]]
        lines += [f"- **{_cell(js['number'])}** ([`{js['claim']}`]({js['claim']}.md)) — {_cell(js['title'])}: "
                  f"VIOLATED ({js.get('certainty') or 'evidence'}) on {_cell(', '.join(on))}.",
                  f"  - witness: {_cell(witness, 600)}",
                  f"  - replay: `python -m verify replay {js['claim']}.json` (from its report alone)"]
    lines += ["", "## Hypotheses the paper leaves out", ""]
    hidden = [js for js in mine if "hidden" in str(js["number"]).lower()]
    na = [js for js in mine if js["verdict"] == "NOT_APPLICABLE"]
    for js in hidden:
        lines.append(f"- [`{js['claim']}`]({js['claim']}.md) — {_cell(js['title'])}: **{_verdict(js)}**"
                     + (f" — {_cell(js['reasons'][0], 400)}" if js.get("reasons") else ""))
    for js in na:
        lines.append(f"- [`{js['claim']}`]({js['claim']}.md) does not apply to its datasets: "
                     f"{_cell('; '.join(js.get('reasons', [])), 400)}")
    if not hidden and not na:
        lines.append("None found: every claim's stated hypotheses were met on its datasets.")
    lines += ["", "## Experiments replayed", ""]
    lines += _experiments(paper, folder, catalog) or [
        "None replayed into this folder (`python -m verify experiment list` lists the paper's experiments)."]
    lines.append("")
    return "\n".join(lines)


def write_paper_pages(folder: str, papers=None, order=None, catalog=None) -> list:
    """``folder``/<paper>.md for each paper with a claim report there (or each of ``papers``); the paths written."""
    reports = load_reports(folder)
    present = {js.get("paper") for js in reports}
    written = []
    for paper in papers or [p for p in PAPER_TITLES if p in present]:
        path = os.path.join(folder, f"{paper}.md")
        write_atomic(path, paper_markdown(paper, reports, folder, order, catalog))
        written.append(path)
    return written
