"""mmts Lemma 4 — p^mm is a global descent direction under Assumption B (App. B.1, proof (17)–(22)).

Statement. Under Assumption A (ℓ' < 0 on [−B, B]), Assumption B (unique optimal token and one common
non-optimal score γ̲_i < γ_{i,opt} in every sequence) and ATT-SVM(opt) feasible (p^mm exists):

    ⟨∇L(p), p^mm⟩ < 0   for every p ∈ ℝ^d.

Quantitative form (DERIVED here, exact; the paper may state only "< 0"):

    −⟨∇L(p), p^mm⟩  ≥  (1/n) Σ_i |ℓ'(φ_i)| (γ_{i,opt} − γ̲_i) s_{i,opt} (1 − s_{i,opt})  > 0,

since under B, Cov_{s_i}(γ_i, K_i p^mm) = Δ_i s_opt Σ_{t≠opt} s_t m_t with margins m_t ≥ 1; equality iff
every non-optimal token is a support token (always when T = 2). On Fig. 1(b) (B violated)
⟨∇L(p), p^mm⟩ = −1.4e−2, −3.7e−4, +6.4e−7 at p = 1, 3, 10 ·(1,0,0): the sign flips between 3 and 10.

Hypotheses (``verify.kit.global_descent.descent_hypotheses``): Assumption A for the loss used, certified;
Assumption B decided exactly on the rational scores (rounded data fails it: NOT_APPLICABLE, never a
spurious VIOLATED); ATT-SVM(opt) feasible from its verified certificate (p^mm exact rational, so
every margin is exact).

How it is checked. Probe points p (exact rationals): ±p^mm, ±(k_t − k_opt), ±k_t, the max-margin
directions of the other feasible selections (LMM rays), seeded random directions and mixtures, each
at ‖p‖∞ ∈ {0, 0.1, …, 1000} (1 − s ≈ e^{−1000}, fine in arb). At each point
(``verify.geometry.stationarity.descent_terms``): ⟨∇L(p), p^mm⟩ by the covariance identity in its
pairwise form with exact rational products (certified, cancellation-free), the engine's closed-form
gradient dotted with p^mm (an independent cross-check), and the bound. Deciding items, each a Tally
over every probe point: (1) ⟨∇L(p), p^mm⟩ < 0; (2) −⟨∇L(p), p^mm⟩/bound − 1 ≥ 0 — by the balls, and
where the ball straddles 0 (the tie, T = 2) by its exact-structure form slack/bound, slack =
(1/n)Σ|ℓ'|Δ s_opt Σ_t s_t (m_t − 1) with m_t − 1 ≥ 0 exact (an identity under B, DERIVED here; used
where the two balls overlap); (3) the two formulas for ⟨∇L, p^mm⟩ agree to 10^-dps relative. All
certified.

False cases (tests): Fig. 1(b) → NOT_APPLICABLE naming Assumption B; ``require_B=False`` evaluates
the bare inequality and p = 10·(1,0,0) gives ⟨∇L, p^mm⟩ > 0 → VIOLATED; ``factor=2`` (a doubled
bound) → VIOLATED at T = 2, where the bound is attained.

Proven on a box (region certificate, ``kit.region_inequality.descent_margin``): −⟨∇L(p), p^mm⟩ > 0 at every p with
‖p‖∞ ≤ r, r the logit-scale box (every |logit| ≤ 1) halved until proven within 200 boxes (at most 10 sizes), for
d ≤ 4; the margin is the statement's own sign (a failing point would be a counterexample). The certificate is
written by ``--report`` and re-checked by ``python -m verify recheck``.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Evidence, Outcome, Tally, register
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.data.dataset import Dataset
from verify.geometry.stationarity import (
    PROBE_SCALES,
    PairTable,
    bound_excess,
    descent_terms,
    exact_margins,
    feasible_assumption_b_dataset,
    relative_deviation,
)
from verify.kit.descent_proof import covariance_identities, descent_on_domain_b2
from verify.kit.global_descent import descent_hypotheses, descent_probes, ratio_figure
from verify.kit.identity_certificates import identity_certificates
from verify.kit.region_inequality import descent_margin, prove_on_halved_boxes
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import Precision, to_arb

BOUND = "[(%s/n)Σ|ℓ'(φ_i)|Δ_i s_opt(1−s_opt)]"
REGION = "auto"  # ⟨∇L(p), p^mm⟩ < 0 proven on a box ‖p‖∞ ≤ r; "auto": the logit-scale box, halved until proven
REGION_RUNGS, REGION_BOXES, REGION_MAX_DIM = 10, 200, 4  # at most 4 coordinates: larger boxes cost too much
DOMAIN = {"p": "every p ∈ ℝ^d", "W": "every W ∈ ℝ^{d×d}"}  # what the exact proof covers, per parameterisation
PROOF_STATEMENT = "⟨∇L(p), p^mm⟩ < 0 for every p, under Assumption B (an identity of the exact proof)"


def evaluate(data: Dataset, prec: Precision, require_B: bool = True, factor=1, param: str = "p",
             loss: str = "logistic", scales=PROBE_SCALES, random_dirs: int = 6, figure: bool = True,
             points=None, region=REGION, region_boxes: int = REGION_BOXES) -> Outcome:
    """Lemma 4 on ``data``. ``require_B=False``: the bare inequality without Assumption B (and no
    bound); ``factor`` multiplies the bound (a wrong constant, for tests); ``points`` (a list of
    (label, exact point)) replaces the probe set."""
    out = Outcome()
    out.hypotheses, B, res = descent_hypotheses(data, param, loss, prec.dps, require_b=require_B)
    if res is None:
        return out
    q = list(res.solution)
    model = LinearLogitModel.from_dataset(data, param, loss)
    margins = exact_margins(features(data, param), model.opt, q)
    gaps = B.gaps if B.met else None
    proof, bound_proven = [], False
    if gaps is not None:  # under B the statement (and the bound when min m ≥ factor) is proven on every p
        proof, bound_proven = descent_on_domain_b2(data.T, model.opt, gaps, margins, DOMAIN.get(param, "every θ"),
                                                   factor)
        identity_certificates(out, claim="mmts.lemma4", data=data, statement=PROOF_STATEMENT,
                              identities=covariance_identities(model.opt))
    def covered(text):
        out.cover(text, corroborating=bool(proof))

    if points is None:
        dirs, probes = descent_probes(data, param, q, scales, random_dirs, prec.dps)
        out.notes.append(f"{len(probes)} probe points: {len(dirs)} directions × ‖p‖∞ ∈ {{{', '.join(scales)}}}; "
                         f"p^mm = ({', '.join(str(x) for x in q)})")
        covered(f"p at {len(probes)} probe points: {len(dirs)} directions × "
                f"‖p‖∞ ∈ {{{', '.join(scales)}}}")
    else:
        probes = [(label, tuple(Fraction(x) for x in pt), label, "1") for label, pt in points]
        covered(f"p at the {len(probes)} given point(s)")
    sign = Tally("max over probe points of ⟨∇L(p), p^mm⟩" + ("" if require_B else " (Assumption B NOT required)"),
                 "<", 0)
    excess = Tally("min over probe points of −⟨∇L(p), p^mm⟩ / " + BOUND % factor + " − 1", ">=", 0)
    agree = Tally("max relative deviation of ⟨∇L(p), p^mm⟩ from the engine's closed-form gradient vs the pairwise "
                  "covariance form", "<=", prec.tolerance, residual=True)
    pairs, saturation, curves = PairTable(model, q), [], {}
    for where, p, label, _ in probes:
        dt = descent_terms(model, q, margins, p, gaps, factor, pairs)
        sign.add(dt.inner, where)
        agree.add(relative_deviation(dt), where)
        saturation.append(dt.sopt_off)
        if gaps is not None:
            e = bound_excess(dt)
            excess.add(e, where)
            if any(p):
                curves.setdefault(label, []).append((float(sum(x * x for x in p)) ** 0.5, 1 + float(e.mid())))
    out.add(sign.evidence(corroborates=bool(proof)))
    if gaps is not None:
        out.add(excess.evidence("≥ 0 is the derived bound; where the ball straddles 0 (every non-optimal token a "
                                "support token) it is slack/bound, slack = (1/n)Σ|ℓ'|Δ s_opt Σ_t s_t(m_t − 1) "
                                "formed termwise", corroborates=bound_proven))
    out.add(agree.evidence(corroborates=bool(proof)))
    out.add(Evidence("smallest s_opt(1 − s_opt) probed (saturation reached)", min(saturation, key=lambda x: x.mid())),
            Evidence("‖p^mm‖ (exact ATT-SVM)", to_arb(sum((x * x for x in q), Fraction(0))).sqrt()))
    out.add(*proof)
    if not require_B and not B.met:
        out.notes.append("Assumption B does not hold here; only the bare sign of ⟨∇L(p), p^mm⟩ is tested")
    if figure and curves:
        out.figures.append(ratio_figure(curves, factor))
    if region is not None and len(q) <= REGION_MAX_DIM:
        def box(r):
            params = {"loss": loss, "param": param, "radius": str(r), "pmm": [str(x) for x in q]}
            return (f"−⟨∇L(p), p^mm⟩ > 0 on the box ‖p‖∞ ≤ {r} (proven)", descent_box(data, params), params,
                    f"‖p‖∞ ≤ {r}")

        item = prove_on_halved_boxes(out, region, features(data, param), box, rungs=REGION_RUNGS, claim="mmts.lemma4",
                                     name="descent-box", data=data, dps=prec.dps, max_boxes=region_boxes)
        item.corroborates = bool(proof)  # a certificate anyone can re-check, of what the exact proof covers
        if item.decide() and not proof:
            out.cover(f"proven on every p with {item.proof.region}")
    return out


def descent_box(data: Dataset, params: dict):
    """The region margin (also rebuilt by ``verify recheck``): −⟨∇L(p), p^mm⟩ > 0 for ‖p‖∞ ≤ radius, p^mm the
    exact rational ATT-SVM solution stored in ``params``."""
    r = Fraction(params["radius"])
    return descent_margin(features(data, params.get("param", "p")), data.scores, params.get("loss", "logistic"),
                          [Fraction(x) for x in params["pmm"]], r, statement=f"⟨∇L(p), p^mm⟩ < 0 for ‖p‖∞ ≤ {r}")


def tight_T2_dataset() -> Dataset:
    """T = 2, n = 2: every non-optimal token is a support token, so the bound is attained (ratio 1)."""
    return Dataset.make(X=[[[1, 0, 1], [-1, 0, 0]], [[0, 1, 2], [0, -1, "1/2"]]], Y=[1, 1], v=[0, 0, 1],
                        K=[[[1, 0, 0], [-1, 0, 0]], [[0, 1, 0], [0, -1, 0]]], name="tight-T2")


def default_datasets(seed: int = 0):
    return [D.mmts_fig1a(), D.mmts_fig1c(), D.mmts_fig8_substitute(),
            feasible_assumption_b_dataset(n=2, T=4, d=4, seed=seed), tight_T2_dataset()]


STATEMENT = """\
Under Assumption A, Assumption B (γ_it = γ_iτ < γ_{i,opt} for t, τ ≠ opt_i) and ATT-SVM(opt) feasible: ⟨∇L(p),
p^mm⟩ < 0 for every p (App. B.1, (17)–(22)). Derived quantitative form (exact): −⟨∇L(p), p^mm⟩ ≥ (1/n) Σ_i
|ℓ'(φ_i)| (γ_{i,opt} − γ̲_i) s_{i,opt}(1 − s_{i,opt}) > 0, with equality iff every non-optimal token is a
support token.

Checked with certified ball arithmetic at adversarial p (aligned, anti-aligned, selecting non-optimal tokens,
LMM rays, random; ‖p‖∞ from 0.1 to 1000, i.e. up to saturation), every probe point counted.
"""

CLAIM = register(Claim(id="mmts.lemma4", paper="mmts", number="Lemma 4", kind="inequality",
                       title="p^mm is a global descent direction under Assumption B", statement=STATEMENT,
                       check=evaluate, default_datasets=default_datasets,
                       aliases=("global-descent-direction", "gmm-descent"), regions={"descent-box": descent_box},
                       parameters=(
                           Parameter("p", "for every p ∈ ℝ^d", "hardest",
                                     "proven for every p under Assumption B by exact algebra (kit.descent_proof: the "
                                     "covariance identities, the exact signs of the gaps and margins); without B, "
                                     "probe points (±p^mm, non-optimal selections, keys, LMM rays, 6 seeded "
                                     "directions at ‖p‖∞ ∈ {0, …, 1000}) and a box ‖p‖∞ ≤ r proven by a region "
                                     "certificate (d ≤ 4), named in the verdict"),)))
