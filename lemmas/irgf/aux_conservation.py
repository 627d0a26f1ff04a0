"""irgf conserved quantities of the gradient flows (implicit in App. A.2; DERIVED in the spec, arXiv 2403.08699 v1).

Statement (identities for all t ≥ 0).
* Diagonal flow (2) ξ̇_k = −∇_βℒ ⊙ ξ_q, ξ̇_q = −∇_βℒ ⊙ ξ_k: ξ_k^{⊙2} − ξ_q^{⊙2} is constant
  (d/dt ξ_k² = −2∇_βℒ ξ_kξ_q = d/dt ξ_q²); flow (3) ẇ₊ = −∇ℒ(w) ⊙ w₊, ẇ₋ = ∇ℒ(w) ⊙ w₋: w₊ ⊙ w₋ is constant
  (and ξ_k² − ξ_q² = 2w₊ ⊙ w₋ for w± = (ξ_k ± ξ_q)/√2). Hence along (2)
      ξ_k^{⊙2} + ξ_q^{⊙2} = √(4β^{⊙2} + (ξ_k(0)^{⊙2} − ξ_q(0)^{⊙2})^{⊙2}),   which is 2√(β^{⊙2} + ω₀^{⊙4}) under (5).
* General flow (1) K̇ = −GQ, Q̇ = −GᵀK (G = ∇_Wℒ at W = KQᵀ): KᵀK − QᵀQ ∈ ℝ^{d_e×d_e} is constant (both
  derivatives equal −QᵀGᵀK − KᵀGQ).
Hypothesis. Init (5) for the start of the (5) part (``verify.kit.irgf.start5``; an exact ``start`` or ``omega0``) →
NOT_APPLICABLE when it fails. The conservation laws themselves need no hypothesis (any data, any start).
How it is checked.
* Certified, at every state below and at c·(start), c ∈ {1/2, 2, 10}: the time derivative of each candidate along the
  flow's field (∇ from ``verify.models.attention`` in balls) vanishes — |d/dt C| ≤ 10^−dps relative to the sum of the
  magnitudes of its terms (a Tally per law, every state counted).
* Along the flows (evidence over t ≤ 4; integrated by ``verify.dynamics.dual.gbs_integrate`` at local tolerance
  10^−(dps+3), no rigorous bound, ``enclosed=False``): the drift |C(t) − C(0)| / max(1, |C(0)|) ≤ 10^−dps at t ∈
  {1/2, 1, 2, 4} (``verify.kit.trajectory_identity.IdentityAlong``), from init (5) with ω₀ = (7/10, 13/10, 2/5, 1, …) and from a
  seeded generic start (diagonal), and from seeded K₀, Q₀ ∈ ℚ^{d×d_e}, d_e = 2 (general); and the consequence
  ξ_k² + ξ_q² = √(4β² + c₀²) on both diagonal runs, = 2√(β² + ω₀⁴) on the (5) run. The spec uses the drift as an
  integrator sanity test: a drift above the tolerance means a bug, not a counterexample.
False cases (tests): the non-conserved candidates ξ_k² + ξ_q², w₊² + w₋², KᵀK + QᵀQ (``candidate="sum"``) → VIOLATED
(certified: their derivative −4∇_βℒ ⊙ ξ_k ⊙ ξ_q, … is not 0); a start with β(0) ≠ 0 → NOT_APPLICABLE naming init (5),
and with the check bypassed the (5) form 2√(β² + ω₀⁴) fails while the conservation laws hold.
"""
from __future__ import annotations

import random
from fractions import Fraction

from flint import arb, arb_mat

from verify.claims import Claim, Outcome, Series, Tally, register
from verify.claims.registry import Parameter
from verify.data.irgf import d_seed0, random_diag_dataset
from verify.dynamics.dual import gbs_integrate, kq_field, pm_field
from verify.kit import irgf
from verify.kit.trajectory_identity import IdentityAlong
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import Precision, to_arb

TIMES = ("1/2", "1", "2", "4")
SCALES = ("1/2", "2", "10")


def _inf(v) -> arb:
    return max((abs(x) for x in v), key=lambda z: z.mid()) if v else arb(0)


def _mid(x) -> arb:
    return arb(x.mid())


def laws(candidate: str):
    """(C_diag(ξ_k, ξ_q), C_pm(w₊, w₋), C_full(K, Q)) — the conserved quantities, or (``candidate="sum"``) the
    non-conserved sums — and their names."""
    s = 1 if candidate == "sum" else -1
    sign = "+" if s > 0 else "−"
    return (lambda k, q: [a * a + s * b * b for a, b in zip(k, q)],
            (lambda p, m: [a * a + b * b for a, b in zip(p, m)]) if s > 0 else (lambda p, m: [a * b for a, b in zip(p, m)]),
            lambda K, Q, de: [sum((K[a][i] * K[a][j] + s * Q[a][i] * Q[a][j] for a in range(len(K))), arb(0))
                              for i in range(de) for j in range(de)],
            (f"ξ_k² {sign} ξ_q²", "w₊² + w₋²" if s > 0 else "w₊ ⊙ w₋", f"KᵀK {sign} QᵀQ"))


def full_field(model, d: int, de: int):
    """Flow (1) on y = (vec K, vec Q) (row-major d×d_e): K̇ = −GQ, Q̇ = −GᵀK, G = ∇_Wℒ(KQᵀ) from the engine."""
    def unpack(y):
        K = [y[a * de:(a + 1) * de] for a in range(d)]
        Q = [y[d * de + a * de:d * de + (a + 1) * de] for a in range(d)]
        return K, Q

    def grads(y):
        K, Q = unpack(y)
        Km, Qm = arb_mat(K), arb_mat(Q)
        G = arb_mat(d, d, model.grad((Km * Qm.transpose()).entries()))
        Kd, Qd = -(G * Qm), -(G.transpose() * Km)
        return K, Q, Kd.tolist(), Qd.tolist()

    def f(y):
        _, _, Kd, Qd = grads(y)
        return [_mid(x) for row in Kd + Qd for x in row]

    return f, grads, unpack


def evaluate(data, prec: Precision, omega0=None, start=None, candidate: str = "conserved", d_e: int = 2,
             times=TIMES, check_hypotheses: bool = True) -> Outcome:
    out = Outcome(range=f"t ≤ {times[-1]}")
    xk5, xq5, w2, hyp, label = irgf.start5(data.d, omega0, start)
    if check_hypotheses:
        out.hypotheses.append(hyp)
        if not out.applicable():
            return out
    else:
        out.notes.append(f"hypothesis check bypassed (false-case mode): {hyp.name}: met {hyp.met} ({hyp.detail})")
    d, tol = data.d, prec.tolerance
    gtol = arb(10) ** (-(prec.dps + 3))
    Cd, Cpm, Cf, names = laws(candidate)
    model = LinearLogitModel.from_dataset(data, "diag", "exponential")
    wmodel = LinearLogitModel.from_dataset(data, "W", "exponential")
    rng = random.Random(13)
    xkg = [to_arb(Fraction(rng.randint(3, 12), 10)) for _ in range(d)]
    xqg = [to_arb(Fraction(rng.choice([-1, 1]) * rng.randint(1, 9), 10)) for _ in range(d)]
    K0 = [[Fraction(rng.randint(-9, 9), 10) for _ in range(d_e)] for _ in range(d)]
    Q0 = [[Fraction(rng.randint(-9, 9), 10) for _ in range(d_e)] for _ in range(d)]
    rate = {n: Tally(f"|d/dt ({n})| along the field / Σ|terms| (certified at each state)", "<=", tol, residual=True)
            for n in names}
    drift = {n: IdentityAlong(f"drift |C(t) − C(0)| / max(1, |C(0)|) of C = {n} along the integrated flow", tol)
             for n in names}
    s2 = arb(2).sqrt()
    curves = {}

    def rate_diag(k, q, where):
        g = model.grad([a * b for a, b in zip(k, q)])
        kd, qd = [-gj * b for gj, b in zip(g, q)], [-gj * a for gj, a in zip(g, k)]
        sgn = 1 if candidate == "sum" else -1
        terms = [(2 * a * x, sgn * 2 * b * y) for a, x, b, y in zip(k, kd, q, qd)]
        rate[names[0]].add(_inf([u + v for u, v in terms]) / max(_inf([abs(u) + abs(v) for u, v in terms]), tol),
                           where)

    def rate_pm(p, m, where):
        g = model.grad([(a * a - b * b) / 2 for a, b in zip(p, m)])
        pd, md = [-gj * a for gj, a in zip(g, p)], [gj * b for gj, b in zip(g, m)]
        terms = [(2 * a * x, 2 * b * y) for a, x, b, y in zip(p, pd, m, md)] if candidate == "sum" else \
            [(x * b, a * y) for a, x, b, y in zip(p, pd, m, md)]
        rate[names[1]].add(_inf([u + v for u, v in terms]) / max(_inf([abs(u) + abs(v) for u, v in terms]), tol),
                           where)

    f_full, grads, unpack = full_field(wmodel, d, d_e)

    def rate_full(y, where):
        K, Q, Kd, Qd = grads(y)
        sgn = 1 if candidate == "sum" else -1
        terms = [(sum((Kd[a][i] * K[a][j] + K[a][i] * Kd[a][j] for a in range(d)), arb(0)),
                  sgn * sum((Qd[a][i] * Q[a][j] + Q[a][i] * Qd[a][j] for a in range(d)), arb(0)))
                 for i in range(d_e) for j in range(d_e)]
        size = sum((abs(Kd[a][i] * K[a][j]) + abs(Qd[a][i] * Q[a][j]) for a in range(d) for i in range(d_e)
                    for j in range(d_e)), arb(0))
        rate[names[2]].add(_inf([u + v for u, v in terms]) / max(2 * size, tol), where)

    cons5 = Tally("‖ξ_k² + ξ_q² − 2√(β² + ω₀⁴)‖∞ / max(1, ‖ξ_k² + ξ_q²‖∞) along the (5) run (consequence under (5))",
                  "<=", tol, residual=True)
    consg = Tally("‖ξ_k² + ξ_q² − √(4β² + c₀²)‖∞ / max(1, ‖ξ_k² + ξ_q²‖∞), c₀ = ξ_k(0)² − ξ_q(0)², both diagonal runs",
                  "<=", tol, residual=True)
    W2 = [to_arb(w) for w in w2]
    steps = 0
    for run, k0, q0 in (("(5)", xk5, xq5), ("generic", xkg, xqg)):
        y2, st2 = gbs_integrate(kq_field(model.grad, d), k0 + q0, times, gtol)
        p0, m0 = [(a + b) / s2 for a, b in zip(k0, q0)], [(a - b) / s2 for a, b in zip(k0, q0)]
        y3, st3 = gbs_integrate(pm_field(model.grad, d), p0 + m0, times, gtol)
        steps += st2["steps"] + st3["steps"]
        c2, c3 = Cd(k0, q0), Cpm(p0, m0)
        c0 = [a * a - b * b for a, b in zip(k0, q0)]
        rate_diag(k0, q0, f"{run} start")
        rate_pm(p0, m0, f"{run} start")
        for sc in SCALES:
            rate_diag([to_arb(Fraction(sc)) * a for a in k0], [to_arb(Fraction(sc)) * b for b in q0], f"{sc}·({run} start)")
            rate_pm([to_arb(Fraction(sc)) * a for a in p0], [to_arb(Fraction(sc)) * b for b in m0], f"{sc}·({run} start)")
        curves[run] = []
        for t, ya, yb in zip(times, y2, y3):
            k, q, p, m = ya[:d], ya[d:], yb[:d], yb[d:]
            rate_diag(k, q, f"{run} run, t = {t}")
            rate_pm(p, m, f"{run} run, t = {t}")
            r2 = _inf([a - b for a, b in zip(Cd(k, q), c2)]) / max(arb(1), _inf(c2), key=lambda z: z.mid())
            r3 = _inf([a - b for a, b in zip(Cpm(p, m), c3)]) / max(arb(1), _inf(c3), key=lambda z: z.mid())
            drift[names[0]].add(f"{t} ({run})", r2)
            drift[names[1]].add(f"{t} ({run})", r3)
            curves[run].append(r2)
            beta = [a * b for a, b in zip(k, q)]
            ssq = [a * a + b * b for a, b in zip(k, q)]
            ref = max(arb(1), _inf(ssq), key=lambda z: z.mid())
            consg.add(_inf([u - (4 * bj * bj + c * c).sqrt() for u, bj, c in zip(ssq, beta, c0)]) / ref, f"{run}, t = {t}")
            if run == "(5)":
                cons5.add(_inf([u - 2 * (bj * bj + w * w).sqrt() for u, bj, w in zip(ssq, beta, W2)]) / ref, f"t = {t}")
    y0 = [to_arb(x) for row in K0 + Q0 for x in row]
    yf, stf = gbs_integrate(f_full, y0, times, gtol)
    steps += stf["steps"]

    def Cof(y):
        K, Q = unpack(y)
        return Cf(K, Q, d_e)

    cf0 = Cof(y0)
    rate_full(y0, "(K₀, Q₀)")
    for sc in SCALES:
        rate_full([to_arb(Fraction(sc)) * x for x in y0], f"{sc}·(K₀, Q₀)")
    curves["full"] = []
    for t, y in zip(times, yf):
        rate_full(y, f"(K, Q) run, t = {t}")
        r = _inf([a - b for a, b in zip(Cof(y), cf0)]) / max(arb(1), _inf(cf0), key=lambda z: z.mid())
        drift[names[2]].add(t, r)
        curves["full"].append(r)
    out.add(*(t.evidence() for t in rate.values()))
    note = f"GBS at local tolerance 1e-{prec.dps + 3} (no rigorous bound)"
    out.add(*(dr.tally.evidence(note, enclosed=False) for dr in drift.values()))
    out.add(cons5.evidence(note, enclosed=False), consg.evidence(note, enclosed=False))
    out.cover(f"{label}; a seeded generic start; (K₀, Q₀) seeded, d_e = {d_e}; t ∈ {{{', '.join(times)}}}; the "
              f"derivatives also at c·start, c ∈ {{{', '.join(SCALES)}}}")
    out.notes.append(f"{steps} GBS steps over the five integrations to t = {times[-1]}")
    xs = [float(Fraction(t)) for t in times]
    out.show(irgf.figure("drift", "Conserved quantities: log10 relative drift along the flows", "t",
                         "log10 drift (upper end of the ball)",
                         [Series(f"{names[0]}, {run} start", xs, [irgf.log10f(abs(r).upper()) for r in curves[run]], "-o")
                          for run in ("(5)", "generic")]
                         + [Series(f"{names[2]}, (K, Q)", xs, [irgf.log10f(abs(r).upper()) for r in curves["full"]], "-s")],
                         hlines=[(-prec.dps, "−dps")],
                         caption=f"{data.name}: drift below the working precision at every t (the integrator's "
                                 "tolerance is 10^−(dps+3))."))
    return out


def default_datasets(seed: int = 0):
    return [d_seed0(), random_diag_dataset(n=2, L=3, d=3, seed=seed)]


STATEMENT = """\
Along (2): ξ_k² − ξ_q² is constant; along (3): w₊ ⊙ w₋ is constant; hence ξ_k² + ξ_q² = √(4β² + (ξ_k(0)² − ξ_q(0)²)²),
= 2√(β² + ω₀⁴) under (5). Along (1): KᵀK − QᵀQ is constant.

The derivative of each quantity along the field certified to vanish at the states visited (and scaled starts); the
drift along the integrated flows (GBS) below the working precision, evidence over t ≤ 4.
"""

CLAIM = register(Claim(id="irgf.aux.conservation", paper="irgf", number="(implicit in App. A.2)", kind="identity",
                       title="Conserved quantities: ξ_k² − ξ_q², w₊ ⊙ w₋ and KᵀK − QᵀQ", statement=STATEMENT,
                       check=evaluate, default_datasets=default_datasets,
                       aliases=("balancedness", "conserved-quantities"), default_precision=30,
                       parameters=(
                           Parameter("start", "from any start (ξ_k(0), ξ_q(0)) / (K(0), Q(0)); (5) for its consequence",
                                     "range", "init (5) with ω₀ = (7/10, 13/10, 2/5, 1, …) unless `omega0` / `start` is "
                                     "given, a seeded generic diagonal start and seeded (K₀, Q₀) (named in the verdict)",
                                     option="omega0", kind="rationals"),
                           Parameter("t", "for every t ≥ 0", "range", "t ∈ {1/2, 1, 2, 4} (the verdict's range)"),
                           Parameter("d_e", "every embedding dimension d_e", "range",
                                     "d_e = 2 unless `d_e` is given (named in the verdict)", option="d_e",
                                     kind="integer"))))
