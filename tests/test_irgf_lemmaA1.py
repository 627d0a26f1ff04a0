"""irgf.lemmaA1: β(t) = ω₀²⊙sinh(Bφ(t)) along the integrated flow; a start violating (5) is caught."""
import math

from flint import arb

from lemmas.irgf import lemmaA1
from verify.claims import run_claim
from verify.data.irgf import d_face, d_seed0
from verify.dynamics.dual import primal_with_duals
from verify.numbers.precision import to_arb, working_precision

BROKEN = ([0, 0, 1, 0], [1, 1, 1, 1])  # ξ_k,3(0) = ξ_q,3(0) = 1: β₃(0) = 1, w₋,₃ ≡ 0


def test_defaults_hold():
    v = run_claim(lemmaA1.CLAIM, lemmaA1.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "evidence"  # the GBS truncation error is not enclosed
    assert v.datasets[0].range.startswith("t ≤ 8; init (5) with ω₀ = (7/10, 13/10, 2/5, 1)")
    field = [e for e in v.evidence if "dual engine's field" in e.quantity]
    assert len(field) == 2 and all(e.certified and e.coverage.holds == 11 for e in field)


def test_face_closed_form_at_first_order():
    """D-FACE (n = 1, L = 2, B = (1, 1, 0), scores (1, 0)): at t → 0 attention is uniform, so
    φ̇(0) = −(2/n)ℓ(Σγ)_2 = −2·e^{−1/2}·(1/2)(0 − 1/2) = e^{−1/2}/2; φ(t) ≈ t·e^{−1/2}/2 for small t."""
    with working_precision(30):
        (pt,), _, pairs = primal_with_duals(d_face(), [arb(2).sqrt()] * 3, [arb(0)] * 3, [arb("1e-8")],
                                            arb(10) ** -33)
    assert pairs == [(0, 1)]
    phi = pt[2][0]
    assert abs(float((phi / arb("1e-8")).mid()) - math.exp(-0.5) / 2) < 1e-7


def test_start_violating_5_is_not_applicable():
    with working_precision(20) as prec:
        out = lemmaA1.evaluate(d_seed0(), prec, start=BROKEN, times=("1/2", "1"))
    assert out.decide() == "NOT_APPLICABLE"
    assert "init (5)" in out.hypotheses[0].name and "β(0) ≠ 0" in out.hypotheses[0].detail


def test_start_violating_5_bypassed_breaks_sinh_not_general_form():
    with working_precision(20) as prec:
        out = lemmaA1.evaluate(d_seed0(), prec, start=BROKEN, times=("1/2", "1"), check_hypotheses=False)
    assert out.decide() == "VIOLATED" and out.decision().certainty == "evidence"
    sinh = next(e for e in out.evidence if "sinh(Bφ(t))" in e.quantity)
    assert sinh.decide() is False and sinh.value > 0.1  # β₃ stays near 1, not ω₀²sinh(·)
    # from that very start the general-init form (a e^{Bφ} − b e^{−Bφ})/2 holds (a = w₊(0)², b = w₋(0)²), with B
    # built here from the data: B_il = z_i ⊙ (x_i,opt − x_il)
    data = d_seed0()
    with working_precision(30):
        (pt,), _, pairs = primal_with_duals(data, [to_arb(x) for x in BROKEN[0]], [to_arb(x) for x in BROKEN[1]],
                                            [arb(1)], arb(10) ** -33)
        k, q, phi = pt
        for j in range(4):
            th = sum((to_arb(data.queries()[i][j] * (data.X[i][0][j] - data.X[i][l][j])) * f
                      for (i, l), f in zip(pairs, phi)), arb(0))
            a = to_arb((BROKEN[0][j] + BROKEN[1][j]) ** 2) / 2
            b = to_arb((BROKEN[0][j] - BROKEN[1][j]) ** 2) / 2
            assert abs(k[j] * q[j] - (a * th.exp() - b * (-th).exp()) / 2) < arb("1e-30")
