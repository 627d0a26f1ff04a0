"""irgf.lemma41: the two flows agree to the working precision; breaking condition (4) is caught."""
from lemmas.irgf import lemma41
from verify.claims import run_claim
from verify.data.irgf import d_seed0
from verify.numbers.precision import working_precision


def test_holds_on_defaults():
    v = run_claim(lemma41.CLAIM, lemma41.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS"
    # the GBS truncation error is not inside the balls: evidence over the times integrated
    assert v.certainty == "evidence"  # over t ≤ 4, at the initial conditions and times it names
    assert v.datasets[0].range == ("t ≤ 4; 2 initial conditions (a seeded generic one with sign flips, init (5) with "
                                   "ω₀ = (7/10, 13/10, 2/5, 1)); t ∈ {1/2, 1, 2, 4}")  # D-SEED0: d = 4
    assert v.datasets[1].range.endswith("ω₀ = (7/10, 13/10, 2/5)); t ∈ {1/2, 1, 2, 4}")  # d = 3
    assert all(not e.enclosed and e.coverage.points == 2 * 4 for e in v.evidence)  # 2 inits × 4 times, each decided


def test_broken_condition_4_is_violated_when_bypassed():
    with working_precision(20) as prec:
        out = lemma41.evaluate(d_seed0(), prec, break_init=True, check_hypotheses=False, times=("1/2", "1"))
    assert out.decide() == "VIOLATED"
    assert out.decision().certainty == "evidence"
    dev = out.evidence[0].value
    assert dev > 0.01  # a different trajectory, not rounding


def test_broken_condition_4_is_not_applicable():
    with working_precision(20) as prec:
        out = lemma41.evaluate(d_seed0(), prec, break_init=True)
    assert out.decide() == "NOT_APPLICABLE"
    assert all("condition (4)" in h.name for h in out.hypotheses if not h.met)
