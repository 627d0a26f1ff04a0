"""verify.kit.descent_proof (mutation tests): the items' relations, bounds, domains and values on both sides,
the tokens whose indicator identity is used, the worst-ratio enclosures of margin_cone_proof over several sequences.
Expected values by hand (exact Fractions; ratios from the docstring's closed forms)."""
from fractions import Fraction as F

from flint import arb

from verify.kit import descent_proof as DP

DOM = "every θ"


def test_identity_functions_true_and_routed(monkeypatch):
    """(D) holds for T = 2, 3 (sympy); (I) and (V) ask expand_sympy for the named identity, T and o."""
    assert DP.softmax_derivative_identity(2) is True and DP.softmax_derivative_identity(3) is True
    calls = []
    monkeypatch.setattr(DP, "expand_sympy", lambda *a: calls.append(a) or "R")
    DP.indicator_covariance_identity.cache_clear()
    DP.variance_identity.cache_clear()
    assert DP.indicator_covariance_identity(7, 3) == "R" and DP.variance_identity(9) == "R"
    assert DP.indicator_covariance_identity(8) == "R"
    assert calls == [("indicator-covariance", 7, 3), ("variance", 9), ("indicator-covariance", 8, 0)]
    DP.indicator_covariance_identity.cache_clear()
    DP.variance_identity.cache_clear()


def test_identities_use_every_distinct_token(monkeypatch):
    """_identities: (D) then (I) over the sorted distinct tokens; (I) False when one token's identity fails."""
    asked = []

    def fake(T, o=0):
        asked.append((T, o))
        return o != 5

    monkeypatch.setattr(DP, "indicator_covariance_identity", fake)
    items = DP._identities(3, (2, 0, 2), DOM)
    assert sorted(asked) == [(3, 0), (3, 2)] and len(items) == 2
    d, i = items
    assert (d.value, d.relation, d.bound, d.proves) == (True, "==", True, DOM)
    assert (i.value, i.relation, i.bound, i.proves) == (True, "==", True, DOM)
    assert "{0, 2}" in i.quantity
    assert DP._identities(3, (5, 0), DOM)[1].value is False


def test_b2_values_relations_and_bound_sides():
    """Least gap over several, least margin skipping None; bound exactly at min m ≥ factor (both sides); the ratio
    item min m / factor ≥ 1."""
    items, bound = DP.descent_on_domain_b2(2, (0, 1), (3, F(1, 4), 2), [[None, 5], [F(3, 2), None]], DOM, factor=F(3, 2))
    assert bound is True
    g, m, r = items[2:]
    assert (g.value, g.relation, g.bound, g.proves) == (F(1, 4), ">", 0, DOM)
    assert (m.value, m.relation, m.bound, m.proves) == (F(3, 2), ">", 0, DOM)
    assert (r.value, r.relation, r.bound, r.proves) == (1, ">=", 1, DOM)
    items, bound = DP.descent_on_domain_b2(2, (0, 1), (3,), [[None, 5], [F(3, 2), None]], DOM, factor=F(8, 5))
    assert bound is False and len(items) == 4
    items, bound = DP.descent_on_domain_b2(2, (0,), (1,), [[None, 2]], DOM)
    assert bound is True and items[-1].value == 2


def test_b1_and_variance_items():
    """b1: least γ_opt − γ_t over t ≠ opt only (the opt's own zero gap excluded), '>' 0 on the domain; variance:
    spread max over sequences of max − min, '>' 0, three items."""
    items = DP.descent_on_domain_b1(3, (1,), [(1, 4, 3)], DOM)
    e = items[-1]
    assert (e.value, e.relation, e.bound, e.proves) == (1, ">", 0, DOM) and len(items) == 3
    v = DP.descent_on_domain_variance(2, [(0, 2), ("1/2", "-1")], DOM)
    assert len(v) == 3
    assert (v[1].value, v[1].relation, v[1].bound, v[1].proves) == (True, "==", True, DOM)
    assert (v[2].value, v[2].relation, v[2].bound, v[2].proves) == (2, ">", 0, DOM)
    assert v[0].proves == DOM


def _close(ball, x):
    return abs(float(ball.mid()) - x) < 1e-12


def test_margin_cone_proof_worst_over_sequences_and_relations():
    """T = 2, Γ = 1, A = 2, μ = 1/2, η = 1/10, gaps (1, 1/2, 4), gap bars (1/4, 2): (L1) max η·1·1·2/(2g) at g = 1/2 →
    1/5; (L2 lower) max η(2 + g/2)/(g/2) at g = 1/2 → (1/10)(9/4)·4 = 9/10; (L2 upper) max η/(2ḡ) at ḡ = 1/4 → 1/5;
    least W^mm margin over non-None entries 3/2."""
    items = DP.margin_cone_proof(T=2, Gamma=1, A=arb(2), gaps=(1, F(1, 2), 4), gap_bars=(F(1, 4), 2),
                                 wmm_margins=[[None, 2], [F(3, 2), None]], mu=F(1, 2), eta=arb(1) / 10, domain=DOM)
    assert len(items) == 6
    p, least, l1, low, up = items[1:]
    assert (p.value, p.relation, p.bound, p.proves) == (True, "==", True, DOM)
    assert (least.value, least.relation, least.bound, least.proves) == (F(3, 2), ">=", 1, DOM)
    assert _close(l1.value, 0.2) and (l1.relation, l1.bound, l1.proves) == ("<", 1, DOM)
    assert _close(low.value, 0.9) and (low.relation, low.bound, low.proves) == ("<=", 1, DOM)
    assert _close(up.value, 0.2) and (up.relation, up.bound, up.proves) == ("<=", 1, DOM)
    items = DP.margin_cone_proof(T=3, Gamma=1, A=arb(2), gaps=(4, F(1, 2)), gap_bars=(2, F(1, 4)),
                                 wmm_margins=[[None, 2]], mu=F(1, 2), eta=arb(1) / 10, domain=DOM)
    assert _close(items[3].value, 0.4) and _close(items[4].value, 1.8) and _close(items[5].value, 0.4)
