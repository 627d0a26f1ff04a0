"""irgf.thmA2: on the irgf sequence the approximate-KKT residuals vanish and the limit is a certified KKT point
(HOLDS); a wrong limit VIOLATED (certified); a sequence whose residuals stall, and D-DIAGINF, NOT_APPLICABLE."""
from fractions import Fraction as F

from lemmas.irgf import thmA2
from verify.data.irgf import d_diaginf, d_face, d_seed0
from verify.numbers.precision import working_precision

# spec §6 (D-SEED0): λ* and Bλ* = (−1, −0.361043695308, −1, −1) (rows (1,2), (1,3), (2,2), (2,3), (3,2), (3,3))
LAMBDA_SPEC = ("0.318563051899", "0", "0.791747966988", "0", "0.485016738948", "0")


def _exact_items(out):
    return [e for e in out.evidence if e.decided_by() == "exact"]


def test_holds_on_seed0_with_the_spec_kkt_point():
    data = d_seed0()
    with working_precision(20) as prec:
        out = thmA2.evaluate(data, prec)
    assert out.decide() == "HOLDS" and out.decision().certainty == "evidence"
    exact = _exact_items(out)
    assert len(exact) == 6 and all(e.decide() is True for e in exact)  # the limit's KKT conditions, certified
    assert any("MFCQ" in h.name and h.met for h in out.hypotheses)
    premises = [h for h in out.hypotheses if h.name.startswith("Thm A.2")]
    assert len(premises) == 5 and all(h.met for h in premises)
    res = thmA2.irgf.l1_svm(data)
    assert abs(sum(abs(x) for x in res.solution) - F("1.59532775783559631")) < F(1, 10 ** 15)
    # Bλ* from the spec's λ* and B computed here: the stationarity the exact item certified
    rows = [[z * (a - b) for z, a, b in zip(data.queries()[i], data.X[i][0], data.X[i][t])]
            for i in range(3) for t in (1, 2)]
    g = [sum(F(lam) * r[j] for lam, r in zip(LAMBDA_SPEC, rows)) for j in range(4)]
    for x, ref in zip(g, ("-1", "-0.361043695308", "-1", "-1")):
        assert abs(x - F(ref)) < F(1, 10 ** 9)
    for x, ref in zip(res.duals, LAMBDA_SPEC):
        assert abs(x - F(ref)) < F(1, 10 ** 11)


def test_face_limit_is_the_closed_form_point():
    """D-FACE, ω₀ = 𝟙: β(t) = sinh(φ)(1, 1, 0), so β̂(t) = (1/2, 1/2, 0) for every t (spec irgf.aux.face)."""
    with working_precision(20) as prec:
        out = thmA2.evaluate(d_face(), prec)
    assert out.decide() == "HOLDS"
    on = next(e for e in out.evidence if e.quantity.startswith("β̂(t_k) = β_∞"))
    assert "(1/2, 1/2, 0)" in on.note


def test_a_wrong_limit_is_violated_certified():
    """β* + (0, 1/10, 0, 0): coordinate 2 leaves 0 while (Bλ*)₂ = −0.361 ≠ sign(1/10): stationarity fails exactly."""
    with working_precision(20) as prec:
        out = thmA2.evaluate(d_seed0(), prec, limit_shift=[0, F(1, 10), 0, 0])
    assert out.decide() == "VIOLATED" and out.decision().certainty == "certified"
    stat = next(e for e in out.evidence if e.quantity.startswith("stationarity on supp"))
    assert stat.decide() is False and abs(stat.value - (1 + F("0.361043695308"))) < F(1, 10 ** 9)


def test_stalled_residuals_and_diaginf_are_not_applicable():
    """ω₀,3 = 0 on D-SEED0 (setting's hypotheses bypassed): β₃ ≡ 0, so coordinate 3 of the support never balances and
    the stationarity residual stalls: the sequence is not approximately KKT, Thm A.2 does not apply."""
    with working_precision(20) as prec:
        out = thmA2.evaluate(d_seed0(), prec, omega0=[1, 1, 0, 1], target="6", check_hypotheses=False)
    assert out.decide() == "NOT_APPLICABLE"
    assert any(h.name.startswith("Thm A.2") and h.met is False for h in out.hypotheses)
    with working_precision(20) as prec:
        out = thmA2.evaluate(d_diaginf(), prec)
    assert out.decide() == "NOT_APPLICABLE"
    unmet = [h.name for h in out.hypotheses if not h.met]
    assert len(unmet) == 1 and "irgf.hyp.diagsep" in unmet[0]
