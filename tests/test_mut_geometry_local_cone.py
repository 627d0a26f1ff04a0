"""verify.geometry.local_cone (mutation tests): tfsvm's local cone constants (Lemma 13 / eq. (74)), exact cone
membership, boundary points and the transverse probe directions.

Expected values are derived here by hand on D-LMM (n = 1, T = 3, v = e₃, z = e₁, A = (0,1,1), B = (0,−1,½), C = 0,
scores γ = (1, ½, 0)): W z = w (the first column; W[j, 0] sits at index 3j), so α = B's Att-SVM is
min ‖w‖² s.t. (0,−2,−½)·w ≥ 1, (0,−1,½)·w ≥ 1; only the second is active (KKT): w = (0,−4/5,2/5), margins
(A: 7/5, C: 1), 𝒯 = {C}, δ = (7/5 − 1)/2 = 1/5, ‖w‖² = 4/5, A² = max‖x‖²·‖w‖² = 2·4/5 = 8/5, μ = (1/5)²/(8·8/5)
= 1/320, Γ = 1, γ^gap = γ̄^gap = ½, R = 5·√(4/5)·log(64·3·√(8/5)/½) (spec §4: R ≈ 27.7). α = A: w = (0,½,½),
margins (B: 5/4, C: 1); α = C is feasible but its support token outscores it (not locally optimal)."""
from fractions import Fraction as F

import mpmath
import pytest
from flint import arb

from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry import local_cone as LC
from verify.geometry.local_cone import LocalCone
from verify.numbers.precision import working_precision


@pytest.fixture(autouse=True)
def _thirty_digits():
    with working_precision(30):
        yield


TOL = mpmath.mpf(10) ** -25


def _mp(x):
    return mpmath.mpf(x.mid().str(40, radius=False))


def _w(col):
    """vec W (row-major, d = 3) with first column ``col`` and zeros elsewhere."""
    out = [F(0)] * 9
    for j, x in enumerate(col):
        out[3 * j] = F(x)
    return tuple(out)


def _dot(a, b):
    return sum((F(x) * F(y) for x, y in zip(a, b)), F(0))


def test_local_cone_of_d_lmm_b_every_constant():
    """α = B on D-LMM: the hand-derived W^mm_α, margins, 𝒯, δ, A², μ, Γ, gaps, R (module docstring's closed form)."""
    c = LC.local_cone(D.d_lmm(), (1,))
    assert c.feasible and c.locally_optimal
    assert c.alpha == (1,) and c.n == 1 and c.T == 3
    assert c.w == _w((0, F(-4, 5), F(2, 5)))
    assert c.norm_sq == F(4, 5)
    assert c.margins == {(0, 0): F(7, 5), (0, 2): F(1)}
    assert c.support == {0: [2]} and c.non_support == {0: [0]}
    assert c.delta == F(1, 5)
    assert c.A_sq == F(8, 5)
    assert c.mu == F(1, 320)
    assert c.Gamma == F(1)
    assert c.gap == (F(1, 2),) and c.gap_bar == (F(1, 2),)
    assert c.gap_min == F(1, 2)
    assert c.radius_factor == F(5)
    assert c.empty_support() == []
    R = 5 * mpmath.sqrt(mpmath.mpf(4) / 5) * mpmath.log(64 * 3 * mpmath.sqrt(mpmath.mpf(8) / 5) * 2)
    assert abs(_mp(c.radius()) - R) < TOL
    assert abs(_mp(c.A) - mpmath.sqrt(mpmath.mpf(8) / 5)) < TOL
    assert abs(_mp(c.norm) - mpmath.sqrt(mpmath.mpf(4) / 5)) < TOL
    d = c.describe()
    assert "δ = 1/5" in d and "A² = 8/5" in d and "μ(α) = 1/320" in d and "𝒯_1 = {3}" in d


def test_local_cone_of_the_gmm_and_of_a_non_optimal_feasible_alpha():
    """α = A: w = (0,½,½), margins B 5/4, C 1 (δ = 1/8, gap = γ_A − γ_C = 1, gap_bar 1, Γ = 1, A² = 2·½ = 1);
    α = C: feasible, not locally optimal (C's support token outscores it), constants still computed."""
    c = LC.local_cone(D.d_lmm(), (0,))
    assert c.locally_optimal and c.w == _w((0, F(1, 2), F(1, 2)))
    assert c.margins == {(0, 1): F(5, 4), (0, 2): F(1)}
    assert c.delta == F(1, 8) and c.A_sq == F(1) and c.gap == (F(1),) and c.gap_bar == (F(1),)
    assert c.radius_factor == F(8)
    assert c.mu == F(1, 64) / 8
    c3 = LC.local_cone(D.d_lmm(), [2])
    assert c3.feasible and not c3.locally_optimal and c3.alpha == (2,)


def _two_tokens():
    """n = 1, T = 2 (a single margin: 𝒯 = {other}, 𝒯̄ = ∅, δ = ∞ i.e. None): tokens (1,0,0)·… with v = e₃."""
    return Dataset.make(X=[[[0, 1, 1], [0, 0, 0]]], Y=[1], v=[0, 0, 1], z=[[1, 0, 0]], name="two")


def test_delta_infinite_when_no_non_support_pair():
    """T = 2: one margin (= 1), no τ ∈ 𝒯̄: δ = None; μ = (½)²/(8A²); radius factor 2 (1/δ = 0).
    w = (0,1,1)/2 (‖w‖² = ½), A² = 2·½ = 1, μ = 1/32; gap = γ₀ − γ₁ = 1."""
    c = LC.local_cone(_two_tokens(), (0,))
    assert c.delta is None and c.support == {0: [1]} and c.non_support == {0: []}
    assert c.norm_sq == F(1, 2) and c.A_sq == F(1) and c.mu == F(1, 32) and c.radius_factor == 2
    R = 2 * mpmath.sqrt(mpmath.mpf(1) / 2) * mpmath.log(64 * 2 * 1 * 1 / mpmath.mpf(1))
    assert abs(_mp(c.radius()) - R) < TOL
    assert "δ = ∞" in c.describe()


def test_infeasible_selection():
    """Identical tokens: Att-SVM infeasible → feasible/locally_optimal False, n and T kept; describe says so."""
    data = Dataset.make(X=[[[0, 1, 1], [0, 1, 1]]], Y=[1], v=[0, 0, 1], z=[[1, 0, 0]], name="same")
    c = LC.local_cone(data, (0,))
    assert not c.feasible and not c.locally_optimal and c.n == 1 and c.T == 2
    assert c.describe().endswith("Att-SVM(α) infeasible")


def test_local_cone_properties_on_constructed_instances():
    """μ with δ ≥ ½ uses ½, δ < ½ uses δ; radius_factor max(2, 1/δ) on both sides; gap_min over defined gaps;
    radius None for gap ≤ 0 or undefined; empty_support lists the sequences without a support index."""
    c = LocalCone((0, 0), True, True, "", delta=F(3), A_sq=F(2), support={0: [1], 1: []}, n=2, T=2,
                  gap=(F(3), None), Gamma=F(1), norm_sq=F(1))
    assert c.mu == F(1, 4) / 16
    assert c.radius_factor == 2
    assert c.gap_min == 3
    assert c.empty_support() == [1]
    c.delta = F(1, 4)
    assert c.mu == F(1, 16) / 16 and c.radius_factor == 4
    c.delta = F(1, 2)
    assert c.mu == F(1, 4) / 16 and c.radius_factor == 2
    c.delta = F(1, 3)
    assert c.radius_factor == 3
    c.gap = (None, None)
    assert c.gap_min is None and c.radius() is None
    c.gap = (F(0), F(2))
    assert c.gap_min == 0 and c.radius() is None
    c.gap = (F(-1),)
    assert c.radius() is None
    c.gap = (F(1, 2), F(2))
    assert c.gap_min == F(1, 2)
    R = 3 * 1 * mpmath.log(64 * 2 * 1 * mpmath.sqrt(2) / mpmath.mpf("0.5"))
    assert abs(_mp(c.radius()) - R) < TOL
    assert LocalCone((0,), True, True, "", support={}, n=1).empty_support() == [0]
    assert c.name == "α = (1, 1)"


def test_local_cones_enumerates_and_respects_the_limit():
    """D-LMM: the locally-optimal α are A and B (C is not); T^n = 3 > limit 2 → None, limit 3 enumerates."""
    cones = LC.local_cones(D.d_lmm())
    assert [c.alpha for c in cones] == [(0,), (1,)]
    assert LC.local_cones(D.d_lmm(), limit=2) is None
    assert [c.alpha for c in LC.local_cones(D.d_lmm(), limit=3)] == [(0,), (1,)]


def test_cone_slack_sign_and_value():
    """⟨W,w⟩|⟨W,w⟩| − (1−μ)²‖W‖²‖w‖² exactly: W = w → (1 − (1−μ)²)‖w‖⁴; W = −w negative; a tilted W."""
    w = (F(1), F(0))
    assert LC.cone_slack(w, w, F(1, 4)) == 1 - F(9, 16)
    assert LC.cone_slack((-1, 0), w, F(1, 4)) == -1 - F(9, 16)
    # W = (1, 1): ip = 1, ‖W‖² = 2: 1 − (3/4)²·2 = 1 − 9/8 = −1/8
    assert LC.cone_slack((1, 1), w, F(1, 4)) == F(-1, 8)
    assert LC.cone_slack((2, 1), (1, 1), "1/2") == 9 - F(1, 4) * 5 * 2


def test_corr_margin():
    """μ − (1 − corr): W = w → μ; W ⟂ w → μ − 1; W = (1,1), w = (1,0): corr = 1/√2."""
    assert abs(_mp(LC.corr_margin((2, 0), (1, 0), F(1, 4))) - mpmath.mpf("0.25")) < TOL
    assert abs(_mp(LC.corr_margin((0, 3), (1, 0), F(1, 4))) + mpmath.mpf("0.75")) < TOL
    got = LC.corr_margin((arb(1), arb(1)), (1, 0), "1/10")
    assert abs(_mp(got) - (mpmath.mpf("0.1") - 1 + 1 / mpmath.sqrt(2))) < TOL


def test_project_out_and_same_ray():
    """U − (⟨U,w⟩/‖w‖²)w exactly; same_ray only for a positive multiple, zero leading entries handled."""
    assert LC.project_out((1, 2), (1, 1)) == (F(-1, 2), F(1, 2))
    assert LC.project_out((3, 0, 1), (0, 2, 0)) == (F(3), F(0), F(1))
    assert LC.same_ray((2, 4), (1, 2))
    assert not LC.same_ray((-2, -4), (1, 2))
    assert not LC.same_ray((2, 5), (1, 2))
    assert LC.same_ray((0, 3, 6), (0, 1, 2))
    assert not LC.same_ray((1, 3, 6), (0, 1, 2))
    assert not LC.same_ray((0, 0, 6), (0, 1, 2))
    assert not LC.same_ray((1, 2), (0, 0))
    assert LC.same_ray((F(1, 3), 1), (1, 3))


def test_boundary_point_inside_and_close_to_the_boundary():
    """w = (1,0), U = (0,1), μ: bound t² ≤ ((1−μ)^{-2} − 1); the point is in the cone, and a slightly larger
    step (1 + 10⁻⁶)t leaves it (the point is within ~SHRINK of the boundary); U = 0 → None."""
    mu = F(1, 4)
    W = LC.boundary_point((1, 0), (0, 1), mu)
    assert W[0] == 1
    t = W[1]
    bound = 1 / (1 - mu) ** 2 - 1
    assert 0 < t and t * t <= bound
    assert t * t > bound * (1 - F(1, 10**6))
    assert LC.cone_slack(W, (1, 0), mu) >= 0
    assert LC.cone_slack((1, t * (1 + F(1, 10**6))), (1, 0), mu) < 0
    assert LC.boundary_point((1, 0), (0, 0), mu) is None
    # scaled: w = (2,0), U = (0,3): t² ≤ 4·bound/9
    W2 = LC.boundary_point((2, 0), (0, 3), mu)
    assert (W2[1] / 3) ** 2 <= 4 * bound / 9 and (W2[1] / 3) ** 2 > 4 * bound / 9 * (1 - F(1, 10**6))
    # an exact-square bound: μ with (1−μ)^{-2} − 1 = 9/16 + … use μ = 1 − 4/5: bound = 25/16 − 1 = 9/16, t < 3/4
    W3 = LC.boundary_point((1, 0), (0, 1), F(1, 5))
    assert W3[1] < F(3, 4) and W3[1] > F(3, 4) * (1 - F(1, 10**6))
    W4 = LC.boundary_point((1, 0), (0, 1), F(1, 5), shrink=F(1, 10))
    assert W4[1] <= F(3, 4) * F(9, 10) and W4[1] > F(3, 4) * F(8, 10)


def test_transverse_directions_on_d_lmm():
    """α = B: others' direction projected ⊥ w; per token t ≠ α: ±(F_t − F_α) projected, listed once per ray; two
    seeded random directions (reproducible, ⊥ w, distinct for distinct seeds); random_dirs = 0 drops them."""
    data = D.d_lmm()
    c = LC.local_cone(data, (1,))
    w = c.w
    other = _w((0, 1, 1))
    dirs = LC.transverse_directions(data, c, others=[("X", other)], random_dirs=2, seed=0)
    labels = [lab for lab, _ in dirs]
    assert labels[0] == "toward X"
    assert dirs[0][1] == LC.project_out(other, w)
    for _, U in dirs:
        assert _dot(U, w) == 0 and any(U)
    # token A (t = 0): F_A − F_B ∝ (0, 2, ½) column → projected; away = its negative
    fa = LC.project_out(_w((0, 2, F(1, 2))), w)
    assert fa == dirs[0][1] == (0, 0, 0, F(3, 5), 0, 0, F(6, 5), 0, 0)  # both ∝ (0, 1, 2): the same ray, once
    assert "toward token 1 of sequence 1" not in labels
    assert ("away from token 1 of sequence 1", tuple(-x for x in fa)) in dirs
    # token C (t = 2): F_C − F_B = (0, 1, −½) = −(5/4)·w-column: projects to 0, not listed
    assert not any("token 3" in lab for lab in labels)
    rnd = [(lab, U) for lab, U in dirs if lab.startswith("random")]
    assert [lab for lab, _ in rnd] == ["random 1 (seed 0)", "random 2 (seed 0)"]
    assert all(len(U) == 9 for _, U in rnd)
    # "toward X" = (0,1,1) projected off (0,−4/5,2/5): on the ray of fa? (0,2,½) vs (0,1,1): both ⊥-projections are
    # multiples of (0, 1, 2) (the only direction ⊥ (0,−2,1) in the column): listed once
    assert len(dirs) == 1 + 1 + 2
    dirs1 = LC.transverse_directions(data, c, random_dirs=3, seed=1)
    assert [lab for lab, _ in dirs1][-3:] == ["random 1 (seed 1)", "random 2 (seed 1)", "random 3 (seed 1)"]
    assert dirs1[-3][1] != rnd[0][1]
    assert LC.transverse_directions(data, c, random_dirs=2, seed=0)[-2:] == rnd
    assert not any(lab.startswith("random") for lab, _ in LC.transverse_directions(data, c, random_dirs=0))


@pytest.mark.parametrize("seed", [5, 1])  # seed 1: the generator's 201-wide draw
def test_transverse_random_direction_values(seed):
    """The random directions are Fraction(randint(−100, 100), 37) per coordinate from random.Random(seed), then
    projected ⊥ w (re-derived with the same generator)."""
    import random

    data = D.d_lmm()
    c = LC.local_cone(data, (1,))
    rng = random.Random(seed)
    raw = [tuple(F(rng.randint(-100, 100), 37) for _ in range(9)) for _ in range(2)]
    got = [U for lab, U in LC.transverse_directions(data, c, random_dirs=2, seed=seed) if lab.startswith("random")]
    assert got == [LC.project_out(r, c.w) for r in raw]


def test_cone_directions():
    """W^mm_α first, then one certified boundary point per transverse direction (μ = μ(α) unless given)."""
    data = D.d_lmm()
    c = LC.local_cone(data, (1,))
    out = LC.cone_directions(data, c, random_dirs=1)
    assert out[0] == ("W^mm_α", c.w)
    trans = LC.transverse_directions(data, c, (), 1, 0)
    assert len(out) == 1 + len(trans)
    for (lab, W), (tl, U) in zip(out[1:], trans):
        assert lab == f"cone boundary {tl}"
        assert W == LC.boundary_point(c.w, U, c.mu)
        assert LC.cone_slack(W, c.w, c.mu) >= 0
    out2 = LC.cone_directions(data, c, mu="1/2", random_dirs=1, seed=3)
    trans2 = LC.transverse_directions(data, c, (), 1, 3)
    assert [W for _, W in out2[1:]] == [LC.boundary_point(c.w, U, F(1, 2)) for _, U in trans2]
    others = [("Y", _w((1, 0, 0)))]
    out3 = LC.cone_directions(data, c, others=others, random_dirs=0)
    assert out3[1][0] == "cone boundary toward Y"


def test_lmm_selections_given_alphas():
    """Given α: met iff every α locally optimal (detail names the bad ones' reasons); require=False keeps every
    feasible one and says 'not required'."""
    data = D.d_lmm()
    ok, detail, cones = LC.lmm_selections(data, alphas=[(1,), (0,)])
    assert ok is True and [c.alpha for c in cones] == [(1,), (0,)] and "δ = 1/5" in detail
    ok, detail, cones = LC.lmm_selections(data, alphas=[(2,), (1,)])
    assert ok is False and [c.alpha for c in cones] == [(2,), (1,)] and detail.startswith("α = (3)")
    ok, detail, cones = LC.lmm_selections(data, alphas=[(2,), (1,)], require=False)
    assert ok is True and detail.startswith("not required (false case): ") and [c.alpha for c in cones] == [(2,), (1,)]
    same = Dataset.make(X=[[[0, 1, 1], [0, 1, 1]]], Y=[1], v=[0, 0, 1], z=[[1, 0, 0]], name="same")
    ok, _, cones = LC.lmm_selections(same, alphas=[(0,)], require=False)
    assert ok is True and cones == []


def test_lmm_selections_enumerated_and_too_large(monkeypatch):
    """No α: every locally-optimal α of [T]^n; none → False; beyond the limit: α = opt alone (tied opt → none)."""
    data = D.d_lmm()
    ok, detail, cones = LC.lmm_selections(data)
    assert ok is True and [c.alpha for c in cones] == [(0,), (1,)]
    assert detail.startswith("every locally-optimal α of [T]^n: ")
    monkeypatch.setattr(LC, "local_cones", lambda data, dps: [])
    assert LC.lmm_selections(data) == (False, "no locally-optimal selection in [T]^n", [])
    monkeypatch.setattr(LC, "local_cones", lambda data, dps: None)
    ok, detail, cones = LC.lmm_selections(data)
    assert ok is True and [c.alpha for c in cones] == [(0,)]
    assert detail.startswith("[T]^n = 3^1 too large to enumerate: α = opt only; α = (1)")
    tied = Dataset.make(X=[[[0, 1, 1], [1, 0, 1], [0, 0, 0]]], Y=[1], v=[0, 0, 1], z=[[1, 0, 0]], name="tied")
    ok, detail, cones = LC.lmm_selections(tied)
    assert ok is False and cones == [] and detail.endswith("; opt tied")


def test_lmm_selections_too_large_opt_not_locally_optimal(monkeypatch):
    """Beyond the limit with a unique opt whose SVM is infeasible: not met, no cones, the opt's description."""
    same = Dataset.make(X=[[[0, 1, 1], [0, 1, 1], [0, 0, 0]]], Y=[1], v=[0, 0, 1], z=[[1, 0, 0]], name="s")
    monkeypatch.setattr(LC, "local_cones", lambda data, dps: None)
    monkeypatch.setattr(type(same), "optimal_tokens", lambda self: [[0]])
    ok, detail, cones = LC.lmm_selections(same)
    assert ok is False and cones == [] and "infeasible" in detail


def test_other_directions_and_one_indexed():
    """The other cones' W^mm_β with their 1-indexed label; the cone itself is left out."""
    data = D.d_lmm()
    a, b = LC.local_cone(data, (0,)), LC.local_cone(data, (1,))
    assert LC.other_directions([a, b], b) == [("W^mm_β, β = (1)", a.w)]
    assert LC.other_directions([b], b) == []
    assert LC.one_indexed((0, 2)) == "(1, 3)"


@pytest.mark.parametrize("x", [F(4, 9), 2])
def test_sqrt_ball(x):
    """sqrt_ball(x) encloses √x."""
    assert abs(_mp(LC.sqrt_ball(x)) - mpmath.sqrt(mpmath.mpf(F(x).numerator) / F(x).denominator)) < TOL


# ----- G5 additions (issue 21: the survivors of dev/mutation-survivors-geometry-G3.md) -------------------------
def _spy_local_optimality(monkeypatch):
    """Record the (α, kind, dps) of every local_optimality call of the module, delegating to the real one."""
    real, calls = LC.local_optimality, []

    def spy(data, alpha, kind, dps):
        calls.append((tuple(alpha), kind, dps))
        return real(data, alpha, kind, dps)

    monkeypatch.setattr(LC, "local_optimality", spy)
    return calls


def test_every_entry_point_passes_its_precision(monkeypatch):
    """local_cone, local_cones and lmm_selections (given α, enumerated, and α = opt beyond the limit) solve the W-form
    Att-SVM at the dps they are given (default 40)."""
    calls = _spy_local_optimality(monkeypatch)
    data = D.d_lmm()

    def run(f, *args, **kwargs):
        calls.clear()
        f(*args, **kwargs)
        return list(calls)

    assert run(LC.local_cone, data, (1,)) == [((1,), "W", 40)]
    assert run(LC.local_cone, data, (1,), 17) == [((1,), "W", 17)]
    assert run(LC.local_cones, data) == [((0,), "W", 40), ((1,), "W", 40), ((2,), "W", 40)]
    assert run(LC.local_cones, data, 18) == [((0,), "W", 18), ((1,), "W", 18), ((2,), "W", 18)]
    assert run(LC.lmm_selections, data, alphas=[(1,)]) == [((1,), "W", 40)]
    assert run(LC.lmm_selections, data, alphas=[(1,)], dps=19) == [((1,), "W", 19)]
    assert [c[2] for c in run(LC.lmm_selections, data)] == [40, 40, 40]
    assert [c[2] for c in run(LC.lmm_selections, data, dps=21)] == [21, 21, 21]
    assert run(LC.lmm_selections, data, dps=22, require=True) == [((0,), "W", 22), ((1,), "W", 22), ((2,), "W", 22)]
    real_cones = LC.local_cones
    monkeypatch.setattr(LC, "local_cones", lambda data, dps: None)
    assert run(LC.lmm_selections, data, dps=23) == [((0,), "W", 23)]
    assert run(LC.lmm_selections, data) == [((0,), "W", 40)]
    monkeypatch.setattr(LC, "local_cones", real_cones)


def test_reasons_and_flags_pass_through():
    """The reason of local_optimality is kept (feasible and infeasible); an infeasible selection has feasible and
    locally_optimal False (not merely falsy)."""
    c = LC.local_cone(D.d_lmm(), (1,))
    assert c.reason == "every SVM-neighbour has a strictly smaller score"
    same = Dataset.make(X=[[[0, 1, 1], [0, 1, 1]]], Y=[1], v=[0, 0, 1], z=[[1, 0, 0]], name="same2")
    c = LC.local_cone(same, (0,))
    assert c.feasible is False and c.locally_optimal is False
    assert c.reason == "the SVM of this selection is infeasible"


def test_gap_bar_subtracts_the_smallest_support_score():
    """Tokens (0,1,1) (γ = 1) and (0,0,½) (γ = ½), z = e₁: the one support token scores ½, so γ^gap = γ̄^gap = ½."""
    data = Dataset.make(X=[[[0, 1, 1], [0, 0, "1/2"]]], Y=[1], v=[0, 0, 1], z=[[1, 0, 0]], name="gb")
    c = LC.local_cone(data, (0,))
    assert c.support == {0: [1]} and c.gap == (F(1, 2),) and c.gap_bar == (F(1, 2),)


def test_a_squared_uses_the_query_norm():
    """D-LMM with z = 2e₁: W^mm is the D-LMM one halved (W z = 2w): w = (0,−2/5,1/5), ‖w‖² = 1/5, and
    A² = max‖x‖²·‖z‖²·‖w‖² = 2·4·(1/5) = 8/5 (scale-invariant, as it must be)."""
    data = Dataset.make(X=[[[0, 1, 1], [0, -1, "1/2"], [0, 0, 0]]], Y=[1], v=[0, 0, 1], z=[[2, 0, 0]], name="z2")
    c = LC.local_cone(data, (1,))
    assert c.w == _w((0, F(-2, 5), F(1, 5))) and c.norm_sq == F(1, 5) and c.A_sq == F(8, 5)


def test_local_cones_limit_is_t_to_the_n():
    """Two copies of D-LMM (n = 2, T = 3): 9 selections; limit 8 → None (T·n = 6 would not exceed it)."""
    X = [[[0, 1, 1], [0, -1, "1/2"], [0, 0, 0]]] * 2
    data = Dataset.make(X=X, Y=[1, 1], v=[0, 0, 1], z=[[1, 0, 0]] * 2, name="two-d-lmm")
    assert LC.local_cones(data, limit=8) is None


def test_corr_margin_exact_inputs_and_a_long_w():
    """W = (1/3, 1/3) (Fractions, converted exactly), w = (3, 0) (‖w‖ = 3): corr = 1/√2 → μ − (1 − 1/√2)."""
    got = LC.corr_margin((F(1, 3), F(1, 3)), (3, 0), F(1, 10))
    assert abs(_mp(got) - (mpmath.mpf("0.1") - 1 + 1 / mpmath.sqrt(2))) < TOL


def test_same_ray_of_a_vector_with_itself():
    assert LC.same_ray((1, 2), (1, 2)) and LC.same_ray((1, 0), (3, 0))


def test_boundary_point_on_an_exact_square_bound_without_shrink_is_the_boundary_itself():
    """μ = 1/5: (1−μ)⁻² − 1 = 9/16, √ = 3/4 exactly; shrink = 0 keeps t = 3/4: W = (1, 3/4) has corr = 4/5 = 1 − μ,
    on the boundary of the closed cone, so it is returned."""
    assert LC.boundary_point((1, 0), (0, 1), F(1, 5), shrink=0) == (1, F(3, 4))


def test_boundary_point_refuses_a_point_outside_the_cone():
    """U = (−1, 1) is not ⊥ w = (1, 0): the step t ≈ √(7/18) computed for ‖U‖ leaves cone_{1/4}
    (corr((1−t, t), e₁) ≈ 0.52 < 3/4): None."""
    assert LC.boundary_point((1, 0), (-1, 1), F(1, 4)) is None


def test_boundary_point_step_is_a_short_rational():
    """The step t starts from a rational with denominator ≤ 10¹² (then × (1 − 10⁻⁹)): its denominator stays
    ≤ 10²¹, and t is within a relative 2·10⁻⁹ below √bound (μ = 1/4, w = (1,0), U = (0,1): bound = 7/9)."""
    W = LC.boundary_point((1, 0), (0, 1), F(1, 4))
    t = W[1]
    assert t.denominator <= 10**21
    assert t * t <= F(7, 9) and t * t >= F(7, 9) * (1 - F(4, 10**9))
    # inside float64's range the float start is kept: float √ (relative error ≤ 2⁻⁵³) and a 10¹²-denominator
    # rational close to it, so t/((1 − 10⁻⁹)√(7/9)) − 1 is ~10⁻¹⁶ (the exact root below would be ~10⁻¹⁴ off)
    with mpmath.workdps(40):
        ratio = mpmath.mpf(t.numerator) / t.denominator / ((1 - mpmath.mpf(10) ** -9) * mpmath.sqrt(mpmath.mpf(7) / 9))
        assert abs(ratio - 1) < mpmath.mpf(10) ** -15


def test_boundary_point_beyond_float64():
    """Tiny μ = 1/(3·10²⁴): bound ≈ 2μ, √bound ≈ 8.2·10⁻¹³ is below the reach of a 10¹² denominator (the float start
    1/10¹² overshoots it): the exact root from below is used, t² ≤ bound within a relative 3·10⁻⁹; huge w = (10²⁰⁰, 0):
    bound = 10⁴⁰⁰·7/9 overflows float64: the same exact root. Both points are certified in the cone."""
    mu = F(1, 3 * 10**24)
    bound = 1 / (1 - mu) ** 2 - 1
    W = LC.boundary_point((1, 0), (0, 1), mu)
    assert W[1] ** 2 <= bound and W[1] ** 2 >= bound * (1 - F(3, 10**9))
    assert LC.cone_slack(W, (1, 0), mu) >= 0
    big = 10**200
    W = LC.boundary_point((big, 0), (0, 1), F(1, 4))
    b2 = F(big) ** 2 * F(7, 9)
    assert W[1] ** 2 <= b2 and W[1] ** 2 >= b2 * (1 - F(3, 10**9))


def test_root_below():
    """r ≤ √q, within a relative 10⁻¹²: exact squares give the root (4/9 → 2/3), 2 → just below √2; q = 0 → 0."""
    assert LC._root_below(F(4, 9)) == F(2, 3)
    assert LC._root_below(F(3)) == F(1732050807568, 10**12)   # √3 = 1.7320508075688…, cut at 12 decimals (S = 10¹²)
    r = LC._root_below(F(2))
    assert r * r <= 2 and r * r >= 2 * (1 - F(2, 10**12))
    r = LC._root_below(F(7, 10**30))
    assert r * r <= F(7, 10**30) and r * r >= F(7, 10**30) * (1 - F(2, 10**12))
    assert LC._root_below(F(0)) == 0


def test_transverse_directions_defaults_and_the_token_differences():
    """Defaults: two random directions with seed 0 (cone_directions too: W^mm and 4 boundary points; D-LMM's ±(F_A − F_B)
    are the two token directions). Tokens x₀ = (1,0,1) (α, γ = 1),
    x₁ = (0,1,0), x₂ = (1,1,0), z = e₁: rows x₀ − x₁ = (1,−1,1), x₀ − x₂ = (0,−1,1); W^mm's column
    w = (0,−½,½) meets both with equality. x₁ − x₀ = (−1,1,−1) minus its component along w (−1·(0,−1,1)) is
    (−1,0,0); x₂ − x₀ = −(0,−1,1) ∝ w projects to 0 (not listed)."""
    data = D.d_lmm()
    c = LC.local_cone(data, (1,))
    labels = [lab for lab, _ in LC.transverse_directions(data, c)]
    assert labels == ["toward token 1 of sequence 1", "away from token 1 of sequence 1", "random 1 (seed 0)",
                      "random 2 (seed 0)"]
    assert len(LC.cone_directions(data, c)) == 1 + 4
    t3 = Dataset.make(X=[[[1, 0, 1], [0, 1, 0], [1, 1, 0]]], Y=[1], v=[0, 0, 1], z=[[1, 0, 0]], name="t3")
    c3 = LC.local_cone(t3, (0,))
    assert c3.w == _w((0, F(-1, 2), F(1, 2))) and c3.support == {0: [1, 2]}
    assert LC.transverse_directions(t3, c3, random_dirs=0) == [
        ("toward token 2 of sequence 1", _w((-1, 0, 0))), ("away from token 2 of sequence 1", _w((1, 0, 0)))]


def test_lmm_selections_detail_names_the_bad_reasons_only():
    """Given α = C (not locally optimal) and B: the detail is C's name and reason alone."""
    data = D.d_lmm()
    ok, detail, cones = LC.lmm_selections(data, alphas=[(2,), (1,)])
    assert ok is False and detail == f"α = (3): {cones[0].reason}"
    assert cones[0].reason.startswith("sequence 0: neighbour token")


def test_boundary_point_keeps_a_float_start_that_lands_exactly_on_the_boundary():
    """w = ((4/3)·10⁻¹²·(1 − 10⁻⁹), 0), U = (0, 1), μ = 1/5: bound = ‖w‖²·(25/16 − 1) = (10⁻¹²(1 − 10⁻⁹))².
    The rational with denominator ≤ 10¹² nearest √bound = 0.999999999·10⁻¹² is 1/10¹² (the next ones, 0 and
    1/(10¹² − 1), are farther), so t = 10⁻¹²(1 − 10⁻⁹) = √bound exactly: t² = bound is not an overshoot, the point is
    kept — on the boundary (corr = 4/5 = 1 − μ, slack 0)."""
    a = F(4, 3) * F(1, 10**12) * (1 - LC.SHRINK)
    W = LC.boundary_point((a, 0), (0, 1), F(1, 5))
    assert W == (a, F(1, 10**12) * (1 - LC.SHRINK))
    assert LC.cone_slack(W, (a, 0), F(1, 5)) == 0
