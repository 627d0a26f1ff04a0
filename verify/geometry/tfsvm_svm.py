"""tfsvm SVM geometry shared by its SVM lemmas (v1 Lemma 2, 3, 15, the no-spurious-LMM fact): every
selection α with its certified Att-SVM answer and exact support sets, the loss along a ray R·W, and the
nuclear-norm factorisation K = UΣ^{1/2}, Q = VΣ^{1/2}.

Everything deciding is exact (rational Att-SVM solutions, exact margins) or an arb enclosure; float64
only proposes (an SVD whose factors are then re-evaluated in arb).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
from flint import arb, arb_mat

from verify.geometry.tfsvm import certified_feasible
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import to_arb
from verify.svm import solve_svm
from verify.svm.geometry import svm_neighbours
from verify.svm.numeric import arb_from_mpf
from verify.svm.spectral import svd_mp


# ----- selections and their support sets (Def. 2) ---------------------------------------------------
@dataclass
class Selection:
    """One α: ``feasible`` True (certified optimum) / False (verified Farkas) / None (no certified answer);
    when feasible, the exact support sets 𝒯_i (margin exactly 1) and the exact margins."""

    alpha: tuple
    feasible: bool | None
    support: dict = field(default_factory=dict)   # i -> sorted t with margin exactly 1
    margins: dict = field(default_factory=dict)   # (i, t) -> exact margin (x_iα − x_it)ᵀW^mm_α z_i
    result: object = None

    def locally_optimal(self, scores) -> bool | None:
        """Def. 2: feasible and γ_iα_i > γ_it for every support index (exact; vacuous for 𝒯_i = ∅)."""
        if self.feasible is not True:
            return self.feasible
        return all(scores[i][self.alpha[i]] > scores[i][t] for i, ts in self.support.items() for t in ts)

    def all_support(self) -> bool:
        """Every non-selected token is a support index (𝒯_i = [T]∖{α_i} for every i)."""
        return all(m == 1 for m in self.margins.values())


def selection(data, alpha, dps: int) -> Selection:
    """Att-SVM(α) solved and certified by ``verify.svm``; support sets and margins exact."""
    res = solve_svm(data, "W", tuple(alpha), dps, check_unique=False)
    feas = certified_feasible(res)
    sel = Selection(tuple(alpha), feas, result=res)
    if feas and res.exact:
        sel.support = svm_neighbours(res)
        W = res.matrix()
        Z = data.queries()
        d = data.d
        for i, a in enumerate(alpha):
            Wz = [sum((W[r][c] * Z[i][c] for c in range(d)), Fraction(0)) for r in range(d)]
            for t in range(data.T):
                if t != a:
                    sel.margins[(i, t)] = sum(((data.X[i][a][r] - data.X[i][t][r]) * Wz[r] for r in range(d)),
                                              Fraction(0))
    elif feas:
        sel.feasible = None  # feasible but not exact: the support sets would not be decided exactly
    return sel


def all_selections(data, dps: int, limit: int = 256):
    """Every α ∈ [T]ⁿ (refuses beyond ``limit``) with its Selection."""
    if data.T ** data.n > limit:
        raise ValueError(f"{data.T}^{data.n} selections exceed the limit {limit}")
    return [selection(data, a, dps) for a in itertools.product(range(data.T), repeat=data.n)]


# ----- the loss along a ray, with the excess computed from the gaps ------------------------------------
def excess_along(model: LinearLogitModel, W, R) -> arb:
    """L(R·W) − L⋆ from the gaps γ_opt − φ_i (the engine's cancellation-free ``excess``)."""
    Ra = to_arb(R) if not isinstance(R, arb) else R
    return model.excess([Ra * to_arb(x) for x in W])


def selected_limit(model: LinearLogitModel, alpha) -> arb:
    """(1/n)Σ ℓ(γ_iα_i): the limit of L(R·W) when W selects α strictly (margins > 0)."""
    return sum((model.loss.value(model.gamma[i][a]) for i, a in enumerate(alpha)), arb(0)) / model.n


# ----- nuclear norm and its balanced factorisation (v1 Lemma 15) ---------------------------------------
def as_arb_mat(W) -> arb_mat:
    """An arb matrix from rows of exact numbers or balls."""
    return arb_mat([[x if isinstance(x, arb) else to_arb(Fraction(x)) for x in row] for row in W])


def balanced_factors(W: arb_mat, m: int | None = None):
    """(K, Q) = (U_mΣ_m^{1/2}, V_mΣ_m^{1/2}) (d×m; m = min(d₁, d₂) by default) from an mpmath SVD of the midpoint at
    the working precision, as arb matrices (a proposal: the caller encloses KQᵀ − W and ½(‖K‖²+‖Q‖²))."""
    U, s, V = svd_mp(W)
    m = len(s) if m is None else m
    root = [arb_from_mpf(mpmath.sqrt(mpmath.mpf(s[k]))) if k < len(s) else arb(0) for k in range(m)]
    K = arb_mat([[arb_from_mpf(U[a, k]) * root[k] if k < len(s) else arb(0) for k in range(m)]
                 for a in range(W.nrows())])
    Q = arb_mat([[arb_from_mpf(V[k, b]) * root[k] if k < len(s) else arb(0) for k in range(m)]
                 for b in range(W.ncols())])
    return K, Q


def fro2(M: arb_mat) -> arb:
    """‖M‖_F² (enclosure)."""
    return sum((x * x for x in M.entries()), arb(0))
