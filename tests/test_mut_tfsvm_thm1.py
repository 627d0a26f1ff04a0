"""tfsvm.thm1 (mutation tests): the threshold d ≥ max(T − 1, n) (d = T − 2 ≥ n is below it) and its detail; the
draws (12 by default, `draws` of them, seeds 0…draws−1 at σ, and at d − 1 with the same seeds), σ = 0 checking the
dataset alone (one point, named by it); a tie in the optimal tokens is undecided (INCONCLUSIVE, never a value);
the centre's feasibility and rank, and the count of infeasible draws at d − 1 (all of them on thm1_degenerate, by
hand below); the d − 1 item only when d > 1.

thm1_degenerate (n = 2, T = 2, d = 2): sequence 1 = (1, 0), (0, 0) with Y = +1, sequence 2 = (0, 0), (1, 0) with
Y = −1, z = e₁, v = e₁: γ = (1, 0) and (0, −1), opt = (0, 0). Cut to d − 1 = 1 coordinate and jittered by σ = 1/10,
the rows are a₁ = (1 + g₁ − g₂)(1 + g₃) > 0 and a₂ = (g₄ − 1 − g₅)(1 + g₆) < 0 unless a Gaussian exceeds ≈ 3 —
so a₁w ≥ 1 and a₂w ≥ 1 are incompatible on every one of the 12 seeded draws; the centre itself is infeasible (Farkas)
and its rows (1, 0) ⊗ e₁ and −(1, 0) ⊗ e₁ have rank 1 of n(T − 1) = 2."""
from fractions import Fraction

import pytest

from lemmas.tfsvm import thm1
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.numbers.precision import working_precision


def _eval(data, **kw):
    with working_precision(30) as prec:
        return thm1.evaluate(data, prec, **kw)


def degenerate():
    mp = pytest.MonkeyPatch()
    calls = []
    real = thm1.noise_draw

    def spy(data, sigma, seed, d=None):
        calls.append((sigma, seed, d))
        return real(data, sigma, seed, d)

    mp.setattr(thm1, "noise_draw", spy)
    try:
        out = _eval(D.thm1_degenerate())
    finally:
        mp.undo()
    return out, calls


def test_draws_seeds_and_the_d_minus_1_count():
    out, calls = degenerate()
    s = Fraction(1, 10)
    assert calls == [(s, k, None) for k in range(12)] + [(s, k, 1) for k in range(12)]
    ev = out.evidence
    assert len(ev) == 3 and ev[0].coverage.points == 12 and out.decide() == "HOLDS"
    assert ev[1].value == "False" and ev[1].note == "constraint rows rank 1 of n(T − 1) = 2"
    assert ev[2].value == 12 and ev[2].note == "of 12; undecided 0"


def test_threshold_and_detail():
    """n = 1, T = 4, d = 2: d = T − 2 ≥ n but d < T − 1 = 3 → NOT_APPLICABLE, detail names d, T − 1, n."""
    data = Dataset.make(X=[[[1, 0], [0, 1], [0, 0], [1, 1]]], Y=[1], v=[1, 0], name="thm1-T4-d2")
    out = _eval(data)
    assert [(h.name, h.met, h.detail) for h in out.hypotheses] == [("d ≥ max(T − 1, n)", False, "d = 2, T − 1 = 3, n = 1")]
    assert out.decide() == "NOT_APPLICABLE" and not out.evidence


def test_sigma_zero_is_one_point_and_draws_option():
    out = _eval(D.d_t2(), sigma=0)
    assert [e.coverage.points for e in out.evidence] == [1] and out.evidence[0].coverage.worst_at == "tfsvm-D-T2"
    out = _eval(D.d_t2(), draws=2)
    assert out.evidence[0].coverage.points == 2 and out.range.startswith("2 seeded Gaussian draws, σ = 1/10")


def test_d1_has_no_item_below_and_a_tie_is_undecided():
    """n = 1, T = 2, d = 1 (d ≥ max(1, 1)): no d − 1 = 0 item. Tokens (1), (1): γ tied → no optimal token, the draw is
    undecided (not a value 0 or 1): INCONCLUSIVE."""
    data = Dataset.make(X=[[[1], [0]]], Y=[1], v=[1], name="thm1-d1")
    out = _eval(data, draws=2)
    assert len(out.evidence) == 2 and out.decide() == "HOLDS"
    tie = Dataset.make(X=[[[1], [1]]], Y=[1], v=[1], name="thm1-tie")
    with working_precision(30):
        assert thm1.feasible(tie, 30) is None
    out = _eval(tie, sigma=0)
    assert out.evidence[0].coverage.undecided == 1 and out.decide() == "INCONCLUSIVE"
