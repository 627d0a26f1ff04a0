"""Claim-kit piece: "V is a descent direction at every θ" proven on the whole domain by exact algebra.

For a linear-logit attention loss L(θ) = (1/n)Σ_i ℓ(γ_iᵀ S(F_i θ)) and a fixed direction V,

    (D)  ⟨∇L(θ), V⟩ = (1/n) Σ_i ℓ'(φ_i) Cov_{s_i}(γ_i, y_i),   y_i = F_i V,  s_i = S(F_i θ),  φ_i = γ_iᵀ s_i,

because d/dε γᵀS(a + εb) at ε = 0 is Cov_s(γ, b) (the softmax Jacobian diag(s) − ssᵀ). When one argument of the
covariance is constant off one token o — x = c𝟙 + λe_o — then

    (I)  Cov_s(x, y) = λ s_o Σ_{t≠o} s_t (y_o − y_t)     for every s in the simplex, every c, λ, y.

Instances that decide the sign of (D) at every θ, whatever θ is:
* Assumption B (mmts) / B.2 (tfsvm): γ_i = γ̲_i𝟙 + Δ_i e_opt, y = F_iV with margins m_t = y_opt − y_t ≥ 1 (V the
  max-margin solution): Cov = Δ_i s_opt Σ_{t≠opt} s_t m_t ≥ Δ_i s_opt(1 − s_opt)·min m > 0;
* B.1 (tfsvm): every margin is exactly 1, so y_i = c_i𝟙 + e_opt: Cov = s_opt Σ_{t≠opt} s_t(γ_opt − γ_t) > 0
  (the optimal token's score is the strict maximum).
* F_iV = γ_i for every i (independent queries, tfsvm): Cov_s(γ, γ) = Var_s(γ) = Σ_{t<u} s_t s_u(γ_t − γ_u)² (V),
  positive when some sequence's scores are not constant.
With ℓ' < 0 on every φ_i (Assumption A, a hypothesis of the claims: φ_i lies between the scores' extremes) and
s_t > 0 (softmax), every term of (D) is negative: ⟨∇L(θ), V⟩ < 0 on the whole domain.

Deciding items, exact: the identities (D) and (I) for the data's T by sympy (polynomial / rational-function algebra),
and the signs of the exact rational factors (Δ_i, margins, score gaps). Each carries ``proves`` — the domain on which
it decides the statement — so a claim whose items are all of this kind is proven, not sampled.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from verify.claims import Evidence
from verify.numbers.identities import expand_sympy


@lru_cache(maxsize=None)
def softmax_derivative_identity(T: int) -> bool:
    """sympy, (D): with u_t = e^{a_t} > 0 and e^{εb_t} = 1 + εb_t + O(ε²), U² times d/dε γᵀS(a + εb) at ε = 0 minus
    U²·(Σ_t s_tγ_tb_t − (Σ_t s_tγ_t)(Σ_t s_tb_t)), s_t = u_t/U, expands to 0 — the polynomial of
    ``verify.numbers.identities`` ("softmax-derivative"), the one its certificate re-expands with FLINT."""
    return expand_sympy("softmax-derivative", T)


@lru_cache(maxsize=None)
def indicator_covariance_identity(T: int, o: int = 0) -> bool:
    """sympy, (I) for token o of T: Cov_s(c𝟙 + λe_o, y) − λ s_o Σ_{t≠o} s_t(y_o − y_t) expands to 0, with
    s_o = 1 − Σ_{t≠o} s_t (every s in the simplex), for all c, λ, y (``verify.numbers.identities``)."""
    return expand_sympy("indicator-covariance", T, o)


@lru_cache(maxsize=None)
def variance_identity(T: int) -> bool:
    """sympy, (V): Σ_t s_tγ_t² − (Σ_t s_tγ_t)² − Σ_{t<u} s_t s_u(γ_t − γ_u)² expands to 0 with s₁ = 1 − Σ_{t≥2} s_t."""
    return expand_sympy("variance", T)


def _derivative_item(T: int, domain: str) -> Evidence:
    return Evidence(f"(D) d/dε γᵀS(a + εb)|₀ ≡ Cov_s(γ, b), so ⟨∇L(θ), V⟩ = (1/n)Σ ℓ'(φ_i) Cov_{{s_i}}(γ_i, F_iV) "
                    f"(sympy, T = {T})", softmax_derivative_identity(T), "==", True, proves=domain,
                    note="a rational-function identity in u_t = e^{a_t} > 0: every logit vector a, every b")


def covariance_identities(opts) -> list:
    """The (identity, token) pairs a proof under Assumption B or B.1 rests on, for ``identity_certificates``."""
    return [("softmax-derivative", 0)] + [("indicator-covariance", o) for o in sorted(set(opts))]


def _identities(T: int, opts, domain: str) -> list:
    tokens = sorted(set(opts))
    ind = all(indicator_covariance_identity(T, o) for o in tokens)
    return [
        _derivative_item(T, domain),
        Evidence(f"(I) Cov_s(c𝟙 + λe_o, y) ≡ λ s_o Σ_t≠o s_t(y_o − y_t) for o ∈ {{{', '.join(map(str, tokens))}}} "
                 f"(sympy, T = {T})", ind, "==", True, proves=domain,
                 note="a polynomial identity on the simplex (s_o = 1 − Σ_t≠o s_t), all c, λ, y"),
    ]


def descent_on_domain_variance(T: int, scores, domain: str) -> list:
    """When F_iV = γ_i for every i (decided exactly by the claim): ⟨∇L(θ), V⟩ = (1/n)Σ ℓ'(φ_i) Var_{s_i}(γ_i) by (D),
    and Var_s(γ) = Σ_{t<u} s_t s_u(γ_t − γ_u)² (V) is positive at every s of the open simplex when γ is not
    constant: the items proving ⟨∇L(θ), V⟩ < 0 at every θ of ``domain``."""
    spread = max(max(Fraction(x) for x in g) - min(Fraction(x) for x in g) for g in scores)
    return [_derivative_item(T, domain),
            Evidence(f"(V) Var_s(γ) ≡ Σ_t<u s_t s_u(γ_t − γ_u)² (sympy, T = {T})", variance_identity(T), "==", True,
                     proves=domain, note="a polynomial identity on the simplex"),
            Evidence("max_i (max_t γ_it − min_t γ_it) (exact: some Var_s(γ_i) > 0 at every s, as every s_t > 0)",
                     spread, ">", 0, proves=domain)]


def descent_on_domain_b2(T: int, opts, gaps, margins, domain: str, factor=1) -> tuple[list, bool]:
    """Under Assumption B (B.2): the items proving ⟨∇L(θ), V⟩ < 0 at every θ of ``domain`` (``gaps`` Δ_i, the
    exact ``margins`` m_it of V, None at t = opt), and whether the derived bound −⟨∇L, V⟩ ≥ factor·(1/n)Σ|ℓ'|Δ_i
    s_opt(1 − s_opt) is proven too: it is when min m ≥ factor (Σ_{t≠opt} s_t m_t ≥ (1 − s_opt) min m). A larger
    factor is not refuted here (min m < factor is no counterexample): the claim's probes decide it."""
    items = _identities(T, opts, domain)
    least_gap = min(Fraction(g) for g in gaps)
    least_margin = min(m for row in margins for m in row if m is not None)
    items += [Evidence("min_i Δ_i (exact: the optimal score's gap, Assumption B)", least_gap, ">", 0, proves=domain),
              Evidence("min_{i, t≠opt} m_it, the exact margins of V (the sign of Cov_s(γ_i, F_iV) = Δ_i s_opt "
                       "Σ_t≠opt s_t m_t, by (I))", least_margin, ">", 0, proves=domain)]
    bound = least_margin >= Fraction(factor)
    if bound:
        items.append(Evidence(f"min m_it / {factor} (≥ 1: Σ_t≠opt s_t m_t ≥ {factor}·(1 − s_opt), the derived bound "
                              "at every θ)", least_margin / Fraction(factor), ">=", 1, proves=domain))
    return items, bound


def descent_on_domain_b1(T: int, opts, scores, domain: str) -> list:
    """Under B.1 (every margin of V exactly 1, decided by the claim's hypothesis): the items proving
    ⟨∇L(θ), V⟩ < 0 at every θ of ``domain``: by (I) with x = F_iV = c_i𝟙 + e_opt, Cov = s_opt Σ_{t≠opt}
    s_t(γ_opt − γ_t), positive when the optimal score is the strict maximum (exact ``scores``)."""
    items = _identities(T, opts, domain)
    gap = min(Fraction(g[o]) - Fraction(g[t]) for g, o in zip(scores, opts) for t in range(len(g)) if t != o)
    items.append(Evidence("min_{i, t≠opt} (γ_i,opt − γ_it) (exact: the sign of Cov_s(γ_i, F_iV) = s_opt Σ_t≠opt "
                          "s_t(γ_opt − γ_t), by (I))", gap, ">", 0, proves=domain))
    return items


def margin_cone_proof(*, T: int, Gamma, A, gaps, gap_bars, wmm_margins, mu, eta, domain: str) -> list:
    """tfsvm Lemma 12 on the whole margin cone C̄_{μ,R} (unbounded), by a reduction to three certified comparisons
    at R per sequence. In S_μ every logit gap b_opt − b_t ≥ μΘ‖W‖, so s_t ≤ η s_opt with η = e^{−μΘR} (``eta``, a
    ball) once ‖W‖ ≥ R, and q = 1 − s_opt ≤ (T−1)η s_opt. By the pairwise form Cov_s(γ, a) = Σ_{t<u} s_t s_u(γ_t −
    γ_u)(a_t − a_u) (an identity), the pairs with opt give ≥ s_opt q g m (g the sequence's least score gap, m the
    least logit margin of the direction: 1 for W^mm, μ for V ∈ S_μ with ‖V‖ = ‖W^mm‖ = 1/Θ) and the others at most
    Γ A q (T−1)η s_opt/2 (|a_t − a_u| ≤ ‖x_t − x_u‖‖z‖‖V‖_F ≤ A, (53)). Hence, per sequence i:

    * (L1) Cov_i(γ, X W^mm z) > 0 when η(T−1)ΓA < 2g_i;
    * (L2, lower) Cov_i ≥ (μ/2) q_i g_i when η(T−1)(ΓA + μg_i) ≤ μg_i (with s_opt ≥ 1/(1 + (T−1)η));
    * (L2, upper) Cov_i ≤ 2A q_i γ̄_i when η(T−1)Γ ≤ 2γ̄_i (s_opt ≤ 1, |a_opt − a_t| ≤ A);

    and −⟨∇L(W), V⟩ = (1/n)Σ|ℓ'(φ_i)|Cov_i (the softmax derivative, ℓ' < 0 by Assumption A) carries them to the
    statement termwise. The items: the two identities (sympy), W^mm's least margin ≥ 1 (exact), and the three
    comparisons (the worst sequence's ratio, enclosed)."""
    from verify.numbers.precision import to_arb

    Ga, m = to_arb(Gamma), to_arb(mu)

    def worst(balls):  # an enclosure of the largest ratio (arb max: every ball's upper end counts)
        out = balls[0]
        for b in balls[1:]:
            out = out.max(b)
        return out

    l1 = worst([eta * (T - 1) * Ga * A / (2 * to_arb(g)) for g in gaps])
    low = worst([eta * (T - 1) * (Ga * A + m * to_arb(g)) / (m * to_arb(g)) for g in gaps])
    up = worst([eta * (T - 1) * Ga / (2 * to_arb(g)) for g in gap_bars])
    least = min(x for row in wmm_margins for x in row if x is not None)
    return [
        _derivative_item(T, domain),
        Evidence(f"(P) Cov_s(γ, a) ≡ Σ_t<u s_t s_u(γ_t − γ_u)(a_t − a_u) (sympy, T = {T})",
                 expand_sympy("pairwise-covariance", T), "==", True, proves=domain,
                 note="a polynomial identity on the simplex"),
        Evidence("min_{i, t≠opt} (x_opt − x_t)ᵀW^mm z_i (exact; ≥ 1: the Att-SVM margins)", least, ">=", 1,
                 proves=domain),
        Evidence("(L1) max_i η(T−1)ΓA/(2γ^gap_i), η = e^{−μΘR} (< 1: −⟨∇L(W), W^mm⟩ > 0 on the cone)", l1, "<", 1,
                 proves=domain),
        Evidence("(L2 lower) max_i η(T−1)(ΓA + μγ^gap_i)/(μγ^gap_i) (≤ 1: the lower bound on the cone)", low, "<=", 1,
                 proves=domain),
        Evidence("(L2 upper) max_i η(T−1)Γ/(2γ̄^gap_i) (≤ 1: the upper bound on the cone)", up, "<=", 1,
                 proves=domain, note=f"η = {eta.mid().str(6, radius=False)}"),
    ]
