"""Cone geometry around a max-margin direction (mmts §2.3–2.4, Lemma 7, Theorem 3).

For a selection α with (ATT-SVM) feasible, ``p^mm = p^mm(α)`` is an exact rational vector (the
exact QP of ``verify.svm``), so the SVM-neighbours ``T_i`` (margin exactly 1), the non-neighbours
``T̄_i`` and their excess margins ``δ_iτ = (k_{iα_i} − k_iτ)ᵀp^mm − 1 > 0`` are exact. The cones are

    cone_μ(p^mm) = {p ≠ 0 : corr(p, p^mm) ≥ 1 − μ}                                            (7)
    C_{μ,R}(p^mm) = cone_μ(p^mm) ∩ {‖p‖ ≥ R}                                                   (8)

Widths (all DERIVED here; the paper's own μ of (32) is not recovered):

* A unit q̄ with corr(q̄, p̄^mm) ≥ 1 − μ has ‖q̄ − p̄^mm‖ ≤ √(2μ). The margin difference of a
  non-neighbour (j,τ) and a neighbour (i,t) along ‖p^mm‖·q̄ is δ_jτ − wᵀ(q − p^mm),
  w = (k_{iα_i} − k_it) − (k_{jα_j} − k_jτ); it stays positive when
  μ < ½ (δ_jτ / (‖p^mm‖ ‖w‖))². For i = j, ‖w‖ = ‖k_it − k_iτ‖ (the within-input formula);
  with several inputs a non-neighbour of one input must also stay behind the neighbours of the
  others (otherwise its softmax mass dominates the sum over inputs), so ``mu0`` takes the minimum
  over **all** pairs (neighbour of any input, non-neighbour of any input). It equals the
  within-input value when n = 1 and is never larger. α stays selected when
  μ < ½ (‖p^mm‖ max_{i,t} ‖k_{iα_i} − k_it‖)^{-2}. ``mu0`` is the minimum of both.
* ``critical_width`` μ*: the exact correlation level 1 − cos φ at which the cone first touches a
  direction where a non-neighbour with a **higher** score than α ties with a neighbour
  (sin φ = δ_jτ/(‖p^mm‖‖w‖)), or where α stops being selected. Beyond μ* some direction of the cone
  has a higher-score token nearest, and along it −⟨∇L(rq̄), p^mm⟩ < 0 for all large r
  (``leading_term`` certifies this). On Fig. 1(b): μ₀ = 4.950e−3, μ* = 1 − 1/√1.01 = 4.963e−3.

Probe points: ``cone_point(p̄, u, m, r) = r((1−m)p̄ + √(m(2−m)) u)`` for unit u ⊥ p̄ has
1 − corr = m and norm r exactly. ``cone_directions`` gives the u's: an orthonormal basis of the
span of the constraint rows orthogonal to p^mm (both signs), the adversarial directions that close
each (neighbour, higher-score non-neighbour) gap fastest or shrink a selection margin fastest,
seeded random combinations, and one direction outside the span of the keys (if there is one);
``dense_directions`` adds circles through pairs of basis vectors (the boundary sphere in ≥ 3-D).

Also here: ``cap_extremes`` (min/max of a linear function over the cone's spherical cap, closed
form), ``inward_component`` and ``boundary_scan`` (first-order cone invariance, on the boundary
directions of ``boundary_directions``), ``leading_term`` (the sign of −⟨∇L(rq), v⟩ as r → ∞ from
the nearest token: the asymptotic certificate behind a VIOLATED), ``radius_scale`` (the unit σ of
the radius ladders). Seeded datasets with a non-global LMM are in ``verify.geometry.cone_data``;
the hypotheses of the LMM claims and the trajectories checked against the cone in ``verify.kit.cone_checks``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb

from verify.errors import UsageError
from verify.models.attention import dot, norm2
from verify.numbers.exact import float_or_none, rational_above
from verify.numbers.precision import g_format, to_arb

ENUMERATION_LIMIT = 729  # T^n selections enumerated when α must be chosen automatically

_GEOMETRY_CACHE: dict = {}
_LMM_CACHE: dict = {}


def _fdot(a, b) -> Fraction:
    return sum((x * y for x, y in zip(a, b)), Fraction(0))


def _fsub(a, b):
    return tuple(x - y for x, y in zip(a, b))


@dataclass
class LMMGeometry:
    """A selection α, its SVM and (if feasible) the exact neighbour structure of Definition 2."""

    alpha: tuple
    feasible: bool
    locally_optimal: bool
    reason: str
    is_gmm: bool
    p_mm: tuple | None = None  # exact Fractions
    norm_sq: Fraction | None = None  # ‖p^mm‖²
    neighbours: dict = field(default_factory=dict)  # i -> [t]  (T_i)
    non_neighbours: dict = field(default_factory=dict)  # i -> [τ]  (T̄_i)
    margins: dict = field(default_factory=dict)  # (i, t) -> (k_{iα_i} − k_it)ᵀ p^mm, exact
    rows: dict = field(default_factory=dict)  # (i, t) -> k_{iα_i} − k_it, exact
    scores: tuple = ()
    svm: object = None

    # ----- convenience ----------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.alpha)

    def delta(self, i: int, t: int) -> Fraction:
        return self.margins[(i, t)] - 1

    def neighbour_pairs(self):
        return [(i, t) for i, ts in self.neighbours.items() for t in ts]

    def non_neighbour_pairs(self):
        return [(i, t) for i, ts in self.non_neighbours.items() for t in ts]

    def score_gap(self, i: int, t: int) -> Fraction:
        """γ_{iα_i} − γ_it (positive for every neighbour of an LMM)."""
        return self.scores[i][self.alpha[i]] - self.scores[i][t]

    def describe(self) -> str:
        if not self.feasible:
            return f"α = {list(self.alpha)}: ATT-SVM(α) infeasible"
        nb = {i: ts for i, ts in self.neighbours.items()}
        return (f"α = {list(self.alpha)} ({'GMM' if self.is_gmm else 'non-global'}), "
                f"p^mm(α) = ({', '.join(_short(x) for x in self.p_mm)}), ‖p^mm‖² = {_short(self.norm_sq)}, "
                f"SVM-neighbours T_i = {nb}")


def _short(x: Fraction) -> str:
    x = Fraction(x)
    if x.denominator == 1 or len(str(x)) <= 12:
        return str(x)
    return g_format(x, 6)  # exact beyond float64 too (float(x) overflows past 1e308)


def _key(data, alpha):
    return (data.to_json(), tuple(alpha))


def lmm_geometry(data, alpha, dps: int = 40) -> LMMGeometry:
    """The exact SVM geometry of selection α (cached per dataset and α; the SVM is solved exactly)."""
    from verify.svm import solve_svm

    alpha = tuple(int(a) for a in alpha)
    if len(alpha) != data.n or any(not 0 <= a < data.T for a in alpha):
        raise UsageError(f"selection α = {list(alpha)} does not fit n = {data.n}, T = {data.T}")
    key = _key(data, alpha)
    if key in _GEOMETRY_CACHE:
        return _GEOMETRY_CACHE[key]
    scores = data.scores
    opts = data.optimal_tokens()
    is_gmm = all(len(o) == 1 and o[0] == a for o, a in zip(opts, alpha))
    res = solve_svm(data, "p", alpha, dps, check_unique=False)
    if res.status != "optimal":
        g = LMMGeometry(alpha, False, False, "ATT-SVM(α) is infeasible (Farkas certificate"
                        + (" verified exactly)" if res.farkas is not None and res.farkas.passed else ")"),
                        is_gmm, scores=scores, svm=res)
        _GEOMETRY_CACHE[key] = g
        return g
    p = tuple(Fraction(x) for x in res.solution)
    keys = data.keys()
    rows, margins, nb, non = {}, {}, {}, {}
    for i in range(data.n):
        nb[i], non[i] = [], []
        for t in range(data.T):
            if t == alpha[i]:
                continue
            row = _fsub(keys[i][alpha[i]], keys[i][t])
            rows[(i, t)] = row
            m = _fdot(row, p)
            margins[(i, t)] = m
            (nb if m == 1 else non)[i].append(t)
    bad = [(i, t) for i, ts in nb.items() for t in ts if not scores[i][alpha[i]] > scores[i][t]]
    if bad:
        i, t = bad[0]
        reason = (f"not locally optimal: sequence {i} has SVM-neighbour token {t} with score "
                  f"{_short(scores[i][t])} ≥ γ_iα = {_short(scores[i][alpha[i]])} (Definition 2 needs <)")
    else:
        reason = "every SVM-neighbour has a strictly smaller score than the selected token (Definition 2)"
    g = LMMGeometry(alpha, True, not bad, reason, is_gmm, p, _fdot(p, p), nb, non, margins, rows, scores, res)
    _GEOMETRY_CACHE[key] = g
    return g


def locally_optimal_geometries(data, dps: int = 40, limit: int = ENUMERATION_LIMIT):
    """Every locally-optimal α of ``data`` (enumerating [T]^n); None when T^n exceeds ``limit``."""
    import itertools

    if data.T ** data.n > limit:
        return None
    key = data.to_json()
    if key not in _LMM_CACHE:
        out = []
        for alpha in itertools.product(range(data.T), repeat=data.n):
            g = lmm_geometry(data, alpha, dps)
            if g.locally_optimal:
                out.append(g)
        _LMM_CACHE[key] = out
    return _LMM_CACHE[key]


def choose_alpha(data, dps: int = 40):
    """(geometry or None, note): a non-global LMM if one exists (the widest μ₀), else the GMM.

    Enumerates [T]^n when T^n ≤ ENUMERATION_LIMIT; otherwise only α = opt is tried."""
    lmms = locally_optimal_geometries(data, dps)
    if lmms is None:
        opts = data.optimal_tokens()
        if any(len(o) > 1 for o in opts):
            return None, (f"T^n = {data.T}^{data.n} selections are too many to enumerate and the optimal "
                          "token is tied, so no locally-optimal α could be chosen; pass alpha explicitly")
        g = lmm_geometry(data, tuple(o[0] for o in opts), dps)
        note = (f"T^n = {data.T}^{data.n} selections are too many to enumerate: using α = opt (GMM) "
                f"without searching for non-global LMMs")
        return (g if g.locally_optimal else g), note
    if not lmms:
        return None, f"no locally-optimal selection among the {data.T}^{data.n} candidates (ATT-SVM infeasible or a neighbour with a higher or tied score for every α)"
    non_global = [g for g in lmms if not g.is_gmm]
    listing = "; ".join(f"{list(g.alpha)}{' (GMM)' if g.is_gmm else ''}" for g in lmms)
    if non_global:
        best = max(non_global, key=lambda g: (mu0(g), tuple(-a for a in g.alpha)))
        return best, (f"α chosen automatically: the non-global LMM {list(best.alpha)} with the widest derived "
                      f"cone μ₀ among the locally-optimal selections [{listing}]")
    return lmms[0], f"α chosen automatically: no non-global LMM exists, using the GMM {list(lmms[0].alpha)} (locally optimal: [{listing}])"


# ----- widths ------------------------------------------------------------------------------------
def _pairs(g: LMMGeometry, within_only: bool = False, higher_only: bool = False):
    """(neighbour (i,t), non-neighbour (j,τ), w, δ_jτ) for the ordering conditions."""
    for (i, t) in g.neighbour_pairs():
        for (j, tau) in g.non_neighbour_pairs():
            if within_only and i != j:
                continue
            if higher_only and not g.scores[j][tau] > g.scores[j][g.alpha[j]]:
                continue
            w = _fsub(g.rows[(i, t)], g.rows[(j, tau)])
            yield (i, t), (j, tau), w, g.delta(j, tau)


def selection_width(g: LMMGeometry) -> Fraction:
    """½ (‖p^mm‖ max_{i,t} ‖k_{iα_i} − k_it‖)^{-2}: below it α stays selected in the cone."""
    amax = max(_fdot(r, r) for r in g.rows.values())
    if amax == 0:
        return Fraction(1)
    return Fraction(1, 2) / (g.norm_sq * amax)


def mu0(g: LMMGeometry, within_only: bool = False) -> Fraction:
    """The derived sufficient width μ₀(α) (exact rational; see the module docstring).

    ``within_only=True`` gives the within-input formula (pairs inside one sequence only)."""
    best = selection_width(g)
    for _, _, w, dl in _pairs(g, within_only=within_only):
        ww = _fdot(w, w)
        if ww == 0:
            continue
        best = min(best, Fraction(1, 2) * dl * dl / (g.norm_sq * ww))
    return min(best, Fraction(1, 2))


def critical_width(g: LMMGeometry):
    """(μ*, description): the exact correlation deficit at which a higher-score non-neighbour ties
    with a neighbour, or α loses selection, on the cone boundary (arb); None if neither happens."""
    best, what = None, ""
    for (i, t), (j, tau), w, dl in _pairs(g, higher_only=True):
        ww = _fdot(w, w)
        if ww == 0:
            continue
        s2 = dl * dl / (g.norm_sq * ww)
        if s2 >= 1:
            continue
        m = 1 - (1 - to_arb(s2)).sqrt()
        if best is None or m.mid() < best.mid():
            best, what = m, (f"non-neighbour ({j},{tau}) (score {_short(g.scores[j][tau])} > γ_α) ties with "
                             f"neighbour ({i},{t})")
    for (i, t), row in g.rows.items():
        rr = _fdot(row, row)
        if rr == 0:
            continue
        c2 = g.margins[(i, t)] ** 2 / (g.norm_sq * rr)  # cos² of the angle between p^mm and the row
        if c2 >= 1:
            continue
        m = 1 - (1 - to_arb(c2)).sqrt()
        if best is None or m.mid() < best.mid():
            best, what = m, f"α stops being selected in sequence {i} (token {t} ties)"
    return best, what


def order_gap(g: LMMGeometry, mu) -> arb | None:
    """Lower bound on (non-neighbour margin − neighbour margin) along unit q̄ ∈ cone_μ, per unit ‖p‖:
    min over pairs of δΘ − ‖w‖√(2μ) (Θ = 1/‖p^mm‖). None when there are no non-neighbours."""
    s2mu = (2 * to_arb(mu)).sqrt()
    theta = 1 / to_arb(g.norm_sq).sqrt()
    best = None
    for _, _, w, dl in _pairs(g):
        val = to_arb(dl) * theta - to_arb(_fdot(w, w)).sqrt() * s2mu
        if best is None or val.mid() < best.mid():
            best = val
    return best


def selection_rate(g: LMMGeometry, mu) -> arb:
    """m_μ = min_{i,t} ((k_{iα_i}−k_it)ᵀp̄^mm − ‖k_{iα_i}−k_it‖√(2μ)): every margin along a unit q̄
    of cone_μ is at least m_μ, so 1 − s_{iα_i}(p) ≤ (T−1)e^{−m_μ‖p‖} there."""
    s2mu = (2 * to_arb(mu)).sqrt()
    nrm = to_arb(g.norm_sq).sqrt()
    best = None
    for (i, t), row in g.rows.items():
        val = to_arb(g.margins[(i, t)]) / nrm - to_arb(_fdot(row, row)).sqrt() * s2mu
        if best is None or val.mid() < best.mid():
            best = val
    return best


# ----- directions and points ---------------------------------------------------------------------
def _project_out(v, p):
    """v − (vᵀp/pᵀp) p, exact."""
    c = _fdot(v, p) / _fdot(p, p)
    return tuple(a - c * b for a, b in zip(v, p))


def _gram_schmidt(vectors):
    basis = []
    for v in vectors:
        for b in basis:
            v = _project_out(v, b)
        if any(v):
            basis.append(v)
    return basis


def _orthogonal_basis(g: LMMGeometry):
    """Exact (unnormalised) orthogonal basis of span(rows) ∩ (p^mm)⊥, and one vector ⊥ span(rows)."""
    p = g.p_mm
    rows = [_project_out(r, p) for r in g.rows.values()]
    basis = _gram_schmidt([r for r in rows if any(r)])
    D = len(p)
    span = _gram_schmidt([p] + basis)
    null = None
    for k in range(D):
        e = tuple(Fraction(1 if j == k else 0) for j in range(D))
        for b in span:
            e = _project_out(e, b)
        if any(e):
            null = e
            break
    return basis, null


def cone_directions(g: LMMGeometry, random_count: int = 2, seed: int = 0):
    """Exact directions u ⊥ p^mm (unnormalised, deduplicated up to positive scale); see module doc."""
    p = g.p_mm
    basis, null = _orthogonal_basis(g)
    cand = []
    for b in basis:
        cand.append(b)
        cand.append(tuple(-x for x in b))
    for _, _, w, _ in _pairs(g, higher_only=True):
        u = _project_out(w, p)
        if any(u):
            cand.append(u)
    for row in g.rows.values():
        u = _project_out(tuple(-x for x in row), p)
        if any(u):
            cand.append(u)
    rng = random.Random(seed)
    if len(basis) >= 2:
        for _ in range(random_count):
            coef = [Fraction(rng.randint(-9, 9), 7) for _ in basis]
            if any(coef):
                u = tuple(sum((c * b[k] for c, b in zip(coef, basis)), Fraction(0)) for k in range(len(p)))
                if any(u):
                    cand.append(u)
    if null is not None:
        cand.append(null)
    out, seen = [], set()
    for u in cand:
        m = max(abs(x) for x in u)
        key = tuple(x / m for x in u)
        if key not in seen:
            seen.add(key)
            out.append(u)
    return out


def dense_directions(g: LMMGeometry, per_circle: int = 36, max_basis: int = 3):
    """Unit directions ⊥ p^mm (arb) filling the cone's boundary sphere more densely than
    ``cone_directions``: for each pair of the first ``max_basis`` orthonormal basis vectors of
    span(rows) ∩ (p^mm)⊥, ``per_circle`` equally spaced points of their circle. Empty when that span
    has dimension < 2 (then ``cone_directions`` already gives the whole boundary)."""
    from flint import fmpq

    basis, _ = _orthogonal_basis(g)
    basis = [unit(b) for b in basis[:max_basis]]
    out = []
    for a in range(len(basis)):
        for b in range(a + 1, len(basis)):
            for m in range(per_circle):
                t = arb(fmpq(2 * m, per_circle))
                c, s = t.cos_pi(), t.sin_pi()
                out.append([c * x + s * y for x, y in zip(basis[a], basis[b])])
    return out


def unit(v) -> list:
    vv = [to_arb(x) for x in v]
    nv = norm2(vv)
    return [x / nv for x in vv]


def cone_point(pbar, u, m, r) -> list:
    """r((1−m) p̄ + √(m(2−m)) u): norm r and 1 − corr(·, p̄) = m (p̄, u orthonormal)."""
    m = to_arb(m)
    c, s = 1 - m, (m * (2 - m)).sqrt()
    r = to_arb(r)
    return [r * (c * a + s * b) for a, b in zip(pbar, u)]


DEFAULT_LEVELS = tuple(Fraction(x) for x in ("1", "0.8", "0.6", "0.4", "0.25", "0.12", "0.05", "0.02",
                                               "0.008", "0.003", "0.001", "0.0003", "1e-4", "1e-5",
                                               "1e-6", "1e-7", "1e-8", "0"))


def safe_norm(v) -> arb:
    """‖v‖ as a ball that stays finite when v's balls contain 0 (sqrt of a ball reaching below 0
    is nan in arb): then [0, √upper]."""
    d = dot(v, v)
    if d > 0:
        return d.sqrt()
    up = arb(d.upper())
    return arb(0).union(up.sqrt()) if up > 0 else arb(0)


def cap_extremes(w, pbar, mu):
    """(min, max) of ⟨w, q̂⟩ over unit q̂ with corr(q̂, p̄) ≥ 1 − μ (closed form)."""
    mu = to_arb(mu)
    wpar = dot(w, pbar)
    wperp = safe_norm([a - wpar * b for a, b in zip(w, pbar)])
    wn = safe_norm(w)
    c = 1 - mu
    s = (mu * (2 - mu)).sqrt()
    on_edge_min = c * wpar - s * wperp
    on_edge_max = c * wpar + s * wperp
    if not wn > 0:
        return arb(0).union(-wn), arb(0).union(wn)
    lo = -wn if (-wpar / wn) >= c else on_edge_min  # −w inside the cap → the unconstrained min
    hi = wn if (wpar / wn) >= c else on_edge_max
    return lo, hi


def inward_component(grad, p, pbar_mm, mu) -> arb:
    """⟨−∇L(p), p̄^mm − (1−μ) p̄⟩: ‖p‖ times the rate of change of corr(p, p^mm) along the flow
    at a boundary point of cone_μ (positive = the flow enters the cone)."""
    pb = unit(p)
    c = 1 - to_arb(mu)
    return -dot(grad, [a - c * b for a, b in zip(pbar_mm, pb)])


def in_cone_margin(p, pbar_mm, mu) -> arb:
    """μ − (1 − corr(p, p^mm)) ≥ 0 ⟺ p ∈ cone_μ (1 − corr computed without cancellation)."""
    pb = unit(p)
    diff = [a - b for a, b in zip(pb, pbar_mm)]
    return to_arb(mu) - dot(diff, diff) / 2


# ----- asymptotics along a ray -------------------------------------------------------------------
def leading_term(g: LMMGeometry, qbar, v, loss):
    """Sign of −⟨∇L(r q̄), v⟩ as r → ∞ (q̄ unit, α selected along q̄), from its leading term.

    −⟨∇L(rq̄), v⟩ = (1/n)Σ_i |ℓ'(φ_i)| Cov_{s_i}(γ_i, K_i v) and s_it ∝ e^{−r m_it},
    m_it = (k_{iα_i} − k_it)ᵀq̄, so the tokens of smallest margin m_min (over all sequences) lead:
    coefficient (1/n) Σ_{(i,t): m_it = m_min} |ℓ'(γ_{iα_i})| (γ_{iα_i} − γ_it)(k_{iα_i} − k_it)ᵀv.
    Returns (sign, detail, coefficient) with sign ∈ {+1, −1, None}; None (and coefficient None when
    there is none) when α is not certainly selected along q̄, the nearest token is not separated
    from the next by certified margins, or the coefficient's sign is not certain."""
    ms = {}
    for (i, t), row in g.rows.items():
        ms[(i, t)] = dot([to_arb(x) for x in row], qbar)
    if any(not (m > 0) for m in ms.values()):
        return None, "α is not certainly selected along this direction", None
    first = min(ms, key=lambda k: ms[k].mid())
    tied = [k for k in ms if not (ms[k] > ms[first]) and k != first]
    if tied:
        return None, f"nearest tokens {[first] + tied} are not separated by certified margins", None
    i, t = first
    coef = (abs(loss.d1(to_arb(g.scores[i][g.alpha[i]]))) * to_arb(g.score_gap(i, t))
            * dot([to_arb(x) for x in g.rows[(i, t)]], v))
    if coef > 0:
        return 1, f"nearest token ({i},{t}) at margin {ms[first].mid().str(6)} per unit norm; leading coefficient > 0", coef
    if coef < 0:
        return -1, (f"nearest token ({i},{t}) (score {_short(g.scores[i][t])} vs γ_α = "
                    f"{_short(g.scores[i][g.alpha[i]])}) at margin {ms[first].mid().str(6)} per unit norm: "
                    f"leading coefficient < 0, so the sign is negative for every large r"), coef
    return None, "leading coefficient not certainly nonzero", coef


# ----- first-order invariance on the boundary ---------------------------------------------------
def boundary_directions(g: LMMGeometry):
    """(exact directions, unit directions, flat) for the boundary of cone_μ(p^mm): ``cone_directions``;
    when there is none (the keys span one dimension) the cone is the open ray through p^mm and the
    zero direction stands for it (``flat``: its "boundary" points are ray points)."""
    exact = cone_directions(g)
    if exact:
        return exact, [unit(u) for u in exact], False
    zero = tuple(Fraction(0) for _ in g.p_mm)
    return [zero], [[arb(0)] * len(g.p_mm)], True


def boundary_scan(model, g: LMMGeometry, mu, radii, dirs, level=None):
    """At every boundary point r((1−m)p̄ + √(m(2−m))u) of cone_m (m = ``level`` or μ) and every r in
    ``radii``: the inward component ⟨−∇L, p̄^mm − (1−μ)p̄⟩ divided by (1/n)Σ(1 − s_iα).

    Returns one dict per radius: {"r", "values": [(value, k)], "ok": all certainly > 0}."""
    pmm = [to_arb(x) for x in g.p_mm]
    nrm = to_arb(g.norm_sq).sqrt()
    pbar = [x / nrm for x in pmm]
    m = mu if level is None else level
    out = []
    for r in radii:
        vals = []
        for k, u in enumerate(dirs):
            p = cone_point(pbar, u, m, r)
            st = model.states(p)
            grad = model.grad(p, st)
            mean = sum(model.mass_off(p, g.alpha, st), arb(0)) / len(g.alpha)
            vals.append((inward_component(grad, p, pbar, mu) / mean, k))
        out.append({"r": r, "values": vals, "ok": all(v > 0 for v, _ in vals)})
    return out


def first_order_witness(model, g: LMMGeometry, mu, radii):
    """(R, scan, directions): the first-order scan of ``boundary_scan`` over ``boundary_directions``
    plus the dense circles (a sparse set once gave an R too small by a factor 4 in 3-D), and the
    smallest radius of ``radii`` from which every boundary value is certainly > 0 at every deeper
    radius (None if none). Used to select datasets; claims decide with ``verify.claims.rules.witness``."""
    _, dirs, flat = boundary_directions(g)
    scan_dirs = dirs + ([] if flat else dense_directions(g))
    scan = boundary_scan(model, g, mu, radii, scan_dirs, level=Fraction(0) if flat else None)
    R = None
    for rec in reversed(scan):
        if not rec["ok"]:
            break
        R = rec["r"]
    return R, scan, scan_dirs


def radius_scale(norm_sq: Fraction) -> Fraction:
    """σ ≈ ‖p^mm‖ rounded up to two significant digits: the rational unit of the radius ladders."""
    import math

    f = float_or_none(norm_sq)
    if f is None or not 1e-300 < f < 1e300:  # beyond float64: the same rounding, exactly
        q = Fraction(norm_sq)
        rn, rd = math.isqrt(q.numerator), math.isqrt(q.denominator)
        exact = Fraction(rn, rd) if rn * rn == q.numerator and rd * rd == q.denominator else None
        return rational_above(exact if exact is not None else to_arb(q).sqrt(), 2)
    x = math.sqrt(f)
    e = math.floor(math.log10(x)) - 1
    return Fraction(math.ceil(x / 10**e - 1e-12)) * Fraction(10) ** e


def plane_direction(g: LMMGeometry):
    """The unit b̂ ⊥ p^mm with span(p^mm, b̂) ⊇ the keys' differences, when that span is 2-D (else None):
    the plane in which the paths can be drawn with a signed angle."""
    basis, _ = _orthogonal_basis(g)
    return unit(basis[0]) if len(basis) == 1 else None
