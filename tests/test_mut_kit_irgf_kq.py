"""verify.kit.irgf_kq (mutation tests): the exact pieces of irgf §5 — rational square roots and unit vectors, the
Gram–Schmidt completion, the bases of (7) (and the flipped basis), aligned starts and their exact test (Definition
5.1), the off-diagonal mass, the rows and closed form of (42), the lift, the exact PSD test and block matrices, the
nuclear certificate's items (both sides of each), the lifted solution on D-A4 (the spec's W° = Diag(0.4, 1, 0),
p*_nuc = 1.4), the margin, the flow's routing (a recording stand-in) and the certificate evidence. Expected numbers
are derived by hand in the docstrings (exact Fractions)."""
from fractions import Fraction as F
from types import SimpleNamespace as NS

import pytest
from flint import arb

from verify.data.irgf import d_a4, rational_orthogonal
from verify.kit import irgf_kq as G
from verify.kit.irgf import ALIGN, NAMES, assumption4
from verify.numbers.precision import to_arb, working_precision


@pytest.fixture(scope="module")
def a4():
    data = d_a4()
    _, _, info = assumption4(data)
    return data, info


def test_sqrt_q():
    """9/4 → 3/2; 0 → 0; 2, 1/2, 2/9 (numerator or denominator not a square), −4 → None."""
    assert G._sqrt_q(F(9, 4)) == F(3, 2) and G._sqrt_q(F(0)) == 0 and G._sqrt_q(F(16)) == 4
    assert G._sqrt_q(F(2)) is None and G._sqrt_q(F(1, 2)) is None and G._sqrt_q(F(2, 9)) is None
    assert G._sqrt_q(F(-4)) is None and G._sqrt_q(F(-1, 4)) is None


def test_unit_if_rational():
    """(3, 4) → (3/5, 4/5); (1, 1) (‖·‖² = 2) unchanged; the zero vector unchanged."""
    assert G._unit_if_rational([F(3), F(4)]) == [F(3, 5), F(4, 5)]
    assert G._unit_if_rational([F(1), F(1)]) == [1, 1]
    assert G._unit_if_rational([F(0), F(0)]) == [0, 0]


def test_completion_gram_schmidt():
    """[(1,1,0)] in ℝ³: e₁ − ½(1,1,0) = (½,−½,0) (‖·‖² = ½: kept unnormalised); e₂ projects to 0 (skipped); e₃ → (0,0,1).
    [(3,4)] in ℝ²: e₁ − (3/25)(3,4) = (16/25, −12/25), ‖·‖ = 4/5 → (4/5, −3/5). [] in ℝ²: e₁, e₂. A full basis: []."""
    assert G._completion([[F(1), F(1), F(0)]], 3) == [[F(1, 2), F(-1, 2), 0], [0, 0, 1]]
    assert G._completion([[F(3), F(4)]], 2) == [[F(4, 5), F(-3, 5)]]
    assert G._completion([], 2) == [[1, 0], [0, 1]]
    assert G._completion([[F(1), F(0)], [F(0), F(2)]], 2) == []


def test_bases_of_d_a4(a4):
    """D-A4: x_opt = (2,0,0), (0,−3/2,0), z = (3/2,0,0), (0,−4/5,0): units (1,0,0), (0,−1,0) for both; completion
    (0,0,1); n = 2. flip = 1 negates u^q_2 only. Not (i) or not (ii), or no info → None."""
    _, info = a4
    B = G.bases(info)
    assert B.n == 2 and B.wk == [[1, 0, 0], [0, -1, 0], [0, 0, 1]] and B.wq == B.wk
    Bf = G.bases(info, flip=1)
    assert Bf.wq == [[1, 0, 0], [0, 1, 0], [0, 0, 1]] and Bf.wk == B.wk
    assert G.bases(info, flip=0).wq[0] == [-1, 0, 0]
    assert G.bases(None) is None and G.bases({}) is None
    assert G.bases(dict(info, ok_i=False)) is None and G.bases(dict(info, ok_ii=False)) is None


def test_U_normalises_the_columns():
    """wk = (1,1), (1,−1) → U_K = [[1,1],[1,−1]]/√2 (columns); wq = (3,4), (−4,3) (‖·‖ = 5) → U_Q columns /5."""
    B = G.Bases([[F(1), F(1)], [F(1), F(-1)]], [[F(3), F(4)], [F(-4), F(3)]], 1)
    with working_precision(30):
        UK, UQ = B.U("K"), B.U("Q")
        r = 1 / arb(2).sqrt()
        assert abs(UK[0, 1] - r) < arb("1e-25") and abs(UK[1, 1] + r) < arb("1e-25") and abs(UK[1, 0] - r) < arb("1e-25")
        assert all(abs(UQ[a, b] - arb(w) / 5) < arb("1e-25") for (a, b), w in (((0, 1), -4), ((1, 0), 4), ((1, 1), 3)))


def test_cayley_is_the_rational_orthogonal_matrix():
    V = G.cayley(3, 5)
    assert V == rational_orthogonal(3, 5) and V != G.cayley(3, 1) and G.cayley(2) == rational_orthogonal(2, 0)
    assert all(sum(V[k][a] * V[k][b] for k in range(3)) == (a == b) for a in range(3) for b in range(3))


ROT = [[F(3, 5), F(4, 5)], [F(-4, 5), F(3, 5)]]   # columns v_0 = (3/5, −4/5), v_1 = (4/5, 3/5)


def test_aligned_start_exact(a4):
    """D-A4 bases, V = ROT (d_e = 2): K(0) = 2·(1,0,0)v_0ᵀ + 3·(0,−1,0)v_1ᵀ: rows (6/5, −8/5), (−12/5, −9/5), (0, 0);
    Q(0) with (5, 7): rows (3, −4), (−28/5, −21/5), (0, 0); ψ = (vec K, vec Q) row-major."""
    _, info = a4
    psi = G.aligned_start(G.bases(info), ROT, (2, 3, 100), (5, 7, 100))
    assert psi == [F(6, 5), F(-8, 5), F(-12, 5), F(-9, 5), 0, 0, 3, -4, F(-28, 5), F(-21, 5), 0, 0]


def test_aligned_start_uses_only_min_d_de_terms():
    """d = 2, V = I₃ (d_e = 3): only e < 2: K = diag-like [[1,0,0],[0,2,0]]; ak[2] unused."""
    B = G.Bases([[F(1), F(0)], [F(0), F(1)]], [[F(1), F(0)], [F(0), F(1)]], 2)
    eye = [[F(int(a == b)) for b in range(3)] for a in range(3)]
    assert G.aligned_start(B, eye, (1, 2, 9), (3, 4, 9)) == [1, 0, 0, 0, 2, 0, 3, 0, 0, 0, 4, 0]


def test_split_row_major():
    with working_precision(30):
        K, Q = G.split([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 3, 2)
    assert (K.nrows(), K.ncols()) == (3, 2) and K[1, 0] == 3 and K[2, 1] == 6 and Q[0, 0] == 7 and Q[2, 1] == 12
    with working_precision(30):
        K, _ = G.split([arb("0.5"), F(1, 3)], 1, 1)
    assert K[0, 0] == arb("0.5")


def test_offdiag_mass_exact_cases(a4):
    """D-A4 bases (U = diag(1, −1, 1)), V = I₂: M with M[0,1] = 3, M[2,0] = 4, diagonal 7 → ‖offdiag‖ = 5 (K);
    for Q the same bases; a Bases with wq = e₂, e₁, e₃ (swapped) puts M's row 0 in row 1: the diagonal 7 becomes
    off-diagonal → √(7² + 4²) = √65 (and M[0,1] = 3 becomes diagonal)."""
    _, info = a4
    B = G.bases(info)
    eye = [[F(1), F(0)], [F(0), F(1)]]
    with working_precision(30):
        M = G.split([7, 3, 0, 0, 4, 0] + [0] * 6, 3, 2)[0]
        assert abs(G.offdiag_mass(B, eye, M, "K") - 5) < arb("1e-25")
        B2 = G.Bases(B.wk, [[0, 1, 0], [1, 0, 0], [0, 0, 1]], 2)
        assert abs(G.offdiag_mass(B2, eye, M, "K") - 5) < arb("1e-25")
        assert abs(G.offdiag_mass(B2, eye, M, "Q") - arb(65).sqrt()) < arb("1e-25")
        Z = G.split([1, 0, 0, 2, 0, 0] + [0] * 6, 3, 2)[0]          # U diag(1, −2) Vᵀ… diagonal: mass 0 exactly
        assert G.offdiag_mass(B, eye, Z, "K") == 0


def test_offdiag_mass_encloses_zero_for_an_inexact_aligned_matrix():
    """U = [[1,1],[1,−1]]/√2 (inexact in arb), M = U diag(2, 3) Vᵀ with V = I: the mass is a ball containing 0 with a
    tiny upper end and no negative part beyond rounding."""
    B = G.Bases([[F(1), F(1)], [F(1), F(-1)]], [[F(1), F(1)], [F(1), F(-1)]], 2)
    eye = [[F(1), F(0)], [F(0), F(1)]]
    with working_precision(30):
        M = B.U("K") * G.split([2, 0, 0, 3] + [0] * 4, 2, 2)[0]       # U diag(2, 3) (inexact entries)
        m = G.offdiag_mass(B, eye, M, "K")
        assert m.contains(0) and m.upper() < arb("1e-20") and m.lower() > arb("-1e-40")
        m2 = G.offdiag_mass(B, eye, G.split([1, 1, 0, 0] + [0] * 4, 2, 2)[0], "K")   # offdiag of Uᵀ[[1,1],[0,0]] = (1/√2, 1/√2)
        assert abs(m2 - 1) < arb("1e-25") and not m2.contains(0)


def test_alignment_exact(a4):
    """The aligned start above → met, naming d_e; one off-diagonal perturbation of K(0)[2,0] with V = I₂ → exactly one
    bad entry [2,0] (w₂ = e₃); with V = ROT the same perturbation hits f = 0 and f = 1 → 2 entries; a Q perturbation
    is named for Q."""
    _, info = a4
    B = G.bases(info)
    psi = G.aligned_start(B, ROT, (2, 3), (5, 7))
    h = G.alignment(B, ROT, psi)
    assert h.met is True and h.name == NAMES[ALIGN] and "2 × 2" in h.detail
    eye = [[F(1), F(0)], [F(0), F(1)]]
    psi = G.aligned_start(B, eye, (2, 3), (5, 7))
    assert G.alignment(B, eye, psi).met is True
    bad = list(psi)
    bad[4] = F(1, 7)                                     # K(0)[2, 0]
    h = G.alignment(B, eye, bad)
    assert h.name == NAMES[ALIGN] and h.met is False and h.detail.startswith("1 off-diagonal entries") and "(U_KᵀK(0)V)[2,0] ≠ 0" in h.detail
    bad = G.aligned_start(B, ROT, (2, 3), (5, 7))
    bad[4] = F(1, 7)
    assert G.alignment(B, ROT, bad).detail.startswith("2 off-diagonal")
    bad = list(psi)
    bad[6 + 1] = F(1)                                    # Q(0)[0, 1]
    h = G.alignment(B, eye, bad)
    assert h.met is False and "(U_QᵀQ(0)V)[0,1] ≠ 0" in h.detail and h.detail.startswith("1 off")


# ----- (42), closed form, lift --------------------------------------------------------------------------------------
def test_spectral_rows_of_d_a4(a4):
    """Sequence 1: sign +, ⟨(2,0,0) − (1/3,0,±0.7), (3/2,0,0)⟩ = 5/2 on coordinate 1 (two rows); sequence 2:
    ⟨(0,−3/2,0) − (0,−1/4,±0.4), (0,−4/5,0)⟩ = 1 on coordinate 2 (two rows)."""
    data, info = a4
    assert G.spectral_rows(data, info) == [[F(5, 2), 0, 0], [F(5, 2), 0, 0], [0, 1, 0], [0, 1, 0]]


def test_spectral_rows_sign_and_skipped_token():
    """One sequence, T = 3, opt = 1: tokens 0 and 2 give rows. x_opt = (1,0): z = (−1,1) (⟨x_opt, z⟩ = −1 < 0: sign −)
    → −⟨(1,0) − (0,1), z⟩ = 2 and −⟨(1,0) − (0,0), z⟩ = 1; z = (0,1) (⟨x_opt, z⟩ = 0: sign −) → 1 and 0."""
    data = NS(n=1, T=3, d=2, X=[[(0, 1), (1, 0), (0, 0)]])
    info = {"xo": [(1, 0)], "z": [(-1, 1)], "opt": [1]}
    assert G.spectral_rows(data, info) == [[2, 0], [1, 0]]
    info["z"] = [(0, 1)]
    assert G.spectral_rows(data, info) == [[1, 0], [0, 0]]
    info["z"] = [(F(1, 2), 0)]                       # ⟨x_opt, z⟩ = ½ > 0: sign + → ½ and ½
    assert G.spectral_rows(data, info) == [[F(1, 2), 0], [F(1, 2), 0]]


def test_closed_form():
    """β̃ = max over pairs of 1/((1 − c)|⟨x_opt, z⟩|): ⟨(1,0), (−2,0)⟩ = −2 → |·| = 2; c = ½ → 1, c = −½ → 1/3: 1.
    d = 2 → [1, 0]. D-A4: 1/((5/6)·3) = 2/5 and 1/((5/6)(6/5)) = 1."""
    info = {"xo": [(1, 0)], "z": [(-2, 0)], "pairs": [[(1, 2, F(1, 2)), (3, 4, F(-1, 2))]]}
    assert G.closed_form(info) == [1, 0]
    _, _, info4 = assumption4(d_a4())
    assert G.closed_form(info4) == [F(2, 5), 1, 0]


def test_lift_and_flip():
    """x = (1,0,0), (0,2,0); z = (3,0,0), (0,−1,0); β = (1, 4, 0): W = (1/3)·x₁z₁ᵀ + (4/2)·x₂z₂ᵀ = diag(1, −4, 0);
    flip 1 → diag(1, 4, 0); flip 0 → diag(−1, −4, 0); β on an unused coordinate → ValueError."""
    info = {"xo": [(1, 0, 0), (0, 2, 0)], "z": [(3, 0, 0), (0, -1, 0)]}
    assert G.lift(info, [1, 4, 0]) == [[1, 0, 0], [0, -4, 0], [0, 0, 0]]
    assert G.lift(info, [1, 4, 0], flip=1) == [[1, 0, 0], [0, 4, 0], [0, 0, 0]]
    assert G.lift(info, [1, 4, 0], flip=0) == [[-1, 0, 0], [0, -4, 0], [0, 0, 0]]
    info2 = {"xo": [(1, 1)], "z": [(1, -1)]}        # |⟨x, z⟩| = 0 would divide by 0; use (1,1)·(2,1) = 3
    info2["z"] = [(2, 1)]
    assert G.lift(info2, [3, 0]) == [[2, 1], [2, 1]]
    with pytest.raises(ValueError, match="unused coordinates"):
        G.lift(info, [1, 4, F(1, 2)])


def test_psd_exact():
    """Eigenvalues {1, 3}: charpoly x² − 4x + 3 → (3, −4, 1), PSD; {0, 2} PSD; {−1, 3} not; diag(0, −1): x² + x → not;
    diag(1, 2, 3): (−6, 11, −6, 1), PSD; 1 × 1: [0] PSD, [−1/10³⁰] not."""
    assert G.psd([[2, 1], [1, 2]]) == (True, [3, -4, 1])
    assert G.psd([[1, 1], [1, 1]])[0] is True and G.psd([[1, 2], [2, 1]])[0] is False
    assert G.psd([[0, 0], [0, -1]]) == (False, [0, 1, 1])
    assert G.psd([[1, 0, 0], [0, 2, 0], [0, 0, 3]]) == (True, [-6, 11, -6, 1])
    assert G.psd([[F(1, 3)]]) == (True, [F(-1, 3), 1])
    assert G.psd([[0]])[0] is True and G.psd([[F(-1, 10**30)]])[0] is False
    assert G.psd([[1, 0, 0], [0, -2, 0], [0, 0, 3]])[0] is False


def test_block_and_outer_sum():
    """[[A, B], [Bᵀ, C]] with non-symmetric B; Σ w v vᵀ/‖v‖²: 2·e₁e₁ᵀ + 3·(1,1)(1,1)ᵀ/2."""
    A, B, C = [[1, 0], [0, 1]], [[1, 2], [3, 4]], [[5, 6], [7, 8]]
    assert G._block(A, B, C) == [[1, 0, 1, 2], [0, 1, 3, 4], [1, 3, 5, 6], [2, 4, 7, 8]]
    assert G._outer_sum([[F(1), F(0)], [F(1), F(1)]], [2, 3]) == [[F(7, 2), F(3, 2)], [F(3, 2), F(3, 2)]]


def _cert(**kw):
    base = dict(min_slack=F(0), min_lambda=F(0), contraction=True, upper_psd=True, t=F(7, 5), dual=F(7, 5))
    base.update(kw)
    return G.NuclearCertificate(**base)


def test_certificate_passes_only_with_every_item():
    """Zero slack and zero λ pass (≥); each failing item alone fails."""
    assert _cert().passed is True and _cert(min_slack=F(1), min_lambda=F(1, 2)).passed is True
    for bad in (dict(min_slack=F(-1, 10**9)), dict(min_lambda=F(-1, 10**9)), dict(contraction=False),
                dict(upper_psd=False), dict(t=F(7, 5) + F(1, 10**9)), dict(dual=F(1))):
        assert _cert(**bad).passed is False, bad


def test_nuclear_certificate_items():
    """d = 2, W = [[1,0],[0,0]]; rows (flat) r₁ = e₀₀ (b = ½: slack ½), r₂ = 2e₀₀ + e₁₁ (b = 1: slack 1) → min ½;
    λ = (½, ¼): Λ = diag(1, ¼), ‖Λ‖₂ = 1 → contraction; P = R = e₁e₁ᵀ: [[P, W], [Wᵀ, R]] ⪰ 0, t = 1; bᵀλ = ½.
    λ = (1, ¼): ‖Λ‖₂ = 3/2 → no contraction. R = ½e₁e₁ᵀ: [[1, 1], [1, ½]] has det −½ → not ⪰ 0, t = ¾. P = diag(1, 2),
    R = diag(3, 0): t = 3. Off-diagonal row e₀₁ with λ = 2: Λ = [[0, 2], [0, 0]] → ‖Λ‖₂ = 2, no contraction."""
    prob = NS(rows=[[1, 0, 0, 0], [2, 0, 0, 1]], rhs=[F(1, 2), 1])
    W = [[F(1), F(0)], [F(0), F(0)]]
    P = [[F(1), F(0)], [F(0), F(0)]]
    c = G.nuclear_certificate(prob, W, [F(1, 2), F(1, 4)], P, P)
    assert (c.min_slack, c.min_lambda, c.contraction, c.upper_psd, c.t, c.dual) == (F(1, 2), F(1, 4), True, True, 1,
                                                                                    F(1, 2))
    c = G.nuclear_certificate(prob, W, [F(1), F(1, 4)], P, [[F(1, 2), 0], [0, 0]])
    assert c.contraction is False and c.upper_psd is False and c.t == F(3, 4) and c.dual == F(3, 4)
    c = G.nuclear_certificate(prob, W, [F(1, 2), F(1, 4)], [[1, 0], [0, 2]], [[3, 0], [0, 0]])
    assert c.t == 3
    c = G.nuclear_certificate(NS(rows=[[0, 1, 0, 0]], rhs=[F(-1)]), W, [F(2)], P, P)
    assert c.contraction is False and c.min_slack == 1 and c.dual == -2
    c = G.nuclear_certificate(NS(rows=[[0, 1, 0, 0]], rhs=[F(-1)]), W, [F(1)], P, P)
    assert c.contraction is True


def _lifted(flip=None):
    """D-A4's lifted solution, computed inside each test (mutmut maps a mutant to the tests whose call runs it)."""
    data = d_a4()
    _, _, info = assumption4(data)
    with working_precision(30):
        return G.lifted_solution(data, info, dps=30) if flip is None else G.lifted_solution(data, info, flip, dps=30)


def test_lifted_solution_of_d_a4():
    """Spec: W° = Diag(0.4, 1, 0), p*_nuc = 1.4. (42): min |β₁| + |β₂| + |β₃| s.t. (5/2)β₁ ≥ 1 (×2), β₂ ≥ 1 (×2) →
    β = (2/5, 1, 0); its duals sum to 2/5 and 1 per sequence, made equal within the pair: λ = (1/5, 1/5, ½, ½);
    t = (tr P + tr R)/2 = |β|₁ = 7/5 = bᵀλ; every slack 0."""
    L = _lifted()
    assert L.beta == [F(2, 5), 1, 0] and L.closed == [F(2, 5), 1, 0] and L.res42.status == "optimal"
    assert L.W == [[F(2, 5), 0, 0], [0, 1, 0], [0, 0, 0]]
    assert L.lam == [F(1, 5), F(1, 5), F(1, 2), F(1, 2)]
    c = L.cert
    assert c.passed and c.t == F(7, 5) and c.dual == F(7, 5) and c.min_slack == 0 and c.min_lambda == F(1, 5)
    assert c.contraction and c.upper_psd and len(L.problem.rows) == 4


def test_lifted_solution_with_the_flipped_basis():
    """flip = 1: W = Diag(2/5, −1, 0): sequence 2's margins −1 → slack −2; P, R use |β| so t stays 7/5."""
    Lf = _lifted(1)
    assert Lf.W == [[F(2, 5), 0, 0], [0, -1, 0], [0, 0, 0]]
    assert Lf.cert.min_slack == -2 and Lf.cert.passed is False and Lf.cert.t == F(7, 5)


def test_lifted_solution_without_an_optimum(monkeypatch, a4):
    data, info = a4
    monkeypatch.setattr(G, "spectral_l1", lambda data, info, dps: NS(status="infeasible"))
    assert G.lifted_solution(data, info) is None


def test_lifted_solution_averages_the_duals_within_pairs(monkeypatch, a4):
    """Stand-in duals (1/10, 3/10, 1, 0) for the rows of (42): averaged within each pair → (1/5, 1/5, ½, ½); the
    solution (2/5, 1, 0) passed through as β."""
    data, info = a4
    seen = []
    monkeypatch.setattr(G, "spectral_l1", lambda data, info, dps: seen.append(dps) or NS(
        status="optimal", solution=[F(2, 5), 1, 0], duals=[F(1, 10), F(3, 10), 1, 0]))
    L = G.lifted_solution(data, info, dps=17)
    assert seen == [17] and L.lam == [F(1, 5), F(1, 5), F(1, 2), F(1, 2)] and L.cert.passed


def test_spectral_l1_solves_42(a4):
    data, info = a4
    with working_precision(30):
        res = G.spectral_l1(data, info, dps=30)
    assert res.status == "optimal" and [F(x) for x in res.solution] == [F(2, 5), 1, 0] and res.kind == "diag"


def test_margin_is_the_smallest_row():
    """rows (1,0), (0,2), (−1,1) against W = (3, 1): 3, 2, −2 → −2; against (1, 1): 1, 2, 0 → 0."""
    with working_precision(30):
        prob = NS(rows=[[1, 0], [0, 2], [-1, 1]])
        assert G.margin(prob, [to_arb(3), to_arb(1)]) == -2
        assert G.margin(prob, [to_arb(1), to_arb(1)]) == 0
        assert G.margin(NS(rows=[[0, 0], [1, 0]]), [to_arb(5), to_arb(7)]) == 0


def test_kq_flow_routes_to_gradient_flow(monkeypatch):
    """gradient_flow(data, "KQ", m = d_e, until_norm = target, dps, exponential loss, init = ψ(0), svm False); the
    result pairs records 1.. with the last point of each step."""
    import verify.dynamics.flow as FL

    seen = {}

    def fake(data, param, **kw):
        seen.update(kw, data=data, param=param)
        kw["on_step"](["a", "p1"])
        kw["on_step"](["b", "c", "p2"])
        return NS(records=["r0", "r1", "r2"])
    monkeypatch.setattr(FL, "gradient_flow", fake)
    traj, pts = G.kq_flow("D", (1, 2), 2, 5, 40)
    assert pts == [("r1", "p1"), ("r2", "p2")] and traj.records[0] == "r0"
    assert seen == {"data": "D", "param": "KQ", "m": 2, "until_norm": 5, "dps": 40, "loss": "exponential",
                    "init": [1, 2], "svm": False, "on_step": seen["on_step"], "max_steps": 1000}  # CHECK_STEPS


def test_certificate_evidence_items():
    """Five items: slack ≥ 0, λ ≥ 0, contraction == True, upper == True, t − dual == 0; ``what`` names the matrix."""
    L = NS(cert=_cert(min_slack=F(-1, 3), min_lambda=F(1, 5), contraction=False, t=F(3), dual=F(2)))
    ev = G.certificate_evidence(L, "W°°")
    assert [(e.value, e.relation, e.bound) for e in ev] == [(F(-1, 3), ">=", 0), (F(1, 5), ">=", 0),
                                                           (False, "==", True), (True, "==", True), (1, "==", 0)]
    assert "W°°" in ev[0].quantity and "W°°" in ev[3].quantity and "t = 3, Σλ = 2" in ev[4].note
    assert [e.decide() for e in ev] == [False, True, False, True, False]
    assert "W°" in G.certificate_evidence(L)[0].quantity


def test_margin_takes_the_smallest_midpoint():
    """Values 1 and a wide ball (mid 0, radius 10), in that order: the smallest by midpoint is the wide ball (the
    plain min of balls would keep 1, not certainly larger)."""
    with working_precision(30):
        m = G.margin(NS(rows=[[0, 1], [1, 0]]), [arb(0, 10), to_arb(1)])
    assert m.mid() == 0 and m.rad() >= 10


def test_offdiag_mass_of_a_wide_ball():
    """D-A4 bases (exact), V = I₂, M[0,1] = 1 ± ½ (a ball): the mass encloses [½, 3/2] and its upper end is √(upper end
    of sq) ≈ 3/2 (not the square root of the lower end)."""
    _, _, info = assumption4(d_a4())
    B = G.bases(info)
    eye = [[F(1), F(0)], [F(0), F(1)]]
    with working_precision(30):
        M = G.split([0, arb(1, "0.5"), 0, 0, 0, 0] + [0] * 6, 3, 2)[0]
        m = G.offdiag_mass(B, eye, M, "K")
        assert m.contains(arb("0.5")) and m.contains(arb("1.5")) and m.upper() < arb("1.51")


def test_offdiag_mass_keeps_both_ends_of_the_square_root():
    """D-A4 bases, V = I₂, M[0,1] = M[2,0] = 1: sq = 2 exactly; the mass must contain the whole enclosure of √2 (its
    lower end from √(lower end), its upper end from √(upper end))."""
    _, _, info = assumption4(d_a4())
    eye = [[F(1), F(0)], [F(0), F(1)]]
    with working_precision(30):
        M = G.split([0, 1, 0, 0, 1, 0] + [0] * 6, 3, 2)[0]
        m = G.offdiag_mass(G.bases(info), eye, M, "K")
        assert m.contains(arb(2).sqrt()) and m.rad() < arb("1e-25")
