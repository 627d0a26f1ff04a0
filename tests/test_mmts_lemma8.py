"""mmts.lemma8 (direction dominance): the spec's pair against an independent mpmath evaluation, the leading
coefficient in closed form, the false case (the smaller-margin direction not neighbour-optimal) and the hypotheses."""
import mpmath
from flint import arb

from lemmas.mmts import lemma8
from verify.claims import run_claim
from verify.data import mmts as D
from verify.geometry.directional import baseline_excess, directional, unit
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import working_precision


def _loss(R, q, keys, scores):
    """Independent: L(R q̄) = log(1 + e^{−φ}) with a direct softmax (mpmath, 60 digits)."""
    mpmath.mp.dps = 60
    n = mpmath.sqrt(sum(mpmath.mpf(x) ** 2 for x in q))
    a = [R * sum(mpmath.mpf(k) * mpmath.mpf(x) for k, x in zip(key, q)) / n for key in keys]
    m = max(a)
    e = [mpmath.exp(x - m) for x in a]
    phi = sum(ei * mpmath.mpf(g) for ei, g in zip(e, scores)) / sum(e)
    return mpmath.log(1 + mpmath.exp(-phi))


def test_holds_on_defaults():
    v = run_claim(lemma8.CLAIM, lemma8.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"


def test_spec_pair_values_and_leading_coefficient():
    keys, scores = [("1", "0"), ("0", "0"), ("0.3", "1")], ["1", "0.2", "0.5"]
    with working_precision(40) as prec:
        out = lemma8.evaluate(lemma8.spec_dataset(), prec, pairs=[((1, 0), (1, "-0.3"))], figure=False)
        assert out.decide() == "HOLDS"
        c = next(e for e in out.evidence if "leading coefficient" in e.quantity)
        # q = (1,0): the only neighbour is (0.3,1) (margin 0.7, score 0.5): c = |ℓ'(1)|·(1 − 0.5) = 0.5/(1 + e)
        assert abs(c.value - arb("0.5") / (1 + arb(1).exp())) < arb(10) ** -35
        data = lemma8.spec_dataset()
        a, b = directional(data, (1, 0)), directional(data, (1, "-0.3"))
        m = LinearLogitModel(features(data, "p"), data.scores)
        for R in (1, 5, 10, 20, 40):
            ours = (baseline_excess(m, a, [R * x for x in unit(a.q)], "logistic")
                    - baseline_excess(m, b, [R * x for x in unit(b.q)], "logistic"))
            ref = _loss(R, (1, 0), keys, scores) - _loss(R, (1, "-0.3"), keys, scores)
            assert ref > 0 and abs(float(ours.mid()) / float(ref) - 1) < 1e-12, (R, ours, ref)


def test_smaller_margin_not_neighbour_optimal_is_violated():
    """Fig. 1(b′): q ∝ (1, −1/20) (Θ = 0.9988) selects (1,0) through the higher-score neighbour (0,0) (0.95 > 0.9);
    q' = (1,0,0) has Θ = 1. c_q = |ℓ'(0.9)|(0.9 − 0.95) < 0: L(Rq) < L(Rq') for every large R."""
    b = D.mmts_fig1b_prime()
    pair = [((1, "-1/20", 0), (1, 0, 0))]
    with working_precision(30) as prec:
        na = lemma8.evaluate(b, prec, pairs=pair, figure=False)
        bad = lemma8.evaluate(b, prec, pairs=pair, require_optimal=False, figure=False)
    assert na.decide() == "NOT_APPLICABLE" and "neighbour-optimal" in na.decision().reasons[0]
    d = bad.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    c = next(e for e in bad.evidence if "leading coefficient" in e.quantity)
    with working_precision(30):
        assert abs(c.value - arb("-0.05") / (1 + arb("0.9").exp())) < arb(10) ** -25


def test_different_selected_tokens_not_applicable():
    with working_precision(30) as prec:
        out = lemma8.evaluate(D.mmts_fig1b_prime(), prec, pairs=[((1, "-1/20", 0), (-1, -1, 0))], figure=False)
    assert out.decide() == "NOT_APPLICABLE" and "identical unique selected tokens" in out.decision().reasons[0]


def test_part_ii_on_fig1b_prime():
    with working_precision(30) as prec:
        out = lemma8.evaluate(D.mmts_fig1b_prime(), prec, singles=[(1, 0, 0)], figure=False)
    assert out.decide() == "HOLDS"
    rd = next(e for e in out.evidence if "R_δ'·δ'" in e.quantity)
    assert "δ' = 0.1" in rd.note  # margins 1 (neighbour (0,0)) and 1.1 (token (−0.1,1))
