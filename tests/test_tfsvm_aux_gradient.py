"""tfsvm.aux.gradient: (13), the derived (18) and the covariance identity hold (certified); v1's printed (18)
and a sign slip are VIOLATED; a loss outside Assumption A is NOT_APPLICABLE; ∇L(0) against a hand closed form."""
from fractions import Fraction

from flint import arb

from lemmas.tfsvm import aux_gradient
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.models.attention import LinearLogitModel
from verify.models.losses import Square
from verify.numbers.precision import to_arb, working_precision


def test_defaults_hold_certified():
    v = run_claim(aux_gradient.CLAIM, aux_gradient.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_printed_eq18_is_violated_on_DT2():
    with working_precision(30) as prec:
        out = aux_gradient.evaluate(D.d_t2(), prec, printed18=True)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    assert "GᵀQ, GK" in d.reasons[0]


def test_sign_slip_in_eq13_is_violated():
    with working_precision(30) as prec:
        out = aux_gradient.evaluate(D.lemma4_cross(), prec, sign=-1)
    assert out.decide() == "VIOLATED"


def test_square_loss_is_not_applicable():
    with working_precision(30) as prec:
        out = aux_gradient.evaluate(D.d_t2(), prec, loss=Square(centre=0))
    d = out.decision()
    assert d.verdict == "NOT_APPLICABLE" and "Assumption A" in d.reasons[0]


def test_gradient_at_zero_matches_hand_closed_form():
    """At W = 0 attention is uniform: ∇L(0) = (1/(nT))Σ_i ℓ'(γ̄_i)Σ_t(γ_it − γ̄_i) x_it z_iᵀ. D-T2: γ̄ = (1/2, −1),
    seq 1 gives ℓ'(1/2)·(1/2)(1,1)(1,0)ᵀ, seq 2 gives ℓ'(−1)·(−1)(2,2)(1,1/2)ᵀ, ℓ'(u) = −1/(1 + e^u)."""
    with working_precision(40):
        lp = lambda u: -1 / (1 + to_arb(u).exp())  # noqa: E731
        a, b = lp(Fraction(1, 2)) / 2, -2 * lp(-1)
        hand = [(a + b) / 4, (b / 2) / 4, (a + b) / 4, (b / 2) / 4]
        g = LinearLogitModel.from_dataset(D.d_t2(), "W").grad([arb(0)] * 4)
        assert all(abs(x - y) < arb("1e-35") for x, y in zip(g, hand))


def test_DSTAT_gradient_at_zero_vanishes():
    """D-STAT: both sequences give ℓ'(1/2)·(1/4)·z_i with z = (1), (−1): the sum is 0 (the closed form, exactly)."""
    with working_precision(30):
        g = LinearLogitModel.from_dataset(D.d_stat(), "W").grad([arb(0)])
        assert abs(g[0]) < arb("1e-28")
