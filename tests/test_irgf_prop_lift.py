"""irgf.prop.lift: the lift of (42)'s solution is nuclear-optimal (exact certificate); a wrong basis is refused."""
from fractions import Fraction

from lemmas.irgf import prop_lift
from verify.claims import run_claim
from verify.data.irgf import d_a4, d_a4_shift, d_seed0, random_a4_dataset
from verify.kit import irgf_kq as G
from verify.kit.irgf import assumption4
from verify.numbers.precision import working_precision


def _closed_form(data):
    """b_i = max_pairs 1/((1 − c)|⟨x_opt, z_i⟩|), computed here from the raw data (c = ⟨x_opt, x_a⟩/‖x_opt‖²)."""
    out = []
    for i in range(data.n):
        g = data.scores[i]
        o = g.index(max(g))
        xo, z = data.X[i][o], data.queries()[i]
        dot = lambda p, q: sum(a * b for a, b in zip(p, q))  # noqa: E731
        cs = [dot(xo, data.X[i][t]) / dot(xo, xo) for t in range(data.T) if t != o]
        out.append(max(1 / ((1 - c) * abs(dot(xo, z))) for c in cs))
    return out


def test_defaults_certified():
    v = run_claim(prop_lift.CLAIM, prop_lift.CLAIM.default_datasets(), dps=20)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_d_a4_spec_numbers():
    _, _, info = assumption4(d_a4())
    L = G.lifted_solution(d_a4(), info)
    assert L.W == [[Fraction(2, 5), 0, 0], [0, 1, 0], [0, 0, 0]]  # spec: W° = Diag(0.4, 1.0, 0)
    assert L.cert.t == Fraction(7, 5) and L.cert.passed  # spec: p*_nuc = 1.4


def test_seeded_solution_matches_an_independent_closed_form():
    data = random_a4_dataset(n=3, L=5, d=4, seed=1)
    _, _, info = assumption4(data)
    L = G.lifted_solution(data, info)
    assert L.beta[:3] == _closed_form(data) and L.beta[3] == 0 and L.cert.passed


def test_psd_decision_both_sides():
    assert G.psd([[2, 1], [1, 2]])[0] and G.psd([[1, 1], [1, 1]])[0]  # eigenvalues {1, 3}, {0, 2}
    assert not G.psd([[1, 2], [2, 1]])[0]  # eigenvalue −1
    assert not G.psd([[0, 0], [0, Fraction(-1, 10**30)]])[0]


def test_wrong_basis_violated_certified_and_not_applicable():
    with working_precision(20) as prec:
        out = prop_lift.evaluate(d_a4(), prec, flip=1, check_hypotheses=False)
    assert out.decide() == "VIOLATED" and out.decision().certainty == "certified"
    feas = next(e for e in out.evidence if "feasibility" in e.quantity)
    assert feas.value == -2  # the flipped term negates sequence 2's margins: −1 − 1
    with working_precision(20) as prec:
        out = prop_lift.evaluate(d_a4(), prec, flip=1)
    assert out.decide() == "NOT_APPLICABLE" and any("(7)" in h.name and not h.met for h in out.hypotheses)


def test_assumption4_fails_not_applicable():
    for data in (d_a4_shift(), d_seed0()):
        with working_precision(20) as prec:
            out = prop_lift.evaluate(data, prec)
        assert out.decide() == "NOT_APPLICABLE"
        assert [h.name for h in out.hypotheses if not h.met][0].startswith("Assumption 4 (irgf.asm4)")
