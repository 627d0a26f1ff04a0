"""tfsvm.aux.gradient (mutation tests): one run on D-T2 with the exponential loss (the model, the literal (13) and
sympy all use it), its four tallies recorded: the probe points (0, then the seeded directions of
``verify.geometry.probes`` × ‖W‖∞ ∈ {1, 10, 100, 1000}: 29, named at 4 digits), the scale M of (i)/(ii) and M_V of
(iv) at W = 0 against a closed form (mpmath), the three seeded V (random.Random(3): Fraction(randint(−9, 9),
randint(1, 5))), the (K, Q) probes (random.Random(5): K₀ then Q₀, entries randint(−9, 9)/7, scaled by c ∈ {0, 1/2,
1, 3, 10}) and their scale M_G·‖(K, Q)‖_F; every item a residual; the cover names 3 V and m = 2. v1's printed (18)
holds where G is symmetric (d = 1: D-STAT), so there it is not VIOLATED.

D-T2: tokens (1, 1), (0, 0) with z = (1, 0), Y = +1; (2, 2), (0, 0) with z = (1, ½), Y = −1; v = (0, 1): γ = (1, 0),
(−2, 0). At W = 0 attention is uniform: φ = (½, −1), c_t = s_t(γ_t − φ) = (¼, −¼), (−½, ½); ‖x_t‖‖z‖ = √2, 0 and
2√2·√5/2, 0; ∇L(0) = ¼[ℓ'(½)·½·(1, 0, 1, 0) − ℓ'(−1)·(2, 1, 2, 1)] (row-major)."""
import random
from fractions import Fraction
from types import SimpleNamespace

import mpmath
import pytest

from lemmas.tfsvm import aux_gradient as A
from verify.claims import steps
from verify.data import tfsvm as D
from verify.geometry.probes import directions, scaled
from verify.kit.probe_inequality import ProbeInequality, point_label
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import to_arb, working_precision

mpmath.mp.dps = 50
LP = lambda u: -mpmath.e ** (-mpmath.mpf(u))  # noqa: E731  ℓ' of the exponential loss


class Recording(ProbeInequality):
    made = []

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.calls = []
        Recording.made.append(self)

    def add_ratio(self, num, den, where=""):
        self.calls.append((num, den, where))
        return super().add_ratio(num, den, where)


def _mp(x):
    return mpmath.mpf(x.mid().str(45, radius=False))


def recorded_run():
    """One evaluate, its tallies and (K, Q) probes recorded. One test reads it all (mutmut runs a mutant's tests by the
    functions each test called: a shared fixture would count for one test only)."""
    mp = pytest.MonkeyPatch()
    Recording.made = []
    kq = []
    real_kq = A.kq_gradients

    def kq_spy(model, K, Q):
        kq.append((K, Q))
        return real_kq(model, K, Q)

    mp.setattr(A, "ProbeInequality", Recording)
    mp.setattr(A, "kq_gradients", kq_spy)
    try:
        with working_precision(30) as prec:
            out = A.evaluate(D.d_t2(), prec, loss="exponential")
    finally:
        mp.undo()
    return out, list(Recording.made), kq


def test_recorded_run_on_dt2_exponential():
    run = recorded_run()
    items_hypothesis_and_cover(run)
    probe_points_and_their_names(run)
    scales_at_zero_against_the_closed_form(run)
    kq_probes_and_their_scale(run)


def items_hypothesis_and_cover(run):
    out, tallies, _ = run
    assert out.decision().verdict == "HOLDS" and out.decision().certainty == "certified"
    assert [h.name.split(":")[0] for h in out.hypotheses] == ["Assumption A (exponential"]
    assert out.hypotheses[0].name.startswith("Assumption A (exponential: ℓ' is used)")
    assert len(out.evidence) == 4 and [e.quantity[-5:] for e in out.evidence] == ["s (i)", " (ii)", " (iv)", "(iii)"]
    assert all(e.residual is True for e in out.evidence) and all(t.residual is True for t in tallies)
    assert out.evidence[3].quantity.endswith("at (cK₀, cQ₀), m = 2 (iii)")
    assert [e.coverage.points for e in out.evidence] == [29, 29, 87, 5]
    assert out.covers == ["W at 29 probe points (0; 3 seeded directions and ± feature differences × ‖W‖∞ ∈ {1, 10, "
                          "100, 1000}); 3 seeded V; (K, Q) = c·(K₀, Q₀) seeded, c ∈ {0, 1/2, 1, 3, 10}, m = 2"]


def probe_points_and_their_names(run):
    """0 first, then each seeded direction (seed 0, count 3) at every scale, named 'p = (…)' at 4 digits; (iv) names
    each point with V0, V1, V2; (iii) names c."""
    _, (lit, sym, cov, kqt), _ = run
    feats = features(D.d_t2(), "W")
    pts = [(Fraction(0),) * 4] + [scaled(v, sc) for v in directions(feats, count=3, seed=0)
                                  for sc in ("1", "10", "100", "1000")]
    names = [point_label(p, 4) for p in pts]
    assert names[0] == "p = (0, 0, 0, 0)" and len(set(names)) == 29
    assert [w for _, _, w in lit.calls] == names == [w for _, _, w in sym.calls]
    assert [w for _, _, w in cov.calls] == [f"{n}, V{k}" for n in names for k in range(3)]
    assert [w for _, _, w in kqt.calls] == [f"c = {c}" for c in ("0", "1/2", "1", "3", "10")]


def scales_at_zero_against_the_closed_form(run):
    """M = (1/n)Σ|ℓ'(φ_i)|Σ_t|c_t|‖x_t‖‖z‖ = ½[e^{−½}·¼·√2 + e·½·√10] at W = 0; M_V = Σ|g_k V_k| + Σ|pair terms| with
    the pair terms ℓ'(φ_i)s_t s_u(γ_t − γ_u)(a_t − a_u)/n, a_t = x_tᵀVz, for the three V of random.Random(3)."""
    _, (lit, sym, cov, _), _ = run
    M = (mpmath.e ** -mpmath.mpf(0.5) * mpmath.sqrt(2) / 4 + mpmath.e * mpmath.sqrt(10) / 2) / 2
    assert abs(_mp(lit.calls[0][1]) - M) < mpmath.mpf(10) ** -25 and abs(_mp(sym.calls[0][1]) - M) < 1e-25
    rng = random.Random(3)
    Vs = [[Fraction(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(4)] for _ in range(3)]
    h = mpmath.mpf(1) / 2
    g = [(LP(h) * h * a - LP(-1) * b) / 4 for a, b in zip((1, 0, 1, 0), (2, 1, 2, 1))]
    for k, V in enumerate(Vs):
        V = [mpmath.mpf(x.numerator) / x.denominator for x in V]
        a1 = V[0] + V[2]                                   # (1, 1) V (1, 0)ᵀ
        a2 = 2 * (V[0] + V[1] / 2 + V[2] + V[3] / 2)       # (2, 2) V (1, ½)ᵀ
        pairs = abs(LP(h) / 4 * 1 * a1 / 2) + abs(LP(-1) / 4 * (-2) * a2 / 2)
        size = sum(abs(x * y) for x, y in zip(g, V)) + pairs
        assert abs(_mp(cov.calls[k][1]) - size) < mpmath.mpf(10) ** -25, k


def kq_probes_and_their_scale(run):
    """(K, Q) = c·(K₀, Q₀), K₀ and Q₀ (d × m = 2 × 2) drawn in that order from random.Random(5) as randint(−9, 9)/7;
    the scale of (iii) is (‖G(KQᵀ)‖_F + ‖(∇_K, ∇_Q)‖_F)·‖(K, Q)‖_F (engine gradients at the same point)."""
    _, tallies, kq = run
    rng = random.Random(5)
    K0 = [[Fraction(rng.randint(-9, 9), 7) for _ in range(2)] for _ in range(2)]
    Q0 = [[Fraction(rng.randint(-9, 9), 7) for _ in range(2)] for _ in range(2)]
    cs = [Fraction(c) for c in ("0", "1/2", "1", "3", "10")]
    assert kq == [([[c * x for x in r] for r in K0], [[c * x for x in r] for r in Q0]) for c in cs]
    model = LinearLogitModel.from_dataset(D.d_t2(), "W", "exponential")
    with working_precision(30):
        for (K, Q), (_, den, _) in list(zip(kq, tallies[3].calls))[1:]:
            W = [sum(K[a][e] * Q[b][e] for e in range(2)) for a in range(2) for b in range(2)]
            G = [_mp(x) for x in model.grad([to_arb(x) for x in W])]
            gK, gQ = A.kq_gradients(model, K, Q)
            gkq = [_mp(x) for x in gK.entries() + gQ.entries()]
            nkq = mpmath.sqrt(sum(mpmath.mpf(x.numerator) ** 2 / x.denominator ** 2 for r in K + Q for x in r))
            want = (mpmath.sqrt(sum(x * x for x in G)) + mpmath.sqrt(sum(x * x for x in gkq))) * nkq
            assert abs(_mp(den) - want) < mpmath.mpf(10) ** -20 * want


def test_printed_eq18_holds_where_g_is_symmetric():
    """d = 1 (D-STAT): G is 1×1, so v1's (GᵀQ, GK) equals (GQ, GᵀK): the printed form holds there (certified)."""
    data = D.d_stat()
    with working_precision(30) as prec:
        model = LinearLogitModel.from_dataset(data, "W")
        ev = A.kq_evidence(data, prec, model, "logistic", 2, True, steps(5, "probe points"))
    assert ev.quantity.startswith("max ‖(∇_K, ∇_Q) − (GᵀQ, GK) as printed‖_F")
    assert ev.coverage.points == 5 and ev.coverage.holds == 5


class _Stop(Exception):
    pass


def test_seeded_draws_use_the_stated_ranges(monkeypatch):
    """The three V: Random(3), numerators randint(−9, 9) over randint(1, 5); K₀, Q₀: Random(5), randint(−9, 9)/7 —
    the ranges themselves (not only this seed's draws, which coincide for neighbouring ranges on small d)."""
    calls = []

    class Recording(random.Random):
        def __init__(self, seed):
            super().__init__(seed)
            self.tag = seed

        def randint(self, a, b):
            calls.append((self.tag, a, b))
            return super().randint(a, b)

    def stop(*a, **k):
        raise _Stop

    monkeypatch.setattr(A, "random", SimpleNamespace(Random=Recording))
    monkeypatch.setattr(A, "symbolic_grad_arb", lambda *a, **k: None)
    monkeypatch.setattr(A, "directions", stop)
    monkeypatch.setattr(A, "KQ_SCALES", ())
    with working_precision(30) as prec:
        with pytest.raises(_Stop):
            A.evaluate(D.d_t2(), prec)
        assert calls == [(3, -9, 9), (3, 1, 5)] * 12
        calls.clear()
        A.kq_evidence(D.d_t2(), prec, None, "logistic", 2, False, steps(0, "probe points"))
        assert calls == [(5, -9, 9)] * 8
