"""tfsvm Lemma 4 — Lipschitz gradients of L(W) and of L(K,Q) (v1 §4.1, App. A.3, eq. (19)).

Statement (as printed in v1). Under Assumption A (on [−B, B], B = max|γ_it|: ℓ strictly decreasing,
ℓ' M₀-Lipschitz, |ℓ'| ≤ M₁), with spectral norms:
  (a) ∇L(W) is L_W-Lipschitz in ‖·‖_F,  L_W = (1/n)Σ_i ‖v‖‖z_i‖²‖X_i‖³(M₀‖v‖‖X_i‖ + 3M₁);
  (b) ∇_K L(·,Q) is L_K-Lipschitz with L_K = ‖Q‖L_W, and ∇_Q L(K,·) is L_Q-Lipschitz with L_Q = ‖K‖L_W.

FLAWED in v1: (b) is false. App. A.3 eq. (19) drops a factor: ‖(G(KQ₁ᵀ) − G(KQ₂ᵀ))ᵀK‖_F ≤
‖K‖·L_W‖K(Q₁ − Q₂)ᵀ‖_F ≤ ‖K‖²L_W‖Q₁ − Q₂‖_F, so what survives is L_K = ‖Q‖²L_W, L_Q = ‖K‖²L_W
(DERIVED here, that inequality chain). The printed constants are linear in ‖K‖ while the partial
curvature grows like ‖K‖² (near Q = 0, ∇_Q L(K,·) moves like K ⊗ K times ∇²L(0)), so they fail for
large ‖K‖ on every dataset with curvature at W = 0: on the one-token false case (n = T−1 = d = m = 1,
x = (1, −1), v = z = Y = 1, logistic) the difference quotient at Q = 0 is K²·ℓ''(0) = K²/4 against
K·L_W = K(1 + 6√2), violated from K ≈ 38 on. (a) holds, loosely (‖∇²L‖₂/L_W ≈ 10⁻³–10⁻¹ here).

Hypotheses. Assumption A for each loss used (certified by interval evaluation).
How it is checked. (a), per loss (logistic, exponential, correlation): ‖∇²L(W)‖₂/L_W ≤ 1 at every probe
point of W-space (seeded directions and ± feature differences at ‖W‖∞ up to 1000, split-attention ties,
plus 3 local maxima of a float64 search) — rigorous Hessian enclosures, a Tally; and the Lipschitz
quotient ‖∇L(A) − ∇L(B)‖_F/(L_W‖A − B‖_F) ≤ 1 between consecutive probe points (logistic). (b), logistic,
m = 1 (so ‖K‖₂ = ‖K‖_F and the reading of ‖·‖ does not matter): along the directions (u, e) of largest
curvature at W = 0 (proposed in float64, ``verify.geometry.tfsvm``), K = c·u fixed and Q: 0 → h·e
(h = 1/(1000c)), and Q = c·e fixed and K: 0 → h·u, for c ∈ {1, 10, 10², 10³, 10⁴} and the decade above
4× the predicted threshold: the certified quotient ‖Δ∇_Q‖_F/‖ΔQ‖_F ≤ ‖K‖·L_W (printed; ``constants=
"corrected"``: ‖K‖²L_W), a Tally per part whose first violation names the point — the witness.
False cases (tests): the printed (b) → VIOLATED on the false case and on ``lemma4_cross``; (a) alone
and the corrected (b) → HOLDS; a square loss (ℓ' > 0 past its centre) → NOT_APPLICABLE.
"""
from __future__ import annotations

import math
from fractions import Fraction

from verify.claims import Claim, Evidence, Outcome, register
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.generators import random_dataset
from verify.geometry.probes import probe_points
from verify.geometry.smoothness import hessian_local_maxima, hessian_norm
from verify.geometry.stationarity import smoothness_W
from verify.geometry.tfsvm import kq_directions, kq_probe
from verify.kit.assumptions import assumption_a
from verify.kit.probe_inequality import ProbeInequality, point_label
from verify.models.attention import LinearLogitModel, features
from verify.models.losses import get_loss
from verify.numbers.linalg import norm_enclosure
from verify.numbers.precision import Precision, to_arb, to_decimal_string

LOSSES = ("logistic", "exponential", "correlation")
LADDER = (1, 10, 100, 1000, 10000)


def evaluate(data, prec: Precision, constants: str = "printed", parts=("W", "KQ"), losses=LOSSES,
             search: bool = True) -> Outcome:
    """(a) if "W" in ``parts`` for each of ``losses``; (b) if "KQ" in ``parts`` (logistic) with the
    printed constants ‖·‖L_W or, ``constants="corrected"``, ‖·‖²L_W."""
    names = list(dict.fromkeys(list(losses) + (["logistic"] if "KQ" in parts else [])))
    out = Outcome(hypotheses=[assumption_a(nm, data, f"Assumption A ({get_loss(nm).name})") for nm in names])
    if not out.applicable():
        return out
    LW = {nm: smoothness_W(data, nm) for nm in names}
    for nm in names:
        out.add(Evidence(f"{get_loss(nm).name}: L_W = (1/n)Σ‖v‖‖z_i‖²‖X_i‖³(M₀‖v‖‖X_i‖ + 3M₁)", LW[nm]))
    feats = features(data, "W")
    if "W" in parts:
        pts = probe_points(feats, data.optimal_tokens())
        for nm in losses:
            model = LinearLogitModel.from_dataset(data, "W", nm)
            norms = {p: hessian_norm(model.hessian([to_arb(x) for x in p])) for p in pts}
            ranked = sorted(pts, key=lambda p: -float(norms[p].mid()))[:3]
            found = hessian_local_maxima(data.replace(K=feats), nm, ranked) if search else []
            for p in found:
                norms[p] = hessian_norm(model.hessian([to_arb(x) for x in p]))
            tally = ProbeInequality(f"{get_loss(nm).name}: max ‖∇²L(W)‖₂ / L_W over {len(pts)} probe points + "
                                    f"{len(found)} local maxima (a)", "<=", 1)
            for p in list(pts) + list(found):
                tally.add_ratio(norms[p], LW[nm], ("locally maximised " if p in found else "") + point_label(p, 4))
            out.add(tally.evidence("W = vec⁻¹(p), row-major"))
            if nm == "logistic":
                grads = [model.grad([to_arb(x) for x in p]) for p in pts]
                lip = ProbeInequality("logistic: max ‖∇L(A) − ∇L(B)‖_F / (L_W‖A − B‖_F) over consecutive probe "
                                      "points (a)", "<=", 1)
                for k in range(1, len(pts)):
                    dw = norm_enclosure([to_arb(a - b) for a, b in zip(pts[k], pts[k - 1])])
                    lip.add_ratio(norm_enclosure([a - b for a, b in zip(grads[k], grads[k - 1])]), LW[nm] * dw,
                                  f"{point_label(pts[k - 1], 4)} → {point_label(pts[k], 4)}")
                out.add(lip.evidence())
    if "KQ" in parts:
        kq_part(out, data, LW["logistic"], constants)
    if "W" in parts:
        out.cover(f"(a) W at {len(pts)} probe points" + (" and local maxima of a float64 search" if search else ""))
    if "KQ" in parts:
        out.cover("(b) m = 1")
    return out


def kq_part(out: Outcome, data, LW, constants: str) -> None:
    """(b): the partial Lipschitz quotients along the directions of largest curvature at W = 0."""
    power = 1 if constants == "printed" else 2
    model = LinearLogitModel.from_dataset(data, "W", "logistic")
    best = kq_directions(model, data.d)
    for part, fixed, moving in (("Q", "K", "Q"), ("K", "Q", "K")):
        u, e, rho = best[part]
        size = math.sqrt(sum(float(x) ** 2 for x in (u if part == "Q" else e)))
        ladder = list(LADDER)
        if rho > 0:  # the decade above 4× the predicted threshold c = L_W/(ρ‖·‖) of the printed constant
            top = 10 ** max(0, math.ceil(math.log10(4 * float(LW.mid()) / (rho * size))))
            ladder += [top] if top not in ladder else []
        label = f"‖{fixed}‖{'²' if power == 2 else ''}·L_W"
        tally = ProbeInequality(f"max ‖∇_{moving}L({'K,·' if part == 'Q' else '·,Q'}) difference‖_F / "
                                f"(‖Δ{moving}‖_F·{label}) ({'printed' if power == 1 else 'corrected'} L_{moving}, (b))",
                                "<=", 1)
        threshold = None
        for c in ladder:
            ratio, fnorm = kq_probe(model, part, u, e, c, Fraction(1, 1000 * c))
            where = (f"{fixed} = {c}·({', '.join(map(str, u if part == 'Q' else e))}), {moving}: 0 → "
                     f"(1/{1000 * c})·({', '.join(map(str, e if part == 'Q' else u))}): quotient "
                     f"{to_decimal_string(ratio, 8)} vs {label} = {to_decimal_string(fnorm ** power * LW, 8)}")
            tally.add_ratio(ratio, fnorm ** power * LW, where)
            if c == 1 and ratio > 0:  # quotient ≈ c²·ρ‖·‖² against c‖·‖L_W: the printed constant fails past this c
                threshold = LW * fnorm ** 2 / ratio
        out.add(tally.evidence("m = 1, so ‖·‖₂ = ‖·‖_F; the first violation is the witness"))
        if threshold is not None:
            out.add(Evidence(f"‖{fixed}‖ from which the printed L_{moving} fails along this direction "
                             f"(≈ L_W‖·‖²/quotient at c = 1)", threshold))


def default_datasets(seed: int = 0):
    return [D.lemma4_spec(), D.lemma4_cross(), D.d_t2(),
            random_dataset(n=2, T=3, d=2, seed=seed, queries=True, name=f"random-n2T3d2-z-s{seed}")]


STATEMENT = """\
Under Assumption A: ∇L(W) is L_W-Lipschitz, L_W = (1/n)Σ_i ‖v‖‖z_i‖²‖X_i‖³(M₀‖v‖‖X_i‖ + 3M₁) (spectral norms);
∇_K L(·,Q) is ‖Q‖L_W-Lipschitz and ∇_Q L(K,·) is ‖K‖L_W-Lipschitz (v1 §4.1, App. A.3).

FLAWED in v1: the (K,Q) constants need ‖Q‖²L_W and ‖K‖²L_W (eq. (19) drops a factor); the printed ones fail for
large ‖K‖, ‖Q‖ (certified witnesses). L_W is checked at every probe point by rigorous Hessian enclosures.
"""

CLAIM = register(Claim(id="tfsvm.lemma4", paper="tfsvm", number="Lemma 4", kind="inequality",
                       title="Lipschitz gradients: L_W (holds) and the printed L_K = ‖Q‖L_W, L_Q = ‖K‖L_W (FLAWED-v1)",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("smoothness", "smoothness-W"),
                       parameters=(
                           Parameter("W, W′", "(a) for all W, W′", "range",
                                     "‖∇²L(W)‖₂ ≤ L_W at the probe points (‖W‖∞ ≤ 1000, ties) and 3 local maxima of a "
                                     "float64 search; the quotient between consecutive probe points (named in the "
                                     "verdict)"),
                           Parameter("K, Q", "(b) for all K, Q₁, Q₂ (and Q, K₁, K₂)", "hardest",
                                     "along the direction pair of largest curvature at W = 0 (proposed in float64), at "
                                     "‖K‖ = c·{1 … 10⁴} and the decade above 4× the predicted threshold of the "
                                     "printed constant"),
                           Parameter("m", "(b) every width m", "range", "m = 1 (‖·‖₂ = ‖·‖_F) (named in the verdict)"))))
