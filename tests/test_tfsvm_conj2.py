"""tfsvm.conj2 (over-parameterisation conjecture, empirical): a seeded trial meeting B.1 + D HOLDS as evidence over its
protocol; D-T2 (B.1 holds, D fails — spec §6) is NOT_APPLICABLE naming Assumption D, and with D dropped the same data
give VIOLATED with the trapped locally-optimal run as witness, replayable from the dataset's options; Assumption D and
B.1 against hand derivations (n = 1, T = 2: the single constraint of a feasible SVM is tight; D-NB's margins 3 and 1)."""
from fractions import Fraction as F

from lemmas.tfsvm import conj2
from verify.claims.runner import check
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry.stationarity import gmm
from verify.kit.tfsvm_assumptions import assumption_b1, assumption_d
from verify.numbers.precision import working_precision
from verify.svm.geometry import locally_optimal_selections


def test_trial_meeting_b1_and_d_holds_as_evidence():
    data = D.conj2_trial(conj2.TRIAL_SEEDS[0])
    with working_precision(30) as prec:
        out = conj2.evaluate(data, prec)
    d = out.decision()
    assert d.verdict == "HOLDS", d.reasons
    assert "n = 3, T = 3, d = 4" in out.range and "200·‖W^mm‖_F" in out.range
    names = [h.name for h in out.hypotheses]
    assert any(n.startswith("Assumption B.1") for n in names) and any(n.startswith("Assumption D") for n in names)
    assert out.figures and len(out.figures[0].series) == 3  # W(0) = 0, one random start, one α ray


def test_under_d_no_locally_optimal_direction_but_the_gmm():
    # D ⇒ every α ≠ opt has opt_i as a support index with a higher score: not locally optimal (Def. 2); checked by
    # the other enumeration of the engine (verify.svm.geometry)
    data = D.conj2_trial(conj2.TRIAL_SEEDS[0])
    opt = tuple(o[0] for o in data.optimal_tokens())
    with working_precision(30):
        assert assumption_d(data, 30)[0].met is True
        assert [tuple(a) for a, _ in locally_optimal_selections(data, "W", 30)] == [opt]


def test_d_t2_fails_d_not_applicable():
    with working_precision(30) as prec:
        h, _ = assumption_d(D.d_t2(), 30)
        d = conj2.evaluate(D.d_t2(), prec).decision()
    # spec §6: α = (1, 1) is feasible, W^mm_α = [[1/2, 0], [1/2, 0]], sequence 2 at margin 2: 𝒯_2 = ∅ ∌ opt_2
    Wa = [[F(1, 2), F(0)], [F(1, 2), F(0)]]
    x21, x22, z2 = (2, 2), (0, 0), (1, F(1, 2))
    Wz = [sum(Wa[r][c] * z2[c] for c in range(2)) for r in range(2)]
    assert sum((a - b) * w for a, b, w in zip(x21, x22, Wz)) == 2
    assert h.met is False and "α = (1, 1)" in h.detail and "𝒯_2 = {}" in h.detail
    assert d.verdict == "NOT_APPLICABLE" and "Assumption D" in d.reasons[0]


def test_d_dropped_d_t2_is_violated_with_the_trapped_run():
    with working_precision(30) as prec:
        out = conj2.evaluate(D.d_t2(), prec, require_d=False)
    d = out.decision()
    assert d.verdict == "VIOLATED"
    assert any("plateau" in r and '"init"' in r for r in d.reasons)  # the flow's plateau names its replayable start
    # the trapped start's limit 1 − corr = 1 − 1/√10 (spec §6: corr(W^mm_α, W^mm) = 1/√10)
    lim = [e for e in out.evidence if e.quantity.startswith("trap at")][0].value
    assert abs(float(lim.mid()) - (1 - 10 ** -0.5)) < 1e-6


def test_witness_replays_from_the_dataset_options():
    # the start 3Ŵ^mm_α of spec §6 as ρ·W^mm_α, ρ = 4179/985 (‖W^mm_α‖_F = 1/√2), stored in the dataset's options
    start = [F(4179, 985) * x for x in (F(1, 2), 0, F(1, 2), 0)]
    data = D.d_t2().with_options(conj2.CID, {"init": start})
    v = check(conj2.CID, data, precision=30, require_d=False)
    assert v.verdict == "VIOLATED" and v.certainty == "evidence"


def test_b1_fails_not_applicable():
    # D-NB (spec §6): W^mm has margins 3 (token 2) and 1 (token 3) — token 2 is not a support vector
    with working_precision(30) as prec:
        assert assumption_b1(gmm(D.d_nb(), "W", 30)).met is False
        d = conj2.evaluate(D.d_nb(), prec).decision()
    assert d.verdict == "NOT_APPLICABLE" and "Assumption B.1" in d.reasons[0]


def test_d_and_b1_hold_with_one_constraint_per_sequence():
    # n = 1, T = 2: each Att-SVM has one constraint, tight at its optimum (else W could shrink): B.1 holds, and the
    # only α ≠ opt has opt as its support index: D holds
    data = Dataset.make(X=[[[1, 2], [-1, F(1, 3)]]], Y=[1], v=[1, 0], z=[[1, 1]], name="one-constraint")
    with working_precision(30):
        assert assumption_b1(gmm(data, "W", 30)).met is True
        h, sels = assumption_d(data, 30)
    assert h.met is True and len(sels) == 2


def test_a_flow_out_of_budget_is_inconclusive_never_a_hang():
    # Found by the property search: a near-tie (10⁻⁶ apart) at scale 10³ (n = 1, T = 2; B.1 and D hold) needs ~10⁵
    # flow steps of ~20 ms to reach 50·‖W^mm‖_F. The flows stop at their step budget and the verdict names it.
    data = Dataset.make(X=[[[F(-25000, 9), F(20000, 7)], [F(-24999999991, 9000000), F(20000000007, 7000000)]]],
                        Y=[1], v=[F(18, 11), F(-19, 9)], name="near-tie-at-scale-1000")
    with working_precision(25) as prec:
        out = conj2.evaluate(data, prec, depth=50, max_steps=40)
    d = out.decision()
    assert d.verdict == "INCONCLUSIVE" and any("every flow reached" in r and "max_steps" in r for r in d.reasons), \
        d.reasons
