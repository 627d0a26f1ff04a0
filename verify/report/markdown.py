"""Reports: markdown per claim with its figures, an index, and the JSON twins — written atomically."""
from __future__ import annotations

import json
import os
import re

from verify.data.outputs import check_folder, lock_folder, write_atomic
from verify.errors import DestinationError
from verify.report.figures import render_figure
from verify.report.paper import PAPER_TITLES, write_paper_pages
from verify.report.provenance import inputs, provenance

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


def verdict_label(verdict: str, certainty: str | None, rng: str | None, points: int | None = None) -> str:
    """"HOLDS — proven on ‖p‖∞ ≤ 1/2", "HOLDS — certified at 169 points", "HOLDS — certified at 12 points for
    π ∈ {1/2, 1, 2}", "HOLDS — evidence over ‖p‖ ≤ 10⁴", "VIOLATED — certified", "INCONCLUSIVE"."""
    if certainty is None:
        return verdict
    label = f"{verdict} — {certainty}"
    if certainty == "certified" and points is not None:
        label += f" at {points} point{'s' if points != 1 else ''}"
    if rng:
        label += {"evidence": " over ", "proven": " on "}.get(certainty, " for ") + rng
    return label


def _mark(js: dict) -> str:
    return VERDICT_MARK[js["verdict"]] + verdict_label("", js.get("certainty"), js.get("range"), js.get("points"))


def _certainty(js: dict) -> str:
    """A dataset's certainty cell: "proven", "certified at 169 points", "evidence", or blank."""
    points = js.get("points")
    return (js.get("certainty") or "") + (f" at {points} points" if points is not None else "")


def _how(e: dict) -> str:
    if not e.get("decides", True):
        return "informative"
    how = e.get("decided_by") or "—"
    return how + ("" if e.get("certified") or how.startswith("rule") else " (not enclosed)")


def _stable(e: dict) -> str:
    """A figure's stable digits; for a figure zero to the precision, the places it is 0 to."""
    if e.get("zero_to") is not None:
        return f"0 (zero to 10^−{e['zero_to']})"
    return "" if e["stable_digits"] is None else str(e["stable_digits"])


def _points(e: dict) -> str:
    c = e.get("coverage")
    if not c:
        return ""
    return f"{c['points']} ({c['holds']} ✓, {c['undecided']} ?, {c['violated']} ✗)"


def _provenance_lines(js: dict, report_json: str | None) -> list:
    """The page's "Datasets as used" and "Provenance" sections (from the report JSON's inputs and provenance)."""
    lines = []
    if js.get("inputs"):
        lines += ["## Datasets as used", "",
                  "Each dataset exactly as the check read it (rationals as strings); the SHA-256 is of its canonical "
                  "JSON (sorted keys, no spaces).", ""]
        for d in js["inputs"]:
            if "file" in d:
                lines += [f"- `{d['name']}`: [{d['file']}]({d['file']}) · SHA-256 `{d['sha256']}`"]
            else:
                lines += [f"- `{d['name']}` · SHA-256 `{d['sha256']}`", "",
                          f"  <details><summary>{d['name']} (JSON)</summary>", "",
                          "  ```json", "  " + json.dumps(d["dataset"], ensure_ascii=False), "  ```", "",
                          "  </details>"]
        lines.append("")
    p = js.get("provenance")
    if p:
        git = p.get("git")
        commit = "not run from a git checkout" if not git else \
            f"`{git['commit'][:12]}`" + (" (uncommitted changes)" if git.get("dirty") else " (clean tree)")
        libs = ", ".join(f"{k} {v}" for k, v in p["libraries"].items() if v)
        recheck = f", recheck at {p['recheck_precision']}" if p.get("recheck_precision") else ""
        lines += ["## Provenance", "",
                  f"- attnverify {p['toolkit']['version']}, commit {commit}",
                  f"- Python {p['python']} on {p['platform']}; {libs}",
                  f"- {p['precision']} digits{recheck}; {p['date']}; {p['seconds']:.1f} s",
                  f"- command: `{p['command']}`"]
        if report_json:
            lines.append(f"- replay from this report alone: `python -m verify replay {report_json}`")
        lines.append("")
    return lines


def verdict_markdown(v, figure_paths: dict, reproduce: str | None = None, cert_paths=(), js: dict | None = None,
                     report_json: str | None = None) -> str:
    c = v.claim
    js = js or v.to_json()
    lines = [
        f"# `{c.id}` — {c.number}: {c.title}",
        "",
        f"**Verdict: {_mark(js)}** · paper `{c.paper}` · kind *{c.kind}* · "
        f"{js['precision']} digits (stable: {js['stable_digits']}) · {js['seconds']:.1f} s",
        "",
    ]
    if js.get("reasons"):
        lines += ["**Why:**", ""] + [f"- {_cell(r)}" for r in js["reasons"]] + [""]
    lines += ["## Statement", "", c.statement.strip(), ""]
    if len(js.get("datasets", [])) > 1:
        lines += ["## Datasets", "", "| dataset | verdict | certainty | range |", "|---|---|---|---|"]
        lines += [f"| {d['name']} | {d['verdict']} | {_certainty(d)} | {_cell(d['range'])} |" for d in js["datasets"]]
        lines.append("")
    else:
        lines += [f"Dataset: `{js['dataset']}`", ""]
    lines += ["## Hypotheses checked", ""]
    if js["hypotheses"]:
        met = {True: "yes", False: "**no**", None: "**undecided**"}
        lines += ["| hypothesis | met | detail |", "|---|---|---|"]
        lines += [f"| {_cell(h['name'])} | {met[h['met']]} | {_cell(h['detail'])} |" for h in js["hypotheses"]]
    else:
        lines.append("(none beyond the data's validity)")
    lines += ["", "## Evidence", ""]
    lines += ["| quantity | value | relation | bound | margin | holds | decided by | points | stable digits |",
              "|---|---|---|---|---|---|---|---|---|"]
    for e in js["evidence"]:
        holds = {True: "yes", False: "**no**", None: "—"}[e["holds"]]
        lines.append(
            f"| {_cell(e['quantity'])} | {_cell(e['value'])} | {e['relation']} | {_cell(e['bound'])} | "
            f"{_cell(e['margin'])} | {holds} | {_how(e)} | {_points(e)} | "
            f"{_stable(e)} |"
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
    if cert_paths:
        lines += ["## Certificates", "",
                  "A region certificate lists the leaves of a bisection of the region with the enclosure that decides "
                  "each; an identity certificate names a polynomial identity of an exact proof. `python -m verify "
                  "recheck FILE` re-verifies either without the search, with an independent engine (mpmath's `iv` "
                  "intervals; FLINT's multivariate polynomials).", ""]
        lines += [f"- [{path}]({path}): {_cell(text)}" for path, text in cert_paths]
        lines.append("")
    if js["notes"]:
        lines += ["## Notes", ""] + [f"- {n}" for n in js["notes"]] + [""]
    lines += _provenance_lines(js, report_json)
    lines += [
        "## Reproduce",
        "",
        "```",
        *([f"python -m verify replay {report_json}     # from this report alone: its datasets and options"]
          if report_json else []),
        reproduce or f"python -m verify {c.id} --precision {js['precision']}",
        "```",
        "",
        "How the verdict is decided: every deciding item is decided by exact arithmetic, by certain ball "
        "(interval) comparisons, point by point over many points (✓ certified, ? undecided, ✗ violated), or by a "
        "declared rule for trends; informative items are shown and never decide. HOLDS is *certified* when every "
        "deciding comparison is proven by enclosures or exact arithmetic on the stated data, and *evidence* over "
        "the stated range otherwise (asymptotic and existential statements, trend rules, integrator output). "
        "Stable digits count the digits of a figure that are both certified by its ball and unchanged when the "
        "check is recomputed at a higher precision. The project's docs/verdicts.md gives the full decision table.",
        "",
    ]
    return "\n".join(lines)


def slug(claim_id: str) -> str:
    return claim_id.replace("/", "_")


def _file_part(name: str) -> str:
    """A dataset's or region's name as a safe file-name part."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", str(name)).strip("._") or "x"


def prepare_report_folder(folder: str, flag: str = "--report") -> str:
    """Check (and create) a report folder and its figures/ before any work, and take its writer lock:
    one-line DestinationError (exit 2) for a read-only place, a file where a folder is needed,
    ``figures`` being a file, a dangling symbolic link, another run writing into the same folder."""
    check_folder(folder, flag, ("figures",))
    lock_folder(folder, flag)
    return folder


def _cert_name(cert: dict) -> str:
    """A certificate's name in its file: the region's margin, or "identity-<name>[-o<token>]"."""
    if "margin" in cert:
        return cert["margin"]["name"]
    spec = cert["identity"]
    return f"identity-{spec['name']}" + (f"-o{spec['args']['o']}" if "o" in spec["args"] else "")


def write_claim_report(v, folder: str, reproduce: str | None = None, options: dict | None = None) -> str:
    """Write figures/<id>-<name>.png, datasets/ (large datasets only), <id>.json and last <id>.md (the page); return
    the markdown path. The JSON and the page carry the datasets as used and the run's provenance
    (``verify.report.provenance``; ``options``: the run's settings, e.g. {"prove": True}), so
    ``python -m verify replay <id>.json`` re-runs the claim from the report alone."""
    try:
        os.makedirs(os.path.join(folder, "figures"), exist_ok=True)
    except OSError as exc:
        raise DestinationError(f"--report {folder}: cannot create figures/ ({exc.strerror or exc})")
    paths = {}
    for fig in v.figures:
        rel = f"figures/{slug(v.claim.id)}-{fig.name}.png"
        render_figure(fig, os.path.join(folder, rel))
        paths[fig.name] = rel
    certs = []
    for dataset, cert in getattr(v, "certificates", ()):
        rel = f"certificates/{slug(v.claim.id)}-{_file_part(dataset)}-{_file_part(_cert_name(cert))}.json"
        try:
            os.makedirs(os.path.join(folder, "certificates"), exist_ok=True)
        except OSError as exc:
            raise DestinationError(f"--report {folder}: cannot create certificates/ ({exc.strerror or exc})")
        write_atomic(os.path.join(folder, rel), json.dumps(cert, indent=1, ensure_ascii=False) + "\n")
        if "leaves" in cert:
            n = len(cert["leaves"])
            certs.append((rel, f"{dataset}: {cert['statement']} — {n} {'leaf' if n == 1 else 'leaves'}"))
        else:
            certs.append((rel, f"{dataset}: {cert['statement']} — an exact polynomial identity"))
    md_path = os.path.join(folder, f"{slug(v.claim.id)}.md")
    js = v.to_json()
    if certs:
        js["certificates"] = [rel for rel, _ in certs]
    js["inputs"] = inputs(v, folder, _file_part)
    js["provenance"] = provenance(v, options)
    write_atomic(os.path.join(folder, f"{slug(v.claim.id)}.json"), json.dumps(js, indent=2) + "\n")
    write_atomic(md_path, verdict_markdown(v, paths, reproduce, certs, js, f"{slug(v.claim.id)}.json"))
    return md_path


def write_index(verdicts, folder: str, interrupted: str | None = None, planned=None) -> None:
    """index.md and index.json. ``interrupted`` (e.g. "SIGINT", "SIGTERM") marks a partial run: both
    files say so, index.json has ``complete: false`` and lists the claims that did not finish."""
    planned = list(planned) if planned is not None else [v.claim.id for v in verdicts]
    done = {v.claim.id for v in verdicts}
    missing = [c for c in planned if c not in done]
    complete = interrupted is None and not missing
    lines = ["# attnverify report", ""]
    if not complete:
        why = f"interrupted ({interrupted})" if interrupted else "incomplete"
        lines += [(f"**PARTIAL — {why}**: {len(verdicts)} of {len(planned)} claims finished and are listed below; "
                   f"not run: {', '.join(f'`{c}`' for c in missing) or 'none'}."), ""]
    counts, levels = {}, {}
    for v in verdicts:
        counts[v.verdict] = counts.get(v.verdict, 0) + 1
        if v.verdict == "HOLDS":
            levels[v.certainty] = levels.get(v.certainty, 0) + 1
    how = ", ".join(f"{k} {levels[k]}" for k in ("proven", "certified", "evidence") if k in levels)
    lines += [", ".join(f"{k}: {n}" + (f" ({how})" if k == "HOLDS" and how else "") for k, n in sorted(counts.items()))
              or "no claims run", ""]
    papers = [p for p in PAPER_TITLES if any(v.claim.paper == p for v in verdicts)]
    if papers:
        lines += ["One page per paper (its verdicts, findings, omitted hypotheses, experiments): "
                  + " · ".join(f"[{PAPER_TITLES[p]}]({p}.md)" for p in papers), ""]
    lines += ["| claim | number | title | verdict | digits | stable | seconds |", "|---|---|---|---|---|---|---|"]
    for v in verdicts:
        c, js = v.claim, v.to_json()
        lines.append(
            f"| [`{c.id}`]({slug(c.id)}.md) | {c.number} | {c.title} | {_cell(_mark(js))} | "
            f"{js['precision']} | {js['stable_digits']} | {js['seconds']:.1f} |"
        )
    lines.append("")
    index = {"complete": complete, "interrupted": interrupted, "planned": len(planned), "finished": len(verdicts),
             "not_run": missing, "verdicts": [v.to_json() for v in verdicts]}
    write_atomic(os.path.join(folder, "index.json"), json.dumps(index, indent=2) + "\n")
    write_atomic(os.path.join(folder, "index.md"), "\n".join(lines))
    if complete or interrupted:  # the last index of a run: the per-paper pages from the claims' reports
        write_paper_pages(folder, papers, order=planned)
