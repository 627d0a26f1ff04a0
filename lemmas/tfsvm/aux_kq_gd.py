"""tfsvm auxiliary fact — (K, Q)-GD aligns with the nuclear-norm SVM once m ≳ n (v1 Fig. 7, 10; empirical).

Claim (v1 §3 after Thm 2, Fig. 7 and Fig. 10; the authors' ``local_converge.ipynb``). Normalised GD on the factors
K, Q ∈ ℝ^{d×m} of W = KQᵀ ends in the direction of the nuclear-norm Att-SVM⋆ of the tokens it selects:
corr(KQᵀ, W^mm_{⋆,α}) ≈ 1 with α the argmax of the final softmax (n = 6, T = 8, d = 10, m = d, 100 runs), and with
d = 20, m ∈ 1..10 the alignment sets in once m ≳ n. Only the regularisation path is proven (Thm 2): kind
``empirical``, never certified.

Protocol — what was taken from where. From the authors' code (github umich-sota/TF-as-SVM, ``local_converge.ipynb``
and ``base.py``, fetched and read): data on the unit sphere (v, x_it, z_i; ``data_generator``), labels ±1 at random,
cross-attention; logistic loss; the (K, Q) model of ``SelfAttn(univariate=False)`` (key/query ``nn.Linear`` of width
``hidden_size`` = m; x_itᵀ K Qᵀ z_i with K = W_keyᵀ, Q = W_queryᵀ), initialised as ``nn.Linear`` (uniform in ±1/√d);
SGD with lr η = 0.1 where each factor's gradient is normalised separately, K ← K − η∇_K/‖∇_K‖_F, Q ← Q − η∇_Q/‖∇_Q‖_F
(the README's update); 2000 iterations; α = the argmax of the final softmax per sequence; the reference is the
nuclear-norm SVM of α (``W_svm_solver(..., fro=False)``, no rank constraint) and the measure corr(W, W^mm_⋆/‖·‖_F).
The code's ridge λ(‖K‖² + ‖Q‖²), λ = 2.2e−16, only keeps float64 from losing the vanishing gradient (README); at the
working precision the gradient is resolved (arb), so λ = 0 by default (``ridge`` sets it). From the spec (v1 text, no
code for it): Fig. 10's d = 20, m ∈ 1..10 and "alignment once m ≳ n". Scaled down here (the default ≤ ~20 s): trials
``kq_trial(seed)`` of ``verify.data.tfsvm`` with n = 3, T = 4, d = 4 (exact rationals on the unit sphere), widths
m ∈ {n − 1, n, n + 1} = {2, 3, 4}, 2000 iterations (``iterations``), two trials by default.

Why m ≥ n decides. The convex nuclear SVM's solutions have rank ≤ n (Lemma 1), so for m ≥ n the rank-≤m set
𝒲^mm_⋆ equals the convex one (Lemma 3) and KQᵀ can reach it; for m < n the rank constraint may bind and the claim
says nothing: those runs are reported (informative).

How it is decided (per run, ``verify.claims.rules``). The distance of KQᵀ/‖KQᵀ‖_⋆ to the set 𝒲^mm_⋆/C⋆ of α
(``verify.svm.distance``: a float64 SDP over the certified optimal face, as Theorem 2; resolution
``rules.SDP_DISTANCE_RESOLUTION``) at the 1-2-5 checkpoints k ≤ iterations must decay (``rules.decays``; a plateau
fails it) for every run with m ≥ n; the m < n runs carry the same measurement as informative items. Shown: the
paper's corr(KQᵀ, W^mm_⋆,α) (one solution), the final softmax mass on α. Hypotheses: Assumption A (logistic); a width
m ≥ n among the widths run; Att-SVM⋆(α) feasible for each run's final selection (its verified certificate).
Requirements: each run settled on α (s_{iα_i} > 1/2 at the end, certain), and it had saturated on α by the rule's
first point (k = iterations·/10 on the 1-2-5 ladder, k = 200 by default): every row's attention off α,
Σ_{t≠α} s_it, at most ``rules.SATURATED_OFF_MASS`` = 1/10 (certain). Before that the run is in the linear regime
(logits ≪ 1, the direction frozen near its start) and a flat distance says nothing of the limit: the plateau rule is
then not read (``rules.in_regime``: undecided, INCONCLUSIVE naming the requirement), never VIOLATED. Example: tokens
and query at 10⁻³ (X = [[(1/1000, 0), (0, 1/1000)]], z = (0, 1/1000)): logits ‖KQᵀ‖·10⁻⁶; at m = 1 ‖KQᵀ‖_F stays
0.06, at m = 2 it grows to 4·10⁴ yet s_α = 0.514 at k = 2000 — growth alone is no criterion, saturation is.

Observed (default trials, 30 digits). Trial 0: the distance decays at every width (m = 3, 4 decide: HOLDS). Trial 1
(α = opt, 𝒲^mm_⋆ a single point): the distance falls to 0.0073 at k = 1000 and rises again, 0.0102 at k = 2000 (m = 3;
1 − corr to the nuclear solution 2.6e−5 → 1.6e−4 at k = 16000, also with whole-ψ normalised GD) — the rule cannot
call that a decay, so the default verdict is INCONCLUSIVE; the paper's own measure corr ≈ 0.99995 is met.

False cases (tests): ``target="frobenius"`` (the (K, Q) iterates measured against the Frobenius W^mm_α instead, as
Theorem 2's false case) → VIOLATED by a plateau where the two SVMs differ; widths all < n → NOT_APPLICABLE naming
"m ≥ n".
"""
from __future__ import annotations

import math
import random
from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Figure, Hypothesis, Outcome, Series, register, rules
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.dynamics import make_parameterization
from verify.errors import DataError
from verify.kit.assumptions import assumption_a, svm_feasible
from verify.kit.cone_checks import log10_series
from verify.models.attention import corr, norm2, one_minus_corr
from verify.numbers.precision import Precision, to_arb, to_decimal_string
from verify.svm import solve_svm
from verify.svm.distance import distance_to_solution_set

CID = "tfsvm.aux.kq-gd-empirical"
TRIAL_SEEDS = (0, 1)
N, T, DIM = 3, 4, 4
ETA = "0.1"  # the notebook's lr
ITERATIONS = 2000  # the notebook's ITN


def checkpoints(iterations: int) -> list[int]:
    """The 1-2-5 ladder 10, 20, 50, … below ``iterations``, and ``iterations`` itself."""
    out, k = [], 10
    while k < iterations:
        for f in (1, 2, 5):
            if k * f < iterations:
                out.append(k * f)
        k *= 10
    return out + [iterations]


def nn_linear_init(d: int, m: int, seed: int, tag: str) -> list[Fraction]:
    """nn.Linear(d, m)'s weights (uniform in ±1/√d, 3 digits, exact rationals), transposed to the engine's d×m
    factor, row-major."""
    rng = random.Random(f"{CID}/{tag}/{d}/{m}/{seed}")
    b = Fraction(round(1000 / math.sqrt(d)), 1000)
    Wt = [[b * Fraction(rng.randint(-1000, 1000), 1000) for _ in range(d)] for _ in range(m)]  # m×d (torch layout)
    return [Wt[e][a] for a in range(d) for e in range(m)]


def factor_normalized_gd(par, psi, steps: int, eta: arb, ridge: arb, record):
    """The notebook's update: K ← K − η G_K/‖G_K‖_F, Q ← Q − η G_Q/‖G_Q‖_F, G = ∇(L + λ(‖K‖² + ‖Q‖²)); each iterate
    rounded to its midpoint (an exact step from an exact point). ``record(k, psi)`` at the checkpoints."""
    half = len(psi) // 2
    marks = set(checkpoints(steps))
    for k in range(1, steps + 1):
        g = [arb(x.mid()) for x in par.grad(psi)]
        if ridge != 0:
            g = [x + 2 * ridge * p for x, p in zip(g, psi)]
        gK, gQ = g[:half], g[half:]
        nK, nQ = norm2(gK), norm2(gQ)
        if not (nK > 0 and nQ > 0):
            return k - 1, psi
        psi = [arb((p - eta * x / nK).mid()) for p, x in zip(psi[:half], gK)] + \
              [arb((p - eta * x / nQ).mid()) for p, x in zip(psi[half:], gQ)]
        if k in marks:
            record(k, psi)
    return steps, psi


def run(data, m: int, prec: Precision, iterations: int, eta, ridge, seed: int):
    """One (K, Q) run of width m: {k: W(k) (flat)}, the final softmax states, the steps done."""
    par = make_parameterization(data, "KQ", m=m)
    d = data.d
    psi = [to_arb(x) for x in nn_linear_init(d, m, seed, "key") + nn_linear_init(d, m, seed, "query")]
    Ws = {}
    done, psi = factor_normalized_gd(par, psi, iterations, arb(str(eta)), to_arb(Fraction(ridge)),
                                     lambda k, p: Ws.__setitem__(k, [arb(x.mid()) for x in par.theta(p)]))
    return Ws, par.model.states(par.theta(psi)), done


def evaluate(data, prec: Precision, widths=None, iterations: int = ITERATIONS, eta: str = ETA, ridge: str = "0",
             seed: int = 0, target: str = "nuclear", require_width: bool = True) -> Outcome:
    """``widths`` the m run (default n − 1, n, n + 1, within 1..d); ``target`` "nuclear" (the claim) or "frobenius"
    (the false case); ``require_width`` False drops the hypothesis m ≥ n."""
    n = data.n
    if widths is not None and any(Fraction(m).denominator != 1 or not 1 <= m <= data.d for m in widths):
        raise DataError(f"widths: integers in 1..d = {data.d} expected, got {[str(m) for m in widths]}")
    ms = sorted({int(m) for m in widths}) if widths is not None else [m for m in (n - 1, n, n + 1) if 1 <= m <= data.d]
    out = Outcome(hypotheses=[assumption_a("logistic", data)])
    if require_width:
        out.hypotheses.append(Hypothesis("a width m ≥ n (v1: alignment once m ≳ n; m < n only reported)",
                                         any(m >= n for m in ms), f"n = {n}, widths m ∈ {{{', '.join(map(str, ms))}}}"))
    if not out.applicable():
        return out
    marks = checkpoints(iterations)
    series = []
    for m in ms:
        Ws, states, done = run(data, m, prec, iterations, eta, ridge, seed)
        tag = f"m = {m}"
        if done < iterations:
            out.require(f"{tag}: the normalised GD ran {iterations} iterations", False, f"gradient 0 at k = {done + 1}")
            continue
        alpha = tuple(max(range(len(st.s)), key=lambda t: st.s[t].mid()) for st in states)
        mass = min(st.s[a] for st, a in zip(states, alpha))
        out.require(f"{tag}: the run settled on α = ({', '.join(str(a + 1) for a in alpha)}) (s_iα_i > 1/2 at the end)",
                    bool(mass > arb(0.5)), f"min_i s_iα_i = {to_decimal_string(mass, 6)}")
        nuc = solve_svm(data, "KQ", alpha, prec.dps, check_unique=False)
        hyp = svm_feasible(nuc, f"{tag}: Att-SVM⋆(α) feasible for the final selection α = "
                                f"({', '.join(str(a + 1) for a in alpha)})")
        out.hypotheses.append(hyp)
        if not hyp.met:
            return out
        ks = [to_arb(k) for k in marks]
        Wfin = Ws[marks[-1]]
        k_tail = marks[-rules.TAIL_POINTS] if len(marks) >= rules.TAIL_POINTS else marks[0]
        tail_states = make_parameterization(data, "KQ", m=m).model.states(Ws[k_tail])
        off = [sum((st.s[t] for t in range(len(st.s)) if t != a), arb(0)) for st, a in zip(tail_states, alpha)]
        worst = max(off, key=lambda x: x.mid())
        regime = rules.saturated(off)
        why = (f"at k = {k_tail} (the rule's first point) some row keeps {to_decimal_string(worst, 3)} of its attention "
               f"off α (> {rules.SATURATED_OFF_MASS}: the run has not left the linear regime)")
        out.require(f"{tag}: the run saturated on α from the rule's first point k = {k_tail} on (every row's "
                    f"attention off α ≤ {rules.SATURATED_OFF_MASS})", regime is True,
                    why if regime is not True else f"max_i Σ_(t≠α) s_it = {to_decimal_string(worst, 3)}")
        sol = [to_arb(x) if not isinstance(x, arb) else x for x in nuc.solution]
        deciding = m >= n or not require_width
        if target == "frobenius":
            fro = solve_svm(data, "W", alpha, prec.dps, check_unique=False)
            if not svm_feasible(fro, "Att-SVM(α)").met:
                out.require(f"{tag}: Att-SVM(α) (Frobenius) solved", False)
                continue
            wf = [to_arb(x) for x in fro.solution]
            ys = [one_minus_corr(Ws[k], wf) for k in marks]
            label = f"{tag}: 1 − corr(K Qᵀ, W^mm_α) → 0 (Frobenius W^mm_α: the FALSE CASE)"
            rule = rules.in_regime(rules.decays(ks, ys, zero=prec.tolerance), regime, why)
        else:
            acc = to_arb(rules.SDP_DISTANCE_RESOLUTION / 10)  # the SDP's ~1e-7 accuracy as the radius
            ys = [arb(distance_to_solution_set(Ws[k], nuc, prec.dps).mid(), acc.mid()) for k in marks]
            label = f"{tag}: dist(K Qᵀ/‖K Qᵀ‖_⋆, 𝒲^mm_⋆(α)/C⋆) → 0 along the iterations"
            rule = rules.in_regime(rules.decays(ks, ys, zero=rules.SDP_DISTANCE_RESOLUTION), regime, why)
        note = (f"k = {', '.join(map(str, marks[-4:]))}: " + ", ".join(to_decimal_string(y, 3) for y in ys[-4:]) +
                f"; ‖K Qᵀ‖_F = {to_decimal_string(norm2(Wfin), 4)} at k = {iterations}")
        if deciding:
            out.add(Evidence(label, ys[-1], rule=rule, enclosed=False, note=f"{rule.detail}; {note}",
                             residual=bool(abs(ys[-1]) <= to_arb(rules.SDP_DISTANCE_RESOLUTION))))
        else:
            out.add(Evidence(label + f" (m < n = {n}: the claim says nothing; reported)", ys[-1],
                             note=f"{rule.rule}: {rule.detail}; " + note))
        out.add(Evidence(f"{tag}: corr(K Qᵀ, W^mm_⋆,α) at k = {iterations} (the paper's measure, one solution)",
                         corr(Wfin, sol), note=f"min_i s_iα_i = {to_decimal_string(mass, 4)}"))
        series.append(Series(f"m = {m}" + (" (m < n)" if m < n else ""), [math.log10(k) for k in marks],
                             log10_series(ys), "-o" if m >= n else ":"))
    what = "1 − corr to the Frobenius W^mm_α" if target == "frobenius" else "dist to the nuclear set 𝒲^mm_⋆(α)/C⋆"
    out.show(Figure("dist", f"(K, Q)-GD: log10 {what} against iterations", "log10 k", f"log10 {what}", series,
                    caption="Per-factor normalised GD (η = 0.1), one run per width m; m ≥ n decides, m < n is "
                            "reported.") if series else None)
    out.range = (f"protocol v1 Fig. 7/10 (local_converge.ipynb) scaled down: trial {data.name} (n = {n}, T = {data.T}, "
                 f"d = {data.d}), widths m ∈ {{{', '.join(map(str, ms))}}}, per-factor normalised GD η = {eta}, "
                 f"k ≤ {iterations}, ridge λ = {ridge}")
    out.cover(f"(K(0), Q(0)): nn.Linear-like seeded start (seed {seed}); m ∈ {{{', '.join(map(str, ms))}}}")
    return out


def default_datasets(seed: int = 0):
    return [D.kq_trial(s, N, T, DIM) for s in TRIAL_SEEDS]


STATEMENT = """\
Normalised (K, Q)-GD (each factor's gradient normalised, η = 0.1) ends in the direction of the nuclear-norm Att-SVM⋆
of the tokens it selects (α = argmax of the final softmax) once the width m ≳ n (v1 Fig. 7, 10). Empirical: evidence
over the authors' protocol scaled down (n = 3, T = 4, d = 4, m ∈ {2, 3, 4}, 2000 iterations); the distance to the
nuclear solution set must decay for m ≥ n; m < n is reported. Never certified.
"""

CLAIM = register(Claim(id=CID, paper="tfsvm", number="(aux) Fig. 7, 10", kind="empirical",
                       title="(K, Q)-GD aligns with the nuclear-norm SVM once m ≳ n",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("kq-gd-nuclear",),
                       parameters=(
                           Parameter("m", "width m ≳ n", "range",
                                     "m ∈ {n − 1, n, n + 1} ∩ [1, d] unless `widths` is given (named in the range)",
                                     option="widths", kind="rationals"),
                           Parameter("(K(0), Q(0))", "the paper's random start", "range",
                                     "nn.Linear-like seeded start (`seed`), named in the verdict", option="seed",
                                     kind="integer", low=0, high=10**6),
                           Parameter("k", "the iterates of normalised GD (2000 in the paper)", "range",
                                     "k ≤ iterations, named in the range", option="iterations", kind="integer",
                                     low=10, high=10**6)),
                       default_precision=30))
