"""irgf.lemma41 pieces (mutation tests): the initial conditions are the documented construction and
meet condition (4) exactly; condition (4) is decided on the worst coordinate; the default datasets
follow ``--seed``. Expected values are computed here from the module's description (exact Fractions)."""
import math
import random
from fractions import Fraction

from flint import arb

from lemmas.irgf import lemma41
from verify.data.irgf import d_seed0, random_diag_dataset
from verify.numbers.precision import working_precision


def _documented_draws(d, seed):
    """ξ_k(0), ξ_q(0): seeded draws k/10, k ∈ [−10, 10], a zero draw replaced by 1/3 (ξ_k) or −1/4 (ξ_q)."""
    rng = random.Random(seed)
    xk = [Fraction(rng.randint(-10, 10), 10) or Fraction(1, 3) for _ in range(d)]
    xq = [Fraction(rng.randint(-10, 10), 10) or Fraction(-1, 4) for _ in range(d)]
    return xk, xq


def _exact(ball, q: Fraction, tol=arb("1e-25")):
    return abs(ball - arb(q.numerator) / q.denominator) < tol


def test_generic_init_is_the_seeded_construction_with_sign_flips():
    with working_precision(30):
        s2 = arb(2).sqrt()
        for seed, got in ((0, lemma41.inits(6)), (0, lemma41.inits(6, 0)), (5, lemma41.inits(6, 5))):
            label, xk, xq, wp, wm = got[0]
            exk, exq = _documented_draws(6, seed)
            assert "generic" in label and len(xk) == len(xq) == len(wp) == len(wm) == 6
            assert all(_exact(a, b) for a, b in zip(xk, exk)) and all(_exact(a, b) for a, b in zip(xq, exq))
            # ε₊ alternates (+, −, +, …); ε₋ = −1 at j ≡ 0 (mod 3): both flip some signs, neither is ±𝟙
            ep, em = [1, -1, 1, -1, 1, -1], [-1, 1, 1, -1, 1, 1]
            for j in range(6):
                assert abs(wp[j] - ep[j] * (xk[j] + xq[j]) / s2) < arb("1e-25")
                assert abs(wm[j] - em[j] * (xk[j] - xq[j]) / s2) < arb("1e-25")
        # reproducible, and the seed matters
        a, b, c = lemma41.inits(6, 3)[0], lemma41.inits(6, 3)[0], lemma41.inits(6, 4)[0]
        assert all(x.mid() == y.mid() for x, y in zip(a[1] + a[2], b[1] + b[2]))
        assert any(not (x - y).contains(0) for x, y in zip(a[1] + a[2], c[1] + c[2]))


def test_generic_draws_cover_the_grid_without_zeros():
    """Many coordinates: every value is k/10 with 1 ≤ |k| ≤ 10 or the replacement of a zero draw
    (1/3 for ξ_k, −1/4 for ξ_q); all twenty grid values occur; no coordinate is 0."""
    with working_precision(30):
        _, xk, xq, _, _ = lemma41.inits(400)[0]
        grid = {Fraction(k, 10) for k in range(-10, 11) if k}
        for vals, repl in ((xk, Fraction(1, 3)), (xq, Fraction(-1, 4))):
            seen = set()
            for x in vals:
                hit = [q for q in grid | {repl} if _exact(x, q)]
                assert len(hit) == 1, x
                seen.add(hit[0])
            assert seen == grid | {repl}


def test_init5_pair():
    """ξ_k = √2·ω₀, ξ_q = 0, w₊ = w₋ = ω₀ with ω₀ = (7/10, 13/10, 2/5, 1) repeated."""
    with working_precision(30):
        label, xk, xq, wp, wm = lemma41.inits(6)[1]
        om = [Fraction(7, 10), Fraction(13, 10), Fraction(2, 5), Fraction(1), Fraction(7, 10), Fraction(13, 10)]
        assert label.startswith("init (5)")
        assert all(x.is_zero() for x in xq)
        for j, w in enumerate(om):
            assert _exact(wp[j], w) and _exact(wm[j], w)
            assert _exact(xk[j] * xk[j], 2 * w * w)


def test_both_inits_meet_condition4_exactly():
    """β(0) = ξ_k ⊙ ξ_q = (w₊² − w₋²)/2 and ξ_k² + ξ_q² = w₊² + w₋², checked from the exact draws:
    ((a+b)² − (a−b)²)/4 = ab and ((a+b)² + (a−b)²)/2 = a² + b²."""
    with working_precision(30) as prec:
        for label, xk, xq, wp, wm in lemma41.inits(5, 2):
            h = lemma41.condition4(xk, xq, wp, wm, prec.tolerance)
            assert h.met is True, (label, h.detail)
            # the broken variant keeps β(0) and changes ξ_k² + ξ_q² (ξ_k ↦ 2ξ_k, ξ_q ↦ ξ_q/2)
            broken = lemma41.condition4([2 * a for a in xk], [b / 2 for b in xq], wp, wm, prec.tolerance)
            assert broken.met is False
            # its detail shows both deviations: β(0) is kept (0), ξ_k² + ξ_q² changes by 3ξ_k² − (3/4)ξ_q²
            exk, exq = _documented_draws(5, 2) if label.startswith("generic") else (None, None)
            if exk is not None:
                worst = max(abs(3 * a * a - Fraction(3, 4) * b * b) for a, b in zip(exk, exq))
                first, second = broken.detail.split(", |ξ_k²+ξ_q² − w₊²−w₋²|∞ ≤ ")
                assert first.startswith("|β(0) − w(0)|∞ ≤ ") and float(first.split("≤ ")[1]) < 1e-25
                assert abs(float(second) - worst) < 0.01 * worst


def _cond(rows, tol):
    return lemma41.condition4(*[[arb(0) if r[k] is None else r[k] for r in rows] for k in range(4)], tol)


def test_condition4_decides_on_the_coordinate_with_the_largest_deviation():
    """A coordinate that certainly violates (4) by 8e-20 > 1e-20 makes it fail, even when an earlier
    coordinate's deviation is an undecided ball around 0 (radius 1e-19): the worst coordinate is the one
    with the largest midpoint, not the first one Python's ``max`` keeps among incomparable balls."""
    with working_precision(30):
        tol, delta = arb("1e-20"), arb("8e-20")
        # first condition: β_0 − w_0 = 0 ± 1e-19 at coordinate 0 (ξ_k = 1 ± 1e-19, ξ_q = 1, w₊ = √2, w₋ = 0),
        # β_1 − w_1 = 8e-20 at coordinate 1 (ξ = (1, 1), w₊² = 2 − δ, w₋² = δ: the second condition holds)
        rows = [(arb(1, 1e-19), arb(1), arb(2).sqrt(), None), (arb(1), arb(1), (2 - delta).sqrt(), delta.sqrt())]
        assert _cond(rows[1:], tol).met is False
        assert _cond(rows, tol).met is False
        assert _cond(rows[:1], tol).met is None  # alone, the fuzzy coordinate is undecided
        # second condition: ξ² sums differ by 0 ± 1e-19 at coordinate 0 and by 2c² = 8e-20 at coordinate 1
        c = arb("4e-20").sqrt()
        rows = [(arb(0, 3.2e-10), None, None, None), (None, None, c, c)]
        assert _cond(rows[1:], tol).met is False and _cond(rows[:1], tol).met is None
        assert _cond(rows, tol).met is False


def test_default_datasets_follow_the_seed():
    """D-SEED0 and the random Assumption-2 dataset n = 3, L = 4, d = 3 drawn with ``--seed``."""
    for seed in (0, 7):
        a, b = lemma41.default_datasets(seed)
        assert a.to_json() == d_seed0().to_json()
        assert b.to_json() == random_diag_dataset(n=3, L=4, d=3, seed=seed).to_json()
        assert (b.n, b.T, b.d) == (3, 4, 3) and b.name == f"irgf-random-n3L4d3-s{seed}"
    assert lemma41.default_datasets()[1].name == "irgf-random-n3L4d3-s0"


# ----- evaluate against an independent float64 integration of flows (2) and (3) ------------------------
def _numpy_flows(data):
    """∇_βℒ of the diagonal model with the exponential loss, written out here: g_il = βᵀ(z_i ⊙ x_il),
    σ_i = softmax(g_i), φ_i = γ_iᵀσ_i, ℒ = (1/n)Σ e^{−φ_i}, ∇φ_i = Σ_l σ_il(γ_il − φ_i)(z_i ⊙ x_il);
    the vector fields of flow (2) and flow (3)."""
    import numpy as np

    X = np.array([[[float(a) for a in tok] for tok in seq] for seq in data.X])
    Z = np.array([[float(a) for a in z] for z in data.queries()])
    G = np.array([[float(y) * sum(float(a) * float(b) for a, b in zip(data.v, tok)) for tok in seq]
                  for y, seq in zip(data.Y, data.X)])
    F = X * Z[:, None, :]

    def grad(beta):
        g = F @ beta
        s = np.exp(g - g.max(axis=1, keepdims=True))
        s /= s.sum(axis=1, keepdims=True)
        phi = (s * G).sum(axis=1)
        dphi = ((s * (G - phi[:, None]))[:, :, None] * F).sum(axis=1)
        return -(np.exp(-phi)[:, None] * dphi).mean(axis=0)

    def f2(t, y):
        d = len(y) // 2
        g = grad(y[:d] * y[d:])
        return np.concatenate([-g * y[d:], -g * y[:d]])

    def f3(t, y):
        d = len(y) // 2
        g = grad((y[:d] ** 2 - y[d:] ** 2) / 2)
        return np.concatenate([-g * y[:d], g * y[d:]])

    return f2, f3


def _reference(data, xk, xq, wp, wm, t_end):
    """(‖β(t) − w(t)‖_∞, ‖β̇ − ẇ‖_∞) at t_end by scipy's DOP853 (rtol 1e-12)."""
    import numpy as np
    from scipy.integrate import solve_ivp

    f2, f3 = _numpy_flows(data)
    d = len(xk)
    a = solve_ivp(f2, (0, t_end), list(xk) + list(xq), rtol=1e-12, atol=1e-14, method="DOP853").y[:, -1]
    b = solve_ivp(f3, (0, t_end), list(wp) + list(wm), rtol=1e-12, atol=1e-14, method="DOP853").y[:, -1]
    F2, F3 = f2(0, a), f3(0, b)
    bdot = F2[:d] * a[d:] + a[:d] * F2[d:]
    wdot = b[:d] * F3[:d] - b[d:] * F3[d:]
    return np.abs(a[:d] * a[d:] - (b[:d] ** 2 - b[d:] ** 2) / 2).max(), np.abs(bdot - wdot).max()


def test_broken_init_deviation_matches_an_independent_integration(monkeypatch):
    """With (4) broken (ξ_k ↦ 2ξ_k, ξ_q ↦ ξ_q/2, check bypassed) the two flows separate; the reported
    ‖β − w‖_∞ and ‖β̇ − ẇ‖_∞ at t = 1/2 agree with a float64 integration of the exponential-loss flows,
    one initial condition at a time; the conserved quantities do not drift."""
    data = d_seed0()
    with working_precision(20) as prec:
        all_inits = lemma41.inits(data.d)
        for k, (label, xk, xq, wp, wm) in enumerate(all_inits):
            fl = [[float(x.mid()) for x in v] for v in (xk, xq, wp, wm)]
            dev, field = _reference(data, [2 * a for a in fl[0]], [b / 2 for b in fl[1]], fl[2], fl[3], 0.5)
            assert dev > 0.1  # a different trajectory, not rounding
            monkeypatch.setattr(lemma41, "inits", lambda d, seed=0, k=k: [all_inits[k]])
            out = lemma41.evaluate(data, prec, break_init=True, check_hypotheses=False, times=("1/2",))
            items = {e.quantity.split(" ")[0]: e for e in out.evidence}
            assert len(out.evidence) == 3 and all(e.residual and e.enclosed is False for e in out.evidence)
            assert all(e.note.startswith("flows (2) and (3) integrated independently (GBS, local tolerance 1e-23")
                       for e in out.evidence)
            broken = label + ", broken (ξ_k ↦ 2ξ_k, ξ_q ↦ ξ_q/2)"
            where = f"{broken[:30]}, t = 1/2"  # each point is named: the witness of a failure
            assert items["‖β(t)"].coverage.first_violation == where and items["drift"].coverage.worst_at == where
            assert items["‖β̇"].coverage.first_violation == where
            got_dev, got_field = float(items["‖β(t)"].value.mid()), float(items["‖β̇"].value.mid())
            assert abs(got_dev - dev) < 1e-9 * dev and abs(got_field - field) < 1e-9 * field, (label, got_dev, dev)
            assert items["drift"].decide() is True and items["‖β(t)"].decide() is False
            assert any(broken in n for n in out.notes)
            # the figure: log10 of the deviation's upper end against t, one series per initial condition
            (fig,) = out.figures
            assert fig.name == "deviation" and [s.x for s in fig.series] == [[0.5]]
            assert abs(fig.series[0].y[0] - math.log10(dev)) < 1e-8


def test_note_counts_the_integrator_steps_at_the_documented_tolerance():
    """"GBS extrapolation at local tolerance 1e-(dps+3): N steps over 2 pairs of runs": N is the sum of
    the steps ``reparameterised_pair`` takes from both initial conditions at tolerance 10^−(dps+3)."""
    import re

    from verify.dynamics.dual import reparameterised_pair
    from verify.models.attention import LinearLogitModel

    data = d_seed0()
    with working_precision(20) as prec:
        out = lemma41.evaluate(data, prec, times=("1/2", "1"))
        model = LinearLogitModel.from_dataset(data, "diag", "exponential")
        expected = sum(reparameterised_pair(model.grad, xk, xq, wp, wm, ("1/2", "1"), arb(10) ** -23)[1]
                       for _, xk, xq, wp, wm in lemma41.inits(data.d))
    note = next(n for n in out.notes if n.startswith("GBS extrapolation"))
    m = re.search(r"local tolerance 1e-(\d+): (\d+) steps over (\d+) pairs", note)
    assert m and (int(m.group(1)), int(m.group(2)), int(m.group(3))) == (23, expected, 2)
    assert out.decide() == "HOLDS" and all(e.coverage.points == 4 for e in out.evidence)
