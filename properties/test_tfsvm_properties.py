"""tfsvm claims of the first part on hypothesis-generated datasets at the edges (T = 2, n = 1, near-tied scores,
queries of rank 1 or the first token): the true statements are never VIOLATED."""
from hypothesis import given
from hypothesis import strategies as st

from lemmas.tfsvm import aux_feasibility, aux_gradient, aux_invariances, lemma1, lemma4, lemma7, lemma17, thm1
from properties.strategies import datasets, examples, save_failure
from verify.numbers.precision import working_precision


@st.composite
def with_queries(draw, **kw):
    """A dataset with self-attention (z_i = x_i1), one shared query (rank Z = 1) or a query per sequence."""
    data = draw(datasets(**kw))
    kind = draw(st.sampled_from(("self", "shared", "own")))
    if kind == "self":
        return data
    if kind == "shared":
        z = [list(data.X[0][-1])] * data.n
    else:
        z = [list(seq[-1]) for seq in data.X]
    if not any(x for row in z for x in row):
        return data
    return data.replace(z=z)


def _never_violated(claim_id, out, data):
    if out.decide() == "VIOLATED":
        raise AssertionError(f"counterexample saved to {save_failure(data, claim_id)}")


@given(with_queries(max_n=3, max_T=4, max_d=2))
def test_lemma7_never_violated(data):
    with working_precision(25) as prec:
        out = lemma7.evaluate(data, prec, v_count=2)
    _never_violated("tfsvm.lemma7", out, data)
    assert out.decide() in ("HOLDS", "INCONCLUSIVE", "NOT_APPLICABLE")  # INCONCLUSIVE only at exact attainment


@given(with_queries(max_n=2, max_T=3, max_d=2, unique_opt=False))
def test_invariances_never_violated(data):
    with working_precision(25) as prec:
        out = aux_invariances.evaluate(data, prec, gd_steps=10)
    _never_violated("tfsvm.aux.invariances", out, data)


@examples(10)
@given(with_queries(max_n=2, max_T=3, max_d=2, unique_opt=False))
def test_gradient_identities_never_violated(data):
    with working_precision(25) as prec:
        out = aux_gradient.evaluate(data, prec)
    _never_violated("tfsvm.aux.gradient", out, data)


@examples(10)
@given(with_queries(max_n=2, max_T=3, max_d=2, unique_opt=False))
def test_LW_never_violated(data):
    with working_precision(25) as prec:
        out = lemma4.evaluate(data, prec, parts=("W",), losses=("logistic",), search=False)
    _never_violated("tfsvm.lemma4", out, data)


@examples(10)
@given(with_queries(max_n=2, max_T=3, max_d=3))
def test_lemma1_never_violated(data):
    with working_precision(25) as prec:
        out = lemma1.evaluate(data, prec, nuclear=False)
    _never_violated("tfsvm.lemma1", out, data)


@examples(10)
@given(with_queries(max_n=2, max_T=3, max_d=3, unique_opt=False))
def test_thm1_never_violated(data):
    with working_precision(25) as prec:
        out = thm1.evaluate(data, prec, draws=3)
    _never_violated("tfsvm.thm1", out, data)


@examples(10)
@given(with_queries(max_n=2, max_T=3, max_d=3))
def test_feasibility_criterion_never_violated(data):
    with working_precision(25) as prec:
        out = aux_feasibility.evaluate(data, prec)
    _never_violated("tfsvm.aux.feasibility-criterion", out, data)


@examples(10)
@given(with_queries(max_n=3, max_T=3, max_d=2))
def test_rank_lemma_never_violated(data):
    with working_precision(20) as prec:
        out = lemma17.evaluate(data, prec, instances=5)
    _never_violated("tfsvm.lemma17", out, data)
