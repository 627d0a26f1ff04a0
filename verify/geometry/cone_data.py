"""Seeded datasets with a non-global locally-optimal max-margin direction (an LMM, mmts Definition 2),
for the cone claims (mmts Lemma 7, Theorem 3 and its Step 3). Deterministic: seed k tries the
``verify.data.generators.random_dataset``s with seeds 1000k, 1000k + 1, … in turn.
"""
from __future__ import annotations

import math
from fractions import Fraction

from verify.geometry.cones import choose_alpha, first_order_witness, locally_optimal_geometries, mu0, radius_scale
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import working_precision

#: the radius ladder of the first-order invariance scan (in units of σ ≈ ‖p^mm‖), shared by the
#: Theorem 3 claims and the selection of ``benign_random_lmm``
INVARIANCE_LADDER = tuple(Fraction(x) for x in ("1", "2", "5", "10", "20", "50", "100", "200", "400", "1000",
                                                "2000", "5000", "1e4", "1e5", "1e6", "1e7", "1e8"))


def random_lmm_candidates(n=2, T=3, d=2, seed=0, min_mu0="1/1000", max_norm=10, tries=400,
                          need_higher=True, scale="1"):
    """Yield (dataset, geometry, seed) for the seeded ``random_dataset``s that have a non-global LMM
    with μ₀ ≥ ``min_mu0``, ‖p^mm‖ ≤ ``max_norm``·(1/scale) and (if ``need_higher``) a non-neighbour
    whose score exceeds γ_α (so that the cone width matters). The geometry is the widest-μ₀
    non-global LMM (as ``choose_alpha`` picks it)."""
    from verify.data.generators import random_dataset

    lo = Fraction(min_mu0)
    for k in range(tries):
        s = seed * 1000 + k
        data = random_dataset(n=n, T=T, d=d, seed=s, scale=scale)
        if any(len(o) > 1 for o in data.optimal_tokens()):
            continue
        lmms = locally_optimal_geometries(data)
        if not lmms:
            continue
        good = [g for g in lmms if not g.is_gmm and mu0(g) >= lo and g.norm_sq <= (max_norm / Fraction(scale)) ** 2
                and (not need_higher or any(g.scores[j][tau] > g.scores[j][g.alpha[j]]
                                            for (j, tau) in g.non_neighbour_pairs()))]
        if good:
            yield data, max(good, key=lambda g: (mu0(g), tuple(-a for a in g.alpha))), s


def random_dataset_with_lmm(n=2, T=3, d=2, seed=0, min_mu0="1/1000", max_norm=10, tries=400,
                            need_higher=True, name=None, scale="1"):
    """The first dataset of ``random_lmm_candidates`` (see there), named after its seed."""
    for data, _, s in random_lmm_candidates(n, T, d, seed, min_mu0, max_norm, tries, need_higher, scale):
        sc = Fraction(scale)
        suffix = "" if sc == 1 else f"-scale{sc.numerator}_{sc.denominator}"
        return data.with_name(name or f"random-lmm-n{n}T{T}d{d}-s{s}{suffix}")
    raise RuntimeError(f"no random dataset with a non-global LMM found from seed {seed}")


_BENIGN: dict = {}


def benign_random_lmm(seed: int = 0, n: int = 2, T: int = 3, d: int = 2, max_cond=Fraction(5, 2), max_R=30):
    """A seeded random dataset with a non-global LMM that a trajectory check can afford: condition
    ‖p^mm‖·max‖k_α − k_t‖ ≤ ``max_cond`` and the tokens rescaled (exactly, by a small rational c) so
    that max‖k_α − k_t‖² ≈ 5/2 (the scale of the paper's Figure 1 data; the paper's normalised-GD
    step h = 1/10 is stable there); the first-order invariance witness for μ = μ₀/2 (automatic α)
    must be ≤ ``max_R``·σ. Deterministic (cached)."""
    from verify.data.generators import random_dataset

    key = (seed, n, T, d, max_cond, max_R)
    if key in _BENIGN:
        return _BENIGN[key]
    for _, g, s in random_lmm_candidates(n, T, d, seed):
        a2 = max(sum(x * x for x in row) for row in g.rows.values())
        if a2 * g.norm_sq > max_cond ** 2:
            continue
        c = Fraction(math.sqrt(2.5 / float(a2))).limit_denominator(20)
        data = random_dataset(n=n, T=T, d=d, seed=s, scale=c)
        with working_precision(30):
            gs, _ = choose_alpha(data)
            if gs is None or not gs.locally_optimal:
                continue
            sigma = radius_scale(gs.norm_sq)
            model = LinearLogitModel.from_dataset(data, "p", "logistic")
            R, _, _ = first_order_witness(model, gs, mu0(gs) / 2, [sigma * x for x in INVARIANCE_LADDER])
            if R is None or R > max_R * sigma:
                continue
        res = data.with_name(f"random-lmm-n{n}T{T}d{d}-s{s}-scale{c.numerator}_{c.denominator}")
        _BENIGN[key] = res
        return res
    raise RuntimeError(f"no well-conditioned random dataset with a non-global LMM from seed {seed}")
