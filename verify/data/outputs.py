"""The output layer: destinations checked before the work starts, files written atomically with the
permissions the umask gives.

- ``check_folder(path, flag, subfolders)``: a report folder (``--report``, ``--out``) — created if
  missing, then proven writable by creating a file in it (and in each subfolder, e.g. ``figures``);
  a file where a folder is needed, a read-only place, an empty path: one-line DestinationError
  (exit 2) before any computation, instead of a traceback after it.
- ``check_file(path, flag)``: a file to write (``--save``): not a folder, its folder writable.
- ``write_atomic`` / ``write_atomic_bytes``: temporary file in the same folder, then rename, so a
  reader never sees half a file; the file gets mode 0666 & ~umask like any file the user creates
  (``tempfile.mkstemp`` alone leaves 0600: reports a colleague could not read).
- ``lock_folder``: one writer per report folder at a time (a second run is refused with a one-line
  error instead of two runs interleaving their pages and index).
- ``for_encoding``: text for a stream whose encoding is not UTF-8 (``PYTHONIOENCODING=ascii``, a C
  locale): every symbol it cannot carry gets an ASCII spelling (‖p‖ → ||p||, ≤ → <=, 10⁻⁴ → 10^-4),
  so the verdict is printed rather than lost to a UnicodeEncodeError.
"""
from __future__ import annotations

import errno
import os
import re
import tempfile
import unicodedata

from verify.data.inputs import check_path_text
from verify.errors import DestinationError


def file_mode() -> int:
    """0666 masked by the process's umask (read without changing it where /proc allows)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # elsewhere: read by setting and restoring
    os.umask(mask)
    return 0o666 & ~mask


def _describe(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def _write(path: str, data: bytes) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=os.path.basename(path))
    except OSError as exc:
        raise DestinationError(f"cannot write {path}: {_describe(exc)}")
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), file_mode())
            fh.write(data)
        os.replace(tmp, path)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise DestinationError(f"cannot write {path}: {_describe(exc)}")
        raise


def write_atomic(path: str, text: str) -> None:
    """Write a text file atomically (temporary file in the same folder, then rename)."""
    _write(path, text.encode("utf-8"))


def write_atomic_bytes(path: str, data: bytes) -> None:
    _write(path, data)


def _probe(folder: str, flag: str, shown: str) -> None:
    """Prove ``folder`` writable by creating (and removing) a file in it: permission bits do not
    tell the truth for root, read-only mounts or ACLs."""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-probe-")
    except OSError as exc:
        raise DestinationError(f"{flag} {shown}: cannot write there ({_describe(exc)})")
    os.close(fd)
    os.unlink(tmp)


def _broken_link(path: str) -> str | None:
    """The first component of ``path`` that is a symbolic link leading nowhere (dangling, or a loop)."""
    parts = os.path.abspath(path).split(os.sep)
    for k in range(2, len(parts) + 1):
        here = os.sep.join(parts[:k]) or os.sep
        if os.path.islink(here) and not os.path.exists(here):
            return here
        if not os.path.lexists(here):
            return None
    return None


def _link_error(path: str, flag: str, shown: str) -> None:
    bad = _broken_link(path)
    if bad is not None:
        try:
            target = os.readlink(bad)
        except OSError:
            target = "?"
        raise DestinationError(f"{flag} {shown}: {bad} is a symbolic link to {target}, which does not exist or "
                               "loops back on itself; remove the link or point it at a folder")


def _folder(path: str, flag: str, shown: str, create: bool) -> None:
    _link_error(path, flag, shown)
    if os.path.exists(path) and not os.path.isdir(path):
        raise DestinationError(f"{flag} {shown}: is a file, a folder is needed there")
    if not create and not os.path.isdir(path):  # prove the nearest existing folder can take it
        parent = os.path.dirname(os.path.abspath(path))
        if parent != os.path.abspath(path):
            _folder(parent, flag, shown, create=False)
        return
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise DestinationError(f"{flag} {shown}: cannot create the folder ({_describe(exc)})")
    _probe(path, flag, shown)


def check_folder(path: str, flag: str, subfolders=(), create: bool = True) -> str:
    """A folder results will be written into; DestinationError if unusable. ``create``: make it
    (and ``subfolders``) now; else only prove that it, or the folder it would be created in, is writable."""
    check_path_text(path, flag)
    _folder(path, flag, path, create)
    for sub in subfolders:
        _folder(os.path.join(path, sub), flag, f"{path} ({sub}/ inside it)", create)
    return path


def check_file(path: str, flag: str) -> str:
    """A file that will be (over)written at the end of the work; DestinationError if it cannot be.
    Nothing is created: the folder that will hold it (or its nearest existing parent) is probed."""
    check_path_text(path, flag)
    if os.path.isdir(path):
        raise DestinationError(f"{flag} {path}: is a folder, a file name is needed")
    folder = os.path.dirname(os.path.abspath(path))
    _folder(folder, flag, f"{path} (in {folder})", create=False)
    return path


# ----- one writer per report folder -----------------------------------------------------------------
LOCK_NAME = ".verify-lock"
_LOCKS: dict = {}  # folder (real path) -> open lock file descriptor, held until release_locks()


def lock_folder(path: str, flag: str) -> None:
    """Take the folder's writer lock (an exclusive ``flock`` on ``LOCK_NAME`` inside it) for the rest of
    the run, or refuse with a one-line DestinationError (exit 2) naming the run that holds it: two
    runs writing one folder would leave an index that names one run's precision for the other's
    page. The lock goes with the process (a killed run leaves none behind); ``release_locks`` ends it."""
    import fcntl

    key = os.path.realpath(path)
    if key in _LOCKS:
        return
    lock = os.path.join(path, LOCK_NAME)
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
    except OSError as exc:
        raise DestinationError(f"{flag} {path}: cannot create its lock file ({_describe(exc)})")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
            os.close(fd)  # a file system without locks (ENOLCK): proceed unlocked
            return
        try:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
        except OSError:
            holder = ""
        os.close(fd)
        raise DestinationError(f"{flag} {path}: another verify run{f' (pid {holder})' if holder.isdigit() else ''} "
                               "is writing reports into this folder; wait for it to finish or choose another folder")
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
    except OSError:
        pass  # the pid is only for the message
    _LOCKS[key] = fd


def release_locks() -> None:
    """Release every folder lock this process holds (the end of a verb)."""
    while _LOCKS:
        _key, fd = _LOCKS.popitem()
        try:
            os.close(fd)
        except OSError:
            pass


# ----- text for a stream that cannot carry every symbol ---------------------------------------------
_SPELLINGS = {
    "‖": "||", "∥": "||", "−": "-", "–": "-", "—": "--", "…": "...", "≤": "<=", "≥": ">=", "≠": "!=", "≈": "~=",
    "≲": "<~", "≪": "<<", "≫": ">>", "±": "+/-", "×": "x", "·": "*", "∗": "*", "⋆": "*", "†": "+", "→": "->",
    "←": "<-", "⇒": "=>", "⇐": "<=", "⇔": "<=>", "⟺": "<=>", "↦": "|->", "∞": "inf", "∇": "grad ", "∂": "d",
    "∈": "in", "∉": "not in", "∋": "contains", "⊆": "subset of", "⊂": "subset of", "⊇": "superset of",
    "∩": "cap", "∖": "\\", "∅": "{}", "∀": "for all ", "∃": "exists ", "∨": "or", "⊙": "(.)", "⊗": "(x)",
    "⊥": "_|_", "⟂": "_|_", "√": "sqrt", "∫": "int ", "∝": "~", "≡": "==", "⟨": "<", "⟩": ">", "⌊": "floor(",
    "⌋": ")", "½": "1/2", "°": " deg", "§": "S", "′": "'", "ℓ": "l", "ℒ": "L", "ℝ": "R", "ℚ": "Q", "𝒲": "W",
    "𝒯": "T", "𝒪": "O", "𝟙": "1", "µ": "mu", "✓": "ok", "✅": "ok", "✗": "x", "❌": "x", "❔": "?", "➖": "-",
    "⪰": ">=", "≼": "<=", "ᵀ": "^T", "ᵗ": "^t", "ⁿ": "^n", "\u0302": "^", "\u0304": "-bar", "\u0307": "'",
    "\u0303": "~", "\u030c": "v", "\u0332": "_",
}
_SUPER = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+"))
_SUB = dict(zip("₀₁₂₃₄₅₆₇₈₉₋₊", "0123456789-+"))
_RUNS = re.compile(f"[{''.join(_SUPER)}]+|[{''.join(_SUB)}]+")


def _spell_char(ch: str) -> str:
    if ch in _SPELLINGS:
        return _SPELLINGS[ch]
    name = unicodedata.name(ch, "")
    if name.startswith("GREEK "):  # γ → gamma, Γ → Gamma
        word = name.split()[-1].lower().replace("lamda", "lambda")
        return word.capitalize() if "CAPITAL" in name else word
    decomposed = unicodedata.normalize("NFKD", ch)  # Ŵ → W + combining circumflex
    if decomposed != ch:
        return "".join(c if ord(c) < 128 else _SPELLINGS.get(c, "") for c in decomposed) or "?"
    return "?"


def ascii_spelling(text: str) -> str:
    """``text`` in ASCII: superscripts as ^…, subscripts as _…, symbols and Greek letters spelled out."""
    text = _RUNS.sub(lambda m: ("^" if m.group(0)[0] in _SUPER else "_")
                     + "".join(_SUPER.get(c) or _SUB[c] for c in m.group(0)), text)
    return "".join(ch if ord(ch) < 128 else _spell_char(ch) for ch in text)


def for_encoding(text: str, encoding: str | None) -> str:
    """``text`` unchanged when ``encoding`` can carry it, else with every character it cannot carry
    spelled in ASCII (the symbols it can carry stay)."""
    encoding = encoding or "utf-8"
    try:
        text.encode(encoding)
        return text
    except (UnicodeEncodeError, LookupError):
        pass

    def fits(ch: str) -> bool:
        try:
            ch.encode(encoding)
            return True
        except (UnicodeEncodeError, LookupError):
            return False

    return "".join(ch if fits(ch) else ascii_spelling(ch) for ch in _RUNS.sub(
        lambda m: m.group(0) if fits(m.group(0)) else ascii_spelling(m.group(0)), text))
