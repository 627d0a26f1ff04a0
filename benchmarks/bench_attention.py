"""Speed of ``LinearLogitModel.loss_grad`` at 30, 100 and 300 digits, as a multiple of float64.

    python benchmarks/bench_attention.py                 # the table (about a minute)
    python benchmarks/bench_attention.py --profile 30    # + pyinstrument profile of loss_grad at 30 digits
    python benchmarks/bench_attention.py --quick         # fewer repeats (smoke run)

A script, not a pytest module (benchmarks/ is outside CI's default run). Dataset: the seeded
``random_dataset(n=8, T=6, d=4, seed=0)`` (exact rationals), parameter ``p``, logistic loss, at two
points: a moderate θ and a saturated one (every non-selected softmax probability ≤ e^{-100}).

Compared, in the same run and on the same data:

* ``float64``   — numpy, vectorised over all sequences, the same cancellation-free formula
                  (max-shifted softmax, md = Σ_{t≠r} s_t(γ_t − γ_r), c_t = s_t(γ_t − γ_r − md),
                  logaddexp for the loss); the yardstick.
* ``arb``       — ``verify.models.attention.LinearLogitModel.loss_grad`` as it is: one evaluation of
                  the engine's softmax terms (the code the integrators' batched mode runs too), ℓ and
                  ℓ' from one exp.
* ``two-pass``  — ``states()`` then ``loss_value()`` + ``grad(θ, states)``: the path the claims take
                  (per-sequence ``SampleState`` lists, ℓ and ℓ' separately); its balls must overlap
                  ``loss_grad``'s and ``loss_grad``'s must be no wider than 4×.

Times are CPU times (``time.process_time``; robust on a shared machine), medians over ``--repeat``
interleaved rounds of ``timeit`` loops of ≥ 0.2 s each, in µs per call; each ratio is the median of
the per-round ratios.
"working precision d" means ``working_precision(d)``: arb runs at d + 10 guard digits.
Goal (issue): arb ≤ 10× float64 at 30 digits and ≤ 15× at 100 digits.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import timeit
from fractions import Fraction

import numpy as np
from flint import arb

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from verify.data.generators import random_dataset  # noqa: E402
from verify.models.attention import LinearLogitModel, features  # noqa: E402
from verify.numbers.precision import to_arb, working_precision  # noqa: E402

np.seterr(over="ignore")  # exp(φ) → inf in −1/(1+e^φ) is the intended limit (ℓ' → −0)

DIGITS = (30, 100, 300)
GOALS = {30: 10, 100: 15}
ONE = arb(1)


# ----- the yardstick: numpy float64, vectorised, cancellation-free ---------------------------------
class Float64Model:
    """float64 twin of LinearLogitModel.loss_grad for the logistic loss (all sequences at once)."""

    def __init__(self, feats, scores):
        F = np.array([[[float(x) for x in row] for row in seq] for seq in feats])
        self.n, self.T, self.D = F.shape
        self.Fall = np.ascontiguousarray(F.reshape(self.n * self.T, self.D))
        self.G = np.array([[float(x) for x in g] for g in scores])
        self.rows = np.arange(self.n)

    def loss_grad(self, theta):
        n, T = self.n, self.T
        a = (self.Fall @ theta).reshape(n, T)
        r = a.argmax(axis=1)
        e = np.exp(a - a[self.rows, r][:, None])  # e_r = 1, the rest ≤ 1
        Z = e.sum(axis=1)
        gr = self.G[self.rows, r]
        dev = self.G - gr[:, None]  # γ_t − γ_r (0 at t = r)
        md = (e * dev).sum(axis=1) / Z
        phi = gr + md
        value = np.logaddexp(0.0, -phi).mean()  # log(1 + e^{−φ})
        lp = -1.0 / (1.0 + np.exp(phi))  # ℓ'(φ)
        w = e * (dev - md[:, None]) * (lp / (Z * n))[:, None]  # ℓ'·c/n
        return value, w.reshape(-1) @ self.Fall


# ----- the proposal ------------------------------------------------------------------------------------
def _value_d1(loss):
    """(ℓ(u), ℓ'(u)) sharing one exp — the proposed ``Loss.value_d1``."""
    name = loss.name
    if name == "logistic":
        def f(u):
            # one exp of −|u|; the branch keeps the ball tight: −q/(1+q) with q = e^{−u} ≫ 1 would
            # divide two correlated wide balls (radius ~ 20× the original's at u ≈ −10)
            if u < 0:
                p = u.exp()  # ℓ = −u + log1p(e^u), ℓ' = −1/(1+e^u)
                return p.log1p() - u, -1 / (1 + p)
            q = (-u).exp()  # ℓ = log1p(e^{−u}), ℓ' = −e^{−u}/(1+e^{−u})
            return q.log1p(), -q / (1 + q)
    elif name == "exponential":
        def f(u):
            q = (-u).exp()
            return q, -q
    else:
        def f(u):
            return loss.value(u), loss.d1(u)
    return f


def measure(fns, repeat):
    """Median µs per call of each function, timed in interleaved rounds on CPU time.

    Each round times every function once (a ``timeit`` loop of ≥ 0.2 s), so slow drift of the
    machine hits all of them alike; ``time.process_time`` counts only this process's CPU time, so
    other jobs on a shared box inflate the numbers less than wall time would. Returns
    ({name: median µs}, {name: median over rounds of (µs / µs of the first function)})."""
    timers = {k: timeit.Timer(fn, timer=time.process_time) for k, fn in fns.items()}
    numbers = {k: max(1, t.autorange()[0]) for k, t in timers.items()}
    per_round = {k: [] for k in fns}
    for _ in range(repeat):
        for k, t in timers.items():
            per_round[k].append(t.timeit(numbers[k]) / numbers[k] * 1e6)
    first = next(iter(fns))
    med = {k: statistics.median(v) for k, v in per_round.items()}
    ratio = {k: statistics.median(a / b for a, b in zip(v, per_round[first])) for k, v in per_round.items()}
    return med, ratio


def points(data):
    """A moderate θ and a saturated one (all non-selected probabilities ≤ e^{-100})."""
    feats = features(data, "p")
    D = len(feats[0][0])
    moderate = [Fraction((-1) ** j * (j + 1), 7) for j in range(D)]
    u = [Fraction(1), Fraction(-2), Fraction(3), Fraction(1, 2)][:D]
    gaps = []
    for seq in feats:
        a = sorted((sum((f * x for f, x in zip(row, u)), Fraction(0)) for row in seq), reverse=True)
        gaps.append(a[0] - a[1])
    R = Fraction(-(-100 // min(gaps)))
    return {"moderate": moderate, "saturated": [R * x for x in u]}


def check_same(base, fast, what):
    """The fast variant's balls overlap the original's and are not much wider."""
    (v0, g0), (v1, g1) = base, fast
    for x, y in zip([v0] + list(g0), [v1] + list(g1)):
        assert x.overlaps(y), f"{what}: fast {y} does not overlap {x}"
        assert y.rad() <= 4 * x.rad() + arb(10) ** -1000, f"{what}: fast ball {y.rad()} wider than 4× {x.rad()}"


def check_float(base, f64, what):
    v0, g0 = base
    v, g = f64
    scale = max(abs(float(x.mid())) for x in g0) or 1.0
    assert abs(float(v0.mid()) - v) <= 1e-12 * max(1.0, abs(v)), f"{what}: float64 value {v} vs {v0}"
    assert max(abs(float(x.mid()) - y) for x, y in zip(g0, g)) <= 1e-12 * scale, f"{what}: float64 grad differs"


def run(repeat=15, profile=None, loss="logistic"):
    data = random_dataset(n=8, T=6, d=4, seed=0)
    feats, scores = features(data, "p"), data.scores
    f64 = Float64Model(feats, scores)
    rows = []
    for pname, theta in points(data).items():
        th64 = np.array([float(x) for x in theta])
        for dps in DIGITS:
            with working_precision(dps):
                base = LinearLogitModel(feats, scores, loss)
                th = [to_arb(x) for x in theta]

                def two_pass():
                    st = base.states(th)
                    return base.loss_value(th, st), base.grad(th, st)

                b, f = two_pass(), base.loss_grad(th)
                check_same(b, f, f"{pname}@{dps}")
                if dps == DIGITS[0] and loss == "logistic":
                    check_float(b, f64.loss_grad(th64), pname)
                med, ratio = measure({"f64": lambda: f64.loss_grad(th64), "arb": lambda: base.loss_grad(th),
                                      "fast": two_pass}, repeat)
            rows.append((pname, dps, med, ratio))
    print(f"loss_grad, n=8 T=6 d=4 param p, loss {loss}; CPU time, median of {repeat} interleaved rounds, µs per call")
    print("ratios: median over rounds of (arb time / float64 time in the same round)")
    print(f"{'point':<10} {'digits':>6} {'float64':>9} {'arb':>9} {'two-pass':>9} {'arb/f64':>8} {'2pass/f64':>9} {'fused gain':>10}  goal")
    for pname, dps, med, ratio in rows:
        goal = GOALS.get(dps)
        rb, rf = ratio["arb"], ratio["fast"]
        mark = "" if goal is None else f"≤{goal}×: arb {'ok' if rb <= goal else 'MISSED'}, two-pass {'ok' if rf <= goal else 'MISSED'}"
        print(f"{pname:<10} {dps:>6} {med['f64']:>9.1f} {med['arb']:>9.1f} {med['fast']:>9.1f} {rb:>7.1f}× {rf:>8.1f}× "
              f"{med['fast'] / med['arb']:>8.2f}×  {mark}")
    if profile:
        profile_loss_grad(data, profile, points(data)["moderate"], loss)
    return rows


def profile_loss_grad(data, dps, theta, loss, calls=3000):
    try:
        import pyinstrument
    except ImportError:
        print("pip install pyinstrument for --profile", file=sys.stderr)
        return
    for cls in (LinearLogitModel,):
        with working_precision(dps):
            M = cls(features(data, "p"), data.scores, loss)
            th = [to_arb(x) for x in theta]
            prof = pyinstrument.Profiler(interval=0.0001)
            prof.start()
            for _ in range(calls):
                M.loss_grad(th)
            prof.stop()
        print(f"\n===== pyinstrument: {cls.__name__}.loss_grad × {calls} at {dps} digits =====")
        print(prof.output_text(unicode=True, color=False, show_all=False))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--quick", action="store_true", help="3 repeats")
    ap.add_argument("--profile", type=int, metavar="DIGITS", help="also profile loss_grad at this precision")
    ap.add_argument("--loss", default="logistic", choices=("logistic", "exponential", "correlation"))
    args = ap.parse_args(argv)
    run(3 if args.quick else args.repeat, args.profile, args.loss)


if __name__ == "__main__":
    main()
