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
"""
from __future__ import annotations

import os
import tempfile

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


def _folder(path: str, flag: str, shown: str, create: bool) -> None:
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
