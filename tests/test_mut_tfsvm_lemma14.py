"""tfsvm.lemma14 (mutation tests): the decision logic of a sample point (ρ, the margin ((1+π)D − N)/|D| and "every
π > 0" on balls: certain, refuted, undecided, exactly zero D), the π-runs branch (no "every π" witness: the named π and
the derived hardest π_h = (max ρ − 1)/2 each with its own witness R_π = f·R on the ladder and a Tally over the rungs
≥ that witness), the "every π" branch (witness R₀·R, the Tally of ρ ≤ 1 over the rungs ≥ R₀), the given-point scope
(the cone's boundary is inside; the π tally's bound 0), the loss and the random directions reaching the samples, the
α not locally optimal with local optimality dropped (R of (74) undefined: a requirement, the next α still checked;
an infeasible α skipped) and μ(α), R of (74) on D-LMM by the spec's closed form.

Independent values: ρ = N/D from an mpmath gradient of the W-model written here (−∇L·V = −(1/n)Σ_i ℓ'(u_i)
Cov_{s_i}(γ_i, b_i), b_it = x_itᵀVz_i, u_i = Σ_t s_it γ_it, the covariance in its pairwise form), at the sample points the geometry helpers place (the
same directions and radii the claim uses: ``cone_directions``, ``at_norm``)."""
from fractions import Fraction as F

import mpmath
from claim_helpers import only_item as _ev
from flint import arb

from lemmas.tfsvm import lemma14
from verify.data import tfsvm as D
from verify.geometry.local_cone import cone_directions, cone_slack, lmm_selections, local_cone, other_directions
from verify.geometry.tfsvm_cones import at_norm
from verify.numbers.precision import to_arb, working_precision

mpmath.mp.dps = 40


def _mp(x):
    return mpmath.mpf(x.mid().str(35, radius=False)) if isinstance(x, arb) else mpmath.mpf(F(x).numerator) / F(x).denominator


def _neg_grad_dot(data, W, V, loss="logistic"):
    """⟨−∇L(W), V⟩ for the W-model (vec row-major), in mpmath."""
    d, total = data.d, mpmath.mpf(0)
    for seq, z, g in zip(data.X, data.queries(), data.scores):
        def bil(M, x):
            return sum(_mp(x[j]) * _mp(M[j * d + k]) * _mp(z[k]) for j in range(d) for k in range(d))
        logits = [bil(W, x) for x in seq]
        top = max(logits)
        e = [mpmath.e ** (a - top) for a in logits]
        s = [x / sum(e) for x in e]
        gam = [_mp(x) for x in g]
        u = sum(a * b for a, b in zip(s, gam))
        b = [bil(V, x) for x in seq]
        T = len(seq)  # Cov_s(γ, b) pairwise: ½ΣΣ s_t s_τ (γ_t − γ_τ)(b_t − b_τ) (no cancellation near saturation)
        cov = sum(s[t] * s[r] * (gam[t] - gam[r]) * (b[t] - b[r]) for t in range(T) for r in range(T)) / 2
        lp = -1 / (1 + mpmath.e ** u) if loss == "logistic" else -mpmath.e ** (-u)
        total += -lp * cov
    return total / data.n


def _rho(data, W, w, loss="logistic"):
    nW = mpmath.sqrt(sum(_mp(x) ** 2 for x in W))
    nw = mpmath.sqrt(sum(_mp(x) ** 2 for x in w))
    return (_neg_grad_dot(data, W, W, loss) / nW) / (_neg_grad_dot(data, W, w, loss) / nw)


def _margin(data, W, w, pi, loss="logistic"):
    """((1 + π)D − N)/|D| in mpmath."""
    nW = mpmath.sqrt(sum(_mp(x) ** 2 for x in W))
    nw = mpmath.sqrt(sum(_mp(x) ** 2 for x in w))
    N, D_ = _neg_grad_dot(data, W, W, loss) / nW, _neg_grad_dot(data, W, w, loss) / nw
    return ((1 + _mp(pi)) * D_ - N) / abs(D_)


def _close(x, want, tol="1e-20"):
    return abs(_mp(x) - want) < mpmath.mpf(tol)


# ----- one sample point: the decision logic on balls -------------------------------------------------------------
def _point(N, D_, parallel=False):
    p = lemma14.Point.__new__(lemma14.Point)
    p.N, p.D, p.parallel, p.label = arb(N), arb(D_), parallel, ""
    return p


def test_rho_is_n_over_d_and_none_unless_d_certainly_positive():
    assert _point("0.5", 2).rho() == arb("0.25")  # N/D, not N·D
    assert _point(1, 0).rho() is None            # D exactly 0: not > 0
    assert _point(1, "0 +/- 1e-10").rho() is None
    assert _point(3, 2, parallel=True).rho() == 1  # on the ray ρ = 1 exactly


def test_every_pi_true_false_and_undecided():
    assert _point(1, 2).every_pi() is True                  # ρ = 1/2 ≤ 1
    assert _point(3, 2).every_pi() is False                 # ρ = 3/2: certainly > 1 (and ≤ 2)
    assert _point(5, 2).every_pi() is False                 # ρ = 5/2 > 2
    assert _point(1, -2).every_pi() is False                # D < 0
    assert _point(1, 0).every_pi() is None                  # D exactly 0: undecided, not refuted
    assert _point("1 +/- 1e-10", 1).every_pi() is None      # ρ straddles 1
    assert _point("1.5 +/- 0.5", 1).every_pi() is None      # ρ ⊇ [1, 2]: neither certainly ≤ 1 nor certainly > 1


def test_margin_on_the_ray_is_pi_times_the_sign_of_d():
    half = F(1, 2)
    assert _point(1, "0.5", parallel=True).margin(half) == half   # D = 1/2 > 0 (not > 1)
    assert _point(1, 2, parallel=True).margin(half) == half
    assert _point(1, -2, parallel=True).margin(half) == -half
    for undecided in (0, "0 +/- 1e-10"):
        m = _point(1, undecided, parallel=True).margin(half)
        assert isinstance(m, arb) and not m.is_finite()


def test_margin_off_the_ray():
    """((1+π)D − N)/|D| with π = 1/2: N = 1, D = 2 → (3 − 1)/2 = 1; N = 1, D = −2 → (−3 − 1)/2 = −2."""
    assert _point(1, 2).margin("1/2") == 1
    assert _point(1, -2).margin("1/2") == -2
    for undecided in (0, "0 +/- 1e-10"):
        m = _point(1, undecided).margin("1/2")
        assert isinstance(m, arb) and not m.is_finite()


# ----- the π-runs branch: no "every π" witness on the ladder ----------------------------------------------------
LOW = (F(1, 1000), F(1, 500))  # D-T2: at these radii ρ > 1 toward token 2 in the GMM's cone, D < 0 in the LMM's


def _samples(data, cone, cones, f, random_dirs=2):
    R = cone.radius()
    return [at_norm(d, R * to_arb(f)) for _, d in cone_directions(data, cone, cone.mu, other_directions(cones, cone),
                                                                   random_dirs)]


def test_pi_runs_named_and_derived_with_their_witnesses():
    data = D.d_t2()
    with working_precision(30) as prec:
        out = lemma14.evaluate(data, prec, ladder=LOW, pis=("1/2",))
        _, _, cones = lmm_selections(data, None, 30)
        gmm = [c for c in cones if c.alpha == (0, 1)][0]
        R = gmm.radius()
    pts = {f: _samples(data, gmm, cones, f) for f in LOW}
    rhos = {f: [_rho(data, W, gmm.w) for W in pts[f]] for f in LOW}
    rho_max = max(max(v) for v in rhos.values())
    assert rho_max > 1
    assert _close(_ev(out, "α = (1, 2): max ρ(W)").value, rho_max)
    # π = 1/2: (1 + 1/2) − ρ ≥ 0 at every sample of both rungs → witness the lowest rung, R/1000
    w = _ev(out, "α = (1, 2), π = 1/2: ∃R_π")
    assert w.decide() is True and _close(w.value, _mp(R) / 1000)
    t = _ev(out, "α = (1, 2), π = 1/2: min over sampled W")
    assert t.coverage.points == len(pts[LOW[0]]) + len(pts[LOW[1]]) and t.bound == 0 and t.relation == ">="
    assert t.decide() is True and _close(t.value, mpmath.mpf(3) / 2 - rho_max)
    # π_h = (max ρ − 1)/2 to 3 significant digits, rounded down; refuted at the top rung: no witness
    x = (rho_max - 1) / 2
    e = int(mpmath.floor(mpmath.log10(x))) - 2
    pi_h = F(int(mpmath.floor(x / mpmath.mpf(10) ** e))) * F(10) ** e
    h = _ev(out, f"α = (1, 2), π = {pi_h}: ∃R_π")
    assert h.value is None and h.decide() is None
    assert not [e for e in out.evidence if e.quantity.startswith(f"α = (1, 2), π = {pi_h}: min")]
    # α = (1, 1): D < 0 at every sample here → no ρ at all, only the named π, refuted
    assert _ev(out, "α = (1, 1): max ρ(W)").value is None
    assert [e.quantity.split(":")[0] for e in out.evidence if e.quantity.startswith("α = (1, 1), π")] == \
        ["α = (1, 1), π = 1/2"]
    assert _ev(out, "α = (1, 1), π = 1/2: ∃R_π").value is None
    assert out.decision().verdict == "INCONCLUSIVE"
    assert "α = (1, 2): π ∈ {1/2, " + str(pi_h) + "}" in "; ".join(out.covers)


def test_random_directions_reach_the_samples():
    """Each seeded random direction adds one boundary point per rung: 0, 2 (default), 3 random ones."""
    data = D.d_t2()

    def count(**kw):
        with working_precision(30) as prec:
            out = lemma14.evaluate(data, prec, alphas=[(0, 1)], ladder=(F(1, 1000),), pis=("10",), **kw)
        return _ev(out, "α = (1, 2), π = 10: min").coverage.points
    base = count(random_dirs=0)
    assert count() == base + 2 and count(random_dirs=3) == base + 3


# ----- the "every π > 0" branch -------------------------------------------------------------------------------
def test_every_pi_witness_and_its_tally_over_the_rungs_from_it():
    """Ladder R·{1/100, 1, 2} on D-T2: at R/100 some sample fails (ρ > 1 or D < 0), from R on every ρ ≤ 1 (the
    defaults' verdict), so R₀ = 1: the witness is R itself and the Tally counts the samples of the two rungs ≥ R."""
    data = D.d_t2()
    ladder = (F(1, 100), F(1), F(2))
    with working_precision(30) as prec:
        out = lemma14.evaluate(data, prec, ladder=ladder)
        _, _, cones = lmm_selections(data, None, 30)
        radii = [c.radius() for c in cones]
    for cone, R in zip(cones, radii):
        n = len(_samples(data, cone, cones, F(1)))
        w = _ev(out, f"{cone.name}: every π > 0 — ∃R_π")
        assert w.decide() is True and _close(w.value, _mp(R))
        t = _ev(out, f"{cone.name}: every π > 0 — max ρ(W)")
        assert t.coverage.points == 2 * n and t.bound == 1 and t.relation == "<=" and t.value == 1
    assert out.decision().verdict == "HOLDS"


# ----- given points ------------------------------------------------------------------------------------------
# D-LMM, α = B: W^mm_B = (0,0,0, −4/5,0,0, 2/5,0,0), μ = 1/320. U on coordinates where W^mm_B is 0 (so U ⊥ W^mm_B)
# with ‖U‖² = ‖w‖²μ(2 − μ)/(1 − μ)² = 2556/508805 = (36062² + 194² + 10²)/508805²: W = w + U has corr exactly 1 − μ;
# EDGE = 100·(w + U), beyond R ≈ 27.7 (corr is scale-free).
W_MM_B = (0, 0, 0, F(-4, 5), 0, 0, F(2, 5), 0, 0)
EDGE = tuple(100 * x for x in (F(36062, 508805), F(194, 508805), F(10, 508805), F(-4, 5), 0, 0, F(2, 5), 0, 0))


def test_a_given_point_on_the_cone_boundary_is_inside():
    assert cone_slack(EDGE, W_MM_B, F(1, 320)) == 0
    with working_precision(30) as prec:
        out = lemma14.evaluate(D.d_lmm(), prec, alphas=[(1,)], points=[("edge", EDGE), ("ray", (0, 0, 0, -80, 0, 0, 40,
                                                                                                    0, 0))])
    assert out.hypotheses[-1].met is True
    t = _ev(out, "α = (2), π = 1/2: min over the given W")
    assert t.bound == 0 and t.coverage.points == 2 and t.decide() is True
    want = min(mpmath.mpf(1) / 2, _margin(D.d_lmm(), EDGE, W_MM_B, F(1, 2)))  # on the ray: exactly π
    assert _close(t.value, want)


def test_given_points_every_cone_and_the_loss():
    """D-T2, both locally-optimal α, one off-ray point (1, 0, 0, 1) outside both cones (cone not required): each
    cone gets its Tally; the margin at π = 1/2 by the mpmath gradient for the logistic and the exponential loss."""
    data = D.d_t2()
    W = (1, 0, 0, 1)
    for loss in ("logistic", "exponential"):
        with working_precision(30) as prec:
            out = lemma14.evaluate(data, prec, points=[("p", W)], require_cone=False, loss=loss)
            _, _, cones = lmm_selections(data, None, 30)
        assert len(cones) == 2
        for cone in cones:
            t = _ev(out, f"{cone.name}, π = 1/2: min over the given W")
            assert _close(t.value, _margin(data, W, cone.w, F(1, 2), loss))
        assert len(out.covers) == 1 and all(c.name in out.covers[0] for c in cones)


def test_an_infeasible_alpha_is_skipped_when_local_optimality_is_dropped():
    """hull_middle: α = (2) (the middle token, 0-indexed 1) has no Att-SVM solution; α = (1) does."""
    data = D.hull_middle()
    assert not local_cone(data, (1,)).feasible and local_cone(data, (0,)).feasible
    with working_precision(30) as prec:
        out = lemma14.evaluate(data, prec, alphas=[(1,), (0,)], points=[("p", (1, 0, 0, 1))], require_cone=False,
                               require_lmm=False)
    assert [e.quantity for e in out.evidence if e.quantity.startswith("α = (2)")] == []
    assert _ev(out, "α = (1), π = 1/2: min over the given W").coverage.points == 1


# ----- α not locally optimal, local optimality dropped: R of (74) undefined --------------------------------------
def test_undefined_radius_is_a_requirement_and_the_next_alpha_is_checked():
    """D-LMM: α = C (0-indexed 2) has γ^gap ≤ 0, so R of (74) is undefined — a failed requirement; α = B after it is
    still sampled, with μ(B) = 1/320 and R = max(2, 1/δ)‖W^mm_B‖ log(64·T·Γ·A/γ^gap) = 5·√(4/5)·log(192·√(8/5)/(1/2))
    (spec §4: δ = 1/5, A² = 8/5, ‖W^mm_B‖² = 4/5, Γ = 1, γ^gap = 1/2)."""
    with working_precision(30) as prec:
        out = lemma14.evaluate(D.d_lmm(), prec, alphas=[(2,), (1,)], require_lmm=False)
    req = out.requirements
    assert [(r.name, r.met) for r in req] == [("α = (3): R of (74) defined", False)]
    assert _ev(out, "α = (3): R of (74)").value is None
    assert _ev(out, "α = (2): μ(α)").value == F(1, 320)
    want = 5 * mpmath.sqrt(mpmath.mpf(4) / 5) * mpmath.log(192 * mpmath.sqrt(mpmath.mpf(8) / 5) * 2)
    assert _close(_ev(out, "α = (2): R of (74)").value, want)
    assert _ev(out, "α = (2): every π > 0 — ∃R_π").decide() is True
    assert out.decision().verdict == "INCONCLUSIVE"


def test_no_derived_pi_when_the_largest_rho_is_exactly_one():
    """D-T2, α = (1, 1), one rung R·9/40: by the mpmath gradient D > 0 on the W^mm_α ray (ρ = 1 exactly), D < 0 at one
    boundary point (no every-π witness) and ρ < 1 at the others — max ρ is 1, not > 1, so only the named π run."""
    data = D.d_t2()
    f = F(9, 40)
    with working_precision(30) as prec:
        out = lemma14.evaluate(data, prec, alphas=[(0, 0)], ladder=(f,), pis=("1/2",))
        _, _, cones = lmm_selections(data, [(0, 0)], 30)
        cone = cones[0]
        pts = _samples(data, cone, cones, f)
    nw = mpmath.sqrt(_mp(cone.norm_sq))
    Ds = [_neg_grad_dot(data, W, cone.w) / nw for W in pts]
    assert tuple(pts[0]) != tuple(cone.w) and Ds[0] > 0  # the W^mm_α ray (rescaled)
    assert sum(1 for x in Ds if x < 0) >= 1
    assert all(_rho(data, W, cone.w) < 1 for W, x in zip(pts[1:], Ds[1:]) if x > 0)
    assert out.covers == ["α = (1, 1): π ∈ {1/2}"]
    assert _ev(out, "α = (1, 1), π = 1/2: ∃R_π").value is None
