"""mmts Lemma 7 in detail (mutation testing, area mmts), on Fig. 1(b) (α = [1], μ = μ₀/2): the existential
radii are witnessed and named part by part when R is not given, and with R = 20 every part is checked on
C_(μ,20) itself (no witness searched, the grid from r = 20); μ* is the spec's critical width; (31b) lower,
(31c) at its bound 1 and the compactness items against the derived limits are all present."""
from fractions import Fraction

import pytest
from flint import arb

from lemmas.mmts import lemma7
from verify.data import mmts as D
from verify.numbers.precision import working_precision

PI = (Fraction(1, 10),)


@pytest.fixture(scope="module")
def runs():
    with working_precision(30) as prec:
        free = lemma7.evaluate(D.mmts_fig1b(), prec, pis=PI)
        fixed = lemma7.evaluate(D.mmts_fig1b(), prec, pis=PI, R=20)
    return free, fixed


def names(out):
    return [e.quantity for e in out.evidence]


def test_witnesses_are_named_per_part_without_r(runs):
    free, _ = runs
    assert free.decide() == "HOLDS"
    wit = [q for q in names(free) if q.startswith("witness R for ")]
    assert wit == ["witness R for L1 (smallest ladder radius from which it holds)",
                   "witness R for L2 (31a) lower (smallest ladder radius from which it holds)",
                   "witness R for L3 (π = 0.1) (smallest ladder radius from which it holds)"]


def test_fixed_r_checks_every_part_on_that_cone(runs):
    _, fixed = runs
    assert fixed.decide() == "HOLDS"
    assert not [q for q in names(fixed) if q.startswith("witness R")]
    grid = [e for e in fixed.evidence if e.coverage is not None and not e.quantity.startswith("L2 compactness")]
    assert all(e.coverage.worst_at.startswith("‖p‖ = ") for e in grid)
    assert all(float(e.coverage.worst_at.split("‖p‖ = ")[1].split(",")[0]) >= 20 for e in grid)
    assert any(" radii 20 … 1e+08, " in n for n in fixed.notes)  # the grid starts at R = 20


def test_width_31b_31c_compactness_and_l3_items(runs):
    for out in runs:
        mstar = [e for e in out.evidence if e.quantity.startswith("μ*: exact critical width (non-neighbour")]
        assert len(mstar) == 1 and abs(mstar[0].value - arb("0.004963")) < arb("1e-6")  # spec: μ* = 4.963e−3
        lower = [e for e in out.evidence if e.quantity.startswith("(31b) lower")]
        assert len(lower) == 1 and lower[0].decide() is True
        c31 = [e for e in out.evidence if e.quantity.startswith("(31c)")]
        assert len(c31) == 1 and c31[0].relation == "<=" and c31[0].bound == 1  # m_μ ≈ 0.93 > 0
        comp = [e for e in out.evidence if e.quantity.startswith("L2 compactness")]
        assert [e.relation for e in comp] == [">=", "<="] and all(e.decide() is True for e in comp)
        l3 = [e for e in out.evidence if e.quantity.startswith("L3 (π = 0.1)")]
        assert len(l3) == 1 and abs(float(l3[0].bound.mid()) - 1.1) < 1e-12  # bound 1 + π
