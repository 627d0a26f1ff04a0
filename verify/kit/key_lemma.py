"""Claim-kit piece: the covariance Key Lemma at probe points (mmts Lemma 3 for p, tfsvm Lemma 7 for W).

For one sequence with features F (keys for p; x_t ⊗ z for W), logits a = F q along a direction q,
attention s = S(F θ), scores γ, Γ = max|γ_t − γ_τ|, A = max|a_t| and reference token r (the optimal one):

    |aᵀdiag(s)γ − aᵀssᵀγ − Σ_{t≠r}(a_r − a_t)s_t(γ_r − γ_t)|  ≤  factor·Γ·A·(1 − s_r)^power.

The left side is computed cancellation-free (``key_lemma_terms``); the DERIVED identity LHS =
−(Σ s_t(a_r−a_t))(Σ s_t(γ_r−γ_t)) is confirmed by overlapping enclosures. Each sequence is probed on
its own directions (seeded ones and ± its own feature differences) at every scale of SCALES, so the
cost is linear in n; progress is reported per probe point.

"Any direction q" is covered by the hardest case (docs/parameters.md): at a fixed probe point the left side over
the bound is |Σ_{t≠r} s_t(a_r − a_t)| / max_t|a_t| times a q-free factor; it is unchanged by scaling a = Fq, so
its supremum over q is that of the convex |Σ_{t≠r} s_t(a_r − a_t)| over the polytope {a ∈ range(F) : ‖a‖∞ ≤ 1},
attained at a vertex.
``logit_vertices`` enumerates the vertices exactly (rationals, once per sequence) and every one is probed beside
the seeded q's: the supremum over q is checked at every probe point, not a sample of it. At a vertex the bound
can be attained (T = 2, a = (A, −A)): the ratio is then 1 exactly and its ball straddles 1. Such a point is
decided by the exact structure (``tie_bound``), where the enclosures of LHS and of the identity overlap:
|Σ s_t(a_r − a_t)| ≤ M_a(1 − s_r) and |Σ s_t(γ_r − γ_t)| ≤ M_γ(1 − s_r) (weighted averages, M the largest
|difference|), so |LHS|/(factor·Γ·A·(1 − s_r)²) ≤ M_a·M_γ/(factor·Γ·A), an exact rational (1 at the tie).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from flint import arb

from verify.claims import Evidence, Hypothesis, compare, steps
from verify.geometry.probes import SCALES, directions, scaled
from verify.kit.probe_inequality import ProbeInequality
from verify.models.attention import LinearLogitModel
from verify.numbers.exact import fmpq_matrix, to_fraction
from verify.numbers.identities import expand_sympy
from verify.numbers.precision import log10_abs, to_arb


def logit_vertices(F) -> list[tuple]:
    """The vertices a of {a = Fq : ‖a‖∞ ≤ 1} (F: one row per token), one of each pair ±a, exact Fractions in a
    fixed order: a basis M (T × r) of range(F), then for every r tokens S with M_S invertible and every sign
    vector σ, a = M M_S⁻¹σ when ‖a‖∞ ≤ 1 (a vertex has r independent active constraints a_t = ±1)."""
    T = len(F)
    if T == 0 or not any(any(row) for row in F):
        return []
    R, r = fmpq_matrix([list(col) for col in zip(*F)]).rref()  # rows of R: a basis of range(F)ᵀ
    M = [[to_fraction(R[j, t]) for j in range(r)] for t in range(T)]
    out, seen = [], set()
    for S in itertools.combinations(range(T), r):
        MS = fmpq_matrix([M[t] for t in S])
        if MS.rank() < r:
            continue
        inv = MS.inv()
        for sigma in itertools.product((1, -1), repeat=r):
            y = [sum((to_fraction(inv[j, k]) * sigma[k] for k in range(r)), Fraction(0)) for j in range(r)]
            a = tuple(sum((M[t][j] * y[j] for j in range(r)), Fraction(0)) for t in range(T))
            if max(abs(x) for x in a) > 1:
                continue
            lead = next(x for x in a if x)  # ±a give the same ratio: keep the one whose first entry is > 0
            a = a if lead > 0 else tuple(-x for x in a)
            if a not in seen:
                seen.add(a)
                out.append(a)
    return out


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

SEEDED_DIRECTIONS = 4  # seeded random probe directions per sequence (beside ± its feature differences)


@dataclass
class KeyLemmaScan:
    ratio: ProbeInequality  # |LHS| / (factor·Γ·A·(1−s_r)^power) ≤ 1 at every point
    overlap: ProbeInequality  # LHS and the identity overlap at every point
    deviation: arb = field(default_factory=lambda: arb(0))  # max relative deviation from the identity (upper end)
    min_off: arb | None = None  # the smallest 1 − s_r reached
    saturation: list = field(default_factory=list)  # (log10(1 − s_r), ratio) along the first direction and q
    covered: list = field(default_factory=list)  # what the "for every" parameters were covered at (``Outcome.cover``)
    ties: int = 0  # points where the ball straddled the bound and the exact structure decided (``tie_bound``)

    def evidence(self) -> list:
        """The two deciding tallies, then the identity's deviation and the saturation reached (informative)."""
        tie = (f"{self.ties} point(s) where the bound is attained (the ball straddles it) decided by the exact "
               "structure M_a·M_γ/(factor·Γ·A), the enclosures of LHS and of the identity overlapping there"
               if self.ties else "")
        return [self.ratio.evidence(tie), self.overlap.evidence(),
                Evidence("max deviation of LHS from −(Σs_t(a₁−a_t))(Σs_t(γ₁−γ_t)), relative to "
                         "(Σs_t|a₁−a_t|)(Σs_t|γ₁−γ_t|)", self.deviation, residual=True,
                         note="upper end of the enclosure; reported only — the overlap tally decides"),
                Evidence("smallest 1 − s₁ reached (saturation)", self.min_off)]


def tie_bound(a, g, ref: int, factor, power) -> Fraction | None:
    """M_a·M_γ/(factor·Γ·A) from the exact logits a and scores g (M: the largest |difference| to the reference
    token): the exact upper bound of the ratio through the identity, for power 2 (None otherwise or if Γ·A = 0)."""
    scale = factor * (max(g) - min(g)) * max(abs(x) for x in a)
    if power != 2 or scale == 0:
        return None
    m_a = max(abs(a[ref] - x) for x in a)
    m_g = max(abs(g[ref] - x) for x in g)
    return Fraction(m_a) * Fraction(m_g) / Fraction(scale)


def unique_reference(opts, name: str) -> Hypothesis:
    """The Key Lemma's hypothesis: the reference (optimal) token is unique in every sequence (exact)."""
    return Hypothesis(name, all(len(o) == 1 for o in opts),
                      "opt = " + ", ".join("{" + ",".join(map(str, o)) + "}" for o in opts))


def key_lemma_scan(feats, scores, opts, factor=2, power=2, q_count: int = 3,
                   names=("direction", "‖p‖∞", "q"), hardest_q: bool = True) -> KeyLemmaScan:
    """The Key Lemma at every probe point of every sequence; ``names`` label the points (direction,
    scale, logit direction). ``hardest_q``: also every vertex of the sequence's logit polytope
    (``logit_vertices``: where the supremum over q sits); False probes the seeded q's only."""
    direction, scale, qname = names
    qs = directions(feats, count=q_count, seed=1)[:q_count]
    scan = KeyLemmaScan(
        ProbeInequality(f"max |LHS| / ({factor}·Γ·A·(1−s₁)^{power}) over probe points", "<=", 1),
        ProbeInequality("LHS and −(Σs_t(a₁−a_t))(Σs_t(γ₁−γ_t)) overlap (the identity; disjoint would refute it)",
                        "==", True))
    seq_dirs = [directions([Fi], count=SEEDED_DIRECTIONS, seed=0) for Fi in feats]
    work = steps(sum(map(len, seq_dirs)) * len(SCALES), "probe points")
    for i, (Fi, g, dirs) in enumerate(zip(feats, scores, seq_dirs)):
        ref = opts[i][0]
        model = LinearLogitModel([Fi], [g])
        exact = []  # per q: a_r − a_t, γ_r − γ_t, factor·Γ·A (exact) and its label
        logits = [(f"{qname} {j}", [sum((x * y for x, y in zip(row, q)), 0) for row in Fi]) for j, q in enumerate(qs)]
        if hardest_q:
            logits += [(f"{qname}: vertex {j} of {{‖{_logits(qname)}‖∞ ≤ 1}}", list(a))
                       for j, a in enumerate(logit_vertices(Fi))]
        for label, a in logits:
            exact.append(([to_arb(a[ref] - x) for x in a], [to_arb(g[ref] - x) for x in g],
                          to_arb(factor * (max(g) - min(g)) * max(abs(x) for x in a)), label,
                          tie_bound(a, g, ref, factor, power)))
        for k, dvec in enumerate(dirs):
            for sc in SCALES:
                s = model.states([to_arb(x) for x in scaled(dvec, sc)])[0].s
                for j, (da, dg, const, label, tie) in enumerate(exact):
                    lhs, ident, off, magnitude = key_lemma_terms(da, dg, s, ref)
                    where = f"sequence {i}, {direction} {k}, {scale} = {sc}, {label}"
                    den = const * off ** power
                    if tie is not None and den > 0 and lhs.overlaps(ident) and \
                            compare(abs(lhs) / den, "<=", 1)[0] is None:  # the bound attained: exact structure
                        scan.ratio.add(tie, where + " (tie, exact structure)")
                        scan.ties += 1
                    else:
                        scan.ratio.add_ratio(abs(lhs), den, where)
                    scan.overlap.add(bool(lhs.overlaps(ident)), where)
                    rel = abs(lhs - ident) / magnitude if magnitude > 0 else abs(lhs - ident)
                    scan.deviation = max(scan.deviation, arb(rel.upper()))
                    if scan.min_off is None or off.mid() < scan.min_off.mid():
                        scan.min_off = off
                    if k == 0 and j == 0 and const != 0:  # log10 at the working precision: e^{-1000} is fine
                        scan.saturation.append((log10_abs(off), float((abs(lhs) / (const * off ** power)).mid())))
                work.advance()
    scan.covered.append(f"{scale.strip('‖∞')} along {SEEDED_DIRECTIONS} seeded directions and ± each sequence's "
                        f"{'key' if qname == 'q' else 'feature'} differences, {scale} ∈ {{{', '.join(SCALES)}}}")
    if not hardest_q:
        scan.covered.append(f"{qname} ∈ {len(qs)} seeded directions")
    return scan


def _logits(qname: str) -> str:
    return "Kq" if qname == "q" else f"X{qname}z"


# ----- the Key Lemma proven on its whole domain (exact algebra) ----------------------------------------------
@lru_cache(maxsize=None)
def identity_holds(T: int) -> bool:
    """sympy: the printed left side of (16), aᵀdiag(s)γ − aᵀssᵀγ − Σ_{t≥2}(a₁−a_t)s_t(γ₁−γ_t), minus
    −(Σ_{t≥2}s_t(a₁−a_t))(Σ_{t≥2}s_t(γ₁−γ_t)), expands to 0 as a polynomial in s, a, γ — using Σ_t s_t = 1 (s₁ is
    replaced by 1 − Σ_{t≥2}s_t). Exact: True means the identity holds for every s in the simplex and all a, γ. The
    polynomial is defined once in ``verify.numbers.identities`` ("key-lemma"), whose certificate FLINT re-expands."""
    return expand_sympy("key-lemma", T)


def proven_on_domain(T: int, factor=2, power=2, symbol: str = "a") -> list:
    """The Key Lemma for T tokens on its whole domain — every s in the open simplex, every a (= Kq or XVz) and γ in
    ℝ^T — by exact algebra, as two deciding items (decided exactly, no probe point):

    1. the identity (``identity_holds``, sympy);
    2. sup |LHS|/(factor·Γ·A·(1−s₁)^power) ≤ 1. Through the identity and weighted averages,
       |LHS| = |Σ_{t≥2}s_t(a₁−a_t)|·|Σ_{t≥2}s_t(γ₁−γ_t)| ≤ (1−s₁)max_t|a₁−a_t|·(1−s₁)max_t|γ₁−γ_t| ≤ 2A·Γ(1−s₁)²,
       so for power ≤ 2 the ratio is at most (2/factor)(1−s₁)^{2−power} ≤ 2/factor; at a = (1, −1, …, −1),
       γ = (1, 0, …, 0) (A = Γ = 1) every inequality is an equality: |LHS| = 2(1−s₁)² for every s, so the ratio
       there is (2/factor)(1−s₁)^{2−power}, exactly, and the supremum is 2/factor (power ≤ 2; reached as s₁ → 0
       when power < 2) or unbounded (power > 2, as s₁ → 1). The item's value is the exact ratio at the attaining
       point with 1 − s₁ = x: x = 1 − 1/2^k chosen largest (power ≤ 2) or x = 2^-k smallest needed (power > 2),
       so a failure comes with an exact witness."""
    factor, power = Fraction(factor), int(power)
    ident = identity_holds(T)
    items = [Evidence(f"identity: LHS of (16) ≡ −(Σ_t≥2 s_t({symbol}₁−{symbol}_t))(Σ_t≥2 s_t(γ₁−γ_t)) for T = {T} "
                      "(sympy, exact polynomial algebra)", ident, "==", True,
                      note="every s in the simplex (s₁ = 1 − Σ_t≥2 s_t) and all a, γ")]
    a = [Fraction(1)] + [Fraction(-1)] * (T - 1)
    g = [Fraction(1)] + [Fraction(0)] * (T - 1)

    def ratio_at(x: Fraction) -> Fraction:  # the printed LHS at s = (1 − x, x/(T−1), …), exactly
        S = [1 - x] + [x / (T - 1)] * (T - 1)
        lhs = (sum(a[t] * S[t] * g[t] for t in range(T)) - sum(a[t] * S[t] for t in range(T)) * sum(S[t] * g[t] for t in range(T))
               - sum((a[0] - a[t]) * S[t] * (g[0] - g[t]) for t in range(1, T)))
        return abs(lhs) / (factor * (max(g) - min(g)) * max(abs(v) for v in a) * x ** power)

    def witness(x: Fraction, step) -> tuple:  # the first x of the sequence x, step(x), … where the ratio exceeds 1
        for _ in range(4000):
            if ratio_at(x) > 1:
                return x, ratio_at(x)
            x = step(x)
        return x, ratio_at(x)

    if power <= 2 and ident and 2 / factor <= 1:
        value = 2 / factor  # the supremum through the identity; attained (power 2) or approached (power < 2)
        note = (f"proof: the identity and weighted averages bound the ratio by (2/factor)(1−s₁)^(2−power) ≤ "
                f"{value}; at {symbol} = (1, −1, …, −1), γ = (1, 0, …, 0), s₁ = 1/2 it is {ratio_at(Fraction(1, 2))} "
                "(exact): the bound is the supremum")
    else:  # an exact witness: the attaining family with 1 − s₁ → 1 (power ≤ 2) or → 0 (power > 2)
        if power <= 2:
            x, value = witness(Fraction(1, 2), lambda x: (1 + x) / 2)
        else:
            x, value = witness(Fraction(1, 2), lambda x: x / 2)
        note = (f"witness: {symbol} = (1, −1, …, −1), γ = (1, 0, …, 0), s = (1 − x, x/(T−1), …), x = {x}: the ratio "
                f"is {value} (exact)")
    items.append(Evidence(f"sup of |LHS| / ({factor}·Γ·A·(1−s₁)^{power}) over the whole domain (every s in the "
                          f"simplex, every {symbol}, γ; proven by exact algebra)", value, "<=", 1, note=note))
    return items


def domain_proof(T: int, factor=2, power=2, symbol: str = "a") -> list:
    """``proven_on_domain``'s items, each naming the domain it decides (``Evidence.proves``: their level is proven;
    a claim whose probes sit beside them marks those corroborating)."""
    items = proven_on_domain(T, factor, power, symbol)
    for item in items:
        item.proves = f"every s in the open simplex, all {symbol}, γ"
    return items
