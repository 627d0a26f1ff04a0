"""Benchmark of the gradient-flow engine (verify.dynamics) against float64 baselines.

    python benchmarks/bench_flow.py                 # full run (100 and 30 digits; p to 1e4, W and diag to 1e3)
    python benchmarks/bench_flow.py --quick         # 30 digits only, p to 1e3
    python benchmarks/bench_flow.py --dps 30 --param p --until 1e4
    python benchmarks/bench_flow.py --no-baselines  # the high-precision runs and their summary table only
    python benchmarks/bench_flow.py --check-digits  # also rerun each at dps + 10: stable digits per figure

Reports, per run: wall time, steps, gradient and Hessian evaluations, evaluations per decade of the
norm (they should stay flat: O(log ‖p‖) in total), 1 − corr to the SVM, the fitted rate of
1 − corr ≈ C‖p‖^(−a); and for p the float64 baselines of the papers — fixed-step GD (η = 1/L_p),
normalised GD (lr 0.1, ε = 1e-12, naive softmax gradient) — and careful float64 stiff integrators
(scipy LSODA and Radau on the arc-length flow with the cancellation-free, rescaled gradient),
compared at ‖p‖ = 10, 100, 1000, 10⁴ with the high-precision direction: where does each one's
1 − corr(p, p^mm) stop being right (relative error > 1 %)?

Dataset: ``random_dataset(n=8, T=6, d=4, seed=5, labels="ones")`` — with random labels no seed
below 60 has a gradient flow from 0 that diverges (all stop at finite stationary points, which the
engine detects); with ``labels="ones"`` seed 5 diverges, selects the optimal tokens and its ATT-SVM(opt)
is feasible. For diag (k, q) that dataset has a finite stationary point; seed 1 is used instead.

KQ at 100 digits to ‖KQᵀ‖_* = 10³ (``--dps 100 --param KQ --until 1e3 --no-baselines``), before/after the
preconditioned Newton solve (verify/dynamics/radau_solver.py ``_Preconditioned``), measured in one session on the
2-core machine, the two runs side by side (one core each; the machine ran ~2× slower than where the issue's
171 s was measured):

    before (dense LU of the 1485 × 1485 Newton matrix, 35 % of the run)   344.6 s wall, 336.3 s CPU,
                                                                          585 steps, 207113 gradients, 29250 Hessians
    after                                                                 214.2 s wall, 209.3 s CPU,
                                                                          587 steps, 198156 gradients, 29295 Hessians

(an earlier "before" on the loaded machine: 323.9 s wall, 308.1 s CPU, the same counts.) The same curve: 1 − corr
to the GMM and to the selected tokens' SVM, ‖KQᵀ‖_* and ln t at ‖KQᵀ‖_* = 10, 100, 1000 agree on all 60 digits
compared. What remains is arb arithmetic at ~0.3 µs per element operation, almost independent of the
precision (a 45-stage sweep costs ~20 ms at 100 digits and at 50): ~7.5 sweeps per step (Newton from the
predictor ~5, the error-estimate solve ~3, each gaining the ~14 digits of a float64 Jacobian) × 587 steps.

What limits the KQ step count (steps instrumented, to ‖KQᵀ‖_* = 10): no Newton failures and few rejections —
the step is limited by the error estimate near narrow passages (complex singularities close to the path:
the allowed h fell ~0.78× a step on the way in, 0.009 → 0.003, and the controller alternated accepted and
rejected steps), and on the way out by the controller's floor: below 10⁻⁵·tol the estimate counted as
10⁻⁵·tol, so h regrew by only 1.054 a step while the estimates were 10⁻⁷…10⁻¹⁴·tol (rounding noise from
~10⁻¹¹·tol) — 112 of 283 accepted steps. Controller now (verify/dynamics/flow.py ``ERR_FLOOR``): floor 10⁻⁸·tol
(growth 1.14 a step there), the predictive (Gustafsson) factor after accepted steps and no growth right
after a rejection (as RADAU5); the acceptance test err ≤ tol and the target 10⁻³·tol are unchanged. Same
session, one run at a time, the first figures from the previous code (``git archive HEAD``):

    KQ 100 digits to 1e3   before 196.4 s wall, 195.1 s CPU, 587 steps, 198156 gradients, 29295 Hessians
                           after  175.5 s wall, 173.8 s CPU, 538 steps, 172237 gradients, 25245 Hessians
        (to 10: 283 → 264 steps, 27 → 8 rejections; per decade after: <1 114 steps, 1e0 149, 1e1 214, 1e2 60)
    p 100 digits to 1e3    before 48.0 s, 359 steps, 120275 gradients; after 39.8 s, 318 steps, 106396
    p / W / diag 30 digits to 1e3: 153 / 151 / 161 steps before, 142 / 134 / 157 after

The KQ checkpoints at ‖KQᵀ‖_* = 10, 100, 1000 (‖KQᵀ‖_*, ln t, 1 − corr to the GMM and to the selected
tokens' SVM) agree with the previous code's to 100–104 significant digits (all at the norm 10). What
remains is per-step cost (~7.5 sweeps of 45 stages, arb overhead) — the gradient sweep (~26 ms with the
arc-length normalisation) and Z − hAF (a 45 × 45 × 33 arb product, ~5 ms, ~15 %) dominate.

Third round (the same legs as ``--dps 100 --param KQ --until 1e3 --no-baselines``: the flow to 10, 100, 1000
resumed, one run at a time on an otherwise idle machine, which drifted by up to ~20 % over the session — so
the comparisons that count are the back-to-back ones):

    back to back, this command:  code before the KQ work (d5b4252)   319.7 s wall, 585 steps, 207113 gradients
                                 previous round (b3584c8, s = 45)     175.5 s, 538 steps, 172237 gradients
                                 now (s = 55)                         122.5 s, 338 steps, 145576 gradients
    what changed, in order (each measured against the one before, earlier in the session):
      tableau rounded to the working precision       148.1 → 143.3 s, 539 steps (A and c had kept the ~790 bits
          they were computed with: every A·F, predictor and restage product ran at twice the precision)
      more stages (verify/dynamics/flow.py ``default_stages``: 55 at 100 digits, was 45)   143.3 → 121.9 s, 349
          steps; KQ s = 60: 137.2 s (313 steps) against 120.6 s at 55 back to back, s = 64: 159.2 s — more nodes
          extrapolate worse (more Newton sweeps) and Z − hAF grows like s². p and W gain too (to 10³ at 100
          digits: p 41.0 → 33.4 s, W 70.2 → 60.2 s); at 30 and 50 digits s hardly matters (within 6–8 %)
      nuclear norm from flint's eigenvalues of [[0, W], [Wᵀ, 0]] (~4× mpmath's SVD, once per point: the event
          test and the record share it), the Newton correction's scale and size in float64, K and Q built once
          per stage for θ and ∇_ψL, the arc-length normalisation as numpy loops: a few % (within the drift)

All 12 checkpoint figures (‖KQᵀ‖_*, ln t, 1 − corr to the GMM and to the selected tokens' SVM at 10, 100, 1000)
agree with b3584c8's to 100.6–104 significant digits. Overall 2.6× the pre-issue code back to back (319.7 →
122.5 s), not the issue's 2.85× (171 → 60 s). Tried and dropped (measured, no gain): logits and gradients
factorised through the d × d matrices (x_tᵀWz_i: 2.4× fewer products, the same time — the products are not the
cost), a precision ladder (each Newton iteration's residual at the digits its error needs: a 45-stage sweep at
150 bits costs ~0.8 of one at 369 on the real stage points — exponentials and per-element overhead dominate —
so the same time overall), Z − hAF updated by A·ΔF (ΔF's shorter mantissas do not make arb_mat_mul cheaper).
Where the time goes now (cProfile, s = 54): the gradient sweep 65 % (softmax terms and exponentials ~40 %, arb
per-element overhead), Z − hAF 15 %, the float64 Newton solves 8 %; ~9 sweeps per step (Newton from the
predictor's ~10⁻²⁵ gains ~16 digits a sweep — the float64 Jacobian's limit: 5; the error-estimate solve from
~10⁻⁵⁷: 3). 114 of the 478 steps to 100 (s = 45) are spent near ‖KQᵀ‖_* = 20, where one sequence's selected
token changes (a softmax pole close to the path: h/‖KQᵀ‖ ≈ 4·10⁻⁴ there, 5·10⁻³ elsewhere).
"""
from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

sys.path.insert(0, __file__.rsplit("/benchmarks/", 1)[0])

from verify.data.generators import random_dataset  # noqa: E402
from verify.dynamics import gradient_flow, make_parameterization, smoothness_constant  # noqa: E402
from verify.dynamics.flow import FLOW_STEPS  # noqa: E402
from verify.dynamics.svmref import svm_direction  # noqa: E402
from verify.dynamics.trajectory import stable_digits  # noqa: E402
from verify.numbers.precision import log10_abs, working_precision  # noqa: E402

CHECK = [10, 100, 1000, 10000]


def dataset(param):
    seed = 1 if param == "diag" else 5
    return random_dataset(n=8, T=6, d=4, seed=seed, labels="ones")


# ----- high precision ------------------------------------------------------------------------------
def hp_run(param, dps, until):
    ds = dataset(param)
    t0, c0 = time.perf_counter(), time.process_time()
    checkpoints = [R for R in CHECK if R <= until]
    traj, dirs = None, {}
    for R in checkpoints:
        traj = gradient_flow(ds if traj is None else None, param, until_norm=R, dps=dps, resume=traj,
                             max_steps=FLOW_STEPS)
        if traj.status != "reached":
            break
        dirs[R] = [float(x.mid()) for x in traj.final.direction]
        omc = traj.final.one_minus_corr_gmm
        dirs[(R, "omc")] = omc
    secs = time.perf_counter() - t0
    traj.cpu_seconds = time.process_time() - c0  # the machine is shared: CPU time is the steadier figure
    return ds, traj, dirs, secs


def per_decade(traj):
    """Gradient / Hessian evaluations spent per decade of the norm (from the step records)."""
    out = {}
    prev_e, prev_h = 0, 0
    for r in traj.records:
        if r.evaluations is None:
            continue
        n = float(r.norm.mid())
        dec = math.floor(math.log10(n)) if n >= 1 else -1
        e, h = r.evaluations - prev_e, r.hessians - prev_h
        prev_e, prev_h = r.evaluations, r.hessians
        a = out.setdefault(dec, [0, 0, 0])
        a[0] += 1
        a[1] += e
        a[2] += h
    return out


def report_hp(param, dps, until, check=False):
    ds, traj, dirs, secs = hp_run(param, dps, until)
    stable = None
    if check:  # the same run at dps + 10 digits: on how many digits do the final figures agree?
        _ds, ref, _dirs, _secs = hp_run(param, dps + 10, until)
        with working_precision(dps + 10):
            stable = stable_digits(traj, ref, dps)
    f = traj.final
    print(f"\n== {param} at {dps} digits to {until:g}: {traj.status}, {secs:.1f} s ({traj.cpu_seconds:.1f} s CPU), {traj.steps} steps, "
          f"{traj.gradient_evaluations} gradients, {traj.hessian_evaluations} Hessians (stages {traj.meta['stages']})")
    print(f"   final norm {f.norm.mid().str(12, radius=False)}, ln t {f.log_t.mid().str(12, radius=False)}, "
          f"selected {f.selected}, L − L⋆ = 10^{log10_abs(f.excess):.1f}")
    for key in ("one_minus_corr", "one_minus_corr_gmm"):
        v = getattr(f, key)
        print(f"   {key}: {None if v is None else v.mid().str(20, radius=False)}")
    fit = traj.fit_rate("one_minus_corr") or traj.fit_rate("one_minus_corr_gmm")
    if fit:
        print(f"   fit 1 − corr ≈ C‖θ‖^(−a): a = {fit['rate']:.3f}, C = {fit['C']:.4g} over ‖θ‖ in "
              f"[{fit['norm_range'][0]:.3g}, {fit['norm_range'][1]:.3g}]")
    if stable:
        print(f"   stable digits against a rerun at {dps + 10} digits: " + ", ".join(f"{k} {v}" for k, v in stable.items()))
    print("   per decade of the norm: decade  steps  gradients  Hessians")
    for dec, (st, e, h) in sorted(per_decade(traj).items()):
        lo = "<1" if dec < 0 else f"1e{dec}"
        print(f"     {lo:>6} {st:6d} {e:10d} {h:9d}")
    decs = [(e, h) for dec, (_st, e, h) in per_decade(traj).items() if dec >= 1]
    f = traj.final
    omc = f.one_minus_corr_gmm if f.one_minus_corr_gmm is not None else f.one_minus_corr
    SUMMARY.append((param, dps, until, secs, traj.cpu_seconds, traj.steps, traj.gradient_evaluations,
                    traj.hessian_evaluations, max((e for e, _ in decs), default=0),
                    None if omc is None else omc.mid().str(15, radius=False),
                    None if stable is None else min(v for v in stable.values() if v is not None)))
    return ds, traj, dirs, secs


SUMMARY = []


def print_summary():
    print("\n param  dps  until   wall s   CPU s  steps  gradients  Hessians  max grads/decade  stable digits  1 − corr")
    for p, d, u, w, c, st, g, h, gd, omc, sd in SUMMARY:
        print(f" {p:5s} {d:4d} {u:6.0e} {w:8.1f} {c:7.1f} {st:6d} {g:10d} {h:9d} {gd:17d}  {str(sd):>13}  {omc}")


# ----- float64 baselines (p only) ---------------------------------------------------------------------
def _arrays(ds):
    K = np.array([[[float(x) for x in tok] for tok in seq] for seq in ds.keys()])
    G = np.array([[float(x) for x in row] for row in ds.scores])
    return K, G


def grad_naive(p, K, G):
    """The papers' float gradient: max-shifted softmax, φ = sᵀγ, c = s(γ − φ) (cancels when s ≈ 1)."""
    a = K @ p
    a -= a.max(1, keepdims=True)
    s = np.exp(a)
    s /= s.sum(1, keepdims=True)
    phi = (s * G).sum(1)
    lp = -1.0 / (1.0 + np.exp(phi))
    c = s * (G - phi[:, None])
    return (lp[:, None, None] * c[:, :, None] * K).sum((0, 1)) / len(G)


def grad_scaled(p, K, G):
    """Cancellation-free float gradient, rescaled by e^{−M} (M = largest non-argmax log-probability):
    its direction is exact in float64 at any ‖p‖ (mmts spec §1.4)."""
    n, T = G.shape
    a = K @ p
    r = a.argmax(1)
    idx = np.arange(n)
    logs = a - a[idx, r][:, None]
    mask = np.ones_like(logs, dtype=bool)
    mask[idx, r] = False
    M = logs[mask].max()
    np.seterr(over="ignore", under="ignore")  # masked entries only
    Z = 1.0 + np.where(mask, np.exp(logs), 0.0).sum(1)
    sp = np.where(mask, np.exp(logs - M), 0.0) / Z[:, None]  # s_t e^{−M}, t ≠ r
    sr = 1.0 / Z
    dev = G - G[idx, r][:, None]
    mdp = (sp * dev).sum(1)  # md e^{−M}
    md = mdp * math.exp(M) if M > -700 else 0.0 * mdp
    c = np.where(mask, sp * (dev - md[:, None]), 0.0)
    c[idx, r] = -sr * mdp
    phi = G[idx, r] + md
    lp = -1.0 / (1.0 + np.exp(phi))
    return (lp[:, None, None] * c[:, :, None] * K).sum((0, 1)) / n


def direction_errors(name, pts, hp_dirs, pmm):
    """pts: {R: p (float array)}. Relative error of 1 − corr(p, p^mm) against the hp value."""
    out = []
    for R in CHECK:
        if R not in pts or R not in hp_dirs:
            out.append(f"{R:g}: –")
            continue
        p = pts[R]
        u = p / np.linalg.norm(p)
        d = u - pmm
        omc = 0.5 * float(d @ d)  # ‖û − p̂^mm‖²/2, cancellation-free
        ref = float(hp_dirs[(R, "omc")].mid())
        rel = abs(omc / ref - 1) if ref > 0 else float("nan")
        out.append(f"{R:g}: {omc:.3e} (rel.err {rel:.1e}{' ✗' if not rel < 0.01 else ''})")
    print(f"   {name:30s} " + "; ".join(out))


def float_baselines(ds, hp_dirs):
    K, G = _arrays(ds)
    with working_precision(30):
        pmm_arb = svm_direction(ds, "p", "opt", 30)
        L = float(smoothness_constant(make_parameterization(ds, "p")).mid())
    if pmm_arb is None:
        print("   (no SVM reference: float comparison skipped)")
        return
    pmm = np.array([float(x.mid()) for x in pmm_arb])
    pmm /= np.linalg.norm(pmm)
    print("\n== float64 baselines (p): 1 − corr(p, p^mm) at ‖p‖ = R, relative error against the high-precision flow")
    # fixed-step GD, η = 1/L_p, naive gradient
    t0 = time.perf_counter()
    p = np.zeros(K.shape[2])
    steps = 200000
    for k in range(steps):
        p -= grad_naive(p, K, G) / L
    print(f"   GD η = 1/L_p (L_p = {L:.4g}), {steps} steps, {time.perf_counter() - t0:.1f} s: reaches only "
          f"‖p‖ = {np.linalg.norm(p):.3f} (norm grows like log t)")
    # the papers' normalised GD: lr 0.1, ε = 1e-12, naive gradient
    for eps, gfun, label in ((1e-12, grad_naive, "normalised GD ε=1e-12 (papers)"),
                             (0.0, grad_scaled, "normalised GD, rescaled gradient")):
        t0 = time.perf_counter()
        p = np.zeros(K.shape[2])
        pts, k = {}, 0
        while k < 200000:
            g = gfun(p, K, G)
            n = np.linalg.norm(g)
            if not n > 0:
                break
            p = p - 0.1 * g / (n + eps)
            k += 1
            nr = np.linalg.norm(p)
            for R in CHECK:
                if R not in pts and nr >= R:
                    pts[R] = p.copy()
            if nr >= CHECK[-1]:
                break
        print(f"   {label}: {k} steps, {time.perf_counter() - t0:.1f} s, final ‖p‖ = {np.linalg.norm(p):.4g}")
        direction_errors(label, pts, hp_dirs, pmm)
    # careful stiff integrators on the arc-length flow with the rescaled gradient
    from scipy.integrate import solve_ivp

    def rhs(s, y):
        g = grad_scaled(y, K, G)
        return -g / np.linalg.norm(g)

    for method in ("LSODA", "Radau"):
        t0 = time.perf_counter()
        events = []
        for R in CHECK:
            ev = (lambda R: (lambda s, y: np.linalg.norm(y) - R))(R)
            events.append(ev)
        y0 = 1e-12 * (-grad_scaled(np.zeros(K.shape[2]), K, G))
        sol = solve_ivp(rhs, (0, 2 * CHECK[-1]), y0, method=method, rtol=1e-12, atol=1e-12, events=events)
        pts = {R: sol.y_events[i][0] for i, R in enumerate(CHECK) if len(sol.y_events[i])}
        print(f"   {method} rtol=atol=1e-12: {sol.t.size - 1} steps, {sol.nfev} f-evals, {sol.njev} Jacobians, "
              f"{time.perf_counter() - t0:.1f} s, status {sol.status}")
        direction_errors(method, pts, hp_dirs, pmm)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--dps", type=int, action="append")
    ap.add_argument("--param", action="append")
    ap.add_argument("--until", type=float)
    ap.add_argument("--no-baselines", action="store_true", help="skip the float64 baselines")
    ap.add_argument("--check-digits", action="store_true", help="rerun each at dps + 10 and count stable digits")
    a = ap.parse_args(argv)
    if a.quick:
        runs = [("p", 30, 1e3)]
    elif a.dps or a.param or a.until:
        runs = [(p, d, a.until or (1e4 if p == "p" else 1e3)) for p in (a.param or ["p"]) for d in (a.dps or [30])]
    else:
        runs = [("p", 30, 1e4), ("p", 100, 1e4), ("W", 30, 1e3), ("W", 100, 1e3), ("diag", 30, 1e3), ("diag", 100, 1e3)]
    hp_dirs_p = None
    for param, dps, until in runs:
        ds, traj, dirs, secs = report_hp(param, dps, until, a.check_digits)
        if param == "p" and (hp_dirs_p is None or dps > hp_dirs_p[0]):
            hp_dirs_p = (dps, ds, dirs)
    print_summary()
    if hp_dirs_p is not None and not a.no_baselines:
        float_baselines(hp_dirs_p[1], hp_dirs_p[2])


if __name__ == "__main__":
    main()
