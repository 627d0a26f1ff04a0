"""irgf §4.1 — for diagonal weights the nuclear norm is the ℓ1 norm, and the diagonal nuclear-norm SVM is
the ℓ1-SVM (text of §4.1; arXiv 2403.08699 v1).

Statement. For W = Diag(β): ‖W‖_* = ‖β‖₁, rank W ≤ d ≤ d_e, and (x_i,opt − x_il)ᵀ Diag(β) z_i = βᵀB_il
(B_il = z_i ⊙ (x_i,opt − x_il)). Hence, when d_e ≥ d, (W^diag_*-SVM) min ‖W‖_* over diagonal W subject to
(x_i,opt − x_il)ᵀ W z_i ≥ 1 and (ℓ1-SVM) min ‖β‖₁ s.t. βᵀB_il ≥ 1 have the same optimal value and solution sets
(via W ↔ diag W), and both are infeasible together.

Hypothesis. d_e ≥ d (the diagonal model K = [Diag(ξ_k) 0], Q = [Diag(ξ_q) 0] exists; option ``d_e``, default d)
→ NOT_APPLICABLE when d_e < d.
How it is checked (exact rationals, or enclosures at the working precision: certified).
* The norm identity at probe vectors β (β*, ±B_il, seeded rational vectors with zeros, repeated magnitudes and mixed
  signs): ‖W‖_* is computed without using that W is diagonal — Σ_k √λ_k over the eigenvalues of WᵀW, i.e. the
  roots (with multiplicity) of the exact characteristic polynomial of the rational matrix WᵀW, isolated in
  ball arithmetic (flint) — and |‖W‖_* − ‖diag W‖₁| ≤ 10^−dps (a Tally, every probe counted).
* The constraints, exact: for every (i, l) and j, (x_i,opt − x_il)ᵀ E_jj z_i (matrix products, E_jj = Diag(e_j))
  equals the j-th entry of the ℓ1-SVM's row B_il (``verify.svm``, kind "diag").
* The SVMs. Feasible case: the exact ℓ1-SVM solution β* with dual λ* (``verify.kit.irgf.l1_svm``). Then
  (a) Diag(β*) is feasible for (W^diag_*-SVM): min_il (x_opt − x_il)ᵀDiag(β*)z_i ≥ 1 (exact, matrix form);
  (b) ‖Diag(β*)‖_* = p* (the characteristic-polynomial enclosure, residual ≤ 10^−dps);
  (c) weak duality for every feasible diagonal W: with U := the diagonal part of Σ λ*_il (x_opt − x_il)z_iᵀ,
      ⟨U, W⟩ = Σλ*_il (x_opt − x_il)ᵀWz_i ≥ Σλ* and ⟨U, W⟩ ≤ ‖U‖_spec ‖W‖_*; ‖U‖_spec ≤ 1 is decided exactly
      (I − UᵀU ⪰ 0: the coefficients of its characteristic polynomial alternate in sign), λ* ≥ 0 and Σλ* = p*
      exactly. So the optimal value of (W^diag_*-SVM) is p*, the ℓ1-SVM's, attained at Diag(β*).
  Infeasible case: the ℓ1-SVM's exact Farkas certificate λ transfers: the diagonal part of Σλ_il (x_opt − x_il)z_iᵀ
  is 0 (exact), so Σλ_il (x_opt − x_il)ᵀWz_i = 0 < Σλ_il for every diagonal W: both problems are infeasible.
Default datasets: D-SEED0 (unique solution), D-FACE (an optimal face), D-DIAGINF (both infeasible).
False cases (tests): the identity at non-diagonal W = Diag(β) + ε(𝟙𝟙ᵀ − I) (``offdiag=ε``) compared with
‖diag W‖₁ → VIOLATED (certified); d_e = d − 1 → NOT_APPLICABLE naming d_e ≥ d.
"""
from __future__ import annotations

import random
from fractions import Fraction

from flint import arb, fmpq, fmpq_mat

from verify.claims import Claim, Evidence, Hypothesis, Outcome, Tally, register
from verify.claims.registry import Parameter
from verify.data.irgf import d_diaginf, d_face, d_seed0
from verify.kit import irgf
from verify.numbers.precision import Precision, g_format


def _q(x) -> fmpq:
    x = Fraction(x)
    return fmpq(x.numerator, x.denominator)


def matrix(rows) -> fmpq_mat:
    return fmpq_mat([[_q(x) for x in r] for r in rows])


def nuclear_norm(W: fmpq_mat) -> arb:
    """‖W‖_* = Σ_k √λ_k(WᵀW), from the roots of the exact characteristic polynomial of WᵀW (with
    multiplicity), isolated in ball arithmetic at the working precision. Nothing assumes W diagonal."""
    total = arb(0)
    for root, mult in (W.transpose() * W).charpoly().complex_roots():
        lam = root.real
        if lam > 0:
            total += mult * lam.sqrt()
        elif lam == 0:
            continue
        else:  # a ball touching 0 (λ ≥ 0 since WᵀW ⪰ 0): enclose √λ by [0, √upper]
            u = arb(lam.upper()).sqrt()
            total += mult * arb(u.upper() / 2, u.upper() / 2)
    return total


def contraction(U: fmpq_mat) -> tuple[bool, list]:
    """‖U‖_spec ≤ 1 decided exactly: I − UᵀU ⪰ 0 iff the characteristic polynomial Σ c_k x^k of this
    symmetric matrix has (−1)^(d−k) c_k ≥ 0 for every k (its roots are real; Descartes)."""
    d = U.ncols()
    M = fmpq_mat([[int(a == b) for b in range(d)] for a in range(d)]) - U.transpose() * U
    c = M.charpoly().coeffs()
    return all((-1) ** (d - k) * _frac(x) >= 0 for k, x in enumerate(c)), c


def probe_vectors(data, res, count=4, seed=0):
    """β*, ±B_il and seeded vectors with zeros, repeated magnitudes and mixed signs (exact)."""
    rng = random.Random(seed)
    d = data.d
    out = []
    if res is not None and res.status == "optimal":
        out.append(("β*", tuple(res.solution)))
    for k, row in enumerate(res.problem.rows if res is not None else ()):
        out += [(f"+B_{res.problem.index[k]}", tuple(row)), (f"−B_{res.problem.index[k]}", tuple(-x for x in row))]
    for k in range(count):
        v = [Fraction(rng.randint(-9, 9), rng.randint(1, 7)) for _ in range(d)]
        if k % 2 == 1:
            v[0] = -v[-1]  # a repeated magnitude (a double singular value)
        if k % 3 == 0:
            v[rng.randrange(d)] = Fraction(0)
        out.append((f"seeded {k}", tuple(v)))
    out.append(("0", tuple(Fraction(0) for _ in range(d))))
    return out


def diag_matrix(beta, offdiag=Fraction(0)) -> fmpq_mat:
    d = len(beta)
    return matrix([[beta[a] if a == b else Fraction(offdiag) for b in range(d)] for a in range(d)])


def bilinear_rows(data):
    """[((i, l), [(x_opt − x_il)ᵀ E_jj z_i for j])] from matrix products (exact)."""
    d, Z, out = data.d, data.queries(), []
    for i, o in enumerate(data.optimal_tokens()):
        o = o[0]
        for t in range(data.T):
            if t == o:
                continue
            a = matrix([[x - y for x, y in zip(data.X[i][o], data.X[i][t])]])
            z = matrix([[x] for x in Z[i]])
            coeff = [(a * diag_matrix([int(j == k) for k in range(d)]) * z)[0, 0] for j in range(d)]
            out.append(((i, t), [_frac(c) for c in coeff]))
    return out


def _frac(x: fmpq) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def diagonal_part(data, lam, index) -> fmpq_mat:
    """P_diag(Σ λ_il (x_opt − x_il) z_iᵀ) from the matrix products, exact."""
    d, Z = data.d, data.queries()
    S = fmpq_mat(d, d)
    for (i, t), w in zip(index, lam):
        if w:
            o = data.optimal_tokens()[i][0]
            a = matrix([[x - y] for x, y in zip(data.X[i][o], data.X[i][t])])
            S += a * matrix([Z[i]]) * _q(w)
    return fmpq_mat([[S[a, b] if a == b else 0 for b in range(d)] for a in range(d)])


def evaluate(data, prec: Precision, d_e: int | None = None, offdiag=0) -> Outcome:
    """``offdiag`` = ε ≠ 0 compares ‖Diag(β) + ε(𝟙𝟙ᵀ − I)‖_* with ‖β‖₁ (not diagonal: the false case)."""
    d_e = data.d if d_e is None else int(d_e)
    tied = [i for i, o in enumerate(data.optimal_tokens()) if len(o) > 1]
    out = Outcome(hypotheses=[Hypothesis(f"d_e ≥ d (diagonal K = [Diag(ξ_k) 0] needs it): d_e = {d_e}, d = {data.d}",
                                         d_e >= data.d),
                              Hypothesis("a unique optimal token in every sequence (the ℓ1- and nuclear SVMs of §4.1 "
                                         "separate it)", not tied,
                                         f"tied optimal tokens in sequence(s) {tied}" if tied else "")])
    if not out.applicable():
        return out
    res = irgf.l1_svm(data)
    eps = Fraction(offdiag)
    ident = Tally("|‖W‖_* − ‖diag W‖₁| at the probe vectors, W = Diag(β)"
                  + (f" + {eps}(𝟙𝟙ᵀ − I) (not diagonal)" if eps else "")
                  + "; ‖W‖_* from the eigenvalues of WᵀW", "<=", prec.tolerance, residual=True)
    probes = probe_vectors(data, res)
    for label, beta in probes:
        ident.add(nuclear_norm(diag_matrix(beta, eps)) - _arb(sum((abs(b) for b in beta), Fraction(0))), f"β = {label}")
    out.add(ident.evidence("characteristic polynomial of WᵀW (exact), roots isolated in balls"))
    out.cover(f"‖·‖_* = ‖·‖₁ at {len(probes)} probe vectors ({'β*, ' if res.status == 'optimal' else ''}±B_il, 4 seeded, 0)")
    rows = dict(zip(res.problem.index, res.problem.rows))
    same = all(tuple(v) == tuple(rows[k]) for k, v in bilinear_rows(data))
    out.add(Evidence("(x_opt − x_il)ᵀ Diag(β) z_i = βᵀB_il for every (i, l), coefficientwise (exact)", same, "==", True,
                     note=f"{len(rows)} constraints against the ℓ1-SVM's rows"))
    if not out.require("the ℓ1-SVM's answer is certified (optimum or Farkas certificate verified)",
                       res.status == "optimal" or (res.status == "infeasible" and res.farkas and res.farkas.passed),
                       f"status {res.status}"):
        return out
    if res.status == "optimal":
        p = res.objective
        W = diag_matrix(res.solution)
        margins = []
        for (i, t) in res.problem.index:
            o = data.optimal_tokens()[i][0]
            a = matrix([[x - y for x, y in zip(data.X[i][o], data.X[i][t])]])
            m = (a * W * matrix([[x] for x in data.queries()[i]]))[0, 0]
            margins.append(_frac(m))
        out.add(Evidence("(a) min_il (x_opt − x_il)ᵀ Diag(β*) z_i: Diag(β*) is feasible for (W^diag_*-SVM) (exact)",
                         min(margins), ">=", 1))
        out.add(Evidence("(b) |‖Diag(β*)‖_* − p*| (eigenvalues of WᵀW)", nuclear_norm(W) - _arb(p), "<=",
                         prec.tolerance, residual=True, note=f"p* = {g_format(p, 15)}"))
        U = diagonal_part(data, res.duals, res.problem.index)
        ok, coeffs = contraction(U)
        out.add(Evidence("(c) ‖U‖_spec ≤ 1, U = diagonal part of Σλ*_il (x_opt − x_il)z_iᵀ (exact: I − UᵀU ⪰ 0)", ok,
                         "==", True, note="signs of the charpoly coefficients of I − UᵀU, x⁰ up: "
                         + " ".join("0" if c == 0 else "+" if c > 0 else "−" for c in coeffs)),
                Evidence("(c) min_il λ*_il ≥ 0 (exact)", min(res.duals), ">=", 0),
                Evidence("(c) Σλ*_il − p* (exact): every feasible diagonal W has ‖W‖_* ≥ Σλ* = p*", sum(res.duals) - p,
                         "==", 0))
        return out
    far = res.farkas
    U = diagonal_part(data, far.lam, res.problem.index)
    zero = all(U[a, a] == 0 for a in range(data.d))
    out.add(Evidence("infeasible together: diagonal part of Σλ_il (x_opt − x_il)z_iᵀ = 0 for the ℓ1-SVM's Farkas λ "
                     "(exact)", zero, "==", True, note=f"Σλ_il = {far.rhs} > 0 (verified): no diagonal W has every "
                                                        "margin ≥ 1"))
    return out


def _arb(x: Fraction) -> arb:
    return arb(_q(x))


STATEMENT = """\
For W = Diag(β): ‖W‖_* = ‖β‖₁, rank W ≤ d ≤ d_e and (x_opt − x_il)ᵀDiag(β)z_i = βᵀB_il; hence, for d_e ≥ d, the
diagonal nuclear-norm SVM and the ℓ1-SVM have the same value and solution sets (and are infeasible together).

Nuclear norms from the exact characteristic polynomial of WᵀW (roots in balls), constraints exact, the SVMs by the
exact ℓ1 solution, an exact weak-duality certificate (‖U‖_spec ≤ 1 exactly) or the Farkas certificate.
"""

CLAIM = register(Claim(id="irgf.prop.diag-l1", paper="irgf", number="§4.1 (text)", kind="identity",
                       title="Diagonal W: ‖W‖_* = ‖β‖₁ and the diagonal nuclear SVM is the ℓ1-SVM",
                       statement=STATEMENT, check=evaluate, default_datasets=(d_seed0, d_face, d_diaginf),
                       aliases=("diag-nuclear-equals-l1",), default_precision=30,
                       parameters=(Parameter("β", "for every β ∈ ℝ^d (the norm identity)", "range",
                                             "β*, ±B_il, 4 seeded rational vectors (zeros, repeated magnitudes, mixed "
                                             "signs) and 0 (named in the verdict); the SVM part for every feasible "
                                             "diagonal W by the exact weak-duality certificate"),
                                   Parameter("d_e", "the embedding dimension d_e ≥ d", "range",
                                             "d_e = d unless `d_e` is given (only d_e ≥ d matters)", option="d_e",
                                             kind="integer"))))
