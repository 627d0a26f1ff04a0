"""irgf remark after Assumption 3 — when Assumption 3 holds (§3; arXiv 2403.08699 v1).

Statement (as printed, qualitative). Starting from β(0) = 0 (init (5)), Assumption 3
    ℒ(θ(0)) ≤ min_j (1/n) [ e^{−γ_j,nopt} + Σ_{i≠j} e^{−γ_i,opt} ]
holds once the score gaps Δ_i := γ_i,opt − γ_i,nopt are large enough.
Made exact here [DERIVED in the spec]: at β(0) = 0 attention is uniform, so under Assumption 2
ℒ(θ(0)) = (1/n) Σ_i e^{−γ_i,nopt − Δ_i/L} and Assumption 3 ⇔ for every j
    (R_j)   Σ_i e^{−g_i − Δ_i/L} ≤ e^{−g_j} + Σ_{i≠j} e^{−g_i − Δ_i},      g_i := γ_i,nopt.
"Large enough" made explicit [DERIVED here]: the left side decreases in every Δ_i, and every right side is
≥ e^{−max_j g_j}; so Assumption 3 holds as soon as each term is ≤ e^{−max g}/n, i.e.
    (G)     Δ_i ≥ L (ln n + max_j g_j − g_i)   for every i.
Along the gaps scaled by c (Δ ↦ cΔ, g fixed) (G) holds for every c ≥ c* := max_i L(ln n + max g − g_i)/Δ_i.

Hypotheses. Assumption 2 (γ_nopt is defined; exact test) → NOT_APPLICABLE when it fails (D-A2VIOL).
How it is checked (every comparison in ball arithmetic at the working precision: certified).
* Assumption 3 computed directly: ℒ(θ(0)) is the engine's loss (``verify.models.attention``, exponential
  loss) at β = 0, each bound b_j literally (1/n)[e^{−γ_j,nopt} + Σ_{i≠j} e^{−γ_i,opt}]; against it the remark's
  form: for every j, |n(b_j − ℒ(θ(0))) − (RHS_j − LHS)| ≤ 10^−dps (a Tally over j; the two slacks are the same
  number, so the two conditions are decided alike — both decisions are shown beside).
* (G) ⇒ Assumption 3 on the scaled data: at c = 1 and c = c̄·{1, 3/2, 2, 4, 10, 100} (c̄ ≥ c*, c* rounded up to
  1/1000), at every c where (G) certainly holds, ℒ_c(θ(0)) ≤ min_j b_j(c) (a Tally; the loss at the scaled gaps
  from the mean-score form (1/n) Σ_i e^{−mean_l γ_il}, mean = g_i + cΔ_i/L).
Shown: c*, and the smallest c on the doubling ladder {1/16, …, 2^12} from which Assumption 3 holds at every
larger ladder c (the threshold (G) is sufficient, not necessary). Spec's examples (tests): n = 1 always; n = 2,
L = 2 with equal g and gaps always; n = L = 3, equal gaps Δ = 3 fails (3e^{−1} > 1 + 2e^{−3}), Δ = 4 holds.
False cases (tests): the threshold without its ln n (``threshold="no-log"``) on n = L = 3, Δ = 3: (G) holds at
c = 1 but Assumption 3 fails → VIOLATED (certified); D-A2VIOL → NOT_APPLICABLE naming Assumption 2.
"""
from __future__ import annotations

import math
from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Hypothesis, Outcome, Series, Tally, register
from verify.claims.registry import Parameter
from verify.data.irgf import d_face, d_seed0, d_trap, random_diag_dataset
from verify.kit import irgf
from verify.models.attention import LinearLogitModel
from verify.numbers.exact import ball_upper
from verify.numbers.precision import Precision, to_arb

FACTORS = ("1", "3/2", "2", "4", "10", "100")
LADDER = tuple(Fraction(2) ** k for k in range(-4, 13))


def parts(data):
    """Exact (g_i = γ_i,nopt, Δ_i = γ_i,opt − γ_i,nopt) per sequence (needs Assumption 2)."""
    g, gaps = [], []
    for sc, o in zip(data.scores, data.optimal_tokens()):
        o = o[0]
        nopt = next(sc[t] for t in range(len(sc)) if t != o)
        g.append(nopt)
        gaps.append(sc[o] - nopt)
    return g, gaps


def direct(g, gaps, n, T, c=Fraction(1)):
    """(ℒ(θ(0)), [b_j]) at gaps c·Δ, Assumption 3 literally: the loss at uniform attention from the mean score."""
    L0 = sum(((-to_arb(gi + c * di / T)).exp() for gi, di in zip(g, gaps)), arb(0)) / n
    eo = [(-to_arb(gi + c * di)).exp() for gi, di in zip(g, gaps)]
    b = [((-to_arb(g[j])).exp() + sum((eo[i] for i in range(n) if i != j), arb(0))) / n for j in range(n)]
    return L0, b


def remark(g, gaps, n, T, j):
    """(LHS, RHS_j) of the remark's form (R_j)."""
    lhs = sum(((-to_arb(gi) - to_arb(di) / T).exp() for gi, di in zip(g, gaps)), arb(0))
    rhs = (-to_arb(g[j])).exp() + sum(((-to_arb(g[i]) - to_arb(gaps[i])).exp() for i in range(n) if i != j), arb(0))
    return lhs, rhs


def premise(g, gaps, n, T, c, threshold="derived"):
    """(G) at gaps c·Δ: min_i (cΔ_i − L(ln n + max g − g_i)) as a ball (≥ 0: (G) holds)."""
    ln_n = arb(n).log() if threshold == "derived" else arb(0)
    G = max(g)
    return min((to_arb(c * di) - T * (ln_n + to_arb(G - gi)) for gi, di in zip(g, gaps)), key=lambda x: x.mid())


def evaluate(data, prec: Precision, threshold: str = "derived") -> Outcome:
    """``threshold="no-log"`` drops the ln n of (G) (a wrong threshold: the false case)."""
    out = Outcome(hypotheses=[Hypothesis(irgf.NAMES[irgf.A2], *irgf.assumption2(data))])
    if not out.applicable():
        return out
    n, T = data.n, data.T
    g, gaps = parts(data)
    # Assumption 3 directly: the engine's loss at β(0) = 0 (uniform attention) against each bound
    model = LinearLogitModel.from_dataset(data, "diag", "exponential")
    L0 = model.loss_value([arb(0)] * data.d)
    _, b = direct(g, gaps, n, T)
    same = Tally("|n(b_j − ℒ(θ(0))) − (RHS_j − LHS)|: Assumption 3's slack against the remark's (R_j), every j",
                 "<=", prec.tolerance, residual=True)
    for j in range(n):
        lhs, rhs = remark(g, gaps, n, T, j)
        same.add(n * (b[j] - L0) - (rhs - lhs), f"j = {j + 1}")
    out.add(same.evidence("ℒ(θ(0)) from the engine's softmax at β = 0"))
    slack = min((bj - L0 for bj in b), key=lambda x: x.mid())
    rem = min((rhs - lhs for lhs, rhs in (remark(g, gaps, n, T, j) for j in range(n))), key=lambda x: x.mid())
    out.add(Evidence("Assumption 3 directly: min_j b_j − ℒ(θ(0)) (≥ 0: holds)", slack,
                     note=f"ℒ(θ(0)) = {L0.str(10, radius=False)}"),
            Evidence("the remark's form: min_j (RHS_j − LHS) (= n × the slack above)", rem))
    # (G) ⇒ Assumption 3 along the scaled gaps
    G = max(g)
    ln_n = arb(n).log() if threshold == "derived" else arb(0)
    cstar = max((T * (ln_n + to_arb(G - gi)) / to_arb(di) for gi, di in zip(g, gaps)), key=lambda x: x.mid())
    cbar = max(Fraction(0), Fraction(math.ceil(ball_upper(cstar) * 1000), 1000))  # exact at any magnitude
    cs = sorted({Fraction(1)} | {cbar * Fraction(k) for k in FACTORS if cbar > 0})
    implied = Tally(f"ℒ_c(θ(0)) − min_j b_j(c) at every ladder c where (G){'' if threshold == 'derived' else ' without ln n'} "
                    "holds (gaps c·Δ)", "<=", 0)
    for c in cs:
        if premise(g, gaps, n, T, c, threshold) >= 0:
            Lc, bc = direct(g, gaps, n, T, c)
            implied.add(Lc - min(bc, key=lambda x: x.mid()), f"c = {c}")
    out.add(implied.evidence(f"c* = {cstar.str(8, radius=False)}"))
    holds = [direct(g, gaps, n, T, c) for c in LADDER]
    ok = [bool(Lc <= min(bc, key=lambda x: x.mid())) for Lc, bc in holds]
    first = next((c for k, c in enumerate(LADDER) if all(ok[k:])), None)
    out.add(Evidence("smallest ladder c ∈ {1/16, …, 2^12} from which Assumption 3 holds at every larger ladder c",
                     first if first is not None else "none", note="(G) is sufficient, not necessary: compare c*"))
    out.cover(f"gaps c·Δ for c ∈ {{{', '.join(str(c) for c in cs)}}} (c̄ = c* rounded up to 1/1000)")
    xs = [float(c) for c in LADDER]
    out.show(irgf.figure("slack", "Remark after Assumption 3: min_j b_j − ℒ(θ(0)) at gaps c·Δ", "c (gap scale)",
                         "slack (≥ 0: Assumption 3 holds)",
                         [Series("slack", xs, [irgf.fl(min(bc, key=lambda x: x.mid()) - Lc) for Lc, bc in holds], "-o")],
                         logx=True, hlines=[(0, "0")],
                         caption=f"{data.name}: c* = {cstar.str(5, radius=False)} (the derived threshold (G))."))
    return out


def default_datasets(seed: int = 0):
    return [d_seed0(), d_trap(), d_face(), random_diag_dataset(n=3, L=3, d=3, seed=seed, gap="3",
                                                                name="irgf-equal-gaps-3")]


STATEMENT = """\
From β(0) = 0, Assumption 3 (ℒ(θ(0)) ≤ min_j (1/n)[e^{−γ_j,nopt} + Σ_{i≠j} e^{−γ_i,opt}]) holds once the score gaps
Δ_i = γ_i,opt − γ_i,nopt are large enough. Exact form (DERIVED): Assumption 3 ⇔ ∀j Σ_i e^{−g_i − Δ_i/L} ≤ e^{−g_j} +
Σ_{i≠j} e^{−g_i − Δ_i} (g = γ_nopt); sufficient: Δ_i ≥ L(ln n + max g − g_i) for every i.

Checked in ball arithmetic: the exact form against Assumption 3 computed directly, and the sufficient threshold on the
data with its gaps scaled.
"""

CLAIM = register(Claim(id="irgf.rem.asm3", paper="irgf", number="remark after Assumption 3", kind="existential",
                       title="Large score gaps imply Assumption 3 (from β(0) = 0)", statement=STATEMENT,
                       check=evaluate, default_datasets=default_datasets,
                       aliases=("gap-large-implies-A3",), default_precision=30,
                       parameters=(Parameter("c", "for every gap scale c large enough (Δ ↦ cΔ)", "range",
                                             "c = 1 and c̄·{1, 3/2, 2, 4, 10, 100}, c̄ the derived threshold c* rounded "
                                             "up (named in the verdict)"),)))
