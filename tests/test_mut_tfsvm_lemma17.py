"""tfsvm.lemma17 (mutation tests): the helpers at their edges (empty A or B, a zero spanning set, n + m > p with
n − m ≤ p), the P ⊆ null(A) hypothesis on by default, the dataset's split into A (sequences 1..n−1) and B (sequence
n, its T − 1 rows), and the seeded random instances — their number meeting the hypotheses and, for the false case,
the number violated — replayed here from the recipe the module docstring states (seed 17, p ∈ 2..6, n ∈ 1..p−1,
entries in −3..3, m ∈ 1..p−n, P spanned by between m and dim null(A) random combinations (coefficients −2..2) of a
null-space basis of A; the false case B = the first max(1, min(n, p − n)) rows of A, P = ℝ^p), with the hypotheses
decided independently: rank(B Π_P) = rank(B Uᵀ) for rows U spanning P."""
import random
from fractions import Fraction

from lemmas.tfsvm import lemma17
from verify import Dataset
from verify.geometry.tfsvm import null_basis
from verify.numbers.exact import rank
from verify.numbers.precision import working_precision

#: n = 3, T = 2, d = 2: constraint rows (x_i1 − x_i2) ⊗ z_i = (1,0,0,0), (0,0,0,1), (1,2,1,2): A = the first two,
#: B = the last (independent of A, and its projection on null(A) = span{e₂, e₃} is (0, 2, 1, 0) ≠ 0)
THREE = Dataset.make(X=[[[1, 0], [0, 0]], [[0, 1], [0, 0]], [[1, 1], [0, 0]]], Y=[1, 1, 1], v=[1, 1],
                     z=[[1, 0], [0, 1], [1, 2]], name="three")


def _F(M):
    return [[Fraction(x) for x in r] for r in M]


def _met(A, B, U, q, inside_null):
    full = rank(A) == len(A)
    small = len(A) + len(B) <= q
    inside = all(sum(a * u for a, u in zip(row, vec)) == 0 for row in A for vec in U)
    BU = [[sum(b * u for b, u in zip(row, vec)) for vec in U] for row in B]
    proj = (rank(BU) if U else 0) == len(B)
    return full and small and proj and (inside or not inside_null)


def _replay(instances, inside_null):
    """(instances meeting the hypotheses, of them with [A; B] not of full row rank)."""
    rng, met, bad = random.Random(17), 0, 0
    for _ in range(instances):
        q = rng.randint(2, 6)
        n = rng.randint(1, q - 1)
        A = [[Fraction(rng.randint(-3, 3)) for _ in range(q)] for _ in range(n)]
        if inside_null:
            m = rng.randint(1, q - n)
            N = null_basis(A, q)
            k = rng.randint(m, len(N)) if N else 0
            coefs = [[Fraction(rng.randint(-2, 2)) for _ in N] for _ in range(k)]
            U = [u for u in ([sum(c * v[j] for c, v in zip(cs, N)) for j in range(q)] for cs in coefs) if any(u)]
            B = [[Fraction(rng.randint(-3, 3)) for _ in range(q)] for _ in range(m)]
        else:
            B = [list(r) for r in A[:max(1, min(n, q - n))]]
            U = [[Fraction(int(i == j)) for j in range(q)] for i in range(q)]
        if _met(A, B, U, q, inside_null):
            met += 1
            bad += rank(A + B) != len(A) + len(B)
    return met, bad


def _run(data, **kw):
    with working_precision(20) as prec:
        return lemma17.evaluate(data, prec, **kw)


def test_edges_of_the_helpers():
    """Empty [A; B]: rank 0 = 0 rows (full); an all-zero spanning set spans P = {0}: B projects to 0; n + m ≤ p
    counts n + m (2 + 2 > 3 although 2 − 2 ≤ 3); B = ∅ has (trivially) independent projected rows; P ⊆ null(A) is
    checked by default (U = e₁ is not in null(e₁ᵀ))."""
    assert lemma17.full_rank([], []) is True
    assert lemma17.projected(_F([[1, 2]]), _F([[0, 0]])) == [[0, 0]]
    A, B = _F([[1, 0, 0], [0, 1, 0]]), _F([[0, 0, 1], [1, 1, 1]])
    h = dict((name, met) for name, met, _ in lemma17.hypotheses(A, B, _F([[0, 0, 1]]), 3))
    assert h["n + m ≤ p"] is False and h["A has full row rank"] is True
    h = dict((name, met) for name, met, _ in lemma17.hypotheses([], [], _F([[1, 0]]), 2))
    assert h == {"A has full row rank": True, "n + m ≤ p": True, "P ⊆ null(A)": True,
                 "rows of B projected onto P independent": True}
    h = dict((name, met) for name, met, _ in lemma17.hypotheses(_F([[1, 0]]), _F([[0, 1]]), _F([[1, 0]]), 2))
    assert h["P ⊆ null(A)"] is False and h["rows of B projected onto P independent"] is False


def test_dataset_instance_splits_off_the_last_sequence():
    """THREE: A = rows of sequences 1, 2, B = the one row of sequence 3 (B = rows 2..3 would repeat a row of A, and its
    projection onto null(A) would lose rank: NOT_APPLICABLE) — every hypothesis met, and the instance holds."""
    out = _run(THREE, instances=0)
    assert all(h.met is True for h in out.hypotheses) and len(out.hypotheses) == 4
    d = out.decision()
    assert d.verdict == "HOLDS" and out.evidence[0].coverage.points == 1


def test_random_instances_meeting_the_hypotheses():
    """The 60 seeded instances, replayed (module docstring): the number meeting the hypotheses is counted (plus the
    dataset's own instance) and named in the coverage; none violates the lemma."""
    met, bad = _replay(lemma17.INSTANCES, True)
    assert bad == 0 and 0 < met < lemma17.INSTANCES
    out = _run(THREE)
    c = out.evidence[0].coverage
    assert (c.points, c.holds) == (met + 1, met + 1)
    assert out.covers == [f"(A, B, P): the dataset's instance and the {met} of 60 seeded random instances meeting "
                          "the hypotheses (p ≤ 6, entries in −3..3)"]


def test_false_case_instances():
    """Without P ⊆ null(A) (P = ℝ^p, B = rows of A): every instance meeting the rest repeats a row of A, so every one
    of them violates; the replay gives their number."""
    met, bad = _replay(lemma17.INSTANCES, False)
    assert met == bad > 0
    out = _run(THREE, inside_null=False)
    c = out.evidence[0].coverage
    assert (c.points, c.violated) == (met + 1, met)
    assert out.covers[0].startswith(f"(A, B, P): the dataset's instance and the {met} of 60 ")


def test_instances_option():
    """`instances` = 20: the first 20 draws of the same seeded stream, replayed."""
    met, bad = _replay(20, True)
    out = _run(THREE, instances=20)
    assert out.evidence[0].coverage.points == met + 1 and bad == 0
    assert f"the {met} of 20 seeded random instances" in out.covers[0]
