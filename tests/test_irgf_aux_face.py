"""irgf.aux.face: on D-FACE the flow's point is ω₀²-weighted (closed form); the spec's entropy heuristic holds on
D-FACE / D-FACE2 and fails on D-FACE3 (a constraint touching the face at a vertex keeps its early dual mass)."""
import math
from fractions import Fraction

from lemmas.irgf import aux_face
from verify.claims import run_claim
from verify.data.irgf import d_face, d_face2, d_face3, d_trap
from verify.kit import irgf
from verify.numbers.precision import working_precision


def _ev(out, start):
    return next(e for e in out.evidence if e.quantity.startswith(start))


def test_predicted_points_from_the_closed_form():
    # on D-FACE (B = (1,1,0)) and D-FACE2 (B = (1,−1,1/2,0)) Φ's minimiser on F is ω₀,j²/(ω₀,1² + ω₀,2²) with sign g_j
    q = irgf.face_selection(irgf.l1_svm(d_face()), [1, 9, 1])
    assert max(abs(a - b) for a, b in zip(q, (0.1, 0.9, 0))) < 1e-9
    w2 = [Fraction(w) ** 2 for w in irgf.OMEGA_A1]
    q = irgf.face_selection(irgf.l1_svm(d_face2()), w2)
    want = (49 / 218, -169 / 218, 0, 0)
    assert max(abs(a - b) for a, b in zip(q, want)) < 1e-9


def test_holds_on_d_face_and_d_face2():
    with working_precision(20) as prec:
        out = aux_face.evaluate(d_face(), prec, omega0=["1", "3", "1"])
        assert out.decide() == "HOLDS"
        assert _ev(out, "max_j |β̂_j(t) − q_j|").value < 1e-7  # β̂(t) = (1/10, 9/10, 0) exactly for every t > 0
        out = aux_face.evaluate(d_face2(), prec, omega0=list(irgf.OMEGA_A1))
        assert out.decide() == "HOLDS"
        assert "fitted exponent 0.49" in _ev(out, "max_j |β̂_j(t) − q_j|").note  # β₃/µ ~ µ^{−1/2}: κ = 1/2


def test_wrong_predictions_plateau():
    with working_precision(20) as prec:
        for predict, stays in (("vertex", 0.9), ("uniform", 0.4)):  # |(1,0,0) − (0.1,0.9,0)|, |(.5,.5,0) − (.1,.9,0)|
            out = aux_face.evaluate(d_face(), prec, omega0=["1", "3", "1"], predict=predict)
            assert out.decide() == "VIOLATED"
            item = _ev(out, "max_j |β̂_j(t) − q_j|")
            assert item.decide() is False and abs(float(item.value.mid()) - stays) < 1e-9


def test_heuristic_fails_on_d_face3():
    with working_precision(20) as prec:
        out = aux_face.evaluate(d_face3(), prec)
        traj, recs = irgf.flow(d_face3(), None, irgf.DEFAULT_TARGET)
    assert out.decide() == "VIOLATED"
    item = _ev(out, "max_j |β̂_j(t) − q_j|")
    assert item.decide() is False and "a plateau" in item.note
    assert any("replay:" in n for n in out.notes)
    # Lemma A.1: β₂/β₁ = sinh(φ₁ + 2φ₂)/sinh(φ₁ + φ₂) → e^{φ₂} (ω₀ = 𝟙), the flow is on F (β₃ = 0, µ = β₁ + β₂),
    # and the selected point is (1, e^{φ₂})/(1 + e^{φ₂}), not q = (1/2, 1/2, 0)
    r, p = recs[-1]
    phi2 = float(r.phi[1].mid())
    assert phi2 > 0.1
    b1 = float((p.beta[0] / p.mu).mid())
    assert abs(b1 - 1 / (1 + math.exp(phi2))) < 1e-6
    assert abs(float(item.value.mid()) - abs(b1 - 0.5)) < 1e-6
    assert float(_ev(out, "dist(β/‖β‖₁, F/p*)").value.mid()) < 1e-9  # Theorem 4.1 itself holds: on F


def test_defaults_and_not_applicable():
    v = run_claim(aux_face.CLAIM, aux_face.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "VIOLATED" and v.certainty == "evidence"
    assert {d.name: d.verdict for d in v.datasets} == {"D-FACE-w131": "HOLDS", "D-FACE2": "HOLDS", "D-FACE3": "VIOLATED"}
    with working_precision(20) as prec:
        out = aux_face.evaluate(d_trap(), prec)
    assert out.decide() == "NOT_APPLICABLE"
    assert any(h.name.startswith(irgf.NAMES[irgf.A3]) and h.met is False for h in out.hypotheses)
