"""Property search for mmts.lemma1: on random small datasets, random u and W(0), the two GD runs
agree (p(t) = W(t)u); with the p-step η instead of η‖u‖² (‖u‖² ≠ 1) they visibly disagree."""
from fractions import Fraction

from flint import arb
from hypothesis import given
from hypothesis import strategies as st

from lemmas.mmts import lemma1
from properties.strategies import exact_rationals
from verify import Dataset
from verify.models.heads import HEADS, head_model
from verify.numbers.precision import to_arb, working_precision

DPS = 30
small = exact_rationals(-3, 3, 8)


@st.composite
def lemma1_case(draw):
    n = draw(st.integers(1, 3))
    T = draw(st.integers(2, 4))
    d = draw(st.integers(1, 3))
    X = [[[draw(small) for _ in range(d)] for _ in range(T)] for _ in range(n)]
    Y = [draw(st.sampled_from([1, -1])) for _ in range(n)]
    v = [draw(small) for _ in range(d)]
    u = [draw(small) for _ in range(d)]
    W0 = [[draw(exact_rationals(-1, 1, 10)) for _ in range(d)] for _ in range(d)]
    loss = draw(st.sampled_from(["logistic", "exponential", "correlation"]))
    head = draw(st.sampled_from(HEADS))
    data = Dataset.make(X=[[[str(x) for x in tok] for tok in seq] for seq in X], Y=Y, v=[str(x) for x in v],
                        u=[str(x) for x in u], name="prop")
    return data, W0, loss, head


@given(lemma1_case())
def test_identity_holds(case):
    """Default steps (≤ 1/(‖u‖²L̃_p), Lemma 6's rule for both runs): the runs agree to 10^-dps."""
    data, W0, loss, head = case
    with working_precision(DPS) as prec:
        out = lemma1.evaluate(data, prec, steps=120, W0=W0, loss=loss, head=head)
    assert out.decide() == "HOLDS", [(e.quantity, e.value) for e in out.evidence]


@given(lemma1_case())
def test_large_steps_are_never_a_false_violation(case):
    """Steps far above 1/L (unstable GD) may amplify rounding until the independent runs drift apart;
    the certified induction step must then make the verdict INCONCLUSIVE, never VIOLATED."""
    data, W0, loss, head = case
    with working_precision(DPS) as prec:
        out = lemma1.evaluate(data, prec, steps=120, W0=W0, loss=loss, head=head, eta0=Fraction(1, 2))
    assert out.decide() in ("HOLDS", "INCONCLUSIVE")
    assert out.evidence[0].decide() is True  # the induction step


@given(lemma1_case())
def test_wrong_step_is_caught(case):
    """p(1) − W(1)u = η(‖u‖² − 1)∇L̃(p(0)): whenever that is visibly nonzero the check must fail."""
    data, W0, loss, head = case
    u = data.u
    u_sq = sum(x * x for x in u)
    eta0 = Fraction(1, 4)
    with working_precision(DPS) as prec:
        model = head_model(data.X, data, loss, head)
        d = data.d
        p0 = [to_arb(sum((W0[a][b] * u[b] for b in range(d)), Fraction(0))) for a in range(d)]
        g = model.grad(p0)
        first_gap = to_arb(eta0 * lemma1.STEP_CYCLE[0] * abs(u_sq - 1)) * max(abs(x) for x in g)
        out = lemma1.evaluate(data, prec, steps=5, W0=W0, loss=loss, head=head, eta0=eta0, p_step_factor=1)
        if first_gap > arb(10) ** -(DPS - 3):
            assert out.decide() == "VIOLATED"
