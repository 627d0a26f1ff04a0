"""verify.kit.irgf (mutation tests): the irgf hypotheses decided on tiny datasets (n, T, d ≤ 3) whose scores,
ℓ1-SVM, Farkas vectors, initial losses and ∇_βℒ(0) are derived by hand here (exact Fractions; mpmath for the
exponentials), the ℓ1-SVM's dual pieces (g = Bλ*, J₁, κ) on hand-built results, the flow's grid, window and
requirement on recording fakes, and the plotting/formatting helpers at their edges."""
import math
from fractions import Fraction
from types import SimpleNamespace

import flint
import mpmath
import pytest
from flint import arb

from verify.claims import Evidence, Outcome
from verify.claims.verdict import Decision
from verify.data.dataset import Dataset
from verify.errors import UsageError
from verify.kit import irgf as I
from verify.numbers.precision import DEFAULT_GUARD, to_arb, working_precision
from verify.report.figures import Series

F = Fraction
# γ = (1, 0) and (0, 2): opt = token 1 and token 2; B = (x_opt − x_l) ⊙ z = (1, 0) and (0, −2); ℓ1-SVM β = (1, −1/2),
# p* = 3/2 (both rows tight), duals λ = (1, 1/2), g = Bλ = (1, −1)
D = Dataset.make(X=[[[1, 0], [0, 0]], [[0, 0], [0, -2]]], Y=[1, 1], v=[1, -1], z=[[1, 1], [2, 1]], name="dd")
# rows (1,0,0,0) and (−1,0,0,0) of the full-W SVM (γ = (1, 0) twice, Y = −1 in sequence 2): infeasible, and
# ∇_βℒ(0) = 0 exactly (one mean 1/2, contributions −1/4 and +1/4)
DINF = Dataset.make(X=[[[1, 0], [0, 0]], [[-1, 0], [0, 0]]], Y=[1, -1], v=[1, 0], z=[[1, 0], [1, 0]], name="dinf")
TIED = Dataset.make(X=[[[1, 0], [1, 0]]], Y=[1], v=[1, 0], z=[[1, 1]], name="tied")


def mp(x):
    return mpmath.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else mpmath.mpf(x)


def close(ball, value, digits=25):
    """ball encloses a value within 10^-digits of the mpmath ``value``."""
    with mpmath.workdps(40):
        return abs(mpmath.mpf(ball.mid().str(35, radius=False)) - value) < mpmath.mpf(10) ** -digits


@pytest.fixture(autouse=True)
def _prec():
    with working_precision(40), mpmath.workdps(40):
        yield


# ----- the memoised SVMs ---------------------------------------------------------------------------
def test_the_svms_are_solved_once_per_dataset_and_kind(monkeypatch):
    """l1_svm → solve_svm(data, "diag", dps=…), w_svm → solve_svm(data, "W", dps=…, check_unique=False), l2_diag_svm
    → the ℓ1-SVM's rows with the l2 norm; each memoised on (dataset, kind)."""
    import verify.svm as S
    calls = []

    def fake(data, kind=None, alpha=None, dps=60, check_unique=True):
        calls.append((kind, dps, check_unique) if isinstance(data, Dataset) else ("rows", data.norm, dps))
        return object()

    monkeypatch.setattr(I, "_SVM_CACHE", {})
    monkeypatch.setattr(S, "solve_svm", fake)
    a = I.l1_svm(D, 33)
    assert I.l1_svm(D, 33) is a and calls == [("diag", 33, True)]
    b = I.w_svm(D, 34)
    assert I.w_svm(D) is b and b is not a and calls[1:] == [("W", 34, False)]
    c = I.l2_diag_svm(D, 35)
    assert I.l2_diag_svm(D) is c and c not in (a, b) and calls[2:] == [("rows", "l2", 35)]
    assert I.l1_svm(DINF) is not a and calls[3] == ("diag", 60, True)
    assert I.w_svm(DINF) is not b and calls[4] == ("W", 60, False)
    I.l2_diag_svm(DINF)
    assert calls[5] == ("rows", "l2", 60) and len(calls) == 6


def test_unique_opt_and_min_margin():
    assert I.unique_opt(D) is True and I.unique_opt(TIED) is False
    res = SimpleNamespace(solution=[F(1), F(2)], problem=SimpleNamespace(rows=[(F(1), F(1)), (F(3), F(-1)), (0, 1)]))
    assert I.min_margin(res) == 1  # margins 3, 1, 2
    res = SimpleNamespace(solution=[F(-1), F(0)], problem=SimpleNamespace(rows=[(F(1), F(0))]))
    assert I.min_margin(res) == -1


# ----- Assumption 2 ------------------------------------------------------------------------------
def test_assumption2_equal_non_optimal_scores():
    assert I.assumption2(D)[0] is True
    three = Dataset.make(X=[[[2, 0], [1, 0], [1, 0]], [[0, 0], [5, 0], [0, 0]]], Y=[1, 1], v=[1, 0])
    assert I.assumption2(three)[0] is True
    bad = Dataset.make(X=[[[2, 0], [1, 0], [1, 0]], [[0, 0], [5, 0], [1, 0]]], Y=[1, 1], v=[1, 0])
    ok, detail = I.assumption2(bad)
    assert ok is False and detail.startswith("sequence 2 (1-indexed) has scores ['0', '5', '1']")
    assert I.assumption2(TIED)[0] is False        # two tied tokens: the non-optimal "others" are one score
    tied = Dataset.make(X=[[[1, 0], [2, 0], [2, 0]], [[2, 0], [2, 0], [1, 0]]], Y=[1, 1], v=[1, 0])
    ok, detail = I.assumption2(tied)
    assert ok is False and detail.startswith("sequence 1 (1-indexed) has scores ['1', '2', '2']")


# ----- Assumption 4 --------------------------------------------------------------------------------
# v = (1, 1): sequence 1 x_opt = (1, 0), pair (−1/2, ±1) (c = −1/2); sequence 2 x_opt = (0, 1), pair (±1, −1/2)
A4X = [[[1, 0], [F(-1, 2), 1], [F(-1, 2), -1]], [[0, 1], [1, F(-1, 2)], [-1, F(-1, 2)]]]


def _a4(X=A4X, z=([2, 0], [0, -3]), v=(1, 1), Y=None):
    return Dataset.make(X=X, Y=Y or [1] * len(X), v=list(v), z=[list(r) for r in z])


def test_assumption4_holds_with_the_pairs_found():
    ok, detail, info = I.assumption4(_a4())
    assert ok is True and detail.startswith("(i)–(iii) hold exactly")
    assert info["opt"] == [0, 0] and info["xo"] == [[1, 0], [0, 1]] and info["z"] == [[2, 0], [0, -3]]
    assert info["ok_i"] is True and info["ok_ii"] is True
    assert info["pairs"] == [[(1, 2, F(-1, 2))], [(1, 2, F(-1, 2))]]
    assert info["why"] == {"i": "", "ii": "", "iii": ""}
    assert "seq 1: (2,3) c = -1/2; seq 2: (2,3) c = -1/2" in detail


def test_assumption4_pairs_greedily_in_token_order_and_allows_c_minus_one():
    """T = 5, v = (1, 1/2): tokens 2, 3 have partners 4, 5 (c = −1 and c = 0): pairs (1, 3, −1), (2, 4, 0) in that
    order."""
    X = [[[1, 0], [-1, 1], [0, F(1, 2)], [-1, -1], [0, F(-1, 2)]]]
    ok, _, info = I.assumption4(_a4(X=X, z=([1, 0],), v=(1, F(1, 2))))
    assert ok is True and info["pairs"] == [[(1, 3, F(-1)), (2, 4, F(0))]]


def test_assumption4_c_is_relative_to_the_squared_norm_of_x_opt():
    """x_opt = (2, 0): token (−1, 1) has c = −2/4 = −1/2, partner 2c·x_opt − x = (−1, −1)."""
    ok, _, info = I.assumption4(_a4(X=[[[2, 0], [-1, 1], [-1, -1]]], z=([1, 0],)))
    assert ok is True and info["pairs"] == [[(1, 2, F(-1, 2))]]


def test_assumption4_c_above_one_fails():
    """γ_opt = −1 < 0 allows c = 3/2: x_opt = (−1, 0), pair (−3/2, ±1) with scores −3/2 (v = e₁): c ∉ [−1, 1)."""
    ok, _, info = I.assumption4(_a4(X=[[[-1, 0], [F(-3, 2), 1], [F(-3, 2), -1]]], z=([1, 0],), v=(1, 0)))
    assert ok is False and info["pairs"] is None and "c = 3/2 ∉" in info["why"]["iii"]


def test_assumption4_i_fails_on_non_orthogonal_optimal_tokens_or_queries():
    X = [A4X[0], [[1, 1], [F(-1, 2), 2], [F(-1, 2), 0]]]   # x_opt = (1, 1) not ⊥ (1, 0)
    ok, detail, info = I.assumption4(_a4(X=X, z=([1, 0], [1, 1])))
    assert ok is False and info["ok_i"] is False and info["why"]["i"] == "(i) fails for sequences 1 and 2"
    assert detail.endswith("(exact; sequences and tokens 1-indexed)")
    ok, _, info = I.assumption4(_a4(z=([1, 0], [1, 1])))   # queries (1, 0), (1, 1) not orthogonal (and (ii) fails)
    assert ok is False and info["ok_i"] is False
    ok, _, info = I.assumption4(_a4(z=([-1, 0], [0, 5])))   # antiparallel z is parallel: holds
    assert ok is True


def test_assumption4_ii_needs_z_parallel_and_not_orthogonal_to_x_opt():
    ok, _, info = I.assumption4(_a4(z=([2, 0], [1, 1])))     # z₂ = (1, 1): ⟨x, z⟩² = 1 ≠ 1·2; z₁·z₂ = 2 ≠ 0
    assert ok is False and info["ok_ii"] is False and info["why"]["ii"].startswith("(ii) fails for sequence 2")
    X1 = [A4X[0]]
    ok, _, info = I.assumption4(_a4(X=X1, z=([0, 1],)))      # z ⊥ x_opt: ⟨x, z⟩ = 0
    assert ok is False and info["ok_ii"] is False and info["ok_i"] is True
    ok, _, info = I.assumption4(_a4(X=X1, z=([0, 0],)))      # z = 0: 0² = 1·0 but ⟨x, z⟩ = 0
    assert ok is False and info["ok_ii"] is False
    assert info["pairs"] == [[(1, 2, F(-1, 2))]]


def test_assumption4_iii_failures():
    even = [[[1, 0], [0, -1], [0, -2], [0, -3]]]
    ok, detail, info = I.assumption4(_a4(X=even, z=([1, 0],)))
    assert ok is False and info["pairs"] is None and info["why"]["iii"].startswith("(iii) fails: L = 4 is even")
    nopartner = [[[1, 0], [0, -1], [0, -2]]]
    ok, _, info = I.assumption4(_a4(X=nopartner, z=([1, 0],)))
    assert ok is False and info["pairs"] is None
    assert "token 2 has no partner" in info["why"]["iii"]
    far = [[[1, 0], [-2, 1], [-2, -1]]]                       # c = −2 ∉ [−1, 1)
    ok, _, info = I.assumption4(_a4(X=far, z=([1, 0],)))
    assert ok is False and info["pairs"] is None and "c = -2 ∉" in info["why"]["iii"]
    zero = [[[0, 0], [0, -1], [-1, 0]]]                        # x_opt = 0 (scores 0, −1, −1)
    ok, _, info = I.assumption4(_a4(X=zero, z=([1, 0],)))
    assert ok is False and info["why"]["iii"] == "(iii) fails: sequence 1: x_opt = 0"
    # the first sequence fails (iii): the second is not paired either
    X = [far[0], A4X[1]]
    ok, _, info = I.assumption4(_a4(X=X, z=([1, 0], [0, 1])))
    assert info["pairs"] is None and "sequence 1" in info["why"]["iii"]
    # sequence 2 fails: sequence 1's pairs are not reported either
    X = [A4X[0], [[0, 1], [1, F(-1, 2)], [-1, -2]]]
    ok, _, info = I.assumption4(_a4(X=X))
    assert ok is False and info["pairs"] is None and "sequence 2: token 2" in info["why"]["iii"]


def test_assumption4_tied_optimum():
    assert I.assumption4(TIED) == (False, "some sequence has tied optimal tokens", None)


# ----- Assumption 3 ------------------------------------------------------------------------------
def test_initial_loss_and_bounds_closed_forms():
    """D: means 1/2 and 1: ℒ(θ(0)) = (e^{−1/2} + e^{−1})/2; γ_opt = (1, 2), γ_nopt = (0, 0): b₁ = (1 + e^{−2})/2,
    b₂ = (1 + e^{−1})/2; the bound of Assumption 3 is the smaller, b₁."""
    L0, bounds = I.initial_loss_and_bounds(D)
    assert close(L0, (mpmath.exp(-0.5) + mpmath.exp(-1)) / 2)
    assert len(bounds) == 2
    assert close(bounds[0], (1 + mpmath.exp(-2)) / 2) and close(bounds[1], (1 + mpmath.exp(-1)) / 2)
    L0b, b = I.initial_loss_and_bound(D)
    assert close(b, (1 + mpmath.exp(-2)) / 2) and close(L0b, (mpmath.exp(-0.5) + mpmath.exp(-1)) / 2)


def test_initial_loss_with_three_tokens():
    """T = 3, γ = (3, 0, 0) and (0, 1, 0) (opt token 2): means 1 and 1/3; ℒ = (e^{−1} + e^{−1/3})/2;
    b₁ = (e^0 + e^{−1})/2, b₂ = (e^0 + e^{−3})/2 — the minimum is b₂."""
    data = Dataset.make(X=[[[3, 0], [0, 0], [0, 0]], [[0, 0], [1, 0], [0, 0]]], Y=[1, 1], v=[1, 0])
    L0, bounds = I.initial_loss_and_bounds(data)
    assert close(L0, (mpmath.exp(-1) + mpmath.exp(-mpmath.mpf(1) / 3)) / 2)
    assert close(bounds[0], (1 + mpmath.exp(-1)) / 2) and close(bounds[1], (1 + mpmath.exp(-3)) / 2)
    assert close(I.initial_loss_and_bound(data)[1], (1 + mpmath.exp(-3)) / 2)


def _s8(x):
    return mpmath.nstr(x, 8, min_fixed=-5, max_fixed=5, strip_zeros=False)


def test_assumption3_details_show_eight_digits():
    """D: ℒ = (e^{−1/2} + e^{−1})/2 = 0.48720505 ≤ (1 + e^{−2})/2 = 0.56766764."""
    L0, b = (mpmath.exp(-0.5) + mpmath.exp(-1)) / 2, (1 + mpmath.exp(-2)) / 2
    assert I.assumption3(D) == (True, f"ℒ(θ(0)) = {_s8(L0)} ≤ {_s8(b)} (certified)")
    assert _s8(L0) == "0.48720505"
    fail = Dataset.make(X=[[[0, 0], [-1, 0]], [[10, 0], [9, 0]]], Y=[1, 1], v=[1, 0])
    L0, b = (mpmath.exp(0.5) + mpmath.exp(-9.5)) / 2, (mpmath.exp(-9) + 1) / 2
    assert I.assumption3(fail) == (False, f"ℒ(θ(0)) = {_s8(L0)} > {_s8(b)}")
    tie = Dataset.make(X=[[[2, 0], [0, 0]], [[1, 0], [-1, 0]]], Y=[1, 1], v=[1, 0])
    x = _s8((1 + mpmath.exp(-1)) / 2)
    assert I.assumption3(tie) == (None, f"undecided at this precision: ℒ(θ(0)) = {x} vs {x}")


def test_assumption3_on_each_side_and_undecided():
    assert I.assumption3(D)[0] is True and I.assumption3(D)[1].endswith("(certified)")
    big = Dataset.make(X=[[[0, 0], [-5, 0]]], Y=[1], v=[1, 0])   # γ = (0, −5): ℒ = e^{5/2} ≤ b = e^{5}
    assert I.assumption3(big)[0] is True
    high = Dataset.make(X=[[[2, 0], [0, 0]], [[2, 0], [0, 0]]], Y=[1, 1], v=[1, 0])
    # γ = (2, 0) twice: ℒ = e^{−1} = 0.3679 ≤ b_j = (e^0 + e^{−2})/2 = 0.5677: holds
    assert I.assumption3(high)[0] is True
    fail = Dataset.make(X=[[[0, 0], [-1, 0]], [[10, 0], [9, 0]]], Y=[1, 1], v=[1, 0])
    # means 1/2·(0 − 1) = −1/2 and 19/2: ℒ = (e^{1/2} + e^{−19/2})/2 ≈ 0.8244; b₁ = (e^{1} + e^{−10})/2 ≈ 1.359,
    # b₂ = (e^{−9} + e^{0})/2 ≈ 0.50006: ℒ > min b → fails
    ok, detail = I.assumption3(fail)
    assert ok is False and " > " in detail
    # equality: means 1 and 0 with γ_nopt,1 = 0 and γ_opt,2 = 1: ℒ = (e^{−1} + 1)/2 = b₁ exactly → undecided
    tie = Dataset.make(X=[[[2, 0], [0, 0]], [[1, 0], [-1, 0]]], Y=[1, 1], v=[1, 0])
    ok, detail = I.assumption3(tie)
    assert ok is None and detail.startswith("undecided at this precision")
    ok, detail = I.assumption3(Dataset.make(X=[[[2, 0], [0, 0], [1, 0]]], Y=[1], v=[1, 0]))
    assert ok is False and detail == "undefined: needs Assumption 2 (γ_nopt)"


# ----- init (5) ----------------------------------------------------------------------------------
def test_omega_shown_and_init5():
    assert I.omega_shown(None, 3) == "𝟙" and I.omega_shown([1, "1"], 2) == "𝟙"
    assert I.omega_shown(["1/2", 1], 2) == "(1/2, 1)"
    assert I.init5(None, 2)[0] is True
    assert I.init5(["1/2", 3], 2)[0] is True
    ok, detail = I.init5([1, 0, 2, 0], 4)
    assert ok is False and "j = [1, 3]" in detail and "(1, 0, 2, 0)" in detail


def test_start5_from_omega():
    """Default ω₀ = (7/10, 13/10, 2/5, 1, 7/10, …): ξ_k = √2ω₀ at even j (0 at odd), ξ_q = −√2ω₀ at odd j (0 at even),
    ω₀² returned exactly."""
    xk, xq, w2, hyp, label = I.start5(5)
    om = [F(7, 10), F(13, 10), F(2, 5), F(1), F(7, 10)]
    assert w2 == [w * w for w in om]
    s2 = mpmath.sqrt(2)
    for j, w in enumerate(om):
        if j % 2 == 0:
            assert close(xk[j], s2 * mp(w)) and xq[j] == 0
        else:
            assert xk[j] == 0 and close(xq[j], -s2 * mp(w))
    assert hyp.name == I.NAMES[I.INIT5] and hyp.met is True
    assert "ω₀ = (7/10, 13/10, 2/5, 1, 7/10)" in label
    assert hyp.detail == "one factor √2ω₀, the other 0 with ω₀ = (7/10, 13/10, 2/5, 1, 7/10) (all entries ≠ 0)"
    xk, xq, w2, hyp, _ = I.start5(2, omega0=[3, 0])
    assert hyp.met is False and w2 == [9, 0] and close(xk[0], 3 * s2)


def test_start5_from_an_exact_start():
    xk, xq, w2, hyp, label = I.start5(3, start=(["1", 0, "-2"], [0, "1/2", 0]))
    assert [x.mid() for x in xk] == [1, 0, -2] and [x.mid() for x in xq] == [0, arb(0.5), 0]
    assert w2 == [F(1, 2), F(1, 8), F(2)]
    assert hyp.met is True and hyp.name.startswith(I.NAMES[I.INIT5] + " for the start")
    assert hyp.detail == "ξ_k(0) ⊙ ξ_q(0) = 0 and every ω₀,j² = (ξ_k,j² + ξ_q,j²)/2 ≠ 0 (exact)"
    assert label == "start ξ_k(0) = (1, 0, -2), ξ_q(0) = (0, 1/2, 0)"
    _, _, w2, hyp, _ = I.start5(3, start=([1, 0, 1], [1, 0, 0]))     # β(0) ≠ 0 at j = 0, ω₀ = 0 at j = 1
    assert hyp.met is False and w2 == [1, 0, F(1, 2)]
    assert hyp.detail == "ξ_k,j(0)·ξ_q,j(0) ≠ 0 at j = [0] (β(0) ≠ 0); ξ_k,j(0) = ξ_q,j(0) = 0 at j = [1] (ω₀,j = 0)"
    _, _, _, hyp, _ = I.start5(2, start=([1, 2], [1, 0]))
    assert hyp.met is False and hyp.detail == "ξ_k,j(0)·ξ_q,j(0) ≠ 0 at j = [0] (β(0) ≠ 0)"
    _, _, _, hyp, _ = I.start5(2, start=([1, 0], [0, 0]))
    assert hyp.met is False and hyp.detail == "ξ_k,j(0) = ξ_q,j(0) = 0 at j = [1] (ω₀,j = 0)"
    with pytest.raises(UsageError):
        I.start5(2, start=([1, 0, 0], [0, 1]))
    with pytest.raises(UsageError):
        I.start5(2, start=([1, 0], [0]))


# ----- diagonal separability, Assumption 1, separator items -------------------------------------
def test_the_working_dps_reaches_the_solvers(monkeypatch):
    """diagsep, assumption1 and check_hypotheses pass their dps (default 60) to l1_svm / w_svm."""
    seen = []
    real_l1, real_w = I.l1_svm, I.w_svm
    monkeypatch.setattr(I, "l1_svm", lambda data, dps=60: seen.append(("l1", dps)) or real_l1(data))
    monkeypatch.setattr(I, "w_svm", lambda data, dps=60: seen.append(("w", dps)) or real_w(data))
    I.diagsep(D)
    I.diagsep(D, 41)
    I.assumption1(D, False)
    I.assumption1(D, None, 42)
    I.check_hypotheses(DINF, [I.A1])              # not diagonally separable: the full-W SVM is solved
    I.check_hypotheses(DINF, [I.A1], dps=43)
    assert seen == [("l1", 60), ("l1", 41), ("w", 60), ("w", 42), ("l1", 60), ("w", 60), ("l1", 43), ("w", 43)]


def test_diagsep_feasible_infeasible_undecided(monkeypatch):
    ok, detail, res = I.diagsep(D)
    assert ok is True and res.objective == F(3, 2) and "p* = 1.5" in detail
    ok, detail, res = I.diagsep(DINF)
    assert ok is False and res.farkas.passed and "Σλ_il·1 = 1 > 0" in detail
    monkeypatch.setattr(I, "l1_svm", lambda data, dps: SimpleNamespace(status="unknown", notes=["x"], farkas=None))
    ok, detail, _ = I.diagsep(D)
    assert ok is None and "no certified answer" in detail


def test_assumption1(monkeypatch):
    assert I.assumption1(TIED, True) == (False, "some sequence has tied optimal tokens", None)
    ok, _, res = I.assumption1(D, True)
    assert ok is True and res is None
    ok, _, res = I.assumption1(D, False)
    assert ok is True and res.kind == "W" and res.status == "optimal"
    ok, _, res = I.assumption1(D, None)
    assert ok is True and res.kind == "W"
    ok, _, res = I.assumption1(DINF, False)
    assert ok is False and res.status == "infeasible"
    monkeypatch.setattr(I, "w_svm", lambda data, dps: SimpleNamespace(status="unknown", notes=None, farkas=None))
    ok, detail, _ = I.assumption1(D, False)
    assert ok is None and "no certified answer" in detail


def test_separator_items_feasible_is_the_exact_minimum_margin():
    items = I.separator_items(I.l1_svm(D), "x", "β*")
    assert len(items) == 1
    e = items[0]
    assert e.value == 1 and e.relation == ">=" and e.bound == 1 and e.decide() is True and e.certified


def _feasible(objective, solution=(F(1, 4),)):
    return SimpleNamespace(status="optimal", certificate=SimpleNamespace(passed=True), support=[],
                           objective=objective, solution=list(solution),
                           problem=SimpleNamespace(rows=[tuple(F(4) for _ in solution)]))


def test_separator_items_show_the_norm_exactly_below_a_million_denominator():
    """p* with denominator 999999 is shown as the fraction, 10⁶ as a decimal; the solution as decimals."""
    (e,) = I.separator_items(_feasible(F(1, 999999)), "x", "w")
    assert e.note == "optimal norm 1/999999; solution (0.25)" and e.value == 1
    assert e.quantity == "min_il margin of w (exact)"
    (e,) = I.separator_items(_feasible(F(1, 10**6)), "x", "w")
    assert e.note == "optimal norm 1e-06; solution (0.25)"
    (e,) = I.separator_items(_feasible(arb(1) / 3, (F(1, 4), F(1, 2))), "x", "w")
    assert e.note == "optimal norm 0.333333333333; solution (0.25, 0.5)"


def test_separator_items_infeasible_is_the_farkas_certificate():
    """DINF's rows (1, 0), (−1, 0): λ = (1/2, 1/2): ‖Σλa‖_∞ = 0, Σλ·1 = 1 > 0."""
    items = I.separator_items(I.l1_svm(DINF), "a diagonal separator exists", "β*")
    assert [e.decide() for e in items] == [False, True, True]
    assert items[0].quantity == "a diagonal separator exists" and items[0].value is False
    assert items[0].note.endswith("on the pairs (i, l) = (1,2), (2,2) (1-indexed)")
    assert items[1].note == "λ = ['1/2', '1/2'] ≥ 0, Σλ = 1"
    assert items[1].quantity == "Farkas certificate: ‖Σ λ_il a_il‖_∞ (exact)"
    assert items[1].value == 0 and items[1].relation == "==" and items[1].bound == 0
    assert items[2].value == 1 and items[2].relation == ">" and items[2].bound == 0
    assert items[2].quantity == "Farkas certificate: Σ λ_il · 1 (exact)"


def test_separator_items_none_without_a_certified_answer():
    far = SimpleNamespace(passed=False, rows=[], residual=0, rhs=1, lam=[])
    bad = SimpleNamespace(status="infeasible", farkas=far, notes=[])
    assert I.separator_items(bad, "x", "w") is None
    assert I.separator_items(SimpleNamespace(status="infeasible", farkas=None, notes=[]), "x", "w") is None
    good = SimpleNamespace(status="unknown", farkas=SimpleNamespace(passed=True, rows=[]), notes=[])
    assert I.separator_items(good, "x", "w") is None


# ----- check_hypotheses / hypotheses --------------------------------------------------------------
def test_check_hypotheses_in_order_with_the_context():
    hyps, ctx = I.check_hypotheses(D, [I.DIAGSEP, I.INIT5, I.A3, I.A2, I.A1], omega0=[1, 0])
    assert [h.name for h in hyps] == [I.NAMES[k] for k in (I.A1, I.A2, I.A3, I.INIT5, I.DIAGSEP)]
    assert [h.met for h in hyps] == [True, True, True, False, True]
    assert ctx["diagsep"] is True and ctx["svm"].objective == F(3, 2) and ctx["w_svm"] is None
    hyps, ctx = I.check_hypotheses(DINF, [I.A1])
    assert [h.met for h in hyps] == [False] and ctx["diagsep"] is False and ctx["w_svm"].status == "infeasible"
    hyps, ctx = I.check_hypotheses(D, [])
    assert hyps == [] and "w_svm" not in ctx and ctx["diagsep"] is True
    hyps, _ = I.check_hypotheses(D, [I.A1, I.INIT5, I.DIAGSEP])
    assert hyps[0].detail == I.assumption1(D, True)[1] and hyps[1].met is True
    assert hyps[2].detail == I.diagsep(D)[1] and hyps[2].detail.startswith("feasible")


def test_hypotheses_adds_them_and_notes_the_diagonal_gap():
    out = Outcome()
    ctx = I.hypotheses(out, D, [I.A1, I.A2], "irgf.x")
    assert [h.met for h in out.hypotheses] == [True, True] and out.notes == [] and ctx["diagsep"] is True
    assert out.covers == ["init (5) with ω₀ = 𝟙"]
    out = Outcome()
    I.hypotheses(out, DINF, [I.A2, I.DIAGSEP], "irgf.y", omega0=["1/2", 1])
    assert out.covers == ["init (5) with ω₀ = (1/2, 1)"]
    assert [h.met for h in out.hypotheses] == [True, False]
    assert len(out.notes) == 2
    assert out.notes[0].startswith("as printed, the stated hypotheses hold but")
    assert "∇_βℒ(0) = 0 exactly" in out.notes[0]
    assert out.notes[1].startswith("replay:") and "--data dinf.json" in out.notes[1]
    assert "run `python -m verify irgf.y --data dinf.json`" in out.notes[1]
    out = Outcome()
    I.hypotheses(out, D, [I.INIT5], "irgf.y", omega0=[1, 0])
    assert [h.met for h in out.hypotheses] == [False]
    out = Outcome()
    I.hypotheses(out, DINF, [I.A1], "irgf.y")
    assert out.notes[0].startswith("as printed, the stated hypotheses do not all hold")


def test_hypotheses_in_false_case_mode_only_names_the_unmet():
    out = Outcome()
    ctx = I.hypotheses(out, DINF, [I.A1, I.A2], "irgf.z", check=False)
    assert out.hypotheses == [] and ctx["diagsep"] is False
    assert out.notes == [f"hypothesis check bypassed (false-case mode); unmet: {I.NAMES[I.A1]}"]
    out = Outcome()
    I.hypotheses(out, D, [I.A2], "irgf.z", check=False)
    assert out.notes == ["hypothesis check bypassed (false-case mode); unmet: none"]


def test_the_gap_note_without_a_zero_gradient():
    """γ = (1, 0) and (1, 0) with z = (1, 0) and (2, 0), x_opt − x_l = (1, 0) and (−1, 0): the diag rows (1, 0), (−2,
    0) are infeasible; ∇_βℒ(0) ∝ (−1/4·1 + −1/4·(−2), 0) = (1/4, 0) ≠ 0."""
    data = Dataset.make(X=[[[1, 0], [0, 0]], [[-1, 0], [0, 0]]], Y=[1, -1], v=[1, 0], z=[[1, 0], [2, 0]])
    out = Outcome()
    I.hypotheses(out, data, [I.A2], "irgf.w")
    assert out.notes[0] == ("as printed, the stated hypotheses hold but the ℓ1-SVM is infeasible (irgf.hyp.diagsep "
                            "fails): the stated hypotheses do not imply the diagonal separability the proofs use")


# ----- ∇_βℒ(0) -------------------------------------------------------------------------------------
def test_grad_at_zero_groups_by_mean_score():
    """D: mean 1/2: (γ_2 − 1/2)/2 = −1/4 times z ⊙ (x_opt − x_l) = (1, 0) → (−1/4, 0); mean 1: (0 − 1)/2 = −1/2 times
    (2, 1) ⊙ (0, −2) = (0, −2) → (0, 1)."""
    zero, groups = I.grad_at_zero_is_zero(D)
    assert zero is False
    assert groups == [(F(1, 2), [F(-1, 4), F(0)]), (F(1), [F(0), F(1)])]
    zero, groups = I.grad_at_zero_is_zero(DINF)
    assert zero is True and groups == [(F(1, 2), [F(0), F(0)])]


def test_grad_at_zero_with_three_tokens_and_default_queries():
    """T = 3, z = x_1 = (3, 1) (no z given), γ = (3, 0, 1) (v = e₁): m = 4/3; l = 2: (0 − 4/3)/3 = −4/9 times
    (3, 1) ⊙ ((3, 1) − (0, 2)) = (9, −1); l = 3: (1 − 4/3)/3 = −1/9 times (3, 1) ⊙ (2, 1) = (6, 1):
    (−4 − 2/3, 4/9 − 1/9) = (−14/3, 1/3)."""
    data = Dataset.make(X=[[[3, 1], [0, 2], [1, 0]]], Y=[1], v=[1, 0])
    zero, groups = I.grad_at_zero_is_zero(data)
    assert zero is False and groups == [(F(4, 3), [F(-14, 3), F(1, 3)])]
    # the optimal token second: γ = (0, 3, 0): m = 1, l = 1, 3: (0 − 1)/3 each; z = x_1 = (1, 1)
    data = Dataset.make(X=[[[0, 1], [3, 0], [0, 2]]], Y=[1], v=[1, 0], z=[[1, 1]])
    # −1/3·((3, 0) − (0, 1)) − 1/3·((3, 0) − (0, 2)) = −1/3·(6, −3) = (−2, 1)
    assert I.grad_at_zero_is_zero(data) == (False, [(F(1), [F(-2), F(1)])])


def test_moves_from_zero():
    e = I.moves_from_zero(D)
    assert e.quantity == I.MOVES and e.value is True and e.decide() is True and e.certified
    e = I.moves_from_zero(DINF)
    assert e.value is False and e.decide() is False


# ----- the ℓ1-SVM's dual pieces ---------------------------------------------------------------------
def _res(rows, duals):
    return SimpleNamespace(duals=[F(x) for x in duals],
                           problem=SimpleNamespace(rows=[[F(x) for x in r] for r in rows], m=len(rows),
                                                   dim=len(rows[0])))


def test_dual_vector_support_and_reduced_cost():
    """rows (1, 0, 1/2), (0, −1, 1/4), (5, 5, 5), λ = (1, 1/2, 0): g = (1, −1/2, 5/8); J₁ = {0}; κ = 1 − 5/8 = 3/8."""
    res = _res([(1, 0, "1/2"), (0, -1, "1/4"), (5, 5, 5)], [1, "1/2", 0])
    assert I.l1_dual_vector(res) == [1, F(-1, 2), F(5, 8)]
    assert I.support_coordinates(res) == {0}
    assert I.smallest_reduced_cost(res) == F(3, 8)
    assert I.expected_rate(res) == F(3, 8)
    res = _res([(-1, 1, 0)], [1])                        # g = (−1, 1, 0): J₁ = {0, 1}, κ = 1
    assert I.support_coordinates(res) == {0, 1} and I.smallest_reduced_cost(res) == 1
    res = _res([(1, -1)], [1])
    assert I.smallest_reduced_cost(res) is None and I.expected_rate(res) is None
    res = _res([(1, "2/3")], [1])                        # κ = 1/3 → 333/1000
    assert I.expected_rate(res) == F(333, 1000)
    res = _res([(1, "1/3")], [1])                        # κ = 2/3 → 667/1000 (rounded, not cut)
    assert I.expected_rate(res) == F(667, 1000)
    res = _res([(1, "3/2")], [1])                        # |g| > 1 is not < 1: no κ
    assert I.smallest_reduced_cost(res) is None and I.support_coordinates(res) == {0}


def test_face_distance(monkeypatch):
    import verify.svm as S
    calls = []
    monkeypatch.setattr(S, "distance_to_solution_set", lambda b, res, dps: calls.append((b, res, dps)) or 7)
    assert I.face_distance([arb(0), arb(0, 1e-30)], "r", 30) is None and calls == []
    assert I.face_distance([arb(0), arb(2, 0.1)], "r", 31) == 7
    (b, res, dps), = calls
    assert res == "r" and dps == 31 and [x.mid() for x in b] == [0, 2] and b[1].rad() == 0


def test_face_selection_splits_the_face_by_omega():
    """One row B = (1, 1, 0): F = {t ≥ 0 on J₁ = {0, 1}, t₁ + t₂ = 1}; Φ = Σ t (ln(2t/ω²) − 1) is least at t ∝ ω²:
    ω² = (1, 3, 5) → β = (1/4, 3/4, 0)."""
    data = Dataset.make(X=[[[1, 1, 0], [0, 0, 0]]], Y=[1], v=[1, 0, 0], z=[[1, 1, 1]])
    res = I.l1_svm(data)
    beta = I.face_selection(res, [F(1), F(3), F(5)])
    assert beta == pytest.approx([0.25, 0.75, 0.0], abs=1e-7)
    beta = I.face_selection(res, [F(2), F(2), F(1)])
    assert beta == pytest.approx([0.5, 0.5, 0.0], abs=1e-7)
    assert I.face_selection(I.l1_svm(D), [1, 1]) == pytest.approx([1.0, -0.5], abs=1e-7)   # a single point
    assert I.face_selection(I.l1_svm(DINF), [1, 1]) is None


# ----- fits, rules, precision ------------------------------------------------------------------------
def test_fitted_exponent():
    """y = 5x²: 2; (1, 2), (2, 1), (4, 1): ln y = (ln 2, 0, 0) against (0, ln 2, 2 ln 2): slope −1/2."""
    xs = [arb(1), arb(2), arb(4), arb(8)]
    assert abs(I.fitted_exponent(xs, [5 * x * x for x in xs]) - 2) < arb(10) ** -20
    assert abs(I.fitted_exponent(xs[:3], [arb(2), arb(1), arb(1)]) + arb(1) / 2) < arb(10) ** -20


def test_ruled_items_are_not_enclosed():
    dec = Decision(False, "decays", "why")
    e = I.ruled("q", arb(3), dec, note="n")
    assert e.rule is dec and e.enclosed is False and e.value == 3 and e.decide() is False and not e.certified
    assert e.note == "n; why" and I.ruled("q", 1, dec).note == "why" and e.quantity == "q"


def test_raised_caps_the_extra_digits():
    before = flint.ctx.dps
    with I.raised(30, 1e9):
        assert flint.ctx.dps == 30 + DEFAULT_GUARD + I.MAX_EXTRA_DIGITS
    with I.raised(30, 10 * math.log(10)):
        assert flint.ctx.dps in (30 + DEFAULT_GUARD + 20, 30 + DEFAULT_GUARD + 21)
    assert flint.ctx.dps == before


# ----- plotting / formatting -----------------------------------------------------------------------
def test_fl():
    assert I.fl(None) is None and I.fl(F(1, 4)) == 0.25 and I.fl(arb(0.5, 0.1)) == 0.5 and I.fl(3) == 3.0
    assert I.fl(arb(10) ** 400) is None and I.fl(float("nan")) is None and I.fl(float("inf")) is None
    assert I.fl("x") is None and I.fl(10**400) is None


def test_log10f():
    assert I.log10f(0.5) == pytest.approx(-math.log10(2)) and I.log10f("1/100") == pytest.approx(-2)
    assert I.log10f(100.0) == pytest.approx(2) and I.log10f(0.0) is None and I.log10f(-1.0) is None
    assert I.log10f(None) is None and I.log10f(F(0)) is None and I.log10f(F(-1)) is None
    assert abs(I.log10f(F(1, 1000)) + 3) < 1e-12
    assert abs(I.log10f(arb(10) ** -10000) + 10000) < 1e-6
    assert I.log10f(arb(0)) is None and I.log10f(arb(-2)) is None


def test_short():
    assert I._short(F(1, 4)) == "0.25" and I._short(F(6, 2)) == "3" and I._short(F(-5)) == "-5"
    assert I._short(arb(1) / 3) == "0.333333333333" and I._short("s") == "s"


def test_replay_note():
    note = I.replay_note(D.with_name("foo.json"), "irgf.q")
    assert note.startswith("replay: save this JSON as foo.json and run `python -m verify irgf.q --data foo.json`: ")
    assert note.endswith(D.to_json()) and "irgf_dataset" not in note
    note = I.replay_note(D.with_name("D-SEED0"), "irgf.q")
    assert "irgf_dataset('D-SEED0').save('D-SEED0.json')" in note
    assert "D-SEED0.json" in I.replay_note(D.with_name("D-SEED0.json"), "irgf.q").split("`")[1]


# ----- the flow --------------------------------------------------------------------------------------
def test_grid_for(monkeypatch):
    """p* = 3: ds = 2^round(log2 1) = 1, s_max = 40·3; p* = 1/2: 2^round(log2 1/6 = −2.58) = 1/8, 40·3/2; p* = 12:
    4, 480; p* = 6 (log2 2 = 1): 2; infeasible: (1/2, 60, 1)."""
    for p, want in ((F(5), (2, 200, 5)), (F(3), (1, 120, 3)), (F(1, 2), (F(1, 8), 60, F(1, 2))), (F(12), (4, 480, 12)),
                    (F(6), (2, 240, 6)), (F(3, 2), (F(1, 2), 60, F(3, 2)))):
        monkeypatch.setattr(I, "l1_svm", lambda data, p=p: SimpleNamespace(status="optimal", objective=p)
                            if data is D else None)
        got = I.grid_for(D)
        assert got == want and all(isinstance(x, Fraction) for x in got)
    monkeypatch.setattr(I, "l1_svm", lambda data: SimpleNamespace(status="infeasible", objective=None))
    assert I.grid_for(D) == (F(1, 2), F(60), F(1))


def _traj(status, s_list, betas=None, mus=None):
    recs = [SimpleNamespace(s=s) for s in s_list]
    pts = [SimpleNamespace(beta=(betas or {}).get(k, [arb(1)]), mu=arb((mus or {}).get(k, 2)), l1=arb(1) / 3,
                           log_t=arb(2) / 3) for k in range(len(s_list))]
    return SimpleNamespace(status=status, records=recs, points=lambda: pts, tol_digits=12, summary=lambda: "S")


def test_flow_passes_the_grid_and_drops_s_zero(monkeypatch):
    import verify.dynamics.dual as DD
    seen = {}

    def fake(data, omega0, target_log_l1, ds, s_max, l1_scale):
        seen.update(data=data, omega0=omega0, target=target_log_l1, ds=ds, s_max=s_max, scale=l1_scale)
        return _traj("reached", [0, 1, 2])

    monkeypatch.setattr(DD, "dual_trajectory", fake)
    monkeypatch.setattr(I, "grid_for", lambda data: ("ds", "smax", "scale") if data is D else None)
    traj, recs = I.flow(D, ["1/2"], "7")
    assert seen == {"data": D, "omega0": ["1/2"], "target": "7", "ds": "ds", "s_max": "smax", "scale": "scale"}
    assert [r.s for r, _ in recs] == [1, 2] and recs[0][1] is traj.points()[1]
    I.flow(D)
    assert seen["target"] == I.DEFAULT_TARGET == "10" and seen["omega0"] is None


def _follow(monkeypatch, traj, data=D, out=None):
    recs = [(r, p) for r, p in zip(traj.records, traj.points()) if r.s > 0]
    seen = []
    monkeypatch.setattr(I, "flow", lambda d, omega0, target: seen.append((d, omega0, target)) or (traj, recs))
    out = out or Outcome()
    got = I.follow(out, data, ["1/2", 1], "9")
    assert seen == [(data, ["1/2", 1], "9")]
    return out, got


def test_follow_requires_the_target_and_two_records(monkeypatch):
    out, (traj, recs, reached) = _follow(monkeypatch, _traj("reached", [0, 1, 2]))
    assert reached is True and out.range == "ln(‖β‖₁/p*) ≤ 9"
    assert out.requirements[0].met is True and out.requirements[0].name == "the flow reached ln(‖β‖₁/p*) ≥ 9"
    assert out.requirements[0].detail == "status reached, 2 record(s) beyond s = 0"
    assert out.notes[0].startswith("evidence over the range reached") and out.evidence == []
    out, (_, _, reached) = _follow(monkeypatch, _traj("reached", [0, 1]))
    assert reached is False and out.requirements[0].met is False
    out, (_, _, reached) = _follow(monkeypatch, _traj("max_steps", [0, 1, 2]))
    assert reached is False and out.evidence == []          # β moved: no MOVES item


def test_follow_adds_the_exact_stationary_item_when_beta_never_moved(monkeypatch):
    zero = {1: [arb(0), arb(0)], 2: [arb(0), arb(0)]}
    out, _ = _follow(monkeypatch, _traj("stalled", [0, 1, 2], betas=zero), data=DINF)
    assert [e.quantity for e in out.evidence] == [I.MOVES] and out.evidence[0].decide() is False
    out, _ = _follow(monkeypatch, _traj("stalled", [0, 1, 2], betas=zero), data=D)   # ∇ ≠ 0: not added
    assert out.evidence == []
    part = {1: [arb(0), arb(0)], 2: [arb(0), arb(1)]}
    out, _ = _follow(monkeypatch, _traj("stalled", [0, 1, 2], betas=part), data=DINF)
    assert out.evidence == []
    out = Outcome()
    out.add(Evidence(I.MOVES, False, "==", True))
    out, _ = _follow(monkeypatch, _traj("stalled", [0, 1, 2], betas=zero), data=DINF, out=out)
    assert len(out.evidence) == 1
    out, _ = _follow(monkeypatch, _traj("reached", [0, 1, 2], betas=zero), data=DINF)   # reached: nothing added
    assert out.evidence == []


def _recs(mus):
    return [(k, SimpleNamespace(mu=to_arb(m), nu=to_arb(m))) for k, m in enumerate(mus)]


def test_window_keeps_the_second_half_of_ln_mu():
    e = arb(1).exp()
    recs = _recs([F(1, 2), 1] + [e ** k for k in (1, 2, 4, 5, 6, 7)])   # ln µ ≥ 7/2 → 4 records
    assert [k for k, _ in I.window(recs)] == [4, 5, 6, 7]
    assert [k for k, _ in I.window(recs, min_points=5)] == [3, 4, 5, 6, 7]
    assert [k for k, _ in I.window(recs, min_points=2)] == [4, 5, 6, 7]
    recs = _recs([1, e, e ** 2, e ** 10])                        # one record with ln µ ≥ 5: the last 4 with µ > 1
    assert [k for k, _ in I.window(recs)] == [1, 2, 3]
    assert I.window(_recs([F(1, 2), 1])) == []
    assert [k for k, _ in I.window(recs, key=lambda p: p.nu)] == [1, 2, 3]
    assert [k for k, _ in I.window(_recs([2, 3]), key=lambda p: 1 / p.nu)] == []
    assert [k for k, _ in I.window(_recs([F(3, 2), e ** 10]))] == [0, 1]       # µ = 3/2 > 1 counts
    # the end is the last record: ln µ = (1, 3, 5, 9), half of 9 is 4.5 → (5, 9) with min_points 1
    assert [k for k, _ in I.window(_recs([e, e ** 3, e ** 5, e ** 9]), min_points=1)] == [2, 3]
    # ln µ = (1, 4, 7, 8, 9, 10): ≥ 5 → four records, not the ones ≥ 10/3
    assert [k for k, _ in I.window(_recs([e ** k for k in (1, 4, 7, 8, 9, 10)]))] == [2, 3, 4, 5]
    # not monotone: ln µ = (1, 8, 2, 7, 8, 9): four records ≥ 4.5 (not the last four)
    assert [k for k, _ in I.window(_recs([e ** k for k in (1, 8, 2, 7, 8, 9)]))] == [1, 3, 4, 5]


class _Exact:
    """A key value with an exact logarithm (for the boundary ln µ = (ln µ at the end)/2)."""

    def __init__(self, log):
        self._log = F(log)

    def __gt__(self, other):
        return self._log > 0 if other == 1 else NotImplemented

    def log(self):
        return self._log


def test_window_includes_the_half_way_point():
    recs = [(k, _Exact(x)) for k, x in enumerate((1, 2, 4))]
    assert [k for k, _ in I.window(recs, key=lambda p: p, min_points=1)] == [1, 2]


def test_range_note():
    traj = _traj("reached", [0, 1])
    recs = [(r, p) for r, p in zip(traj.records, traj.points())]
    note = I.range_note(traj, recs)
    assert "‖β‖₁ = 0.333333 (" in note and "(ln µ = 0.69315," in note and "ln t = 0.666667;" in note
    assert "1e-12" in note and "+/-" not in note
    assert note.endswith(" S")
    assert I.range_note(traj, []) == "no record beyond s = 0"
    recs[-1][1].mu = arb(0)
    assert "(µ = 0," in I.range_note(traj, recs) and "ln µ" not in I.range_note(traj, recs)
    recs[-1][1].mu = arb(1) / 2                          # 0 < µ < 1: ln µ < 0 is shown
    assert "(ln µ = -0.69315," in I.range_note(traj, recs)
    recs[-1][1].mu = arb(-1) / 3
    assert "(µ = -0.33333," in I.range_note(traj, recs)


def test_figure_drops_undefined_points_and_empty_series():
    s1 = Series("a", [1, 2, None, 4], [None, 5, 6, 7])
    s2 = Series("b", [1], [None])
    fig = I.figure("n", "t", "x", "y", [s1, s2], logx=True)
    assert fig.series == [s1] and s1.x == [2, 4] and s1.y == [5, 7] and fig.logx is True
    assert (fig.name, fig.title, fig.xlabel, fig.ylabel) == ("n", "t", "x", "y")
    assert I.figure("n", "t", "x", "y", [Series("c", [None], [1])]) is None


def test_the_omega_parameter():
    p = I.OMEGA0_PARAMETER
    assert p.coverage == "range" and p.option == "omega0" and p.kind == "rationals"


def test_to_arb_used_for_scores():
    """initial_loss_and_bounds takes exact rational means: γ = (1/3, 0) → ℒ = e^{−1/6}."""
    data = Dataset.make(X=[[["1/3", 0], [0, 0]]], Y=[1], v=[1, 0])
    L0, (b,) = I.initial_loss_and_bounds(data)
    assert close(L0, mpmath.exp(-mpmath.mpf(1) / 6)) and close(b, mpmath.mpf(1))
    assert to_arb(F(1)) == 1
