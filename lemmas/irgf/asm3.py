"""irgf Assumption 3 — small initial loss (§3; arXiv 2403.08699 v1).

Statement. With γ_{j,nopt} the common non-optimal score of sequence j (Assumption 2),

    ℒ(θ(0)) ≤ min_{j∈[n]} b_j,   b_j := (1/n) [ e^{−γ_{j,nopt}} + Σ_{i≠j} e^{−γ_{i,opt(i)}} ].

b_j is the smallest loss of any configuration where sequence j puts all its attention on non-optimal tokens; ℒ
decreases along the flow, so such a configuration is never approached (spec §3, DERIVED). θ(0) is the paper's
initialization (5) — the start of every theorem that uses this assumption: β(0) = ξ_k(0) ⊙ ξ_q(0) = 0 (diagonal) or
W(0) = K(0)Q(0)ᵀ with U_Kᵀ W(0) U_Q = Λ_KΛ_Qᵀ = 0 (aligned, Theorem 5.1) — so attention is uniform and ℒ(θ(0)) =
(1/n) Σ_i exp(−mean_l γ_il) whatever ω₀: a statement about the data alone, parameters = ().
Hypothesis. Assumption 2 (γ_nopt is defined; exact, ``verify.kit.irgf.assumption2``) → NOT_APPLICABLE naming it.
How it is checked (ball arithmetic at the working precision: certified either way). ℒ(θ(0)) and every b_j come from
the predicate every irgf claim uses for this hypothesis (``kit.irgf.initial_loss_and_bounds`` behind
``kit.irgf.assumption3``); a Tally decides ℒ(θ(0)) − b_j ≤ 0 at every j and names the failing j. Shown: the slack
min_j b_j − ℒ(θ(0)).
Defaults: D-SEED0 (0.263597 ≤ 0.345544, spec), D-FACE (n = 1: always), D-A4. False cases (tests): D-TRAP
(ℒ(0) = 0.700711 > b₂ = 0.623298) → VIOLATED at j = 2; D-A4 with v = (1, 1, 0) (0.46226 > 0.45707) → VIOLATED;
D-A2VIOL → NOT_APPLICABLE naming Assumption 2.
"""
from __future__ import annotations

from verify.claims import Claim, Evidence, Hypothesis, Outcome, Tally, register
from verify.data.irgf import d_a4, d_face, d_seed0
from verify.kit import irgf
from verify.numbers.precision import Precision


def evaluate(data, prec: Precision) -> Outcome:
    out = Outcome(hypotheses=[Hypothesis(irgf.NAMES[irgf.A2] + " (γ_nopt is defined)", *irgf.assumption2(data))])
    if not out.applicable():
        return out
    L0, bounds = irgf.initial_loss_and_bounds(data)
    tally = Tally("ℒ(θ(0)) − b_j, b_j = (1/n)[e^(−γ_j,nopt) + Σ_(i≠j) e^(−γ_i,opt)], at every j", "<=", 0)
    for j, b in enumerate(bounds):
        tally.add(L0 - b, f"j = {j + 1}")
    least = min(bounds, key=lambda b: b.mid())
    out.add(tally.evidence(f"ℒ(θ(0)) = {L0.str(10, radius=False)} at init (5) (β(0) = 0: uniform attention)"),
            Evidence("slack min_j b_j − ℒ(θ(0))", least - L0,
                     note=f"min_j b_j = {least.str(10, radius=False)} (sequences 1-indexed)"))
    return out


STATEMENT = """\
ℒ(θ(0)) ≤ min_j (1/n)[e^(−γ_j,nopt) + Σ_(i≠j) e^(−γ_i,opt)] at the initialization (5) (β(0) = 0, uniform attention).
Needs Assumption 2 (γ_nopt). Decided in ball arithmetic at every j.
"""

CLAIM = register(Claim(id="irgf.asm3", paper="irgf", number="Assumption 3", kind="inequality",
                       title="Small initial loss", statement=STATEMENT, check=evaluate,
                       default_datasets=(d_seed0, d_face, d_a4), aliases=("small-initial-loss",),
                       default_precision=30, parameters=()))  # θ(0) is init (5): uniform attention, the data alone
