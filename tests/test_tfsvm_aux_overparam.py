"""tfsvm.aux.overparam-no-stationary: defaults HOLD certified; V⋆ on D-T2 equals the hand solution of V z_i = Y_i v;
the value at W = 0 equals ½[ℓ'(½)·¼ + ℓ'(−1)·1] (uniform attention, by hand); D-STAT (dependent queries) is
NOT_APPLICABLE naming independence and, with independence dropped, VIOLATED (∇L(0) = 0 exactly, V⋆ = 0)."""
from fractions import Fraction

import mpmath

from lemmas.tfsvm import aux_overparam
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.numbers.precision import working_precision


def test_defaults_hold_proven_on_every_w():
    """X_iV⋆z_i = γ_i exactly on every default dataset, so (D), (V) and a non-constant γ prove ⟨∇L(W), V⋆⟩ < 0 at
    every W (kit.descent_proof): proven, and the probes only corroborate."""
    v = run_claim(aux_overparam.CLAIM, aux_overparam.CLAIM.default_datasets(), dps=30)
    assert (v.verdict, v.certainty, v.range) == ("HOLDS", "proven", "every W ∈ ℝ^{d×d}")


def test_v_star_on_dt2_by_hand():
    """z₁ = (1,0), z₂ = (1,½), v = (0,1), Y = (1,−1): V z₁ = (0,1), V z₂ = (0,−1) ⇒ first column (0,1),
    second column 2·((0,−1) − (0,1)) = (0,−4): V⋆ = [[0,0],[1,−4]] (unique: Z has full rank d = n = 2)."""
    assert aux_overparam.v_star(D.d_t2()) == tuple(Fraction(x) for x in (0, 0, 1, -4))


def test_value_at_zero_by_hand():
    mpmath.mp.dps = 40

    def lp(u):
        return -1 / (1 + mpmath.e ** u)

    expected = (lp(mpmath.mpf(1) / 2) / 4 + lp(-1)) / 2  # Var of (1,0) = 1/4, of (−2,0) = 1 under s = (½, ½)
    with working_precision(30) as prec:
        out = aux_overparam.evaluate(D.d_t2(), prec, points=[("0", (0, 0, 0, 0))])
    assert out.decide() == "HOLDS"
    sign = out.evidence[1]
    assert abs(mpmath.mpf(sign.value.mid().str(30, radius=False)) - expected) < 1e-25


def test_dependent_queries_not_applicable():
    v = run_claim(aux_overparam.CLAIM, [D.d_stat()], dps=30)
    assert v.verdict == "NOT_APPLICABLE" and "independent" in v.reasons[0]


def test_dependent_queries_violated_when_dropped():
    with working_precision(30) as prec:
        out = aux_overparam.evaluate(D.d_stat(), prec, require_independent=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    assert any("‖∇L(0)‖" in r for r in d.reasons)
    assert not any(e.proves or e.corroborates for e in out.evidence)  # (1) fails: no proof, the items decide
    assert aux_overparam.v_star(D.d_stat()) == (Fraction(0),)


def test_constant_scores_not_applicable():
    flat = D.d_stat().replace(X=[[[1], [1]], [[2], [2]]], z=[[1], [2]])
    v = run_claim(aux_overparam.CLAIM, [flat], dps=20)
    assert v.verdict == "NOT_APPLICABLE" and "non-constant" in v.reasons[0]
