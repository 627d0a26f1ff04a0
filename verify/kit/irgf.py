"""Shared pieces of the irgf claims (diagonal K, Q; exponential loss): hypotheses checked on the
data, the exact ℓ1-SVM with its optimal face, the flow the asymptotic claims follow, and what
every check needs of it (range, target reached, a stationary start decided exactly).

Hypotheses, each a ``Hypothesis`` (met True / False / None = undecided) whose name carries the id:

* ``Assumption 1 (irgf.asm1)`` — unique optimal token per sequence and a full matrix W* with
  (x_opt − x_il)ᵀW*z_i ≥ 1. Implied by diagonal separability; otherwise decided by the exact
  Frobenius SVM (certified optimum) or refuted by a verified Farkas certificate.
* ``Assumption 2 (irgf.asm2)`` — all non-optimal scores of a sequence are equal (exact test).
* ``Assumption 3 (irgf.asm3)`` — ℒ(θ(0)) ≤ min_j (1/n)[e^{−γ_j,nopt} + Σ_{i≠j} e^{−γ_i,opt}]; under
  init (5) β(0) = 0, attention is uniform and ℒ(θ(0)) = (1/n) Σ_i exp(−mean_l γ_il). Decided in
  ball arithmetic (undecided → None).
* ``init (5) (irgf.eq5)`` — ξ_k(0) ⊙ ξ_q(0) = 0 and ξ_k(0)² + ξ_q(0)² = 2ω₀² with every ω₀,j ≠ 0;
  the engine starts from exactly such a point (φ = 0), so only ω₀,j ≠ 0 can fail.
* ``irgf.hyp.diagsep`` — the (ℓ1-SVM) is feasible (a *diagonal* separator exists): used by the
  proofs of Lemma 4.2 and Theorem 4.1, not stated by the paper, not implied by Assumption 1
  (D-DIAGINF). Decided exactly (rational simplex, certified optimum) or refuted by a verified
  Farkas certificate; a certificate that does not verify leaves it undecided (None).
"""
from __future__ import annotations

import math
from fractions import Fraction

from flint import arb

from verify.claims import Evidence, Figure, Hypothesis
from verify.claims.registry import Parameter
from verify.data.dataset import Dataset
from verify.kit.assumptions import svm_feasible
from verify.numbers.exact import float_or_none
from verify.numbers.precision import g_format, log10_abs, raised_precision, to_arb

A1, A2, A3, INIT5, DIAGSEP = "A1", "A2", "A3", "init5", "diagsep"
NAMES = {
    A1: "Assumption 1 (irgf.asm1): unique optimal tokens and a separating W*",
    A2: "Assumption 2 (irgf.asm2): equal non-optimal scores in every sequence",
    A3: "Assumption 3 (irgf.asm3): small initial loss",
    INIT5: "init (5) (irgf.eq5): β(0) = 0 with every ω₀,j ≠ 0",
    DIAGSEP: "irgf.hyp.diagsep: (ℓ1-SVM) feasible — diagonal separability (used by the proofs, not stated)",
}
# general (K, Q) (§5): Assumption 4 and the alignment of Definition 5.1 (``assumption4`` here, the alignment's
# exact test and everything built on the bases in ``verify.kit.irgf_kq``)
A4, ALIGN = "A4", "align"
NAMES[A4] = ("Assumption 4 (irgf.asm4): (i) orthogonal optimal tokens and queries, (ii) query ∥ optimal token, "
             "(iii) non-optimal tokens in pairs c·x_opt ± r, r ⊥ x_opt, c ∈ [−1, 1)")
NAMES[ALIGN] = "alignment (irgf.def51): K(0) = U_K Λ_K Vᵀ, Q(0) = U_Q Λ_Q Vᵀ (diagonal Λ, the data's bases (7))"

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


def l2_diag_svm(data: Dataset, dps: int = 60):
    """The diagonal ℓ2-SVM min ‖β‖₂ s.t. βᵀB_il ≥ 1 (the ℓ1-SVM's rows with the ℓ2 norm: diagonal W trained
    directly, irgf §5 / ``irgf.aux.direct-beta``), exact QP with its certificate, memoised per dataset."""
    from verify.svm import build_problem, problem_from_rows, solve_svm

    key = _key(data, "diag-l2")
    if key not in _SVM_CACHE:
        p = build_problem(data, "diag")
        _SVM_CACHE[key] = solve_svm(problem_from_rows(p.rows, p.rhs, "l2"), dps=dps)
    return _SVM_CACHE[key]


def unique_opt(data: Dataset) -> bool:
    return all(len(o) == 1 for o in data.optimal_tokens())


def min_margin(res) -> Fraction:
    """min_j a_jᵀx: the smallest margin of an exact SVM solution x (a Fraction)."""
    return min(sum((a * b for a, b in zip(row, res.solution)), Fraction(0)) for row in res.problem.rows)


def assumption2(data: Dataset) -> tuple[bool, str]:
    bad = []
    for i, (g, o) in enumerate(zip(data.scores, data.optimal_tokens())):
        others = [g[t] for t in range(len(g)) if t != o[0]]
        if len(o) > 1 or len(set(others)) > 1:
            bad.append(i)
    if bad:
        i = bad[0]
        return False, (f"sequence {i + 1} (1-indexed) has scores {[str(x) for x in data.scores[i]]} (non-optimal scores "
                       "differ or the optimum ties)")
    return True, "non-optimal scores equal in every sequence (exact)"


def _dot(a, b) -> Fraction:
    return sum((x * y for x, y in zip(a, b)), Fraction(0))


def assumption4(data: Dataset) -> tuple[bool, str, dict | None]:
    """Assumption 4, decided exactly on the rational data: (i) x_{i,opt}ᵀx_{j,opt} = 0 and z_iᵀz_j = 0 (i ≠ j);
    (ii) ⟨x_{i,opt}, z_i⟩² = ‖x_{i,opt}‖²‖z_i‖² ≠ 0; (iii) L odd and the non-optimal tokens of each sequence
    matched in pairs with x_a + x_b = 2c·x_opt and x_optᵀ(x_a − x_b) = 0, c ∈ [−1, 1) (c = x_optᵀx_a/‖x_opt‖² is
    forced, so is the partner 2c·x_opt − x_a: a greedy matching decides). Returns (met, detail, info) with info =
    {opt, xo, z, ok_i, ok_ii, pairs} (pairs: per sequence [(a, b, c)], None when (iii) fails); info None when
    an optimal token is tied."""
    opts = data.optimal_tokens()
    if any(len(o) != 1 for o in opts):
        return False, "some sequence has tied optimal tokens", None
    opt = [o[0] for o in opts]
    xo = [list(data.X[i][opt[i]]) for i in range(data.n)]
    Z = [list(z) for z in data.queries()]
    n, T = data.n, data.T
    bad_i = [(i, j) for i in range(n) for j in range(i + 1, n) if _dot(xo[i], xo[j]) != 0 or _dot(Z[i], Z[j]) != 0]
    bad_ii = [i for i in range(n) if _dot(xo[i], Z[i]) == 0
              or _dot(xo[i], Z[i]) ** 2 != _dot(xo[i], xo[i]) * _dot(Z[i], Z[i])]
    pairs, bad_iii = [], None
    for i in range(n):
        rest, seq, nx = [t for t in range(T) if t != opt[i]], data.X[i], _dot(xo[i], xo[i])
        if T % 2 == 0:
            bad_iii = f"L = {T} is even: the {T - 1} non-optimal tokens cannot be paired"
            break
        if nx == 0:
            bad_iii = f"sequence {i + 1}: x_opt = 0"
            break
        got = []
        while rest and bad_iii is None:
            a = rest.pop(0)
            c = _dot(xo[i], seq[a]) / nx
            want = [2 * c * p - q for p, q in zip(xo[i], seq[a])]
            b = next((t for t in rest if list(seq[t]) == want), None)
            if b is None:
                bad_iii = (f"sequence {i + 1}: token {a + 1} has no partner 2c·x_opt − x_{a + 1} (c = {_short(c)}) among "
                           "the others")
            elif not -1 <= c < 1:
                bad_iii = f"sequence {i + 1}: pair ({a + 1}, {b + 1}) has c = {c} ∉ [−1, 1)"
            else:
                rest.remove(b)
                got.append((a, b, c))
        if bad_iii is not None:
            break
        pairs.append(got)
    why = {"i": f"(i) fails for sequences {bad_i[0][0] + 1} and {bad_i[0][1] + 1}" if bad_i else "",
           "ii": f"(ii) fails for sequence {bad_ii[0] + 1} (z not parallel to x_opt)" if bad_ii else "",
           "iii": f"(iii) fails: {bad_iii}" if bad_iii else ""}
    info = {"opt": opt, "xo": xo, "z": Z, "ok_i": not bad_i, "ok_ii": not bad_ii,
            "pairs": pairs if bad_iii is None else None, "why": why}
    fails = [w for w in why.values() if w]
    if fails:
        return False, "; ".join(fails) + " (exact; sequences and tokens 1-indexed)", info
    cs = "; ".join(f"seq {i + 1}: " + ", ".join(f"({a + 1},{b + 1}) c = {c}" for a, b, c in p) for i, p in enumerate(pairs))
    return True, f"(i)–(iii) hold exactly; pairs (1-indexed) {cs}", info


def initial_loss_and_bounds(data: Dataset):
    """(ℒ(θ(0)), [b_j]) as arb balls, b_j = (1/n)[e^{−γ_j,nopt} + Σ_{i≠j} e^{−γ_i,opt}] the bound of Assumption 3 for
    sequence j; β(0) = 0 under init (5), so attention is uniform and ℒ(θ(0)) = (1/n) Σ_i e^{−mean_l γ_il}. Needs
    Assumption 2 (γ_nopt)."""
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
    return L0, [((-to_arb(gnopt[j])).exp() + total - eo[j]) / n for j in range(n)]


def initial_loss_and_bound(data: Dataset):
    """(ℒ(θ(0)), bound of Assumption 3 = min_j b_j) as arb balls (``initial_loss_and_bounds``)."""
    L0, bounds = initial_loss_and_bounds(data)
    return L0, min(bounds, key=lambda b: b.mid())


def assumption3(data: Dataset) -> tuple[bool | None, str]:
    ok2, _ = assumption2(data)
    if not ok2:
        return False, "undefined: needs Assumption 2 (γ_nopt)"
    L0, bound = initial_loss_and_bound(data)
    shown = f"ℒ(θ(0)) = {L0.str(8, radius=False)} vs {bound.str(8, radius=False)}"
    if L0 <= bound:
        return True, shown.replace(" vs ", " ≤ ") + " (certified)"
    if L0 > bound:
        return False, shown.replace(" vs ", " > ")
    return None, f"undecided at this precision: {shown}"


def omega_shown(omega0, d: int) -> str:
    """ω₀ as the verdicts show it: 𝟙 (the default) or its entries."""
    om = [Fraction(w) for w in (omega0 or [1] * d)]
    return "𝟙" if all(w == 1 for w in om) else "(" + ", ".join(str(w) for w in om) + ")"


def init5(omega0, d: int) -> tuple[bool, str]:
    om = [Fraction(w) for w in (omega0 or [1] * d)]
    zeros = [j for j, w in enumerate(om) if w == 0]
    shown = omega_shown(omega0, d)
    if zeros:
        return False, f"ω₀ = {shown} has ω₀,j = 0 at j = {zeros} (those coordinates never move)"
    return True, f"ξ_k(0) = √2·ω₀, ξ_q(0) = 0 with ω₀ = {shown} (all entries ≠ 0)"


def start5(d: int, omega0=None, start=None):
    """The start of the diagonal flow for a claim about init (5), with the hypothesis decided on it.

    ``start`` = (ξ_k(0), ξ_q(0)) exact rationals: (5) holds iff ξ_k ⊙ ξ_q = 0 and every ξ_k,j² + ξ_q,j² ≠ 0 (exact),
    and then ω₀² := (ξ_k² + ξ_q²)/2 (rational). Otherwise ω₀ (default (7/10, 13/10, 2/5, 1, …)) and the start
    mixes which factor vanishes and its sign: ξ_k,j = √2ω₀,j, ξ_q,j = 0 for even j, ξ_k,j = 0, ξ_q,j = −√2ω₀,j for
    odd j (arb balls). Returns (ξ_k, ξ_q (arb lists), ω₀² (exact Fractions), Hypothesis, label)."""
    if start is not None:
        xk, xq = [Fraction(x) for x in start[0]], [Fraction(x) for x in start[1]]
        if len(xk) != d or len(xq) != d:
            from verify.errors import UsageError
            raise UsageError(f"start: ξ_k(0) and ξ_q(0) need d = {d} entries each")
        prod = [j for j in range(d) if xk[j] * xq[j] != 0]
        zero = [j for j in range(d) if xk[j] == 0 and xq[j] == 0]
        w2 = [(a * a + b * b) / 2 for a, b in zip(xk, xq)]
        met = not prod and not zero
        detail = ("ξ_k(0) ⊙ ξ_q(0) = 0 and every ω₀,j² = (ξ_k,j² + ξ_q,j²)/2 ≠ 0 (exact)" if met else
                  (f"ξ_k,j(0)·ξ_q,j(0) ≠ 0 at j = {prod} (β(0) ≠ 0)" if prod else "")
                  + ("; " if prod and zero else "") + (f"ξ_k,j(0) = ξ_q,j(0) = 0 at j = {zero} (ω₀,j = 0)" if zero else ""))
        label = f"start ξ_k(0) = ({', '.join(map(str, xk))}), ξ_q(0) = ({', '.join(map(str, xq))})"
        return ([to_arb(x) for x in xk], [to_arb(x) for x in xq], w2, Hypothesis(f"{NAMES[INIT5]} for the {label}",
                                                                                 met, detail), label)
    om = [Fraction(w) for w in (omega0 or [OMEGA_A1[j % len(OMEGA_A1)] for j in range(d)])]
    ok, detail = init5(om, d)
    s2 = arb(2).sqrt()
    xk = [s2 * to_arb(w) if j % 2 == 0 else arb(0) for j, w in enumerate(om)]
    xq = [arb(0) if j % 2 == 0 else -s2 * to_arb(w) for j, w in enumerate(om)]
    label = f"init (5) with ω₀ = ({', '.join(map(str, om))}) (ξ_k = √2ω₀ at even j, ξ_q = −√2ω₀ at odd j)"
    return xk, xq, [w * w for w in om], Hypothesis(NAMES[INIT5], ok, detail.replace("ξ_k(0) = √2·ω₀, ξ_q(0) = 0",
                                                                                    "one factor √2ω₀, the other 0")), label


#: the ω₀ of the Lemma A.1 / conservation runs (the spec's §4 observation used these values)
OMEGA_A1 = ("7/10", "13/10", "2/5", "1")


def diagsep(data: Dataset, dps: int = 60) -> tuple[bool | None, str, object]:
    """Diagonal separability from a verified certificate (``kit.assumptions.svm_feasible``)."""
    res = l1_svm(data, dps)
    h = svm_feasible(res, NAMES[DIAGSEP])
    if h.met:
        return True, f"feasible: exact ℓ1-SVM optimum p* = {_short(res.objective)} (certificate verified)", res
    far = res.farkas
    if h.met is False:
        return False, (f"infeasible: exact Farkas certificate λ ≥ 0, Σλ = 1, Σ λ_il B_il = 0 (residual {far.residual}), "
                       f"Σλ_il·1 = {far.rhs} > 0, rows {list(far.rows)} (verified)"), res
    return None, h.detail, res


def assumption1(data: Dataset, diag_feasible: bool | None = None, dps: int = 60) -> tuple[bool | None, str, object]:
    if not unique_opt(data):
        return False, "some sequence has tied optimal tokens", None
    if diag_feasible:
        return True, "implied by diagonal separability (Diag(β*) separates)", None
    res = w_svm(data, dps)
    h = svm_feasible(res, NAMES[A1])
    if h.met:
        return True, f"full-W Frobenius SVM feasible: ‖W*‖_F = {_short(res.objective)} (exact QP)", res
    if h.met is False:
        return False, "no W* separates: verified Farkas certificate for the full-W constraints", res
    return None, h.detail, res


def separator_items(res, exists: str, witness: str) -> list | None:
    """The exact items deciding "a separator exists" from an SVM result (``l1_svm`` or ``w_svm``): feasible — the
    minimum margin of the exact solution (``witness``) ≥ 1; infeasible — ``exists`` refuted, with the verified Farkas
    certificate's two exact items (λ ≥ 0, Σλ = 1: ‖Σλ_il a_il‖_∞ = 0 and Σλ_il·1 > 0, so 0 = Σλ_il a_ilᵀW ≥ Σλ_il > 0
    for every W). None when neither answer is certified (the caller requires it)."""
    if svm_feasible(res, exists).met is True:
        p = res.objective
        shown = str(p) if isinstance(p, Fraction) and p.denominator < 10**6 else _short(p)
        return [Evidence(f"min_il margin of {witness} (exact)", min_margin(res), ">=", 1,
                         note=f"optimal norm {shown}; solution ({', '.join(_short(Fraction(x)) for x in res.solution)})")]
    far = res.farkas
    if res.status != "infeasible" or far is None or not far.passed:
        return None
    rows = ", ".join(f"({i + 1},{t + 1})" for i, t in far.rows)
    return [Evidence(exists, False, "==", True,
                     note=f"refuted by the exact Farkas certificate (verified) on the pairs (i, l) = {rows} (1-indexed)"),
            Evidence("Farkas certificate: ‖Σ λ_il a_il‖_∞ (exact)", far.residual, "==", 0,
                     note=f"λ = {[str(x) for x in far.lam]} ≥ 0, Σλ = 1"),
            Evidence("Farkas certificate: Σ λ_il · 1 (exact)", far.rhs, ">", 0)]


def check_hypotheses(data: Dataset, needs, omega0=None, dps: int = 60):
    """Hypotheses in ``needs`` (subset of A1, A2, A3, INIT5, DIAGSEP), in that order, and a context
    dict with the ℓ1-SVM result (``svm``), its feasibility (``diagsep``) and the full-W one (``w_svm``)."""
    hyps, ctx = [], {}
    ok_d, det_d, ctx["svm"] = diagsep(data, dps)
    ctx["diagsep"] = ok_d
    if A1 in needs:
        ok, det, ctx["w_svm"] = assumption1(data, ok_d, dps)
        hyps.append(Hypothesis(NAMES[A1], ok, det))
    if A2 in needs:
        hyps.append(Hypothesis(NAMES[A2], *assumption2(data)))
    if A3 in needs:
        hyps.append(Hypothesis(NAMES[A3], *assumption3(data)))
    if INIT5 in needs:
        hyps.append(Hypothesis(NAMES[INIT5], *init5(omega0, data.d)))
    if DIAGSEP in needs:
        hyps.append(Hypothesis(NAMES[DIAGSEP], ok_d, det_d))
    return hyps, ctx


#: the start of the irgf flows, shared by every claim that runs them from init (5) (docs/parameters.md); the ω₀
#: covered is named by ``hypotheses``
OMEGA0_PARAMETER = Parameter("ω₀", "from init (5) with any ω₀ (every ω₀,j ≠ 0)", "range",
                             "ω₀ = 𝟙 unless `omega0` is given; the flow depends on ω₀ alone (Lemma 4.1) (named in the "
                             "verdict)", option="omega0", kind="rationals")


def hypotheses(out, data: Dataset, needs, claim_id: str, omega0=None, check: bool = True) -> dict:
    """The first block of every irgf flow claim: the hypotheses in ``needs`` checked on the data and
    added to ``out`` (with ``check`` False — false-case mode — only named in a note); when diagonal
    separability fails, a note on the gap (the stated hypotheses hold or not, ∇_βℒ(0) = 0 exactly
    or not) and the replay note. Returns the context of ``check_hypotheses``."""
    hyps, ctx = check_hypotheses(data, needs, omega0)
    # "from init (5)" for every ω₀: the flow of β depends on ω₀ alone (Lemma 4.1: the split of 2ω₀² between
    # ξ_k(0) and ξ_q(0) is a sign flip of (w₊, w₋)), and one ω₀ is followed
    out.cover(f"init (5) with ω₀ = {omega_shown(omega0, data.d)}")
    if not check:
        unmet = "; ".join(h.name for h in hyps if h.met is not True) or "none"
        out.notes.append(f"hypothesis check bypassed (false-case mode); unmet: {unmet}")
        return ctx
    out.hypotheses.extend(hyps)
    if ctx["diagsep"] is False:
        stated = all(h.met for h in hyps if h.name != NAMES[DIAGSEP])
        zero, _ = grad_at_zero_is_zero(data)
        out.notes.append(f"as printed, the stated hypotheses {'hold' if stated else 'do not all hold'} but the "
                         "ℓ1-SVM is infeasible (irgf.hyp.diagsep fails)"
                         + ("; ∇_βℒ(0) = 0 exactly, so β(t) ≡ 0 from every init (5)" if zero else "")
                         + ": the stated hypotheses do not imply the diagonal separability the proofs use")
        out.notes.append(replay_note(data, claim_id))
    return ctx


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


MOVES = "∇_βℒ(0) ≠ 0 (exact; else β(t) ≡ 0 from init (5))"


def moves_from_zero(data: Dataset) -> Evidence:
    """The exact item "the flow leaves β(0) = 0": decided in rational arithmetic (certified)."""
    zero, _ = grad_at_zero_is_zero(data)
    return Evidence(MOVES, not zero, "==", True,
                    note="exact: grouped by mean score (Lindemann–Weierstrass)"
                    + ("; ∇_βℒ(0) = 0: a stationary point at finite β, the flow never moves" if zero else ""))


def l1_dual_vector(res) -> list:
    """g = Bλ* (exact Fractions) of the ℓ1-SVM dual optimum."""
    prob = res.problem
    return [sum((res.duals[j] * prob.rows[j][k] for j in range(prob.m) if res.duals[j]), Fraction(0))
            for k in range(prob.dim)]


def support_coordinates(res) -> set:
    """J₁ = {j : |(Bλ*)_j| = 1}: the coordinates that may be non-zero on the optimal face (exact)."""
    return {j for j, x in enumerate(l1_dual_vector(res)) if abs(x) == 1}


def smallest_reduced_cost(res):
    """κ = min_{j : |(Bλ*)_j| < 1} (1 − |(Bλ*)_j|) (None if every |g_j| = 1): the predicted
    exponent of the direction error µ^{−κ} (DERIVED from (31): coordinate j off the face decays
    like µ^{|g_j| − 1}; a heuristic rate, used as the ``expected`` rate of ``rules.decays``)."""
    g = l1_dual_vector(res)
    vals = [1 - abs(x) for x in g if abs(x) < 1]
    return min(vals) if vals else None


def expected_rate(res):
    """κ (``smallest_reduced_cost``) to three decimals, as the ``expected`` rate of ``rules.decays``
    (the exact κ has a long denominator; the rule asks for RATE_FRACTION of it). None if no κ."""
    k = smallest_reduced_cost(res)
    return None if k is None else Fraction(round(k * 1000), 1000)


def face_distance(beta, res, dps: int):
    """Euclidean distance from β/‖β‖₁ to F/p* (F the exact optimal face of the ℓ1-SVM)."""
    from verify.svm import distance_to_solution_set

    if all(b.mid() == 0 for b in beta):
        return None
    return distance_to_solution_set([arb(b.mid()) for b in beta], res, dps=dps)


def face_selection(res, w2) -> list | None:
    """The point of the ℓ1-SVM's optimal face F that the flow from init (5) is conjectured to select (spec,
    irgf.aux.face, heuristic): argmin over F of Φ(β) = Σ_j |β_j| (ln(2|β_j|/ω₀,j²) − 1). On F, β = g ⊙ t with
    g = Bλ* (exact), t ≥ 0 supported on J₁ = {|g_j| = 1}, Σt = p* and Bᵀβ ≥ 1 (complementary slackness), so Φ is a
    strictly convex (relative-entropy) function of t on a polytope: solved in float64 (SLSQP from the centre of the
    simplex) — a proposal accurate to ~1e-9, compared through ``rules.FACE_POINT_RESOLUTION``. Returns β as floats
    (None when the SVM has no certified optimum or the solve fails)."""
    import numpy as np
    from scipy.optimize import minimize

    if res.status != "optimal":
        return None
    g = [float(x) for x in l1_dual_vector(res)]
    J = sorted(support_coordinates(res))
    p = float(res.objective)
    w = np.array([float(w2[j]) for j in J])
    rows = np.array([[float(r[j]) * g[j] for j in J] for r in res.problem.rows])
    if not J:
        return None

    def phi(t):
        t = np.maximum(t, 1e-300)
        return float(np.sum(t * (np.log(2 * t / w) - 1)))

    def grad(t):
        return np.log(2 * np.maximum(t, 1e-300) / w)

    cons = [{"type": "eq", "fun": lambda t: np.sum(t) - p, "jac": lambda t: np.ones_like(t)},
            {"type": "ineq", "fun": lambda t: rows @ t - 1, "jac": lambda t: rows}]
    sol = minimize(phi, np.full(len(J), p / len(J)), jac=grad, constraints=cons, method="SLSQP",
                   bounds=[(0, None)] * len(J), options={"ftol": 1e-15, "maxiter": 500})
    if not sol.success:
        return None
    beta = [0.0] * len(g)
    for k, j in enumerate(J):
        beta[j] = g[j] * float(sol.x[k])
    return beta


def fitted_exponent(xs, ys) -> arb:
    """a in y ≈ C·x^a, least squares on (ln x, ln y) at the working precision (midpoints, positive
    values): a figure shown beside a rule's decision (the rules fit log10 floats)."""
    lx, ly = [arb(x.log().mid()) for x in xs], [arb(y.log().mid()) for y in ys]
    mx, my = sum(lx, arb(0)) / len(lx), sum(ly, arb(0)) / len(ly)
    return sum(((x - mx) * (y - my) for x, y in zip(lx, ly)), arb(0)) / sum(((x - mx) * (x - mx) for x in lx), arb(0))


def ruled(quantity: str, value, decision, note: str = "") -> Evidence:
    """An item decided by a rule of ``verify.claims.rules`` on flow output (no rigorous error bound:
    ``enclosed=False``); the rule's detail goes into the note (it is the witness of a failure)."""
    return Evidence(quantity, value, rule=decision, enclosed=False,
                    note=(note + "; " if note else "") + decision.detail)


MAX_EXTRA_DIGITS = 6000  # beyond it a cancelling evaluation is left as wide as it comes out (undecided)


def raised(dps: int, lost: float):
    """``verify.numbers.precision.raised_precision`` with irgf's cap (MAX_EXTRA_DIGITS)."""
    return raised_precision(dps, lost, MAX_EXTRA_DIGITS)


# ----- plotting helpers (floats for figures only) ----------------------------------------------
def fl(x) -> float | None:
    """Float for plotting only (None when not representable)."""
    if x is None:
        return None
    try:
        v = float(x.mid()) if isinstance(x, arb) else float(x)
    except (OverflowError, ValueError):
        return None
    return v if math.isfinite(v) else None


def log10f(x) -> float | None:
    """log10 x computed at the working precision (values like 1e-10000 are fine); None for x ≤ 0
    (undefined), never a clamped value."""
    if isinstance(x, float):  # a plotting-grade value (e.g. a fitted curve)
        return math.log10(x) if x > 0 else None
    if x is None or not (to_arb(x) > 0 if not isinstance(x, arb) else x > 0):
        return None
    return log10_abs(x if isinstance(x, arb) else to_arb(x))


def _short(x) -> str:
    if isinstance(x, Fraction):
        if x.denominator == 1:
            return str(x.numerator)
        f = float_or_none(x)  # None beyond float64 (data at 10^±400): the same digits, exactly
        return str(f) if f is not None else g_format(x, 17)
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
    q = p / 3
    e = q.numerator.bit_length() - q.denominator.bit_length()  # q = 2^e·m, m ∈ (1/2, 2): exact at any magnitude
    k = e + round(math.log2(q / Fraction(2) ** e))  # (float(p) underflows to 0 below 10^−308)
    ds = Fraction(2) ** k if k >= 0 else Fraction(1, 2 ** (-k))
    return ds, 40 * max(Fraction(3, 2), p), p


def flow(data: Dataset, omega0=None, target=DEFAULT_TARGET):
    """(trajectory, [(record, DualPoint)] for s > 0) of the diagonal flow from init (5)."""
    from verify.dynamics.dual import dual_trajectory

    ds, s_max, scale = grid_for(data)
    traj = dual_trajectory(data, omega0, target_log_l1=target, ds=ds, s_max=s_max, l1_scale=scale)
    pts = traj.points()
    return traj, [(r, p) for r, p in zip(traj.records, pts) if r.s > 0]


def follow(out, data: Dataset, omega0=None, target=DEFAULT_TARGET):
    """The flow an asymptotic claim judges, with what the check needs of it: sets ``out.range``
    (ln(‖β‖₁/p*) ≤ target), notes the range reached and the integrator, requires that the flow
    reached its target; when it could not move (β ≡ 0 and ∇_βℒ(0) = 0 exactly) adds the exact
    failing item ``MOVES``. Returns (trajectory, records beyond s = 0, reached)."""
    traj, recs = flow(data, omega0, target)
    out.range = f"ln(‖β‖₁/p*) ≤ {target}"
    out.notes.append(range_note(traj, recs))
    reached = traj.status == "reached" and len(recs) >= 2
    out.require(f"the flow reached ln(‖β‖₁/p*) ≥ {target}", reached,
                f"status {traj.status}, {len(recs)} record(s) beyond s = 0")
    if not reached and all(all(b == 0 for b in p.beta) for _, p in recs) \
            and not any(e.quantity == MOVES for e in out.evidence):
        item = moves_from_zero(data)
        if item.decide() is False:
            out.add(item)
    return traj, recs, reached


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
            f"overflows t at ln t > 709); its values carry no rigorous error bound (local tolerance "
            f"1e-{traj.tol_digits}, checked by the recomputation at a higher precision). {traj.summary()}")


def figure(name, title, xlabel, ylabel, series, **kw):
    """A Figure with the series that have at least one defined point (None when nothing is left).
    Values are given as computed (log10 at the working precision for tiny ones), never clamped."""
    keep = []
    for s in series:
        pts = [(x, y) for x, y in zip(s.x, s.y) if x is not None and y is not None]
        if pts:
            s.x, s.y = [p[0] for p in pts], [p[1] for p in pts]
            keep.append(s)
    if not keep:
        return None
    return Figure(name, title, xlabel, ylabel, keep, **kw)
