"""tfsvm Theorems 4/5 at the edges (T = 2, n = 1 and 2, near-tied scores, rank-1 queries): the trap reduction is
exactly one GD step on every T = 2, n = 2 dataset; a proven trap certificate is never contradicted by the GD
iterates; on n = 1 data (B.2 holds as T = 2, so the surviving case) Theorem 4 is never VIOLATED."""
from fractions import Fraction

from flint import arb
from hypothesis import assume, given
from hypothesis import strategies as st

from lemmas.tfsvm import thm4
from properties.strategies import datasets, exact_rationals, examples, save_failure
from verify.data.dataset import Dataset
from verify.geometry.trap import t2_coordinates, t2_reduction, trap_certificate
from verify.kit.global_descent import gd_checkpoints, step_size_W
from verify.models.attention import LinearLogitModel, one_minus_corr
from verify.numbers.precision import to_arb, working_precision
from verify.svm import solve_svm

small = exact_rationals(-3, 3, 4)


@st.composite
def t2_pairs(draw):
    """n = 2, T = 2 with queries per sequence, or one shared query (rank-1 Z, parallel features)."""
    data = draw(datasets(max_n=2, max_T=2, max_d=2))
    assume(data.n == 2 and data.T == 2)
    if draw(st.booleans()):
        z = [list(data.X[0][0])] * 2
    else:
        z = [[draw(small) for _ in range(data.d)] for _ in range(2)]
    assume(any(x for row in z for x in row))
    return data.replace(z=z)


@st.composite
def trap_family(draw):
    """The D-T2 family: x_i2 = 0, x_i1 = u_i, u₂ = k·u₁ + e, z₂ = z₁ + f (e, f possibly 0: rank-1 queries,
    parallel features, det ĝ = 0), labels making token 1 optimal in sequence 1 and token 2 in sequence 2."""
    d = draw(st.integers(1, 3))
    vec = st.lists(small, min_size=d, max_size=d).filter(any)
    u1, z1, v = draw(vec), draw(vec), draw(vec)
    k = draw(st.sampled_from((Fraction(3, 2), Fraction(2), Fraction(3))))
    e = [x / 8 for x in draw(st.lists(small, min_size=d, max_size=d))]
    f = [x / 8 for x in draw(st.lists(small, min_size=d, max_size=d))]
    u2 = [k * a + b for a, b in zip(u1, e)]
    z2 = [a + b for a, b in zip(z1, f)]
    s1, s2 = sum(a * b for a, b in zip(v, u1)), sum(a * b for a, b in zip(v, u2))
    assume(s1 != 0 and s2 != 0 and any(z2))
    Y = [1 if s1 > 0 else -1, -1 if s2 > 0 else 1]
    return Dataset.make(X=[[u1, [0] * d], [u2, [0] * d]], Y=Y, v=v, z=[z1, z2], name="trap-family")


def _dot(a, b):
    return sum((x * to_arb(y) for x, y in zip(a, b)), arb(0))


@given(t2_pairs(), st.integers(0, 1), st.lists(small, min_size=4, max_size=4), exact_rationals(0, 1, 8))
def test_reduction_is_one_gd_step(data, deviant, w, eta):
    alpha = tuple((1 - o[0]) if i == deviant else o[0] for i, o in enumerate(data.optimal_tokens()))
    red, _ = t2_coordinates(data, alpha)
    assume(red is not None)
    W = [w[k % 4] for k in range(data.d * data.d)]
    with working_precision(40):
        model = LinearLogitModel.from_dataset(data, "W", "logistic")
        Wa = [to_arb(x) for x in W]
        Wn = [x - to_arb(eta) * g for x, g in zip(Wa, model.grad(Wa))]
        c = []
        for seq, Dh in ((red.driver, red.D1), (red.deviant, red.D2)):
            v = _dot(Wa, Dh)
            s = 1 / (1 + (-v).exp())  # weight of α's token
            g = data.scores[seq]
            phi = to_arb(g[1 - alpha[seq]]) + s * to_arb(g[alpha[seq]] - g[1 - alpha[seq]])
            c.append(s * (1 - s) * to_arb(abs(g[0] - g[1])) / (1 + phi.exp()) / data.n)
        da = _dot(Wn, red.D1) - _dot(Wa, red.D1)
        db = _dot(Wn, red.F) - _dot(Wa, red.F)
        tol = arb(10) ** -30
        assert abs(da - to_arb(eta) * (to_arb(red.g11) * c[0] - to_arb(red.g12) * c[1])) < tol
        assert abs(db + to_arb(eta) * to_arb(red.det_ratio) * c[1]) < tol


@examples(15)
@given(trap_family(), st.sampled_from((3, 6, 12)))
def test_a_proven_trap_is_never_contradicted_by_gd(data, radius):
    red, _ = t2_reduction(data, (0, 0))
    assume(red is not None)
    with working_precision(30):
        gmm = solve_svm(data, "W", "opt", 30, check_unique=False)
        assume(gmm.status == "optimal")
        q = tuple(gmm.solution)
        W0 = tuple(Fraction(radius) * x / red.g11 for x in red.D1)  # on the ray of W^mm_α when κ > 1
        eta, _ = step_size_W(data)
        cert = trap_certificate(red, W0, eta, q)
        assume(cert.proven is True)
        run = gd_checkpoints(LinearLogitModel.from_dataset(data, "W", "logistic"), W0, eta, list(range(0, 201, 25)))
        qa = [to_arb(x) for x in q]
        for W in run.points:
            assert _dot(W, red.D1) >= to_arb(cert.a0) - arb(10) ** -20
            assert _dot(W, red.F) > to_arb(cert.b0 - cert.drop)
            if cert.floor is not None:
                assert one_minus_corr(W, qa) >= to_arb(cert.floor)


@examples(5)
@given(datasets(max_n=1, max_T=2, max_d=2))
def test_single_sequence_never_violated(data):
    with working_precision(25) as prec:
        out = thm4.evaluate(data, prec, depth=20, gd_steps=0)
    if out.decide() == "VIOLATED":
        raise AssertionError(f"counterexample saved to {save_failure(data, 'tfsvm.thm4')}")
