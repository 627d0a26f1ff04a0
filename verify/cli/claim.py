"""``verify <claim> [--precision N] [--data F] [--json] [--report DIR]``: one claim."""
from __future__ import annotations

import json
import sys

from verify.cli.common import claim_parser, precision_for, progress, summary_line


def main(name: str, argv) -> int:
    from verify.claims import REGISTRY, coerce_dataset, run_claim
    from verify.report.markdown import write_claim_report

    a = claim_parser(f"verify {name}", with_data=True).parse_args(argv)
    claim, note = REGISTRY.resolve(name)
    dps = precision_for(a.precision, claim)
    if note:
        print(f"verify: {note}", file=sys.stderr)
    datasets = [coerce_dataset(a.data)] if a.data else claim.default_datasets(seed=a.seed)
    with progress(len(datasets), claim.id, a.json) as bar:
        v = run_claim(claim, datasets, dps=dps, progress=bar.update)
    reproduce = f"python -m verify {claim.id} --precision {dps}" + (f" --data {a.data}" if a.data else "") + (
        f" --seed {a.seed}" if a.seed else "")
    if a.report:
        path = write_claim_report(v, a.report, reproduce)
        if not a.json:
            print(f"report: {path}", file=sys.stderr)
    if a.json:
        print(json.dumps(v.to_json(), indent=2))
        return v.exit_code
    print(summary_line(v))
    for h in v.hypotheses:
        if h.met is not True:
            print(f"  hypothesis {'not met' if h.met is False else 'undecided'}: {h.name}: {h.detail}")
    if v.verdict != "NOT_APPLICABLE":
        for r in v.reasons:
            print(f"  why: {r}")
    for n in v.notes:
        print(f"  note: {n}")
    return v.exit_code
