"""Exact conversion and round trips of the dataset JSON."""
from fractions import Fraction

import pytest

from verify.data.dataset import DataError, Dataset, format_exact, loads
from verify.data.generators import random_dataset
from verify.data.mmts import PAPER_DATASETS


def test_strings_and_numbers_convert_exactly():
    d = loads('{"X": [[[0.1, "1/3"], ["0.1", 1e-30]]], "Y": [1], "v": [1, 0]}')
    assert d.X[0][0] == (Fraction(1, 10), Fraction(1, 3))
    assert d.X[0][1] == (Fraction(1, 10), Fraction(1, 10**30))


@pytest.mark.parametrize("x", [Fraction(1, 3), Fraction(-1, 8), Fraction(5), Fraction(-7, 1250), Fraction(1, 10**40)])
def test_format_exact_round_trips(x):
    text = format_exact(x)
    assert Fraction(text) == x


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("entries", ["integer", "rational", "float"])
def test_json_round_trip_is_exact(seed, entries):
    d = random_dataset(n=2, T=3, d=2, seed=seed, entries=entries, keys=True, queries=True)
    assert loads(d.to_json(), name=d.name) == d


def test_paper_datasets_load():
    for name, make in PAPER_DATASETS.items():
        d = make()
        assert d.n >= 1 and d.T >= 2


def test_scores_are_exact():
    d = Dataset.make(X=[[["0.1", 0], [0, "0.2"]]], Y=[-1], v=["0.3", 1])
    assert d.scores == ((Fraction(-3, 100), Fraction(-1, 5)),)


def test_bool_is_not_a_number():
    with pytest.raises(DataError):
        loads('{"X": [[[true, 0], [0, 1]]], "Y": [1], "v": [1, 0]}')
