"""tfsvm.aux.no-spurious-lmm: the defaults hold (certified); D-T2 without (ii)'s n = 1 is VIOLATED with the spec's
spurious LMM α = (1,1) (1-indexed; corr² = 1/10 from the spec's W^mm_α, W^mm); with the hypothesis it is
NOT_APPLICABLE naming n = 1; D-LMM (n = 1, no B.2) without B.2 is VIOLATED at α = B."""
from fractions import Fraction

from lemmas.tfsvm import aux_no_spurious as M
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.numbers.precision import working_precision


def _run(data, **kw):
    with working_precision(30) as prec:
        return M.evaluate(data, prec, **kw)


def test_defaults_hold_certified():
    v = run_claim(M.CLAIM, M.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_DT2_without_n1_is_violated_at_the_spec_lmm():
    out = _run(D.d_t2(), part="ii", require_n1=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    failed = [e for e in out.evidence if e.decide() is False]
    assert len(failed) == 1 and "α = (0, 0)" in failed[0].note and "𝒯_i = ∅ for i = [1]" in failed[0].note
    # spec: W^mm_α = [[1/2, 0], [1/2, 0]], W^mm = [[1/2, −3/2], [1/2, −3/2]]: ⟨·,·⟩ = 1/2, norms² 1/2 and 5
    corr2 = [e.value for e in out.evidence if "corr" in e.quantity]
    assert corr2 == [Fraction(1, 2) ** 2 / (Fraction(1, 2) * 5)] == [Fraction(1, 10)]


def test_DT2_with_n1_is_not_applicable():
    d = _run(D.d_t2(), part="ii").decision()
    assert d.verdict == "NOT_APPLICABLE" and d.reasons == ["hypothesis not met: (ii) n = 1"]
    d = _run(D.d_t2()).decision()  # (i) fails too: α = (0,0) leaves token 1 of sequence 2 off the support
    assert d.verdict == "NOT_APPLICABLE" and "(ii) B.2 with n = 1" in d.reasons[0]


def test_DLMM_without_B2_is_violated():
    """D-LMM: γ = (1, 1/2, 0), n = 1; α = B (index 1) has support {C} only (spec: margins vs A, C = 1.4, 1.0)."""
    assert _run(D.d_lmm(), part="ii").decision().reasons == ["hypothesis not met: (ii) B.2: equal non-optimal scores"]
    out = _run(D.d_lmm(), part="ii", require_b2=False)
    assert out.decide() == "VIOLATED"
    assert "α = (1,)" in [e for e in out.evidence if e.decide() is False][0].note


def test_acute_pair_meets_part_i_by_construction():
    """Independent derivation: with z_i = e_i the problem splits per sequence, and for vertex α of a triangle with
    u = x_α − x_t, w = x_α − x_τ, both constraints are tight iff the min-norm point of {u·y = w·y = 1} has
    multipliers G⁻¹𝟙 ≥ 0, i.e. u·w ≤ min(|u|², |w|²); acute triangles satisfy it strictly."""
    data = D.acute_pair()
    for seq in data.X:
        for a in range(3):
            u, w = ([seq[a][k] - seq[t][k] for k in range(2)] for t in range(3) if t != a)
            uw, uu, ww = (sum(p * q for p, q in zip(x, y)) for x, y in ((u, w), (u, u), (w, w)))
            assert uw < min(uu, ww)
    out = _run(data, part="i")
    assert out.hypotheses[-1].met is True and out.decide() == "HOLDS"


def test_part_i_fails_on_the_obtuse_b2_dataset():
    """b2_obtuse: at α = (1), u = x₁ − x₀ = (−3,−1), w = x₁ − x₂ = (−4,0): u·w = 12 > |u|² = 10, so the
    multiplier condition fails and token 2 is not a support index; (ii) still applies (B.2, n = 1)."""
    assert _run(D.b2_obtuse(), part="i").decide() == "NOT_APPLICABLE"
    assert _run(D.b2_obtuse(), part="ii").decide() == "HOLDS"
