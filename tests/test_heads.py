"""Nonlinear heads (verify.models.heads): gradients against an independent sympy derivation and central differences at
high precision, the linear head against the linear-logit engine, the ReLU subgradient convention, stability at
saturation, the dataset's ``head`` key (one-line DataErrors) and the normalised-GD driver with a head."""
from fractions import Fraction as F

import mpmath
import pytest
import sympy
from flint import arb

from verify.data.dataset import Dataset, loads
from verify.dynamics.heads import head_normalized_gd
from verify.errors import DataError
from verify.models.attention import LinearLogitModel, features
from verify.models.heads import (
    ConcaveHead,
    HeadModel,
    LinearHead,
    MLPHead,
    make_head,
    relu,
    relu_slope,
    simplex_projection,
)
from verify.numbers.precision import to_arb, working_precision

DATA = Dataset.make(X=[[[1, 0, "1/3"], [0, 1, "-1/2"], ["1/5", "1/7", 1]], [[1, 1, 0], [0, "1/2", 1], [-1, 0, "2/3"]]],
                    Y=[1, -1], v=[1, "1/2", "-1/3"], z=[[1, 0, 1], [0, 1, "1/2"]])
V = [[1, -1, "1/2"], ["1/3", 1, 0], [0, "-1/2", 1]]
THETA = [F(k % 5 - 2, 3 + k) for k in range(9)]


def sympy_loss_grad(data, lam, theta, loss):
    """∇_W of (1/n) Σ ℓ(Y_i h(X_iᵀ softmax(X_i W z_i))), h = vᵀx − λ‖x‖², written literally and differentiated."""
    d = data.d
    Ws = sympy.symbols(f"w0:{d * d}")
    tot = 0
    for seq, y, z in zip(data.X, data.Y, data.z):
        a = [sum(sympy.Rational(str(seq[t][p])) * Ws[p * d + q] * sympy.Rational(str(z[q]))
                 for p in range(d) for q in range(d)) for t in range(len(seq))]
        e = [sympy.exp(x) for x in a]
        Z = sum(e)
        r = [sum(e[t] / Z * sympy.Rational(str(seq[t][j])) for t in range(len(seq))) for j in range(d)]
        h = sum(sympy.Rational(str(vj)) * rj for vj, rj in zip(data.v, r)) - sympy.Rational(str(lam)) * \
            sum(rj ** 2 for rj in r)
        u = y * h
        tot += -u if loss == "correlation" else sympy.log(1 + sympy.exp(-u))
    tot = tot / data.n
    subs = {w: sympy.Rational(str(x)) for w, x in zip(Ws, theta)}
    with mpmath.workdps(50):
        return [mpmath.mpf(str(sympy.N(sympy.diff(tot, w).subs(subs), 45))) for w in Ws]


@pytest.mark.parametrize("loss", ["correlation", "logistic"])
def test_concave_head_gradient_matches_sympy(loss):
    ref = sympy_loss_grad(DATA, F(1, 3), THETA, loss)
    with working_precision(40):
        g = HeadModel(features(DATA, "W"), DATA, ConcaveHead(DATA.v, F(1, 3)), loss).grad([to_arb(x) for x in THETA])
        with mpmath.workdps(50):
            for a, b in zip(g, ref):
                assert abs(mpmath.mpf(a.mid().str(40, radius=False)) - b) < mpmath.mpf(10) ** -30


def _fd_check(model, theta, tol):
    g = model.grad([to_arb(x) for x in theta])
    h = F(1, 10**15)
    for j in range(len(theta)):
        up = [to_arb(x + (h if k == j else 0)) for k, x in enumerate(theta)]
        dn = [to_arb(x - (h if k == j else 0)) for k, x in enumerate(theta)]
        fd = (model.loss_value(up) - model.loss_value(dn)) / (2 * to_arb(h))
        assert abs(fd - g[j]) < tol  # O(h²) truncation ≈ 1e-30


@pytest.mark.parametrize("loss", ["correlation", "logistic"])
def test_mlp_head_gradient_matches_central_differences(loss):
    with working_precision(60):
        m = HeadModel(features(DATA, "W"), DATA, MLPHead(DATA.v, V), loss)
        for st in m.states([to_arb(x) for x in THETA]):  # away from the ReLU kinks: differentiable here
            assert all(not u.contains(0) for u in (sum((to_arb(F(a)) * b for a, b in zip(row, st.out)), arb(0))
                                                     for row in V))
        _fd_check(m, THETA, arb(10) ** -25)


def test_linear_head_agrees_with_the_linear_logit_engine():
    with working_precision(40):
        th = [to_arb(x) for x in THETA]
        a = HeadModel(features(DATA, "W"), DATA, LinearHead(DATA.v), "logistic").grad(th)
        b = LinearLogitModel.from_dataset(DATA, "W", "logistic").grad(th)
        assert all(abs(x - y) < arb(10) ** -35 for x, y in zip(a, b))


def test_relu_subgradient_convention():
    with working_precision(30):
        assert relu_slope(arb(1)) == 1 and relu_slope(arb(-1)) == 0 and relu_slope(arb(0)) == 0
        amb = relu_slope(arb("0 +/- 1e-10"))
        assert amb.contains(0) and amb.contains(1) and not amb.contains(2)
        assert relu(arb(-2)) == 0 and relu(arb(3)) == 3 and relu(arb("0 +/- 1e-10")).contains(1e-10)


def test_saturated_softmax_keeps_relative_accuracy():
    """Logits gaps of 10⁴: the masked weights e^{−10⁴} still carry relative accuracy (no 1 − s cancellation)."""
    with working_precision(30):
        m = HeadModel(features(DATA, "W"), DATA, ConcaveHead(DATA.v, F(1, 2)), "correlation")
        th = [to_arb(F(10**4) * x) for x in THETA]
        for st in m.states(th):
            for s, c in zip(st.s, st.c):
                assert s > 0 and c.rel_accuracy_bits() > 60 if c != 0 else True
        assert all(x.is_finite() for x in m.grad(th))


def test_make_head_kinds():
    assert make_head(None, DATA.v).kind == "linear"
    assert make_head(("concave", F(1, 2)), DATA.v).lam == F(1, 2)
    assert make_head(("mlp", V), DATA.v).kind == "mlp"


def test_simplex_projection_exact():
    assert simplex_projection([F(1), F(0)]) == [1, 0]
    assert simplex_projection([F(1, 2), F(1, 2), F(1, 2)]) == [F(1, 3)] * 3
    assert simplex_projection([F(2, 5), F(1, 5), F(-1)]) == [F(3, 5), F(2, 5), 0]


BASE = '{"X": [[[1, 0], [0, 1]]], "Y": [1], "v": [1, 0]'


@pytest.mark.parametrize("head, msg", [
    ('"concave"', "head: expected an object"),
    ('{"kind": "cubic"}', "head.kind"),
    ('{"kind": "concave"}', "head.lambda: missing"),
    ('{"kind": "concave", "lambda": "-1/2"}', "must be positive"),
    ('{"kind": "concave", "lambda": "1/2", "V": [[1]]}', "unknown key"),
    ('{"kind": "mlp", "V": [[1, 0]]}', "head.V"),
    ('{"kind": "mlp"}', "head.V: missing"),
])
def test_dataset_head_key_errors(head, msg):
    with pytest.raises(DataError) as e:
        loads(BASE + f', "head": {head}}}')
    assert msg in str(e.value) and "\n" not in str(e.value)


def test_dataset_head_round_trips():
    d = loads(BASE + ', "head": {"kind": "concave", "lambda": "1/3"}}')
    assert d.head == ("concave", F(1, 3)) and loads(d.to_json()) == d
    m = loads(BASE + ', "head": {"kind": "mlp", "V": [[1, "1/2"], [0, -1]]}}')
    assert m.head == ("mlp", ((1, F(1, 2)), (0, -1))) and loads(m.to_json()).head == m.head
    assert m.fingerprint() != loads(BASE + "}").fingerprint()


def test_normalized_gd_with_a_head_takes_steps_of_eta():
    tr = head_normalized_gd(DATA, MLPHead(DATA.v, V), steps=20, eta="1/10", dps=30)
    assert tr.status == "done" and int(tr.state["steps"]) == 20
    with working_precision(30):
        psi = tr.state["psi"]
        nrm = sum((x * x for x in psi), arb(0)).sqrt()
        assert nrm <= arb(2) + arb(10) ** -20  # 20 steps of length 1/10 from 0
