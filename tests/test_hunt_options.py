"""``verify hunt`` draws a claim's declared parameters with its datasets, shrinks both, and saves the parameter values
in the dataset JSON (``options``) so that ``--data`` replays the find. The claim here is built for the test (not
registered): "for every k ∈ (0, 10]: k·n ≤ 5" — true at the default k = 1 on every dataset with n ≤ 5 (the hunt's
datasets have n ≤ 3), false once k > 5/n: only a non-default option value exposes the violation."""
from fractions import Fraction

import pytest

from verify.claims import Claim, Evidence, Outcome, run_claim
from verify.claims.registry import Parameter
from verify.data.dataset import Dataset, load_dataset
from verify.errors import DataError
from verify.search.hunt import hunt, option_strategies, save_counterexample


def _check(data, prec, k=Fraction(1)):
    out = Outcome()
    out.add(Evidence("k·n ≤ 5", Fraction(k) * data.n, "<=", 5))
    return out


CLAIM = Claim(id="mmts.toy-hunt", paper="mmts", number="toy", title="k·n ≤ 5 for every k", kind="inequality",
              statement="for every k in (0, 10]: k·n ≤ 5", check=_check,
              default_datasets=lambda seed=0: [Dataset.make(X=[[[1], [0]]], Y=[1], v=[1])],
              parameters=(Parameter("k", "for every k ∈ (0, 10]", "search", "drawn by verify hunt", option="k",
                                    low=0, high=10, hunt=True),))


def test_the_default_option_holds_on_every_hunted_shape():
    for n in (1, 2, 3):
        data = Dataset.make(X=[[[1], [0]]] * n, Y=[1] * n, v=[1])
        assert run_claim(CLAIM, [data], dps=20).verdict == "HOLDS"


def test_hunt_finds_the_violation_through_the_option_and_the_saved_json_replays_it(tmp_path):
    assert set(option_strategies(CLAIM)) == {"k"}
    found, tried = hunt(CLAIM, budget=60, dps=20)
    assert found is not None and tried >= 1
    k = Fraction(found.options_for(CLAIM.id)["k"])
    assert 0 < k <= 10 and k * found.n > 5          # the find violates the statement as written
    path = save_counterexample(found, CLAIM.id, str(tmp_path))
    replay = load_dataset(path)
    assert replay.options_for(CLAIM.id) == found.options_for(CLAIM.id)
    assert run_claim(CLAIM, [replay], dps=30).verdict == "VIOLATED"
    plain = Dataset.make(X=[list(map(list, s)) for s in replay.X], Y=list(replay.Y), v=list(replay.v))
    assert run_claim(CLAIM, [plain], dps=30).verdict == "HOLDS"   # the same data at the default k


def test_options_are_validated_against_the_declaration():
    data = Dataset.make(X=[[[1], [0]]], Y=[1], v=[1])
    for bad, message in (({"k": "11"}, "at most 10"), ({"k": "0"}, "above 0"), ({"j": "1"}, "unknown option")):
        with pytest.raises(DataError, match=message):
            run_claim(CLAIM, [data.with_options(CLAIM.id, {key: Fraction(v) for key, v in bad.items()})], dps=20)
    with pytest.raises(DataError, match="expected a number"):
        Dataset.from_dict({"X": [[[1], [0]]], "Y": [1], "v": [1], "options": {CLAIM.id: {"k": [True]}}})
    other = data.with_options("mmts.other-claim", {"k": Fraction(100)})   # another claim's options are not ours
    assert run_claim(CLAIM, [other], dps=20).verdict == "HOLDS"
