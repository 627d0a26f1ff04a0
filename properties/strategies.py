"""Hypothesis strategies for datasets at the edges of the claims' hypotheses.

Exact rationals throughout (what hypothesis finds replays exactly with ``--data``): near-tied scores,
tiny margins, nearly collinear keys, large and small scales, T = 2, d = 1, n = 1.
"""
from fractions import Fraction

from hypothesis import strategies as st

from verify import Dataset

small_rationals = st.fractions(min_value=-3, max_value=3, max_denominator=12)
scales = st.sampled_from([Fraction(1, 1000), Fraction(1), Fraction(7, 3), Fraction(1000)])


@st.composite
def datasets(draw, max_n=3, max_T=4, max_d=3, unique_opt=True, positive_labels=False):
    n = draw(st.integers(1, max_n))
    T = draw(st.integers(2, max_T))
    d = draw(st.integers(1, max_d))
    sc = draw(scales)
    X = [[[draw(small_rationals) * sc for _ in range(d)] for _ in range(T)] for _ in range(n)]
    v = [draw(small_rationals) for _ in range(d)]
    if not any(v):
        v[0] = Fraction(1)
    Y = [1] * n if positive_labels else [draw(st.sampled_from([-1, 1])) for _ in range(n)]
    if draw(st.booleans()):  # near-tie: copy a token and nudge it by a tiny amount
        i, t = draw(st.integers(0, n - 1)), draw(st.integers(1, T - 1))
        X[i][t] = [x + Fraction(1, 10**6) for x in X[i][0]]
    data = Dataset.make(X=X, Y=Y, v=v, name="hypothesis")
    if unique_opt:
        from hypothesis import assume

        assume(all(len(o) == 1 for o in data.optimal_tokens()))
    return data


def save_failure(data: Dataset, claim_id: str) -> str:
    """Write a failing dataset where ``--data`` can replay it; returns the path."""
    import os

    folder = os.path.join("reports", "counterexamples")
    path = os.path.join(folder, f"{claim_id}-{abs(hash(data.to_json())) % 10**8}.json")
    data.save(path)
    return path
