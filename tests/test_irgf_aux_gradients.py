"""irgf.aux.gradients: the printed gradient formulas agree with sympy.diff of the definition; wrong variants and
Assumption 2 failing are caught."""
import math

from flint import arb

from lemmas.irgf import aux_gradients
from verify.claims import run_claim
from verify.data.irgf import d_a2viol, d_seed0
from verify.numbers.precision import working_precision


def test_defaults_hold_certified():
    v = run_claim(aux_gradients.CLAIM, aux_gradients.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "certified"
    assert all(e.coverage.holds == e.coverage.points > 0 for e in v.evidence if e.coverage is not None)
    assert v.datasets[0].range.endswith("c ∈ {0, 1/2, 1, 3, 10}, d_e = 2")


def test_sequence_terms_closed_form():
    """Logits (0, 0), scores (1, 0): σ = (1/2, 1/2), σᵀγ = 1/2, ℓ = e^{−1/2}, Σγ = (1/4, −1/4) = −σ_2σ_1(1 − 0)·(−1, 1)."""
    with working_precision(30):
        s, phi, ell, mat, f22 = aux_gradients.sequence_terms([arb(0), arb(0)], [1, 0])
    assert [float(x.mid()) for x in s] == [0.5, 0.5] and float(phi.mid()) == 0.5
    assert abs(float(ell.mid()) - math.exp(-0.5)) < 1e-16
    assert [float(x.mid()) for x in mat] == [0.25, -0.25] == [float(x.mid()) for x in f22]


def test_wrong_variants_are_violated():
    for variant in ("sign", "factor"):
        with working_precision(20) as prec:
            out = aux_gradients.evaluate(d_seed0(), prec, variant=variant)
        d = out.decision()
        assert d.verdict == "VIOLATED" and d.certainty == "certified"
        bad = [e for e in out.evidence if e.decide() is False]
        assert len(bad) == 1 and bad[0].quantity.startswith("‖∇_βℒ") and variant in bad[0].quantity


def test_assumption2_fails():
    with working_precision(20) as prec:
        out = aux_gradients.evaluate(d_a2viol(), prec)
    assert out.decide() == "NOT_APPLICABLE" and "Assumption 2" in out.hypotheses[0].name
    # bypassed: scores (1, 0.9, 0); at β = 0 (uniform) σᵀγ = 19/30 < 0.9, so the middle token's (Σγ)_l > 0
    with working_precision(20) as prec:
        out = aux_gradients.evaluate(d_a2viol(), prec, check_hypotheses=False)
    assert out.decide() == "VIOLATED"
    sign = next(e for e in out.evidence if e.quantity.startswith("(29) sign"))
    assert sign.decide() is False and sign.coverage.first_violation.startswith("β probe 0 ")
    # the identities that do not use Assumption 2 still hold
    for key in ("‖∇_βℒ", "‖(∇_{ξ_k}", "‖diag G", "‖(Diag σ", "|(Σγ)_opt", "‖(∇_K"):
        assert next(e for e in out.evidence if e.quantity.startswith(key)).decide() is True
