"""Errors that map to the exit codes of the contract (design.md, "Exit codes")."""
import sys


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


def interrupted(exc: BaseException) -> bool:
    """Ctrl-C, also when it surfaces as another error: an extension module interrupted while it
    is imported raises ImportError('initialization failed') from the KeyboardInterrupt."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def reraise_interrupt(exc: BaseException) -> None:
    """Call first in an ``except Exception`` that swallows failures: Ctrl-C must not be swallowed."""
    if interrupted(exc):
        raise KeyboardInterrupt from exc


class SigintLatch:
    """While active, Ctrl-C raises KeyboardInterrupt as usual and is also remembered: Python drops
    an exception raised inside a weakref callback or ``__del__`` ("Exception ignored in …"), so
    long loops call ``check()`` at safe points and stop there instead of running to the end."""

    def __init__(self):
        self.fired = False
        self._old = None
        self._old_hook = None

    def _handler(self, signum, frame):
        self.fired = True
        raise KeyboardInterrupt

    def _unraisable(self, info):
        """The dropped interrupt is remembered, not printed as a traceback; other reports pass on."""
        if info.exc_type is not None and issubclass(info.exc_type, KeyboardInterrupt):
            self.fired = True
        else:
            self._old_hook(info)

    def check(self) -> None:
        if self.fired:
            raise KeyboardInterrupt

    def __enter__(self):
        import signal

        try:
            self._old = signal.signal(signal.SIGINT, self._handler)
        except ValueError:  # not the main thread: leave Python's default handling
            self._old = None
            return self
        self._old_hook, sys.unraisablehook = sys.unraisablehook, self._unraisable
        return self

    def __exit__(self, *exc) -> bool:
        if self._old is not None:
            import signal

            signal.signal(signal.SIGINT, self._old)
            sys.unraisablehook = self._old_hook
        return False
