"""tfsvm.lemma1 (mutation tests): which selections are checked (opt first, then [T]ⁿ order, 12 in all; the infeasible
ones skipped and counted in the note; the coverage text for all of [T]ⁿ vs the first 11 others), each of the five
exact Tallies present and decided on hand-made W's (a perturbation W + u wᵀ fails exactly the checks the algebra
says), the column-space check on the differences x_iα − x_it (not sums), the nuclear solution's off-span mass (0:
Lemma 1 for Att-SVM⋆) reported by default, and the low-span default dataset.

PLANE (n = 1, T = 2, d = 2): tokens x₁ = (1, 0), x₂ = (1, 1), z = e₁, v = (0, −1): γ = (0, −1), opt = token 1;
the one constraint (x₁ − x₂)ᵀWz = −W₂₁ ≥ 1 gives W^mm = [[0, 0], [−1, 0]] (‖W^mm‖² = 1); span{x₁ − x₂} = span{e₂},
so u = e₁ is ⊥ to it (while x₁ + x₂ = (2, 1) is not ⊥ e₁ and has (1, −2) ⊥ to it: (1, −2)ᵀW^mm = (2, 0) ≠ 0).
DUP (n = 3, T = 3, d = 2, v = (2, 1): token 1 strictly optimal in each sequence, γ = (2, 1, 1), (3, 1, 1),
(3, 0, 0)): in every sequence tokens 2 and 3 coincide, so Att-SVM(α) is infeasible (the constraint
0 ≥ 1) unless α = (1, 1, 1) = opt: of the 12 selections checked (opt, then (1,1,2), (1,1,3), … in [T]ⁿ order) only
opt is solved."""
from fractions import Fraction

from claim_helpers import evaluate_at

from lemmas.tfsvm import lemma1
from verify import Dataset
from verify.data import tfsvm as D
from verify.data.generators import random_dataset

PLANE = Dataset.make(X=[[[1, 0], [1, 1]]], Y=[1], v=[0, -1], z=[[1, 0]], name="plane")
DUP = Dataset.make(X=[[[1, 0], [0, 1], [0, 1]], [[1, 1], [0, 1], [0, 1]], [[1, 1], [0, 0], [0, 0]]],
                   Y=[1, 1, 1], v=[2, 1], z=[[1, 0], [0, 1], [1, 1]], name="dup")
NAMES = ("W w = 0", "uᵀW = 0", "rank W", "W = Σ λ", "‖W‖_F²")


def _run(data, **kw):
    return evaluate_at(lemma1, data, **kw)


def _tallies(out):
    got = {k: [e for e in out.evidence if e.quantity.startswith(k)] for k in NAMES}
    assert all(len(v) == 1 for v in got.values()), [e.quantity for e in out.evidence]
    return {k: v[0] for k, v in got.items()}


def _failing(out):
    return {k for k, e in _tallies(out).items() if e.decide() is False}


def test_plane_solution_holds_and_its_columns_lie_in_the_differences():
    """W^mm = [[0, 0], [−1, 0]]: rows in span{e₁}, columns in span{x₁ − x₂} = span{e₂}, rank 1, KKT λ = 1, norm 1:
    every check holds (a check on x₁ + x₂ instead would fail, see the module docstring)."""
    out = _run(PLANE, nuclear=False)
    d = out.decision()
    assert d.verdict == "HOLDS" and d.certainty == "certified"
    assert all(e.coverage.points == 2 == e.coverage.holds for e in _tallies(out).values())  # α = (1,), (2,)


def test_perturbation_keeping_the_norm_fails_only_columns_and_kkt():
    """W^mm + u wᵀ with u = (1, 1), w = e₁: [[1, 0], [0, 0]] — rows still in span{e₁}, rank 1, ‖·‖² = 1 = the optimum,
    but e₁ᵀW = (1, 0) ≠ 0 (column off span{e₂}) and it is not Σλ(x₁ − x₂)zᵀ (that is ∝ [[0, 0], [1, 0]]). At α = (2,)
    (W^mm_(2) = [[0, 0], [1, 0]]) the same u wᵀ gives [[1, 0], [2, 0]], norm 5 ≠ 1: the norm fails there only.
    (W − u wᵀ at opt would be [[−1, 0], [−2, 0]], norm 5: the norm check would fail at opt too.)"""
    out = _run(PLANE, perturb=((1, 1), (1, 0)), nuclear=False)
    assert _failing(out) == {"uᵀW = 0", "W = Σ λ", "‖W‖_F²"}
    t = _tallies(out)
    assert t["‖W‖_F²"].coverage.holds == 1 and t["‖W‖_F²"].coverage.first_violation == "α = (1,)"
    assert t["W = Σ λ"].coverage.violated == 2 and t["uᵀW = 0"].coverage.violated == 2
    assert out.decision().verdict == "VIOLATED"


def test_rank_check_fails_on_a_rank_two_perturbation():
    """u = e₁, w = e₂: W^mm + e₁e₂ᵀ = [[0, 1], [−1, 0]] has rank 2 > min(n, rank Z) = 1 (and rows off span{e₁})."""
    out = _run(PLANE, perturb=((1, 0), (0, 1)), nuclear=False)
    assert {"rank W", "W w = 0"} <= _failing(out)
    assert _tallies(out)["rank W"].coverage.violated == 2


def test_infeasible_selections_are_skipped_and_counted():
    """DUP: T^n = 27 > 12, so opt and the first 11 others in [T]ⁿ order are checked; only opt is feasible (module
    docstring): one point per Tally, the note says 1 of 12, the coverage names the 11 others of 27."""
    out = _run(DUP, nuclear=False)
    assert all(e.coverage.points == 1 == e.coverage.holds for e in _tallies(out).values())
    assert out.notes == ["1 of 12 selections feasible and solved exactly (opt first)"]
    assert out.covers == ["α = opt and the first 11 other of the 27 selections in [T]ⁿ order"]
    assert out.decision().verdict == "HOLDS"


def test_every_selection_when_there_are_at_most_12():
    """The low-span default: n = 2, T = 3: all 3² = 9 selections are feasible (generic tokens) and checked."""
    out = _run(lemma1.low_span(), nuclear=False)
    assert out.covers == ["every α ∈ [T]ⁿ (9)"]
    assert out.notes == ["9 of 9 selections feasible and solved exactly (opt first)"]
    assert all(e.coverage.points == 9 for e in _tallies(out).values())


def test_nuclear_off_span_mass_is_reported_by_default_and_is_zero():
    """Lemma 1 for Att-SVM⋆: the polished nuclear solution of D-LMM (z = e₁) has W e₂ = W e₃ = 0, so Σ_w ‖W w‖² = 0;
    it is on by default (an informative item, not deciding)."""
    out = _run(D.d_lmm())
    nuc = [e for e in out.evidence if e.quantity.startswith("Att-SVM⋆ (nuclear)")]
    assert len(nuc) == 1 and nuc[0].informative
    assert nuc[0].value is not None and nuc[0].value.is_finite() and nuc[0].value == 0
    assert not any(e.quantity.startswith("Att-SVM⋆") for e in _run(D.d_lmm(), nuclear=False).evidence)


def test_low_span_dataset():
    """n = 2, T = 3, d = 3, queries e₁, e₂ (a plane: the row-space inclusion is not vacuous), the generator's tokens
    for seed 4, named for its shape."""
    data = lemma1.low_span()
    assert (data.n, data.T, data.d, data.name) == (2, 3, 3, "tfsvm-low-span-n2T3d3")
    assert [list(z) for z in data.queries()] == [[1, 0, 0], [0, 1, 0]]
    assert data.X == random_dataset(n=2, T=3, d=3, seed=4).X
    assert all(isinstance(x, Fraction) for seq in data.X for tok in seq for x in tok)
