"""Claim-kit piece: an identity along a trajectory, decided step by step.

An identity that must hold at every step of a run ("p(t) = W(t)u for all t") is checked through its
residual at each step: a ``Tally`` of |residual| ≤ tolerance (by default the working precision's
10^-dps), every step decided on the residual's enclosure and counted, the largest named by its step.
The same tally can be reported instead of deciding (``report``) — e.g. for a residual between two
independently rounded runs, which bounds rounding, not the identity — and its outcome used as a
requirement of the check (``agrees``).
"""
from __future__ import annotations

from verify.claims import Evidence, Tally
from verify.numbers.linalg import norm_enclosure  # noqa: F401 (the claims' name for it)


class IdentityAlong:
    """|residual(t)| ≤ tol at every step t of a trajectory."""

    def __init__(self, quantity: str, tol):
        self.tally = Tally(quantity, "<=", tol, residual=True)

    def add(self, t, residual) -> bool | None:
        return self.tally.add(residual, f"t = {t}")

    @property
    def steps(self) -> int:
        return self.tally.coverage.points

    def agrees(self) -> bool | None:
        """True: certainly below the tolerance at every step; False: certainly above at one; else None."""
        return self.tally.coverage.decision()

    def evidence(self, note: str = "") -> Evidence:
        """The deciding item: every step counted (certified / undecided / violated)."""
        ev = self.tally.evidence(note)
        ev.residual = True  # a rounding-level figure: reported as an upper end, no stable digits
        return ev

    def report(self, note: str = "") -> Evidence:
        """The same figure (largest residual, where, the counts) as an informative item."""
        c = self.tally.coverage
        text = c.describe() + (f"; largest at {c.worst_at}" if c.worst_at else "")
        return Evidence(self.tally.quantity, self.tally.worst_value, "~", residual=True,
                        note=(note + "; " if note else "") + text)
