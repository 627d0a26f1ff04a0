"""mmts.lemma10: certified on general-position keys; the spec's non-general-position keys (NOT_APPLICABLE, and
VIOLATED with the witness q = (1,0) when the hypothesis is dropped); general position decided exactly."""
from fractions import Fraction

from lemmas.mmts import lemma10
from verify import Dataset
from verify.claims import run_claim
from verify.geometry.directional import directional, general_position, general_position_dataset
from verify.numbers.precision import working_precision


def test_holds_certified_on_defaults():
    v = run_claim(lemma10.CLAIM, lemma10.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_spec_false_case():
    data = lemma10.non_general_position()
    # independent: along q = (1,0) the margins of (−1,−1), (−1,0), (−1,1) from (0,0) are all 1 — three > d = 2
    assert [sum(Fraction(a) * b for a, b in zip((0 - x, 0 - y), (1, 0))) for x, y in ((-1, -1), (-1, 0), (-1, 1))] \
        == [1, 1, 1]
    info = directional(data, (1, 0))
    assert info.sigma == (0,) and len(info.neighbours) == 3
    with working_precision(30) as prec:
        na = lemma10.evaluate(data, prec)
        bad = lemma10.evaluate(data, prec, require_general_position=False)
    assert na.decide() == "NOT_APPLICABLE" and "general position" in na.decision().reasons[0]
    d = bad.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    w = next(e for e in bad.evidence if e.quantity.startswith("|N(q)|"))
    assert w.value == 3 and "(1, 0)" in w.quantity


def test_general_position_decided_exactly():
    # collinear differences from σ = 0: (−1,0) and (−2,0) have rank 1 < 2 (determinant 0)
    flat = Dataset.make(X=[[[0, 0, 1], [1, 0, 0], [2, 0, "1/2"]]], Y=[1], v=[0, 0, 1], K=[[[0, 0], [1, 0], [2, 0]]])
    met, detail = general_position(flat)
    assert met is False and "rank 1 < 2" in detail
    assert general_position(general_position_dataset(n=2, T=3, d=2, seed=3))[0] is True
