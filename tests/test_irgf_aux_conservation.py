"""irgf.aux.conservation: ξ_k² − ξ_q², w₊ ⊙ w₋, KᵀK − QᵀQ conserved; the sums are not; (5)'s consequence needs (5)."""
from flint import arb

from lemmas.irgf import aux_conservation
from verify.claims import run_claim
from verify.data.irgf import d_face, d_seed0
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import to_arb, working_precision

SHORT = ("1/2", "1")


def test_defaults_hold():
    v = run_claim(aux_conservation.CLAIM, aux_conservation.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"
    assert v.datasets[0].range.startswith("t ≤ 4; init (5) with ω₀ = (7/10, 13/10, 2/5, 1)")
    rates = [e for e in v.evidence if e.quantity.split(": ", 1)[1].startswith("|d/dt")]
    assert len(rates) == 6 and all(e.certified for e in rates)  # the field's derivative: certified at every state


def test_sums_are_not_conserved():
    """d/dt(ξ_k² + ξ_q²) = −4∇_βℒ ⊙ ξ_k ⊙ ξ_q ≠ 0 wherever ∇_βℒ ⊙ β ≠ 0."""
    with working_precision(20) as prec:
        out = aux_conservation.evaluate(d_seed0(), prec, candidate="sum", times=SHORT)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    assert all(e.decide() is False for e in out.evidence[:3])
    # independently: at ξ_k = ξ_q = (1/2, 1/2, 1/2) on D-FACE, β = (1/4, 1/4, 1/4), the derivative is −4g·(1/4) ≠ 0
    with working_precision(20):
        g = LinearLogitModel.from_dataset(d_face(), "diag", "exponential").grad([to_arb("1/4")] * 3)
    assert abs(g[0]) > arb("0.01")


def test_start_violating_5():
    start = ([1, 0, 1, 0], [1, 1, 0, 1])  # ξ_k,1 ξ_q,1 = 1: β₁(0) ≠ 0
    with working_precision(20) as prec:
        out = aux_conservation.evaluate(d_seed0(), prec, start=start, times=SHORT)
    assert out.decide() == "NOT_APPLICABLE" and "init (5)" in out.hypotheses[0].name
    with working_precision(20) as prec:
        out = aux_conservation.evaluate(d_seed0(), prec, start=start, times=SHORT, check_hypotheses=False)
    assert out.decide() == "VIOLATED"
    failed = [e.quantity for e in out.evidence if e.decide() is False]
    assert len(failed) == 1 and "2√(β² + ω₀⁴)" in failed[0]  # the conservation laws themselves hold from any start
    # at t = 0 already: ξ₁² + ξ₁² = 2 while 2√(β₁² + ω₀,₁⁴) = 2√(1 + 1) (ω₀,₁² = (1 + 1)/2)
