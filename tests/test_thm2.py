"""mmts.thm2 (global GD convergence under Assumption B): HOLDS on n = 1 data with the spec's numbers;
the n = 1 hypothesis removed (§5.6 from (2,0,0)) is VIOLATED; B or feasibility broken is NOT_APPLICABLE."""
from flint import arb

from lemmas.mmts import thm2
from verify.claims import REGISTRY, run_claim
from verify.data import mmts as D
from verify.dynamics import normalized_gd
from verify.kit.stationarity import gd_checkpoints
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import working_precision

SHORT = ("2", "5", "10", "20", "50", "100")


def test_holds_on_n1_defaults_short():
    with working_precision(30) as prec:
        for data in thm2.default_datasets()[:2]:
            out = thm2.evaluate(data, prec, steps=300, radii=SHORT, figure=False)
            assert out.decide() == "HOLDS", (data.name, [(e.quantity, e.decide(), e.note) for e in out.evidence])


def test_spec_numbers_fig1a():
    """‖p(10⁴)‖ = 2.59, 1 − corr = 5.4e−2 (GD, η = 1/L_p); normalised GD at ‖p‖ = 100: 1 − corr ≈ 2.5e−4."""
    data = D.mmts_fig1a()
    with working_precision(30):
        eta, _ = thm2.step_size(data)
        m = LinearLogitModel.from_dataset(data, "p")
        q = [arb(-10) / 101, arb(100) / 101, arb(0)]
        run = gd_checkpoints(m, (0, 0, 0), eta, [0, 10000])
        assert abs(float(run.norms[-1].mid()) - 2.590) < 0.005
        from verify.models.attention import one_minus_corr
        assert abs(float(one_minus_corr(run.points[-1], q).mid()) - 0.0544) < 0.001
    ng = normalized_gd(data, "p", steps=5000, eta="0.1", until_norm=100, dps=30)  # the paper's optimiser
    assert 2.3e-4 < float(ng.final.one_minus_corr_gmm.mid()) < 2.8e-4


def test_n2_lmm_start_direction_violated_without_n1():
    """§5.6 (n = 2): from (2,0,0) GD goes to the LMM (1,0,0): judged as if n = 1 were not needed → VIOLATED."""
    with working_precision(30) as prec:
        out = thm2.evaluate(D.mmts_fig8_substitute(), prec, steps=200, radii=SHORT + ("200",),
                            inits=[("(2,0,0)", [2, 0, 0])], direction_for_all_n=True, figure=False)
    assert out.decide() == "VIOLATED"
    with working_precision(30) as prec:
        out = thm2.evaluate(D.mmts_fig8_substitute(), prec, steps=200, radii=SHORT + ("200",),
                            inits=[("(2,0,0)", [2, 0, 0])], figure=False)
    assert out.decide() == "HOLDS"  # (ii) holds; (iii) is not asserted for n = 2
    assert any("LMM" in n for n in out.notes)


def test_assumption_b_broken_not_applicable():
    v = run_claim(thm2.CLAIM, [D.mmts_fig1b()], dps=20)
    assert v.verdict == "NOT_APPLICABLE"
    assert any("Assumption B" in h.name and not h.met for h in v.hypotheses)


def test_infeasible_not_applicable():
    v = run_claim(thm2.CLAIM, [D.mmts_infeasible_B()], dps=20)
    assert v.verdict == "NOT_APPLICABLE"
    assert any("feasible" in h.name and not h.met for h in v.hypotheses)


def test_judge_direction_rules():
    xs = [arb(10), arb(20), arb(50), arb(100)]
    ok, slope, _ = thm2.judge_direction(xs, [arb(1) / x ** 2 for x in xs], [None, arb(1), arb(1), arb(1)])
    assert ok is True and abs(slope + 2) < 1e-9
    flat = [arb("0.68"), arb("0.681"), arb("0.682"), arb("0.683")]
    ok, _, _ = thm2.judge_direction(xs, flat, [None, arb(10) ** -5, arb(10) ** -5, arb(10) ** -6])
    assert ok is False
    wander = [arb("0.1"), arb("0.2"), arb("0.1"), arb("0.2")]
    ok, _, _ = thm2.judge_direction(xs, wander, [None, arb("0.1"), arb("0.1"), arb("0.1")])
    assert ok is None


def test_aliases():
    assert REGISTRY.resolve("global-gd-convergence")[0].id == "mmts.thm2"
    assert "mmts.thm2" in REGISTRY.aliases["norm-diverges"]
