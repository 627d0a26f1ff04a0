"""verify.geometry.tfsvm (mutation tests): the (K, Q) gradients against central differences of the loss, the
curvature probe against its h → 0 limit c²‖(H₀[u eᵀ])ᵀu‖/‖e‖ from the engine's Hessian at 0, the candidate
directions, the difference rows and null bases checked exactly, and certified feasibility on every branch."""
from fractions import Fraction as F
from types import SimpleNamespace

from flint import arb

from verify.data import tfsvm as D
from verify.geometry.tfsvm import (
    _candidates,
    certified_feasible,
    difference_rows,
    kq_directions,
    kq_gradients,
    kq_probe,
    null_basis,
    symbolic_grad_arb,
)
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import to_arb, working_precision


def _loss_kq(model, K, Q):
    d = len(K)
    W = [sum((K[a][c] * Q[b][c] for c in range(len(K[0]))), arb(0)) for a in range(d) for b in range(d)]
    return model.loss_value(W)


def test_kq_gradients_are_the_central_differences_of_the_loss():
    """∂L/∂K_ac and ∂L/∂Q_bc of L(K Qᵀ) by central differences (step 10⁻²⁰ at 60 digits: error ~10⁻⁴⁰)."""
    data = D.lemma4_cross()
    K = [[F(1, 2), F(-1, 3)], [F(2), F(1, 5)]]
    Q = [[F(-1), F(3, 4)], [F(1, 3), F(1, 2)]]
    with working_precision(60):
        model = LinearLogitModel.from_dataset(data, "W")
        gK, gQ = kq_gradients(model, K, Q)
        gK2, gQ2 = kq_gradients(model, [[to_arb(x) for x in r] for r in K], [[to_arb(x) for x in r] for r in Q])
        h = arb(10) ** -20
        for which, g, g2 in (("K", gK, gK2), ("Q", gQ, gQ2)):
            assert (g.nrows(), g.ncols()) == (2, 2)
            for a in range(2):
                for c in range(2):
                    def at(s):
                        KK = [[to_arb(x) for x in r] for r in K]
                        QQ = [[to_arb(x) for x in r] for r in Q]
                        (KK if which == "K" else QQ)[a][c] += s
                        return _loss_kq(model, KK, QQ)
                    fd = (at(h) - at(-h)) / (2 * h)
                    assert abs(g[a, c] - fd) < arb(10) ** -30 and abs(g2[a, c] - fd) < arb(10) ** -30


def test_candidates_are_the_basis_then_normalised_seeded_vectors():
    c = _candidates(3, 5, 0)
    assert c[:3] == [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
    assert 3 < len(c) <= 8 and len(set(c)) == len(c)
    assert all(max(abs(x) for x in v) == 1 and all(isinstance(x, F) for x in v) for v in c)
    assert c == _candidates(3, 5, 0) and c != _candidates(3, 5, 1)
    assert _candidates(2, 0, 0) == [(1, 0), (0, 1)]


def test_kq_probe_tends_to_the_curvature_limit():
    """Part "Q": K = c·u fixed, Q: 0 → h·e; as h → 0 the quotient tends to c²‖(H₀[u eᵀ])ᵀu‖/‖e‖ (module docstring),
    H₀ the engine's Hessian at W = 0; part "K" to c²‖H₀[u eᵀ] e‖/‖u‖. The fixed factor's norm is c‖u‖ (c‖e‖)."""
    data = D.lemma4_cross()
    u, e, c = (1, F(1, 2)), (F(-1, 3), 1), 3
    with working_precision(40):
        model = LinearLogitModel.from_dataset(data, "W")
        H = model.hessian([arb(0)] * 4)
        M = [sum((H[k, j] * to_arb(F(u[j // 2]) * F(e[j % 2])) for j in range(4)), arb(0)) for k in range(4)]
        M = [[M[0], M[1]], [M[2], M[3]]]  # H₀[u eᵀ] as a d×d matrix
        nu = (to_arb(F(u[0]) ** 2 + F(u[1]) ** 2)).sqrt()
        ne = (to_arb(F(e[0]) ** 2 + F(e[1]) ** 2)).sqrt()
        MTu = [sum((M[a][b] * to_arb(u[a]) for a in range(2)), arb(0)) for b in range(2)]
        Me = [sum((M[a][b] * to_arb(e[b]) for b in range(2)), arb(0)) for a in range(2)]
        limQ = c ** 2 * (MTu[0] ** 2 + MTu[1] ** 2).sqrt() / ne
        limK = c ** 2 * (Me[0] ** 2 + Me[1] ** 2).sqrt() / nu
        for part, lim, fixed in (("Q", limQ, c * nu), ("K", limK, c * ne)):
            ratio, fnorm = kq_probe(model, part, u, e, c, F(1, 10 ** 6))
            assert abs(ratio - lim) < lim * arb(10) ** -4 and abs(fnorm - fixed) < arb(10) ** -30
            far, _ = kq_probe(model, part, u, e, c, F(1, 10 ** 9))
            assert abs(far - lim) < abs(ratio - lim)  # closer as h shrinks


def test_kq_directions_choose_the_largest_ratio_among_the_candidates():
    data = D.lemma4_cross()
    with working_precision(30):
        model = LinearLogitModel.from_dataset(data, "W")
        best = kq_directions(model, 2, count=3, seed=0)
        cands = _candidates(2, 3, 0)
        H = model.hessian([arb(0)] * 4)

        def ratios(u, e):
            M = [[sum((H[2 * a + b, j] * to_arb(F(u[j // 2]) * F(e[j % 2])) for j in range(4)), arb(0))
                  for b in range(2)] for a in range(2)]
            nu, ne = (to_arb(sum(F(x) ** 2 for x in u))).sqrt(), (to_arb(sum(F(x) ** 2 for x in e))).sqrt()
            Me = [M[a][0] * to_arb(e[0]) + M[a][1] * to_arb(e[1]) for a in range(2)]
            MTu = [M[0][b] * to_arb(u[0]) + M[1][b] * to_arb(u[1]) for b in range(2)]
            return {"K": float(((Me[0] ** 2 + Me[1] ** 2).sqrt() / (nu * ne * ne)).mid()),
                    "Q": float(((MTu[0] ** 2 + MTu[1] ** 2).sqrt() / (nu * nu * ne)).mid())}

        all_r = [ratios(u, e) for u in cands for e in cands]
        for part in ("K", "Q"):
            u, e, rho = best[part]
            assert u in cands and e in cands
            assert abs(rho - ratios(u, e)[part]) <= 1e-8 * rho
            assert rho >= max(r[part] for r in all_r) * (1 - 1e-8)


def test_difference_rows_and_their_null_basis_exactly():
    """D-T2: F_i0 − F_i1 = (1,1)⊗(1,0), (2,2)⊗(1,1/2); with α = (2, 2) their negatives. The null space of the two
    rows in ℝ⁴ has dimension 2 (rank 2): every basis vector is orthogonal to both rows, and they are independent."""
    d = D.d_t2()
    rows = difference_rows(d)
    assert rows == [(1, 0, 1, 0), (2, 1, 2, 1)]
    assert difference_rows(d, (1, 1)) == [(-1, 0, -1, 0), (-2, -1, -2, -1)]
    feats = features(D.b1_only(), "W")
    rows3 = difference_rows(D.b1_only(), (2,))
    assert rows3 == [tuple(a - b for a, b in zip(feats[0][2], feats[0][t])) for t in (0, 1)]
    basis = null_basis(rows, 4)
    assert len(basis) == 2
    assert all(sum(F(a) * F(b) for a, b in zip(r, v)) == 0 for r in rows for v in basis)
    a, b = basis
    assert any(a[i] * b[j] != a[j] * b[i] for i in range(4) for j in range(4))  # not parallel
    assert null_basis([], 3) == [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
    assert null_basis([(0, 0, 0)], 3) == [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
    one = null_basis([(0, 2, 0)], 3)  # x₂ = 0: a basis of the (x₁, x₃)-plane
    assert len(one) == 2 and all(v[1] == 0 for v in one) and {v.index(1) for v in one} == {0, 2}


def test_symbolic_gradient_matches_the_engine(monkeypatch):
    """sympy's derivative of the literal definition (a fresh cache) against the engine's closed form: W with the
    logistic and the exponential loss, and (K, Q) with m = 1 against the chain rule of ``kq_gradients``."""
    import verify.geometry.tfsvm as mod

    monkeypatch.setattr(mod, "_ARB_COMPILED", {})
    data = D.d_t2()
    feats = features(data, "W")
    with working_precision(30):
        W = [to_arb(x) for x in (F(1, 3), F(-1, 2), 2, F(1, 5))]
        for loss in ("logistic", "exponential"):
            model = LinearLogitModel.from_dataset(data, "W", loss)
            f = symbolic_grad_arb(2, 4, loss)
            assert symbolic_grad_arb(2, 4, loss) is f and (2, 4, loss, "W", None) in mod._ARB_COMPILED  # cached
            total = [arb(0)] * 4
            for Fi, g in zip(feats, data.scores):
                gi = f([[to_arb(x) for x in row] for row in Fi], [to_arb(x) for x in g], W)
                total = [a + b for a, b in zip(total, gi)]
            assert all(abs(a / 2 - b) < arb(10) ** -25 for a, b in zip(total, model.grad(W)))
        model = LinearLogitModel.from_dataset(data, "W")
        K, Q = [[F(1, 2)], [F(-1, 3)]], [[F(2)], [F(1, 4)]]
        fk = symbolic_grad_arb(2, 4, "logistic", "KQ", 1)
        theta = [to_arb(x) for x in (F(1, 2), F(-1, 3), F(2), F(1, 4))]  # vec K, vec Q
        total = [arb(0)] * 4
        for Fi, g in zip(feats, data.scores):
            gi = fk([[to_arb(x) for x in row] for row in Fi], [to_arb(x) for x in g], theta)
            total = [a + b for a, b in zip(total, gi)]
        gK, gQ = kq_gradients(model, K, Q)
        want = [gK[0, 0], gK[1, 0], gQ[0, 0], gQ[1, 0]]
        assert all(abs(a / 2 - b) < arb(10) ** -25 for a, b in zip(total, want))


def test_certified_feasible_on_every_branch():
    ok, bad = SimpleNamespace(passed=True), SimpleNamespace(passed=False)
    r = lambda status, certificate=None, farkas=None: SimpleNamespace(status=status, certificate=certificate,  # noqa: E731
                                                                      farkas=farkas)
    assert certified_feasible(r("optimal", ok)) is True
    assert certified_feasible(r("optimal", bad)) is None and certified_feasible(r("optimal")) is None
    assert certified_feasible(r("infeasible", farkas=ok)) is False
    assert certified_feasible(r("infeasible", farkas=bad)) is None and certified_feasible(r("infeasible")) is None
    assert certified_feasible(r("unknown", ok, ok)) is None


def test_the_candidates_are_the_documented_seeded_draw():
    """After the basis: ``count`` draws of ``random.Random(seed)``, entries randint(−9, 9)/randint(1, 4) in turn,
    each divided by its ‖·‖∞ (all-zero draws skipped), duplicates dropped."""
    import random

    for d, count, seed in ((2, 6, 0), (3, 4, 11)):
        rng = random.Random(seed)
        want = [tuple(F(int(a == b)) for b in range(d)) for a in range(d)]
        for _ in range(count):
            v = tuple(F(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(d))
            if any(v):
                m = max(abs(x) for x in v)
                if tuple(x / m for x in v) not in want:
                    want.append(tuple(x / m for x in v))
        assert _candidates(d, count, seed) == want


def test_kq_directions_defaults():
    with working_precision(20):
        model = LinearLogitModel.from_dataset(D.lemma4_cross(), "W")
        assert kq_directions(model, 2) == kq_directions(model, 2, count=4, seed=0)
