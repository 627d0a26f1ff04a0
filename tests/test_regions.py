"""Region certificates (verify.numbers.regions) and the interval engines behind them (verify.numbers.intervals).

Expected values are derived here: closed-form polynomials evaluated in exact Fractions, derivatives by hand."""
from __future__ import annotations

import copy
from fractions import Fraction as F

import pytest

from verify.data import mmts as D
from verify.models.attention import LinearLogitModel, features
from verify.models.generic import attention_loss
from verify.numbers.intervals import ARB, IV, Dual, gradient_and_hessian
from verify.numbers.precision import working_precision
from verify.numbers.regions import Margin, box_of, certificate, check_tree, prove, recheck


def quadratic(c):
    """g(x) = (x − 1)² + c written with the ops (x² − 2x + 1 + c: the plain extension overestimates it)."""
    return lambda x, o: x[0] * x[0] - 2 * x[0] + 1 + o.const(c)


def exact_quadratic(x, c):
    return (x - 1) ** 2 + c


@pytest.fixture(autouse=True)
def _precision():
    with working_precision(30):
        yield


def test_a_positive_quadratic_is_proven_and_the_certificate_rechecks():
    m = Margin(quadratic(F(1, 10)), ("-2",), ("3",), ("x",))
    res = prove(m)
    assert res.status == "proven"
    assert not check_tree([p for p, _, _ in res.leaves], 1)
    # the leaves tile [−2, 3]: their lengths add up to 5 exactly
    assert sum(box_of(m, p)[1][0] - box_of(m, p)[0][0] for p, _, _ in res.leaves) == 5
    # min of g is 1/10 (at x = 1): the smallest lower bound over the leaves is ≤ 1/10 and > 0
    assert 0 < res.smallest <= F(1, 10)
    cert = certificate(res, claim="toy", margin_name="quadratic", params={"c": "1/10"}, dps=30)
    assert recheck(cert, m).ok


def test_a_bound_one_percent_too_tight_is_refuted_with_an_exact_witness():
    """g(x) = (x − 1)² − 1/100: false on (9/10, 11/10); the search must stop at a rational point where g < 0."""
    m = Margin(quadratic(F(-1, 100)), ("-2",), ("3",), ("x",))
    res = prove(m)
    assert res.status == "violated"
    (x,) = res.witness
    assert exact_quadratic(x, F(-1, 100)) < 0
    assert ARB.upper(res.witness_value) < 0
    assert F(9, 10) < x < F(11, 10)


def test_strict_and_non_strict_relations_at_an_exact_zero():
    """g(x) = x − 1/2 on [0, 1]. ``>``: g(1/2) = 0 exactly at the region's centre refutes it there. ``>=``: the
    search must go on to a point where g < 0 (exact check of the witness)."""
    strict = prove(Margin(lambda x, o: x[0] - o.const(F(1, 2)), (0,), (1,), relation=">"))
    assert strict.status == "violated" and strict.witness == (F(1, 2),)
    nonstrict = prove(Margin(lambda x, o: x[0] - o.const(F(1, 2)), (0,), (1,), relation=">="))
    assert nonstrict.status == "violated" and nonstrict.witness[0] < F(1, 2)
    assert prove(Margin(lambda x, o: x[0] + o.const(F(1, 1000)), (0,), (1,), relation=">=")).status == "proven"


def test_the_budget_ends_undecided_with_the_volume_left():
    """A true but tight statement (g = |x − 1/3| ≥ 0 touches 0 at an irrational-free but non-dyadic point): the
    plain and centred forms never decide a box around x = 1/3, so a small budget leaves boxes undecided."""
    res = prove(Margin(lambda x, o: o.abs(x[0] - o.const(F(1, 3))), (0,), (1,), relation=">="), max_boxes=50)
    assert res.status == "undecided"
    assert res.boxes == 50
    assert res.undecided and 0 < res.undecided_fraction < 1
    for p in res.undecided:  # every box left contains 1/3
        lo, hi = box_of(res.margin, p)
        assert lo[0] <= F(1, 3) <= hi[0]


def test_a_simplex_constraint_marks_outside_leaves_and_the_recheck_checks_them():
    """g(x, y) = 11/10 − x − y > 0 on the simplex x, y ≥ 0, x + y ≤ 1 (g ≥ 1/10 there), false at (1, 1): the
    corner boxes must be shown outside, not proven."""
    m = Margin(lambda x, o: o.const(F(11, 10)) - x[0] - x[1], (0, 0), (1, 1),
               ("x", "y"), constraints=(lambda x, o: 1 - x[0] - x[1],))
    res = prove(m)
    assert res.status == "proven"
    kinds = {kind for _, kind, _ in res.leaves}
    assert kinds == {"proven", "outside"}
    for p, kind, _ in res.leaves:
        lo, hi = box_of(m, p)
        if kind == "outside":
            assert lo[0] + lo[1] > 1  # certainly outside: the box's lowest corner already leaves the simplex
    assert recheck(certificate(res, claim="toy", margin_name="simplex", params={}, dps=30), m).ok


def test_the_search_is_deterministic():
    m = Margin(lambda x, o: o.exp(x[0]) - 1 - x[0] + x[1] * x[1] + o.const(F(1, 1000)), (0, 0), (1, 1))
    a, b = prove(m), prove(m)
    assert [p for p, _, _ in a.leaves] == [p for p, _, _ in b.leaves]
    assert a.boxes == b.boxes


@pytest.fixture()
def certified():
    m = Margin(quadratic(F(1, 10)), ("-2",), ("3",), ("x",))
    return m, certificate(prove(m), claim="toy", margin_name="quadratic", params={}, dps=30)


def test_the_recheck_rejects_a_missing_leaf(certified):
    m, cert = certified
    cert = copy.deepcopy(cert)
    dropped = cert["leaves"].pop(len(cert["leaves"]) // 2)
    out = recheck(cert, m)
    assert not out.ok and "not covered" in out.failure and dropped["path"][:-1] in out.failure


def test_the_recheck_rejects_a_leaf_whose_margin_fails():
    """A certificate of g = (x − 1)² + 1/10 handed in for g − 1/5 (false near x = 1): the leaf there fails."""
    good = Margin(quadratic(F(1, 10)), ("-2",), ("3",))
    cert = certificate(prove(good), claim="toy", margin_name="quadratic", params={}, dps=30)
    out = recheck(cert, Margin(quadratic(F(-1, 10)), ("-2",), ("3",)))
    assert not out.ok and "does not satisfy" in out.failure


def test_the_recheck_rejects_a_tampered_region_kind_or_path(certified):
    m, cert = certified
    wider = copy.deepcopy(cert)
    wider["region"]["upper"] = ["4"]
    assert "region" in recheck(wider, m).failure
    outside = copy.deepcopy(cert)
    outside["leaves"][0]["kind"] = "outside"
    assert "not certainly outside" in recheck(outside, m).failure
    bad = copy.deepcopy(cert)
    bad["leaves"][0]["path"] = "7-"
    assert "malformed" in recheck(bad, m).failure
    twice = copy.deepcopy(cert)
    twice["leaves"].append(twice["leaves"][0])
    assert "twice" in recheck(twice, m).failure
    assert not recheck({**cert, "format": "other"}, m).ok


def test_check_tree_accepts_exactly_the_complete_bisection_trees():
    assert check_tree([""], 2) == ""
    assert check_tree(["0-", "0+1-", "0+1+"], 2) == ""
    assert "not covered" in check_tree(["0-", "0+1-"], 2)
    assert "two coordinates" in check_tree(["0-1-", "0-1+", "0+", "0-"][:2] + ["1+"], 2) or \
        "two coordinates" in check_tree(["0-", "1+"], 2)
    assert "inner node" in check_tree(["0-", "0+", "0-1-"], 2)


def test_dual_numbers_give_gradient_and_hessian_of_a_polynomial():
    """f(x, y) = x²y + 3y − x/y: ∇f = (2xy − 1/y, x² + 3 + x/y²), ∇²f = [[2y, 2x + 1/y²], [2x + 1/y², −2x/y³]]."""
    x, y = F(1, 2), F(3, 4)
    def f(v, o):
        return v[0] * v[0] * v[1] + 3 * v[1] - v[0] / v[1]
    for engine in (ARB, IV):
        value, grad, hess = gradient_and_hessian(f, [engine.const(x), engine.const(y)], engine)
        expected = [[2 * y, 2 * x + 1 / y ** 2], [2 * x + 1 / y ** 2, -2 * x / y ** 3]]
        checks = [(value, x * x * y + 3 * y - x / y), (grad[0], 2 * x * y - 1 / y), (grad[1], x * x + 3 + x / y ** 2)]
        checks += [(hess[i][j], expected[i][j]) for i in range(2) for j in range(2)]
        for got, want in checks:
            w = F(want)
            assert engine.lower(got) <= w <= engine.upper(got), (engine.name, got, w)


def test_abs_has_the_whole_generalised_gradient_at_its_kink():
    d = ARB.abs(Dual(ARB.interval(F(-1), F(1)), (ARB.const(1),)))
    assert d.g[0].contains(-1) and d.g[0].contains(1)


def test_the_generic_attention_loss_agrees_with_the_model_engine():
    """Two unrelated implementations of L(p) (naive, engine-generic vs the cancellation-free closed forms) must
    enclose the same value, gradient and Hessian at a rational point."""
    data = D.mmts_fig1c()
    feats = features(data, "p")
    model = LinearLogitModel.from_dataset(data, "p", "logistic")
    p = [F(1, 3), F(-2, 7), F(5, 4)][: len(feats[0][0])]
    value, grad, hess = gradient_and_hessian(
        lambda th, o: attention_loss(th, feats, data.scores, "logistic", o), [ARB.const(x) for x in p], ARB)
    loss, g = model.loss_grad([ARB.const(x) for x in p])
    H = model.hessian([ARB.const(x) for x in p])
    assert value.overlaps(loss)
    assert all(a.overlaps(b) for a, b in zip(grad, g))
    assert all(hess[i][j].overlaps(H[i, j]) for i in range(len(p)) for j in range(len(p)))
