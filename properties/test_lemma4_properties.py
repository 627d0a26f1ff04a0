"""mmts.lemma4 (p^mm is a global descent direction) and mmts.lemma2 on hypothesis-generated datasets.

Datasets meeting Assumption B *exactly* at its edges: n = 1…3, T = 2 (B automatic) … 4, key dimension
1…3, keys at scales 10⁻³ … 10³, score gaps from 10⁻⁶ (near-tie) to 10³, mixed labels; only those with a
feasible ATT-SVM(opt) are kept (else the claim is NOT_APPLICABLE by design). The check must never be
VIOLATED there; a failure is saved as replayable dataset JSON.
"""
from fractions import Fraction

from hypothesis import assume, given
from hypothesis import strategies as st

from lemmas.mmts import lemma2, lemma4
from properties.strategies import exact_rationals, save_failure
from verify import Dataset
from verify.geometry.stationarity import gmm
from verify.numbers.precision import working_precision

rationals = exact_rationals(-3, 3, 8)
key_scales = st.sampled_from([Fraction(1, 1000), Fraction(1), Fraction(7, 3), Fraction(1000)])
gaps = st.sampled_from([Fraction(1, 10**6), Fraction(1, 2), Fraction(1), Fraction(1000)])
#: the box ladder's budget per rung here (the claim's default is 200): every example still runs the region search
#: (a certain violation there would refute), on smaller boxes — the search itself is tested in tests/test_regions*.py
REGION_BOXES = 20


@st.composite
def assumption_b_datasets(draw, max_n=3, max_T=4, max_dk=3):
    n = draw(st.integers(1, max_n))
    T = draw(st.integers(2, max_T))
    dk = draw(st.integers(1, max_dk))
    sc = draw(key_scales)
    keys = [[[draw(rationals) * sc for _ in range(dk)] for _ in range(T)] for _ in range(n)]
    Y = [draw(st.sampled_from([-1, 1])) for _ in range(n)]
    X = []
    for i in range(n):
        opt = draw(st.integers(0, T - 1))
        base, gap = draw(rationals), draw(gaps)
        X.append([keys[i][t] + [Y[i] * (base + gap if t == opt else base)] for t in range(T)])
    v = [0] * dk + [1]
    return Dataset.make(X=X, Y=Y, v=v, K=keys, name="hypothesis-B")


def feasible(data) -> bool:
    return gmm(data, "p", 30).status == "optimal"


@given(assumption_b_datasets())
def test_lemma4_never_violated(data):
    assume(feasible(data))
    with working_precision(25) as prec:
        out = lemma4.evaluate(data, prec, scales=("0", "1/10", "1", "10", "100", "1000"), random_dirs=2,
                              figure=False, region_boxes=REGION_BOXES)
    verdict = out.decide()
    if verdict == "VIOLATED":
        raise AssertionError(f"counterexample saved to {save_failure(data, 'mmts.lemma4')}")
    assert verdict == "HOLDS", [(e.quantity, e.decide(), e.note) for e in out.evidence]


@given(assumption_b_datasets(max_n=2, max_T=2))
def test_lemma4_T2_ratio_is_exactly_one_where_all_tokens_support(data):
    """T = 2: every non-optimal token is a support token, so min ratio = 1 (attained, not exceeded)."""
    assume(feasible(data))
    with working_precision(25) as prec:
        out = lemma4.evaluate(data, prec, scales=("1", "10"), random_dirs=1, figure=False, region_boxes=REGION_BOXES)
    assert out.decide() == "HOLDS"
    excess = out.evidence[1].value  # min over the probes of −⟨∇L, p^mm⟩/bound − 1
    assert excess >= 0 or abs(excess) < 1e-20


@st.composite
def positive_label_datasets(draw):
    n = draw(st.integers(1, 3))
    T = draw(st.integers(2, 4))
    d = draw(st.integers(1, 3))
    sc = draw(key_scales)
    X = [[[draw(rationals) * sc for _ in range(d)] for _ in range(T)] for _ in range(n)]
    v = [draw(rationals) for _ in range(d)]
    if not any(v):
        v[0] = Fraction(1)
    data = Dataset.make(X=X, Y=[1] * n, v=v, name="hypothesis-positive")
    assume(all(len(o) == 1 for o in data.optimal_tokens()))
    return data


@given(positive_label_datasets())
def test_lemma2_certificate_always_works_under_its_hypotheses(data):
    """Lemma 2 with W = I: positive labels and strict optimal tokens ⇒ feasible, margins of p̂ ≥ 1."""
    with working_precision(20) as prec:
        out = lemma2.evaluate(data, prec)
    verdict = out.decide()
    if verdict == "VIOLATED":
        raise AssertionError(f"counterexample saved to {save_failure(data, 'mmts.lemma2')}")
    assert verdict == "HOLDS"
