"""mmts Theorem 3 in detail (mutation testing, area mmts): one short run on Fig. 1(b) (the non-global
LMM α = [1], cone C_(μ,R) with R = 20 from the witness) and one on a d = 1 dataset (the cone is a ray):
every item present with its certainty (GD iterates exact → certified; integrator output and rules →
evidence), the target norm reached and reported, the trajectory witness R, the decay rule at the
derived rate, the GMM comparison, the stationary-point scan over the whole ladder."""
from fractions import Fraction

import pytest
from flint import arb

from lemmas.mmts import thm3
from verify import Dataset
from verify.data import mmts as D
from verify.geometry.cone_data import INVARIANCE_LADDER
from verify.numbers.precision import working_precision

# d = 1: two sequences of scalar tokens, v = 1, Y = 1: scores = keys; the GMM α = (0, 0) (keys 1 and 2)
# is the only locally optimal selection; p^mm = 1 (margins 1: 1·1 − 0 = 1, 2·1 − ... ≥ 1), σ = 1.
D1 = Dataset.make(X=[[[1], [-1], [0]], [[2], [0], [-1]]], Y=[1, 1], v=[1], name="d1")


def item(out, prefix):
    (e,) = [e for e in out.evidence if e.quantity.startswith(prefix)]
    return e


@pytest.fixture(scope="module")
def fig1b():
    with working_precision(30) as prec:
        return thm3.evaluate(D.mmts_fig1b(), prec, gd_steps=50, until_norm=300)


@pytest.fixture(scope="module")
def flat():
    with working_precision(30) as prec:
        return thm3.evaluate(D1, prec, starts=[[Fraction(2)]], gd_steps=10, depth=50)


def test_fig1b_items_and_their_certainty(fig1b):
    assert fig1b.decide() == "HOLDS"
    gd = [e for e in fig1b.evidence if e.quantity.startswith("GD η = 1/L_p (rounded down), 50 steps: ")]
    assert len(gd) == 3 and all(e.decide() is True and e.certified is True for e in gd)  # exact iterates
    assert all(e.coverage.worst_at.startswith(("boundary u", "interior (level μ/4) u")) and " at step " in
               e.coverage.worst_at and e.coverage.worst_at.endswith("R = 20") for e in gd)
    flow = [e for e in fig1b.evidence if e.quantity.startswith("gradient flow to ‖p‖ = 300: ")]
    assert len(flow) == 3 and all(e.decide() is True and e.certified is False for e in flow)  # integrator
    assert all(" at checked point " in e.coverage.worst_at for e in flow)
    sel = item(fig1b, "selected tokens at the end equal α")
    assert sel.value is True and sel.decide() is True and sel.certified is False
    assert sel.note == "exact on the final points; boundary u0: [1]; boundary u1: [1]; interior (level μ/4) u0: [1]"


def test_fig1b_target_norm_and_gd_change(fig1b):
    """until_norm = 300: every flow path ends at ‖p‖ = 300; GD from ‖p‖ = 20 barely moves: the change of
    1 − corr over 50 steps is tiny but not zero (∇L ~ e^{−‖p‖Θ} ≠ 0)."""
    norm = item(fig1b, "norm divergence: smallest final ‖p‖")
    assert abs(norm.value - 300) < arb(10) ** -10
    assert norm.note.startswith("shown: diverges")
    change = item(fig1b, "GD: max over starts of (1 − corr)(t = 50) − (1 − corr)(0)")
    assert isinstance(change.value, arb) and 0 < abs(change.value) < arb(10) ** -10
    assert fig1b.range == "‖p‖ ≤ 300·σ along the paths"


def test_fig1b_trajectory_witness_and_scan(fig1b):
    """R is existential (no R given, no explicit starts): the trajectory witness is decided by its rule,
    here at the first-order witness R = 20 (spec §8.4 table: μ ≈ 0.0025 < 0.004 works from r = 20)."""
    tw = item(fig1b, "trajectory witness R")
    assert tw.value == 20 and tw.decide() is True and tw.decided_by().startswith("rule: ")
    scan = item(fig1b, "no stationary point in C_(μ,R)")
    assert scan.relation == ">" and scan.bound == 0 and scan.decide() is True
    assert scan.coverage.worst_at.startswith("‖p‖ = 20, ")  # the grid starts at R itself


def test_fig1b_direction_convergence_at_the_derived_rate(fig1b):
    conv = item(fig1b, "direction convergence: 1 − corr(p, p^mm(α)) → 0")
    assert conv.decide() is True and "rate ≥ 1/2·2" in conv.decided_by()  # rules.decays, expected = 2
    assert isinstance(conv.value, arb) and 0 < conv.value < arb(10) ** -4
    gmm = item(fig1b, "1 − corr(p, p^mm_GMM) at the end")
    assert gmm.value > arb("0.5") and gmm.note.startswith("large")  # not the GMM direction (p^mm_GMM ≠ p^mm(α))


def test_flat_case_ray_and_no_gmm_comparison(flat):
    """d = 1 with explicit starts: no trajectory-witness item (R is not retried with given starts), the
    direction item is p(end)·p^mm > 0 (exact, shown by its own item, not certified: integrator output),
    no GMM comparison (α is the GMM), the scan at every ladder radius from R = σ = 1 (one direction each),
    and the target depth·R = 50."""
    assert flat.decide() == "HOLDS"
    assert not [e for e in flat.evidence if e.quantity.startswith("trajectory witness R")]
    ray = item(flat, "direction convergence: p(end)ᵀp^mm > 0 on every path")
    assert ray.value is True and ray.relation == "==" and ray.bound is True and ray.decide() is True
    assert ray.certified is False
    assert not [e for e in flat.evidence if "GMM" in e.quantity]
    assert item(flat, "no stationary point in C_(μ,R)").coverage.points == len(INVARIANCE_LADDER)
    assert abs(item(flat, "norm divergence").value - 50) < arb(10) ** -10
    assert [e for e in flat.evidence if e.quantity.startswith("gradient flow to ‖p‖ = 50: ")]
    gd = [e for e in flat.evidence if e.quantity.startswith("GD η = 1/L_p (rounded down), 10 steps: ")]
    assert len(gd) == 3 and all(e.coverage.worst_at.startswith("start 0 (p(0) = (2))") for e in gd)


# ----- Step 3 as its own claim, mmts.thm3.cone (cone invariance) ------------------------------------------


@pytest.fixture(scope="module")
def cone_runs():
    from lemmas.mmts import cone_invariance

    with working_precision(30) as prec:
        deep = cone_invariance.evaluate(D.mmts_fig1b(), prec, gd_steps=10, until_norm=50,
                                        radii=("20", "50", "100", "1000"))
        shallow = cone_invariance.evaluate(D.mmts_fig1b(), prec, gd_steps=10, deep=False)
    return deep, shallow


def test_cone_invariance_range_items_and_figures(cone_runs):
    """The range states what was covered: the flow paths' depth (until_norm = 50) or the GD steps, and the
    largest boundary radius scanned (the radii given: 1000, else the ladder's 10⁸); both forms have their
    flow items with the target-reached item under their own label; the cone figure shows every flow path."""
    deep, shallow = cone_runs
    assert deep.decide() == "HOLDS" and shallow.decide() == "HOLDS"
    assert deep.range == "paths to ‖p‖ ≤ 50·σ, boundary r ≤ 10³·σ"
    assert shallow.range == "GD paths of 10 steps, boundary r ≤ 10⁸·σ"
    assert item(deep, "trajectory witness R").value == 20
    for form in ("strong form (C_(μ,R) → C_(μ,R))", "weak form (C_(μ/2,R) → C_(μ,R))"):
        fin = item(deep, f"{form}, gradient flow to ‖p‖ = 50: smallest final ‖p‖")
        assert abs(fin.value - 50) < arb(10) ** -10
    assert not [e for e in shallow.evidence if "gradient flow" in e.quantity]
    assert [f.name for f in deep.figures] == ["inward", "cone"]
    assert [s.label for s in deep.figures[1].series] == ["strong u0", "strong u1", "weak u0", "weak u1"]
    assert [f.name for f in shallow.figures] == ["inward"]
