"""Errors that map to the exit codes of the contract (design.md, "Exit codes")."""


class VerifyError(Exception):
    """Base class: a one-line message and the exit code the CLI returns."""

    exit_code = 1

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))


class UsageError(VerifyError):
    """Unknown claim id, bad flag, precision outside 15..10000."""

    exit_code = 2


class DataError(VerifyError):
    """Missing file, bad JSON, wrong shapes, NaN/inf, labels not ±1, T < 2."""

    exit_code = 5


class NotApplicable(VerifyError):
    """The data does not meet a hypothesis; the message names it."""

    exit_code = 4
