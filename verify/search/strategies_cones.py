"""Hypothesis strategies for ``verify hunt`` on the cone claims (mmts Theorem 3 and its Step 3)."""
from __future__ import annotations


def small_integer_datasets(max_n: int = 3, max_T: int = 4, bound: int = 3, name: str = "hunt"):
    """Small integer tokens (n ≤ max_n, T ≤ max_T, d ∈ {2, 3}, entries in [−bound, bound], keys = tokens, an
    integer head), well-conditioned enough for the trajectory checks to reach their targets within the
    step budget."""
    from hypothesis import strategies as st

    from verify.data.dataset import Dataset

    @st.composite
    def small(draw):
        n, T, d = draw(st.integers(1, max_n)), draw(st.integers(2, max_T)), draw(st.integers(2, 3))
        ints = st.integers(-bound, bound)
        X = [[[draw(ints) for _ in range(d)] for _ in range(T)] for _ in range(n)]
        v = [draw(ints) for _ in range(d)]
        if not any(v):
            v[0] = 1
        Y = [draw(st.sampled_from([-1, 1])) for _ in range(n)]
        return Dataset.make(X=X, Y=Y, v=v, name=name)

    return small()
