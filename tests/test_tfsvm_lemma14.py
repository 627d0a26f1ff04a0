"""tfsvm.lemma14 (local correlation inequality): defaults HOLD as evidence over the radius ladder; the D-T2 LMM ray is
outside the GMM's cone (NOT_APPLICABLE naming it) and, with the cone dropped, VIOLATED with ρ = √10 (closed form of
Lemma 10); α = C on D-LMM is NOT_APPLICABLE, and with local optimality dropped the inequality fails on the W^mm_C ray
because ⟨−∇L, Ŵ^mm_C⟩ < 0 there (checked against a hand formula)."""
from fractions import Fraction

import mpmath

from lemmas.tfsvm import lemma14
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.geometry.local_cone import local_cone
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import working_precision

RAY = [("LMM ray 2000·W^mm_α", (1000, 0, 1000, 0))]  # D-T2: W^mm_(1,1) = [[½, 0], [½, 0]]
WC = (0, 0, 0, Fraction(1, 3), 0, 0, Fraction(-4, 3), 0, 0)  # D-LMM: W^mm_C (first column (0, 1/3, −4/3))


def test_defaults_hold_as_evidence():
    v = run_claim(lemma14.CLAIM, lemma14.CLAIM.default_datasets(), dps=30)
    assert (v.verdict, v.certainty) == ("HOLDS", "evidence")
    assert "100·R" in v.range and "every π > 0" in v.range


def test_every_pi_settled_by_a_witness_on_d_lmm():
    with working_precision(30) as prec:
        out = lemma14.evaluate(D.d_lmm(), prec)
    w = [e for e in out.evidence if "every π > 0 — ∃R_π" in e.quantity]
    assert len(w) == 2 and all(e.decide() is True for e in w)


def test_lmm_ray_outside_the_cone_not_applicable():
    with working_precision(30) as prec:
        d = lemma14.evaluate(D.d_t2(), prec, alphas=[(0, 1)], points=RAY).decision()
    assert d.verdict == "NOT_APPLICABLE" and "cone" in d.reasons[0]


def test_lmm_ray_violates_without_the_cone():
    """(1 + π) − ρ with π = ½ and ρ → ‖W^mm‖/‖W^mm_α‖ = √5/(1/√2) = √10 (Lemma 10's closed form)."""
    with working_precision(30) as prec:
        out = lemma14.evaluate(D.d_t2(), prec, alphas=[(0, 1)], points=RAY, require_cone=False)
    d = out.decision()
    assert (d.verdict, d.certainty) == ("VIOLATED", "certified")
    tally = [e for e in out.evidence if e.coverage is not None][0]
    mpmath.mp.dps = 30
    assert abs(mpmath.mpf(tally.value.mid().str(25, radius=False)) - (mpmath.mpf(3) / 2 - mpmath.sqrt(10))) < 1e-20


def test_not_locally_optimal_not_applicable():
    with working_precision(30) as prec:
        d = lemma14.evaluate(D.d_lmm(), prec, alphas=[(2,)]).decision()
    assert d.verdict == "NOT_APPLICABLE" and "locally optimal" in d.reasons[0]


def test_without_local_optimality_the_w_c_ray_fails():
    """At W = r·W^mm_C the logits are (−r, −r, 0) and V = W^mm_C has b = (−1, −1, 0), γ = (1, ½, 0), so
    Cov_s(γ, b) = −(s_A + s_B/2)s_C < 0 and D = ⟨−∇L, Ŵ^mm_C⟩ = |ℓ'(φ)|Cov/‖W^mm_C‖ < 0 (spec: −1.7e−2 at ‖W‖ = 5);
    on the ray N = D, so (1 + π)D − N = πD < 0 for every π."""
    pts = [(f"{r}·W^mm_C", tuple(r * x for x in WC)) for r in (3, 15, 36)]
    with working_precision(30) as prec:
        out = lemma14.evaluate(D.d_lmm(), prec, alphas=[(2,)], points=pts, require_lmm=False)
        d = out.decision()
        assert (d.verdict, d.certainty) == ("VIOLATED", "certified")
        cone = local_cone(D.d_lmm(), (2,))
        p = lemma14.Point(LinearLogitModel.from_dataset(D.d_lmm(), "W"), cone, pts[0][1], "")
    mpmath.mp.dps = 30
    r = mpmath.mpf(3)
    e = mpmath.e ** -r
    sA = sB = e / (1 + 2 * e)
    sC = 1 / (1 + 2 * e)
    phi = sA + sB / 2
    want = -(1 / (1 + mpmath.e ** phi)) * (sA + sB / 2) * sC / mpmath.sqrt(mpmath.mpf(17) / 9)
    assert want < 0 and abs(mpmath.mpf(p.D.mid().str(25, radius=False)) - want) < 1e-20


def test_registered():
    c = lemma14.CLAIM
    assert c.id == "tfsvm.lemma14" and c.aliases == ("local-correlation",) and c.kind == "existential"
