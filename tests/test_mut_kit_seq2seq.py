"""verify.kit.seq2seq (mutation tests): what each helper hands the engine and reads back (recorders stand in for
Assumption E, the regularisation path, the SVM, the distance), R₀ = ‖W^mm‖·max(1, ln(B·T/min(c, 1))) rounded up to 3
significant digits (expected values worked out here with mpmath / by hand), the ladders, ‖·‖_F, the SDP resolution
of nuclear distances, vec(Wᵀ), the optimal-token hypotheses (ties, the head's α, feasibility) and the plateau rule
read only from R ≥ R₀ (both sides of the floor R₀(1 − tol), the tail's start, the residual flag)."""
from fractions import Fraction
from types import SimpleNamespace as NS

import pytest
from flint import arb

import verify.kit.assumptions as A
import verify.models.seq2seq as MS
import verify.svm.seq2seq as SS
from verify.claims import Hypothesis, Outcome, rules
from verify.kit import separating
from verify.kit import seq2seq as Q
from verify.numbers.precision import to_arb, working_precision


@pytest.fixture(autouse=True)
def _prec():
    with working_precision(30):
        yield


PREC = NS(dps=30, tolerance=to_arb(Fraction(1, 10**20)))


def test_attention_and_linear_head():
    assert Q.attention_for(NS(causal=True)) == "causal" and Q.attention_for(NS(causal=False)) == "seq2seq"
    assert Q.linear_head(NS()) == (True, "head: linear")
    assert Q.linear_head(NS(head=None)) == (True, "head: linear")
    assert Q.linear_head(NS(head=("concave", 1))) == (False, "head: concave")
    assert Q.linear_head(NS(head=("linear",))) == (True, "head: linear")


def test_head_hypothesis_passes_the_attention(monkeypatch):
    calls = []
    monkeypatch.setattr(Q, "assumption_e", lambda data, alpha, att: calls.append((alpha, att)) or (None, 0, "why"))
    h = Q.head_hypothesis("D", ((0,),), True, "opt")
    assert calls == [(((0,),), "causal")] and h.met is None and h.detail == "why" and "at opt" in h.name
    Q.head_hypothesis("D", None, False)
    assert calls[-1] == (None, "seq2seq")


def test_global_path_routes_its_arguments(monkeypatch):
    rec = {}
    monkeypatch.setattr(Q, "make_parameterization", lambda data, param, loss, attention: rec.update(
        par=(data, param, loss, attention)) or "PAR")
    monkeypatch.setattr(Q, "regularization_path", lambda par, param, radii, dps, starts, seed: rec.update(
        rp=(par, param, radii, dps, starts, seed)) or "RP")
    monkeypatch.setattr(Q, "require_path_optimal", lambda out, rp, param, tol, what: rec.update(
        req=(out, rp, param, tol, what)))
    data = NS(causal=False)
    assert Q.global_path("OUT", data, "KQ", ("1", "2"), PREC) == ("PAR", "RP")
    assert rec["par"] == (data, "KQ", "logistic", "seq2seq")
    assert rec["rp"] == ("PAR", "KQ", ("1", "2"), 30, 2, 0)
    assert rec["req"] == ("OUT", "RP", "KQ", PREC.tolerance, "L_seq")
    Q.global_path("OUT", NS(causal=True), "W", ("1",), PREC, starts=5, seed=7)
    assert rec["par"][3] == "causal" and rec["rp"][4:] == (5, 7)


@pytest.fixture
def r0_env(monkeypatch):
    st = NS(c=Fraction(1), B=to_arb(1), calls=[])
    monkeypatch.setattr(Q, "assumption_e", lambda data, alpha, att: st.calls.append((alpha, att)) or (True, st.c, ""))
    monkeypatch.setattr(separating, "head_spread", lambda data: st.B)
    return st


def test_path_r0_rounding_and_the_floor_one(r0_env):
    """T = 4, B = 25, c = 1 → ln 100 = 4.6051…; ‖W^mm‖ = 3 → 13.815… → 13.9 (3 digits, up). B·T/c = 2 (ln 2 < 1) and
    1/2 (≤ 1) and c = 0 → the factor 1: R₀ = ‖W^mm‖ rounded up: 7/3 → 2.34. A ball norm works the same way."""
    data = NS(T=4, causal=True)
    r0_env.B = to_arb(25)
    assert Q.path_r0(data, Fraction(3)) == Fraction(139, 10)
    assert r0_env.calls == [(None, "causal")]
    assert Q.path_r0(data, to_arb(3), alpha="A") == Fraction(139, 10) and r0_env.calls[-1][0] == "A"
    assert Q.path_r0(data, Fraction(1, 1000)) == Fraction(461, 100000)   # 0.0046051… → 0.00461
    r0_env.c = Fraction(2)   # c > 1: min(c, 1) = 1, ln(B·T) = ln 100 (not ln 50 = 3.912…: the absolute floor) → 13.9
    assert Q.path_r0(data, Fraction(3)) == Fraction(139, 10)
    r0_env.c = Fraction(9, 10)   # ln(100/(9/10)) = 4.7105… ; ×3 = 14.131… → 14.2
    assert Q.path_r0(data, Fraction(3)) == Fraction(142, 10)
    r0_env.B, r0_env.c = to_arb(Fraction(1, 2)), Fraction(1)   # B·T/c = 2: ln 2 < 1
    assert Q.path_r0(data, Fraction(7, 3)) == Fraction(234, 100)
    r0_env.B = to_arb(Fraction(1, 8))   # B·T/c = 1/2
    assert Q.path_r0(data, Fraction(7, 3)) == Fraction(234, 100)
    r0_env.c = Fraction(0)
    assert Q.path_r0(data, Fraction(7, 3)) == Fraction(234, 100)
    r0_env.B, r0_env.c = to_arb(1), Fraction(1, 2)   # 4·1/(1/2) = 8: ln 8 = 2.079… → 2.08
    assert Q.path_r0(data, Fraction(1)) == Fraction(208, 100)
    r0_env.B = to_arb(Fraction(3, 4))   # 4·(3/4)/(1/2) = 6: 1.791…
    assert Q.path_r0(data, Fraction(1)) == Fraction(180, 100)


def test_path_radii_and_norms():
    assert Q.path_radii(Fraction(3, 2)) == ("3/2", "9/2", "15", "45", "150")
    assert Q.path_radii(Fraction(2), ("1", "1/2")) == ("2", "1")
    n = Q.frobenius_norm([Fraction(3), to_arb(4), Fraction(-12)])
    assert abs(float(n.mid()) - 13) < 1e-25
    assert Q.transpose([1, 2, 3, 4, 5, 6, 7, 8, 9], 3) == [1, 4, 7, 2, 5, 8, 3, 6, 9]
    assert Q.transpose(["a", "b", "c", "d"], 2) == ["a", "c", "b", "d"]
    assert Q.format_r(Fraction(1, 3)) == "0.3333" and Q.format_r(10.0 ** 301) == "1e+301"
    assert Q.format_r(Fraction(1, 10**400)) == "1e-400" and Q.format_r(0) == "0"  # beyond float64: exact digits
    assert Q.format_r(Fraction(3 * 10**400 + 1, 7)) == "4.286e+399"  # 3/7 = 0.428571…; float() would overflow
    assert Q.format_r(-12345) == "-1.234e+04"


def test_distance_series_frobenius_and_nuclear(monkeypatch):
    calls = []
    monkeypatch.setattr(Q, "distance_to_solution_set",
                        lambda th, res, dps: calls.append((th, res, dps)) or to_arb(Fraction(th, 8)))
    assert [float(x.mid()) for x in Q.distance_series([1, 2], "RES", 40, nuclear=False)] == [0.125, 0.25]
    assert calls == [(1, "RES", 40), (2, "RES", 40)]
    (d,) = Q.distance_series([3], "RES", 40, nuclear=True)
    assert float(d.mid()) == 0.375 and abs(float(d.rad()) - 1e-7) < 1e-12


def test_series_text():
    assert Q.series_text([to_arb(2)], [to_arb(Fraction(1, 4))]) == "2: 0.2500"


@pytest.fixture
def opt_env(monkeypatch):
    st = NS(opts=None, calls=[], res=NS(status="optimal"), feasible=True)
    monkeypatch.setattr(A, "assumption_a", lambda loss, data: Hypothesis("A", True))
    monkeypatch.setattr(A, "svm_feasible", lambda res, name: st.calls.append(("feas", res, name)) or
                        Hypothesis(name, st.feasible))
    monkeypatch.setattr(MS, "row_optimal", lambda data, causal: st.calls.append(("opt", causal)) or st.opts)
    monkeypatch.setattr(SS, "satt_svm", lambda data, alpha, causal, dps: st.calls.append(("svm", alpha, causal, dps))
                        or st.res)
    monkeypatch.setattr(Q, "head_hypothesis", lambda data, alpha, causal, what: st.calls.append(
        ("E", alpha, causal, what)) or Hypothesis("E", True))
    return st


def test_opt_hypotheses_ties_stop_early(opt_env):
    """n = 2, T = 2: row (1, 0) tied → the hypothesis fails naming (sequence 1, query 0); no SVM."""
    opt_env.opts = ((0,), (1,), (0, 1), (1,))
    hyps, res = Q.opt_hypotheses(NS(n=2, T=2, head=None), PREC, True)
    assert res is None and [h.met for h in hyps] == [True, False] and hyps[1].detail == "ties at (sequence, query) (1, 0)"
    assert ("opt", True) in opt_env.calls and not [c for c in opt_env.calls if c[0] == "svm"]


def test_opt_hypotheses_alpha_and_feasibility(opt_env):
    opt_env.opts = ((0,), (1,), (1,), (0,))
    data = NS(n=2, T=2, head=None)
    hyps, res = Q.opt_hypotheses(data, PREC, False)
    assert res is opt_env.res and [h.met for h in hyps] == [True, True, True, True]
    assert hyps[1].detail == "opt = [[0, 1], [1, 0]]"
    assert ("svm", ((0, 1), (1, 0)), False, 30) in opt_env.calls and ("E", ((0, 1), (1, 0)), False, "opt") in opt_env.calls
    assert opt_env.calls[-1] == ("feas", opt_env.res, "SAtt-SVM(opt) feasible (W^mm exists)")
    Q.opt_hypotheses(NS(n=2, T=2, head=("concave",)), PREC, True)
    assert ("E", None, True, "opt") in opt_env.calls
    assert opt_env.calls[-1][2] == "SAtt-SVM(opt) feasible (W^mm exists) — causal"


def test_global_path_outcome(monkeypatch, opt_env):
    opt_env.opts = ((0,), (0,))
    out, fro, ok = Q.global_path_outcome(NS(n=1, T=2, head=None, causal=True), PREC)
    assert ok is True and fro is opt_env.res and out.requirements[0].met is True and ("opt", True) in opt_env.calls
    assert out.requirements[0].detail == "head: linear"
    out, _, ok = Q.global_path_outcome(NS(n=1, T=2, head=("concave",), causal=False), PREC)
    assert ok is False and out.requirements[0].met is False
    opt_env.feasible = False
    out, _, ok = Q.global_path_outcome(NS(n=1, T=2, head=None, causal=False), PREC)
    assert ok is False and not out.requirements and isinstance(out, Outcome)


def _pe(radii, ys, r0=None, zero=Fraction(1, 10**25), tol=Fraction(1, 100)):
    out = Outcome()
    xs = Q.path_evidence(out, "1 − corr", radii, [to_arb(y) for y in ys], NS(tolerance=to_arb(tol)), zero, r0)
    return out, xs


def test_path_evidence_rule_and_regime():
    """The plateau rule on (R, y): a decaying tail holds; read from R₀ only: the tail's first radius (4th from the
    end) R = 10 against R₀(1 − tol): R₀ = 10 passes, R₀ = 1010/100·… just above fails; fewer than 4 radii → from
    the first."""
    radii = [1, 10, 100, 1000, 10000]
    ys = [Fraction(1, r * r) for r in radii]
    out, xs = _pe(radii, ys)
    ev = out.evidence[0]
    assert not out.requirements and ev.rule.holds is True and not ev.enclosed and not ev.residual
    want = rules.decays([to_arb(r) for r in radii], [to_arb(y) for y in ys], zero=Fraction(1, 10**25))
    assert ev.rule.detail == want.detail and float(xs[2].mid()) == 100
    out, _ = _pe(radii, ys, r0=Fraction(10))
    assert out.requirements[0].met is True and out.evidence[0].rule.holds is True
    assert "from R = 10.00 ≥ R₀ = 10" in out.requirements[0].detail
    out, _ = _pe(radii, ys, r0=Fraction(1010, 100))   # floor 10.1·0.99 = 9.999 < 10: passes
    assert out.requirements[0].met is True
    out, _ = _pe(radii, ys, r0=Fraction(1011, 100))   # floor 10.0089 > 10: fails
    assert out.requirements[0].met is False and out.evidence[0].rule.holds is None
    assert "R = 10.00 < R₀ = 10.11" in out.requirements[0].detail
    out, _ = _pe(radii[:3], ys[:3], r0=Fraction(1))
    assert out.requirements[0].met is True and "from R = 1.000 ≥" in out.requirements[0].detail
    out, _ = _pe(radii[:3], ys[:3], r0=Fraction(2))
    assert out.requirements[0].met is False


def test_path_evidence_residual_flag_and_plateau():
    radii = [1, 10, 100, 1000]
    out, _ = _pe(radii, [Fraction(1, 2)] * 4)
    assert out.evidence[0].rule.holds is False and not out.evidence[0].residual
    out, _ = _pe(radii, [1, 1, 1, Fraction(1, 2 ** 90)], zero=Fraction(1, 2 ** 90))
    assert out.evidence[0].residual
    out, _ = _pe(radii, [1, 1, 1, Fraction(1, 2 ** 89)], zero=Fraction(1, 2 ** 90))
    assert not out.evidence[0].residual
    assert isinstance(arb(1), arb)


def test_calls_receive_their_arguments(monkeypatch, opt_env):
    """The dataset reaches row_optimal, Assumption A (with the logistic loss), E and the SVM; the ties hypothesis is
    named."""
    data = NS(n=1, T=2, head=None)
    seen = []
    monkeypatch.setattr(A, "assumption_a", lambda loss, d: seen.append((loss, d)) or Hypothesis("A", True))
    monkeypatch.setattr(MS, "row_optimal", lambda d, causal: seen.append(("opt", d)) or ((0,), (0,)))
    monkeypatch.setattr(SS, "satt_svm", lambda d, alpha, causal, dps: seen.append(("svm", d)) or opt_env.res)
    monkeypatch.setattr(Q, "head_hypothesis", lambda d, alpha, causal, what: seen.append(("E", d)) or Hypothesis("E", True))
    hyps, _ = Q.opt_hypotheses(data, PREC, False)
    assert ("logistic", data) in seen and ("opt", data) in seen and ("svm", data) in seen and ("E", data) in seen
    assert hyps[1].name == "unique optimal token of every query (over its window)"
    out, _, _ = Q.global_path_outcome(NS(n=1, T=2, head=None, causal=False), PREC)
    assert out.requirements[0].name.startswith("the path is computed with the linear head")


def test_nuclear_distances_get_their_arguments_and_empty_norm(monkeypatch):
    calls = []
    monkeypatch.setattr(Q, "distance_to_solution_set",
                        lambda th, res, dps: calls.append((th, res, dps)) or to_arb(Fraction(1, 8)))
    Q.distance_series([3], "RES", 40, nuclear=True)
    assert calls == [(3, "RES", 40)]
    assert Q.frobenius_norm([]) == 0


def test_path_evidence_zero_value_and_regime_edges():
    """A last value ≤ zero decides the rule (a tail that is not decreasing otherwise); the item's value is the last
    y; at tol = 0 the floor is R₀ itself and R = R₀ passes; the undecided reason names the tail's start; never
    certified."""
    out, _ = _pe([1, 10, 100, 1000], [1, 2, 3, Fraction(1, 2 ** 100)], zero=Fraction(1, 2 ** 90))
    ev = out.evidence[0]
    assert ev.rule.holds is True and ev.certified is False
    out, _ = _pe([1, 10, 100, 1000, 10**4], [5, 4, 3, 2, Fraction(1, 2)])
    assert out.evidence[0].value == to_arb(Fraction(1, 2))
    out, _ = _pe([1, 10, 100, 1000, 10**4], [1, 1, 1, 1, 1], r0=Fraction(10), tol=0)
    assert out.requirements[0].met is True
    out, _ = _pe([1, 10, 100, 1000, 10**4], [1, 1, 1, 1, 1], r0=Fraction(11), tol=0)
    assert "not read: the tail starts at R = 10.00 < R₀ = 11" in out.evidence[0].rule.detail
