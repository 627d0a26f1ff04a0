"""Claim-kit piece: the covariance Key Lemma at probe points (mmts Lemma 3 for p, tfsvm Lemma 7 for W).

For one sequence with features F (keys for p; x_t ⊗ z for W), logits a = F q along a direction q,
attention s = S(F θ), scores γ, Γ = max|γ_t − γ_τ|, A = max|a_t| and reference token r (the optimal one):

    |aᵀdiag(s)γ − aᵀssᵀγ − Σ_{t≠r}(a_r − a_t)s_t(γ_r − γ_t)|  ≤  factor·Γ·A·(1 − s_r)^power.

The left side is computed cancellation-free (``key_lemma_terms``); the DERIVED identity LHS =
−(Σ s_t(a_r−a_t))(Σ s_t(γ_r−γ_t)) is confirmed by overlapping enclosures. Each sequence is probed on
its own directions (seeded ones and ± its own feature differences) at every scale of SCALES, so the
cost is linear in n; progress is reported per probe point.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from flint import arb

from verify.claims import Evidence, Hypothesis, steps
from verify.geometry.probes import SCALES, directions, scaled
from verify.kit.probes import ProbeInequality
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import log10_abs, to_arb


def key_lemma_terms(da, dg, s, ref: int):
    """(LHS, identity value, 1 − s_ref, magnitude) for one sequence, from the exact differences
    da_t = a_ref − a_t, dg_t = γ_ref − γ_t (balls) and the softmax s, cancellation-free:
    LHS = −(1−s_ref)Σ_{t≠ref} s_t da_t dg_t + Σ_{t<u, both ≠ ref} s_t s_u (da_u − da_t)(dg_u − dg_t),
    identity −(Σ s_t da_t)(Σ s_t dg_t), magnitude (Σ s_t|da_t|)(Σ s_t|dg_t|) (the scale of rounding errors)."""
    others = [t for t in range(len(s)) if t != ref]
    off = sum((s[t] for t in others), arb(0))  # 1 − s_ref, never formed as a difference
    first = sum((s[t] * da[t] * dg[t] for t in others), arb(0))
    pair = sum((s[t] * s[u] * (da[u] - da[t]) * (dg[u] - dg[t]) for t in others for u in others if t < u), arb(0))
    ident = -sum((s[t] * da[t] for t in others), arb(0)) * sum((s[t] * dg[t] for t in others), arb(0))
    magnitude = sum((s[t] * abs(da[t]) for t in others), arb(0)) * sum((s[t] * abs(dg[t]) for t in others), arb(0))
    return -off * first + pair, ident, off, magnitude


@dataclass
class KeyLemmaScan:
    ratio: ProbeInequality  # |LHS| / (factor·Γ·A·(1−s_r)^power) ≤ 1 at every point
    overlap: ProbeInequality  # LHS and the identity overlap at every point
    deviation: arb = field(default_factory=lambda: arb(0))  # max relative deviation from the identity (upper end)
    min_off: arb | None = None  # the smallest 1 − s_r reached
    saturation: list = field(default_factory=list)  # (log10(1 − s_r), ratio) along the first direction and q

    def evidence(self) -> list:
        """The two deciding tallies, then the identity's deviation and the saturation reached (informative)."""
        return [self.ratio.evidence(), self.overlap.evidence(),
                Evidence("max deviation of LHS from −(Σs_t(a₁−a_t))(Σs_t(γ₁−γ_t)), relative to "
                         "(Σs_t|a₁−a_t|)(Σs_t|γ₁−γ_t|)", self.deviation, residual=True,
                         note="upper end of the enclosure; reported only — the overlap tally decides"),
                Evidence("smallest 1 − s₁ reached (saturation)", self.min_off)]


def unique_reference(opts, name: str) -> Hypothesis:
    """The Key Lemma's hypothesis: the reference (optimal) token is unique in every sequence (exact)."""
    return Hypothesis(name, all(len(o) == 1 for o in opts),
                      "opt = " + ", ".join("{" + ",".join(map(str, o)) + "}" for o in opts))


def key_lemma_scan(feats, scores, opts, factor=2, power=2, q_count: int = 3,
                   names=("direction", "‖p‖∞", "q")) -> KeyLemmaScan:
    """The Key Lemma at every probe point of every sequence; ``names`` label the points (direction,
    scale, logit direction)."""
    direction, scale, qname = names
    qs = directions(feats, count=q_count, seed=1)[:q_count]
    scan = KeyLemmaScan(
        ProbeInequality(f"max |LHS| / ({factor}·Γ·A·(1−s₁)^{power}) over probe points", "<=", 1),
        ProbeInequality("LHS and −(Σs_t(a₁−a_t))(Σs_t(γ₁−γ_t)) overlap (the identity; disjoint would refute it)",
                        "==", True))
    seq_dirs = [directions([Fi], count=4, seed=0) for Fi in feats]
    work = steps(sum(map(len, seq_dirs)) * len(SCALES), "probe points")
    for i, (Fi, g, dirs) in enumerate(zip(feats, scores, seq_dirs)):
        ref = opts[i][0]
        model = LinearLogitModel([Fi], [g])
        exact = []  # per q: a_r − a_t, γ_r − γ_t and factor·Γ·A, exact
        for q in qs:
            a = [sum((x * y for x, y in zip(row, q)), 0) for row in Fi]
            exact.append(([to_arb(a[ref] - x) for x in a], [to_arb(g[ref] - x) for x in g],
                          to_arb(factor * (max(g) - min(g)) * max(abs(x) for x in a))))
        for k, dvec in enumerate(dirs):
            for sc in SCALES:
                s = model.states([to_arb(x) for x in scaled(dvec, sc)])[0].s
                for j, (da, dg, const) in enumerate(exact):
                    lhs, ident, off, magnitude = key_lemma_terms(da, dg, s, ref)
                    where = f"sequence {i}, {direction} {k}, {scale} = {sc}, {qname} {j}"
                    scan.ratio.add_ratio(abs(lhs), const * off ** power, where)
                    scan.overlap.add(bool(lhs.overlaps(ident)), where)
                    rel = abs(lhs - ident) / magnitude if magnitude > 0 else abs(lhs - ident)
                    scan.deviation = max(scan.deviation, arb(rel.upper()))
                    if scan.min_off is None or off.mid() < scan.min_off.mid():
                        scan.min_off = off
                    if k == 0 and j == 0 and const != 0:  # log10 at the working precision: e^{-1000} is fine
                        scan.saturation.append((log10_abs(off), float((abs(lhs) / (const * off ** power)).mid())))
                work.advance()
    return scan
