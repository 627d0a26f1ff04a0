"""tfsvm.thm2: the W path → W^mm and the (K,Q) path → the nuclear solution set (evidence); the (K,Q) path measured
against the Frobenius W^mm plateaus (VIOLATED); tied optimal tokens and D-STAT are NOT_APPLICABLE; D-NUC's path lies
in the spec's segment {[[1,b],[b,1]] : |b| ≤ 1}/2; an optimisation failure is INCONCLUSIVE, never HOLDS."""
from fractions import Fraction

from flint import arb

import lemmas.tfsvm.thm2 as T
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.dynamics import regularization_path
from verify.numbers.precision import to_arb, working_precision
from verify.svm import solve_svm

RADII = ("1", "3", "10", "30")


def test_defaults_hold_as_evidence():
    for data in T.default_datasets():
        with working_precision(30) as prec:
            d = T.evaluate(data, prec, radii_w=RADII, radii_kq=RADII, figure=False).decision()
        assert d.verdict == "HOLDS" and d.certainty == "evidence", (data.name, d)


def test_kq_path_against_the_frobenius_svm_is_a_plateau():
    """lemma4_cross: the Frobenius W^mm is not a nuclear solution — its nuclear norm, by the 2 × 2 closed form
    ‖W‖_⋆ = √(‖W‖_F² + 2|det W|), exceeds the certified C⋆ — so the (K,Q) path cannot approach it."""
    data = D.lemma4_cross()
    with working_precision(30) as prec:
        W = solve_svm(data, "W", "opt", 30, check_unique=False).matrix()
        fro2 = sum((x * x for row in W for x in row), Fraction(0))
        det = W[0][0] * W[1][1] - W[0][1] * W[1][0]
        nuc_fro = to_arb(fro2 + 2 * abs(det)).sqrt()
        assert nuc_fro > solve_svm(data, "KQ", "opt", 30, check_unique=False).certificate.upper
        out = T.evaluate(data, prec, radii_kq=("1", "3", "10", "30", "100"), parts=("KQ",), target="frobenius",
                         figure=False)
    d = out.decision()
    assert d.verdict == "VIOLATED" and "Frobenius" in d.reasons[0]
    assert "plateau" in out.evidence[0].rule.detail


def test_tied_optimal_tokens_are_not_applicable():
    tie = Dataset.make(X=[[[1, 0], [0, 1], [0, 0]]], Y=[1], v=[1, 1], z=[[1, 1]], name="thm2-tie")  # γ = (1, 1, 0)
    with working_precision(20) as prec:
        d = T.evaluate(tie, prec).decision()
    assert d.verdict == "NOT_APPLICABLE" and "unique optimal tokens" in d.reasons[0]


def test_infeasible_svm_is_not_applicable():
    with working_precision(20) as prec:
        d = T.evaluate(D.d_stat(), prec).decision()
    assert d.verdict == "NOT_APPLICABLE" and "feasible" in d.reasons[0]


def test_dnuc_kq_path_lies_in_the_spec_segment():
    """D-NUC (spec §6): 𝒲^mm_⋆ = {[[1,b],[b,1]] : |b| ≤ 1}, C⋆ = 2, so K̄Q̄ᵀ/R must be [[1/2, c],[c, 1/2]], |c| ≤ 1/2."""
    with working_precision(30):
        rp = regularization_path(D.d_nuc(), "KQ", radii=("1", "10"), dps=30, starts=1)
        tol = arb(10) ** -20
        for p in rp.points:
            w = [x / p.R for x in p.theta]
            assert abs(w[0] - arb("0.5")) < tol and abs(w[3] - arb("0.5")) < tol
            assert abs(w[1] - w[2]) < tol and abs(w[1]) <= arb("0.5") + tol


def test_an_optimisation_failure_is_inconclusive(monkeypatch):
    """A sphere optimum certified worse than L(R·Ŵ^mm) is not a path point: the check cannot answer."""
    real = T.regularization_path

    def sabotaged(*a, **kw):
        rp = real(*a, **kw)
        rp.points[-1].certified_le_candidate = False
        return rp

    monkeypatch.setattr(T, "regularization_path", sabotaged)
    with working_precision(20) as prec:
        d = T.evaluate(D.d_nuc(), prec, radii_w=RADII, parts=("W",), figure=False).decision()
    assert d.verdict == "INCONCLUSIVE" and "sphere search" in d.reasons[0]
