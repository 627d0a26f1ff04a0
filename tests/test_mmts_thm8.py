"""mmts.thm8 (nonlinear-head regularization path → the solution set of (ATT-SVM')): (ATT-SVM') solved as a union of
QPs against hand-derived solution sets, the defaults' verdict, the mixing-head false case (VIOLATED with Assumption D
dropped, NOT_APPLICABLE naming it otherwise) and the vacuous case."""
import math
from fractions import Fraction

from lemmas.mmts import thm8
from verify import Dataset
from verify.claims import run_claim
from verify.data import mmts as D
from verify.kit.mixing import ASSUMPTION_D, linear_mixing, ray_limit_loss
from verify.models.heads import make_head, optimal_sets
from verify.numbers.precision import working_precision
from verify.svm.prime import solve_att_svm_prime


def _prime(data):
    head = make_head(data.head, data.v)
    return solve_att_svm_prime(data, optimal_sets(data, head), 30)


def test_att_svm_prime_tie_example():
    """Spec §2.7: n=1, T=3, k₁=(1,0), k₂=(−1,0) optimal, k₃=(0,0): P^mm = {(1,0), (−1,0)} (midpoint infeasible)."""
    pr = _prime(D.mmts_tie())
    assert pr.status == "optimal" and pr.norm2 == 1
    assert sorted(pr.solutions) == [(-1, 0, 0), (1, 0, 0)]


def test_att_svm_prime_by_hand():
    """Tanh dataset: α₁ = (1,0) needs p₁ ≥ 1 and −p₁ ≥ 1 (infeasible); α₁ = (−1,0): −p₁ ≥ 1, 2p₂ ≥ 1 → (−1, 1/2).
    Mixing head: rows (1,−2) or (−1,−2) ≥ 1 → (±1, −2)/5, ‖p‖² = 1/5."""
    pr = _prime(D.mmts_tanh_head())
    assert pr.solutions == [(-1, Fraction(1, 2), 0)] and pr.norm2 == Fraction(5, 4)
    assert sorted(r.status for _, r in pr.pieces) == ["infeasible", "optimal"]
    pr = _prime(D.mmts_mixing_head())
    assert sorted(pr.solutions) == [(Fraction(-1, 5), Fraction(-2, 5)), (Fraction(1, 5), Fraction(-2, 5))]
    assert pr.norm2 == Fraction(1, 5)


def test_linear_mixing_constants_tanh():
    """c ∈ [sech²(1)·1, 3/2] on the tanh dataset (scores 1, 1, 0 and, label-aligned, 1, 0, −1/2; B = 1)."""
    data = D.mmts_tanh_head()
    head = make_head(data.head, data.v)
    with working_precision(30):
        lo, hi, _ = linear_mixing(data, head, optimal_sets(data, head))
        assert abs(float(lo.mid()) - 1 / math.cosh(1) ** 2) < 1e-12 and float(hi.mid()) == 1.5


def test_holds_on_defaults():
    v = run_claim(thm8.CLAIM, thm8.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"


def test_mixing_head_violated_without_assumption_d():
    """The path runs to (0,−1): distance √(1/5 + (1 − 2/√5)²) to (±1,−2)/√5 at every R — a plateau."""
    with working_precision(30) as prec:
        out = thm8.evaluate(D.mmts_mixing_head(), prec, radii=("1", "2", "5", "10", "20"), assume_d=False,
                            figure=False)
    d = out.decision()
    assert d.verdict == "VIOLATED"
    want = math.sqrt(1 / 5 + (1 - 2 / math.sqrt(5)) ** 2)
    assert abs(float(out.evidence[0].value.mid()) - want) < 1e-9


def test_mixing_head_not_applicable_naming_assumption_d():
    with working_precision(30) as prec:
        out = thm8.evaluate(D.mmts_mixing_head(), prec, radii=("1", "2", "5", "10", "20"), figure=False)
    d = out.decision()
    assert d.verdict == "NOT_APPLICABLE" and any(ASSUMPTION_D in r for r in d.reasons)


def test_refuting_ray_limits():
    """Along (0,−1) the head sees the midpoint 0 (ψ = 0): limit loss log 2; along p^mm it sees x₁ (ψ = −1): log(1+e)."""
    data = D.mmts_mixing_head()
    head = make_head(data.head, data.v)
    with working_precision(30):
        lu, sel = ray_limit_loss(data, head, (0, -1))
        lp, _ = ray_limit_loss(data, head, (Fraction(1, 5), Fraction(-2, 5)))
    assert sel == ((0, 1),)
    assert abs(float(lu.mid()) - math.log(2)) < 1e-12 and abs(float(lp.mid()) - math.log(1 + math.e)) < 1e-12


def test_vacuous_when_every_token_is_optimal():
    data = Dataset.make(X=[[(1, 0, 1), (-1, 0, 1)]], Y=[1], v=[0, 0, 1], K=[[(1, 0, 0), (-1, 0, 0)]])
    with working_precision(30) as prec:
        d = thm8.evaluate(data, prec, figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and any("ATT-SVM'" in r for r in d.reasons)


def test_singleton_sets_reduce_to_att_svm():
    """|O_i| = 1 for every i: (ATT-SVM') is (ATT-SVM) for α = opt (Theorem 1's case): the same exact solution."""
    from verify.geometry.stationarity import gmm

    for data in (D.mmts_fig1a(), D.mmts_fig1b(), D.mmts_fig8_substitute()):
        pr = _prime(data)
        res = gmm(data, "p", 30)
        assert pr.solutions == [tuple(Fraction(x) for x in res.solution)]


def test_infeasible_prime_not_applicable():
    """Optimal key (0,0) strictly inside the hull of (±1,0): every piece has a Farkas certificate."""
    data = D.mmts_infeasible_B()
    assert _prime(data).status == "infeasible"
    with working_precision(30) as prec:
        d = thm8.evaluate(data, prec, figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and any("ATT-SVM'" in r for r in d.reasons)


def test_mlp_head_leaves_assumption_d_undecided():
    """A ReLU head is outside the linear-mixing sufficient condition; without a refuting ray D stays undecided."""
    data = D.mmts_tie().replace(head={"kind": "mlp", "V": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]})
    with working_precision(30) as prec:
        d = thm8.evaluate(data, prec, radii=("1", "2", "5", "10"), figure=False).decision()
    assert d.verdict == "INCONCLUSIVE" and any(ASSUMPTION_D in r for r in d.reasons)


def test_distance_to_the_solution_set():
    """u = (0,−1) against P^mm/‖p^mm‖ = {(±1,−2)/√5}: √(1/5 + (1 − 2/√5)²); scaled by R = 2 instead of ‖u‖ = 1:
    u/2 = (0, −1/2) → √(1/5 + (1/2 − 2/√5)²)."""
    from verify.svm.prime import distance_to_prime_set

    pr = _prime(D.mmts_mixing_head())
    d1 = distance_to_prime_set((0, -1), pr, 30)
    d2 = distance_to_prime_set((0, -1), pr, 30, radius=2)
    assert abs(float(d1.mid()) - math.sqrt(0.2 + (1 - 2 / math.sqrt(5)) ** 2)) < 1e-14
    assert abs(float(d2.mid()) - math.sqrt(0.2 + (0.5 - 2 / math.sqrt(5)) ** 2)) < 1e-14
