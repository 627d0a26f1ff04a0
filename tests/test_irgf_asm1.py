"""irgf.asm1 (Assumption 1, separability): exact witness W* or a verified Farkas certificate."""
from fractions import Fraction

from lemmas.irgf import asm1
from verify.claims import run_claim
from verify.data.dataset import Dataset
from verify.data.irgf import d_a1viol, d_diaginf
from verify.kit import irgf
from verify.numbers.precision import working_precision


def _ev(out, start):
    return next(e for e in out.evidence if e.quantity.startswith(start))


def test_defaults_hold_certified():
    v = run_claim(asm1.CLAIM, asm1.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_diaginf_witness_is_the_closed_form():
    # constraints ⟨A1, W⟩ ≥ 1, ⟨A2, W⟩ ≥ 1 with A1 = (1,0,1)(1,0,0)ᵀ, A2 = (−1,0,1)(1,1,0)ᵀ orthogonal (⟨A1, A2⟩ = 0),
    # ‖A1‖² = 2, ‖A2‖² = 4: the least-norm W* = A1/2 + A2/4, ‖W*‖_F² = 3/4 — a full W separates, no diagonal one does
    a1 = [[Fraction(x * y) for y in (1, 0, 0)] for x in (1, 0, 1)]
    a2 = [[Fraction(x * y) for y in (1, 1, 0)] for x in (-1, 0, 1)]
    want = [a1[r][c] / 2 + a2[r][c] / 4 for r in range(3) for c in range(3)]
    res = irgf.w_svm(d_diaginf())
    assert [Fraction(x) for x in res.solution] == want
    with working_precision(20) as prec:
        out = asm1.evaluate(d_diaginf(), prec)
    assert out.decide() == "HOLDS"
    assert _ev(out, "min_il margin").value == 1
    assert _ev(out, "a diagonal W separates").value is False  # shown, not deciding


def test_opposite_labels_violated_with_farkas():
    with working_precision(20) as prec:
        out = asm1.evaluate(d_a1viol(), prec)
    assert out.decide() == "VIOLATED"
    item = _ev(out, "a separating W* exists")
    assert item.decide() is False and "(1,2), (2,1)" in item.note
    assert _ev(out, "Farkas certificate: ‖").value == 0 and _ev(out, "Farkas certificate: Σ").value == 1  # λ = (½, ½)
    assert irgf.assumption1(d_a1viol())[0] is False  # the shared predicate agrees


def test_tied_optimal_token_violated():
    tied = Dataset.make(X=[[[1, 0, 1], [0, 1, 1]]], Y=[1], v=[0, 0, 1], z=[[1, 1, 0]], name="tied")
    with working_precision(20) as prec:
        out = asm1.evaluate(tied, prec)
    assert out.decide() == "VIOLATED"
    item = _ev(out, "sequences whose optimal token is tied")
    assert item.value == 1 and "sequence 1" in item.note
