"""tfsvm.lemma5 (LMM ⇔ separating cone): the printed part (a) fails on D-T2 and on the constructed ``flaw_t3`` (a
locally-optimal α whose deviating sequence has no support index and selects its lowest-scored token: κ = −∞),
certified; D-LMM (n = 1, every 𝒯 nonempty) HOLDS with κ(B) = 1/√5 from the spec's W^mm_B; no feasible Att-SVM or an
infeasible ``alpha`` → NOT_APPLICABLE."""
from fractions import Fraction

from flint import arb

from lemmas.tfsvm import lemma5
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry.separating_cone import NEG_INF, selection
from verify.numbers.precision import working_precision


def _margin(x_a, x_t, W, z):
    """(x_a − x_t)ᵀ W z with W given as rows, in Fractions."""
    diff = [Fraction(a) - Fraction(b) for a, b in zip(x_a, x_t)]
    Wz = [sum(Fraction(w) * Fraction(c) for w, c in zip(row, z)) for row in W]
    return sum(a * b for a, b in zip(diff, Wz))


def test_defaults_violated_certified():
    v = run_claim(lemma5.CLAIM, lemma5.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "VIOLATED" and v.certainty == "certified"


def test_d_t2_alpha_11_has_an_empty_cone():
    """Spec §6: W^mm_α = [[1/2, 0], [1/2, 0]] for α = (1, 1); margins 1 (sequence 1) and 2 (sequence 2: 𝒯₂ = ∅);
    sequence 2 scores (−2, 0), so α₂ = 1 is its lowest token: low₂ = ∅, high₂ = {2}, κ = −∞."""
    data = D.d_t2()
    W = [[Fraction(1, 2), 0], [Fraction(1, 2), 0]]
    X, Z = data.X, data.queries()
    assert _margin(X[0][0], X[0][1], W, Z[0]) == 1 and _margin(X[1][0], X[1][1], W, Z[1]) == 2
    assert data.scores[1][0] < data.scores[1][1]
    s = selection(data, (0, 0))
    assert list(s.W) == [Fraction(1, 2), 0, Fraction(1, 2), 0] and s.locally_optimal and s.kappa == NEG_INF
    with working_precision(30) as prec:
        d = lemma5.evaluate(data, prec, figure=False).decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    assert "(a)" in d.reasons[0] and "α = (1,1)" in d.reasons[0] and "low = ∅" in d.reasons[0]


def test_constructed_flaw_violated():
    """flaw_t3, α = (1, 1): w = (1/2, 1/2) meets (a − b)ᵀw = (a − c)ᵀw = 1 with equality (the least-norm point of the
    two constraints, as (1,1) and (0,2) have positive multipliers), W = w e₁ᵀ; sequence 2 then has margins 2·1 = 2."""
    data = lemma5.flaw_t3()
    W = [[Fraction(1, 2), 0], [Fraction(1, 2), 0]]
    X, Z = data.X, data.queries()
    assert [_margin(X[0][0], X[0][t], W, Z[0]) for t in (1, 2)] == [1, 1]
    assert [_margin(X[1][0], X[1][t], W, Z[1]) for t in (1, 2)] == [2, 2]
    assert data.scores[1][0] == min(data.scores[1])
    s = selection(data, (0, 0))
    assert list(s.W) == [Fraction(1, 2), 0, Fraction(1, 2), 0] and s.support[(1,)] == [] and s.locally_optimal
    with working_precision(30) as prec:
        d = lemma5.evaluate(data, prec, figure=False).decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified" and "high = {2, 3}" in d.reasons[0]


def test_d_lmm_holds_with_the_spec_kappa():
    """D-LMM, α = B: W^mm_B z = (0, −4/5, 2/5) (spec), low = {C}, high = {A}: κ = (x_C − x_A)ᵀw/‖w‖ = (2/5)/√(4/5)
    = 1/√5; α = C (not locally optimal) has low = ∅: κ = −∞."""
    data = D.d_lmm()
    s = selection(data, (1,))
    assert s.locally_optimal and list(s.W[3:9:3]) == [Fraction(-4, 5), Fraction(2, 5)]
    assert abs(s.kappa - 1 / arb(5).sqrt()) < arb(10) ** -12
    assert selection(data, (2,)).kappa == NEG_INF and not selection(data, (2,)).locally_optimal
    with working_precision(30) as prec:
        d = lemma5.evaluate(data, prec, figure=False).decision()
    assert d.verdict == "HOLDS" and d.certainty == "certified"


def test_no_feasible_selection_is_not_applicable():
    twin = Dataset.make(X=[[[1, 0], [1, 0]]], Y=[1], v=[1, 0], z=[[1, 1]], name="twin-tokens")  # 0 ≥ 1 for every α
    with working_precision(20) as prec:
        d = lemma5.evaluate(twin, prec, figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "some Att-SVM(α) feasible" in d.reasons[0]


def test_infeasible_alpha_is_not_applicable():
    """hull_middle: the middle token (1,0) lies between (0,0) and (2,0): (x₂ − x₁)ᵀw ≥ 1 and (x₂ − x₃)ᵀw ≥ 1 read
    w₁ ≥ 1 and −w₁ ≥ 1."""
    with working_precision(20) as prec:
        d = lemma5.evaluate(D.hull_middle(), prec, alpha=(1,), figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "feasible" in d.reasons[0]


def test_sequence_to_sequence_data_is_not_applicable():
    """A causal dataset (or one with per-query labels Yq) is sequence-to-sequence data: Lemma 16, not Lemma 5."""
    causal = Dataset.make(X=[[[1, 0], [0, 1]]], Y=[1], v=[1, 0], causal=True, name="causal-pair")
    with working_precision(20) as prec:
        d = lemma5.evaluate(causal, prec, figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "single-query" in d.reasons[0]
