"""mmts.thm3 and mmts.thm3.cone on hypothesis-generated datasets: never VIOLATED with the derived μ
and the witnessed R. Two strategies: the shared edge-case datasets (near-ties, tiny margins, scales
10⁻³ … 10³, T = 2, n = 1), where witnesses R are often huge and the step budget runs out
(INCONCLUSIVE, never a false HOLDS), and small integer data where the paths reach their target and
the claims usually HOLD. Kept fast: short GD runs, paths to 2–3·R, a small step budget."""
from hypothesis import given
from hypothesis import strategies as st

from lemmas.mmts import cone_invariance, thm3
from properties.strategies import datasets, save_failure
from verify import Dataset
from verify.numbers.precision import working_precision


@st.composite
def small_integer_datasets(draw):
    """n ≤ 2, T ≤ 3, d ∈ {2, 3}, integer tokens in [−2, 2] (keys = tokens), integer head: well-conditioned."""
    n = draw(st.integers(1, 2))
    T = draw(st.integers(2, 3))
    d = draw(st.integers(2, 3))
    ints = st.integers(-2, 2)
    X = [[[draw(ints) for _ in range(d)] for _ in range(T)] for _ in range(n)]
    v = [draw(ints) for _ in range(d)]
    if not any(v):
        v[0] = 1
    Y = [draw(st.sampled_from([-1, 1])) for _ in range(n)]
    return Dataset.make(X=X, Y=Y, v=v, name="hypothesis-small")


def _check(out, data, claim_id):
    verdict = out.decide()
    if verdict == "VIOLATED":
        path = save_failure(data, claim_id)
        raise AssertionError(f"counterexample saved to {path}")
    assert verdict in ("HOLDS", "INCONCLUSIVE", "NOT_APPLICABLE")


@given(datasets(max_n=2, max_T=3, max_d=2, unique_opt=False))
def test_cone_invariance_never_violated_at_the_edges(data):
    with working_precision(25) as prec:
        out = cone_invariance.evaluate(data, prec, gd_steps=20, max_steps=800, depth=2)
    _check(out, data, "mmts.thm3.cone")


@given(small_integer_datasets())
def test_cone_invariance_never_violated_small(data):
    with working_precision(25) as prec:
        out = cone_invariance.evaluate(data, prec, gd_steps=30, max_steps=1500, depth=2)
    _check(out, data, "mmts.thm3.cone")


@given(datasets(max_n=2, max_T=3, max_d=2, unique_opt=False))
def test_thm3_never_violated_at_the_edges(data):
    with working_precision(25) as prec:
        out = thm3.evaluate(data, prec, gd_steps=10, max_steps=800, depth=3)
    _check(out, data, "mmts.thm3")


@given(small_integer_datasets())
def test_thm3_never_violated_small(data):
    with working_precision(25) as prec:
        out = thm3.evaluate(data, prec, gd_steps=10, max_steps=1500, depth=3)
    _check(out, data, "mmts.thm3")
