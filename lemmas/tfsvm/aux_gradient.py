"""tfsvm closed-form gradients — ∇L(W) (v1 eq. (13)–(14)), ∇_K, ∇_Q (eq. (18)) and the covariance identity.

Statement. With s_i = S(X_iWz_i), γ_i = Y_iX_iv, φ_i = γ_iᵀs_i, G := ∇L(W):
  (13) G = (1/n) Σ_i ℓ'(φ_i) X_iᵀ(diag(s_i) − s_is_iᵀ)γ_i z_iᵀ;
  (18) for W = KQᵀ (K, Q ∈ ℝ^{d×m}): ∇_K L = G Q, ∇_Q L = Gᵀ K;
  covariance identity: ⟨G, V⟩ = (1/n) Σ_i ℓ'(φ_i) Cov_{s_i}(γ_i, X_iVz_i) for every V.
v1 prints (18) as ∇_K = GᵀQ, ∇_Q = GK; DERIVED here (the chain rule of W_ab = Σ_c K_ac Q_bc with logits
x_itᵀWz_i): G Q and Gᵀ K — the printed forms agree only when G is symmetric. The default checks the
derived forms; ``printed18=True`` checks v1's (the false case). The covariance is taken in its pairwise form
Cov_s(γ, a) = ½Σ_{t,u} s_t s_u(γ_t − γ_u)(a_t − a_u) (exact differences: no cancellation at saturation).

Hypotheses: the setting of (13): ℓ one of the papers' losses, under Assumption A (certified; the identities
use ℓ'). Calculus identities otherwise: no hypothesis on the data (ties, T = 2, z_i dependent all allowed).
How it is checked, at exact probe points (W: seeded directions and ± feature differences at ‖W‖∞ ∈ {0, 1,
10, 100, 1000}; (K,Q): seeded K₀, Q₀ scaled by {0, 1/2, 1, 3, 10}, m = 2), each a Tally of relative residuals
≤ 10^-dps (relative to M = (1/n)Σ_i|ℓ'_i|Σ_t|s_it(γ_it − φ_i)|‖x_it‖‖z_i‖, the size of the terms):
(i) the engine's ∇L(W) (``LinearLogitModel``, stable form) against (13) evaluated literally in arb;
(ii) the engine against sympy.diff of the definition (``verify.models.symbolic.derive``) evaluated in arb;
(iii) (18) from the engine's G against sympy.diff in the (K,Q) parameters; (iv) the covariance identity for
3 seeded V. The literal forms (i)–(iii) cancel at saturation: they are evaluated at the working precision
plus the logit spread/ln 10 digits (at most 5000 more: past that a point is left undecided), so every
comparison is an enclosure (certified).
False cases (tests): the printed (18) → VIOLATED on D-T2 (G not symmetric); a sign slip in (13)
(``sign=-1``) → VIOLATED; the square loss (fails Assumption A) → NOT_APPLICABLE.
"""
from __future__ import annotations

import random
from fractions import Fraction

from flint import arb, arb_mat

from verify.claims import Claim, Outcome, register, steps
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.geometry.probes import directions, scaled
from verify.geometry.tfsvm import kq_gradients, symbolic_grad_arb
from verify.kit.assumptions import assumption_a
from verify.kit.probe_inequality import ProbeInequality, point_label
from verify.models.attention import LinearLogitModel, features
from verify.models.losses import get_loss
from verify.numbers.linalg import norm_enclosure
from verify.numbers.precision import Precision, raised_precision, to_arb

SCALES = ("0", "1", "10", "100", "1000")
MAX_EXTRA_DIGITS = 5000  # beyond it a literal form is left as wide as it comes out (that point is undecided)


def raised(dps: int, spread: float):
    """The working precision raised by the logit spread for the literal, cancelling forms (capped)."""
    return raised_precision(dps, spread, MAX_EXTRA_DIGITS)


KQ_SCALES = ("0", "1/2", "1", "3", "10")


def evaluate(data, prec: Precision, loss="logistic", printed18: bool = False, sign: int = 1, m: int = 2) -> Outcome:
    out = Outcome(hypotheses=[assumption_a(loss, data, f"Assumption A ({get_loss(loss).name}: ℓ' is used)")])
    if not out.applicable():
        return out
    name = get_loss(loss).name
    model = LinearLogitModel.from_dataset(data, "W", loss)
    feats, n, T, d = features(data, "W"), data.n, data.T, data.d
    fsym = symbolic_grad_arb(T, d * d, name, "W")
    tol = prec.tolerance
    lit = ProbeInequality(f"max ‖∇L − (13){' with the sign flipped' if sign < 0 else ''}‖_F / M over the probe points (i)",
                          "<=", tol, residual=True)
    sym = ProbeInequality("max ‖∇L − sympy.diff of the definition‖_F / M over the probe points (ii)", "<=", tol, residual=True)
    cov = ProbeInequality("max |⟨∇L, V⟩ − (1/n)Σℓ'(φ_i)Cov_{s_i}(γ_i, X_iVz_i)| / M_V over probe points and 3 V, M_V = Σ|g_kV_k| + Σ|pair terms| (iv)",
                          "<=", tol, residual=True)
    rng = random.Random(3)
    Vs = [[Fraction(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(d * d)] for _ in range(3)]
    pts = [tuple(Fraction(0) for _ in range(d * d))]
    pts += [scaled(v, sc) for v in directions(feats, count=3, seed=0) for sc in SCALES[1:]]
    work = steps(len(pts) + len(KQ_SCALES), "probe points")
    for p in pts:
        where = point_label(p, 4)
        th = [to_arb(x) for x in p]
        states = model.states(th)
        g = model.grad(th, states)
        lp = [model.loss.d1(st.phi) for st in states]
        M = sum((abs(lp[i]) * abs(st.c[t]) * norm_enclosure([to_arb(x) for x in feats[i][t]])
                 for i, st in enumerate(states) for t in range(T)), arb(0)) / n
        a = model.logits(th)
        spread = max(float(max(x.mid() for x in row)) - float(min(x.mid() for x in row)) for row in a)
        with raised(prec.total, spread):
            g13 = literal_13(data, p, model.loss, sign)
            gs = [sum(col) / n for col in zip(*(fsym([[to_arb(x) for x in row] for row in Fi],
                                                    [to_arb(x) for x in gi], [to_arb(x) for x in p])
                                               for Fi, gi in zip(feats, data.scores)))]
        lit.add_ratio(norm_enclosure([x - y for x, y in zip(g, g13)]), M, where)
        sym.add_ratio(norm_enclosure([x - y for x, y in zip(g, gs)]), M, where)
        for k, V in enumerate(Vs):
            inner = sum((x * to_arb(y) for x, y in zip(g, V)), arb(0))
            terms = []
            for i, st in enumerate(states):
                av = [sum((to_arb(f * y) for f, y in zip(feats[i][t], V)), arb(0)) for t in range(T)]
                gam = data.scores[i]
                terms += [lp[i] * st.s[t] * st.s[u] * to_arb(gam[t] - gam[u]) * (av[t] - av[u]) / n
                          for t in range(T) for u in range(t + 1, T)]
            size = sum((abs(x * to_arb(y)) for x, y in zip(g, V)), arb(0)) + sum((abs(x) for x in terms), arb(0))
            cov.add_ratio(abs(inner - sum(terms, arb(0))), size, f"{where}, V{k}")
        work.advance()
    out.add(lit.evidence(), sym.evidence(), cov.evidence())
    out.add(kq_evidence(data, prec, model, name, m, printed18, work))
    out.cover(f"W at {len(pts)} probe points (0; 3 seeded directions and ± feature differences × ‖W‖∞ ∈ "
              f"{{{', '.join(SCALES[1:])}}}); {len(Vs)} seeded V; (K, Q) = c·(K₀, Q₀) seeded, c ∈ "
              f"{{{', '.join(KQ_SCALES)}}}, m = {m}")
    return out


def literal_13(data, p, loss, sign=1):
    """(13) as printed, at the current precision: (1/n)Σ ℓ'(φ_i) X_iᵀ(diag(s_i) − s_is_iᵀ)γ_i z_iᵀ, row-major."""
    d, n = data.d, data.n
    G = [arb(0)] * (d * d)
    for Xi, z, gam in zip(data.X, data.queries(), data.scores):
        a = [sum((to_arb(x[r]) * to_arb(p[r * d + c]) * to_arb(z[c]) for r in range(d) for c in range(d)), arb(0))
             for x in Xi]
        top = max(a, key=lambda x: x.mid())
        e = [(x - top).exp() for x in a]
        s = [x / sum(e, arb(0)) for x in e]
        phi = sum((st * to_arb(gt) for st, gt in zip(s, gam)), arb(0))
        w = [st * to_arb(gt) - st * phi for st, gt in zip(s, gam)]  # (diag(s) − ssᵀ)γ, literally
        col = [sum((to_arb(x[r]) * wt for x, wt in zip(Xi, w)), arb(0)) for r in range(d)]
        lp = loss.d1(phi) * sign
        G = [G[r * d + c] + lp * col[r] * to_arb(z[c]) / n for r in range(d) for c in range(d)]
    return G


def kq_evidence(data, prec, model, name, m, printed18, work):
    """(iii): ∇_K = GQ, ∇_Q = GᵀK (or v1's printed GᵀQ, GK) against sympy.diff in the (K,Q) parameters."""
    d, n, T = data.d, data.n, data.T
    feats = features(data, "W")
    f = symbolic_grad_arb(T, d * d, name, "KQ", m)
    rng = random.Random(5)
    K0 = [[Fraction(rng.randint(-9, 9), 7) for _ in range(m)] for _ in range(d)]
    Q0 = [[Fraction(rng.randint(-9, 9), 7) for _ in range(m)] for _ in range(d)]
    tally = ProbeInequality(f"max ‖(∇_K, ∇_Q) − {'(GᵀQ, GK) as printed' if printed18 else '(GQ, GᵀK)'}‖_F / "
                            "(M_G(‖K‖_F + ‖Q‖_F)) at (cK₀, cQ₀), m = " + str(m) + " (iii)", "<=", prec.tolerance,
                            residual=True)
    for sc in KQ_SCALES:
        c = Fraction(sc)
        K = [[c * x for x in row] for row in K0]
        Q = [[c * x for x in row] for row in Q0]
        gK, gQ = kq_gradients(model, K, Q)
        if printed18:
            G = arb_mat(d, d, model.grad([to_arb(sum((K[a][e] * Q[b][e] for e in range(m)), Fraction(0)))
                                          for a in range(d) for b in range(d)]))
            gK = G.transpose() * arb_mat([[to_arb(x) for x in row] for row in Q])
            gQ = G * arb_mat([[to_arb(x) for x in row] for row in K])
        W = [sum((K[a][e] * Q[b][e] for e in range(m)), Fraction(0)) for a in range(d) for b in range(d)]
        a = model.logits([to_arb(x) for x in W])
        spread = max(float(max(x.mid() for x in row)) - float(min(x.mid() for x in row)) for row in a)
        with raised(prec.total, spread):
            psi = [to_arb(x) for row in K for x in row] + [to_arb(x) for row in Q for x in row]
            gs = [sum(col) / n for col in zip(*(f([[to_arb(x) for x in row] for row in Fi], [to_arb(x) for x in gi], psi)
                                               for Fi, gi in zip(feats, data.scores)))]
        eng = gK.entries() + gQ.entries()
        size = norm_enclosure([to_arb(x) for row in K + Q for x in row])
        MG = norm_enclosure(model.grad([to_arb(x) for x in W])) + norm_enclosure(gs)
        tally.add_ratio(norm_enclosure([x - y for x, y in zip(eng, gs)]), MG * size, f"c = {sc}")
        work.advance()
    return tally.evidence()


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.lemma4_cross(), D.d_lmm(), D.d_stat()]


STATEMENT = """\
∇L(W) = (1/n)Σ_i ℓ'(φ_i) X_iᵀ(diag(s_i) − s_is_iᵀ)γ_i z_iᵀ (v1 (13)); for W = KQᵀ, ∇_K L = GQ and ∇_Q L = GᵀK with
G = ∇L(W) (DERIVED; v1 (18) prints GᵀQ and GK); ⟨∇L(W), V⟩ = (1/n)Σ_i ℓ'(φ_i)Cov_{s_i}(γ_i, X_iVz_i).

Certified at exact probe points (up to ‖W‖∞ = 1000) against the engine, the literal formula and sympy's
derivative of the definition, both evaluated in arb with the precision raised by the logit spread.
"""

CLAIM = register(Claim(id="tfsvm.aux.gradient", paper="tfsvm", number="eq. (13), (18)", kind="identity",
                       title="Closed-form gradients of L(W) and L(K,Q); the covariance identity",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("closed-form-gradient", "covariance-identity"),
                       parameters=(
                           Parameter("W", "every W ∈ ℝ^{d×d}", "range",
                                     "0 and 3 seeded directions and ± feature differences at ‖W‖∞ ∈ {1, 10, 100, 1000} "
                                     "(named in the verdict)"),
                           Parameter("V", "every V (covariance identity)", "range", "3 seeded rational V (named in the "
                                                                                  "verdict)"),
                           Parameter("(K, Q)", "every K, Q ∈ ℝ^{d×m} ((18))", "range",
                                     "c·(K₀, Q₀) for one seeded pair, c ∈ {0, 1/2, 1, 3, 10} (named in the verdict)"),
                           Parameter("m", "every width m ((18))", "range", "m = 2 unless `m` is given (named in the "
                                                                          "verdict)",
                                     option="m", kind="integer", low=1, high=6))))
