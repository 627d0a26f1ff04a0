"""tfsvm.aux.feasibility-criterion (mutation tests): which SVMs are solved (opt first, then the other selections in
[T]ⁿ order, 12 in all; each sequence's separation problem once per (i, α_i)), at the working precision and without
the uniqueness check; an answer without certificate (joint or per sequence) makes exactly the points it touches
undecided in the items it enters; both items reported; the coverage text on both sides of T^n ≤ 12; the
hypothesis's detail and the note of the false case.

D-T2 (n = T = 2): tokens (1, 1), (0, 0) and (2, 2), (0, 0) with z₁ = (1, 0), z₂ = (1, ½) independent; with A = (1, 1)
z₁ᵀ and B = 2(1, 1)z₂ᵀ independent, every sign pattern s₁⟨W, A⟩ ≥ 1, s₂⟨W, B⟩ ≥ 1 is feasible, so all 4 selections
are jointly feasible, and each token is separable from the other one (distinct points): every part is feasible.
opt = (0, 1) (γ = (1, 0), (−2, 0))."""
import itertools

from claim_helpers import evaluate_at
from claim_helpers import only_item as _ev

from lemmas.tfsvm import aux_feasibility as M
from verify.data import tfsvm as D
from verify.data.generators import random_dataset

NEC = "(N) Att-SVM(α) feasible ⇒"
EQUIV = "(C) Att-SVM(α) feasible ⇔"


def _run(data, **kw):
    return evaluate_at(M, data, **kw)


def _stub(monkeypatch, answers=None, real=True):
    """solve_svm recorded as (name, kind, select, dps, check_unique); certified_feasible answers from ``answers``
    keyed (kind, select) (else the real answer, or True when ``real`` is False)."""
    calls = []
    answers = answers or {}
    solve, certify = M.solve_svm, M.certified_feasible

    def fake_solve(data, kind, select, *a, **k):
        calls.append((data.name, kind, tuple(select), a, k))
        return (kind, tuple(select), solve(data, kind, select, *a, **k) if real else None)

    def fake_certify(res):
        kind, select, r = res
        if (kind, select) in answers:
            return answers[(kind, select)]
        return certify(r) if real else True

    monkeypatch.setattr(M, "solve_svm", fake_solve)
    monkeypatch.setattr(M, "certified_feasible", fake_certify)
    return calls


def test_DT2_solves_each_problem_once_at_the_working_precision(monkeypatch):
    """D-T2: joint problems for opt = (0, 1) first, then (0, 0), (1, 0), (1, 1); the per-sequence problems once for
    each (i, α_i) — 4 in all — on the one-sequence datasets; every solve at dps 30 without the uniqueness check;
    every α holds in both items; the coverage covers every α; the detail names the rank."""
    calls = _stub(monkeypatch)
    out = _run(D.d_t2())
    joint = [c[2] for c in calls if c[1] == "W"]
    assert joint == [(0, 1), (0, 0), (1, 0), (1, 1)]
    parts = sorted((c[0], c[2]) for c in calls if c[1] == "p")
    assert parts == [("seq0", (0,)), ("seq0", (1,)), ("seq1", (0,)), ("seq1", (1,))]
    assert all(c[3] == (30,) and c[4] == {"check_unique": False} for c in calls)
    nec, equiv = _ev(out, NEC), _ev(out, EQUIV)
    assert (nec.coverage.points, nec.coverage.holds, equiv.coverage.points, equiv.coverage.holds) == (4, 4, 4, 4)
    assert out.covers == ["every α ∈ [T]ⁿ (4)"]
    assert out.hypotheses[0].detail == "rank Z = 2, n = 2" and out.notes == []
    assert out.decision().verdict == "HOLDS"


def test_an_uncertified_separation_answer_is_undecided_where_used(monkeypatch):
    """Token 0 of either sequence without a certified separation answer: every α using one — (0, 1), (0, 0),
    (1, 0), all jointly feasible — cannot be decided in (N) nor (C) (NaN); (1, 1) still holds."""
    _stub(monkeypatch, answers={("p", (0,)): None})
    out = _run(D.d_t2())
    for item in (_ev(out, NEC), _ev(out, EQUIV)):
        assert (item.coverage.points, item.coverage.holds, item.coverage.undecided, item.coverage.violated) == \
            (4, 1, 3, 0)
    assert out.decision().verdict == "INCONCLUSIVE"


def test_only_sequence_parts_undecided(monkeypatch):
    """Only (i = 0, α₀ = 0) undecided — the answers keyed by the one-sequence dataset's name: the points (0, 0) and
    (0, 1) are undecided in both items, (1, 0) and (1, 1) hold."""
    calls = []
    solve, certify = M.solve_svm, M.certified_feasible

    def fake_solve(data, kind, select, *a, **k):
        calls.append(1)
        return (data.name, kind, tuple(select), solve(data, kind, select, *a, **k))

    def fake_certify(res):
        name, kind, select, r = res
        return None if (name, kind, select) == ("seq0", "p", (0,)) else certify(r)

    monkeypatch.setattr(M, "solve_svm", fake_solve)
    monkeypatch.setattr(M, "certified_feasible", fake_certify)
    out = _run(D.d_t2())
    for item in (_ev(out, NEC), _ev(out, EQUIV)):
        assert (item.coverage.holds, item.coverage.undecided, item.coverage.violated) == (2, 2, 0)
        assert item.coverage.first_undecided.startswith("α = (0, 1): joint True, per-sequence [None, True]")


def test_an_uncertified_joint_answer(monkeypatch):
    """Joint (1, 1) without a certified answer: undecided in both items (never counted as holding or failing)."""
    _stub(monkeypatch, answers={("W", (1, 1)): None})
    out = _run(D.d_t2())
    for item in (_ev(out, NEC), _ev(out, EQUIV)):
        assert (item.coverage.holds, item.coverage.undecided, item.coverage.violated) == (3, 1, 0)
    assert out.decision().verdict == "INCONCLUSIVE"


def test_joint_infeasible_with_an_undecided_part(monkeypatch):
    """Joint (1, 1) certified infeasible and token 1's separation undecided in both sequences: (N) holds at (1, 1)
    (its premise fails) and at (0, 0), and is undecided at (0, 1), (1, 0) (jointly feasible, a part undecided);
    (C) is undecided at all three α using token 1."""
    _stub(monkeypatch, answers={("W", (1, 1)): False, ("p", (1,)): None})
    out = _run(D.d_t2())
    nec, equiv = _ev(out, NEC), _ev(out, EQUIV)
    assert (nec.coverage.holds, nec.coverage.undecided, nec.coverage.violated) == (2, 2, 0)
    assert (equiv.coverage.holds, equiv.coverage.undecided, equiv.coverage.violated) == (1, 3, 0)


def test_twelve_selections_when_there_are_more(monkeypatch):
    """n = 2, T = 4 (16 selections): opt first, then the first 11 others in [T]ⁿ order; the coverage says so (every
    SVM answer stubbed feasible)."""
    data = random_dataset(n=2, T=4, d=2, seed=0, queries=True, name="n2T4")
    calls = _stub(monkeypatch, real=False)
    out = _run(data)
    opt = tuple(o[0] for o in data.optimal_tokens())
    want = [opt] + [a for a in itertools.product(range(4), repeat=2) if a != opt][:11]
    assert [c[2] for c in calls if c[1] == "W"] == want
    assert _ev(out, NEC).coverage.points == _ev(out, EQUIV).coverage.points == 12
    assert out.covers == ["α = opt and the first 11 other of the 16 selections in [T]ⁿ order"]


def test_every_selection_when_there_are_at_most_twelve(monkeypatch):
    """acute_pair (n = 2, T = 3): all 3² = 9 selections are checked (9 ≠ T·n = 6) and the coverage says every α
    (SVM answers stubbed feasible)."""
    calls = _stub(monkeypatch, real=False)
    out = _run(D.acute_pair())
    assert len([c for c in calls if c[1] == "W"]) == 9 and _ev(out, EQUIV).coverage.points == 9
    assert out.covers == ["every α ∈ [T]ⁿ (9)"]


def test_false_case_note():
    """D-STAT without independence: the note names the rank (1 < n = 2) and no hypothesis is stated."""
    out = _run(D.d_stat(), require_independent=False)
    assert out.notes == ["independence NOT required (the false case): rank Z = 1, n = 2"]
    assert out.hypotheses == []
