"""mmts.lemma7 on hypothesis-generated datasets at the edges (n = 1, T = 2, near-ties, tiny margins,
scales 10⁻³ … 10³): with the derived width μ = μ₀/2 the check is never VIOLATED (a failure is saved
as dataset JSON for ``--data`` replay). Data without a locally-optimal α is NOT_APPLICABLE."""
from fractions import Fraction

from hypothesis import given

from lemmas.mmts import lemma7
from properties.strategies import datasets, save_failure
from verify.numbers.precision import working_precision

LADDER = tuple(Fraction(x) for x in ("1", "10", "100", "1e4", "1e6", "1e8"))


@given(datasets(max_n=2, max_T=3, max_d=2, unique_opt=False))
def test_lemma7_never_violated(data):
    with working_precision(25) as prec:
        out = lemma7.evaluate(data, prec, ladder=LADDER, pis=(Fraction(1, 10), Fraction(1, 1000)))
    verdict = out.decide()
    if verdict == "VIOLATED":
        path = save_failure(data, "mmts.lemma7")
        raise AssertionError(f"counterexample saved to {path}")
    assert verdict in ("HOLDS", "INCONCLUSIVE", "NOT_APPLICABLE")
    if verdict == "NOT_APPLICABLE":
        assert any(not h.met for h in out.hypotheses)
