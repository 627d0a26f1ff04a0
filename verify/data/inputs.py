"""The input-validation layer: every number, JSON document, file and path that comes from outside.

One place decides what is accepted, with a one-line error naming what failed (DataError, exit 5, for
file contents; UsageError, exit 2, for flags), *before* any costly conversion:

- numbers (JSON numbers, decimal strings "0.1", "-2.5e-3", rational strings "1/3") are checked as
  text first: at most ``MAX_DIGITS`` digits, a decimal exponent of at most ``MAX_EXPONENT_DIGITS``
  digits, and for exact conversion a magnitude within 10^±``MAX_EXPONENT`` — so "1e1000000000" is
  refused at once instead of building a billion-digit integer; NaN and infinities are refused;
- JSON: duplicate keys are an error (Python's json keeps the last one silently), nesting deeper than Python's
  recursion limit is a one-line error (it was a RecursionError traceback), NaN/Infinity constants are refused;
- paths and files (``open_input``, the one way an input file is opened): an empty path is a usage
  error (``--data ""`` used to mean "no --data"); a missing file, anything but a regular file (a
  directory, a FIFO — reading one waited forever —, a device, a socket), a file over the size limit
  (``MAX_INPUT_BYTES``; ``MAX_TRAJECTORY_BYTES`` for saved runs) and bytes that are not UTF-8 are
  data errors, decided before anything is read; a file too large for memory is reported as such.
"""
from __future__ import annotations

import json
import math
import os
import re
import stat
import sys
from fractions import Fraction

import gmpy2

from verify.errors import DataError, UsageError

MAX_DIGITS = 10000  # significant digits of one number (the highest working precision)
MAX_EXPONENT = 10000  # |log10| of a nonzero number converted exactly (a dataset entry)
MAX_EXPONENT_DIGITS = 18  # digits of a decimal exponent in any number text (arb-parsed values)

_DECIMAL = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?")
_RATIONAL = re.compile(r"([+-]?\d+)\s*/\s*(\d+)")
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_NONFINITE = ("nan", "inf", "infinity", "+nan", "-nan", "+inf", "-inf", "+infinity", "-infinity")


def _int(digits: str) -> int:
    """A digit string as an int, without Python's 4300-digit str→int limit (lengths are bounded here)."""
    return int(gmpy2.mpz(digits)) if len(digits) > 4000 else int(digits)


def _show(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:20] + "…" + text[-12:]) + f" ({len(text)} characters)"


def parse_decimal_text(text: str, where: str, exact: bool = True):
    """A decimal or rational number given as text → Fraction (``exact``) or the checked text (for arb).

    Rules (each failure is a DataError naming ``where``): not NaN/inf; at most MAX_DIGITS digits;
    an exponent of at most MAX_EXPONENT_DIGITS digits; exact values within 10^±MAX_EXPONENT."""
    s = text.strip().replace("_", "") if isinstance(text, str) else text
    if not isinstance(s, str):
        raise DataError(f"{where}: expected a number, got a {type(text).__name__}")
    if s.lower() in _NONFINITE:
        raise DataError(f"{where}: NaN/inf is not allowed ({text!r})")
    m = _RATIONAL.fullmatch(s)
    if m:
        num, den = m.group(1), m.group(2)
        for part, name in ((num, "numerator"), (den, "denominator")):
            if len(part.lstrip("+-").lstrip("0")) > MAX_DIGITS:
                raise DataError(f"{where}: the {name} of {_show(s)} has more than {MAX_DIGITS} digits")
        if _int(den) == 0:
            raise DataError(f"{where}: division by zero in {_show(s)}")
        if not exact:
            raise DataError(f"{where}: expected a decimal number, got the fraction {_show(s)}")
        return Fraction(_int(num), _int(den))
    m = _DECIMAL.fullmatch(s)
    if not m or not (m.group(2) or m.group(3)):
        raise DataError(f"{where}: not a number: {_show(text)} (use e.g. 0.1, \"0.1\" or \"1/3\")")
    sign, exp_text = m.group(1), m.group(4)
    whole, frac = (m.group(2) or "").lstrip("0"), (m.group(3) or "").rstrip("0")  # same value
    if len((whole + frac).strip("0")) > MAX_DIGITS:
        raise DataError(f"{where}: {_show(s)} has more than {MAX_DIGITS} significant digits")
    if exp_text is not None and len(exp_text.lstrip("+-").lstrip("0")) > MAX_EXPONENT_DIGITS:
        raise DataError(f"{where}: the exponent of {_show(s)} is out of range")
    if not exact:
        return s
    if not (whole + frac).strip("0"):
        return Fraction(0)
    exp = int(exp_text) if exp_text is not None else 0
    # |value| lies in [10^(order−1), 10^order): order from the position of the first nonzero digit
    order = exp + (len(whole) if whole else -(len(frac) - len(frac.lstrip("0"))))
    if not -MAX_EXPONENT < order <= MAX_EXPONENT:
        raise DataError(f"{where}: {_show(s)} is outside the supported range "
                        f"(nonzero magnitudes from 1e-{MAX_EXPONENT} to below 1e{MAX_EXPONENT})")
    shift = exp - len(frac)
    value = _int(whole + frac)
    value = value * 10**shift if shift >= 0 else Fraction(value, 10**-shift)
    return Fraction(-value if sign == "-" else value)


class NumberText(str):
    """A JSON number as its text (``json`` hands floats over as text): converted by ``parse_number``
    with the bounds above and the location of the entry, never by ``float``."""


def parse_number(value, where: str) -> Fraction:
    """One entry of an input document, converted exactly; DataError names where it failed."""
    if isinstance(value, bool) or value is None:
        raise DataError(f"{where}: expected a number, got {json.dumps(value)}")
    if isinstance(value, int):
        if value and abs(value).bit_length() > MAX_EXPONENT * 3.33:
            raise DataError(f"{where}: an integer of {len(str(gmpy2.mpz(value)))} digits is outside the "
                            f"supported range (magnitudes up to 1e{MAX_EXPONENT})")
        return Fraction(value)
    if isinstance(value, Fraction):
        return value
    if isinstance(value, float):  # only reachable from Python callers; JSON floats arrive as text
        if not math.isfinite(value):
            raise DataError(f"{where}: NaN/inf is not allowed")
        return Fraction(value)
    if isinstance(value, str):
        return parse_decimal_text(value, where)
    raise DataError(f"{where}: expected a number, got a {type(value).__name__}")


def _json_int(text: str):
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise DataError(f"an integer of {len(text.lstrip('-'))} digits is outside the supported range "
                        f"(at most {MAX_DIGITS} digits)")
    return _int(text)


def _no_constant(name):
    raise DataError(f"{name} is not allowed (NaN/inf)")


def _object(pairs):
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise DataError(f"duplicate key {k!r} in a JSON object (which one was meant?)")
        obj[k] = v
    return obj


def parse_json(text: str, what: str = "JSON"):
    """Strict JSON: duplicate keys, NaN/Infinity and nesting too deep to parse are errors; numbers
    with a fraction or exponent stay ``NumberText`` (converted where their location is known)."""
    try:
        obj = json.loads(text, parse_float=NumberText, parse_int=_json_int, parse_constant=_no_constant,
                         object_pairs_hook=_object)
    except DataError:
        raise
    except RecursionError:
        raise DataError(f"{what} is nested too deeply (over {sys.getrecursionlimit()} levels; a dataset needs 4)")
    except (json.JSONDecodeError, ValueError) as exc:
        raise DataError(f"not valid {what}: {exc}")
    return obj


# ----- paths and files ----------------------------------------------------------------------------
def check_path_text(path, flag: str) -> str:
    """A path given on the command line: a non-empty string without NUL (else UsageError)."""
    if not isinstance(path, str) or not path.strip():
        raise UsageError(f"{flag} needs a path, got an empty one")
    if "\0" in path:
        raise UsageError(f"{flag}: a path cannot contain a NUL character")
    return path


MAX_INPUT_BYTES = 4 * 2**20  # a dataset file (--data, --init): 4 MiB, some 10⁵–10⁶ entries
MAX_TRAJECTORY_BYTES = 256 * 2**20  # a saved trajectory (--resume): records at the run's precision
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _size(n: int) -> str:
    return f"{n / 2**20:.1f} MiB" if n >= 2**20 else f"{n} bytes"


def open_input(path: str, what: str = "file", flag: str = "--data", limit: int | None = None) -> bytes:
    """The bytes of an input file — the one way an input is opened. Refused with a one-line error
    before anything is read: an empty path (UsageError), a missing file, anything that is not a
    regular file (a directory, a FIFO, a device, a socket: reading one could wait forever or never
    end), a file larger than ``limit`` (its size and the limit named). Opened without blocking, so a
    FIFO with no writer is refused at once instead of hanging. ``limit``: MAX_INPUT_BYTES by default."""
    check_path_text(path, flag)
    limit = MAX_INPUT_BYTES if limit is None else limit

    def refuse_kind(mode: int) -> None:
        if not stat.S_ISREG(mode):
            kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
            raise DataError(f"{flag} {path}: is {kind}, not a regular {what} (inputs are read from regular files only)")

    try:  # what the path is, before opening it (a socket cannot even be opened)
        refuse_kind(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        raise DataError(f"no such {what}: {path}")
    except OSError as exc:
        raise DataError(f"cannot read {what} {path}: {exc.strerror or exc}")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise DataError(f"no such {what}: {path}")
    except IsADirectoryError:
        raise DataError(f"{flag} {path}: is a directory, not a {what}")
    except OSError as exc:
        raise DataError(f"cannot read {what} {path}: {exc.strerror or exc}")
    try:
        info = os.fstat(fd)
        refuse_kind(info.st_mode)  # again on what was opened (the path may have changed in between)
        if info.st_size > limit:
            raise DataError(f"{flag} {path}: the {what} is {_size(info.st_size)}, over the limit of {_size(limit)} "
                            "(docs/contract.md, input limits)")
        if hasattr(os, "O_NONBLOCK"):
            os.set_blocking(fd, True)
        chunks, total = [], 0
        while True:  # at most limit + 1 bytes: a file that grows while it is read is refused too
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise DataError(f"{flag} {path}: the {what} grew past the limit of {_size(limit)} while it was read")
        return b"".join(chunks)
    except MemoryError:
        pass
    except OSError as exc:
        raise DataError(f"cannot read {what} {path}: {exc.strerror or exc}")
    finally:
        os.close(fd)
    raise DataError(f"{path}: the {what} is too large for the available memory")


def read_text(path: str, what: str = "file", flag: str = "--data", limit: int | None = None) -> str:
    """The text of an input file (``open_input``, then UTF-8; a byte-order mark is not part of it)."""
    data = open_input(path, what, flag, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(f"cannot read {what} {path}: not UTF-8 text ({exc.reason} at byte {exc.start})")
    except MemoryError:
        pass
    raise DataError(f"{path}: the {what} is too large for the available memory")


def read_json(path: str, what: str = "JSON file", flag: str = "--data", limit: int | None = None):
    text = read_text(path, what, flag, limit)
    try:
        return parse_json(text, what)
    except MemoryError:
        pass  # raised below, after this block has released what was parsed
    except DataError as exc:
        raise DataError(f"{path}: {exc}")
    del text
    raise DataError(f"{path}: the {what} is too large for the available memory")


# ----- numbers on the command line ----------------------------------------------------------------
def parse_flag_number(text, flag: str, *, positive: bool = False, nonnegative: bool = False,
                      maximum: Fraction | None = None) -> Fraction:
    """A number given to a flag (exact; the same text rules as data) → Fraction, else UsageError."""
    try:
        x = parse_decimal_text(str(text), flag)
    except DataError as exc:
        raise UsageError(str(exc))
    if positive and not x > 0:
        raise UsageError(f"{flag} must be positive, got {text}")
    if nonnegative and x < 0:
        raise UsageError(f"{flag} must not be negative, got {text}")
    if maximum is not None and x > maximum:
        raise UsageError(f"{flag} must be at most {maximum}, got {text}")
    return x


def parse_flag_int(text, flag: str, low: int, high: int) -> int:
    """An integer flag in low..high (else UsageError)."""
    s = str(text).strip()
    if not re.fullmatch(r"[+-]?\d{1,18}", s):
        raise UsageError(f"{flag} must be an integer in {low}..{high}, got {text!r}")
    n = int(s)
    if not low <= n <= high:
        raise UsageError(f"{flag} must be an integer in {low}..{high}, got {text!r}")
    return n
