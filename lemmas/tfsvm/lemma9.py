"""tfsvm Lemma 9 — W^mm is a global descent direction of L(W) (v1 App. B.1, eqs. (22)–(30)).

Statement (v1). Let W^mm solve (Att-SVM). Under Assumptions A and B (B.1: every non-optimal token is a
support vector, (x_{i,opt} − x_it)ᵀW^mm z_i = 1; or B.2: equal non-optimal scores γ_it = γ_iτ < γ_{i,opt}),
for all W ∈ ℝ^{d×d}: ⟨∇L(W), W^mm⟩ ≤ −c < 0 "for some constant c > 0 depending on the data, the head v and a
loss derivative bound". The proof's c = c₁c₀ (eq. (27)) contains s_{i,opt}(1 − s_{i,opt}), which depends on W and
tends to 0 along R·W^mm: no W-independent c exists (⟨∇L(RW^mm), W^mm⟩ → 0, reported, informative). What is
checked is the strict inequality at every W, with W^mm existing (Att-SVM(opt) feasible; implicit in v1).

Exact forms (DERIVED, from the covariance identity ⟨∇L, V⟩ = (1/n)Σ ℓ'(φ_i) Cov_{s_i}(γ_i, X_iVz_i)):
  B.1: X_iW^mm z_i = c_i𝟙 + e_opt, so Cov = s_opt(γ_opt − φ_i) and
       ⟨∇L(W), W^mm⟩ = (1/n)Σ_i ℓ'(φ_i) s_{i,opt} δ_i,  δ_i = γ_{i,opt} − φ_i = Σ_{t≠opt} s_it(γ_opt − γ_it) (stable);
  B.2: Cov = Δ_i s_opt Σ_{t≠opt} s_t m_t with margins m_t ≥ 1 (eq. (25)), so
       −⟨∇L(W), W^mm⟩ ≥ (1/n)Σ_i |ℓ'(φ_i)| Δ_i s_{i,opt}(1 − s_{i,opt}) > 0 (equality iff all tokens support).

Hypotheses (``verify.kit.global_descent.tfsvm_hypotheses``, shared with Theorem 3): Assumption A for the loss,
unique optimal tokens, B.1 (decided exactly on the rational W^mm) or B.2 (exact), Att-SVM(opt) feasible.

How it is checked (certified, arb balls at exact rational W): probe points ±W^mm, ±(F_t − F_opt) (selects a
non-optimal token), ±F_it, seeded random directions, the LMM rays W^mm_α of every locally-optimal α ≠ opt,
at ‖W‖∞ ∈ {0, …, 1000} (1 − s_opt ≈ e^{−1000}), and tie points (two tokens share the largest logit). Tallies:
(1) ⟨∇L(W), W^mm⟩ < 0 by the pairwise covariance form with exact products (no cancellation under B);
(2) B.1: the exact form, relative residual ≤ 10^-dps; (3) B.2: −⟨∇L, W^mm⟩/bound − 1 ≥ 0
(``bound_excess``). The B.1 form (δ_i, s_opt) and the pairwise covariance are two different algebraic routes from
the same softmax states; the engine's closed-form gradient is not used to decide (it cancels terms e^{+|a|} larger
than the result once a non-optimal token dominates, and its ball then straddles: undecidable, not wrong). Theorem 3
uses the same sign at fewer points to exclude stationary points; the computations are the engine's (``descent_terms``).

Proven on a box (region certificate, ``kit.region_inequality.descent_margin``): −⟨∇L(W), W^mm⟩ > 0 at every W with
‖W‖∞ ≤ r, r the logit-scale box (every |logit| ≤ 1; ``kit.region_inequality.logit_box_radius``) halved until proven within 200 boxes (at
most 10 sizes), for d ≤ 2 (d² ≤ 4 coordinates); the margin is the statement's own sign, so a failing point would be
a counterexample. The certificate is written by ``--report`` and re-checked by ``python -m verify recheck``.

False cases (tests): D-NB (B.1 and B.2 fail) → NOT_APPLICABLE naming Assumption B; with B not required →
VIOLATED (certified) at W z = (0, −10) (W = −10·x₁z₁ᵀ, a probe point): ⟨∇L, W^mm⟩ = +0.1325.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Outcome, Tally, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry.probes import tie_points
from verify.geometry.stationarity import (
    PROBE_SCALES,
    PairTable,
    assumption_b,
    assumption_b1,
    bound_excess,
    descent_terms,
    exact_margins,
    feasible_assumption_b_dataset,
    gmm,
    probe_directions,
    probe_points,
)
from verify.geometry.tfsvm_cones import lmm_directions
from verify.kit.descent_proof import covariance_identities, descent_on_domain_b1, descent_on_domain_b2
from verify.kit.global_descent import tfsvm_hypotheses
from verify.kit.identity_certificates import identity_certificates
from verify.kit.probe_inequality import point_label
from verify.kit.region_inequality import descent_margin, prove_on_halved_boxes
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import Precision, to_arb

UNIFORM_RADII = (1, 10, 100, 1000)
REGION = "auto"  # ⟨∇L(W), W^mm⟩ < 0 proven on a box ‖W‖∞ ≤ r; "auto": the logit-scale box, halved until proven
REGION_RUNGS, REGION_BOXES, REGION_MAX_DIM = 10, 200, 4  # d² ≤ 4 coordinates (d ≤ 2): larger boxes cost too much
DOMAIN = "every W ∈ ℝ^{d×d}"  # what the exact proof covers (kit.descent_proof)
PROOF_STATEMENT = "⟨∇L(W), W^mm⟩ < 0 for every W, under B.1 or B.2 (an identity of the exact proof)"


def evaluate(data: Dataset, prec: Precision, require_B: bool = True, loss: str = "logistic",
             scales=PROBE_SCALES, random_dirs: int = 4, points=None, region=REGION,
             region_boxes: int = REGION_BOXES) -> Outcome:
    """``require_B=False``: the bare inequality without Assumption B; ``points``: [(label, exact W)] replaces
    the probe set."""
    out = Outcome()
    hyps, feas, q, _ = tfsvm_hypotheses(data, loss, prec.dps)
    out.hypotheses = (hyps if require_B else hyps[:2]) + [feas]
    if not out.applicable():
        return out
    b2 = assumption_b(data)
    b1, _ = assumption_b1(gmm(data, "W", prec.dps))
    model = LinearLogitModel.from_dataset(data, "W", loss)
    feats = features(data, "W")
    margins = exact_margins(feats, model.opt, q)
    proof, bound_proven = [], False  # under B.2 (or B.1) the statement is proven on every W by exact algebra
    if b2.met:  # (whether or not B was required: where it holds, the proof is valid)
        proof, bound_proven = descent_on_domain_b2(data.T, model.opt, b2.gaps, margins, DOMAIN)
    elif b1:
        proof = descent_on_domain_b1(data.T, model.opt, data.scores, DOMAIN)
    if proof:
        identity_certificates(out, claim="tfsvm.lemma9", data=data, statement=PROOF_STATEMENT,
                              identities=covariance_identities(model.opt))
    def covered(text):
        out.cover(text, corroborating=bool(proof))

    if points is None:
        extra = [(f"LMM ray W^mm_α, α = {a}", d) for a, d in lmm_directions(data, prec.dps)]
        dirs = probe_directions(feats, model.opt, q, extra=extra, count=random_dirs)
        probes = [(w, p) for w, p, _, _ in probe_points(dirs, scales, "W")]
        probes += [(f"tie point {point_label(p, 4)}", p) for p in tie_points(feats, [(o,) for o in model.opt])]
        covered(f"W at {len(probes)} points: {len(dirs)} directions × ‖W‖∞ ∈ {{{', '.join(map(str, scales))}}}, "
                "and the tie points")
    else:
        probes = [(label, tuple(Fraction(x) for x in p)) for label, p in points]
        covered(f"W at the {len(probes)} given point(s)")
    gaps = b2.gaps if b2.met else None
    sign = Tally(f"max over {len(probes)} points of ⟨∇L(W), W^mm⟩" + ("" if require_B else " (Assumption B NOT required)"),
                 "<", 0)
    ident = Tally("B.1 form: max relative residual of ⟨∇L(W), W^mm⟩ − (1/n)Σ ℓ'(φ_i) s_opt δ_i", "<=",
                  prec.tolerance, residual=True)
    excess = Tally("B.2 bound: min of −⟨∇L(W), W^mm⟩ / [(1/n)Σ|ℓ'(φ_i)|Δ_i s_opt(1−s_opt)] − 1", ">=", 0)
    pairs = PairTable(model, q)
    for where, p in probes:
        dt = descent_terms(model, q, margins, p, gaps, 1, pairs)
        sign.add(dt.inner, where)
        if b1:
            states = model.states([to_arb(x) for x in p])
            deltas = model.deltas(None, states)
            rhs = sum((model.loss.d1(st.phi) * st.s[o] * dl for st, o, dl in zip(states, model.opt, deltas)),
                      arb(0)) / model.n
            ident.add(abs(dt.inner - rhs) / abs(rhs), where)
        if gaps is not None:
            excess.add(bound_excess(dt), where)
    out.add(sign.evidence(corroborates=bool(proof)))
    if b1:
        out.add(ident.evidence("B.1 holds: X_iW^mm z_i is constant off opt, so Cov_s(γ, X_iW^mm z_i) = s_opt(γ_opt − φ)",
                               corroborates=bool(proof)))
    if gaps is not None:
        out.add(excess.evidence("B.2 holds: Cov = Δ_i s_opt Σ_t s_t m_t with margins m_t ≥ 1 (v1 eq. (25))",
                                corroborates=bound_proven))
    if not require_B and not (b1 or b2.met):
        out.notes.append("Assumption B does not hold here (B.1 and B.2 both fail): only the bare sign is tested")
    for R in UNIFORM_RADII:  # the 'uniform constant c' reading: ⟨∇L(R·W^mm), W^mm⟩ → 0
        pt = tuple(Fraction(R) * x for x in q)
        out.add(Evidence(f"⟨∇L(R·W^mm), W^mm⟩ at R = {R} (→ 0: no W-independent c > 0)",
                         descent_terms(model, q, margins, pt, pairs=pairs).inner))
    out.add(Evidence("‖W^mm‖²_F (exact Att-SVM)", sum((x * x for x in q), Fraction(0))))
    out.add(*proof)
    if region is not None and len(q) <= REGION_MAX_DIM:
        proven_box = _prove_on_a_box(out, data, feats, q, loss, prec, region, region_boxes, bool(proof))
        if proven_box and not proof:
            out.cover(proven_box)
    return out


def descent_box(data: Dataset, params: dict):
    """The region margin of the check (also rebuilt by ``verify recheck``): −⟨∇L(W), W^mm⟩ > 0 for ‖W‖∞ ≤ radius,
    W^mm the exact rational Att-SVM solution stored in ``params``."""
    q = [Fraction(x) for x in params["wmm"]]
    r = Fraction(params["radius"])
    return descent_margin(features(data, "W"), data.scores, params.get("loss", "logistic"), q, r,
                          names=tuple(f"W{a + 1}{b + 1}" for a in range(data.d) for b in range(data.d)),
                          statement=f"⟨∇L(W), W^mm⟩ < 0 for ‖W‖∞ ≤ {r}")


def _prove_on_a_box(out, data, feats, q, loss, prec, region, budget, beside_proof: bool) -> str:
    def box(r):
        params = {"loss": loss, "radius": str(r), "wmm": [str(x) for x in q]}
        return (f"−⟨∇L(W), W^mm⟩ > 0 on the box ‖W‖∞ ≤ {r} (proven)", descent_box(data, params), params,
                f"‖W‖∞ ≤ {r}")

    item = prove_on_halved_boxes(out, region, feats, box, rungs=REGION_RUNGS, claim="tfsvm.lemma9",
                                 name="descent-box", data=data, dps=prec.dps, max_boxes=budget)
    item.corroborates = beside_proof  # a certificate anyone can re-check, of what the exact proof covers
    return f"proven on every W with {item.proof.region}" if item.decide() else ""


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.b1_only(), feasible_assumption_b_dataset(n=2, T=3, d=2, seed=seed, param="W")]


STATEMENT = """\
Under Assumptions A and B (B.1: all non-optimal tokens support vectors of W^mm, or B.2: equal non-optimal scores),
with W^mm existing: ⟨∇L(W), W^mm⟩ < 0 for all W (v1 App. B.1, eqs. (24)–(30); printed as ≤ −c with a data-dependent
c, but the proof's c contains s_opt(1 − s_opt) and ⟨∇L(R·W^mm), W^mm⟩ → 0, so no W-independent c exists).
Derived exact forms: B.1: ⟨∇L(W), W^mm⟩ = (1/n)Σ ℓ'(φ_i) s_{i,opt}(γ_{i,opt} − φ_i); B.2: −⟨∇L(W), W^mm⟩ ≥
(1/n)Σ|ℓ'(φ_i)|Δ_i s_{i,opt}(1 − s_{i,opt}).

Certified at adversarial W (±W^mm, non-optimal selections, LMM rays, random, ties; ‖W‖∞ up to 1000).
"""

CLAIM = register(Claim(id="tfsvm.lemma9", paper="tfsvm", number="Lemma 9", kind="inequality",
                       title="W^mm is a global descent direction under Assumption B (B.1 or B.2)",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("global-descent-direction",), regions={"descent-box": descent_box},
                       parameters=(
                           Parameter("W", "for all W ∈ ℝ^{d×d}", "hardest",
                                     "proven for every W under B.1 or B.2 by exact algebra (kit.descent_proof); "
                                     "without B, ±W^mm, non-optimal selections, ±F_it, every LMM ray and 4 seeded "
                                     "directions at ‖W‖∞ ∈ {0, …, 1000}, the tie points, and a box ‖W‖∞ ≤ r proven by "
                                     "a region certificate (d ≤ 2), named in the verdict"),)))
