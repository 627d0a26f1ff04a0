"""tfsvm.lemma6 (concave head selects 2..τ tokens): defaults HOLD, proven on every λ of the intervals; the bound lowered to τ − 1 is VIOLATED on
D-L6a; λ = g_1/4 (one-hot s⋆, checked independently) and non-orthonormal tokens → NOT_APPLICABLE naming the hypothesis;
the exact minimiser against an independent support enumeration."""
from fractions import Fraction as F

from lemmas.tfsvm import lemma6
from verify.claims import run_claim
from verify.numbers.precision import working_precision


def brute_minimiser(gam, lam):
    """argmin_{s∈Δ} λ‖s‖² − γᵀs by trying every support of the top-k tokens (γ sorted) and checking KKT."""
    order = sorted(range(len(gam)), key=lambda t: -gam[t])
    for k in range(1, len(gam) + 1):
        sup = order[:k]
        mu = (sum(gam[t] for t in sup) - 2 * lam) / k  # γ_t − 2λ s_t = μ on the support, Σ s = 1
        s = [F(0)] * len(gam)
        for t in sup:
            s[t] = (gam[t] - mu) / (2 * lam)
        if all(s[t] > 0 for t in sup) and all(gam[t] <= mu for t in order[k:]):
            return s
    raise AssertionError("no KKT point")


def test_defaults_hold_proven():
    v = run_claim(lemma6.CLAIM, lemma6.CLAIM.default_datasets(), dps=30)
    assert (v.verdict, v.certainty, v.range) == ("HOLDS", "proven", "every λ ∈ (g_1, τg_τ/2), every admissible τ")


def test_minimiser_matches_enumeration():
    data = lemma6.d_l6b()
    gam = list(data.scores[0])
    for lam in (F(1, 20), F(1, 8), F(1, 2), F(3), F(50)):
        s, res, _ = lemma6.optimum(data, lam)
        assert s == brute_minimiser(gam, lam) and res == 0


def test_upper_bound_tau_minus_one_is_violated():
    # D-L6a: γ = (1, 9/10, 4/5, 0), τ = 3, interval (1/10, 6/5); at λ = 1: s⋆ = (23/60, 1/3, 17/60, 0): 3 nonzeros
    s = brute_minimiser([F(1), F(9, 10), F(4, 5), F(0)], F(1))
    assert sum(1 for x in s if x > 0) == 3
    with working_precision(30) as prec:
        out = lemma6.evaluate(lemma6.d_l6a(), prec, slack=-1)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified" and "≤ τ -1" in d.reasons[0]


def test_small_lambda_one_hot_not_applicable():
    data = lemma6.d_l6a()
    g1 = F(1, 10)
    s = brute_minimiser(list(data.scores[0]), g1 / 4)
    assert sum(1 for x in s if x > 0) == 1  # one-hot: the spec's false case, outside g_1 < λ
    bad = data.replace(head={"kind": "concave", "lambda": str(g1 / 4)})
    with working_precision(30) as prec:
        d = lemma6.evaluate(bad, prec).decision()
    assert d.verdict == "NOT_APPLICABLE" and "g_1 < λ" in d.reasons[0]


def test_large_lambda_all_tokens_not_applicable():
    data = lemma6.d_l6a()
    s = brute_minimiser(list(data.scores[0]), F(40))
    assert all(x > 0 for x in s)  # all T = 4 > τ = 3 tokens, but λ = 40 > τg_τ/2 = 6/5
    with working_precision(30) as prec:
        d = lemma6.evaluate(data.replace(head={"kind": "concave", "lambda": 40}), prec).decision()
    assert d.verdict == "NOT_APPLICABLE" and "g_1 < λ" in d.reasons[0]


def test_non_orthonormal_tokens_not_applicable():
    data = lemma6.d_l6a()
    X = [list(r) for r in data.X[0]]
    X[1] = [F(1, 2), 1, 0, 0]
    with working_precision(30) as prec:
        d = lemma6.evaluate(data.replace(X=[X]), prec).decision()
    assert d.verdict == "NOT_APPLICABLE" and "orthonormal" in d.reasons[0]


def test_breakpoints_are_exact():
    gam = [F(1), F(9, 10), F(4, 5), F(0)]
    # S_k = Σ_{j≤k}(γ_j − γ_k): 0, 1/10, 3/10, 27/10 → on (1/10, 6/5) the only breakpoint is 3/20
    assert lemma6.s_values(gam) == [0, F(1, 10), F(3, 10), F(27, 10)]
    pts = lemma6.lambda_points(gam, 3)
    assert [p for p, k in pts if k == "breakpoint"] == [F(3, 20)]
