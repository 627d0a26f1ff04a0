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
    """``verify <claim> --prove --report DIR``: the page's reproduce line repeats --prove (a reader re-runs the same
    budget); the verdict is unchanged on a claim whose regions the default budget already proves."""
    from cli_helpers import run

    code, out, err = run(["tfsvm.lemma9", "--prove", "--report", str(tmp_path)], capsys)
    assert code == 0, err
    page = (tmp_path / "tfsvm.lemma9.md").read_text(encoding="utf-8")
    assert "python -m verify tfsvm.lemma9 --precision 50 --prove" in page
    assert "HOLDS — proven on every W ∈ ℝ^{d×d}" in page
