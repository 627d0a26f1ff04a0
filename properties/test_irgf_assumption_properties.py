"""irgf's assumptions as claims (``irgf.asm2``, ``irgf.asm3``) on hypothesis-generated data at the edges: tied
optimal tokens, L = 2, equal and unequal non-optimal scores.

``irgf.asm2`` is exact, so its verdict must be the predicate recomputed here from the definition (a unique maximiser
of γ_i = y_i vᵀx_i· and one value among the others) — HOLDS certified when it holds, VIOLATED certified otherwise.
``irgf.asm3`` reads γ_{j,nopt}, so it needs Assumption 2: where Assumption 2 fails it answers NOT_APPLICABLE naming
it, never a verdict on the inequality.
"""
from __future__ import annotations

from hypothesis import event, given

from lemmas.irgf import asm2, asm3
from properties.strategies import datasets, examples, save_failure
from verify.numbers.precision import working_precision


def _assumption2(data) -> bool:
    for g in data.scores:
        top = max(g)
        if [x for x in g].count(top) > 1:
            return False
        if len({x for x in g if x != top}) > 1:
            return False
    return True


@examples(40)
@given(datasets())
def test_asm2_is_the_definition(data):
    with working_precision(20) as prec:
        d = asm2.evaluate(data, prec).decision()
    want = _assumption2(data)
    event(f"Assumption 2 {'holds' if want else 'fails'}")
    if (d.verdict, d.certainty) != (("HOLDS" if want else "VIOLATED"), "certified"):
        raise AssertionError(f"irgf.asm2: {d.verdict} where the definition says {want}; "
                             f"saved to {save_failure(data, 'irgf.asm2')}")


@examples(15)
@given(datasets())
def test_asm3_needs_assumption2(data):
    with working_precision(20) as prec:
        d = asm3.evaluate(data, prec).decision()
    if not _assumption2(data):
        assert d.verdict == "NOT_APPLICABLE" and "Assumption 2" in str(d.reasons[0]), (d.verdict, d.reasons)
    else:
        assert d.verdict in ("HOLDS", "VIOLATED"), (d.verdict, d.reasons)
