"""mmts.lemma4 (global descent direction): HOLDS on B-data; Fig. 1(b) is NOT_APPLICABLE (B fails) and
its bare inequality is VIOLATED at p = 10·(1,0,0); a doubled bound is VIOLATED where it is attained."""
from fractions import Fraction

from flint import arb

from lemmas.mmts import lemma4
from verify import Dataset
from verify.claims import run_claim
from verify.data import mmts as D
from verify.geometry.stationarity import descent_terms, exact_margins, gmm
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import working_precision


def test_holds_on_defaults():
    v = run_claim(lemma4.CLAIM, lemma4.default_datasets(), dps=30)
    assert v.verdict == "HOLDS", [(e.quantity, e.decide()) for e in v.evidence]
    assert v.stable_digits >= 25


def test_fig1b_violates_assumption_b_not_applicable():
    v = run_claim(lemma4.CLAIM, [D.mmts_fig1b()], dps=30)
    assert v.verdict == "NOT_APPLICABLE"
    failed = [h for h in v.hypotheses if not h.met]
    assert failed and "Assumption B" in failed[0].name


def test_bare_inequality_without_B_is_violated_on_fig1b():
    with working_precision(30) as prec:
        out = lemma4.evaluate(D.mmts_fig1b(), prec, require_B=False)
    assert out.decide() == "VIOLATED"
    assert out.evidence[0].value > 0
    # the spec's point: the LMM region p = 10·(1,0,0)
    with working_precision(30) as prec:
        out = lemma4.evaluate(D.mmts_fig1b(), prec, require_B=False, points=[("10·(1,0,0)", (10, 0, 0))])
    assert out.decide() == "VIOLATED"
    assert abs(float(out.evidence[0].value.mid()) - 6.385e-7) < 1e-9
    with working_precision(30) as prec:
        out = lemma4.evaluate(D.mmts_fig1b(), prec, require_B=False, points=[("3·(1,0,0)", (3, 0, 0))])
    assert out.decide() == "HOLDS"


def test_sign_flip_between_3_and_10_on_fig1b():
    """Spec numbers: ⟨∇L(p), p^mm⟩ = −1.4e−2, −3.7e−4, +6.4e−7 at p = 1, 3, 10 ·(1,0,0)."""
    data = D.mmts_fig1b()
    with working_precision(30):
        res = gmm(data, "p", 30)
        q = res.solution
        m = LinearLogitModel.from_dataset(data, "p")
        marg = exact_margins(features(data, "p"), (0,), q)
        vals = [descent_terms(m, q, marg, (R, 0, 0)).inner for R in (1, 3, 10)]
    assert vals[0] < 0 and vals[1] < 0 and vals[2] > 0
    assert abs(float(vals[2].mid()) - 6.385e-7) < 1e-9
    assert abs(float(vals[0].mid()) + 1.424e-2) < 1e-4


def test_doubled_bound_is_violated_where_attained():
    with working_precision(30) as prec:
        out = lemma4.evaluate(lemma4.tight_T2_dataset(), prec, factor=2)
    assert out.decide() == "VIOLATED"
    ratio = out.evidence[1].value
    assert abs(ratio - arb(1) / 2) < arb(10) ** -20


def test_ratio_exactly_one_at_T2_is_certified():
    with working_precision(30) as prec:
        out = lemma4.evaluate(lemma4.tight_T2_dataset(), prec)
    assert out.decide() == "HOLDS"
    assert abs(out.evidence[1].value - 1) < 1e-25


def test_rounded_scores_are_not_applicable():
    """Spec §3 trap: a non-optimal score off by 1e−16 breaks B exactly → NOT_APPLICABLE, not VIOLATED."""
    data = D.mmts_fig1a()
    X = [[list(t) for t in seq] for seq in data.to_dict()["X"]]
    X[0][2][2] = str(Fraction(9, 10) + Fraction(1, 10**16))
    bad = data.replace(X=X, name="fig1a-rounded")
    v = run_claim(lemma4.CLAIM, [bad], dps=30)
    assert v.verdict == "NOT_APPLICABLE"


def test_infeasible_svm_not_applicable():
    v = run_claim(lemma4.CLAIM, [D.mmts_infeasible_B()], dps=30)
    assert v.verdict == "NOT_APPLICABLE"
    assert any("ATT-SVM(opt) feasible" in h.name and not h.met for h in v.hypotheses)


def test_d1_n1():
    data = Dataset.make(X=[[[2], [-1], ["1/2"]]], Y=[1], v=[1], name="d1")
    # scores 2, −1, 1/2: Assumption B fails (−1 ≠ 1/2) → NOT_APPLICABLE
    assert run_claim(lemma4.CLAIM, [data], dps=20).verdict == "NOT_APPLICABLE"
    data2 = Dataset.make(X=[[[2, 1], [-1, 0], ["1/2", 0]]], Y=[1], v=[0, 1], K=[[[2, 0], [-1, 0], ["1/2", 0]]],
                         name="d1-keys")
    assert run_claim(lemma4.CLAIM, [data2], dps=20).verdict == "HOLDS"
