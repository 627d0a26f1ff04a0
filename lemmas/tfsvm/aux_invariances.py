"""tfsvm auxiliary fact — invariances of L(W): GD moves in an affine subspace; (K,Q) flow conserves KᵀK − QᵀQ.

Statement (DERIVED here; v1 uses it implicitly when it compares directions). L(W) depends on W only through the
logits X_iWz_i modulo a constant per sequence, i.e. through the linear forms ⟨(x_i1 − x_it)z_iᵀ, W⟩. Let
S = span{(x_iτ − x_it)z_iᵀ} and N = S^⊥ = {V : (x_i1 − x_it)ᵀVz_i = 0 ∀ i, t}. Then
  (a) L(W + V) = L(W) for every V ∈ N;
  (b) ∇L(W) ∈ S for every W (∇L = (1/n)Σ_it w_it x_itz_iᵀ with Σ_t w_it = 0), so ⟨∇L(W), V⟩ = 0 on N;
  (c) W-GD keeps W(k) − W(0) ∈ S for every step size: start direction checks at 0 or project W(0);
  (d) along the (K,Q) gradient flow d/dt(KᵀK − QᵀQ) = −(∇_Kᵀ K + Kᵀ∇_K) + (∇_Qᵀ Q + Qᵀ∇_Q) = 0, since
      ∇_K = GQ, ∇_Q = GᵀK make both brackets QᵀGᵀK + KᵀGQ.
Hypotheses: Assumption A (the loss used, certified); N ≠ {0}, i.e. rank of the difference rows < d² (exact):
otherwise (a)–(c) are vacuous (NOT_APPLICABLE).
How it is checked. (a) exact: every basis vector of N (exact, from the rref) annihilates every difference row;
and by enclosures (L − L⋆)(W + cV) = (L − L⋆)(W) to 10^-dps relative (c ∈ {1, 100}, excess losses without
cancellation) at the probe points; (b) |⟨∇L(W), V⟩| ≤ 10^-dps·Σ_k|∇L_k V_k| at the probe points; (c) 200
W-GD steps (η = 1/L_W rounded down, from a seeded W(0)) in balls, |⟨W(k) − W(0), V⟩| ≤ 10^-dps·Σ|ΔW_j V_j| at
every step; (d) the derivative of KᵀK − QᵀQ vanishes (m = 2) at seeded (cK₀, cQ₀), relative to
‖∇_K‖‖K‖ + ‖∇_Q‖‖Q‖. Every item a Tally; probe points: seeded directions and ± feature differences at
‖W‖∞ ∈ {0, 1, 10, 100}.
False cases (tests): claiming a direction outside N (a difference row itself) invariant → VIOLATED (exact and
by the loss); n = 1, T = 2, d = 1 (N = {0}) → NOT_APPLICABLE.
"""
from __future__ import annotations

import random
from fractions import Fraction

from flint import arb, arb_mat

from verify.claims import Claim, Evidence, Hypothesis, Outcome, register, steps
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.generators import random_dataset
from verify.geometry.probes import directions, scaled
from verify.geometry.stationarity import smoothness_W
from verify.geometry.tfsvm import difference_rows, kq_gradients, null_basis
from verify.kit.assumptions import assumption_a
from verify.kit.probe_inequality import ProbeInequality, point_label
from verify.models.attention import LinearLogitModel, features
from verify.models.losses import get_loss
from verify.numbers.exact import rank, rational_below
from verify.numbers.precision import Precision, to_arb

SCALES = ("0", "1", "10", "100")
KQ_SCALES = (Fraction(1, 2), Fraction(1), Fraction(3), Fraction(10))  # (d): (K, Q) = c·(K₀, Q₀)


def evaluate(data, prec: Precision, loss="logistic", invariant=None, gd_steps: int = 200, m: int = 2) -> Outcome:
    """``invariant``: directions claimed to lie in N (default: the exact basis of N)."""
    d2 = data.d ** 2
    rows = difference_rows(data)
    r = rank(rows) if any(any(x) for x in rows) else 0
    out = Outcome(hypotheses=[assumption_a(loss, data, f"Assumption A ({get_loss(loss).name})"),
                              Hypothesis("a nontrivial invariant direction exists (rank of the rows (x_i1 − x_it)⊗z_i < d²)",
                                         r < d2, f"rank {r}, d² = {d2}")])
    if not out.applicable():
        return out
    basis = null_basis(rows, d2) if invariant is None else [tuple(Fraction(x) for x in v) for v in invariant]
    out.add(Evidence("every claimed invariant direction V annihilates every difference row (a), exact",
                     all(sum((a * b for a, b in zip(row, v)), Fraction(0)) == 0 for row in rows for v in basis),
                     "==", True, note=f"dim N = {d2 - r}; {len(basis)} direction(s) checked"))
    model = LinearLogitModel.from_dataset(data, "W", loss)
    feats, tol = features(data, "W"), prec.tolerance
    pts = [tuple(Fraction(0) for _ in range(d2))] + [scaled(v, sc) for v in directions(feats, 3, seed=0) for sc in SCALES[1:]]
    same = ProbeInequality("max |(L − L⋆)(W + cV) − (L − L⋆)(W)| / (L − L⋆)(W), c ∈ {1, 100} (a)", "<=", tol, residual=True)
    orth = ProbeInequality("max |⟨∇L(W), V⟩| / Σ_k|∇L_k V_k| (b)", "<=", tol, residual=True)
    work = steps(len(pts) + gd_steps, "probe points and GD steps")
    for p in pts:
        th = [to_arb(x) for x in p]
        g, ex = model.grad(th), model.excess(th)
        for k, v in enumerate(basis):
            where = f"{point_label(p, 4)}, V{k}"
            for c in (1, 100):
                ex2 = model.excess([to_arb(x + c * y) for x, y in zip(p, v)])
                same.add_ratio(abs(ex2 - ex), ex, f"{where}, c = {c}")
            orth.add_ratio(abs(sum((x * to_arb(y) for x, y in zip(g, v)), arb(0))),
                           sum((abs(x * to_arb(y)) for x, y in zip(g, v)), arb(0)), where)
        work.advance()
    out.add(same.evidence(), orth.evidence())
    out.add(gd_evidence(model, data, basis, gd_steps, tol, work, loss))
    out.add(kq_evidence(model, data, m, tol))
    out.cover(f"W at {len(pts)} probe points (0; 3 seeded directions and ± feature differences × ‖W‖∞ ∈ "
              f"{{{', '.join(SCALES[1:])}}}); (c) one seeded W(0), η = 1/L_W rounded down, k ≤ {gd_steps}; (d) "
              f"(K, Q) = c·(K₀, Q₀) seeded, c ∈ {{{', '.join(map(str, KQ_SCALES))}}}, m = {m}")
    return out


def gd_evidence(model, data, basis, gd_steps, tol, work, loss):
    """(c): W(k) − W(0) ⊥ N along W-GD (balls throughout)."""
    LW = smoothness_W(data, loss)
    eta = rational_below(1 / LW) if LW > 0 else Fraction(1)  # L_W = 0: L is constant, any step
    rng = random.Random(7)
    w0 = [to_arb(Fraction(rng.randint(-9, 9), 4)) for _ in range(data.d ** 2)]
    tally = ProbeInequality(f"max |⟨W(k) − W(0), V⟩| / Σ_j|ΔW_j V_j| over {gd_steps} W-GD steps, η = {eta} (c)",
                            "<=", tol, residual=True)
    w = list(w0)
    for k in range(1, gd_steps + 1):
        w = [x - to_arb(eta) * y for x, y in zip(w, model.grad(w))]
        dw = [x - y for x, y in zip(w, w0)]
        for j, v in enumerate(basis):
            tally.add_ratio(abs(sum((x * to_arb(y) for x, y in zip(dw, v)), arb(0))),
                            sum((abs(x * to_arb(y)) for x, y in zip(dw, v)), arb(0)), f"step {k}, V{j}")
        work.advance()
    return tally.evidence("W(0) seeded (not in S)")


def kq_evidence(model, data, m, tol):
    """(d): ∇_Kᵀ K + Kᵀ∇_K − ∇_Qᵀ Q − Qᵀ∇_Q = 0 at seeded (cK₀, cQ₀)."""
    d = data.d
    rng = random.Random(5)
    K0 = [[Fraction(rng.randint(-9, 9), 7) for _ in range(m)] for _ in range(d)]
    Q0 = [[Fraction(rng.randint(-9, 9), 7) for _ in range(m)] for _ in range(d)]
    tally = ProbeInequality(f"max ‖d/dt(KᵀK − QᵀQ)‖_F / (‖∇_K‖_F‖K‖_F + ‖∇_Q‖_F‖Q‖_F) along the flow, m = {m} (d)",
                            "<=", tol, residual=True)
    for c in KQ_SCALES:
        K = arb_mat([[to_arb(c * x) for x in row] for row in K0])
        Q = arb_mat([[to_arb(c * x) for x in row] for row in Q0])
        gK, gQ = kq_gradients(model, K.tolist(), Q.tolist())
        R = gK.transpose() * K + K.transpose() * gK - gQ.transpose() * Q - Q.transpose() * gQ

        def fro(M):
            return sum((x * x for x in M.entries()), arb(0)).sqrt()

        res = sum((abs(x) for x in R.entries()), arb(0))
        tally.add_ratio(res, fro(gK) * fro(K) + fro(gQ) * fro(Q), f"c = {c}")
    return tally.evidence("entrywise sum of |·| of the derivative")


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.d_lmm(), D.d_nb(),
            random_dataset(n=2, T=3, d=3, seed=seed, queries=True, name=f"random-n2T3d3-z-s{seed}")]


STATEMENT = """\
L(W) depends on W only through ⟨(x_i1 − x_it)z_iᵀ, W⟩: with S their span and N = S^⊥, L(W + V) = L(W) for V ∈ N,
∇L(W) ∈ S, W-GD keeps W(k) − W(0) ∈ S, and the (K,Q) gradient flow conserves KᵀK − QᵀQ (DERIVED).

N from an exact basis; the loss, the gradient, 200 GD steps and the flow's derivative certified by enclosures.
"""

CLAIM = register(Claim(id="tfsvm.aux.invariances", paper="tfsvm", number="(auxiliary)", kind="identity",
                       title="Loss invariances; GD stays in an affine subspace; (K,Q) flow conserves KᵀK − QᵀQ",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("gd-affine-subspace", "kq-balancedness"),
                       parameters=(
                           Parameter("V", "every V ∈ N", "hardest",
                                     "an exact basis of N: the exact annihilation item is linear in V, so it covers all "
                                     "of N; (a)–(c) by enclosures along each basis vector"),
                           Parameter("W", "every W ((a), (b))", "range",
                                     "0 and 3 seeded directions and ± feature differences at ‖W‖∞ ∈ {1, 10, 100} "
                                     "(named in the verdict)"),
                           Parameter("η, W(0)", "(c) every step size, any W(0), every k", "range",
                                     "η = 1/L_W rounded down from one seeded W(0), k ≤ `gd_steps` = 200 (named in the "
                                     "verdict)", option="gd_steps", kind="integer", low=1, high=10000),
                           Parameter("(K, Q)", "(d) every K, Q ∈ ℝ^{d×m}", "range",
                                     "c·(K₀, Q₀) for one seeded pair, c ∈ {1/2, 1, 3, 10}, m = 2 (named in the verdict)",
                                     option="m", kind="integer", low=1, high=6))))
