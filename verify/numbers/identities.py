"""Polynomial identities behind the exact proofs, decided by two independent engines, with a certificate.

A claim proven on its whole domain by exact algebra (the Key Lemma's identity, the covariance identities of
``verify.kit.descent_proof``) rests on polynomial identities "P ≡ 0" in a few families of variables (softmax weights
on the simplex, scores, logits). Each identity is written once here as its difference P (left side minus right side)
over a ring's generators; sympy expands it for the claim (``holds``), and FLINT's multivariate rational polynomials
(python-flint ``fmpq_mpoly``, an independent implementation) expand it again from the certificate alone
(``recheck_identity``: ``python -m verify recheck CERT.json``).

Identities (T tokens; s₁ = 1 − Σ_{t≥2} s_t puts s on the simplex's affine hull):

* ``key-lemma``: aᵀdiag(s)γ − aᵀssᵀγ − Σ_{t≥2}(a₁−a_t)s_t(γ₁−γ_t) + (Σ_{t≥2}s_t(a₁−a_t))(Σ_{t≥2}s_t(γ₁−γ_t));
* ``indicator-covariance`` (token o): Cov_s(c𝟙 + λe_o, y) − λ s_o Σ_{t≠o} s_t(y_o − y_t);
* ``variance``: Σ_t s_tγ_t² − (Σ_t s_tγ_t)² − Σ_{t<u} s_t s_u(γ_t − γ_u)²;
* ``pairwise-covariance``: Cov_s(γ, a) − Σ_{t<u} s_t s_u(γ_t − γ_u)(a_t − a_u);
* ``softmax-derivative``: with u_t = e^{a_t} and e^{εb_t} = 1 + εb_t + O(ε²), U = Σu: the ε-coefficient of
  U(ε)·Σγ_t u_t(1 + εb_t) − (Σγ_t u_t)·U(ε)' — i.e. U²·d/dε[γᵀS(a + εb)]₀ — minus U²·Cov_{u/U}(γ, b).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

FORMAT = "attnverify-identity-certificate/1"


def _names(name: str, T: int) -> list[str]:
    if name == "key-lemma":
        return [f"s{t}" for t in range(2, T + 1)] + [f"a{t}" for t in range(1, T + 1)] + [f"g{t}" for t in range(1, T + 1)]
    if name == "indicator-covariance":
        return [f"s{t}" for t in range(1, T)] + ["c", "lam"] + [f"y{t}" for t in range(1, T + 1)]
    if name == "variance":
        return [f"s{t}" for t in range(2, T + 1)] + [f"g{t}" for t in range(1, T + 1)]
    if name == "pairwise-covariance":
        return [f"s{t}" for t in range(2, T + 1)] + [f"g{t}" for t in range(1, T + 1)] + [f"a{t}" for t in range(1, T + 1)]
    if name == "softmax-derivative":
        return ["eps"] + [f"u{t}" for t in range(1, T + 1)] + [f"g{t}" for t in range(1, T + 1)] + \
            [f"b{t}" for t in range(1, T + 1)]
    raise ValueError(f"unknown identity {name!r}")


def _difference(name: str, v: dict, T: int, o: int = 0):
    """P for the identity ``name`` over the generators ``v`` (name → generator)."""
    if name == "key-lemma":
        a = [v[f"a{t}"] for t in range(1, T + 1)]
        g = [v[f"g{t}"] for t in range(1, T + 1)]
        rest = [v[f"s{t}"] for t in range(2, T + 1)]
        S = [1 - sum(rest)] + rest
        printed = (sum(a[t] * S[t] * g[t] for t in range(T)) - sum(a[t] * S[t] for t in range(T)) *
                   sum(S[t] * g[t] for t in range(T)) - sum((a[0] - a[t]) * S[t] * (g[0] - g[t]) for t in range(1, T)))
        return printed + sum(S[t] * (a[0] - a[t]) for t in range(1, T)) * sum(S[t] * (g[0] - g[t]) for t in range(1, T))
    if name == "indicator-covariance":
        free = iter([v[f"s{t}"] for t in range(1, T)])
        S = [None] * T
        for t in range(T):
            if t != o:
                S[t] = next(free)
        S[o] = 1 - sum(S[t] for t in range(T) if t != o)
        y = [v[f"y{t}"] for t in range(1, T + 1)]
        x = [v["c"] + (v["lam"] if t == o else 0) for t in range(T)]
        cov = sum(S[t] * x[t] * y[t] for t in range(T)) - sum(S[t] * x[t] for t in range(T)) * sum(S[t] * y[t] for t in range(T))
        return cov - v["lam"] * S[o] * sum(S[t] * (y[o] - y[t]) for t in range(T) if t != o)
    if name == "variance":
        g = [v[f"g{t}"] for t in range(1, T + 1)]
        rest = [v[f"s{t}"] for t in range(2, T + 1)]
        S = [1 - sum(rest)] + rest
        var = sum(S[t] * g[t] ** 2 for t in range(T)) - sum(S[t] * g[t] for t in range(T)) ** 2
        return var - sum(S[t] * S[u] * (g[t] - g[u]) ** 2 for t in range(T) for u in range(t + 1, T))
    if name == "pairwise-covariance":
        g = [v[f"g{t}"] for t in range(1, T + 1)]
        a = [v[f"a{t}"] for t in range(1, T + 1)]
        rest = [v[f"s{t}"] for t in range(2, T + 1)]
        S = [1 - sum(rest)] + rest
        cov = sum(S[t] * g[t] * a[t] for t in range(T)) - sum(S[t] * g[t] for t in range(T)) * sum(S[t] * a[t] for t in range(T))
        return cov - sum(S[t] * S[u] * (g[t] - g[u]) * (a[t] - a[u]) for t in range(T) for u in range(t + 1, T))
    if name == "softmax-derivative":
        eps = v["eps"]
        u = [v[f"u{t}"] for t in range(1, T + 1)]
        g = [v[f"g{t}"] for t in range(1, T + 1)]
        b = [v[f"b{t}"] for t in range(1, T + 1)]
        moved = [u[t] * (1 + eps * b[t]) for t in range(T)]  # u_t e^{εb_t} to first order in ε
        num, den = sum(g[t] * moved[t] for t in range(T)), sum(moved)
        # U²·(N/D)'(0) = N'(0)D(0) − N(0)D'(0): the ε-coefficient of N(ε)D(0) − N(0)D(ε), read as ∂/∂ε at ε = 0
        at0 = {"num": sum(g[t] * u[t] for t in range(T)), "den": sum(u)}
        quotient = num * at0["den"] - at0["num"] * den  # = ε·(N'D − ND') exactly (the ε⁰ terms cancel)
        U = at0["den"]
        cov_times_u2 = sum(u[t] * g[t] * b[t] for t in range(T)) * U - at0["num"] * sum(u[t] * b[t] for t in range(T))
        return quotient - eps * cov_times_u2
    raise ValueError(f"unknown identity {name!r}")


def _args(name: str, T: int, o: int) -> dict:
    return {"T": T, "o": o} if name == "indicator-covariance" else {"T": T}


def expand_sympy(name: str, T: int, o: int = 0) -> bool:
    """True when sympy expands P to 0."""
    import sympy

    v = {n: sympy.Symbol(n) for n in _names(name, T)}
    return sympy.expand(_difference(name, v, T, o)) == 0


def expand_flint(name: str, T: int, o: int = 0) -> bool:
    """True when FLINT's fmpq_mpoly expands P to 0 (an engine independent of sympy)."""
    import flint

    names = _names(name, T)
    ctx = flint.fmpq_mpoly_ctx.get(tuple(names), "lex")
    v = dict(zip(names, ctx.gens()))
    return _difference(name, v, T, o) == 0


def identity_certificate(name: str, *, claim: str, T: int, o: int = 0, statement: str = "",
                         versions: dict | None = None) -> dict:
    """The JSON-able certificate of an identity sympy expanded to 0 (only a true identity has one)."""
    if not expand_sympy(name, T, o):
        raise ValueError(f"identity {name!r} does not hold for T = {T}")
    return {"format": FORMAT, "claim": claim, "identity": {"name": name, "args": _args(name, T, o)},
            "statement": statement, "engine": "sympy", "tool": versions or {}}


@dataclass
class IdentityRecheck:
    ok: bool
    seconds: float
    failure: str = ""

    def summary(self) -> str:
        if self.ok:
            return f"PROVEN: the polynomial expands to 0 with FLINT fmpq_mpoly in {self.seconds:.2f} s"
        return f"REJECTED: {self.failure}"


def recheck_identity(cert: dict) -> IdentityRecheck:
    """Re-expand the certificate's identity with FLINT, from the certificate alone."""
    start = time.perf_counter()
    spec = cert["identity"]
    name, args = str(spec["name"]), dict(spec["args"])
    T, o = int(args["T"]), int(args.get("o", 0))
    if not 2 <= T <= 1000 or not 0 <= o < T:  # FLINT expands T = 150 in 0.3 s
        return IdentityRecheck(False, 0.0, f"arguments out of range: T = {T}, o = {o}")
    try:
        ok = expand_flint(name, T, o)
    except ValueError as exc:
        return IdentityRecheck(False, time.perf_counter() - start, str(exc))
    return IdentityRecheck(ok, time.perf_counter() - start,
                           "" if ok else f"{name} (T = {T}) does not expand to 0: the identity is false")
