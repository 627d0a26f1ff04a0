"""What a report needs to stand alone: the datasets exactly as used, and where, when and with what it was computed.

* ``inputs(v, folder)``: each dataset of a verdict as exact JSON (rationals as strings) with its SHA-256 (of the
  canonical JSON: sorted keys, no spaces); one larger than ``INLINE_LIMIT`` characters is written beside the report
  as ``datasets/<claim>-<name>.json`` and only named and hashed in the page.
* ``provenance(v)``: the toolkit's version, the git commit of the checkout it ran from (and whether the tree was
  dirty), the Python and library versions, the working and the recheck precision, the exact command, the date and
  the wall time. The command is the one the CLI was given (``record_command``), else the process's arguments.
"""
from __future__ import annotations

import datetime
import hashlib
import json
import os
import platform
import shlex
import subprocess
import sys
from importlib import metadata

INLINE_LIMIT = 100_000  # characters of canonical JSON: larger datasets go to a file beside the report
LIBRARIES = ("python-flint", "mpmath", "cvxpy", "numpy", "scipy", "sympy", "hypothesis")
_COMMAND: list | None = None


def record_command(argv) -> None:
    """The CLI's arguments (after ``python -m verify``), as the command a report names."""
    global _COMMAND
    _COMMAND = list(argv)


def command() -> str:
    args = _COMMAND if _COMMAND is not None else sys.argv[1:]
    return shlex.join(["python", "-m", "verify", *args])


def canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256(obj) -> str:
    return hashlib.sha256(canonical(obj).encode()).hexdigest()


def _git() -> dict | None:
    """{commit, dirty} of the checkout the package was imported from; None outside a git checkout."""
    import verify

    root = os.path.dirname(os.path.dirname(os.path.abspath(verify.__file__)))
    if not os.path.exists(os.path.join(root, ".git")):
        return None
    try:
        head = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        status = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode != 0:
        return None
    return {"commit": head.stdout.strip(), "dirty": bool(status.stdout.strip()) if status.returncode == 0 else None}


def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def provenance(v, options: dict | None = None) -> dict:
    """The run's provenance (module docstring); ``options`` the run's own settings (e.g. {"prove": True})."""
    import verify
    from verify.numbers.precision import Precision

    return {
        "toolkit": {"name": "attnverify", "version": verify.__version__},
        "git": _git(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "libraries": {name: _version(name) for name in LIBRARIES},
        "precision": v.precision,
        "recheck_precision": Precision(v.precision).higher().dps if v.claim.recompute else None,
        "options": dict(options or {}),
        "command": command(),
        "date": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
        "seconds": round(v.seconds, 3),
    }


def inputs(v, folder: str | None, file_part=str) -> list:
    """[{name, sha256, dataset | file}] for the verdict's datasets, in order (module docstring); large ones are
    written into ``folder``/datasets/ (when a folder is given)."""
    from verify.data.outputs import write_atomic

    out = []
    for name, data in v.inputs:
        text = canonical(data)
        entry = {"name": name, "sha256": hashlib.sha256(text.encode()).hexdigest()}
        if len(text) > INLINE_LIMIT and folder is not None:
            rel = f"datasets/{file_part(v.claim.id)}-{file_part(name)}.json"
            os.makedirs(os.path.join(folder, "datasets"), exist_ok=True)
            write_atomic(os.path.join(folder, rel), text + "\n")
            entry["file"] = rel
        else:
            entry["dataset"] = data
        out.append(entry)
    return out


def load_inputs(entries, folder: str) -> list:
    """The datasets of a report's ``inputs`` (Dataset objects, in order), each checked against its SHA-256; a
    missing file or a hash that does not match is a one-line DataError."""
    from verify.data.dataset import Dataset
    from verify.errors import DataError

    out = []
    for k, entry in enumerate(entries):
        if not isinstance(entry, dict) or "name" not in entry or "sha256" not in entry:
            raise DataError(f"inputs[{k}]: expected {{name, sha256, dataset | file}}")
        data = entry.get("dataset")
        if data is None:
            path = os.path.join(folder, str(entry.get("file", "")))
            try:
                with open(path, encoding="utf-8") as f:
                    data = json.load(f)
            except (OSError, ValueError) as exc:
                raise DataError(f"inputs[{k}] ({entry['name']}): cannot read {path}: {exc}")
        if sha256(data) != entry["sha256"]:
            raise DataError(f"inputs[{k}] ({entry['name']}): the dataset does not match its SHA-256 (altered)")
        out.append(Dataset.from_dict(data, name=str(entry["name"])))
    return out
