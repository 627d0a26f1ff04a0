"""tfsvm.lemma2: the defaults hold (evidence over the R ladder); a W separating a NON-optimal choice (D-T2,
α = (0,0), 0-indexed) is VIOLATED with the limit (ℓ(−2) − ℓ(0))/2 of L(RW) − L⋆ (closed form); all scores equal →
NOT_APPLICABLE; the excess at R = 10⁶ along W^mm matches its closed-form leading term (the stable form)."""
import mpmath
from flint import arb

from lemmas.tfsvm import lemma2 as M
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.geometry.tfsvm_svm import excess_along
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import working_precision
from verify.svm import solve_svm


def test_defaults_hold_over_the_ladder():
    v = run_claim(M.CLAIM, M.CLAIM.default_datasets()[:2], dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "evidence" and "R ≤ 1e+06" in v.range


def test_non_optimal_selection_is_violated_with_its_limit():
    with working_precision(30) as prec:
        out = M.evaluate(D.d_t2(), prec, alpha=(0, 0), require_optimal=False, losses=("logistic",))
        d = out.decision()
        assert d.verdict == "VIOLATED" and d.certainty == "certified"
        assert any("DERIVED bound" in r for r in d.reasons) and any("plateau" in r for r in d.reasons)
        # sequence 2 (γ = (−2, 0)) selects token 0: the limit excess is (ℓ(−2) − ℓ(0))/2, logistic ℓ(u) = log(1 + e^{−u})
        mpmath.mp.dps = 30
        limit = (mpmath.log1p(mpmath.e ** 2) - mpmath.log(2)) / 2
        gap = [e.value for e in out.evidence if e.quantity.startswith("(1/n)Σℓ")][0]
        assert abs(mpmath.mpf(gap.mid().str(30, radius=False)) - limit) < mpmath.mpf(10) ** -25


def test_all_scores_equal_is_not_applicable():
    data = D.d_t2().replace(v=[1, -1], name="equal-scores")  # v ⊥ (1,1): every score is 0
    v = run_claim(M.CLAIM, [data], dps=20)
    assert v.verdict == "NOT_APPLICABLE" and "not all tokens optimal" in v.reasons[0]


def test_non_optimal_selection_with_the_hypothesis_is_not_applicable():
    with working_precision(20) as prec:
        d = M.evaluate(D.d_t2(), prec, alpha=(0, 0)).decision()
    assert d.verdict == "NOT_APPLICABLE" and "optimal indices" in d.reasons[0]


def test_excess_at_R_1e6_matches_the_leading_term():
    """D-T2, W^mm (margins 1 in both sequences): s = e^{−R}/(1 + e^{−R}) off the optimal token, δ₁ = s, δ₂ = 2s,
    so L − L⋆ = ½[|ℓ'(1)|·s + |ℓ'(0)|·2s] + O(s²) = ½e^{−R}(1/(1+e) + 1)(1 + O(e^{−R}))."""
    with working_precision(40):
        res = solve_svm(D.d_t2(), "W", "opt", 40, check_unique=False)
        model = LinearLogitModel.from_dataset(D.d_t2(), "W", "logistic")
        R = 10**6
        e = excess_along(model, res.solution, R)
        mpmath.mp.dps = 40
        lead = (1 / (1 + mpmath.e) + 1) / 2
        ratio = e * arb(R).exp()  # e^{R}·(L − L⋆)
        assert abs(mpmath.mpf(ratio.mid().str(40, radius=False)) - lead) < mpmath.mpf(10) ** -35
        assert ratio.rad() < 1e-30
