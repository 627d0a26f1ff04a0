"""mmts.thm3 and mmts.thm3.cone on hypothesis-generated datasets: never VIOLATED with the derived μ
and the witnessed R. Two strategies: the shared edge-case datasets (near-ties, tiny margins, scales
10⁻³ … 10³, T = 2, n = 1), where witnesses R are often huge and the step budget runs out
(INCONCLUSIVE, never a false HOLDS), and small integer data where the paths reach their target and
the claims usually HOLD. Kept fast: short GD runs, paths to 2–3·R, a small step budget."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lemmas.mmts import cone_invariance, thm3
from properties.strategies import datasets, save_failure
from verify.numbers.precision import working_precision
from verify.search.strategies_cones import small_integer_datasets


def _check(out, data, claim_id):
    verdict = out.decide()
    if verdict == "VIOLATED":
        path = save_failure(data, claim_id)
        raise AssertionError(f"counterexample saved to {path}")
    assert verdict in ("HOLDS", "INCONCLUSIVE", "NOT_APPLICABLE")


EDGES = datasets(max_n=2, max_T=3, max_d=2, unique_opt=False)
SMALL = small_integer_datasets(max_n=2, max_T=3, bound=2, name="hypothesis-small")
CASES = {  # claim id: (module, strategy, options of its evaluate)
    "thm3.cone-edges": (cone_invariance, EDGES, dict(gd_steps=20, max_steps=800, depth=2)),
    "thm3.cone-small": (cone_invariance, SMALL, dict(gd_steps=30, max_steps=1500, depth=2)),
    "thm3-edges": (thm3, EDGES, dict(gd_steps=10, max_steps=800, depth=3)),
    "thm3-small": (thm3, SMALL, dict(gd_steps=10, max_steps=1500, depth=3)),
}


@pytest.mark.parametrize("case", sorted(CASES))
@given(draw=st.data())
def test_never_violated(case, draw):
    module, strategy, options = CASES[case]
    data = draw.draw(strategy)
    with working_precision(25) as prec:
        out = module.evaluate(data, prec, **options)
    _check(out, data, module.CLAIM.id)
