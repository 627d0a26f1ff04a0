"""Optimality certificates in ball arithmetic (verify.svm.certificate._ball_certificate) and their JSON,
and Farkas certificates (verify.svm.farkas), on small problems solved by hand:

* ℓ2:  min ‖x‖₂ s.t. x₁ ≥ c, x₂ ≥ c — optimum x = λ = (c, c), value c√2;
* ℓ1:  min ‖w‖₁ s.t. 2w₁ + w₂ ≥ 2, w₂ ≥ 1 — optimum w = (½, 1), λ = (½, ½), value 3/2;
* nuclear (tfsvm D-NUC): min ‖W‖_* s.t. W₁₁ ≥ 1, W₂₂ ≥ 1 — optimum W = I, λ = (1, 1), value 2.

Inputs given as arb balls take the working-precision path (the exact path is tests/test_svm_exact.py);
every expected residual and bound is computed here from the definitions in the module docstring."""
from __future__ import annotations

from fractions import Fraction as F

import pytest
from flint import arb

from verify.numbers.precision import working_precision
from verify.svm import find_farkas, problem_from_rows, verify_certificate, verify_farkas
from verify.svm.certificate import FIELDS, Certificate, _upper_max, active_exact
from verify.svm.problems import build_problem

DPS = 40


@pytest.fixture(autouse=True)
def prec():
    with working_precision(60):
        yield


def balls(*vals):
    return [arb(F(v).numerator) / F(v).denominator for v in vals]


def is_exactly(ball, value) -> bool:
    """The ball is the exact number ``value`` (a Fraction)."""
    v = F(value)
    return ball.is_exact() and ball == arb(v.numerator) / v.denominator


def close(ball, value, eps=F(1, 10**45)) -> bool:
    """|ball − value| certainly below eps (value an arb or a Fraction)."""
    v = value if isinstance(value, arb) else arb(F(value).numerator) / F(value).denominator
    return bool(abs(ball - v) < arb(eps.numerator) / eps.denominator)


def near(ball, value) -> bool:
    """Equal up to the rounding of inputs of size ~100 at the working precision (60 digits): the residuals
    below are differences of such inputs, so 15 relative digits or 10⁻⁶⁵ absolute."""
    v = arb(F(value).numerator) / F(value).denominator
    return bool(abs(ball - v) <= abs(v) * arb(10) ** -15 + arb(10) ** -65)


def l2(c=1, rhs=None):
    return problem_from_rows([[1, 0], [0, 1]], rhs or [c, c], norm="l2")


def l1():
    return problem_from_rows([[2, 1], [0, 1]], [2, 1], norm="l1")


def nuc():
    return problem_from_rows([[1, 0, 0, 0], [0, 0, 0, 1]], [1, 1], norm="nuc", shape=(2, 2))


# ----- ℓ2 (and Frobenius) ---------------------------------------------------------------------------
def test_l2_optimum_passes_with_zero_residuals_and_tight_bounds():
    c = verify_certificate(l2(), balls(1, 1), balls(1, 1), DPS)
    assert c.passed and not c.exact and c.norm == "l2" and c.notes == []
    for k in FIELDS:
        assert is_exactly(getattr(c, k), 0), k
    assert close(c.lower, arb(2).sqrt()) and c.lower <= arb(2).sqrt()  # rounded down: certified
    assert close(c.upper, arb(2).sqrt())
    assert is_exactly(c.tolerance, F(1, 10**DPS)) or close(c.tolerance, F(1, 10**DPS), F(1, 10**100))


def test_l2_residuals_of_an_infeasible_point():
    # x = (½, 1), λ = (1, 1): slack (−½, 0); x − Aᵀλ = (−½, 0); gap ½‖x‖² − (bᵀλ − ½‖Aᵀλ‖²) = 5/8 − 1
    c = verify_certificate(l2(), balls("1/2", 1), balls(1, 1), DPS)
    assert not c.passed
    assert is_exactly(c.primal_residual, F(1, 2)) and is_exactly(c.dual_residual, F(1, 2))
    assert is_exactly(c.complementarity, F(1, 2)) and is_exactly(c.duality_gap, F(-3, 8))
    assert close(c.lower, arb(2).sqrt())  # from λ alone: √(2bᵀλ − ‖Aᵀλ‖²) = √2
    # rescaled to feasibility by t = min_j a_jᵀx/b_j = ½: (1, 2), norm √5
    assert close(c.upper, arb(5).sqrt())


def test_l2_upper_bound_from_a_point_beyond_the_constraints():
    c = verify_certificate(l2(), balls(2, 3), balls(1, 1), DPS)  # t = 2 ≥ 1: the point itself
    assert close(c.upper, arb(13).sqrt()) and is_exactly(c.primal_residual, 0)
    assert is_exactly(c.complementarity, 2)  # max(|1·1|, |1·2|)
    assert is_exactly(c.dual_residual, 2) and not c.passed


def test_l2_negative_multipliers():
    # λ = (−1, 2): neg = 1; λ⁺ = (0, 2): lower = √(2·2 − 4) = 0; dual max(1, |x − Aᵀλ|∞ = 2)
    c = verify_certificate(l2(), balls(1, 1), balls(-1, 2), DPS)
    assert is_exactly(c.dual_residual, 2) and is_exactly(c.lower, 0)
    c = verify_certificate(l2(), balls(1, 1), balls(-3, 1), DPS)  # neg = 3 > |x − Aᵀλ|∞ = 4? no: 4
    assert is_exactly(c.dual_residual, 4)
    c = verify_certificate(l2(), balls(-2, 1), balls(-3, 1), DPS)  # x − Aᵀλ = (1, 0): neg = 3 wins
    assert is_exactly(c.dual_residual, 3)
    # λ = (1, −1): λ⁺ = (1, 0), lower √(2·1 − 1) = 1 (bᵀλ = 0 would give none)
    c = verify_certificate(l2(), balls(1, 1), balls(1, -1), DPS)
    assert is_exactly(c.lower, 1) and is_exactly(c.duality_gap, 2)  # 1 − (0 − 1)


def test_l2_lower_bound_is_zero_when_the_dual_bound_is_negative():
    c = verify_certificate(l2(), balls(1, 1), balls(3, 3), DPS)  # 2bᵀλ − ‖Aᵀλ‖² = 12 − 18 < 0
    assert is_exactly(c.lower, 0)
    c = verify_certificate(l2(), balls(1, 1), balls(0, 0), DPS)  # 0: no lower bound
    assert is_exactly(c.lower, 0) and is_exactly(c.duality_gap, 1)


def test_tolerances_are_relative_to_the_scale_of_b_and_the_value():
    """x = λ = (c − δ, c), δ = c·10⁻ᵈᵖˢ/2: primal residual δ ≤ 10⁻ᵈᵖˢ·max|b| = c·10⁻ᵈᵖˢ, gap and
    complementarity δ(c − δ) ≤ 10⁻ᵈᵖˢ·‖x‖² ≈ 2c²·10⁻ᵈᵖˢ; all fail at 3δ (primal, gap) — with c = 100."""
    c0 = 100
    delta = F(c0, 2 * 10**DPS)
    ok = verify_certificate(l2(c0), balls(c0 - delta, c0), balls(c0 - delta, c0), DPS)
    assert ok.passed and near(ok.primal_residual, delta) and near(ok.dual_residual, 0)
    assert near(ok.complementarity, delta * (c0 - delta)) and near(ok.duality_gap, -delta * (c0 - delta))
    bad = verify_certificate(l2(c0), balls(c0 - 3 * delta, c0), balls(c0 - 3 * delta, c0), DPS)
    assert not bad.passed  # primal 1.5·c·10⁻ᵈᵖˢ
    # feasible: x = λ = (c + δ', c), gap and complementarity δ'(c + δ'); fail above ‖x‖²·10⁻ᵈᵖˢ ≈ 2c²·10⁻ᵈᵖˢ
    for k, expect in ((1, True), (3, False)):
        d2 = F(k * c0, 10**DPS)
        cc = verify_certificate(l2(c0), balls(c0 + d2, c0), balls(c0 + d2, c0), DPS)
        assert is_exactly(cc.primal_residual, 0) and near(cc.dual_residual, 0)
        assert cc.passed is expect, k


def test_the_dual_tolerance_is_absolute():
    # x = (1, 1), λ = (1 + ε, 1): dual residual ε, gap ε²/2; passes for ε = ½·10⁻ᵈᵖˢ, fails for 2·10⁻ᵈᵖˢ
    for eps, expect in ((F(1, 2 * 10**DPS), True), (F(2, 10**DPS), False)):
        c = verify_certificate(l2(), balls(1, 1), balls(1 + eps, 1), DPS)
        assert near(c.dual_residual, eps) and near(c.duality_gap, eps ** 2 / 2)
        assert c.passed is expect


def test_gap_and_complementarity_tolerance_near_one():
    # b = (1, 1), x = λ = (1, 1 + s): dual residual 0, complementarity (1 + s)s, and the gap
    # ½‖x‖² − (bᵀλ − ½‖λ‖²) = ‖x‖² − bᵀλ = s(1 + s); ‖x‖² ≈ 2: the tolerance is ≈ 2·10⁻ᵈᵖˢ
    for s, expect in ((F(1, 10**DPS), True), (F(4, 10**DPS), False)):
        c = verify_certificate(l2(), balls(1, 1 + s), balls(1, 1 + s), DPS)
        assert near(c.complementarity, s * (1 + s)) and near(c.duality_gap, s * (1 + s))
        assert c.passed is expect


def test_every_residual_must_pass():
    # x = (½, 1), λ = (0, 1): complementarity 0 and gap ½·5/4 − (1 − ½) = 1/8, but primal ½ and dual 1
    c = verify_certificate(l2(), balls("1/2", 1), balls(0, 1), DPS)
    assert is_exactly(c.complementarity, 0) and is_exactly(c.primal_residual, F(1, 2)) and not c.passed
    # x = (1, 1), λ = (1, 1 + 10⁻³⁰): only the dual residual (and the gap, 10⁻⁶⁰/2) is off
    c = verify_certificate(l2(), balls(1, 1), balls(1, 1 + F(1, 10**30)), DPS)
    assert is_exactly(c.primal_residual, 0) and near(c.complementarity, 0) and not c.passed


def test_frobenius_scales_like_l2():
    pr = problem_from_rows([[1, 0, 0, 0], [0, 0, 0, 1]], [1, 1], norm="fro", shape=(2, 2))
    c = verify_certificate(pr, balls(1, 0, 0, 1), balls(1, 1), DPS)
    assert c.passed and c.norm == "fro" and close(c.upper, arb(2).sqrt())
    s = F(1, 10**DPS)  # complementarity s(1+s) against ‖W‖²·10⁻ᵈᵖˢ = (2 + ...)·10⁻ᵈᵖˢ: passes as for ℓ2
    assert verify_certificate(pr, balls(1, 0, 0, 1 + s), balls(1, 1 + s), DPS).passed


# ----- the upper bound: rescaling to feasibility ----------------------------------------------------
def test_no_upper_bound_when_a_zero_or_negative_row_is_violated():
    pr = problem_from_rows([[1, 0], [1, -1]], [1, 0], norm="l2")  # x₁ ≥ 1, x₁ − x₂ ≥ 0
    assert close(verify_certificate(pr, balls(1, 0), balls(1, 0), DPS).upper, 1)
    assert close(verify_certificate(pr, balls(1, 1), balls(1, 0), DPS).upper, arb(2).sqrt())  # slack 0 is fine
    assert verify_certificate(pr, balls(1, 2), balls(1, 0), DPS).upper == arb("inf")
    neg = problem_from_rows([[1, 0], [0, 1]], [1, -1], norm="l2")  # x₁ ≥ 1, x₂ ≥ −1
    assert close(verify_certificate(neg, balls(1, -1), balls(1, 0), DPS).upper, arb(2).sqrt())
    assert verify_certificate(neg, balls(1, -2), balls(1, 0), DPS).upper == arb("inf")
    # feasible in the negative row but t = ½ < 1: rescaling could break x₂ ≥ −1, so no bound
    assert verify_certificate(neg, balls("1/2", -1), balls(1, 0), DPS).upper == arb("inf")


def test_rescaling_needs_a_positive_ratio():
    assert verify_certificate(l2(), balls(0, 1), balls(1, 1), DPS).upper == arb("inf")  # t = 0
    assert verify_certificate(l2(), balls(-1, 1), balls(1, 1), DPS).upper == arb("inf")  # t < 0
    c = verify_certificate(l2(), balls("1/4", 2), balls(1, 1), DPS)  # t = ¼: (1, 8)
    assert close(c.upper, arb(65).sqrt())


def test_only_zero_right_hand_sides_use_the_point_itself():
    pr = problem_from_rows([[1, -1], [0, 1]], [0, 0], norm="l2")
    assert close(verify_certificate(pr, balls(3, 1), balls(0, 0), DPS).upper, arb(10).sqrt())


def test_the_ratio_is_the_smallest_lower_end():
    # a ball ratio: x₁ = ½ ± r gives t = its lower end ½ − r, the upper bound grows with it
    x1 = arb(1) / 2 + arb(0, 2.0 ** -30)
    c = verify_certificate(l2(), [x1, arb(1)], balls(1, 1), DPS)
    r = x1.rad()  # ≥ 2^-30 (radii are rounded up)
    t_low = arb(1) / 2 - r
    assert c.upper.upper() >= arb(5).sqrt()  # still an upper bound
    assert close(c.upper.mid(), arb("1.25").sqrt() / t_low, F(1, 10**15))  # divided by the lower end, not by ½


# ----- ℓ1 ------------------------------------------------------------------------------------------
def test_l1_optimum():
    c = verify_certificate(l1(), balls("1/2", 1), balls("1/2", "1/2"), DPS)
    assert c.passed and c.norm == "l1"
    for k in FIELDS:
        assert is_exactly(getattr(c, k), 0), k
    assert is_exactly(c.lower, F(3, 2)) and is_exactly(c.upper, F(3, 2))


def test_l1_dual_infeasible_multipliers_are_rescaled_for_the_lower_bound():
    # λ = (1, ½): Aᵀλ = (2, 3/2), ‖·‖∞ = 2: dual residual 1; bᵀλ = 5/2: lower 5/4, gap 3/2 − 5/2
    c = verify_certificate(l1(), balls("1/2", 1), balls(1, "1/2"), DPS)
    assert is_exactly(c.dual_residual, 1) and is_exactly(c.lower, F(5, 4)) and is_exactly(c.duality_gap, -1)
    assert not c.passed and is_exactly(c.upper, F(3, 2))


def test_l1_small_multipliers_are_not_scaled_up():
    # λ = (¼, ¼): ‖Aᵀλ‖∞ = ½ < 1: lower = bᵀλ = 3/4 (not divided by ½)
    c = verify_certificate(l1(), balls("1/2", 1), balls("1/4", "1/4"), DPS)
    assert is_exactly(c.lower, F(3, 4)) and is_exactly(c.dual_residual, 0) and is_exactly(c.duality_gap, F(3, 4))


def test_l1_negative_multipliers():
    # λ = (−½, 1): neg ½; Aᵀλ = (−1, ½): ‖·‖∞ − 1 = 0; λ⁺ = (0, 1): lower 1; bᵀλ = 0: gap 3/2
    c = verify_certificate(l1(), balls("1/2", 1), balls("-1/2", 1), DPS)
    assert is_exactly(c.dual_residual, F(1, 2)) and is_exactly(c.lower, 1) and is_exactly(c.duality_gap, F(3, 2))
    # a ball across 0 counts with its positive part: λ₁ ∈ [−¼, ¼], λ⁺ ⊂ [0, ¼]
    lam1 = arb(0, 0.25)
    c = verify_certificate(l1(), balls("1/2", 1), [lam1, arb(1)], DPS)
    # bᵀλ⁺ = 2λ₁⁺ + 1 ≥ 1 over max(‖Aᵀλ⁺‖∞ ≤ 1 + ¼, 1): 4/5 (less the rounding up of the radius)
    assert arb(4) / 5 - arb(10) ** -8 < c.lower <= arb(4) / 5


def test_l1_value_counts_absolute_values():
    # w = (−½, 2): 2w₁ + w₂ = 1 < 2 violates row 0 by 1; ‖w‖₁ = 5/2
    c = verify_certificate(l1(), balls("-1/2", 2), balls("1/2", "1/2"), DPS)
    assert is_exactly(c.primal_residual, 1) and is_exactly(c.duality_gap, 1)  # 5/2 − 3/2
    assert is_exactly(c.complementarity, F(1, 2))  # max(|½·(−1)|, |½·1|)
    assert close(c.upper, 5)  # t = min(1/2, 2) = ½: (−1, 4), ‖·‖₁ = 5


def test_l1_tolerances():
    # w = (½ + s, 1): feasible, slack 2s in row 0: gap s, complementarity s; the value is 3/2 (no ‖x‖ factor)
    for s, expect in ((F(1, 2 * 10**DPS), True), (F(2, 10**DPS), False)):
        c = verify_certificate(l1(), balls(F(1, 2) + s, 1), balls("1/2", "1/2"), DPS)
        assert near(c.duality_gap, s) and near(c.complementarity, s)
        assert c.passed is expect


# ----- nuclear (always in balls) --------------------------------------------------------------------
def test_nuclear_optimum_exact_inputs_take_the_ball_path():
    c = verify_certificate(nuc(), [1, 0, 0, 1], [1, 1], DPS)  # exact numbers, but a nuclear problem
    assert not c.exact and c.passed and c.norm == "nuc"
    assert c.lower <= arb(2) <= c.upper and close(c.lower, 2, F(1, 10**50)) and close(c.upper, 2, F(1, 10**50))
    assert c.dual_residual <= arb(10) ** -50 and abs(c.duality_gap) <= arb(10) ** -50


def test_nuclear_dual_residual_is_the_spectral_excess():
    # λ = (2, 1): Σλ_j A_j = diag(2, 1), spectral norm 2: dual residual 1; bᵀλ = 3: lower 3/2; gap 2 − 3
    c = verify_certificate(nuc(), balls(1, 0, 0, 1), balls(2, 1), DPS)
    assert close(c.dual_residual, 1, F(1, 10**40)) and c.dual_residual >= 1
    assert close(c.lower, F(3, 2), F(1, 10**40)) and c.lower <= arb(3) / 2
    assert close(c.duality_gap, -1, F(1, 10**40)) and not c.passed
    # λ = (½, ½): spectral ½ < 1: no residual, lower = bᵀλ = 1 (not scaled up)
    c = verify_certificate(nuc(), balls(1, 0, 0, 1), balls("1/2", "1/2"), DPS)
    assert is_exactly(c.dual_residual, 0) and close(c.lower, 1, F(1, 10**40)) and close(c.duality_gap, 1, F(1, 10**40))


def test_nuclear_negative_multiplier_and_a_non_square_value():
    # W = [[1, 1], [1, 1]] is feasible with ‖W‖_* = 2; λ = (−1, 2): neg 1, λ⁺ = (0, 2): lower 2/2 = 1
    c = verify_certificate(nuc(), balls(1, 1, 1, 1), balls(-1, 2), DPS)
    assert close(c.dual_residual, 1, F(1, 10**40)) and close(c.lower, 1, F(1, 10**40))
    assert close(c.upper, 2, F(1, 10**40)) and close(c.duality_gap, 1, F(1, 10**40))  # 2 − (−1 + 2)
    # W = [[3, 1], [−1, 1]] (singular values √10 ± √2... nuclear 4√(1 + ...)): use diag(3, 1): nuclear 4,
    # feasible: upper 4; diag(½, 2): t = ½, upper (5/2)/(½) = 5
    assert close(verify_certificate(nuc(), balls(3, 0, 0, 1), balls(1, 1), DPS).upper, 4, F(1, 10**40))
    assert close(verify_certificate(nuc(), balls("1/2", 0, 0, 2), balls(1, 1), DPS).upper, 5, F(1, 10**40))


# ----- the JSON of certificates ---------------------------------------------------------------------
def test_certificate_json_reports_upper_ends():
    c = verify_certificate(l2(), balls("1/2", 1), balls(1, 1), DPS)
    js = c.to_json(30)
    assert js == {"primal_residual": "0.5", "dual_residual": "0.5", "complementarity": "0.5",
                  "duality_gap": "-0.375"}
    assert c.residuals() == {k: getattr(c, k) for k in FIELDS}
    third = Certificate("l2", arb(1) / 3, arb(1, 0.5), arb(0), arb(-1) / 3, arb(0), arb(1), False, False)
    js = third.to_json(30)  # balls: at most 20 digits, of the upper end
    assert js["primal_residual"] == "0." + "3" * 20 and js["duality_gap"] == "-0." + "3" * 20
    assert third.to_json(5)["primal_residual"] == "0.33333"
    up = F(js["dual_residual"])  # 1 ± ½ reports its upper end, 3/2 (the radius rounded up), not 1
    assert F(3, 2) <= up < F(3, 2) + F(1, 10**8) and len(js["dual_residual"].replace(".", "")) <= 20
    inf = Certificate("l2", arb("inf"), arb("nan"), arb(0), arb(0), arb(0), arb(1), False, False)
    assert inf.to_json(10)["primal_residual"] == "inf" and inf.to_json(10)["dual_residual"] == "nan"


def test_exact_certificate_json_keeps_every_digit_asked():
    pr = problem_from_rows([[3, 0], [0, 3]], [1, 1], norm="l2")
    c = verify_certificate(pr, [F(1, 3), F(1, 2)], [F(1, 9), F(1, 9)], DPS)  # slack (0, ½), x − Aᵀλ = (0, 1/6)
    assert c.exact and not c.passed
    js = c.to_json(30)
    assert js["dual_residual"] == "0." + "1" + "6" * 28 + "7" and js["primal_residual"] == "0"
    assert js["complementarity"] == "0.0" + "5" * 29 + "6"  # (1/9)(1/2) = 1/18


def test_upper_max_takes_upper_ends():
    assert _upper_max([]) == 0
    m = _upper_max([arb(1, 0.5), arb(2, 0.25), F(1, 2)])
    assert m.is_exact() and arb("2.25") <= m < arb("2.2500001")  # the upper end of 2 ± ¼
    assert _upper_max([F(-1), arb(-3, 1)]) == arb(-1)
    assert _upper_max([F(3, 2), arb(1)]) == arb("1.5")


def test_active_rows_at_an_exact_point():
    pr = problem_from_rows([[1, 0], [0, 1], [1, 1]], [1, 1, 3], norm="l2")
    assert active_exact(pr, [F(1), F(2)]) == [0, 2]
    assert active_exact(pr, [F(2), F(1)]) == [1, 2]
    assert active_exact(pr, [F(2), F(2)]) == []


# ----- Farkas ---------------------------------------------------------------------------------------
def line():
    """x ≥ 1, −x ≥ 1 (inconsistent), x ≥ −5: rows (1), (−1), (1), b = (1, 1, −5)."""
    return problem_from_rows([[1], [-1], [1]], [1, 1, -5], norm="l2")


def test_farkas_valid_vectors_are_normalised():
    f = verify_farkas(line(), [1, 1, 0])
    assert f.passed and f.lam == [F(1, 2), F(1, 2), 0] and f.residual == 0 and f.rhs == 1
    assert f.rows == [(0, 0), (1, 0)]
    g = verify_farkas(line(), [F(1, 4), F(1, 4), 0])  # a sum below 1 is normalised too
    assert g.passed and g.lam == f.lam and g.rhs == 1
    h = verify_farkas(line(), [3, 2, 1])  # 3 − 2 + 1 = 2 ≠ 0: residual 2/6
    assert not h.passed and h.residual == F(1, 3) and h.rhs == F(3 + 2 - 5, 6) and h.rows == [(0, 0), (1, 0), (2, 0)]


def test_farkas_each_condition_alone():
    assert not verify_farkas(line(), [2, 1, -1]).passed  # Σλa = 0, Σλb = 8 > 0, but λ₃ < 0
    z = verify_farkas(line(), [2, 3, 1])  # Σλa = 0 but Σλb = 0
    assert z.residual == 0 and z.rhs == 0 and not z.passed
    n = verify_farkas(line(), [0, 1, 1])  # Σλa = 0, Σλb = −4
    assert n.residual == 0 and n.rhs < 0 and not n.passed
    o = verify_farkas(line(), [0, 0, 0])  # nothing to normalise
    assert not o.passed and o.lam == [0, 0, 0] and o.rows == [] and o.rhs == 0


def test_farkas_zero_dimensional_row():
    pr = problem_from_rows([[]], [1], norm="l2")  # the constraint 0 ≥ 1
    f = verify_farkas(pr, [1])
    assert f.passed and f.residual == 0 and f.rhs == 1


def test_farkas_json():
    f = verify_farkas(line(), [1, 2, 0])  # λ = (1/3, 2/3, 0): Σλa = −1/3
    js = f.to_json(5)
    assert js == {"lambda": ["0.33333", "0.66667", "0"], "support": [[0, 0], [1, 0]], "sum_lambda_b": "1",
                  "residual": "0.33333", "passed": False}
    assert verify_farkas(line(), [1, 1, 0]).to_json(3)["passed"] is True


def test_find_farkas():
    f = find_farkas(line())
    assert f is not None and f.passed and f.residual == 0 and f.rhs > 0 and sum(f.lam) == 1
    assert find_farkas(l2()) is None
    from verify.data.dataset import Dataset

    opp = Dataset.make(X=[[[1, 0], [0, 1]], [[1, 0], [0, 1]]], Y=[1, -1], v=[1, 0])
    f = find_farkas(build_problem(opp, "p", "opt"))
    assert f.passed and f.lam == [F(1, 2), F(1, 2)] and f.rows == [(0, 1), (1, 0)]


# ----- edge cases of the tolerances and bounds ------------------------------------------------------
def test_all_zero_right_hand_sides():
    """x ≥ 0 row-wise (b = 0): x = 0 is optimal with value 0; the primal tolerance 10⁻ᵈᵖˢ·max|b| is 0 and
    0 ≤ 0 passes; with no value the gap is measured against 10⁻ᵈᵖˢ (scale 1)."""
    pr = problem_from_rows([[1, 0], [0, 1]], [0, 0], norm="l2")
    c = verify_certificate(pr, balls(0, 0), balls(0, 0), DPS)
    assert c.passed and is_exactly(c.upper, 0) and is_exactly(c.lower, 0)
    eps = F(1, 2 * 10**DPS)  # λ = (ε, 0): dual residual ε ≤ 10⁻ᵈᵖˢ, gap ε²/2 > 0 but ≤ 10⁻ᵈᵖˢ
    c = verify_certificate(pr, balls(0, 0), balls(eps, 0), DPS)
    assert near(c.duality_gap, eps ** 2 / 2) and c.passed
    c = verify_certificate(pr, balls(0, -F(1, 10**60)), balls(0, 0), DPS)  # the slightest violation fails
    assert not c.passed and near(c.primal_residual, F(1, 10**60))


def test_tolerances_at_a_small_scale():
    """b = (c, c) with c = 1/100: the primal tolerance is c·10⁻ᵈᵖˢ (not 10⁻ᵈᵖˢ), and the gap and
    complementarity tolerance ‖x‖²·10⁻ᵈᵖˢ ≈ 2c²·10⁻ᵈᵖˢ (not 10⁻ᵈᵖˢ)."""
    c0 = F(1, 100)
    tol = F(1, 10**DPS)
    d = 3 * c0 * tol / 2  # x = λ = (c − d, c): primal d > c·10⁻ᵈᵖˢ, gap and complementarity ≈ c·d < 10⁻ᵈᵖˢ
    assert not verify_certificate(l2(c0), balls(c0 - d, c0), balls(c0 - d, c0), DPS).passed
    d = 3 * c0 * tol  # x = λ = (c + d, c): feasible; gap and complementarity ≈ c·d = 3c²·10⁻ᵈᵖˢ > 2c²·10⁻ᵈᵖˢ
    cc = verify_certificate(l2(c0), balls(c0 + d, c0), balls(c0 + d, c0), DPS)
    assert near(cc.primal_residual, 0) and not cc.passed  # (0 up to the rounding of 1/100)
    d = c0 * tol  # c·d = c²·10⁻ᵈᵖˢ: passes
    assert verify_certificate(l2(c0), balls(c0 + d, c0), balls(c0 + d, c0), DPS).passed


def test_a_zero_point_measures_the_gap_against_one():
    # x ≥ −1 with row ¼ (¼x ≥ −1): x = 0, λ = ε: dual |0 − ε/4| = ε/4, complementarity ε·1, gap ε + ε²/32;
    # against 10⁻ᵈᵖˢ (no value to scale by): ε = 1.5·10⁻ᵈᵖˢ fails, ε = ½·10⁻ᵈᵖˢ passes
    pr = problem_from_rows([[F(1, 4)]], [-1], norm="l2")
    for eps, expect in ((F(3, 2 * 10**DPS), False), (F(1, 2 * 10**DPS), True)):
        c = verify_certificate(pr, balls(0), balls(eps), DPS)
        assert near(c.complementarity, eps) and near(c.dual_residual, eps / 4) and c.passed is expect


def test_frobenius_gap_tolerance_is_quadratic_in_the_value():
    # W = diag(1, 1 + s), λ = (1, 1 + s): gap = complementarity = s(1 + s) against ‖W‖²·10⁻ᵈᵖˢ ≈ 2·10⁻ᵈᵖˢ;
    # s = 1.7·10⁻ᵈᵖˢ passes (it would not against ‖W‖·10⁻ᵈᵖˢ ≈ 1.41·10⁻ᵈᵖˢ)
    pr = problem_from_rows([[1, 0, 0, 0], [0, 0, 0, 1]], [1, 1], norm="fro", shape=(2, 2))
    s = F(17, 10 * 10**DPS)
    c = verify_certificate(pr, balls(1, 0, 0, 1 + s), balls(1, 1 + s), DPS)
    assert near(c.duality_gap, s * (1 + s)) and c.passed
    assert not verify_certificate(pr, balls(1, 0, 0, 1 + 3 * s), balls(1, 1 + 3 * s), DPS).passed


def test_the_exact_flag():
    assert verify_certificate(l2(), balls(1, 1), balls(1, 1), DPS).exact is False
    assert verify_certificate(l2(), [1, 1], [1, 1], DPS).exact is True


def test_non_finite_inputs_never_pass():
    c = verify_certificate(l2(), [arb(1), arb("nan")], balls(1, 1), DPS)
    assert not c.passed
    c = verify_certificate(l1(), [arb(1), arb(0, float("inf"))], balls("1/2", "1/2"), DPS)
    assert not c.passed


def test_zero_dimensional_problems():
    # min ‖x‖ over ℝ⁰ s.t. 0 ≥ −1: x = () is optimal with value 0 (λ = 0); λ = 1 leaves
    # complementarity |1·(0 + 1)| = 1 and gap 0 − (−1 − 0) = 1
    for norm in ("l2", "l1"):
        pr = problem_from_rows([[]], [-1], norm=norm)
        c = verify_certificate(pr, [], [arb(0)], DPS)
        assert c.passed and is_exactly(c.upper, 0) and is_exactly(c.duality_gap, 0)
        c = verify_certificate(pr, [], [arb(1)], DPS)
        assert not c.passed and is_exactly(c.complementarity, 1) and is_exactly(c.duality_gap, 1)
        e = verify_certificate(pr, [], [F(0)], DPS)
        assert e.exact and e.passed and e.upper == 0


def test_l2_lower_bound_from_fractional_multipliers():
    # λ = (½, ½): 2bᵀλ − ‖Aᵀλ‖² = 2 − ½ = 3/2
    c = verify_certificate(l2(), balls(1, 1), balls("1/2", "1/2"), DPS)
    assert close(c.lower, arb(3).sqrt() / arb(2).sqrt(), F(1, 10**40)) and c.lower <= arb("1.5").sqrt()


def test_l1_lower_bound_of_a_multiplier_ball_across_zero_is_zero():
    # λ = (0 ± ¼, 0): bᵀλ⁺ ∈ [0, ½] (its lower end may round below 0): the bound is 0, exactly
    c = verify_certificate(l1(), balls("1/2", 1), [arb(0, 0.25), arb(0)], DPS)
    assert c.lower == 0 and c.lower.is_exact()


def test_the_smallest_ratio_is_chosen_by_its_lower_end():
    # ratios x₁ = ½ ± 0.1 and x₂ = 0.45 ± 0.2 overlap: t is the lower end of x₂ (≈ 0.25), not of x₁ (0.4)
    x1, x2 = arb("0.5") + arb(0, "0.1"), arb("0.45") + arb(0, "0.2")
    c = verify_certificate(l2(), [x1, x2], balls(1, 1), DPS)
    t = x2.lower()
    assert close(c.upper.mid(), (x1 * x1 + x2 * x2).sqrt().mid() / t, F(1, 10**6))


def test_rescaling_keeps_zero_rows_and_any_positive_rhs():
    pr = problem_from_rows([[1, 0], [1, -1]], [1, 0], norm="l2")  # x₁ ≥ 1, x₁ ≥ x₂
    assert close(verify_certificate(pr, balls("1/2", 0), balls(1, 0), DPS).upper, 1)  # (1, 0)
    half = problem_from_rows([[1, 0], [0, 1]], ["1/2", "1/2"], norm="l2")
    assert close(verify_certificate(half, balls("1/4", "1/2"), balls(1, 1), DPS).upper,
                 arb(5).sqrt() / 2)  # t = ½: (½, 1)


def test_the_ball_matrix_follows_the_working_precision():
    """The rows' ball matrix is cached per precision: after a run at 20 digits, a run at 100 digits
    uses rows to 100 digits (1/3 is not dyadic: a stale matrix would leave residuals ~10⁻³⁰)."""
    pr = problem_from_rows([[F(1, 3), 0]], [1], norm="l2")  # x₁/3 ≥ 1: x = (3, 0), λ = 9
    with working_precision(20):
        assert verify_certificate(pr, [arb(3), arb(0)], [arb(9)], 15).passed
    with working_precision(100):
        c = verify_certificate(pr, [arb(3), arb(0)], [arb(9)], 95)
        assert c.passed and c.primal_residual < arb(10) ** -100 and c.dual_residual < arb(10) ** -100


def test_exact_l2_lower_bounds():
    # b = (3, 4): x = λ = (3, 4): 2bᵀλ − ‖Aᵀλ‖² = 50 − 25 = 25: lower = upper = 5 exactly
    pr = l2(rhs=[3, 4])
    c = verify_certificate(pr, [3, 4], [3, 4], DPS)
    assert c.exact and c.passed and c.lower == F(5) and c.upper == F(5)
    c = verify_certificate(pr, [3, 4], [F(3, 2), 2], DPS)  # 2·(9/2 + 8) − (9/4 + 4) = 25 − 25/4 = 75/4
    assert close(c.lower, arb(75).sqrt() / 2, F(1, 10**40))
    assert verify_certificate(pr, [3, 4], [-1, 5], DPS).lower == 0  # a negative λ: no bound (not √(34 − 26))
    assert verify_certificate(pr, [3, 4], [6, 8], DPS).lower == 0  # 2·50 − 100 = 0


def test_residuals_at_exactly_the_lower_end_of_the_tolerance_pass():
    """"certainly below its tolerance" is ≤: a residual equal to the lower end of its tolerance ball passes."""
    tol = arb(10) ** -DPS
    # the row 0·x ≥ −1 (always met, slack 1), x = 0, λ = G: complementarity G·1 and gap 0 − bᵀλ = G;
    # no value to scale by: both against 10⁻ᵈᵖˢ·1·1 (G: the lower end of that ball)
    G = arb((tol * arb(1) * arb(1)).lower())
    pr = problem_from_rows([[0]], [-1], norm="l2")
    c = verify_certificate(pr, [arb(0)], [G], DPS)
    assert c.complementarity == G and c.duality_gap == G and c.passed
    assert not verify_certificate(pr, [arb(0)], [2 * G], DPS).passed
    # x ≥ 0 row-wise, x = 0, λ = (−L, 0): the dual residual is the negative part L (and x − Aᵀλ = (L, 0))
    L = arb(tol.lower())
    pr = problem_from_rows([[1, 0], [0, 1]], [0, 0], norm="l2")
    c = verify_certificate(pr, balls(0, 0), [-L, arb(0)], DPS)
    assert c.dual_residual == L and c.passed
    assert not verify_certificate(pr, balls(0, 0), [-2 * L, arb(0)], DPS).passed
