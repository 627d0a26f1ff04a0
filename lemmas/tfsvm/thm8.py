"""tfsvm Theorem 8 — the ⋄-SVM is feasible for every selection α once d ≥ max(T − 1, n) (v1 §5.3; proof App. E).

Statement. If d ≥ max(T − 1, n) and m = d, then for almost all datasets (self-attention included) the ⋄-SVM
    min ‖W‖_⋄ s.t. (x_iα_i − x_it)ᵀ W z_i ≥ 1 for all t ≠ α_i, i ∈ [n]
is feasible for every α ∈ [T]ⁿ. Feasibility is that of the linear constraint system (m = d: no rank bound), so it does
not depend on the norm ⋄ (a nonempty closed feasible set and a coercive norm give a minimiser): the check solves the
Frobenius Att-SVM. "Almost all" (v1): after adding i.i.d. Gaussian noise of any variance to the tokens (and
queries), with probability one. Theorem 1 is the case α = opt.
Proof (v1 App. E, Lemma 17): the n(T − 1) rows (x_iα_i − x_it) ⊗ z_i are linearly independent almost surely, so every
constraint can be met with equality. Their span does not depend on α (differences from any fixed token), so this
*generic event* — rank of the rows (x_it − x_i1) ⊗ z_i equal to n(T − 1) — is decidable exactly on given data.

Hypotheses. d ≥ max(T − 1, n) (exact). With ``sigma = 0`` (the dataset as given, not a noise model) the statement
speaks of "almost all" datasets, so a single dataset is covered only when it is generic: the hypothesis "generic:
rank of the rows (x_it − x_i1) ⊗ z_i = n(T − 1)" is then decided exactly, and a measure-zero dataset (equal queries,
collinear tokens: ``thm1_degenerate``, ``hull_middle``) is NOT_APPLICABLE naming it — not VIOLATED, since a null
set does not refute an almost-sure statement.
How it is checked. Default σ = 1/10: the dataset is the centre of the noise model; on each of ``draws`` = 8 seeded
draws (``verify.kit.almost_all.noise_draw``, exact binary values of float Gaussians) every α ∈ [T]ⁿ (up to 729) is
solved by the exact solver — feasible only with a passed optimality certificate, infeasible only with a verified
Farkas certificate. Deciding: a Tally "feasible" over every (draw, α) pair (a certified infeasible pair → VIOLATED;
an uncertified answer → undecided). Each pair is certified; the almost-sure conclusion is evidence over the draws
(the range). Informative: how many draws are in the generic event; the centre's own infeasible selections.
With σ = 0 the Tally runs over the α of the dataset itself (certified, no range).
False cases (tests). Under the decided hypotheses the theorem is true (generic ⇒ every α feasible, by the
rank argument), so no dataset meeting them can fail; as for the exact claims with an altered constant (Lemma 7's 2 →
1.9), the test-only option ``threshold_slack = 1`` lowers the threshold to d ≥ max(T − 1, n) − 1, and a dataset meeting
the altered threshold (n = 1, T = 3, d = 1: three points on a line, the middle one never separable — the draws keep
it so) → VIOLATED with its Farkas certificate. d below the threshold (D-STAT: d = 1 < n = 2; n = 1, T = 3, d = 1) →
NOT_APPLICABLE; σ = 0 on measure-zero data meeting d ≥ max(T − 1, n) with an infeasible α (``hull_middle``,
α = (2); ``thm1_degenerate``) → NOT_APPLICABLE naming genericity, while its noise draws are all feasible (HOLDS).
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Hypothesis, Outcome, Tally, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.generators import random_dataset
from verify.geometry.cones import ENUMERATION_LIMIT
from verify.kit.almost_all import all_selections, feasibility_of_selections, generic, noise_draw

DRAWS = 8
SIGMA = Fraction(1, 10)
GENERIC = "generic: rank of the rows (x_it − x_i1) ⊗ z_i is n(T − 1) (the proof's almost-sure event, Lemma 17)"


def _label(alpha) -> str:
    return "(" + ",".join(str(a + 1) for a in alpha) + ")"


def evaluate(data, prec, sigma=SIGMA, draws: int = DRAWS, threshold_slack: int = 0,
             limit: int = ENUMERATION_LIMIT) -> Outcome:
    """``threshold_slack`` > 0 lowers the dimension threshold (a wrong statement: the test-only false case)."""
    n, T, d = data.n, data.T, data.d
    sigma, need = Fraction(sigma), max(T - 1, n) - int(threshold_slack)
    name = "d ≥ max(T − 1, n)" + (f" − {threshold_slack} (ALTERED threshold: test-only false case)" if threshold_slack
                                  else "")
    out = Outcome(hypotheses=[Hypothesis(name, d >= need, f"d = {d}, T − 1 = {T - 1}, n = {n}")])
    if not sigma:
        ok, r, full = generic(data)
        out.hypotheses.append(Hypothesis(GENERIC, ok, f"rank {r} of n(T − 1) = {full} (σ = 0: the dataset itself)"))
    if not out.applicable():
        return out
    per = len(all_selections(data, limit))
    tally = Tally(f"⋄-SVM(α) certified feasible (1) for every α on every draw X + σG, σ = {sigma}" if sigma else
                  "⋄-SVM(α) certified feasible (1) for every α on the dataset itself (σ = 0, generic)", "==", 1)
    in_generic = 0
    for k in range(draws if sigma else 1):
        draw = noise_draw(data, sigma, k) if sigma else data
        in_generic += generic(draw)[0]
        for alpha, ok in feasibility_of_selections(draw, prec.dps, limit):
            tally.add(arb("nan") if ok is None else int(ok), f"{'draw ' + str(k) if sigma else data.name}, α = {_label(alpha)}")
    out.add(tally.evidence())
    total = T ** n
    covered = f"every α ∈ [T]ⁿ ({total})" if per == total else f"the first {per} of the {total} α ∈ [T]ⁿ"
    if sigma:
        out.range = (f"{draws} seeded Gaussian draws, σ = {sigma}, {covered} on each (an almost-sure statement: "
                     "evidence, not proof)")
        out.add(Evidence("draws in the generic event (rows independent; informative)", in_generic, note=f"of {draws}"))
        centre = feasibility_of_selections(data, prec.dps, limit)
        bad = [_label(a) for a, ok in centre if ok is False]
        ok, r, full = generic(data)
        out.add(Evidence("the centre dataset itself: certified infeasible selections (informative; a null set does not "
                         "refute 'almost all')", len(bad), note=(f"α = {', '.join(bad)}; " if bad else "")
                         + f"rank {r} of n(T − 1) = {full}" + ("" if ok else " (not generic)")))
    elif per < total:
        out.cover(f"α: {covered}")
    return out


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.d_lmm(), D.lemma4_cross(), D.hull_middle(),
            random_dataset(n=3, T=3, d=3, seed=seed, queries=True, name=f"random-n3T3d3-z-s{seed}")]


STATEMENT = """\
If d ≥ max(T − 1, n) and m = d, the ⋄-SVM is feasible for every α ∈ [T]ⁿ for almost all datasets (with probability
one after adding Gaussian noise to the tokens and queries), for any norm (v1 §5.3, Theorem 8; App. E).

Certified for every α on every seeded noisy draw around each dataset (exact solutions with optimality certificates,
or verified Farkas certificates); the given dataset alone (σ = 0) is covered only when it is generic (rank n(T − 1)).
"""

CLAIM = register(Claim(id="tfsvm.thm8", paper="tfsvm", number="Theorem 8", kind="existential",
                       title="⋄-SVM feasible for every α, any norm, almost all data when d ≥ max(T − 1, n)",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("svm-feasible-all-alpha",),
                       parameters=(
                           Parameter("α", "every α ∈ [T]ⁿ", "hardest",
                                     "exhaustive: every selection solved exactly on every draw (at most 729; beyond "
                                     "that the first ones, named in the verdict)"),
                           Parameter("‖·‖_⋄", "every norm ⋄ (m = d)", "hardest",
                                     "feasibility is that of the linear constraints, the same for every norm: decided "
                                     "once (Frobenius solver, certificate either way)"),
                           Parameter("X + σG", "for almost all datasets (every noise draw, a.s.)", "range",
                                     "`draws` = 8 seeded Gaussian draws around the dataset (the verdict's range)",
                                     option="draws", kind="integer", low=1, high=1000),
                           Parameter("σ", "noise of any variance σ² > 0", "range",
                                     "σ = 1/10 unless `sigma` is given; σ = 0 checks the dataset itself, which must "
                                     "then be generic (the verdict's range)", option="sigma", low=0, high=1,
                                     hunt=True))))
