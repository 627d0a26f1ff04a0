"""verify.geometry.stationarity (mutation tests): Assumption B / B.1 decided on both sides with their details, the
covariance identity and the Lemma-9 bound at θ = 0 of D-T2 in closed form (s = 1/2: −⟨∇L(0), q⟩ equals the bound,
T = 2), the tie settled exactly by the slack, the probe directions and points derived by hand, the other
selections' max-margin directions solved by hand, ∇L(0) exactly, the ℓ' enclosure on both sides and L_W of the
lemma4 example (1 + 6√2, dataset docstring)."""
from fractions import Fraction as F

import pytest
from flint import arb

from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry.stationarity import (
    DescentTerms,
    PairTable,
    assumption_b,
    assumption_b1,
    ball_lower_bound,
    bound_excess,
    d1_enclosure,
    descent_terms,
    exact_gradient_at_zero,
    exact_margins,
    feasible_assumption_b_dataset,
    gmm,
    other_selection_directions,
    probe_directions,
    probe_points,
    relative_deviation,
    smoothness_W,
)
from verify.models.attention import LinearLogitModel, features
from verify.models.losses import Square
from verify.numbers.precision import to_arb, working_precision

Q = (F(1, 2), F(-3, 2), F(1, 2), F(-3, 2))  # D-T2's W^mm (spec)


def _lp(u):
    """|ℓ'(u)| of the logistic loss."""
    return 1 / (1 + u.exp())


def test_assumption_b_on_both_sides_with_its_details():
    b = assumption_b(D.d_t2())  # scores (1, 0), (−2, 0)
    assert (b.met, b.gaps, b.opt) == (True, (1, 2), (0, 1))
    assert b.detail == "exact: common non-optimal score in every sequence, gaps Δ_i = 1, 2"
    b = assumption_b(D.b1_only())  # scores (1, 0, 1/2)
    assert b.met is False and (b.gaps, b.opt) == ((), ())
    assert b.detail == ("sequence 0: non-optimal scores differ (spread 0.5: 0, 1/2) "
                        "(B is an exact equality: rounded data fails it)")
    tied = Dataset.make(X=[[[1], [1], [0]]], Y=[1], v=[1], name="tied")
    assert assumption_b(tied).detail.startswith("sequence 0: optimal token tied between [0, 1]")
    many = Dataset.make(X=[[[6], [1], [2], [3], [4], [5]]], Y=[1], v=[1], name="many")  # five non-optimal scores
    assert "(spread 4: 1, 2, 3, 4…)" in assumption_b(many).detail
    four = Dataset.make(X=[[[2], [1], [0]]] * 4, Y=[1] * 4, v=[1], name="four")
    det = assumption_b(four).detail
    assert det.count("sequence") == 3 and "sequence 2" in det and "sequence 3" not in det and "; …" in det
    three = Dataset.make(X=[[[2], [1], [0]]] * 3, Y=[1] * 3, v=[1], name="three")
    assert "…" not in assumption_b(three).detail


def test_assumption_b1_on_both_sides():
    """D-T2: both margins of W^mm are 1 (spec). D-NB (z = e₁): W^mm z = w with constraints 5w₁ + w₂ ≥ 1 and
    w₁ + w₂ ≥ 1: w = (1/2, 1/2) and token 1's margin is 3 — not a support token."""
    with working_precision(30):
        assert assumption_b1(gmm(D.d_t2(), "W", 30)) == (True, "every non-optimal token has margin exactly 1")
        ok, why = assumption_b1(gmm(D.d_nb(), "W", 30))
    assert ok is False and why == "non-support tokens (margin > 1): [(0, 1)]"


def test_exact_margins_and_the_pair_table():
    """F_00 = (1,1)⊗(1,0), F_10 = (2,2)⊗(1,1/2), second tokens 0: ⟨F_00, q⟩ = 1, ⟨F_10, q⟩ = −1, so the products
    (γ_t − γ_u)(b_t − b_u) are 1·1 and (−2)·(−1); along (1,0,−1,1) sequence 0's product is 0 and dropped."""
    d = D.d_t2()
    feats = features(d, "W")
    assert exact_margins(feats, (0, 1), Q) == [[None, 1], [1, None]]
    assert exact_margins(feats, (0, 0), Q) == [[None, 1], [None, -1]]
    with working_precision(30):
        model = LinearLogitModel.from_dataset(d, "W")
        t = PairTable(model, Q)
        assert [[(a, b, p == to_arb(v)) for a, b, p in r] for r, v in zip(t.rows, (1, 2))] == [[(0, 1, True)],
                                                                                               [(0, 1, True)]]
        t = PairTable(model, (1, 0, -1, 1))
        assert t.rows[0] == [] and len(t.rows[1]) == 1


def _grad0_t2():
    """∇L(0) of D-T2: for T = 2, Σ_t s_t(γ_t − φ)F_t = ¼(γ₀ − γ₁)(F₀ − F₁), so ∇L(0) = ½Σ_i ℓ'(φ_i)¼Δγ_iΔF_i."""
    lp = [-_lp(arb(1) / 2), -_lp(arb(-1))]
    dF = [(1, 0, 1, 0), (2, 1, 2, 1)]
    dg = [1, -2]
    return [sum((lp[i] * dg[i] * dF[i][k] / 4 for i in range(2)), arb(0)) / 2 for k in range(4)]


def test_descent_terms_at_zero_in_closed_form():
    """s = 1/2: inner = ⟨∇L(0), q⟩ = ½[ℓ'(1/2)·¼·1 + ℓ'(−1)·¼·2]; the bound (1/n)Σ|ℓ'|Δ s(1 − s) with Δ = (1, 2) is
    the same number (T = 2: every token a support token), the slack is exactly 0; a factor c multiplies the bound and
    the slack becomes (1 − c)·bound."""
    d = D.d_t2()
    with working_precision(30):
        model = LinearLogitModel.from_dataset(d, "W")
        margins = exact_margins(features(d, "W"), (0, 1), Q)
        zero = [0, 0, 0, 0]
        inner = (-_lp(arb(1) / 2) / 4 - _lp(arb(-1)) * 2 / 4) / 2
        g = _grad0_t2()
        dt = descent_terms(model, Q, margins, zero)
        assert dt.bound is None and dt.slack is None
        assert abs(dt.inner - inner) < arb(10) ** -25 and abs(dt.engine - inner) < arb(10) ** -25
        assert abs(dt.grad_norm - sum((x * x for x in g), arb(0)).sqrt()) < arb(10) ** -25
        assert abs(dt.sopt_off - arb(1) / 4) < arb(10) ** -25
        dt = descent_terms(model, Q, margins, zero, gaps=(1, 2))
        assert abs(dt.bound + inner) < arb(10) ** -25 and dt.slack == 0
        assert bound_excess(dt) == 0  # the tie, settled exactly by the slack
        dt2 = descent_terms(model, Q, margins, zero, gaps=(1, 2), factor=2, pairs=PairTable(model, Q))
        assert abs(dt2.bound + 2 * inner) < arb(10) ** -25 and abs(dt2.slack - inner) < arb(10) ** -25
        assert abs(bound_excess(dt2) + arb(1) / 2) < arb(10) ** -25
        # off zero the least saturated sequence sets sopt_off: W = (1, 0, 0, 0) gives logits (1, 0) and (2, 0)
        dt = descent_terms(model, Q, margins, [1, 0, 0, 0])
        e1, e2 = arb(1).exp(), arb(2).exp()
        want = min(e1 / (1 + e1) ** 2, e2 / (1 + e2) ** 2, key=lambda x: x.mid())
        assert abs(dt.sopt_off - want) < arb(10) ** -25 and abs(dt.sopt_off - e2 / (1 + e2) ** 2) < arb(10) ** -25


def test_bound_excess_and_relative_deviation_on_hand_made_terms():
    def terms(inner, bound, slack, engine=arb(0)):
        return DescentTerms(inner, engine, bound, slack, arb(0), arb(1))

    assert bound_excess(terms(arb(-3), arb(1), arb(99))) == 2  # decided directly: −(−3)/1 − 1
    assert bound_excess(terms(arb(-1) / 2, arb(1), arb(99))) == arb(-1) / 2
    fuzzy = arb(-1) + arb(0, arb(10) ** -10)  # −inner/bound − 1 straddles 0
    assert bound_excess(terms(fuzzy, arb(1), arb(0))) == 0  # the structured value overlaps: taken
    got = bound_excess(terms(fuzzy, arb(1), arb(5)))  # it does not: the direct ball is kept
    assert got.overlaps(arb(0)) and not got.overlaps(arb(5))
    assert relative_deviation(terms(arb(2), arb(1), None, engine=arb(3))) == arb(1) / 2
    assert relative_deviation(terms(arb(-2), arb(1), None, engine=arb(-3))) == arb(1) / 2


def test_probe_directions_of_d_t2_by_hand():
    """±q; per sequence F_t − F_opt and its negative (±F_it duplicate them or are 0: dropped); ``extra`` after ±q;
    seeded random directions with entries k/37, |k| ≤ 100; mixtures q + ½d of the first three after ±q."""
    feats = features(D.d_t2(), "W")
    extra = [("extra", (0, 0, 0, 1)), ("zero", (0, 0, 0, 0)), ("again +q", Q)]
    out = probe_directions(feats, (0, 1), Q, extra=extra, count=2, seed=5)
    labels = [lb for lb, _ in out]
    assert labels == ["+q (max-margin direction)", "−q (anti-aligned)", "extra",
                      "selects token 1 of sequence 0 (F_t − F_opt)", "−(F_t − F_opt), sequence 0, token 1",
                      "selects token 0 of sequence 1 (F_t − F_opt)", "−(F_t − F_opt), sequence 1, token 0",
                      "random 0", "random 1", "q + ½·(extra)", "q + ½·(selects token 1 of sequence 0 (F_t − F_opt))",
                      "q + ½·(−(F_t − F_opt), sequence 0, token 1)"]
    vec = dict(out)
    assert vec["−q (anti-aligned)"] == tuple(-x for x in Q) and vec["extra"] == (0, 0, 0, 1)
    assert vec["selects token 1 of sequence 0 (F_t − F_opt)"] == (-1, 0, -1, 0)
    assert vec["−(F_t − F_opt), sequence 1, token 0"] == (-2, -1, -2, -1)
    assert vec["q + ½·(extra)"] == (Q[0], Q[1], Q[2], Q[3] + F(1, 2))
    for k in (0, 1):
        r = vec[f"random {k}"]
        assert all((x * 37).denominator == 1 and abs(x * 37) <= 100 for x in r) and len(r) == 4
    again = dict(probe_directions(feats, (0, 1), Q, count=2, seed=5))
    other = dict(probe_directions(feats, (0, 1), Q, count=2, seed=6))
    assert again["random 1"] == vec["random 1"] and other["random 1"] != vec["random 1"]
    assert len(probe_directions(feats, (0, 1), Q, count=0)) == 9  # ±q, 4 differences, 3 mixtures


def test_probe_points_scale_and_zero_once():
    dirs = [("a", (1, -2)), ("b", (F(1, 3), 0))]
    pts = probe_points(dirs, ("0", "1/2", "10"), symbol="p")
    assert [w for w, _, _, _ in pts] == ["a, ‖p‖∞ = 0", "a, ‖p‖∞ = 1/2", "a, ‖p‖∞ = 10", "b, ‖p‖∞ = 1/2",
                                         "b, ‖p‖∞ = 10"]
    for _, p, lb, sc in pts:
        assert max(abs(x) for x in p) == F(sc)
        d = dict(dirs)[lb]
        if F(sc):
            assert all(x * max(abs(y) for y in d) == F(sc) * y for x, y in zip(p, d))  # along the direction
    assert probe_points(dirs, ("1",))[0][0] == "a, ‖θ‖∞ = 1"


def test_other_selection_directions_of_d_t2_by_hand():
    """With a = W₀₀ + W₁₀, b = W₀₁ + W₁₁ (the margins only see these; least norm puts W₀ⱼ = W₁ⱼ): α = (1,1):
    a ≥ 1, 2a + b ≥ 1: a = 1, b = 0 (spec's W^mm_α); α = (2,1): −a ≥ 1, 2a + b ≥ 1: a = −1, b = 3; α = (2,2):
    −a ≥ 1, −(2a + b) ≥ 1: a = −1, b = 0. α = opt is left out."""
    with working_precision(30):
        out = other_selection_directions(D.d_t2(), "W", 30)
        assert out == [("max-margin direction of α = (0, 0)", (F(1, 2), 0, F(1, 2), 0)),
                       ("max-margin direction of α = (1, 0)", (F(-1, 2), F(3, 2), F(-1, 2), F(3, 2))),
                       ("max-margin direction of α = (1, 1)", (F(-1, 2), 0, F(-1, 2), 0))]
        assert other_selection_directions(D.d_t2(), "W", 30, limit=3) == []
        assert len(other_selection_directions(D.d_t2(), "W", 30, limit=4)) == 3


def test_ball_lower_bound_at_radius_zero_and_below_the_gradient():
    """R = 0 (only θ = 0): s_opt = 1 − s_opt = 1/2, so c(0) = (1/(n‖q‖))Σ min|ℓ'|Δ/4 with min|ℓ'| over the score
    hulls [0, 1] and [−2, 0]: 1/(1 + e) and 1/2 — c(0) is at most that (interval evaluation) and at most ‖∇L(0)‖."""
    d = D.d_t2()
    with working_precision(30):
        model = LinearLogitModel.from_dataset(d, "W")
        closed = (_lp(arb(1)) / 4 + arb(1) / 2 * 2 / 4) / (2 * arb(5).sqrt())
        c0 = ball_lower_bound(model, Q, 0, (1, 2))
        assert 0 < c0 <= closed and c0 > closed * arb("0.9")
        g0 = sum((x * x for x in _grad0_t2()), arb(0)).sqrt()
        assert c0 <= g0
        c1, c3 = ball_lower_bound(model, Q, 1, (1, 2)), ball_lower_bound(model, Q, 3, (1, 2))
        assert 0 < c3 < c1 < c0
        for th in ([F(1, 2), F(1, 2), F(1, 2), F(1, 2)], [0, 0, 0, 1], [F(-1, 2), 0, 0, F(1, 2)]):  # ‖θ‖ ≤ 1
            g = model.grad([to_arb(x) for x in th])
            assert c1 <= sum((x * x for x in g), arb(0)).sqrt()


def test_exact_gradient_at_zero():
    """D-T2 (W): the groups are the means 1/2 and −1, vectors ¼(γ₀ − γ₁)ΔF: (1/4,0,1/4,0) and (−1,−1/2,−1,−1/2).
    D-STAT: two equal sequences with uniform logits: 0. thm3_cancelling: both means 1, the vectors cancel."""
    zero, groups = exact_gradient_at_zero(D.d_t2(), "W")
    assert zero is False and groups == {F(1, 2): [F(1, 4), 0, F(1, 4), 0], F(-1): [-1, F(-1, 2), -1, F(-1, 2)]}
    assert exact_gradient_at_zero(D.d_stat(), "W")[0] is True
    zero, groups = exact_gradient_at_zero(D.thm3_cancelling(), "W")
    assert zero is True and list(groups) == [1]


def test_d1_enclosure_on_both_sides():
    with working_precision(30):
        sup, inf = d1_enclosure("logistic", arb(0), arb(1))
        e = arb(1).exp()
        assert -1 / (1 + e) <= sup < 0 and 0 < inf <= 1 / (1 + e)  # ℓ' increasing: sup at 1, inf|ℓ'| at 1
        assert inf > arb("0.9") / (1 + e) and sup < arb("-0.9") / (1 + e)
        sup, inf = d1_enclosure("logistic", arb(0), arb(0))
        assert sup == arb(-1) / 2 and inf == arb(1) / 2
        sup, inf = d1_enclosure("exponential", arb(-1), arb(2))
        assert -(-arb(2)).exp() <= sup < 0 and 0 < inf <= (-arb(2)).exp()
        wide = d1_enclosure("logistic", arb(-50), arb(50))
        assert wide is not None and 0 < wide[1] <= 1 / (1 + arb(50).exp())
        assert d1_enclosure("logistic", arb(-1000), arb(1000), max_depth=0) is None  # one ball cannot certify it
        assert d1_enclosure(Square(), arb(2), arb(3)) is None  # ℓ' = 2(u − 1) > 0 there
        assert d1_enclosure(Square(), arb(0), arb(2)) is None  # ℓ' changes sign at 1
        assert d1_enclosure(Square(), arb(-2), arb(0)) is not None


def test_feasible_assumption_b_dataset_is_the_first_feasible_seed():
    with working_precision(30):
        data = feasible_assumption_b_dataset(n=2, T=3, d=3, seed=0, param="W")
        assert data.name.endswith("-W") and assumption_b(data).met is True
        assert [list(z) for z in data.queries()] == [[1, 0, 0]] * 2 and data.K is None
        assert gmm(data, "W", 30).status == "optimal"
        s = int(data.name.split("-s")[1].split("-")[0])
        from verify.data.generators import assumption_b_dataset
        for k in range(0, s):
            bad = assumption_b_dataset(n=2, T=3, d=3, seed=k)
            bad = bad.replace(K=None, z=[[1, 0, 0]] * 2)
            assert gmm(bad, "W", 30).status != "optimal"
        p = feasible_assumption_b_dataset(n=1, T=3, d=3, seed=0)
        assert not p.name.endswith("-W") and gmm(p, "p", 30).status == "optimal"
        with pytest.raises(RuntimeError, match="among seeds 4..3"):
            feasible_assumption_b_dataset(seed=4, tries=0)


def test_smoothness_w_of_the_lemma4_example():
    """n = 1, T = 2, d = 1, x = (1, −1), v = z = 1: ‖X‖ = √2, B = 1. Logistic M₀ = 1/4, M₁ = 1: L_W = 2√2(√2/4 + 3)
    = 1 + 6√2 (dataset docstring); exponential M₀ = M₁ = e: 2√2(√2e + 3e) = e(4 + 6√2)."""
    with working_precision(30):
        s2 = arb(2).sqrt()
        assert abs(smoothness_W(D.lemma4_spec()) - (1 + 6 * s2)) < arb(10) ** -25
        assert abs(smoothness_W(D.lemma4_spec(), "exponential") - arb(1).exp() * (4 + 6 * s2)) < arb(10) ** -25
        two = Dataset.make(X=[[[1], [-1]], [[2], [0]]], Y=[1, 1], v=[1], z=[[1], [F(1, 2)]], name="two")
        # sequence 2: ‖X‖ = 2, ‖z‖² = 1/4, B = 2 (M₀ = 1/4, M₁ = 1): ¼·8·(¼·2 + 3) = 7; the mean of the two
        want = (2 * s2 * (s2 / 4 + 3) + 7) / 2
        assert abs(smoothness_W(two) - want) < arb(10) ** -25


# ----- more sides: the ball bound at R > 0, the decided excess, the enclosure's leaves, defaults and limits --------
import mpmath  # noqa: E402

from verify.models.losses import get_loss  # noqa: E402


def test_ball_lower_bound_at_radius_one_in_closed_form():
    """thm4_trap (T = 2, no zero token): per sequence one difference D = ‖F_t − F_opt‖, s_opt ≥ 1/(1 + e^{RD}),
    1 − s_opt ≥ e^{−RD}/(1 + e^{−RD}), min|ℓ'| = 1/(1 + e^{max γ}); gaps 5/4 and 5/4; q = e₁ (‖q‖ = 1)."""
    data = D.thm4_trap()
    feats, opt = features(data, "W"), (0, 1)
    mpmath.mp.dps = 40
    want = mpmath.mpf(0)
    for Fi, g, o in zip(feats, data.scores, opt):
        t = 1 - o
        Dt = mpmath.sqrt(sum((mpmath.mpf(F(a).numerator) / F(a).denominator - mpmath.mpf(F(b).numerator) /
                              F(b).denominator) ** 2 for a, b in zip(Fi[t], Fi[o])))
        lp = 1 / (1 + mpmath.e ** (mpmath.mpf(F(max(g)).numerator) / F(max(g)).denominator))
        want += lp * mpmath.mpf(5) / 4 / (1 + mpmath.e ** Dt) * mpmath.e ** -Dt / (1 + mpmath.e ** -Dt)
    want /= 2
    with working_precision(30):
        model = LinearLogitModel.from_dataset(data, "W")
        c1 = ball_lower_bound(model, (1, 0, 0, 0), 1, (F(5, 4), F(5, 4)))
        got = mpmath.mpf(c1.mid().str(35, radius=False))
        assert c1.rad() == 0 and 0.9 * want < got <= want * (1 + mpmath.mpf(10) ** -25)
        c2 = ball_lower_bound(model, (2, 0, 0, 0), 1, (F(5, 4), F(5, 4)))  # ‖q‖ = 2: half
        assert abs(c2 * 2 - c1) < arb(10) ** -25


def test_bound_excess_keeps_a_decided_direct_value_and_divides_the_slack():
    def terms(inner, bound, slack):
        return DescentTerms(inner, arb(0), bound, slack, arb(0), arb(1))

    near_half = arb(1) / 2 + arb(0, arb(10) ** -3)
    got = bound_excess(terms(arb(-3) / 2, arb(1), near_half))  # direct 1/2, decided: kept exactly
    assert got == arb(1) / 2 and got.rad() == 0
    got = bound_excess(terms(arb(-1), arb(1), arb(0, 1)))  # direct exactly 0: decided, kept
    assert got == 0
    fuzzy = arb(-2) + arb(0, arb(2) ** -29)  # direct = −inner/2 − 1 straddles 0
    got = bound_excess(terms(fuzzy, arb(2), arb(2) ** -40))
    assert got == arb(2) ** -41  # slack/bound


def test_d1_enclosure_edges():
    with working_precision(30):
        sup, inf = d1_enclosure("logistic", arb(-50), arb(50))
        top = -1 / (1 + arb(50).exp())
        assert top <= sup < 0 and sup < top * arb("0.9") and 0 < inf <= -top  # over every leaf: the right end
        assert d1_enclosure(Square(), arb(1), arb(1)) is None  # ℓ'(1) = 0 exactly: not < 0
        assert d1_enclosure(Square(), arb("1.1"), arb("1.4")) is None  # 0 < ℓ' < 1


def test_descent_terms_with_gaps_keep_every_field():
    d = D.d_t2()
    with working_precision(30):
        model = LinearLogitModel.from_dataset(d, "W")
        margins = exact_margins(features(d, "W"), (0, 1), Q)
        th = [F(1, 3), F(-1, 2), 2, F(1, 5)]
        a = descent_terms(model, Q, margins, th, gaps=(1, 2))
        b = descent_terms(model, Q, margins, [to_arb(x) for x in th])
        g = model.grad([to_arb(x) for x in th])
        assert abs(a.engine - sum((x * to_arb(y) for x, y in zip(g, Q)), arb(0))) < arb(10) ** -25
        assert abs(a.grad_norm - sum((x * x for x in g), arb(0)).sqrt()) < arb(10) ** -25
        assert abs(a.sopt_off - b.sopt_off) < arb(10) ** -25 and abs(a.inner - b.inner) < arb(10) ** -25


def test_assumption_b_lists_every_failing_sequence():
    data = Dataset.make(X=[[[1], [1], [0]], [[3], [1], [0]]], Y=[1, 1], v=[1], name="tied-then-spread")
    det = assumption_b(data).detail
    assert "sequence 0: optimal token tied between [0, 1]" in det and "sequence 1: non-optimal scores differ" in det


def test_defaults_of_the_helpers():
    data = D.b1_only()  # keys (p) are the tokens; W-features differ
    feats = features(data, "W")
    with working_precision(30):
        assert exact_gradient_at_zero(data) == exact_gradient_at_zero(data, "p")
        assert exact_gradient_at_zero(data)[1] != exact_gradient_at_zero(data, "W")[1]
        assert list(gmm(data).solution) == list(gmm(data, "p", 60).solution)
        assert probe_directions(feats, (0,), (1,) * 9) == probe_directions(feats, (0,), (1,) * 9, count=6, seed=0)
        a = feasible_assumption_b_dataset()
        assert a.to_json() == feasible_assumption_b_dataset(n=2, T=4, d=4, seed=0, param="p", tries=50).to_json()
        assert (a.n, a.T, a.d) == (2, 4, 4)
        b = feasible_assumption_b_dataset(n=1, T=4, d=4, seed=2, param="W")
        assert (b.n, b.T, b.d) == (1, 4, 4) and "-s" in b.name
        s = int(b.name.split("-s")[1].split("-")[0])
        assert s >= 2


def test_probe_directions_negated_features_and_the_seeded_draw():
    """Tokens with new features (b1_only): "−F_0,t" is −F_0,t; the random directions are the documented draw
    (``random.Random(seed)``, randint(−100, 100)/37 per entry); with only ±q and one random direction (all tokens 0)
    the mixture of that direction is still added."""
    import random

    feats = features(D.b1_only(), "W")
    out = dict(probe_directions(feats, (0,), (1,) * 9, count=3, seed=4))
    assert out["−F_0,1"] == tuple(-x for x in feats[0][1])
    rng = random.Random(4)
    for k in range(3):
        assert out[f"random {k}"] == tuple(F(rng.randint(-100, 100), 37) for _ in range(9))
    zero = [[(0, 0), (0, 0)]]
    labels = [lb for lb, _ in probe_directions(zero, (0,), (1, 1), count=1, seed=0)]
    assert labels == ["+q (max-margin direction)", "−q (anti-aligned)", "random 0", "q + ½·(random 0)"]


def test_other_selection_limits_count_t_to_the_n():
    """n = 3, T = 2, keys (1, 0): only α = (2, 2, 2) (p ≤ −1 everywhere) is feasible besides opt; 2³ = 8 > 7 is over
    the limit (2·3 would not be); one sequence of 28 tokens exceeds the default 27."""
    three = Dataset.make(X=[[[1], [0]]] * 3, Y=[1] * 3, v=[1], name="three")
    with working_precision(30):
        assert other_selection_directions(three, "p", 30, limit=7) == []
        assert [lb for lb, _ in other_selection_directions(three, "p", 30, limit=8)] == [
            "max-margin direction of α = (1, 1, 1)"]
        long = Dataset.make(X=[[[k] for k in range(28)]], Y=[1], v=[1], name="long")
        assert other_selection_directions(long, "p", 30) == []


def test_smoothness_w_reads_the_norm_of_v():
    """v = 2 on the lemma4 example: ‖v‖ = 2, B = 2: 2√2·2(¼·2·√2 + 3) (M₀ = 1/4, M₁ = 1 for the logistic loss)."""
    data = Dataset.make(X=[[[1], [-1]]], Y=[1], v=[2], z=[[1]], name="v2")
    with working_precision(30):
        s2 = arb(2).sqrt()
        assert abs(smoothness_W(data) - 2 * s2 * 2 * (s2 / 2 + 3)) < arb(10) ** -25
        M0, M1 = get_loss("logistic").constants(arb(2))
        assert M0 == arb(1) / 4 and M1 == 1
