"""mmts directional claims (App. B.1, B.2, B.5; Lemmas 5, 8, 9, 10, Theorems 1, 4, 7) on hypothesis-generated keys at
the edges: n = 1, T = 2, keys in ℝ¹ or ℝ², near-tied scores (gap 10⁻⁶) and near-copied keys (tiny margins), and
directions q drawn beside the data — including q with d margins tied by construction (the edge of Lemma 10).

* Lemma 10: |N(q)| ≤ d recomputed here from Definition 3 (selected tokens, margins, the tied minimum) for drawn and
  constructed q whenever the engine says the keys are in general position; the claim HOLDS (certified) exactly then
  and is NOT_APPLICABLE exactly otherwise.
* The other statements are true (SEED+, read in the spec; HOLDS on their defaults) and are never VIOLATED, with
  small budgets (a short radius ladder, one start, one ε and R₀).
"""
from __future__ import annotations

from fractions import Fraction

from hypothesis import assume, event, given
from hypothesis import strategies as st

from lemmas.mmts import lemma5, lemma8, lemma9, lemma10, thm1, thm4, thm7
from properties.strategies import exact_rationals, examples, save_failure
from verify import Dataset
from verify.geometry.directional import general_position
from verify.numbers.precision import working_precision

ZERO = Fraction(0)
coords = exact_rationals(-3, 3, 7)
score_values = exact_rationals(0, 2, 9)


@st.composite
def key_data(draw, max_n=2, max_T=3, max_d=2, n=None, distinct=False):
    """Keys k_it ∈ ℝ^d, tokens (k_it, γ_it), v = e_{d+1}, Y = 1 (scores γ_it = last coordinate); optionally one key a
    near-copy of another (10⁻⁶ apart) and one score 10⁻⁶ above another (near ties)."""
    n = n or draw(st.integers(1, max_n))
    T = draw(st.integers(2, max_T))
    d = draw(st.integers(1, max_d))
    K = [[[draw(coords) for _ in range(d)] for _ in range(T)] for _ in range(n)]
    G = [[draw(score_values) for _ in range(T)] for _ in range(n)]
    if draw(st.booleans()):
        i, t = draw(st.integers(0, n - 1)), draw(st.integers(1, T - 1))
        K[i][t] = [x + Fraction(1, 10**6) for x in K[i][0]]
    if draw(st.booleans()):
        i, t = draw(st.integers(0, n - 1)), draw(st.integers(1, T - 1))
        G[i][t] = G[i][0] + Fraction(1, 10**6)
    if distinct:
        assume(all(len(set(Gi)) == T for Gi in G))
    X = [[k + [g] for k, g in zip(Ki, Gi)] for Ki, Gi in zip(K, G)]
    return Dataset.make(X=X, Y=[1] * n, v=[0] * d + [1], K=K, name="hypothesis-mmts")


def directions(d):
    return st.lists(coords, min_size=d, max_size=d).map(lambda q: q if any(q) else [Fraction(1)] + q[1:])


def _report(data, claim_id, out, allowed):
    decided = out.decision()
    verdict = decided.verdict
    event(f"verdict {verdict}" + (f": {str(decided.reasons[0])[:70]}" if verdict != "HOLDS" and decided.reasons
                                  else ""))
    if verdict not in allowed:
        raise AssertionError(f"{claim_id}: {verdict}; counterexample saved to {save_failure(data, claim_id)}")


def _never_violated(claim_id, out, data):
    _report(data, claim_id, out, ("HOLDS", "INCONCLUSIVE", "NOT_APPLICABLE"))


# ----- Lemma 10: at most d neighbours, recomputed --------------------------------------------------------------
def _dot(a, b) -> Fraction:
    return sum((Fraction(x) * Fraction(y) for x, y in zip(a, b)), ZERO)


def _neighbours(K, q):
    """Definition 3 from scratch: σ_i = argmax_t k_itᵀq (None unless unique for every i), then the pairs (i, t),
    t ≠ σ_i, whose margin (k_iσ_i − k_it)ᵀq is the minimum over all pairs."""
    margins = {}
    for i, seq in enumerate(K):
        logits = [_dot(k, q) for k in seq]
        top = max(logits)
        if logits.count(top) > 1:
            return None
        s = logits.index(top)
        margins.update({(i, t): top - x for t, x in enumerate(logits) if t != s})
    low = min(margins.values())
    return [k for k, m in margins.items() if m == low]


def _margin_sq(K, q):
    """Θ_q² = (min margin)²/‖q‖² when the selected tokens are unique and Θ_q > 0, else None."""
    margins = []
    for seq in K:
        logits = sorted((_dot(k, q) for k in seq), reverse=True)
        if logits[0] == logits[1]:
            return None
        margins.append(logits[0] - logits[1])
    return min(margins) ** 2 / _dot(q, q)


def _solve(rows, rhs):
    """One exact solution of rows·q = rhs (Gauss–Jordan, free variables 0), or None."""
    A = [list(map(Fraction, r)) + [Fraction(b)] for r, b in zip(rows, rhs)]
    m, n = len(A), len(rows[0])
    piv, r = [], 0
    for c in range(n):
        p = next((k for k in range(r, m) if A[k][c] != 0), None)
        if p is None:
            continue
        A[r], A[p] = A[p], A[r]
        A[r] = [x / A[r][c] for x in A[r]]
        for k in range(m):
            if k != r and A[k][c] != 0:
                A[k] = [x - A[k][c] * y for x, y in zip(A[k], A[r])]
        piv.append(c)
        r += 1
    if any(all(x == 0 for x in row[:-1]) and row[-1] != 0 for row in A):
        return None
    q = [ZERO] * n
    for k, c in enumerate(piv):
        q[c] = A[k][-1]
    return q


@st.composite
def lemma10_case(draw):
    data = draw(key_data(max_n=2, max_T=4, max_d=2))
    K = [[[Fraction(x) for x in k] for k in seq] for seq in data.K]
    d = len(K[0][0])
    qs = [draw(directions(d))]
    # a q with d margins of one star tied at 1 by construction: (k_iσ − k_it)ᵀq = 1 on d drawn pairs
    sigma = [draw(st.integers(0, data.T - 1)) for _ in range(data.n)]
    pool = [(i, t) for i in range(data.n) for t in range(data.T) if t != sigma[i]]
    if len(pool) >= d:
        S = draw(st.permutations(pool))[:d]
        q = _solve([[a - b for a, b in zip(K[i][sigma[i]], K[i][t])] for i, t in S], [1] * d)
        if q is not None and any(q):
            qs.append(q)
    return data, K, d, qs


@examples(60)
@given(lemma10_case())
def test_lemma10_at_most_d_neighbours(case):
    data, K, d, qs = case
    met, _ = general_position(data)
    with working_precision(30) as prec:
        out = lemma10.evaluate(data, prec)
    _report(data, "mmts.lemma10", out, ("NOT_APPLICABLE",) if not met else ("HOLDS",))
    if met:
        for q in qs:
            nb = _neighbours(K, q)
            assert nb is None or len(nb) <= d, f"q = {q}: {len(nb)} > d = {d} neighbours {nb}"


def test_lemma10_trivial_case_holds():
    """n = 1, T = 2, d = 1 keys 0 and 1 (general position): every q has at most n(T − 1) = 1 = d neighbours (no star
    has d + 1 rows; the check decides it by counting — it answered INCONCLUSIVE on an empty Tally before)."""
    data = Dataset.make(X=[[[0, 0], [1, 0]]], Y=[1], v=[0, 1], K=[[[0], [1]]], name="lemma10-trivial")
    assert general_position(data)[0]
    with working_precision(30) as prec:
        assert lemma10.evaluate(data, prec).decide() == "HOLDS"


# ----- the true statements: never VIOLATED -------------------------------------------------------------------------
@examples(10)
@given(key_data())
def test_lemma8_candidates_never_violated(data):
    with working_precision(25) as prec:
        out = lemma8.evaluate(data, prec, figure=False)
    _never_violated("mmts.lemma8", out, data)


@examples(30)
@given(key_data(), st.data())
def test_lemma8_drawn_pair_never_violated(data, draw):
    d = len(data.K[0][0])
    q = draw.draw(directions(d))
    tilt = draw.draw(st.lists(st.sampled_from([Fraction(-1, 100), ZERO, Fraction(1, 100)]), min_size=d, max_size=d))
    q2 = [a + b for a, b in zip(q, tilt)]  # near q: the same selected tokens, a nearby margin
    K = [[[Fraction(x) for x in k] for k in seq] for seq in data.K]
    th, th2 = _margin_sq(K, q), _margin_sq(K, q2)
    if th is not None and th2 is not None and th2 < th:
        q, q2 = q2, q  # Θ_q' > Θ_q (Lemma 8 (i)'s order)
    with working_precision(25) as prec:
        out = lemma8.evaluate(data, prec, pairs=[(q, q2)], singles=[q], figure=False)
    _never_violated("mmts.lemma8", out, data)


@examples(10)
@given(key_data())
def test_lemma9_candidates_never_violated(data):
    with working_precision(25) as prec:
        out = lemma9.evaluate(data, prec, figure=False)
    _never_violated("mmts.lemma9", out, data)


@examples(15)
@given(key_data(), st.data())
def test_lemma9_drawn_direction_never_violated(data, draw):
    q = draw.draw(directions(len(data.K[0][0])))
    with working_precision(25) as prec:
        out = lemma9.evaluate(data, prec, directions=[q], figure=False)
    _never_violated("mmts.lemma9", out, data)


@examples(20)
@given(key_data(n=1))
def test_lemma5_never_violated_for_one_input(data):
    with working_precision(25) as prec:
        out = lemma5.evaluate(data, prec, pis=(Fraction(1, 10),), refine=False, figure=False)
    _never_violated("mmts.lemma5", out, data)


@examples(5)
@given(key_data())
def test_thm1_never_violated(data):
    with working_precision(25) as prec:
        out = thm1.evaluate(data, prec, radii=("1", "10", "100", "1000"), starts=1, figure=False)
    _never_violated("mmts.thm1", out, data)


@examples(6)
@given(key_data(distinct=True), st.data())
def test_thm4_never_violated(data, draw):
    q = draw.draw(directions(len(data.K[0][0])))
    with working_precision(25) as prec:
        out = thm4.evaluate(data, prec, q=q, eps=(Fraction(1, 100),), R0=(Fraction(1),),
                            radii=("5", "20", "100", "500"), figure=False)
    _never_violated("mmts.thm4", out, data)


@examples(6)
@given(key_data(distinct=True), st.data())
def test_thm7_never_violated(data, draw):
    q = draw.draw(directions(len(data.K[0][0])))
    with working_precision(25) as prec:
        out = thm7.evaluate(data, prec, q=q, eps=(Fraction(1, 100),), R0=(Fraction(1),),
                            radii=("5", "20", "100", "500"), figure=False)
    _never_violated("mmts.thm7", out, data)
