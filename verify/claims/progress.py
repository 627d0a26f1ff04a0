"""Progress inside a claim: a long check says how far it is, the CLI shows it beside its bar.

A check calls ``steps(total, what)`` and ``advance()`` on what it gets back; the runner names the
phase (dataset, precision), and the CLI installs a sink (``progress_sink``) that receives one short
line such as ``random-n200 at 50 digits: probe points 1200/4800``. Without a sink (tests, library
use, worker processes) all of it costs one context-variable lookup per call.
"""
from __future__ import annotations

import contextlib
import contextvars
import time

_sink = contextvars.ContextVar("verify_progress_sink", default=None)
_phase = contextvars.ContextVar("verify_progress_phase", default="")
MIN_INTERVAL = 0.25  # seconds between two lines sent to the sink (a terminal need not redraw faster)


@contextlib.contextmanager
def progress_sink(show):
    """While active, progress lines go to ``show(text)``."""
    token = _sink.set(show)
    try:
        yield
    finally:
        _sink.reset(token)


@contextlib.contextmanager
def phase(name: str):
    """Name what runs in the block (e.g. a dataset at a precision): it prefixes the progress lines."""
    token = _phase.set(name)
    try:
        yield
    finally:
        _phase.reset(token)


class Steps:
    """``total`` units of work called ``what``; ``advance`` counts them and tells the sink now and then."""

    def __init__(self, total: int, what: str):
        self.total, self.what, self.done = total, what, 0
        self._last = 0.0
        self._show(force=True)

    def advance(self, k: int = 1) -> None:
        self.done += k
        self._show(force=self.done >= self.total)

    def _show(self, force: bool) -> None:
        show = _sink.get()
        if show is None:
            return
        now = time.monotonic()
        if force or now - self._last >= MIN_INTERVAL:
            self._last = now
            prefix = _phase.get()
            show(f"{prefix}: " * bool(prefix) + f"{self.what} {self.done}/{self.total}")


def steps(total: int, what: str) -> Steps:
    return Steps(total, what)
