"""mmts Lemma 3 — the Key Lemma (covariance decomposition), App. A.1, proof (16).

Statement (one sequence, reference token 1 — here the optimal token opt_i): for logits a = K q (any
direction q), attention s = S(K p), scores γ, Γ := max_{t,τ}|γ_t − γ_τ| and A := max_t|a_t|,

    | aᵀdiag(s)γ − aᵀssᵀγ − Σ_{t≠1} (a₁ − a_t) s_t (γ₁ − γ_t) |  ≤  2 Γ A (1 − s₁)².        (16)

Identity behind it (DERIVED here): the left side without |·| is −(Σ_{t≠1} s_t(a₁−a_t))·(Σ_{t≠1} s_t(γ₁−γ_t)).
Hypothesis: the reference (optimal) token is unique in every sequence (decided exactly).

How it is checked. At every probe point (p, q) of every sequence — p over seeded directions and ± the
sequence's own key differences at ‖p‖∞ = 0 … 1000 (1 − s₁ ≈ e^{−1000}), q over 3 directions — with the engine's stable
softmax, exact differences a₁ − a_t, γ₁ − γ_t, 1 − s₁ = Σ_{t≠1} s_t and the cancellation-free form
    LHS = −(1−s₁)Σ_{t≠1} s_t(a₁−a_t)(γ₁−γ_t) + Σ_{1<t<u} s_t s_u(a_t−a_u)(γ_t−γ_u)
(E[aγ] − E[a]E[γ] loses every digit once s₁ ≈ 1). Deciding, each a Tally over all points:
|LHS|/(2ΓA(1−s₁)²) ≤ 1 (where ΓA = 0 exactly, LHS must be exactly 0), and the enclosures of LHS and of
the identity value overlap (disjoint would refute it). Informative: the identity's relative deviation,
the smallest 1 − s₁. False cases (tests): constant 1 for 2 (attained with equality at T = 2,
symmetric keys) or power 3 → VIOLATED; a tied optimal token → NOT_APPLICABLE.
"""
from __future__ import annotations

from flint import arb

from verify.claims import Claim, Evidence, Figure, Hypothesis, Outcome, Series, register, steps
from verify.data import mmts as D
from verify.data.generators import random_dataset
from verify.geometry.probes import SCALES, directions, scaled
from verify.kit.probes import ProbeInequality
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import Precision, log10_abs, to_arb


def key_lemma_terms(da, dg, s, ref: int):
    """(LHS, identity value, 1 − s_ref, magnitude) for one sequence, from the exact differences
    da_t = a_ref − a_t, dg_t = γ_ref − γ_t (as balls) and the softmax s. ``magnitude`` =
    (Σ s_t|da_t|)(Σ s_t|dg_t|) ≥ |identity|: the scale rounding errors are relative to."""
    others = [t for t in range(len(s)) if t != ref]
    off = sum((s[t] for t in others), arb(0))  # 1 − s_ref, never formed as a difference
    first = sum((s[t] * da[t] * dg[t] for t in others), arb(0))
    pair = sum((s[t] * s[u] * (da[u] - da[t]) * (dg[u] - dg[t]) for t in others for u in others if t < u), arb(0))
    ident = -sum((s[t] * da[t] for t in others), arb(0)) * sum((s[t] * dg[t] for t in others), arb(0))
    magnitude = sum((s[t] * abs(da[t]) for t in others), arb(0)) * sum((s[t] * abs(dg[t]) for t in others), arb(0))
    return -off * first + pair, ident, off, magnitude


def evaluate(data, prec: Precision, factor=2, power=2, q_count: int = 3) -> Outcome:
    """The Key Lemma with constant ``factor`` and exponent ``power`` on ``data``'s sequences."""
    opts = data.optimal_tokens()
    out = Outcome(hypotheses=[Hypothesis("reference token (optimal token) unique in every sequence",
                                         all(len(o) == 1 for o in opts),
                                         "opt = " + ", ".join("{" + ",".join(map(str, o)) + "}" for o in opts))])
    if not out.applicable():
        return out
    keys = features(data, "p")
    qs = directions(keys, count=q_count, seed=1)[:q_count]
    ratio = ProbeInequality(f"max |LHS| / ({factor}·Γ·A·(1−s₁)^{power}) over probe points", "<=", 1)
    overlap = ProbeInequality("LHS and −(Σs_t(a₁−a_t))(Σs_t(γ₁−γ_t)) overlap (the identity; disjoint would refute it)",
                              "==", True)
    # (16) is a statement about one sequence: each is probed on its own (the seeded directions and ± its
    # own key differences), so the cost is linear in n (probing every sequence along every sequence's
    # key differences cost n²: 280 s at n = 200)
    seq_dirs = [directions([Ki], count=4, seed=0) for Ki in keys]
    work = steps(sum(map(len, seq_dirs)) * len(SCALES), "probe points")
    deviation, min_off, sat = arb(0), None, []
    for i, (Ki, g, dirs) in enumerate(zip(keys, data.scores, seq_dirs)):
        ref = opts[i][0]
        model = LinearLogitModel([Ki], [g])
        terms = []  # exact per q: the differences a₁ − a_t, γ₁ − γ_t and the constant factor·Γ·A
        for q in qs:
            a = [sum((x * y for x, y in zip(row, q)), 0) for row in Ki]
            terms.append(([to_arb(a[ref] - x) for x in a], [to_arb(g[ref] - x) for x in g],
                          to_arb(factor * (max(g) - min(g)) * max(abs(x) for x in a))))
        for k, dvec in enumerate(dirs):
            for sc in SCALES:
                s = model.states([to_arb(x) for x in scaled(dvec, sc)])[0].s
                for j, (da, dg, const) in enumerate(terms):
                    lhs, ident, off, magnitude = key_lemma_terms(da, dg, s, ref)
                    where = f"sequence {i}, direction {k}, ‖p‖∞ = {sc}, q {j}"
                    ratio.add_ratio(abs(lhs), const * off ** power, where)
                    overlap.add(bool(lhs.overlaps(ident)), where)
                    rel = abs(lhs - ident) / magnitude if magnitude > 0 else abs(lhs - ident)
                    deviation = max(deviation, arb(rel.upper()))
                    min_off = off if min_off is None or off.mid() < min_off.mid() else min_off
                    if k == 0 and j == 0 and const != 0:  # log10 at the working precision: e^{-1000} is fine
                        sat.append((log10_abs(off), float((abs(lhs) / (const * off ** power)).mid())))
                work.advance()
    out.add(ratio.evidence(), overlap.evidence(),
            Evidence("max deviation of LHS from −(Σs_t(a₁−a_t))(Σs_t(γ₁−γ_t)), relative to (Σs_t|a₁−a_t|)(Σs_t|γ₁−γ_t|)",
                     deviation, residual=True, note="upper end of the enclosure; reported only — the overlap tally decides"),
            Evidence("smallest 1 − s₁ reached (saturation)", min_off))
    if sat:
        out.figures.append(Figure(
            "ratio", "Key Lemma: |LHS| / RHS against 1 − s₁", "log10(1 − s₁)", "|LHS| / (2ΓA(1−s₁)²)",
            [Series("probe points", [x for x, _ in sat], [y for _, y in sat], "o")],
            hlines=[(1.0, "bound")], caption="Ratios stay below 1 down to saturation."))
    return out


def default_datasets(seed: int = 0):
    return [D.mmts_fig1b(), D.mmts_fig1c(), random_dataset(n=3, T=5, d=3, seed=seed, name=f"random-n3T5d3-s{seed}")]


STATEMENT = """\
For one sequence with reference token 1, logits a = Kq, attention s = S(Kp), scores γ, Γ = max|γ_t − γ_τ|, A =
max|a_t|:

|aᵀdiag(s)γ − aᵀssᵀγ − Σ_{t≥2}(a₁−a_t)s_t(γ₁−γ_t)| ≤ 2ΓA(1−s₁)²  (App. A.1, (16)).

Checked with token 1 = the optimal token of each sequence, at every probe point: adversarial p (up to
saturation) and several q.
"""

CLAIM = register(Claim(id="mmts.lemma3", paper="mmts", number="Lemma 3", kind="inequality",
                       title="Key Lemma: covariance decomposition", statement=STATEMENT, check=evaluate,
                       default_datasets=default_datasets, aliases=("key-lemma", "covariance-decomposition")))
