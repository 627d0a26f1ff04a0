"""irgf Assumption 2 — equal non-optimal scores (§3; = Assumption B.2 of Tarzanagh et al. 2023a; arXiv 2403.08699 v1).

Statement. For every sequence i the optimal token is unique and all non-optimal tokens share one score γ_{i,nopt}:

    γ_{i,opt(i)} > γ_il = γ_il′   for all l, l′ ≠ opt(i)          (γ_il = y_i vᵀx_il).

Automatic when L = 2. A statement about the data alone: parameters = ().
How it is checked (exact rational scores: certified either way), by the predicate every irgf claim uses for this
hypothesis (``verify.kit.irgf.assumption2``) and two exact items that name the failing sequence (1-indexed): the
number of sequences with a tied optimal token = 0, and the largest spread max_{l,l′≠opt} (γ_il − γ_il′) over the
sequences = 0.
Defaults: D-SEED0 (scores (4, 0, 0)), D-TRAP (L = 2), D-A4 (scores (6, 1, 1)). False case (tests): D-A2VIOL (scores
(1, 0.9, 0): spread 9/10) → VIOLATED naming sequence 1.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Evidence, Outcome, register
from verify.data.irgf import d_a4, d_seed0, d_trap
from verify.kit import irgf
from verify.numbers.precision import Precision


def evaluate(data, prec: Precision) -> Outcome:
    out = Outcome()
    opts = data.optimal_tokens()
    ties = [i for i, o in enumerate(opts) if len(o) > 1]
    out.add(Evidence("sequences whose optimal token is tied (exact scores)", len(ties), "==", 0,
                     note=(f"sequence {ties[0] + 1} (1-indexed): scores {[str(x) for x in data.scores[ties[0]]]}"
                           if ties else "opt(i) unique in every sequence")))
    spreads = []
    for i, (g, o) in enumerate(zip(data.scores, opts)):
        rest = [g[t] for t in range(len(g)) if t not in o] or [g[o[0]]]
        spreads.append((max(rest) - min(rest), i))
    worst, i = max(spreads, key=lambda w: (w[0], -w[1]))
    met, detail = irgf.assumption2(data)
    out.add(Evidence("max_i max_{l,l′≠opt(i)} (γ_il − γ_il′): spread of the non-optimal scores", Fraction(worst), "==", 0,
                     note=(f"largest in sequence {i + 1} (1-indexed): scores {[str(x) for x in data.scores[i]]}; "
                           if worst else "") + f"kit predicate: {detail}"))
    return out


STATEMENT = """\
For every i: γ_{i,opt(i)} > γ_il = γ_il′ for all l, l′ ≠ opt(i) (unique optimum, one non-optimal score γ_{i,nopt}).
Decided exactly on the rational scores.
"""

CLAIM = register(Claim(id="irgf.asm2", paper="irgf", number="Assumption 2", kind="identity",
                       title="Equal non-optimal scores in every sequence", statement=STATEMENT, check=evaluate,
                       default_datasets=(d_seed0, d_trap, d_a4), aliases=("equal-nonopt-scores", "assumption-B"),
                       default_precision=30, parameters=()))  # a statement about the data alone
