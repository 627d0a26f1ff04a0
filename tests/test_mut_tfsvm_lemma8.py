"""tfsvm.lemma8 (mutation tests): the telescoped sum Σ_{k<K}‖∇f(w_k)‖² and its bound 2(f(w_0) − f⋆)/η in closed form
on the quadratic, the descent comparison's bound 0 (a small violation is still one), the run continued exactly to
10·steps on a plateau (every step decided once), and the quadratic's default dimension.

Quadratic f(w) = (L/2)‖w‖², L = 2, η = (1/2)/L = 1/4 (exact in binary, so the rounded-down η is 1/4): w_{k+1} =
(1 − ηL)w_k = w_k/2, ‖∇f(w_k)‖² = L²‖w_0‖²·4^{−k}; from w_0 = (1, 1): Σ_{k<K} = 8·(1 − 4^{−K})/(3/4), the bound
2·(L/2)‖w_0‖²/η = 16."""
from fractions import Fraction

from lemmas.tfsvm import lemma8 as M
from verify.data import Dataset
from verify.numbers.precision import to_arb, working_precision


def _quad(**kw):
    with working_precision(30) as prec:
        return M.evaluate(None, prec, objective=M.Quadratic(2), **kw)


def test_the_telescoped_sum_and_its_bound_in_closed_form():
    for K in (1, 5, 12):
        out = _quad(factor=Fraction(1, 2), starts=[[1, 1]], steps=K)
        tel = [e for e in out.evidence if e.quantity.startswith(f"Σ_k<{K} ‖∇L(W(k))‖² ≤ 2(L(W(0)) − L⋆)/η")]
        assert len(tel) == 1
        want = Fraction(8) * (1 - Fraction(1, 4 ** K)) / Fraction(3, 4)
        assert abs(tel[0].value - to_arb(want)) < to_arb(Fraction(1, 10 ** 25))
        assert abs(tel[0].bound - 16) < to_arb(Fraction(1, 10 ** 25)) and tel[0].relation == "<="
        descent = [e for e in out.evidence if e.coverage is not None][0]
        assert descent.coverage.points == K and descent.bound == 0


def test_a_small_descent_violation_is_still_a_violation():
    """The printed range η ≈ 2/L (factor 2, rounded down) from w_0 = (1/10, 0): the step maps w to ≈ −w, so
    f(w⁺) − f(w) + (η/2)‖∇f‖² ≈ (η/2)L²‖w_0‖² = L‖w_0‖² = 1/50 > 0 at k = 0 — below 1, above 0."""
    out = _quad(factor=2, printed=True, starts=[[Fraction(1, 10), 0]], steps=2)
    descent = [e for e in out.evidence if e.coverage is not None][0]
    assert abs(descent.value - to_arb(Fraction(1, 50))) < to_arb(Fraction(1, 10 ** 6))
    assert descent.coverage.violated == 2 and out.decision().verdict == "VIOLATED"


def test_a_plateau_continues_the_run_to_exactly_ten_times_the_steps():
    """The slow-saturation data of tests/test_tfsvm_lemma8.py (‖∇L‖ grows for thousands of steps from W(0) = 2/5):
    with steps = 210 the run is continued once to 2100 steps, each step's descent decided exactly once."""
    data = Dataset.make(X=[[["14/3"], [0]]], Y=[-1], v=[1], name="slow-saturation")
    with working_precision(30) as prec:
        out = M.evaluate(data, prec, steps=210, starts=[[Fraction(2, 5)]])
    descent = [e for e in out.evidence if e.coverage is not None]
    assert len(descent) == 1 and descent[0].coverage.points == 2100 and descent[0].coverage.holds == 2100
    assert [e for e in out.evidence if e.quantity.startswith("Σ_k<2100 ")]
    assert out.range.startswith("k ≤ 2100 GD steps")
    decay = [e for e in out.evidence if e.quantity.startswith("‖∇L(W(k))‖_F → 0")]
    assert len(decay) == 1 and decay[0].rule.holds is None and decay[0].rule.rule  # undecided, the rule still named


def test_the_quadratic_is_two_dimensional_by_default():
    assert M.Quadratic(3).dim == 2
    out = _quad(factor=Fraction(1, 2), steps=3)
    assert [e for e in out.evidence if "W(0) = (0, 0)" in e.quantity]


def test_the_last_gradient_norm_is_the_item_and_the_range_names_eta():
    """‖∇f(w_K)‖ = L‖w_0‖·2^{−K} = 2√2·2^{−K} at the last checkpoint K; the range names η = factor/L."""
    out = _quad(factor=Fraction(1, 2), starts=[[1, 1]], steps=12)
    g = [e for e in out.evidence if e.quantity.startswith("‖∇L(W(k))‖_F → 0, W(0) = (1, 1) (k = 1, 10, 12)")]
    with working_precision(30):
        assert len(g) == 1 and abs(g[0].value - 2 * to_arb(2).sqrt() / 2 ** 12) < to_arb(Fraction(1, 10 ** 25))
    assert out.range == "k ≤ 12 GD steps, η = (1/2)/L"
    assert out.covers[-1] == "W(0) ∈ the 1 given start(s)"
    one = _quad(factor=1, starts=[[1, 1]], steps=3)
    assert one.range == "k ≤ 3 GD steps, η = 1/L"


def test_default_starts_the_seeded_point_and_assumption_a_on_data():
    """Default starts: 0 and one point with entries randint(−20, 20)/10 of random.Random(0); on data (not on an
    objective given) Assumption A is a hypothesis."""
    import random

    rng = random.Random(0)
    w = [Fraction(rng.randint(-20, 20), 10) for _ in range(2)]
    out = _quad(factor=Fraction(1, 2), steps=3)
    assert out.covers[-1] == "W(0) ∈ {0, one seeded point (seed 0)}" and not out.hypotheses[:-1]
    assert [e for e in out.evidence if f"W(0) = ({', '.join(map(str, w))})" in e.quantity]
    from verify.data import tfsvm as D

    with working_precision(30) as prec:
        data = M.evaluate(D.d_t2(), prec, steps=3)
    assert [h.name for h in data.hypotheses][0].startswith("Assumption A")


def test_the_printed_cap_is_two():
    """printed=True allows η ≤ 2/L only: factor 5/2 is refused (and 2 is allowed, see tests/test_tfsvm_lemma8.py)."""
    out = _quad(factor=Fraction(5, 2), printed=True, starts=[[1, 1]], steps=2)
    d = out.decision()
    assert d.verdict == "NOT_APPLICABLE" and "η ≤ 2/L_W" in d.reasons[0]
