"""Key Lemma (mmts.lemma3) on hypothesis-generated datasets: never VIOLATED."""
from hypothesis import given

from lemmas.mmts import lemma3
from properties.strategies import datasets, save_failure
from verify.numbers.precision import working_precision


@given(datasets())
def test_key_lemma_never_violated(data):
    with working_precision(25) as prec:
        out = lemma3.evaluate(data, prec, q_count=2)
    verdict = out.decide()
    if verdict == "VIOLATED":
        path = save_failure(data, "mmts.lemma3")
        raise AssertionError(f"counterexample saved to {path}")
    assert verdict in ("HOLDS", "INCONCLUSIVE")  # INCONCLUSIVE only where the bound is attained exactly
