"""irgf §4.2 — Frobenius versus nuclear implicit bias: the same data trained as diagonal (K, Q), as diagonal W
directly and as full W reach three different SVM solutions (Sheen, Chen, Wang, Zhou, arXiv 2403.08699 v1, §4.2;
§5 of the claim specification: parametrization ↔ implicit SVM).

Statement (§4.2, with the spec's like-for-like nuance). On data meeting the hypotheses of Theorem 4.1, the
margin-normalised limit Ŵ_∞ = lim W(t)/µ(W(t)) (µ(W) = min_il (x_opt − x_il)ᵀ W z_i, Def. 4.1) of

* gradient flow (2) on diagonal (K, Q) from init (5) solves the (ℓ1-SVM) = (W^diag_*-SVM) (Theorem 4.1);
* gradient flow on W = Diag(β) trained directly from β(0) = 0 solves the diagonal ℓ2-SVM min ‖β‖₂ (the
  spec's ``irgf.aux.direct-beta``: observed, the like-for-like contrast of the paper's least-squares analogy);
* gradient flow on the full W from W(0) = 0 solves the (WF-SVM) min ‖W‖_F (cited: Tarzanagh et al. 2023a,
  Vasudeva et al. 2024, under Assumption 2 and a suitable init);

hence the three limits must differ whenever the SVMs differ.

Hypotheses (→ NOT_APPLICABLE naming the failed one; ``verify.kit.irgf``): Assumptions 1–3, init (5) and
``irgf.hyp.diagsep`` (the ℓ1-SVM feasible), as for Theorem 4.1.

DERIVED here (the spec leaves it open). "The SVMs differ" is read on the solution *sets* (the ℓ1-SVM may have an
optimal face): two sets are *disjoint*, *intersect* or are *equal*, decided exactly. Only disjoint sets force the
limits apart; when the ℓ2 point lies on the ℓ1 face (D-FACE: (1/2, 1/2, 0) ∈ F) the (K, Q) limit may equal it (ω₀ = 𝟙)
or not (other ω₀: ``irgf.aux.face``), so no prediction is made there. Rates along the flows: the (K, Q) direction
error decays like µ^(−κ), κ the smallest reduced cost of the LP (``irgf.thm41``); for the direct flows W(t) =
W_svm·ln t + O(ln ln t) (the implicit-bias expansion of linearly separable exponential-tailed losses), so
‖Ŵ − W_svm‖ = O(ln µ/µ): derived exponent 1, approached slowly (fitted 0.6–1.0 at the defaults' depth), and the
rule asks for half of it.

How it is checked. Static part (certified): the three SVMs are solved exactly (rational LP / QPs, each with its
verified certificate: the ℓ1-SVM with its optimal face, the ℓ2 and Frobenius ones unique); which pairs of solution
sets are disjoint, intersecting or equal is decided in rational arithmetic (‖β_ℓ2‖₁ against p*, W_F diagonal or
not, …) and shown. Dynamic part (evidence over the range reached): the (K, Q) flow in dual coordinates
(``verify.dynamics.dual``) to ln(‖β‖₁/p*) = 5, the direct flows (``verify.dynamics.flow``, Radau IIA, exponential
loss, ``param="beta"`` / ``"W"``) to the norm e^4 times their SVM's value (µ ≈ 55). At every record the margin-normalised Ŵ(t) and its exact
distance (Frobenius, in the space of d × d matrices) to each solution set: a point, or Diag(F) for the ℓ1 face
(off-diagonal mass and an exact least-distance QP over F). Decided on each flow's asymptotic window (µ > 1,
ln µ ≥ ln µ_end/2): the distance to its own SVM decays (``rules.decays`` at the derived rate), the distance to every
SVM whose set is disjoint from it stays away from 0 (``rules.stays_away``: a plateau).
Shown: the three limits side by side (the diagonal of each flow's last Ŵ beside the three solutions), the
distances along the flows, the fitted exponents. D-SEED0 (§6): all three sets pairwise disjoint (‖β_ℓ2‖₁ = 1.855 >
p* = 1.595; W_F is not diagonal); fitted exponents 0.64 ((K, Q) → ℓ1, κ = 0.639), 0.63 (β → ℓ2), 0.78 (W → WF);
the cross distances stay at 0.37–1.23 (exponents |a| < 0.07). Under Assumption 4 the three SVMs coincide (D-A4:
all Diag(2/5, 1, 0), ``irgf.aux.a4-coincide``), so nothing separates the limits there.

Finding (D-FACE, tests): the solution sets of the ℓ1 and ℓ2 SVMs differ but intersect ((1/2, 1/2, 0) ∈ F), and with
ω₀ = 𝟙 the (K, Q) and direct-β limits are the same point (1/2, 1/2, 0) — "the limits differ whenever the SVMs differ"
holds only with "differ" read as "disjoint" (HOLDS there, with no separation item for that pair).

False cases (tests): a wrong pairing (the (K, Q) flow matched with the Frobenius SVM) → VIOLATED (its distance
plateaus); D-A2VIOL → NOT_APPLICABLE naming Assumption 2; D-DIAGINF → NOT_APPLICABLE naming irgf.hyp.diagsep.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Outcome, Series, register, rules
from verify.claims.registry import Parameter
from verify.data.irgf import d_seed0
from verify.errors import UsageError
from verify.kit import irgf
from verify.numbers.precision import Precision, g_format, to_arb

NEEDS = (irgf.A1, irgf.A2, irgf.A3, irgf.INIT5, irgf.DIAGSEP)
KQ_TARGET = "5"      # ln(‖β‖₁/p*) of the (K, Q) flow (window ln µ ≈ 2.5–5)
DIRECT_TARGET = "4"  # ln µ of the direct flows: each stops at the norm e^4·‖W_svm‖ (µ ≈ 55; the (K, Q) flow: 150)
FLOWS = {"KQ": "diagonal (K, Q), init (5)", "beta": "diagonal W = Diag(β) trained directly, β(0) = 0",
         "W": "full W trained directly, W(0) = 0"}
SVMS = {"l1": "ℓ1-SVM (= W^diag_*-SVM)", "l2": "diagonal ℓ2-SVM", "fro": "Frobenius WF-SVM"}
PAIRING = {"KQ": "l1", "beta": "l2", "W": "fro"}
DIRECT_RATE = 1  # DERIVED: ‖Ŵ − W_svm‖ = O(ln µ/µ) for the direct flows (module docstring)


def _diag(beta, d):
    return [[beta[a] if a == b else Fraction(0) for b in range(d)] for a in range(d)]


def solution_sets(data, ctx):
    """The three certified SVM results and their solutions as exact d × d matrices."""
    d = data.d
    l1, l2, fro = ctx["svm"], irgf.l2_diag_svm(data), irgf.w_svm(data)
    mats = {"l1": _diag(l1.solution, d) if l1.status == "optimal" else None,
            "l2": _diag(l2.solution, d) if l2.status == "optimal" else None,
            "fro": fro.problem.reshape(fro.solution) if fro.status == "optimal" else None}
    return {"l1": l1, "l2": l2, "fro": fro}, mats


def relation(a: str, b: str, res, mats) -> tuple[str, str]:
    """Exactly: are the solution sets of SVMs a and b "equal", "intersect" or "disjoint"? (and why)."""
    pair = {a, b}
    d = len(mats["l2"])
    if pair == {"l2", "fro"}:
        same = mats["l2"] == mats["fro"]
        return ("equal" if same else "disjoint"), ("W_F = Diag(β_ℓ2)" if same else "W_F ≠ Diag(β_ℓ2)") + " (exact)"
    other = (pair - {"l1"}).pop()
    M, l1 = mats[other], res["l1"]
    offdiag = any(M[i][j] != 0 for i in range(d) for j in range(d) if i != j)
    if offdiag:
        return "disjoint", f"the {SVMS[other]} solution is not diagonal (exact)"
    diag = [M[j][j] for j in range(d)]
    norm1 = sum((abs(x) for x in diag), Fraction(0))
    if norm1 > l1.objective:  # the point is feasible (margin 1): on the face iff its ℓ1 norm is p*
        return "disjoint", f"its ℓ1 norm {_short(norm1)} > p* = {_short(l1.objective)} (exact)"
    if l1.unique and diag == list(l1.solution):
        return "equal", "the same point (exact; ℓ1 solution unique)"
    return "intersect", f"its ℓ1 norm = p* = {_short(l1.objective)}: the point lies on the ℓ1 optimal face (exact)"


def _short(x: Fraction) -> str:
    return str(x) if x.denominator < 10 ** 6 else g_format(x, 6)


def _margin(rows, theta) -> arb:
    return min((sum((to_arb(a) * t for a, t in zip(r, theta) if a), arb(0)) for r in rows), key=lambda v: v.mid())


def distance(What, svm: str, res, mats, dps: int) -> arb:
    """Frobenius distance from the d × d matrix Ŵ (arb) to the solution set of ``svm`` (exact)."""
    d = len(What)
    if svm != "l1" or res["l1"].unique:
        M = mats[svm]
        diff = [What[a][b] - to_arb(M[a][b]) for a in range(d) for b in range(d)]
        return sum((x * x for x in diff), arb(0)).nonnegative_part().sqrt()  # x*x: arb's x**2 is nan on a ball at 0
    from verify.svm import distance_to_solution_set

    off = sum((What[a][b] * What[a][b] for a in range(d) for b in range(d) if a != b), arb(0))
    on = distance_to_solution_set([What[j][j] for j in range(d)], res["l1"], dps=dps, normalise=False)
    return (off + on * on).nonnegative_part().sqrt()


def kq_records(out, data, omega0, target):
    """[(µ, Ŵ, ln t)] along the (K, Q) flow (dual coordinates), records with µ > 0; None when it did not reach."""
    _, recs, reached = irgf.follow(out, data, omega0, target)
    if not reached:
        return None
    d = data.d
    return [(p.mu, [[p.beta[a] / p.mu if a == b else arb(0) for b in range(d)] for a in range(d)], p.log_t)
            for _, p in recs if p.mu > 0]


def direct_records(out, data, param: str, res, target, dps: int):
    """[(µ, Ŵ, ln t)] along the direct flow ``param`` ("beta" or "W") from 0 to the norm e^target·‖W_svm‖ (its SVM's
    value: there µ ≈ e^target, since the direction is then near the SVM's, whose margin is 1)."""
    from verify.dynamics.flow import CHECK_STEPS, gradient_flow

    rows = res.problem.rows
    target = g_format((to_arb(Fraction(target)).exp() * to_arb(res.objective)).mid(), 6)  # float64 made 10^−800 "0"
    traj = gradient_flow(data, param, until_norm=target, dps=dps, loss="exponential", svm=False,
                         max_steps=CHECK_STEPS)
    ok = out.require(f"the {FLOWS[param]} flow reached its norm {target}", traj.status == "reached",
                     f"status {traj.status}, {traj.steps} steps")
    lt = traj.records[-1].log_t  # None while the flow is at its start
    out.notes.append(f"{FLOWS[param]}: Radau IIA arc-length flow (exponential loss) to norm {target}, {traj.steps} "
                     f"steps, ln t = {'—' if lt is None else lt.str(5, radius=False)} at the end; no rigorous error "
                     "bound")
    d, recs = data.d, []
    for r in traj.records[1:]:
        m = _margin(rows, r.direction)
        if not m > 0:
            continue
        th = [x / m for x in r.direction]
        What = [[th[a] if a == b else arb(0) for b in range(d)] for a in range(d)] if param == "beta" else \
            [th[a * d:(a + 1) * d] for a in range(d)]
        recs.append((m * r.norm, What, r.log_t))
    return recs if ok else None


def parse_pairing(pairing) -> dict:
    """The pairing flow → SVM (default ``PAIRING``); ``pairing`` overrides entries, e.g. {"KQ": "fro"} (false case)."""
    out = dict(PAIRING)
    for f, s in (pairing or {}).items():
        if f not in FLOWS or s not in SVMS:
            raise UsageError(f"pairing: flows are {', '.join(FLOWS)}, SVMs {', '.join(SVMS)}; got {f!r}: {s!r}")
        out[f] = s
    return out


def evaluate(data, prec: Precision, omega0=None, kq_target=KQ_TARGET, direct_target=DIRECT_TARGET, pairing=None,
             check_hypotheses=True) -> Outcome:
    pair = parse_pairing(pairing)
    out = Outcome()
    ctx = irgf.hypotheses(out, data, NEEDS, "irgf.cmp.frobenius", omega0, check_hypotheses)
    out.cover("the direct flows from β(0) = 0 and W(0) = 0")
    if not out.applicable():
        return out
    if not out.require("the exact ℓ1-SVM optimum (diagonal separability)", bool(ctx["diagsep"])):
        return out
    # ----- static part: three certified SVMs, their solution sets compared exactly ---------------------------------
    res, mats = solution_sets(data, ctx)
    for k, r in res.items():
        out.add(Evidence(f"{SVMS[k]}: exact optimum with a verified certificate", r.status == "optimal", "==", True,
                         note=f"value {_short(r.objective) if isinstance(r.objective, Fraction) else r.objective}"
                              + ("" if k != "l1" else f"; solution unique: {r.unique}")))
    if any(m is None for m in mats.values()):
        return out
    rel = {}
    for a, b in (("l1", "l2"), ("l1", "fro"), ("l2", "fro")):
        kind, why = relation(a, b, res, mats)
        rel[(a, b)] = rel[(b, a)] = kind
        out.add(Evidence(f"solution sets of the {SVMS[a]} and the {SVMS[b]}: {kind} — {why}", kind, note=why))
    # ----- dynamic part: each flow's Ŵ(t) against the three solution sets ----------------------------------------------
    flows = {"KQ": kq_records(out, data, omega0, kq_target)}
    krange = out.range
    flows["beta"] = direct_records(out, data, "beta", res["l2"], direct_target, prec.dps)
    flows["W"] = direct_records(out, data, "W", res["fro"], direct_target, prec.dps)
    out.range = f"(K, Q): {krange}; direct flows: ‖β‖₂, ‖W‖_F ≤ e^{float(Fraction(direct_target)):g}·(their SVM's value)"
    if any(v is None for v in flows.values()):
        return out
    tol, kappa = prec.tolerance, irgf.expected_rate(res["l1"])
    rate = {"l1": kappa, "l2": DIRECT_RATE, "fro": DIRECT_RATE}
    curves, last = {}, {}
    for f, recs in flows.items():
        win = [x for _, x in irgf.window([(None, x) for x in recs], key=lambda x: x[0])]
        if not out.require(f"{FLOWS[f]}: an asymptotic window of ≥ 4 records with µ > 1", len(win) >= 4,
                           f"{len(win)} record(s)"):
            continue
        mus = [x[0] for x in win]
        span = f"window ln µ ∈ [{mus[0].log().str(3, radius=False)}, {mus[-1].log().str(3, radius=False)}]"
        for s in SVMS:
            ds = [distance(x[1], s, res, mats, prec.total) for x in win]
            curves[(f, s)] = ([irgf.fl(x[0]) for x in recs], [irgf.log10f(distance(x[1], s, res, mats, prec.total))
                                                               for x in recs])
            if s == pair[f]:
                out.add(irgf.ruled(f"{FLOWS[f]}: ‖Ŵ(t) − {SVMS[s]}‖ → 0 like µ^(−a) (value: at the last record)", ds[-1],
                                   rules.decays(mus, ds, expected=rate[s], tail=len(win), zero=tol),
                                   note=f"derived rate {float(rate[s]) if rate[s] is not None else 'none'}; {span}"))
                if all(x > tol for x in ds):
                    out.add(Evidence(f"{FLOWS[f]}: fitted exponent a of ‖Ŵ − {SVMS[s]}‖ ∝ µ^(−a)",
                                     -irgf.fitted_exponent(mus, ds)))
            elif rel[(pair[f], s)] == "disjoint":
                out.add(irgf.ruled(f"{FLOWS[f]}: dist(Ŵ(t), {SVMS[s]}) stays away from 0 (sets disjoint from the "
                                   f"{SVMS[pair[f]]}'s; value: at the last record)", ds[-1],
                                   rules.stays_away(mus, ds, zero=tol), note=span))
            elif s != pair[f]:
                out.notes.append(f"{FLOWS[f]} vs the {SVMS[s]}: its set and the {SVMS[pair[f]]}'s "
                                 f"{'coincide' if rel[(pair[f], s)] == 'equal' else 'intersect'}: no separation predicted")
        last[f] = recs[-1][1]
    out.show(*figures(data, flows, curves, last, mats, pair))
    return out


def figures(data, flows, curves, last, mats, pair):
    d = data.d
    style = {"KQ": "-o", "beta": "-s", "W": "-^"}
    dist = [Series(f"{f} → {s}" + (" (paired)" if s == pair[f] else ""), xs, ys, style[f] if s == pair[f] else "--")
            for (f, s), (xs, ys) in curves.items()]
    f1 = irgf.figure("distances", "Distances of each flow's Ŵ(t) to the three SVM solution sets", "µ(W(t))",
                     "log10 ‖Ŵ(t) − SVM set‖_F", dist, logx=True,
                     caption=f"{data.name}: KQ = {FLOWS['KQ']}, beta = {FLOWS['beta']}, W = {FLOWS['W']}; l1/l2/fro "
                             "= the ℓ1, diagonal ℓ2 and Frobenius SVMs; log10 at the working precision.")
    js = list(range(1, d + 1))
    side = [Series(f"{SVMS[s]}", js, [float(mats[s][j][j]) for j in range(d)], "-") for s in SVMS]
    side += [Series(f"last Ŵ of {f} flow", js, [irgf.fl(last[f][j][j]) for j in range(d)], style[f][1:])
             for f in flows if f in last]
    off = {f: max((abs(last[f][a][b]) for a in range(d) for b in range(d) if a != b), key=lambda z: z.mid())
           for f in last}
    f2 = irgf.figure("limits", "The three limits side by side: diagonal of Ŵ at the last record and of each SVM "
                     "solution", "coordinate j", "Ŵ_jj", side,
                     caption=f"{data.name}: lines = exact SVM solutions (Frobenius: max off-diagonal "
                             f"{max(abs(float(x)) for a, row in enumerate(mats['fro']) for b, x in enumerate(row) if a != b):.3g}"
                             f"), markers = the flows' last margin-normalised Ŵ (max off-diagonal: "
                             + ", ".join(f"{f} {irgf.fl(v):.3g}" for f, v in off.items()) + ").")
    return f1, f2


STATEMENT = """\
The same data trained as diagonal (K, Q) from init (5), as diagonal W = Diag(β) directly and as full W directly:
the margin-normalised limits solve the ℓ1-SVM (Theorem 4.1), the diagonal ℓ2-SVM and the Frobenius WF-SVM
(Tarzanagh et al., cited in §4.2), so they differ whenever the SVMs differ.

Static part certified (three exact SVMs; their solution sets disjoint / intersecting / equal, decided exactly);
dynamic part as evidence along the three flows over the range reached.
"""

CLAIM = register(Claim(id="irgf.cmp.frobenius", paper="irgf", number="§4.2", kind="asymptotic",
                       title="Frobenius versus nuclear implicit bias: (K, Q), diagonal W and full W reach different "
                             "SVMs", statement=STATEMENT, check=evaluate, default_datasets=(d_seed0,),
                       aliases=("frobenius-vs-nuclear",), default_precision=30,
                       parameters=(
                           irgf.OMEGA0_PARAMETER,
                           Parameter("β(0), W(0)", "the direct flows' start (the cited results: zero / small init)",
                                     "range", "β(0) = 0 and W(0) = 0 (named in the verdict)"),
                           Parameter("t → ∞", "the limits", "range",
                                     "the (K, Q) flow to ln(‖β‖₁/p*) = 5 (`kq_target`), the direct flows to the norm e^4·(their "
                                     "SVM's value) (`direct_target`); the range reached is named in the verdict",
                                     option="direct_target"))))
