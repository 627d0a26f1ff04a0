"""tfsvm's separating cone cone_ε(α) (v1 Def. 3 / Def. 5, §5.3 and App. D.2), the selections it is built on, their
SVMs, support indices, local optimality (Def. 2 / Def. 4) and Assumption E — the one engine of Lemma 5, Lemma 16,
Theorems 9 and 10 (and the Assumption-E hypothesis of Corollaries 1–2).

A *row set* is what one softmax row sees: its window of tokens x_t, its query z, its scores γ_t and the token α it
selects. ``attention`` names the setting (``verify.models.seq2seq.ATTENTIONS``):
  "single"  (Att-SVM, Lemma 5, Thm 9): one row set per sequence i; z = z_i (``data.queries()``), γ_t = Y_i vᵀx_it
            (``data.scores``), α = α_i, every token visible;
  "seq2seq" (SAtt-SVM, Lemma 16, Thm 10): one row set per query (i, k); z = x_ik (self-attention), per-query scores
            γ_ikt = Y_ik vᵀx_it (``data.query_scores``: the dataset's ``Yq``, else Y_i), α = α_ik, every token
            visible;
  "causal"  as "seq2seq", but query k sees only the tokens t ≤ k (its *window*; the mask of
            ``verify.models.attention.LinearLogitModel``): α_ik must lie in the window, and low/high, the SVM's
            constraints and the support indices are all taken inside it (query 0 sees one token: no constraint).
Everything below works on a list of row sets, so the three settings share one computation.

* low = {t ∈ window : γ_t < γ_α}, high = {t ∈ window, t ≠ α : γ_t ≥ γ_α} (exact scores).
* The separation of W on a row set: max_{t∈low} min_{τ∈high} (x_t − x_τ)ᵀ W z — +∞ when high = ∅ (the inner
  minimum is empty), −∞ when low = ∅ and high ≠ ∅ (the outer maximum is empty).
* κ(W) = min over the row sets of the separation; cone_ε(α) = {W : κ(W) ≥ ε‖W‖_F} (rank ≤ m void for m = d), so
  κ(W)/‖W‖_F is the largest ε whose cone contains W, and κ ≤ 0 puts W in no cone_ε with ε > 0.
  Exact W (Fractions) gives an exact κ; arb W gives a ball (certain comparisons only).
* ``selection``: the SVM of a selection solved exactly (``verify.svm``; SAtt-SVM through ``satt_svm``, causal
  windows included), its feasibility certified either way, its support indices 𝒯 per row set (exact: the rational
  solution's active rows) and local optimality (Def. 2 / Def. 4: γ_α > γ_t for every t ∈ 𝒯, strict, exact; a row
  set with 𝒯 = ∅ meets it vacuously).
* ``selections``: [T]ⁿ (single) or the product of the windows ([T]^{nT}; (T!)ⁿ when causal) in product order, the
  optimal selection first when it is unique; at most ``limit`` of them.
* ``assumption_e``: Assumption E (App. D.2) at α — ∃ c_α > 0 such that for every convex combination x(s) of
  {x_α} ∪ {x_t : t ∈ low} in every row set, Y h(x(s)) ≤ γ_α − c_α(1 − s_α) (scores of the dataset's head h).
  f(s) = Y h(x(s)) − γ_α is linear (linear head) or a quadratic (the concave head h(x) = vᵀx − λ‖x‖²): Y = +1 makes
  f concave, so f(s) ≤ Σ_{t∈low} s_t ∂_t with ∂_t = Y ∇h(x_α)ᵀ(x_t − x_α) its slope from the vertex α, and E holds
  iff max_t ∂_t < 0 (c_α = −max ∂_t; a slope ≥ 0 breaks every c > 0 near s_α = 1); Y = −1 (or a linear head) makes
  f convex, its maximum over the simplex is at a vertex, and E holds with c_α = min_t(γ_α − γ_t) > 0. Exact
  (rationals). Other heads (tanh, MLP): undecided (None).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb

from verify.errors import UsageError
from verify.geometry.cones import ENUMERATION_LIMIT
from verify.geometry.tfsvm import certified_feasible
from verify.models.seq2seq import ATTENTIONS
from verify.numbers.precision import to_arb

__all__ = ["RowSet", "row_sets", "windows", "Separation", "separation", "normalised", "in_cone", "frobenius",
           "Selection", "selection", "selections", "selection_count", "optimal_selection", "assumption_e",
           "head_scores", "alpha_text", "ENUMERATION_LIMIT", "POS_INF", "NEG_INF", "ATTENTIONS"]

POS_INF, NEG_INF = "+∞", "−∞"


def _check_attention(attention: str) -> str:
    if attention not in ATTENTIONS:
        raise UsageError(f"unknown attention {attention!r}; choose one of {', '.join(ATTENTIONS)}")
    return attention


@dataclass(frozen=True)
class RowSet:
    key: tuple            # (i,) single-query, (i, k) sequence-to-sequence (0-based)
    tokens: tuple         # x_t (exact), all T of the sequence
    z: tuple              # the query (exact)
    scores: tuple         # γ_t (exact), all T (only the window's are used)
    alpha: int
    window: tuple = ()    # the visible tokens (all T unless causal); () means all
    y: Fraction = Fraction(1)   # the row's label Y_i (single) / Y_ik (seq2seq)

    @property
    def label(self) -> str:
        return f"sequence {self.key[0] + 1}" + (f", query {self.key[1] + 1}" if len(self.key) > 1 else "")

    @property
    def visible(self) -> tuple:
        return self.window or tuple(range(len(self.scores)))

    @property
    def low(self) -> tuple:
        g = self.scores
        return tuple(t for t in self.visible if g[t] < g[self.alpha])

    @property
    def high(self) -> tuple:
        g = self.scores
        return tuple(t for t in self.visible if t != self.alpha and g[t] >= g[self.alpha])

    def row(self, t, tau) -> tuple:
        """vec((x_t − x_τ) zᵀ), row-major: ⟨row, vec W⟩ = (x_t − x_τ)ᵀ W z."""
        return tuple((a - b) * c for a, b in zip(self.tokens[t], self.tokens[tau]) for c in self.z)


def windows(data, attention: str) -> list[tuple]:
    """The visible tokens of every row ((i,) for single, (i, k) row-major otherwise)."""
    T = data.T
    if _check_attention(attention) == "single":
        return [tuple(range(T))] * data.n
    return [tuple(range(k + 1 if attention == "causal" else T)) for _ in range(data.n) for k in range(T)]


def _labels(data):
    """Y_ik per query (the dataset's ``Yq``, else Y_i for every query)."""
    return data.Yq if data.Yq is not None else tuple((y,) * data.T for y in data.Y)


def row_sets(data, alpha, attention: str = "single") -> list[RowSet]:
    """The row sets of ``alpha``: a length-n tuple (single query, z_i = ``data.queries()``), or (seq2seq, causal)
    an n×T array (query k of sequence i is its token x_ik: self-attention; per-query scores; causal windows)."""
    X = data.X
    if _check_attention(attention) == "single":
        g, Z = data.scores, data.queries()
        return [RowSet((i,), tuple(map(tuple, X[i])), tuple(Z[i]), tuple(g[i]), int(alpha[i]), (), Fraction(data.Y[i]))
                for i in range(data.n)]
    g, Yq, T = data.query_scores, _labels(data), data.T
    out = []
    for i in range(data.n):
        for k in range(T):
            a = int(alpha[i][k])
            win = tuple(range(k + 1)) if attention == "causal" else ()
            if attention == "causal" and a > k:
                raise UsageError(f"causal selection: α of sequence {i + 1}, query {k + 1} is token {a + 1}, outside "
                                 f"the window 1..{k + 1}")
            out.append(RowSet((i, k), tuple(map(tuple, X[i])), tuple(X[i][k]), tuple(g[i][k]), a, win,
                              Fraction(Yq[i][k])))
    return out


def _dot(a, b):
    """⟨a, b⟩ for an exact row a: exact when b is exact, a ball when b holds balls."""
    if any(isinstance(y, arb) for y in b):
        return sum((to_arb(x) * y for x, y in zip(a, b) if x), arb(0))
    return sum((x * y for x, y in zip(a, b)), Fraction(0))


def _min(a, b):
    return a.min(b) if isinstance(a, arb) or isinstance(b, arb) else min(a, b)


def _max(a, b):
    return a.max(b) if isinstance(a, arb) or isinstance(b, arb) else max(a, b)


@dataclass
class Separation:
    value: object          # κ(W): Fraction (exact W), arb (ball W), or POS_INF / NEG_INF
    where: str             # the row set attaining the minimum (its label), with why when infinite
    per_set: list = field(default_factory=list)   # [(label, value)] every row set's separation

    @property
    def infinite(self) -> bool:
        return isinstance(self.value, str)

    def sign(self):
        """+1 / 0 / −1 (exact, or certain for a ball), None for a ball containing 0."""
        v = self.value
        if v == POS_INF:
            return 1
        if v == NEG_INF:
            return -1
        if isinstance(v, arb):
            return 1 if v > 0 else -1 if v < 0 else 0 if (v == 0) else None
        return (v > 0) - (v < 0)


def _set_value(rs: RowSet, W):
    low, high = rs.low, rs.high
    if not high:
        return POS_INF, "high = ∅"
    if not low:
        return NEG_INF, f"low = ∅, high = {{{', '.join(str(t + 1) for t in high)}}}"
    best = None
    for t in low:
        worst = None
        for tau in high:
            m = _dot(rs.row(t, tau), W)
            worst = m if worst is None else _min(worst, m)
        best = worst if best is None else _max(best, worst)
    return best, ""


def separation(sets, W) -> Separation:
    """κ(W) = min over the row sets of max_{t∈low} min_{τ∈high} (x_t − x_τ)ᵀ W z (W flat, row-major)."""
    W = [x if isinstance(x, arb) else Fraction(x) for x in W]
    per, why = [], {}
    for rs in sets:
        v, reason = _set_value(rs, W)
        per.append((rs.label, v))
        why[rs.label] = reason
    minus = [lab for lab, v in per if v == NEG_INF]
    if minus:
        return Separation(NEG_INF, f"{minus[0]}: {why[minus[0]]}", per)
    finite = [(lab, v) for lab, v in per if v != POS_INF]
    if not finite:
        return Separation(POS_INF, "every row set has high = ∅", per)
    value = finite[0][1]
    for _, v in finite[1:]:
        value = _min(value, v)
    key = (lambda v: v.mid()) if isinstance(value, arb) else (lambda v: v)
    where = min(finite, key=lambda lv: key(lv[1]))[0]
    return Separation(value, where, per)


def frobenius(W) -> arb:
    return sum(((x if isinstance(x, arb) else to_arb(Fraction(x))) ** 2 for x in W), arb(0)).sqrt()


def normalised(sep: Separation, W):
    """κ(W)/‖W‖_F: an arb ball, or POS_INF / NEG_INF."""
    return sep.value if sep.infinite else (sep.value if isinstance(sep.value, arb) else to_arb(sep.value)) / frobenius(W)


def in_cone(sets, W, eps) -> bool | None:
    """W ∈ cone_ε(α) ⇔ κ(W) ≥ ε‖W‖_F: True/False certain (exact or by enclosures), None undecided."""
    sep = separation(sets, W)
    if sep.value == POS_INF:
        return True
    if sep.value == NEG_INF:
        return False
    eps = eps if isinstance(eps, arb) else to_arb(Fraction(eps))
    slack = (sep.value if isinstance(sep.value, arb) else to_arb(sep.value)) - eps * frobenius(W)
    if slack >= 0:
        return True
    if slack < 0:
        return False
    if not isinstance(sep.value, arb) and sep.value == 0 and eps == 0:
        return True
    return None


# ----- selections: their SVM, support indices and local optimality ------------------------------------------
def alpha_text(alpha, base: int = 1) -> str:
    """α as text: "(1,2)" single, "(1,2; 2,1)" sequence-to-sequence (``base``: 1-indexed by default)."""
    if alpha and isinstance(alpha[0], tuple):
        return "(" + "; ".join(",".join(str(t + base) for t in r) for r in alpha) + ")"
    return "(" + ",".join(str(t + base) for t in alpha) + ")"


@dataclass
class Selection:
    alpha: tuple                 # α (length n), or an n×T tuple of tuples (seq2seq, causal)
    sets: list                   # its row sets
    feasible: bool | None        # certified: optimum certificate / verified Farkas certificate; None undecided
    result: object               # the SVMResult
    W: tuple | None = None       # W^mm_α (exact, row-major) when feasible
    support: dict = field(default_factory=dict)   # row-set key → sorted support indices 𝒯
    locally_optimal: bool | None = None
    reason: str = ""
    sep: Separation | None = None
    attention: str = "single"

    @property
    def label(self) -> str:
        return "α = " + alpha_text(self.alpha)

    @property
    def kappa(self):
        """κ(α) = κ(W^mm_α)/‖W^mm_α‖_F (arb, or ±∞)."""
        return None if self.sep is None else normalised(self.sep, self.W)

    @property
    def norm2(self) -> Fraction | None:
        """‖W^mm_α‖²_F (exact)."""
        return None if self.W is None else sum((x * x for x in self.W), Fraction(0))

    def empty_support(self) -> list:
        """Row sets without a support index (Def. 2 / Def. 4 then hold there vacuously)."""
        return [rs for rs in self.sets if not self.support.get(rs.key)]

    def deviating(self) -> list:
        """Row sets with high ≠ ∅ (the only ones the cone constrains; none for α = opt)."""
        return [rs for rs in self.sets if rs.high]

    def empty_cone(self) -> list:
        """Row sets with high ≠ ∅ and low = ∅: κ = −∞, cone_ε(α) = ∅ for every ε (the flaw of Lemma 5 / 16 (a))."""
        return [rs for rs in self.sets if rs.high and not rs.low]


def selection(data, alpha, attention: str = "single", dps: int = 40) -> Selection:
    """Solve the SVM of ``alpha`` exactly and derive 𝒯, local optimality and κ(α)."""
    from verify.svm import solve_svm
    from verify.svm.seq2seq import satt_svm

    T = data.T
    if _check_attention(attention) == "single":
        alpha = tuple(int(a) for a in alpha)
        sets = row_sets(data, alpha, attention)
        res = solve_svm(data, "W", alpha, dps, check_unique=False)
    else:
        alpha = tuple(tuple(int(a) for a in r) for r in alpha)
        sets = row_sets(data, alpha, attention)
        res = satt_svm(data, select=[list(r) for r in alpha], causal=attention == "causal", dps=dps)
    sel = Selection(alpha, sets, certified_feasible(res), res, attention=attention)
    if sel.feasible is not True:
        sel.reason = {False: "the SVM of α is infeasible (verified Farkas certificate)",
                      None: "the SVM of α has no certified answer"}[sel.feasible]
        return sel
    if not res.exact:
        sel.feasible, sel.reason = None, "the SVM solution is not exact (support indices undecidable)"
        return sel
    sel.W = tuple(Fraction(x) for x in res.solution)
    support: dict = {rs.key: [] for rs in sets}
    for g, t in res.support:
        key = (g,) if attention == "single" else (g // T, g % T)
        support[key].append(t)
    sel.support = {k: sorted(v) for k, v in support.items()}
    sel.locally_optimal, sel.reason = True, "γ_α > γ_t for every support index t (row sets with 𝒯 = ∅ vacuously)"
    for rs in sets:
        for t in sel.support[rs.key]:
            if not rs.scores[rs.alpha] > rs.scores[t]:
                sel.locally_optimal = False
                sel.reason = (f"{rs.label}: support index {t + 1} has score {rs.scores[t]} ≥ {rs.scores[rs.alpha]} "
                              f"of α = {rs.alpha + 1}")
                break
        if not sel.locally_optimal:
            break
    sel.sep = separation(sets, sel.W)
    return sel


def selection_count(data, attention: str = "single") -> int:
    out = 1
    for w in windows(data, attention):
        out *= len(w)
    return out


def _shape(flat, data, attention):
    if attention == "single":
        return tuple(flat)
    T = data.T
    return tuple(tuple(flat[i * T:(i + 1) * T]) for i in range(data.n))


def optimal_selection(data, attention: str = "single"):
    """opt: every row's unique maximiser of γ over its window (α's shape), or None when some row is tied."""
    sets = row_sets(data, _shape([0] * len(windows(data, attention)), data, attention), attention)
    flat = []
    for rs in sets:
        top = max(rs.scores[t] for t in rs.visible)
        arg = [t for t in rs.visible if rs.scores[t] == top]
        if len(arg) > 1:
            return None
        flat.append(arg[0])
    return _shape(flat, data, attention)


def selections(data, attention: str = "single", limit: int | None = ENUMERATION_LIMIT) -> list:
    """α in product order over the windows (``selection_count`` of them), the optimal selection first when it is
    unique; at most ``limit`` (None: all)."""
    opt = optimal_selection(data, attention)
    out = [opt] if opt is not None else []
    for flat in itertools.product(*windows(data, attention)):
        if limit is not None and len(out) >= limit:
            break
        a = _shape(flat, data, attention)
        if a != opt:
            out.append(a)
    return out


# ----- Assumption E -------------------------------------------------------------------------------------------
def _fdot(a, b) -> Fraction:
    return sum((Fraction(x) * Fraction(y) for x, y in zip(a, b)), Fraction(0))


def head_scores(data, rs: RowSet):
    """Y·h(x_t) for every token of the row set under the dataset's head, exactly; None for a head not evaluated
    exactly (tanh, MLP). The linear head gives the row set's own scores."""
    head = getattr(data, "head", None)
    kind = head[0] if head else "linear"
    if kind == "linear":
        return rs.scores
    if kind != "concave":
        return None
    lam = Fraction(head[1])
    return tuple(rs.y * (_fdot(x, data.v) - lam * _fdot(x, x)) for x in rs.tokens)


def assumption_e(data, alpha, attention: str = "single"):
    """(met, c_α or None, detail) for Assumption E at α (module docstring); met None for a head whose E is not
    decided exactly here. ``alpha`` None: the head's optimal tokens (first maximiser over each row's window)."""
    head = getattr(data, "head", None)
    kind = head[0] if head else "linear"
    if kind not in ("linear", "concave"):
        return None, None, f"Assumption E is not decided for the {kind} head (only linear and concave heads)"
    lam = Fraction(head[1]) if kind == "concave" else Fraction(0)
    if alpha is None:
        zero = _shape([0] * len(windows(data, attention)), data, attention)
        flat = []
        for rs in row_sets(data, zero, attention):
            g = head_scores(data, rs)
            flat.append(max(rs.visible, key=lambda t: (g[t], -t)))
        alpha = _shape(flat, data, attention)
    cs, bad = [], []
    for rs in row_sets(data, alpha, attention):
        g, a = head_scores(data, rs), rs.alpha
        low = [t for t in rs.visible if g[t] < g[a]]
        if not low:
            continue
        if kind == "linear" or rs.y < 0:   # f linear or convex: the vertices decide
            cs.append(min(g[a] - g[t] for t in low))
            continue
        xa = rs.tokens[a]
        grad = [vv - 2 * lam * xx for vv, xx in zip(data.v, xa)]          # ∇h(x_α), concave head
        slopes = {t: rs.y * _fdot(grad, [p - q for p, q in zip(rs.tokens[t], xa)]) for t in low}
        worst = max(slopes, key=slopes.get)
        if slopes[worst] >= 0:
            bad.append(f"{rs.label}: Y·h rises from x_α toward token {worst + 1} (slope {slopes[worst]} ≥ 0), so "
                       "Y·h(x(s)) > γ_α − c(1 − s_α) near s_α = 1 for every c > 0")
        else:
            cs.append(-slopes[worst])
    if bad:
        return False, None, "; ".join(bad[:3])
    c = min(cs) if cs else None
    return True, c, (f"{kind} head: c_α = {c}" if c is not None else f"{kind} head: no low-score tokens (vacuous)")
