"""What the verbs share: the argument parser that fails with one line, the flags' validation, the
guarded run of a verb (errors, signals, a broken stdout → one line and the contract's exit code),
progress bars, precision."""
from __future__ import annotations

import argparse
import errno
import os
import re
import signal
import sys

from verify.data.inputs import check_path_text, parse_flag_int
from verify.data.outputs import for_encoding
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


_NUMBER = r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?(\s*/\s*\d+)?"  # 5, 0.5, .5, 1e-3, 1/2


class Parser(argparse.ArgumentParser):
    """argparse that raises UsageError (one line, exit 2) instead of printing usage and exiting, and
    that takes every negative number as a value (argparse knows only -5 and -0.5: ``--until-logt -1/2``
    and ``-1e-3`` were "expected one argument")."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = re.compile(rf"^-{_NUMBER}(\s*,\s*[+-]?{_NUMBER})*$")  # also --init -1,2

    def error(self, message):
        raise UsageError(f"{self.prog}: {message}")


PROVE_SCALE = 25  # ``--prove``: every region search's box budget times this


def claim_parser(prog: str, with_data: bool) -> Parser:
    p = Parser(prog=prog, add_help=True)
    p.add_argument("--precision", default=None, help="working precision in decimal digits (15..10000)")
    p.add_argument("--json", action="store_true", help="print the verdict JSON on stdout")
    p.add_argument("--report", metavar="DIR", help="write markdown + JSON + figures into DIR")
    p.add_argument("--seed", default="0", help="seed of the random default datasets")
    p.add_argument("--prove", action="store_true",
                   help=f"region certificates with {PROVE_SCALE}× the default box budget (slower; larger regions proven)")
    if with_data:
        p.add_argument("--data", metavar="FILE", help="dataset JSON to check instead of the defaults")
    else:
        p.add_argument("--paper", choices=PAPERS)
    return p


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def jobs_flag(value) -> int:
    """--jobs N: 1..4 × the cores (more workers than that only share the same cores, each with its memory)."""
    return parse_flag_int(value, "--jobs", 1, 4 * default_jobs())


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
class OutputStream:
    """sys.stdout or sys.stderr while a verb runs: every character printed goes through ``write``.

    - text the stream's encoding cannot carry is spelled in ASCII (``outputs.for_encoding``:
      ``PYTHONIOENCODING=ascii``, a C locale) instead of failing with UnicodeEncodeError;
    - a stream that was not open (``>&-``, ``2>&-``: Python then has None) takes nothing, and stderr's
      lines never land on stdout (``print(file=None)`` writes to stdout);
    - a failed write (the reader went away: EPIPE; a full disk; an I/O error) is remembered in
      ``failure`` and later output dropped, so the verb finishes and keeps its exit code; the
      descriptor is pointed at /dev/null so Python's own flush at exit does not fail again."""

    def __init__(self, inner, name: str):
        self.inner = inner
        self.name = name
        self.failure = None if inner is not None else "closed"  # "closed" | "broken pipe" | an OS error text

    @property
    def broken(self) -> bool:  # the first version's name
        return self.failure is not None

    @property
    def encoding(self):
        return getattr(self.inner, "encoding", None) or "utf-8"

    def write(self, text):
        if self.failure is None:
            out = for_encoding(text, self.encoding)
            self._guard(lambda: self.inner.write(out))
        return len(text)

    def flush(self):
        if self.failure is None:
            self._guard(self.inner.flush)

    def isatty(self) -> bool:
        return self.failure is None and bool(getattr(self.inner, "isatty", lambda: False)())

    def _guard(self, action):
        try:
            action()
        except OSError as exc:
            self._fail("broken pipe" if exc.errno == errno.EPIPE else (exc.strerror or type(exc).__name__))
        except ValueError:  # an inner stream closed under us (write to a closed file)
            self._fail("closed")

    def _fail(self, why: str):
        self.failure = why
        try:  # what is still buffered would fail again when Python flushes the stream at exit
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.inner.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass  # not a real file (a test's capture): nothing is flushed at exit

    def __getattr__(self, name):
        return getattr(self.inner, name)


GuardedStdout = OutputStream  # the first version's name


def _open_standard_descriptors() -> None:
    """A standard descriptor (0, 1, 2) that is not open is pointed at /dev/null: else the next file
    opened (a report, a temporary file) would get its number, and a library writing to "stdout"
    would write into it."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                new = os.open(os.devnull, os.O_RDWR)
                if new != fd:
                    os.dup2(new, fd)
                    os.close(new)
            except OSError:
                pass


RESULT_NAMES = {0: "HOLDS / solved", 1: "VIOLATED", 3: "INCONCLUSIVE", 4: "NOT APPLICABLE"}


def _sigterm_raises():
    """SIGTERM raises Terminated (a KeyboardInterrupt) like Ctrl-C does: partial results are kept
    by the same handlers, and the exit code is 143."""
    return signal_handlers({signal.SIGTERM: raise_on_signal})


def run_verb(fn, *args) -> int:
    """Run ``fn(*args)`` (returns the exit code) with the contract's error handling: VerifyError →
    its one line and code; Ctrl-C → 130, SIGTERM → 143; out of memory → 3; an unexpected failure →
    one line and 3 (nothing decided; ``VERIFY_TRACEBACK=1`` re-raises it). Output goes through
    ``OutputStream``s: a reader that went away (``| head``) ends the output quietly; a stdout that
    was closed or could not be written (a full disk) is one line on stderr; the exit code is the
    result's in every case."""
    outer = not isinstance(sys.stdout, OutputStream)
    if outer:
        _open_standard_descriptors()
        out, err = OutputStream(sys.stdout, "stdout"), OutputStream(sys.stderr, "stderr")
        sys.stdout, sys.stderr = out, err
    code = None
    try:
        with _sigterm_raises():
            code = _guarded(fn, args)
    finally:
        if outer:
            from verify.data.outputs import release_locks

            release_locks()
            out.flush()
            if code in RESULT_NAMES and out.failure not in (None, "broken pipe"):  # (an error has said its line)
                what = ("stdout is closed: nothing was printed" if out.failure == "closed" else
                        f"the output could not be written to stdout ({out.failure}); it is incomplete")
                print(f"verify: {what}; exit code {code} is the result's ({RESULT_NAMES[code]})", file=err)
            err.flush()
            if sys.stdout is out:
                sys.stdout = out.inner
            if sys.stderr is err:
                sys.stderr = err.inner
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
