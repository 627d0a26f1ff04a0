"""lemmas/TEMPLATE.py is a working claim module (the model to copy), skipped by the registry."""
from fractions import Fraction

import pytest

from verify.claims import REGISTRY, run_claim
from verify.data import Dataset
from verify.numbers.precision import working_precision


@pytest.fixture
def template():
    REGISTRY.discover()
    assert "mmts.template" not in REGISTRY.claims  # discovery skips the template
    import lemmas.TEMPLATE as module

    yield module
    REGISTRY.claims.pop("mmts.template", None)


def test_template_holds_certified_on_its_defaults(template):
    v = run_claim(template.CLAIM, template.CLAIM.default_datasets(), dps=20)
    assert (v.verdict, v.certainty) == ("HOLDS", "certified")
    cov = v.to_json()["evidence"][0]["coverage"]
    assert cov["points"] == cov["holds"] > 0


def test_template_false_case_and_broken_hypothesis(template):
    data = Dataset.make(X=[[[1, 0], [0, 1]]], Y=[1], v=[1, 0], name="T2")
    with working_precision(20) as prec:
        assert template.evaluate(data, prec).decide() == "HOLDS"
        out = template.evaluate(data, prec, factor=Fraction(2))  # right side doubled: deviation exactly 1
        assert out.decide() == "VIOLATED" and abs(out.evidence[0].value - 1) < 10.0 ** -20
        tied = Dataset.make(X=[[[1, 0], [0, 1]]], Y=[1], v=[1, 1], name="tied")
        out = template.evaluate(tied, prec)
        assert out.decide() == "NOT_APPLICABLE" and "unique optimal token" in out.decision().reasons[0]
