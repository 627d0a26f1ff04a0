"""tfsvm.lemma15 (mutation tests): the matrices and pairs the claim is checked at (the seeded draws its docstring
describes — entries n/q with n ∈ {−9…9}, q ∈ {1…5}, numerator first, row by row — and the adversarial ones: 0, uvᵀ,
10⁶·uvᵀ, diag(1, 10⁻³⁰, 0…) when m, d ≥ 2; c·K, Q/c with c = 10³, K = [a, a], Q = [b, −b] when m ≥ 2), the exact
rotation, the ball [lo, up]; the widths m (default {1, d}, else the ones given); the tolerances each tally decides
with (10^−dps·max(1, ‖W‖_F) for the maps, 10^−dps·max(1, ½(‖K‖²+‖Q‖²)) at the balanced factors of ABᵀ #0), the
residual flag of the ≈ 0 items, the (KQ-RP) budget factor 2 by default, the value (b) carries and every item present,
the rank hypothesis's detail and the note of the "rank not required" case.

Closed forms: for a rank-one W = c·uvᵀ with unit u, v, ‖W‖_F = ‖W‖_⋆ = c; for m = 1, K = k, Q = q (vectors),
‖kqᵀ‖_⋆ = ‖k‖‖q‖ so ½(‖K‖²+‖Q‖²) − ‖KQᵀ‖_⋆ = ½(‖k‖ − ‖q‖)²; ‖ABᵀ #0‖_⋆ by an mpmath SVD of the exact matrix."""
import random
from fractions import Fraction as F

import mpmath
from claim_helpers import evaluate_at
from claim_helpers import only_item as _ev

from lemmas.tfsvm import lemma15 as M
from verify.data import tfsvm as D
from verify.numbers.precision import working_precision

mpmath.mp.dps = 50
TOL = mpmath.mpf(10) ** -30


def _mp(x):
    return mpmath.mpf(x.mid().str(45, radius=False))


def draw(rng, r, c):
    return [[F(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(c)] for _ in range(r)]


def outer(A, B):
    """A Bᵀ for row lists."""
    return [[sum(x * y for x, y in zip(ra, rb)) for rb in B] for ra in A]


def want_matrices(d, m, seed=0):
    rng = random.Random(seed)
    out = []
    for k in range(3):
        A, B = draw(rng, d, m), draw(rng, d, m)
        out.append((f"ABᵀ #{k}, m = {m}", outer(A, B)))
    u, v = draw(rng, d, 1), draw(rng, d, 1)
    uv = outer(u, v)
    out += [("0", [[0] * d for _ in range(d)]), ("rank one uvᵀ", uv),
            ("10⁶·uvᵀ", [[1000000 * x for x in r] for r in uv])]
    if m >= 2 and d >= 2:
        out.append(("diag(1, 10⁻³⁰, 0…)", [[(1 if a == 0 else F(1, 10**30) if a == 1 else 0) if a == b else 0
                                             for b in range(d)] for a in range(d)]))
    return out


def want_pairs(d, m, seed=1):
    rng = random.Random(seed)
    out = [(f"random #{k}, m = {m}", draw(rng, d, m), draw(rng, d, m)) for k in range(3)]
    K, Q = draw(rng, d, m), draw(rng, d, m)
    out.append(("c·K, Q/c, c = 10³", [[1000 * x for x in r] for r in K], [[x / 1000 for x in r] for r in Q]))
    if m >= 2:
        a, b = draw(rng, d, 1), draw(rng, d, 1)
        out.append(("K = [a, a], Q = [b, −b] (KQᵀ = 0)", [[r[0], r[0]] + [0] * (m - 2) for r in a],
                    [[r[0], -r[0]] + [0] * (m - 2) for r in b]))
    return out


def _run(data, **kw):
    return evaluate_at(M, data, **kw)


def test_matrices_are_the_seeded_draws_and_the_adversarial_ones():
    """matrices(d, m): the draws regenerated here from the documented rule (seed 0 by default, a given seed
    honoured) and the adversarial 0, uvᵀ, 10⁶·uvᵀ and diag(1, 10⁻³⁰, 0…) (only when m, d ≥ 2)."""
    for d, m in ((1, 1), (2, 1), (2, 2), (3, 2), (3, 3)):
        assert M.matrices(d, m) == want_matrices(d, m), (d, m)
    assert M.matrices(2, 2, seed=5) == want_matrices(2, 2, 5)
    assert M.matrices(2, 2)[-1][1] == [[1, 0], [0, F(1, 10**30)]]  # condition number 10³⁰ at d = m = 2


def test_pairs_are_the_seeded_draws_and_the_adversarial_ones():
    """pairs(d, m): the draws regenerated here (seed 1 by default), c·K, Q/c with c = 10³, and K = [a, a],
    Q = [b, −b] padded with zeros (only when m ≥ 2), whose KQᵀ is 0 exactly."""
    for d, m in ((2, 1), (2, 2), (3, 3)):
        assert M.pairs(d, m) == want_pairs(d, m), (d, m)
    assert M.pairs(2, 2, seed=4) == want_pairs(2, 2, 4)
    _, K, Q = M.pairs(3, 3)[-1]
    assert outer(K, Q) == [[0] * 3 for _ in range(3)]  # KQᵀ = ab ᵀ − abᵀ = 0


def test_rotation_is_exact_and_orthogonal():
    """rotation(m): identity for m = 1, the (3/5, 4/5) rotation in the first two coordinates otherwise."""
    want = {1: [[1]], 2: [[F(3, 5), F(-4, 5)], [F(4, 5), F(3, 5)]],
            3: [[F(3, 5), F(-4, 5), 0], [F(4, 5), F(3, 5), 0], [0, 0, 1]]}
    with working_precision(30):
        for m, W in want.items():
            R = M.rotation(m)
            assert (R.nrows(), R.ncols()) == (m, m)
            for a in range(m):
                for b in range(m):
                    x, w = R[a, b], F(W[a][b])
                    assert abs(_mp(x) - mpmath.mpf(w.numerator) / w.denominator) < TOL
                    assert x.rad() < 10**-25
        assert sum(x * x for x in (F(3, 5), F(4, 5))) == 1  # (3/5, 4/5) is a unit vector


def test_arb_interval_contains_both_ends_and_no_more():
    """arb_interval(lo, up): mid (lo + up)/2 and radius (up − lo)/2 rounded up, containing both end balls."""
    from flint import arb
    with working_precision(30):
        ball = M.arb_interval(arb(1), arb(3))  # exact ends: [2 ± 1]
        assert ball.mid() == 2 and abs(float(ball.rad()) - 1) < 1e-8  # a radius is rounded up to 30 bits
        assert ball.contains(arb(1)) and ball.contains(arb(3))
        lo, up = arb(1, 0.5), arb(3, 0.5)  # the ends' own radii: the ball holds [0.5, 3.5]
        ball = M.arb_interval(lo, up)
        assert ball.contains(lo) and ball.contains(up) and float(ball.rad()) < 2.5


def test_widths_default_and_given():
    """ms: default {1, d} (D-Nuc, d = 2: 6 + 7 matrices, 4 + 5 pairs), a given [2] only (7 and 5)."""
    out = _run(D.d_nuc())  # d = 2: m ∈ {1, 2}, 6 + 7 matrices
    assert out.covers[0].startswith("m ∈ {1, 2}; W at 13 matrices")
    assert _ev(out, "(a) ‖U_mΣ").coverage.points == 13 and _ev(out, "(c) (K,Q) ↦ KQᵀ").coverage.points == 4 + 5
    two = _run(D.d_nuc(), ms=[2])
    assert two.covers[0].startswith("m ∈ {2}; W at 7 matrices")
    assert _ev(two, "(a) ‖U_mΣ").coverage.points == 7 and _ev(two, "(c) (K,Q) ↦ KQᵀ").coverage.points == 5
    assert out.decision().verdict == two.decision().verdict == "HOLDS"
    for e in out.evidence:
        assert e.coverage.points > 0 and e.decide() is True


def test_items_residual_flags_and_the_inequality_value():
    """m = 1 on D-Nuc (d = 2): (b)'s value is the smallest ½(‖k‖ − ‖q‖)² over the four pairs (k, q)."""
    out = _run(D.d_nuc(), ms=[1])
    names = ["(a) ‖U_mΣ", "(a) ½(‖K‖²+‖Q‖²) − ‖W‖_⋆", "(c) W ↦ (K,Q)", "(c) L(KQᵀ) = L(W)",
             "(b) ½(‖K‖²+‖Q‖²) − ‖KQᵀ‖_⋆ ≥ 0", "(b) at balanced factors", "(c) (K,Q) ↦ KQᵀ"]
    items = [_ev(out, n) for n in names]
    assert len(out.evidence) == 7
    assert [e.residual for e in items] == [True, True, False, True, False, True, False]
    gaps = []
    for _, K, Q in M.pairs(2, 1):
        nk = mpmath.sqrt(sum(mpmath.mpf(r[0].numerator) ** 2 / r[0].denominator ** 2 for r in K))
        nq = mpmath.sqrt(sum(mpmath.mpf(r[0].numerator) ** 2 / r[0].denominator ** 2 for r in Q))
        gaps.append((nk - nq) ** 2 / 2)
    ineq = items[4]
    assert ineq.coverage.points == 4 and abs(_mp(ineq.value) - min(gaps)) < mpmath.mpf(10) ** -20 * max(1, min(gaps))
    assert items[6].value is True and items[6].coverage.points == 4


def test_balanced_equality_tolerance_is_relative_to_the_norm_of_abt0():
    """The equality at balanced factors is decided with 10^−30·max(1, ½(‖K‖²+‖Q‖²)) = 10^−30·‖ABᵀ #0‖_⋆ (both points
    are the balanced factors of ABᵀ #0, the rotation keeps the norms)."""
    out = _run(D.d_nuc(), ms=[1])
    W0 = M.matrices(2, 1)[0][1]
    A = mpmath.matrix([[mpmath.mpf(x.numerator) / x.denominator for x in r] for r in W0])
    nuc = sum(mpmath.svd_r(A, compute_uv=False))
    assert nuc > 1
    equal = _ev(out, "(b) at balanced factors")
    assert equal.coverage.points == 2 and abs(_mp(equal.bound) / (TOL * nuc) - 1) < mpmath.mpf(10) ** -15


def test_map_tolerances_scale_with_the_frobenius_norm_at_least_one():
    """W = ½e₁e₁ᵀ (‖W‖_F = ½ < 1): every map item is decided with 10^−30; W = 10⁶·[[3, 4], [0, 0]] (rank one,
    ‖W‖_F = ‖W‖_⋆ = 5·10⁶): with 5·10^−24, and its budget 2·½(‖K‖²+‖Q‖²) − 2R ≈ 0 (factor 2, R = ‖W‖_⋆ upper)."""
    small = _run(D.d_nuc(), ms=[], extra=[("½e₁e₁ᵀ", [[F(1, 2), 0], [0, 0]], 1)])
    big = _run(D.d_nuc(), ms=[], extra=[("10⁶·[[3, 4], [0, 0]]", [[3 * 10**6, 4 * 10**6], [0, 0]], 1)])
    for start in ("(a) ‖U_mΣ", "(a) ½(‖K‖²+‖Q‖²) − ‖W‖_⋆", "(c) W ↦ (K,Q)", "(c) L(KQᵀ) = L(W)"):
        assert abs(_mp(_ev(small, start).bound) / TOL - 1) < mpmath.mpf(10) ** -15, start
        assert abs(_mp(_ev(big, start).bound) / (5 * 10**6 * TOL) - 1) < mpmath.mpf(10) ** -15, start
        assert _ev(big, start).decide() is True
    budget = _ev(big, "(c) W ↦ (K,Q)")
    assert budget.quantity.startswith("(c) W ↦ (K,Q): ‖K‖²+‖Q‖² ≤ 2R")
    assert abs(_mp(budget.value)) < 10**-20  # 2·5·10⁶ − 2·5·10⁶, not − 3·5·10⁶
    half = _ev(big, "(a) ½(‖K‖²+‖Q‖²) − ‖W‖_⋆")
    assert abs(_mp(half.value)) < 10**-20


def test_rank_hypothesis_detail_and_the_note_when_not_required():
    """The rank hypothesis's detail (rank I = 2 > m = 1 named; else the number of matrices), and with
    ``require_rank=False`` no hypothesis, with the note only when some W has rank above m."""
    I2 = [[F(1), F(0)], [F(0), F(1)]]
    out = _run(D.d_nuc(), ms=[1], extra=[("I", I2, 1)])
    assert out.hypotheses[0].detail == "rank W > m at [('I', 2, 1)]"
    ok = _run(D.d_nuc(), ms=[1])
    assert ok.hypotheses[0].detail == "6 matrices, exact ranks ≤ m" and not ok.notes
    free = _run(D.d_nuc(), ms=[1], extra=[("I", I2, 1)], require_rank=False)
    assert free.hypotheses == [] and free.notes == [
        "the rank hypothesis is NOT required (the false case): rank W > m at [('I', 2, 1)]"]
    free_ok = _run(D.d_nuc(), ms=[1], require_rank=False)  # nothing too big: no note
    assert free_ok.notes == [] and free_ok.hypotheses == []
