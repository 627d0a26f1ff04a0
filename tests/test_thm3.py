"""mmts.thm3 (local convergence) and mmts.thm3.cone (cone invariance): Fig. 1(b) numbers, false cases."""
import math
from fractions import Fraction

from lemmas.mmts import cone_invariance, thm3
from verify.data import mmts as D
from verify.geometry.cones import boundary_scan, cone_directions, lmm_geometry, unit
from verify.models.attention import LinearLogitModel, features
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


def test_thm3_converges_to_the_lmm_with_rate_two():
    with working_precision(30) as prec:
        out = thm3.evaluate(FIG1B, prec, gd_steps=50, until_norm=300)
    assert out.decide() == "HOLDS"
    sel = next(e for e in out.evidence if e.quantity.startswith("selected tokens"))
    assert sel.value is True
    rate = next(e for e in out.evidence if e.quantity.startswith("fitted rate"))
    lo, hi = (float(x) for x in rate.value.split(" … "))
    assert 1.9 < lo <= hi < 2.1  # the derived 1 − corr ≈ C/‖p‖²


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
