"""Hypotheses computed, never assumed (verify.kit.assumptions): Assumption A for the loss actually
used, step sizes against a certified constant, SVM feasibility only from a verified certificate."""
from fractions import Fraction

from flint import arb

import verify.svm.solve as solve_module
from verify.data import Dataset
from verify.kit.assumptions import assumption_a, step_size, svm_feasible
from verify.models.losses import Square, certify_assumption_a
from verify.numbers.precision import working_precision
from verify.svm import solve_svm
from verify.svm.certificate import verify_certificate

DATA = Dataset.make(X=[[[1, 0], [0, 1], [-1, 0]]], Y=[1], v=[0, 3], name="scores-0-3-0")  # B = 3




class LooseConstant(Square):
    """The square loss ℓ(u) = (1 − u)² of verify.models.losses with a wrong M₀ (claims ℓ'' ≤ 1)."""

    def constants(self, B):
        return arb(1), 2 * (1 + B)


def test_assumption_a_for_the_papers_losses():
    with working_precision(30):
        for loss in ("logistic", "exponential", "correlation"):
            h = assumption_a(loss, DATA)
            assert h.met is True, (loss, h.detail)


def test_assumption_a_fails_for_a_square_loss():
    with working_precision(30):
        h = assumption_a(Square(), DATA)
        assert h.met is False and "not strictly decreasing" in h.detail


def test_square_loss_is_decreasing_where_u_below_one():
    with working_precision(30):
        met, detail, _, _ = certify_assumption_a(Square(), arb("0.5"))
        assert met is True and "certified" in detail  # constants checked by intervals (no proof declared)
        tight = type("Tight", (Square,), {"constants": lambda self, B: (arb(2), 2 * (1 + B))})()  # |ℓ'| ≤ 2(1+B) exactly
        assert certify_assumption_a(tight, arb("0.5"))[0] is None  # |ℓ'| = 3 attained at u = −1/2: undecidable


def test_a_wrong_declared_constant_is_caught():
    with working_precision(30):
        met, detail, _, _ = certify_assumption_a(LooseConstant(), arb("0.5"))
        assert met is False and "constant" in detail


def test_step_size_against_the_constant():
    with working_precision(30):
        L = arb(4)
        assert step_size(Fraction(1, 4), L).met is True
        assert step_size(Fraction(1, 3), L).met is False
        assert step_size(1 / arb(3) * (1 + arb(0, "1e-40")), arb(3)).met is None  # a ball straddling 1/L


def test_svm_feasibility_needs_a_verified_certificate(monkeypatch):
    res = solve_svm(DATA, "p", "opt", 30)
    assert res.status == "optimal" and svm_feasible(res, "ATT-SVM feasible").met is True

    def failing(problem, x, lam, dps):
        cert = verify_certificate(problem, x, lam, dps)
        cert.passed = False
        return cert

    monkeypatch.setattr(solve_module, "verify_certificate", failing)
    res = solve_svm(DATA, "p", "opt", 30)
    assert res.status == "unknown" and "certificate" in res.notes[0]
    assert svm_feasible(res, "ATT-SVM feasible").met is None


def test_infeasible_needs_a_verified_farkas_certificate(monkeypatch):
    bad = Dataset.make(X=[[[0, 1], [1, 0], [-1, 0]]], Y=[1], v=[0, 1], K=[[[0, 0], [1, 0], [-1, 0]]], name="midpoint")
    res = solve_svm(bad, "p", "opt", 30)
    assert res.status == "infeasible" and svm_feasible(res, "feasible").met is False

    real = solve_module.verify_farkas

    def failing(problem, u):
        far = real(problem, u)
        far.passed = False
        return far

    monkeypatch.setattr(solve_module, "verify_farkas", failing)
    res = solve_svm(bad, "p", "opt", 30)
    assert res.status == "unknown"
    assert svm_feasible(res, "feasible").met is None
