"""mmts Lemma 13 — the quadrant-restricted joint regularization path converges to (p^relax, v^mm) (App. C.2,
proof (78)–(82)).

Statement (SEED+). Let P = {p : (k_{iα_i} − k_it)ᵀp ≥ 0 for all t ≠ α_i, i ∈ [n]} be the quadrant (77) and
(v̄_r, p̄^P_R) ∈ argmin{L(v, p) : ‖v‖ ≤ r, ‖p‖ ≤ R, p ∈ P} the restricted joint path. Under the hypotheses of
Theorem 6 (logistic loss, v^mm and its support indices S, Assumption C over S, (10) feasible, α asymptotically
selected): p̄^P_R/R → p^relax/‖p^relax‖ and v̄_r/r → v^mm/‖v^mm‖. With Lemma 12 it gives Theorem 6.

How it is checked: the unrestricted joint path (``verify.dynamics.joint_rp``, as Theorem 6) and a certified Tally that
every p̄_R lies in P (every (k_{iα_i} − k_it)ᵀp̄_R ≥ 0, arb): the restricted minimum is ≥ the unrestricted one, so a
minimiser of the unrestricted problem that lies in P is a minimiser of the restricted one. A point outside P is not a
restricted minimiser and the check does not search the restricted problem itself: that is a requirement (INCONCLUSIVE),
never a verdict. Deciding: 1 − corr(v̄_r, v^mm) → 0 and 1 − corr(p̄^P_R, p^relax) → 0 (``rules.decays``).
UNCERTAIN points as Theorem 6 (Assumption C over S; r = R by default).

False case (tests): ``target="pmm"`` (the unrelaxed p^mm(α) as the limit) on Fig. 3(b) → VIOLATED.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, register
from verify.data import mmts as D
from verify.kit.joint import joint_parameters, relaxed_path_outcome
from verify.numbers.precision import Precision

RADII = ("1", "2", "5", "10", "20", "50", "100")


def evaluate(data, prec: Precision, radii=RADII, coupling=Fraction(1), starts: int = 2, seed: int = 0, select="opt",
             target="relax", figure: bool = True):
    return relaxed_path_outcome(data, prec, radii=radii, coupling=coupling, starts=starts, seed=seed, select=select,
                                target=target, quadrant=True, title="Lemma 13", figure=figure)


def check(data, prec: Precision, coupling=Fraction(1)):
    return evaluate(data, prec, coupling=coupling)


def default_datasets(seed: int = 0):
    return [D.mmts_fig3("b")]


STATEMENT = """\
Under the hypotheses of Theorem 6, the joint path restricted to the quadrant P = {(k_{iα_i} − k_it)ᵀp ≥ 0} (77)
satisfies p̄^P_R/R → p^relax/‖p^relax‖ and v̄_r/r → v^mm/‖v^mm‖ (App. C.2).

Evidence over the radii computed (r = R): the unrestricted path's points certified in P (hence restricted minimisers),
both 1 − corr decaying (rules.decays).
"""


CLAIM = register(Claim(id="mmts.lemma13", paper="mmts", number="Lemma 13", kind="asymptotic",
                       title="The quadrant-restricted joint regularization path converges to (p^relax, v^mm)",
                       statement=STATEMENT, check=check, default_datasets=default_datasets,
                       aliases=("restricted-joint-rp",), default_precision=60,
                       parameters=joint_parameters(" over S")))
