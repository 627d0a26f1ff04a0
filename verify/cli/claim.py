"""``verify <claim> [--precision N] [--data F] [--prove] [--jobs N] [--json] [--report DIR]``: one claim."""
from __future__ import annotations

import json
import sys

from verify.cli.common import (
    PROVE_SCALE,
    claim_parser,
    clip,
    jobs_flag,
    path_flag,
    precision_for,
    progress,
    seed_flag,
    summary_line,
)


def main(name: str, argv) -> int:
    from verify.claims import REGISTRY, run_claim
    from verify.claims.progress import progress_sink
    from verify.data.dataset import load_dataset
    from verify.numbers.regions import budget_scale, region_jobs
    from verify.report.markdown import prepare_report_folder, write_claim_report

    p = claim_parser(f"verify {name}", with_data=True)
    p.add_argument("--jobs", default=None, help="worker processes for the region certificates' searches (split into "
                   "sub-boxes; the same result for every N; default: one search in this process)")
    a = p.parse_args(argv)
    jobs = None if a.jobs is None else jobs_flag(a.jobs)
    data_path, report = path_flag(a.data, "--data"), path_flag(a.report, "--report")
    seed = seed_flag(a.seed)
    claim, note = REGISTRY.resolve(name)
    dps = precision_for(a.precision, claim)
    if report:
        prepare_report_folder(report)  # before the work: a destination that fails fails now
    datasets = [load_dataset(data_path)] if data_path else claim.default_datasets(seed=seed)
    if note:  # after the inputs passed: an error stays the only line
        print(f"verify: {note}", file=sys.stderr)
    with progress(len(datasets), claim.id, a.json) as bar, progress_sink(lambda text: bar.set_postfix_str(text)), \
            budget_scale(PROVE_SCALE if a.prove else 1), region_jobs(jobs):
        v = run_claim(claim, datasets, dps=dps, progress=bar.update)
    reproduce = f"python -m verify {claim.id} --precision {dps}" + (f" --data {data_path}" if data_path else "") + (
        f" --seed {seed}" if seed else "") + (" --prove" if a.prove else "") + (" --jobs 1" if jobs else "")
    if report:
        path = write_claim_report(v, report, reproduce, {"prove": bool(a.prove)})
        if not a.json:
            print(f"report: {path}", file=sys.stderr)
    if a.json:
        print(json.dumps(v.to_json(), indent=2))
        return v.exit_code
    print(summary_line(v))
    for h in v.hypotheses:
        if h.met is not True:
            print(clip(f"  hypothesis {'not met' if h.met is False else 'undecided'}: {h.name}: {h.detail}"))
    if v.verdict != "NOT_APPLICABLE":
        for r in v.reasons:
            print(clip(f"  why: {r}"))
    for n in v.notes:
        print(clip(f"  note: {n}"))
    return v.exit_code
