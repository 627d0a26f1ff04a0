"""The default datasets of the mmts claims (mutation testing, area mmts): every dataset has its own
explicit name (the per-dataset verdicts and figures are keyed by it), the default seed is 0 and a seed
given is honoured, and a seeded random dataset is the one its name describes — shape, labels, keys and
seed — so a report can be replayed from the name alone."""
import re

import pytest
from claim_helpers import assert_names_explicit_and_distinct, default_datasets

from lemmas.mmts import lemma3, lemma4, lemma7, thm2, thm2_stationary
from verify.data import mmts as D
from verify.data.generators import random_dataset
from verify.geometry.cone_data import random_dataset_with_lmm
from verify.geometry.stationarity import feasible_assumption_b_dataset

MODULES = ("lemma1", "lemma2", "lemma3", "lemma4", "lemma6", "lemma7", "lemma11", "thm2", "thm2_stationary", "thm3",
           "cone_invariance")
RANDOM = re.compile(r"^random-(?P<pos>positive-)?n(?P<n>\d+)T(?P<T>\d+)d(?P<d>\d+)(?P<keys>-keys)?(?P<u>-u)?-s(?P<s>\d+)$")
SEEDED = re.compile(r"-s\d+")


def defaults(module, *seed):
    return default_datasets("mmts", module, *seed)


@pytest.mark.parametrize("module", MODULES)
def test_default_names_are_explicit_and_distinct(module):
    assert_names_explicit_and_distinct(defaults(module))


@pytest.mark.parametrize("module", [m for m in MODULES if m != "lemma11"])
def test_default_seed_is_zero_and_a_given_seed_is_honoured(module):
    base, zero, other = defaults(module), defaults(module, 0), defaults(module, 3)
    assert [d.to_dict() for d in base] == [d.to_dict() for d in zero]
    assert [d.name for d in base] == [d.name for d in zero]
    for a, b in zip(base, other):
        if SEEDED.search(a.name):  # a seeded random dataset follows the seed
            assert a.name != b.name and a.to_dict() != b.to_dict(), a.name
        else:
            assert a.to_dict() == b.to_dict() and a.name == b.name


@pytest.mark.parametrize("module", MODULES)
def test_random_datasets_are_the_ones_their_names_describe(module):
    checked = 0
    for seed in (0, 3):
        for data in defaults(module, seed):
            m = RANDOM.match(data.name)
            if not m:
                continue
            n, T, d, s = (int(m[k]) for k in ("n", "T", "d", "s"))
            want = random_dataset(n=n, T=T, d=d, seed=s, labels="positive" if m["pos"] else "random",
                                  keys=bool(m["keys"]))
            assert (data.n, data.T, data.d) == (n, T, d), data.name
            assert (data.X, data.Y, data.v, data.K) == (want.X, want.Y, want.v, want.K), data.name
            if m["pos"]:
                assert set(data.Y) == {1}
            checked += 1
    if module in ("lemma1", "lemma2", "lemma3", "lemma6"):
        assert checked >= 2


# ----- The default datasets of the mmts claims, constructor by constructor (mutation testing, area mmts): the
# paper's figures named in each claim's docstring, and the seeded generators with the shapes (n, T, d) and
# the seed the claim documents — equal, as data, to building them here (for seed 4, and the default seed 0).




def expected(module, seed):
    return {
        "lemma7": [D.mmts_fig1b(), random_dataset_with_lmm(n=2, T=3, d=2, seed=seed),
                   random_dataset_with_lmm(n=3, T=3, d=2, seed=seed), random_dataset_with_lmm(n=2, T=3, d=3, seed=seed)],
        "thm2": [D.mmts_fig1a(), feasible_assumption_b_dataset(n=1, T=4, d=3, seed=seed), D.mmts_fig8_substitute()],
        "thm2_stationary": [D.mmts_fig1a(), D.mmts_fig8_substitute(), feasible_assumption_b_dataset(n=2, T=4, d=4, seed=seed)],
        "lemma3": [D.mmts_fig1b(), D.mmts_fig1c(), random_dataset(n=3, T=5, d=3, seed=seed)],
        "lemma4": [D.mmts_fig1a(), D.mmts_fig1c(), D.mmts_fig8_substitute(),
                   feasible_assumption_b_dataset(n=2, T=4, d=4, seed=seed), lemma4.tight_T2_dataset()],
    }[module]


CLAIM_MODULES = {"lemma7": lemma7, "thm2": thm2, "thm2_stationary": thm2_stationary, "lemma3": lemma3, "lemma4": lemma4}


def data_of(d):
    return (d.X, d.Y, d.v, d.K)


@pytest.mark.parametrize("module", sorted(CLAIM_MODULES))
def test_default_datasets_are_built_by_the_documented_constructors(module):
    claim = CLAIM_MODULES[module].CLAIM
    for seed in (4,):
        got, want = claim.default_datasets(seed), expected(module, seed)
        assert [data_of(d) for d in got] == [data_of(d) for d in want], (module, seed)
    assert [data_of(d) for d in claim.default_datasets()] == [data_of(d) for d in expected(module, 0)]

def test_lemma2_default_names_follow_the_seed():
    from lemmas.mmts import lemma2

    names = [d.name for d in lemma2.CLAIM.default_datasets(2)]
    assert names == ["random-positive-n3T4d3-s2", lemma2.keyed_full_rank_dataset().name, "random-positive-n2T3d1-s3"]
