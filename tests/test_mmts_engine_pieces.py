"""Engine pieces behind mmts Lemmas 1, 2, 3, 6, 11: the probe-inequality and trajectory kits, exact
rational linear algebra, the W behind the keys, tie points, the Hessian norm. Expected values are
derived by hand in each test."""
from fractions import Fraction

from flint import arb, arb_mat

from verify import Dataset
from verify.geometry.keys import head_in_range, query_features
from verify.geometry.probes import tie_points
from verify.geometry.smoothness import hessian_norm
from verify.kit.probe_inequality import ProbeInequality
from verify.kit.trajectory_identity import IdentityAlong, norm_enclosure
from verify.numbers.exact import min_norm_solution, rank, rational_below
from verify.numbers.precision import to_arb, working_precision


def test_ratio_with_a_zero_denominator():
    with working_precision(30):
        t = ProbeInequality("num/den ≤ 1", "<=", 1)
        assert t.add_ratio(arb(0), arb(0), "0/0") is True  # 0 ≤ 1·0 holds exactly
        assert t.add_ratio(arb(0, 1e-40), arb(0), "ball/0") is None  # cannot tell 0 from ≠ 0
        assert t.add_ratio(to_arb(Fraction(1, 3)), arb(0), "1/3 / 0") is False  # 1/3 ≤ 0 fails
        assert t.add_ratio(arb(1), arb(2), "1/2") is True
        c = t.coverage
        assert (c.points, c.holds, c.undecided, c.violated) == (4, 2, 1, 1)
        assert c.first_violation == "1/3 / 0" and c.first_undecided == "ball/0"
        ev = t.evidence()
        assert ev.decide() is False and ev.value == arb("inf")


def test_skipped_points_are_counted_undecided():
    with working_precision(30):
        t = ProbeInequality("f ≥ 1", ">=", 1)
        t.add(arb(2), "a")
        t.skip("b")
        assert t.coverage.undecided == 1 and t.evidence().decide() is None
        assert ProbeInequality("none", "<=", 1).evidence().decide() is None  # zero points


def test_norm_enclosure_contains_the_norm_and_can_fail():
    with working_precision(30):
        assert norm_enclosure([arb(3), arb(4)]) == 5  # exact inputs: exactly 5
        near0 = norm_enclosure([arb(0, 1e-35), arb(0, 1e-35)])
        assert near0.contains(0) and near0.upper() < 1e-34
        big = norm_enclosure([arb(1, 1e-20), arb(0, 1e-20)])
        assert big.lower() > 0.99  # a lower end, so a residual compared through it can certainly fail


def test_identity_along_counts_every_step():
    with working_precision(30) as prec:
        ident = IdentityAlong("residual", prec.tolerance)
        for t in range(5):
            ident.add(t, arb(0, 1e-45))
        assert ident.agrees() is True and ident.steps == 5 and ident.evidence().decide() is True
        ident.add(5, arb(1))
        ev = ident.evidence()
        assert ident.agrees() is False and ev.decide() is False and ev.coverage.first_violation == "t = 5"
        assert ident.report().informative and "largest at t = 5" in ident.report().note


def test_exact_linear_algebra():
    A = [[1, 2], [2, 4], [0, 0]]
    assert rank(A) == 1 and rank([[0, 0]]) == 0
    x = min_norm_solution(A, [5, 10, 0])  # row space spanned by (1, 2): x = (1, 2)·5/5
    assert x == [Fraction(1), Fraction(2)]
    assert min_norm_solution(A, [5, 11, 0]) is None  # inconsistent
    assert min_norm_solution([[0, 0]], [0]) == [0, 0]


def test_rational_below_is_short_and_below():
    with working_precision(30):
        for s, expected in [("0.02394", Fraction(239, 10000)), ("1234.5678", Fraction(1230)), ("5", Fraction(499, 100))]:
            x = to_arb(Fraction(s))
            assert rational_below(x) == expected and to_arb(expected) < x


def test_head_in_range_equivalence():
    """W = diag(1, 0): range(W) = span(e₁). v = e₁ is in it, v = e₂ is not (keys K = XW, exact)."""
    X = [[[1, 2], [3, -1], [0, 1]]]
    K = [[[1, 0], [3, 0], [0, 0]]]
    assert head_in_range(Dataset.make(X=X, Y=[1], v=[1, 0], K=K))[0] is True
    assert head_in_range(Dataset.make(X=X, Y=[1], v=[0, 1], K=K))[0] is False


def test_query_features_give_x_w_u():
    data = Dataset.make(X=[[[1, 2], [3, 4]]], Y=[1], v=[1, 0])
    u = (Fraction(1, 2), Fraction(-1))
    F = query_features(data, u)
    W = [[1, 2], [3, 4]]  # ⟨vec W, vec(x uᵀ)⟩ = xᵀWu
    for x, f in zip(data.X[0], F[0]):
        xWu = sum(x[a] * W[a][b] * u[b] for a in range(2) for b in range(2))
        assert sum(fw * w for fw, w in zip(f, [w for row in W for w in row])) == xWu


def test_tie_points_tie_exactly():
    """Token 0 against t = 1 (Δ = (1, −1)) and t = 2 (Δ = (2, −1)): 3 norms × θ ∈ {0, 1} each; at θ = 0 the
    two logits are exactly equal, at θ = 1 token 0 leads by exactly ΔᵀΔ/‖Δ‖² = 1."""
    keys = [[[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)], [Fraction(-1), Fraction(1)]]]
    pts = tie_points(keys, [(0,)])
    assert len(pts) == 12
    for k, p in enumerate(pts):
        t, theta = 1 + k // 6, k % 2
        logits = [sum(x * y for x, y in zip(row, p)) for row in keys[0]]
        assert logits[0] - logits[t] == theta


def test_hessian_norm_of_a_zero_ball_matrix_is_tight():
    """A matrix of balls around 0 (an exactly zero Hessian computed with rounding): ‖H‖₂ ≤ ‖H‖_F tiny."""
    with working_precision(50):
        H = arb_mat([[arb(0, 1e-61), arb(0, 1e-61)], [arb(0, 1e-61), arb(0)]])
        n = hessian_norm(H)
        assert n.upper() < 1e-60
        assert abs(hessian_norm(arb_mat([[2, 0], [0, -3]])) - 3) < 1e-40
