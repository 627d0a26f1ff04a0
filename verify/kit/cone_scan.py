"""mmts Lemma 7's scan of the cone C_{μ,R}(p^mm) (App. B.1): probe points, the quantities of the lemma
at each, the witnesses of its existential parts, and the constants DERIVED for it.

Probe points p = r((1−m)p̄^mm + √(m(2−m))u) (``verify.geometry.cones.cone_point``: 1 − corr = m,
‖p‖ = r exactly) with u over ``cone_directions`` (orthonormal directions ⊥ p^mm, the directions
that close a (neighbour, higher-score non-neighbour) gap fastest, random ones, one outside the span
of the keys) at levels m ∈ μ·{1, 0.8, …, 10⁻⁸, 0} plus radius-adapted angles θ ≈ x/(r·A_max)
(``ADAPTIVE``: where the L3 supremum sits, θ ~ 1/r) and, when the keys span ≥ 3 dimensions,
circles of 36 directions (``dense_directions``) at the outer levels μ, μ/2, μ/4. If the keys span
one dimension the cone is the ray through p^mm and only ray points are probed.

Quantities at p (w = −∇L(p), mean = (1/n)Σ_i(1 − s_{iα_i}(p)) computed as Σ_{t≠α} s_it):
``l1`` = ⟨w, p^mm⟩/mean; ``l2lo``/``l2hi`` = inf/sup over q ∈ cone_μ, ‖q‖ = ‖p^mm‖ of ⟨w, q⟩/mean
(closed form on the spherical cap, ``cap_extremes``: only p is sampled); ``gn`` = ‖∇L(p)‖/mean;
``c31`` = ‖∇L(p)‖e^{m_μ‖p‖}/(C'(T−1)); ``num`` = ⟨w, p̄⟩, ``den`` = ⟨w, p̄^mm⟩ (L3).

Constants proved here (DERIVED; the paper's are UNCERTAIN):

* C' = M₁ max_i Γ_i A_i (Γ_i = max_t γ_it − min_t γ_it, A_i = max_{t≠α_i}‖k_{iα_i} − k_it‖). For every p,
  −∇L(p) = (1/n)Σ_i |ℓ'(φ_i)| Σ_t s_it(γ_it − φ_i)(k_it − k_{iα_i}) (Σ_t s_it(γ_it − φ_i) = 0), each
  |γ_it − φ_i| ≤ Γ_i (φ_i is an average of the γ_it), the t = α_i term vanishes and |ℓ'(φ_i)| ≤ M₁
  (φ_i ∈ [−B, B]), so ‖∇L(p)‖ ≤ C'·mean and −⟨∇L(p), q⟩ ≤ C'‖p^mm‖·mean for ‖q‖ = ‖p^mm‖: the
  upper constants of (31a)–(31b). Equality would need |ℓ'| = M₁ inside [−B, B] (for the logistic
  loss M₁ = 1 is never attained): the comparison is strict in exact arithmetic, and a ball that
  cannot decide it (saturation at huge B) leaves the item undecided.
* m_μ = min_{i,t}((k_{iα_i} − k_it)ᵀp̄^mm − ‖k_{iα_i} − k_it‖√(2μ)) (``selection_rate``): on
  cone_μ every margin per unit norm is ≥ m_μ, so 1 − s_{iα_i}(p) ≤ (T−1)e^{−m_μ‖p‖} and with C':
  ‖∇L(p)‖ ≤ C'(T−1)e^{−m_μ‖p‖} — the derived form of (31c) (the paper's exact (31c) is UNCERTAIN).
* The limit of the L2 ratio deep in the cone: the neighbour (i,t) ∈ T terms dominate, each
  contributing |ℓ'(γ_{iα_i})|(γ_{iα_i} − γ_it)·(k_{iα_i} − k_it)ᵀq with (k_{iα_i} − k_it)ᵀq ∈ [1 − ε_it, 1 + ε_it],
  ε_it = ‖k_{iα_i} − k_it‖‖p^mm‖√(2μ) (‖q − p^mm‖ ≤ ‖p^mm‖√(2μ)); the ratio is a weighted average of
  them, so it tends into [c_lim, C_lim], c_lim = min_T |ℓ'(γ_α)|(γ_α − γ_t)(1 − ε), C_lim = max_T (…)(1 + ε).
  Deep means ‖p‖ ≥ R_deep = (K + ln(W_max/w_min) + ln(nT))/g_μ with K = rules.LIMIT_DEPTH_EXPONENT:
  g_μ is the smallest neighbour/non-neighbour (or selection) margin gap per unit ‖p‖ in cone_μ
  (``order_gap``, ``selection_rate``), W_max/w_min the spread of the per-input weights |ℓ'|·Γ·A;
  there every non-neighbour term (and every second-order term, ∝ 1 − s_α ≤ (T−1)e^{−m_μ‖p‖}) is
  below e^{−K} times the smallest neighbour term. Fig. 1(b), μ = 0.002: ratio → |ℓ'(0.9)|·0.9 = 0.2602.
"""
from __future__ import annotations

import math
from fractions import Fraction

from flint import arb

from verify.claims import Evidence, Figure, Series, Tally, rules
from verify.geometry.cones import (
    DEFAULT_LEVELS,
    cap_extremes,
    cone_directions,
    cone_point,
    dense_directions,
    order_gap,
    selection_rate,
    unit,
)
from verify.kit.cone_checks import asymptotic_evidence, log10_series, plot_value, ruled
from verify.models.attention import LinearLogitModel, dot, norm2
from verify.numbers.precision import to_arb

#: Lemma 7's radius ladder, in units of σ ≈ ‖p^mm‖ (far beyond ‖p‖ ≈ 10³ where float64 cannot even
#: evaluate the softmax; the balls have an unbounded exponent)
LADDER = tuple(Fraction(x) for x in ("1", "2", "5", "10", "20", "50", "100", "200", "500", "1000", "2000",
                                       "5000", "1e4", "3e4", "1e5", "3e5", "1e6", "1e7", "1e8"))
#: radius-adapted angles θ ≈ x/(r·A_max): the L3 supremum sits at θ ~ 1/r
ADAPTIVE = tuple(Fraction(x) for x in ("0.03", "0.1", "0.3", "1", "3", "10", "30"))


def _levels(mu: Fraction, r: Fraction, amax: float, extra=()):
    lv = {mu * f for f in DEFAULT_LEVELS}
    for x in ADAPTIVE:
        th = x / (r * Fraction(amax))
        if th * th / 2 <= mu:
            lv.add(th * th / 2)
    lv.update(m for m in extra if m <= mu)
    return sorted(lv, reverse=True)


def _argmax(vals):
    return max(vals, key=lambda z: z.mid())


def _argmin(vals):
    return min(vals, key=lambda z: z.mid())


class ConeScan:
    """The Lemma 7 quantities at every probe point of C_{μ,r}, r over ``radii`` (see the module doc).

    ``radii[k]`` has ``points[k]``: a list of dicts (m, k, and the quantities). ``Cp`` = C',
    ``m_mu`` = m_μ. The helpers turn a quantity into decided evidence: ``tally`` (every point from
    a radius on), ``witness`` (rules.witness over the radii), ``l3_tally``."""

    def __init__(self, data, g, mu, radii, loss, pis=(), levels=()):
        self.g, self.mu, self.radii, self.pis = g, Fraction(mu), list(radii), tuple(pis)
        n, T = data.n, data.T
        model = LinearLogitModel.from_dataset(data, "p", loss)
        self.pmm = [to_arb(x) for x in g.p_mm]
        self.nrm = to_arb(g.norm_sq).sqrt()
        self.pbar = [x / self.nrm for x in self.pmm]
        dirs = [unit(u) for u in cone_directions(g)]
        self.flat = not dirs
        if self.flat:  # keys span one dimension: cone_μ(p^mm) is the open ray, only its points are probed
            dirs = [[arb(0)] * len(self.pmm)]
        ring = [] if self.flat else dense_directions(g)
        self.dirs = dirs + ring
        B = max(abs(x) for row in data.scores for x in row)
        M1 = loss.constants(to_arb(B))[1]
        A = [max((sum(x * x for x in g.rows[(i, t)]) for t in range(T) if t != g.alpha[i]), default=Fraction(0))
             for i in range(n)]
        self.Cp = M1 * _argmax([to_arb(max(row) - min(row)) * to_arb(a).sqrt() for row, a in zip(data.scores, A)])
        self.m_mu = selection_rate(g, mu)
        amax = max(float(sum(x * x for x in row)) ** 0.5 for row in g.rows.values())
        ring_levels = {self.mu, self.mu / 2, self.mu / 4}
        self.points = []
        for r in self.radii:
            pts = []
            for m in (_levels(self.mu, r, amax, levels) if not self.flat else [Fraction(0)]):
                use = dirs[:1] if m == 0 else (self.dirs if m in ring_levels else dirs)
                for k, u in enumerate(use):
                    pts.append(self._point(model, u, m, k, r, n, T))
            self.points.append(pts)

    def _point(self, model, u, m, k, r, n, T) -> dict:
        p = cone_point(self.pbar, u, m, r)
        st = model.states(p)
        grad = model.grad(p, st)
        mean = sum(model.mass_off(p, self.g.alpha, st), arb(0)) / n
        w = [-x for x in grad]
        a1 = dot(w, self.pmm)  # −⟨∇L, p^mm⟩
        lo, hi = cap_extremes(w, self.pbar, self.mu)
        gn = norm2(grad)
        mm = to_arb(m)
        c, s = 1 - mm, (mm * (2 - mm)).sqrt()
        out = {"m": m, "k": k, "r": r, "l1": a1 / mean, "l2lo": lo * self.nrm / mean, "l2hi": hi * self.nrm / mean,
               "gn": gn / mean, "num": dot(w, [c * a + s * b for a, b in zip(self.pbar, u)]), "den": a1 / self.nrm}
        if self.m_mu > 0:
            out["c31"] = gn * (self.m_mu * to_arb(r)).exp() / (self.Cp * (T - 1))
        out["where"] = f"‖p‖ = {float(r):g}, 1 − corr = {float(m):.3g}, direction {k}"
        return out

    # ----- decided evidence ---------------------------------------------------------------------
    @staticmethod
    def where(pt) -> str:
        return pt["where"]

    def select(self, from_r=None, to_r=None):
        return [pt for r, pts in zip(self.radii, self.points) if (from_r is None or r >= from_r)
                and (to_r is None or r <= to_r) for pt in pts]

    def tally(self, quantity, key, relation, bound, from_r=None, note="") -> Evidence:
        """``key relation bound`` at every probe point with ‖p‖ ≥ ``from_r`` (all points if None)."""
        t = Tally(quantity, relation, bound)
        for pt in self.select(from_r):
            if key in pt:
                t.add(pt[key], self.where(pt))
        return t.evidence(note)

    def l3_add(self, t: Tally, pt, pi):
        """⟨w, p̄⟩ ≤ (1+π)⟨w, p̄^mm⟩: as the ratio ≤ 1+π where the denominator is certainly > 0,
        else as the inequality itself (a ball containing 0 stays undecided)."""
        num, den = pt["num"], pt["den"]
        if den > 0:
            return t.add(num / den, self.where(pt), 1 + to_arb(pi))
        return t.add(num, self.where(pt), (1 + to_arb(pi)) * den)

    def l3_tally(self, quantity, pi, from_r=None, note="") -> Evidence:
        t = Tally(quantity, "<=", 1 + to_arb(pi))
        for pt in self.select(from_r):
            self.l3_add(t, pt, pi)
        return t.evidence(note)

    @staticmethod
    def positive(key):
        """point → True / False / None: ``key > 0`` decided by its enclosure at that point."""
        return lambda pt: True if pt[key] > 0 else False if pt[key] <= 0 else None

    def l3_decider(self, pi):
        bound = 1 + to_arb(pi)

        def decide(pt):  # as ``l3_add`` decides it
            num, den = pt["num"], pt["den"]
            v, b = (num / den, bound) if den > 0 else (num, bound * den)
            return True if v <= b else False if v > b else None
        return decide

    def existential(self, out, name: str, decide, tally, R=None):
        """A part "for all sufficiently large R: <property> on C_{μ,R}". With ``R`` given: the
        property at every probe point from R (``tally(R)``, a Tally that may fail). Otherwise the
        witness (``rules.witness`` over the radii, a rule item) and, from it, ``tally(witness)``.
        Returns the radius used (None: no witness, the rule item is undecided)."""
        if R is not None:
            out.add(tally(R))
            return R
        w, item = self.witness(decide, name)
        out.add(item)
        if w is not None:
            out.add(tally(w))
        return w

    def deepest_failure(self, decide, key):
        """The point of the deepest radius where ``decide`` is not True with the smallest ``key``
        (None if there is none)."""
        bad = [pt for pt in self.points[-1] if decide(pt) is not True]
        return min(bad, key=lambda pt: pt[key].mid()) if bad else None

    def l1_limit(self, g, loss) -> Evidence:
        """No L1 witness: the sign of −⟨∇L(rq̄), p^mm⟩ as r → ∞ along the most negative direction of
        the deepest radius (``asymptotic_evidence``: certainly negative → the failure is certified)."""
        pt = self.deepest_failure(self.positive("l1"), "l1")
        return asymptotic_evidence("L1 as ‖p‖ → ∞ along the failing direction: leading coefficient of "
                                   "−⟨∇L(rq̄), p^mm⟩", g, cone_point(self.pbar, self.dirs[pt["k"]], pt["m"], 1),
                                   self.pmm, loss, self.where(pt))

    def compactness(self, out, r_deep, c_lim, C_lim) -> None:
        """From R_deep the L2 ratios lie in [c_lim, C_lim] (``rules.near_limit``), or a note why not checked."""
        if r_deep is None or r_deep > self.radii[-1]:
            out.notes.append("L2 compactness not checked: the derived depth R_deep needs a positive margin gap g_μ")
            return
        deep = self.select(from_r=max(r_deep, self.radii[0]))
        lo, hi = [pt["l2lo"] for pt in deep], [pt["l2hi"] for pt in deep]
        out.add(ruled(f"L2 compactness: min ratio at ‖p‖ ≥ {float(r_deep):g} vs derived limit c_lim",
                      _argmin(lo), rules.near_limit(lo, lo=c_lim), ">=", c_lim),
                ruled(f"L2 compactness: max ratio at ‖p‖ ≥ {float(r_deep):g} vs derived limit C_lim",
                      _argmax(hi), rules.near_limit(hi, hi=C_lim), "<=", C_lim))

    def radius_decision(self, r, decide) -> bool | None:
        """True when ``decide`` holds at every point of radius r, False if one certainly fails, else None."""
        seen = [decide(pt) for pt in self.points[self.radii.index(r)]]
        return False if False in seen else None if None in seen else True

    def witness(self, decide, name: str):
        """(R, Evidence): the smallest ladder radius from which ``decide`` holds at every point of every
        deeper radius (``rules.witness``), as a rule-decided item (undecided when there is none)."""
        R, d = rules.witness(self.radii, lambda r: self.radius_decision(r, decide))
        return R, ruled(f"witness R for {name} (smallest ladder radius from which it holds)", R, d)

    # ----- figures ------------------------------------------------------------------------------
    def figures(self) -> list:
        xs = [float(r) for r in self.radii]
        sup_rho = []
        for pts in self.points:
            rho = [pt["num"] / pt["den"] for pt in pts if pt["den"] > 0]
            sup_rho.append(_argmax(rho) - 1 if rho else None)
        l2 = [("inf over q, p at radius r", "l2lo", _argmin, "-o"), ("sup over q, p at radius r", "l2hi", _argmax, "-s"),
              ("q = p^mm, min over p", "l1", _argmin, "-^")]
        return [
            Figure("l3-ratio", "Lemma 7 L3: sup over the cone of ⟨−∇L,p̄⟩/⟨−∇L,p̄^mm⟩ − 1", "‖p‖",
                   "log10(sup ρ − 1) (working precision)",
                   [Series("sup over grid at radius r", xs, log10_series(sup_rho), "-o")], logx=True,
                   hlines=[(math.log10(float(pi)), f"π = {float(pi):g}") for pi in self.pis],
                   caption="The correlation ratio tends to 1: R_π is where the curve drops below log10 π."),
            Figure("l2-ratio", "Lemma 7 L2: −⟨∇L(p),q⟩ / mean(1 − s_iα) over the cone", "‖p‖", "ratio",
                   [Series(lab, xs, [plot_value(f([pt[key] for pt in pts])) for pts in self.points], sty)
                    for lab, key, f, sty in l2], logx=True,
                   caption="The ratio stays in a compact subset of (0, ∞)."),
        ]


def scan_radii(sigma, ladder, radii=None, r_deep=None, R=None) -> list:
    """The radii scanned: ``radii`` or the ladder times σ, plus R_deep beyond it; with ``R`` given,
    R and the radii above it."""
    out = sorted(Fraction(x) for x in (radii if radii is not None else [sigma * x for x in ladder]))
    if r_deep is not None and r_deep > out[-1]:
        out.append(r_deep)
    return out if R is None else sorted({Fraction(R)} | {r for r in out if r >= Fraction(R)})


def deep_limits(data, g, mu, loss):
    """(R_deep, c_lim, C_lim) of the module docstring; R_deep None when the margin gap g_μ ≤ 0 (μ too
    wide for the derivation) or some neighbour weight is not certainly positive."""
    gap = order_gap(g, mu)
    m_mu = selection_rate(g, mu)
    rate = m_mu if gap is None else _argmin([gap, m_mu])
    nb = g.neighbour_pairs()
    if not nb:
        return None, None, None
    wts = {(i, t): abs(loss.d1(to_arb(g.scores[i][g.alpha[i]]))) * to_arb(g.score_gap(i, t)) for (i, t) in nb}
    heavy = _argmax([abs(loss.d1(to_arb(min(row)))) * to_arb(max(row) - min(row))
                     * to_arb(max((sum(x * x for x in g.rows[(i, t)]) for t in range(data.T) if t != g.alpha[i]),
                                  default=Fraction(0))).sqrt() for i, row in enumerate(data.scores)])
    light = _argmin(list(wts.values()))
    nrm, s2mu = to_arb(g.norm_sq).sqrt(), (2 * to_arb(mu)).sqrt()
    eps = {k: to_arb(sum(x * x for x in g.rows[k])).sqrt() * nrm * s2mu for k in nb}
    c_lim = _argmin([wts[k] * (1 - eps[k]) for k in nb])
    C_lim = _argmax([wts[k] * (1 + eps[k]) for k in nb])
    if not (rate > 0 and light > 0):
        return None, c_lim, C_lim
    extra = max(arb(0), (heavy / light).log() + arb(data.n * data.T).log()) if heavy > 0 else arb(0)
    r_deep = Fraction(int(float(((rules.LIMIT_DEPTH_EXPONENT + extra) / rate).mid())) + 1)
    return r_deep, c_lim, C_lim
