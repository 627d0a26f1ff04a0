"""tfsvm.lemma8: the defaults hold with η = 1/L_W (evidence over the steps run); the spec's quadratic
f = (L/2)‖w‖² at η = 2/L under the printed hypothesis is VIOLATED (exact: the step maps w to −w, f unchanged);
η = 2/L_W on the data under the spec's hypothesis is NOT_APPLICABLE; η = 400/L_W with the hypothesis dropped is
VIOLATED on the one-token dataset."""
from fractions import Fraction

import verify
from lemmas.tfsvm import lemma8 as M
from verify.claims import run_claim
from verify.data import Dataset
from verify.data import tfsvm as D
from verify.numbers.precision import to_arb, working_precision


def test_defaults_hold():
    v = run_claim(M.CLAIM, [D.d_t2()], dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "evidence" and "600" in v.range


def test_quadratic_at_two_over_L_violates_the_printed_range():
    with working_precision(30) as prec:
        out = M.evaluate(None, prec, factor=2, printed=True, objective=M.Quadratic(3), starts=[[1, 2]], steps=4)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    # step 0 from w = (1, 2), L = 3, η ≈ 2/3: w⁺ ≈ −w, f(w⁺) − f(w) ≈ 0 against −(η/2)‖Lw‖² = −(1/3)·9·5 = −15
    tally = next(e for e in out.evidence if e.coverage is not None)
    assert tally.coverage.violated == 4 and "k = 0" in tally.coverage.first_violation
    # the worst point's f(w⁺) − f(w) + (η/2)‖∇f‖² at ηL = 2: (L/2)‖w‖²((1 − ηL)² − 1) + (η/2)L²‖w‖² = 0 + 15
    assert abs(tally.value - to_arb(Fraction(15))) < to_arb(Fraction(1, 10**20))


def test_quadratic_under_the_spec_range_holds_and_two_over_L_is_not_applicable():
    with working_precision(30) as prec:
        ok = M.evaluate(None, prec, factor=Fraction(1, 2), objective=M.Quadratic(3), starts=[[1, 2]], steps=4)
        na = M.evaluate(None, prec, factor=2, objective=M.Quadratic(3), starts=[[1, 2]], steps=4)
    tally = next(e for e in ok.evidence if e.coverage is not None)
    # η = 1/(2L): f(w⁺) − f(w) + (η/2)‖∇f‖² = (L/2)‖w‖²·ηL(ηL − 1) = −(15/8)·4^{−k} (w halves each step; at η = 1/L
    # it is 0: tight); the tightest of k = 0…3 is k = 3
    assert tally.decide() is True and abs(tally.value + to_arb(Fraction(15, 8 * 64))) < to_arb(Fraction(1, 10**20))
    assert na.decide() == "NOT_APPLICABLE" and "η ≤ 1/L_W" in na.decision().reasons[0]


def test_data_at_two_over_LW_is_not_applicable():
    with working_precision(20) as prec:
        d = M.evaluate(D.d_t2(), prec, factor=2, steps=3).decision()
    assert d.verdict == "NOT_APPLICABLE" and "step size" in d.reasons[0]


def test_huge_step_on_data_is_violated_without_the_hypothesis():
    """lemma4_spec: L(W) = ℓ(tanh W), L'(0) = −1/2; with η = 400/L_W ≈ 42 the first step lands at W ≈ 21 where
    L drops by ≈ ℓ(0) − ℓ(1) ≈ 0.38, far less than (η/2)·(1/2)² ≈ 5.3."""
    with working_precision(20) as prec:
        out = M.evaluate(D.lemma4_spec(), prec, factor=400, require_step=False, steps=3, starts=[[0]])
    assert out.decide() == "VIOLATED" and "k = 0" in next(e for e in out.evidence if e.coverage).coverage.first_violation


def test_a_gradient_that_grows_before_it_decays_is_no_refutation():
    """X = [[[14/3], [0]]], Y = −1: under the loose L_W ≈ 9222 the step η = 1/L_W is tiny and from W(0) = 2/5 the
    gradient norm grows for thousands of steps (the softmax saturates slowly). Every step's descent is certified,
    so Σ‖∇L‖² is bounded and ‖∇L‖ cannot stay away from 0: the plateau rule must not answer VIOLATED. The run is
    continued to 10·steps, then the item is left undecided (INCONCLUSIVE, range too short)."""
    data = Dataset.make(X=[[["14/3"], [0]]], Y=[-1], v=[1], name="slow-saturation")
    v = verify.check("tfsvm.lemma8", data, precision=30)
    assert v.verdict == "INCONCLUSIVE"
    assert any("does not refute" in (e.note or "") for e in v.evidence)
    decay = [e for e in v.evidence if "→ 0, W(0) = (2/5)" in e.quantity]
    assert len(decay) == 1 and decay[0].quantity.endswith("4800, 6000)")  # continued to 10 × 600 steps
    descent = [e for e in v.evidence if "at every step" in e.quantity]
    assert descent and all(e.decide() is True for e in descent)
