"""The runner in-process (verify.claims.runner): worst-wins, exit codes (docs/contract.md), stable
digits, the precision recheck, combining datasets (certainty, range, prefixes), the JSON of a verdict,
freezing a run for worker processes, coerce_dataset and check(). The CLI tests see these only through
subprocesses."""
from __future__ import annotations

import json
import time
from fractions import Fraction

import pytest
from flint import arb

from verify.claims import Claim, Decision, Evidence, Hypothesis, Outcome, Tally, register
from verify.claims.registry import REGISTRY
from verify.claims.runner import (
    EXIT_CODES,
    SEVERITY,
    DatasetRun,
    DatasetVerdict,
    FrozenEvidence,
    Verdict,
    _combine,
    _run_once,
    _stabilise,
    check,
    coerce_dataset,
    combine,
    run_claim,
    run_dataset,
    worst,
)
from verify.data import Dataset
from verify.errors import DataError
from verify.numbers.precision import Precision, working_precision
from verify.report.figures import Figure, Series

H, V, I, N = "HOLDS", "VIOLATED", "INCONCLUSIVE", "NOT_APPLICABLE"
DATA = Dataset.make(X=[[[1, 0], [0, 1]]], Y=[1], v=[1, 0], name="tiny")
OK = Evidence("exact 1 < 2", Fraction(1), "<", 2)
BAD = Evidence("exact 3 < 2", Fraction(3), "<", 2)


def make_claim(check_fn, recompute=True, cid="mmts.runner-test", datasets=None):
    return Claim(id=cid, paper="mmts", number="Lemma R", title="runner test", kind="inequality", statement="s",
                 check=check_fn, default_datasets=datasets or (lambda seed=0: [DATA]), recompute=recompute)


def third(digits):
    """1/3 to ``digits`` significant digits, from the exact fraction."""
    return "0." + "3" * digits


# ----- worst wins, exit codes -------------------------------------------------------------------------
def test_exit_codes_follow_the_contract():
    assert EXIT_CODES == {H: 0, V: 1, I: 3, N: 4}


@pytest.mark.parametrize("verdicts,expected", [
    ([], H), ([H], H), ([H, N], N), ([N, H], N), ([N, I], I), ([I, N, H], I), ([I, V], V), ([V, I, N, H], V),
    ([H, H], H),
])
def test_worst_wins_1_3_4_0(verdicts, expected):
    assert worst(verdicts) == expected
    assert worst(iter(verdicts)) == expected  # any iterable


def test_severity_is_a_total_order():
    assert sorted(SEVERITY, key=SEVERITY.get) == [H, N, I, V]


# ----- one run --------------------------------------------------------------------------------------
def test_run_once_checks_the_return_type_and_decides():
    seen = []

    def good(data, prec):
        seen.append(prec.dps)
        return Outcome(evidence=[OK])

    out = _run_once(make_claim(good), DATA, 23)
    assert seen == [23] and out.decided.verdict == H and out.decided.certainty == "certified"
    with pytest.raises(TypeError, match="mmts.runner-test.check returned dict, not Outcome"):
        _run_once(make_claim(lambda d, p: {"verdict": H}), DATA, 20)


def test_run_dataset_recomputes_at_the_higher_precision():
    seen = []

    def rec(data, prec):
        seen.append(prec.dps)
        return Outcome(evidence=[OK])

    run = run_dataset(make_claim(rec), DATA, 30)
    assert seen == [30, 50]  # 30 + max(20, 15)
    seen.clear()
    run_dataset(make_claim(rec), DATA, 100)
    assert seen == [100, 150] and Precision(100).higher().dps == 150
    assert run.verdict == DatasetVerdict("tiny", H, "certified", None, [])
    assert run.stable == 30 and run.seconds >= 0


def test_no_recomputation_when_not_asked_or_not_applicable():
    seen = []

    def rec(data, prec):
        seen.append(prec.dps)
        return Outcome(evidence=[OK])

    run_dataset(make_claim(rec, recompute=False), DATA, 30)
    assert seen == [30]
    seen.clear()

    def na(data, prec):
        seen.append(prec.dps)
        return Outcome(hypotheses=[Hypothesis("H1", False)], evidence=[OK])

    run = run_dataset(make_claim(na), DATA, 30)
    assert seen == [30] and run.verdict.verdict == N and run.verdict.reasons == ["hypothesis not met: H1"]
    seen.clear()

    def inc(data, prec):
        seen.append(prec.dps)
        return Outcome(hypotheses=[Hypothesis("H1", None)], evidence=[OK])

    run_dataset(make_claim(inc), DATA, 30)
    assert seen == [30, 50]  # INCONCLUSIVE is rechecked


def test_run_dataset_keeps_the_range_only_for_evidence():
    def ev(data, prec):
        return Outcome(evidence=[OK], range="‖p‖ ≤ 10")

    run = run_dataset(make_claim(ev), DATA, 20)
    assert (run.verdict.certainty, run.verdict.range) == ("evidence", "‖p‖ ≤ 10")

    def bad(data, prec):
        return Outcome(evidence=[BAD], range="‖p‖ ≤ 10")

    run = run_dataset(make_claim(bad), DATA, 20)
    assert (run.verdict.verdict, run.verdict.certainty, run.verdict.range) == (V, "certified", None)

    def undecided(data, prec):
        return Outcome(evidence=[Evidence("u", arb(1) + arb(0, "0.5"), "<", 1)], range="‖p‖ ≤ 10")

    run = run_dataset(make_claim(undecided), DATA, 20)
    assert (run.verdict.verdict, run.verdict.certainty, run.verdict.range) == (I, None, None)


def test_a_verdict_that_changes_with_precision_is_inconclusive():
    def flip(data, prec):
        out = Outcome(evidence=[OK if prec.dps == 25 else BAD], notes=["a note"])
        return out

    run = run_dataset(make_claim(flip), DATA, 25)
    why = "verdict HOLDS at 25 digits but VIOLATED at 45"
    assert run.verdict == DatasetVerdict("tiny", I, None, None, [why])
    assert run.notes == ["a note", why + ": INCONCLUSIVE"]


def test_run_dataset_passes_the_low_run_through():
    h = Hypothesis("H", True)
    fig = Figure("f", "t", "x", "y", [Series("s", [1], [1])])

    def low(data, prec):
        if prec.dps == 20:
            return Outcome(hypotheses=[h], evidence=[OK], notes=["low"], figures=[fig])
        return Outcome(hypotheses=[], evidence=[OK], notes=["high"], figures=[])

    run = run_dataset(make_claim(low), DATA, 20)
    assert run.hypotheses == [h] and run.evidence == [OK] and run.notes == ["low"] and run.figures == [fig]


# ----- stable digits --------------------------------------------------------------------------------
def outcome(*ev):
    return Outcome(evidence=list(ev))


def test_stabilise_skips_what_has_no_digits():
    items = [Evidence("b", True, "==", True), Evidence("s", "text"), Evidence("n", None),
             Evidence("r", Fraction(1, 10**9), "<=", Fraction(1, 10**6), residual=True)]
    low = outcome(*items)
    assert _stabilise(low, None, 40) == 40  # nothing counted: the working precision
    assert [e.stable_digits for e in items] == [None] * 4
    after = Evidence("q", Fraction(1, 3), "<", 1)  # an item after the skipped ones is still counted
    assert _stabilise(outcome(*items, after), None, 40) == 40 and after.stable_digits == 40


def test_stabilise_counts_exact_float_and_ball_digits():
    exact = Evidence("q", Fraction(1, 3), "<", 1)
    flt = Evidence("f", 0.25)
    ball = Evidence("b", arb(1, 2.0 ** -40))  # radius 2^-40 ≈ 9.1e-13 around 1: 12 certified digits
    assert _stabilise(outcome(exact), None, 40) == 40 and exact.stable_digits == 40
    assert _stabilise(outcome(flt), None, 40) == 15 and flt.stable_digits == 15
    assert _stabilise(outcome(exact, ball, flt), None, 40) == 12 and ball.stable_digits == 12
    assert _stabilise(outcome(Evidence("int", 7)), None, 30) == 30


@pytest.fixture()
def prec60():
    with working_precision(60):
        yield


def test_stabilise_compares_with_the_recomputation_of_the_same_quantity(prec60):
    x = arb(1) / 3
    y = x * (1 + arb(10) ** -12)  # agrees with x to 12 digits
    low = outcome(Evidence("x", x), Evidence("z", x))
    high = outcome(Evidence("x", y), Evidence("other", y))
    assert _stabilise(low, high, 40) == 12
    assert low.evidence[0].stable_digits == 12
    assert low.evidence[1].stable_digits == 40  # a different quantity at that place: not compared
    low = outcome(Evidence("x", x), Evidence("z", x))
    assert _stabilise(low, outcome(Evidence("x", y)), 40) == 12  # the high run has fewer items
    assert low.evidence[1].stable_digits == 40


def test_a_figure_zero_to_the_precision_gets_its_decimal_places_and_leaves_the_minimum(prec60):
    """An integrator's drift of 1.3·10⁻³⁷ at 30 digits, recomputed as 2·10⁻⁵⁰: no significant digit agrees, but
    both are within 10⁻³⁶ of 0 (⌊−log10 1.3·10⁻³⁷⌋ = 36, capped at the 30 digits carried)."""
    drift = Evidence("drift", arb(13) * arb(10) ** -38)
    answer = Evidence("x", arb(1) / 3)
    low = outcome(answer, drift)
    high = outcome(Evidence("x", arb(1) / 3), Evidence("drift", arb(2) * arb(10) ** -50))
    assert _stabilise(low, high, 30) == 30  # the answer's 30 digits; the drift is not counted
    assert drift.stable_digits == 0 and drift.zero_to == 30 and answer.zero_to is None
    assert drift.to_json(30)["zero_to"] == 30 and "zero_to" not in answer.to_json(30)
    zero = outcome(Evidence("z", arb(0, 1e-20)))  # alone: its places count (balls holding 0, radius 10⁻²⁰)
    assert _stabilise(zero, outcome(Evidence("z", arb(0, 1e-25))), 30) == 19 and zero.evidence[0].zero_to == 19
    small = Evidence("s", arb(5) * arb(10) ** -20)  # 5·10⁻²⁰ vs 7·10⁻²⁰ at 30 digits: above 10⁻³⁰, a real figure
    assert _stabilise(outcome(small), outcome(Evidence("s", arb(7) * arb(10) ** -20)), 30) == 0
    assert small.zero_to is None


def test_stabilise_ignores_recomputations_without_a_number(prec60):
    x = arb(1) / 3
    for hv in (None, True, "text"):
        low = outcome(Evidence("x", x))
        assert _stabilise(low, outcome(Evidence("x", hv)), 40) == 40
    low = outcome(Evidence("f", 0.5))
    assert _stabilise(low, outcome(Evidence("f", 0.25)), 40) == 15  # floats are never compared


def test_stabilise_caps_digits_at_the_working_precision(prec60):
    low = outcome(Evidence("x", arb(1) / 3))
    assert _stabilise(low, outcome(Evidence("x", arb(1) / 3)), 12) == 12


# ----- combining datasets ---------------------------------------------------------------------------
def dv(name, verdict, certainty=None, rng=None, reasons=(), points=None):
    return DatasetVerdict(name, verdict, certainty, rng, list(reasons), points)


def test_combine_holds_certified_only_when_every_dataset_is():
    assert _combine([dv("a", H, "certified"), dv("b", H, "certified")], True) == (H, "certified", None, [], None)
    assert _combine([dv("a", H, "certified"), dv("b", H, "evidence", "R ≤ 5")], True) == (
        H, "evidence", "R ≤ 5", [], None)


def test_combine_takes_the_weakest_level_and_sums_the_points():
    """proven < certified < evidence in strength: a HOLDS is at its weakest dataset's level; a certified one's points
    are the sum of the datasets' (each dataset's probe points are its own), None when no dataset names some."""
    both = [dv("a", H, "proven", "‖p‖ ≤ 1"), dv("b", H, "proven", "‖p‖ ≤ 1")]
    assert _combine(both, True) == (H, "proven", "‖p‖ ≤ 1", [], None)
    assert _combine([dv("a", H, "proven", "r"), dv("b", H, "certified", None, (), 7)], True)[1::3] == ("certified", 7)
    assert _combine([dv("a", H, "certified", None, (), 5), dv("b", H, "certified", None, (), 7),
                     dv("c", H, "certified")], True)[4] == 12
    assert _combine([dv("a", H, "certified", None, (), 5), dv("b", H, "evidence", "r")], True)[1::3] == (
        "evidence", None)


def test_combine_violated_certified_when_one_failure_is():
    per = [dv("a", V, "evidence", "r", ["fails: x"]), dv("b", V, "certified", None, ["fails: y"]), dv("c", H, "certified")]
    assert _combine(per, True) == (V, "certified", None, ["a: fails: x", "b: fails: y"], None)
    per = [dv("a", V, "evidence", "r1", ["fails: x"]), dv("b", H, "certified"), dv("c", H, "evidence", "r2")]
    assert _combine(per, True) == (V, "evidence", "r1", ["a: fails: x"], None)  # the range of the failing dataset


def test_combine_ranges():
    per = [dv("a", H, "evidence", "r1"), dv("b", H, "evidence", "r1"), dv("c", H, "certified")]
    assert _combine(per, True)[2] == "r1"  # one range, stated once
    per = [dv("a", H, "evidence", "r1"), dv("b", H, "evidence", None), dv("c", H, "certified")]
    assert _combine(per, True)[2] == "a: r1; b: —"
    assert _combine([dv("a", H, "evidence", None)], False)[2] == "the range computed"


def test_combine_inconclusive_and_not_applicable_have_no_certainty():
    per = [dv("a", I, None, None, ["undecided: q"]), dv("b", N, None, None, ["hypothesis not met: H"]),
           dv("c", H, "evidence", "r")]
    assert _combine(per, True) == (I, None, None, ["a: undecided: q"], None)
    assert _combine([dv("a", N, None, None, ["hypothesis not met: H"])], False) == (
        N, None, None, ["hypothesis not met: H"], None)


def run_of(name, verdict=H, certainty="certified", evidence=(), hyps=(), notes=(), figures=(), stable=30,
           seconds=1.0, rng=None, reasons=()):
    return DatasetRun(dv(name, verdict, certainty, rng, reasons), list(hyps), list(evidence), list(notes),
                      list(figures), stable, seconds)


def test_combine_prefixes_several_datasets_and_copies():
    claim = make_claim(lambda d, p: None)
    e1, e2 = Evidence("q", Fraction(1), "<", 2), Evidence("q", Fraction(1), "<", 2)
    f1 = Figure("fig", "t", "x", "y", [])
    runs = [run_of("a", evidence=[e1], hyps=[Hypothesis("H", True, "d")], notes=["n"], figures=[f1], stable=12,
                   seconds=1.5),
            run_of("b", evidence=[e2], hyps=[Hypothesis("H", None)], notes=["m"], stable=9, seconds=2.25)]
    v = combine(claim, runs, 40)
    assert [e.quantity for e in v.evidence] == ["a: q", "b: q"]
    assert [(h.name, h.met, h.detail) for h in v.hypotheses] == [("a: H", True, "d"), ("b: H", None, "")]
    assert v.notes == ["a: n", "b: m"]
    assert [f.name for f in v.figures] == ["a-fig"]
    assert (e1.quantity, e2.quantity, f1.name) == ("q", "q", "fig")  # the runs' objects untouched
    assert v.stable_digits == 9 and v.precision == 40 and v.seconds == 3.75
    assert v.dataset == "a, b" and [d.name for d in v.datasets] == ["a", "b"]
    assert (v.verdict, v.certainty, v.range, v.reasons) == (H, "certified", None, [])


def test_combine_one_dataset_has_no_prefix():
    e = Evidence("q", Fraction(1), "<", 2)
    f = Figure("fig", "t", "x", "y", [])
    run = run_of("a", V, "certified", evidence=[e], hyps=[Hypothesis("H", True)], notes=["n"], figures=[f],
                 reasons=["fails: q"])
    v = combine(make_claim(lambda d, p: None), [run], 30)
    assert [x.quantity for x in v.evidence] == ["q"] and v.hypotheses[0].name == "H" and v.notes == ["n"]
    assert [x.name for x in v.figures] == ["fig"] and v.reasons == ["fails: q"] and v.dataset == "a"
    assert v.evidence[0] is not e  # still a copy


def test_combine_without_runs():
    v = combine(make_claim(lambda d, p: None), [], 33)
    assert (v.verdict, v.stable_digits, v.dataset, v.seconds, v.evidence) == (H, 33, "", 0, [])


def test_run_claim_reports_progress_per_dataset():
    ticks = []
    v = run_claim(make_claim(lambda d, p: Outcome(evidence=[OK])), [DATA.with_name("a"), DATA.with_name("b")],
                  dps=20, progress=ticks.append)
    assert ticks == [1, 1] and v.dataset == "a, b" and v.verdict == H
    assert run_claim(make_claim(lambda d, p: Outcome(evidence=[OK])), [DATA], dps=20).precision == 20
    assert run_claim(make_claim(lambda d, p: Outcome(evidence=[OK])), [DATA]).precision == 50  # the default


def test_run_time_is_measured_around_the_run():
    t0 = time.perf_counter()
    run = run_dataset(make_claim(lambda d, p: Outcome(evidence=[OK])), DATA, 20)
    assert 0 <= run.seconds <= time.perf_counter() - t0


# ----- the verdict and its JSON ---------------------------------------------------------------------
def verdict_with(evidence, precision=50, **kw):
    claim = make_claim(lambda d, p: None)
    base = dict(claim=claim, verdict=H, precision=precision, stable_digits=7, hypotheses=[Hypothesis("H", True, "d")],
                evidence=evidence, dataset="tiny", seconds=1.23456, notes=["n1"],
                datasets=[dv("tiny", H, "certified")], certainty="certified", reasons=["r1"])
    base.update(kw)
    return Verdict(**base)


def test_verdict_json_has_every_key_of_the_contract():
    e = Evidence("q", Fraction(1, 3), "<", 1)
    v = verdict_with([e, {"already": "json"}], range="R ≤ 1")
    js = v.to_json()
    assert list(js) == ["claim", "paper", "number", "title", "kind", "verdict", "certainty", "range", "points", "reasons",
                        "precision", "stable_digits", "hypotheses", "evidence", "dataset", "datasets", "seconds",
                        "notes"]
    assert js["claim"] == "mmts.runner-test" and js["paper"] == "mmts" and js["number"] == "Lemma R"
    assert js["title"] == "runner test" and js["kind"] == "inequality"
    assert (js["verdict"], js["certainty"], js["range"], js["reasons"]) == (H, "certified", "R ≤ 1", ["r1"])
    assert (js["precision"], js["stable_digits"], js["dataset"], js["seconds"]) == (50, 7, "tiny", 1.235)
    assert js["hypotheses"] == [{"name": "H", "met": True, "detail": "d"}]
    assert js["datasets"] == [{"name": "tiny", "verdict": H, "certainty": "certified", "range": None, "points": None,
                               "reasons": []}]
    assert js["notes"] == ["n1"]
    assert js["evidence"][1] == {"already": "json"}  # items without to_json pass through
    assert js["evidence"][0]["value"] == third(40)  # 40 digits at most
    json.dumps(js)  # serialisable
    assert js["reasons"] is not v.reasons and js["notes"] is not v.notes


@pytest.mark.parametrize("precision,digits", [(20, 20), (40, 40), (41, 40), (1, 1), (0, 1)])
def test_verdict_json_formats_with_the_working_precision_up_to_40_digits(precision, digits):
    js = verdict_with([Evidence("q", Fraction(1, 3), "<", 1)], precision=precision).to_json()
    assert js["evidence"][0]["value"] == third(digits)


def test_dataset_verdict_json():
    d = dv("a", V, "evidence", "r", ["x"])
    js = d.to_json()
    assert js == {"name": "a", "verdict": V, "certainty": "evidence", "range": "r", "points": None, "reasons": ["x"]}
    js["reasons"].append("y")
    assert d.reasons == ["x"]


def test_verdict_exit_code_label_and_markdown():
    assert verdict_with([], verdict=V, certainty="certified").exit_code == 1
    assert verdict_with([], verdict=I, certainty=None).exit_code == 3
    assert verdict_with([], verdict=N, certainty=None).label == "NOT_APPLICABLE"
    assert verdict_with([], certainty="evidence", range="R ≤ 2").label == "HOLDS — evidence over R ≤ 2"
    v = verdict_with([OK])
    md = v.to_markdown()
    assert isinstance(md, str) and "runner test" in md and v._repr_markdown_() == md
    assert v.to_markdown({}) == md
    fig = Figure("fig-a", "A figure", "x", "y", [])
    v = verdict_with([OK], figures=[fig])
    assert "fig-a.png" in v.to_markdown({"fig-a": "fig-a.png"})
    assert "fig-a.png" not in v.to_markdown() and "A figure" not in v.to_markdown()  # no path: not linked


# ----- freezing a run (verify all --jobs) -----------------------------------------------------------
def test_frozen_evidence_keeps_the_formatted_item():
    e = Evidence("q", Fraction(1, 3), "<", 1, note="nn")
    e.stable_digits = 5
    f = FrozenEvidence.of(e, 10)
    assert (f.quantity, f.holds, f.stable_digits) == ("q", True, 5)
    assert f.data == e.to_json(10) and f.data["value"] == third(10)
    assert f.decide() is True
    assert f.to_json(3) == {**e.to_json(10), "quantity": "q"}  # digits fixed when frozen
    f.quantity = "a: q"  # combine renames a copy
    assert f.to_json(10)["quantity"] == "a: q"
    assert FrozenEvidence.of(Evidence("u", arb(1) + arb(0, 1), "<", 1), 10).decide() is None
    assert FrozenEvidence.of(BAD, 10).decide() is False


@pytest.mark.parametrize("dps,digits", [(20, 20), (60, 40), (1, 1), (0, 1)])
def test_freeze_formats_with_the_working_precision_up_to_40_digits(dps, digits):
    e = Evidence("q", Fraction(1, 3), "<", 1)
    run = run_of("a", evidence=[e], hyps=[Hypothesis("H", True)], notes=["n"], stable=11, seconds=2.0)
    fr = run.freeze(dps)
    assert isinstance(fr.evidence[0], FrozenEvidence) and fr.evidence[0].data["value"] == third(digits)
    assert (fr.verdict, fr.hypotheses, fr.notes, fr.figures, fr.stable, fr.seconds) == (
        run.verdict, run.hypotheses, run.notes, run.figures, 11, 2.0)


def test_a_frozen_run_combines_like_the_live_one():
    t = Tally("ratio ≤ 1", "<=", 1)
    t.add(Fraction(1, 2), "p0")

    def chk(data, prec):
        return Outcome(evidence=[Evidence("q", arb(1) / 3, "<", 1), t.evidence(),
                                 Evidence("trend", arb(2), rule=Decision(True, "decays", "ok"))], range="R ≤ 3")

    claim = make_claim(chk)
    live = [run_dataset(claim, DATA.with_name(n), 30) for n in ("a", "b")]
    frozen = [r.freeze(30) for r in live]
    lj, fj = combine(claim, live, 30).to_json(), combine(claim, frozen, 30).to_json()
    lj.pop("seconds"), fj.pop("seconds")
    assert lj == fj
    assert [e["quantity"] for e in fj["evidence"]] == ["a: q", "a: ratio ≤ 1", "a: trend", "b: q", "b: ratio ≤ 1",
                                                      "b: trend"]
    assert (fj["verdict"], fj["certainty"], fj["range"]) == (H, "evidence", "R ≤ 3")


# ----- coerce_dataset, check ------------------------------------------------------------------------
def test_coerce_dataset(tmp_path):
    assert coerce_dataset(DATA) is DATA
    d = coerce_dataset({"X": [[[1, 0], [0, 1]]], "Y": [1], "v": [1, 0]})
    assert isinstance(d, Dataset) and d.name == "dataset" and d.X == DATA.X and d.v == DATA.v
    p = tmp_path / "d.json"
    p.write_text(json.dumps({"X": [[[1, 0], [0, 2]]], "Y": [-1], "v": [0, 1]}))
    d = coerce_dataset(str(p))
    assert d.Y == (-1,) and d.X[0][1] == (0, 2)
    for bad in (3, [1, 2], None):
        with pytest.raises(DataError, match=f"cannot use a {type(bad).__name__} as a dataset"):
            coerce_dataset(bad)


@pytest.fixture()
def registered():
    seen = []

    def chk(data, prec):
        seen.append((data.name, prec.dps))
        return Outcome(evidence=[OK])

    def defaults(seed=0):
        seen.append(("seed", seed))
        return [DATA.with_name("d1"), DATA.with_name("d2")]

    claim = register(Claim(id="mmts.zz-runner-check", paper="mmts", number="Z", title="z", kind="inequality",
                           statement="s", check=chk, default_datasets=defaults, aliases=("zz-runner-alias",),
                           module="tests.fake_runner"))
    yield claim, seen
    del REGISTRY.claims[claim.id]
    del REGISTRY.aliases["zz-runner-alias"]


def test_check_runs_the_default_datasets(registered):
    claim, seen = registered
    v = check("zz-runner-alias", precision=20)
    assert v.claim is claim and v.verdict == H and v.precision == 20
    assert seen == [("seed", 0), ("d1", 20), ("d1", 40), ("d2", 20), ("d2", 40)]


def test_check_on_given_data(registered, tmp_path):
    claim, seen = registered
    v = check("mmts.zz-runner-check", data=DATA, precision=15)
    assert v.dataset == "tiny" and seen == [("tiny", 15), ("tiny", 35)]
    seen.clear()
    v = check("mmts.zz-runner-check", data={"X": [[[1, 0], [0, 1]]], "Y": [1], "v": [1, 0]})
    assert v.dataset == "dataset" and v.precision == 50 and seen == [("dataset", 50), ("dataset", 75)]
