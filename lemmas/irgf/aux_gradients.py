"""irgf App. A.1 — the gradient formulas (21)–(23), (29), (38) (arXiv 2403.08699 v1).

Setting. Exponential loss, ℓ_i := exp(−γ_iᵀσ(g_i)), Σ(g) := Diag(σ(g)) − σ(g)σ(g)ᵀ, W = KQᵀ, logits g_i = X_iWz_i.
Statement (identities, as printed; symbols restored):
  (G)    ∇_Kℒ = G Q,  ∇_Qℒ = GᵀK,  G := ∇_Wℒ = −(1/n) Σ_i ℓ_i X_iᵀ Σ(g_i)γ_i z_iᵀ;
  (22)   (Σ(g)γ)_l = σ_l (γ_l − σᵀγ);
  (23)   𝟙ᵀΣ = 0, so (Σγ)_opt = −Σ_{l≠opt} (Σγ)_l;
  (21)   diag(X_iᵀΣγ_i z_iᵀ) = z_i ⊙ X_iᵀΣγ_i, hence for the diagonal model (K = [Diag(ξ_k) 0], Q = [Diag(ξ_q) 0],
         β = ξ_k ⊙ ξ_q, g_il = βᵀ(z_i ⊙ x_il), B_il = z_i ⊙ (x_i,opt − x_il)):
         ∇_βℒ = (1/n) Σ_i Σ_{l≠opt} ℓ_i (Σ(g_i)γ_i)_l B_il,  ∇_{ξ_k}ℒ = ∇_βℒ ⊙ ξ_q,  ∇_{ξ_q}ℒ = ∇_βℒ ⊙ ξ_k;
  (29)   under Assumption 2, for l ≠ opt: (Σ(g_i)γ_i)_l = −σ_l σ_opt (γ_opt − γ_nopt) < 0;
  (38)   under Assumption 2: ψ_i := X_iᵀΣ(g_i)γ_i = Σ_{l≠opt} (x_opt − x_il) σ_opt σ_l (γ_opt − γ_nopt).
Hypotheses. Assumption 2 (exact; (29) and (38) use γ_nopt) → NOT_APPLICABLE when it fails.
How it is checked. Every printed form is evaluated literally in ball arithmetic (Σ(g)γ as the matrix product
(Diag σ − σσᵀ)γ; σ by the max-shifted softmax), against an independent derivation: sympy.diff of the loss's
definition (``verify.models.symbolic.derive``, lambdified onto arb by ``verify.geometry.tfsvm.symbolic_grad_arb``) —
in β (linear logits), in (ξ_k, ξ_q) (β = ξ_k ⊙ ξ_q formed symbolically) and in (K, Q) (W = KQᵀ formed symbolically).
The literal forms cancel at saturation (σ_opt γ_opt − σ_opt σᵀγ), so each point is evaluated with the logit spread /
ln 10 more digits (``verify.kit.irgf.raised``): every comparison is an enclosure (certified). Each identity is a
Tally of relative residuals ≤ 10^−dps (relative to the sum of the magnitudes of its terms), every point counted:
* diagonal probe points β: 0, 3 seeded directions, ±B_il and ±β* at ‖β‖∞ ∈ {1/4, 1, 10, 100} (attention down to
  e^{−10³}); (ξ_k, ξ_q) with ξ_q = β ⊙ ξ_k^{−1}, ξ_k seeded rational (so β = ξ_k ⊙ ξ_q exactly);
* general probe points (K, Q) = c·(K₀, Q₀), K₀, Q₀ ∈ ℚ^{d×d_e} seeded, c ∈ {0, 1/2, 1, 3, 10}, d_e = 2 (option).
The sign of (29) is a Tally "< 0" at every diagonal probe point.
False cases (tests): the printed ∇_β with its sign flipped (``variant="sign"``) or with 2/n for 1/n
(``variant="factor"``) → VIOLATED (certified); D-A2VIOL → NOT_APPLICABLE naming Assumption 2, and with the check
bypassed (γ_nopt read as each token's own score) (29)'s sign fails: the middle token's (Σγ)_l > 0 once attention sits
on the lowest token (the mechanism of the trap) → VIOLATED.
"""
from __future__ import annotations

import random
from fractions import Fraction

from flint import arb

from verify.claims import Claim, Hypothesis, Outcome, register, steps
from verify.claims.registry import Parameter
from verify.data.irgf import d_face, d_seed0, random_diag_dataset
from verify.geometry.probes import scaled
from verify.geometry.tfsvm import symbolic_grad_arb
from verify.kit import irgf
from verify.kit.probe_inequality import ProbeInequality
from verify.models.attention import features
from verify.numbers.precision import Precision, to_arb

SCALES = ("1/4", "1", "10", "100")
KQ_SCALES = ("0", "1/2", "1", "3", "10")
VARIANTS = {"printed": 1, "sign": -1, "factor": 2}


def _abs_sum(v) -> arb:
    return sum((abs(x) for x in v), arb(0))


def _inf(v) -> arb:
    return max((abs(x) for x in v), key=lambda z: z.mid()) if v else arb(0)


def sequence_terms(logits, gamma):
    """σ (max-shifted softmax), Φ = σᵀγ, ℓ = e^{−Φ}, and Σ(g)γ both literally as (Diag σ − σσᵀ)γ and by (22)."""
    top = max(logits, key=lambda x: x.mid())
    e = [(a - top).exp() for a in logits]
    Z = sum(e, arb(0))
    s = [x / Z for x in e]
    g = [to_arb(x) for x in gamma]
    T = len(s)
    phi = sum((a * b for a, b in zip(s, g)), arb(0))
    mat = [sum(((s[l] if l == k else arb(0)) * g[k] - s[l] * s[k] * g[k] for k in range(T)), arb(0)) for l in range(T)]
    f22 = [s[l] * (g[l] - phi) for l in range(T)]
    return s, phi, (-phi).exp(), mat, f22


def diag_logits(data, beta):
    return [[sum((to_arb(x * z) * b for x, z, b in zip(tok, zi, beta)), arb(0)) for tok in Xi]
            for Xi, zi in zip(data.X, data.queries())]


def evaluate(data, prec: Precision, variant: str = "printed", d_e: int = 2, check_hypotheses: bool = True) -> Outcome:
    """``variant``: "sign" / "factor" evaluate a wrong printed ∇_β (false cases)."""
    out = Outcome()
    a2 = Hypothesis(irgf.NAMES[irgf.A2] + " ((29), (38))", *irgf.assumption2(data))
    if check_hypotheses:
        out.hypotheses.append(a2)
        if not out.applicable():
            return out
    else:
        out.notes.append(f"hypothesis check bypassed (false-case mode): {a2.name}: met {a2.met}")
    n, T, d = data.n, data.T, data.d
    opt = [o[0] for o in data.optimal_tokens()]
    Z = data.queries()
    B = [[[z * (a - b) for z, a, b in zip(Z[i], data.X[i][opt[i]], data.X[i][l])] for l in range(T)] for i in range(n)]
    fac = VARIANTS[variant]
    tol = prec.tolerance
    R = {k: ProbeInequality(q, "<=", tol, residual=True) for k, q in (
        ("beta", "‖∇_βℒ − (1/n)ΣΣ_{l≠opt} ℓ_i(Σγ_i)_l B_il‖∞ / M (printed (21), (23)) vs sympy.diff in β"
                 + ("" if variant == "printed" else f" [{variant} variant]")),
        ("xi", "‖(∇_{ξ_k}, ∇_{ξ_q}) − (∇_β ⊙ ξ_q, ∇_β ⊙ ξ_k)‖∞ / M vs sympy.diff in (ξ_k, ξ_q)"),
        ("diagG", "‖diag G(Diag β) − ∇_β (printed)‖∞ / M ((21): the diagonal of the full gradient)"),
        ("22", "‖(Diag σ − σσᵀ)γ − σ ⊙ (γ − σᵀγ)‖∞ / Σ_l σ_l|γ_l − σᵀγ| ((22))"),
        ("23", "|(Σγ)_opt + Σ_{l≠opt}(Σγ)_l| / Σ_l|(Σγ)_l| ((23): 𝟙ᵀΣ = 0)"),
        ("29", "max_{l≠opt} |(Σγ)_l + σ_lσ_opt(γ_opt − γ_nopt)| / (σ_lσ_opt(γ_opt − γ_nopt)) ((29))"),
        ("38", "‖X_iᵀΣγ_i − Σ_{l≠opt}(x_opt − x_il)σ_optσ_l(γ_opt − γ_nopt)‖∞ / M_i ((38))"),
        ("KQ", f"‖(∇_K, ∇_Q) − (GQ, GᵀK)‖∞ / M, G printed, vs sympy.diff in (K, Q), d_e = {d_e}"))}
    sign29 = ProbeInequality("(29) sign: max_{l≠opt} (Σ(g_i)γ_i)_l < 0", "<", 0)
    fb = symbolic_grad_arb(T, d, "exponential", "diag")
    fx = symbolic_grad_arb(T, d, "exponential", "diag_kq")
    fkq = symbolic_grad_arb(T, d * d, "exponential", "KQ", d_e)
    fd, fw = features(data, "diag"), features(data, "W")
    rng = random.Random(7)
    xi_k0 = [Fraction(rng.choice([-1, 1]) * rng.randint(1, 9), rng.randint(1, 5)) for _ in range(d)]
    res = irgf.l1_svm(data) if all(len(o) == 1 for o in data.optimal_tokens()) else None
    dirs = [tuple(Fraction(rng.randint(-100, 100), 37) for _ in range(d)) for _ in range(3)]
    dirs += [tuple(s * x for x in B[i][l]) for i in range(n) for l in range(T) if l != opt[i] for s in (1, -1)]
    if res is not None and res.status == "optimal":
        dirs += [tuple(res.solution), tuple(-x for x in res.solution)]
    pts = [tuple(Fraction(0) for _ in range(d))] + [scaled(u, sc) for u in dirs if any(u) for sc in SCALES]
    K0 = [[Fraction(rng.randint(-9, 9), 7) for _ in range(d_e)] for _ in range(d)]
    Q0 = [[Fraction(rng.randint(-9, 9), 7) for _ in range(d_e)] for _ in range(d)]
    work = steps(len(pts) + len(KQ_SCALES), "probe points")
    for k, beta in enumerate(pts):
        where = f"β probe {k} (‖β‖∞ = {max(abs(x) for x in beta)})"
        lg = diag_logits(data, [to_arb(x) for x in beta])
        spread = max(float((max(r, key=lambda x: x.mid()) - min(r, key=lambda x: x.mid())).mid()) for r in lg)
        with irgf.raised(prec.dps, spread):
            bb = [to_arb(x) for x in beta]
            lg = diag_logits(data, bb)
            grad, size, sizeG = [arb(0)] * d, arb(0), arb(0)
            G = [[arb(0)] * d for _ in range(d)]
            for i in range(n):
                s, phi, ell, mat, f22 = sequence_terms(lg[i], data.scores[i])
                o = opt[i]
                gn = [data.scores[i][l] for l in range(T) if l != o]
                R["22"].add_ratio(_inf([a - b for a, b in zip(mat, f22)]), _abs_sum(f22), f"{where}, seq {i + 1}")
                R["23"].add_ratio(abs(mat[o] + sum((mat[l] for l in range(T) if l != o), arb(0))), _abs_sum(mat),
                                  f"{where}, seq {i + 1}")
                sign29.add(max((mat[l] for l in range(T) if l != o), key=lambda x: x.mid()), f"{where}, seq {i + 1}")
                for idx, l in enumerate(t for t in range(T) if t != o):
                    gnopt = gn[0] if check_hypotheses or a2.met else data.scores[i][l]
                    ref = s[l] * s[o] * to_arb(data.scores[i][o] - gnopt)
                    R["29"].add_ratio(abs(mat[l] + ref), abs(ref), f"{where}, seq {i + 1}, l = {l + 1}")
                psi = [sum((to_arb(data.X[i][l][j]) * mat[l] for l in range(T)), arb(0)) for j in range(d)]
                f38 = [sum((to_arb(data.X[i][o][j] - data.X[i][l][j]) * s[o] * s[l]
                            * to_arb(data.scores[i][o] - (gn[0] if check_hypotheses or a2.met else data.scores[i][l]))
                            for l in range(T) if l != o), arb(0)) for j in range(d)]
                R["38"].add_ratio(_inf([a - b for a, b in zip(psi, f38)]),
                                  sum((abs(to_arb(x)) * abs(m) for l in range(T) for x, m in
                                       ((xx, mat[l]) for xx in data.X[i][l])), arb(0)), f"{where}, seq {i + 1}")
                for l in range(T):
                    if l == o:
                        continue
                    w = ell * mat[l] / n
                    grad = [a + w * to_arb(b) for a, b in zip(grad, B[i][l])]
                    size += abs(w) * _abs_sum([to_arb(b) for b in B[i][l]])
                for a in range(d):  # the printed full G = −(1/n)Σ ℓ_i X_iᵀΣγ_i z_iᵀ at W = Diag(β)
                    for c in range(d):
                        G[a][c] -= ell * psi[a] * to_arb(Z[i][c]) / n
                sizeG += ell * _abs_sum(psi) * _abs_sum([to_arb(z) for z in Z[i]]) / n
            sym = [sum(col, arb(0)) / n for col in zip(*(fb(Fi, gi, bb) for Fi, gi in
                                                        zip(_arbs(fd), _arbs1(data.scores))))]
            R["beta"].add_ratio(_inf([fac * a - b for a, b in zip(grad, sym)]), size, where)
            R["diagG"].add_ratio(_inf([G[j][j] - g for j, g in enumerate(grad)]), sizeG, where)
            xk = [to_arb(x) for x in xi_k0]
            xq = [b / a for a, b in zip(xk, bb)]
            symx = [sum(col, arb(0)) / n for col in zip(*(fx(Fi, gi, xk + xq) for Fi, gi in
                                                         zip(_arbs(fd), _arbs1(data.scores))))]
            printed = [g * q for g, q in zip(grad, xq)] + [g * p for g, p in zip(grad, xk)]
            R["xi"].add_ratio(_inf([a - b for a, b in zip(printed, symx)]),
                              size * max(_inf(xk), _inf(xq), key=lambda z: z.mid()), where)
        work.advance()
    for sc in KQ_SCALES:
        c = Fraction(sc)
        K = [[c * x for x in row] for row in K0]
        Q = [[c * x for x in row] for row in Q0]
        W = [sum((K[a][m] * Q[b][m] for m in range(d_e)), Fraction(0)) for a in range(d) for b in range(d)]
        lg = [[sum((to_arb(f) * to_arb(w) for f, w in zip(row, W)), arb(0)) for row in Fi] for Fi in fw]
        spread = max(float((max(r, key=lambda x: x.mid()) - min(r, key=lambda x: x.mid())).mid()) for r in lg)
        with irgf.raised(prec.dps, spread):
            lg = [[sum((to_arb(f) * to_arb(w) for f, w in zip(row, W)), arb(0)) for row in Fi] for Fi in fw]
            G = [[arb(0)] * d for _ in range(d)]
            sizeG = arb(0)
            for i in range(n):
                _, _, ell, mat, _ = sequence_terms(lg[i], data.scores[i])
                psi = [sum((to_arb(data.X[i][l][j]) * mat[l] for l in range(T)), arb(0)) for j in range(d)]
                for a in range(d):
                    for b in range(d):
                        G[a][b] -= ell * psi[a] * to_arb(Z[i][b]) / n
                sizeG += ell * _abs_sum(psi) * _abs_sum([to_arb(z) for z in Z[i]]) / n
            gK = [sum((G[a][b] * to_arb(Q[b][m]) for b in range(d)), arb(0)) for a in range(d) for m in range(d_e)]
            gQ = [sum((G[a][b] * to_arb(K[a][m]) for a in range(d)), arb(0)) for b in range(d) for m in range(d_e)]
            theta = [to_arb(x) for row in K for x in row] + [to_arb(x) for row in Q for x in row]
            sym = [sum(col, arb(0)) / n for col in zip(*(fkq(Fi, gi, theta) for Fi, gi in
                                                        zip(_arbs(fw), _arbs1(data.scores))))]
            scale = sizeG * to_arb(abs(c)) * _inf([to_arb(x) for row in K0 + Q0 for x in row])
            R["KQ"].add_ratio(_inf([a - b for a, b in zip(gK + gQ, sym)]), scale, f"(K, Q) = {sc}·(K₀, Q₀)")
        work.advance()
    out.add(*(t.evidence() for t in R.values()), sign29.evidence())
    out.cover(f"β at {len(pts)} probe points (0; 3 seeded directions, ±B_il, ±β* × ‖β‖∞ ∈ {{{', '.join(SCALES)}}}); "
              f"(ξ_k, ξ_q) = (ξ_k⁰, β/ξ_k⁰), ξ_k⁰ seeded; (K, Q) = c·(K₀, Q₀), c ∈ {{{', '.join(KQ_SCALES)}}}, d_e = {d_e}")
    return out


def _arbs(feats):
    return [[[to_arb(x) for x in row] for row in Fi] for Fi in feats]


def _arbs1(scores):
    return [[to_arb(x) for x in g] for g in scores]


def default_datasets(seed: int = 0):
    return [d_seed0(), d_face(), random_diag_dataset(n=2, L=4, d=3, seed=seed)]


STATEMENT = """\
∇_Kℒ = GQ, ∇_Qℒ = GᵀK, G = −(1/n)Σ_i ℓ_i X_iᵀΣ(g_i)γ_i z_iᵀ; (22) (Σγ)_l = σ_l(γ_l − σᵀγ); (23) 𝟙ᵀΣ = 0; (21) diagonal
model: ∇_βℒ = (1/n)ΣΣ_{l≠opt} ℓ_i(Σγ_i)_l B_il, ∇_{ξ_k} = ∇_β ⊙ ξ_q, ∇_{ξ_q} = ∇_β ⊙ ξ_k; under Assumption 2 (29)
(Σγ_i)_l = −σ_lσ_opt(γ_opt − γ_nopt) < 0 and (38) X_iᵀΣγ_i = Σ_{l≠opt}(x_opt − x_il)σ_optσ_l(γ_opt − γ_nopt).

Each printed form evaluated literally in balls (raised precision at saturation) against sympy.diff of the definition.
"""

CLAIM = register(Claim(id="irgf.aux.gradients", paper="irgf", number="App. A.1, (21)–(23), (29), (38)",
                       kind="identity", title="Gradient formulas of the attention loss (full and diagonal (K, Q))",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("gradient-formulas", "covariance-form"), default_precision=30,
                       parameters=(
                           Parameter("β (ξ_k, ξ_q)", "every diagonal parameter", "range",
                                     "β: 0, 3 seeded directions, ±B_il, ±β* at ‖β‖∞ ∈ {1/4, 1, 10, 100}; ξ_k seeded, "
                                     "ξ_q = β/ξ_k (named in the verdict)"),
                           Parameter("(K, Q)", "every K, Q ∈ ℝ^{d×d_e}", "range",
                                     "c·(K₀, Q₀) for one seeded pair, c ∈ {0, 1/2, 1, 3, 10} (named in the verdict)"),
                           Parameter("d_e", "every embedding dimension d_e", "range",
                                     "d_e = 2 unless `d_e` is given (named in the verdict)", option="d_e",
                                     kind="integer"))))
