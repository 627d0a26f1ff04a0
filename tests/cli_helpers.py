"""Helpers of the CLI tests: run a verb in-process, and read its stderr as exactly one line."""
from verify.cli.main import main

#: a small valid dataset (n = 1, T = 3, d = 2; exact strings), the CLI tests' default input
GOOD = {"X": [[[1, 0], [0, 1], [0, 0]]], "Y": [1], "v": ["1/2", "0.1"]}


def run(argv, capsys, entry=main):
    """(exit code, stdout, stderr) of ``entry(argv)`` (by default ``python -m verify``'s main)."""
    code = entry(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    """The one non-blank line of ``err``; fails if there are several, or a traceback."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def comparable(verdicts):
    """Everything but the run times (``seconds``, and the integrators' timings inside notes) and a provenance's
    date and command line (which name --jobs or --scheduler and the report folder): two runs of the same work
    compare equal."""
    import re

    def strip(x):
        if isinstance(x, dict):
            drop = {"seconds"} | ({"date", "command"} if "toolkit" in x else set())
            return {k: strip(v) for k, v in x.items() if k not in drop}
        if isinstance(x, list):
            return [strip(v) for v in x]
        if isinstance(x, str):
            return re.sub(r"\b\d+\.\d+ s\b", "… s", x)
        return x

    return strip(verdicts)
