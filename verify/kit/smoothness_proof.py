"""Claim-kit piece: mmts Lemma 6's Hessian bound ‖∇²L(p)‖₂ ≤ L_p proven for every p ∈ ℝ^d, through the simplex.

Reduction (the chain rule, tested in tests/test_smoothness_proof.py). With s_i = S(K_i p) in the simplex Δ_T,
u_i = γ_iᵀs_i ∈ [−B, B] (a convex combination of the scores), w_i = s_i ⊙ (γ_i − u_i𝟙) and m_i = K_iᵀs_i:

    ∇u_i = a_i := K_iᵀw_i,    ∇²u_i = B_i := Σ_t w_it k_it k_itᵀ − a_i m_iᵀ − m_i a_iᵀ,
    ∇²L(p) = (1/n) Σ_i (ℓ''(u_i) a_i a_iᵀ + ℓ'(u_i) B_i),

so under Assumption A (|ℓ''| ≤ M₀, |ℓ'| ≤ M₁ on [−B, B]) ‖∇²L(p)‖₂ ≤ (1/n) Σ_i (M₀‖a_i‖² + M₁‖B_i‖_F). a_i and B_i
are polynomials in s_i alone, so if for every s of the simplex

    ‖a_i(s)‖² < α_i   and   ‖B_i(s)‖_F ≤ Σ_t s_t|γ_it − u_i|‖k_it − m_i‖² < β_i        (every input i)

with α_i, β_i rationals not above the two factors of (24)'s i-th term — α_i ≤ ‖v‖²‖W‖²‖X_i‖⁴, β_i ≤ 3‖v‖‖W‖²‖X_i‖³
(with ‖K_i‖ for ‖W‖‖X_i‖ when the keys are not XW, as ``geometry.smoothness.smoothness_constant``) — then
‖∇²L(p)‖₂ ≤ (1/n) Σ_i (M₀α_i + M₁β_i) ≤ L_p at every p, for every loss meeting Assumption A. Each inequality is a
region certificate on the simplex (free coordinates s₂ … s_T ∈ [0, 1], cut by 1 − Σ ≥ 0; s₁ = 1 − Σ_{t≥2} s_t),
sufficient for the statement, not equivalent (a point where one fails is no counterexample).
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Evidence, Outcome, Proof
from verify.geometry.smoothness import smoothness_constant
from verify.kit.region_inequality import prove_on_region
from verify.models.attention import features
from verify.numbers.regions import Margin, decimal_text, rational_below

PARTS = ("gradient", "hessian")
DOMAIN = "every p ∈ ℝ^d (through s_i = S(K_i p) in the simplex)"
DEFAULT_BOXES = 400


def simplex_point(x, T: int, ops):
    """s = (max(0, 1 − Σx), x) for the free coordinates x = (s₂, …, s_T): on the simplex (the region's domain) the max
    is 1 − Σx and Σ_t s_t = 1 exactly; on a box straddling the face Σx = 1 it keeps s₁'s enclosure ≥ 0."""
    free = list(x[:T - 1])
    return [ops.max(ops.const(0), ops.const(1) - sum(free[1:], free[0]))] + free if free else [ops.const(1)]


def gradient_of_score(keys, scores, s, ops):
    """a = ∇u = K_iᵀ(s ⊙ (γ − u𝟙)) = Σ_{t<τ} s_t s_τ (γ_t − γ_τ)(k_t − k_τ) (Σ s = 1; pairs with equal scores drop out:
    the form interval arithmetic encloses tightly)."""
    d = len(keys[0])
    a = [ops.const(0)] * d
    for t in range(len(keys)):
        for tau in range(t + 1, len(keys)):
            if scores[t] != scores[tau]:
                st = s[t] * s[tau] * ops.const(scores[t] - scores[tau])
                a = [a[j] + st * ops.const(keys[t][j] - keys[tau][j]) for j in range(d)]
    return a


def hessian_of_score_bound(keys, scores, s, ops):
    """Σ_t s_t |γ_t − u| ‖k_t − m‖² ≥ ‖B‖_F, B = ∇²u = Σ_t s_t (γ_t − u)(k_t − m)(k_t − m)ᵀ (Σ s = 1; the triangle
    inequality, ‖c cᵀ‖_F = ‖c‖²), with γ_t − u = Σ_τ s_τ(γ_t − γ_τ) and k_t − m = Σ_τ s_τ(k_t − k_τ)."""
    T, d, zero = len(keys), len(keys[0]), ops.const(0)
    total = zero
    for t in range(T):
        gap = sum((s[tau] * ops.const(scores[t] - scores[tau]) for tau in range(T) if scores[tau] != scores[t]), zero)
        c = [sum((s[tau] * ops.const(keys[t][j] - keys[tau][j]) for tau in range(T) if tau != t), zero)
             for j in range(d)]
        total = total + s[t] * ops.abs(gap) * sum((v * v for v in c), zero)
    return total


def simplex_margin(keys, scores, part: str, bound: Fraction, statement: str = "") -> Margin:
    """bound − ‖a(s)‖² > 0 ("gradient") or bound − Σ_t s_t|γ_t − u|‖k_t − m‖² > 0 ("hessian", sufficient for
    ‖B(s)‖_F < bound) for every s in the simplex."""
    if part not in PARTS:
        raise ValueError(f"part must be one of {PARTS}")
    keys = [[Fraction(x) for x in k] for k in keys]
    scores = [Fraction(x) for x in scores]
    T = len(keys)

    def g(x, ops):
        s = simplex_point(x, T, ops)
        if part == "gradient":
            return ops.const(bound) - sum((v * v for v in gradient_of_score(keys, scores, s, ops)), ops.const(0))
        return ops.const(bound) - hessian_of_score_bound(keys, scores, s, ops)

    dim = max(T - 1, 1)
    cut = (lambda x, ops: ops.const(1) - sum(x[1:], x[0])) if T > 2 else None
    return Margin(g, (0,) * dim, (1,) * dim, tuple(f"s{t + 1}" for t in range(1, dim + 1)), ">",
                  constraints=(cut,) if cut else (), statement=statement, equivalent=False)


def factor_bounds(data, x_power: int = 4, w_power: int = 2):
    """[(α_i, β_i)]: rationals not above the two factors of (24)'s i-th term (module docstring)."""
    c = smoothness_constant(data, "logistic", x_power=x_power, w_power=w_power)
    out = []
    for i, nx in enumerate(c.norms_X):
        key = c.norm_W ** w_power * nx ** x_power if c.form == "W" else c.norms_K[i] ** w_power * nx ** (x_power - w_power)
        out.append((rational_below(c.norm_v ** 2 * key), rational_below(3 * c.norm_v * key / nx) if nx > 0 else Fraction(0)))
    return out


def input_margin(data, params: dict) -> Margin:
    """One input's inequality as a region margin (also rebuilt by ``verify recheck``): params "input", "part" and the
    constant's exponents "x_power", "w_power"."""
    i, part = int(params["input"]), params["part"]
    alpha, beta = factor_bounds(data, int(params.get("x_power", 4)), int(params.get("w_power", 2)))[i]
    bound = alpha if part == "gradient" else beta
    what = "‖a_i(s)‖²" if part == "gradient" else "Σ_t s_t|γ_t − u|‖k_t − m‖² (≥ ‖B_i(s)‖_F)"
    return simplex_margin(features(data, "p")[i], data.scores[i], part, bound,
                          f"{what} < {decimal_text(bound)} for every s in the simplex (input {i + 1})")


def exact_bounds(keys, scores):
    """Exact rationals (A, H) with ‖a(s)‖² ≤ A and Σ_t s_t|γ_t − u|‖k_t − m‖² ≤ H for every s in the simplex:
    ‖a‖ ≤ max_{t<τ}|γ_t − γ_τ|‖k_t − k_τ‖ · Σ_{t<τ} s_t s_τ and Σ_{t<τ} s_t s_τ = (1 − Σ s_t²)/2 ≤ (T − 1)/(2T)
    (Cauchy–Schwarz: Σ s_t² ≥ 1/T), so A = max (γ_t − γ_τ)²‖k_t − k_τ‖² · ((T − 1)/(2T))²; |γ_t − u| ≤ Δγ and
    ‖k_t − m‖ ≤ max_τ‖k_t − k_τ‖ (u, m convex combinations), so H = Δγ · max ‖k_t − k_τ‖²."""
    keys = [[Fraction(x) for x in k] for k in keys]
    scores = [Fraction(x) for x in scores]
    T = len(keys)
    sq = {(t, u): sum(((a - b) ** 2 for a, b in zip(keys[t], keys[u])), Fraction(0)) for t in range(T) for u in range(T)}
    pair = max(((scores[t] - scores[u]) ** 2 * sq[t, u] for t in range(T) for u in range(t + 1, T)), default=Fraction(0))
    return pair * Fraction(T - 1, 2 * T) ** 2, (max(scores) - min(scores)) * max(sq.values())


def hessian_bound_everywhere(out: Outcome, data, *, claim: str, name: str, dps: int, x_power: int = 4,
                             w_power: int = 2, max_boxes: int = DEFAULT_BOXES) -> Evidence:
    """Every input's two inequalities on the simplex, each by its exact bound (``exact_bounds``) or, where that is
    too crude, by a region certificate; one deciding item, proven on ``DOMAIN`` when all are (the certificates
    added), else informative naming the first left undecided (the probe points then decide)."""
    trial, margins, exact, boxes, seconds = Outcome(), [], 0, 0, 0.0
    feats = features(data, "p")
    for i, (alpha, beta) in enumerate(factor_bounds(data, x_power, w_power)):
        A, H = exact_bounds(feats[i], data.scores[i])
        for part, bound, crude in (("gradient", alpha, A), ("hessian", beta, H)):
            if crude < bound:
                margins.append((bound - crude, f"input {i + 1}, {part} (exact)"))
                exact += 1
                continue
            params = {"input": i, "part": part, "x_power": x_power, "w_power": w_power}
            item = prove_on_region(trial, f"input {i + 1}, {part}", input_margin(data, params), claim=claim,
                                   name=name, data=data, params=params, dps=dps, region="the simplex",
                                   max_boxes=max_boxes)
            if item.decide() is not True:
                note = f"not proven on the simplex: input {i + 1}, {part} ({item.note}); the probe points decide"
                return _added(out, Evidence(f"{name}: ‖∇²L(p)‖₂ ≤ L_p for every p — no proof", None, note=note))
            margins.append((item.value, f"input {i + 1}, {part} (region certificate)"))
            boxes, seconds = boxes + item.proof.boxes, seconds + item.proof.seconds
    out.certificates.extend(trial.certificates)
    value, where = min(margins)  # exact margins and region certificates' smallest lower ends: Fractions alike
    how = f"{exact} by exact bounds, {len(margins) - exact} by region certificates ({boxes} boxes)"
    quantity = (f"‖∇²L(p)‖₂ ≤ (1/n)Σ_i (M₀‖a_i‖² + M₁‖B_i‖_F) < L_p for every p: ‖a_i‖² < α_i and ‖B_i‖_F < β_i on "
                f"the simplex, each of the {data.n} input(s) (proven; the smallest margin)")
    proof = Proof("proven", DOMAIN, boxes, len(trial.certificates), seconds) if boxes else None
    return _added(out, Evidence(quantity, value, ">", 0, proof=proof, proves="" if proof else DOMAIN,
                                note=f"{len(margins)} inequalities: {how}; smallest margin at {where}"))


def _added(out: Outcome, item: Evidence) -> Evidence:
    out.add(item)
    return item
