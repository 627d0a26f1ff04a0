"""The default datasets of the tfsvm claims (mutation testing, area tfsvm): every dataset has its own explicit name
(per-dataset verdicts and figures are keyed by it), the default seed is 0 and a seed given is honoured, and a seeded
random dataset is the one its name describes — shape, query vectors and seed — so a report can be replayed from the
name alone (the generator rerun here from the name's fields must give the same entries)."""
import pkgutil
import re

import pytest
from claim_helpers import assert_names_explicit_and_distinct, default_datasets

import lemmas.tfsvm as P
from verify.data.generators import random_dataset

MODULES = sorted(m.name for m in pkgutil.iter_modules(P.__path__))
#: random-n2T3d3-z-s0: n = 2 sequences, T = 3 tokens, d = 3, query vectors z (cross-attention), seed 0;
#: "-self-": no query vectors (self-attention)
RANDOM = re.compile(r"^random-n(?P<n>\d+)T(?P<T>\d+)d(?P<d>\d+)-(?P<kind>z|self)-s(?P<s>\d+)$")


def defaults(module, *seed):
    return default_datasets("tfsvm", module, *seed)


@pytest.mark.parametrize("module", MODULES)
def test_default_names_are_explicit_and_distinct(module):
    assert_names_explicit_and_distinct(defaults(module))


@pytest.mark.parametrize("module", MODULES)
def test_default_seed_is_zero_and_a_given_seed_is_honoured(module):
    base, zero, other = defaults(module), defaults(module, 0), defaults(module, 3)
    assert [d.to_dict() for d in base] == [d.to_dict() for d in zero]
    for a, b in zip(base, other):
        if RANDOM.match(a.name):  # a seeded random dataset follows the seed
            assert a.name.endswith("-s0") and b.name.endswith("-s3") and a.to_dict() != b.to_dict(), a.name


def test_the_random_defaults_are_the_ones_their_names_describe():
    checked = set()
    for module in MODULES:
        for seed in (0, 3):
            for data in defaults(module, seed):
                m = RANDOM.match(data.name)
                if not m:
                    continue
                n, T, d, s = (int(m[k]) for k in ("n", "T", "d", "s"))
                assert s == seed, data.name
                queries = m["kind"] == "z"
                want = random_dataset(n=n, T=T, d=d, seed=s, queries=queries)
                assert (data.n, data.T, data.d) == (n, T, d), (module, data.name)
                assert (data.z is not None) == queries, (module, data.name)
                assert (data.X, data.Y, data.v, data.z) == (want.X, want.Y, want.v, want.z), (module, data.name)
                checked.add(module)
    # the modules whose defaults end with a seeded random dataset (read off their default_datasets)
    assert checked == {"aux_feasibility", "aux_invariances", "lemma15", "lemma2", "lemma4", "lemma7", "thm1", "thm8"}
