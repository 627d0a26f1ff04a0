"""tfsvm Lemma 7 — first-order covariance approximation, the Key Lemma in W form (v1 App. A.4).

Statement. For one sequence X with query z, logits a = XVz (any V ∈ ℝ^{d×d}), attention s = S(XWz), scores
γ = Y·Xv, Γ := max_{t,τ}|γ_t − γ_τ|, A := max_t|a_t|, and reference token 1:

    | aᵀdiag(s)γ − aᵀssᵀγ − Σ_{t≥2} (a₁ − a_t) s_t (γ₁ − γ_t) |  ≤  2ΓA(1 − s₁)².

Identity behind it (DERIVED here): the left side without |·| is −(Σ_{t≥2} s_t(a₁ − a_t))(Σ_{t≥2} s_t(γ₁ − γ_t));
the bound is attained for T = 2, a = (A, −A), γ = (Γ, 0) up to a shift. Token 1 is taken to be the optimal
token of each sequence (v1 applies the lemma with it), so the hypothesis is a unique optimal token.
Hypothesis: a unique optimal token in every sequence (exact on the rational scores).
How it is checked. Each sequence on its own (cost linear in n): W over 4 seeded directions and ± the sequence's
own feature differences (x_it − x_i1)⊗z_i at ‖W‖∞ ∈ {0, 1/4, …, 1000} (1 − s₁ down to e^{−1000}), V over 3
seeded directions; with exact differences a₁ − a_t, γ₁ − γ_t, 1 − s₁ = Σ_{t≥2}s_t and the cancellation-free
LHS = −(1 − s₁)Σ s_t(a₁−a_t)(γ₁−γ_t) + Σ_{1<t<u} s_t s_u(a_t − a_u)(γ_t − γ_u). Deciding, each a Tally over
every probe point: |LHS|/(2ΓA(1 − s₁)²) ≤ 1 (ΓA = 0 exactly: LHS must be exactly 0); the enclosures of LHS and
of the identity's value overlap. Informative: the identity's relative deviation, the smallest 1 − s₁.
False cases (tests): constant 1 for 2 → VIOLATED on the one-token tight case (x = (1, −1), z = v = 1, where
|LHS| = 2ΓA(1 − s₁)² exactly); a tied optimal token → NOT_APPLICABLE.
"""
from __future__ import annotations

from flint import arb

from verify.claims import Claim, Evidence, Hypothesis, Outcome, register, steps
from verify.data import tfsvm as D
from verify.data.generators import random_dataset
from verify.geometry.probes import SCALES, directions, scaled
from verify.geometry.tfsvm import key_lemma_terms
from verify.kit.probes import ProbeInequality
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import Precision, to_arb


def evaluate(data, prec: Precision, factor=2, power=2, v_count: int = 3) -> Outcome:
    """Lemma 7 with constant ``factor`` and exponent ``power`` on every sequence of ``data``."""
    opts = data.optimal_tokens()
    out = Outcome(hypotheses=[Hypothesis("reference token 1 = the optimal token, unique in every sequence",
                                         all(len(o) == 1 for o in opts),
                                         "opt = " + ", ".join("{" + ",".join(map(str, o)) + "}" for o in opts))])
    if not out.applicable():
        return out
    feats = features(data, "W")
    Vs = directions(feats, count=v_count, seed=1)[:v_count]
    ratio = ProbeInequality(f"max |LHS| / ({factor}·Γ·A·(1−s₁)^{power}) over probe points", "<=", 1)
    overlap = ProbeInequality("LHS and −(Σs_t(a₁−a_t))(Σs_t(γ₁−γ_t)) overlap (the identity; disjoint would refute it)",
                              "==", True)
    seq_dirs = [directions([Fi], count=4, seed=0) for Fi in feats]
    work = steps(sum(map(len, seq_dirs)) * len(SCALES), "probe points")
    deviation, min_off = arb(0), None
    for i, (Fi, g, dirs) in enumerate(zip(feats, data.scores, seq_dirs)):
        ref = opts[i][0]
        model = LinearLogitModel([Fi], [g])
        terms = []  # exact per V: a₁ − a_t, γ₁ − γ_t and factor·Γ·A
        for V in Vs:
            a = [sum((x * y for x, y in zip(row, V)), 0) for row in Fi]
            terms.append(([to_arb(a[ref] - x) for x in a], [to_arb(g[ref] - x) for x in g],
                          to_arb(factor * (max(g) - min(g)) * max(abs(x) for x in a))))
        for k, dvec in enumerate(dirs):
            for sc in SCALES:
                s = model.states([to_arb(x) for x in scaled(dvec, sc)])[0].s
                for j, (da, dg, const) in enumerate(terms):
                    lhs, ident, off, magnitude = key_lemma_terms(da, dg, s, ref)
                    where = f"sequence {i}, W-direction {k}, ‖W‖∞ = {sc}, V {j}"
                    ratio.add_ratio(abs(lhs), const * off ** power, where)
                    overlap.add(bool(lhs.overlaps(ident)), where)
                    rel = abs(lhs - ident) / magnitude if magnitude > 0 else abs(lhs - ident)
                    deviation = max(deviation, arb(rel.upper()))
                    min_off = off if min_off is None or off.mid() < min_off.mid() else min_off
                work.advance()
    out.add(ratio.evidence(), overlap.evidence(),
            Evidence("max deviation of LHS from the identity, relative to (Σs_t|a₁−a_t|)(Σs_t|γ₁−γ_t|)", deviation,
                     residual=True, note="upper end of the enclosure; reported only — the overlap tally decides"),
            Evidence("smallest 1 − s₁ reached (saturation)", min_off))
    return out


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.d_lmm(), D.d_nb(),
            random_dataset(n=3, T=4, d=2, seed=seed, queries=True, name=f"random-n3T4d2-z-s{seed}")]


STATEMENT = """\
For one sequence, a = XVz, s = S(XWz), γ = Y·Xv, Γ = max|γ_t − γ_τ|, A = max|a_t|, token 1 the optimal token:
|aᵀdiag(s)γ − aᵀssᵀγ − Σ_{t≥2}(a₁ − a_t)s_t(γ₁ − γ_t)| ≤ 2ΓA(1 − s₁)² (v1 App. A.4, Lemma 7).

Checked at every probe point of every sequence (W up to saturation, several V), with the DERIVED identity
LHS = −(Σ s_t(a₁−a_t))(Σ s_t(γ₁−γ_t)) confirmed by overlapping enclosures.
"""

CLAIM = register(Claim(id="tfsvm.lemma7", paper="tfsvm", number="Lemma 7", kind="inequality",
                       title="Covariance ≈ first-order term: error ≤ 2ΓA(1 − s₁)² (Key Lemma, W form)",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("covariance-approx",)))
