"""Claim-kit piece for mmts Sec. 3 (joint (v, p), logistic loss): the joint problem's SVMs and support indices,
Assumption C decided on data, and the joint regularization path as a claim's evidence (Theorems 5, 6, Lemma 13).

SVMs (verify.svm, exact and certified): the label SVM (SVM) on the selected tokens (kind ``v``), its support
indices S = {i : Y_i (v^mm)ᵀx_{iα_i} = 1} decided exactly on the rational solution, (ATT-SVM)(α) (kind ``p``) and the
relaxed SVM (10) (kind ``relaxed``: rhs 1 on S, 0 on S̄).

Assumption C (mmts §3, read form): with Γ = 1/‖v^mm‖ and Γ(p) = max_{‖v‖=1} min_i Y_i vᵀX_iᵀs_i(p), there is ν > 0
with Γ(p) ≤ Γ − ν·max_i(1 − s_{iα_i}(p)) for every p. It is a statement over all p; this module decides it only
where a derived certificate exists, and otherwise leaves it undecided (the claim is then INCONCLUSIVE):

* refuted (certified, any data): a rational ray q with every selection margin Δ_i(q) = min_{t≠α_i}(k_{iα_i} −
  k_it)ᵀq > 0 and min_{i∈S} Δ_i(q) > Δ_j(q) for some non-support j. Along p = Rq, with the witness v = v̂^mm,
  Γ − Γ(p) ≤ max_{i∈S} (1 − s_{iα_i})·G_i ≤ G(T−1)e^{−R·min_S Δ} once the non-support margins exceed Γ
  (G_i = max_t |Y_i v̂ᵀ(x_{iα_i} − x_it)|), while 1 − s_{jα_j} ≥ e^{−RΔ_j}/T: the ratio (Γ − Γ(p))/max_i(1 − s_iα_i)
  ≤ G·T(T−1)e^{−R(min_S Δ − Δ_j)} → 0, so no ν > 0 works. (Fig. 3(b): q = p^relax = (1, 0), Δ_S = 1 > Δ_3 = 1/2.)
* holds (certified sufficient condition): every input in scope is a support vector, its non-selected tokens are the
  zero vector (x_it = 0 for t ≠ α_i, so X_iᵀs_i = s_{iα_i}x_{iα_i}), and for each j a convex combination λ^(j) with
  λ_j^(j) > 0 of the w_i = Y_i x_{iα_i} equals the max-margin point Γv̂^mm = v^mm/‖v^mm‖² (exact rationals,
  Carathéodory subsets). Then with μ_i ∝ λ_i/s_i: Γ(p) ≤ ‖Σ μ_i s_i w_i‖ = Γ/Σ_k(λ_k/s_k) ≤ Γ/(1 + λ_j e_j)
  ≤ Γ − (Γλ_j/2)e_j for every j, so ν = (Γ/2)·min_j λ_j^(j). (Fig. 3(a): λ = (½, ½, 0) for inputs 1, 2 and
  (0, ⅓, ⅔) for input 3: ν = 1/4.)
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

from verify.claims import Evidence, Hypothesis, rules
from verify.dynamics.joint_rp import joint_regularization_path
from verify.kit.assumptions import svm_feasible
from verify.kit.paths import require_path_optimal
from verify.models.attention import one_minus_corr
from verify.numbers.precision import to_arb
from verify.svm import select_tokens, solve_svm

C_NAME = "Assumption C for α: ∃ν > 0 ∀p, Γ(p) ≤ Γ − ν·max_i(1 − s_{iα_i}(p)) (label margin on mixed features)"
LOGISTIC = "logistic loss (Sec. 3, App. C)"
#: The largest inputs-in-scope count for which the Carathéodory subsets of the sufficient condition are enumerated.
MAX_SUBSET_INPUTS = 12


@dataclass
class JointSVMs:
    alpha: tuple
    label: object            # SVMResult of (SVM) on x_{iα_i}
    support: tuple           # S (0-based inputs), exact
    att: object              # SVMResult of (ATT-SVM)(α)
    relaxed: object | None   # SVMResult of (10), None when (SVM) is infeasible
    hypotheses: list

    @property
    def v_mm(self):
        return list(self.label.solution)

    @property
    def p_mm(self):
        return None if self.att.status != "optimal" else list(self.att.solution)

    @property
    def p_relax(self):
        return None if self.relaxed is None or self.relaxed.status != "optimal" else list(self.relaxed.solution)


def joint_svms(data, select="opt", dps: int = 60, need=("label", "att")) -> JointSVMs:
    """The SVMs of the joint problem with feasibility hypotheses for those in ``need`` ("label", "att", "relaxed")."""
    alpha = select_tokens(data, select)
    label = solve_svm(data, "v", alpha, dps, check_unique=False)
    hyps = [Hypothesis(LOGISTIC, True, "the check's loss is ℓ(u) = log(1 + e^{−u}), strictly decreasing with "
                                       "ℓ' 1/4-Lipschitz on every interval (Assumption A)")]
    if "label" in need:
        hyps.append(svm_feasible(label, f"(SVM) on the selected tokens α = {list(alpha)} feasible (v^mm exists)"))
    att = solve_svm(data, "p", alpha, dps, check_unique=False)
    if "att" in need:
        hyps.append(svm_feasible(att, f"(ATT-SVM)(α) feasible (p^mm(α) exists), α = {list(alpha)}"))
    support, relaxed = (), None
    if label.status == "optimal":
        v = label.solution
        support = tuple(i for i in range(data.n)
                        if Fraction(data.Y[i]) * sum((a * b for a, b in zip(v, data.X[i][alpha[i]])), Fraction(0)) == 1)
        relaxed = solve_svm(data, "relaxed", alpha, dps, support_set=support, check_unique=False)
        if "relaxed" in need:
            hyps.append(svm_feasible(relaxed, f"relaxed SVM (10) feasible (rhs 1 on S = {_one_based(support)}, 0 off S)"))
    elif "relaxed" in need:
        hyps.append(Hypothesis("relaxed SVM (10) feasible", None, "no support set: (SVM) has no certified optimum"))
    return JointSVMs(alpha, label, support, att, relaxed, hyps)


def _one_based(idx) -> list[int]:
    return [i + 1 for i in idx]


def _dot(a, b) -> Fraction:
    return sum((Fraction(x) * Fraction(y) for x, y in zip(a, b)), Fraction(0))


def selection_margins(data, alpha, q) -> list[Fraction]:
    """Δ_i(q) = min_{t≠α_i} (k_{iα_i} − k_it)ᵀq (exact)."""
    keys = data.keys()
    return [min(_dot([a - b for a, b in zip(keys[i][alpha[i]], keys[i][t])], q) for t in range(data.T) if t != alpha[i])
            for i in range(data.n)]


def assumption_c(data, js: JointSVMs, scope=None, name: str = C_NAME) -> Hypothesis:
    """Assumption C decided on data by the derived certificates of the module docstring; ``scope`` restricts the
    inputs (Theorem 6: S). Undecided when neither certificate applies."""
    if js.label.status != "optimal":
        return Hypothesis(name, None, "(SVM) has no certified optimum: Γ is not defined")
    alpha, S = js.alpha, set(js.support)
    scope = tuple(range(data.n)) if scope is None else tuple(scope)
    off = [i for i in scope if i not in S]
    for qname, q in (("p^relax", js.p_relax), ("p^mm(α)", js.p_mm)):
        if q is None or not off:
            continue
        delta = selection_margins(data, alpha, q)
        on = [delta[i] for i in scope if i in S]
        if all(delta[i] > 0 for i in scope) and on:
            j = min(off, key=lambda i: delta[i])
            if min(on) > delta[j]:
                return Hypothesis(name, False, (
                    f"refuted along p = R·{qname}: every selection margin Δ_i > 0, min over S = {min(on)} > Δ of the "
                    f"non-support input {j + 1} = {delta[j]}; (Γ − Γ(Rq))/max_i(1 − s_iα_i) ≤ G·T(T−1)·"
                    f"e^(−R·{min(on) - delta[j]}) → 0 (derived, witness v̂^mm), so no ν > 0"))
    if off:
        return Hypothesis(name, None, f"inputs {_one_based(off)} are not support vectors and no refuting ray was found "
                                      "among p^relax, p^mm(α): undecided on this data")
    return _sufficient(data, js, scope, name)


def _sufficient(data, js, scope, name) -> Hypothesis:
    alpha = js.alpha
    nonzero = [i for i in scope for t in range(data.T) if t != alpha[i] and any(x != 0 for x in data.X[i][t])]
    if nonzero:
        return Hypothesis(name, None, f"inputs {_one_based(sorted(set(nonzero)))} have a non-selected token ≠ 0: the "
                                      "derived sufficient condition does not apply, and C is undecided on this data")
    if len(scope) > MAX_SUBSET_INPUTS:
        return Hypothesis(name, None, f"{len(scope)} inputs exceed the subset enumeration limit {MAX_SUBSET_INPUTS}")
    v = [Fraction(x) for x in js.v_mm]
    vv = _dot(v, v)
    target = [x / vv for x in v]                      # Γ v̂^mm = v^mm/‖v^mm‖²
    w = {i: [Fraction(data.Y[i]) * Fraction(x) for x in data.X[i][alpha[i]]] for i in scope}
    d = len(v)
    best = {}
    for size in range(1, min(len(scope), d + 1) + 1):
        for A in itertools.combinations(scope, size):
            lam = _affine_weights([w[i] for i in A], target)
            if lam is None or any(x < 0 for x in lam):
                continue
            for i, x in zip(A, lam):
                if x > best.get(i, Fraction(0)):
                    best[i] = x
    missing = [i for i in scope if best.get(i, 0) <= 0]
    if missing:
        return Hypothesis(name, None, f"no convex combination through inputs {_one_based(missing)} reaches Γv̂^mm: "
                                      "the sufficient condition fails, C undecided")
    lam_min = min(best[i] for i in scope)
    nu = to_arb(lam_min) / (2 * to_arb(vv).sqrt())
    return Hypothesis(name, True, (
        f"certified by the derived sufficient condition (every input in scope a support vector, non-selected tokens 0, "
        f"convex weights λ_j^(j) = {', '.join(f'{i + 1}: {best[i]}' for i in scope)} reaching Γv̂^mm exactly): "
        f"ν = (Γ/2)·min_j λ_j^(j) = {nu.mid().str(6, radius=False)}"))


def _affine_weights(points, target):
    """λ with Σλ_k = 1 and Σλ_k points_k = target (exact), if the affinely independent system has one; else None."""
    from flint import fmpq, fmpq_mat

    k, d = len(points), len(target)
    rows = [[fmpq(p[a].numerator, p[a].denominator) for p in points] for a in range(d)] + [[fmpq(1)] * k]
    rhs = [fmpq(t.numerator, t.denominator) for t in target] + [fmpq(1)]
    M = fmpq_mat(d + 1, k, [x for r in rows for x in r])
    if M.rank() < k:
        return None
    G = M.transpose() * M
    z = G.solve(M.transpose() * fmpq_mat(d + 1, 1, rhs))
    lam = [Fraction(int(z[i, 0].p), int(z[i, 0].q)) for i in range(k)]
    check = M * fmpq_mat(k, 1, [fmpq(x.numerator, x.denominator) for x in lam])
    if any(check[a, 0] != rhs[a] for a in range(d + 1)):
        return None
    return lam


# ----- the joint path as evidence ------------------------------------------------------------------
def quadrant_margins(data, alpha, p) -> list:
    """(k_{iα_i} − k_it)ᵀp for every i, t ≠ α_i (balls), with their (i, t)."""
    keys = data.keys()
    out = []
    for i in range(data.n):
        for t in range(data.T):
            if t != alpha[i]:
                out.append(((i, t), sum((to_arb(a - b) * x for a, b, x in zip(keys[i][alpha[i]], keys[i][t], p)),
                                        to_arb(0))))
    return out


def run_joint_path(data, js: JointSVMs, prec, radii, coupling, starts, seed):
    """The joint path from the candidate pairs (v^mm, p^mm(α)) and (v^mm, p^relax) (those that exist)."""
    cands = {}
    if js.p_mm is not None:
        cands["(v^mm, p^mm(α))"] = (js.v_mm, js.p_mm)
    if js.p_relax is not None:
        cands["(v^mm, p^relax)"] = (js.v_mm, js.p_relax)
    return joint_regularization_path(data, radii, coupling=coupling, candidates=cands, dps=prec.dps, starts=starts,
                                     seed=seed)


def require_joint_path(out, data, js, jp, prec) -> None:
    """The path's requirements: no worse than the best candidate (verify.kit.paths), on both spheres, and the working
    precision resolving the p-dependence (its leading relative size, the largest off-mass max_i(1 − s_{iα_i}) ~ e^{−RΘ},
    > 10^{−(dps−10)} at every radius)."""
    require_path_optimal(out, jp, "vp", prec.tolerance)
    flags = [p.on_spheres for p in jp.points]
    out.require("the minimiser lies on both spheres (⟨∇_v L, v⟩ < 0 and ⟨∇_p L, p⟩ < 0 certified) at every radius",
                False if False in flags else None if None in flags else True,
                ", ".join(f"R = {_r(p.R)}: {p.on_spheres}" for p in jp.points), invalidates=True)
    floor = to_arb(Fraction(1, 10 ** max(1, prec.dps - 10)))
    largest = [max(off_masses(data, js.alpha, p.p), key=lambda x: x.mid()) for p in jp.points]
    ok = [bool(s > floor) for s in largest]
    out.require("the working precision resolves the p-dependence of L: max_i (1 − s_iα_i(p̄_R)) > 10^−(dps−10) at "
                "every radius", all(ok), ", ".join(f"R = {_r(p.R)}: {s.mid().str(3, radius=False)}"
                                                  for p, s in zip(jp.points, largest)), invalidates=True)


def off_masses(data, alpha, p) -> list:
    from verify.models.joint import JointModel

    return JointModel(data).off_mass(p, alpha)


def _r(x) -> str:
    return f"{float(x.mid()):g}"


def direction_evidence(out, jp, ref, what: str, block: str, prec, trend=rules.decays):
    """1 − corr(block of the path, ref) with ``trend`` (decays / stays_away) over the radii; returns the values."""
    Rs = [p.R for p in jp.points]
    vals = [one_minus_corr(getattr(p, block), [to_arb(x) for x in ref]) for p in jp.points]
    sym = "v̄_r" if block == "v" else "p̄_R"
    tname = "→ 0" if trend is rules.decays else "stays away from 0"
    out.add(Evidence(f"1 − corr({sym}, {what}) {tname} along the joint path (value at the largest R)", vals[-1],
                     rule=trend(Rs, vals, zero=prec.tolerance), enclosed=False,
                     note=", ".join(f"{_r(x)}: {y.mid().str(3, radius=False)}" for x, y in zip(Rs, vals))))
    return vals


SELECTION = "α asymptotically selected along the path: 1 − s_{iα_i}(p̄_R) → 0 for every i (max over i, rules.decays)"


def relaxed_path_outcome(data, prec, *, radii, coupling, starts, seed, select="opt", target="relax",
                         quadrant: bool = False, title: str = "Theorem 6", figure: bool = True):
    """Theorem 6 (and Lemma 13 with ``quadrant``): hypotheses of Theorem 6, the joint path, v̄ → v^mm and p̄ → p^relax
    (``target="pmm"``: p^mm(α) instead — the false case). With ``quadrant`` every p̄_R is certified to lie in the
    quadrant P of (77) (a Tally over radii and (i, t)): then the unrestricted minimiser found is feasible for the
    P-restricted path and, the restricted minimum being ≥ the unrestricted one, it is the restricted minimiser."""
    from verify.claims import Outcome, Tally

    js = joint_svms(data, select, prec.dps, need=("label", "relaxed"))
    hyps = list(js.hypotheses)
    if js.label.status == "optimal":
        hyps.append(assumption_c(data, js, scope=js.support,
                                 name=C_NAME.replace("for α:", "over S (Thm 6's restriction, a reconstruction):")))
    out = Outcome(hypotheses=hyps)
    if not out.applicable() or js.p_relax is None:
        return out
    jp = run_joint_path(data, js, prec, radii, coupling, starts, seed)
    Rs = [p.R for p in jp.points]
    worst = [max(off_masses(data, js.alpha, p.p), key=lambda x: x.mid()) for p in jp.points]
    sel = rules.decays(Rs, worst, zero=prec.tolerance)
    out.hypotheses.append(Hypothesis(SELECTION, sel.holds, f"{sel.rule}: {sel.detail}; max_i(1 − s_iα_i): " + ", ".join(
        f"{_r(R)}: {w.mid().str(3, radius=False)}" for R, w in zip(Rs, worst))))
    require_joint_path(out, data, js, jp, prec)
    if quadrant:
        tally = Tally("(k_{iα_i} − k_it)ᵀp̄_R ≥ 0 (p̄_R in the quadrant P of (77))", ">=", to_arb(0))
        for pt in jp.points:
            for (i, t), m in quadrant_margins(data, js.alpha, pt.p):
                tally.add(m, f"R = {_r(pt.R)}, i = {i + 1}, t = {t + 1}")
        c = tally.coverage
        out.require("every p̄_R of the unrestricted path lies in P (then it is the P-restricted minimiser)",
                    c.violated == 0 and c.undecided == 0 and c.points > 0, c.describe(), invalidates=True)
    omc_v = direction_evidence(out, jp, js.v_mm, "v^mm", "v", prec)
    if target == "pmm":
        if js.p_mm is None:
            out.require("(ATT-SVM)(α) feasible for the altered target", False, "infeasible")
            return out
        ref, what = js.p_mm, "p^mm(α) (NOT p^relax: the false case)"
    else:
        ref, what = js.p_relax, "p^relax"
    omc_p = direction_evidence(out, jp, ref, what, "p", prec)
    out.notes.append(f"support indices S = {_one_based(js.support)} (exact); p^relax = {[str(x) for x in js.p_relax]}")
    out.range = f"R ≤ {_r(Rs[-1])}, r = {coupling}·R"
    out.cover(f"radii R ∈ {{{', '.join(str(r) for r in radii)}}} with r = {coupling}·R; the minimiser found by the "
              f"multistart search ({starts} random starts + the SVM candidate pairs + the previous optimum)")
    if figure:
        from verify.kit.joint_figures import joint_figures

        joint_figures(out, title, jp, js, [("1 − corr(v̄_r, v^mm)", omc_v), (f"1 − corr(p̄_R, {what})", omc_p)])
    return out


def joint_parameters(c_scope: str = "") -> tuple:
    """The declared parameters of the joint-path claims (Theorems 5, 6, Lemma 13)."""
    from verify.claims.registry import Parameter

    return (
        Parameter("R", "R → ∞ (the p radius)", "range",
                  "the ladder 1, 2, 5, 10, 20, 50, 100 (named in the verdict's range)"),
        Parameter("r", "r → ∞ (the v radius; the slides state no coupling of r and R)", "range",
                  "r = c·R with c = 1 (the spec's runs; option coupling)", option="coupling", low=0,
                  high=100),
        Parameter("(v̄_r, p̄_R)", "for every selection of the argmin", "range",
                  "the global minimiser found by the multistart search on the product of spheres (named in the verdict)"),
        Parameter(f"p (Assumption C{c_scope})", "for every p ∈ ℝ^d", "hardest",
                  "derived certificates: an exact sufficient condition with ν, or an exact refuting ray; undecided "
                  "otherwise"),
    )
