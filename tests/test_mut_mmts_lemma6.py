"""mmts Lemma 6 in detail (mutation testing, area mmts): the constant, ∇L(0), L(0) − L⋆ and the (26)
bound in closed form on the documented tight dataset; the step-size default (also for L_p < 1 and
L_p = 0); the relations and bounds of (i), (6), (25), (26); the GD bookkeeping (sum, counts, figures);
the points named; the datasets against their docstrings."""
import math
import random
from fractions import Fraction

from flint import arb

from lemmas.mmts import lemma6
from verify import Dataset
from verify.data import mmts as D
from verify.data.generators import random_dataset
from verify.geometry.smoothness import key_matrix, smoothness_constant
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import working_precision

# lemma6_tight: X = [(1.3, 1), (−0.4, 0)], v = e₂, Y = 1, W = I, so γ = (1, 0). At p = 0 the softmax is
# uniform: φ = 1/2, ∇φ = Σ s_t γ_t (k_t − k̄) = ½((1.3, 1) − (0.45, 0.5)) = (0.425, 0.25), and for the
# logistic loss ℓ(u) = log(1 + e^{−u}), ℓ'(u) = −1/(1 + e^u): ∇L(0) = ℓ'(1/2)(0.425, 0.25).
# L(0) − L⋆ = ℓ(1/2) − ℓ(1). ‖X‖₂² = λ_max(XᵀX) = (2.85 + √7.4825)/2; L_p = ¼‖X‖⁴ + 3‖X‖³ (M₀ = ¼, M₁ = 1).


def _closed_forms():
    lam = (arb("2.85") + arb("7.4825").sqrt()) / 2
    nx = lam.sqrt()
    Lp = nx ** 4 / 4 + 3 * nx ** 3
    d1 = -1 / (1 + arb("0.5").exp())
    g0 = [d1 * arb("0.425"), d1 * arb("0.25")]
    ell = lambda u: (1 + (-arb(u)).exp()).log()  # noqa: E731
    ex0 = ell("0.5") - ell(1)
    return Lp, g0, ex0


def close(ball, value, digits=20):
    return abs(ball - value) < arb(10) ** -digits


def nested(x):
    return [nested(y) for y in x] if isinstance(x, (list, tuple)) else x


def find(out, tag):
    (e,) = [e for e in out.evidence if tag in e.quantity]
    return e


def test_constant_gradient_and_26_bound_in_closed_form():
    with working_precision(30) as prec:
        Lp, g0, ex0 = _closed_forms()
        out = lemma6.evaluate(lemma6.lemma6_tight(), prec, losses=(), points=[], steps=0)
        const = find(out, "L_p (6)/(24)")
        assert close(const.value, Lp)
        last = find(out, "‖∇L(p(t))‖ at t = 0")
        assert close(last.value, (g0[0] ** 2 + g0[1] ** 2).sqrt())  # steps = 0: ‖∇L(p(0))‖
        s26 = find(out, "GD steps (26)")
        assert s26.value == 0 and s26.relation == "<="
        assert close(s26.bound, 2 * ex0 * Lp, 15)  # η = 1/L_p rounded down
        out = lemma6.evaluate(lemma6.lemma6_tight(), prec, losses=(), points=[], steps=1)
        s26 = find(out, "GD steps (26)")
        assert close(s26.value, g0[0] ** 2 + g0[1] ** 2)  # one step: ‖∇L(0)‖²
        assert s26.decide() is True


def test_gd_sum_lipschitz_ratio_and_figures_over_two_steps():
    """Σ_t‖∇L(p(t))‖² and the (6) ratio recomputed here from GD run by hand on the model."""
    data = lemma6.lemma6_tight()
    with working_precision(30) as prec:
        out = lemma6.evaluate(data, prec, losses=(), points=[], steps=2)
        model = LinearLogitModel.from_dataset(data, "p", "logistic")
        Lp = smoothness_constant(data).value
        eta = arb((1 / Lp).lower())
        ps, gs = [[arb(0), arb(0)]], []
        for t in range(3):
            gs.append(model.grad(ps[-1]))
            ps.append([arb((x - eta * y).mid()) for x, y in zip(ps[-1], gs[-1])])
        norm = lambda w: sum((x * x for x in w), arb(0)).sqrt()  # noqa: E731
        ratios = [norm([a - b for a, b in zip(gs[t + 1], gs[t])]) / (Lp * norm([a - b for a, b in zip(ps[t + 1], ps[t])]))
                  for t in range(2)]
        s26 = find(out, "GD steps (26)")
        assert close(s26.value, norm(gs[0]) ** 2 + norm(gs[1]) ** 2)
        lip = find(out, "along GD (6)")
        assert close(lip.value, max(ratios, key=lambda r: float(r.mid())))
        assert lip.coverage.points == 2 and lip.coverage.worst_at in ("t = 0 → 1", "t = 1 → 2")
        assert close(find(out, "at t = 2").value, norm(gs[2]))
        rho = find(out, "(25)")
        assert rho.coverage.points == 2 and rho.coverage.worst_at in ("GD step t = 0", "GD step t = 1")
    fig = {f.name: f for f in out.figures}
    (s,) = fig["descent-ratio"].series
    assert s.x == [0, 1] and all(1 <= y <= 2 for y in s.y)  # (25) holds, ρ ≤ 2 for a convex step
    (g,) = fig["gradient-norm"].series
    assert g.x == [0, 1, 2]
    assert abs(g.y[0] - math.log10(float(norm(gs[0]).mid()))) < 1e-9


def test_relations_and_bounds_of_every_deciding_item():
    with working_precision(30) as prec:
        out = lemma6.evaluate(lemma6.lemma6_tight(), prec, losses=("logistic",), points=[(0, 0), (1, 2)], steps=1,
                              search=False)
    # (i) on every p (the smallest simplex margin > 0), (i) at the probe points, (i) proven on a box (the margin
    # L² − ‖∇²L‖_F² > 0), (25), (6)
    assert [(e.relation, e.bound) for e in out.evidence if e.relation != "~"][:5] == \
        [(">", 0), ("<=", 1), (">", 0), (">=", 1), ("<=", 1)]
    assert out.evidence[1].proves.startswith("every p ∈ ℝ^d") and out.evidence[2].corroborates
    hess = find(out, "(i)")
    assert hess.coverage.points == 2 and hess.coverage.worst_at.startswith("p = (")
    rho = find(out, "(25)")
    assert rho.coverage.points == 3  # two probe points + one GD step
    assert all(w.startswith("probe p = (") or w.startswith("GD step t = ") for w in [rho.coverage.worst_at])


def test_default_step_count_and_search():
    with working_precision(30) as prec:
        out = lemma6.evaluate(lemma6.lemma6_tight(), prec, losses=(), points=[])
        assert find(out, "(25)").coverage.points == 1000  # 1000 GD steps by default
        assert find(out, "along GD (6)").coverage.points == 1000
        out = lemma6.evaluate(lemma6.lemma6_tight(), prec, losses=("logistic",), points=[(0, 0)], descent_loss=None)
    hess = find(out, "(i)")
    assert hess.coverage.points >= 2  # the probe point + the local maxima of the search (on by default)


def test_hypotheses_are_named_per_loss():
    with working_precision(30) as prec:
        out = lemma6.evaluate(lemma6.lemma6_tight(), prec, losses=("logistic", "exponential"), points=[(0, 0)],
                              steps=0, search=False)
    names = [h.name for h in out.hypotheses]
    assert names[0].startswith("Assumption A (logistic):") and names[1].startswith("Assumption A (exponential):")
    assert names[2].startswith("step size η ≤ 1/L_p")
    assert all(h.met is True for h in out.hypotheses)


def test_constant_form_named_w_or_k():
    with working_precision(30) as prec:
        w = lemma6.evaluate(lemma6.scaled_key_dataset(0), prec, losses=("logistic",), descent_loss=None,
                            points=[(0, 0)], search=False)
        k = lemma6.evaluate(random_dataset(n=2, T=4, d=3, seed=0, keys=True), prec, losses=("logistic",),
                            descent_loss=None, points=[(0, 0, 0)], search=False)
    assert w.evidence[0].quantity == "logistic: L_p (6)/(24)"
    assert k.evidence[0].quantity.startswith("logistic: L_K (proof form")
    assert "L_p over" in w.evidence[2].quantity and "L_K over" in k.evidence[2].quantity


def test_default_step_is_one_over_lp_also_below_one():
    """X scaled by 1/10: L_p = ¼‖X‖⁴ + 3‖X‖³ < 1; the default step is still 1/L_p (not 1)."""
    data = Dataset.make(X=[[["0.13", "0.1"], ["-0.04", 0]]], Y=[1], v=[0, 1], name="small")
    with working_precision(30) as prec:
        out = lemma6.evaluate(data, prec, losses=(), points=[], steps=0)
        Lp = find(out, "L_p (6)/(24)").value
        assert Lp < 1
        # γ = (0.1, 0): L(0) − L⋆ = ℓ(0.05) − ℓ(0.1)
        ell = lambda u: (1 + (-arb(u)).exp()).log()  # noqa: E731
        assert close(find(out, "GD steps (26)").bound, 2 * (ell("0.05") - ell("0.1")) * Lp, 15)


def test_zero_constant_gives_the_unit_step_and_stationary_points():
    """v = 0: every score is 0, L_p = 0 and ∇L ≡ 0; the step defaults to 1 (η·0 ≤ 1 holds), (26) reads
    0 ≤ 0 exactly, and every point is stationary — (25) on zero points is INCONCLUSIVE, counted in the note."""
    data = Dataset.make(X=[[["1.3", 1], ["-0.4", 0]]], Y=[1], v=[0, 0], name="zero-v")
    with working_precision(30) as prec:
        out = lemma6.evaluate(data, prec, losses=(), points=[(0, 0)], steps=1)
    assert [h.met for h in out.hypotheses] == [True, True]
    s26 = find(out, "GD steps (26)")
    assert s26.value == 0 and s26.bound == 0 and s26.decide() is True
    rho = find(out, "(25)")
    assert "; 2 point(s) with ∇L = 0 exactly" in rho.note
    assert out.decide() == "INCONCLUSIVE"


def test_rational_step_given_as_a_fraction():
    with working_precision(30) as prec:
        _, _, ex0 = _closed_forms()
        out = lemma6.evaluate(lemma6.lemma6_tight(), prec, losses=(), points=[], steps=0, eta=Fraction(1, 100))
        assert close(find(out, "GD steps (26)").bound, 200 * ex0)
    assert out.hypotheses[-1].met is True


def test_saturated_points_counted_as_mean_value_and_no_stationary_note():
    """At the saturated points of test_lemma6 the drop is < 10⁻¹⁵ of L − L⋆ at 30 digits, so only the
    mean-value form resolves ρ: the note counts all three, and no point is stationary."""
    pts = [(Fraction(-1000, 47), Fraction(1000), Fraction(3500, 47)), (Fraction(240), Fraction(30), Fraction(1000)),
           (Fraction(-100), Fraction(1000), Fraction(0))]
    with working_precision(30) as prec:
        out = lemma6.evaluate(D.mmts_fig1a(), prec, losses=(), points=pts, steps=0)
    rho = find(out, "(25)")
    assert "the latter tighter at 3 (saturated) point(s)" in rho.note
    assert "∇L = 0 exactly" not in rho.note
    assert rho.coverage.worst_at.startswith("probe p = (")


def test_too_large_step_names_a_failing_point():
    data = lemma6.lemma6_tight()
    with working_precision(30) as prec:
        Lp = smoothness_constant(data).value
        out = lemma6.evaluate(data, prec, losses=(), eta=400 / Lp, enforce_step=False, steps=20)
    rho = find(out, "(25)")
    assert rho.decide() is False
    assert rho.coverage.first_violation.startswith("probe p = (") or rho.coverage.first_violation.startswith("GD step")
    assert any(n.startswith("step hypothesis removed: η = ") for n in out.notes)


def test_tight_dataset_is_the_documented_one():
    data = lemma6.lemma6_tight()
    assert data.name == "mmts-lemma6-spec"
    assert nested(data.X) == [[[Fraction(13, 10), 1], [Fraction(-2, 5), 0]]] and nested(data.Y) == [1]
    assert nested(data.v) == [0, 1]
    assert data.K is None


def _expected_scaled(seed, c):
    base = random_dataset(n=2, T=3, d=2, seed=seed)
    rng = random.Random(seed + 101)
    W0 = [[Fraction(rng.randint(-9, 9), 4) for _ in range(2)] for _ in range(2)]
    if W0[0][0] * W0[1][1] == W0[0][1] * W0[1][0]:
        W0[0][0] += 1
    X = [[[c * x for x in tok] for tok in seq] for seq in base.X]
    return base, W0, X


def test_scaled_key_dataset_is_the_documented_one():
    """Random tokens (n = 2, T = 3, d = 2) scaled by c, keys K_i = X_i W with W = c·W₀, W₀ a seeded
    invertible matrix of quarters in [−9/4, 9/4] (seeded by seed + 101; made invertible by adding 1 to W₀₁₁)."""
    singular = 0
    for seed in list(range(8)) + [264, 313, 389]:  # W₀ singular as drawn for the last three
        for c in (1, 3):
            data = lemma6.scaled_key_dataset(seed, c)
            base, W0, X = _expected_scaled(seed, c)
            rng = random.Random(seed + 101)
            raw = [[Fraction(rng.randint(-9, 9), 4) for _ in range(2)] for _ in range(2)]
            singular += raw[0][0] * raw[1][1] == raw[0][1] * raw[1][0]
            assert (data.n, data.T, data.d) == (2, 3, 2)
            assert nested(data.X) == X and data.Y == base.Y and data.v == base.v
            W = [[c * w for w in row] for row in W0]
            assert W[0][0] * W[1][1] != W[0][1] * W[1][0]
            assert nested(data.K) == [[[sum(tok[a] * W[a][b] for a in range(2)) for b in range(2)] for tok in seq] for seq in X]
            assert key_matrix(data) == tuple(tuple(w for w in row) for row in W)
            assert data.name == f"random-keysXW-s{seed}" + (f"-c{c}" if c != 1 else "")
    assert singular  # the invertibility repair is exercised
    assert lemma6.scaled_key_dataset().to_dict() == lemma6.scaled_key_dataset(0, 1).to_dict()


def test_default_datasets_are_the_documented_ones():
    names = [d.name for d in lemma6.default_datasets()]
    assert names == ["mmts-fig1a", "mmts-fig1c", "mmts-lemma6-spec", "random-keysXW-s0", "random-n2T4d3-keys-s0"]
    last = lemma6.default_datasets(5)[-1]
    want = random_dataset(n=2, T=4, d=3, seed=5, keys=True)
    assert (last.X, last.K, last.v, last.Y, last.name) == (want.X, want.K, want.v, want.Y, "random-n2T4d3-keys-s5")
    assert lemma6.default_datasets(5)[3].name == "random-keysXW-s5"
