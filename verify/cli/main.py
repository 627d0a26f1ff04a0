"""``python -m verify``: list, one claim, all claims; svm and flow delegate to their modules.

Exit codes (design.md): 0 HOLDS, 1 VIOLATED, 2 usage, 3 INCONCLUSIVE, 4 NOT APPLICABLE, 5 bad data,
130 interrupted. Errors are one line on stderr, never a traceback.
"""
from __future__ import annotations

import argparse
import json
import sys

from verify.errors import SigintLatch, UsageError, VerifyError, interrupted

VERBS = ("list", "all", "svm", "flow", "hunt")
USAGE = (
    "usage: python -m verify list [--paper P] [--json] | <claim> [--precision N] [--data F] [--json] "
    "[--report DIR] | all [--paper P] [--report DIR] | svm ... | flow ... | hunt <claim> --budget S"
)


class Parser(argparse.ArgumentParser):
    """argparse that raises UsageError (one line, exit 2) instead of printing usage and exiting."""

    def error(self, message):
        raise UsageError(f"{self.prog}: {message}")


def _claim_parser(prog: str, with_data: bool) -> Parser:
    p = Parser(prog=prog, add_help=True)
    p.add_argument("--precision", default=None, help="working precision in decimal digits (15..10000)")
    p.add_argument("--json", action="store_true", help="print the verdict JSON on stdout")
    p.add_argument("--report", metavar="DIR", help="write markdown + JSON + figures into DIR")
    p.add_argument("--seed", type=int, default=0, help="seed of the random default datasets")
    if with_data:
        p.add_argument("--data", metavar="FILE", help="dataset JSON to check instead of the defaults")
    else:
        p.add_argument("--paper", choices=("mmts", "tfsvm", "irgf"))
    return p


def _progress(total: int, desc: str, quiet: bool):
    from tqdm import tqdm

    # disable=None: no bar when stderr is not a terminal (logs stay readable)
    return tqdm(total=total, desc=desc, file=sys.stderr, disable=True if quiet else None, delay=2, leave=False)


def cmd_list(argv) -> int:
    from verify.claims import REGISTRY

    p = Parser(prog="verify list")
    p.add_argument("--paper", choices=("mmts", "tfsvm", "irgf"))
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    claims = REGISTRY.all(a.paper)
    if a.json:
        print(json.dumps([c.summary() for c in claims], indent=2))
        return 0
    width = max((len(c.id) for c in claims), default=10)
    wnum = max((len(c.number) for c in claims), default=10)
    for c in claims:
        aliases = f"  [{', '.join(c.aliases)}]" if c.aliases else ""
        print(f"{c.id:<{width}}  {c.number:<{wnum}}  {c.kind:<11} {c.title}{aliases}")
    return 0


def _precision(value, claim) -> int:
    from verify.numbers.precision import parse_precision

    return parse_precision(value if value is not None else claim.default_precision)


def cmd_claim(name: str, argv) -> int:
    from verify.claims import REGISTRY, coerce_dataset, run_claim
    from verify.report.markdown import write_claim_report

    a = _claim_parser(f"verify {name}", with_data=True).parse_args(argv)
    claim, note = REGISTRY.resolve(name)
    dps = _precision(a.precision, claim)
    if note:
        print(f"verify: {note}", file=sys.stderr)
    datasets = [coerce_dataset(a.data)] if a.data else claim.default_datasets(seed=a.seed)
    with _progress(len(datasets), claim.id, a.json) as bar:
        v = run_claim(claim, datasets, dps=dps, progress=bar.update)
    reproduce = f"python -m verify {claim.id} --precision {dps}" + (f" --data {a.data}" if a.data else "") + (
        f" --seed {a.seed}" if a.seed else ""
    )
    if a.report:
        path = write_claim_report(v, a.report, reproduce)
        if not a.json:
            print(f"report: {path}", file=sys.stderr)
    if a.json:
        print(json.dumps(v.to_json(), indent=2))
    else:
        print(_summary_line(v))
        for h in v.hypotheses:
            if h.met is not True:
                print(f"  hypothesis {'not met' if h.met is False else 'undecided'}: {h.name}: {h.detail}")
        if v.verdict != "NOT_APPLICABLE":
            for r in v.reasons:
                print(f"  why: {r}")
        for n in v.notes:
            print(f"  note: {n}")
    return v.exit_code


def _summary_line(v) -> str:
    return (
        f"{v.claim.id} ({v.claim.number}: {v.claim.title}): {v.label} "
        f"[{v.precision} digits, stable {v.stable_digits}, {v.seconds:.1f} s, dataset {v.dataset}]"
    )


def cmd_all(argv) -> int:
    from verify.claims import REGISTRY, run_claim, worst
    from verify.report.markdown import write_claim_report, write_index

    a = _claim_parser("verify all", with_data=False).parse_args(argv)
    claims = REGISTRY.all(a.paper)
    if a.precision is not None:
        from verify.numbers.precision import parse_precision

        parse_precision(a.precision)
    verdicts = []
    try:
        with _progress(len(claims), "claims", a.json) as bar, SigintLatch() as latch:
            for claim in claims:
                latch.check()
                bar.set_postfix_str(claim.id)
                dps = _precision(a.precision, claim)
                v = run_claim(claim, claim.default_datasets(seed=a.seed), dps=dps)
                verdicts.append(v)
                if a.report:
                    write_claim_report(v, a.report, f"python -m verify {claim.id} --precision {dps}")
                    write_index(verdicts, a.report)
                if not a.json:
                    bar.write(_summary_line(v), file=sys.stderr if a.json else sys.stdout)
                bar.update(1)
            latch.check()
    except BaseException as exc:
        if not interrupted(exc):
            raise
        if a.report:
            write_index(verdicts, a.report, interrupted=True)
        print(f"verify: interrupted after {len(verdicts)} of {len(claims)} claims; reports written so far are intact", file=sys.stderr)
        return 130
    if a.report:
        write_index(verdicts, a.report)
        if not a.json:
            print(f"report: {a.report}/index.md", file=sys.stderr)
    if a.json:
        print(json.dumps([v.to_json() for v in verdicts], indent=2))
    return {"HOLDS": 0, "VIOLATED": 1, "INCONCLUSIVE": 3, "NOT_APPLICABLE": 4}[worst(v.verdict for v in verdicts)]


def _delegate(verb: str, argv) -> int:
    import importlib

    module = {"svm": "verify.cli.svm", "flow": "verify.cli.flow", "hunt": "verify.cli.hunt"}[verb]
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            raise UsageError(f"the '{verb}' verb is not available in this version")
        raise
    return mod.main(argv)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if not argv or argv[0] in ("-h", "--help"):
            print(USAGE)
            return 0 if argv else 2
        verb, rest = argv[0], argv[1:]
        if verb == "list":
            return cmd_list(rest)
        if verb == "all":
            return cmd_all(rest)
        if verb in ("svm", "flow", "hunt"):
            return _delegate(verb, rest)
        if verb.startswith("-"):
            raise UsageError(f"expected a verb or a claim id before {verb!r}; {USAGE}")
        return cmd_claim(verb, rest)
    except VerifyError as exc:
        print(f"verify: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except SystemExit as exc:  # argparse --help
        return int(exc.code or 0)
    except BrokenPipeError:
        return 0
    except BaseException as exc:  # Ctrl-C, also when it surfaced as another error
        if not interrupted(exc):
            raise
        print("verify: interrupted", file=sys.stderr)
        return 130
