"""``--prove``: every region search's box budget scaled (verify.numbers.regions.budget_scale), on the CLI too.

g(x) = |x − 1/3| + 10⁻⁶ > 0 on [0, 1]: true, with the margin 10⁻⁶ at x = 1/3 (not a dyadic point), so the search
must bisect down to boxes of width ~10⁻⁶ there — more than a handful of boxes (counted here, not assumed)."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from verify.numbers.precision import working_precision
from verify.numbers.regions import Margin, budget_scale, prove


def margin():
    return Margin(lambda x, o: o.abs(x[0] - o.const(F(1, 3))) + o.const(F(1, 10**6)), (0,), (1,), relation=">")


@pytest.fixture(autouse=True)
def _precision():
    with working_precision(30):
        yield


def test_the_scale_multiplies_the_budget_and_resets_after():
    full = prove(margin(), max_boxes=10**5)
    assert full.status == "proven" and full.boxes >= 15
    small = full.boxes // 4  # too few boxes for the proof …
    assert prove(margin(), max_boxes=small).status == "undecided"
    with budget_scale(5):  # … five times as many suffice (5·⌊n/4⌋ ≥ 5(n − 3)/4 ≥ n for n ≥ 15)
        res = prove(margin(), max_boxes=small)
    assert res.status == "proven" and res.boxes == full.boxes  # the same deterministic search, finished
    assert prove(margin(), max_boxes=small).status == "undecided"  # outside the context: the default budget


def test_a_scale_below_one_is_one():
    with budget_scale(0):
        assert prove(margin(), max_boxes=3).boxes == 3


def test_the_cli_takes_prove_and_names_it_in_the_reproduce_line(tmp_path, capsys):
    """``verify <claim> --prove --report DIR``: the page's reproduce line and the report's options repeat --prove (a
    reader re-runs the same budget); the verdict is unchanged (mmts.lemma3: proven by exact algebra, no region search
    to slow the test — the budget itself is tested above and in the ladder test below)."""
    import json

    from cli_helpers import run

    code, out, err = run(["mmts.lemma3", "--prove", "--report", str(tmp_path)], capsys)
    assert code == 0, err
    page = (tmp_path / "mmts.lemma3.md").read_text(encoding="utf-8")
    assert "python -m verify mmts.lemma3 --precision 50 --prove" in page
    assert "HOLDS — proven on every s in the open simplex" in page
    assert json.loads((tmp_path / "mmts.lemma3.json").read_text())["provenance"]["options"] == {"prove": True}


def disc():
    """g(x, y) = 1 − x² − y² + 1/100 > 0 on [−7/10, 7/10]²: true (x² + y² ≤ 49/50 < 1 + 1/100), tight in the corners."""
    return Margin(lambda x, o: o.const(F(101, 100)) - x[0] * x[0] - x[1] * x[1], (F(-7, 10),) * 2, (F(7, 10),) * 2,
                  ("x", "y"))


@pytest.mark.parametrize("make", [disc, margin])
def test_a_split_search_gives_the_same_result_for_every_number_of_workers(make):
    """region_jobs(n): the same status, leaves (paths and enclosures), boxes and smallest margin for n = 1, 2, 3; the
    leaves form a complete bisection tree of the region, so the certificate re-checks with mpmath iv."""
    from verify.numbers.regions import certificate, check_tree, recheck, region_jobs

    runs = []
    for jobs in (1, 2, 3):
        with region_jobs(jobs):
            runs.append(prove(make(), max_boxes=10**5))
    first = runs[0]
    assert first.status == "proven"
    for other in runs[1:]:
        assert (other.status, other.boxes, other.smallest) == (first.status, first.boxes, first.smallest)
        assert [(p, k, str(e)) for p, k, e in other.leaves] == [(p, k, str(e)) for p, k, e in first.leaves]
    assert check_tree([p for p, _, _ in first.leaves], make().dim) == ""
    cert = certificate(first, claim="test", margin_name="m", params={}, dps=30)
    assert recheck(cert, make()).ok


def test_a_split_search_refutes_with_the_same_witness_for_every_number_of_workers():
    """A bound 1 % too tight: 1 − x² − y² − 1/100 > 0 fails near the corners; the witness (the first in path order)
    is certain and the same for n = 1 and 2."""
    from verify.numbers.regions import region_jobs

    bad = Margin(lambda x, o: o.const(F(99, 100)) - x[0] * x[0] - x[1] * x[1], (F(-1),) * 2, (F(1),) * 2, ("x", "y"))
    found = []
    for jobs in (1, 2):
        with region_jobs(jobs):
            res = prove(bad, max_boxes=10**4)
        assert res.status == "violated"
        x, y = res.witness
        assert x * x + y * y > F(99, 100)  # exactly: a counterexample
        found.append(res.witness)
    assert found[0] == found[1]


def test_a_split_search_shares_the_budget_and_reports_the_volume_left():
    """|x − 1/3| ≥ 0 is never decided near 1/3: the split search ends undecided; the sub-boxes [k/8, (k+1)/8] other
    than [1/4, 3/8] (path 0-0+0-) are proven at once, so every box left lies in that one, which holds 1/3."""
    from verify.numbers.regions import box_of, region_jobs

    with region_jobs(2):
        res = prove(Margin(lambda x, o: o.abs(x[0] - o.const(F(1, 3))), (0,), (1,), relation=">="), max_boxes=80)
    assert res.status == "undecided" and 0 < res.undecided_fraction < 1
    assert res.undecided and all(p.startswith("0-0+0-") for p in res.undecided)
    assert box_of(res.margin, "0-0+0-") == ((F(1, 4),), (F(3, 8),))


def test_the_cli_jobs_flag_gives_the_same_region_items(capsys):
    """``verify tfsvm.lemma9 --jobs N --json``: the region items (status, boxes, leaves, smallest margin) are the same
    for N = 1 and 2; a silly N is a usage error (exit 2, one line)."""
    import json

    from cli_helpers import one_line, run

    regions = []
    for jobs in ("1", "2"):
        code, out, err = run(["tfsvm.lemma9", "--jobs", jobs, "--json"], capsys)
        assert code == 0, err
        items = [(e["quantity"], e["value"], e["region"]) for e in json.loads(out)["evidence"] if "region" in e]
        assert items and all(r["status"] == "proven" for _, _, r in items)
        regions.append([(q, v, r["boxes"], r["leaves"], r["region"]) for q, v, r in items])
    assert regions[0] == regions[1]
    code, _, err = run(["tfsvm.lemma9", "--jobs", "0"], capsys)
    assert code == 2 and "--jobs" in one_line(err)


def test_prove_starts_the_auto_ladder_two_doublings_above_the_logit_box():
    """Features with max ‖F_it‖₁ = 3: the logit box is r₀ = 1/4 (1/4·3 ≤ 1 < 1/2·3); a margin proven at once (g = 1)
    makes the first rung the item: 1/4 by default, 1 = 2²·r₀ under --prove's budget scale."""
    from verify.claims import Outcome
    from verify.data.dataset import Dataset
    from verify.kit.region_inequality import prove_on_halved_boxes

    feats = [[[1, 2], [0, F(1, 2)]]]
    data = Dataset.make(X=feats, Y=[1], v=[1, 0], name="tiny")
    tried = []

    def build(r):
        tried.append(r)
        return "g", Margin(lambda x, ops: ops.const(1), (-r, -r), (r, r)), {"radius": str(r)}, f"‖θ‖∞ ≤ {r}"

    with working_precision(20):
        for scale, first in ((1, F(1, 4)), (25, F(1))):
            tried.clear()
            with budget_scale(scale):
                item = prove_on_halved_boxes(Outcome(), "auto", feats, build, rungs=3, claim="c", name="n", data=data,
                                             dps=20, max_boxes=10)
            assert tried == [first] and item.proof.region == f"‖θ‖∞ ≤ {first}"
