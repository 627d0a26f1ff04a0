"""tfsvm.lemma6 (mutation tests): the datasets as their docstrings define them (rational Householder rows, the score
vectors, the concave head, the names); which τ are admissible (strict τg_τ > 2g_1 on the gaps g_t = γ_t − γ_(t+1)); the
interval (g_1, τg_τ/2) and the λ points on it (piece midpoints, breakpoints S_k/2 strictly inside); the exact minimiser
and its KKT slack; each hypothesis's scope (n = 1 *and* Y = 1, λ strictly inside an interval, a head of another kind)
and its detail; the tallies the verdict reads, their point counts, the informative one-sided limits, the cover text
and the figure.

Closed forms used (module docstring, re-derived): with orthonormal tokens the minimiser is s⋆ = Proj_Δ(γ/(2λ)), its
support the top k tokens with k = max{k : S_k < 2λ}, S_k = Σ_(j≤k)(γ_j − γ_k). The gradient is ∇f = 2λs − γ; on
the support it equals the common μ = (2λ − Σ_sup γ)/k (Σ s = 1), off it ∇f_t = −γ_t, so the KKT slack off the support is
−γ_t − μ = (Σ_sup γ − 2λ)/k − γ_t."""
from fractions import Fraction as F

from claim_helpers import evaluate_at
from claim_helpers import only_item as _ev

from lemmas.tfsvm import lemma6 as M
from verify.claims import Figure

GAM_A = [F(1), F(9, 10), F(4, 5), F(0)]  # D-L6a: γ = v (X = I₄)


def householder(u):
    """I − 2uuᵀ/(uᵀu) for an integer vector u, in exact Fractions."""
    q = sum(x * x for x in u)
    return [[F(int(a == b)) - F(2 * u[a] * u[b], q) for b in range(len(u))] for a in range(len(u))]


def _run(data, **kw):
    return evaluate_at(M, data, **kw)


def support_and_slack(gam, lam):
    """(k, min KKT slack off the support or None) by the closed form (module docstring)."""
    g = sorted(gam, reverse=True)
    S = [sum(g[j] - g[k] for j in range(k + 1)) for k in range(len(g))]
    k = max(i + 1 for i in range(len(g)) if S[i] < 2 * lam)
    off = [(sum(g[:k]) - 2 * lam) / k - g[t] for t in range(k, len(g))]
    return k, (min(off) if off else None)


def test_the_datasets_are_the_documented_ones():
    """The three datasets as their docstrings define them: names, concave heads λ = 1/2 (none for D-L6c), X = I₄ and
    γ = (1, 9/10, 4/5, 0); Householder rows I − 2uuᵀ/(uᵀu) recomputed here; the score vectors; Y = (1)."""
    a, b, c = M.d_l6a(), M.d_l6b(), M.d_l6c()
    assert [x.name for x in (a, b, c)] == ["D-L6a", "D-L6b", "D-L6c"]
    assert [x.name for x in M.default_datasets()] == ["D-L6a", "D-L6b", "D-L6c"]
    assert a.head == ("concave", F(1, 2)) and b.head == ("concave", F(1, 2)) and c.head is None
    assert [list(r) for r in a.X[0]] == [[F(int(i == j)) for j in range(4)] for i in range(4)]
    assert list(a.scores[0]) == GAM_A
    # D-L6b: the first 5 rows of the Householder reflection of u = (1, −2, 1, 3, −1, 2) (uᵀu = 20), γ = (2, 1.9, 1.7,
    # 1.4, 0) in that order, v = Xᵀγ
    H = householder([1, -2, 1, 3, -1, 2])
    assert (b.n, b.T, b.d) == (1, 5, 6) and [list(r) for r in b.X[0]] == H[:5]
    assert list(b.scores[0]) == [F(2), F(19, 10), F(17, 10), F(7, 5), F(0)]
    # D-L6c: the whole 10×10 reflection of u = (3, −1, 4, 1, −5, 9, −2, 6, 5, −3); γ_1 = 1 and gaps g_t = t/20
    H = householder([3, -1, 4, 1, -5, 9, -2, 6, 5, -3])
    assert (c.n, c.T, c.d) == (1, 10, 10) and [list(r) for r in c.X[0]] == H
    gam = [F(1)]
    for t in range(1, 10):
        gam.append(gam[-1] - F(t, 20))
    assert list(c.scores[0]) == gam
    assert list(a.Y) == list(b.Y) == list(c.Y) == [1]


def test_admissible_taus_strict_and_on_the_right_gaps():
    """τ ∈ {2, …, T − 1} with τ·g_τ > 2·g_1 (strict), each case chosen so that one altered piece of the rule
    (start, product, gap index, factor, strictness) answers differently; the lists worked out by hand below."""
    # g = (1/10, 9/10): τ = 2: 2·9/10 > 2/10 (the first τ, 2, is admissible; g_2, not g_1, is used; 2g_1 on the right)
    assert M.admissible_taus([F(1), F(9, 10), F(0)]) == [2]
    # g = (1, 9): τg_τ = 18 > 2 = 2g_1 (a product, not τ/g_τ = 2/9)
    assert M.admissible_taus([F(10), F(9), F(0)]) == [2]
    # g = (1/10, 1/10, 4/5): τ = 2 gives 2/10 = 2g_1 — not strictly greater; τ = 3: 12/5 > 1/5
    assert M.admissible_taus(GAM_A) == [3]
    # g = (1/10, 1/8): 2·(1/8) = 1/4 > 2g_1 = 1/5 (but < 3g_1 = 3/10): the factor is 2
    assert M.admissible_taus([F(1), F(9, 10), F(31, 40)]) == [2]
    # a tie at the top (g_1 = 0): τ = 2 only (0 and 1 are never τ), g = (0, 1)
    assert M.admissible_taus([F(1), F(1), F(0)]) == [2]
    assert M.admissible_taus([F(1)]) == [] and M.admissible_taus([F(1), F(0)]) == []  # T ≤ 2: no τ ∈ {2, …, T − 1}


def test_interval_and_lambda_points():
    """The interval (g_1, τg_τ/2) and its λ points: piece midpoints and the breakpoints S_k/2 strictly inside
    (a breakpoint equal to either open end is not a point); S_k by hand."""
    assert M.interval(GAM_A, 3) == (F(1, 10), F(6, 5))  # (g_1, 3·(4/5)/2)
    # S = (0, 1/10, 3/10, 27/10): the one breakpoint inside (1/10, 6/5) is 3/20; pieces (1/10, 3/20), (3/20, 6/5)
    assert M.lambda_points(GAM_A, 3) == [(F(1, 8), "piece"), (F(3, 20), "breakpoint"), (F(27, 40), "piece")]
    # γ = (1, 4/5, 7/10, 0): S = (0, 1/5, 2/5, 5/2); S_3/2 = 1/5 = g_1 is the interval's open end, not a breakpoint
    gam = [F(1), F(4, 5), F(7, 10), F(0)]
    assert M.interval(gam, 3) == (F(1, 5), F(21, 20))
    assert M.lambda_points(gam, 3) == [(F(5, 8), "piece")]
    # γ = (1, 1, 0), τ = 2: interval (0, 1); S = (0, 0, 2): S_3/2 = 1 is the right open end, not a breakpoint
    assert M.lambda_points([F(1), F(1), F(0)], 2) == [(F(1, 2), "piece")]
    assert M.s_values([F(1), F(1), F(0)]) == [0, 0, 2]


def test_right_limit_count_uses_the_non_strict_breakpoint():
    """lim_(λ→a⁺) k(λ) = max{k : S_k ≤ 2a}: a breakpoint S_k = 2a counts (by hand, S of D-L6a)."""
    S = M.s_values(GAM_A)  # (0, 1/10, 3/10, 27/10)
    assert M._right_limit_count(S, F(1, 10)) == 2  # S_k ≤ 1/5: k = 1, 2
    assert M._right_limit_count(S, F(3, 20)) == 3  # S_3 = 3/10 = 2a counts (λ → a⁺ passes it)
    assert M._right_limit_count(S, F(1, 1000)) == 1


def test_optimum_and_its_kkt_slack():
    """D-L6a at λ = 1/2: 2λ = 1, S_3 = 3/10 < 1 < S_4: k = 3, μ = (1 − 27/10)/3 = −17/30, s⋆ = γ + μ on the top 3 =
    (13/30, 1/3, 7/30, 0); off the support the slack is (27/10 − 1)/3 − 0 = 17/30."""
    s, res, slack = M.optimum(M.d_l6a(), F(1, 2))
    assert s == [F(13, 30), F(1, 3), F(7, 30), F(0)] and res == 0 and slack == F(17, 30)
    assert support_and_slack(GAM_A, F(1, 2)) == (3, F(17, 30))
    s, res, slack = M.optimum(M.d_l6a(), F(40))  # every token selected: no slack off the support
    assert all(x > 0 for x in s) and res == 0 and slack is None


def test_defaults_tallies_points_and_values_on_d_l6a():
    """D-L6a: τ = 3 only; points 1/8, 3/20 (breakpoint), 27/40 and the dataset's λ = 1/2 in every tally; the
    values (KKT slack 0 at the breakpoint by the closed form, counts 2 and 3), the informative limits "2, 3", the
    cover text with and without the dataset's λ, the one figure."""
    out = _run(M.d_l6a())
    lams = [F(1, 8), F(3, 20), F(27, 40), F(1, 2)]  # the 3 λ points of τ = 3 and the dataset's λ
    closed = [support_and_slack(GAM_A, lam) for lam in lams]
    assert [k for k, _ in closed] == [2, 2, 3, 3]
    eq, ge = _ev(out, "KKT on the support"), _ev(out, "KKT off the support")
    formula, low, high = _ev(out, "#nonzeros of s⋆ = k(λ)"), _ev(out, "#nonzeros of s⋆ ≥ 2"), \
        _ev(out, "#nonzeros of s⋆ ≤ τ")
    assert high.quantity == "#nonzeros of s⋆ ≤ τ"  # slack 0 by default: the statement's own bound
    for e in (eq, ge, formula, low, high):
        assert e.coverage.points == 4 and e.coverage.holds == 4
    assert ge.value == min(sl for _, sl in closed) == 0  # the breakpoint 3/20: token 3 enters with zero slack
    assert low.value == 2 and high.value == 3 and eq.value == 0 and formula.value == 0
    limits = _ev(out, "τ = 3: #nonzeros at λ → g_1⁺")
    assert limits.informative and limits.value == "2, 3"  # lim_(λ→1/10⁺) k = 2 (S_2 = 1/10 ≤ 1/5), k(6/5) = 3
    # every piece and breakpoint checked: proven on the intervals (each deciding tally names that domain)
    assert out.decision().verdict == "HOLDS" and out.decision().certainty == "proven"
    assert all(e.proves == "every λ ∈ (g_1, τg_τ/2), every admissible τ" for e in (eq, ge, formula, low, high))
    assert out.covers == [] and out.notes[-1].endswith("; and the dataset's λ = 1/2")
    assert [f for f in out.figures if isinstance(f, Figure)] and len(out.figures) == 1
    nohead = _run(M.d_l6a().replace(head=None))
    assert _ev(nohead, "#nonzeros of s⋆ ≥ 2").coverage.points == 3
    assert nohead.notes[-1].endswith("breakpoint S_k/2 inside each admissible interval (exact)")


def test_slack_option_moves_the_bound_both_ways():
    """``slack``: −1 (τ − 1) refutes on D-L6a (k = 3 = τ at λ = 27/40), +1 holds and names the bound τ +1."""
    assert _run(M.d_l6a(), slack=-1).decide() == "VIOLATED"
    up = _run(M.d_l6a(), slack=1)
    assert _ev(up, "#nonzeros of s⋆ ≤ τ").quantity == "#nonzeros of s⋆ ≤ τ +1" and up.decide() == "HOLDS"


def test_dataset_lambda_at_one_intervals_end_and_inside_another():
    """γ = (1, 9/10, 3/5, 0), X = I₄: g = (1/10, 3/10, 3/5), τ = 2 → (1/10, 3/10), τ = 3 → (1/10, 9/10). λ = 3/10 is
    the open end of τ = 2's interval and inside τ = 3's: it is checked for τ = 3 only (S = (0, 1/10, 7/10, 5/2): two
    tokens at 2λ = 3/5)."""
    data = M.d_l6a().replace(v=[1, F(9, 10), F(3, 5), 0], head={"kind": "concave", "lambda": "3/10"})
    out = _run(data)
    assert M.admissible_taus(list(data.scores[0])) == [2, 3]
    n_grid = len(M.lambda_points(list(data.scores[0]), 2)) + len(M.lambda_points(list(data.scores[0]), 3))
    assert _ev(out, "#nonzeros of s⋆ ≥ 2").coverage.points == n_grid + 1
    assert out.decide() == "HOLDS"


def test_lambda_at_the_interval_ends_is_not_applicable():
    """λ = g_1 and λ = τg_τ/2 are outside the open interval: NOT_APPLICABLE naming the λ hypothesis."""
    for lam in ("1/10", "6/5"):  # g_1 and τg_τ/2 (τ = 3): the open interval excludes both
        d = _run(M.d_l6a().replace(head={"kind": "concave", "lambda": lam})).decision()
        assert d.verdict == "NOT_APPLICABLE" and d.reasons == ["hypothesis not met: g_1 < λ < τ g_τ/2 for some "
                                                               "admissible τ"]


def test_one_sequence_and_label_one_both_required():
    """n = 1 and Y = 1 are both required: n = 1 with Y = −1 fails the first hypothesis."""
    d = _run(M.d_l6a().replace(Y=[-1])).decision()  # n = 1 but Y = −1 (the scores flip sign too)
    assert d.verdict == "NOT_APPLICABLE" and d.reasons[0] == "hypothesis not met: one sequence with label Y = 1 (n = 1)"


def test_another_head_kind_is_not_applicable():
    """A tanh head (no λ) fails the concave-head hypothesis and no λ interval is asked of it."""
    out = _run(M.d_l6a().replace(head={"kind": "tanh"}))
    assert [h.name for h in out.hypotheses if not h.met] == ["head h(x) = vᵀx − λ‖x‖² (concave)"]
    assert len(out.hypotheses) == 4  # no λ-interval hypothesis for a head without λ


def test_hypothesis_details():
    """The hypotheses' details on D-L6a (what a NOT_APPLICABLE reports): n, Y; T, d; the gaps and admissible τ;
    the head kind; λ, g_1 and the interval — every number by hand from γ = (1, 9/10, 4/5, 0)."""
    hyps = M.hypotheses(M.d_l6a())
    assert [h.detail for h in hyps] == [
        "n = 1, Y = [1]", "T = 4, d = 4", "gaps g = (1/10, 1/10, 4/5); admissible τ = [3]", "head kind 'concave'",
        "λ = 1/2, g_1 = 1/10, intervals: τ = 3: (1/10, 6/5)"]
    assert all(h.met for h in hyps)
