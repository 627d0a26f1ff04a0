"""``python -m verify``: dispatch to one module per verb (``verify.cli.<verb>``).

Exit codes (docs/contract.md): 0 HOLDS, 1 VIOLATED, 2 usage, 3 INCONCLUSIVE (also: out of memory,
an internal failure — nothing decided), 4 NOT APPLICABLE, 5 bad data, 130 interrupted (Ctrl-C),
143 terminated (SIGTERM). Errors are one line on stderr, never a traceback; a closed stdout is one
line too, and the result's exit code is kept.
"""
from __future__ import annotations

import importlib
import sys

from verify.cli.common import run_verb
from verify.errors import UsageError

VERBS = ("list", "all", "svm", "flow", "hunt")
USAGE = (
    "usage: python -m verify list [--paper P] [--json] | <claim> [--precision N] [--data F] [--json] "
    "[--report DIR] | all [--paper P] [--report DIR] [--jobs N] | svm ... | flow ... | hunt <claim> --budget S"
)


def _dispatch(argv) -> int:
    if not argv:
        raise UsageError(f"give a verb or a claim id; {USAGE}")
    if argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    verb, rest = argv[0], argv[1:]
    if verb in VERBS:
        return importlib.import_module(f"verify.cli.{verb}").main(rest)
    if verb.startswith("-"):
        raise UsageError(f"expected a verb or a claim id before {verb!r}; {USAGE}")
    if not verb.strip():
        raise UsageError(f"expected a verb or a claim id, got an empty argument; {USAGE}")
    from verify.cli.claim import main as claim_main

    return claim_main(verb, rest)


def main(argv=None) -> int:
    return run_verb(_dispatch, list(sys.argv[1:] if argv is None else argv))
