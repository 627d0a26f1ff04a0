"""``python -m verify``: dispatch to one module per verb (``verify.cli.<verb>``).

Exit codes (docs/contract.md): 0 HOLDS, 1 VIOLATED, 2 usage, 3 INCONCLUSIVE, 4 NOT APPLICABLE,
5 bad data, 130 interrupted. Errors are one line on stderr, never a traceback.
"""
from __future__ import annotations

import importlib
import sys

from verify.errors import UsageError, VerifyError, interrupted

VERBS = ("list", "all", "svm", "flow", "hunt")
USAGE = (
    "usage: python -m verify list [--paper P] [--json] | <claim> [--precision N] [--data F] [--json] "
    "[--report DIR] | all [--paper P] [--report DIR] [--jobs N] | svm ... | flow ... | hunt <claim> --budget S"
)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if not argv or argv[0] in ("-h", "--help"):
            print(USAGE)
            return 0 if argv else 2
        verb, rest = argv[0], argv[1:]
        if verb in VERBS:
            return importlib.import_module(f"verify.cli.{verb}").main(rest)
        if verb.startswith("-"):
            raise UsageError(f"expected a verb or a claim id before {verb!r}; {USAGE}")
        from verify.cli.claim import main as claim_main

        return claim_main(verb, rest)
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
