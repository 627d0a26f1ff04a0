"""Errors that map to the exit codes of the contract (docs/contract.md, "Exit codes"); Ctrl-C and SIGTERM."""
import contextlib
import signal
import sys


class VerifyError(Exception):
    """Base class: a one-line message and the exit code the CLI returns."""

    exit_code = 1

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))


class UsageError(VerifyError):
    """Unknown claim id, bad flag, precision outside 15..10000, an unusable output destination."""

    exit_code = 2


class DestinationError(UsageError):
    """An output destination (--report, --save, --out) that cannot be written: read-only, a file
    where a folder is needed or the reverse. Checked before the work starts (exit 2)."""


class DataError(VerifyError):
    """Missing file, bad JSON, wrong shapes, NaN/inf, numbers out of range, labels not ±1, T < 2."""

    exit_code = 5


class NotApplicable(VerifyError):
    """The data does not meet a hypothesis; the message names it."""

    exit_code = 4


class Undecided(VerifyError):
    """No answer within the resources: out of memory, an integrator that stalled, a figure that is
    not a number. INCONCLUSIVE's exit code: nothing was decided, nothing is reported as a result. Raised inside a
    claim's check, the runner makes that dataset INCONCLUSIVE naming it ("the check ran to its end")."""

    exit_code = 3


# ----- interruptions: Ctrl-C (SIGINT, exit 130) and SIGTERM (what a batch scheduler sends, exit 143) -----
class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C's KeyboardInterrupt so that every handler that keeps partial
    results for Ctrl-C keeps them for SIGTERM too; only the exit code differs (128 + 15)."""


SIGNAL_EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}


def find_interrupt(exc: BaseException):
    """The KeyboardInterrupt (or Terminated) in ``exc``'s chain of causes, or None."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def interrupted(exc: BaseException) -> bool:
    """Ctrl-C or SIGTERM, also when it surfaces as another error: an extension module interrupted
    while it is imported raises ImportError('initialization failed') from the KeyboardInterrupt."""
    return find_interrupt(exc) is not None


def interrupt_exit_code(exc: BaseException) -> int:
    """143 for SIGTERM, 130 for Ctrl-C (the contract's exit codes)."""
    return 143 if isinstance(find_interrupt(exc), Terminated) else 130


def interrupt_name(exc: BaseException) -> str:
    return "terminated (SIGTERM)" if isinstance(find_interrupt(exc), Terminated) else "interrupted"


def reraise_interrupt(exc: BaseException) -> None:
    """Call first in an ``except Exception`` that swallows failures: Ctrl-C must not be swallowed."""
    found = find_interrupt(exc)
    if found is not None:
        raise type(found)() from exc


def _raise_for(signum):
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def raise_on_signal(signum, frame):
    """A signal handler: SIGTERM raises Terminated, SIGINT KeyboardInterrupt."""
    _raise_for(signum)


class SignalLatch:
    """While active, Ctrl-C and SIGTERM raise (KeyboardInterrupt / Terminated) as usual and are also
    remembered: Python drops an exception raised inside a weakref callback or ``__del__``
    ("Exception ignored in …"), so long loops call ``check()`` at safe points and stop there
    instead of running to the end."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self):
        self.fired = None  # the signal number that arrived, if any
        self._old = {}
        self._old_hook = None

    def _handler(self, signum, frame):
        self.fired = self.fired or signum
        _raise_for(signum)

    def _unraisable(self, info):
        """The dropped interrupt is remembered, not printed as a traceback; other reports pass on."""
        if info.exc_type is not None and issubclass(info.exc_type, KeyboardInterrupt):
            if self.fired is None:
                self.fired = signal.SIGTERM if issubclass(info.exc_type, Terminated) else signal.SIGINT
        else:
            self._old_hook(info)

    def check(self) -> None:
        if self.fired is not None:
            _raise_for(self.fired)

    def __enter__(self):
        try:
            for s in self.SIGNALS:
                self._old[s] = signal.signal(s, self._handler)
        except ValueError:  # not the main thread: leave Python's default handling
            self._old = {}
            return self
        self._old_hook, sys.unraisablehook = sys.unraisablehook, self._unraisable
        return self

    def __exit__(self, *exc) -> bool:
        if self._old:
            for s, old in self._old.items():
                signal.signal(s, old)
            sys.unraisablehook = self._old_hook
        return False


@contextlib.contextmanager
def signal_handlers(handlers: dict):
    """Install ``{signal number: handler}`` for the block and restore the previous ones after it;
    outside the main thread (where Python refuses handlers) the block runs unchanged."""
    try:
        old = {s: signal.signal(s, h) for s, h in handlers.items()}
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


@contextlib.contextmanager
def signals_deferred(reraise: bool = True):
    """Ctrl-C and SIGTERM are held back for the block (a short write that must finish whole, e.g.
    marking an interrupted index); a signal that arrived is raised after it (``reraise``) or dropped
    (when the caller is already leaving because of one)."""
    arrived = []
    with signal_handlers({s: lambda signum, frame: arrived.append(signum) for s in SignalLatch.SIGNALS}):
        yield
    if arrived and reraise:
        _raise_for(arrived[0])


SigintLatch = SignalLatch  # the name the first version used
