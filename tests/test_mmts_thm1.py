"""mmts.thm1 (regularization path → GMM): the spec's numbers on Fig. 1(a)/(b), the altered target (an LMM) VIOLATED
by a plateau, and the hypotheses."""
import math

from lemmas.mmts import thm1
from verify import Dataset
from verify.claims import run_claim
from verify.data import mmts as D
from verify.dynamics import regularization_path
from verify.numbers.precision import working_precision


def test_holds_on_defaults():
    v = run_claim(thm1.CLAIM, thm1.CLAIM.default_datasets()[:2], dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"


def test_spec_numbers():
    """Spec §4 thm1: Fig. 1(a) 1 − corr = 5.9e−3, 1.2e−3, 1.4e−5, 1.0e−9 at R = 10, 20, 50, 100; Fig. 1(b) 3.7e−4,
    5.8e−5, 2.3e−7 at R = 10, 20, 50."""
    for data, spec in ((D.mmts_fig1a(), {10: 5.9e-3, 20: 1.2e-3, 50: 1.4e-5, 100: 1.0e-9}),
                       (D.mmts_fig1b(), {10: 3.7e-4, 20: 5.8e-5, 50: 2.3e-7})):
        rp = regularization_path(data, "p", tuple(spec), dps=30, starts=2)
        for p in rp.points:
            want = spec[round(float(p.R.mid()))]
            assert abs(math.log10(float(p.one_minus_corr_gmm.mid())) - math.log10(want)) < 0.05


def test_lmm_target_is_violated_by_a_plateau():
    """On Fig. 1(b) the path goes to the GMM (−0.1,1)/√1.01, not to the LMM (1,0): 1 − corr → 1 + 0.1/√1.01."""
    with working_precision(30) as prec:
        out = thm1.evaluate(D.mmts_fig1b(), prec, target=(1,), figure=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "evidence"
    e = out.evidence[0]
    assert abs(float(e.value.mid()) - (1 + 0.1 / math.sqrt(1.01))) < 1e-6


def test_hypotheses():
    with working_precision(30) as prec:
        inf = thm1.evaluate(D.mmts_infeasible_B(), prec, figure=False)
        tie = thm1.evaluate(Dataset.make(X=[[[1, 0, 1], [-1, 0, 1], [0, 0, 0]]], Y=[1], v=[0, 0, 1], name="tie"), prec,
                           figure=False)
    assert inf.decide() == "NOT_APPLICABLE" and "feasible" in inf.decision().reasons[0]
    assert tie.decide() == "NOT_APPLICABLE" and "unique optimal tokens" in tie.decision().reasons[0]
