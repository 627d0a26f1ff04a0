"""irgf.lemma51: alignment preserved along the full (K, Q) flow; a misaligned start and a broken Assumption 4(iii)
are caught (VIOLATED with the check bypassed, NOT_APPLICABLE naming the hypothesis with it)."""
from fractions import Fraction

from lemmas.irgf import lemma51
from verify.claims import run_claim
from verify.data.irgf import d_a4, d_a4_shift, rational_orthogonal
from verify.kit import irgf_kq as G
from verify.kit.irgf import assumption4
from verify.numbers.precision import working_precision


def test_holds_on_d_a4_to_the_working_precision():
    v = run_claim(lemma51.CLAIM, [d_a4()], dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"
    assert v.range.startswith("‖KQᵀ‖_* ≤ 100 (ln t ≤ 70.")  # spec: t ≤ 15 at 30 digits; here ln t ≈ 70
    masses = [e for e in v.evidence if e.quantity.startswith("‖offdiag")]
    assert len(masses) == 2 and all(not e.enclosed and e.coverage.violated == 0 and e.coverage.undecided == 0
                                    and e.coverage.points > 20 for e in masses)


def test_rational_cayley_is_exactly_orthogonal_and_start_aligned():
    V = rational_orthogonal(4, seed=7)
    for a in range(4):
        for b in range(4):
            assert sum(V[k][a] * V[k][b] for k in range(4)) == (1 if a == b else 0)
    _, _, info = assumption4(d_a4())
    B = G.bases(info)
    assert B.wk == [[1, 0, 0], [0, -1, 0], [0, 0, 1]] == B.wq  # spec: U_K = U_Q = Diag(1, −1, 1)
    V3 = rational_orthogonal(3)
    psi = G.aligned_start(B, V3, [Fraction(1, 2), 0, 0], [0, 2, 0])
    assert G.alignment(B, V3, psi).met is True
    psi[1] += Fraction(1, 10)
    assert G.alignment(B, V3, psi).met is False


def test_misaligned_start_violated_and_not_applicable():
    with working_precision(20) as prec:
        out = lemma51.evaluate(d_a4(), prec, target="10", misalign="1/10", check_hypotheses=False)
    assert out.decide() == "VIOLATED"
    mass = out.evidence[0]
    assert mass.decide() is False and mass.value > 0.01  # order 0.1·|V₁₁|…, not rounding
    # the mass at t = 0 is exactly 1/10·√(V₁₁² + V₁₂²)/‖ψ(0)‖ (row 1 of V, the entry (0,0) is diagonal); it grows after
    assert "t = 0" not in mass.coverage.worst_at
    with working_precision(20) as prec:
        out = lemma51.evaluate(d_a4(), prec, target="10", misalign="1/10")
    assert out.decide() == "NOT_APPLICABLE"
    assert all("irgf.def51" in h.name for h in out.hypotheses if not h.met) and any(not h.met for h in out.hypotheses)


def test_broken_assumption_4iii_violated_and_not_applicable():
    data = d_a4_shift()
    with working_precision(20) as prec:
        out = lemma51.evaluate(data, prec, target="10", check_hypotheses=False)
    assert out.decide() == "VIOLATED"
    assert out.evidence[0].value > 1e-6  # far above the rounding level 10^−20: the flow leaves the aligned set
    with working_precision(20) as prec:
        out = lemma51.evaluate(data, prec, target="10")
    assert out.decide() == "NOT_APPLICABLE"
    unmet = [h for h in out.hypotheses if not h.met]
    assert len(unmet) == 1 and "irgf.asm4" in unmet[0].name and "(iii)" in unmet[0].detail
