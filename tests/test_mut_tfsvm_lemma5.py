"""tfsvm.lemma5 (mutation tests): the constructed ``flaw_t3`` is the dataset its docstring derives (its name, and
v = e₂ so the scores γ = Y·Xv are γ₁ = (1, 0, −1), γ₂ = −(2, 0, −2) = (−2, 0, 2)), and the ``figure`` option reaches
the outcome (default on: the κ(α) figure is shown; ``figure=False``: none)."""
from fractions import Fraction

from lemmas.tfsvm import lemma5
from verify.data import tfsvm as D
from verify.numbers.precision import working_precision


def test_flaw_t3_is_the_derived_dataset():
    data = lemma5.flaw_t3()
    assert data.name == "tfsvm-lemma5-flaw-T3"
    assert [list(map(Fraction, g)) for g in data.scores] == [[1, 0, -1], [-2, 0, 2]]
    assert [list(map(Fraction, v)) for v in [data.v]] == [[0, 1]]


def test_figure_option_reaches_the_outcome():
    with working_precision(30) as prec:
        shown = lemma5.evaluate(D.d_lmm(), prec)
        hidden = lemma5.evaluate(D.d_lmm(), prec, figure=False)
    assert len(shown.figures) == 1 and shown.figures[0].name == "kappa"
    assert hidden.figures == []
    assert shown.decision().verdict == hidden.decision().verdict == "HOLDS"
