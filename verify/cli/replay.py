"""``verify replay REPORT.json [--json]``: re-run a claim from its report alone and say whether the result agrees.

The report (``<id>.json`` written by ``--report DIR``) carries the datasets as used — inline, or as files beside it
under datasets/, each checked against its SHA-256 — the precision and the run's options (``--prove``). The claim is
run again on them and compared with the report: the verdict, its certainty and range, the stable digits, and every
evidence figure (its quantity, value, relation, bound and decision, as printed). Exit 0 when all agree (AGREES),
1 when something differs (DISAGREES, naming the first difference), 5 for a file that is not a readable report (or a
dataset altered after the run: its SHA-256 no longer matches), 2 for a usage error.
"""
from __future__ import annotations

import json
import os

from verify.cli.common import PROVE_SCALE, Parser, progress
from verify.errors import DataError

#: the fields of an evidence item a replay must reproduce (timings and notes are not compared)
FIGURE_FIELDS = ("quantity", "value", "relation", "bound", "holds")


def differences(report: dict, again: dict) -> list:
    """What differs between the report and the replay's JSON, in reading order (empty: they agree)."""
    out = []
    for key in ("verdict", "certainty", "range", "stable_digits"):
        if report.get(key) != again.get(key):
            out.append(f"{key}: {report.get(key)!r} in the report, {again.get(key)!r} on replay")
    old, new = report.get("evidence", []), again.get("evidence", [])
    if len(old) != len(new):
        out.append(f"evidence: {len(old)} items in the report, {len(new)} on replay")
    for k, (a, b) in enumerate(zip(old, new)):
        for f in FIGURE_FIELDS:
            if a.get(f) != b.get(f):
                out.append(f"evidence[{k}] {a.get('quantity')!r}: {f} {a.get(f)!r} in the report, {b.get(f)!r} on "
                           "replay")
                break
    return out


def main(argv) -> int:
    from verify.claims import REGISTRY, run_claim
    from verify.data.inputs import read_json
    from verify.numbers.precision import parse_precision
    from verify.numbers.regions import budget_scale
    from verify.report.provenance import load_inputs

    p = Parser(prog="verify replay")
    p.add_argument("report", help="a claim's report JSON (DIR/<claim>.json written by --report DIR)")
    p.add_argument("--json", action="store_true", help="print {agrees, differences, replay} as JSON")
    a = p.parse_args(argv)
    report = read_json(a.report, "claim report", flag="replay")
    if not isinstance(report, dict) or "claim" not in report:
        raise DataError(f"{a.report}: not a claim report (no claim id)")
    if "inputs" not in report or "provenance" not in report:
        raise DataError(f"{a.report}: the report carries no datasets or provenance (written before replay existed: "
                        "run the claim again with --report)")
    try:
        claim, _ = REGISTRY.resolve(str(report["claim"]))
        dps = parse_precision(report["precision"])
        prove = bool(report["provenance"].get("options", {}).get("prove"))
    except (KeyError, TypeError, AttributeError) as exc:
        raise DataError(f"{a.report}: incomplete report ({exc})")
    datasets = load_inputs(report["inputs"], os.path.dirname(os.path.abspath(a.report)))
    if not datasets:
        raise DataError(f"{a.report}: the report lists no dataset")
    with progress(len(datasets), f"replay {claim.id}", a.json) as bar, budget_scale(PROVE_SCALE if prove else 1):
        v = run_claim(claim, datasets, dps=dps, progress=bar.update)
    again = v.to_json()
    diff = differences(report, again)
    if a.json:
        print(json.dumps({"agrees": not diff, "differences": diff, "replay": again}, indent=2))
        return 0 if not diff else 1
    what = f"{again['verdict']}" + (f" ({again['certainty']})" if again.get("certainty") else "")
    if not diff:
        print(f"replay {claim.id}: AGREES — {what}, {dps} digits (stable {again['stable_digits']}), "
              f"{len(again['evidence'])} evidence figures identical, {len(datasets)} dataset(s) from the report")
        return 0
    print(f"replay {claim.id}: DISAGREES — first difference: {diff[0]}")
    for d in diff[1:4]:
        print(f"  also: {d}")
    if len(diff) > 4:
        print(f"  … {len(diff) - 4} more")
    return 1
