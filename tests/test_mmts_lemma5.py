"""mmts.lemma5 (gradient correlation, n = 1): the spec's sup ρ on Fig. 1(a) against an independent mpmath scan, the
n = 2 false case (ρ → √10 along the LMM ray), a π checked below its witness, and the hypotheses."""
from fractions import Fraction

import mpmath

from lemmas.mmts import lemma5
from verify.claims import run_claim
from verify.data import mmts as D
from verify.geometry.cones import lmm_geometry
from verify.kit.sphere_ratio import sphere_scan, sup_ratio
from verify.numbers.precision import working_precision


def _rho_sup(R, keys, scores, dps=30, grid=3600):
    """Independent: sup over the circle ‖p‖ = R (the keys' plane) of ⟨−∇L, p̄⟩/⟨−∇L, p̄^mm⟩, logistic loss, n = 1,
    by a dense angle grid and a golden-section refinement (direct softmax in mpmath)."""
    mpmath.mp.dps = dps
    K = [[mpmath.mpf(x) for x in k] for k in keys]
    g = [mpmath.mpf(x) for x in scores]
    pm = [mpmath.mpf(-1) / 10, mpmath.mpf(1)]
    nm = mpmath.sqrt(pm[0] ** 2 + pm[1] ** 2)
    pm = [x / nm for x in pm]

    def rho(th):
        p = [R * mpmath.cos(th), R * mpmath.sin(th)]
        a = [k[0] * p[0] + k[1] * p[1] for k in K]
        m = max(a)
        e = [mpmath.exp(x - m) for x in a]
        s = [x / sum(e) for x in e]
        phi = sum(si * gi for si, gi in zip(s, g))
        w = [sum(si * (gi - phi) * k[j] for si, gi, k in zip(s, g, K)) / (1 + mpmath.exp(phi)) for j in range(2)]
        return (w[0] * mpmath.cos(th) + w[1] * mpmath.sin(th)) / (w[0] * pm[0] + w[1] * pm[1])

    ths = [2 * mpmath.pi * k / grid for k in range(grid)]
    k = max(range(grid), key=lambda j: rho(ths[j]))
    a, b = ths[k] - 2 * mpmath.pi / grid, ths[k] + 2 * mpmath.pi / grid
    gr = (mpmath.sqrt(5) - 1) / 2
    for _ in range(60):
        c, d = b - gr * (b - a), a + gr * (b - a)
        if rho(c) >= rho(d):
            b = d
        else:
            a = c
    return rho((a + b) / 2)


def test_holds_on_defaults():
    v = run_claim(lemma5.CLAIM, lemma5.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"


def test_fig1a_sup_matches_an_independent_scan_and_the_spec():
    data = D.mmts_fig1a()
    radii = [Fraction(r) for r in (1, 2, 5, 10, 20)]
    spec = {1: 1.069, 2: 1.049, 5: 1.022, 10: 1.0082, 20: 1.0016}  # spec §4 lemma5 / §8.3
    with working_precision(30):
        S = sphere_scan(data, lmm_geometry(data, (0,)), radii, "logistic")
        ours = [sup_ratio(pts) for pts in S.points]
    for r, v in zip(radii, ours):
        ref = _rho_sup(int(r), [(-0.1, 1), (1, 0), (0, 0)], ["1", "0.9", "0.9"])
        assert float(v.mid()) <= float(ref) + 1e-12  # a probe supremum never exceeds the true one
        assert abs(float(v.mid()) - float(ref)) < 1e-7, (r, v, ref)
        assert abs(float(v.mid()) - spec[int(r)]) < 6e-4


def test_witnesses_on_fig1a():
    with working_precision(30) as prec:
        out = lemma5.evaluate(D.mmts_fig1a(), prec, figure=False)
    assert out.decide() == "HOLDS"
    w = {e.quantity: e.value for e in out.evidence if e.quantity.startswith("witness")}
    # sup ρ − 1 = 1.6e−3 at R = 20 and 1.4e−5 at R = 50: R_π = 50 for π = 10⁻³ (spec numbers)
    assert w["witness R for ρ ≤ 1 + π (π = 0.001) (smallest ladder radius from which it holds)"] == 50
    assert w["witness R for ρ ≤ 1 + π (π = 0.1) (smallest ladder radius from which it holds)"] == 1


def test_n2_without_the_n1_hypothesis_is_violated_with_limit_sqrt10():
    """§5.6: along p = r(1,0,0) input 1's neighbour leads: ρ → (k₁−k₂)ᵀq̄/(k₁−k₂)ᵀp̄^mm = 1/(1/√10) = √10."""
    data = D.mmts_fig8_substitute()
    with working_precision(30) as prec:
        out = lemma5.evaluate(data, prec, require_n1=False, pis=(Fraction(1, 10),), figure=False)
        d = out.decision()
        assert d.verdict == "VIOLATED" and d.certainty == "certified"
        lim = next(e for e in out.evidence if e.quantity.startswith("lim"))
        assert abs(float(lim.value.mid()) - 10 ** 0.5) < 1e-12
        out = lemma5.evaluate(data, prec, figure=False)
    assert out.decide() == "NOT_APPLICABLE" and "n = 1" in out.decision().reasons[0]


def test_pi_below_its_witness_is_violated():
    with working_precision(30) as prec:
        bad = lemma5.evaluate(D.mmts_fig1a(), prec, R=10, pis=(Fraction(1, 1000),), figure=False)
        good = lemma5.evaluate(D.mmts_fig1a(), prec, R=50, pis=(Fraction(1, 1000),), figure=False)
    assert bad.decision().verdict == "VIOLATED" and bad.decision().certainty == "certified"
    assert good.decide() == "HOLDS"


def test_assumption_b_broken_is_not_applicable():
    with working_precision(20) as prec:
        out = lemma5.evaluate(D.mmts_fig1b(), prec, figure=False)
    assert out.decide() == "NOT_APPLICABLE" and "Assumption B" in out.decision().reasons[0]
