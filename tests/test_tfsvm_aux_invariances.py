"""tfsvm.aux.invariances: holds (certified); a non-invariant direction claimed invariant is VIOLATED; N = {0} is
NOT_APPLICABLE; the invariant subspace of D-T2 from a hand derivation."""
from fractions import Fraction

from lemmas.tfsvm import aux_invariances
from verify import Dataset
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.geometry.tfsvm import difference_rows, null_basis
from verify.numbers.precision import working_precision


def test_defaults_hold_certified():
    v = run_claim(aux_invariances.CLAIM, aux_invariances.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_non_invariant_direction_is_violated():
    data = D.d_t2()
    wrong = [difference_rows(data)[0]]  # (x_11 − x_12) ⊗ z_1 = (1,0,1,0): moves sequence 1's logits
    with working_precision(30) as prec:
        out = aux_invariances.evaluate(data, prec, invariant=wrong, gd_steps=5)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    failed = {e.quantity for e in out.evidence if e.decide() is False}
    assert any("annihilates" in q for q in failed) and any("(L − L⋆)(W + cV)" in q for q in failed)


def test_trivial_null_space_is_not_applicable():
    one = Dataset.make(X=[[[1], [-1]]], Y=[1], v=[1], z=[[1]], name="n1T2d1")  # one row (2), d² = 1
    with working_precision(30) as prec:
        out = aux_invariances.evaluate(one, prec)
    d = out.decision()
    assert d.verdict == "NOT_APPLICABLE" and "invariant direction" in d.reasons[0]


def test_DT2_invariant_subspace_by_hand():
    """D-T2: x_i1 ∝ (1,1), x_i2 = 0, so (x_i1 − x_i2)ᵀV z_i = 0 for every z_i iff (1,1)ᵀV = 0: the V whose two rows
    sum to zero, dimension 2; such V leaves every logit unchanged (exact)."""
    data = D.d_t2()
    basis = null_basis(difference_rows(data), 4)
    assert len(basis) == 2
    for v in basis:
        assert v[0] + v[2] == 0 and v[1] + v[3] == 0
    V = [[1, 0], [-1, 0]]
    for seq, z in zip(data.X, data.queries()):
        for x in seq:
            assert sum(x[a] * V[a][b] * z[b] for a in range(2) for b in range(2)) == Fraction(0)
