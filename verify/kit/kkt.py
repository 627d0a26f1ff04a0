"""Approximate-KKT residual trends: how far β̂(t) = β(t)/µ(t) along the irgf flow is from a KKT
point of the ℓ1-SVM with the paper's multipliers λ = φ/ln µ (App. A.5 (C1)–(C3), identity (31)),
each residual decided by a rule of ``verify.claims.rules`` over the asymptotic window.

Residuals at one record (DERIVED choices, stated in ``irgf.prop.kkt``): with J₁ = {j : |(Bλ*)_j| = 1}
(``kit.irgf.support_coordinates``), ε = max(max_{J₁} |(Bλ)_j − sign β̂_j|, max_{J₀} (|(Bλ)_j| − 1)₊)
(stationarity (C1)), ε′ = ‖β̂_{J₀}‖₂ (off-support mass), δ = max_il λ_il(β̂ᵀB_il − 1)
(complementary slackness (C3)), and the duality gap ‖β̂‖₁ − Σλ/‖Bλ‖_∞ certified by the rescaled
multipliers (λ/‖Bλ‖_∞ is dual feasible).

Pointwise identities — (31) and the minimum margin 1 of β̂ — hold at every φ and are certified at
each record (Tallies). Everything else depends on the integrated φ (no rigorous error bound):
``enclosed=False``, and the trends are decided by rules: ε, δ ≈ a + c/ln µ by
``rules.extrapolates_to_zero`` (rates ~1/ln µ: a fixed small tolerance would be wrong; read only where the
window's ends confirm the fit given how far ε's numerator can still drift while the direction settles:
``support_drift``), ε′ like
µ^{−κ} by ``rules.decays`` with the DERIVED κ.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from flint import arb

from verify.claims import Evidence, Tally, rules
from verify.kit.irgf import ruled
from verify.numbers.precision import to_arb


def _max(xs):
    return max(xs, key=lambda z: z.mid())


@dataclass
class KKTRow:
    """The residuals at one window record (λ possibly perturbed by the caller: false cases)."""

    s: Fraction
    point: object  # DualPoint
    ln_mu: arb
    lam: list
    eps: arb
    eps_off: arb
    delta: arb
    gap: arb


def residuals(sysm, p, lam, J1):
    """(ε, ε′, δ, duality gap, Bλ) at one record with multipliers ``lam``."""
    Bl = sysm.theta(lam)  # Bλ
    bh = [b / p.mu for b in p.beta]
    eps = arb(0)
    for j in range(sysm.d):
        if j in J1:
            r = abs(Bl[j] - (1 if bh[j].mid() >= 0 else -1))
        else:
            r = abs(Bl[j]) - 1
            r = r if r > 0 else arb(0)
        eps = _max([eps, r])
    eps_off = sum((bh[j] * bh[j] for j in range(sysm.d) if j not in J1), arb(0)).sqrt()
    delta = _max([lam[k] * (p.margins[k] / p.mu - 1) for k in range(sysm.m)])
    gap = sum((abs(x) for x in bh), arb(0)) - sum(lam, arb(0)) / _max([abs(x) for x in Bl])
    return eps, eps_off, delta, gap, Bl


def rows(sysm, window, J1, lam_transform=None) -> list:
    """A KKTRow per window record (µ > 1), λ = φ/ln µ (then ``lam_transform(λ)`` if given)."""
    out = []
    for r, p in window:
        ln_mu = p.mu.log()
        lam = [x / ln_mu for x in r.phi]
        if lam_transform is not None:
            lam = lam_transform(lam)
        eps, eps_off, delta, gap, _ = residuals(sysm, p, lam, J1)
        out.append(KKTRow(r.s, p, ln_mu, lam, eps, eps_off, delta, gap))
    return out


def identity31(sysm, window, tol) -> Evidence:
    """(31) β̂ = (ω₀²/2) ⊙ (µ^{Bλ−1} − µ^{−Bλ−1}) with the unperturbed λ = φ/ln µ, relative to
    max(|β̂_j|, 1), at every coordinate of every window record (an identity at each φ: certified)."""
    w2 = [to_arb(w) for w in sysm.w2_exact]
    tally = Tally("identity (31): |β̂ − (ω₀²/2)(µ^(Bλ−1) − µ^(−Bλ−1))| (relative, window)", "<=", tol, residual=True)
    for r, p in window:
        ln_mu = p.mu.log()
        Bl = sysm.theta([x / ln_mu for x in r.phi])
        for j in range(sysm.d):
            rhs = w2[j] / 2 * ((ln_mu * (Bl[j] - 1)).exp() - (ln_mu * (-Bl[j] - 1)).exp())
            lhs = p.beta[j] / p.mu
            tally.add((lhs - rhs) / _max([abs(lhs), arb(1)]), f"s = {r.s}, j = {j}")
    return tally.evidence()


def dual_feasible(rows, tol) -> Evidence:
    tally = Tally("min λ_il at each window record (dual feasibility λ ≥ 0)", ">=", -tol)
    for row in rows:
        tally.add(min(row.lam, key=lambda z: z.mid()), f"s = {row.s}")
    return tally.evidence("λ = φ/ln µ from the integrated φ", enclosed=False)


def primal_feasible(rows, tol) -> Evidence:
    """(C2) max_il (1 − β̂ᵀB_il) = 0: β̂ = β/µ has minimum margin exactly 1 (an identity once µ > 0)."""
    tally = Tally("(C2) max_il (1 − β̂ᵀB_il) at each window record", "<=", tol, residual=True)
    for row in rows:
        p = row.point
        tally.add(_max([1 - m / p.mu for m in p.margins]), f"s = {row.s}")
    return tally.evidence("β̂ has minimum margin exactly 1 once µ > 0")


def trend(name: str, short: str, rows, values, tol, drift=None) -> list:
    """A residual that decays like a + c/ln µ: ``rules.extrapolates_to_zero`` against 1/ln µ over the
    window (or, identically ≤ tol, a residual Tally), and (shown) its value × ln µ at the end. ``drift``: how far
    its numerator c can move over the window while the direction settles (``support_drift``; None: the fit alone)."""
    if all(abs(v) <= tol for v in values):
        tally = Tally(f"{name}: {short} at each window record (identically 0)", "<=", tol, residual=True)
        tally.extend(values, lambda k: f"s = {rows[k].s}")
        return [tally.evidence(enclosed=False)]
    xs = [1 / row.ln_mu for row in rows]
    return [ruled(f"{short}: fitted limit a of {short} ≈ a + c/ln µ → 0 ({name}; value: {short} at the last record)",
                  values[-1], rules.extrapolates_to_zero(xs, values, tol, drift),
                  note=f"window ln µ ∈ [{rows[0].ln_mu.str(4, radius=False)}, {rows[-1].ln_mu.str(4, radius=False)}], "
                       f"{short} = {values[0].str(5, radius=False)} at its start"),
            Evidence(f"{short}·ln µ at the last record", values[-1] * rows[-1].ln_mu)]


def support_drift(rows, J1):
    """How far the stationarity residual's numerator ε·ln µ can move over the window without a limit ε → a > 0:
    by (31), (Bλ)_j·ln µ − ln µ = asinh(C_jµ/2) − ln µ = ln C_j + O((C_jµ)^−2) with C_j = 2β̂_j/ω₀,j² on the
    support J₁, so while β̂(t) settles c_j ≈ |ln C_j| moves by |Δ ln|β̂_j||. The largest over J₁ between the window's
    first and last records (∞ if some β̂_j is 0 there: ln undefined, nothing can be bounded)."""
    first, last = rows[0].point, rows[-1].point
    out = 0.0
    for j in J1:
        b0, b1 = first.beta[j] / first.mu, last.beta[j] / last.mu
        if not (abs(b0) > 0 and abs(b1) > 0):
            return float("inf")
        out = max(out, abs(float((abs(b1).log() - abs(b0).log()).mid())))
    return out


def off_support(rows, kappa, tol) -> Evidence:
    """ε′ = ‖β̂_{J₀}‖₂ → 0 like µ^{−κ} (DERIVED from (31)): ``rules.decays`` over the window with the
    expected rate κ (or identically ≤ tol: a residual Tally)."""
    values = [row.eps_off for row in rows]
    name = "ε′(t) = ‖β̂ − β̌‖₂ (off-support mass)"
    if all(abs(v) <= tol for v in values):
        tally = Tally(f"{name} at each window record (identically 0)", "<=", tol, residual=True)
        tally.extend(values, lambda k: f"s = {rows[k].s}")
        return tally.evidence(enclosed=False)
    return ruled(f"{name} → 0 like µ^(−a) (value: at the last record)", values[-1],
                 rules.decays([row.point.mu for row in rows], values, expected=kappa, tail=len(rows)),
                 note=f"DERIVED rate κ ≈ {float(kappa):.3f}" if kappa is not None else "no derived rate")


def duality_gap(rows, tol) -> Evidence:
    """‖β̂‖₁ − Σλ/‖Bλ‖_∞ at the last record: ≥ 0 (weak duality; |gap| ≤ tol when it vanishes)."""
    last = rows[-1]
    if abs(last.gap) <= tol:
        return Evidence("|duality gap| ‖β̂‖₁ − Σλ/‖Bλ‖_∞ at the last record", last.gap, "<=", tol, residual=True,
                        enclosed=False)
    return Evidence("duality gap ‖β̂‖₁ − Σλ/‖Bλ‖_∞ at the last record", last.gap, ">=", -tol, enclosed=False,
                    note=f"·ln µ = {(last.gap * last.ln_mu).str(5, radius=False)} (predicted ≈ 1.0 on D-SEED0)")


def predicted_eps_limit(res, J1, w2) -> Evidence | None:
    """DERIVED from (31): lim ε·ln µ = max_{J₁} |ln(2|β*_j|/ω₀,j²)| (unique solution only)."""
    if not res.unique:
        return None
    vals = [abs((2 * abs(to_arb(res.solution[j])) / w2[j]).log()) for j in J1 if res.solution[j] != 0]
    if not vals:
        return None
    return Evidence("predicted lim ε·ln µ = max_J₁ |ln(2|β*_j|/ω₀,j²)| (DERIVED)", _max(vals))


def exact_kkt(res, beta, lam, what: str = "β") -> list:
    """The KKT conditions of the ℓ1-SVM min ‖β‖₁ s.t. βᵀB_k ≥ 1 at an exact point ``beta`` with exact
    multipliers ``lam`` (Fractions), each an exact Evidence (certified): primal feasibility min_k βᵀB_k ≥ 1,
    dual feasibility λ ≥ 0, stationarity Bλ ∈ ∂‖β‖₁ ((Bλ)_j = sign β_j where β_j ≠ 0, |(Bλ)_j| ≤ 1 where β_j = 0),
    complementary slackness λ_k(βᵀB_k − 1) = 0; and (convexity: KKT ⇒ global optimum) ‖β‖₁ = Σλ = p*."""
    prob = res.problem
    rows = prob.rows
    margins = [sum((a * b for a, b in zip(r, beta)), Fraction(0)) for r in rows]
    g = [sum((lam[k] * rows[k][j] for k in range(prob.m) if lam[k]), Fraction(0)) for j in range(prob.dim)]
    on = [j for j in range(prob.dim) if beta[j] != 0]
    stat_on = max((abs(g[j] - (1 if beta[j] > 0 else -1)) for j in on), default=Fraction(0))
    stat_off = max((abs(g[j]) for j in range(prob.dim) if beta[j] == 0), default=Fraction(0))
    slack = max((abs(lam[k] * (margins[k] - 1)) for k in range(prob.m)), default=Fraction(0))
    l1 = sum((abs(b) for b in beta), Fraction(0))
    return [
        Evidence(f"primal feasibility: min_il {what}ᵀB_il", min(margins), ">=", 1, note="exact rational"),
        Evidence("dual feasibility: min λ_il", min(lam), ">=", 0, note="exact rational"),
        Evidence(f"stationarity on supp {what}: max_j |(Bλ)_j − sign {what}_j|", stat_on, "==", 0,
                 note=f"exact; support {[j + 1 for j in on]} (1-based)"),
        Evidence(f"stationarity off supp {what}: max_j |(Bλ)_j| (∂|0| = [−1, 1])", stat_off, "<=", 1, note="exact"),
        Evidence(f"complementary slackness: max_il |λ_il({what}ᵀB_il − 1)|", slack, "==", 0, note="exact"),
        Evidence(f"‖{what}‖₁ − Σλ (zero duality gap: KKT ⇒ global optimum, convex LP)", l1 - sum(lam, Fraction(0)),
                 "==", 0, note=f"exact: ‖{what}‖₁ = {l1}" if l1.denominator < 10 ** 12 else "exact"),
    ]
