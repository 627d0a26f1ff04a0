"""tfsvm.lemma9 (W^mm a global descent direction): defaults HOLD certified; D-NB fails Assumption B
(NOT_APPLICABLE naming it) and, with B not required, is VIOLATED at W z = (0, −10) with the spec's +0.1325
(recomputed here by hand in mpmath); the B.1 exact form at W = 0 on D-T2 against a hand formula."""
import mpmath

from lemmas.tfsvm import lemma9
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.numbers.precision import working_precision


def _lp(u):  # logistic ℓ'(u) = −1/(1 + e^u)
    return -1 / (1 + mpmath.e ** u)


def test_defaults_hold_proven_on_every_w():
    """B.2 (D-T2, the seeded dataset) and B.1 (B1-only) both reduce to exact algebra (kit.descent_proof): proven."""
    v = run_claim(lemma9.CLAIM, lemma9.CLAIM.default_datasets(), dps=30)
    assert (v.verdict, v.certainty, v.range) == ("HOLDS", "proven", "every W ∈ ℝ^{d×d}")
    b1 = [e for e in v.evidence if e.quantity.startswith("tfsvm-B1-only: min_{i, t≠opt} (γ_i,opt")]
    assert len(b1) == 1 and b1[0].proves and b1[0].decide() is True


def test_dnb_fails_assumption_b():
    v = run_claim(lemma9.CLAIM, [D.d_nb()], dps=30)
    assert v.verdict == "NOT_APPLICABLE" and "Assumption B" in v.reasons[0]


def test_dnb_without_b_is_violated_at_the_spec_point():
    """D-NB: z = e₁, tokens (0,1), (−5,0), (−1,0), v = (−0.18, 1); W^mm z = (1/2, 1/2) (spec §6). At W z = (0, −10):
    logits (−10, 0, 0), γ = (1, 0.9, 0.18), X W^mm z = (1/2, −5/2, −1/2): ⟨∇L, W^mm⟩ = ℓ'(φ)Cov_s(γ, b) ≈ +0.13254."""
    mpmath.mp.dps = 40
    a, g, b = [-10, 0, 0], [1, mpmath.mpf("0.9"), mpmath.mpf("0.18")], [mpmath.mpf("0.5"), -2.5, -0.5]
    e = [mpmath.e ** x for x in a]
    s = [x / sum(e) for x in e]
    phi = sum(x * y for x, y in zip(s, g))
    cov = sum(x * y * z for x, y, z in zip(s, g, b)) - phi * sum(x * z for x, z in zip(s, b))
    expected = _lp(phi) * cov
    assert abs(expected - mpmath.mpf("0.13254")) < 1e-5
    with working_precision(30) as prec:
        out = lemma9.evaluate(D.d_nb(), prec, require_B=False)
        d = out.decision()
        assert d.verdict == "VIOLATED" and d.certainty == "certified"
        one = lemma9.evaluate(D.d_nb(), prec, require_B=False, points=[("W z = (0, -10)", (0, 0, -10, 0))])
    assert one.decide() == "VIOLATED"
    assert abs(mpmath.mpf(one.evidence[0].value.mid().str(30, radius=False)) - expected) < 1e-25


def test_b1_form_at_zero_on_dt2():
    """D-T2 at W = 0: s = (1/2, 1/2); φ = (1/2, −1); opt = (1, 2); δ = (1/2, 1) (δ_i = Σ s_t(γ_opt − γ_t));
    B.1 form: ⟨∇L(0), W^mm⟩ = ½[ℓ'(½)·½·½ + ℓ'(−1)·½·1]."""
    mpmath.mp.dps = 40
    expected = (_lp(mpmath.mpf(1) / 2) / 4 + _lp(-1) / 2) / 2
    with working_precision(30) as prec:
        out = lemma9.evaluate(D.d_t2(), prec, points=[("0", (0, 0, 0, 0))])
    assert out.decide() == "HOLDS"
    got = mpmath.mpf(out.evidence[0].value.mid().str(30, radius=False))
    assert abs(got - expected) < 1e-25


def test_no_uniform_constant():
    with working_precision(30) as prec:
        out = lemma9.evaluate(D.d_t2(), prec, points=[("0", (0, 0, 0, 0))])
    vals = [e.value for e in out.evidence if e.quantity.startswith("⟨∇L(R·W^mm)")]
    assert len(vals) == 4 and all(v < 0 for v in vals)
    assert all(abs(b) < abs(a) for a, b in zip(vals, vals[1:]))
    assert abs(vals[-1]) < 1e-100
