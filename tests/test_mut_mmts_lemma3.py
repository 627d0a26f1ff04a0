"""mmts Lemma 3 (Key Lemma) in detail (mutation testing, area mmts): ``key_lemma_terms`` against the
definition in exact rationals, the probe set (p and q directions), how the informative items aggregate
the points, the ratio figure, and the hypothesis detail."""
from fractions import Fraction as F

import mpmath
from flint import arb

from lemmas.mmts import lemma3
from verify import Dataset
from verify.geometry.probes import SCALES, directions, scaled
from verify.kit import key_lemma
from verify.models.attention import features
from verify.numbers.precision import to_arb, working_precision

# T = 2, symmetric keys ±e₁, scores 1, 0: |LHS| = 2ΓA(1 − s₁)² at every point (the bound is attained)
TIGHT = Dataset.make(X=[[[1, 0, 1], [-1, 0, 0]]], Y=[1], v=[0, 0, 1], K=[[[1, 0, 0], [-1, 0, 0]]], name="tight")
# sequence 1 has all-zero keys: a = Kq = 0, so A = 0 and the right-hand side 2ΓA(1 − s₁)² is 0
ZERO_KEYS = Dataset.make(X=[[[1, 0], [0, 1], [0, 0]], [[2, 1], [0, 1], [1, 1]]], Y=[1, 1], v=[1, 0],
                         K=[[[1, 0], [0, 1], [0, 0]], [[0, 0], [0, 0], [0, 0]]], name="zero-keys-in-sequence-2")
# T = 3, one sequence, scores (2, 0, 1) (optimal token 0)
T3 = Dataset.make(X=[[[1, 2, 2], [0, -1, 0], [2, 1, 1]]], Y=[1], v=[0, 0, 1], K=[[[1, 2, 0], [0, -1, 0], [2, 1, 0]]],
                  name="T3")


def lhs_by_definition(a, g, s, ref):
    """aᵀdiag(s)γ − aᵀssᵀγ − Σ_{t≠ref}(a_ref − a_t)s_t(γ_ref − γ_t), exact."""
    T = len(a)
    first = sum(a[t] * s[t] * g[t] for t in range(T))
    cov = sum(a[t] * s[t] for t in range(T)) * sum(s[t] * g[t] for t in range(T))
    corr = sum((a[ref] - a[t]) * s[t] * (g[ref] - g[t]) for t in range(T) if t != ref)
    return first - cov - corr


def test_key_lemma_terms_against_the_definition():
    a, g, s = [F(3), F(2), F(0)], [F(1), F(-1), F(2)], [F(1, 2), F(1, 4), F(1, 4)]
    with working_precision(40):
        for ref in (0, 1, 2):
            da = [to_arb(a[ref] - x) for x in a]
            dg = [to_arb(g[ref] - x) for x in g]
            lhs, ident, off, magnitude = key_lemma.key_lemma_terms(da, dg, [to_arb(x) for x in s], ref)
            others = [t for t in range(3) if t != ref]
            want = lhs_by_definition(a, g, s, ref)
            want_ident = -sum(s[t] * (a[ref] - a[t]) for t in others) * sum(s[t] * (g[ref] - g[t]) for t in others)
            want_mag = sum(s[t] * abs(a[ref] - a[t]) for t in others) * sum(s[t] * abs(g[ref] - g[t]) for t in others)
            assert want == want_ident  # the identity itself (derived in the module docstring)
            for got, exact in ((lhs, want), (ident, want_ident), (off, 1 - s[ref]), (magnitude, want_mag)):
                assert abs(got - to_arb(exact)) < arb(10) ** -35, (ref, got, exact)
            if ref == 0:  # here the magnitude (3/4) is not the identity's size (1/4)
                assert (want_mag, want) == (F(3, 4), F(-1, 4))


def test_probe_points_and_q_directions_are_the_documented_ones(monkeypatch):
    """p over directions(keys, 4, seed 0) × SCALES; q over the first 3 of directions(keys, 3, seed 1);
    a₁ − a_t from a = K q exactly."""
    points, diffs = [], []

    class Recording(key_lemma.LinearLogitModel):
        def states(self, p, *args, **kwargs):
            points.append(p)
            return super().states(p, *args, **kwargs)

    real = key_lemma.key_lemma_terms

    def recording_terms(da, dg, s, ref):
        diffs.append(da)
        return real(da, dg, s, ref)

    monkeypatch.setattr(key_lemma, "LinearLogitModel", Recording)
    monkeypatch.setattr(key_lemma, "key_lemma_terms", recording_terms)
    with working_precision(30) as prec:
        assert lemma3.evaluate(T3, prec).decide() == "HOLDS"
        keys = features(T3, "p")
        want_p = [scaled(d, sc) for d in directions(keys, count=4, seed=0) for sc in SCALES]
        assert len(points) == len(want_p)
        for got, want in zip(points, want_p):
            assert all(abs(x - to_arb(y)) < arb(10) ** -28 for x, y in zip(got, want))
        qs = directions(keys, count=3, seed=1)[:3]
        assert len(diffs) == len(want_p) * (len(qs) + len(key_lemma.logit_vertices(keys[0])))  # + the hardest q (vertices)
        for j, q in enumerate(qs):  # first probe point: (sequence 0, q j) in order
            a = [sum(x * y for x, y in zip(k, q)) for k in keys[0]]
            assert all(abs(got - to_arb(a[0] - x)) < arb(10) ** -28 for got, x in zip(diffs[j], a))


def test_informative_items_aggregate_every_point(monkeypatch):
    """The deviation item is the max over points of |LHS − identity| / magnitude (|LHS − identity| where
    the magnitude is exactly 0), by the upper end of its enclosure; the saturation item is the smallest
    1 − s₁ (the first one where two have the same midpoint)."""
    calls = []
    schedule = {0: (arb(3, 0.5), arb(1), arb(0.25), arb(0.5)),  # |[2.5, 3.5] − 1| / ½ ∈ [3, 5]
                1: (arb(9), arb(2), arb(0.125), arb(0)),  # magnitude 0: |9 − 2| = 7, the largest
                2: (arb(0), arb(0), arb(0.125, 1e-6), arb(1))}  # the same midpoint 1/8, later

    def scheduled(da, dg, s, ref):
        k = len(calls)
        calls.append(k)
        return schedule.get(k, (arb(0), arb(0), arb(0.5), arb(1)))

    monkeypatch.setattr(key_lemma, "key_lemma_terms", scheduled)
    with working_precision(30) as prec:
        out = lemma3.evaluate(TIGHT, prec)
    dev = next(e for e in out.evidence if e.quantity.startswith("max deviation"))
    assert dev.informative and dev.value == 7
    schedule[1] = (arb(3), arb(2), arb(0.125), arb(0))  # now |3 − 2| = 1: the point above leads
    calls.clear()
    with working_precision(30) as prec:
        out = lemma3.evaluate(TIGHT, prec)
    dev = next(e for e in out.evidence if e.quantity.startswith("max deviation"))
    assert abs(dev.value - 5) < 1e-8  # the upper end of [3, 5] (radii round up)
    sat = next(e for e in out.evidence if e.quantity.startswith("smallest 1 − s₁"))
    assert sat.value == arb(0.125) and sat.value.rad() == 0
    overlap = out.evidence[1]
    assert overlap.coverage.first_violation == "sequence 0, direction 0, ‖p‖∞ = 0, q 0"


def test_deviation_is_rounding_level_and_saturation_is_reached():
    with working_precision(30) as prec:
        out = lemma3.evaluate(TIGHT, prec)
        dev = out.evidence[2]
        assert dev.residual and dev.value < arb(10) ** -25
        # smallest 1 − s₁ over the probe points: at ‖p‖∞ = 1000 along a key difference ±(k₂ − k₁) = ∓2e₁, i.e.
        # p₁ = 1000 gives 1 − s₁ = 1/(1 + e^{2000})
        smallest = out.evidence[3].value
        assert abs(smallest / (1 / (1 + arb(2000).exp())) - 1) < arb(10) ** -25
    assert out.evidence[1].coverage.worst_at == "sequence 0, direction 0, ‖p‖∞ = 0, q 0"


def test_ratio_figure_on_the_tight_case():
    """Direction 0, q 0 only, every scale: x = log10(1 − s₁) with 1 − s₁ = 1/(1 + e^{2p₁}) (keys ±e₁), y = 1."""
    with working_precision(30) as prec:
        out = lemma3.evaluate(TIGHT, prec)
    fig = next(f for f in out.figures if f.name == "ratio")
    (series,) = fig.series
    d0 = directions(features(TIGHT, "p"), count=4, seed=0)[0]
    with mpmath.workdps(50):
        want = [float(mpmath.log10(1 / (1 + mpmath.exp(2 * mpmath.mpf(scaled(d0, sc)[0].numerator)
                                                         / scaled(d0, sc)[0].denominator)))) for sc in SCALES]
    assert len(series.x) == len(SCALES)
    assert all(abs(x - w) < 1e-12 for x, w in zip(series.x, want))
    assert all(abs(y - 1) < 1e-12 for y in series.y)


def test_ratio_figure_leaves_out_a_zero_right_hand_side():
    with working_precision(30) as prec:
        out = lemma3.evaluate(ZERO_KEYS, prec)
    (series,) = next(f for f in out.figures if f.name == "ratio").series
    assert len(series.x) == len(SCALES)  # sequence 0 only: sequence 1 has 2ΓA = 0
    assert all(0 <= y <= 1 for y in series.y)


def test_ratio_figure_uses_the_first_q():
    """At p = 0 (the first point) s = (1/3, 1/3, 1/3): the ratio |LHS|/(2ΓA(2/3)²) in exact rationals for
    q = the first q direction."""
    with working_precision(30) as prec:
        out = lemma3.evaluate(T3, prec)
    keys = features(T3, "p")
    q = directions(keys, count=3, seed=1)[0]
    a = [sum(x * y for x, y in zip(k, q)) for k in keys[0]]
    g = list(T3.scores[0])
    s = [F(1, 3)] * 3
    want = abs(lhs_by_definition(a, g, s, 0)) / (2 * (max(g) - min(g)) * max(abs(x) for x in a) * F(2, 3) ** 2)
    (series,) = next(f for f in out.figures if f.name == "ratio").series
    assert abs(series.y[0] - float(want)) < 1e-12 and abs(series.x[0] - float(mpmath.log10(F(2, 3)))) < 1e-12


def test_hypothesis_detail_names_the_optimal_tokens():
    with working_precision(20) as prec:
        out = lemma3.evaluate(ZERO_KEYS, prec)
    # scores Xv: (1, 0, 0) and (2, 0, 1)
    assert out.hypotheses[0].detail == "opt = {0}, {0}"
    tied = Dataset.make(X=[[[1, 0, 1], [0, 1, 1], [0, 0, 0]]], Y=[1], v=[0, 0, 1], name="tied")
    with working_precision(20) as prec:
        out = lemma3.evaluate(tied, prec)
    assert out.hypotheses[0].met is False and out.hypotheses[0].detail == "opt = {0,1}"
