"""tfsvm.aux.no-spurious-lmm (mutation tests): the three-valued AND/OR of the hypotheses, the "auto" part's
hypothesis ((i) or (ii); each of (ii)'s conditions dropped on its own), the note of the false case, the T^n ≤ 64
requirement on both sides of its bound, a selection without a certified answer (undecided, never counted as
holding), the hypotheses' names and details, the selection counts note and the Tally's point names.

Hand derivations used below. D-T2: γ = (1, 0), (−2, 0) (opt = (0, 1)); with u = (1, 1), A = u z₁ᵀ, B = 2u z₂ᵀ
(⟨A, A⟩ = 2, ⟨B, B⟩ = 10, ⟨A, B⟩ = 4) the constraints of Att-SVM(α) are s₁⟨W, A⟩ ≥ 1, s₂⟨W, B⟩ ≥ 1 (s_i = +1 for
α_i = 0, −1 for α_i = 1): every α is feasible (A, B independent). For s₁s₂ = 1 the second multiplier (2 − 4)/4 < 0,
so W = s₁A/2 and sequence 2 has margin 2 (no support index); for s₁s₂ = −1 both constraints are tight. Def. 2 then
gives: (0, 0) locally optimal (support {0: [1]}, γ₁₀ = 1 > γ₁₁ = 0; 𝒯₂ = ∅), (0, 1) = opt locally optimal, (1, 1)
and (1, 0) not (γ₁₁ = 0 < γ₁₀ = 1 at a support index). So "4 selections, 4 feasible, 2 locally optimal"."""
from fractions import Fraction

from claim_helpers import evaluate_at

from lemmas.tfsvm import aux_no_spurious as M
from verify import Dataset
from verify.data import tfsvm as D
from verify.geometry.tfsvm_svm import Selection

ONLY = "α locally optimal ⇒ α = opt, over every α ∈ [T]ⁿ (1 = holds; exact support sets)"
PART_I = "(i) every non-selected token is a support index, for every feasible α"
AUTO = "(i) all tokens support indices for every feasible α, or (ii) B.2 with n = 1"
FALSE_CASE = "a hypothesis of (ii) is NOT required here (the false case): "


def _run(data, **kw):
    return evaluate_at(M, data, **kw)


def _only(out):
    got = [e for e in out.evidence if e.quantity == ONLY]
    assert len(got) == 1
    return got[0]


def test_three_valued_or():
    """Kleene logic: OR is True if any is True, else undecided if any is, else False."""
    T, F, U = True, False, None
    assert [M._or(*xs) for xs in ((F, F), (F, U), (U, F), (T, U), (U, T), (T, F), (T, T))] == [F, U, U, T, T, T, T]


def test_DT2_false_case_names_details_note_and_counts():
    """D-T2, part ii without n = 1: opt = [[0], [1]]; B.2 holds (T = 2); the false-case note; the counts and the
    spurious LMM (0, 0) named with its empty second support set (module docstring)."""
    out = _run(D.d_t2(), part="ii", require_n1=False)
    h = out.hypotheses
    assert [x.name for x in h] == ["unique optimal tokens", "Att-SVM(opt) feasible (W^mm exists)",
                                   "(ii) B.2: equal non-optimal scores"]
    assert h[0].detail == "opt = [[0], [1]]"
    assert h[1].detail == "certified by the exact solution / Farkas certificate"
    b2 = "B.2 holds (exact scores [['1', '0'], ['-2', '0']]), n = 2"
    assert h[2].detail == b2
    assert out.notes == [FALSE_CASE + b2, "4 selections, 4 feasible, 2 locally optimal: [(0, 0), (0, 1)]"]
    only = _only(out)
    assert (only.coverage.points, only.coverage.violated) == (4, 1)
    assert only.coverage.first_violation == ("α = (0, 0): locally optimal, support sets {0: [1], 1: []} "
                                             "(𝒯_i = ∅ for i = [1]: Def. 2 holds vacuously there)")
    n1 = _run(D.d_t2(), part="ii").hypotheses[-1]
    assert (n1.name, n1.met, n1.detail) == ("(ii) n = 1", False, "n = 2")


def test_DLMM_auto_needs_B2_and_its_false_case():
    """D-LMM: n = 1, γ = (1, ½, 0): B.2 fails, and (i) fails (α = B has support {C} only), so "auto" is
    NOT_APPLICABLE; without B.2 it applies and fails at α = (1,) (support {0: [2]}, no empty support set)."""
    out = _run(D.d_lmm())
    h = out.hypotheses[-1]
    assert h.name == AUTO and h.met is False
    assert h.detail.startswith("(i): feasible α with a non-support token: [")
    assert h.detail.endswith("; (ii): B.2 fails (exact scores [['1', '1/2', '0']]), n = 1")
    assert out.decision().verdict == "NOT_APPLICABLE" and out.notes == []
    out = _run(D.d_lmm(), require_b2=False)
    assert out.decision().verdict == "VIOLATED"
    fc = _run(D.d_lmm(), part="ii", require_b2=False)
    assert fc.notes[0] == FALSE_CASE + "B.2 fails (exact scores [['1', '1/2', '0']]), n = 1"
    assert _only(fc).coverage.first_violation == "α = (1,): locally optimal, support sets {0: [2]}"


def test_DT2_auto_without_n1_applies():
    """D-T2: B.2 holds, n = 2; "auto" without n = 1 takes (ii) and is VIOLATED (the spurious LMM (0, 0))."""
    assert _run(D.d_t2(), require_n1=False).decision().verdict == "VIOLATED"


def test_part_i_name_detail_and_no_false_case_note():
    """acute_pair meets (i) (all tokens support, the claim's own test derives it): detail exactly so, no note of a
    dropped hypothesis; opt = (0, 1), so the first selection (0, 0) is not locally optimal and, every value being
    1, it stays the tightest point, named by its α only. b2_obtuse fails (i), named."""
    out = _run(D.acute_pair(), part="i")
    h = out.hypotheses[-1]
    assert (h.name, h.met, h.detail) == (PART_I, True, "every feasible α: all tokens support")
    assert not [n for n in out.notes if n.startswith(FALSE_CASE)]
    assert _only(out).coverage.worst_at == "α = (0, 0)" and _only(out).coverage.points == 9
    assert _run(D.b2_obtuse(), part="i").decision().reasons == [f"hypothesis not met: {PART_I}"]
    ii = _run(D.b2_obtuse(), part="ii")
    assert ii.decision().verdict == "HOLDS" and not [n for n in ii.notes if n.startswith(FALSE_CASE)]


def _with_undecided(monkeypatch, alpha):
    real = M.all_selections

    def fake(data, dps, limit=256):
        return [Selection(s.alpha, None) if s.alpha == alpha else s for s in real(data, dps, limit)]

    monkeypatch.setattr(M, "all_selections", fake)


def test_a_selection_without_certified_answer_is_undecided(monkeypatch):
    """b2_obtuse, part ii: α = (1,) left without a certified answer (feasible None) is an undecided point (NaN),
    never a holding or failing one: INCONCLUSIVE; it is not counted feasible."""
    _with_undecided(monkeypatch, (1,))
    out = _run(D.b2_obtuse(), part="ii")
    only = _only(out)
    assert (only.coverage.points, only.coverage.holds, only.coverage.undecided) == (3, 2, 1)
    assert out.decision().verdict == "INCONCLUSIVE" and out.decision().reasons == [f"undecided: {ONLY}"]
    assert out.notes[-1] == "3 selections, 2 feasible, 1 locally optimal: [(0,)]"


def test_part_i_undecided_when_a_selection_has_no_answer(monkeypatch):
    """acute_pair, part i, α = (0, 0) without a certified answer: hypothesis (i) undecided (not met), named, its
    detail says which α."""
    _with_undecided(monkeypatch, (0, 0))
    out = _run(D.acute_pair(), part="i")
    h = out.hypotheses[-1]
    assert h.met is None and h.detail == "every feasible α: all tokens support; no certified answer for [(0, 0)]"
    assert out.decision().reasons == [f"hypothesis undecided: {PART_I}"]


def _uniform(n, T):
    """n copies of one sequence of T scalar tokens T−1, …, 0 (v = 1, z = 1, Y = 1): γ_i = (T−1, …, 0), opt 0."""
    return Dataset.make(X=[[[T - 1 - t] for t in range(T)]] * n, Y=[1] * n, v=[1], z=[[1]] * n, name=f"u{n}x{T}")


def test_selection_budget_on_both_sides(monkeypatch):
    """T^n = 3⁴ = 81 > 64: the requirement is not met (named with T^n) and nothing is enumerated; T^n = 2⁶ = 64
    is enumerated (every α counted; the selections stubbed: all infeasible but opt, which has no support index)."""
    out = _run(_uniform(4, 3))
    assert out.requirements[0].name == "T^n ≤ 64 selections to enumerate"
    assert (out.requirements[0].met, out.requirements[0].detail) == (False, "T^n = 81")
    assert out.evidence == [] and out.decision().reasons[0] == \
        "requirement not met: T^n ≤ 64 selections to enumerate (T^n = 81)"
    seen = []

    def stub(data, dps, limit=256):
        import itertools

        seen.append(limit)
        return [Selection(a, a == (0,) * data.n) for a in itertools.product(range(data.T), repeat=data.n)]

    monkeypatch.setattr(M, "all_selections", stub)
    out = _run(_uniform(6, 2), part="ii", require_n1=False)
    assert (out.requirements[0].met, out.requirements[0].detail) == (True, "T^n = 64")
    assert _only(out).coverage.points == 64 and out.decision().verdict == "HOLDS"
    assert seen == [64]


def test_corr2_exact():
    """corr² = ⟨a, b⟩² / (‖a‖²‖b‖²) with a = (½, 0), b = (½, −3/2): (1/16) / (¼ · 10/4) = 1/10, exact."""
    assert M._corr2((Fraction(1, 2), 0), (Fraction(1, 2), Fraction(-3, 2))) == Fraction(1, 10)
