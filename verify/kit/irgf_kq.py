"""General (K, Q) of irgf §5 (Lemma 5.1, Theorem 5.1, (42)–(45)), shared by irgf.lemma51, irgf.thm51,
irgf.prop.lift and irgf.aux.a4-coincide: the data's orthogonal bases (7), a rational orthogonal V (Cayley
transform), aligned starts and their exact test (Definition 5.1), the off-diagonal mass along the flow, the
spectral ℓ1-SVM (42), its lift U_K Diag(β̃) U_Qᵀ, and an exact certificate of nuclear-SVM optimality.

Exact representation. Under Assumption 4 (i)–(ii) (``verify.kit.irgf.assumption4``) the used columns are
u^k_i = x_{i,opt}/‖x_{i,opt}‖ and u^q_i = z_i/‖z_i‖ (π = identity: the order of the columns is immaterial). They are
kept as rational orthogonal vectors w (divided by ‖w‖ when ‖w‖² is a rational square, so D-A4's bases are exactly
Diag(1, −1, 1)); the unused columns complete them by exact Gram–Schmidt on e_1, …, e_d; U = [w/‖w‖]. What the checks
decide is rational: u^k_i u^q_iᵀ = x zᵀ/|⟨x, z⟩| by (ii), u uᵀ = w wᵀ/‖w‖², and an aligned start is
K(0) = Σ_e a_e w^k_e v_eᵀ with rational a_e (Λ_K,e = a_e‖w^k_e‖), so Definition 5.1 is an exact test.

Nuclear-SVM certificate (exact). min ‖W‖_* s.t. ⟨A_j, W⟩ ≥ b_j, A_j = (x_opt − x_il) z_iᵀ: W is optimal when
(a) it is feasible, (b) λ ≥ 0 with Λ = Σλ_j A_j, ‖Λ‖₂ ≤ 1 ⇔ [[I, Λ], [Λᵀ, I]] ⪰ 0, (c) ‖W‖_* ≤ t ⇐
[[P, W], [Wᵀ, R]] ⪰ 0 with t = (tr P + tr R)/2, and (d) t = bᵀλ: weak duality ‖W'‖_* ≥ ⟨Λ, W'⟩ ≥ bᵀλ for every
feasible W'. Positive semidefiniteness of a rational symmetric matrix is decided exactly by the signs of its
characteristic polynomial's coefficients (all roots real: PSD ⇔ (−1)^{N−k} c_k ≥ 0 for every k).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import isqrt

from flint import arb, arb_mat, fmpq, fmpq_mat

from verify.claims import Hypothesis
from verify.data.irgf import rational_orthogonal
from verify.kit.irgf import ALIGN, NAMES, _dot
from verify.numbers.precision import to_arb


def _sqrt_q(q: Fraction) -> Fraction | None:
    """√q as a Fraction when q ≥ 0 is a rational square, else None."""
    if q < 0:
        return None
    a, b = isqrt(q.numerator), isqrt(q.denominator)
    return Fraction(a, b) if a * a == q.numerator and b * b == q.denominator else None


def _unit_if_rational(w):
    r = _sqrt_q(_dot(w, w))
    return [x / r for x in w] if r else list(w)


def _completion(cols, d: int) -> list:
    """Rational orthogonal vectors completing ``cols`` (mutually orthogonal) to a basis of ℝ^d (Gram–Schmidt on
    e_1, …, e_d; exact)."""
    out = [list(c) for c in cols]
    for j in range(d):
        if len(out) == d:
            break
        e = [Fraction(int(a == j)) for a in range(d)]
        for w in out:
            e = [x - _dot(e, w) / _dot(w, w) * y for x, y in zip(e, w)]
        if any(e):
            out.append(_unit_if_rational(e))
    return out[len(cols):]


@dataclass
class Bases:
    """U_K, U_Q of (7) as rational orthogonal columns (``wk``, ``wq``; the first ``n`` are the used ones)."""

    wk: list
    wq: list
    n: int

    def U(self, which: str) -> arb_mat:
        """U_K (``which`` = "K") or U_Q as an arb matrix (columns w/‖w‖; exact where ‖w‖² is a square)."""
        ws = self.wk if which == "K" else self.wq
        d = len(ws)
        cols = [[to_arb(x) / to_arb(_dot(w, w)).sqrt() for x in w] for w in ws]
        return arb_mat([[cols[e][a] for e in range(d)] for a in range(d)])


def bases(info: dict | None, flip: int | None = None) -> Bases | None:
    """The bases of (7) from ``assumption4``'s info (None unless (i) and (ii) hold). ``flip``: the sequence whose
    u^q column is negated (the wrong basis of irgf.prop.lift's false case)."""
    if not info or not (info["ok_i"] and info["ok_ii"]):
        return None
    d = len(info["xo"][0])
    uk = [_unit_if_rational(x) for x in info["xo"]]
    uq = [_unit_if_rational(z) for z in info["z"]]
    if flip is not None:
        uq[flip] = [-x for x in uq[flip]]
    return Bases(uk + _completion(uk, d), uq + _completion(uq, d), len(uk))


def cayley(m: int, seed: int = 0) -> list:
    """A rational orthogonal m × m matrix (``verify.data.irgf.rational_orthogonal``: a Cayley transform; VᵀV = I
    exactly)."""
    return rational_orthogonal(m, seed)


def aligned_start(B: Bases, V, ak, aq) -> list:
    """ψ(0) = (vec K(0), vec Q(0)) row-major, K(0) = Σ_e ak_e w^k_e v_eᵀ, Q(0) = Σ_e aq_e w^q_e v_eᵀ (exact Fractions;
    e < min(d, d_e), v_e the columns of V; Λ_K,e = ak_e‖w^k_e‖)."""
    d, de = len(B.wk), len(V)

    def mat(ws, a):
        return [[sum((a[e] * ws[e][r] * V[f][e] for e in range(min(d, de))), Fraction(0)) for f in range(de)]
                for r in range(d)]
    return [x for row in mat(B.wk, ak) for x in row] + [x for row in mat(B.wq, aq) for x in row]


def split(psi, d: int, de: int):
    """(K, Q) as arb matrices d × d_e from ψ (row-major)."""
    a = [x if isinstance(x, arb) else to_arb(x) for x in psi]
    return arb_mat(d, de, a[:d * de]), arb_mat(d, de, a[d * de:])


def offdiag_mass(B: Bases, V, M: arb_mat, which: str) -> arb:
    """‖offdiag(Uᵀ M V)‖_F (U = U_K for ``which`` "K", else U_Q): 0 iff M = U Λ Vᵀ with Λ diagonal."""
    A = B.U(which).transpose() * M * arb_mat([[to_arb(x) for x in row] for row in V])
    sq = sum((A[a, f] * A[a, f] for a in range(A.nrows()) for f in range(A.ncols()) if a != f), arb(0))
    # a ball around 0 has a negative lower end: enclose √max(0, sq) as [√lower⁺, √upper]
    lo, hi = arb(sq.lower()).max(arb(0)).sqrt(), arb(sq.upper()).max(arb(0)).sqrt()
    return arb(lo.lower()).union(arb(hi.upper()))


def alignment(B: Bases, V, psi0) -> Hypothesis:
    """Definition 5.1 at the start, exactly: w^k_eᵀ K(0) v_f = 0 and w^q_eᵀ Q(0) v_f = 0 for every e ≠ f."""
    d, de = len(B.wk), len(V)
    K, Q = psi0[:d * de], psi0[d * de:]
    bad = []
    for name, ws, M in (("K", B.wk, K), ("Q", B.wq, Q)):
        for e in range(d):
            for f in range(de):
                if e != f and sum((ws[e][r] * M[r * de + c] * V[c][f] for r in range(d) for c in range(de)),
                                  Fraction(0)) != 0:
                    bad.append(f"(U_{name}ᵀ{name}(0)V)[{e},{f}] ≠ 0")
    if bad:
        return Hypothesis(NAMES[ALIGN], False, f"{len(bad)} off-diagonal entries ≠ 0 (exact), e.g. {bad[0]}")
    return Hypothesis(NAMES[ALIGN], True, f"U_Kᵀ K(0) V and U_Qᵀ Q(0) V diagonal (exact; V rational orthogonal {de} × {de})")


# ----- (42), its lift and the nuclear certificate -----------------------------------------------------------------
def spectral_rows(data, info) -> list:
    """The rows B̃_il = sign⟨x_opt, z_i⟩ ⟨x_opt − x_il, z_i⟩ e_{π(i)} of (42), in the order of the SVM rows
    (sequence i, then tokens t ≠ opt(i))."""
    rows = []
    for i in range(data.n):
        xo, z, o = info["xo"][i], info["z"][i], info["opt"][i]
        s = 1 if _dot(xo, z) > 0 else -1
        for t in range(data.T):
            if t != o:
                row = [Fraction(0)] * data.d
                row[i] = s * _dot([a - b for a, b in zip(xo, data.X[i][t])], z)
                rows.append(row)
    return rows


def spectral_l1(data, info, dps: int = 60):
    """(42) solved exactly (``solve_svm`` on its rows: exact LP, verified certificate)."""
    from verify.svm import solve_svm
    from verify.svm.problems import problem_from_rows

    rows = spectral_rows(data, info)
    return solve_svm(problem_from_rows(rows, [1] * len(rows), norm="l1", shape=(data.d,), kind="diag"), dps=dps)


def closed_form(info) -> list:
    """β̃_{π(i)} = max over the pairs of 1/((1 − c)|⟨x_opt, z_i⟩|) (= 1/((1 − c)‖x_opt‖‖z_i‖) by (ii)), DERIVED: (42)
    decouples. The other entries 0."""
    d = len(info["xo"][0])
    out = [Fraction(0)] * d
    for i, pairs in enumerate(info["pairs"]):
        out[i] = max(1 / ((1 - c) * abs(_dot(info["xo"][i], info["z"][i]))) for _, _, c in pairs)
    return out


def lift(info, beta, flip: int | None = None) -> list:
    """U_K Diag(β) U_Qᵀ (rows of Fractions) for β supported on the used coordinates: Σ_i β_i x_i z_iᵀ/|⟨x_i, z_i⟩|
    (u^k_i u^q_iᵀ by (ii)); ``flip`` negates the term of that sequence (u^q column negated)."""
    d, n = len(info["xo"][0]), len(info["xo"])
    if any(b != 0 for b in beta[n:]):
        raise ValueError("β has entries on unused coordinates: the lift needs the completion of the bases")
    W = [[Fraction(0)] * d for _ in range(d)]
    for i in range(n):
        x, z = info["xo"][i], info["z"][i]
        f = beta[i] / abs(_dot(x, z)) * (-1 if flip == i else 1)
        for a in range(d):
            for b in range(d):
                W[a][b] += f * x[a] * z[b]
    return W


def psd(M) -> tuple[bool, list]:
    """Exact: is the rational symmetric matrix M (rows) positive semidefinite? (signs of the characteristic
    polynomial's coefficients). Returns (answer, coefficients low → high)."""
    N = len(M)
    F = fmpq_mat(N, N, [fmpq(Fraction(x).numerator, Fraction(x).denominator) for row in M for x in row])
    c = [Fraction(int(q.p), int(q.q)) for q in F.charpoly().coeffs()]
    return all((-1) ** (N - k) * ck >= 0 for k, ck in enumerate(c)), c


def _block(A, Bm, C):
    """[[A, B], [Bᵀ, C]] as rows."""
    d = len(A)
    return [list(A[a]) + list(Bm[a]) for a in range(d)] + [[Bm[b][a] for b in range(d)] + list(C[a]) for a in range(d)]


def _outer_sum(vecs, weights):
    d = len(vecs[0])
    return [[sum((w * v[a] * v[b] / _dot(v, v) for v, w in zip(vecs, weights)), Fraction(0)) for b in range(d)]
            for a in range(d)]


@dataclass
class NuclearCertificate:
    """The exact items of the optimality certificate of W for the nuclear SVM (module docstring)."""

    min_slack: Fraction       # min_j ⟨A_j, W⟩ − b_j  (≥ 0: feasible)
    min_lambda: Fraction      # min_j λ_j              (≥ 0)
    contraction: bool         # ‖Σλ_j A_j‖₂ ≤ 1
    upper_psd: bool           # [[P, W], [Wᵀ, R]] ⪰ 0, so ‖W‖_* ≤ t
    t: Fraction               # (tr P + tr R)/2
    dual: Fraction            # bᵀλ

    @property
    def passed(self) -> bool:
        return (self.min_slack >= 0 and self.min_lambda >= 0 and self.contraction and self.upper_psd
                and self.t == self.dual)


def nuclear_certificate(problem, W, lam, P, R) -> NuclearCertificate:
    """The exact certificate items for W (rows of Fractions) with multipliers ``lam`` (one per row of the nuclear
    ``problem``) and the PSD factors P, R of the upper bound (module docstring)."""
    d = len(W)
    flat = [x for row in W for x in row]
    slack = min(_dot(r, flat) - b for r, b in zip(problem.rows, problem.rhs))
    Lam = [[sum((l * r[a * d + b] for l, r in zip(lam, problem.rows)), Fraction(0)) for b in range(d)] for a in range(d)]
    eye = [[Fraction(int(a == b)) for b in range(d)] for a in range(d)]
    contraction, _ = psd(_block(eye, Lam, eye))
    upper, _ = psd(_block(P, W, R))
    t = (sum((P[a][a] for a in range(d)), Fraction(0)) + sum((R[a][a] for a in range(d)), Fraction(0))) / 2
    return NuclearCertificate(slack, min(lam), contraction, upper, t, _dot(lam, problem.rhs))


@dataclass
class Lifted:
    res42: object            # the exact SVMResult of (42)
    beta: list               # β̃ (Fractions)
    closed: list             # the closed form (DERIVED)
    W: list                  # the lift (rows of Fractions)
    lam: list                # nuclear multipliers: (42)'s duals made equal within each pair (44)
    cert: NuclearCertificate
    problem: object          # the nuclear SVM problem (``build_problem(data, "KQ")``)


def lifted_solution(data, info, flip: int | None = None, dps: int = 60) -> Lifted | None:
    """Solve (42) exactly, lift its solution, and certify the lift for the nuclear SVM with the multipliers of (42)
    made equal within each pair ((44): then Σλ_il A_il = U_K Diag(Σλ B̃) U_Qᵀ). None when (42) has no certified
    optimum. Needs Assumption 4 (the pairs)."""
    from verify.svm.problems import build_problem

    res = spectral_l1(data, info, dps)
    if res.status != "optimal":
        return None
    beta = [Fraction(x) for x in res.solution]
    mu = [Fraction(x) for x in res.duals]
    prob = build_problem(data, "KQ")
    row = {key: j for j, key in enumerate(prob.index)}
    lam = list(mu)
    for i, pairs in enumerate(info["pairs"]):
        for a, b, _ in pairs:
            m = (mu[row[(i, a)]] + mu[row[(i, b)]]) / 2
            lam[row[(i, a)]] = lam[row[(i, b)]] = m
    W = lift(info, beta, flip)
    n = len(info["xo"])
    absb = [abs(b) for b in beta[:n]]
    P, R = _outer_sum(info["xo"], absb), _outer_sum(info["z"], absb)
    return Lifted(res, beta, closed_form(info), W, lam, nuclear_certificate(prob, W, lam, P, R), prob)


def margin(problem, W_flat) -> arb:
    """µ(W) = min_il (x_opt − x_il)ᵀ W z_i (arb; W flat row-major, any scale)."""
    return min((sum((to_arb(a) * w for a, w in zip(r, W_flat) if a), arb(0)) for r in problem.rows),
               key=lambda v: v.mid())


# ----- the full (K, Q) flow ------------------------------------------------------------------------------------------
def kq_flow(data, psi0, de: int, target, dps: int):
    """Gradient flow (1) on (K, Q) ∈ ℝ^{d×d_e} × ℝ^{d×d_e} with the exponential loss from ψ(0) (``verify.dynamics.flow``,
    the arc-length Radau IIA integrator, ``param="KQ"``, m = d_e) to ‖KQᵀ‖_* = ``target``. Returns (trajectory,
    [(record, ψ at that record)] for every step end)."""
    from verify.dynamics.flow import CHECK_STEPS, gradient_flow

    pts = []
    traj = gradient_flow(data, "KQ", m=de, until_norm=target, dps=dps, loss="exponential", init=list(psi0),
                         svm=False, on_step=lambda p: pts.append(p[-1]), max_steps=CHECK_STEPS)
    return traj, list(zip(traj.records[1:], pts))


def certificate_evidence(L: Lifted, what: str = "W°") -> list:
    """The exact items of ``L.cert`` as Evidence (each decided in rational arithmetic: certified)."""
    from verify.claims import Evidence

    c = L.cert
    return [
        Evidence(f"min_il ⟨(x_opt − x_il) z_iᵀ, {what}⟩ − 1 (feasibility for the nuclear SVM)", c.min_slack, ">=", 0,
                 note="exact rational"),
        Evidence("min λ_il (the duals of (42) made equal within each pair, (44))", c.min_lambda, ">=", 0,
                 note="exact rational"),
        Evidence("‖Σλ_il (x_opt − x_il) z_iᵀ‖₂ ≤ 1 ([[I, Λ], [Λᵀ, I]] ⪰ 0)", c.contraction, "==", True,
                 note="exact: signs of the characteristic polynomial's coefficients"),
        Evidence(f"‖{what}‖_* ≤ t = (tr P + tr R)/2 ([[P, {what}], [{what}ᵀ, R]] ⪰ 0, P = Σ|β̃_i| u^k_i u^k_iᵀ, "
                 "R = Σ|β̃_i| u^q_i u^q_iᵀ)", c.upper_psd, "==", True,
                 note="exact: signs of the characteristic polynomial's coefficients"),
        Evidence("t − Σλ_il (duality gap: the upper bound on the norm minus the dual value)", c.t - c.dual, "==", 0,
                 note=f"exact: t = {c.t}, Σλ = {c.dual}; weak duality makes every feasible W' have ‖W'‖_* ≥ Σλ"),
    ]
