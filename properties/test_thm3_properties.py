"""mmts.thm3 and mmts.thm3.cone on hypothesis-generated datasets: never VIOLATED with the derived μ
and the witnessed R. Two strategies: the shared edge-case datasets (near-ties, tiny margins, scales
10⁻³ … 10³, T = 2, n = 1), where witnesses R are often huge and the step budget runs out
(INCONCLUSIVE, never a false HOLDS), and small integer data. Kept fast: short GD runs, paths to 2–3·R,
a small step budget. What the examples decide (ci profile, measured): thm3.cone HOLDS on 19 of 25 of
either strategy (the rest NOT_APPLICABLE); thm3 HOLDS on 4 of 25 edge and none of the small examples —
a path to 3R is too short for ``rules.decays`` to read 1 − corr → 0 at its derived rate, so thm3 ends
INCONCLUSIVE on the direction item there and these searches test its refutable parts (no stationary
point on the cone grid, GD and the flow staying in C_{μ,R}, the selected tokens). The direction itself
is decided on longer paths: Fig. 1(b) to ‖p‖ = 300 and the defaults at depth 20 (tests/test_thm3.py)."""
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
