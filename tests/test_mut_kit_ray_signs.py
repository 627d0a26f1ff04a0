"""verify.kit.ray_signs (mutation tests): the ladder radii R = x/Θ rounded to 6 significant digits, ``RaySign``'s
per-radius sign decision (strict: f = 0 is not the wanted sign), the witness from which every deeper radius has the
sign, the Tally over exactly the radii from the witness on, the leading-coefficient item (relation by the wanted sign,
bound 0), ``baseline_ray``'s routing (stand-ins for the directional engine) and ``next_margin_gap``."""
from decimal import Decimal, localcontext
from fractions import Fraction
from types import SimpleNamespace

import pytest
from flint import arb

from verify.kit import ray_signs as RS
from verify.kit.ray_signs import LADDER, RaySign, ladder, next_margin_gap, sign_figure
from verify.numbers.precision import working_precision


@pytest.fixture(autouse=True)
def _prec():
    with working_precision(30):
        yield


def _six_digits(x: Fraction, theta: Decimal) -> Fraction:
    """x/Θ rounded to 6 significant digits, by decimal arithmetic."""
    with localcontext() as ctx:
        ctx.prec = 40
        r = Decimal(x.numerator) / Decimal(x.denominator) / theta
        return Fraction(Decimal(f"{r:.6g}" if "e" not in f"{r:.6g}" else str(Decimal(f"{r:.5e}"))))


def test_the_ladder_spans_half_to_a_million():
    assert LADDER[0] == Fraction(1, 2) and LADDER[-1] == 10**6 and len(LADDER) == 14
    assert list(LADDER) == sorted(LADDER)


def test_ladder_radii_are_x_over_theta_to_six_digits():
    """Θ² = 1 and 4: x and x/2 exactly; Θ² = 2: x/√2 to 6 significant digits (1/√2 = 0.707107, 10⁶/√2 = 707107,
    (1/2)/√2 = 0.353553); ``xs`` replaces the ladder."""
    assert ladder(Fraction(1)) == list(LADDER)
    assert ladder(Fraction(4)) == [x / 2 for x in LADDER]
    with localcontext() as ctx:
        ctx.prec = 40
        root2 = Decimal(2).sqrt()
    got = ladder(Fraction(2))
    assert got == [_six_digits(x, root2) for x in LADDER]
    assert got[1] == Fraction("0.707107") and got[-1] == 707107 and got[0] == Fraction("0.353553")
    assert ladder(Fraction(1, 9), xs=(Fraction(7),)) == [21]
    assert ladder(Fraction(3), xs=(Fraction(1000),)) == [Fraction("577.350")]


def test_ok_is_the_strict_sign_decided_by_the_enclosure():
    """sign +1: f = 1 → True, f = 0 → False (not > 0), f = −1 → False, a ball around 0 → None; sign −1 flips."""
    vals = {1: arb(1), 2: arb(0), 3: arb(-1), 4: arb(0, 0.5)}
    ray = RaySign("f", lambda R: vals[round(float(R.mid()))], [1, 2, 3, 4], 1)
    assert [ray.ok(r) for r in (1, 2, 3, 4)] == [True, False, False, None]
    neg = RaySign("f", lambda R: vals[round(float(R.mid()))], [1, 2, 3, 4], -1)
    assert [neg.ok(r) for r in (1, 2, 3, 4)] == [False, False, True, None]


def test_values_are_f_at_the_radii_as_balls():
    seen = []
    ray = RaySign("f", lambda R: seen.append(R) or R * 2, [Fraction(1, 2), 3], 1)
    assert all(isinstance(x, arb) for x in seen)
    assert [x.mid() for x in seen] == [arb(0.5).mid(), arb(3).mid()]
    assert ray.radii == [Fraction(1, 2), 3] and ray.sign == 1 and ray.label == "f"
    assert ray.values[0] == 1 and ray.values[1] == 6


def test_items_witness_tally_from_it_and_the_coefficient():
    """f(R) = R − 3 on radii 1, 2, 5, 10, 20, sign +1: the witness is 5 (f > 0 from 5 on); the Tally has the 3 radii
    5, 10, 20 (not 2), all > 0, its worst value f(5) = 2; the coefficient item decides c > 0."""
    ray = RaySign("lab", lambda R: R - 3, [1, 2, 5, 10, 20], 1)
    R, items = ray.items("Q", arb(3), "what")
    assert R == 5 and len(items) == 3
    wit, tal, coef = items
    assert wit.value == 5 and wit.decide() is True and wit.rule is not None
    assert tal.coverage.points == 3 and tal.coverage.holds == 3 and tal.relation == ">" and tal.bound == 0
    assert tal.value == 2 and tal.decide() is True
    assert coef.value == 3 and coef.relation == ">" and coef.bound == 0 and coef.decide() is True
    # a negative coefficient certainly refutes the wanted sign
    _, items = ray.items("Q", arb(-1), "what")
    assert items[2].decide() is False


def test_items_with_the_negative_sign():
    """f(R) = 4 − R, sign −1: f < 0 from 5 on (f(2) = 2 > 0), the Tally relation "<" with bound 0 over 5, 10; the
    coefficient −2 decides c < 0 (True), +2 False."""
    ray = RaySign("lab", lambda R: 4 - R, [2, 5, 10], -1)
    R, items = ray.items("Q", arb(-2), "w")
    assert R == 5 and len(items) == 3
    tal, coef = items[1], items[2]
    assert tal.relation == "<" and tal.bound == 0 and tal.coverage.points == 2 and tal.decide() is True
    assert tal.value == -1
    assert coef.relation == "<" and coef.decide() is True and coef.bound == 0
    assert ray.items("Q", arb(2), "w")[1][2].decide() is False


def test_no_witness_gives_two_items_and_an_undecided_rule():
    """f = −1 everywhere with sign +1: no witness (None), no Tally, the rule item undecided."""
    ray = RaySign("lab", lambda R: R * 0 - 1, [1, 2], 1)
    R, items = ray.items("Q", arb(1), "w")
    assert R is None and len(items) == 2
    assert items[0].decide() is None and items[0].value is None
    assert items[1].relation == ">" and items[1].value == 1


def test_a_failure_below_the_deepest_radii_moves_the_witness():
    """f > 0 at 1, < 0 at 2, > 0 at 5, 10: the witness is 5 and only 5, 10 are tallied."""
    vals = {1: 1, 2: -1, 5: 1, 10: 2}
    ray = RaySign("lab", lambda R: R * 0 + vals[round(float(R.mid()))], [1, 2, 5, 10], 1)
    R, items = ray.items("Q", arb(1), "w")
    assert R == 5 and items[1].coverage.points == 2 and items[1].value == 1


def test_series_and_figure():
    """log10 |f| at each radius, None where the ball contains 0; no rays → no figure."""
    ray = RaySign("lab", lambda R: R * 0 + {1: 100, 2: 0}[round(float(R.mid()))], [1, 2], 1)
    s = ray.series()
    assert s.x == [1.0, 2.0] and s.y[1] is None and abs(s.y[0] - 2) < 1e-12
    assert sign_figure([], "t", "y") is None
    assert sign_figure([ray], "t", "y") is not None


def test_baseline_ray_routes_to_the_directional_engine(monkeypatch):
    """Stand-ins: unit(q) = q/2 (q = (2, 0)), baseline_excess(model, info, point, loss) = −‖point‖ (recording the
    point R·q̄), leading_coefficient = −5: the ray has sign −1 on ladder(Θ² = 1); f < 0 everywhere so the witness is
    the smallest ladder radius 1/2; the items are added to ``out``."""
    calls = []
    monkeypatch.setattr(RS, "unit", lambda q: [x / 2 for x in q])
    monkeypatch.setattr(RS, "baseline_excess",
                        lambda model, info, pt, loss: calls.append((model, info, pt, loss)) or -abs(pt[0]))
    info = SimpleNamespace(q=[2, 0], theta_sq=Fraction(1))
    monkeypatch.setattr(RS, "leading_coefficient", lambda inf, loss: arb(-5) if loss == "LOSS" and inf is info
                        else arb(5))
    added = []
    out = SimpleNamespace(add=lambda *items: added.extend(items))
    ray, R = RS.baseline_ray(out, "MODEL", "lab", info, "LOSS", "cw")
    assert ray.sign == -1 and ray.radii == list(LADDER)
    assert R == Fraction(1, 2)
    assert len(added) == 3 and added[2].value == -5 and added[2].decide() is True
    assert added[1].coverage.points == len(LADDER)
    assert all(e.quantity.startswith("lab: ") for e in added)
    assert "L(Rq̄) − L_σ" in added[0].quantity and "(cw)" in added[2].quantity
    model, inf, pt, loss = calls[2]
    assert model == "MODEL" and inf is info and loss == "LOSS"
    assert pt[0] == 2 and pt[1] == 0   # R = LADDER[2] = 2 times q̄ = (1, 0)


def test_next_margin_gap():
    """None without a next margin; δ = √((m₂ − Θ)²/‖q‖²): (3 − 1)²/4 → 1, (5 − 2)²/9 → 1, (7 − 1)²/4 → 3."""
    assert next_margin_gap(SimpleNamespace(next_margin=None, theta=1, norm_sq=4)) is None
    assert next_margin_gap(SimpleNamespace(next_margin=Fraction(3), theta=Fraction(1), norm_sq=Fraction(4))) == 1
    got = next_margin_gap(SimpleNamespace(next_margin=Fraction(7), theta=Fraction(1), norm_sq=Fraction(4)))
    assert abs(got - 3) < arb(10) ** -25
    got = next_margin_gap(SimpleNamespace(next_margin=Fraction(3), theta=Fraction(1), norm_sq=Fraction(2)))
    assert abs(got - arb(2).sqrt()) < arb(10) ** -25
