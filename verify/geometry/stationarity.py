"""The max-margin solution as a global descent direction, and certified "no stationary point" evidence.

Shared by mmts Lemma 4 / Theorem 2 and tfsvm Lemma 9 / Theorem 3 (the same argument in the
parameterisations ``p`` and ``W``). With features F_it (keys k_it for ``p``, vec(x_it z_iᵀ) for ``W``),
θ ∈ ℝ^D, s_i = S(F_i θ), φ_i = γ_iᵀ s_i and the exact max-margin solution q = p^mm (or vec W^mm) of
the SVM on the optimal tokens, with exact margins m_it := (F_{i,opt} − F_it)ᵀ q ≥ 1:

* covariance identity (mmts §1.3, DERIVED, valid for every dataset):

      ⟨∇L(θ), q⟩ = (1/n) Σ_i ℓ'(φ_i) Σ_{t≠opt} s_it m_it (φ_i − γ_it),
      φ_i − γ_it = Σ_u s_iu (γ_iu − γ_it)                       (exact score differences: no cancellation);

* Assumption B (B.2 in tfsvm: every non-optimal score equals γ̲_i < γ_{i,opt}, gap Δ_i) gives
  φ_i − γ_it = s_{i,opt} Δ_i, hence the derived bound of mmts Lemma 4 / tfsvm Lemma 9

      −⟨∇L(θ), q⟩ = (1/n) Σ_i |ℓ'(φ_i)| Δ_i s_{i,opt} Σ_{t≠opt} s_it m_it
                  ≥ (1/n) Σ_i |ℓ'(φ_i)| Δ_i s_{i,opt} (1 − s_{i,opt})       (m_it ≥ 1),

  with equality iff every non-optimal token is a support token (always for T = 2);
* tfsvm B.1 (every non-optimal token a support token, m_it = 1): −⟨∇L, q⟩ = (1/n) Σ|ℓ'| s_opt δ_i,
  δ_i = Σ_{t≠opt} s_it (γ_opt − γ_it) ≥ (1 − s_opt) min_t (γ_opt − γ_it).

``descent_terms`` evaluates ⟨∇L(θ), q⟩ by the covariance identity in its pairwise form with exact
rational products (nothing specific to Assumption B; certified and cancellation-free under B) and,
as an independent cross-check, with the engine's closed-form gradient, plus the bound, all in arb
balls; ``slack`` is the exact-structure difference −⟨∇L, q⟩ − c·bound =
(1/n) Σ |ℓ'| Δ s_opt Σ_t s_t (m_t − c) (an algebraic identity under B), whose sign is certain
termwise when c ≤ min m_t — ``bound_excess`` uses it to settle the tie "ratio = 1" (attained for
T = 2) that a ball comparison of two equal numbers never can; ``relative_deviation`` is the
cross-check's residual. ``ball_lower_bound`` turns the bound into a certified positive lower bound of
‖∇L(θ)‖ on the whole ball ‖θ‖ ≤ R, which is what "no finite stationary point" means quantitatively.
Also here: the probe points (``probe_directions``, ``probe_points``), the exact ∇L(0), and tfsvm's
smoothness constant L_W (``smoothness_W``, v1 Lemma 4).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from flint import arb

from verify.data.dataset import Dataset
from verify.geometry.probes import scaled
from verify.models.attention import LinearLogitModel, dot, features
from verify.models.losses import get_loss
from verify.numbers.linalg import spectral_norm
from verify.numbers.precision import g_format, to_arb

SVM_KIND = {"p": "p", "W": "W"}
#: ‖θ‖_∞ of the probe points (0 and 0.1 … 1000: from uniform attention to 1 − s ≈ e^{−1000}).
PROBE_SCALES = ("0", "1/10", "1/3", "1", "2", "3", "5", "10", "20", "30", "100", "300", "1000")


# ----- hypotheses --------------------------------------------------------------------------------
@dataclass
class AssumptionB:
    met: bool
    detail: str
    gaps: tuple = ()  # Δ_i = γ_{i,opt} − γ̲_i (exact) when met
    opt: tuple = ()


def assumption_b(data: Dataset) -> AssumptionB:
    """mmts Assumption B (= tfsvm B.2), decided exactly on the rational scores: a unique optimal
    token and one common non-optimal score γ̲_i < γ_{i,opt} in every sequence."""
    opts = data.optimal_tokens()
    gaps, bad = [], []
    for i, (g, o) in enumerate(zip(data.scores, opts)):
        if len(o) != 1:
            bad.append(f"sequence {i}: optimal token tied between {list(o)}")
            continue
        rest = {g[t] for t in range(len(g)) if t != o[0]}
        if len(rest) != 1:
            vals = sorted(rest)
            spread = vals[-1] - vals[0]
            bad.append(f"sequence {i}: non-optimal scores differ (spread {g_format(spread, 3)}: {', '.join(str(x) for x in vals[:4])}{'…' if len(vals) > 4 else ''})")
            continue
        gaps.append(g[o[0]] - rest.pop())
    if bad:
        return AssumptionB(False, "; ".join(bad[:3]) + ("; …" if len(bad) > 3 else "") +
                           " (B is an exact equality: rounded data fails it)")
    opt = tuple(o[0] for o in opts)
    return AssumptionB(True, "exact: common non-optimal score in every sequence, gaps Δ_i = " +
                       ", ".join(str(x) for x in gaps), tuple(gaps), opt)


def assumption_b1(svm_result) -> tuple[bool, str]:
    """tfsvm B.1: every non-optimal token is a support token of the GMM (margins exactly 1; the
    SVM solution is exact rational, so "= 1" is decided exactly)."""
    prob = svm_result.problem
    x = svm_result.solution
    off = [prob.index[j] for j in range(prob.m)
           if sum((a * b for a, b in zip(prob.rows[j], x)), Fraction(0)) != prob.rhs[j]]
    if off:
        return False, f"non-support tokens (margin > 1): {off[:6]}{'…' if len(off) > 6 else ''}"
    return True, "every non-optimal token has margin exactly 1"


def gmm(data: Dataset, param: str = "p", dps: int = 60):
    """The exact SVM of the optimal tokens (``verify.svm``): ATT-SVM for ``p``, Att-SVM for ``W``."""
    from verify.svm import solve_svm

    return solve_svm(data, SVM_KIND[param], "opt", dps, check_unique=False)


def exact_margins(feats, opt, q) -> list[list[Fraction | None]]:
    """m_it = (F_{i,opt} − F_it)ᵀ q exactly (None at t = opt)."""
    out = []
    for Fi, o in zip(feats, opt):
        row = []
        for t, f in enumerate(Fi):
            row.append(None if t == o else sum(((a - b) * c for a, b, c in zip(Fi[o], f, q)), Fraction(0)))
        out.append(row)
    return out


# ----- softmax states with exact score differences ----------------------------------------------
# ----- the quantities at one point ---------------------------------------------------------------
@dataclass
class DescentTerms:
    inner: arb          # ⟨∇L(θ), q⟩ by the pairwise covariance form (certified, cancellation-free)
    engine: arb         # ⟨∇L(θ), q⟩ from the engine's closed-form gradient (independent cross-check)
    bound: arb | None   # (c/n) Σ |ℓ'(φ_i)| Δ_i s_opt (1 − s_opt)   (Assumption B only)
    slack: arb | None   # −inner − bound, formed termwise: (1/n)Σ|ℓ'|Δ s_opt Σ_t s_t (m_t − c)
    sopt_off: arb       # min_i s_opt (1 − s_opt) (how saturated)
    grad_norm: arb      # ‖∇L(θ)‖ (engine)


class PairTable:
    """Exact products P_i,tu = (γ_it − γ_iu)((F_it − F_iu)ᵀ q) for t < u, zeros dropped (per model, q)."""

    def __init__(self, model: LinearLogitModel, q):
        ex, F = model._exact_scores, model._exact_feats
        self.rows = []
        for g, Fi in zip(ex, F):
            b = [sum((Fraction(a) * Fraction(c) for a, c in zip(f, q)), Fraction(0)) for f in Fi]
            pairs = []
            for t in range(len(g)):
                for u in range(t + 1, len(g)):
                    prod = (g[t] - g[u]) * (b[t] - b[u])
                    if prod != 0:
                        pairs.append((t, u, to_arb(prod)))
            self.rows.append(pairs)


def descent_terms(model: LinearLogitModel, q, margins, theta, gaps=None, factor=1, pairs: PairTable | None = None
                  ) -> DescentTerms:
    """⟨∇L(θ), q⟩ at θ (arb balls), two independent ways:

    * ``inner`` — the covariance identity ⟨∇L, q⟩ = (1/n)Σ_i ℓ'(φ_i) Cov_{s_i}(γ_i, F_i q) with the
      pairwise form Cov_s(γ, b) = Σ_{t<u} s_t s_u (γ_t − γ_u)(b_t − b_u) and the products taken exactly
      from the rational data: pairs with an exactly zero product drop out, so under Assumption B (B.2:
      equal non-optimal scores) or tfsvm B.1 (equal non-optimal logits along q) every remaining term has
      the same sign and no cancellation occurs — the sign is certified at any saturation;
    * ``engine`` — the engine's closed-form gradient (``LinearLogitModel.grad`` on ``model.states``)
      dotted with q; it cancels terms of size s_r·s_t that are exponentially larger than the result
      when a non-optimal token dominates and its ball may then straddle 0: a cross-check, not the value.

    ``gaps`` (Assumption B) enables the bound and its exact-structure slack; ``factor`` multiplies the
    bound (tests feed a wrong constant through it)."""
    theta = [x if isinstance(x, arb) else to_arb(Fraction(x)) for x in theta]
    states = model.states(theta)
    g = model.grad(theta, states)
    qa = [to_arb(Fraction(x)) for x in q]
    engine = dot(g, qa)
    pairs = pairs or PairTable(model, q)
    n, T = model.n, model.T
    inner, bound, slack = arb(0), arb(0), arb(0)
    min_so = None
    fac = Fraction(factor)
    for i, st in enumerate(states):
        o = model.opt[i]
        lp = model.loss.d1(st.phi)
        s = st.s
        cov = sum((s[t] * s[u] * P for t, u, P in pairs.rows[i]), arb(0))
        inner += lp * cov
        off = sum((s[t] for t in range(T) if t != o), arb(0))
        so = s[o] * off
        if min_so is None or so.mid() < min_so.mid():
            min_so = so
        if gaps is not None:
            D = to_arb(gaps[i])
            bound += (-lp) * D * so
            slack += (-lp) * D * s[o] * sum((s[t] * to_arb(margins[i][t] - fac) for t in range(T) if t != o), arb(0))
    inner /= n
    gn = dot(g, g).sqrt()
    if gaps is None:
        return DescentTerms(inner, engine, None, None, min_so, gn)
    return DescentTerms(inner, engine, to_arb(fac) * bound / n, slack / n, min_so, gn)


def bound_excess(dt: DescentTerms) -> arb:
    """−⟨∇L(θ), q⟩/bound − 1 (Assumption B; ≥ 0 is the derived bound). Where the direct ball
    straddles 0 — the tie, attained when every non-optimal token is a support token — the same
    number by its exact structure, slack/bound (the slack is formed termwise with the exact m_t − c,
    so it is exactly 0 at the tie), used only when the two balls overlap (the identity holds)."""
    direct = -dt.inner / dt.bound - 1
    if direct >= 0 or direct < 0:
        return direct
    structured = dt.slack / dt.bound
    return structured if structured.overlaps(direct) else direct


def relative_deviation(dt: DescentTerms) -> arb:
    """|engine − pairwise| / |pairwise| as a ball (a residual: ≤ the tolerance where both formulas are
    sharp; undecided where the engine's closed form has cancelled exponentially larger terms)."""
    return abs(dt.engine - dt.inner) / abs(dt.inner)


# ----- adversarial probe points -----------------------------------------------------------------
def probe_directions(feats, opt, q, extra=(), count: int = 6, seed: int = 0) -> list[tuple[str, tuple]]:
    """Labelled exact directions: ±q (aligned / anti-aligned), ±(F_t − F_opt) (selects a non-optimal
    token / splits mass), ±F_t, seeded random ones, and ``extra`` (e.g. other SVM directions)."""
    D = len(q)
    out: list[tuple[str, tuple]] = []

    def add(label, d):
        d = tuple(Fraction(x) for x in d)
        if any(d) and all(d != e for _, e in out):
            out.append((label, d))

    add("+q (max-margin direction)", q)
    add("−q (anti-aligned)", tuple(-x for x in q))
    for label, d in extra:
        add(label, d)
    for i, (Fi, o) in enumerate(zip(feats, opt)):
        for t, f in enumerate(Fi):
            if t == o:
                continue
            diff = tuple(a - b for a, b in zip(f, Fi[o]))
            add(f"selects token {t} of sequence {i} (F_t − F_opt)", diff)
            add(f"−(F_t − F_opt), sequence {i}, token {t}", tuple(-x for x in diff))
        for t, f in enumerate(Fi):
            add(f"+F_{i},{t}", f)
            add(f"−F_{i},{t}", tuple(-x for x in f))
    rng = random.Random(seed)
    for k in range(count):
        add(f"random {k}", tuple(Fraction(rng.randint(-100, 100), 37) for _ in range(D)))
    # a mixture between the max-margin direction and a non-optimal selection (ridge region)
    if len(out) > 2:
        for label, d in list(out[2:5]):
            add("q + ½·(" + label + ")", tuple(a + Fraction(1, 2) * b for a, b in zip(q, d)))
    return out


def probe_points(directions, scales, symbol: str = "θ") -> list[tuple[str, tuple, str, str]]:
    """(where, exact point, direction label, scale) for every direction × ‖θ‖∞ scale (exact rationals,
    ``verify.geometry.probes.scaled``); θ = 0 once."""
    out, zero = [], False
    for label, d in directions:
        for sc in scales:
            if Fraction(sc) == 0:
                if zero:
                    continue
                zero = True
            out.append((f"{label}, ‖{symbol}‖∞ = {sc}", scaled(d, sc), label, sc))
    return out


def other_selection_directions(data: Dataset, param: str, dps: int = 60, limit: int = 27):
    """Max-margin directions of feasible selections α ≠ opt (the LMM-type rays where Lemma 4 fails
    without Assumption B), when T^n ≤ ``limit``."""
    import itertools

    from verify.svm import build_problem
    from verify.svm.exact import solve_qp_exact

    n, T = data.n, data.T
    if T ** n > limit:
        return []
    opt = tuple(o[0] for o in data.optimal_tokens())
    out = []
    for alpha in itertools.product(range(T), repeat=n):
        if alpha == opt:
            continue
        prob = build_problem(data, SVM_KIND[param], alpha)
        res = solve_qp_exact(prob.rows, prob.rhs)  # exact rational active set; only a probe direction
        if res[0] == "optimal":
            out.append((f"max-margin direction of α = {alpha}", tuple(res[1])))
    return out


# ----- ‖∇L‖ bounded away from 0 on balls --------------------------------------------------------
def ball_lower_bound(model: LinearLogitModel, q, R, gaps) -> arb:
    """A certified c(R) with ‖∇L(θ)‖ ≥ c(R) > 0 for every ‖θ‖₂ ≤ R, from the derived bound:
    ‖∇L‖ ≥ −⟨∇L, q⟩/‖q‖ ≥ (1/(n‖q‖)) Σ_i min|ℓ'| Δ_i s̲_opt (1−s)̲_opt, where over the ball
    |a_t − a_opt| ≤ R‖F_t − F_opt‖, so with x = Σ_{t≠opt} e^{a_t − a_opt}:
    s_opt = 1/(1+x) ≥ 1/(1 + Σ e^{R D_t}), 1 − s_opt = x/(1+x) ≥ x̲/(1+x̲), x̲ = Σ e^{−R D_t};
    min|ℓ'| over φ ∈ [min γ_i, max γ_i] by evaluating ℓ' on balls covering that interval."""
    R = to_arb(Fraction(R))
    total = arb(0)
    for i, Fi in enumerate(model._exact_feats):
        o = model.opt[i]
        Ds = [arb(to_arb(sum(((a - b) ** 2 for a, b in zip(f, Fi[o])), Fraction(0))).sqrt().upper())
              for t, f in enumerate(Fi) if t != o]
        x_hi = sum(((R * D).exp() for D in Ds), arb(0))
        x_lo = sum(((-R * D).exp() for D in Ds), arb(0))
        s_lo = arb((1 / (1 + x_hi)).lower())
        off_lo = arb((x_lo / (1 + x_lo)).lower())
        g = model._exact_scores[i]
        enc = d1_enclosure(model.loss, to_arb(min(g)), to_arb(max(g)))
        lp_lo = enc[1] if enc is not None else arb(0)
        total += lp_lo * to_arb(gaps[i]) * s_lo * off_lo
    qn = arb(to_arb(sum((x * x for x in q), Fraction(0))).sqrt().upper())
    return arb((total / (model.n * qn)).lower())


# ----- the exact gradient at θ = 0 (uniform attention) ------------------------------------------
def exact_gradient_at_zero(data: Dataset, param: str = "p"):
    """At θ = 0 every s_it = 1/T exactly, so ∇L(0) = (1/n) Σ_i ℓ'(γ̄_i) (1/T) Σ_t (γ_it − γ̄_i) F_it.
    Sequences with the same mean score γ̄ share the factor ℓ'(γ̄) exactly, so their exact vectors are
    summed first. Returns (is_exactly_zero, {γ̄: exact vector}); when every group's vector vanishes,
    ∇L(0) = 0 exactly — a finite stationary point (sufficient test: cancellation between groups with
    different ℓ'(γ̄) factors is not claimed)."""
    feats = features(data, param)
    groups: dict = {}
    for Fi, g in zip(feats, data.scores):
        T = len(g)
        mean = sum(g, Fraction(0)) / T
        vec = [sum(((g[t] - mean) * Fi[t][j] for t in range(T)), Fraction(0)) / T for j in range(len(Fi[0]))]
        acc = groups.setdefault(mean, [Fraction(0)] * len(vec))
        groups[mean] = [a + b for a, b in zip(acc, vec)]
    return all(not any(v) for v in groups.values()), groups


def d1_enclosure(loss, lo: arb, hi: arb, max_depth: int = 40):
    """(sup ℓ', inf |ℓ'|) over [lo, hi] as rigorous bounds (arb, exact endpoints), or None when
    ℓ' < 0 cannot be certified: ℓ' is evaluated on balls covering the interval, bisected adaptively
    (one wide ball overestimates, e.g. e^{[−1000, 1000]})."""
    ell = get_loss(loss)
    sup_d, inf_abs = None, None
    stack = [(lo, hi, 0)]
    while stack:
        a, b, depth = stack.pop()
        ball = (a + b) / 2 + arb(0, ((b - a) / 2).upper()) if b != a else a
        d = ell.d1(ball)
        if d.is_finite() and d < 0:
            up, low_abs = arb(d.upper()), arb((-d).lower())
            sup_d = up if sup_d is None or up > sup_d else sup_d
            inf_abs = low_abs if inf_abs is None or low_abs < inf_abs else inf_abs
            continue
        if (d.is_finite() and d >= 0) or depth >= max_depth:
            return None
        m = (a + b) / 2
        stack.append((a, m, depth + 1))
        stack.append((m, b, depth + 1))
    return sup_d, inf_abs


def feasible_assumption_b_dataset(n=2, T=4, d=4, seed=0, param: str = "p", tries: int = 50) -> Dataset:
    """``datasets.assumption_b_dataset`` at the first seed ≥ ``seed`` whose SVM(opt) is feasible
    (random keys make the optimal token an interior point of the others' hull now and then)."""
    from verify.data.generators import assumption_b_dataset

    for k in range(tries):
        data = assumption_b_dataset(n=n, T=T, d=d, seed=seed + k)
        if param == "W":
            data = data.replace(K=None, z=[[1] + [0] * (d - 1)] * n, name=data.name + "-W")
        if gmm(data, param, 30).status == "optimal":
            return data
    raise RuntimeError(f"no feasible Assumption-B dataset among seeds {seed}..{seed + tries - 1}")



# ----- tfsvm's smoothness constant of L(W) -------------------------------------------------------
def smoothness_W(data: Dataset, loss: str = "logistic") -> arb:
    """L_W of tfsvm v1 Lemma 4 (a ball): (1/n)Σ_i ‖v‖‖z_i‖²‖X_i‖³ (M₀‖v‖‖X_i‖ + 3M₁), spectral ‖X_i‖,
    M₀, M₁ the loss's constants on [−B, B] (B = max|γ_it|)."""
    ell = get_loss(loss)
    B = max(abs(g) for row in data.scores for g in row)
    M0, M1 = ell.constants(to_arb(B))
    nv = to_arb(sum((x * x for x in data.v), Fraction(0))).sqrt()
    total = arb(0)
    for Xi, z in zip(data.X, data.queries()):
        nx = spectral_norm(Xi)
        nz2 = to_arb(sum((x * x for x in z), Fraction(0)))
        total += nv * nz2 * nx ** 3 * (M0 * nv * nx + 3 * M1)
    return total / data.n
