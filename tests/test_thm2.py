"""mmts.thm2 (global GD convergence under Assumption B): HOLDS on n = 1 data with the spec's numbers;
the n = 1 hypothesis removed (§5.6 from (2,0,0)) is VIOLATED; B or feasibility broken is NOT_APPLICABLE."""
from flint import arb

from lemmas.mmts import thm2
from verify.claims import REGISTRY, Outcome, rules, run_claim
from verify.data import mmts as D
from verify.dynamics import normalized_gd
from verify.kit.direction import FlowCheckpoints, direction_evidence
from verify.kit.global_descent import gd_checkpoints, step_size_p
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import working_precision

SHORT = ("2", "5", "10", "20", "50", "100")


def test_holds_on_n1_defaults_short():
    with working_precision(30) as prec:
        for data in thm2.CLAIM.default_datasets()[:2]:
            out = thm2.evaluate(data, prec, steps=300, radii=SHORT, figure=False)
            assert out.decide() == "HOLDS", (data.name, [(e.quantity, e.decide(), e.note) for e in out.evidence])
            assert out.decision().certainty == "evidence" and "‖p‖ ≤ 100 along the gradient flow" in out.range
            direction = [e for e in out.evidence if e.quantity.startswith("(iii) gradient flow")]
            assert len(direction) == 2 and all(not e.informative and e.decide() and not e.enclosed for e in direction)
            assert [h.met for h in out.hypotheses] == [True] * 4 and "step size" in out.hypotheses[-1].name


def test_three_checkpoints_are_too_few_inconclusive():
    """Norm checkpoints 1, 2, 5 only: the (iii) direction rule needs 4 — INCONCLUSIVE naming it."""
    with working_precision(30) as prec:
        out = thm2.evaluate(D.mmts_fig1a(), prec, steps=300, radii=("1", "2", "5"), figure=False)
    d = out.decision()
    assert d.verdict == "INCONCLUSIVE"
    assert d.reasons and all(r.startswith("undecided: (iii) gradient flow from p(0) = ") for r in d.reasons)
    assert len(d.reasons) == 2


def test_spec_numbers_fig1a():
    """‖p(10⁴)‖ = 2.59, 1 − corr = 5.4e−2 (GD, η = 1/L_p); normalised GD at ‖p‖ = 100: 1 − corr ≈ 2.5e−4."""
    data = D.mmts_fig1a()
    with working_precision(30):
        eta, step = step_size_p(data)
        assert step.met is True and abs(float((1 / eta).mid()) - 20.75) < 0.01  # L_p = 20.75 (Fig. 1(a))
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
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "evidence"  # a plateau of 1 − corr, integrator output
    assert len(d.reasons) == 1 and d.reasons[0].startswith("fails: (iii) gradient flow from p(0) = (2,0,0)")
    with working_precision(30) as prec:
        out = thm2.evaluate(D.mmts_fig8_substitute(), prec, steps=200, radii=SHORT + ("200",),
                            inits=[("(2,0,0)", [2, 0, 0])], figure=False)
    assert out.decide() == "HOLDS"  # (ii) holds; (iii) is not asserted for n = 2
    assert any("LMM" in n for n in out.notes)
    # the n = 2 verdict rests on (ii): the directions are informative, the deciding items are (ii)'s
    deciding = [e.quantity for e in out.evidence if not e.informative]
    assert deciding and all(q.startswith("(ii)") for q in deciding)
    assert out.range == "t ≤ 200 GD steps"


def test_assumption_b_broken_not_applicable():
    v = run_claim(thm2.CLAIM, [D.mmts_fig1b()], dps=20)
    assert v.verdict == "NOT_APPLICABLE"
    assert any("Assumption B" in h.name and not h.met for h in v.hypotheses)


def test_infeasible_not_applicable():
    v = run_claim(thm2.CLAIM, [D.mmts_infeasible_B()], dps=20)
    assert v.verdict == "NOT_APPLICABLE"
    assert any("feasible" in h.name and not h.met for h in v.hypotheses)


def _flow(norms, omc):
    return FlowCheckpoints(steps=[1] * len(norms), norms=norms, points=[], omc=omc, selected=[(0,)] * len(norms))


def test_direction_item_rules():
    """(iii) is decided by rules.decays with the derived rate 2: a 1/‖p‖² decay holds, a plateau fails,
    a wandering tail without a plateau is undecided, and n > 1 leaves it informative."""
    xs = [arb(10), arb(20), arb(50), arb(100)]
    e = direction_evidence(_flow(xs, [arb(1) / x ** 2 for x in xs]), "dir")
    assert e.decide() is True and e.rule.rule.startswith("decays") and abs(rules.fitted_exponent(
        xs, [arb(1) / x ** 2 for x in xs]) + 2) < 1e-9
    flat = [arb("0.68"), arb("0.681"), arb("0.682"), arb("0.683")]
    assert direction_evidence(_flow(xs, flat), "dir").decide() is False
    wander = [arb("0.4"), arb("0.2"), arb("0.25"), arb("0.1")]
    assert direction_evidence(_flow(xs, wander), "dir").decide() is None
    # up and down with no decay over the tail (kept ≥ half): a plateau under the declared rule
    assert direction_evidence(_flow(xs, [arb("0.1"), arb("0.2"), arb("0.1"), arb("0.2")]), "dir").decide() is False
    assert direction_evidence(_flow(xs[:3], [arb(1) / x ** 2 for x in xs[:3]]), "dir").decide() is None
    info = direction_evidence(_flow(xs, flat), "dir", decide=False, why_not="n > 1")
    assert info.informative and not info.enclosed
    out = Outcome(evidence=[info])
    assert out.decide() == "INCONCLUSIVE"  # informative items alone never HOLD


def test_aliases():
    assert REGISTRY.resolve("global-gd-convergence")[0].id == "mmts.thm2"
    assert "mmts.thm2" in REGISTRY.aliases["norm-diverges"]


def test_a_path_exactly_along_p_mm_holds():
    """T = 2, n = 1: ∇L(p) is always parallel to k₁ − k₂, so from p(0) = 0 the flow runs exactly along
    p^mm and 1 − corr is 0 to every digit — the direction item holds (zero to the working precision)."""
    from verify import Dataset

    data = Dataset.make(X=[[[1, 0, 1], [-1, 0, 0]]], Y=[1], v=[0, 0, 1], K=[[[1, 0, 0], [-1, 0, 0]]], name="T2-n1")
    with working_precision(30) as prec:
        out = thm2.evaluate(data, prec, steps=200, radii=("1", "2", "5", "10", "20", "50"))
    flows = [e for e in out.evidence if e.quantity.startswith("(iii) gradient flow")]
    assert flows and all(e.decide() is True and "zero to the working precision" in e.rule.detail for e in flows)
    assert out.decide() == "HOLDS"
