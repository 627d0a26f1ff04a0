"""mmts Theorem 6 — the general joint (v, p) regularization path: p goes to the relaxed SVM (10), v to v^mm (Sec. 3.2,
eq. (10); proof App. C.2 through Lemmas 12 and 13).

Statement (SEED+; (10) READ from the authors' code and slides). Logistic loss. Let the tokens α be asymptotically
selected along the joint path (lim_R s_{iα_i}(p̄_R) = 1 for every i), v^mm the label SVM (SVM) on x_{iα_i} with support
indices S = {i : Y_i(v^mm)ᵀx_{iα_i} = 1}, Assumption C over S, and (10) feasible:

    p^relax = argmin ‖p‖ s.t. (k_{iα_i} − k_it)ᵀp ≥ 1 (t ≠ α_i, i ∈ S),  ≥ 0 (t ≠ α_i, i ∉ S).

Then v̄_r/r → v^mm/‖v^mm‖ and p̄_R/R → p^relax/‖p^relax‖ for (v̄_r, p̄_R) ∈ argmin_{‖v‖≤r,‖p‖≤R} L(v, p).

UNCERTAIN, what is used: Assumption C restricted to S (the spec's reconstruction: the slides show (10) but not
Theorem 6's hypotheses), decided by ``verify.kit.joint.assumption_c`` with scope S (Fig. 3(b): S = {1, 2}, certified
with ν = 1/4); r = c·R with c = 1 by default (the slides state no coupling; option ``coupling``). The asymptotic
selection hypothesis concerns the path itself: it is read along the computed path (max_i(1 − s_iα_i(p̄_R)) → 0 by
``rules.decays``), evidence like the conclusion.

How it is checked: as Theorem 5 (``verify.dynamics.joint_rp``, requirements of ``verify.kit.joint``), with the
deciding items 1 − corr(v̄_r, v^mm) → 0 and 1 − corr(p̄_R, p^relax) → 0 (``rules.decays``). Spec numbers (Fig. 3(b),
R = 5, 10, 20): p: 4.7e−3, 1.2e−3, 3.0e−4; v: 2.0e−6, 1.0e−8, 1.5e−13 (reproduced; R = 50 and 100 are resolved at
60 digits, where float64 failed).

False cases (tests): ``target="pmm"`` predicts the unrelaxed p^mm(α) = (5/4, 1/4) on Fig. 3(b): 1 − corr grows to
1 − 5/√26 → VIOLATED (a plateau); a dataset where (10)'s constraints are infeasible → NOT_APPLICABLE naming (10).
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
                                target=target, title="Theorem 6", figure=figure)


def check(data, prec: Precision, coupling=Fraction(1)):
    return evaluate(data, prec, coupling=coupling)


def default_datasets(seed: int = 0):
    return [D.mmts_fig3("b")]


STATEMENT = """\
Logistic loss; α asymptotically selected along the joint path; v^mm the label SVM on x_{iα_i}, S its support indices,
Assumption C over S; (10) feasible. Then v̄_r/r → v^mm/‖v^mm‖ and p̄_R/R → p^relax/‖p^relax‖, p^relax the relaxed SVM
(10): margin 1 on S, mere selection (≥ 0) off S (Sec. 3.2, App. C.2).

Evidence over the radii computed (r = R): as Theorem 5, with p^relax as the p limit (rules.decays).
"""

CLAIM = register(Claim(id="mmts.thm6", paper="mmts", number="Theorem 6", kind="asymptotic",
                       title="The joint (v, p) regularization path converges to (p^relax, v^mm): the relaxed SVM (10)",
                       statement=STATEMENT, check=check, default_datasets=default_datasets,
                       aliases=("joint-rp-relaxed-svm",), default_precision=60, parameters=joint_parameters(" over S")))
