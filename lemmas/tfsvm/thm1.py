"""tfsvm Theorem 1 — Att-SVM(opt) is feasible for almost all data once d ≥ max(T − 1, n) (v1 §2.1; proof App. E).

Statement. If d ≥ max(T − 1, n), then for almost all datasets — precisely (v1): after adding i.i.d. Gaussian
noise of any variance to the tokens (and queries), with probability one — (Att-SVM) with α = opt is feasible:
some W has (x_i,opt − x_it)ᵀWz_i ≥ 1 for all t ≠ opt_i, i. Self-attention (z_i = x_i1) included.
Proof idea (v1 App. E via Lemma 17): the n(T − 1) rows (x_i,opt − x_it) ⊗ z_i are linearly independent a.s.,
so all constraints can be met with equality.
Hypotheses: d ≥ max(T − 1, n) (exact); σ > 0 (the "almost all" reading; ``sigma=0`` checks the given
dataset alone, i.e. the statement without "almost all" — the false case).
How it is checked. The dataset is the centre of the noise model: 12 seeded draws X + σG (and z + σG' when the
queries are given), σ = 1/10, entries the exact binary values of the float draws; for each draw, Att-SVM for
the draw's own optimal tokens is solved exactly by ``verify.svm`` — feasible only with a passed optimality
certificate, infeasible only with a verified Farkas certificate. Deciding: a Tally over the draws, "feasible"
(one certified infeasible draw → VIOLATED; a draw without a certified answer → undecided); each draw is
certified, the almost-sure conclusion is evidence over the draws (the range). Informative:
on the centre itself, feasibility and the rank of the constraint rows (independent rows = the proof's
generic event); the count of infeasible draws at d − 1 (below the threshold, no claim).
False cases (tests): ``sigma=0`` on measure-zero data (two sequences with equal queries asking
(1,0)Wz ≥ 1 and (−1,0)Wz ≥ 1) → VIOLATED with its Farkas certificate; D-STAT (d = 1 < n = 2) → NOT_APPLICABLE.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Hypothesis, Outcome, Tally, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.generators import random_dataset
from verify.geometry.tfsvm import certified_feasible, difference_rows
from verify.kit.almost_all import noise_draw
from verify.numbers.exact import rank
from verify.svm import solve_svm

DRAWS = 12
SIGMA = Fraction(1, 10)


def feasible(data, dps: int):
    """True / False (certified either way) / None for Att-SVM of the optimal tokens (unique a.s.)."""
    if any(len(o) > 1 for o in data.optimal_tokens()):
        return None
    return certified_feasible(solve_svm(data, "W", "opt", dps, check_unique=False))


def evaluate(data, prec, sigma=SIGMA, draws: int = DRAWS) -> Outcome:
    n, T, d = data.n, data.T, data.d
    sigma = Fraction(sigma)
    out = Outcome(hypotheses=[Hypothesis("d ≥ max(T − 1, n)", d >= max(T - 1, n), f"d = {d}, T − 1 = {T - 1}, n = {n}")])
    if not out.applicable():
        return out
    tally = Tally(f"Att-SVM(opt) certified feasible (1) on every draw X + σG, σ = {sigma}" if sigma else
                  "Att-SVM(opt) certified feasible on the dataset itself (σ = 0: no 'almost all')", "==", 1)
    for k in range(draws if sigma else 1):
        draw = noise_draw(data, sigma, k) if sigma else data
        ok = feasible(draw, prec.dps)
        tally.add(arb("nan") if ok is None else int(ok), f"draw {k}" if sigma else data.name)  # 1 = feasible
    out.add(tally.evidence())
    if sigma:
        out.range = f"{draws} seeded Gaussian draws, σ = {sigma} (an almost-sure statement: evidence, not proof)"
        centre = feasible(data, prec.dps)
        r = rank(difference_rows(data, tuple(o[0] for o in data.optimal_tokens())))
        out.add(Evidence("the centre dataset itself: Att-SVM(opt) feasible (True/False certified, None undecided)",
                         str(centre), note=f"constraint rows rank {r} of n(T − 1) = {n * (T - 1)}"))
        if d > 1:
            below = [feasible(noise_draw(data, sigma, k, d - 1), prec.dps) for k in range(draws)]
            out.add(Evidence(f"infeasible draws at d − 1 = {d - 1} (below the threshold when d − 1 < max(T − 1, n); "
                             "informative)", sum(1 for b in below if b is False),
                             note=f"of {draws}; undecided {sum(1 for b in below if b is None)}"))
    return out


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.d_lmm(), D.lemma4_cross(),
            random_dataset(n=3, T=4, d=3, seed=seed, queries=True, name=f"random-n3T4d3-z-s{seed}")]


STATEMENT = """\
If d ≥ max(T − 1, n), Att-SVM(opt) is feasible for almost all datasets: with probability one after adding
Gaussian noise to the tokens (and queries) (v1 §2.1, Theorem 1; App. E).

Certified on every seeded noisy draw around each dataset (exact solutions with optimality certificates, or
verified Farkas certificates); the dataset itself and the draws at d − 1 are reported.
"""

CLAIM = register(Claim(id="tfsvm.thm1", paper="tfsvm", number="Theorem 1", kind="existential",
                       title="Att-SVM(opt) feasible for almost all data when d ≥ max(T − 1, n)",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("svm-feasible-overparam",),
                       parameters=(
                           Parameter("X + σG", "for almost all datasets (every noise draw, a.s.)", "range",
                                     "`draws` = 12 seeded Gaussian draws around the dataset (the verdict's range)",
                                     option="draws", kind="integer", low=1, high=1000),
                           Parameter("σ", "noise of any variance σ² > 0", "range",
                                     "σ = 1/10 unless `sigma` is given (the verdict's range)",
                                     option="sigma", low=0, high=1, hunt=True))))
