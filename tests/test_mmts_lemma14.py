"""mmts.lemma14 (linear label mixing ⇒ Assumption D, explicit sandwich): defaults, the tie with O = {opt}
(NOT_APPLICABLE naming (85); VIOLATED with the hypothesis dropped) and the sandwich against a hand computation."""
import math
from fractions import Fraction

from lemmas.mmts import lemma14
from verify.claims import run_claim
from verify.data import mmts as D
from verify.numbers.precision import working_precision


def test_holds_on_defaults():
    v = run_claim(lemma14.CLAIM, [D.mmts_fig1b(), D.mmts_tie(), D.mmts_fig8_substitute()], dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_tie_with_singleton_optimal_set_not_applicable():
    with working_precision(30) as prec:
        d = lemma14.evaluate(D.mmts_tie(), prec, optimal="first").decision()
    assert d.verdict == "NOT_APPLICABLE" and any("linear label mixing" in r for r in d.reasons)


def test_tie_with_hypothesis_dropped_violated():
    """O = {token 1} while token 2 has the same score: at p = (−R, 0) the attention sits on token 2, q ≈ 1 but
    L − L⋆ = ℓ(1 − s₃) − ℓ(1) ≈ 0, so (ℓ'_min·1/1)·q ≤ L − L⋆ fails."""
    with working_precision(30) as prec:
        out = lemma14.evaluate(D.mmts_tie(), prec, optimal="first", drop_hypothesis=True)
    d = out.decision()
    assert d.verdict == "VIOLATED" and any("ℓ'_min c_min/n" in r for r in d.reasons)


def test_sandwich_at_zero_by_hand():
    """Fig. 1(b) at p = 0: s = (1/3,1/3,1/3), scores 1, 0.9, 0; δ = (0.1 + 1)/3, q = 2/3,
    L − L⋆ = log(1+e^{−(1−δ)}) − log(1+e^{−1}); the lower bound (1/(1+e))·(1/10)·(2/3) and the upper
    (1/(1+e^{−1}))·1·(2/3) bracket it."""
    delta, q = 1.1 / 3, Fraction(2, 3)
    E = math.log1p(math.exp(-(1 - delta))) - math.log1p(math.exp(-1))
    lo, hi = 1 / (1 + math.e) * 0.1 * float(q), 1 / (1 + math.exp(-1)) * float(q)
    assert lo < E < hi
    with working_precision(30) as prec:
        out = lemma14.evaluate(D.mmts_fig1b(), prec)
    assert out.decision().verdict == "HOLDS"
