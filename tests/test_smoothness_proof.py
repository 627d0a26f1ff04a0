"""verify.kit.smoothness_proof: mmts Lemma 6's Hessian bound on every p, through the simplex.

The reduction ‖∇²L(p)‖₂ ≤ (1/n)Σ_i (M₀‖a_i‖² + M₁‖B_i‖_F) is checked against the engine's closed-form Hessian at
points up to saturation; a_i and B_i against their defining forms K_iᵀ(s ⊙ (γ − u𝟙)) and Σ_t w_t k_t k_tᵀ − a mᵀ − m aᵀ
computed here with exact Fractions; the exact bounds against a hand computation on T = 2 (where the one for a is
attained); the region fallback on a dataset where the exact bound is too crude (its certificate re-checked, and
rejected when tampered with), and a bound below the true supremum is not proven.
"""
import random
from fractions import Fraction

from flint import arb

from lemmas.mmts import lemma6
from verify.claims import Outcome, run_claim
from verify.data.dataset import Dataset
from verify.geometry.smoothness import hessian_norm, smoothness_constant
from verify.kit.smoothness_proof import (
    exact_bounds,
    factor_bounds,
    gradient_of_score,
    hessian_bound_everywhere,
    hessian_of_score_bound,
    input_margin,
)
from verify.models.attention import LinearLogitModel, features
from verify.numbers.intervals import ARB
from verify.numbers.precision import to_arb, working_precision
from verify.numbers.regions import recheck


def _exact_terms(keys, scores, s):
    """a = Kᵀ(s ⊙ (γ − u)), B = Σ_t w_t k_t k_tᵀ − a mᵀ − m aᵀ, by Fractions (the defining forms)."""
    T, d = len(keys), len(keys[0])
    u = sum(st * g for st, g in zip(s, scores))
    w = [st * (g - u) for st, g in zip(s, scores)]
    a = [sum(w[t] * keys[t][j] for t in range(T)) for j in range(d)]
    m = [sum(s[t] * keys[t][j] for t in range(T)) for j in range(d)]
    B = [[sum(w[t] * keys[t][j] * keys[t][k] for t in range(T)) - a[j] * m[k] - m[j] * a[k] for k in range(d)]
         for j in range(d)]
    return a, B


def _random_simplex_point(T, rng):
    raw = [Fraction(rng.randint(1, 50)) for _ in range(T)]
    return [x / sum(raw) for x in raw]


def test_the_score_gradient_and_hessian_bound_match_their_defining_forms():
    rng = random.Random(3)
    keys = [[Fraction(rng.randint(-9, 9), 4) for _ in range(3)] for _ in range(4)]
    scores = [Fraction(rng.randint(-4, 4), 3) for _ in range(4)]
    with working_precision(40):
        for _ in range(5):
            s = _random_simplex_point(4, rng)
            a_exact, B_exact = _exact_terms(keys, scores, s)
            a = gradient_of_score(keys, scores, [to_arb(x) for x in s], ARB)
            assert all(abs(x - to_arb(y)) < arb(10) ** -30 for x, y in zip(a, a_exact))
            frob = to_arb(sum(h * h for row in B_exact for h in row)).sqrt()
            assert hessian_of_score_bound(keys, scores, [to_arb(x) for x in s], ARB) >= frob


def test_the_reduction_bounds_the_engines_hessian_up_to_saturation():
    """‖∇²L(p)‖₂ ≤ (1/n)Σ_i (M₀‖a_i‖² + M₁·bound_i) at s_i = S(K_i p), p at scales 1/10 … 100 (saturated)."""
    rng = random.Random(5)
    for data in (lemma6.lemma6_tight(), lemma6.scaled_key_dataset(0), lemma6.default_datasets()[-1]):
        for loss in ("logistic", "exponential", "correlation"):
            with working_precision(40):
                c = smoothness_constant(data, loss)
                model = LinearLogitModel.from_dataset(data, "p", loss)
                feats = features(data, "p")
                for scale in ("1/10", "1", "10", "100"):
                    p = [to_arb(Fraction(rng.randint(-10, 10), 10) * Fraction(scale)) for _ in range(len(feats[0][0]))]
                    states = model.states(p)
                    total = arb(0)
                    for i, st in enumerate(states):
                        s = list(st.s)
                        a = gradient_of_score(feats[i], data.scores[i], s, ARB)
                        total += c.M0 * sum(x * x for x in a) + c.M1 * hessian_of_score_bound(feats[i], data.scores[i],
                                                                                             s, ARB)
                    bound = total / data.n
                    assert hessian_norm(model.hessian(p, states)).upper() <= bound.upper() * (1 + arb(10) ** -20)
                    assert bound <= c.value


def test_exact_bounds_by_hand_on_two_tokens():
    """Keys 1/2, −1/2, scores 1, 0: a = s₁s₂·1·1, so sup ‖a‖² = 1/16 (s = 1/2) = A; H = Δγ·diam² = 1."""
    A, H = exact_bounds([[Fraction(1, 2)], [Fraction(-1, 2)]], [1, 0])
    assert (A, H) == (Fraction(1, 16), Fraction(1))
    a = gradient_of_score([[Fraction(1, 2)], [Fraction(-1, 2)]], [1, 0], [to_arb(Fraction(1, 2))] * 2, ARB)
    assert a[0] ** 2 == to_arb(A)


def _segment(x_power=5):
    """X = [(1/2), (−1/2)], v = 1: γ = (1/2, −1/2), keys = X. Σ_t s_t|γ_t − u|‖k_t − m‖² = s₁s₂(s₁² + s₂²) ≤ 1/8
    (at s = 1/2), the exact bound H = 1; with ‖X‖ = 1/√2, β = 3‖X‖^(x_power − 1): 3/4 for x_power = 5 (between the
    two: only the region search proves it), 3/32 for x_power = 11 (below the supremum: false)."""
    return Dataset.make(X=[[["1/2"], ["-1/2"]]], Y=[1], v=[1], name="segment")


def test_the_region_fallback_proves_what_the_exact_bound_cannot_and_its_certificate_rechecks():
    data = _segment()
    with working_precision(30):
        alpha, beta = factor_bounds(data, x_power=5)[0]
        assert Fraction(1, 8) < beta < 1 and Fraction(1, 16) < alpha
        out = Outcome()
        item = hessian_bound_everywhere(out, data, claim="mmts.lemma6", name="hessian-simplex", dps=30, x_power=5)
    assert item.decide() is True and item.level == "proven" and item.proof.boxes > 0
    assert "1 by exact bounds, 1 by region certificates" in item.note
    (cert,) = out.certificates
    params = cert["margin"]["params"]
    assert params["part"] == "hessian" and recheck(cert, input_margin(Dataset.from_dict(params["dataset"]), params)).ok
    wider = dict(cert, region=dict(cert["region"], upper=["2"]))
    assert not recheck(wider, input_margin(Dataset.from_dict(params["dataset"]), params)).ok


def test_a_bound_below_the_supremum_is_not_proven():
    with working_precision(30):
        out = Outcome()
        item = hessian_bound_everywhere(out, _segment(), claim="mmts.lemma6", name="hessian-simplex", dps=30,
                                        x_power=11)
    assert item.decide() is None and "not proven on the simplex: input 1" in item.note and not out.certificates


def test_lemma6_is_proven_on_every_p_and_the_probes_corroborate():
    v = run_claim(lemma6.CLAIM, [lemma6.lemma6_tight()], dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "proven", (v.verdict, v.certainty, v.reasons)
    assert "every p ∈ ℝ^d" in v.range
