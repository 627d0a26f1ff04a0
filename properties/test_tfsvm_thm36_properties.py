"""tfsvm Theorems 3 and 6 on generated data, at the edges (T = 2, n = 1, near-tied scores, tiny gaps,
queries of rank 1).

* Theorem 3 is never VIOLATED on data meeting B.2 with a feasible Att-SVM; its certified part (1) always
  HOLDS (short GD runs may leave the rules of (2) undecided: INCONCLUSIVE is allowed, VIOLATED is not);
* a rule failure of (2) is confirmed only beyond the descent lemma's budget, so a short run never fails;
* Theorem 6: the closed form of ∇L(0) agrees with the engine's gradient at 0, Assumption C's certified signs
  agree with a float64 evaluation, and seeded data meeting C (n = 1, T = 2 included) is never VIOLATED.
"""
from fractions import Fraction

from hypothesis import assume, given
from hypothesis import strategies as st

from lemmas.tfsvm import thm3, thm6
from properties.strategies import exact_rationals, examples, save_failure
from verify import Dataset
from verify.geometry.stationarity import gmm
from verify.kit.good_start import c_margins, good_start_dataset, gradient_at_zero
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import working_precision

rationals = exact_rationals(-3, 3, 8)


@st.composite
def w_datasets(draw):
    """Assumption B.2 exactly (the last coordinate carries the score, gap 1/1000 … 3), random queries, or
    every query a multiple of the first (rank 1)."""
    n = draw(st.integers(1, 2))
    T = draw(st.integers(2, 3))
    d = draw(st.integers(1, 3))
    X = []
    for _ in range(n):
        opt = draw(st.integers(0, T - 1))
        base, gap = draw(rationals), draw(st.sampled_from([Fraction(1, 1000), Fraction(1, 2), Fraction(3)]))
        X.append([[draw(rationals) for _ in range(d - 1)] + [base + gap if t == opt else base] for t in range(T)])
    z0 = [draw(rationals) for _ in range(d)]
    rank_one = draw(st.booleans())
    z = [z0] + [[draw(st.sampled_from([-2, 1, 3])) * x for x in z0] if rank_one else [draw(rationals) for _ in range(d)]
                for _ in range(n - 1)]
    assume(all(any(zi) for zi in z))
    return Dataset.make(X=X, Y=[1] * n, v=[0] * (d - 1) + [1], z=z, name="hypothesis-W")


@examples(10)
@given(w_datasets())
def test_thm3_never_violated(data):
    with working_precision(25):
        assume(gmm(data, "W", 25).status == "optimal")
    with working_precision(25) as prec:
        out = thm3.evaluate(data, prec, lengths=(60,), figure=False)
    verdict = out.decide()
    if verdict == "VIOLATED":
        raise AssertionError(f"counterexample saved to {save_failure(data, 'tfsvm.thm3')}")
    assert verdict in ("HOLDS", "INCONCLUSIVE"), [(e.quantity, e.decide(), e.note) for e in out.evidence]
    part1 = [e for e in out.evidence if "adversarial points" in e.quantity or "over the ball" in e.quantity]
    assert part1 and all(e.decide() is True and e.certified for e in part1)


# ----- Theorem 6: Assumption C and the first step ----------------------------------------------------------------
@examples(25)
@given(w_datasets(), st.booleans())
def test_closed_form_gradient_at_zero_and_c_signs(data, flip):
    """The closed form of ∇L(0) (uniform attention) overlaps the engine's gradient at 0, and each C margin's
    certified sign agrees with a float64 evaluation of the engine's gradient wherever that is not tiny."""
    if flip:  # mixed labels: scores of both signs
        data = data.replace(Y=[(-1) ** i for i in range(data.n)])
    with working_precision(25):
        g = LinearLogitModel.from_dataset(data, "W").grad([0] * data.d ** 2)
        closed = gradient_at_zero(data)
        assert all(a.overlaps(b) for a, b in zip(closed, g))
        if not all(len(o) == 1 for o in data.optimal_tokens()):
            return
        feats = features(data, "W")
        for i, t, m in c_margins(data):
            o = data.optimal_tokens()[i][0]
            fl = sum((float(a) - float(b)) * float(x.mid()) for a, b, x in zip(feats[i][t], feats[i][o], g))
            if abs(fl) > 1e-9:
                assert (m > 0) == (fl > 0) and (m < 0) == (fl < 0), (i, t, m, fl)


@examples(4)
@given(st.integers(0, 500), st.sampled_from([(1, 2, 2), (1, 3, 2), (2, 2, 1), (2, 3, 2)]))
def test_thm6_never_violated_under_c(seed, shape):
    """Seeded data meeting C (n = 1 and T = 2 included): W-GD from 0 then the flow never settles elsewhere."""
    with working_precision(25) as prec:
        data = good_start_dataset(seed, *shape)
        out = thm6.evaluate(data, prec, gd_steps=50, radii=("1", "3", "10", "30", "100"), figure=False)
    verdict = out.decide()
    if verdict == "VIOLATED":
        raise AssertionError(f"counterexample saved to {save_failure(data, 'tfsvm.thm6')}")
    assert verdict in ("HOLDS", "INCONCLUSIVE"), [(e.quantity, e.decide(), e.note) for e in out.evidence]
