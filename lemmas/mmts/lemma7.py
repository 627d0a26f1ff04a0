"""mmts Lemma 7 — local gradient condition in the cone around a locally-optimal max-margin direction
(App. B.1, proof (32)–(50)).

Setting. α = (α_i) locally optimal (Definition 2): ATT-SVM(α) feasible with solution p^mm = p^mm(α),
SVM-neighbours T_i = {t ≠ α_i : (k_{iα_i} − k_it)ᵀp^mm = 1} all with γ_it < γ_{iα_i}; non-neighbours
T̄_i with excess margins δ_iτ = (k_{iα_i} − k_iτ)ᵀp^mm − 1 > 0. Cones (7)–(8):
cone_μ(p^mm) = {p : corr(p, p^mm) ≥ 1 − μ}, C_{μ,R}(p^mm) = cone_μ(p^mm) ∩ {‖p‖ ≥ R}.
Assumption A on the loss (logistic here: ℓ' < 0, M₀ = 1/4, M₁ = 1).

Statement (symbols restored; spec `mmts.lemma7`, constants UNCERTAIN there):

* **L1** there is μ = μ(α) > 0 such that for all sufficiently large R, C_{μ,R}(p^mm) contains no
  stationary point of L; checked through −⟨∇L(p), p^mm⟩ > 0.
* **L2 (31a)** for q ∈ cone_μ(p^mm) with ‖q‖ = ‖p^mm‖ and p ∈ C_{μ,R}(p^mm):
  C·(1/n)Σ_i(1 − s_{iα_i}(p)) ≥ −⟨∇L(p), q⟩ ≥ c·(1/n)Σ_i(1 − s_{iα_i}(p)) > 0;
  **(31b)** the matching bound for ‖∇L(p)‖; **(31c)** an exponential-in-‖p‖ upper bound.
* **L3** for every π > 0 there is R_π with ⟨∇L(p), p/‖p‖⟩ ≥ (1+π)⟨∇L(p), p^mm/‖p^mm‖⟩ on
  C_{μ,R_π}(p^mm), i.e. ⟨−∇L, p̄⟩ ≤ (1+π)⟨−∇L, p̄^mm⟩.

What is used where the spec is UNCERTAIN (all DERIVED in ``verify.geometry.cones`` and checked here):

* μ: the paper's (32) is not recovered. We take **μ = μ₀/2** with the derived sufficient width
  μ₀(α) = min( ½ min_{(i,t)∈T, (j,τ)∈T̄} (δ_jτ /(‖p^mm‖ ‖(k_{iα_i}−k_it) − (k_{jα_j}−k_jτ)‖))²,
  ½ (‖p^mm‖ max_{i,t}‖k_{iα_i}−k_it‖)^{-2} ). The spec writes the first minimum within one input
  (i = j); for n > 1 a non-neighbour of one input must also stay behind the neighbours of the
  others, so the minimum is over all pairs (equal to the spec's value for n = 1, never larger).
  The exact critical width μ* (a higher-score non-neighbour ties with a neighbour on the cone
  boundary) is reported beside it: Fig. 1(b) μ₀ = 4.950e−3, μ* = 1 − 1/√1.01 = 4.963e−3.
* L2 normalisation ‖q‖ = ‖p^mm‖ (spec); the infimum/supremum over **all** q of the cone is taken in
  closed form (a linear function on a spherical cap), so only p is sampled.
* Explicit constants proved here: ‖∇L(p)‖ ≤ C'·(1/n)Σ(1 − s_{iα_i}) for every p with
  C' = M₁ max_i Γ_i A_i (Γ_i the score range, A_i = max_t‖k_{iα_i} − k_it‖), hence −⟨∇L, q⟩ ≤
  C'‖p^mm‖·(1/n)Σ(1 − s_{iα_i}). C' is approached only at saturation (T = 2, |ℓ'| → M₁), where a
  ball comparison with it cannot be decided, so the existential C and the (31b) upper constant are
  witnessed against 2C' and the ratio to C' (≤ 1) is reported. (31c) as
  ‖∇L(p)‖ ≤ C'(T−1)e^{−m_μ‖p‖} on cone_μ with m_μ = min_{i,t}((k_{iα_i}−k_it)ᵀp̄^mm −
  ‖k_{iα_i}−k_it‖√(2μ)) > 0 (the paper's exact (31c) is UNCERTAIN; this is the derived form).
* The lower constant c is existential; its witness is the smallest ratio seen, and compactness is
  checked against the DERIVED limit: deep in the cone the ratio lies in [c_lim, C_lim],
  c_lim = min_{(i,t)∈T}|ℓ'(γ_{iα_i})|(γ_{iα_i} − γ_it)(1 − ε_it), C_lim = max(…)(1 + ε_it),
  ε_it = ‖k_{iα_i}−k_it‖‖p^mm‖√(2μ). "Deep" is ‖p‖ ≥ R_deep = (30 + ln(W_max/w_min) + ln(nT))/g_μ,
  g_μ the smallest neighbour/non-neighbour (or selection) margin gap per unit ‖p‖ in cone_μ and
  W_max/w_min the spread of the per-input weights |ℓ'|·Γ·A (which differ by e^{Δγ} for large scores):
  there every non-neighbour term is below e^{−30} times the smallest neighbour term.
  Fig. 1(b) with μ = 0.002 (spec): ratio → |ℓ'(0.9)|·0.9 = 0.2602.

How it is checked. Probe points p = r((1−m)p̄^mm + √(m(2−m))u) with u from
``verify.geometry.cones.cone_directions`` (orthonormal directions ⊥ p^mm, the directions that close a
(neighbour, higher-score non-neighbour) gap fastest, random ones, one outside the span of the
keys) at levels m = 1 − corr ∈ μ·{1, 0.8, …, 10⁻⁸, 0} plus radius-adapted angles ~ 1/r (where the
L3 supremum sits), and, when the keys span ≥ 3 dimensions, circles of 36 directions
(``dense_directions``) at the outer levels μ, μ/2, μ/4 so that the boundary sphere is covered;
radii on a ladder r ∈ σ·{1, 2, 5, …, 10⁸} (σ ≈ ‖p^mm‖, plus R_deep) — far beyond ‖p‖ ≈ 10³,
where float64 cannot even evaluate the softmax (the ball arithmetic has an unbounded exponent).
Each witness R is the smallest ladder radius from which the property holds at every deeper ladder
radius; "for all R ≥ witness" is therefore evidence over the tested range, not a proof. When L1 fails
at the deepest radius, ``verify.geometry.cones.leading_term`` decides the sign for r → ∞ from the nearest
token along the failing direction: a certainly negative leading term proves the failure for every
large R (VIOLATED); otherwise that item is reported undecided and the verdict is INCONCLUSIVE (as
for an R_π beyond the tested range). If the keys span one dimension the cone is the ray through
p^mm and only ray points are probed.

Hypotheses: Assumption A; ATT-SVM(α) feasible; α locally optimal (a neighbour with a higher or equal
score makes α not locally optimal: NOT_APPLICABLE, e.g. Fig. 1(b′) with α = token (1,0)). With
``--data`` α is chosen automatically (a non-global LMM with the widest μ₀ if one exists, else the
GMM) and a note says which. False cases (tests): μ > μ* on Fig. 1(b) (gradient points out of the
cone for every R), and an L3 check forced at R below its witness.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Figure, Outcome, Series, register
from verify.data import mmts as D
from verify.geometry.cones import (
    DEFAULT_LEVELS,
    cap_extremes,
    cone_directions,
    cone_point,
    critical_width,
    dense_directions,
    leading_term,
    mu0,
    order_gap,
    random_dataset_with_lmm,
    selection_rate,
    unit,
)
from verify.kit.cones import finish, mark_undecided, resolve_selection, undecided
from verify.models.attention import LinearLogitModel, dot, features, norm2
from verify.models.losses import get_loss
from verify.numbers.precision import Precision, to_arb

LADDER = tuple(Fraction(x) for x in ("1", "2", "5", "10", "20", "50", "100", "200", "500", "1000", "2000",
                                       "5000", "1e4", "3e4", "1e5", "3e5", "1e6", "1e7", "1e8"))
DEFAULT_PIS = (Fraction(1, 10), Fraction(1, 100), Fraction(1, 1000), Fraction(1, 10**4))
ADAPTIVE = tuple(Fraction(x) for x in ("0.03", "0.1", "0.3", "1", "3", "10", "30"))
DEEP_EXP = 30  # e^{-30}: non-neighbour suppression required for the deep compactness check
DEEP_TOL = Fraction(1, 10**6)
MAX_DEEP = Fraction(10**9)


def radius_scale(norm_sq: Fraction) -> Fraction:
    """σ ≈ ‖p^mm‖ rounded up to two significant digits (a rational unit for the radius ladder)."""
    import math

    x = math.sqrt(float(norm_sq))
    e = math.floor(math.log10(x)) - 1
    return Fraction(math.ceil(x / 10**e - 1e-12)) * Fraction(10) ** e


def resolve_alpha(data, alpha, out: Outcome, loss="logistic"):
    """Geometry for α (given or chosen); appends hypotheses and notes; None when one is not met."""
    g, hyps, notes = resolve_selection(data, alpha, loss)
    out.hypotheses.extend(hyps)
    out.notes.extend(notes)
    return g


def _levels(mu: Fraction, r: Fraction, amax: float, extra=()):
    lv = {mu * f for f in DEFAULT_LEVELS}
    for x in ADAPTIVE:  # angles θ ≈ x/(r·A_max): the L3 supremum sits at θ ~ 1/r
        th = x / (r * Fraction(amax))
        m = th * th / 2
        if m <= mu:
            lv.add(m)
    lv.update(m for m in extra if m <= mu)
    return sorted(lv, reverse=True)


def scan_cone(data, g, mu, radii, loss, pis, levels=()):
    """Evaluate the Lemma 7 quantities at every probe point; one record per radius."""
    model = LinearLogitModel(features(data, "p"), data.scores, loss)
    n, T = data.n, data.T
    pmm = [to_arb(x) for x in g.p_mm]
    nrm = to_arb(g.norm_sq).sqrt()
    pbar = [x / nrm for x in pmm]
    dirs = [unit(u) for u in cone_directions(g)]
    if not dirs:  # keys span one dimension: cone_μ(p^mm) is the open ray, only its points are probed
        dirs = [[arb(0)] * len(pmm)]
    flat = all(x == 0 for x in dirs[0])
    ring = [] if flat else dense_directions(g)  # the boundary sphere, sampled densely at the outer levels
    ring_levels = {mu, mu / 2, mu / 4}
    B = max(abs(x) for row in data.scores for x in row)
    M1 = loss.constants(to_arb(B))[1]
    gam_range = [max(row) - min(row) for row in data.scores]
    A = [max((sum(x * x for x in g.rows[(i, t)]) for t in range(T) if t != g.alpha[i]), default=Fraction(0))
         for i in range(n)]
    Cp = max(to_arb(gr) * to_arb(a).sqrt() for gr, a in zip(gam_range, A)) * M1
    m_mu = selection_rate(g, mu)
    amax = max(float(sum(x * x for x in row)) ** 0.5 for row in g.rows.values())
    records = []
    for r in radii:
        rec = {"r": r, "l1": [], "l2lo": [], "l2hi": [], "l2pmm": [], "gn": [], "c31": [], "rho": [],
               "l3": {pi: [] for pi in pis}, "worst_dir": None}
        all_dirs = dirs + ring
        for m in (_levels(mu, r, amax, levels) if not flat else [Fraction(0)]):
            use = dirs if m == 0 or m not in ring_levels else all_dirs
            for k, u in enumerate(use if m != 0 else dirs[:1]):
                p = cone_point(pbar, u, m, r)
                st = model.states(p)
                grad = model.grad(p, st)
                off = model.mass_off(p, g.alpha, st)
                mean = sum(off, arb(0)) / n
                w = [-x for x in grad]
                a1 = dot(w, pmm)  # −⟨∇L, p^mm⟩
                rec["l1"].append((a1 / mean, m, k))
                rec["l2pmm"].append(a1 / mean)
                lo, hi = cap_extremes(w, pbar, mu)
                rec["l2lo"].append(lo * nrm / mean)
                rec["l2hi"].append(hi * nrm / mean)
                gn = norm2(grad)
                rec["gn"].append(gn / mean)
                if m_mu > 0:
                    rec["c31"].append(gn * (m_mu * to_arb(r)).exp() / (Cp * (T - 1)))
                mm = to_arb(m)
                c, s = 1 - mm, (mm * (2 - mm)).sqrt()
                phat = [c * a + s * b for a, b in zip(pbar, u)]
                num = dot(w, phat)
                den = a1 / nrm
                # the ratio is meaningful where L1 holds; elsewhere (−⟨∇L,p^mm⟩ ≤ 0) it is reported as +inf
                rec["rho"].append((num / den if den > 0 else arb("inf"), m, k))
                for pi in pis:
                    rec["l3"][pi].append((1 + to_arb(pi)) * den - num)
        records.append(rec)
    return records, dict(Cp=Cp, m_mu=m_mu, dirs=dirs + ring, pbar=pbar, nrm=nrm, model=model)


def _all_pos(vals):
    return all(v > 0 for v in vals)


def _witness(records, key_fn):
    """Smallest ladder radius from which key_fn(record) holds at every deeper radius (None if not)."""
    w = None
    for rec in reversed(records):
        if key_fn(rec):
            w = rec["r"]
        else:
            break
    return w


def _min(vals):
    return min(vals, key=lambda z: z.mid())


def _max(vals):
    return max(vals, key=lambda z: z.mid())


def _flt(x):
    try:
        f = float(x.mid())
    except (OverflowError, ValueError):
        return None
    return f if f == f and abs(f) < 1e300 else None


def evaluate(data, prec: Precision, alpha=None, mu=None, radii=None, pis=DEFAULT_PIS, R=None,
             loss="logistic", levels=(), ladder=LADDER) -> Outcome:
    """Lemma 7 on ``data``: α given or chosen, μ given or μ₀/2, witnesses searched on ``radii``
    (default: the ladder scaled by ‖p^mm‖) — or, with ``R``, every part checked on C_{μ,R} exactly
    (no witness search; for the false case "R below its witness")."""
    out = Outcome()
    loss = get_loss(loss)
    g = resolve_alpha(data, alpha, out, loss)
    if g is None:
        return out
    m0 = mu0(g)
    m0_within = mu0(g, within_only=True)
    mstar, mstar_what = critical_width(g)
    if mu is None:
        mu = m0 / 2
        how = "μ = μ₀(α)/2 with the derived width μ₀ (module docstring)"
    else:
        mu = Fraction(mu)
        how = "μ given by the caller"
    sigma = radius_scale(g.norm_sq)
    if radii is None:
        radii = [sigma * x for x in ladder]
    radii = sorted(Fraction(x) for x in radii)
    gap = order_gap(g, mu)
    m_mu = selection_rate(g, mu)
    rate = m_mu if gap is None else (gap if gap.mid() < m_mu.mid() else m_mu)
    # depth from which the derived limit of the L2 ratio applies: every non-neighbour term (and the
    # second-order Key-Lemma terms) is below e^{−30} times the smallest neighbour term, whatever the
    # per-input weights |ℓ'(φ_i)|·Γ_i·A_i (they differ by e^{Δγ} for large scores)
    nb = g.neighbour_pairs()
    wts = {(i, t): abs(loss.d1(to_arb(g.scores[i][g.alpha[i]]))) * to_arb(g.score_gap(i, t)) for (i, t) in nb}
    heavy = max((abs(loss.d1(to_arb(min(row)))) * to_arb(max(row) - min(row))
                 * to_arb(max((sum(x * x for x in g.rows[(i, t)]) for t in range(data.T) if t != g.alpha[i]),
                              default=Fraction(0))).sqrt()
                 for i, row in enumerate(data.scores)), key=lambda z: z.mid())
    light = min(wts.values(), key=lambda z: z.mid())
    r_deep = None
    if rate > 0 and light > 0:
        extra = max(arb(0), (heavy / light).log() + arb(data.n * data.T).log()) if heavy > 0 else arb(0)
        r_deep = Fraction(int(float(((DEEP_EXP + extra) / rate).mid())) + 1)
        if r_deep > radii[-1] and r_deep <= MAX_DEEP * sigma:
            radii.append(r_deep)
        elif r_deep > MAX_DEEP * sigma:
            r_deep = None
    if R is not None:
        R = Fraction(R)
        radii = sorted({R} | {r for r in radii if r >= R})
    records, aux = scan_cone(data, g, mu, radii, loss, pis, levels)

    out.evidence.append(Evidence("μ₀(α): derived sufficient cone width (cross-input pairs)", to_arb(m0),
                                 note=f"spec's within-input formula gives {float(m0_within):.6g}"))
    side = ("no critical width" if mstar is None else
            ("below μ*" if to_arb(mu) < mstar else ("above μ*: the cone reaches directions where L1 fails"
                                                   if to_arb(mu) > mstar else "at μ* (undecided)")))
    out.evidence.append(Evidence("μ used", to_arb(mu), note=f"{how}; {side}"))
    if mstar is not None:
        out.evidence.append(Evidence("μ*: exact critical width (" + mstar_what + ")", mstar))
    # ----- L1 -----------------------------------------------------------------------------------
    fixed = R is not None
    asym_fail = False
    l1_ok = lambda rec: _all_pos([v for v, _, _ in rec["l1"]])
    R1 = radii[0] if fixed else _witness(records, l1_ok)
    deep = records[-1]
    if R1 is not None and (not fixed or all(l1_ok(rec) for rec in records)):
        sel = [v for rec in records if rec["r"] >= R1 for v, _, _ in rec["l1"]]
        l1_val, l1_holds, l1_note = _min(sel), None, (
            f"witness R = {float(R1):g}: certified > 0 at all {len(sel)} grid points with R ≤ ‖p‖ ≤ {float(radii[-1]):g}")
    else:
        failing = [(v, m, k) for rec in (records if fixed else [deep]) for v, m, k in rec["l1"] if not v > 0]
        v, m, k = min(failing, key=lambda z: z[0].mid())
        rec_r = next(rec["r"] for rec in (records if fixed else [deep]) if any(x is v for x, _, _ in rec["l1"]))
        l1_val = v
        qbar = cone_point(aux["pbar"], aux["dirs"][k], m, 1)
        sign, detail = leading_term(g, qbar, [to_arb(x) for x in g.p_mm], loss)
        if fixed:
            l1_holds = None  # decided by the value itself (a certainly negative point is a counterexample)
            l1_note = f"fails at ‖p‖ = {float(rec_r):g} (1 − corr = {float(m):.3g}) inside C_(μ,R) with R = {float(R):g}"
        else:
            l1_holds = False if sign == -1 else None
            asym_fail = sign == -1
            l1_note = (f"no witness R up to ‖p‖ = {float(deep['r']):g}: fails at 1 − corr = {float(m):.3g}; "
                       f"asymptotics along that direction: {detail}")
    ev = Evidence("L1: min over the C_(μ,R) grid of −⟨∇L(p), p^mm⟩ / ((1/n)Σ(1 − s_iα))",
                  l1_val, ">", arb(0), holds=l1_holds, note=l1_note)
    out.evidence.append(ev)
    if R1 is None and not fixed and not asym_fail:
        undecided(ev, "INCONCLUSIVE: no witness in the tested range and no certified asymptotic failure")
        mark_undecided(out)
    # ----- L2 -----------------------------------------------------------------------------------
    l2_ok = lambda rec: _all_pos(rec["l2lo"])
    R2 = radii[0] if fixed else _witness(records, l2_ok)
    base = [rec for rec in records if R2 is not None and rec["r"] >= R2] or [deep]
    c_obs = _min([v for rec in base for v in rec["l2lo"]])
    C_obs = _max([v for rec in base for v in rec["l2hi"]])
    ev = Evidence("L2 (31a) lower: c = inf over q ∈ cone_μ, ‖q‖ = ‖p^mm‖, and grid p of "
                  "−⟨∇L(p), q⟩ / ((1/n)Σ(1 − s_iα))", c_obs, ">", arb(0),
                  note=(f"witness R = {float(R2):g}" if R2 is not None else "no witness radius") +
                  "; the infimum over q is exact (spherical cap), over p a grid")
    out.evidence.append(ev)
    if R2 is None and not fixed and not asym_fail:
        undecided(ev, "INCONCLUSIVE: no witness in the tested range")
        mark_undecided(out)
    Cexp = aux["Cp"] * aux["nrm"]
    out.evidence.append(Evidence("L2 (31a) upper: C = sup of the same ratio", C_obs, "<", 2 * Cexp,
                                 note=f"witness bound 2C'‖p^mm‖; the derived C'‖p^mm‖ (C' = M₁ max_i Γ_i A_i, valid for "
                                      f"every p, approached only at saturation) is {_flt(Cexp):.6g}"))
    all_gn = [v for rec in records for v in rec["gn"]]
    gmax = _max(all_gn)
    out.evidence.append(Evidence("(31b) upper: max over all grid points of ‖∇L(p)‖ / ((1/n)Σ(1 − s_iα))",
                                 gmax, "<", 2 * aux["Cp"],
                                 note=f"witness bound 2C'; ratio to the derived C' (≤ 1 by the proof): "
                                      f"{_flt(gmax / aux['Cp'])}"))
    gn_lo = _min([v for rec in base for v in rec["gn"]])
    out.evidence.append(Evidence("(31b) lower: min over the C_(μ,R) grid of ‖∇L(p)‖ / ((1/n)Σ(1 − s_iα))",
                                 gn_lo, ">", arb(0)))
    if aux["m_mu"] > 0:
        all_c = [v for rec in records for v in rec["c31"]]
        out.evidence.append(Evidence("(31c): max over cone_μ grid of ‖∇L(p)‖ e^{m_μ‖p‖} / (C'(T−1))",
                                     _max(all_c), "<=", arb(1),
                                     note=f"m_μ = {float(aux['m_mu'].mid()):.6g} (derived exponential rate)"))
    if r_deep is not None:
        eps = {(i, t): to_arb(sum(x * x for x in g.rows[(i, t)])).sqrt() * aux["nrm"] * (2 * to_arb(mu)).sqrt()
               for (i, t) in nb}
        c_lim = _min([wts[k] * (1 - eps[k]) for k in nb])
        C_lim = _max([wts[k] * (1 + eps[k]) for k in nb])
        deep_recs = [rec for rec in records if rec["r"] >= r_deep]
        if deep_recs:
            dlo = _min([v for rec in deep_recs for v in rec["l2lo"]])
            dhi = _max([v for rec in deep_recs for v in rec["l2hi"]])
            out.evidence.append(Evidence(f"L2 compactness: min ratio at ‖p‖ ≥ {float(r_deep):g} vs derived limit c_lim(1−10⁻⁶)",
                                         dlo, ">=", c_lim * (1 - to_arb(DEEP_TOL)),
                                         note=f"c_lim = {_flt(c_lim):.6g}"))
            out.evidence.append(Evidence(f"L2 compactness: max ratio at ‖p‖ ≥ {float(r_deep):g} vs derived limit C_lim(1+10⁻⁶)",
                                         dhi, "<=", C_lim * (1 + to_arb(DEEP_TOL)),
                                         note=f"C_lim = {_flt(C_lim):.6g}"))
    # ----- L3 -----------------------------------------------------------------------------------
    for pi in pis:
        ok = lambda rec, pi=pi: _all_pos(rec["l3"][pi])
        Rp = radii[0] if fixed else _witness(records, ok)
        use = [rec for rec in records if Rp is not None and rec["r"] >= Rp] or [deep]
        rhos = [v for rec in use for v, _, _ in rec["rho"]]
        sup = _max(rhos) if rhos else arb(0)
        margins = [v for rec in use for v in rec["l3"][pi]]
        holds, vague = None, False
        if fixed and not all(ok(rec) for rec in records):
            holds = False if any(v < 0 for v in margins) else None
        elif Rp is None:
            if asym_fail and any(v < 0 for v in margins):
                holds = False
            else:
                vague = True
        elif _all_pos(margins):
            holds = True
        ev = Evidence(f"L3 (π = {float(pi):g}): sup over C_(μ,R_π) grid of ⟨−∇L, p̄⟩/⟨−∇L, p̄^mm⟩",
                      sup, "<=", 1 + to_arb(pi), holds=holds,
                      note=(f"witness R_π = {float(Rp):g}" if Rp is not None and not fixed else
                            (f"R = {float(R):g} fixed" if fixed else f"no witness up to ‖p‖ = {float(deep['r']):g}")))
        out.evidence.append(ev)
        if vague:
            undecided(ev, "INCONCLUSIVE: R_π beyond the tested range")
            mark_undecided(out)
    for label, w in (("L1", R1), ("L2", R2)):
        if w is not None and not fixed:
            out.evidence.append(Evidence(f"witness R for {label} (smallest ladder radius from which it holds)", to_arb(w)))
    # ----- notes and figures ----------------------------------------------------------------------
    out.notes.append(f"{g.describe()}; μ₀ = {float(m0):.6g}, μ = {float(mu):.6g}"
                     + (f", μ* = {_flt(mstar):.6g}" if mstar is not None else ", no critical width (no higher-score non-neighbour)"))
    out.notes.append(f"existential parts (μ, R, c, C, R_π) are witnessed on {len(radii)} radii "
                     f"{float(radii[0]):g} … {float(radii[-1]):g}, {len(aux['dirs'])} cone directions and "
                     f"~{len(records[0]['l1'])} points per radius: evidence over the tested range, not a proof beyond it")
    xs = [float(rec["r"]) for rec in records]
    sup_minus = []
    for rec in records:
        vals = [v for v, _, _ in rec["rho"]]
        s = _flt(_max(vals) - 1) if vals else None
        sup_minus.append(s if s is not None and s > 0 else None)
    out.figures.append(Figure(
        "l3-ratio", "Lemma 7 L3: sup over the cone of ⟨−∇L,p̄⟩/⟨−∇L,p̄^mm⟩ − 1", "‖p‖",
        "sup ρ − 1", [Series("sup over grid at radius r", xs, sup_minus, "-o")], logx=True, logy=True,
        hlines=[(float(pi), f"π = {float(pi):g}") for pi in pis],
        caption="The correlation ratio tends to 1: R_π is where the curve drops below π."))
    l2s = [Series("inf over q, p at radius r", xs, [_flt(_min(rec["l2lo"])) for rec in records], "-o"),
           Series("sup over q, p at radius r", xs, [_flt(_max(rec["l2hi"])) for rec in records], "-s"),
           Series("q = p^mm, min over p", xs, [_flt(_min(rec["l2pmm"])) for rec in records], "-^")]
    positive = all(y is not None and y > 0 for s_ in l2s for y in s_.y)
    out.figures.append(Figure(
        "l2-ratio", "Lemma 7 L2: −⟨∇L(p),q⟩ / mean(1 − s_iα) over the cone", "‖p‖", "ratio", l2s,
        logx=True, logy=positive, hlines=[] if positive else [(0.0, "0")],
        caption="The ratio stays in a compact subset of (0, ∞)."))
    return finish(out)


def check(data, prec: Precision) -> Outcome:
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [
        D.mmts_fig1b(),
        random_dataset_with_lmm(n=2, T=3, d=2, seed=seed),
        random_dataset_with_lmm(n=3, T=3, d=2, seed=seed),
        random_dataset_with_lmm(n=2, T=3, d=3, seed=seed),
    ]


CLAIM = register(Claim(
    id="mmts.lemma7",
    paper="mmts",
    number="Lemma 7",
    title="Local gradient condition in the cone around an LMM direction",
    kind="existential",
    statement=(
        "α locally optimal, p^mm = p^mm(α), cone C_{μ,R}(p^mm) = {corr(p,p^mm) ≥ 1−μ, ‖p‖ ≥ R}. "
        "There is μ = μ(α) > 0 such that for all sufficiently large R: "
        "(L1) C_{μ,R} has no stationary point (−⟨∇L(p),p^mm⟩ > 0); "
        "(L2, (31a)–(31c)) C·(1/n)Σ(1−s_iα(p)) ≥ −⟨∇L(p),q⟩ ≥ c·(1/n)Σ(1−s_iα(p)) > 0 for q in the cone "
        "with ‖q‖ = ‖p^mm‖, the same for ‖∇L(p)‖, and ‖∇L(p)‖ ≤ C'(T−1)e^{−m_μ‖p‖}; "
        "(L3) for every π > 0 there is R_π with ⟨−∇L(p), p/‖p‖⟩ ≤ (1+π)⟨−∇L(p), p^mm/‖p^mm‖⟩ on C_{μ,R_π}. "
        "μ = μ₀/2 with the derived width μ₀ (the paper's (32) is not recovered); R, c, C, R_π are witnessed."
    ),
    check=check,
    default_datasets=default_datasets,
    aliases=("local-gradient-condition", "no-stationary-in-cone"),
    default_precision=50,
    module=__name__,
))
