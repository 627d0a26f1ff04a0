"""mmts.thm4 / mmts.thm7 (local regularization paths converge only to LMM directions): the spec's Fig. 1(b′) path
pinned at ‖p̄‖ = R₀ on the cone edge, the LMM positive control (VIOLATED without the hypothesis), the hypotheses, and
the rule stays_away (tests/test_rules.py)."""
from fractions import Fraction

from lemmas.mmts import lemma10, thm4, thm7
from verify.claims import run_claim
from verify.data import mmts as D
from verify.dynamics.local_regpath import local_regularization_path
from verify.geometry.directional import planar
from verify.numbers.precision import working_precision


def test_holds_on_defaults():
    v = run_claim(thm4.CLAIM, thm4.CLAIM.default_datasets()[:1], dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"
    v = run_claim(thm7.CLAIM, thm7.CLAIM.default_datasets()[:1], dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"


def test_fig1b_prime_path_is_pinned_at_R0():
    """Spec: q = (1,0), R₀ = 1, ε ∈ {0.01, 0.001}: ‖p̄(R)‖ = 1 at the cone edge (corr = 1 − ε) for every R."""
    data = planar(D.mmts_fig1b_prime())
    for eps in ("0.01", "0.001"):
        rp = local_regularization_path(data, (1, 0), (5, 50, 1000), eps=eps, R0=1, dps=30, starts=1)
        for p in rp.points:
            assert abs(float(p.norm.mid()) - 1) < 1e-12 and "cone edge" in p.notes and "R0" in p.notes


def test_lmm_direction_converges_so_the_bare_conclusion_is_violated():
    data = planar(D.mmts_fig1b())
    with working_precision(30) as prec:
        na = thm4.evaluate(data, prec, q=(1, 0), figure=False)
        bad = thm4.evaluate(data, prec, q=(1, 0), eps=(Fraction(1, 500),), require_non_lmm=False, figure=False)
    assert na.decide() == "NOT_APPLICABLE" and "q ∉ P^mm" in na.decision().reasons[0]
    d = bad.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "evidence"


def test_hypotheses():
    with working_precision(30) as prec:
        tie = thm4.evaluate(planar(D.mmts_fig1a()), prec, q=(1, Fraction(1, 4)), figure=False)
        ngp = thm7.evaluate(lemma10.non_general_position(), prec, q=(1, Fraction(1, 3)), figure=False)
    assert tie.decide() == "NOT_APPLICABLE" and "distinct scores" in tie.decision().reasons[0]
    assert ngp.decide() == "NOT_APPLICABLE"
    assert [r for r in ngp.decision().reasons] == ["hypothesis not met: keys in general position (Theorem 7's bullets; "
                                                   "star matrices)"]
