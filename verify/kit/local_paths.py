"""Claim-kit piece for mmts Theorems 4 and 7 (Sec. 2.3 eq. (9); App. B.5.2 (66)–(67)): local regularization paths
p̄(R) = argmin{L(p) : p ∈ C_{ε,R₀}(q), ‖p‖ ≤ R} can converge in direction only to LMM directions.

Hypotheses, computed exactly on the rational data: Assumption A (logistic); distinct scores within every input
(γ_it ≠ γ_iτ); q ∉ P^mm — q is not a positive multiple of any p^mm(α) with α locally optimal (every α ∈ [T]ⁿ
enumerated, ``verify.geometry.cones.locally_optimal_geometries``); for Theorem 7 also the keys' general position
(``verify.geometry.directional.general_position``).

How the conclusion "p̄(R)/R ↛ q̄" is checked (evidence over R ≤ the largest radius): the local path by
``verify.dynamics.local_regpath.local_regularization_path`` (projected gradient on log(L − L⋆) over the cone ∩ ball,
at the precision the loss differences in the cone need; a first-order method, no optimality certificate:
``enclosed=False``) for every ε and R₀ of the ranges, and dist(R) = ‖p̄(R)/R − q̄‖ decided by ``rules.stays_away``
(a plateau — both of the theorem's cases, a bounded norm (dist → 1) or a wrong direction (dist → a positive constant);
it fails where dist decays, i.e. the path converges to q). The active constraints of the last point are reported (R₀: bounded norm; the cone edge: pinned).
A path point no precision up to ``local_regpath.MAX_DPS`` could resolve withholds the decision (INCONCLUSIVE): a search
that could not compare its candidates stays at its start R·q̄, which would look like convergence to q.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Evidence, Hypothesis, Outcome, rules
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.dynamics.local_regpath import ACTIVE, local_regularization_path
from verify.geometry.cones import locally_optimal_geometries
from verify.geometry.directional import general_position, planar
from verify.kit.assumptions import assumption_a
from verify.kit.path_figures import omc_figure, path_plane_figure, plane_basis
from verify.models.attention import norm2
from verify.numbers.precision import to_arb

RADII = ("5", "20", "100", "300", "1000")
EPS = (Fraction(1, 100), Fraction(1, 1000))
R0S = (Fraction(1),)


def _parallel(q, p) -> bool:
    """q = c·p for some c > 0 (exact)."""
    k = next(i for i, x in enumerate(p) if x != 0)
    c = Fraction(q[k]) / Fraction(p[k])
    return c > 0 and all(Fraction(a) == c * Fraction(b) for a, b in zip(q, p))


def hypotheses(data, q, general: bool, require_non_lmm: bool = True):
    hyps = [assumption_a("logistic", data)]
    dup = [i for i, row in enumerate(data.scores) if len(set(row)) < len(row)]
    hyps.append(Hypothesis("distinct scores: γ_it ≠ γ_iτ for t ≠ τ", not dup,
                           f"ties in input(s) {dup}" if dup else "all scores distinct within every input"))
    if require_non_lmm:
        lmms = locally_optimal_geometries(data)
        if lmms is None:
            hyps.append(Hypothesis("q ∉ P^mm (not an LMM direction)", None, "Tⁿ too large to enumerate the LMMs"))
        else:
            hit = [g for g in lmms if _parallel(q, g.p_mm)]
            hyps.append(Hypothesis("q ∉ P^mm (not an LMM direction)", not hit, (
                f"q ∥ p^mm(α = {list(hit[0].alpha)}), locally optimal" if hit else
                f"q ∦ p^mm(α) for each of the {len(lmms)} locally-optimal α: "
                + "; ".join(f"{list(g.alpha)}" for g in lmms))))
    if general:
        met, detail = general_position(data)
        hyps.append(Hypothesis("keys in general position (Theorem 7's bullets; star matrices)", met, detail))
    return hyps


#: the q checked on each default dataset: (1,0) on Fig. 1(b′) (case A2), (1, 1/4) on Fig. 1(b) (case A1); else (1,0)
DIRECTIONS = {"mmts-fig1b-prime-planar": (1, 0), "mmts-fig1b-planar": (1, Fraction(1, 4))}
#: Theorems 4 and 7 quantify the same ε, R₀ and q
PARAMETERS = (
    Parameter("ε", "for every ε > 0", "range", "ε ∈ {1/100, 1/1000} (named in the verdict)",
              option="eps", kind="rationals", low=0, high=1),
    Parameter("R₀", "for every R₀ > 0", "range", "R₀ = 1 (named in the verdict)",
              option="R0", kind="rationals", low=0),
    Parameter("q", "every unit q ∉ P^mm", "range",
              "one q per dataset: (1,0) on Fig. 1(b′) (case A2), (1,1/4) on Fig. 1(b) (case A1) (named in the verdict)"))


def default_datasets(seed: int = 0):
    """The figures' keys (x₁, x₂, 0) taken as 2-D keys: Fig. 1(b′) and Fig. 1(b)."""
    return [planar(D.mmts_fig1b_prime()), planar(D.mmts_fig1b())]


def check(data, prec, *, general: bool, title: str, q=None, require_non_lmm: bool = True, eps=None, R0=None,
          radii=None, figure: bool = True) -> Outcome:
    """A claim's check options (``eps``, ``R0``, ``radii``; None: the defaults) mapped onto ``local_path_evidence``,
    q defaulting to the dataset's entry of DIRECTIONS."""
    kw = {k: v for k, v in (("eps_list", eps), ("r0_list", R0), ("radii", radii)) if v is not None}
    q = q if q is not None else DIRECTIONS.get(data.name, (1, 0))
    return local_path_evidence(data, prec, q, general=general, require_non_lmm=require_non_lmm, figure=figure,
                               title=title, **kw)


def local_path_evidence(data, prec, q, general: bool, eps_list=EPS, r0_list=R0S, radii=RADII,
                        require_non_lmm: bool = True, starts: int = 1, figure: bool = True, title: str = "") -> Outcome:
    q = tuple(Fraction(x) for x in q)
    out = Outcome(hypotheses=hypotheses(data, q, general, require_non_lmm))
    if not out.applicable():
        return out
    qa = [to_arb(x) for x in q]
    qbar = [x / norm2(qa) for x in qa]
    curves, paths = [], []
    for eps in eps_list:
        for R0 in r0_list:
            rp = local_regularization_path(data, q, radii, eps=eps, R0=R0, dps=prec.dps, starts=starts)
            Rs = [p.R for p in rp.points]
            dist = [norm2([a / R - b for a, b in zip(p.theta, qbar)]) for p, R in zip(rp.points, Rs)]
            last = rp.points[-1]
            label = f"ε = {eps}, R₀ = {R0}"
            rule = rules.stays_away(Rs, dist, zero=prec.tolerance)
            blind = [f"{float(p.R.mid()):g}" for p in rp.points if not p.resolved]
            if blind:
                rule = rules.withheld(rule, f"the local path is unresolved at R = {', '.join(blind)}: the loss "
                                            "differences in the cone are below the highest precision tried")
            out.add(Evidence(f"{label}: ‖p̄(R)/R − q̄‖ ↛ 0 along the local path (value at the largest R)", dist[-1],
                             rule=rule, enclosed=False,
                             note=", ".join(f"{float(R.mid()):g}: {d.mid().str(4, radius=False)}"
                                            for R, d in zip(Rs, dist))),
                    Evidence(f"{label}: ‖p̄(R)‖ at the largest R (active: {', '.join(n for n in last.notes if n in ACTIVE) or 'none'})",
                             last.norm, enclosed=False))
            curves.append((label, Rs, dist))
            paths.append((f"p̄(R), {label}", [p.theta for p in rp.points]))
    out.range = f"R ≤ {radii[-1]}"
    out.cover(f"ε ∈ {{{', '.join(str(e) for e in eps_list)}}}, R₀ ∈ {{{', '.join(str(r) for r in r0_list)}}}; "
              f"q ∝ ({', '.join(str(x) for x in q)})")
    if figure:
        out.figures.append(omc_figure("dist", f"{title}: ‖p̄(R)/R − q̄‖ along the local paths", curves,
                                      caption="A plateau: the local path does not converge to q."))
        lmms = locally_optimal_geometries(data) or []
        basis = plane_basis(q)
        if basis is not None:
            refs = [("q", q)] + [(f"{'GMM' if g.is_gmm else 'LMM'} p^mm(α = {list(g.alpha)})", g.p_mm) for g in lmms]
            out.figures.append(path_plane_figure("path", f"{title}: local paths (unit directions) against q and the "
                                                 "SVM directions", paths, refs, basis,
                                                 caption="The paths stay away from q (dashed: q and the LMM/GMM "
                                                         "directions)."))
    return out
