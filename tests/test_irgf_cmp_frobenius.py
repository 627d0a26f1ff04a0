"""irgf.cmp.frobenius: the (K, Q), diagonal-W and full-W flows reach the ℓ1, diagonal ℓ2 and Frobenius SVMs (HOLDS
on D-SEED0); a wrong pairing VIOLATED; hypotheses NOT_APPLICABLE; the static relations against closed forms."""
from fractions import Fraction as F

from lemmas.irgf import cmp_frobenius as C
from verify.data.irgf import d_a2viol, d_a4, d_diaginf, d_face, d_seed0
from verify.kit import irgf
from verify.numbers.precision import working_precision


def _sets(data):
    return C.solution_sets(data, {"svm": irgf.l1_svm(data)})


def test_holds_on_seed0_and_a_wrong_pairing_is_violated():
    with working_precision(20) as prec:
        out = C.evaluate(d_seed0(), prec)
    assert out.decide() == "HOLDS" and out.decision().certainty == "evidence"
    paired = [e for e in out.evidence if "→ 0 like µ^(−a)" in e.quantity]
    apart = [e for e in out.evidence if "stays away from 0" in e.quantity]
    assert len(paired) == 3 and all(e.decide() is True and not e.enclosed for e in paired)
    assert len(apart) == 6 and all(e.decide() is True for e in apart)  # all three sets pairwise disjoint
    kq = next(e for e in out.evidence if e.quantity.startswith("diagonal (K, Q)") and "fitted exponent" in e.quantity)
    assert 0.45 < float(kq.value.mid()) < 0.85  # spec: κ = 0.639
    # the wrong pairing: the (K, Q) flow held against the Frobenius solution, from which it stays away
    with working_precision(20) as prec:
        bad = C.evaluate(d_seed0(), prec, pairing={"KQ": "fro"})
    assert bad.decide() == "VIOLATED"
    wrong = next(e for e in bad.evidence if e.quantity.startswith("diagonal (K, Q)") and "Frobenius WF-SVM‖ → 0"
                 in e.quantity)
    assert wrong.decide() is False and "plateau" in wrong.note


def test_static_part_on_seed0_against_the_spec():
    """Spec §6 / §4.2: β_ℓ2 = (−0.21946, −0.40706, −1.13867, −0.09023), ‖β_ℓ2‖₁ = 1.855 > p* = 1.5953277578…"""
    data = d_seed0()
    res, mats = _sets(data)
    rows = [[z * (a - b) for z, a, b in zip(data.queries()[i], data.X[i][0], data.X[i][t])]
            for i in range(3) for t in (1, 2)]  # B_il computed here, opt = token 0 in every sequence
    b2 = [mats["l2"][j][j] for j in range(4)]
    assert min(sum((r * x for r, x in zip(row, b2)), F(0)) for row in rows) == 1  # margin exactly 1 (exact)
    for x, ref in zip(b2, ("-0.21946", "-0.40706", "-1.13867", "-0.09023")):
        assert abs(x - F(ref)) < F(1, 10 ** 5)
    assert abs(sum(abs(x) for x in b2) - F("1.855")) < F(1, 1000)
    assert abs(res["l1"].objective - F("1.59532775783559631")) < F(1, 10 ** 15)
    assert [C.relation(a, b, res, mats)[0] for a, b in (("l1", "l2"), ("l1", "fro"), ("l2", "fro"))] == \
        ["disjoint"] * 3


def test_static_relations_on_closed_forms():
    """D-A4: the three SVMs are Diag(2/5, 1, 0) (spec: W° = Diag(0.4, 1.0, 0), B rows (5/2,0,0) and (0,1,0));
    D-FACE: β_ℓ2 = (1/2, 1/2, 0) lies on the ℓ1 face, W_F = a bᵀ/(‖a‖²‖b‖²) = (1,1,1)(1,1,0)ᵀ/6 is not diagonal."""
    res, mats = _sets(d_a4())
    want = [[F(2, 5), 0, 0], [0, F(1), 0], [0, 0, 0]]
    assert mats["l1"] == want and mats["l2"] == want and mats["fro"] == want
    assert all(C.relation(a, b, res, mats)[0] == "equal" for a, b in (("l1", "l2"), ("l1", "fro"), ("l2", "fro")))
    res, mats = _sets(d_face())
    assert [mats["l2"][j][j] for j in range(3)] == [F(1, 2), F(1, 2), 0]
    assert mats["fro"] == [[F(1, 6), F(1, 6), 0]] * 3
    assert C.relation("l1", "l2", res, mats)[0] == "intersect"
    assert C.relation("l1", "fro", res, mats)[0] == "disjoint"
    assert C.relation("l2", "fro", res, mats)[0] == "disjoint"


def test_hypotheses_not_applicable():
    with working_precision(20) as prec:
        out = C.evaluate(d_a2viol(), prec)
    assert out.decide() == "NOT_APPLICABLE" and any("irgf.asm2" in h.name and not h.met for h in out.hypotheses)
    with working_precision(20) as prec:
        out = C.evaluate(d_diaginf(), prec)
    assert out.decide() == "NOT_APPLICABLE"
    unmet = [h.name for h in out.hypotheses if not h.met]
    assert len(unmet) == 1 and "irgf.hyp.diagsep" in unmet[0]


def test_bad_pairing_is_a_usage_error():
    import pytest

    from verify.errors import UsageError
    with pytest.raises(UsageError):
        C.parse_pairing({"KQ": "nuclear"})


def test_face_sets_intersect_and_two_limits_coincide():
    """D-FACE (B = (1, 1, 0)): the ℓ2 point (1/2, 1/2, 0) lies on the ℓ1 face, so no separation is predicted — and with
    ω₀ = 𝟙 the (K, Q) flow (β(t) = sinh(φ)(1, 1, 0), Lemma A.1) and the direct β flow (β̇ ∝ B) have the same limit,
    (1/2, 1/2, 0), although the two solution *sets* differ: "differ" must be read as "disjoint"."""
    with working_precision(20) as prec:
        out = C.evaluate(d_face(), prec)
    assert out.decide() == "HOLDS"
    assert sum("intersect: no separation predicted" in n for n in out.notes) == 2
    apart = [e for e in out.evidence if "stays away from 0" in e.quantity]
    assert len(apart) == 4 and all("Frobenius" in e.quantity or e.quantity.startswith("full W") for e in apart)
    for f in ("diagonal (K, Q)", "diagonal W = Diag(β)"):
        paired = next(e for e in out.evidence if e.quantity.startswith(f) and "→ 0 like" in e.quantity)
        assert paired.decide() is True and "zero to the working precision" in paired.note
