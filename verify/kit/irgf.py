"""Shared pieces of the irgf claims (diagonal K, Q; exponential loss): hypotheses checked on the
data, the exact ℓ1-SVM with its optimal face, and small trend-fitting helpers.

Hypotheses (spec §3), each returned as a ``Hypothesis`` whose name carries the spec id:

* ``Assumption 1 (irgf.asm1)`` — unique optimal token per sequence and a full matrix W* with
  (x_opt − x_il)ᵀW*z_i ≥ 1. Implied by diagonal separability; otherwise decided exactly by the
  Frobenius SVM (exact QP) or refuted by an exact Farkas certificate.
* ``Assumption 2 (irgf.asm2)`` — all non-optimal scores of a sequence are equal (exact test).
* ``Assumption 3 (irgf.asm3)`` — ℒ(θ(0)) ≤ min_j (1/n)[e^{−γ_j,nopt} + Σ_{i≠j} e^{−γ_i,opt}]; under
  init (5) β(0) = 0, attention is uniform and ℒ(θ(0)) = (1/n) Σ_i exp(−mean_l γ_il). Certified
  comparison in ball arithmetic.
* ``init (5) (irgf.eq5)`` — ξ_k(0) ⊙ ξ_q(0) = 0 and ξ_k(0)² + ξ_q(0)² = 2ω₀² with every ω₀,j ≠ 0;
  the engine starts from exactly such a point (φ = 0), so only ω₀,j ≠ 0 can fail.
* ``irgf.hyp.diagsep`` — the (ℓ1-SVM) is feasible (a *diagonal* separator exists): used by the
  proofs of Lemma 4.2 and Theorem 4.1, not stated by the paper, not implied by Assumption 1
  (D-DIAGINF). Decided exactly (rational simplex) with a Farkas certificate when infeasible.
"""
from __future__ import annotations

import math
from fractions import Fraction

from flint import arb

from verify.claims import Hypothesis
from verify.data.dataset import Dataset
from verify.numbers.precision import to_arb

A1, A2, A3, INIT5, DIAGSEP = "A1", "A2", "A3", "init5", "diagsep"
NAMES = {
    A1: "Assumption 1 (irgf.asm1): unique optimal tokens and a separating W*",
    A2: "Assumption 2 (irgf.asm2): equal non-optimal scores in every sequence",
    A3: "Assumption 3 (irgf.asm3): small initial loss",
    INIT5: "init (5) (irgf.eq5): β(0) = 0 with every ω₀,j ≠ 0",
    DIAGSEP: "irgf.hyp.diagsep: (ℓ1-SVM) feasible — diagonal separability (used by the proofs, not stated)",
}

_SVM_CACHE: dict = {}


def _key(data: Dataset, kind: str):
    return (data.to_json(), kind)


def l1_svm(data: Dataset, dps: int = 60):
    """The exact ℓ1-SVM (``verify.svm.solve_svm(kind="diag")``), memoised per dataset."""
    from verify.svm import solve_svm

    key = _key(data, "diag")
    if key not in _SVM_CACHE:
        _SVM_CACHE[key] = solve_svm(data, "diag", dps=dps)
    return _SVM_CACHE[key]


def w_svm(data: Dataset, dps: int = 60):
    """The exact Frobenius Att-SVM on the full W (Assumption 1's witness), memoised."""
    from verify.svm import solve_svm

    key = _key(data, "W")
    if key not in _SVM_CACHE:
        _SVM_CACHE[key] = solve_svm(data, "W", dps=dps, check_unique=False)
    return _SVM_CACHE[key]


def unique_opt(data: Dataset) -> bool:
    return all(len(o) == 1 for o in data.optimal_tokens())


def assumption2(data: Dataset) -> tuple[bool, str]:
    bad = []
    for i, (g, o) in enumerate(zip(data.scores, data.optimal_tokens())):
        others = [g[t] for t in range(len(g)) if t != o[0]]
        if len(o) > 1 or len(set(others)) > 1:
            bad.append(i)
    if bad:
        i = bad[0]
        return False, f"sequence {i} has scores {[str(x) for x in data.scores[i]]} (non-optimal scores differ or tie)"
    return True, "non-optimal scores equal in every sequence (exact)"


def initial_loss_and_bound(data: Dataset):
    """(ℒ(θ(0)), bound of Assumption 3) as arb balls; β(0) = 0 under init (5). Needs Assumption 2."""
    n, T = data.n, data.T
    L0 = arb(0)
    gopt, gnopt = [], []
    for g, o in zip(data.scores, data.optimal_tokens()):
        mean = sum(g, Fraction(0)) / T
        L0 += (-to_arb(mean)).exp()
        gopt.append(g[o[0]])
        gnopt.append(next(g[t] for t in range(T) if t != o[0]))
    L0 /= n
    eo = [(-to_arb(x)).exp() for x in gopt]
    total = sum(eo, arb(0))
    bounds = [((-to_arb(gnopt[j])).exp() + total - eo[j]) / n for j in range(n)]
    bound = min(bounds, key=lambda b: b.mid())
    return L0, bound


def assumption3(data: Dataset) -> tuple[bool, str]:
    ok2, _ = assumption2(data)
    if not ok2:
        return False, "undefined: needs Assumption 2 (γ_nopt)"
    L0, bound = initial_loss_and_bound(data)
    if L0 <= bound:
        return True, f"ℒ(θ(0)) = {L0.str(8, radius=False)} ≤ {bound.str(8, radius=False)} (certified)"
    if L0 > bound:
        return False, f"ℒ(θ(0)) = {L0.str(8, radius=False)} > {bound.str(8, radius=False)}"
    return False, f"undecided at this precision: ℒ(θ(0)) = {L0.str(8, radius=False)} vs {bound.str(8, radius=False)}"


def init5(omega0, d: int) -> tuple[bool, str]:
    om = [Fraction(w) for w in (omega0 or [1] * d)]
    zeros = [j for j, w in enumerate(om) if w == 0]
    shown = "𝟙" if all(w == 1 for w in om) else "(" + ", ".join(str(w) for w in om) + ")"
    if zeros:
        return False, f"ω₀ = {shown} has ω₀,j = 0 at j = {zeros} (those coordinates never move)"
    return True, f"ξ_k(0) = √2·ω₀, ξ_q(0) = 0 with ω₀ = {shown} (all entries ≠ 0)"


def diagsep(data: Dataset, dps: int = 60) -> tuple[bool, str, object]:
    res = l1_svm(data, dps)
    if res.status == "optimal":
        return True, f"feasible: exact ℓ1-SVM optimum p* = {_short(res.objective)}", res
    far = res.farkas
    detail = "infeasible"
    if far is not None:
        detail += (f": exact Farkas certificate λ ≥ 0, Σλ = 1, Σ λ_il B_il = 0 (residual {far.residual}), "
                   f"Σλ_il·1 = {far.rhs} > 0, rows {list(far.rows)}")
    return False, detail, res


def assumption1(data: Dataset, diag_feasible: bool | None = None, dps: int = 60) -> tuple[bool, str, object]:
    if not unique_opt(data):
        return False, "some sequence has tied optimal tokens", None
    if diag_feasible:
        return True, "implied by diagonal separability (Diag(β*) separates)", None
    res = w_svm(data, dps)
    if res.status == "optimal":
        return True, f"full-W Frobenius SVM feasible: ‖W*‖_F = {_short(res.objective)} (exact QP)", res
    return False, "no W* separates: exact Farkas certificate for the full-W constraints", res


def check_hypotheses(data: Dataset, needs, omega0=None, dps: int = 60):
    """Hypotheses in ``needs`` (subset of A1, A2, A3, INIT5, DIAGSEP), in that order, and a context
    dict with the ℓ1-SVM result (``svm``) when computed."""
    hyps, ctx = [], {}
    if DIAGSEP in needs or A1 in needs:
        ok_d, det_d, res = diagsep(data, dps)
        ctx["svm"] = res
        ctx["diagsep"] = ok_d
    if A1 in needs:
        ok, det, wres = assumption1(data, ctx.get("diagsep"), dps)
        ctx["w_svm"] = wres
        hyps.append(Hypothesis(NAMES[A1], ok, det))
    if A2 in needs:
        ok, det = assumption2(data)
        hyps.append(Hypothesis(NAMES[A2], ok, det))
    if A3 in needs:
        ok, det = assumption3(data)
        hyps.append(Hypothesis(NAMES[A3], ok, det))
    if INIT5 in needs:
        ok, det = init5(omega0, data.d)
        hyps.append(Hypothesis(NAMES[INIT5], ok, det))
    if DIAGSEP in needs:
        hyps.append(Hypothesis(NAMES[DIAGSEP], ok_d, det_d))
    return hyps, ctx


def grad_at_zero_is_zero(data: Dataset) -> tuple[bool, list]:
    """Exact test of ∇_βℒ(0) = 0 (exponential loss). At β = 0 attention is uniform, so
    ∇_βℒ(0) = (1/n) Σ_i e^{−m_i} Σ_{l≠opt} (Σγ_i)_l B_il with m_i = mean_l γ_il and
    (Σγ_i)_l = (γ_il − m_i)/L exact rationals. The numbers e^{−m} for distinct rationals m are
    linearly independent over ℚ (Lindemann–Weierstrass), so ∇_βℒ(0) = 0 iff for every value m the
    rational vector Σ_{i: m_i = m} Σ_l (Σγ_i)_l B_il vanishes. Returns (is_zero, group sums)."""
    T = data.T
    Z = data.queries()
    opt = [o[0] for o in data.optimal_tokens()]
    groups: dict = {}
    for i, g in enumerate(data.scores):
        m = sum(g, Fraction(0)) / T
        acc = groups.setdefault(m, [Fraction(0)] * data.d)
        for l in range(T):
            if l == opt[i]:
                continue
            c = (g[l] - m) / T
            for j in range(data.d):
                acc[j] += c * Z[i][j] * (data.X[i][opt[i]][j] - data.X[i][l][j])
    return all(all(x == 0 for x in v) for v in groups.values()), list(groups.items())


def l1_dual_vector(res) -> list:
    """g = Bλ* (exact Fractions) of the ℓ1-SVM dual optimum."""
    prob = res.problem
    return [sum((res.duals[j] * prob.rows[j][k] for j in range(prob.m) if res.duals[j]), Fraction(0))
            for k in range(prob.dim)]


def smallest_reduced_cost(res):
    """κ = min_{j : |(Bλ*)_j| < 1} (1 − |(Bλ*)_j|) (None if every |g_j| = 1): the predicted
    exponent of the direction error µ^{−κ} (spec irgf.aux.rates; heuristic)."""
    g = l1_dual_vector(res)
    vals = [1 - abs(x) for x in g if abs(x) < 1]
    return min(vals) if vals else None


def face_distance(beta, res, dps: int):
    """Euclidean distance from β/‖β‖₁ to F/p* (F the exact optimal face of the ℓ1-SVM)."""
    from verify.svm import distance_to_solution_set

    if all(b.mid() == 0 for b in beta):
        return None
    return distance_to_solution_set([arb(b.mid()) for b in beta], res, dps=dps)


# ----- trend helpers (midpoint arithmetic, deterministic) ------------------------------------------
def least_squares(xs, ys):
    """(intercept, slope) of the least-squares line through (x, y) (arb midpoints)."""
    xs = [arb(x.mid()) for x in xs]
    ys = [arb(y.mid()) for y in ys]
    n = len(xs)
    mx = sum(xs, arb(0)) / n
    my = sum(ys, arb(0)) / n
    sxx = sum(((x - mx) ** 2 for x in xs), arb(0))
    sxy = sum(((x - mx) * (y - my) for x, y in zip(xs, ys)), arb(0))
    slope = sxy / sxx
    return my - slope * mx, slope


def loglog_slope(xs, ys):
    """Fitted exponent a of y ≈ C x^a (least squares on logs)."""
    return least_squares([x.log() for x in xs], [y.log() for y in ys])[1]


def fl(x) -> float:
    """Float for plotting only."""
    if x is None:
        return None
    try:
        v = float(x.mid()) if isinstance(x, arb) else float(x)
    except (OverflowError, ValueError):
        return None
    return v if math.isfinite(v) else None


def log10f(x) -> float | None:
    if x is None or not (x > 0):
        return None
    return float(x.log().mid()) / math.log(10)


def _short(x) -> str:
    if isinstance(x, Fraction):
        return str(float(x)) if x.denominator != 1 else str(x.numerator)
    if isinstance(x, arb):
        return x.str(12, radius=False)
    return str(x)


def replay_note(data: Dataset, claim_id: str) -> str:
    """A note with the dataset JSON inline and the command that replays it."""
    from verify.data.irgf import IRGF_DATASETS

    stem = data.name[:-5] if data.name.endswith(".json") else data.name
    how = (f" (or write it with `python -c \"from verify.data.irgf import irgf_dataset; "
           f"irgf_dataset('{stem}').save('{stem}.json')\"`)" if stem in IRGF_DATASETS else "")
    return (f"replay: save this JSON as {stem}.json and run `python -m verify {claim_id} --data {stem}.json`"
            f"{how}: {data.to_json()}")


# ----- the flow, shared by the asymptotic claims ----------------------------------------------------
DEFAULT_TARGET = "10"  # stop at the first grid point with ln(‖β‖₁/p*) ≥ 10 (≈ ln µ; ln µ = 10.08 on D-SEED0)


def grid_for(data: Dataset):
    """(ds, s_max, scale) for the record grid and the stop: s ≈ p*·ln µ along the flow, so the grid
    is scaled by p* (ds = 2^round(log2(p*/3)), s_max = 40·max(1.5, p*)) and the target is on
    ‖β‖₁/p* (≈ µ); p* unknown (infeasible) → (1/2, 60, 1)."""
    res = l1_svm(data)
    if res.status != "optimal":
        return Fraction(1, 2), Fraction(60), Fraction(1)
    p = res.objective
    k = round(math.log2(float(p) / 3))
    ds = Fraction(2) ** k if k >= 0 else Fraction(1, 2 ** (-k))
    return ds, 40 * max(Fraction(3, 2), p), p


def flow(data: Dataset, omega0=None, target=DEFAULT_TARGET):
    """(trajectory, [(record, DualPoint)] for s > 0) of the diagonal flow from init (5)."""
    from verify.dynamics.dual import dual_trajectory

    ds, s_max, scale = grid_for(data)
    traj = dual_trajectory(data, omega0, target_log_l1=target, ds=ds, s_max=s_max, l1_scale=scale)
    pts = traj.points()
    return traj, [(r, p) for r, p in zip(traj.records, pts) if r.s > 0]


def unreached(out, traj, recs, data: Dataset) -> bool:
    """Handle a run that stopped before the target: VIOLATED when β ≡ 0 because ∇_βℒ(0) = 0 exactly
    (a stationary start: the flow provably never moves), else INCONCLUSIVE (range too short). True
    when handled (the caller returns ``out``)."""
    from verify.claims import Evidence

    if traj.status == "reached" and len(recs) >= 2:
        return False
    zero, _ = grad_at_zero_is_zero(data)
    if zero and all(all(b == 0 for b in p.beta) for _, p in recs):
        out.evidence.append(Evidence("β(t) moves away from β(0) = 0", False, holds=False,
                                     note="∇_βℒ(0) = 0 exactly (stationary point at finite β): β(t) ≡ 0"))
        return True
    out.notes.append(f"the flow stopped before ln(‖β‖₁/p*) reached the target ({traj.status}, {len(recs)} records): "
                     "range too short to judge the trend")
    out.evidence.append(Evidence("ln‖β‖₁ at the last record", recs[-1][1].l1.log() if recs and recs[-1][1].l1 > 0
                                 else arb(0), note="target not reached"))
    if not any(e.decide() is False for e in out.evidence):
        out.verdict = "INCONCLUSIVE"
    return True


def window(recs, key=lambda p: p.mu, min_points: int = 4):
    """The asymptotic window: records with µ > 1 and ln µ ≥ (ln µ at the end)/2 (at least
    ``min_points`` trailing records with µ > 1 when available)."""
    pos = [(r, p) for r, p in recs if key(p) > 1]
    if not pos:
        return []
    lend = key(pos[-1][1]).log()
    win = [(r, p) for r, p in pos if key(p).log() >= lend / 2]
    if len(win) < min_points:
        win = pos[-min_points:]
    return win


def range_note(traj, recs) -> str:
    last = recs[-1][1] if recs else None
    if last is None:
        return "no record beyond s = 0"
    mu = last.mu
    lm = f"ln µ = {mu.log().str(5, radius=False)}" if mu > 0 else f"µ = {mu.str(5, radius=False)}"
    lt = last.log_t
    return (f"evidence over the range reached, not a proof of the limit: the flow was followed to "
            f"‖β‖₁ = {last.l1.str(6, radius=False)} ({lm}, ln t = {lt.str(6, radius=False)}; float64 "
            f"overflows t at ln t > 709). {traj.summary()}")


def figure(name, title, xlabel, ylabel, series, **kw):
    """A Figure with only the series that have at least one finite positive-or-plottable point
    (None when nothing is left to draw)."""
    from verify.claims import Figure

    logy = kw.get("logy", False)
    keep = []
    for s in series:
        pts = [(x, y) for x, y in zip(s.x, s.y) if x is not None and y is not None and (not logy or y > 0)]
        if pts:
            s.x, s.y = [p[0] for p in pts], [p[1] for p in pts]
            keep.append(s)
    if not keep:
        return None
    return Figure(name, title, xlabel, ylabel, keep, **kw)


def judge(out, ev, ok: bool, bad: bool, why: str = "range too short to decide") -> None:
    """Decide a trend evidence item three ways: HOLDS-evidence (``ok``), VIOLATED (``bad``, a clear
    failure signal such as a plateau), otherwise undecided — the item becomes a reported trend and,
    unless something else fails, the outcome is INCONCLUSIVE."""
    if ok:
        ev.holds = True
    elif bad:
        ev.holds = False
    else:
        ev.relation = "~"
        ev.note = (ev.note + "; " if ev.note else "") + f"undecided: {why}"
        out._undecided = getattr(out, "_undecided", []) + [ev.quantity]
    out.evidence.append(ev)


def settle(out) -> None:
    """After all evidence: INCONCLUSIVE when a trend was undecided and nothing failed."""
    und = getattr(out, "_undecided", [])
    if und and not any(e.decide() is False for e in out.evidence) and all(h.met for h in out.hypotheses):
        out.verdict = "INCONCLUSIVE"
        out.notes.append("undecided trends (range too short): " + "; ".join(und))
