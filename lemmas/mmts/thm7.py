"""mmts Theorem 7 — a local regularization path around a non-LMM direction fails to converge to it (App. B.5.2,
(66)–(67)); the appendix version of Theorem 4 (``mmts.thm4``) with the general-position bullets explicit.

Statement (SEED+). Keys in general position (§3: every matrix of ≤ d distinct key differences has full row rank;
with > d rows, 𝟙 ∉ range(M)), distinct scores, Assumption A; q a unit direction with q ∉ P^mm; any ε, R₀ > 0. Then
the local path p̄(R) = argmin{L(p) : p ∈ C_{ε,R₀}(q), ‖p‖ ≤ R} has lim ‖p̄(R)‖ < ∞ or lim p̄(R)/R ≠ q.
UNCERTAIN in the spec (item 13): which difference matrices the bullets range over; reading used: the star matrices
k_iσ_i − k_it the proof forms (``verify.geometry.directional``, where the reason is given), decided exactly.

How it is checked: as Theorem 4 (``verify.kit.local_paths``), with general position as a further hypothesis, on the
figures' data with 2-D keys (``planar``; with the zero third key coordinate kept, no 3 rows could have full rank).

False cases (tests): the LMM direction (1,0) on Fig. 1(b) → NOT_APPLICABLE (q ∈ P^mm), and VIOLATED (evidence) with
``require_non_lmm=False``; keys not in general position (the spec's Lemma 10 example, d = 2, three tied neighbours)
→ NOT_APPLICABLE naming general position.
"""
from __future__ import annotations

from verify.claims import Claim, register
from verify.kit.local_paths import PARAMETERS, default_datasets
from verify.kit.local_paths import check as local_path_check
from verify.numbers.precision import Precision


def evaluate(data, prec: Precision, q=None, require_non_lmm: bool = True, eps=None, R0=None, radii=None,
             figure: bool = True):
    return local_path_check(data, prec, general=True, title="Theorem 7", q=q, require_non_lmm=require_non_lmm,
                            eps=eps, R0=R0, radii=radii, figure=figure)


STATEMENT = """\
Keys in general position, distinct scores, Assumption A, q ∉ P^mm, any ε, R₀ > 0: the local regularization path
in C_{ε,R₀}(q) ∩ {‖p‖ ≤ R} has lim ‖p̄(R)‖ < ∞ or lim p̄(R)/R ≠ q (App. B.5.2, (66)–(67)).

Evidence over R ≤ 1000: ‖p̄(R)/R − q̄‖ stays away from 0 (rules.stays_away) for ε ∈ {1/100, 1/1000}, R₀ = 1.
"""

CLAIM = register(Claim(id="mmts.thm7", paper="mmts", number="Theorem 7", kind="asymptotic",
                       title="Local regularization paths around a non-LMM direction fail to converge to it "
                             "(general position)", statement=STATEMENT, check=evaluate,
                       default_datasets=default_datasets, aliases=("non-lomm-rp-fails",), default_precision=30,
                       parameters=PARAMETERS))
