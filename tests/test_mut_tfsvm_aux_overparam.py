"""tfsvm.aux.overparam-no-stationary (mutation tests): the probe set (±V⋆ — or F_{1,1} when V⋆ = 0 — with 4 seeded
random directions, every direction at the 13 scales, θ = 0 once, the tie points), the engine cross-check on exactly
the points with ‖W‖∞ ≤ 1 as a relative residual (absolute where the variance term is 0), the sign item's strict
bound 0, ‖∇L(0)‖ and ‖V⋆‖² by closed forms, the loss reaching the model, the hypotheses' details, the note when
independence is dropped and the coverage text.

D-T2: z₁ = (1, 0), z₂ = (1, ½), v = (0, 1), Y = (1, −1): V⋆ = [[0, 0], [1, −4]] (the claim's own test solves
V z_i = Y_i v by hand), ‖V⋆‖² = 17. At W = 0 attention is uniform (s = ½): φ = (½, −1) and
∇L(0) = (1/(nT))Σ_i ℓ'(φ_i)Σ_t(γ_it − φ_i)F_it = ¼[ℓ'(½)·½·(1, 0, 1, 0) − ℓ'(−1)·(2, 1, 2, 1)];
⟨∇L(0), V⋆⟩ = ½[ℓ'(½)·Var(1, 0) + ℓ'(−1)·Var(−2, 0)] = ½[ℓ'(½)/4 + ℓ'(−1)].
D-STAT: d = 1, z = (1, −1) (dependent, rank 1 < n = 2), F_{1,1} = x₁₁z₁ = (1,)."""
import re
from dataclasses import replace
from fractions import Fraction

import mpmath
from claim_helpers import evaluate_at
from flint import arb

from lemmas.tfsvm import aux_overparam as M
from verify.data import tfsvm as D
from verify.geometry.probes import tie_points
from verify.geometry.stationarity import PROBE_SCALES
from verify.models.attention import features

mpmath.mp.dps = 50
V_DT2 = tuple(Fraction(x) for x in (0, 0, 1, -4))
SIGN = "of ⟨∇L(W), V⋆⟩ (pairwise covariance, exact products)"
AGREE = "max relative residual of the engine's"


def _mp(x):
    return mpmath.mpf(x.mid().str(40, radius=False)) if isinstance(x, arb) else mpmath.mpf(x)


def _ev(out, start):
    got = [e for e in out.evidence if e.quantity.startswith(start) or e.quantity.endswith(start)]
    assert len(got) == 1, [e.quantity for e in out.evidence]
    return got[0]


def _run(data, **kw):
    return evaluate_at(M, data, **kw)


def _spy_directions(monkeypatch):
    seen = []
    real = M.probe_directions

    def spy(feats, opt, q, *a, **k):
        dirs = real(feats, opt, q, *a, **k)
        seen.append((q, k.get("count"), dirs))
        return dirs

    monkeypatch.setattr(M, "probe_directions", spy)
    return seen


def test_default_probe_set_and_cross_check_points(monkeypatch):
    """D-T2 with the defaults: directions from ±V⋆ with count = 4 random ones; every direction at the 13 scales
    (θ = 0 once) plus the tie points; the cross-check on the points with ‖W‖∞ ∈ {0, 1/10, 1/3, 1} (θ = 0 once), a
    residual named by its point; the coverage text; no note (independence required)."""
    seen = _spy_directions(monkeypatch)
    data = D.d_t2()
    out = _run(data)
    (q, count, dirs), = seen
    assert q == V_DT2 and count == 4
    assert ("+q (max-margin direction)", V_DT2) in dirs and sum(lab.startswith("random") for lab, _ in dirs) == 4
    ties = tie_points(features(data, "W"), [(o[0],) for o in data.optimal_tokens()])
    n_pts = len(dirs) * (len(PROBE_SCALES) - 1) + 1 + len(ties)
    sign, agree = _ev(out, SIGN), _ev(out, AGREE)
    assert sign.coverage.points == n_pts and sign.decide() is True
    assert agree.coverage.points == len(dirs) * 3 + 1
    assert agree.residual is True and agree.decide() is True
    assert re.search(r", ‖W‖∞ = (0|1/10|1/3|1)$", agree.coverage.worst_at)
    # X_iV⋆z_i = γ_i holds: the exact proof covers every W and the probes only corroborate it (a note, no coverage)
    assert out.covers == [] and out.notes == [f"probes corroborating the proof: W at {n_pts} points: {len(dirs)} "
                                              f"directions × ‖W‖∞ ∈ {{{', '.join(PROBE_SCALES)}}} and the tie points"]
    assert sign.corroborates and agree.corroborates and out.decision().regions == ("every W ∈ ℝ^{d×d}",)
    assert out.hypotheses[1].detail == "sequences [0, 1]"
    assert out.hypotheses[2].detail == "rank Z = 2, n = 2"


def test_zero_gradient_norm_and_vstar_norm_by_closed_form():
    """‖∇L(0)‖_F = ¼‖ℓ'(½)·½·(1, 0, 1, 0) − ℓ'(−1)·(2, 1, 2, 1)‖ (logistic ℓ'(u) = −1/(1 + e^u)); ‖V⋆‖² = 17; the
    given point is named in the coverage text."""
    out = _run(D.d_t2(), points=[("0", (0, 0, 0, 0))])

    def lp(u):
        return -1 / (1 + mpmath.e ** u)

    g = [(lp(mpmath.mpf(1) / 2) * a / 2 - lp(-1) * b) / 4 for a, b in zip((1, 0, 1, 0), (2, 1, 2, 1))]
    norm = _ev(out, "‖∇L(0)‖_F")
    assert abs(_mp(norm.value) - mpmath.sqrt(sum(x * x for x in g))) < mpmath.mpf(10) ** -25
    assert _ev(out, "‖V⋆‖²_F").value == Fraction(17)
    assert out.notes == ["probes corroborating the proof: W at the 1 given point(s)"]


def test_the_loss_reaches_the_model():
    """Exponential loss ℓ'(u) = −e^{−u}: at W = 0 the sign item's value is ½[ℓ'(½)/4 + ℓ'(−1)]; Assumption A names
    the loss."""
    out = _run(D.d_t2(), loss="exponential", points=[("0", (0, 0, 0, 0))])
    want = (-mpmath.e ** mpmath.mpf(-0.5) / 4 - mpmath.e) / 2
    assert abs(_mp(_ev(out, SIGN).value) - want) < mpmath.mpf(10) ** -25
    assert "exponential" in out.hypotheses[0].detail


def test_dependent_queries_dropped_probe_direction_sign_bound_and_note(monkeypatch):
    """D-STAT without independence: V⋆ = 0, so the probes start from F_{1,1} = (1,); ⟨∇L(W), V⋆⟩ ≡ 0 is not < 0
    (the sign item fails with value 0, bound 0); the note says independence was not required (and not met)."""
    seen = _spy_directions(monkeypatch)
    out = _run(D.d_stat(), require_independent=False)
    assert seen[0][0] == (Fraction(1),) and seen[0][1] == 4
    sign = _ev(out, SIGN)
    assert sign.decide() is False and sign.bound == 0 and sign.value == 0
    assert out.notes == ["independence NOT required (not met: rank Z = 1, n = 2)"]
    assert not [h for h in out.hypotheses if "independent" in h.name]


def test_constant_scores_detail():
    """Both sequences with equal tokens: every γ_i is constant (named)."""
    flat = D.d_stat().replace(X=[[[1], [1]], [[2], [2]]], z=[[1], [2]])
    h = _run(flat).hypotheses[1]
    assert (h.met, h.detail) == (False, "every γ_i is constant")


def _fault(monkeypatch, *, dot_factor=None, zero_lprime=False):
    if dot_factor is not None:
        real = M.dot
        monkeypatch.setattr(M, "dot", lambda a, b: dot_factor * real(a, b))
    if zero_lprime:
        real_c = M.correlations
        monkeypatch.setattr(M, "correlations", lambda tab, p: replace(real_c(tab, p), lprime=[arb(0)] * tab.model.n))


def test_cross_check_is_relative(monkeypatch):
    """An engine value twice the true ⟨∇L, V⋆⟩ (= (1/n)Σℓ'Var): |2E − E|/|E| = 1 at every point (relative, not
    absolute nor scaled by |E|)."""
    _fault(monkeypatch, dot_factor=2)
    out = _run(D.d_t2(), points=[("0", (0, 0, 0, 0)), ("q", (0, Fraction(1, 10), 0, 0))])
    agree = _ev(out, AGREE)
    assert agree.coverage.points == 2 and agree.decide() is False
    assert abs(_mp(agree.value) - 1) < mpmath.mpf(10) ** -20


def test_cross_check_absolute_where_the_variance_term_is_zero(monkeypatch):
    """With |ℓ'| forced to 0 the variance term is exactly 0: the residual is |engine| itself, = |⟨∇L(0), V⋆⟩| =
    ½|ℓ'(½)/4 + ℓ'(−1)| (never a division by 0)."""
    _fault(monkeypatch, zero_lprime=True)
    out = _run(D.d_t2(), points=[("0", (0, 0, 0, 0))])
    agree = _ev(out, AGREE)

    def lp(u):
        return -1 / (1 + mpmath.e ** u)

    want = abs(lp(mpmath.mpf(1) / 2) / 4 + lp(-1)) / 2
    assert agree.decide() is False and abs(_mp(agree.value) - want) < mpmath.mpf(10) ** -20
