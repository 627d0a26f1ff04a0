"""verify.kit.tfsvm_assumptions (mutation tests): tfsvm Assumption B.1 decided only on an exact optimal W^mm, and
Assumption D (every feasible α ≠ opt has a deviating sequence whose opt_i is a support index) decided on
stand-in selections — which α count (opt excluded; infeasible ones ignored; uncertified ones leave D undecided, but a
certain failure wins), the first witness sequence, the enumeration limit T^n ≤ limit (both sides), and the 1-indexed
text naming a failing α. One real dataset runs the exact Att-SVMs (D-T2 of the spec, where D holds)."""
from fractions import Fraction
from types import SimpleNamespace

import pytest

from verify.geometry.tfsvm_svm import Selection
from verify.kit import tfsvm_assumptions as A


def test_one_prints_alpha_one_indexed():
    assert A._one((0, 2)) == "(1, 3)"
    assert A._one((4,)) == "(5)"


# ----- B.1 ------------------------------------------------------------------------------------------------------
def test_b1_needs_an_exact_optimal_solution(monkeypatch):
    """No result, a non-optimal status, or an inexact optimum: undecided, and the exact check is never asked."""
    asked = []
    monkeypatch.setattr(A, "_b1", lambda r: asked.append(r) or (True, "stand-in"))
    for res in (None, SimpleNamespace(status="infeasible", exact=True), SimpleNamespace(status="optimal", exact=False),
                SimpleNamespace(status="Optimal", exact=True)):
        h = A.assumption_b1(res)
        assert (h.name, h.met, h.detail) == (A.B1, None, "no exact W^mm to decide the margins on")
    assert asked == []


@pytest.mark.parametrize("met", [True, False])
def test_b1_on_an_exact_optimum_is_the_exact_check(monkeypatch, met):
    res = SimpleNamespace(status="optimal", exact=True)
    monkeypatch.setattr(A, "_b1", lambda r: (met, f"margins {r is res}"))
    h = A.assumption_b1(res)
    assert (h.name, h.met, h.detail) == (A.B1, met, "margins True")


# ----- D: the witness of one selection -----------------------------------------------------------------------------
def _sel(alpha, feasible=True, support=None):
    return Selection(tuple(alpha), feasible, support=dict(support or {}))


def test_optimal_support_witness_is_the_first_deviating_sequence_with_opt_in_its_support():
    opt = (0, 0, 0)
    # sequence 0 does not deviate (its support holds opt anyway); 1 deviates without opt; 2 and 3 are witnesses
    s = _sel((0, 1, 2, 1), support={0: (0, 1), 1: (2,), 2: (0, 1), 3: (0,)})
    assert A.optimal_support_witness(s, (0, 0, 0, 0)) == 2
    assert A.optimal_support_witness(_sel((0, 1, 2), support={0: (0,), 1: (2,)}), opt) is None   # 2: no support
    assert A.optimal_support_witness(_sel((1, 0, 0), support={0: (0,)}), opt) == 0
    assert A.optimal_support_witness(_sel((0, 0, 0), support={0: (0,), 1: (0,), 2: (0,)}), opt) is None


# ----- D: the decision over every α -------------------------------------------------------------------------------
def _data(opts, T, n):
    return SimpleNamespace(optimal_tokens=lambda: opts, T=T, n=n)


def _selections(monkeypatch, sels):
    calls = []

    def all_selections(data, dps, limit=256):
        calls.append((data, dps, limit))
        return sels

    monkeypatch.setattr(A, "all_selections", all_selections)
    return calls


def test_d_needs_unique_optimal_tokens(monkeypatch):
    calls = _selections(monkeypatch, [])
    h, sels = A.assumption_d(_data(((0,), (0, 1)), 2, 2), 30)
    assert (h.name, h.met, sels) == (A.D, None, []) and calls == []
    assert h.detail == "opt is not unique: D is defined for unique optimal tokens"
    h, sels = A.assumption_d(_data(((0,), ()), 2, 2), 30)      # no maximiser at all: not unique either
    assert h.met is None and calls == []


def test_d_refuses_beyond_the_limit_and_not_at_it(monkeypatch):
    """T^n = 3² = 9: refused with limit 8 (named in the detail), enumerated with limit 9 (the limit passed on);
    the default limit is 256 = 2⁸ (enumerated) and 257¹ is refused."""
    calls = _selections(monkeypatch, [_sel((0, 0))])
    h, sels = A.assumption_d(_data(((0,), (0,)), 3, 2), 30, limit=8)
    assert h.name == A.D and h.met is None and sels == [] and calls == [] and h.detail == \
        "not enumerated: 3^2 selections exceed the limit 8"
    h, sels = A.assumption_d(_data(((0,), (0,)), 3, 2), 45, limit=9)
    assert h.met is True and calls[-1][1:] == (45, 9)
    assert A.D_LIMIT == 256
    h, _ = A.assumption_d(_data(((0,),) * 8, 2, 8), 30)
    assert len(calls) == 2 and calls[-1][2] == 256
    h, _ = A.assumption_d(_data(((0,),), 257, 1), 30)
    assert h.met is None and len(calls) == 2 and "exceed the limit 256" in h.detail


def test_d_holds_when_every_feasible_alpha_has_a_witness(monkeypatch):
    """opt = (0, 1). α = opt itself is skipped even without a witness; (1, 1) feasible with opt_0 = 0 ∈ 𝒯_0;
    (0, 0) infeasible (ignored); (1, 0) feasible, witness sequence 1. The selections come back as given."""
    given = [_sel((0, 1), support={}), _sel((1, 1), support={0: (0,)}), _sel((0, 0), feasible=False),
             _sel((1, 0), support={0: (), 1: (1,)})]
    _selections(monkeypatch, given)
    h, sels = A.assumption_d(_data(((0,), (1,)), 2, 2), 30)
    assert h.name == A.D and h.met is True and sels is given
    assert h.detail.startswith("exact: all 2 feasible α ≠ opt (of 3)") and h.detail.endswith("; 1 infeasible (Farkas)")


def test_d_fails_at_the_first_feasible_alpha_without_a_witness_and_names_it(monkeypatch):
    """opt = (0, 1). α = (1, 0) deviates in both sequences; 𝒯_1 = {3} (1-indexed) ∌ opt_1 = 1, 𝒯_2 missing (∅) ∌
    opt_2 = 2. α = (2, 1) fails too (one more); an undecided α does not turn the failure into "undecided"."""
    given = [_sel((1, 1), feasible=None), _sel((1, 0), support={0: (2,)}), _sel((2, 1), support={0: (1,)}),
             _sel((0, 1))]
    _selections(monkeypatch, given)
    h, sels = A.assumption_d(_data(((0,), (1,)), 3, 2), 30)
    assert h.name == A.D and h.met is False and sels is given
    assert h.detail == ("fails at feasible α = (2, 1) (1-indexed): 𝒯_1 = {3} ∌ opt_1 = 1; 𝒯_2 = {} ∌ opt_2 = 2 "
                        "(and 1 more α)")


def test_d_failure_text_for_a_single_failing_alpha(monkeypatch):
    """One failing α, deviating only in sequence 2 (1-indexed): only that sequence is named, no "more"."""
    _selections(monkeypatch, [_sel((0, 2), support={1: (0, 2)}), _sel((0, 1))])
    h, _ = A.assumption_d(_data(((0,), (1,)), 3, 2), 30)
    assert h.met is False
    assert h.detail == "fails at feasible α = (1, 3) (1-indexed): 𝒯_2 = {1, 3} ∌ opt_2 = 2"


def test_d_undecided_when_an_alpha_has_no_certified_answer(monkeypatch):
    given = [_sel((1, 0), feasible=None), _sel((1, 1), support={0: (0,)}), _sel((0, 0), feasible=None)]
    _selections(monkeypatch, given)
    h, sels = A.assumption_d(_data(((0,), (1,)), 2, 2), 30)
    assert h.name == A.D and h.met is None and sels is given
    assert h.detail == "no certified Att-SVM answer for α = (2, 1), (1, 1)"


def test_d_on_the_exact_solver():
    """Spec D-T2 (transformers-as-svms.md §6): α = (1, 1) (1-indexed) is feasible with W^mm_α = [[1/2, 0], [1/2, 0]]:
    sequence 2 sits at margin (x₂₁ − x₂₂)ᵀW^mm_α z₂ = (2, 2)·(1/2, 1/2) = 2 ≠ 1, so 𝒯_2 = ∅ ∌ opt_2 = 2 — D fails
    there; all 2² selections are solved exactly."""
    from verify.data import tfsvm as D
    from verify.numbers.precision import working_precision

    data = D.d_t2()
    with working_precision(30) as prec:
        h, sels = A.assumption_d(data, prec.dps)
    assert len(sels) == data.T ** data.n and {s.alpha for s in sels} == set(
        __import__("itertools").product(range(data.T), repeat=data.n))
    assert h.met is False and h.detail.startswith("fails at feasible α = (1, 1) (1-indexed): 𝒯_2 = {} ∌ opt_2 = 2")
    assert all(isinstance(m, Fraction) for s in sels if s.feasible for m in s.margins.values())
