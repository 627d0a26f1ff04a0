"""Claim-kit piece for mmts Lemmas 8 and 9 (App. B.5): "for all sufficiently large R, the sign of a loss difference
along rays R·q̄ is s" — decided on a radius ladder and by the leading term.

``RaySign`` evaluates a quantity f(R) (a difference of losses computed without cancellation, e.g. L(Rq̄) − L_σ or
L(Rq̄) − L(Rq̄')) at the ladder radii R = x/Θ_q, x ∈ ``LADDER`` (so RΘ_q runs from 1/2 to 10⁶: e^{−10⁶}-sized
differences are exact in relative terms in arb), and ``items`` turns it into the deciding items:

* the witness R: the smallest ladder radius from which s·f(R) > 0 at every deeper one (``rules.witness``: evidence,
  range "RΘ_q ≤ 10⁶");
* a Tally of s·f(R) > 0 over every ladder radius from the witness on (certified at those radii);
* the leading coefficient: f(R) = e^{−RΘ}(c + o(1)) (``verify.geometry.directional``); s·c > 0 proves the sign for
  every sufficiently large R, s·c < 0 proves the opposite (VIOLATED, certified) — decided by its enclosure.
"""
from __future__ import annotations

import math
from fractions import Fraction

from flint import arb

from verify.claims import Evidence, Figure, Series, Tally, rules
from verify.geometry.directional import baseline_excess, leading_coefficient, unit
from verify.kit.cone_checks import ruled
from verify.numbers.precision import log10_abs, to_arb

#: RΘ_q at the ladder radii
LADDER = tuple(Fraction(x) for x in ("1/2", "1", "2", "5", "10", "20", "50", "100", "200", "500", "1000", "1e4",
                                       "1e5", "1e6"))


def ladder(theta_sq: Fraction, xs=LADDER) -> list:
    """Radii R with RΘ ≈ x (R rational: x/Θ rounded to 6 significant digits, Θ = √theta_sq)."""
    th = math.sqrt(float(theta_sq))
    out = []
    for x in xs:
        r = float(x) / th
        e = math.floor(math.log10(r)) - 5
        out.append(Fraction(round(r / 10**e)) * Fraction(10) ** e)
    return out


class RaySign:
    """f(R) at the ladder radii, with the sign ``sign`` (+1: f > 0 wanted, −1: f < 0 wanted)."""

    def __init__(self, label: str, f, radii, sign: int):
        self.label, self.sign, self.radii = label, sign, list(radii)
        self.values = [f(to_arb(r)) for r in self.radii]

    def ok(self, r) -> bool | None:
        v = self.sign * self.values[self.radii.index(r)]
        return True if v > 0 else False if v <= 0 else None

    def items(self, quantity: str, coef: arb, coef_what: str) -> tuple[object, list]:
        """(witness or None, [witness item, Tally from it, leading-coefficient item])."""
        rel = ">" if self.sign > 0 else "<"
        R, d = rules.witness(self.radii, self.ok)
        items = [ruled(f"{self.label}: witness R (smallest ladder radius from which {quantity} {rel} 0)", R, d)]
        if R is not None:
            t = Tally(f"{self.label}: {quantity} at every ladder radius R ≥ the witness", rel, 0)
            for r, v in zip(self.radii, self.values):
                if r >= R:
                    t.add(v, f"R = {float(r):.6g}")
            items.append(t.evidence())
        items.append(Evidence(f"{self.label}: leading coefficient c of {quantity} = e^(−RΘ)(c + o(1)) ({coef_what})",
                              coef, rel, arb(0), note=f"c {rel} 0 fixes the sign for every sufficiently large R; "
                                                      f"the opposite sign proves the failure for every large R"))
        return R, items

    def series(self) -> Series | None:
        xs = [float(r) for r in self.radii]
        ys = [log10_abs(v) if not v.contains(0) else None for v in self.values]
        return Series(self.label[:48], xs, ys, "-o")


def sign_figure(rays, title: str, ylabel: str) -> Figure | None:
    series = [r.series() for r in rays]
    series = [s for s in series if s is not None]
    if not series:
        return None
    return Figure("ray-sign", title, "R", ylabel, series, logx=True,
                  caption="log10 of the absolute difference at the working precision (never clamped): it falls "
                          "like −RΘ_q·log10(e).")


def baseline_ray(out, model, label: str, info, loss, coef_what: str):
    """L(Rq̄) − L_σ < 0 from a witness on along q's ray (``info``: ``verify.geometry.directional.directional``), and the
    leading coefficient's sign: the items are added to ``out``; returns (the RaySign, the witness R or None)."""
    qb = unit(info.q)
    ray = RaySign(label, lambda R: baseline_excess(model, info, [R * x for x in qb], loss), ladder(info.theta_sq), -1)
    R, items = ray.items("L(Rq̄) − L_σ", leading_coefficient(info, loss), coef_what)
    out.add(*items)
    return ray, R


def next_margin_gap(info) -> arb | None:
    """δ = (second-smallest margin − Θ_q)/‖q‖ (the gap to the next margin per unit norm); None without one."""
    if info.next_margin is None:
        return None
    return to_arb((info.next_margin - info.theta) ** 2 / info.norm_sq).sqrt()
