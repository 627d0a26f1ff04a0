"""tfsvm.aux.kq-gd-empirical ((K, Q)-GD aligns with the nuclear SVM once m ≳ n): a protocol trial HOLDS as evidence;
the iterates measured against the Frobenius W^mm_α instead (Theorem 2's false case) plateau → VIOLATED; widths all
below n → NOT_APPLICABLE naming m ≥ n; the protocol's pieces (checkpoints, nn.Linear start, the per-factor normalised
step, unit-sphere data) against their definitions."""
import math
from fractions import Fraction as F

from flint import arb

from lemmas.tfsvm import aux_kq_gd as A
from verify.data import tfsvm as D
from verify.dynamics import make_parameterization
from verify.models.attention import norm2
from verify.numbers.precision import to_arb, working_precision


def test_protocol_trial_holds_as_evidence():
    with working_precision(30) as prec:
        out = A.evaluate(D.kq_trial(0), prec)
    d = out.decision()
    assert d.verdict == "HOLDS", d.reasons
    assert "m ∈ {2, 3, 4}" in out.range and "k ≤ 2000" in out.range
    deciding = [e.quantity for e in out.evidence if e.relation != "~" or e.rule is not None]
    assert len(deciding) == 2 and all(q.startswith(("m = 3", "m = 4")) for q in deciding)  # m = 2 < n reported only


def test_frobenius_reference_plateaus_violated():
    with working_precision(30) as prec:
        out = A.evaluate(D.kq_trial(1), prec, widths=(3,), target="frobenius")
    d = out.decision()
    assert d.verdict == "VIOLATED" and "plateau" in d.reasons[0]


def test_widths_below_n_not_applicable():
    with working_precision(30) as prec:
        d = A.evaluate(D.kq_trial(0), prec, widths=(1, 2)).decision()
    assert d.verdict == "NOT_APPLICABLE" and "m ≥ n" in d.reasons[0]


def test_checkpoints_and_start():
    assert A.checkpoints(2000) == [10, 20, 50, 100, 200, 500, 1000, 2000]
    assert A.checkpoints(300) == [10, 20, 50, 100, 200, 300]
    w = A.nn_linear_init(4, 3, 0, "key")
    assert len(w) == 12 and all(abs(x) <= F(1, 2) for x in w)  # nn.Linear: uniform in ±1/√d, d = 4


def test_one_step_moves_each_factor_by_eta():
    data = D.kq_trial(0)
    with working_precision(30):
        par = make_parameterization(data, "KQ", m=2)
        psi0 = [to_arb(x) for x in A.nn_linear_init(4, 2, 0, "key") + A.nn_linear_init(4, 2, 0, "query")]
        _, psi1 = A.factor_normalized_gd(par, psi0, 1, arb("0.1"), arb(0), lambda k, p: None)
        dK = norm2([a - b for a, b in zip(psi1[:8], psi0[:8])])
        dQ = norm2([a - b for a, b in zip(psi1[8:], psi0[8:])])
    assert abs(float(dK.mid()) - 0.1) < 1e-20 and abs(float(dQ.mid()) - 0.1) < 1e-20


def test_trial_data_on_the_unit_sphere():
    data = D.kq_trial(3, n=2, T=3, d=5)
    assert (data.n, data.T, data.d) == (2, 3, 5)
    vecs = [x for seq in data.X for x in seq] + list(data.z) + [data.v]
    assert all(sum((a * a for a in x), F(0)) == 1 for x in vecs)
    assert set(data.Y) <= {1, -1} and not math.isnan(float(data.v[0]))


def test_run_that_never_left_its_start_is_inconclusive():
    """Tokens and query at 10⁻³: every logit is x_tᵀ(KQᵀ)z ≤ 10⁻⁶‖KQᵀ‖_F, so with T = 2 the attention stays ≈ 1/2 on
    each token after 2000 steps (‖KQᵀ‖_F ≤ (0.1·2000 + 1)² ≈ 4·10⁴ bounds the logits by 0.04): the run never
    saturates on α (off-mass ≥ e^−0.04/(1 + e^−0.04) > 1/10), so the flat distance is not read — INCONCLUSIVE
    naming the saturation requirement, never VIOLATED."""
    from verify.data.dataset import Dataset

    data = Dataset.make(X=[[["1/1000", 0], [0, "1/1000"]]], z=[[0, "1/1000"]], Y=[1], v=[1, 0], name="kq-small")
    with working_precision(30) as prec:
        d = A.evaluate(data, prec).decision()
    assert d.verdict == "INCONCLUSIVE", d
    assert any("saturated on α" in str(r) for r in d.reasons) and not any("fails" in str(r) for r in d.reasons)
