"""verify.dynamics.local_regpath: the local regularization path of mmts (9) on a dataset where the loss differences
inside the cone fall below the working precision as R grows (found by properties/test_mmts_directional_properties:
the search stayed at its start R·q̄, so ‖p̄(R)/R − q̄‖ = 0 read as convergence to q and mmts.thm7 said VIOLATED).

Hand derivation (2-D keys, q = (1, 0), p = r(cos θ, sin θ), |θ| ≤ θ_ε = arccos(1 − ε) < 0.15 for ε ≤ 1/100):
input 1, keys (0,0), (0,1), (3,1/2), scores 0, 1, 1/2: the logit gaps token2 − token3 = r(sin θ/2 − 3 cos θ) and
token1 − token3 = −r(3 cos θ + sin θ/2) move weight from scores 1/2 and 0 to score 1 as θ grows (the second's θ-derivative
r(3 sin θ − cos θ/2) < 0 for tan θ < 1/6); input 2, keys (1/2,1), (−1/2,1/2), (0,0), scores 1, 1/2, 0: the gaps
token1 − token3 = r(cos θ/2 + sin θ) and token1 − token2 = r(cos θ + sin θ/2) grow with θ (tan θ < 1/2). So both
outputs increase with θ and the logistic loss decreases: on every sphere the minimiser is on the upper cone edge,
1 − corr(p̄, q) = ε with p̄₂ > 0. At large r input 2's gain (rate ≈ cos θ/2 + sin θ ≤ 0.65) dominates input 1's terms
(rate ≥ 3 cos θ − sin θ/2 ≥ 2.9), so the loss also decreases radially: ‖p̄(R)‖ = R, and
‖p̄(R)/R − q̄‖ = √(2ε) for every large R — a plateau, not convergence to q.
"""
from fractions import Fraction

from flint import arb

from lemmas.mmts import thm7
from verify.claims import run_claim
from verify.data.dataset import loads
from verify.dynamics.local_regpath import local_regularization_path
from verify.numbers.precision import working_precision

SATURATING = """{"X": [[[0, 0, 0], [0, 1, 1], [3, "0.5", "0.5"]], [["0.5", 1, 1], ["-0.5", "0.5", "0.5"], [0, 0, 0]]],
 "Y": [1, 1], "v": [0, 0, 1], "K": [[[0, 0], [0, 1], [3, "0.5"]], [["0.5", 1], ["-0.5", "0.5"], [0, 0]]]}"""


def _data():
    return loads(SATURATING, "saturating-cone")


def _on_the_upper_edge(pt, eps):
    with working_precision(30):
        r = pt.norm
        corr = pt.theta[0] / r
        return abs(1 - corr - arb(eps.numerator) / eps.denominator) < arb(10) ** -12 and pt.theta[1] > 0


def test_the_path_reaches_the_upper_cone_edge_at_every_radius():
    eps = Fraction(1, 100)
    rp = local_regularization_path(_data(), (1, 0), ("20", "100", "300"), eps=eps, R0=1, dps=30, starts=1, svm=False)
    for pt in rp.points:
        assert pt.resolved and _on_the_upper_edge(pt, eps), (pt.R, pt.notes)
        assert "cone edge" in pt.notes and "R" in pt.notes
    # at R = 300 the loss differences in the cone are ~e^{−0.64·300} ≈ 10^{−83}: recomputed above 30 digits
    assert any(n.startswith("recomputed at ") for n in rp.points[-1].notes)
    assert not any(n.startswith("recomputed at ") for n in rp.points[0].notes)


def test_a_precision_cap_below_the_need_leaves_the_point_unresolved():
    rp = local_regularization_path(_data(), (1, 0), ("300",), eps=Fraction(1, 100), R0=1, dps=30, starts=1,
                                   svm=False, max_dps=40)
    (pt,) = rp.points
    assert pt.resolved is False and any(n.startswith("unresolved: ") for n in pt.notes)


def test_theorem_7_holds_on_the_saturating_dataset():
    """q = (1, 0) is not an LMM direction here (p^mm of the locally-optimal α = (3rd, 1st) token is (2/3, 2/3)): the
    theorem's conclusion holds, dist = √(2ε) on the plateau."""
    v = run_claim(thm7.CLAIM, [_data()], dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "evidence", v.reasons
