"""No finite stationary points (mmts.thm2.stationary, tfsvm.thm3.stationary) on generated data.

* the certified ball bound c(R) is never above ‖∇L(θ)‖ at points of the ball (soundness of the
  certificate that rules out stationary points in ‖θ‖ ≤ R);
* the W-parameterisation check (tfsvm Theorem 3) is never VIOLATED on data meeting B.2 with a
  feasible Att-SVM (random queries, d = 1…3, T = 2…3, n = 1…2);
* the exact ∇L(0) test agrees with the ball-arithmetic gradient at 0.
"""
from fractions import Fraction

from flint import arb
from hypothesis import assume, given
from hypothesis import strategies as st

from lemmas.tfsvm import thm3_stationary as tstat
from properties.strategies import save_failure
from properties.test_lemma4_properties import assumption_b_datasets, feasible, rationals
from verify import Dataset
from verify.geometry.stationarity import assumption_b, ball_lower_bound, exact_gradient_at_zero, gmm
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import to_arb, working_precision


@given(assumption_b_datasets(max_n=2, max_T=3, max_dk=2), st.sampled_from([1, 3, 10]),
       st.lists(st.fractions(min_value=-1, max_value=1, max_denominator=16), min_size=3, max_size=3))
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


@st.composite
def w_datasets(draw):
    n = draw(st.integers(1, 2))
    T = draw(st.integers(2, 3))
    d = draw(st.integers(1, 3))
    X = []
    for _ in range(n):
        opt = draw(st.integers(0, T - 1))
        base, gap = draw(rationals), draw(st.sampled_from([Fraction(1, 1000), Fraction(1, 2), Fraction(3)]))
        seq = []
        for t in range(T):
            tok = [draw(rationals) for _ in range(d - 1)] + [base + gap if t == opt else base]
            seq.append(tok)
        X.append(seq)
    z = [[draw(rationals) for _ in range(d)] for _ in range(n)]
    assume(all(any(zi) for zi in z))
    return Dataset.make(X=X, Y=[1] * n, v=[0] * (d - 1) + [1], z=z, name="hypothesis-W")


@given(w_datasets())
def test_tfsvm_no_stationary_never_violated(data):
    with working_precision(25):
        assume(gmm(data, "W", 25).status == "optimal")
    with working_precision(25) as prec:
        out = tstat.evaluate(data, prec, steps=30, figure=False)
    verdict = out.decide()
    if verdict == "VIOLATED":
        raise AssertionError(f"counterexample saved to {save_failure(data, 'tfsvm.thm3.stationary')}")
    assert verdict == "HOLDS", [(e.quantity, e.decide(), e.note) for e in out.evidence]


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
