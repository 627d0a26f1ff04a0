"""No finite stationary points (mmts.thm2.stationary) on generated data.

* the certified ball bound c(R) is never above ‖∇L(θ)‖ at points of the ball (soundness of the
  certificate that rules out stationary points in ‖θ‖ ≤ R);
* the exact ∇L(0) test agrees with the ball-arithmetic gradient at 0.
(tfsvm Theorem 3, the W-parameterisation: properties/test_tfsvm_thm36_properties.py.)
"""

from flint import arb
from hypothesis import assume, given
from hypothesis import strategies as st

from properties.strategies import exact_rationals
from properties.test_lemma4_properties import assumption_b_datasets, feasible
from verify import Dataset
from verify.geometry.stationarity import assumption_b, ball_lower_bound, exact_gradient_at_zero, gmm
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import to_arb, working_precision


@given(assumption_b_datasets(max_n=2, max_T=3, max_dk=2), st.sampled_from([1, 3, 10]),
       st.lists(exact_rationals(-1, 1, 16), min_size=3, max_size=3))
def test_ball_lower_bound_is_sound(data, R, raw):
    assume(feasible(data))
    dk = len(data.keys()[0][0])
    p = [x * R for x in raw[:dk]]
    assume(sum(x * x for x in p) <= R * R)
    with working_precision(25):
        q = gmm(data, "p", 25).solution
        m = LinearLogitModel.from_dataset(data, "p")
        c = ball_lower_bound(m, q, R, assumption_b(data).gaps)
        th = [to_arb(x) for x in p]
        g = m.grad(th, m.states(th))
        gn = sum((x * x for x in g), arb(0)).sqrt()
        assert c > 0
        assert not (c > gn), (c, gn, p)


@given(st.integers(1, 3), st.integers(2, 4), st.integers(1, 2), st.data())
def test_exact_zero_gradient_agrees_with_balls(n, T, d, draw):
    X = [[[draw.draw(st.integers(-2, 2)) for _ in range(d)] for _ in range(T)] for _ in range(n)]
    v = [draw.draw(st.integers(-2, 2)) for _ in range(d)]
    assume(any(v))
    data = Dataset.make(X=X, Y=[1] * n, v=v, name="zero-grad")
    zero, _ = exact_gradient_at_zero(data, "p")
    with working_precision(25):
        m = LinearLogitModel.from_dataset(data, "p")
        g = m.grad([arb(0)] * d)
        if zero:
            assert all(x.contains(0) for x in g)
        if any(not x.contains(0) for x in g):
            assert not zero
