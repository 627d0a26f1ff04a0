"""mmts.lemma4 (global descent direction): HOLDS on B-data; Fig. 1(b) is NOT_APPLICABLE (B fails) and
its bare inequality is VIOLATED at p = 10·(1,0,0); a doubled bound is VIOLATED where it is attained.

The figures are checked against an independent derivation in the tests: p^mm of Fig. 1(b) in closed
form (exact KKT in Fractions) and ⟨∇L(p), p^mm⟩ = d/dε L(p + ε p^mm) at ε = 0, by mpmath's numerical
differentiation of the loss itself at 60 digits (no gradient formula of the engine involved)."""
from fractions import Fraction

import mpmath
from flint import arb

from lemmas.mmts import lemma4
from verify import Dataset
from verify.claims import run_claim
from verify.data import mmts as D
from verify.geometry.stationarity import descent_terms, exact_margins, gmm
from verify.models.attention import LinearLogitModel, features
from verify.models.losses import Square
from verify.numbers.precision import working_precision

# Fig. 1(b): keys k_t = (x_t1, x_t2, 0), scores γ_t = x_t3 (Y = 1, v = e₃)
FIG1B_KEYS = [(Fraction(-1, 10), 1, 0), (1, 0, 0), (0, 0, 0)]
FIG1B_SCORES = [1, Fraction(9, 10), 0]


def fig1b_pmm():
    """p^mm = (k₀ − k₂)/‖k₀ − k₂‖² (only the margin to token 2 is active), checked by exact KKT."""
    d2 = [Fraction(a) - Fraction(b) for a, b in zip(FIG1B_KEYS[0], FIG1B_KEYS[2])]
    q = [x / sum(y * y for y in d2) for x in d2]
    d1 = [Fraction(a) - Fraction(b) for a, b in zip(FIG1B_KEYS[0], FIG1B_KEYS[1])]
    assert sum(a * b for a, b in zip(d2, q)) == 1 and sum(a * b for a, b in zip(d1, q)) >= 1  # feasible
    return q  # q = λ(k₀ − k₂), λ = 1/‖k₀ − k₂‖² ≥ 0 on the active row: stationary for min ½‖q‖²


def _mpf(x):
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def inner_by_definition(p, q, dps=60):
    """⟨∇L(p), q⟩ = d/dε L(p + εq)|₀ with L = ℓ(γᵀ softmax(Kp)), ℓ(u) = log(1 + e^{−u})."""
    with mpmath.workdps(dps):
        K = [[_mpf(x) for x in k] for k in FIG1B_KEYS]
        g = [_mpf(x) for x in FIG1B_SCORES]
        pm, qm = [_mpf(x) for x in p], [_mpf(x) for x in q]

        def loss(eps):
            a = [mpmath.fsum(kj * (pj + eps * qj) for kj, pj, qj in zip(k, pm, qm)) for k in K]
            w = [mpmath.exp(x - max(a)) for x in a]
            phi = mpmath.fsum(x * y for x, y in zip(w, g)) / mpmath.fsum(w)
            return mpmath.log1p(mpmath.exp(-phi))

        return mpmath.diff(loss, 0)


def relative_gap(ball: arb, reference) -> float:
    with mpmath.workdps(60):
        return float(abs(mpmath.mpf(ball.mid().str(45, radius=False)) / reference - 1))


def test_holds_on_defaults():
    v = run_claim(lemma4.CLAIM, lemma4.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS", [(e.quantity, e.decide()) for e in v.evidence]
    # under Assumption B every p is covered by the exact proof (kit.descent_proof); the probes corroborate it
    assert (v.certainty, v.range, v.label) == ("proven", "every p ∈ ℝ^d", "HOLDS — proven on every p ∈ ℝ^d")
    assert all((d.certainty, d.range) == ("proven", "every p ∈ ℝ^d") for d in v.datasets)
    assert v.stable_digits >= 25
    # every probe point is decided and counted, in every deciding item
    for e in v.evidence:
        if e.coverage is not None:
            assert e.coverage.points > 100 and e.coverage.holds == e.coverage.points, e.quantity


def test_fig1b_violates_assumption_b_not_applicable():
    v = run_claim(lemma4.CLAIM, [D.mmts_fig1b()], dps=30)
    assert v.verdict == "NOT_APPLICABLE"
    failed = [h for h in v.hypotheses if not h.met]
    assert failed and "Assumption B" in failed[0].name


def test_assumption_a_broken_not_applicable():
    with working_precision(30) as prec:
        out = lemma4.evaluate(D.mmts_fig1a(), prec, loss=Square(Fraction(1, 2)))
    assert out.decide() == "NOT_APPLICABLE"
    assert [h.name.split(":")[0] for h in out.hypotheses if h.met is not True] == ["Assumption A"]


def test_pmm_of_fig1b_is_the_closed_form():
    with working_precision(30):
        assert list(gmm(D.mmts_fig1b(), "p", 30).solution) == fig1b_pmm()


def test_bare_inequality_without_B_is_violated_on_fig1b():
    with working_precision(30) as prec:
        out = lemma4.evaluate(D.mmts_fig1b(), prec, require_B=False)
    assert out.decide() == "VIOLATED"
    assert out.evidence[0].value > 0
    # the LMM region p = 10·(1,0,0): the claim's value is the independent one
    q = fig1b_pmm()
    expected = inner_by_definition((10, 0, 0), q)
    assert expected > 0
    with working_precision(30) as prec:
        out = lemma4.evaluate(D.mmts_fig1b(), prec, require_B=False, points=[("10·(1,0,0)", (10, 0, 0))])
    assert out.decide() == "VIOLATED"
    assert relative_gap(out.evidence[0].value, expected) < 1e-25
    with working_precision(30) as prec:
        out = lemma4.evaluate(D.mmts_fig1b(), prec, require_B=False, points=[("3·(1,0,0)", (3, 0, 0))])
    assert out.decide() == "HOLDS"
    # B fails: no exact proof, so the probes decide and the HOLDS is certified at its one point, not proven
    assert (out.decision().certainty, out.decision().points) == ("certified", 1)
    assert not any(e.proves for e in out.evidence) and not any(e.corroborates for e in out.evidence)


def test_under_B_the_probes_corroborate_the_exact_proof():
    """Assumption B holds: the sign and bound tallies corroborate (they can still refute), and the exact items say
    the least gap and margin, here Δ = (1, 3/2) and m = 1 (T = 2: the single margin of the hard-margin SVM)."""
    with working_precision(30) as prec:
        out = lemma4.evaluate(lemma4.tight_T2_dataset(), prec, points=[("0", (0, 0, 0))], region=None)
    tallies = [e for e in out.evidence if e.coverage is not None]
    assert len(tallies) == 3 and all(e.corroborates for e in tallies)
    proof = [e for e in out.evidence if e.proves]
    assert [e.value for e in proof[2:]] == [1, 1, 1] and all(e.proves == "every p ∈ ℝ^d" for e in proof)
    assert out.decision().certainty == "proven"


def test_sign_flip_between_3_and_10_on_fig1b():
    """The paper's numbers: ⟨∇L(p), p^mm⟩ = −1.4e−2, −3.7e−4, +6.4e−7 at p = 1, 3, 10 ·(1,0,0)."""
    data = D.mmts_fig1b()
    q = fig1b_pmm()
    with working_precision(30):
        m = LinearLogitModel.from_dataset(data, "p")
        marg = exact_margins(features(data, "p"), (0,), q)
        vals = [descent_terms(m, q, marg, (R, 0, 0)).inner for R in (1, 3, 10)]
    assert vals[0] < 0 and vals[1] < 0 and vals[2] > 0
    for R, v, printed in zip((1, 3, 10), vals, (-1.4e-2, -3.7e-4, 6.4e-7)):
        exact = inner_by_definition((R, 0, 0), q)
        assert relative_gap(v, exact) < 1e-25, (R, v, exact)
        assert abs(float(exact) / printed - 1) < 0.05, (R, exact, printed)  # the printed two digits


def test_doubled_bound_is_violated_where_attained():
    """T = 2: −⟨∇L, p^mm⟩ equals the bound, so with the constant 2 the ratio is 1/2: ratio − 1 = −1/2."""
    with working_precision(30) as prec:
        out = lemma4.evaluate(lemma4.tight_T2_dataset(), prec, factor=2)
    assert out.decide() == "VIOLATED"
    excess = out.evidence[1].value
    assert abs(excess + arb(1) / 2) < arb(10) ** -20


def test_ratio_exactly_one_at_T2_is_certified():
    with working_precision(30) as prec:
        out = lemma4.evaluate(lemma4.tight_T2_dataset(), prec)
    assert out.decide() == "HOLDS"
    excess = out.evidence[1]
    assert abs(excess.value) < 1e-25 and excess.certified and excess.coverage.undecided == 0


def test_rounded_scores_are_not_applicable():
    """A non-optimal score off by 1e−16 breaks B exactly → NOT_APPLICABLE, not VIOLATED."""
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
