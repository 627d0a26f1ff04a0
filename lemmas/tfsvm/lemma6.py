"""tfsvm Lemma 6 — a concave head makes the optimal softmax select several tokens (v1 §6.1, App. C.2).

Statement (v1). One sequence (n = 1, Y = 1) of orthonormal tokens x_1, …, x_T (T ≤ d), scores γ = Xv sorted
decreasingly, gaps g_t = γ_t − γ_(t+1). Suppose some τ ≥ 2 has τ·g_τ/2 > g_1, and the head is
h(x) = vᵀx − λ‖x‖² with g_1 < λ < τ·g_τ/2; the loss is ℓ(u) = −u. Then the minimiser

    s⋆ = argmin_{s∈Δ} λ‖Xᵀs‖² − vᵀXᵀs

has at least 2 and at most τ nonzero entries.

DERIVED (spec §4; used here and re-derived): with orthonormal tokens ‖Xᵀs‖² = ‖s‖² and vᵀXᵀs = γᵀs, so the problem is
min λ‖s − γ/(2λ)‖² and s⋆ = Proj_Δ(γ/(2λ)), rational for rational data; its support is the top k(λ) tokens with
k(λ) = max{k : S_k < 2λ}, S_k = Σ_{j≤k}(γ_j − γ_k) (nondecreasing in k). So the count is a nondecreasing step
function of λ whose breakpoints are the exact numbers S_k/2.

Hypotheses (exact, on the data): n = 1 and Y = 1; X Xᵀ = I (orthonormal tokens, T ≤ d); some τ ∈ {2, …, T − 1} with
τ g_τ > 2 g_1. With a ``head`` in the dataset: it is the concave head, and its λ lies in (g_1, τ g_τ/2) for some
such τ (else NOT_APPLICABLE naming it: e.g. λ < g_1/2 gives a one-hot s⋆, λ > T·max g all T tokens — both outside
the hypothesis, not counterexamples).

How it is checked (proven, exact rationals). λ is universally quantified ("for every λ in (g_1, τ g_τ/2)"): for
every admissible τ the open interval is cut at the breakpoints S_k/2 inside it, and one λ per piece (its midpoint)
and every breakpoint are checked — every value the step function takes on the interval, i.e. the whole range,
exactly — so the verdict is proven on every λ of the intervals, not sampled; plus the dataset's own λ. At each λ: s⋆ = Proj_Δ(γ/(2λ)) in Fractions, certified optimal for the problem as
stated (with X, not the orthonormal reduction) by its KKT conditions — ∇f = 2λXXᵀs⋆ − Xv equals a common μ on the
support and is ≥ μ off it; f is convex and XXᵀ = I ≻ 0, so the KKT point is the unique minimiser — and the tallies
#nonzeros ≥ 2 and #nonzeros ≤ τ decide; the derived formula k(λ) is compared exactly with the support found.
Figure: #nonzeros against λ (log scale) with the admissible intervals.

False cases (tests): the statement with its upper bound lowered to τ − 1 → VIOLATED on D-L6a (the count reaches τ
near the right end of the interval); λ = g_1/4 (one-hot s⋆) and non-orthonormal tokens → NOT_APPLICABLE naming the
hypothesis. The printed statement itself is true (S_2 = g_1 < 2λ and S_(τ+1) ≥ τg_τ > 2λ), so no dataset refutes it.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Evidence, Figure, Hypothesis, Outcome, Series, Tally, register
from verify.claims.registry import Parameter
from verify.data.dataset import Dataset
from verify.models.heads import simplex_projection
from verify.numbers.precision import Precision

ZERO = Fraction(0)
DOMAIN = "every λ ∈ (g_1, τg_τ/2), every admissible τ"  # what the piecewise check proves (module docstring)


def sorted_scores(data: Dataset) -> list[Fraction]:
    return sorted(data.scores[0], reverse=True)


def s_values(gam: list[Fraction]) -> list[Fraction]:
    """S_k = Σ_{j≤k}(γ_j − γ_k), k = 1..T (γ sorted decreasingly)."""
    return [sum((gam[j] - gam[k] for j in range(k + 1)), ZERO) for k in range(len(gam))]


def formula_count(S: list[Fraction], lam: Fraction) -> int:
    return max(k + 1 for k in range(len(S)) if S[k] < 2 * lam)


def admissible_taus(gam: list[Fraction]) -> list[int]:
    """τ ∈ {2, …, T − 1} with τ g_τ/2 > g_1 (1-indexed gaps g_t = γ_t − γ_(t+1))."""
    g = [gam[t] - gam[t + 1] for t in range(len(gam) - 1)]
    return [tau for tau in range(2, len(gam)) if tau * g[tau - 1] > 2 * g[0]]


def interval(gam, tau) -> tuple[Fraction, Fraction]:
    return gam[0] - gam[1], tau * (gam[tau - 1] - gam[tau]) / 2


def optimum(data: Dataset, lam: Fraction):
    """(s⋆ = Proj_Δ(γ/(2λ)) in the dataset's token order, KKT: (residual on the support, min slack off it))."""
    X, v = data.X[0], data.v
    gam = data.scores[0]
    s = simplex_projection([x / (2 * lam) for x in gam])
    T = len(X)
    G = [[sum((a * b for a, b in zip(X[t], X[u])), ZERO) for u in range(T)] for t in range(T)]
    grad = [2 * lam * sum((G[t][u] * s[u] for u in range(T)), ZERO) - sum((a * b for a, b in zip(X[t], v)), ZERO)
            for t in range(T)]
    sup = [t for t in range(T) if s[t] > 0]
    mu = grad[sup[0]]
    residual = max(abs(grad[t] - mu) for t in sup)
    slack = min((grad[t] - mu for t in range(T) if t not in sup), default=None)
    return s, residual, slack


def hypotheses(data: Dataset) -> list[Hypothesis]:
    T, d = data.T, data.d
    hyps = [Hypothesis("one sequence with label Y = 1 (n = 1)", data.n == 1 and data.Y[0] == 1,
                       f"n = {data.n}, Y = {list(data.Y)}")]
    if data.n != 1:
        return hyps
    X = data.X[0]
    gram_ok = T <= d and all(sum((a * b for a, b in zip(X[t], X[u])), ZERO) == (1 if t == u else 0)
                             for t in range(T) for u in range(T))
    hyps.append(Hypothesis("orthonormal tokens: X Xᵀ = I (T ≤ d), exact", gram_ok, f"T = {T}, d = {d}"))
    gam = sorted_scores(data)
    taus = admissible_taus(gam)
    g = [gam[t] - gam[t + 1] for t in range(T - 1)]
    hyps.append(Hypothesis("some τ ≥ 2 with τ g_τ/2 > g_1", bool(taus),
                           f"gaps g = ({', '.join(str(x) for x in g)}); admissible τ = {taus}"))
    head = data.head
    if head is not None:
        hyps.append(Hypothesis("head h(x) = vᵀx − λ‖x‖² (concave)", head[0] == "concave", f"head kind {head[0]!r}"))
        if head[0] == "concave" and taus:
            lam = head[1]
            ok = [tau for tau in taus if interval(gam, tau)[0] < lam < interval(gam, tau)[1]]
            hyps.append(Hypothesis("g_1 < λ < τ g_τ/2 for some admissible τ", bool(ok),
                                   f"λ = {lam}, g_1 = {g[0]}, intervals: " +
                                   "; ".join(f"τ = {tau}: ({interval(gam, tau)[0]}, {interval(gam, tau)[1]})"
                                             for tau in taus)))
    return hyps


def lambda_points(gam, tau) -> list[tuple[Fraction, str]]:
    """One λ per piece of the step function k(λ) on (g_1, τg_τ/2) (the midpoints) and every breakpoint inside."""
    a, b = interval(gam, tau)
    cuts = sorted({x / 2 for x in s_values(gam) if a < x / 2 < b})
    ends = [a] + cuts + [b]
    pts = [((lo + hi) / 2, "piece") for lo, hi in zip(ends, ends[1:])]
    pts += [(c, "breakpoint") for c in cuts]
    return sorted(pts)


def evaluate(data: Dataset, prec: Precision, slack: int = 0) -> Outcome:
    """``slack``: the upper bound checked is τ + slack (−1: the altered statement "at most τ − 1", a false case)."""
    out = Outcome(hypotheses=hypotheses(data))
    if not out.applicable():
        return out
    gam = sorted_scores(data)
    S = s_values(gam)
    taus = admissible_taus(gam)
    points = [(tau, lam, kind) for tau in taus for lam, kind in lambda_points(gam, tau)]
    if data.head is not None:
        lam = data.head[1]
        points += [(tau, lam, "dataset λ") for tau in taus if interval(gam, tau)[0] < lam < interval(gam, tau)[1]]
    kkt_eq = Tally("KKT on the support: max_t∈supp |∇f(s⋆)_t − μ| (f = λ‖Xᵀs‖² − vᵀXᵀs)", "==", ZERO)
    kkt_ge = Tally("KKT off the support: min_t∉supp ∇f(s⋆)_t − μ", ">=", ZERO)
    formula = Tally("#nonzeros of s⋆ = k(λ) = max{k : Σ_(j≤k)(γ_j − γ_k) < 2λ} (DERIVED)", "==", 0)
    low = Tally("#nonzeros of s⋆ ≥ 2", ">=", 2)
    high = Tally(f"#nonzeros of s⋆ ≤ τ{'' if not slack else f' {slack:+d}'}", "<=")
    for tau, lam, kind in points:
        s, res, sl = optimum(data, lam)
        count = sum(1 for x in s if x > 0)
        where = f"τ = {tau}, λ = {lam} ({kind}), s⋆ = ({', '.join(str(x) for x in s)})"
        kkt_eq.add(res, where)
        if sl is not None:
            kkt_ge.add(sl, where)
        formula.add(count - formula_count(S, lam), where)
        low.add(count, where)
        high.add(count, where, bound=tau + slack)
    # every value the step function k(λ) takes on each admissible interval is checked, so the tallies decide the
    # statement for every λ there (the reduction: the support is the top k(λ), constant between breakpoints)
    items = [kkt_eq.evidence(), formula.evidence(), low.evidence(), high.evidence()]
    if kkt_ge.coverage.points:
        items.append(kkt_ge.evidence())
    for item in items:
        item.proves = DOMAIN
    out.add(*items)
    for tau in taus:
        a, b = interval(gam, tau)
        out.add(Evidence(f"τ = {tau}: #nonzeros at λ → g_1⁺ = {a} and λ → (τg_τ/2)⁻ = {b} (extremes of the step "
                         "function, informative)", f"{_right_limit_count(S, a)}, {formula_count(S, b)}"))
    out.notes.append("checked: one λ per piece of the step function k(λ) and every breakpoint S_k/2 inside each "
                     "admissible interval (exact)" + (f"; and the dataset's λ = {data.head[1]}" if data.head else ""))
    out.show(count_figure(gam, taus))
    return out


def _right_limit_count(S, a) -> int:
    """lim_{λ→a⁺} k(λ) = max{k : S_k ≤ 2a}."""
    return max(k + 1 for k in range(len(S)) if S[k] <= 2 * a)


def count_figure(gam, taus) -> Figure:
    S = s_values(gam)
    g1 = gam[0] - gam[1]
    lo = g1 / 8 if g1 > 0 else Fraction(1, 100)
    hi = max(max(S), lo) * 2
    xs, k = [], 0
    while lo * Fraction(11, 10) ** k <= hi:
        xs.append(lo * Fraction(11, 10) ** k)
        k += 1
    series = [Series("#nonzeros of s⋆ = Proj_Δ(γ/(2λ))", [float(x) for x in xs],
                     [sum(1 for y in simplex_projection([g / (2 * x) for g in gam]) if y > 0) for x in xs], "-")]
    for tau in taus:
        a, b = interval(gam, tau)
        series.append(Series(f"admissible λ ∈ (g_1, τg_τ/2), τ = {tau}", [float(a), float(b)], [tau + 0.2] * 2, "-|"))
    return Figure("count", "Lemma 6: tokens selected by the concave head against λ", "λ", "#nonzeros of s⋆", series,
                  logx=True, hlines=[(2, "2")], caption="Exact counts (Fractions); the statement: between 2 and τ "
                  "on each admissible interval.")


# ----- datasets -------------------------------------------------------------------------------------------------
def _householder(u) -> list[list[Fraction]]:
    """I − 2uuᵀ/(uᵀu): a rational orthogonal matrix."""
    u = [Fraction(x) for x in u]
    q = sum((x * x for x in u), ZERO)
    return [[(1 if a == b else 0) - 2 * u[a] * u[b] / q for b in range(len(u))] for a in range(len(u))]


def d_l6a() -> Dataset:
    """X = I₄, γ = v = (1, 9/10, 4/5, 0): g = (1/10, 1/10, 4/5), τ = 3 admissible, interval (1/10, 6/5); λ = 1/2."""
    X = [[1 if a == b else 0 for b in range(4)] for a in range(4)]
    return Dataset.make(X=[X], Y=[1], v=[1, "0.9", "0.8", 0], head={"kind": "concave", "lambda": "1/2"}, name="D-L6a")


def d_l6b() -> Dataset:
    """T = 5 rows of a 6×6 rational Householder reflection (orthonormal, not axis-aligned), v with γ = (2, 1.9, 1.7,
    1.4, 0): λ = 1/2."""
    H = _householder([1, -2, 1, 3, -1, 2])
    X = H[:5]
    gam = [Fraction(2), Fraction(19, 10), Fraction(17, 10), Fraction(7, 5), ZERO]
    v = [sum((X[t][a] * gam[t] for t in range(5)), ZERO) for a in range(6)]  # Xv = γ since XXᵀ = I
    return Dataset.make(X=[X], Y=[1], v=v, head={"kind": "concave", "lambda": "1/2"}, name="D-L6b")


def d_l6c() -> Dataset:
    """T = d = 10 (the paper's Lemma-6 experiment size): rows of a Householder reflection, scores 1, 0.95, …; no λ
    (the whole admissible range is checked)."""
    H = _householder([3, -1, 4, 1, -5, 9, -2, 6, 5, -3])
    gam = [Fraction(20 - k * (k + 1) // 2, 20) for k in range(10)]
    v = [sum((H[t][a] * gam[t] for t in range(10)), ZERO) for a in range(10)]
    return Dataset.make(X=[H], Y=[1], v=v, name="D-L6c")


def default_datasets(seed: int = 0):
    return [d_l6a(), d_l6b(), d_l6c()]


STATEMENT = """\
n = 1, Y = 1, orthonormal tokens, γ = Xv sorted decreasingly, g_t = γ_t − γ_(t+1), some τ ≥ 2 with τg_τ/2 > g_1,
h(x) = vᵀx − λ‖x‖² with g_1 < λ < τg_τ/2, ℓ(u) = −u: the minimiser s⋆ of min_(s∈Δ) λ‖Xᵀs‖² − vᵀXᵀs has between 2
and τ nonzero entries (v1 Lemma 6). Certified exactly for every λ in the interval (each piece of the step function
#nonzeros(λ) and each breakpoint), every admissible τ.
"""

CLAIM = register(Claim(id="tfsvm.lemma6", paper="tfsvm", number="Lemma 6", kind="inequality",
                       title="A concave head makes the optimal softmax select between 2 and τ tokens",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("multi-token-selection",),
                       parameters=(
                           Parameter("λ", "every λ ∈ (g_1, τg_τ/2)", "hardest",
                                     "the count is a step function of λ with exact breakpoints S_k/2: one λ per "
                                     "piece and every breakpoint inside the interval (the whole range, exactly)"),
                           Parameter("τ", "some τ ≥ 2 with τg_τ/2 > g_1", "hardest",
                                     "every admissible τ ∈ {2, …, T − 1}"))))
