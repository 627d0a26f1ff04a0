"""mmts.lemma9: Fig. 1(b′) against the spec and an independent mpmath evaluation, the leading coefficient in closed
form, the spec's mixed-neighbour false case, and the hypotheses."""
import mpmath
from flint import arb

from lemmas.mmts import lemma9
from verify.claims import run_claim
from verify.data import mmts as D
from verify.geometry.directional import baseline_excess, directional, unit
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import working_precision


def test_holds_on_defaults():
    v = run_claim(lemma9.CLAIM, lemma9.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"


def test_fig1b_prime_values():
    """L(Rq) − ℓ(0.9) = −4.1e−3, −2.1e−4, −1.1e−6, −3.8e−11 at R = 2, 5, 10, 20 (spec), and mpmath directly."""
    data = D.mmts_fig1b_prime()
    spec = {2: -4.1e-3, 5: -2.1e-4, 10: -1.1e-6, 20: -3.8e-11}
    mpmath.mp.dps = 80
    with working_precision(40):
        info = directional(data, (1, 0, 0))
        m = LinearLogitModel(features(data, "p"), data.scores)
        for R, s in spec.items():
            ours = float(baseline_excess(m, info, [R * x for x in unit(info.q)], "logistic").mid())
            a = [mpmath.mpf(-R) / 10, mpmath.mpf(R), mpmath.mpf(0)]  # logits of (−0.1,1), (1,0), (0,0) at R(1,0)
            e = [mpmath.exp(x - R) for x in a]
            phi = (e[0] * 1 + e[1] * mpmath.mpf("0.9") + e[2] * mpmath.mpf("0.95")) / sum(e)
            ref = mpmath.log1p(mpmath.exp(-phi)) - mpmath.log1p(mpmath.exp(-mpmath.mpf("0.9")))
            assert abs(ours / float(ref) - 1) < 1e-12
            assert abs(ours / s - 1) < 0.06


def test_leading_coefficient_and_hypotheses_on_fig1b_prime():
    with working_precision(30) as prec:
        out = lemma9.evaluate(D.mmts_fig1b_prime(), prec, directions=[(1, 0, 0)], figure=False)
        assert out.decide() == "HOLDS"
        c = next(e for e in out.evidence if "leading coefficient" in e.quantity)
        assert abs(c.value - arb("-0.05") / (1 + arb("0.9").exp())) < arb(10) ** -25  # |ℓ'(0.9)|(0.9 − 0.95)


def test_mixed_neighbours_false_case():
    """Neighbours (−1,1) (score 0.6 > 0.5) and (−1,−1) (score 0) at margin 1 along (1,0): c = 0.4·|ℓ'(0.5)| > 0."""
    data = lemma9.mixed_neighbours()
    with working_precision(30) as prec:
        na = lemma9.evaluate(data, prec, directions=[(1, 0)], figure=False)
        bad = lemma9.evaluate(data, prec, directions=[(1, 0)], require_higher=False, figure=False)
        assert na.decide() == "NOT_APPLICABLE" and "γ_it > γ_iσ for every directional neighbour" in na.decision().reasons[0]
        d = bad.decision()
        assert d.verdict == "VIOLATED" and d.certainty == "certified"
        c = next(e for e in bad.evidence if "leading coefficient" in e.quantity)
        assert abs(c.value - arb("0.4") / (1 + arb("0.5").exp())) < arb(10) ** -25


def test_tied_selection_not_applicable():
    with working_precision(30) as prec:
        out = lemma9.evaluate(lemma9.mixed_neighbours(), prec, directions=[(-1, 0)], figure=False)
    assert out.decide() == "NOT_APPLICABLE" and "unique selected tokens" in out.decision().reasons[0]
