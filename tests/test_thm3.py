"""mmts.thm3 (local convergence) and mmts.thm3.cone (cone invariance): Fig. 1(b) numbers, false cases."""
import math
from fractions import Fraction

import numpy as np
from flint import arb

from lemmas.mmts import cone_invariance, thm3
from verify.claims import Outcome
from verify.data import mmts as D
from verify.geometry.cone_data import random_dataset_with_lmm
from verify.geometry.cones import boundary_scan, cone_directions, lmm_geometry, unit
from verify.kit.invariance import Setup, radius_evidence, try_radii
from verify.models.attention import LinearLogitModel, features
from verify.models.losses import Square
from verify.numbers.precision import working_precision

FIG1B = D.mmts_fig1b()


def _start(deg, r=20):
    a = math.radians(deg)
    return [Fraction(r * math.cos(a)), Fraction(r * math.sin(a)), 0]


def _witness(mu, radii):
    """Smallest radius of ``radii`` from which the inward component is positive on both boundary points."""
    g = lmm_geometry(FIG1B, (1,))
    model = LinearLogitModel(features(FIG1B, "p"), FIG1B.scores, "logistic")
    dirs = [unit(u) for u in cone_directions(g)[:2]]  # the two boundary points in the keys' plane
    scan = boundary_scan(model, g, Fraction(mu), [Fraction(r) for r in radii], dirs)
    w = None
    for rec in reversed(scan):
        if not rec["ok"]:
            break
        w = rec["r"]
    return w


def test_spec_table_8_4_witness_radii():
    # spec §8.4: μ = 0.002 works from r = 20, 0.004 from 50, 0.0049 from 400, μ ≥ 0.0051 never
    radii = (5, 10, 20, 50, 100, 200, 400, 1000, 10**6)
    with working_precision(30):
        assert _witness("0.002", radii) == 20
        assert _witness("0.004", radii) == 50
        assert _witness("0.0049", radii) == 400
        assert _witness("0.0051", radii) is None


def test_cone_invariance_holds_on_fig1b():
    with working_precision(30) as prec:
        out = cone_invariance.evaluate(FIG1B, prec, gd_steps=100, until_norm=200)
    assert out.decide() == "HOLDS"
    fo = next(e for e in out.evidence if e.quantity.startswith("first-order"))
    assert "witness R = 20" in fo.note


def test_cone_too_wide_is_violated():
    with working_precision(30) as prec:
        out = cone_invariance.evaluate(FIG1B, prec, mu=Fraction("0.0065"), gd_steps=50, until_norm=100)
    assert out.decide() == "VIOLATED"
    fo = next(e for e in out.evidence if e.quantity.startswith("first-order"))
    assert fo.decide() is False and "negative for every large r" in fo.note


def test_radius_below_witness_is_violated_and_gd_leaves_the_cone():
    # spec: μ = 0.002, R = 10 is below the witness 20; GD started on the boundary leaves the cone
    with working_precision(30) as prec:
        out = cone_invariance.evaluate(FIG1B, prec, mu=Fraction("0.002"), R=10, gd_steps=100, until_norm=100,
                                       forms=("strong",))
    assert out.decide() == "VIOLATED"
    gd = next(e for e in out.evidence if "GD η = 1/L_p" in e.quantity and "corr" in e.quantity)
    assert gd.decide() is False and "left the cone" in gd.note
    # the witness: the start, the step where it left, the R used; GD iterates are exact points: certified
    assert "first violation at strong u" in gd.note and "(p(0) = (9.98" in gd.note and "R = 10" in gd.note
    assert gd.certified and gd.coverage.violated > 0
    flow = next(e for e in out.evidence if "gradient flow" in e.quantity and "corr" in e.quantity)
    assert flow.decide() is False and not flow.certified  # integrator output: evidence
    assert out.decision().certainty == "certified"


def test_thm3_converges_to_the_lmm_with_rate_two():
    with working_precision(30) as prec:
        out = thm3.evaluate(FIG1B, prec, gd_steps=50, until_norm=300)
    assert out.decide() == "HOLDS"
    sel = next(e for e in out.evidence if e.quantity.startswith("selected tokens"))
    assert sel.value is True
    rate = next(e for e in out.evidence if e.quantity.startswith("fitted rate"))
    lo, hi = (float(x) for x in rate.value.split(" … "))
    assert 1.9 < lo <= hi < 2.1  # the derived 1 − corr ≈ C/‖p‖²
    conv = next(e for e in out.evidence if e.quantity.startswith("direction convergence"))
    assert conv.decide() is True and conv.decided_by().startswith("rule: decays")  # the other side: the GMM test


def test_thm3_wide_cone_start_goes_to_the_gmm():
    # spec false case: μ = 0.0065 > μ*, start at +6.5° (inside C_{0.0065, R}) → leaves, converges to the GMM
    with working_precision(30) as prec:
        out = thm3.evaluate(FIG1B, prec, mu=Fraction("0.0065"), R=19, starts=[_start(6.5)], gd_steps=20,
                            until_norm=300)
    assert all(h.met for h in out.hypotheses)
    assert out.decide() == "VIOLATED"
    sel = next(e for e in out.evidence if e.quantity.startswith("selected tokens"))
    assert sel.value is False and "[0]" in sel.note
    gmm = next(e for e in out.evidence if "GMM" in e.quantity)
    assert gmm.value < 1e-3 and "instead" in gmm.note
    # the exit named: the start, the checked point of the flow where it left, the R used (evidence: integrator)
    cone = next(e for e in out.evidence if e.quantity.startswith("gradient flow") and "corr" in e.quantity)
    assert cone.decide() is False and not cone.certified
    assert "left the cone" in cone.note and "start 0 (p(0) = (19.87" in cone.note and "checked point" in cone.note
    assert "R = 19" in cone.note
    conv = next(e for e in out.evidence if e.quantity.startswith("direction convergence"))
    assert conv.decide() is False and "plateau" in conv.note  # 1 − corr(p, p^mm(α)) stays ≈ 1.09


def test_thm3_start_outside_the_cone_is_not_applicable():
    with working_precision(30) as prec:
        out = thm3.evaluate(FIG1B, prec, starts=[_start(8, 25)], until_norm=100)
    assert out.decide() == "NOT_APPLICABLE"
    assert "p(0) ∈ C_(μ,R)" in [h for h in out.hypotheses if not h.met][0].name


def test_thm3_not_an_lmm_is_not_applicable():
    with working_precision(30) as prec:
        out = thm3.evaluate(D.mmts_fig1b_prime(), prec, alpha=(1,))
    assert out.decide() == "NOT_APPLICABLE"
    with working_precision(30) as prec:
        out = cone_invariance.evaluate(D.mmts_fig1b_prime(), prec, alpha=(1,))
    assert out.decide() == "NOT_APPLICABLE"


def test_thm3_step_budget_is_inconclusive():
    with working_precision(30) as prec:
        out = thm3.evaluate(FIG1B, prec, gd_steps=10, max_steps=20)
    assert out.decide() == "INCONCLUSIVE"
    assert any("budget" in n for n in out.notes)


# ----- computed hypotheses; the existential R refuted by its declared rule ---------------------------


def test_a_loss_without_assumption_a_is_not_applicable():
    data = random_dataset_with_lmm(n=2, T=3, d=2, seed=0)  # scores up to B = 25/2
    for claim in (thm3, cone_invariance):
        with working_precision(30) as prec:
            out = claim.evaluate(data, prec, loss=Square())
        assert out.decide() == "NOT_APPLICABLE"
        assert [h.name for h in out.hypotheses if h.met is False][0].startswith("Assumption A")


def test_step_size_is_one_over_lp_rounded_down_and_certified():
    # L_p = M₀‖v‖²‖W‖²‖X‖⁴ + 3M₁‖v‖‖W‖²‖X‖³ (6)/(24): logistic M₀ = 1/4, M₁ = 1; Fig. 1(b): ‖v‖ = ‖W‖ = 1
    X = np.array([[-0.1, 1, 1], [1, 0, 0.9], [0, 0, 0]])
    s = np.linalg.norm(X, 2)
    with working_precision(30) as prec:
        out = Outcome()
        S = Setup(FIG1B, prec, out)
        h = next(h for h in out.hypotheses if h.name.startswith("step size"))
        assert h.met is True
        assert abs(float(S.Lp.mid()) - (s**4 / 4 + 3 * s**3)) < 1e-9 * float(S.Lp.mid())
        assert S.eta * S.Lp <= 1 and S.eta * S.Lp > 1 - arb(2) ** -80  # ≤ 1/L_p, and only just


def test_paths_leaving_from_every_radius_tried_refute_the_existential_r():
    # the declared rule: exits from REFUTING_RADII consecutive ladder radii → VIOLATED (evidence over
    # "R ≤ largest tried"), the exits named; from fewer radii (the ladder ends) → undecided
    with working_precision(30) as prec:
        out = Outcome()
        S = Setup(FIG1B, prec, out)
        S.first_order_evidence(out)
        Rr, _, tried, decision = try_radii(S, lambda R: ("paths", f"strong u1 at step 1, R = {float(R):g}"), retry=True)
        assert [r for r, _ in tried] == [20, 50, 100, 200] and Rr == 200
        assert radius_evidence(S, out, tried, decision) is False
        d = out.decision()
        assert d.verdict == "VIOLATED" and d.certainty == "evidence" and out.range == "R ≤ 200·σ"
        item = next(e for e in out.evidence if e.quantity.startswith("trajectory witness R"))
        assert item.decide() is False and "R = 50: left at strong u1 at step 1, R = 50" in item.note
        out2 = Outcome()
        S.radii = [r for r in S.radii if r <= 100]  # only 3 radii from the first-order witness 20
        _, _, tried, decision = try_radii(S, lambda R: ("paths", "an exit"), retry=True)
        radius_evidence(S, out2, tried, decision)
        assert out2.decision().verdict == "INCONCLUSIVE"
        # with R fixed (no retry) the rule is not used: the exit itself decides
        _, _, tried, decision = try_radii(S, lambda R: ("paths", "an exit"), retry=False)
        assert decision is None and len(tried) == 1


def test_default_datasets_hold_on_shorter_paths():
    # the defaults of both claims (Fig. 1(b) and the benign random LMM), with shorter GD runs and flow paths
    for data in cone_invariance.CLAIM.default_datasets():
        with working_precision(30) as prec:
            assert cone_invariance.evaluate(data, prec, gd_steps=50, depth=3).decide() == "HOLDS"
            out = thm3.evaluate(data, prec, gd_steps=20, depth=20)
            assert out.decide() == "HOLDS", out.decision().reasons
            assert out.range.startswith("‖p‖ ≤ ")
