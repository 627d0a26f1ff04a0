"""tfsvm Lemma 13 — the local cone around a locally-optimal direction: no stationary points, two-sided gradient
bounds (v1 App. C, with the constants of Theorem 7 and eq. (74)).

Statement (v1). Assumption A; α locally optimal (Def. 2: γ_{iα_i} > γ_it for every support index t ∈ 𝒯_i of
W^mm_α); Θ = 1/‖W^mm_α‖_F, μ = μ(α) = (1/8)(min(½, δ)/A)² with δ = ½ min_i min_{t∈𝒯_i, τ∈𝒯̄_i}(x_it − x_iτ)ᵀW^mm_α z_i
(δ = ∞ without such a pair), A = max_{i,t}‖x_it z_iᵀ‖/Θ, and R = max(2, 1/δ)/Θ·log(64TΓA/γ^gap_min) (74),
Γ = max|γ_it − γ_iτ|, γ^gap_i = γ_{iα_i} − max_{t∈𝒯_i}γ_it, γ̄^gap_i = γ_{iα_i} − min_{t∈𝒯_i}γ_it. Then
  (L1) there is no stationary point in C_{μ,R}(W^mm_α) = {corr(W, W^mm_α) ≥ 1 − μ, ‖W‖_F ≥ R};
  (L2) for all V, W ∈ cone_μ(W^mm_α) with ‖V‖_F = ‖W^mm_α‖_F and ‖W‖_F ≥ R, with q_i = 1 − s_{iα_i}:
       (1/8n) Σ_i |ℓ'_i| q_i γ^gap_i ≤ −⟨∇L(W), V⟩ ≤ (2/n) Σ_i |ℓ'_i| q_i γ̄^gap_i.

Sign convention (spec §4: v1 prints these bounds with the inequality signs reversed, as in Lemma 12). DERIVED here,
which form is right: −⟨∇L(W), V⟩ = (1/n)Σ_i |ℓ'(φ_i)| Cov_{s_i}(γ_i, b_i), b_it = x_itᵀVz_i, and with g_t = γ_α − γ_t,
h_t = b_α − b_t (the margins of V): Cov = Σ_{t≠α} s_t g_t h_t − (Σ s_t g_t)(Σ s_t h_t). Deep in the cone the support
tokens dominate (g_t > 0 by local optimality, h_t ∈ [½, 3/2] for V in cone_μ), so −⟨∇L(W), V⟩ ≈ (1/n)Σ|ℓ'_i| Σ_{t∈𝒯_i}
s_t g_t h_t > 0: a positive quantity between positive bounds. On D-LMM (α = B, W = r·W^mm_B, V = W^mm_B) it is
≈ |ℓ'| s_C·½·1, eight times the lower bound and half the upper one. The printed form — read literally with
ℓ'_i < 0 — puts −⟨∇L(W), V⟩ ABOVE (2/n)Σ|ℓ'|qγ̄ and BELOW (1/8n)Σ|ℓ'|qγ, an empty range: encoded here is the
meaningful form above (as Lemma 12); ``signs="printed"`` checks the literal reading (VIOLATED, certified).

Sequences without a support index (𝒯_i = ∅, e.g. D-T2 α = (1, 1), sequence 2): γ^gap_i is a max over an empty set
and the per-sequence argument is void — as the spec says, the sums of the bounds run over the sequences with
𝒯_i ≠ ∅ only (−⟨∇L(W), V⟩ itself is the full gradient; the other sequences' terms are O(e^{−‖W‖(1+2δ')Θ}) and may be
negative). γ^gap_min is the minimum over the same sequences.

FLAWED (found here; not in the spec): those terms are negative when the sequence selects a token scored below
another, and they carry |ℓ'(φ_i)| ≈ 1 against a support sequence's ≈ e^{−γ} — a ratio exponential in the scores that
R of (74) (Γ, A inside a log) does not cover, so at ‖W‖ = R they can dominate: (L1) and (L2)'s lower bound fail,
certified. ``verify.data.tfsvm.local_empty_support`` (n = 2, T = 2, d = 1; a default dataset): R ≈ 0.1028 and
−⟨∇L(W), W^mm_α⟩ = −2.65·10⁻⁵ at ‖W‖ = R (closed form in the data's docstring; a local maximum of L at ‖W‖ ≈ 0.49);
``local_empty_support_2d`` (d = 2) the same. Theorem 7 (which takes μ(α), R from here) inherits it.

How it is checked (certified, arb balls at exact rational W). Every locally-optimal α (enumerated over [T]^n,
``verify.geometry.local_cone.local_cones``; the GMM included) or the given ``alphas``; μ(α) exact, R an arb ball.
W: W^mm_α and points of cone_μ(W^mm_α) within 10⁻⁹ of its boundary (certified inside exactly) toward every other
locally-optimal direction, toward/away from every non-selected token, and seeded random directions (which also leave
the feature span), at ‖W‖_F ≥ f·R, f ∈ ``factors`` = {1, 3/2} (the spec's [R, 1.5R]); V: the same directions
rescaled to ‖V‖ = ‖W^mm_α‖ (V = W^mm_α included). −⟨∇L(W), V⟩ by the pairwise covariance form with exact products,
q_i as the sum of the other softmax entries (stable). Tallies over every (W, V): (L1) −⟨∇L(W), W^mm_α⟩ > 0 (so
∇L(W) ≠ 0), (L2) −⟨∇L(W), V⟩/lower ≥ 1 and −⟨∇L(W), V⟩/upper ≤ 1.

False cases (tests): the literal printed signs (``signs="printed"``) and a tightened upper constant 2/n → 1/(2n)
(``upper_factor``; on D-LMM the value is ≈ upper/2, so 1/(2n) fails while the printed 2/n holds with a factor 2 to
spare) → VIOLATED, certified; the printed form on local_empty_support and local_empty_support_2d → VIOLATED,
certified ((L1) and the lower bound of (L2)); α = C on D-LMM (W^mm_C has the higher-scored A and B as support
indices; spec: there −⟨∇L(W), W^mm_C⟩ < 0 along its ray) → NOT_APPLICABLE naming local optimality.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Hypothesis, Outcome, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry.local_cone import cone_directions, lmm_selections, other_directions
from verify.geometry.tfsvm_cones import CorrelationTables, at_norm, correlations, sqrt_ball
from verify.kit.assumptions import assumption_a
from verify.kit.probe_inequality import ProbeInequality
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import Precision, to_arb, to_decimal_string

FACTORS = (Fraction(1), Fraction(3, 2))
LOWER = Fraction(1, 8)   # (1/8n)
UPPER = Fraction(2)      # (2/n)
LMM = "α locally optimal (Def. 2) with Att-SVM(α) feasible (W^mm_α exists)"


def bounds(cone, cr, q, lower_factor, upper_factor):
    """(lower, upper) of (L2): (c/n)Σ_{𝒯_i≠∅}|ℓ'_i|q_iγ^gap_i with c = ``lower_factor``, resp. ``upper_factor``, γ̄^gap."""
    lo = sum((a * b * to_arb(g) for a, b, g in zip(cr.lprime, q, cone.gap) if g is not None), arb(0))
    up = sum((a * b * to_arb(g) for a, b, g in zip(cr.lprime, q, cone.gap_bar) if g is not None), arb(0))
    return to_arb(lower_factor) * lo / cone.n, to_arb(upper_factor) * up / cone.n


def evaluate(data: Dataset, prec: Precision, alphas=None, factors=FACTORS, loss: str = "logistic", random_dirs: int = 2,
             signs: str = "meaningful", lower_factor=LOWER, upper_factor=UPPER) -> Outcome:
    """``alphas``: the selections (0-indexed) instead of every locally-optimal one. ``signs="printed"``: the bounds
    with v1's printed (reversed) inequality signs; ``lower_factor``/``upper_factor``: the constants 1/8, 2 (false
    cases only)."""
    out = Outcome(hypotheses=[assumption_a(loss, data)])
    if not out.applicable():
        return out
    met, detail, cones = lmm_selections(data, alphas, prec.dps)
    out.hypotheses.append(Hypothesis(LMM, met, detail))
    if not out.applicable():
        return out
    model = LinearLogitModel.from_dataset(data, "W", loss)
    lf, uf = Fraction(lower_factor), Fraction(upper_factor)
    printed = signs == "printed"
    covered = []
    for cone in cones:
        R = cone.radius()
        mu = cone.mu
        out.add(Evidence(f"{cone.name}: δ (∞ when no support/non-support pair)", cone.delta if cone.delta is not None
                         else None, note="δ = ∞" if cone.delta is None else ""),
                Evidence(f"{cone.name}: A = max‖x_it z_iᵀ‖·‖W^mm_α‖", cone.A),
                Evidence(f"{cone.name}: μ(α) = (1/8)(min(½, δ)/A)² (exact)", mu),
                Evidence(f"{cone.name}: R = max(2, 1/δ)‖W^mm_α‖log(64TΓA/γ^gap_min) (74)", R))
        empty = cone.empty_support()
        if empty:
            out.notes.append(f"{cone.name}: sequence(s) {[i + 1 for i in empty]} have 𝒯_i = ∅ — left out of the sums "
                             "of the bounds (spec: the per-sequence argument needs a support index)")
        dirs = cone_directions(data, cone, mu, other_directions(cones, cone), random_dirs)
        Ws = [(f"{lb}, ‖W‖_F ≥ {f}·R", at_norm(d, R * to_arb(f))) for lb, d in dirs for f in factors]
        tab = CorrelationTables(model, [V for _, V in dirs])
        N = cone.norm
        scale = [N / sqrt_ball(sum((x * x for x in V), Fraction(0))) for _, V in dirs]
        l1 = ProbeInequality(f"{cone.name} (L1): min over W ∈ C_(μ,R)(W^mm_α) of −⟨∇L(W), W^mm_α⟩", ">", 0)
        low = ProbeInequality(f"{cone.name} (L2): min of −⟨∇L(W), V⟩ / [{lf}·(1/n)Σ|ℓ'_i|q_iγ^gap_i]",
                              "<=" if printed else ">=", 1)
        up = ProbeInequality(f"{cone.name} (L2): max of −⟨∇L(W), V⟩ / [{uf}·(1/n)Σ|ℓ'_i|q_iγ̄^gap_i]",
                             ">=" if printed else "<=", 1)
        if printed:
            low.quantity = low.quantity.replace("min of", "max of") + " (printed signs)"
            up.quantity = up.quantity.replace("max of", "min of") + " (printed signs)"
        for wl, W in Ws:
            cr = correlations(tab, W)
            q = model.mass_off([to_arb(x) for x in W], cone.alpha, cr.states)  # 1 − s_iα as Σ_{t≠α} s_it
            lower, upper = bounds(cone, cr, q, lf, uf)
            for (vl, V), val, sc in zip(dirs, cr.values, scale):
                if V == cone.w:
                    l1.add(val, f"W: {wl}")
                low.add_ratio(val * sc, lower, f"W: {wl}; V: {vl}")
                up.add_ratio(val * sc, upper, f"W: {wl}; V: {vl}")
        out.add(l1.evidence(f"{len(Ws)} W"),
                low.evidence(f"{len(Ws)} W × {len(dirs)} V; R = {to_decimal_string(R, 8)}, μ(α) = {mu}"),
                up.evidence())
        covered.append(cone.name)
    if printed or lf != LOWER or uf != UPPER:
        out.notes.append(f"altered statement (false case): signs = {signs}, constants {lf}/n and {uf}/n")
    out.cover(("α ∈ {" + ", ".join(covered) + "}") + (" (given)" if alphas is not None else
                                                      " (every locally-optimal α)"))
    out.cover(f"W at W^mm_α and at cone-boundary points (other LMM/GMM directions, ±token directions, {random_dirs} "
              f"random), ‖W‖_F ≥ R·{{{', '.join(str(f) for f in factors)}}}; V along the same directions")
    return out


def default_datasets(seed: int = 0):
    return [D.d_lmm(), D.d_t2(), D.lemma4_cross(), D.thm4_trap(), D.local_empty_support()]


STATEMENT = """\
Assumption A; α locally optimal; μ(α) = (1/8)(min(½, δ)/A)², R = max(2, 1/δ)/Θ·log(64TΓA/γ^gap_min) (v1 (74)):
(L1) no stationary point in C_{μ,R}(W^mm_α); (L2) for V, W ∈ cone_μ(W^mm_α), ‖V‖ = ‖W^mm_α‖, ‖W‖ ≥ R:
(1/8n)Σ|ℓ'_i|q_iγ^gap_i ≤ −⟨∇L(W), V⟩ ≤ (2/n)Σ|ℓ'_i|q_iγ̄^gap_i, q_i = 1 − s_{iα_i}, gaps over the support indices
(v1 App. C; printed with the signs reversed — an ℓ' < 0 slip; the meaningful form is encoded; sums over the
sequences with 𝒯_i ≠ ∅).

FLAWED in v1 (found here): a sequence without support index that selects a lower-scored token makes (L1) and the
lower bound fail at ‖W‖ = R (tfsvm-local-empty-support: −⟨∇L(W), W^mm_α⟩ < 0 at R ≈ 0.103), certified.

Certified at sampled W (W^mm_α and cone-boundary points, ‖W‖ ∈ {1, 3/2}·R) and V (the same directions), for every
locally-optimal α.
"""

CLAIM = register(Claim(id="tfsvm.lemma13", paper="tfsvm", number="Lemma 13", kind="inequality",
                       title="Local cone: no stationary points; two-sided gradient bounds (FLAWED-v1: R of (74))",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("local-gradient-condition",),
                       parameters=(
                           Parameter("α", "every locally-optimal α", "hardest",
                                     "every locally-optimal α of [T]^n, enumerated (α = opt alone beyond the "
                                     "enumeration limit, said in the hypothesis)"),
                           Parameter("W", "every W ∈ C_(μ,R)(W^mm_α)", "range",
                                     "W^mm_α and cone-boundary points toward the other LMM/GMM directions, ±token "
                                     "directions and random ones, at ‖W‖_F ∈ R·{1, 3/2} (named in the verdict)"),
                           Parameter("V", "every V ∈ cone_μ(W^mm_α) with ‖V‖ = ‖W^mm_α‖ (L2)", "range",
                                     "the same directions, rescaled (V = W^mm_α included) (named in the verdict)"))))
