"""tfsvm.lemma16 (mutation tests): the constructed and the seeded datasets as their docstrings state them (flaw_pair:
x₁ = (1, 0), x₂ = (−2, 0), v = e₁, Y = 1; random_seed(s): n = 1, T = 3, d = 3, labels all +1, named by its seed),
and the ``figure`` option: the κ figure drawn by default, none with figure=False (the verdict the same)."""
from fractions import Fraction

from lemmas.tfsvm import lemma16
from verify.numbers.precision import working_precision


def test_flaw_pair_is_the_documented_construction():
    """γ = Y vᵀx_t = (1, −2) from v = e₁ (a v with a second component would change nothing here, but it is not the
    dataset the docstring derives W^mm from)."""
    data = lemma16.flaw_pair()
    assert data.X == (((1, 0), (-2, 0)),) and data.Y == (1,) and data.v == (Fraction(1), Fraction(0))
    assert data.name == "tfsvm-lemma16-flaw-pair" and data.scores == ((1, -2),)


def test_random_seed_shape_labels_and_name():
    for seed in (5, 6):
        data = lemma16.random_seed(seed)
        assert (data.n, data.T, data.d) == (1, 3, 3) and data.Y == (1,)
        assert data.name == f"tfsvm-lemma16-random-n1T3d3-s{seed}"
    assert lemma16.random_seed(5).X != lemma16.random_seed(6).X


def test_default_datasets_are_the_documented_ones():
    """The constructed flaw_pair, the seed-6 find (a finite κ < 0) and the seed-5 dataset (every support nonempty)."""
    names = [d.name for d in lemma16.default_datasets()]
    assert names == ["tfsvm-lemma16-flaw-pair", "tfsvm-lemma16-random-n1T3d3-s6", "tfsvm-lemma16-random-n1T3d3-s5"]


def test_figure_option():
    """random_seed(6), α = (2, 2, 3) only (1-indexed; locally optimal with a finite κ < 0, VIOLATED either way): the κ
    figure by default, none with figure=False."""
    data = lemma16.random_seed(6)
    with working_precision(20) as prec:
        drawn = lemma16.evaluate(data, prec, alpha=((1, 1, 2),))
        bare = lemma16.evaluate(data, prec, alpha=((1, 1, 2),), figure=False)
    assert drawn.figures and bare.figures == []
    assert drawn.decision().verdict == bare.decision().verdict == "VIOLATED"
