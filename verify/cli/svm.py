"""``python -m verify svm``: solve and certify one SVM of the family on a dataset file.

    python -m verify svm --data F --kind p|W|KQ|diag|v|relaxed [--select opt|0,2,1]
                         [--precision 60] [--rank m] [--json]

Exit codes (design.md): 0 solved (optimal, or certified infeasible); 2 usage error; 3 no certified
answer; 5 invalid data. Errors are one line on stderr.
"""
from __future__ import annotations

import argparse
import json
import sys

from verify.errors import UsageError, VerifyError, interrupted


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would print usage and exit 2 itself; keep one line
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m verify svm", add_help=True,
                description="Solve an attention SVM exactly / to the working precision, with a certificate.")
    p.add_argument("--data", required=True, help="dataset JSON file")
    p.add_argument("--kind", required=True, help="p | W | KQ | diag | v | relaxed")
    p.add_argument("--select", default="opt", help="'opt' or comma-separated 0-based token indices")
    p.add_argument("--precision", default="60", help="decimal digits, 15..10000 (default 60)")
    p.add_argument("--rank", default=None, help="KQ only: also report the rank <= m problem")
    p.add_argument("--json", action="store_true", help="print the SVM JSON")
    return p


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
        from verify.numbers.precision import parse_precision
        from verify.svm.problems import KINDS
        dps = parse_precision(args.precision)
        if args.kind not in KINDS:
            raise UsageError(f"unknown SVM kind {args.kind!r}; choose one of {', '.join(KINDS)}")
        rank = None
        if args.rank is not None:
            if args.kind != "KQ":
                raise UsageError("--rank applies to --kind KQ only")
            try:
                rank = int(args.rank)
            except ValueError:
                raise UsageError(f"--rank must be a positive integer, got {args.rank!r}")
            if rank < 1:
                raise UsageError(f"--rank must be a positive integer, got {args.rank!r}")
        from verify.data.dataset import load_dataset
        from verify.svm import solve_svm
        from verify.svm.problems import select_tokens
        ds = load_dataset(args.data)
        select = select_tokens(ds, args.select)  # validates (UsageError / DataError on a tie)
        res = solve_svm(ds, args.kind, select, dps, rank=rank)
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    except VerifyError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - never a traceback on the command line
        if interrupted(exc):
            print("interrupted", file=sys.stderr)
            return 130
        print(f"error: internal failure in the SVM solver: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 3
    if args.json:
        print(json.dumps(res.to_dict(dps), indent=1))
    else:
        print(res.summary())
    return 0 if res.status in ("optimal", "infeasible") else 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
