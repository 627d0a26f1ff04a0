"""tfsvm.thm10: the conic seq2seq paths → W^mm_α (evidence) on a per-query-label dataset and a causal one; an empty
separating cone (Lemma 16), a head violating Assumption E and ε above κ̂(α) are NOT_APPLICABLE naming them; the theorem
held wherever decided, so the VIOLATED case is the test-only altered target (the GMM instead of W^mm_α)."""
from fractions import Fraction

import pytest

import lemmas.tfsvm.thm10 as T
from verify.data.dataset import Dataset
from verify.data.tfsvm_seq2seq import s2s_causal, s2s_labels
from verify.numbers.precision import working_precision
from verify.svm.seq2seq import satt_svm

FACTORS = ("1", "2", "4", "8")


def test_defaults_hold_as_evidence():
    for data in T.default_datasets():
        with working_precision(30) as prec:
            out = T.evaluate(data, prec, figure=False)  # the default radii (the opt path needs R ≥ 32 to settle)
        d = out.decision()
        assert d.verdict == "HOLDS" and d.certainty == "evidence", (data.name, d)
        assert len(out.evidence) == 2  # opt (cone = every matrix) and one LMM α ≠ opt per dataset


def test_empty_cone_is_not_applicable():
    """s2s_causal, α = (0, 0, 2): γ = Y vᵀx_t = −(x_t1/2 − 3x_t2/2) = (13/4, 5/4, −3) (exact below), so query 2 selects
    the lowest-score token: low = ∅ while high = {0, 1} ⇒ κ = −∞, cone_ε(α) = ∅ (Lemma 16's flaw)."""
    data = s2s_causal()
    g = [-(Fraction(1, 2) * x[0] - Fraction(3, 2) * x[1]) for x in data.X[0]]
    assert g == [Fraction(13, 4), Fraction(5, 4), Fraction(-3)] and min(g) == g[2]
    with working_precision(30) as prec:
        d = T.evaluate(data, prec, alpha=((0, 0, 2),), figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "non-empty" in d.reasons[0] and "Lemma 16" in d.reasons[0]
    assert "cone_ε((1,1,3))" in d.reasons[0]  # printed as the paper numbers tokens (from 1), as Lemma 16 does


def head_e_violation() -> Dataset:
    """h(x) = vᵀx − ‖x‖²/4, v = e₁, Y = +1; tokens (1, 1), (3, 0), (−1, 1): γ = (1/2, 3/4, −3/2), opt = token 1."""
    return Dataset.make(X=[[[1, 1], [3, 0], [-1, 1]]], Y=[1], v=[1, 0], head={"kind": "concave", "lambda": "1/4"},
                        name="thm10-head-not-E")


def test_head_violating_e_is_not_applicable():
    """From x_α = (3, 0) toward the low token (1, 1): x = 0.9·(3,0) + 0.1·(1,1) = (2.8, 0.1) has Y·h = 2.8 − 7.85/4 =
    0.8375 > γ_α = 3/4, so Y·h(x(s)) ≤ γ_α − c(1 − s_α) fails for every c > 0."""
    h = lambda x: x[0] - Fraction(1, 4) * (x[0] ** 2 + x[1] ** 2)  # noqa: E731
    assert h((Fraction(28, 10), Fraction(1, 10))) > h((3, 0)) == Fraction(3, 4)
    data = head_e_violation()
    assert satt_svm(data, ((1, 1, 1),), False, dps=30).status == "optimal"
    with working_precision(30) as prec:
        d = T.evaluate(data, prec, alpha=((1, 1, 1),), figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "Assumption E" in d.reasons[0]


def test_eps_above_kappa_is_not_applicable():
    with working_precision(30) as prec:
        d = T.evaluate(s2s_labels(), prec, alpha=((0, 2, 1),), eps="2", figure=False).decision()
    assert d.verdict == "NOT_APPLICABLE" and "ε small" in d.reasons[0]


def test_gmm_target_is_violated():
    """Test-only altered target: the local path of α = (0, 2, 1) measured against the GMM W^mm (opt = (0, 1, 1)).
    The two SVM solutions are not parallel (exact), so the distance cannot vanish: a plateau → VIOLATED."""
    a = satt_svm(s2s_labels(), ((0, 2, 1),), False, dps=30).solution
    b = satt_svm(s2s_labels(), ((0, 1, 1),), False, dps=30).solution
    assert any(x * w != y * z for x, y in zip(a, b) for z, w in zip(a, b))
    with working_precision(30) as prec:
        out = T.evaluate(s2s_labels(), prec, alpha=((0, 2, 1),), factors=FACTORS, target="gmm", figure=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and "GMM" in d.reasons[0]


def test_small_scale_data_is_not_violated():
    """The 10⁻³-scale hunt find (logits R·10⁻⁶): α = opt's ladder starts at R₀ = ‖W^mm‖·max(1, ln(B·T/c)) > 10⁵ (exact
    below: ‖W^mm‖_F² > 10¹⁰), so the path is read in the regime: not VIOLATED."""
    from tests.test_tfsvm_cor1 import small_causal

    W = satt_svm(small_causal(), None, True, dps=30).solution
    assert sum(x * x for x in W) > 10**10
    with working_precision(30) as prec:
        d = T.evaluate(small_causal(), prec, figure=False).decision()
    assert d.verdict == "HOLDS" or (d.verdict == "INCONCLUSIVE" and "regime" in str(d.reasons)), d


def test_large_scale_data_is_read_past_the_transient():
    """The 10³-scale hunt find (n = 1, T = 2, self-attention: two queries x₁, x₂): W^mm = 10⁻⁶·e₁e₂ᵀ by hand (query
    margins 10⁶·W₁₂ and 10⁶·(W₁₁ + W₁₂), both tight; ‖W^mm‖_F = 10⁻⁶). The query with the smaller margin keeps a
    doubly-exponential weight until R/‖W^mm‖ ≈ ln 10³, so the path's distance rises (0.020, 0.027, 0.160 at
    R/‖W^mm‖ = 1.01, 3.03, 10.1: an independent 80-digit computation) before it decays; the ladder read from
    R₀ = ‖W^mm‖·ln(B·T/c) with B·T/c = 2 put that rise in the tail (a false VIOLATED). R₀ ≥ ‖W^mm‖·ln(B·T),
    B = ‖v‖·‖x₁ − x₂‖ = 10³, T = 2: ln 2000 = 7.6009… ⇒ R₀ ≥ 7.60·10⁻⁶."""
    data = Dataset.make(X=[[[0, 1000], [1000, 1000]]], Y=[1], v=[1, 0], name="tfsvm-thm10-large-scale-find")
    assert list(satt_svm(data, None, False, dps=30).solution) == [0, Fraction(1, 10**6), 0, 0]
    with working_precision(30) as prec:
        out = T.evaluate(data, prec, figure=False)
    d = out.decision()
    assert d.verdict == "HOLDS", d
    assert any("R₀ = 0.00000761" in n for n in out.notes)


def test_a_tiny_scale_path_does_not_depend_on_the_precision():
    """A hunt find at 10⁻⁶ (n = 1, T = 2, self-attention): W ~ 10¹², ∇f ~ 10⁻¹², ∇²f ~ 10⁻²⁴. At 25 digits the face
    Newton stopped at its start ("‖Riemannian ∇f‖ ≤ tol·(1 + ‖∇f‖)" mixes units) and the distance sat at 0.31·‖W^mm‖
    at every R — a false VIOLATED — while at 45 digits it decays. The path is one mathematical object: its distances
    must agree at both precisions (to the 4 digits the note prints) and decay."""
    tiny = Dataset.make(X=[[[0, "1/1000000"], ["1/1000000", "1/1000000"]]], Y=[-1], v=[1, 0], name="tiny")
    series = []
    for dps in (25, 45):
        with working_precision(dps) as prec:
            out = T.evaluate(tiny, prec, factors=FACTORS, starts=1, figure=False)
        assert out.decision().verdict == "HOLDS"
        note = [e for e in out.evidence if "dist(W̄(R)/(RΞ)" in e.quantity][0].note
        series.append([float(p.split(": ")[1]) for p in note.split("; ")[0].split(", ")])
    assert series[0] == series[1] and len(series[0]) == len(FACTORS)
    assert all(a > b for a, b in zip(series[0], series[0][1:]))


def test_a_tiny_kappa_keeps_three_significant_digits():
    """κ̂ ~ 10⁻¹² (tokens at 10⁻⁶): ε = κ̂/2 rounded down to 3 significant digits, not to 0 (which made R₀ = 1/0, a
    crash on a hunt find); the rounding is certain and within one unit of the third digit."""
    from verify.numbers.precision import to_arb

    x = to_arb(Fraction(288123, 10**18))  # 2.88123·10⁻¹³
    with working_precision(30):
        assert T._round(x, up=False) == Fraction(288, 10**15) and T._round(x, up=True) == Fraction(289, 10**15)
        assert T._round(to_arb(Fraction(5651, 10000)), up=False) == Fraction(565, 1000)  # ≥ 1/10: steps of 1/1000
    data = Dataset.make(X=[[[0, "1/1000000"], ["1/1000000", 0], ["-1/1000000", 0]]], Y=[-1], v=[1, 0], name="h")
    with working_precision(25) as prec:
        out = T.evaluate(data, prec, factors=FACTORS, starts=1, figure=False)
    assert out.decision().verdict in ("HOLDS", "INCONCLUSIVE")
    assert any("ε = 0.000000000000" in n for n in out.notes)


def test_rounding_is_exact_beyond_float64():
    """ε and R₀ were rounded from float(x): an x past 10³⁰⁸ raised OverflowError, one below 10⁻³⁰⁸ gave ε = 0. 2¹¹⁰⁰ is
    exact in a ball, so the next multiples of 1/10 beyond it are 2¹¹⁰⁰ ± 1/10; 2.88123·10⁻⁸⁰⁹ keeps 3 digits."""
    from verify.numbers.precision import to_arb

    with working_precision(30):
        big = to_arb(2**1100)
        assert T._round(big, up=True) == 2**1100 + Fraction(1, 10)
        assert T._round(big, up=False) == 2**1100 - Fraction(1, 10)
        tiny = to_arb(Fraction(288123, 10**814))
        assert T._round(tiny, up=False) == Fraction(288, 10**811) and T._round(tiny, up=True) == Fraction(289, 10**811)


@pytest.mark.parametrize("k", [100, 400])
def test_tokens_far_below_float64_scale_the_path(k):
    """Tokens at 10⁻ᵏ instead of 10⁻⁶ (the statement is about directions): at 10⁻⁴⁰⁰ ε came out NaN (an internal error),
    at 10⁻¹⁰⁰ (R₀ ~ 10²⁰⁰) rounding R₀ stepped by 1/10 from the float's error and ran for hours. Scaling the tokens by
    s = 10^(6−k) scales κ̂, hence ε = κ̂/2 rounded to 3 significant digits, by s² exactly; the verdict is the same."""
    def run(e):
        X = [[[0, Fraction(1, 10**e)], [Fraction(1, 10**e), 0], [Fraction(-1, 10**e), 0]]]
        with working_precision(25) as prec:
            out = T.evaluate(Dataset.make(X=X, Y=[-1], v=[1, 0], name=f"tokens-1e-{e}"), prec, factors=FACTORS,
                             starts=1, figure=False)
        eps = [n.split("ε = ")[1].split(",")[0] for n in out.notes if n.startswith("α = (3,1,3): ε = ")]
        return out.decision().verdict, Fraction(eps[0])

    (v6, eps6), (vk, epsk) = run(6), run(k)
    assert vk == v6 == "HOLDS"
    assert epsk == eps6 / 10 ** (2 * (k - 6))


def test_a_path_beyond_the_precision_limit_is_inconclusive_not_a_usage_error():
    """s2s_causal ×100: the deviating α's ladder needs dps + ⌈R·B_z/ln 10⌉ digits with B_z ~ 10⁴ (tokens ~10², the
    queries their own tokens): far beyond the contract's 10000 — the check says so (INCONCLUSIVE, naming it) instead
    of the run stopping with "--precision N is outside 15..10000", a flag the user never gave."""
    from verify.data.tfsvm_seq2seq import s2s_causal

    d = s2s_causal()
    big = d.replace(X=tuple(tuple(tuple(x * 100 for x in tok) for tok in seq) for seq in d.X), name="causal-x100")
    with working_precision(30) as prec:
        dec = T.evaluate(big, prec, figure=False).decision()
    assert dec.verdict == "INCONCLUSIVE" and any("within 10000 digits" in r for r in dec.reasons), dec
