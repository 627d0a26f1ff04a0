"""What the verbs share: the argument parser that fails with one line, the flags' validation, the
guarded run of a verb (errors, signals, a broken stdout → one line and the contract's exit code),
progress bars, precision."""
from __future__ import annotations

import argparse
import errno
import os
import signal
import sys

from verify.data.inputs import check_path_text, parse_flag_int
from verify.errors import (
    UsageError,
    VerifyError,
    find_interrupt,
    interrupt_exit_code,
    interrupt_name,
    raise_on_signal,
    signal_handlers,
)

PAPERS = ("mmts", "tfsvm", "irgf")
INTERNAL_ERROR_EXIT = 3  # nothing was decided: INCONCLUSIVE's code, never VIOLATED's 1


class Parser(argparse.ArgumentParser):
    """argparse that raises UsageError (one line, exit 2) instead of printing usage and exiting."""

    def error(self, message):
        raise UsageError(f"{self.prog}: {message}")


def claim_parser(prog: str, with_data: bool) -> Parser:
    p = Parser(prog=prog, add_help=True)
    p.add_argument("--precision", default=None, help="working precision in decimal digits (15..10000)")
    p.add_argument("--json", action="store_true", help="print the verdict JSON on stdout")
    p.add_argument("--report", metavar="DIR", help="write markdown + JSON + figures into DIR")
    p.add_argument("--seed", default="0", help="seed of the random default datasets")
    if with_data:
        p.add_argument("--data", metavar="FILE", help="dataset JSON to check instead of the defaults")
    else:
        p.add_argument("--paper", choices=PAPERS)
    return p


def seed_flag(value) -> int:
    return parse_flag_int(value, "--seed", 0, 2**63 - 1)


def path_flag(value, flag: str) -> str | None:
    """A path flag: None when absent, else a non-empty path (``--data ""`` is not "no --data")."""
    return None if value is None else check_path_text(value, flag)


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


def clip(line: str, width: int = 2000) -> str:
    """A summary line cut to ``width`` characters (a detail listing 10⁶ sequences is not read on a
    terminal; the JSON output and the report keep every character)."""
    return line if len(line) <= width else line[:width - 40] + f" … ({len(line) - width + 40} more characters)"


def not_numbers(obj, path: str = "") -> list[str]:
    """Where a result holds NaN (a float, or a decimal string "nan"): the fields that must not be printed."""
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in not_numbers(v, f"{path}.{k}" if path else str(k))]
    if isinstance(obj, (list, tuple)):
        return [p for k, v in enumerate(obj) for p in not_numbers(v, f"{path}[{k}]")]
    if isinstance(obj, float) and obj != obj:
        return [path]
    if isinstance(obj, str) and obj.strip().lower().lstrip("+-") == "nan":
        return [path]
    return []


def say_error(message: str) -> None:
    print(clip(f"verify: error: {' '.join(str(message).split())}"), file=sys.stderr)


# ----- running a verb: every failure one line on stderr with the contract's exit code ---------------
class GuardedStdout:
    """stdout that survives its reader going away (``verify … | head``): the first BrokenPipeError
    is remembered and later output dropped, so the verb finishes and keeps its exit code."""

    def __init__(self, inner):
        self.inner = inner
        self.broken = False

    def write(self, text):
        if not self.broken:
            self._guard(lambda: self.inner.write(text))
        return len(text)

    def flush(self):
        if not self.broken:
            self._guard(self.inner.flush)

    def _guard(self, action):
        try:
            action()
        except OSError as exc:  # BrokenPipeError is EPIPE
            if exc.errno != errno.EPIPE:
                raise
            self._break()

    def _break(self):
        self.broken = True
        try:  # what is still buffered would fail again when Python flushes stdout at exit
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.inner.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass  # not a real file (a test's capture): nothing is flushed at exit

    def __getattr__(self, name):
        return getattr(self.inner, name)


def _sigterm_raises():
    """SIGTERM raises Terminated (a KeyboardInterrupt) like Ctrl-C does: partial results are kept
    by the same handlers, and the exit code is 143."""
    return signal_handlers({signal.SIGTERM: raise_on_signal})


def run_verb(fn, *args) -> int:
    """Run ``fn(*args)`` (returns the exit code) with the contract's error handling: VerifyError →
    its one line and code; Ctrl-C → 130, SIGTERM → 143; out of memory → 3; an unexpected failure →
    one line and 3 (nothing decided; ``VERIFY_TRACEBACK=1`` re-raises it); a closed stdout → one
    line and the result's own exit code."""
    outer = not isinstance(sys.stdout, GuardedStdout)
    guard = GuardedStdout(sys.stdout) if outer else sys.stdout
    sys.stdout = guard
    try:
        with _sigterm_raises():
            code = _guarded(fn, args)
    finally:
        if outer:
            guard.flush()
            if sys.stdout is guard:
                sys.stdout = guard.inner
    if outer and guard.broken:
        say_error(f"stdout was closed before all output was written (broken pipe); exit code {code} is the result's")
    return code


def _guarded(fn, args) -> int:
    reserve = bytearray(4 << 20)  # room for the error path when memory runs out
    out_of_memory = False
    try:
        return fn(*args)
    except VerifyError as exc:
        say_error(str(exc))
        return exc.exit_code
    except SystemExit as exc:  # argparse --help
        return exc.code if isinstance(exc.code, int) else 0
    except MemoryError:
        out_of_memory = True  # handled below, once this block has released the traceback's frames
    except BaseException as exc:  # Ctrl-C / SIGTERM, also when they surfaced as another error
        found = find_interrupt(exc)
        if found is not None:
            if not getattr(found, "reported", False):
                print(f"verify: {interrupt_name(exc)}", file=sys.stderr)
            return interrupt_exit_code(exc)
        if os.environ.get("VERIFY_TRACEBACK") or not isinstance(exc, Exception):
            raise
        say_error(f"internal error ({type(exc).__name__}: {exc}); nothing was decided — "
                  "VERIFY_TRACEBACK=1 shows where")
        return INTERNAL_ERROR_EXIT
    finally:
        del reserve
    if out_of_memory:
        say_error("out of memory: the problem is too large for the memory available (nothing was decided)")
    return INTERNAL_ERROR_EXIT
