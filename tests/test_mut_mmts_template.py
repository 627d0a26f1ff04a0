"""lemmas/TEMPLATE.py in detail (mutation testing, area mmts): the probe set is the documented one and
every point is named, the hypothesis says which token is optimal, the deviation is a residual reported
by the upper end of its enclosure, and the evaluation replays exactly."""
from fractions import Fraction

import pytest

from verify import Dataset
from verify.geometry.probes import SCALES, directions, scaled
from verify.kit.probe_inequality import ProbeInequality, point_label
from verify.models.attention import features
from verify.numbers.precision import working_precision

# two sequences; scores γ = Y·Xv: (1, 0) and (0, 2) → optimal tokens 0 and 1
DATA = Dataset.make(X=[[[1, 0], [0, 1]], [[0, 1], [2, 0]]], Y=[1, 1], v=[1, 0], name="two-sequences")


@pytest.fixture
def template():
    import lemmas.TEMPLATE as module

    yield module
    from verify.claims import REGISTRY

    REGISTRY.claims.pop("mmts.template", None)


def test_probe_points_are_the_documented_set_each_named(template, monkeypatch):
    """Seeded directions (4, seed 0) and ± key differences, at every ‖p‖∞ of SCALES, for every sequence:
    each point is added once, named by its sequence and its point."""
    seen = []

    class Recording(ProbeInequality):
        def add_ratio(self, num, den, where=""):
            seen.append(where)
            return super().add_ratio(num, den, where)

    monkeypatch.setattr(template, "ProbeInequality", Recording)
    with working_precision(20) as prec:
        out = template.evaluate(DATA, prec)
    assert out.decide() == "HOLDS"
    expected = [f"sequence {i}, {point_label(scaled(d, sc))}"
                for d in directions(features(DATA, "p"), count=4, seed=0) for sc in SCALES for i in range(DATA.n)]
    assert seen == expected
    assert out.evidence[0].coverage.points == len(expected)


def test_a_failing_point_is_named(template):
    with working_precision(20) as prec:
        out = template.evaluate(DATA, prec, factor=Fraction(2))
    cov = out.evidence[0].coverage
    assert cov.violated == cov.points and cov.first_violation.startswith("sequence 0, p = (")


def test_hypothesis_names_the_optimal_tokens(template):
    with working_precision(20) as prec:
        out = template.evaluate(DATA, prec)
    h = out.hypotheses[0]
    assert h.met is True and h.detail == "opt = [0], [1]"


def test_deviation_is_a_residual_shown_by_its_upper_end(template):
    with working_precision(20) as prec:
        out = template.evaluate(DATA, prec)
        ev = out.evidence[0]
        assert ev.residual is True  # |deviation| ≤ tolerance decided on the enclosure's upper end
        assert ev.value.rad() == 0 and 0 <= ev.value <= prec.tolerance


def test_evaluation_replays_exactly(template):
    """Seeded probe points: two evaluations report the same worst point and the same value."""
    with working_precision(20) as prec:
        a, b = template.evaluate(DATA, prec), template.evaluate(DATA, prec)
    assert a.evidence[0].coverage.worst_at == b.evidence[0].coverage.worst_at
    assert a.evidence[0].value == b.evidence[0].value
