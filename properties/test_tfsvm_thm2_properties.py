"""tfsvm.thm2 on hypothesis-generated datasets at the edges (T = 2, n = 1, near-tied scores, tiny margins, queries
of rank 1): the W and (K,Q) regularisation paths never answer VIOLATED (they may be INCONCLUSIVE over a short range,
or NOT_APPLICABLE when Att-SVM is infeasible)."""
from hypothesis import given
from hypothesis import strategies as st

import lemmas.tfsvm.thm2 as T
from properties.strategies import datasets, examples, save_failure
from verify.numbers.precision import working_precision


@st.composite
def edge_data(draw):
    data = draw(datasets(max_n=2, max_T=3, max_d=2))
    if draw(st.booleans()):  # one shared query: rank Z = 1
        z = [list(data.X[0][0])] * data.n
        if any(z[0]):
            data = data.replace(z=z)
    return data


@examples(6)
@given(edge_data())
def test_thm2_never_violated(data):
    with working_precision(25) as prec:
        out = T.evaluate(data, prec, radii_w=("1", "3", "10", "30"), radii_kq=("1", "3", "10", "30"), starts=1,
                         figure=False)
    if out.decide() == "VIOLATED":
        raise AssertionError(f"counterexample saved to {save_failure(data, 'tfsvm.thm2')}")
