"""tfsvm.lemma13 (mutation tests): the values the (L1)/(L2) Tallies carry on D-T2 (n = 2, both locally-optimal α, one
with an empty support sequence) recomputed here in mpmath at the same sample points — the bounds' 1/n, the scaling
‖V‖ = ‖W^mm_α‖, ‖W‖_F ≥ f·R for f ∈ {1, 3/2}, (L1) on V = W^mm_α only, the loss — their bounds, relations and counts;
the printed signs' relations and names; which options add the "altered statement" note; the coverage text (given α or
every locally-optimal one; the random directions); the constants δ, A, μ, R of D-LMM α = B (spec §4: δ = 1/5,
A² = 8/5, μ = 1/320) and δ = ∞ (None) where no support/non-support pair exists.

mpmath: −⟨∇L(W), V⟩ = (1/n)Σ_i |ℓ'(u_i)| Cov_{s_i}(γ_i, b_i) (pairwise form), b_it = x_itᵀVz_i, u_i = Σ_t s_it γ_it;
q_i = Σ_{t≠α_i} s_it; lower = (1/8n)Σ_{𝒯_i≠∅}|ℓ'_i|q_iγ^gap_i, upper = (2/n)Σ_{𝒯_i≠∅}|ℓ'_i|q_iγ̄^gap_i."""
from fractions import Fraction as F

import mpmath
from claim_helpers import only_item as _ev
from flint import arb

from lemmas.tfsvm import lemma13
from verify.data import tfsvm as D
from verify.geometry.local_cone import cone_directions, lmm_selections, other_directions
from verify.geometry.tfsvm_cones import at_norm
from verify.numbers.precision import to_arb, working_precision

mpmath.mp.dps = 40


def _mp(x):
    return mpmath.mpf(x.mid().str(35, radius=False)) if isinstance(x, arb) else mpmath.mpf(F(x).numerator) / F(x).denominator


def _states(data, W, loss):
    """Per sequence: (s, |ℓ'(u)|, b ↦ Cov_s(γ, b) helper data)."""
    d, out = data.d, []
    for seq, z, g in zip(data.X, data.queries(), data.scores):
        logits = [sum(_mp(x[j]) * _mp(W[j * d + k]) * _mp(z[k]) for j in range(d) for k in range(d)) for x in seq]
        top = max(logits)
        e = [mpmath.e ** (a - top) for a in logits]
        s = [x / sum(e) for x in e]
        gam = [_mp(x) for x in g]
        u = sum(a * b for a, b in zip(s, gam))
        lp = 1 / (1 + mpmath.e ** u) if loss == "logistic" else mpmath.e ** (-u)
        out.append((seq, z, s, gam, lp))
    return out


def _neg_grad_dot(data, states, V):
    d, total = data.d, mpmath.mpf(0)
    for seq, z, s, gam, lp in states:
        b = [sum(_mp(x[j]) * _mp(V[j * d + k]) * _mp(z[k]) for j in range(d) for k in range(d)) for x in seq]
        T = len(seq)
        total += lp * sum(s[t] * s[r] * (gam[t] - gam[r]) * (b[t] - b[r]) for t in range(T) for r in range(T)) / 2
    return total / data.n


def _close(x, want, tol="1e-15"):
    return abs(_mp(x) - want) < mpmath.mpf(tol) * max(1, abs(want))


def _expected(data, cone, cones, R, loss, factors=(F(1), F(3, 2))):
    dirs = [V for _, V in cone_directions(data, cone, cone.mu, other_directions(cones, cone), 2)]
    with working_precision(30):
        Ws = [at_norm(d, R * to_arb(f)) for d in dirs for f in factors]
    nw = mpmath.sqrt(_mp(cone.norm_sq))
    l1, low, up = [], [], []
    for W in Ws:
        st = _states(data, W, loss)
        q = [sum(s[t] for t in range(len(s)) if t != a) for (_, _, s, _, _), a in zip(st, cone.alpha)]
        lower = sum(st[i][4] * q[i] * _mp(g) for i, g in enumerate(cone.gap) if g is not None) / 8 / data.n
        upper = 2 * sum(st[i][4] * q[i] * _mp(g) for i, g in enumerate(cone.gap_bar) if g is not None) / data.n
        for V in dirs:
            val = _neg_grad_dot(data, st, V)
            if tuple(V) == tuple(cone.w):
                l1.append(val)
            val *= nw / mpmath.sqrt(sum(_mp(x) ** 2 for x in V))
            low.append(val / lower)
            up.append(val / upper)
    return len(Ws), len(dirs), min(l1), min(low), max(up)


def test_tallies_on_d_t2_by_mpmath_both_losses():
    data = D.d_t2()
    for loss in ("logistic", "exponential"):
        with working_precision(30) as prec:
            out = lemma13.evaluate(data, prec, loss=loss)
            _, _, cones = lmm_selections(data, None, 30)
            radii = [c.radius() for c in cones]
        assert len(cones) == 2
        for cone, R in zip(cones, radii):
            nW, nV, l1, low, up = _expected(data, cone, cones, R, loss)
            e1 = _ev(out, f"{cone.name} (L1)")
            el = _ev(out, f"{cone.name} (L2): min of")
            eu = _ev(out, f"{cone.name} (L2): max of")
            assert e1.coverage.points == nW and el.coverage.points == eu.coverage.points == nW * nV
            assert (e1.relation, e1.bound, el.relation, el.bound, eu.relation, eu.bound) == (">", 0, ">=", 1, "<=", 1)
            assert _close(e1.value, l1) and _close(el.value, low) and _close(eu.value, up)
        assert out.decision().verdict == "HOLDS"
        assert not [n for n in out.notes if n.startswith("altered statement")]


def test_printed_signs_relations_and_names():
    with working_precision(30) as prec:
        out = lemma13.evaluate(D.d_lmm(), prec, alphas=[(1,)], signs="printed")
    lo = _ev(out, "α = (2) (L2): max of −⟨∇L(W), V⟩ / [1/8")
    up = _ev(out, "α = (2) (L2): min of −⟨∇L(W), V⟩ / [2")
    assert (lo.relation, up.relation) == ("<=", ">=")
    assert lo.quantity.endswith(" (printed signs)") and up.quantity.endswith(" (printed signs)")
    assert lo.decide() is False and up.decide() is False


def test_which_options_mark_the_statement_altered():
    def noted(**kw):
        with working_precision(30) as prec:
            out = lemma13.evaluate(D.d_lmm(), prec, alphas=[(1,)], factors=(F(1),), random_dirs=0, **kw)
        return [n for n in out.notes if n.startswith("altered statement")]
    assert noted() == []
    assert noted(signs="printed") and noted(upper_factor=F(1, 2)) and noted(lower_factor=F(1, 16))


def test_coverage_text_and_random_directions():
    def run(**kw):
        with working_precision(30) as prec:
            return lemma13.evaluate(D.d_lmm(), prec, factors=(F(1),), **kw)
    every, given = run(), run(alphas=[(1,)])
    assert every.covers[0] == "α ∈ {α = (1), α = (2)} (every locally-optimal α)"
    assert given.covers[0] == "α ∈ {α = (2)} (given)"
    n2 = _ev(given, "α = (2) (L1)").coverage.points
    n0 = _ev(run(alphas=[(1,)], random_dirs=0), "α = (2) (L1)").coverage.points
    n3 = _ev(run(alphas=[(1,)], random_dirs=3), "α = (2) (L1)").coverage.points
    assert n2 == n0 + 2 and n3 == n0 + 3
    assert "2 random" in given.covers[1]


def test_constants_of_d_lmm_b_and_an_infinite_delta():
    """D-LMM α = B: δ = 1/5, A = √(8/5), μ = 1/320, R = 5·√(4/5)·log(192·√(8/5)·2) (spec §4). D-T2 α = (1, 1):
    sequence 1's only other token is its support index and sequence 2 has none, so no (𝒯, 𝒯̄) pair: δ = ∞ (None)."""
    with working_precision(30) as prec:
        out = lemma13.evaluate(D.d_lmm(), prec, alphas=[(1,)], factors=(F(1),), random_dirs=0)
        t2 = lemma13.evaluate(D.d_t2(), prec, alphas=[(0, 0)], factors=(F(1),), random_dirs=0)
    assert _ev(out, "α = (2): δ").value == F(1, 5)
    assert _close(_ev(out, "α = (2): A").value, mpmath.sqrt(mpmath.mpf(8) / 5))
    assert _ev(out, "α = (2): μ(α)").value == F(1, 320)
    want = 5 * mpmath.sqrt(mpmath.mpf(4) / 5) * mpmath.log(192 * mpmath.sqrt(mpmath.mpf(8) / 5) * 2)
    assert _close(_ev(out, "α = (2): R =").value, want)
    assert _ev(t2, "α = (1, 1): δ").value is None
