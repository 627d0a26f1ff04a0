"""verify.kit.feasibility (mutation tests): mmts Lemma 2/11's hypotheses (Y_i = 1, a strict optimal token) decided
exactly, and the conclusion's items ``feasible_with_witness`` adds — the solver's certified feasibility (an
uncertified answer is a requirement, never a verdict), the witness's margins as a Tally "≥ 1" (both sides of the
bound), ‖p^mm‖² ≤ ‖p̂‖² (both sides) and γ_gap. Stand-ins for the solver (``att_svm_opt``, ``svm_feasible``) give
every branch; one real dataset ties it to the exact solver with numbers derived by hand."""
from fractions import Fraction
from types import SimpleNamespace

import pytest

from verify.claims import Hypothesis, Outcome
from verify.data.dataset import Dataset
from verify.kit import feasibility as F
from verify.numbers.precision import working_precision


def _data(X, Y, v=(1, 0)):
    return Dataset.make(X, list(Y), list(v), name="feas")


def test_positive_labels_and_strict_optimal_tokens_decided_exactly():
    """Y = (1, 1) and strict maxima: both met; a label −1 fails only the first; a tie (γ = 1, 1) fails only the
    second; the hypotheses come in this order."""
    strict = _data([[[2, 0], [1, 0]], [[0, 0], [3, 0]]], [1, 1])
    hyps = F.positive_strict_hypotheses(strict)
    assert [h.met for h in hyps] == [True, True]
    assert [h.detail for h in hyps] == ["labels +1, +1", "opt = {0}, {1}"]
    assert hyps[0].name == "Y_i = 1 for every i" and hyps[1].name.startswith("strict optimal token")
    neg = _data([[[2, 0], [1, 0]], [[0, 0], [3, 0]]], [1, -1])
    assert [h.met for h in F.positive_strict_hypotheses(neg)] == [False, True]
    assert F.positive_strict_hypotheses(neg)[0].detail == "labels +1, -1"
    tie = _data([[[1, 0], [1, 0]], [[0, 0], [3, 0]]], [1, 1])
    assert [h.met for h in F.positive_strict_hypotheses(tie)] == [True, False]
    assert F.positive_strict_hypotheses(tie)[1].detail == "opt = {0,1}, {1}"
    # a sequence of three tokens with a double tie on top: still not strict
    tie3 = _data([[[2, 0], [2, 0], [0, 0]]], [1])
    assert [h.met for h in F.positive_strict_hypotheses(tie3)] == [True, False]


def _witness(margins, p_hat=(Fraction(1), Fraction(2)), gap=Fraction(1, 2)):
    return SimpleNamespace(margins=margins, p_hat=p_hat, gap=gap)


def _fake(monkeypatch, *, met=True, witness=None, pmm_margins=None, pmm_norm2=None, solution=(1, 1)):
    """Stand-ins for the solver: record att_svm_opt's arguments; svm_feasible answers ``met``."""
    calls = []
    f = SimpleNamespace(result=SimpleNamespace(solution=solution), witness=witness, pmm_margins=pmm_margins,
                        pmm_norm2=pmm_norm2)

    def att_svm_opt(*args):
        calls.append(args)
        return f

    def svm_feasible(res, name):
        calls.append(("feasible", res, name))
        return Hypothesis(name, met, f"stand-in {met}")

    monkeypatch.setattr(F, "att_svm_opt", att_svm_opt)
    monkeypatch.setattr(F, "svm_feasible", svm_feasible)
    return f, calls


def _decisions(out):
    return [(e.quantity.split(" (")[0].split(" =")[0], e.decide()) for e in out.evidence]


def test_the_solver_is_called_with_the_data_the_precision_and_the_gap_scale(monkeypatch):
    f, calls = _fake(monkeypatch)
    out = Outcome()
    assert F.feasible_with_witness(out, "D", 40) is f
    assert calls[0] == ("D", 40, 1)   # gap_scale defaults to 1: the proof's witness
    assert calls[1][1] is f.result
    F.feasible_with_witness(Outcome(), "D", 30, gap_scale=3)
    assert calls[2] == ("D", 30, 3)


def test_certified_feasible_is_an_item_that_holds_and_a_missing_witness_fails(monkeypatch):
    _fake(monkeypatch, met=True, witness=None)
    out = Outcome()
    F.feasible_with_witness(out, "D", 30)
    assert not out.requirements
    assert len(out.evidence) == 2
    feas, wit = out.evidence
    assert feas.quantity.startswith("ATT-SVM(opt) feasible") and feas.decide() is True and feas.note == "stand-in True"
    assert feas.relation == "==" and feas.value is True and feas.bound is True
    assert wit.quantity.startswith("witness p̂") and wit.decide() is False
    assert wit.value is False and wit.relation == "==" and wit.bound is True


def test_certified_infeasible_fails_the_item(monkeypatch):
    _fake(monkeypatch, met=False, witness=None)
    out = Outcome()
    F.feasible_with_witness(out, "D", 30)
    assert not out.requirements and out.evidence[0].decide() is False


def test_an_uncertified_answer_is_an_unmet_requirement_not_an_item(monkeypatch):
    _fake(monkeypatch, met=None, witness=None)
    out = Outcome()
    F.feasible_with_witness(out, "D", 30)
    assert len(out.requirements) == 1
    req = out.requirements[0]
    assert req.met is False and req.name.startswith("a certified answer") and req.detail == "stand-in None"
    assert [e.quantity.startswith("witness") for e in out.evidence] == [True]   # no feasibility item


def test_witness_margins_are_a_tally_at_least_one(monkeypatch):
    """Margins {3/2, 1}: every point ≥ 1 (the tightest is exactly 1: ≥, not >); two points counted; the value shown
    is the tightest. No p^mm: no norm item, no note; γ_gap is informative with the witness's gap."""
    _fake(monkeypatch, witness=_witness({(0, 1): Fraction(3, 2), (1, 0): Fraction(1)}))
    out = Outcome()
    F.feasible_with_witness(out, "D", 30)
    assert len(out.evidence) == 3 and not out.notes
    tally = out.evidence[1]
    assert tally.quantity.startswith("min_{i,t≠opt} (k_{i,opt} − k_it)ᵀ p̂")
    assert tally.relation == ">=" and tally.bound == 1 and tally.value == 1
    assert tally.decide() is True and tally.coverage.points == 2 and tally.coverage.holds == 2
    assert tally.coverage.worst_at == "sequence 1, token 0"
    gap = out.evidence[2]
    assert gap.quantity.startswith("γ_gap") and gap.value == Fraction(1, 2) and gap.relation == "~"


def test_a_margin_below_one_fails_the_tally(monkeypatch):
    _fake(monkeypatch, witness=_witness({(0, 1): Fraction(2), (0, 2): Fraction(99, 100)}))
    out = Outcome()
    F.feasible_with_witness(out, "D", 30)
    tally = out.evidence[1]
    assert tally.decide() is False and tally.coverage.violated == 1 and tally.coverage.first_violation == \
        "sequence 0, token 2"


@pytest.mark.parametrize("pmm2, holds", [(Fraction(5), True), (Fraction(499, 100), True), (Fraction(501, 100), False)])
def test_pmm_norm_at_most_the_witness_norm(monkeypatch, pmm2, holds):
    """p̂ = (1, 2): ‖p̂‖² = 5 exactly; ‖p^mm‖² = 5 holds (≤), 4.99 holds, 5.01 fails; the note names both vectors."""
    _fake(monkeypatch, witness=_witness({(0, 1): Fraction(1)}), pmm_margins={(0, 1): 1}, pmm_norm2=pmm2,
          solution=(Fraction(1, 2), 2))
    out = Outcome()
    F.feasible_with_witness(out, "D", 30)
    assert len(out.evidence) == 4
    norm = out.evidence[2]
    assert norm.quantity.startswith("‖p^mm‖²") and norm.relation == "<="
    assert norm.value == pmm2 and norm.bound == 5 and isinstance(norm.bound, Fraction)
    assert norm.decide() is holds
    assert out.notes == ["p̂ = (1, 2); p^mm = (1/2, 2)"]


def test_the_exact_solver_on_a_small_dataset():
    """One sequence, keys = tokens (2, 0), (0, 0), (0, 1), v = (1, 0): γ = (2, 0, 0), opt = 0, γ_gap = 2. ATT-SVM(opt):
    min ‖p‖² s.t. 2p₁ ≥ 1, 2p₁ − p₂ ≥ 1 → p^mm = (1/2, 0), ‖p^mm‖² = 1/4. The witness p̂ = p₀/γ_gap with p₀ the
    minimum-norm solution of K p = X v (here K = X: p₀ = v = (1, 0)) is (1/2, 0): margins 1, 1; ‖p̂‖² = 1/4."""
    data = _data([[[2, 0], [0, 0], [0, 1]]], [1])
    with working_precision(30) as prec:
        out = Outcome()
        f = F.feasible_with_witness(out, data, prec.dps)
    assert f.witness.p_hat == (Fraction(1, 2), Fraction(0)) and f.witness.gap == 2
    assert [e.decide() for e in out.evidence[:3]] == [True, True, True]
    assert out.evidence[1].value == 1 and out.evidence[1].coverage.points == 2
    assert out.evidence[2].value == Fraction(1, 4) and out.evidence[2].bound == Fraction(1, 4)
    assert out.evidence[3].value == 2
    # the wrong witness p̂/2: margins 1/2 < 1 → the Tally fails
    with working_precision(30) as prec:
        out = Outcome()
        F.feasible_with_witness(out, data, prec.dps, gap_scale=2)
    assert out.evidence[1].decide() is False and out.evidence[1].value == Fraction(1, 2)
