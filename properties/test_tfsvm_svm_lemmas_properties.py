"""tfsvm Lemmas 2, 3, 8, 15 and aux.no-spurious-lmm on hypothesis-generated datasets at the edges (T = 2, n = 1,
near-tied scores and near-copied tokens — tiny margins —, queries of rank 1 or the first token): the true statements
are never VIOLATED."""
from hypothesis import given
from hypothesis import strategies as st

from lemmas.tfsvm import aux_no_spurious, lemma2, lemma3, lemma8, lemma15
from properties.strategies import datasets, examples, save_failure
from verify.numbers.precision import working_precision


@st.composite
def with_queries(draw, **kw):
    """Self-attention (z_i = x_i1), one shared query (rank Z = 1) or a query per sequence."""
    data = draw(datasets(**kw))
    kind = draw(st.sampled_from(("self", "shared", "own")))
    z = None if kind == "self" else [list(data.X[0][-1])] * data.n if kind == "shared" else [list(s[-1]) for s in data.X]
    if z is None or not any(x for row in z for x in row):
        return data
    return data.replace(z=z)


def _never_violated(claim_id, out, data):
    if out.decide() == "VIOLATED":
        raise AssertionError(f"counterexample saved to {save_failure(data, claim_id)}")


@examples(15)
@given(with_queries(max_n=2, max_T=3, max_d=2, unique_opt=False))
def test_no_spurious_lmm_never_violated(data):
    with working_precision(25) as prec:
        out = aux_no_spurious.evaluate(data, prec)
    _never_violated("tfsvm.aux.no-spurious-lmm", out, data)


@examples(10)
@given(with_queries(max_n=2, max_T=3, max_d=2, unique_opt=False))
def test_lemma2_never_violated(data):
    with working_precision(25) as prec:
        out = lemma2.evaluate(data, prec, losses=("logistic",))
    _never_violated("tfsvm.lemma2", out, data)


@examples(10)
@given(with_queries(max_n=2, max_T=3, max_d=2, unique_opt=False))
def test_lemma8_never_violated(data):
    with working_precision(25) as prec:
        out = lemma8.evaluate(data, prec, steps=15)
    _never_violated("tfsvm.lemma8", out, data)


@examples(10)
@given(with_queries(max_n=2, max_T=3, max_d=3, unique_opt=False))
def test_lemma15_never_violated(data):
    with working_precision(25) as prec:
        out = lemma15.evaluate(data, prec)
    _never_violated("tfsvm.lemma15", out, data)


@examples(5)
@given(with_queries(max_n=2, max_T=3, max_d=2))
def test_lemma3_never_violated(data):
    with working_precision(25) as prec:
        out = lemma3.evaluate(data, prec, m=1)
    _never_violated("tfsvm.lemma3", out, data)
