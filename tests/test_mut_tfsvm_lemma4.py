"""tfsvm.lemma4 (mutation tests): every value the claim decides on recomputed here in mpmath from closed forms — L_W
per loss, the (a) Hessian Tally per loss at the probe points and at the float64 search's local maxima (the global
maximum of ‖∇²L‖), the (a) Lipschitz quotient between consecutive probe points (logistic only), the (b) quotients
of the printed and corrected constants, the ladder of ‖K‖ = c (with the decade above 4× the predicted threshold),
the threshold item; the losses that join for (b); the coverage texts; the bounds and relations (≤ 1).

The family used: n = 1, T = 2, tokens ±p with p = a·u₀ (u₀ = (1, …), so v = e₁ gives γ = (a, −a)), query z, Y = 1.
The logits are ±pᵀWz, so s₁ = σ(2pᵀWz) and γᵀs = a·tanh(pᵀWz): L(W) = F(pᵀWz), F(w) = ℓ(a·tanh w), and
F'(w) = a·ℓ'(a·t)·(1 − t²), F''(w) = a²ℓ''(a·t)(1 − t²)² − 2a·ℓ'(a·t)·t(1 − t²) (t = tanh w). The spec case
(D.lemma4_spec) is a = 1, u₀ = z = (1): L(w) = F(w), ∇²L = F''(w). Spectral ‖X‖ = √2·a‖u₀‖, so
L_W = ‖z‖²(√2a‖u₀‖)³(M₀√2a‖u₀‖ + 3M₁) with (M₀, M₁) = (1/4, 1) logistic, (e^B, e^B) exponential, (0, 1) correlation.

(b), m = 1, K = c·u, Q: 0 → h·e (h = 1/(1000c)) with u = u₀, e = z: W = KQᵀ moves from 0 to W₁ with pᵀW₁z =
a‖u₀‖²‖z‖²/1000 =: w₁ at every c, ∇_Q L = ∇L(W)ᵀK = F'(pᵀWz)·z·(pᵀK), so the quotient is 1000c²·a‖u₀‖²·|ΔF'|
(ΔF' = F'(w₁) − F'(0)); symmetrically ∇_K L = F'·p·(zᵀQ) gives 1000c²·a‖z‖²·|ΔF'|. Printed L_Q = ‖K‖L_W = c‖u₀‖L_W:
ratio 1000c·a‖u₀‖|ΔF'|/L_W; printed L_K: 1000c·a‖z‖|ΔF'|/L_W; corrected (‖·‖²L_W): 1000a|ΔF'|/L_W at every c; the
threshold item L_W‖·‖²/quotient at c = 1: L_W/(1000a|ΔF'|). At W = 0, ∇²L = ℓ''(0)a²·vec(pzᵀ)vec(pzᵀ)ᵀ (tanh''(0) = 0),
so the curvature ratio of the direction pair is ρ = a⁴‖u₀‖²‖z‖²/4 for both parts and the ladder gets
10^⌈log₁₀(4L_W/(ρ‖·‖))⌉ (‖·‖ = ‖u₀‖ for L_Q, ‖z‖ for L_K) when it is not already one of 1, 10, …, 10⁴."""
import math
from fractions import Fraction as F

import mpmath
from claim_helpers import evaluate_at
from claim_helpers import only_item as _ev

from lemmas.tfsvm import lemma4 as M
from verify import Dataset
from verify.data import tfsvm as D
from verify.geometry.probes import probe_points
from verify.models.attention import features

mpmath.mp.dps = 50
ELL = {  # (ℓ', ℓ'')
    "logistic": (lambda u: -1 / (1 + mpmath.e ** u), lambda u: mpmath.e ** u / (1 + mpmath.e ** u) ** 2),
    "exponential": (lambda u: -mpmath.e ** (-u), lambda u: mpmath.e ** (-u)),
    "correlation": (lambda u: mpmath.mpf(-1), lambda u: mpmath.mpf(0)),
}
R2, E = mpmath.sqrt(2), mpmath.e
#: L_W on the spec case (a = 1, ‖X‖ = √2, B = 1): 2√2(M₀√2 + 3M₁)
SPEC_LW = {"logistic": 1 + 6 * R2, "exponential": E * (4 + 6 * R2), "correlation": 6 * R2}
Q_ITEM = "max ‖∇_QL(K,·) difference‖_F / (‖ΔQ‖_F·‖K‖{}·L_W) ({} L_Q, (b))"
K_ITEM = "max ‖∇_KL(·,Q) difference‖_F / (‖ΔK‖_F·‖Q‖{}·L_W) ({} L_K, (b))"
THRESHOLD = "‖{}‖ from which the printed L_{} fails along this direction (≈ L_W‖·‖²/quotient at c = 1)"


def _mp(x):
    return mpmath.mpf(x.mid().str(45, radius=False))


def _close(x, want, tol=mpmath.mpf(10) ** -24):
    return abs(_mp(x) - want) <= tol * abs(want)


def _dF(w, loss="logistic", a=1):
    t = mpmath.tanh(w)
    return a * ELL[loss][0](a * t) * (1 - t * t)


def _d2F(w, loss="logistic", a=1):
    t = mpmath.tanh(w)
    return a * a * ELL[loss][1](a * t) * (1 - t * t) ** 2 - 2 * a * ELL[loss][0](a * t) * t * (1 - t * t)


def _mirrored(a, u0=(1,), z=(1,), name="mirrored"):
    """Tokens ±a·u₀, v = e₁, query z, Y = 1 (the family of the module docstring)."""
    v = [1] + [0] * (len(u0) - 1)
    return Dataset.make(X=[[[F(a) * x for x in u0], [-F(a) * x for x in u0]]], Y=[1], v=v, z=[list(z)], name=name)


#: a = 1/70, u₀ = (1, 4/7), z = (9/32, −1): ‖u₀‖ ≠ ‖z‖, so L_Q and L_K take different sizes; 4L_W/(ρ‖u₀‖) =
#: 16‖u₀‖ + 96√2·70 ≈ 9522 < 10⁴ (L_Q: no decade added) but 4L_W/(ρ‖z‖) ≈ 10557 (L_K: 10⁵ added)
ASYM = (F(1, 70), (F(1), F(4, 7)), (F(9, 32), F(-1)))


def _kq_expected(a, u0, z):
    """{part: (ladder, printed ratio at each c, corrected ratio)} and the threshold, by the module docstring."""
    a, U2, Z2 = mpmath.mpf(F(a).numerator) / F(a).denominator, sum(F(x) ** 2 for x in u0), sum(F(x) ** 2 for x in z)
    U, Z = mpmath.sqrt(mpmath.mpf(U2.numerator) / U2.denominator), mpmath.sqrt(mpmath.mpf(Z2.numerator) / Z2.denominator)
    LW = Z * Z * (R2 * a * U) ** 3 * (R2 * a * U / 4 + 3)
    dF = abs(_dF(a * U * U * Z * Z / 1000, a=a) - _dF(0, a=a))
    rho = a ** 4 * U * U * Z * Z / 4
    out = {}
    for part, size in (("Q", U), ("K", Z)):
        ladder = [1, 10, 100, 1000, 10000]
        top = 10 ** max(0, math.ceil(float(mpmath.log10(4 * LW / (rho * size)))))
        ladder += [] if top in ladder else [top]
        out[part] = (ladder, [1000 * c * a * size * dF / LW for c in ladder], 1000 * a * dF / LW)
    return out, LW / (1000 * a * dF)


def _check_kq(out, expected, threshold, fixed="K", moving="Q"):
    """The printed L_{moving} Tally: one point per c of the ladder, the violated ones those with ratio > 1, its value
    the worst (largest c); the threshold item."""
    ladder, ratios, _ = expected
    item = _ev(out, (Q_ITEM if moving == "Q" else K_ITEM).format("", "printed"))
    assert item.coverage.points == len(ladder)
    assert item.coverage.violated == sum(1 for r in ratios if r > 1)
    assert item.coverage.holds == sum(1 for r in ratios if r < 1)
    assert _close(item.value, max(ratios)) and (item.relation, item.bound) == ("<=", 1)
    assert item.note.startswith("m = 1, so ‖·‖₂ = ‖·‖_F; the first violation is the witness; ")
    assert _close(_ev(out, THRESHOLD.format(fixed, moving)).value, threshold)


def test_L_W_of_each_loss_and_its_hypothesis():
    """Spec case: L_W = 1 + 6√2 (logistic), e(4 + 6√2) (exponential), 6√2 (correlation); one Assumption A each."""
    out = evaluate_at(M, D.lemma4_spec(), parts=("W",), search=False)
    assert [h.name.split(":")[0] for h in out.hypotheses] == [f"Assumption A ({nm})" for nm in M.LOSSES]
    for nm in M.LOSSES:
        assert _close(_ev(out, f"{nm}: L_W = ").value, SPEC_LW[nm])


def test_hessian_tally_of_each_loss_at_the_probe_points():
    """search=False: each loss's own Tally of |F''(p)|/L_W over the 15 probe points (0, ±¼, ±1, ±3, …, ±1000), its
    value the largest; bound 1, ≤; the coverage names the probe points only; no (b) item."""
    data = D.lemma4_spec()
    pts = probe_points(features(data, "W"), data.optimal_tokens())
    assert len(pts) == 15
    out = evaluate_at(M, data, parts=("W",), search=False)
    for nm in M.LOSSES:
        item = _ev(out, f"{nm}: max ‖∇²L(W)‖₂ / L_W")
        want = max(abs(_d2F(mpmath.mpf(p[0].numerator) / p[0].denominator, nm)) for p in pts) / SPEC_LW[nm]
        assert _close(item.value, want), nm
        assert item.coverage.points == item.coverage.holds == 15
        assert (item.relation, item.bound) == ("<=", 1)
        assert item.note.startswith("W = vec⁻¹(p), row-major; ")
    assert out.covers == ["(a) W at 15 probe points"]
    assert not [e for e in out.evidence if "(b)" in e.quantity]
    assert out.decision().verdict == "HOLDS"


def test_lipschitz_quotient_between_consecutive_probe_points_logistic_only():
    """max_k |F'(p_k) − F'(p_{k−1})| / (L_W|p_k − p_{k−1}|) over the 14 consecutive pairs, F' the logistic one; only
    for the logistic loss (one such item with all three losses, none without the logistic loss)."""
    data = D.lemma4_spec()
    pts = [mpmath.mpf(p[0].numerator) / p[0].denominator
           for p in probe_points(features(data, "W"), data.optimal_tokens())]
    out = evaluate_at(M, data, parts=("W",), search=False)
    item = _ev(out, "logistic: max ‖∇L(A) − ∇L(B)‖_F / (L_W‖A − B‖_F)")
    want = max(abs(_dF(b) - _dF(a)) / abs(b - a) for a, b in zip(pts, pts[1:])) / SPEC_LW["logistic"]
    assert _close(item.value, want)
    assert item.coverage.points == item.coverage.holds == 14 and (item.relation, item.bound) == ("<=", 1)
    assert len([e for e in out.evidence if "∇L(A) − ∇L(B)" in e.quantity]) == 1
    expo = evaluate_at(M, data, parts=("W",), losses=("exponential",), search=False)
    assert not [e for e in expo.evidence if "∇L(A) − ∇L(B)" in e.quantity]


def test_search_adds_three_local_maxima_reaching_the_maximum():
    """By default (search on) each loss's Tally counts 15 probe points + 3 local maxima of the float64 search started
    at the 3 probe points of largest ‖∇²L‖, and its value is the global max of |F''|/L_W: for the correlation loss
    F'' = 2t(1 − t²), max 4/(3√3) at t = 1/√3; for the others the root of F''' nearest the grid maximum on [−3, 3].
    (The probe points miss it: their nearest point to the logistic maximum w ≈ 0.383 is ¼.)"""
    out = evaluate_at(M, D.lemma4_spec(), parts=("W",))
    for nm in M.LOSSES:
        if nm == "correlation":
            peak = 4 / (3 * mpmath.sqrt(3))
        else:
            w0 = max((mpmath.mpf(k) / 100 for k in range(-300, 301)), key=lambda w: abs(_d2F(w, nm)))
            peak = abs(_d2F(mpmath.findroot(lambda w: mpmath.diff(lambda x: _d2F(x, nm), w), w0), nm))
        item = _ev(out, f"{nm}: max ‖∇²L(W)‖₂ / L_W")
        assert item.coverage.points == item.coverage.holds == 18, nm
        assert _close(item.value, peak / SPEC_LW[nm], mpmath.mpf(10) ** -9), nm
        assert item.coverage.worst_at.startswith("locally maximised p = "), nm
    assert out.covers == ["(a) W at 15 probe points and local maxima of a float64 search"]


def test_logistic_joins_the_losses_for_part_b_only():
    """(b) is logistic: with losses = (exponential,) it adds the logistic hypothesis and L_W; (a) alone does not."""
    w = evaluate_at(M, D.lemma4_spec(), parts=("W",), losses=("exponential",), search=False)
    assert [h.name.split(":")[0] for h in w.hypotheses] == ["Assumption A (exponential)"]
    assert [e.quantity.split(":")[0] for e in w.evidence if "L_W = " in e.quantity] == ["exponential"]
    kq = evaluate_at(M, D.lemma4_spec(), parts=("KQ",), losses=("exponential",))
    assert [h.name.split(":")[0] for h in kq.hypotheses] == ["Assumption A (exponential)", "Assumption A (logistic)"]
    assert _close(_ev(kq, "logistic: L_W = ").value, SPEC_LW["logistic"])
    assert kq.covers == ["(b) m = 1"] and not [e for e in kq.evidence if "(a)" in e.quantity]
    assert kq.decision().verdict == "VIOLATED"


def test_part_b_printed_and_corrected_on_the_spec_case():
    """a = 1, u₀ = z = (1): ρ = ¼, 4L_W/ρ = 16(1 + 6√2) ≈ 152, so the ladder is 1 … 10⁴ (10³ already in it); the
    printed ratio 1000c|ΔF'|/L_W fails from c ≈ 37.9 (the threshold L_W/(1000|ΔF'|)) on: 3 of 5 points; corrected
    1000|ΔF'|/L_W ≈ 0.026 at every c. The items name the fixed and the moving factor."""
    expected, threshold = _kq_expected(1, (1,), (1,))
    out = evaluate_at(M, D.lemma4_spec(), parts=("KQ",))
    assert [e.quantity for e in out.evidence[3:]] == [Q_ITEM.format("", "printed"), THRESHOLD.format("K", "Q"),
                                                      K_ITEM.format("", "printed"), THRESHOLD.format("Q", "K")]
    assert expected["Q"][0] == [1, 10, 100, 1000, 10000] and 37 < threshold < 38
    _check_kq(out, expected["Q"], threshold, "K", "Q")
    _check_kq(out, expected["K"], threshold, "Q", "K")
    cor = evaluate_at(M, D.lemma4_spec(), parts=("KQ",), constants="corrected")
    for name in (Q_ITEM.format("²", "corrected"), K_ITEM.format("²", "corrected")):
        item = _ev(cor, name)
        assert item.coverage.points == item.coverage.holds == 5
        assert _close(item.value, expected["Q"][2]) and (item.relation, item.bound) == ("<=", 1)
    assert cor.decision().verdict == "HOLDS"


def test_part_b_takes_each_part_its_own_direction_and_size():
    """ASYM (a = 1/70, u₀ = (1, 4/7), z = (9/32, −1)): the L_Q Tally has 5 points (4L_W/(ρ‖u₀‖) ≈ 9522), the L_K
    Tally 6 (≈ 10557: 10⁵ added); printed ratios scale with ‖u₀‖ resp. ‖z‖, corrected ones do not; one threshold."""
    a, u0, z = ASYM
    expected, threshold = _kq_expected(a, u0, z)
    assert len(expected["Q"][0]) == 5 and expected["K"][0][-1] == 10 ** 5
    data = _mirrored(a, u0, z)
    out = evaluate_at(M, data, parts=("KQ",))
    _check_kq(out, expected["Q"], threshold, "K", "Q")
    _check_kq(out, expected["K"], threshold, "Q", "K")
    cor = evaluate_at(M, data, parts=("KQ",), constants="corrected")
    for name, part in ((Q_ITEM.format("²", "corrected"), "Q"), (K_ITEM.format("²", "corrected"), "K")):
        item = _ev(cor, name)
        assert item.coverage.points == item.coverage.holds == len(expected[part][0])
        assert _close(item.value, expected[part][2])


def test_ladder_adds_the_decade_above_four_times_the_threshold():
    """Spec case scaled by a: 4L_W/ρ = 16(1 + 6√2/a). a = 1/64: ≈ 8704, so 10⁴ (already in the ladder; 5× would
    give 10⁵): 5 points; a = 1/100: ≈ 13592, so 10⁵ is added: 6 points, the worst ratio at c = 10⁵."""
    for a, points in ((F(1, 64), 5), (F(1, 100), 6)):
        expected, threshold = _kq_expected(a, (1,), (1,))
        assert len(expected["Q"][0]) == points
        out = evaluate_at(M, _mirrored(a), parts=("KQ",))
        _check_kq(out, expected["Q"], threshold, "K", "Q")
        _check_kq(out, expected["K"], threshold, "Q", "K")


def test_no_curvature_no_threshold_and_no_added_decade():
    """Equal tokens (x = (1, 1)): every logit is the same for every W, L is constant, ρ = 0 and every quotient is
    exactly 0: both printed Tallies hold at the 5 points of the ladder, and there is no threshold item."""
    out = evaluate_at(M, Dataset.make(X=[[[1], [1]]], Y=[1], v=[1], z=[[1]], name="flat"), parts=("KQ",))
    for name in (Q_ITEM.format("", "printed"), K_ITEM.format("", "printed")):
        item = _ev(out, name)
        assert item.coverage.points == item.coverage.holds == 5 and item.value == 0
    assert not [e for e in out.evidence if "from which" in e.quantity]
    assert out.decision().verdict == "HOLDS"
