"""tfsvm.thm9 (local RP over the separating cone): D-LMM (α = B) HOLDS as evidence for ε = 1/10 and ε just below κ(B);
the spec's reference run (1 − corr = 3.1e−2, 1.2e−8, 2.7e−20 at R = 5, 20, 50) and the R = 5 boundary point in closed
form; the same path measured against the GMM plateaus at 1 + 1/√10 (VIOLATED); ε ≥ κ(α), the empty cone of D-T2's
α = (1, 1), a non-locally-optimal α and a too small R₀ → NOT_APPLICABLE."""
from fractions import Fraction

import mpmath

from lemmas.tfsvm import thm9
from verify.data import tfsvm as D
from verify.dynamics.separating_rp import separating_cone_path
from verify.numbers.precision import working_precision

W_B = [0, 0, 0, Fraction(-4, 5), 0, 0, Fraction(2, 5), 0, 0]   # spec §6: W^mm_B = first column (0, −0.8, 0.4)


def _mp(x):
    return mpmath.mpf(x.mid().str(40, radius=False))


def test_defaults_hold_as_evidence():
    with working_precision(30) as prec:
        d = thm9.evaluate(D.d_lmm(), prec, figure=False).decision()
    assert d.verdict == "HOLDS" and d.certainty == "evidence"


def test_spec_reference_run():
    """Spec (Thm 9 check): D-LMM, α = B, ε = 0.1: 1 − corr = 3.1e−2, 1.2e−8, 2.7e−20 at R = 5, 20, 50 — and at R = 5 the
    optimum sits on the cone's edge: with w = Wz = (0, cos θ, sin θ), the edge −(cos θ + sin θ) = ε gives
    θ = π/4 ± arccos(−ε/√2), and 1 − corr = 1 − (−2 cos θ + sin θ)/√5 at one of the two edges."""
    pts = separating_cone_path(D.d_lmm(), (1,), ["5", "20", "50"], eps="1/10", dps=40, digits_per_radius="0.9",
                               targets={"B": W_B})
    got = [_mp(p.one_minus_corr["B"]) for p in pts]
    for g, want in zip(got, (3.1e-2, 1.2e-8, 2.7e-20)):
        assert abs(g / want - 1) < 0.05, (g, want)
    mpmath.mp.dps = 40
    eps = mpmath.mpf(1) / 10
    edges = [mpmath.pi / 4 + s * mpmath.acos(-eps / mpmath.sqrt(2)) for s in (1, -1)]
    closed = [1 - (-2 * mpmath.cos(t) + mpmath.sin(t)) / mpmath.sqrt(5) for t in edges]
    assert min(abs(got[0] - c) for c in closed) < mpmath.mpf(10) ** -15  # the method converges to 10^(−dps/2)
    assert pts[0].active == 1 and pts[2].active == 0


def test_against_the_gmm_is_a_plateau():
    """W^mm (GMM) has first column (0, 1/2, 1/2), W^mm_B (0, −4/5, 2/5): corr = (−2/5 + 1/5)/(√(4/5)·√(1/2)) = −1/√10,
    so a path converging to W^mm_B keeps 1 − corr(W̄_R, W^mm) → 1 + 1/√10."""
    with working_precision(30) as prec:
        out = thm9.evaluate(D.d_lmm(), prec, eps=["1/10"], target="gmm", figure=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "evidence" and "GMM" in d.reasons[0]
    assert abs(_mp(out.evidence[0].value) - (1 + 1 / mpmath.sqrt(10))) < 1e-12
    assert "plateau" in out.evidence[0].rule.detail


def test_eps_above_kappa_is_not_applicable():
    """κ(B) = (2/5)/√(4/5) = 1/√5 ≈ 0.447 < 1/2."""
    with working_precision(20) as prec:
        d = thm9.evaluate(D.d_lmm(), prec, eps=["1/2"], figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "ε small" in d.reasons[0]


def test_empty_cone_is_not_applicable():
    """D-T2, α = (1, 1): locally optimal (sequence 2 has no support index) but low₂ = ∅: cone_ε(α) = ∅ for every ε."""
    with working_precision(20) as prec:
        out = thm9.evaluate(D.d_t2(), prec, alpha=(0, 0), figure=False)
    d = out.decision()
    assert d.verdict == "NOT_APPLICABLE" and "ε small" in d.reasons[0]
    assert [h for h in out.hypotheses if "locally optimal" in h.name][0].met is True
    assert "empty" in [h for h in out.hypotheses if "ε small" in h.name][0].detail


def test_not_locally_optimal_is_not_applicable():
    """D-LMM, α = C: its support {A, B} scores higher than C."""
    with working_precision(20) as prec:
        d = thm9.evaluate(D.d_lmm(), prec, alpha=(2,), figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "locally optimal" in d.reasons[0]


def test_small_r0_is_not_applicable():
    """R₀(1/10) = 10·log(B·T/c_α), B = ‖x_A − x_B‖ = √(17/4), T = 3, c_α = 1/2: ≈ 25.2 > 5."""
    assert abs(float(thm9.r0_of(Fraction(1, 10), Fraction(1, 2), thm9.to_arb(Fraction(17, 4)).sqrt(), 3))
               - 10 * mpmath.log(mpmath.sqrt(mpmath.mpf(17) / 4) * 3 / mpmath.mpf(0.5))) < 1e-2
    with working_precision(20) as prec:
        d = thm9.evaluate(D.d_lmm(), prec, eps=["1/10"], R0=5, figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "R₀ large" in d.reasons[0]
