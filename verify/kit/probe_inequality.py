"""Claim-kit piece: an inequality over adversarial probe points, with certified coverage counts.

"For all p: f(p) ≤ b" is checked at deterministic probe points (``verify.geometry.probes``): a
``Tally`` decides the comparison at every point (exactly or by enclosures) and counts it as
certified / undecided / violated; the report shows the tightest point by name. Never "the largest
midpoint only": one undecided point makes the item undecided (INCONCLUSIVE), one certain failure
makes it fail (VIOLATED, the point named), zero points make it INCONCLUSIVE.

Two cases every such check meets are decided here once:

* a ratio num/den ≤ bound whose denominator is exactly 0 (e.g. a constant L_p = 0, or a right-hand
  side Γ·A = 0): the inequality num ≤ bound·0 holds iff num is exactly 0 (the ratio is then reported
  as 0), fails iff num is certainly nonzero (reported as +∞), and is undecided otherwise;
* a point where the quantity could not be evaluated: ``skip`` counts it as undecided (never dropped).
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Tally
from verify.numbers.precision import to_arb, to_decimal_string


class ProbeInequality(Tally):
    """``value relation bound`` decided and counted at every probe point (see the module docstring)."""

    def add_ratio(self, num, den, where: str = "") -> bool | None:
        """Add the ratio num/den (den ≥ 0; an exactly zero den is decided as the module says)."""
        if den == 0:  # exact zero (for a ball, ``==`` is certain equality)
            if num == 0:  # exactly zero (arb ==: certain)
                return self.add(Fraction(0), where)
            if isinstance(num, arb) and num.contains(0):
                return self.skip(where)
            return self.add(arb("inf"), where)
        return self.add(num / den, where)

    def skip(self, where: str = "") -> None:
        """Count a point whose value could not be decided (an all-containing ball: undecided)."""
        self.add(arb("nan"), where)
        return None


def point_label(p, digits: int = 6) -> str:
    """'p = (…)' with ``digits`` significant digits per coordinate (for naming probe points)."""
    return "p = (" + ", ".join(to_decimal_string(to_arb(x), digits) for x in p) + ")"
