"""tfsvm Lemmas 9, 11, 12, the aux fact on independent queries and Lemma 10 at n = 1, on hypothesis-generated datasets
at the edges (T = 2, n = 1, near-tied scores, tiny margins, one shared query of rank 1): the true statements are never
VIOLATED (Lemma 10 is FLAWED for n ≥ 2; what survives, n = 1, is tested)."""
from hypothesis import assume, given
from hypothesis import strategies as st

from lemmas.tfsvm import aux_overparam, lemma9, lemma10, lemma11, lemma12
from properties.strategies import datasets, examples, save_failure
from verify.numbers.precision import working_precision


@st.composite
def with_queries(draw, **kw):
    """Self-attention (z_i = x_i1), one shared query (rank Z = 1) or a query per sequence."""
    data = draw(datasets(**kw))
    kind = draw(st.sampled_from(("self", "shared", "own")))
    if kind == "self":
        return data
    z = [list(data.X[0][-1])] * data.n if kind == "shared" else [list(seq[-1]) for seq in data.X]
    if not any(x for row in z for x in row):
        return data
    return data.replace(z=z)


@st.composite
def equal_scores(draw, max_T=3, max_d=2):
    """n = 1 with Assumption B.2: the non-optimal tokens share one score (v = e₁, their first coordinate equal)."""
    data = draw(with_queries(max_n=1, max_T=max_T, max_d=max_d))
    X = [list(x) for x in data.X[0]]
    top = max(x[0] for x in X) + 1
    X[0][0] = top
    for x in X[1:]:
        x[0] = top - 1
    return data.replace(X=[X], v=[1] + [0] * (data.d - 1), Y=[1])


def _never_violated(claim_id, out, data):
    if out.decide() == "VIOLATED":
        raise AssertionError(f"counterexample saved to {save_failure(data, claim_id)}")


@examples(15)
@given(with_queries(max_n=2, max_T=3, max_d=2))
def test_lemma9_never_violated(data):
    with working_precision(25) as prec:
        out = lemma9.evaluate(data, prec, scales=("0", "1", "10", "1000"), random_dirs=1)
    _never_violated("tfsvm.lemma9", out, data)


@examples(15)
@given(with_queries(max_n=3, max_T=3, max_d=2, unique_opt=False))
def test_overparam_never_violated(data):
    with working_precision(25) as prec:
        out = aux_overparam.evaluate(data, prec, scales=("0", "1", "100"), random_dirs=1)
    _never_violated("tfsvm.aux.overparam-no-stationary", out, data)


@examples(8)
@given(with_queries(max_n=2, max_T=3, max_d=2))
def test_lemma12_never_violated(data):
    with working_precision(25) as prec:
        out = lemma12.evaluate(data, prec, factors=(1,), random_dirs=1)
    _never_violated("tfsvm.lemma12", out, data)


@examples(8)
@given(with_queries(max_n=2, max_T=3, max_d=2))
def test_lemma11_never_violated(data):
    with working_precision(25) as prec:
        out = lemma11.evaluate(data, prec, pis=("1",), factors=(1,), random_dirs=1)
    _never_violated("tfsvm.lemma11", out, data)


@examples(8)
@given(equal_scores())
def test_lemma10_at_n1_never_violated(data):
    assume(all(len(o) == 1 for o in data.optimal_tokens()))
    with working_precision(25) as prec:
        out = lemma10.evaluate(data, prec, pis=("1",), factors=(1,), random_dirs=1)
    _never_violated("tfsvm.lemma10", out, data)
