"""tfsvm pieces shared by its claims: the (K,Q) gradients pulled back from ∇L(W), and the points
where the partial Lipschitz constants of L(K,Q) are probed.

W = K Qᵀ, K, Q ∈ ℝ^{d×m}, G = ∇L(W) (d×d, row-major vec as in ``features(data, "W")``):
∇_K L = G Q, ∇_Q L = Gᵀ K (the chain rule of W_ab = Σ_c K_ac Q_bc; v1 eq. (18) prints GᵀQ, GK).

Partial Lipschitzness (v1 Lemma 4). ∇_Q L(K, ·) at Q near 0 moves like K ⊗ K times ∇²L(0): along
K = c·u, Q = h·e (u, e ∈ ℝ^d, m = 1) the difference quotient of ∇_Q L(K, ·) between Q = 0 and Q = h e
tends to c²‖(H₀[u eᵀ])ᵀu‖/‖e‖ as h → 0, H₀ = ∇²L(0) acting on vec(u eᵀ) (for ∇_K L(·, Q), Q = c e,
K: 0 → h u: c²‖H₀[u eᵀ] e‖/‖u‖). It grows like c², so any bound linear in ‖K‖ (resp. ‖Q‖) fails once
c is large. ``kq_directions`` proposes (u, e) in float64 (basis vectors and seeded rational vectors,
the best curvature ratio); every figure is then recomputed in arb at exact rational points.
"""
from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
from flint import arb, arb_mat

from verify.models.attention import LinearLogitModel
from verify.numbers.linalg import norm_enclosure
from verify.numbers.precision import to_arb


def kq_gradients(model: LinearLogitModel, K, Q):
    """(∇_K L, ∇_Q L) at (K, Q) (d×m rows of exact numbers or balls), as arb matrices, from the
    engine's ∇L(W) at W = K Qᵀ."""
    Km = arb_mat([[to_arb(x) if not isinstance(x, arb) else x for x in row] for row in K])
    Qm = arb_mat([[to_arb(x) if not isinstance(x, arb) else x for x in row] for row in Q])
    d = Km.nrows()
    G = arb_mat(d, d, model.grad((Km * Qm.transpose()).entries()))
    return G * Qm, G.transpose() * Km


def _candidates(d: int, count: int, seed: int):
    rng = random.Random(seed)
    out = [tuple(Fraction(int(a == b)) for b in range(d)) for a in range(d)]
    for _ in range(count):
        v = tuple(Fraction(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(d))
        if any(v):
            m = max(abs(x) for x in v)
            out.append(tuple(x / m for x in v))
    return list(dict.fromkeys(out))


def kq_directions(model: LinearLogitModel, d: int, count: int = 4, seed: int = 0):
    """{"K": (u, e, ρ_K), "Q": (u, e, ρ_Q)}: exact directions (‖·‖∞ = 1) with the largest float64
    curvature ratios ρ_K = ‖H₀[u eᵀ] e‖/(‖u‖‖e‖²), ρ_Q = ‖(H₀[u eᵀ])ᵀ u‖/(‖u‖²‖e‖) at W = 0 (proposals only)."""
    H = np.array([[float(x.mid()) for x in row] for row in model.hessian([arb(0)] * (d * d)).tolist()])
    best = {"K": None, "Q": None}
    cands = _candidates(d, count, seed)
    for u in cands:
        uf = np.array([float(x) for x in u])
        for e in cands:
            ef = np.array([float(x) for x in e])
            M = (H @ np.outer(uf, ef).ravel()).reshape(d, d)
            nu, ne = np.linalg.norm(uf), np.linalg.norm(ef)
            for part, val in (("K", np.linalg.norm(M @ ef) / (nu * ne * ne)), ("Q", np.linalg.norm(M.T @ uf) / (nu * nu * ne))):
                val = float(f"{val:.10g}")  # the choice must not depend on the working precision's last bits
                if best[part] is None or val > best[part][2]:
                    best[part] = (u, e, float(val))
    return best


def kq_probe(model: LinearLogitModel, part: str, u, e, c, h):
    """The difference quotient of the partial gradient and the matrices at the probe:
    part "Q": K = c·u fixed, Q: 0 → h·e; part "K": Q = c·e fixed, K: 0 → h·u (m = 1).
    Returns (‖Δ∇‖_F / ‖Δ‖_F, the fixed factor's spectral norm (= its Euclidean norm, m = 1))."""
    col = [[to_arb(x)] for x in (u if part == "Q" else e)]
    mov = [[to_arb(x)] for x in (e if part == "Q" else u)]
    fixed = [[to_arb(c) * r[0]] for r in col]
    zero = [[arb(0)] for _ in mov]
    moved = [[to_arb(h) * r[0]] for r in mov]
    idx = 1 if part == "Q" else 0
    if part == "Q":
        g0, g1 = kq_gradients(model, fixed, zero)[idx], kq_gradients(model, fixed, moved)[idx]
    else:
        g0, g1 = kq_gradients(model, zero, fixed)[idx], kq_gradients(model, moved, fixed)[idx]
    return norm_enclosure((g1 - g0).entries()) / norm_enclosure([r[0] for r in moved]), norm_enclosure([r[0] for r in fixed])


# ----- the symbolic derivation evaluated in arb balls (an independent, certified oracle) ------------
def _arb_exp(x):
    return (x if isinstance(x, arb) else arb(x)).exp()


def _arb_log(x):
    return (x if isinstance(x, arb) else arb(x)).log()


_ARB_NAMESPACE = {"exp": _arb_exp, "log": _arb_log, "mpf": arb}
_ARB_COMPILED: dict = {}


def symbolic_grad_arb(T: int, D: int, loss: str = "logistic", param: str = "W", m: int | None = None):
    """f(F, γ, θ) → the per-sequence gradient of ℓ(γᵀS(Fθ)) (θ = vec W, or (vec K, vec Q) for
    ``param="KQ"``, or (k, q) with β = k ⊙ q for ``param="diag_kq"``), from ``verify.models.symbolic.derive``
    (sympy.diff of the literal definition) and lambdified onto arb: every operation of the naive expression is
    a ball operation, so the value is an enclosure (wide where the naive expression cancels; the caller raises
    the precision by the logit spread). Cached per (T, D, loss, param, m)."""
    import sympy

    from verify.models.symbolic import derive

    key = (T, D, loss, param, m)
    if key not in _ARB_COMPILED:
        F, g, params, L = derive(T, D, loss, param if param in ("KQ", "diag_kq") else "linear", m)
        grad = [sympy.diff(L, x) for x in params]
        _ARB_COMPILED[key] = sympy.lambdify([F, g, params], grad, modules=[_ARB_NAMESPACE, "mpmath"], cse=True)
    return _ARB_COMPILED[key]


# ----- the invariant directions of L(W) ----------------------------------------------------------------
def difference_rows(data, alpha=None):
    """The exact rows vec((x_iα_i − x_it) z_iᵀ), t ≠ α_i (α = first token unless given), row-major: L(W)
    depends on W only through these linear forms (the logits modulo a constant per sequence)."""
    from verify.models.attention import features

    feats = features(data, "W")
    alpha = alpha or (0,) * data.n
    return [tuple(a - b for a, b in zip(Fi[ai], Fi[t])) for Fi, ai in zip(feats, alpha) for t in range(len(Fi)) if t != ai]


def null_basis(rows, D: int):
    """An exact basis (Fractions) of {V ∈ ℝ^D : ⟨r, V⟩ = 0 for every row r}, from the reduced row echelon form."""
    from verify.numbers.exact import fmpq_matrix, to_fraction

    rows = [r for r in rows if any(r)]
    if not rows:
        return [tuple(Fraction(int(i == j)) for j in range(D)) for i in range(D)]
    R, r = fmpq_matrix(rows).rref()
    pivots, row = [], 0
    for col in range(D):
        if row < r and R[row, col] != 0:
            pivots.append(col)
            row += 1
    basis = []
    for free in (c for c in range(D) if c not in pivots):
        v = [Fraction(0)] * D
        v[free] = Fraction(1)
        for k, pc in enumerate(pivots):
            v[pc] = -to_fraction(R[k, free])
        basis.append(tuple(v))
    return basis


# ----- the covariance Key Lemma (v1 Lemma 7; mmts Lemma 3 in p form) ------------------------------------
# ----- feasibility, certified either way ---------------------------------------------------------------
def certified_feasible(res):
    """True (optimum certified) / False (verified Farkas certificate) / None (no certified answer) for an
    ``SVMResult`` of ``verify.svm.solve_svm``."""
    if res.status == "optimal":
        return True if res.certificate is not None and res.certificate.passed else None
    if res.status == "infeasible":
        return False if res.farkas is not None and res.farkas.passed else None
    return None
