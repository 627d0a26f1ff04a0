"""Hypothesis strategies for ``verify hunt`` on the cone claims (mmts Theorem 3 and its Step 3)."""
from __future__ import annotations


def small_integer_datasets():
    """Small integer tokens (n ≤ 3, T ≤ 4, d ∈ {2, 3}, entries in [−3, 3], keys = tokens), well-conditioned
    enough for the trajectory checks to reach their targets within the step budget."""
    from hypothesis import strategies as st

    from verify.data.dataset import Dataset

    @st.composite
    def small(draw):
        n, T, d = draw(st.integers(1, 3)), draw(st.integers(2, 4)), draw(st.integers(2, 3))
        ints = st.integers(-3, 3)
        X = [[[draw(ints) for _ in range(d)] for _ in range(T)] for _ in range(n)]
        v = [draw(ints) for _ in range(d)]
        if not any(v):
            v[0] = 1
        Y = [draw(st.sampled_from([-1, 1])) for _ in range(n)]
        return Dataset.make(X=X, Y=Y, v=v, name="hunt")

    return small()
