"""tfsvm auxiliary fact (DERIVED) — independent queries: no stationary point, without Assumption B.

Statement. If the queries z_1, …, z_n are linearly independent, ℓ' < 0 on the score range, and some sequence has
non-constant scores, then with V⋆ = (vYᵀ)(Zᵀ)⁺ (Z ∈ ℝ^{n×d} with rows z_iᵀ, so Zᵀ = [z_1 … z_n] and
(Zᵀ)⁺ = (ZZᵀ)⁻¹Z):

    ⟨∇L(W), V⋆⟩ = (1/n) Σ_i ℓ'(φ_i) Var_{s_i}(γ_i) < 0   for every W,

so ∇L has no zero (‖∇L(W)‖_F ≥ |⟨∇L(W), V⋆⟩|/‖V⋆‖_F > 0) — neither Assumption B nor Att-SVM feasibility is
needed. Proof: V⋆Zᵀ = vYᵀ(Zᵀ)⁺Zᵀ = vYᵀ since (Zᵀ)⁺Zᵀ = I_n for independent columns, i.e. V⋆z_i = Y_i v, hence X_iV⋆z_i = Y_iX_iv = γ_i, and the covariance identity (tfsvm.aux.gradient) gives
⟨∇L, V⋆⟩ = (1/n)Σ ℓ'(φ_i) Cov_{s_i}(γ_i, γ_i); Var_s(γ) = Σ_{t<u} s_t s_u (γ_t − γ_u)² > 0 since s > 0.

Hypotheses (exact): Assumption A for the loss (ℓ' < 0 certified on [−B, B]), rank Z = n (exact rational rank), some
sequence with γ_it ≠ γ_iτ.

How it is checked. V⋆ by an exact rational pseudo-inverse (sympy). (1) exact: X_iV⋆z_i = γ_i for every i. (2) a
Tally at adversarial W (±V⋆, non-optimal selections, ±F_it, random; ‖W‖∞ up to 1000) and tie points:
⟨∇L(W), V⋆⟩ < 0 from the pairwise covariance with exact products (γ_t − γ_u)((F_t − F_u)ᵀV⋆) — all ≥ 0 when (1)
holds, so no cancellation; (3) residual Tally: the engine's closed-form gradient dotted with V⋆ equals
(1/n)Σ ℓ'Var at the unsaturated points (‖W‖∞ ≤ 1; beyond, the closed form cancels terms far larger than the
result and its ball straddles: undecidable, not wrong); (4) ‖∇L(0)‖ > 0.

False case (tests): D-STAT (n = 2, d = 1, z = (1, −1): dependent) → NOT_APPLICABLE naming independence; with it
dropped, V⋆ = 0 (the pseudo-inverse annihilates vYᵀ = (1, 1)), (1) fails, ⟨∇L, V⋆⟩ ≡ 0 and ∇L(0) = 0 exactly →
VIOLATED (certified).
"""
from __future__ import annotations

from fractions import Fraction

import sympy
from flint import arb

from verify.claims import Claim, Evidence, Hypothesis, Outcome, Tally, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry.probes import tie_points
from verify.geometry.stationarity import PROBE_SCALES, exact_gradient_at_zero, probe_directions, probe_points
from verify.geometry.tfsvm_cones import CorrelationTables, correlations
from verify.kit.assumptions import assumption_a
from verify.kit.descent_proof import descent_on_domain_variance
from verify.kit.identity_certificates import identity_certificates
from verify.kit.probe_inequality import point_label
from verify.models.attention import LinearLogitModel, dot, features
from verify.numbers.precision import Precision, to_arb

UNSATURATED = Fraction(1)  # ‖W‖∞ up to which the engine cross-check (3) is decidable
DOMAIN = "every W ∈ ℝ^{d×d}"  # what the exact proof covers


def v_star(data: Dataset) -> tuple:
    """vec(V⋆), V⋆ = (vYᵀ)(Zᵀ)⁺ with an exact rational pseudo-inverse (row-major, d×d)."""
    Zt = sympy.Matrix([[sympy.Rational(str(z[j])) for z in data.queries()] for j in range(data.d)])  # d × n
    vY = sympy.Matrix([[sympy.Rational(str(a)) * y for y in data.Y] for a in data.v])  # d × n
    V = vY * Zt.pinv()
    return tuple(Fraction(int(sympy.numer(x)), int(sympy.denom(x))) for x in V)


def evaluate(data: Dataset, prec: Precision, require_independent: bool = True, loss: str = "logistic",
             scales=PROBE_SCALES, random_dirs: int = 4, points=None) -> Outcome:
    """``require_independent=False``: the conclusion checked without the independence of the z_i;
    ``points``: [(label, exact W)] replaces the probe set."""
    rank = sympy.Matrix([[sympy.Rational(str(x)) for x in z] for z in data.queries()]).rank()
    indep = Hypothesis("queries z_1..z_n linearly independent", rank == data.n, f"rank Z = {rank}, n = {data.n}")
    varied = [i for i, g in enumerate(data.scores) if len(set(g)) > 1]
    out = Outcome(hypotheses=[assumption_a(loss, data),
                              Hypothesis("some sequence has non-constant scores", bool(varied),
                                         f"sequences {varied}" if varied else "every γ_i is constant")]
                  + ([indep] if require_independent else []))
    if not require_independent:
        out.notes.append(f"independence NOT required ({'met' if indep.met else 'not met'}: {indep.detail})")
    if not out.applicable():
        return out
    V = v_star(data)
    model = LinearLogitModel.from_dataset(data, "W", loss)
    feats = features(data, "W")
    ok = all(sum((f * x for f, x in zip(F, V)), Fraction(0)) == g for Fi, gi in zip(feats, data.scores)
             for F, g in zip(Fi, gi))
    # with (1) the statement is proven on every W by exact algebra (kit.descent_proof); the probes corroborate it
    proof = descent_on_domain_variance(data.T, data.scores, DOMAIN) if ok else []
    if proof:
        identity_certificates(out, claim="tfsvm.aux.overparam-no-stationary", data=data,
                              identities=[("softmax-derivative", 0), ("variance", 0)],
                              statement="⟨∇L(W), V⋆⟩ < 0 for every W (an identity of the exact proof)")
    out.add(Evidence("X_iV⋆z_i = γ_i for every i (exact)", ok, "==", True, proves=DOMAIN if ok else "",
                     note="V⋆ = (" + ", ".join(str(x) for x in V) + ")"))
    opts = [(o[0],) for o in data.optimal_tokens()]
    dirs = probe_directions(feats, [o[0] for o in opts], V if any(V) else feats[0][0], count=random_dirs)
    pts = [(w.replace("+q (max-margin direction)", "+V⋆").replace("−q (anti-aligned)", "−V⋆"), p, sc)
           for w, p, _, sc in probe_points(dirs, scales, "W")]
    pts += [(f"tie point {point_label(p, 4)}", p, "tie") for p in tie_points(feats, opts)]
    if points is not None:
        pts = [(label, tuple(Fraction(x) for x in p), max(abs(Fraction(x)) for x in p)) for label, p in points]
    tab = CorrelationTables(model, [V])
    Va = [to_arb(x) for x in V]
    sign = Tally(f"max over {len(pts)} points of ⟨∇L(W), V⋆⟩ (pairwise covariance, exact products)", "<", 0)
    agree = Tally(f"max relative residual of the engine's ⟨∇L(W), V⋆⟩ − (1/n)Σ ℓ'(φ_i)Var_s(γ_i), ‖W‖∞ ≤ {UNSATURATED}",
                  "<=", prec.tolerance, residual=True)
    for where, p, sc in pts:
        c = correlations(tab, p)
        sign.add(-c.values[0], where)
        if sc != "tie" and Fraction(sc) <= UNSATURATED:
            var = sum((-lp * sum((st.s[t] * st.s[u] * to_arb((g[t] - g[u]) ** 2)
                                  for t in range(model.T) for u in range(t + 1, model.T)), arb(0))
                       for lp, st, g in zip(c.lprime, c.states, data.scores)), arb(0)) / model.n
            engine = dot(model.grad(None, c.states), Va)
            agree.add(abs(engine - var) / abs(var) if var != 0 else abs(engine - var), where)
    out.add(sign.evidence(corroborates=bool(proof)), agree.evidence(corroborates=bool(proof)))
    covered = (f"W at {len(pts)} points: {len(dirs)} directions × ‖W‖∞ ∈ {{{', '.join(map(str, scales))}}} and the "
               "tie points" if points is None else f"W at the {len(pts)} given point(s)")
    out.cover(covered, corroborating=bool(proof))
    zero, _ = exact_gradient_at_zero(data, "W")
    g0 = model.grad([arb(0)] * model.D)
    out.add(Evidence("‖∇L(0)‖_F (0 exactly: W = 0 is stationary)", Fraction(0) if zero else dot(g0, g0).sqrt(), ">", 0,
                     corroborates=bool(proof)))
    out.add(Evidence("‖V⋆‖²_F (exact)", sum((x * x for x in V), Fraction(0))), *proof)
    return out


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.d_nb(), D.lemma4_cross(), D.d_nuc()]


STATEMENT = """\
DERIVED (no v1 number): if z_1..z_n are linearly independent, ℓ' < 0 and some sequence has non-constant scores, then with
V⋆ = (vYᵀ)(Zᵀ)⁺: ⟨∇L(W), V⋆⟩ = (1/n)Σ ℓ'(φ_i) Var_{s_i}(γ_i) < 0 for every W — L(W) has no stationary point, without
Assumption B or Att-SVM feasibility.

Certified: the exact identity X_iV⋆z_i = γ_i, the sign at adversarial W up to saturation, the engine cross-check.
"""

CLAIM = register(Claim(id="tfsvm.aux.overparam-no-stationary", paper="tfsvm", number="(auxiliary)", kind="inequality",
                       title="Independent queries: no stationary point of L(W), without Assumption B",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("overparam-no-stationary", "overparam-benign-landscape"),
                       parameters=(
                           Parameter("W", "for every W", "hardest",
                                     "proven for every W by exact algebra when X_iV⋆z_i = γ_i (kit.descent_proof: "
                                     "the variance identity); probes at ±V⋆, non-optimal selections, ±F_it and 4 "
                                     "seeded directions at ‖W‖∞ ∈ {0, …, 1000} and the tie points corroborate"),)))
