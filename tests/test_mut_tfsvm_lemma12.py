"""tfsvm.lemma12 (mutation tests): the scope of given W and V on both sides of each condition (W ∈ S_μ, ‖W‖_F ≥ R_μ;
V ∈ S_μ), checked whether W, V or both are given, the refusal naming the first three points outside; the counts of
the three tallies (W × V, (L1) at V = W^mm only); R_μ and A of (53) beside the verdict from the hand formulas.

D-T2: W^mm = (½, −3/2, ½, −3/2) (‖W^mm‖² = 5, margins ≥ 1; t·W^mm has margin slack t/2 at μ = ½); R_μ =
2√5·log(32√50) ≈ 24.25 (tests/test_tfsvm_lemma12.py), A = √50 (A² = max(‖x‖ ∨ ‖x − x'‖)²‖z‖²‖W^mm‖² = 8·(5/4)·5)."""
from fractions import Fraction

import mpmath

from lemmas.tfsvm import lemma12
from verify.data import tfsvm as D
from verify.geometry.tfsvm_cones import cone_samples, margin_rows, margin_slack, w_constants
from verify.numbers.precision import to_arb, working_precision

mpmath.mp.dps = 40
HALF = Fraction(1, 2)
Q = (HALF, Fraction(-3, 2), HALF, Fraction(-3, 2))
R_HAND = 2 * mpmath.sqrt(5) * mpmath.log(32 * mpmath.sqrt(50))


def _mp(x):
    return mpmath.mpf(x.mid().str(35, radius=False))


def _scale(t, v=Q):
    return tuple(t * x for x in v)


def _run(**kw):
    with working_precision(30) as prec:
        return lemma12.evaluate(D.d_t2(), prec, **kw)


def _items(out):
    """The sampled tallies (the reduction's items, named (L1)/(L2 …) too, carry ``proves``)."""
    l1 = [e for e in out.evidence if "(L1)" in e.quantity and not e.proves]
    low = [e for e in out.evidence if "(L2): min" in e.quantity]
    up = [e for e in out.evidence if "(L2): max" in e.quantity]
    assert len(l1) == len(low) == len(up) == 1
    return l1[0], low[0], up[0]


def _edge():
    """A boundary direction of S_μ (unscaled, margin slack certified in [0, 1)) and a boundary point at ‖W‖ ≥ R_μ."""
    with working_precision(30):
        c = w_constants(D.d_t2(), Q)
        v = [d for lb, d in cone_samples(D.d_t2(), Q, HALF, c.theta, None, random_dirs=0) if "boundary" in lb][0]
        w = [d for lb, d in cone_samples(D.d_t2(), Q, HALF, c.theta, to_arb(mpmath.nstr(R_HAND, 30)), (1,), 0)
             if "boundary" in lb][0]
        rows = margin_rows(D.d_t2())
        for p in (v, w):
            s = margin_slack(rows, p, HALF, c.theta)
            assert s >= 0 and s < 1
    return v, w


def test_given_w_and_v_inside_are_counted():
    v, w = _edge()
    out = _run(points=[("deep", _scale(20)), ("edge W", w)], vs=[("W^mm", Q), ("edge V", v)])
    hyp = [h for h in out.hypotheses if "every V ∈ S_μ" in h.name]
    assert len(hyp) == 1 and hyp[0].met and hyp[0].detail == "all certified inside"
    l1, low, up = _items(out)
    assert l1.coverage.points == 2 and low.coverage.points == 4 and up.coverage.points == 4
    assert low.bound == 1 and up.bound == 1 and l1.bound == 0
    assert out.decision().verdict == "HOLDS"


def test_given_points_outside_either_condition_are_refused_w_or_v_alone():
    """W outside S_μ far out (10⁴·(1, 0, 1, 0)); W in S_μ with R_μ² − 1 ≤ ‖W‖² < R_μ²; W = W^mm (‖W‖ = √5 < R_μ);
    V = (1, 0, 1, 0) outside S_μ (the LMM direction): refused whichever of W, V is given, the first three named."""
    t = Fraction(mpmath.nstr((R_HAND - 1 / (4 * R_HAND)) / mpmath.sqrt(5), 30))
    assert R_HAND ** 2 - 1 <= 5 * mpmath.mpf(t.numerator) ** 2 / t.denominator ** 2 < R_HAND ** 2
    far_out = ("outside far", (10 ** 4, 0, 10 ** 4, 0))
    pts = [far_out, ("just below", _scale(t)), ("W^mm", Q), ("2W^mm", _scale(2))]
    out = _run(points=pts, vs=[("V out", (1, 0, 1, 0))])
    hyp = [h for h in out.hypotheses if "every V ∈ S_μ" in h.name]
    assert len(hyp) == 1 and not hyp[0].met
    assert hyp[0].detail == "not certified inside: ['outside far', 'just below', 'W^mm']"
    assert out.decision().verdict == "NOT_APPLICABLE"
    v_out = [("V out", (1, 0, 1, 0))]
    for kw in (dict(points=[far_out]), dict(points=[pts[1]]), dict(points=[("deep", _scale(20))], vs=v_out),
               dict(vs=v_out)):
        o = _run(**kw)
        assert o.decision().verdict == "NOT_APPLICABLE", kw
        assert [h for h in o.hypotheses if "every V ∈ S_μ" in h.name][0].detail.startswith("not certified inside: [")


def test_counts_follow_the_sampled_directions_and_factors():
    with working_precision(30):
        c = w_constants(D.d_t2(), Q)
        n = {k: len(cone_samples(D.d_t2(), Q, HALF, c.theta, None, random_dirs=k)) for k in (0, 2)}
    assert n[0] < n[2]
    for k, factors in ((2, (1, 10)), (0, (1,))):
        l1, low, up = _items(_run(random_dirs=k, factors=factors))
        nw = n[k] * len(factors)
        assert l1.coverage.points == nw and low.coverage.points == nw * n[k] and up.coverage.points == nw * n[k]
    l1, low, _ = _items(_run(vs=[("W^mm", Q)]))  # given V only: the sampled W, every one certified in the cone
    assert low.coverage.points == n[2] * len(lemma12.FACTORS) == l1.coverage.points


def test_radius_and_a_beside_the_verdict():
    out = _run()
    R = [e for e in out.evidence if e.quantity.startswith("μ = 1/2: R_μ")]
    A = [e for e in out.evidence if e.quantity == "A of (53)"]
    assert len(R) == 1 and abs(_mp(R[0].value) - R_HAND) < mpmath.mpf("1e-25")
    assert len(A) == 1 and abs(_mp(A[0].value) - mpmath.sqrt(50)) < mpmath.mpf("1e-25")


def _fmp(x):
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def test_the_loss_reaches_the_model():
    """Exponential loss (ℓ'(u) = −e^{−u}) at W = 20·W^mm (logits (20, 0) and (−20, 0) on D-T2's two sequences, γ = (1, 0)
    and (−2, 0), F = (1, 0, 1, 0) and (2, 1, 2, 1) for the non-zero tokens): (L1) −⟨∇L(W), W^mm⟩ by hand."""
    W = _scale(20)
    g = [mpmath.mpf(0)] * 4
    for f, gam in (((1, 0, 1, 0), 1), ((2, 1, 2, 1), -2)):
        s = 1 / (1 + mpmath.e ** (-sum(a * _fmp(b) for a, b in zip(f, W))))
        phi = s * gam
        c = -mpmath.e ** (-phi) * s * (gam - phi) / 2
        g = [x + c * a for x, a in zip(g, f)]
    want = -sum(a * _fmp(b) for a, b in zip(g, Q))
    l1, _, _ = _items(_run(points=[("20 W^mm", W)], vs=[("W^mm", Q)], loss="exponential"))
    assert abs(_mp(l1.value) - want) < mpmath.mpf("1e-25") * abs(want)


def test_both_bounds_by_hand_at_one_point():
    """W = 20·W^mm, V = W^mm (logistic): logits (20, 0) and (−20, 0), so s_opt = σ(20), q_i = 1 − s_opt = σ(−20) in
    both sequences; φ = (σ(20), −2σ(−20)); γ^gap = γ̄^gap = (1, 2) (T = 2); n = 2, A = √50, μ = ½. −⟨∇L(W), W^mm⟩ by
    the hand gradient; lower = (μ/2n)Σ|ℓ'_i|q_iγ^gap_i, upper = (2A/n)Σ|ℓ'_i|q_iγ̄^gap_i; every point named."""
    W = _scale(20)
    sig = lambda r: 1 / (1 + mpmath.e ** (-r))  # noqa: E731
    lp = lambda u: -1 / (1 + mpmath.e ** u)  # noqa: E731
    g = [mpmath.mpf(0)] * 4
    for f, gam in (((1, 0, 1, 0), 1), ((2, 1, 2, 1), -2)):
        s = sig(sum(a * _fmp(b) for a, b in zip(f, W)))
        phi = s * gam
        c = lp(phi) * s * (gam - phi) / 2
        g = [x + c * a for x, a in zip(g, f)]
    val = -sum(a * _fmp(b) for a, b in zip(g, Q))
    phi = (sig(20), -2 * sig(-20))
    terms = [abs(lp(p)) * sig(-20) * gap for p, gap in zip(phi, (1, 2))]
    lower, upper = mpmath.mpf(1) / 2 / 4 * sum(terms), 2 * mpmath.sqrt(50) / 2 * sum(terms)
    l1, low, up = _items(_run(points=[("20 W^mm", W)], vs=[("W^mm", Q)]))
    assert abs(_mp(l1.value) / val - 1) < mpmath.mpf("1e-20")
    assert abs(_mp(low.value) - val / lower) < mpmath.mpf("1e-20") * (val / lower)
    assert abs(_mp(up.value) - val / upper) < mpmath.mpf("1e-20") * (val / upper)
    assert (l1.coverage.worst_at, low.coverage.worst_at, up.coverage.worst_at) == \
        ("W: 20 W^mm", "W: 20 W^mm; V: W^mm", "W: 20 W^mm; V: W^mm")


def test_the_false_case_note_and_what_is_covered():
    vs = [("W^mm", Q)]
    assert "W ∈ C̄_(μ,R_μ) and V ∈ S_μ NOT required (false case)" in _run(vs=vs, require_cone=False).notes
    assert not [n for n in _run(vs=vs).notes if "NOT required" in n]
    given = "W, V at the given points"
    # the reduction proves the whole cone on D-T2, so the samples only corroborate it: named in a note
    proof = "probes corroborating the proof: "
    assert _run(vs=vs).notes[-1] == proof + given and _run(points=[("p", _scale(20))]).notes[-1] == proof + given
    assert _run(random_dirs=0, factors=(1,)).notes[-1] == \
        proof + "W at W^mm and boundary points of S_μ, ‖W‖_F ∈ R_μ·{1}; V along the same directions"
    assert _run(vs=vs, require_cone=False).covers[-1] == given  # no proof without the cone: the samples decide
