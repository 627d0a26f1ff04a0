"""Claim-kit pieces for tfsvm Theorem 6 (global convergence from a good first GD step): Assumption C
decided on the data, the first step from W = 0, and seeded datasets meeting C.

Assumption C (v1 §4.2): (x_it − x_{i,opt})ᵀ ∇L(0) z_i > 0 for all t ≠ opt_i and i — the first GD step
from 0, W(1) = −η(0)∇L(0), separates every optimal token. Closed form (DERIVED: at W = 0 every softmax
is uniform, s_it = 1/T and φ_i = γ̄_i = mean_t γ_it, so Σ_t s_it(γ_it − φ_i) x_it z_iᵀ is exact):

    ∇L(0) = (1/(nT)) Σ_i ℓ'(γ̄_i) Σ_t (γ_it − γ̄_i) x_it z_iᵀ.

Sequences with equal γ̄ share the transcendental factor ℓ'(γ̄), so each margin is a sum over the distinct
means g of ℓ'(g)·A_g with exact rational A_g (``verify.geometry.stationarity.exact_gradient_at_zero``):
a margin whose A_g all vanish is exactly 0 (C fails, decided exactly); otherwise its sign is decided by
arb balls of ℓ'(g) (certified, ℓ' < 0 by Assumption A).
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Hypothesis
from verify.data.dataset import Dataset
from verify.data.generators import random_dataset
from verify.geometry.stationarity import exact_gradient_at_zero, gmm
from verify.models.attention import features
from verify.models.losses import get_loss
from verify.numbers.precision import to_arb

ASSUMPTION_C = "Assumption C: (x_it − x_(i,opt))ᵀ ∇L(0) z_i > 0 for all t ≠ opt_i (first GD step separates)"


def gradient_at_zero(data: Dataset, loss: str = "logistic") -> list[arb]:
    """vec ∇L(0) (row-major, arb balls) from the closed form: (1/n) Σ_g ℓ'(g)·V_g, V_g the exact sum over
    the sequences with mean score g of (1/T) Σ_t (γ_it − g) x_it z_iᵀ."""
    ell = get_loss(loss)
    _, groups = exact_gradient_at_zero(data, "W")
    D = data.d ** 2
    out = [arb(0)] * D
    for g, vec in groups.items():
        lp = ell.d1(to_arb(g))
        out = [o + lp * to_arb(v) for o, v in zip(out, vec)]
    return [o / data.n for o in out]


def c_margins(data: Dataset, loss: str = "logistic") -> list[tuple[int, int, object]]:
    """[(i, t, margin)] for every t ≠ opt_i: (x_it − x_{i,opt})ᵀ∇L(0) z_i, an exact 0 when every
    ℓ'-group's coefficient vanishes, else an arb ball (each group's coefficient exact)."""
    ell = get_loss(loss)
    feats = features(data, "W")
    _, groups = exact_gradient_at_zero(data, "W")
    lps = {g: ell.d1(to_arb(g)) for g in groups}
    out = []
    for i, (Fi, o) in enumerate(zip(feats, data.optimal_tokens())):
        o = o[0]
        for t in range(data.T):
            if t == o:
                continue
            diff = [a - b for a, b in zip(Fi[t], Fi[o])]
            coeffs = {g: sum((a * b for a, b in zip(diff, vec)), Fraction(0)) for g, vec in groups.items()}
            if not any(coeffs.values()):
                out.append((i, t, Fraction(0)))
            else:
                out.append((i, t, sum((lps[g] * to_arb(c) for g, c in coeffs.items() if c), arb(0)) / data.n))
    return out


def assumption_c(data: Dataset, loss: str = "logistic") -> Hypothesis:
    """Assumption C decided on the data: met when every margin is certainly > 0, not met when one is
    certainly ≤ 0 (named), undecided otherwise. Needs unique optimal tokens."""
    if not all(len(o) == 1 for o in data.optimal_tokens()):
        return Hypothesis(ASSUMPTION_C, False, "opt not unique")
    ms = c_margins(data, loss)
    bad = [(i, t, m) for i, t, m in ms if m <= 0]  # exact 0, or a ball certainly ≤ 0
    unsure = [(i, t, m) for i, t, m in ms if isinstance(m, arb) and not m > 0 and not m <= 0]
    worst = min(ms, key=lambda x: (to_arb(x[2]) if isinstance(x[2], Fraction) else x[2]).mid())  # exact mids: comparable
    detail = (f"smallest margin {_show(worst[2])} at sequence {worst[0]}, token {worst[1]} "
              f"(0-indexed; {len(ms)} margins, ∇L(0) in closed form, ℓ'(γ̄_i) in arb balls)")
    if bad:
        return Hypothesis(ASSUMPTION_C, False, f"{len(bad)} margin(s) ≤ 0; " + detail)
    if unsure:
        return Hypothesis(ASSUMPTION_C, None, f"{len(unsure)} margin(s) undecided; " + detail)
    return Hypothesis(ASSUMPTION_C, True, "every margin certainly > 0; " + detail)


def _show(m) -> str:
    return str(m) if isinstance(m, Fraction) else m.mid().str(6, radius=False)


def good_start_dataset(seed: int = 0, n: int = 4, T: int = 4, d: int = 3, min_gap=Fraction(1, 10),
                       tries: int = 200) -> Dataset:
    """The first seeded ``random_dataset`` (entries k/m·1/10, explicit queries, seeds ``seed``, ``seed``+1,
    …) with a unique optimal token and score gap ≥ ``min_gap`` in every sequence (v1's experiments),
    Att-SVM(opt) feasible and Assumption C certainly met — the setting of v1 Theorem 6 (the spec's
    DERIVED runs: n = T = 4, d = 3, gap ≥ 0.1)."""
    for k in range(tries):
        data = random_dataset(n=n, T=T, d=d, seed=seed + k, scale="1/10", queries=True)
        if not all(len(o) == 1 for o in data.optimal_tokens()):
            continue
        if min(sorted(g)[-1] - sorted(g)[-2] for g in data.scores) < min_gap:
            continue
        if assumption_c(data).met is True and gmm(data, "W", 30).status == "optimal":
            return data.replace(name=f"good-start-n{n}T{T}d{d}-s{seed + k}")
    raise RuntimeError(f"no dataset meeting Assumption C among seeds {seed}..{seed + tries - 1}")
