"""tfsvm.thm6 (mutation tests): the first step η(0) = scale/‖W^mm‖_F rounded down to 12 decimals (exact, checked
against mpmath), the first-step hypothesis η(0)·‖W^mm‖ ≤ c with c = max(1, largest scale) named with its values, the
loss reaching ∇L(0), Assumption C, the step size and the GD model (D-T2 without C, exponential loss: W(1) and W(2)
by hand), the GD leg's length (k = 0: W(1) itself), the LMM named from the flow's last selection and last point, and
the default datasets' shapes.

D-T2: tokens (1, 1), (0, 0) with z = (1, 0), Y = +1; (2, 2), (0, 0) with z = (1, ½), Y = −1; v = (0, 1): γ = (1, 0),
(−2, 0), γ̄ = (½, −1); features F = x ⊗ z: (1, 0, 1, 0) and (2, 1, 2, 1) for the non-zero tokens; W^mm = (½, −3/2, ½,
−3/2), ‖W^mm‖² = 5. ∇L(0) = (1/(nT))Σ_i ℓ'(γ̄_i)Σ_t(γ_it − γ̄_i)F_it = ¼[ℓ'(½)·½·(1, 0, 1, 0) − ℓ'(−1)·(2, 1, 2, 1)]."""
import itertools
import re
from fractions import Fraction

import mpmath
from flint import arb

from lemmas.tfsvm import thm6
from verify.data import tfsvm as D
from verify.kit.global_descent import step_size_W
from verify.kit.good_start import assumption_c
from verify.numbers.precision import to_arb, working_precision
from verify.svm.geometry import locally_optimal_selections

mpmath.mp.dps = 50
Q = [mpmath.mpf(1) / 2, mpmath.mpf(-3) / 2, mpmath.mpf(1) / 2, mpmath.mpf(-3) / 2]
F = {(0, 0): [1, 0, 1, 0], (1, 0): [2, 1, 2, 1]}  # the non-zero tokens' features (the others are 0)
GAMMA = {0: (1, 0), 1: (-2, 0)}


def _mp(x):
    return mpmath.mpf(x.mid().str(40, radius=False))


def _omc(w, q=Q):
    ip = sum(a * b for a, b in zip(w, q))
    return 1 - ip / (mpmath.sqrt(sum(a * a for a in w)) * mpmath.sqrt(sum(b * b for b in q)))


def _grad(W, lp):
    """∇L(W) = (1/n)Σ_i ℓ'(φ_i)Σ_t s_it(γ_it − φ_i)F_it on D-T2 (token 2 of each sequence has F = 0)."""
    g = [mpmath.mpf(0)] * 4
    for i in (0, 1):
        a = sum(x * y for x, y in zip(F[(i, 0)], W))
        s0 = 1 / (1 + mpmath.e ** (-a))
        s = (s0, 1 - s0)
        phi = s[0] * GAMMA[i][0] + s[1] * GAMMA[i][1]
        c = lp(phi) * s[0] * (GAMMA[i][0] - phi) / 2
        g = [x + c * f for x, f in zip(g, F[(i, 0)])]
    return g


def test_eta0_is_the_scale_over_the_norm_rounded_down_to_12_decimals():
    for scale, S in ((Fraction(1), Fraction(5)), (Fraction(1, 100), Fraction(5)), (Fraction(3, 7), Fraction(13, 4)),
                     (Fraction(300), Fraction(2, 3))):
        want = mpmath.floor(10 ** 12 * mpmath.mpf(scale.numerator) / scale.denominator
                            / mpmath.sqrt(mpmath.mpf(S.numerator) / S.denominator))
        assert thm6.eta0_of(scale, S) == Fraction(int(want), 10 ** 12)
    assert thm6.eta0_of(Fraction(0), Fraction(5)) == 0


def _dt2(**kw):
    kw = {"require_c": False, "radii": ("1", "2"), "figure": False, "eta0_scales": (1,), **kw}
    with working_precision(30) as prec:
        return thm6.evaluate(D.d_t2(), prec, **kw)


def _nums(detail):
    return [mpmath.mpf(x) for x in re.findall(r"= ([-0-9.e+]+)", detail)]


def test_first_step_hypothesis_names_c_and_its_values():
    for scales, c in (((1,), 1), ((Fraction(1, 2), Fraction(1, 100)), 1), ((4, 1), 4)):
        out = _dt2(eta0_scales=scales, gd_steps=0)
        h = [x for x in out.hypotheses if x.name.startswith("first steps η(0) ≤ c/‖W^mm‖_F")]
        assert len(h) == 1 and h[0].met and f", c = {c} (" in h[0].name
        eta, L, prod = _nums(h[0].detail)
        big = max(Fraction(s) for s in scales)
        want = mpmath.floor(10 ** 12 * mpmath.mpf(big.numerator) / big.denominator / mpmath.sqrt(5)) / 10 ** 12 / c
        assert abs(eta - want) < mpmath.mpf("1e-9") * want and abs(L - mpmath.sqrt(5)) < mpmath.mpf("1e-9")


def test_the_loss_reaches_c_the_step_size_the_first_step_and_gd():
    lp = lambda u: -mpmath.e ** (-u)  # noqa: E731  exponential loss
    out = _dt2(loss="exponential", gd_steps=1)
    note = [n for n in out.notes if n.startswith("Assumption C NOT required")]
    c_exp, c_log = assumption_c(D.d_t2(), "exponential"), assumption_c(D.d_t2(), "logistic")
    assert c_exp.detail != c_log.detail and len(note) == 1 and c_exp.detail in note[0]
    eta, step = step_size_W(D.d_t2(), "exponential")
    assert step.detail != step_size_W(D.d_t2(), "logistic")[1].detail
    assert [h.detail for h in out.hypotheses if h.name == step.name] == [step.detail]
    g0 = [(lp(mpmath.mpf(1) / 2) * a / 2 - lp(mpmath.mpf(-1)) * b) / 4 for a, b in zip((1, 0, 1, 0), (2, 1, 2, 1))]
    w1 = [-x for x in g0]  # the direction of W(1) (1 − corr is scale-free)
    first = [e for e in out.evidence if e.quantity.startswith("η(0) = 1/‖W^mm‖_F: 1 − corr(W(1), W^mm)")]
    assert len(first) == 1 and abs(_mp(first[0].value) - _omc(w1)) < mpmath.mpf("1e-25")
    eta0 = thm6.eta0_of(Fraction(1), Fraction(5))
    w1 = [mpmath.mpf(eta0.numerator) / eta0.denominator * x for x in w1]
    e = _mp(eta)
    w2 = [x - e * y for x, y in zip(w1, _grad(w1, lp))]
    gd = [e for e in out.evidence if "after k = 1 more GD steps" in e.quantity]
    assert len(gd) == 1 and abs(_mp(gd[0].value) - _omc(w2)) < mpmath.mpf("1e-14")  # the item's ball: ±4.5e-16


def test_no_gd_step_leaves_w1():
    out = _dt2(gd_steps=0)
    first = [e for e in out.evidence if "after the first step W(1)" in e.quantity][0]
    gd = [e for e in out.evidence if "after k = 0 more GD steps" in e.quantity][0]
    assert abs(_mp(first.value) - _mp(gd.value)) < mpmath.mpf("1e-25")


class _Flow:
    def __init__(self, selected, points):
        self.selected, self.points = selected, points
        self.norms = [arb(k + 1) for k in range(len(points))]
        self.omc = [arb(0)] * len(points)


def test_the_lmm_is_named_from_the_last_selection_and_the_last_point():
    """A stand-in flow on thm6_small_step: selections opt, opt, …, α (α locally optimal ≠ opt), points W^mm_α + (4 − k)·e₁
    for k = 0…4: the item is 1 − corr(W, W^mm_α) at the last point, exactly W^mm_α (≈ 0); the earlier points are not."""
    from verify.claims import Outcome

    data = D.thm6_small_step()
    opt = tuple(o[0] for o in data.optimal_tokens())
    with working_precision(30):
        alpha, r = [(a, r) for a, r in locally_optimal_selections(data, "W", 30) if a != opt][0]
        sol = [Fraction(x) for x in r.solution]
        pts = [[to_arb(x + (4 - k if j == 0 else 0)) for j, x in enumerate(sol)] for k in range(5)]
        out = Outcome()
        thm6.name_lmm(out, data, _Flow([opt] * 4 + [alpha], pts), 30)
        assert len(out.evidence) == 1 and f"selects α = {alpha} ≠ opt" in out.evidence[0].quantity
        assert abs(out.evidence[0].value) < arb(10) ** -25
        s2 = [mpmath.mpf(x.numerator) / x.denominator for x in sol]
        for k in (1, 2, 3):  # the earlier points are away from W^mm_α (so the last one is the one read)
            p = [x + (4 - k if j == 0 else 0) for j, x in enumerate(s2)]
            assert _omc(p, s2) > mpmath.mpf("1e-6")
        none = Outcome()
        thm6.name_lmm(none, data, _Flow([alpha] * 4 + [opt], pts), 30)  # ends at opt: nothing to name
        assert not none.evidence
        local = {a for a, _ in locally_optimal_selections(data, "W", 30)}
        other = next(a for a in itertools.product(range(3), repeat=3) if a != opt and a not in local)
        named = Outcome()
        thm6.name_lmm(named, data, _Flow([opt] * 4 + [other], pts), 30)  # not locally optimal: said so, no value
        assert [e.value for e in named.evidence] == ["α not locally optimal"]


def test_default_datasets_shapes_c_and_seed():
    a, b = thm6.default_datasets(0), thm6.default_datasets(5)
    assert [(x.n, x.T, x.d) for x in a] == [(2, 3, 2), (3, 3, 2), (3, 3, 2)]
    assert a[2].name == D.thm6_small_step().name
    assert all(assumption_c(x, "logistic").met for x in a)
    assert b[0].X != a[0].X and b[1].X != a[1].X  # each draw follows the seed


def test_the_flow_item_its_name_and_the_figure():
    """The flow from the end of GD is named as the statement's part, from W(0) = that point, to W^mm, in ‖W‖; the
    figure (drawn by default, never with figure=False) has the series of every first step flown (two here: D-T2
    reaches the GMM from both)."""
    with working_precision(30) as prec:
        one = thm6.evaluate(D.d_t2(), prec, require_c=False, radii=("1", "2"), eta0_scales=(1,), gd_steps=0)
        two = thm6.evaluate(D.d_t2(), prec, require_c=False, radii=("1", "2"), eta0_scales=(1, Fraction(1, 100)),
                            gd_steps=0)
    head = "W(k)/‖W(k)‖ → Ŵ^mm: gradient flow from W(0) = W(1) (GD from 0, η(0) = 1/‖W^mm‖_F): 1 − corr(W, W^mm) at ‖W‖ = "
    assert len([e for e in one.evidence if e.quantity.startswith(head)]) == 1
    assert len(one.figures) == 1 and one.figures[0].name == "direction"
    assert len(two.figures) == 1 and len(two.figures[0].series) == 2 * len(one.figures[0].series)
    assert not _dt2(gd_steps=0).figures  # figure=False
