"""What the verbs share: the argument parser that fails with one line, progress bars, precision."""
from __future__ import annotations

import argparse
import sys

from verify.errors import UsageError

PAPERS = ("mmts", "tfsvm", "irgf")


class Parser(argparse.ArgumentParser):
    """argparse that raises UsageError (one line, exit 2) instead of printing usage and exiting."""

    def error(self, message):
        raise UsageError(f"{self.prog}: {message}")


def claim_parser(prog: str, with_data: bool) -> Parser:
    p = Parser(prog=prog, add_help=True)
    p.add_argument("--precision", default=None, help="working precision in decimal digits (15..10000)")
    p.add_argument("--json", action="store_true", help="print the verdict JSON on stdout")
    p.add_argument("--report", metavar="DIR", help="write markdown + JSON + figures into DIR")
    p.add_argument("--seed", type=int, default=0, help="seed of the random default datasets")
    if with_data:
        p.add_argument("--data", metavar="FILE", help="dataset JSON to check instead of the defaults")
    else:
        p.add_argument("--paper", choices=PAPERS)
    return p


def progress(total: int, desc: str, quiet: bool):
    from tqdm import tqdm

    # disable=None: no bar when stderr is not a terminal (logs stay readable)
    return tqdm(total=total, desc=desc, file=sys.stderr, disable=True if quiet else None, delay=2, leave=False)


def precision_for(value, claim) -> int:
    from verify.numbers.precision import parse_precision

    return parse_precision(value if value is not None else claim.default_precision)


def summary_line(v) -> str:
    return (f"{v.claim.id} ({v.claim.number}: {v.claim.title}): {v.label} "
            f"[{v.precision} digits, stable {v.stable_digits}, {v.seconds:.1f} s, dataset {v.dataset}]")
