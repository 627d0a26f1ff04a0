"""verify.kit.mixing (mutation tests): mmts App. D — the exact score gaps γ⋆_i − γ_it over the non-optimal tokens,
Lemma 14's constants (c_min, c_max) for the linear head (the gaps) and the tanh head (sech²(B)·gap_min, gap_max with
B the largest |order value|), the tokens a rational ray selects (ties kept), the limit loss along a ray (the mean of
the selected tokens), and Assumption D decided: met when c_min > 0 (strict), refuted by a ray selecting within O_i
with a limit loss certainly below P^mm's, undecided otherwise (zero rays skipped, rays leaving O_i skipped, no
certified P^mm). Expected values by hand or mpmath."""
from fractions import Fraction
from types import SimpleNamespace

import mpmath
import pytest
from flint import arb

from verify.data.dataset import Dataset
from verify.kit import mixing as M
from verify.models.heads import ConcaveHead, LinearHead, TanhScalarHead
from verify.numbers.precision import working_precision


@pytest.fixture(autouse=True)
def _digits():
    with working_precision(30):
        yield


def _ds(X, Y, v, K=None):
    return Dataset.make(X, list(Y), list(v), K=K, name="mix")


#: two sequences: order values (vᵀx, Y = +1) (2, 1, 0) and (Y = −1) (−3, −1, −1/2): O = ({0}, {2})
TWO = _ds([[[2, 0], [1, 0], [0, 0]], [[3, 5], [1, 0], ["1/2", 0]]], [1, -1], [1, 0])
SETS = ((0,), (2,))


def test_score_gaps_are_the_extremes_of_gamma_star_minus_gamma_over_the_non_optimal_tokens():
    """Gaps: sequence 1: 2 − 1 = 1, 2 − 0 = 2; sequence 2: −1/2 − (−3) = 5/2, −1/2 − (−1) = 1/2 → (1/2, 5/2)."""
    assert M.score_gaps(TWO, LinearHead((1, 0)), SETS) == (Fraction(1, 2), Fraction(5, 2))
    # larger optimal sets drop their tokens from the gaps: O = ({0, 1}, {1, 2}) leaves 2 − 0 and −1/2 − (−3)
    assert M.score_gaps(TWO, LinearHead((1, 0)), ((0, 1), (1, 2))) == (Fraction(2), Fraction(5, 2))
    assert M.score_gaps(TWO, LinearHead((1, 0)), ((0, 1, 2), (0, 1, 2))) is None


def test_linear_head_constants_are_the_exact_gaps():
    c_min, c_max, how = M.linear_mixing(TWO, LinearHead((1, 0)), SETS)
    assert isinstance(c_min, arb) and isinstance(c_max, arb)
    assert c_min == arb(1) / 2 and c_max == arb(5) / 2       # exact balls (radius 0)
    assert "[1/2, 5/2]" in how


def test_tanh_head_constants_scale_the_smallest_gap_by_sech_squared_of_B():
    """B = max |order value| = 3 (sequence 2, token 1): c_min = sech²(3)·(1/2), c_max = 5/2 (mpmath)."""
    c_min, c_max, how = M.linear_mixing(TWO, TanhScalarHead((1, 0)), SETS)
    expect = mpmath.sech(3) ** 2 / 2
    assert abs(c_min.mid() - arb(mpmath.nstr(expect, 40))) < arb(10) ** -25
    assert c_max == arb(5) / 2
    assert "B = 3" in how


def test_heads_outside_the_sufficient_condition_and_no_gaps_give_none():
    assert M.linear_mixing(TWO, ConcaveHead((1, 0), 1), SETS) is None
    assert M.linear_mixing(TWO, LinearHead((1, 0)), ((0, 1, 2), (0, 1, 2))) is None
    assert M.linear_mixing(TWO, TanhScalarHead((1, 0)), ((0, 1, 2), (0, 1, 2))) is None


def test_selected_by_is_the_argmax_of_the_keys_with_ties():
    """Keys K (not X): sequence 1 keys (1,0), (1,0), (0,1); sequence 2 (0,0), (1,1), (−1,2)."""
    data = _ds([[[0, 0], [0, 0], [0, 0]], [[0, 0], [0, 0], [0, 0]]], [1, 1], [1, 0],
               K=[[[1, 0], [1, 0], [0, 1]], [[0, 0], [1, 1], [-1, 2]]])
    assert M.selected_by(data, (1, 0)) == ((0, 1), (1,))
    assert M.selected_by(data, (0, 1)) == ((2,), (2,))
    assert M.selected_by(data, (1, 1)) == ((0, 1, 2), (1,))
    assert M.selected_by(data, (Fraction(1, 2), Fraction(-1, 3))) == ((0, 1), (1,))   # 1/2 > 1/6 > 0 > −7/6
    assert M.selected_by(data, (0, 0)) == ((0, 1, 2), (0, 1, 2))


def _logistic(u):
    return mpmath.log1p(mpmath.exp(-u))


def _close(x: arb, y) -> bool:
    return abs(x - arb(mpmath.nstr(y, 40))) < arb(10) ** -25


def test_ray_limit_loss_is_the_loss_of_the_mean_selected_token():
    """u = (1, 0) on TWO: sequence 1 selects token 0 (key (2,0)): Y h = 2; sequence 2 selects token 0 (key (3,5)):
    Y h = −3. u = (0, 1): sequence 1 selects all three (keys' 2nd coordinate 0): mean (1, 0), Y h = 1; sequence 2
    selects token 0 (5): −3. The limit is the average of ℓ over the two sequences."""
    head = LinearHead((1, 0))
    val, sel = M.ray_limit_loss(TWO, head, (1, 0))
    assert sel == ((0,), (0,))
    assert _close(val, (_logistic(2) + _logistic(-3)) / 2)
    val, sel = M.ray_limit_loss(TWO, head, (0, 1))
    assert sel == ((0, 1, 2), (0,))
    assert _close(val, (_logistic(1) + _logistic(-3)) / 2)
    # the second coordinate of the mean: head v = (0, 1), u = (0, 1): sequence 1's mean (1, 0) gives h = 0,
    # sequence 2's token (3, 5) gives Y h = −5
    val, sel = M.ray_limit_loss(TWO, LinearHead((0, 1)), (0, 1))
    assert sel == ((0, 1, 2), (0,)) and _close(val, (_logistic(0) + _logistic(-5)) / 2)
    # another loss, by name: exponential e^{−u}
    val, _ = M.ray_limit_loss(TWO, head, (1, 0), loss="exponential")
    assert _close(val, (mpmath.exp(-2) + mpmath.exp(3)) / 2)


def test_ray_limit_loss_averages_the_selected_tokens_coordinatewise():
    """One sequence, keys = tokens (0, 2), (2, 4), (5, 0); u = (−1, 1) ties tokens 0 and 1 (2, 2, −5): their mean
    (1, 3) gives h = 4 with v = (1, 1) and h = 10 with v = (1, 3) (the mean's 1/2 weights on both coordinates)."""
    data = _ds([[[0, 2], [2, 4], [5, 0]]], [1], [1, 1])
    val, sel = M.ray_limit_loss(data, LinearHead((1, 1)), (-1, 1))
    assert sel == ((0, 1),) and _close(val, _logistic(4))
    val, sel = M.ray_limit_loss(data, LinearHead((1, 3)), (-1, 1))   # h = 1 + 9 = 10 at the mean (1, 3)
    assert _close(val, _logistic(10))


# ----- Assumption D -------------------------------------------------------------------------------------------------
#: a concave head h(r) = −‖r‖² (v = 0, λ = 1) on the tokens (1, 0), (−1, 0): both optimal (h = −1), their mean 0 has
#: h = 0 — mixing rewards, Assumption D fails: the ray u = (0, 1) selects both (limit ℓ(0) = ln 2) and beats
#: p^mm = (1, 0) (selects token 0: ℓ(−1) = ln(1 + e))
MIXER = _ds([[[1, 0], [-1, 0]]], [1], [0, 0])
CONCAVE = ConcaveHead((0, 0), 1)
PRIME = SimpleNamespace(status="optimal", solutions=[(1, 0)])


def test_d_refuted_by_a_ray_that_mixes_two_optimal_tokens():
    h = M.assumption_d(MIXER, CONCAVE, ((0, 1),), PRIME, witnesses=[(0, 1)])
    assert h.met is False and h.name == M.ASSUMPTION_D
    assert h.detail.startswith("refuted by the ray u = (0, 1): it selects [[0, 1]] ⊂ O_i with limit loss 0.69314718 "
                               "certainly < 1.3132617 = lim L(R·p^mm), p^mm = (1, 0)")   # ln 2, ln(1 + e)


def test_d_skips_the_zero_ray_and_keeps_looking():
    """u = 0 would "select" both tokens too, but it is no ray: alone it leaves D undecided; before a real witness
    it does not stop the search."""
    h = M.assumption_d(MIXER, CONCAVE, ((0, 1),), PRIME, witnesses=[(0, 0)])
    assert (h.name, h.met) == (M.ASSUMPTION_D, None) and h.detail.startswith("not decided: the head is outside")
    assert M.assumption_d(MIXER, CONCAVE, ((0, 1),), PRIME, witnesses=[(0, 0), (0, 1)]).met is False


def test_d_ignores_a_ray_that_selects_outside_the_optimal_sets():
    """With O = ({0},) the mixing ray selects token 1 ∉ O: skipped (undecided); after it, a ray selecting within O
    but not beating p^mm (u = (1, 0) is p^mm itself) leaves D undecided; a later mixing ray with O = {0, 1} decides."""
    assert M.assumption_d(MIXER, CONCAVE, ((0,),), PRIME, witnesses=[(0, 1)]).met is None
    assert M.assumption_d(MIXER, CONCAVE, ((0, 1),), PRIME, witnesses=[(1, 0)]).met is None
    assert M.assumption_d(MIXER, CONCAVE, ((0, 1),), PRIME, witnesses=[(1, 0), (-1, 0), (0, -1)]).met is False


def test_d_needs_a_certified_p_mm():
    for prime in (None, SimpleNamespace(status="infeasible", solutions=[(1, 0)]),
                  SimpleNamespace(status="unknown", solutions=[(1, 0)])):
        assert M.assumption_d(MIXER, CONCAVE, ((0, 1),), prime, witnesses=[(0, 1)]).met is None


def test_d_beaten_by_any_of_several_p_mm():
    """Two P^mm directions: (0, 1) selects both tokens (limit ln 2, not beaten by the same limit), (1, 0) is beaten."""
    prime = SimpleNamespace(status="optimal", solutions=[(0, 1), (1, 0)])
    assert M.assumption_d(MIXER, CONCAVE, ((0, 1),), prime, witnesses=[(0, 1)]).met is False
    prime = SimpleNamespace(status="optimal", solutions=[(0, 1)])
    assert M.assumption_d(MIXER, CONCAVE, ((0, 1),), prime, witnesses=[(0, -1)]).met is None


def test_d_met_by_linear_mixing_only_when_c_min_is_positive():
    """Linear head on TWO: c_min = 1/2 > 0 → met (whatever the prime). Given sets that leave a tied token out of O
    (token 1 of (1, 1, 0) with O = {0}): gap_min = 0, c_min = 0 is not > 0 → falls through (no prime: undecided)."""
    h = M.assumption_d(TWO, LinearHead((1, 0)), SETS, None)
    assert (h.name, h.met) == (M.ASSUMPTION_D, True)
    assert h.detail == ("implied by linear label mixing (Lemma 14, (85)): linear head: c_it = γ⋆_i − γ_it ∈ [1/2, 5/2] "
                        "(exact); c_min > 0 certified")
    assert M.assumption_d(TWO, TanhScalarHead((1, 0)), SETS, None).met is True
    tied = _ds([[[1, 0], [1, 0], [0, 0]]], [1], [1, 0])
    assert M.assumption_d(tied, LinearHead((1, 0)), ((0,),), None).met is None
    # … and then the ray search runs: u = (0, 1) selects all three tokens, ⊄ O = {0}: skipped; u = (1, 0) selects
    # {0, 1} ⊄ {0}: skipped — undecided
    prime = SimpleNamespace(status="optimal", solutions=[(1, 0)])
    assert M.assumption_d(tied, LinearHead((1, 0)), ((0,),), prime, witnesses=[(0, 1), (1, 0)]).met is None


def test_d_default_loss_is_logistic():
    """Under the exponential loss the same refutation holds (e^0 = 1 < e^1); the default (logistic) is used when no
    loss is named — an unknown default name would raise."""
    assert M.assumption_d(MIXER, CONCAVE, ((0, 1),), PRIME, witnesses=[(0, 1)], loss="exponential").met is False
    assert M.assumption_d(MIXER, CONCAVE, ((0, 1),), PRIME, witnesses=[(0, 1)]).met is False


#: a head outside Lemma 14's class (ConcaveHead with λ = 0: h = vᵀr, but not a LinearHead): tokens (0, 0) with Y h = 0
#: and (1/5, 0) with Y h = 1/5; p^mm = (−1, 0) selects token 0 (limit ℓ(0)), the ray (1, 0) token 1 (limit ℓ(1/5))
FLAT = _ds([[[0, 0], ["1/5", 0]]], [1], [1, 0])
FLAT_HEAD = ConcaveHead((1, 0), 0)
FLAT_PRIME = SimpleNamespace(status="optimal", solutions=[(-1, 0)])


def test_d_compares_both_limits_under_the_loss_asked_for():
    """Exponential loss: e^{−1/5} ≈ 0.819 < e^0 = 1 → refuted; under the logistic loss for the reference only it would
    be compared with ln 2 ≈ 0.693 (not beaten). The ray (−1, 0) is p^mm itself: e^0 = 1 exactly on both sides — not
    certainly below (strict), undecided; under the logistic loss for the ray only it would be ln 2 < 1."""
    h = M.assumption_d(FLAT, FLAT_HEAD, ((0, 1),), FLAT_PRIME, witnesses=[(1, 0)], loss="exponential")
    assert h.met is False
    h = M.assumption_d(FLAT, FLAT_HEAD, ((0, 1),), FLAT_PRIME, witnesses=[(-1, 0)], loss="exponential")
    assert h.met is None


def test_d_keeps_looking_after_a_ray_that_leaves_the_optimal_sets():
    """O = ({1},): the ray (−1, 0) selects token 0 ∉ O (skipped), then (1, 0) selects token 1 and refutes."""
    h = M.assumption_d(FLAT, FLAT_HEAD, ((1,),), FLAT_PRIME, witnesses=[(-1, 0), (1, 0)], loss="exponential")
    assert h.met is False
