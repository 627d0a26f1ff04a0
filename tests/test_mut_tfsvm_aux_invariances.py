"""tfsvm.aux.invariances (mutation tests): the rank hypothesis (rank by hand, the all-zero rows case), the loss
reaching the model and the hypothesis's name, every probe point and every shift W + cV (c ∈ {1, 100}) that is
evaluated, each item's point count and its residual decision, the step size η = 1/L_W rounded down (also when
L_W ≤ 1 and when L_W = 0), the W-GD recursion and its ratio (a diagonal test gradient: exact closed form), and the
(K, Q) item's ratio and seeded pair (test gradients not of the flow's form: exact closed form).

D-T2: tokens (1, 1), (0, 0) with z = (1, 0), Y = +1, and (2, 2), (0, 0) with z = (1, ½), Y = −1; features x ⊗ z
(row-major): (1, 0, 1, 0) and (2, 1, 2, 1) for the non-zero tokens, 0 for the others. The difference rows are
(1, 0, 1, 0) and (2, 1, 2, 1): rank 2 < d² = 4, N = {V : V₀ + V₂ = 0, V₁ + V₃ = 0}, dim 2. The probe points are 0 and
the 3 seeded directions plus ± the two feature differences (7 directions) at ‖W‖∞ ∈ {1, 10, 100}: 22 points."""
import random
import re
from fractions import Fraction

import pytest
from claim_helpers import evaluate_at
from flint import arb_mat

from lemmas.tfsvm import aux_invariances
from verify import Dataset
from verify.data import tfsvm as D
from verify.data.generators import random_dataset
from verify.geometry.probes import directions, scaled
from verify.geometry.stationarity import smoothness_W
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import to_arb, working_precision

E1 = (1, 0, 0, 0)  # not in N: ⟨(1, 0, 1, 0), E1⟩ = 1


def _ev(out, tag):
    got = [e for e in out.evidence if e.quantity.endswith(tag)]
    assert len(got) == 1, [e.quantity for e in out.evidence]
    return got[0]


def _frac(ball):
    return Fraction(ball.mid().str(40, radius=False))


def _key(p):
    return tuple(round(float(x), 9) for x in p)


def _run(data, **kw):
    return evaluate_at(aux_invariances, data, **kw)


class _Recorder:
    """Spies: every point the model's excess loss is evaluated at, every model's loss, every (K, Q) shape."""

    def __init__(self, monkeypatch):
        self.points, self.losses, self.shapes = [], [], []
        rec = self

        class SpyModel(LinearLogitModel):
            def __init__(self, *a, **k):
                super().__init__(*a, **k)
                rec.losses.append(self.loss.name)

            def excess(self, theta, states=None):
                rec.points.append(_key(float(x.mid()) for x in theta))
                return super().excess(theta, states)

        real = aux_invariances.kq_gradients

        def kq(model, K, Q):
            rec.shapes.append((len(K), len(K[0]), len(Q), len(Q[0])))
            return real(model, K, Q)

        monkeypatch.setattr(aux_invariances, "LinearLogitModel", SpyModel)
        monkeypatch.setattr(aux_invariances, "kq_gradients", kq)


def _default_run(monkeypatch):
    """The defaults on D-T2 with the spies (per test, not a shared fixture: mutmut maps a mutant to the tests that
    run the code, and a module fixture runs it in the first test only)."""
    rec = _Recorder(monkeypatch)
    return _run(D.d_t2()), rec


def _probe_points(data):
    return [(Fraction(0),) * data.d ** 2] + [scaled(v, s) for v in directions(features(data, "W"), 3, seed=0)
                                             for s in (1, 10, 100)]


def test_defaults_on_DT2_count_points_and_decide_residuals(monkeypatch):
    """Defaults (logistic, 200 GD steps, m = 2) on D-T2: rank 2 (by hand), 22 probe points × dim N = 2 for (b), × 2
    shifts for (a), 200 steps × 2 for (c), 4 scales for (d); every item a residual, each names its tightest point."""
    out, rec = _default_run(monkeypatch)
    assert out.hypotheses[0].name.startswith("Assumption A (logistic)")
    assert out.hypotheses[1].met is True and out.hypotheses[1].detail == "rank 2, d² = 4"
    a, b, c, d = (_ev(out, t) for t in ("(a)", "(b)", "(c)", "(d)"))
    assert [a.coverage.points, b.coverage.points, c.coverage.points, d.coverage.points] == [88, 44, 400, 4]
    for e in (a, b, c, d):
        assert e.residual is True and e.decide() is True and e.coverage.holds == e.coverage.points
        assert e.coverage.worst_at
    assert re.fullmatch(r"c = (1/2|1|3|10)", d.coverage.worst_at)
    assert re.fullmatch(r"step \d+, V[01]", c.coverage.worst_at)
    assert a.coverage.worst_at.endswith(("c = 1", "c = 100")) and ", V" in b.coverage.worst_at
    assert rec.shapes == [(2, 2, 2, 2)] * 4  # (K, Q) ∈ ℝ^{d×m}, m = 2, at the 4 scales
    assert set(rec.losses) == {"logistic"}
    assert out.decision().verdict == "HOLDS"


def test_every_probe_point_and_shift_is_evaluated(monkeypatch):
    """(a) evaluates (L − L⋆) at each probe point p and at p + cV for each basis vector V of N and c ∈ {1, 100}."""
    out, rec = _default_run(monkeypatch)
    data = D.d_t2()
    from verify.geometry.tfsvm import difference_rows, null_basis

    basis = null_basis(difference_rows(data), 4)
    pts = _probe_points(data)
    assert len(pts) == 22
    want = []
    for p in pts:
        want.append(_key(p))
        want += [_key(x + c * y for x, y in zip(p, v)) for v in basis for c in (1, 100)]
    assert sorted(rec.points) == sorted(want)


def test_options_reach_the_items(monkeypatch):
    """loss = exponential reaches the model and names Assumption A; gd_steps = 3 → 3 steps × dim N; m = 3 → K, Q are
    d × 3."""
    rec = _Recorder(monkeypatch)
    out = _run(D.d_t2(), loss="exponential", gd_steps=3, m=3)
    assert out.hypotheses[0].name.startswith("Assumption A (exponential)")
    assert set(rec.losses) == {"exponential"}
    assert _ev(out, "(c)").coverage.points == 6
    assert rec.shapes == [(2, 3, 2, 3)] * 4
    assert out.decision().verdict == "HOLDS"


def test_a_single_coordinate_direction_outside_N():
    """V = e₁ ∉ N: (b) and (c) are |g₁V₁| / |g₁V₁| = 1 wherever g₁ ≠ 0 (certainly violated, the worst value 1);
    (a) first fails at W = 0 with c = 1; (c) first fails at step 1."""
    out = _run(D.d_t2(), invariant=[E1], gd_steps=2)
    a, b, c = (_ev(out, t) for t in ("(a)", "(b)", "(c)"))
    for e in (b, c):
        assert e.decide() is False and abs(float(e.value) - 1) < 1e-15
    assert a.decide() is False and a.coverage.first_violation == "p = (0, 0, 0, 0), V0, c = 1"
    assert b.coverage.first_violation == "p = (0, 0, 0, 0), V0"
    assert c.coverage.first_violation == "step 1, V0" and c.coverage.points == 2


def test_all_zero_difference_rows_rank_zero():
    """d = 1, both tokens 0: every difference row is 0, rank 0 < d² = 1 (N = ℝ, applicable); L is constant, L_W = 0,
    so any step is allowed and the check takes η = 1; every item holds (the ratios are exactly 0/0 → 0)."""
    zero = Dataset.make(X=[[[0], [0]]], Y=[1], v=[1], z=[[1]], name="zero-d1")
    out = _run(zero, gd_steps=3)
    assert out.hypotheses[1].met is True and out.hypotheses[1].detail == "rank 0, d² = 1"
    c = _ev(out, "(c)")
    assert re.search(r"η = (\S+) \(c\)$", c.quantity).group(1) == "1"
    assert c.coverage.points == 3 and out.decision().verdict == "HOLDS"


class _DiagonalModel:
    """A test gradient ∇(w)_j = λ_j w_j (λ_j = j + 1): GD gives W_j(k) = (1 − ηλ_j)^k W_j(0) exactly."""

    LAM = tuple(range(1, 65))

    def grad(self, w):
        return [to_arb(lam) * x for lam, x in zip(self.LAM, w)]


class _Work:
    def advance(self, k=1):
        pass


def _gd(data, loss, steps, V):
    with working_precision(30) as prec:
        ev = aux_invariances.gd_evidence(_DiagonalModel(), data, [V], steps, prec.tolerance, _Work(), loss)
    eta = Fraction(re.search(r"η = (\S+) \(c\)$", ev.quantity).group(1))
    return ev, eta


def _eta_ok(eta, LW):
    """η = 1/L_W rounded down to 3 significant digits: η ≤ 1/L_W < η·(1 + 1/100)."""
    return to_arb(eta) * LW <= 1 and to_arb(eta * Fraction(101, 100)) * LW > 1


@pytest.mark.parametrize("loss", ["logistic", "exponential"])
def test_gd_step_size_recursion_and_ratio(loss):
    """W(0) = (¼, −5/4, ¾, −2) (Random(7), randint(−9, 9)/4); with ∇_j = λ_jw_j, ΔW_j(k) = ((1 − ηλ_j)^k − 1)W_j(0);
    V = (1, 1, 1, 1) ∉ N: the ratio |Σ_jΔW_j| / Σ_j|ΔW_j| at every step k ≤ 3, the item's value the largest."""
    data = D.d_t2()
    ev, eta = _gd(data, loss, 3, (1, 1, 1, 1))
    assert _eta_ok(eta, smoothness_W(data, loss))
    rng = random.Random(7)
    w0 = [Fraction(rng.randint(-9, 9), 4) for _ in range(4)]
    assert w0 == [Fraction(1, 4), Fraction(-5, 4), Fraction(3, 4), Fraction(-2)]
    ratios = []
    for k in (1, 2, 3):
        dw = [((1 - eta * lam) ** k - 1) * x for lam, x in zip(_DiagonalModel.LAM, w0)]
        ratios.append(abs(sum(dw)) / sum(abs(x) for x in dw))
    assert ev.decide() is False and ev.coverage.points == 3 and ev.coverage.first_violation == "step 1, V0"
    assert abs(_frac(ev._ball) - max(ratios)) < Fraction(1, 10 ** 25)


def test_gd_start_is_seeded_for_every_coordinate():
    """d = 8 (64 coordinates): W(0)_j = randint(−9, 9)/4 from Random(7) for every j (a later draw of the seeded
    stream differs from other ranges' streams); one step with ∇_j = λ_jw_j, V = (1, …, 1): the ratio
    |Σ_j λ_jW_j(0)| / Σ_j λ_j|W_j(0)| (η cancels)."""
    e1 = [1] + [0] * 7
    wide = Dataset.make(X=[[e1, [0] * 8]], Y=[1], v=e1, z=[e1], name="d8")
    ev, _ = _gd(wide, "logistic", 1, (1,) * 64)
    rng = random.Random(7)
    w0 = [Fraction(rng.randint(-9, 9), 4) for _ in range(64)]
    lam = _DiagonalModel.LAM
    want = abs(sum(a * x for a, x in zip(lam, w0))) / sum(a * abs(x) for a, x in zip(lam, w0))
    assert abs(_frac(ev._ball) - want) < Fraction(1, 10 ** 25)


def test_gd_step_size_when_LW_is_at_most_one():
    """Token (¼, 0), z = (1, 0), v = (1, 0): L_W < 1, so η = 1/L_W rounded down is > 1 (not capped at 1)."""
    small = Dataset.make(X=[[[Fraction(1, 4), 0], [0, 0]]], Y=[1], v=[1, 0], z=[[1, 0]], name="small")
    LW = smoothness_W(small, "logistic")
    assert LW < 1
    _, eta = _gd(small, "logistic", 1, (1, 1, 1, 1))
    assert eta > 1 and _eta_ok(eta, LW)


@pytest.mark.parametrize("d, m", [(2, 2), (3, 5)])
def test_kq_ratio_with_gradients_not_of_the_flow_form(monkeypatch, d, m):
    """With ∇_K := K and ∇_Q := 3Q (not of the form (GQ, GᵀK)) the derivative is 2KᵀK − 6QᵀQ and the item's ratio is
    Σ|2KᵀK − 6QᵀQ| / (‖K‖² + 3‖Q‖²), the same at every scale c (degree 2 over degree 2); (K₀, Q₀) seeded: Random(5),
    entries randint(−9, 9)/7, K₀ then Q₀ row by row, d × m (d = 3, m = 5 reaches a later draw of the stream)."""
    monkeypatch.setattr(aux_invariances, "kq_gradients", lambda model, K, Q: (arb_mat(K), 3 * arb_mat(Q)))
    data = D.d_t2() if d == 2 else random_dataset(n=2, T=3, d=3, seed=0, queries=True, name="d3")
    with working_precision(30) as prec:
        ev = aux_invariances.kq_evidence(None, data, m, prec.tolerance)
    rng = random.Random(5)
    K = [[Fraction(rng.randint(-9, 9), 7) for _ in range(m)] for _ in range(d)]
    Q = [[Fraction(rng.randint(-9, 9), 7) for _ in range(m)] for _ in range(d)]

    def gram(A):
        return [[sum(A[r][i] * A[r][j] for r in range(d)) for j in range(m)] for i in range(m)]

    GK, GQ = gram(K), gram(Q)
    num = sum(abs(2 * GK[i][j] - 6 * GQ[i][j]) for i in range(m) for j in range(m))
    den = sum(x * x for row in K for x in row) + 3 * sum(x * x for row in Q for x in row)
    assert ev.coverage.points == 4 and ev.decide() is False
    assert abs(_frac(ev._ball) - num / den) < Fraction(1, 10 ** 25)
    assert re.fullmatch(r"c = (1/2|1|3|10)", ev.coverage.worst_at)
