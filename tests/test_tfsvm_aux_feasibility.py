"""tfsvm.aux.feasibility-criterion: both directions hold with independent queries (certified); without the
independence hypothesis D-STAT is VIOLATED (each sequence separable, jointly infeasible); with it, NOT_APPLICABLE."""
from lemmas.tfsvm import aux_feasibility
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.numbers.precision import working_precision
from verify.svm import solve_svm


def test_defaults_hold_certified():
    v = run_claim(aux_feasibility.CLAIM, aux_feasibility.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "certified"


def test_dependent_queries_break_the_equivalence():
    with working_precision(30) as prec:
        out = aux_feasibility.evaluate(D.d_stat(), prec, require_independent=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"
    assert "(C)" in d.reasons[0]
    assert all(e.decide() is not False for e in out.evidence if "(N)" in e.quantity)  # the necessary part survives


def test_dependent_queries_are_not_applicable():
    v = run_claim(aux_feasibility.CLAIM, [D.d_stat()], dps=20)
    assert v.verdict == "NOT_APPLICABLE" and "independent" in v.reasons[0]


def test_hull_middle_by_hand():
    """(1,0) = ½(0,0) + ½(2,0): the constraints (x₁ − x₀)ᵀWz ≥ 1 and (x₁ − x₂)ᵀWz ≥ 1 sum to 0 ≥ 2: infeasible;
    α = (2) (the optimal token, an extreme point) is feasible."""
    data = D.hull_middle()
    assert solve_svm(data, "W", (1,), 30, check_unique=False).status == "infeasible"
    assert solve_svm(data, "W", (2,), 30, check_unique=False).status == "optimal"
