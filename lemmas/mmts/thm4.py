"""mmts Theorem 4 — local regularization paths can converge only to LMM directions (Sec. 2.3, eq. (9)).

Statement (SEED+). Let q be a unit direction with q ∉ P^mm (not the direction of p^mm(α) for any locally-optimal α,
Definition 2), scores distinct (γ_it ≠ γ_iτ for t ≠ τ), Assumption A, and any ε > 0, R₀ > 0. The local
regularization path (9) p̄(R) = argmin{L(p) : p ∈ C_{ε,R₀}(q), ‖p‖ ≤ R} satisfies: either lim_R ‖p̄(R)‖ < ∞ or
lim_R p̄(R)/R ≠ q — in both cases p̄(R)/R ↛ q. (The appendix version with the general-position bullets is
``mmts.thm7``.) Proof cases: (A1) q neighbour-optimal but not max-margin: p^mm(σ) inside the cone beats it
(Lemma 8 (i)); (A2) not neighbour-optimal: a finite-norm point beats all large-norm points (Lemma 9): bounded path;
(B) ties in σ: break them toward the highest score.

Hypotheses and how it is checked: ``verify.kit.local_paths`` (exact hypotheses; the local path at the working
precision for ε ∈ {1/100, 1/1000}, R₀ = 1, R ≤ 1000; ‖p̄(R)/R − q̄‖ ↛ 0 by ``rules.stays_away``: evidence).
Datasets: the figures' keys (x₁, x₂, 0) taken as 2-D keys (``verify.geometry.directional.planar``). Spec numbers
(Fig. 1(b′), q = (1,0), R₀ = 1, ε ∈ {0.01, 0.001}): the minimiser is ‖p̄‖ = R₀ = 1 at the cone edge for every
R ∈ {5, …, 1000} (case A2, bounded). Fig. 1(b) with q ∝ (1, 1/4) (neighbour-optimal, not max-margin, case A1): the
path stays at the cone edge toward the LMM (1,0) and its norm stops growing (≈ 9.02 for ε = 1/100).

False cases (tests): q = (1,0) on Fig. 1(b) is the LMM direction → NOT_APPLICABLE naming q ∉ P^mm; with
``require_non_lmm=False`` the path converges to q (1 − corr = 0 to the working precision from R = 50 at ε = 1/500,
the spec's positive control) and the conclusion is VIOLATED (evidence); tied scores (Fig. 1(a)) → NOT_APPLICABLE
naming distinct scores.
"""
from __future__ import annotations

from verify.claims import Claim, register
from verify.kit.local_paths import PARAMETERS, default_datasets
from verify.kit.local_paths import check as local_path_check
from verify.numbers.precision import Precision


def evaluate(data, prec: Precision, q=None, require_non_lmm: bool = True, eps=None, R0=None, radii=None,
             figure: bool = True):
    return local_path_check(data, prec, general=False, title="Theorem 4", q=q, require_non_lmm=require_non_lmm,
                            eps=eps, R0=R0, radii=radii, figure=figure)


STATEMENT = """\
For a unit q ∉ P^mm, distinct scores, Assumption A and any ε, R₀ > 0, the local regularization path
p̄(R) = argmin{L(p) : p ∈ C_{ε,R₀}(q), ‖p‖ ≤ R} has lim ‖p̄(R)‖ < ∞ or lim p̄(R)/R ≠ q (Sec. 2.3, (9)).

Evidence over R ≤ 1000: ‖p̄(R)/R − q̄‖ stays away from 0 (rules.stays_away) for ε ∈ {1/100, 1/1000}, R₀ = 1.
"""

CLAIM = register(Claim(id="mmts.thm4", paper="mmts", number="Theorem 4", kind="asymptotic",
                       title="Local regularization paths converge in direction only to LMM directions",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("local-rp-only-lmm",), default_precision=30,
                       parameters=PARAMETERS))
