"""tfsvm.lemma2 (mutation tests): each loss's Tally on its own loss (the exponential excess is not the logistic one),
the hypotheses named per loss, the points of (1) (the probe points plus R·W^mm_α for the first 9 selections'
feasible α, opt first), the value the decay item carries (the excess at R = 100), the derived bound's constant
M₁·max_i(γ_i,opt − min_t γ_it)(T − 1) (M₁ = 1 for the logistic loss), the "non-optimal α" items only for a
non-optimal α, and part (2) vacuous when Att-SVM(α) is certified infeasible (a certified HOLDS on (1), no range).

D-T2: γ = (1, 0) and (−2, 0), opt = (0, 1) (0-based), W^mm has margin 1 in both sequences: along R·W^mm the
off-optimal weight is s = σ(−R), δ₁ = 1·s, δ₂ = 2·s, so L − L⋆ = ½[ℓ(1 − s) − ℓ(1) + ℓ(−2s) − ℓ(0)]
= ½s(|ℓ'(1)| + 2|ℓ'(0)|)(1 + O(s)): logistic |ℓ'(u)| = 1/(1 + e^u), exponential e^{−u}.
D-LMM: γ = (1, ½, 0) (n = 1, T = 3): spread 1, T − 1 = 2. D-T2: spreads 1 and 2, T − 1 = 1: the constant is 2 on both."""
import mpmath
from claim_helpers import evaluate_at
from claim_helpers import only_item as _ev

from lemmas.tfsvm import lemma2 as M
from verify import Dataset
from verify.data import tfsvm as D
from verify.data.generators import random_dataset
from verify.geometry.probes import probe_points
from verify.models.attention import features

mpmath.mp.dps = 60
R_MAX = 10**6
#: n = 1, T = 3: tokens 1 and 2 coincide and are both optimal (γ = (1, 1, 0)): Att-SVM((0,)) needs 0 ≥ 1
TIE = Dataset.make(X=[[[1, 0], [1, 0], [0, 0]]], Y=[1], v=[1, 0], z=[[1, 0]], name="tie")


def _mp(x):
    return mpmath.mpf(x.mid().str(50, radius=False))


def _run(data, **kw):
    return evaluate_at(M, data, **kw)


def _lead(dl):
    return (dl(1) + 2 * dl(0)) / 2


def test_each_loss_has_its_own_tally_and_hypothesis():
    """(Each test runs its own check: mutmut maps a mutant to the tests that execute its code.)
    The smallest excess of (1) is at 10⁶·W^mm (every other α keeps an O(1) excess, the probe points have
    ‖W‖∞ ≤ 1000): e^{10⁶}·(L − L⋆) → ½(|ℓ'(1)| + 2|ℓ'(0)|), per loss."""
    t2 = _run(D.d_t2())
    logi = _ev(t2, "logistic: L(W) − L⋆ > 0")
    expo = _ev(t2, "exponential: L(W) − L⋆ > 0")
    scale = mpmath.exp(R_MAX)
    assert abs(_mp(logi.value) * scale - _lead(lambda u: 1 / (1 + mpmath.e ** u))) < 1e-30
    assert abs(_mp(expo.value) * scale - _lead(lambda u: mpmath.e ** (-u))) < 1e-30
    names = [h.name for h in t2.hypotheses]
    assert any(n.startswith("Assumption A (logistic)") for n in names)
    assert any(n.startswith("Assumption A (exponential)") for n in names)
    assert not any(e.quantity.startswith("(1/n)Σℓ") for e in t2.evidence)  # α = opt: no "non-optimal" limit


def test_decay_value_is_the_excess_at_R_100():
    """Its value is L(100·W^mm) − L⋆ (the seventh radius), in closed form at 150 digits (the difference loses 44)."""
    t2 = _run(D.d_t2(), losses=("logistic",))
    with mpmath.workdps(150):
        s = 1 / (1 + mpmath.e ** 100)
        ell = lambda u: mpmath.log1p(mpmath.e ** (-u))  # noqa: E731
        want = (ell(1 - s) - ell(1) + ell(-2 * s) - ell(0)) / 2
    got = _mp(_ev(t2, "(2) L(R·W^mm_α) − L⋆ → 0").value)
    assert abs(got / want - 1) < 1e-25


def test_derived_bound_constant_on_two_datasets():
    """The tightest point of the bound is R = 10⁶: its bound is C·e^{−10⁶·m}, m = 1 (an Att-SVM optimum has an
    active constraint), C = 1·max spread·(T − 1) = 2 on D-T2 (spreads 1, 2; T − 1 = 1) and on D-LMM (spread 1,
    T − 1 = 2)."""
    for out in (_run(D.d_t2(), losses=("logistic",)), _run(D.d_lmm(), losses=("logistic",))):
        b = _ev(out, "(2) logistic: L(R·W) − L⋆ ≤").bound
        assert abs(_mp(b) * mpmath.exp(R_MAX) - 2) < 1e-30
        assert _ev(out, "(2) logistic: L(R·W) − L⋆ ≤").decide() is True


def test_points_of_part_one():
    """n = 2, T = 4 (seed 1: every selection feasible): opt and the first 8 others, 9 rays of 10 radii each, plus the
    probe points."""
    data = random_dataset(n=2, T=4, d=2, seed=1, queries=True)
    out = _run(data, losses=("logistic",))
    probes = len(list(probe_points(features(data, "W"), data.optimal_tokens())))
    total = probes + 9 * len(M.RAYS)
    assert out.covers[0].startswith(f"(1) W at {total} points: the probe points and R·W^mm_α for 9 feasible α, ")
    assert _ev(out, "logistic: L(W) − L⋆ > 0").coverage.points == total


def test_non_optimal_note_only_for_a_non_optimal_alpha():
    note = "α = (0, 0) is NOT a choice of optimal indices (the false case of (2))"
    assert note in _run(D.d_t2(), alpha=(0, 0), require_optimal=False, losses=("logistic",)).notes
    assert not any("NOT a choice" in n for n in _run(D.d_t2(), alpha=(0, 1), require_optimal=False,
                                                    losses=("logistic",)).notes)


def test_infeasible_optimal_choice_makes_part_two_vacuous():
    """TIE: the optimal choice α = (0,) ties with token 1 (the same token): no W separates it — (2) is vacuous (a
    met requirement: the infeasibility is certified) and (1) alone decides, certified, with no range."""
    out = _run(TIE)
    d = out.decision()
    assert d.verdict == "HOLDS" and d.certainty == "certified" and out.range is None
    assert [r.met for r in out.requirements] == [True]
    assert not any(e.quantity.startswith("(2)") for e in out.evidence)
