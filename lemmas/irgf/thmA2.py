"""irgf Theorem A.2 — limits of approximate KKT points are KKT points (App. A.5, Def. A.1–A.3; a corollary of
Dutta, Deb, Tulshyan, Arora 2013, Thm 3.6), checked on the irgf trajectories (Sheen, Chen, Wang, Zhou, arXiv
2403.08699 v1).

Statement (Thm A.2). For min f(β) s.t. g_i(β) ≤ 0 (f, g_i locally Lipschitz, Clarke subdifferential ∂): if β_k is an
(ε_k, ε′_k, δ_k)-KKT point (Def. A.3: ∃ β̌_k with ‖β_k − β̌_k‖₂ ≤ ε′_k, λ ≥ 0, I ∈ ∂f(β̌_k), s_i ∈ ∂g_i(β̌_k) with
‖I + Σλ_i s_i‖₂ ≤ ε_k, g_i(β_k) ≤ 0, λ_i g_i(β_k) ≥ −δ_k) with ε_k, ε′_k, δ_k → 0, β_k → β, and MFCQ (Def. A.2)
holds at β, then β is a KKT point (Def. A.1). The paper applies it to the (ℓ1-SVM) min ‖β‖₁ s.t. 1 − βᵀB_il ≤ 0
(convex: KKT ⇒ global optimum) with β_k = β̂(t_k) = β(t_k)/µ(t_k) along the diagonal flow and λ = φ/ln µ.

Hypotheses (→ NOT_APPLICABLE naming the failed one). Of the setting (``verify.kit.irgf``, as for Theorem 4.1):
Assumptions 1–3, init (5), ``irgf.hyp.diagsep``. Of Thm A.2, computed on the sequence: MFCQ at the limit — decided
exactly: for this LP ∂g_il = {−B_il}, and v = −β* (β* the exact LP optimum) gives ⟨−B_il, v⟩ = β*ᵀB_il ≥ 1 > 0 for
every (i, l), so MFCQ holds at every feasible point (DERIVED; the spec: strict feasibility suffices); the sequence
is (ε_k, ε′_k, δ_k)-KKT with residuals → 0 — the kit's residuals of ``irgf.prop.kkt`` (``verify.kit.kkt``: (C2)
g_il(β̂) ≤ 0 certified at every record, λ ≥ 0; ε and δ → 0 by ``rules.extrapolates_to_zero`` against 1/ln µ, ε′ → 0 by
``rules.decays`` at the DERIVED rate κ), each a hypothesis whose ``met`` is its decision (a stalled residual: the
theorem does not apply).

Conclusion, checked. The limit of the sequence is a KKT point: (i) the candidate limit β_∞ — the exact LP optimum
when it is unique, else the point of the exact optimal face F nearest to the last β̂ (exact least-distance QP,
``verify.svm.nearest_in_l1_face``) — satisfies the KKT conditions exactly with the exact dual optimum λ*
(``verify.kit.kkt.exact_kkt``: primal and dual feasibility, Bλ* ∈ ∂‖β_∞‖₁, complementary slackness, and ‖β_∞‖₁ = Σλ*
— certified, rational arithmetic); (ii) β̂(t) → β_∞: ‖β̂(t) − β_∞‖_∞ decays over the asymptotic window
(``rules.decays``, DERIVED rate κ; identically ≤ 10^−dps on D-FACE, where β̂(t) = (1/2, 1/2, 0) for all t). Shown:
‖λ(t) − λ*‖_∞ at the last record (unique dual only): the paper's multipliers approach λ* like 1/ln µ.
Range: the flow of Theorem 4.1 to ln(‖β‖₁/p*) = 10 (shared with ``irgf.thm41``/``irgf.prop.kkt``).

False cases (tests): a wrong limit (β_∞ displaced off the face by 1/10 on coordinate 2 of D-SEED0: stationarity
fails exactly, the distance plateaus) → VIOLATED; ω₀,3 = 0 on D-SEED0 with the setting's hypotheses bypassed (the
residuals do not vanish: the theorem's own hypothesis fails) → NOT_APPLICABLE naming it; D-DIAGINF → NOT_APPLICABLE
naming irgf.hyp.diagsep.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Hypothesis, Outcome, Series, Tally, register, rules
from verify.data.irgf import d_face, d_seed0
from verify.kit import irgf, kkt
from verify.numbers.precision import Precision, to_arb

NEEDS = (irgf.A1, irgf.A2, irgf.A3, irgf.INIT5, irgf.DIAGSEP)


def mfcq(res) -> Hypothesis:
    """MFCQ (Def. A.2) at every feasible point of the ℓ1-SVM, decided exactly with v = −β*."""
    worst = irgf.min_margin(res)
    return Hypothesis("MFCQ (Def. A.2) at the limit: v = −β* gives ⟨−B_il, v⟩ = β*ᵀB_il > 0 for every (i, l)",
                      worst > 0, f"min_il β*ᵀB_il = {worst} (exact; MFCQ at every feasible point of the LP)")


def as_hypothesis(item: Evidence) -> Hypothesis:
    """A premise of Thm A.2 decided on the sequence (a Tally or a rule), as a hypothesis."""
    shown = item.value.str(5, radius=False) if isinstance(item.value, arb) else str(item.value)
    return Hypothesis(f"Thm A.2: β̂(t_k) is (ε_k, ε′_k, δ_k)-KKT — {item.quantity}", item.decide(),
                      f"value {shown}; {item.note}")


def candidate_limit(res, last_beta_hat) -> list:
    """The exact candidate limit: β* when unique, else the face point nearest to the last β̂."""
    if res.unique:
        return list(res.solution)
    from verify.svm import nearest_in_l1_face

    return nearest_in_l1_face(last_beta_hat, res)


def evaluate(data, prec: Precision, omega0=None, target=irgf.DEFAULT_TARGET, check_hypotheses=True,
             limit_shift=None) -> Outcome:
    """``limit_shift``: an exact vector added to the candidate limit (false case: a wrong limit)."""
    out = Outcome()
    ctx = irgf.hypotheses(out, data, NEEDS, "irgf.thmA2", omega0, check_hypotheses)
    if not out.applicable():
        return out
    res = ctx["svm"] if ctx["diagsep"] else None
    if not out.require("the exact ℓ1-SVM optimum (p*, λ*, the optimal face)", res is not None):
        return out
    out.hypotheses.append(mfcq(res))
    traj, recs, reached = irgf.follow(out, data, omega0, target)
    if not reached:
        return out
    win = irgf.window(recs)
    if not out.require("an asymptotic window of ≥ 3 records with µ > 1", len(win) >= 3, f"{len(win)} record(s)"):
        return out
    sysm, tol, J1 = traj.system, prec.tolerance, irgf.support_coordinates(res)
    rows = kkt.rows(sysm, win, J1)
    premises = [kkt.primal_feasible(rows, tol), kkt.dual_feasible(rows, tol),
                kkt.trend("(C1) stationarity", "ε", rows, [r.eps for r in rows], tol)[0],
                kkt.trend("(C3) complementary slackness", "δ", rows, [r.delta for r in rows], tol)[0],
                kkt.off_support(rows, irgf.expected_rate(res), tol)]
    out.hypotheses.extend(as_hypothesis(e) for e in premises)
    if not out.applicable():
        return out
    # ----- the conclusion: the limit is a KKT point ---------------------------------------------------------------
    last = rows[-1].point
    beta_hat = [b / last.mu for b in last.beta]
    limit = candidate_limit(res, beta_hat)
    if limit_shift is not None:
        limit = [a + Fraction(b) for a, b in zip(limit, limit_shift)]
    out.add(*kkt.exact_kkt(res, limit, list(res.duals), "β_∞"))
    dists = [max((abs(b / r.point.mu - to_arb(x)) for b, x in zip(r.point.beta, limit)), key=lambda z: z.mid())
             for r in rows]
    mus = [r.point.mu for r in rows]
    kappa = irgf.expected_rate(res)
    if all(x <= tol for x in dists):  # on the limit at every record (D-FACE): a residual, no trend
        on = Tally("β̂(t_k) = β_∞: ‖β̂(t) − β_∞‖_∞ at each window record (identically 0)", "<=", tol, residual=True)
        on.extend(dists, lambda k: f"s = {rows[k].s}")
        out.add(on.evidence(f"β_∞ = ({', '.join(str(x) for x in limit)})", enclosed=False))
    else:
        out.add(irgf.ruled("β̂(t_k) → β_∞: ‖β̂(t) − β_∞‖_∞ → 0 (value: at the last record)", dists[-1],
                           rules.decays(mus, dists, expected=kappa, tail=len(rows), zero=tol),
                           note=f"β_∞ = ({', '.join(f'{float(x):.6g}' for x in limit)}) "
                                f"({'the unique LP optimum' if res.unique else 'nearest face point to the last β̂'}); "
                                f"DERIVED rate κ = {float(kappa) if kappa is not None else 'none'}; window ln µ ∈ "
                                f"[{rows[0].ln_mu.str(4, radius=False)}, {rows[-1].ln_mu.str(4, radius=False)}]"))
    if res.unique:
        gap = max((abs(a - to_arb(b)) for a, b in zip(rows[-1].lam, res.duals)), key=lambda z: z.mid())
        out.add(Evidence("‖λ(t) − λ*‖_∞ at the last record (the paper's multipliers φ/ln µ against the exact dual)",
                         gap, note=f"·ln µ = {(gap * rows[-1].ln_mu).str(4, radius=False)}: a 1/ln µ approach"))
    xs = [irgf.fl(r.ln_mu) for r in rows]
    fig = irgf.figure("kkt-limit", "Thm A.2 on the flow: KKT residuals, distance to the limit", "ln µ(t)", "log10", [
                          Series("‖β̂(t) − β_∞‖_∞", xs, [irgf.log10f(x) for x in dists], "-o"),
                          Series("ε (stationarity)", xs, [irgf.log10f(r.eps) for r in rows], "-s"),
                          Series("δ (compl. slackness)", xs, [irgf.log10f(r.delta) for r in rows], "-^"),
                          Series("ε′ (off-support mass)", xs, [irgf.log10f(r.eps_off) for r in rows], "-x")],
                      caption=f"{data.name}: along the asymptotic window of the diagonal flow from init (5); β_∞ "
                              "certified a KKT point of the ℓ1-SVM in rational arithmetic; log10 at the working "
                              "precision.")
    out.show(fig)
    return out


STATEMENT = """\
Thm A.2 (Dutta et al. 2013, Thm 3.6): (ε_k, ε′_k, δ_k)-KKT points β_k with ε_k, ε′_k, δ_k → 0 and β_k → β, MFCQ at
β ⇒ β is a KKT point (for the convex ℓ1-SVM: a global optimum). Checked on the irgf sequence β̂(t_k) with λ = φ/ln µ:
MFCQ exactly, the residuals → 0 on the flow (premises), the candidate limit certified KKT in rational arithmetic and
β̂(t) → it over the range reached.
"""

CLAIM = register(Claim(id="irgf.thmA2", paper="irgf", number="Thm A.2", kind="asymptotic",
                       title="Limits of approximate KKT points (Dutta et al.) are KKT points: on the irgf trajectories",
                       statement=STATEMENT, check=evaluate, default_datasets=(d_seed0, d_face),
                       aliases=("dutta-limit", "approx-kkt-point"), default_precision=30,
                       parameters=(irgf.OMEGA0_PARAMETER,)))
