"""mmts.thm2 (norm diverges; n = 1 direction → p^mm) and mmts.thm2.stationary on generated data meeting
Assumption B exactly (the strategy of the Lemma 4 properties): never VIOLATED."""
from hypothesis import given

from lemmas.mmts import thm2, thm2_stationary
from properties.strategies import examples, save_failure
from properties.test_lemma4_properties import assumption_b_datasets
from verify.numbers.precision import working_precision


@examples(6)
@given(assumption_b_datasets(max_n=2, max_T=3, max_dk=2))
def test_thm2_and_stationary_never_violated(data):
    with working_precision(20) as prec:
        for claim, out in (("mmts.thm2.stationary", thm2_stationary.evaluate(data, prec, steps=200, figure=False)),
                           ("mmts.thm2", thm2.evaluate(data, prec, steps=200, figure=False))):
            verdict = out.decide()
            if verdict == "VIOLATED":
                raise AssertionError(f"{claim}: counterexample saved to {save_failure(data, claim)}")
            assert verdict in ("HOLDS", "INCONCLUSIVE", "NOT_APPLICABLE")
