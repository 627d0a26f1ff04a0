"""mmts Lemma 3 — the Key Lemma (covariance decomposition), App. A.1, proof (16).

Statement (one sequence, reference token 1 — here the optimal token opt_i): for logits a = K q (any
direction q), attention s = S(K p), scores γ, Γ := max_{t,τ}|γ_t − γ_τ| and A := max_t|a_t|,

    | aᵀdiag(s)γ − aᵀssᵀγ − Σ_{t≠1} (a₁ − a_t) s_t (γ₁ − γ_t) |  ≤  2 Γ A (1 − s₁)².        (16)

Identity behind it (DERIVED here): the left side without |·| is −(Σ_{t≠1} s_t(a₁−a_t))·(Σ_{t≠1} s_t(γ₁−γ_t)).
Hypothesis: the reference (optimal) token is unique in every sequence (decided exactly).

How it is checked. At every probe point (p, q) of every sequence — p over seeded directions and ± the
sequence's own key differences at ‖p‖∞ = 0 … 1000 (1 − s₁ ≈ e^{−1000}); q over 3 seeded directions and, the
hardest case (docs/parameters.md), every vertex of {‖Kq‖∞ ≤ 1}: at fixed p the ratio below is scale-free in
a = Kq and convex in it on that polytope, so its supremum over q sits at a vertex (``kit.key_lemma.logit_vertices``, exact)
— with the engine's stable
softmax, exact differences a₁ − a_t, γ₁ − γ_t, 1 − s₁ = Σ_{t≠1} s_t and the cancellation-free form
    LHS = −(1−s₁)Σ_{t≠1} s_t(a₁−a_t)(γ₁−γ_t) + Σ_{1<t<u} s_t s_u(a_t−a_u)(γ_t−γ_u)
(E[aγ] − E[a]E[γ] loses every digit once s₁ ≈ 1). Deciding, each a Tally over all points:
|LHS|/(2ΓA(1−s₁)²) ≤ 1 (where ΓA = 0 exactly, LHS must be exactly 0), and the enclosures of LHS and of
the identity value overlap (disjoint would refute it). Proven on the whole domain (every s in the simplex, every
a and γ — so every p and q) by exact algebra (``kit.key_lemma.proven_on_domain``): sympy expands the printed left
side minus the identity to 0 for the data's T, and weighted averages bound the ratio by (2/factor)(1 − s₁)^{2−power},
attained at a = (1, −1, …, −1), γ = (1, 0, …, 0): the supremum is 2/factor (power ≤ 2), so the statement holds
exactly when factor ≥ 2 — a wrong constant is refuted with an exact witness. A region certificate could not decide
it: the bound is attained on a whole family (g ≡ 0 there), where interval enclosures never settle a sign.
Informative: the identity's relative deviation, the smallest 1 − s₁. False cases (tests): constant 1 for 2 (attained with equality at T = 2,
symmetric keys, and on ``skewed_pair``, where no seeded q comes near the worst one) or power 3 → VIOLATED;
a tied optimal token → NOT_APPLICABLE.
"""
from __future__ import annotations

from verify.claims import Claim, Figure, Outcome, Series, corroborating, register
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.data.generators import random_dataset
from verify.kit.identity_certificates import identity_certificates
from verify.kit.key_lemma import domain_proof, key_lemma_scan, unique_reference
from verify.models.attention import features
from verify.numbers.precision import Precision


def evaluate(data, prec: Precision, factor=2, power=2, q_count: int = 3, hardest_q: bool = True) -> Outcome:
    """The Key Lemma with constant ``factor`` and exponent ``power`` on ``data``'s sequences; ``hardest_q=False``
    probes the seeded q's only (the coverage before the hardest case: tests)."""
    opts = data.optimal_tokens()
    out = Outcome(hypotheses=[unique_reference(opts, "reference token (optimal token) unique in every sequence")])
    if not out.applicable():
        return out
    scan = key_lemma_scan(features(data, "p"), data.scores, opts, factor, power, q_count, hardest_q=hardest_q)
    sat = scan.saturation
    out.add(*corroborating(scan.evidence()))  # probes of what the exact proof below covers
    out.add(*domain_proof(data.T, factor, power))  # the whole domain, by exact algebra
    identity_certificates(out, claim="mmts.lemma3", data=data, identities=[("key-lemma", 0)],
                          statement="the Key Lemma's identity, for every s in the simplex and all a, γ (exact proof)")
    for text in scan.covered[1:]:  # the seeded-only logit directions (hardest off); every p is proven below
        out.cover(text)
    out.notes.append(f"probe points: {scan.covered[0]} (every p is covered by the exact proof on the whole domain)")
    if sat:
        out.figures.append(Figure(
            "ratio", "Key Lemma: |LHS| / RHS against 1 − s₁", "log10(1 − s₁)", "|LHS| / (2ΓA(1−s₁)²)",
            [Series("probe points", [x for x, _ in sat], [y for _, y in sat], "o")],
            hlines=[(1.0, "bound")], caption="Ratios stay below 1 down to saturation."))
    return out


def skewed_pair():
    """n = 1, T = 2, keys (1, 0), (1, 1/100), scores (1, 99/100): the ratio is |a₁ − a₂|/(factor·max|a_t|) at every
    p, sup 2/factor at a = Kq = (1, −1) (q = (1, −200)), while a seeded q has |a₁ − a₂| ≈ |q₂|/100 ≪ max|a_t|."""
    from verify.data.dataset import Dataset

    return Dataset.make(X=[[[1, 0], [1, "1/100"]]], Y=[1], v=[1, -1], name="skewed-pair")


def default_datasets(seed: int = 0):
    return [D.mmts_fig1b(), D.mmts_fig1c(), random_dataset(n=3, T=5, d=3, seed=seed, name=f"random-n3T5d3-s{seed}")]


STATEMENT = """\
For one sequence with reference token 1, logits a = Kq, attention s = S(Kp), scores γ, Γ = max|γ_t − γ_τ|, A =
max|a_t|:

|aᵀdiag(s)γ − aᵀssᵀγ − Σ_{t≥2}(a₁−a_t)s_t(γ₁−γ_t)| ≤ 2ΓA(1−s₁)²  (App. A.1, (16)).

Checked with token 1 = the optimal token of each sequence, at every probe point: adversarial p (up to
saturation) and, for q, the hardest case — every vertex of {‖Kq‖∞ ≤ 1}, where the supremum over q sits.
"""

CLAIM = register(Claim(id="mmts.lemma3", paper="mmts", number="Lemma 3", kind="inequality",
                       title="Key Lemma: covariance decomposition", statement=STATEMENT, check=evaluate,
                       default_datasets=default_datasets, aliases=("key-lemma", "covariance-decomposition"),
                       parameters=(
                           Parameter("p", "every p (attention s = S(Kp))", "hardest",
                                     "proven for every s in the simplex (which holds every S(Kp)) and every a, γ by "
                                     "exact algebra: the sympy identity and weighted averages give the supremum "
                                     "2/factor, attained (kit.key_lemma.proven_on_domain); also probe points per "
                                     "sequence, 4 seeded directions and ± its key differences at ‖p‖∞ ∈ {0, …, 1000}"),
                           Parameter("q", "any direction q (logits a = Kq)", "hardest",
                                     "every vertex of {a = Kq : ‖a‖∞ ≤ 1}, enumerated exactly per sequence (the "
                                     "ratio is scale-free and convex in a there, so its supremum over q is at a "
                                     "vertex), beside 3 seeded q"))))
