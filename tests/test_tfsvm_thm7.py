"""tfsvm.thm7 (local convergence; FLAWED-v1, found here: the constructed empty-support witnesses are VIOLATED,
certified): D-LMM's μ(α), R from an independent derivation (spec: δ = 0.2, A = 1.265,
μ = 3.125e−3, R = 27.7); D-LMM HOLDS as evidence with (T1) certified, GD iterates certified in the cone, and the spec's
informative low starts (R₀ = 2 → GMM, R₀ = 5 → LMM); α = C → NOT_APPLICABLE; the altered width μ = ½ → VIOLATED
(certified: a stationary-direction sign in the wider cone; the flow turns to the GMM); the D-T2 finding — the flow
from a cone-boundary start of the GMM leaves C_{μ,R} (confirmed here by an independent float64 integration)."""
import math
from fractions import Fraction

import mpmath
import numpy as np
from scipy.integrate import solve_ivp

from lemmas.tfsvm import thm7
from verify.data import tfsvm as D
from verify.geometry.local_cone import cone_directions, local_cone, local_cones, other_directions
from verify.geometry.tfsvm_cones import at_norm
from verify.numbers.precision import working_precision


def _items(out, text):
    found = [e for e in out.evidence if text in e.quantity]
    assert found, [e.quantity for e in out.evidence]
    return found


def test_d_lmm_constants_independently():
    """μ(α) = (1/8)(min(½, δ)/A)² and R of (74) for α = B, from the hand SVM solution w = (0, −4/5, 2/5) (first
    column): margins vs A, C = 7/5, 1 ⇒ δ = ½(7/5 − 1); A = ‖x_A‖·‖z‖·‖w‖ = √2·√(4/5); Γ = 1; γ^gap = ½; T = 3."""
    mpmath.mp.dps = 40
    delta = (mpmath.mpf(7) / 5 - 1) / 2
    A = mpmath.sqrt(2) * mpmath.sqrt(mpmath.mpf(4) / 5)
    mu = (min(mpmath.mpf(1) / 2, delta) / A) ** 2 / 8
    R = max(2, 1 / delta) * mpmath.sqrt(mpmath.mpf(4) / 5) * mpmath.log(64 * 3 * 1 * A / mpmath.mpf("0.5"))
    assert abs(mu - mpmath.mpf("3.125e-3")) < 1e-30 and abs(R - mpmath.mpf("27.7")) < 0.05  # the spec's values
    with working_precision(40):
        c = local_cone(D.d_lmm(), (1,))
        assert c.mu == Fraction(1, 320) and abs(mpmath.mpf(c.A.mid().str(35, radius=False)) - A) < 1e-30
        assert abs(mpmath.mpf(c.radius().mid().str(35, radius=False)) - R) < 1e-30


def test_d_lmm_holds_as_evidence():
    with working_precision(30) as prec:
        out = thm7.evaluate(D.d_lmm(), prec, gd_steps=5)
    d = out.decision()
    assert (d.verdict, d.certainty) == ("HOLDS", "evidence")
    assert all(e.decide() is True and e.certified for e in _items(out, "(T1)"))
    flows = _items(out, "GD then gradient flow")
    assert len(flows) == 8 and all(e.decide() is True for e in flows)
    gd_cone = _items(out, "W-GD η = 1/L_W: min over iterates")
    assert all(e.value > 0 for e in gd_cone)  # shown: every GD iterate certified inside the cone
    low = {e.quantity.split("‖W(0)‖_F ≈ ")[1].split(",")[0]: e.note for e in _items(out, "below R")}
    assert "ends at the GMM" in low["2"] and "ends at the LMM" in low["5"]  # spec §4 (informative)
    assert {f.name for f in out.figures} == {"omc", "plane"}
    assert "50·R" in out.range


def test_empty_support_witnesses_violated_certified():
    """FLAWED (found here): on local_empty_support (d = 1) R of (74) = (2/100)·log(64·2·11·(121/100)/10) by hand
    (w^mm_α = 1/100, δ = ∞, A = 121/100, Γ = 11, γ^gap = 10, T = 2) and (T1) fails there, certified; the d = 2 variant
    (the GMM exists) fails (T1) as well."""
    mpmath.mp.dps = 40
    R = mpmath.mpf(2) / 100 * mpmath.log(mpmath.mpf(64) * 2 * 11 * mpmath.mpf(121) / 100 / 10)
    assert D.local_empty_support() in thm7.CLAIM.default_datasets()
    with working_precision(30) as prec:
        out = thm7.evaluate(D.local_empty_support(), prec, gd_steps=2, depth=5, low_starts=(), figure=False)
    d = out.decision()
    assert (d.verdict, d.certainty) == ("VIOLATED", "certified") and "(T1)" in d.reasons[0]
    assert abs(mpmath.mpf(_items(out, "(74)")[0].value.mid().str(30, radius=False)) - R) < 1e-25
    with working_precision(30) as prec:
        d2 = thm7.evaluate(D.local_empty_support_2d(), prec, alphas=[(1, 1)], gd_steps=2, depth=5, random_dirs=0,
                           low_starts=(), figure=False).decision()
    assert (d2.verdict, d2.certainty) == ("VIOLATED", "certified") and "(T1)" in d2.reasons[0]


def test_not_locally_optimal_not_applicable():
    with working_precision(30) as prec:
        d = thm7.evaluate(D.d_lmm(), prec, alphas=[(2,)]).decision()
    assert d.verdict == "NOT_APPLICABLE" and "locally optimal" in d.reasons[0]


def test_wider_cone_violated():
    """Altered statement (false case): μ = ½ instead of μ(B) = 1/320. A boundary point of that cone toward token A has
    A selected (its logit margin over B is positive there), so −⟨∇L(W), W^mm_B⟩ < 0 — (T1)'s sign fails, certified —
    and the flow from it goes to the GMM (1 − corr to W^mm_B a plateau)."""
    with working_precision(30) as prec:
        out = thm7.evaluate(D.d_lmm(), prec, alphas=[(1,)], mu=Fraction(1, 2), low_starts=(), figure=False, gd_steps=2)
    d = out.decision()
    assert (d.verdict, d.certainty) == ("VIOLATED", "certified")
    t1 = _items(out, "(T1)")[0]
    assert t1.decide() is False and t1.certified
    assert any(e.decide() is False for e in _items(out, "GD then gradient flow"))


def _d_t2_grad(w):
    """∇L of D-T2 (logistic, W-form) in float64, written out from the data (n = 2, T = 2, d = 2)."""
    X = [np.array([[1.0, 1.0], [0.0, 0.0]]), np.array([[2.0, 2.0], [0.0, 0.0]])]
    Z = [np.array([1.0, 0.0]), np.array([1.0, 0.5])]
    v, Y = np.array([0.0, 1.0]), (1, -1)
    W, G = w.reshape(2, 2), np.zeros((2, 2))
    for Xi, zi, yi in zip(X, Z, Y):
        a = Xi @ W @ zi
        s = np.exp(a - a.max())
        s /= s.sum()
        gam = yi * (Xi @ v)
        phi = s @ gam
        G += -1 / (1 + math.exp(phi)) * np.outer(Xi.T @ (s * (gam - phi)), zi)
    return (G / 2).ravel()


def test_d_t2_flow_leaves_the_cone_from_a_boundary_start():
    """FINDING: D-T2, α = opt (μ = 1/1600, R ≈ 33.5): from the cone-boundary start along the seeded random direction
    (it has a part outside the feature span, which ∇L never changes) the flow leaves cone_μ before converging.
    Independently: the arc-length flow dW/ds = −∇L/‖∇L‖ integrated in float64 (scipy, tol 1e-11) from the same start
    reaches μ − (1 − corr) ≈ −8.2e−5. Shown by default; decided with ``invariance=True`` (VIOLATED, evidence)."""
    data = D.d_t2()
    with working_precision(30) as prec:
        cones = local_cones(data)
        g = [c for c in cones if c.alpha == (0, 1)][0]
        label, d = cone_directions(data, g, g.mu, other_directions(cones, g), 1)[-1]
        assert label.startswith("cone boundary random")
        W0 = np.array([float(x) for x in at_norm(d, g.radius())])
        shown = thm7.evaluate(data, prec, alphas=[(0, 1)], low_starts=(), figure=False, gd_steps=2)
        decided = thm7.evaluate(data, prec, alphas=[(0, 1)], low_starts=(), figure=False, gd_steps=2, invariance=True)
    assert shown.decision().verdict == "HOLDS" and any("leaves C_(μ,R)" in n for n in shown.notes)
    dd = decided.decision()
    assert (dd.verdict, dd.certainty) == ("VIOLATED", "evidence") and "gradient flow: min over checked" in dd.reasons[0]
    wh = np.array([float(x) for x in g.w])
    wh /= np.linalg.norm(wh)
    sol = solve_ivp(lambda s, y: -_d_t2_grad(y) / np.linalg.norm(_d_t2_grad(y)), (0, 10), W0, rtol=1e-11,
                    atol=1e-11, max_step=0.05)
    worst = min(float(g.mu) - (1 - (y @ wh) / np.linalg.norm(y)) for y in sol.y.T)
    engine = [e for e in decided.evidence if "gradient flow: min over checked points of μ" in e.quantity][0]
    assert worst < -5e-5 and abs(worst - float(engine.value.mid())) < 1e-7


def test_registered():
    c = thm7.CLAIM
    assert c.id == "tfsvm.thm7" and c.aliases == ("local-convergence",) and c.kind == "asymptotic"
