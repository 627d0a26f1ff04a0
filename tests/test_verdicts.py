"""The decision engine (verify.claims.verdict): the decision table row by row, certainty, Tally
coverage, residual decisions at both ends of a ball, stable-digit counting, and the runner."""
from fractions import Fraction

import pytest
from flint import arb

from verify.claims import Claim, Decision, Evidence, Hypothesis, Outcome, Tally, run_claim
from verify.claims.verdict import compare
from verify.data import Dataset
from verify.numbers.precision import working_precision

OK = Evidence("exact 1 < 2", Fraction(1), "<", 2)
BAD = Evidence("exact 3 < 2", Fraction(3), "<", 2)


def ball(mid, rad):
    return arb(mid) + arb(0, rad)


def undecided():
    return Evidence("ball straddling the bound", ball("1", "0.1"), "<", Fraction(1))


def decided(out):
    d = out.decision()
    return d.verdict, d.certainty


# ----- the decision table, one row at a time ------------------------------------------------------
def test_row1_unmet_hypothesis_is_not_applicable_even_with_a_failure():
    out = Outcome(hypotheses=[Hypothesis("H", True), Hypothesis("Assumption B", False)], evidence=[BAD])
    d = out.decision()
    assert (d.verdict, d.certainty) == ("NOT_APPLICABLE", None)
    assert d.reasons == ["hypothesis not met: Assumption B"]


def test_row2_undecided_hypothesis_is_inconclusive_naming_it():
    d = Outcome(hypotheses=[Hypothesis("step η ≤ 1/L", None)], evidence=[OK]).decision()
    assert d.verdict == "INCONCLUSIVE" and d.reasons == ["hypothesis undecided: step η ≤ 1/L"]


def test_row3_a_certain_failure_is_violated_and_certified():
    out = Outcome(evidence=[OK, BAD, undecided()])
    out.require("budget reached", False)
    d = out.decision()
    assert (d.verdict, d.certainty) == ("VIOLATED", "certified")
    assert d.reasons[0].startswith("fails: exact 3 < 2")


def test_row3_a_rule_failure_is_violated_as_evidence():
    out = Outcome(evidence=[OK, Evidence("1 − corr", arb(1), rule=Decision(False, "decays", "a plateau"))])
    assert decided(out) == ("VIOLATED", "evidence")


def test_row3_a_failure_on_unenclosed_values_is_evidence():
    assert decided(Outcome(evidence=[Evidence("flow exit", Fraction(3), "<", 2, enclosed=False)])) == ("VIOLATED", "evidence")


def test_row3_an_evidence_failure_on_an_object_an_unmet_requirement_rules_out_is_not_counted():
    """A rule failing on a path whose sphere search did not find the minimiser (``invalidates``) is no evidence: row 4,
    the failure named but not counted. Beside an ordinary unmet requirement (a range not reached) it still counts, and
    a certified failure counts beside any requirement."""
    plateau = Evidence("1 − corr → 0", arb(1), rule=Decision(False, "decays", "a plateau"))
    out = Outcome(evidence=[OK, plateau])
    out.require("the sphere search found L ≤ L(candidate)", False, "optimisation failure at R = 5", invalidates=True)
    d = out.decision()
    assert (d.verdict, d.certainty) == ("INCONCLUSIVE", None)
    assert d.reasons == ["requirement not met: the sphere search found L ≤ L(candidate) (optimisation failure at R = 5)",
                         "fails on what the check computed, not counted (a requirement is not met): 1 − corr → 0"]
    ordinary = Outcome(evidence=[OK, plateau])
    ordinary.require("an asymptotic window of ≥ 3 records", False)
    assert decided(ordinary) == ("VIOLATED", "evidence")
    certain = Outcome(evidence=[BAD, plateau])
    certain.require("the sphere search found L ≤ L(candidate)", False, invalidates=True)
    assert decided(certain) == ("VIOLATED", "certified")


def test_row4_unmet_requirement_is_inconclusive():
    out = Outcome(evidence=[OK])
    out.require("flow reached ‖p‖ = 10⁴", False, "step budget exhausted")
    d = out.decision()
    assert d.verdict == "INCONCLUSIVE"
    assert d.reasons == ["requirement not met: flow reached ‖p‖ = 10⁴ (step budget exhausted)"]


def test_row5_undecided_item_is_inconclusive_naming_it():
    d = Outcome(evidence=[OK, undecided()]).decision()
    assert d.verdict == "INCONCLUSIVE" and d.reasons == ["undecided: ball straddling the bound"]


def test_row5_undecided_rule_is_inconclusive():
    out = Outcome(evidence=[OK, Evidence("trend", arb(1), rule=Decision(None, "decays", "too short"))])
    assert decided(out) == ("INCONCLUSIVE", None)


def test_row6_zero_points_is_inconclusive():
    t = Tally("descent ratio ≥ 1 at every point", ">=", 1)
    d = Outcome(evidence=[OK, t.evidence()]).decision()
    assert d.verdict == "INCONCLUSIVE"
    assert d.reasons == ["evaluated on zero points: descent ratio ≥ 1 at every point"]


def test_row7_informative_only_cannot_hold():
    d = Outcome(evidence=[Evidence("‖p^mm‖", Fraction(2)), Evidence("a fit", "1.97")]).decision()
    assert d.verdict == "INCONCLUSIVE" and "informative items only" in d.reasons[0]


def test_row7_no_evidence_at_all_cannot_hold():
    assert Outcome().decide() == "INCONCLUSIVE"


def test_row8_holds_certified():
    assert decided(Outcome(hypotheses=[Hypothesis("H", True)], evidence=[OK, Evidence("i", Fraction(1))])) == (
        "HOLDS", "certified")


def test_row8_holds_as_evidence_with_a_rule_or_a_range():
    with_rule = Outcome(evidence=[OK, Evidence("trend", arb(1), rule=Decision(True, "decays"))])
    assert decided(with_rule) == ("HOLDS", "evidence")
    with_range = Outcome(evidence=[OK], range="‖p‖ ≤ 10⁴")
    assert decided(with_range) == ("HOLDS", "evidence")
    unenclosed = Outcome(evidence=[Evidence("integrated identity", Fraction(0), "<=", 1, enclosed=False)])
    assert decided(unenclosed) == ("HOLDS", "evidence")


# ----- the three certainty levels of a HOLDS: proven, certified at N points, evidence --------------------
def proven_item(region="‖p‖∞ ≤ 1/2"):
    from verify.claims.verdict import Proof

    return Evidence("margin > 0 on the region", Fraction(1, 8), proof=Proof("proven", region, boxes=3, leaves=2))


def tally_of(points):
    t = Tally("ratio", "<=", 1)
    for k in range(points):
        t.add(Fraction(k, points), where=f"p{k}")
    return t.evidence()


def test_level_proven_when_every_deciding_item_is_proven():
    """A region certificate and an exact item over a stated domain are both proven; the regions are named once."""
    domain = Evidence("sup ratio", Fraction(1, 2), "<=", 1, proves="every s in the simplex")
    d = Outcome(evidence=[proven_item(), domain, proven_item()]).decision()
    assert (d.verdict, d.certainty, d.regions, d.points) == ("HOLDS", "proven", ("‖p‖∞ ≤ 1/2", "every s in the simplex"),
                                                              None)
    assert [e.level for e in (proven_item(), domain, OK, Evidence("i", 1))] == ["proven", "proven", "certified", None]


def test_level_is_the_weakest_deciding_items():
    """One certified item beside a proof makes the HOLDS certified; an item decided by a rule makes it evidence."""
    assert decided(Outcome(evidence=[proven_item(), OK])) == ("HOLDS", "certified")
    rule = Evidence("trend", arb(1), rule=Decision(True, "decays"))
    assert decided(Outcome(evidence=[proven_item(), rule])) == ("HOLDS", "evidence")
    assert decided(Outcome(evidence=[proven_item()], range="t ≤ 10")) == ("HOLDS", "evidence")


def test_certified_names_the_most_points_one_tally_decided():
    """Two tallies over the same probe points do not double them: the line names the larger count (a lower bound on
    the distinct points); without a tally no count is named."""
    d = Outcome(evidence=[tally_of(7), tally_of(5), OK]).decision()
    assert (d.certainty, d.points) == ("certified", 7)
    assert Outcome(evidence=[OK]).decision().points is None


def test_corroborating_probes_refute_but_do_not_lower_a_proof():
    """Probes of the proven statement beside its proof: the HOLDS stays proven; a failing probe still refutes."""
    probes = tally_of(4)
    probes.corroborates = True
    assert decided(Outcome(evidence=[proven_item(), probes])) == ("HOLDS", "proven")
    bad = Evidence("probe", Fraction(3), "<", 2, corroborates=True)
    assert decided(Outcome(evidence=[proven_item(), bad])) == ("VIOLATED", "certified")
    alone = Evidence("probe", Fraction(1), "<", 2, corroborates=True)  # nothing to corroborate: it counts
    assert decided(Outcome(evidence=[alone])) == ("HOLDS", "certified")


def test_a_violated_proof_is_a_certified_violation_not_proven():
    from verify.claims.verdict import Proof

    item = Evidence("margin > 0", Fraction(-1), proof=Proof("violated", "‖p‖ ≤ 1", witness="p = (1, 0)"))
    assert decided(Outcome(evidence=[item])) == ("VIOLATED", "certified") and item.level == "certified"


@pytest.mark.parametrize("certainty,rng,points,label", [
    ("proven", "‖p‖∞ ≤ 1/2", None, "HOLDS — proven on ‖p‖∞ ≤ 1/2"),
    ("proven", None, None, "HOLDS — proven"),
    ("certified", None, 169, "HOLDS — certified at 169 points"),
    ("certified", None, 1, "HOLDS — certified at 1 point"),
    ("certified", "π ∈ {1/2, 1, 2}", 12, "HOLDS — certified at 12 points for π ∈ {1/2, 1, 2}"),
    ("certified", None, None, "HOLDS — certified"),
    ("evidence", "‖p‖ ≤ 10⁴", None, "HOLDS — evidence over ‖p‖ ≤ 10⁴"),
])
def test_verdict_line_says_which_level(certainty, rng, points, label):
    from verify.report.markdown import verdict_label

    assert verdict_label("HOLDS", certainty, rng, points) == label


def test_a_run_carries_the_level_its_points_and_its_region_into_json():
    def check(data, prec):
        return Outcome(evidence=[proven_item()] if data.name == "a" else [tally_of(3)])

    v = run_claim(_claim(check), [DATA.with_name("a")], dps=20)
    js = v.to_json()
    assert (js["certainty"], js["range"], js["points"], v.label) == ("proven", "‖p‖∞ ≤ 1/2", None,
                                                                     "HOLDS — proven on ‖p‖∞ ≤ 1/2")
    assert js["evidence"][0]["level"] == "proven"
    v = run_claim(_claim(check), [DATA.with_name("a"), DATA.with_name("b"), DATA.with_name("c")], dps=20)
    assert (v.certainty, v.points, v.label) == ("certified", 6, "HOLDS — certified at 6 points for a: proven on ‖p‖∞ ≤ 1/2")
    assert [d["points"] for d in v.to_json()["datasets"]] == [None, 3, 3]


def test_informative_items_never_decide():
    out = Outcome(evidence=[OK, Evidence("a figure that looks bad", Fraction(10**9))])
    assert decided(out) == ("HOLDS", "certified")


# ----- comparisons ----------------------------------------------------------------------------------
@pytest.mark.parametrize("rel,bound,expected", [
    ("<", 2, True), ("<", 1, False), ("<=", 1, True), (">", 1, False), (">=", 1, True), ("==", 1, True), ("==", 2, False),
])
def test_exact_comparisons(rel, bound, expected):
    assert compare(Fraction(1), rel, bound) == (expected, "exact")


def test_ball_comparisons_decide_only_when_certain():
    with working_precision(30):
        assert compare(ball("0.9", "0.05"), "<", 1)[0] is True
        assert compare(ball("1.1", "0.05"), "<", 1)[0] is False
        assert compare(ball("1", "0.05"), "<", 1)[0] is None
        assert compare(ball("1", "0.05"), ">=", 1)[0] is None


def test_residual_decisions_at_both_ends_of_the_ball():
    """A residual holds when the ball's upper end is below the tolerance, fails only when its lower
    end is above it, and is undecided when the tolerance lies inside the ball."""
    tol = Fraction(1, 10**6)
    with working_precision(30):
        assert compare(ball("0", "1e-7"), "<=", tol, residual=True)[0] is True  # |x| ≤ 1e-7
        assert compare(ball("5e-6", "1e-7"), "<=", tol, residual=True)[0] is False  # |x| ≥ 4.9e-6
        assert compare(ball("1e-6", "1e-7"), "<=", tol, residual=True)[0] is None  # straddles 1e-6
        assert compare(ball("-5e-6", "1e-7"), "<=", tol, residual=True)[0] is False  # sign does not matter
        e = Evidence("dev", ball("0", "1e-7"), "<=", tol, residual=True)
        assert e.decide() is True and e.value == abs(ball("0", "1e-7")).upper()  # shows the upper end


def test_booleans_compare_exactly():
    assert Evidence("selected = α", True, "==", True).decide() is True
    assert Evidence("selected = α", False, "==", True).decide() is False
    with pytest.raises(TypeError):
        compare(True, "<", 1)


# ----- Tally ----------------------------------------------------------------------------------------
def test_tally_counts_every_point_and_names_the_first_violation():
    t = Tally("ratio ≤ 1", "<=", 1)
    with working_precision(30):
        for k, v in enumerate(["0.5", "0.9", "1", "1.2", "1.5"]):
            t.add(arb(v), where=f"p{k}")
        t.add(ball("1", "0.01"), where="tie")
    e = t.evidence()
    c = e.coverage
    assert (c.points, c.holds, c.undecided, c.violated) == (6, 3, 1, 2)
    assert c.first_violation == "p3" and c.first_undecided == "tie"
    assert e.decide() is False and c.worst_at == "p4"  # the most violated point is shown
    assert e.value == arb("1.5")


def test_tally_with_an_undecided_point_is_undecided_not_hidden():
    """An undecided ball that is not the point with the largest midpoint still blocks "HOLDS"."""
    t = Tally("ratio ≤ 1", "<=", 1)
    with working_precision(30):
        t.add(arb("0.999"), "largest midpoint")
        t.add(ball("0.99", "0.02"), "wide ball")
    e = t.evidence()
    assert e.decide() is None and e.coverage.first_undecided == "wide ball"
    assert Outcome(evidence=[e]).decide() == "INCONCLUSIVE"


def test_tally_all_points_certified():
    t = Tally("x > 0", ">", 0)
    for k in range(1, 5):
        t.add(Fraction(k))
    e = t.evidence()
    assert e.decide() is True and e.certified and e.value == 1  # the tightest point


# ----- the runner: stable digits, precision recheck, datasets ---------------------------------------
def _claim(check, recompute=True):
    return Claim(id="mmts.test-claim", paper="mmts", number="Test", title="t", kind="inequality", statement="s",
                 check=check, default_datasets=lambda seed=0: [], recompute=recompute)


DATA = Dataset.make(X=[[[1, 0], [0, 1]]], Y=[1], v=[1, 0], name="tiny")


def test_stable_digits_drop_when_the_recomputation_disagrees():
    """A figure perturbed by 10^-12 relative at the working precision only is stable to ~12 digits."""
    def check(data, prec):
        x = arb(1) / 3
        if prec.dps == 30:
            x = x * (1 + arb(10) ** -12)
        return Outcome(evidence=[Evidence("x", x, "<", 1)])

    v = run_claim(_claim(check), [DATA], dps=30)
    assert v.verdict == "HOLDS" and v.evidence[0].stable_digits in (11, 12)

    def exact(data, prec):
        return Outcome(evidence=[Evidence("x", arb(1) / 3, "<", 1)])

    assert run_claim(_claim(exact), [DATA], dps=30).evidence[0].stable_digits == 30


def test_verdict_changing_with_precision_is_inconclusive():
    def check(data, prec):
        return Outcome(evidence=[Evidence("x", Fraction(1 if prec.dps == 30 else 3), "<", 2)])

    v = run_claim(_claim(check), [DATA], dps=30)
    assert v.verdict == "INCONCLUSIVE" and "at 30 digits" in v.reasons[0]


def test_datasets_combine_worst_wins_with_certainty_and_range():
    def check(data, prec):
        if data.name == "a":
            return Outcome(evidence=[OK])
        return Outcome(evidence=[OK], range="‖p‖ ≤ 10⁴")

    v = run_claim(_claim(check), [DATA.with_name("a"), DATA.with_name("b")], dps=20)
    assert (v.verdict, v.certainty, v.range) == ("HOLDS", "evidence", "‖p‖ ≤ 10⁴")
    assert v.label == "HOLDS — evidence over ‖p‖ ≤ 10⁴"
    js = v.to_json()
    assert js["certainty"] == "evidence" and js["range"] == "‖p‖ ≤ 10⁴"
    assert [d["certainty"] for d in js["datasets"]] == ["certified", "evidence"]

    def check2(data, prec):
        return Outcome(evidence=[OK if data.name == "a" else BAD])

    v = run_claim(_claim(check2), [DATA.with_name("a"), DATA.with_name("b")], dps=20)
    assert (v.verdict, v.certainty) == ("VIOLATED", "certified") and v.reasons[0].startswith("b: fails")


def test_every_verdict_json_has_certainty_and_range_keys():
    v = run_claim(_claim(lambda d, p: Outcome(evidence=[undecided()])), [DATA], dps=20)
    js = v.to_json()
    assert js["verdict"] == "INCONCLUSIVE" and "certainty" in js and js["certainty"] is None and "range" in js
    e = js["evidence"][0]
    assert e["decides"] is True and e["decided_by"] == "enclosure" and e["holds"] is None


def test_tally_orders_margins_beyond_float_range():
    """The tightest point is found among margins far below float64 (1e-880 vs 1e-10394)."""
    t = Tally("x < 0", "<", 0)
    with working_precision(30):
        t.add(-arb(10) ** -880, "p880")
        t.add(-arb(10) ** -10394, "p10394")
        t.add(-arb(10) ** -5, "p5")
    assert t.coverage.worst_at == "p10394" and t.evidence().decide() is True


def test_tally_residuals_are_residual_items():
    t = Tally("deviation", "<=", Fraction(1, 10**6), residual=True)
    with working_precision(30):
        t.add(ball("0", "1e-8"))
    e = t.evidence()
    assert e.residual and e.decide() is True


def test_a_check_cannot_set_its_verdict_by_hand():
    with pytest.raises(AttributeError):
        Outcome().verdict = "HOLDS"
    with pytest.raises(TypeError):
        Evidence("q", Fraction(1), "<", 2, holds=True)


def test_combining_datasets_leaves_the_checks_objects_alone():
    shared = Evidence("shared item", Fraction(1), "<", 2)
    claim = _claim(lambda d, p: Outcome(evidence=[shared]))
    run_claim(claim, [DATA.with_name("a"), DATA.with_name("b")], dps=20)
    assert shared.quantity == "shared item"


def test_a_check_with_no_answer_on_one_dataset_is_inconclusive_there_and_the_others_decide():
    """``Undecided`` raised inside a check (a flow whose start the precision cannot resolve, a float64 ladder beyond
    range) made the whole claim — and a ``verify all`` with it — stop with one line; now that dataset is INCONCLUSIVE
    naming why, and the claim's other datasets are decided (the worst wins)."""
    from verify.errors import Undecided

    def check(data, prec):
        if data.name == "b":
            raise Undecided("the gradient at the initial point is not resolved at 20 digits: no answer")
        return Outcome(evidence=[OK])

    v = run_claim(_claim(check), [DATA.with_name("a"), DATA.with_name("b")], dps=20)
    assert v.verdict == "INCONCLUSIVE"
    assert v.reasons == ["b: requirement not met: the check ran to its end (the gradient at the initial point is not "
                         "resolved at 20 digits: no answer)",
                         "b: no deciding evidence: the conclusion rests on informative items only"]
    assert [d.verdict for d in v.datasets] == ["HOLDS", "INCONCLUSIVE"]


# ----- kind "empirical": never certified, HOLDS only over a stated trial protocol ------------------
def _empirical(check):
    return Claim(id="tfsvm.test-empirical", paper="tfsvm", number="Test", title="t", kind="empirical",
                 statement="s", check=check, default_datasets=lambda seed=0: [], recompute=False)


def test_an_empirical_holds_is_evidence_over_its_protocol():
    def check(data, prec):
        out = Outcome(evidence=[OK])  # certified on its own, as a plain inequality it would be
        out.range = "3 trials, d ∈ {4, 6}, 2000 GD steps"
        return out

    assert decided(Outcome(evidence=[OK])) == ("HOLDS", "certified")  # the same item, no protocol, another kind
    v = run_claim(_empirical(check), [DATA], dps=30)
    assert (v.verdict, v.certainty, v.range) == ("HOLDS", "evidence", "3 trials, d ∈ {4, 6}, 2000 GD steps")


def test_an_empirical_holds_without_its_protocol_is_inconclusive():
    v = run_claim(_empirical(lambda data, prec: Outcome(evidence=[OK])), [DATA], dps=30)
    assert (v.verdict, v.certainty) == ("INCONCLUSIVE", None)
    assert any("trial protocol" in r for r in v.reasons)


def test_an_empirical_violation_is_evidence_even_when_its_comparison_is_exact():
    v = run_claim(_empirical(lambda data, prec: Outcome(evidence=[BAD])), [DATA], dps=30)
    assert (v.verdict, v.certainty) == ("VIOLATED", "evidence")


def test_an_empirical_claim_keeps_not_applicable():
    v = run_claim(_empirical(lambda data, prec: Outcome(hypotheses=[Hypothesis("labels ±1", False)])), [DATA], dps=30)
    assert (v.verdict, v.certainty) == ("NOT_APPLICABLE", None)


def test_figures_draw_every_letter_their_font_has(tmp_path, recwarn):
    """𝒲, 𝒪, 𝒯 (no glyph in DejaVu Sans) are drawn as W, O, T: no 'missing glyph' warning, the PNG is written."""
    from verify.report.figures import Figure, Series, plain, render_figure

    assert plain("dist(KQᵀ, 𝒲^mm_⋆) over 𝒪_i, 𝒯_i") == "dist(KQᵀ, W^mm_⋆) over O_i, T_i"
    fig = Figure("f", "𝒲^mm", "𝒪", "𝒯", [Series("𝒲 series", [1, 2], [1, 2])], hlines=[(1, "𝒲 line")])
    render_figure(fig, str(tmp_path / "f.png"))
    assert (tmp_path / "f.png").stat().st_size > 0
    assert not [w for w in recwarn if "missing from font" in str(w.message)]
