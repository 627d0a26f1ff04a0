"""tfsvm.conj2 (mutation tests): the helpers (α labels 1-indexed, the Frobenius norm, a start's short label, the
replay JSON), the α-ray starts (which α qualify, ranked by their correlation with W^mm, the count option with −1 for
all), the flow's legs (σ·r strictly above 1.05‖W(0)‖, r ≤ depth) and what it records, the selection margins, the
trial-seed search — and what evaluate hands the engine and reads back, with the gradient flow replaced by a recorder
whose runs carry chosen values (``_flow`` / ``flow_through_norms`` are stand-ins), so every test is fast: the
options at their defaults and passed through (loss, random_starts, seed, alpha_starts, depth, init, require_d),
the hypotheses' order and arguments, the Evidence per run (value at the last point, the decay rule at the derived
rate 2 with zero = 10⁻ᵈᵖˢ, not enclosed), the selection Tally (> 0, every run's last point), the reached-depth
requirement, Theorem 4's ladder branch (D dropped) and the trap items, range and cover.

Hand derivations. ONE (n = 1, T = 2, d = 2): x₁ = (1, 2), x₂ = (−1, 1/3), z = (1, 1), v = (1, 0): opt = token 1,
a = x₁ − x₂ = (2, 5/3); Att-SVM is one constraint aᵀWz ≥ 1, so W^mm = a zᵀ/(‖a‖²‖z‖²) = a zᵀ·9/122 =
(9/61, 9/61; 15/122, 15/122) and the only α ≠ opt has W^mm_α = −W^mm (corr −1). D-T2 (spec §6): x₁₁ = (1, 1),
x₁₂ = 0, z₁ = (1, 0); x₂₁ = (2, 2), x₂₂ = 0, z₂ = (1, 1/2); v = (0, 1), Y = (1, −1): opt = (1, 2) (1-indexed), the
margins of W are (1, 0, 1, 0)·W and −(2, 1, 2, 1)·W (W row-major), W^mm = (1/2, −3/2, 1/2, −3/2) (both margins
1, ‖W^mm‖_F = √5), and α = (1, 1) is the locally-optimal ray (W^mm_α = (1/2, 0, 1/2, 0))."""
import json
import math
from fractions import Fraction as F
from types import SimpleNamespace

import pytest
from flint import arb

import lemmas.tfsvm.conj2 as C
import verify.kit.global_convergence as G
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.errors import DataError
from verify.numbers.precision import to_arb, to_decimal_string, working_precision

ONE = Dataset.make(X=[[[1, 2], [-1, F(1, 3)]]], Y=[1], v=[1, 0], z=[[1, 1]], name="one-constraint")
Q_ONE = (F(9, 61), F(9, 61), F(15, 122), F(15, 122))
Q_DT2 = (F(1, 2), F(-3, 2), F(1, 2), F(-3, 2))
W_ALPHA_DT2 = (F(1, 2), F(0), F(1, 2), F(0))
TINY = arb("1e-20")
ETA_COVER = "η: the gradient flow (GD's η → 0 limit)"


def test_helpers():
    """α labels are 1-indexed; _fnorm is the Frobenius norm; a start's short label keeps "α = (…)" and drops the
    rest of the first parenthesis (not the last); the replay is the dataset-options JSON of the exact start."""
    assert C._label_alpha((0, 2, 1)) == "(1, 3, 2)"
    assert C._fnorm((F(3), F(-4), F(0))) == 5.0 and C._fnorm((1, 1, 1, 1)) == 2.0
    label = "W(0) = 10·W^mm_α, α = (2, 1) (not locally optimal; corr(W^mm_α, W^mm) ≈ -0.500, ‖W(0)‖_F ≈ 3.16)"
    assert C._short(label) == "W(0) = 10·W^mm_α, α = (2, 1)"
    assert C._short("random W(0) #1 (seed 0, entries in [−3, 3]·0.27 (x))") == "random W(0) #1"
    assert C._short("W(0) = 0") == "W(0) = 0"
    assert json.loads(C._replay((F(1, 2), F(-3), F(0)))) == {"options": {"tfsvm.conj2": {"init": ["1/2", "-3", "0"]}}}


def _sel(alpha, feasible, w=None):
    return SimpleNamespace(alpha=alpha, feasible=feasible, result=SimpleNamespace(solution=w))


def test_alpha_ray_starts_filter_rank_and_count():
    """q = (3, 4): the candidates are feasible (exactly True), not opt, not locally optimal; corr(w, q) = w·q/(‖w‖‖q‖)
    ranks them, least correlated first (not by α, not by the unnormalised product): (−6, −8) → −1, (4, −3) → 0,
    (0, 100) → 4/5, (8, 6) → 24/25. Each start is 10·W^mm_α exactly. count −1: all; 0: none; k: the first k."""
    q = (F(3), F(4))
    sels = [_sel((0,), True, (F(3), F(4))), _sel((1,), None, (F(1), F(0))), _sel((2,), False, (F(1), F(0))),
            _sel((3,), True, (F(1), F(0))), _sel((4,), True, (F(4), F(-3))), _sel((5,), True, (F(-6), F(-8))),
            _sel((6,), True, (F(0), F(100))), _sel((7,), True, (F(8), F(6)))]
    got = C.alpha_ray_starts(sels, (0,), q, {(3,)}, -1)
    want = [((5,), "6", "-1.000", (F(-60), F(-80)), "100"), ((4,), "5", "0.000", (F(40), F(-30)), "50"),
            ((6,), "7", "0.800", (F(0), F(1000)), "1e+03"), ((7,), "8", "0.960", (F(80), F(60)), "100")]
    assert [w[3] for w in want] == [g[1] for g in got] and all(g[2] is None for g in got)
    assert [g[0] for g in got] == [f"W(0) = 10·W^mm_α, α = ({a}) (not locally optimal; corr(W^mm_α, W^mm) ≈ {c}, "
                                   f"‖W(0)‖_F ≈ {n})" for _, a, c, _, n in want]
    assert C.alpha_ray_starts(sels, (0,), q, {(3,)}, 0) == []
    assert [g[1] for g in C.alpha_ray_starts(sels, (0,), q, {(3,)}, 2)] == [want[0][3], want[1][3]]
    # equal correlations keep the enumeration order (a stable sort on the correlation alone)
    tie = [_sel((2,), True, (F(3), F(4))), _sel((1,), True, (F(6), F(8)))]
    assert [g[1] for g in C.alpha_ray_starts(tie, (0,), q, set(), -1)] == [(F(30), F(40)), (F(60), F(80))]


def test_selection_margins_tally():
    """(x_{i,opt_i} − x_it)ᵀ W z_i as feature rows: F = ((1, 0), (0, 1), (2, 2)) with opt 3, ((0, 0), (1, 1), (3, 0))
    with opt 1, W = (2, −1): margins 0, 3 (sequence 1, tokens 1, 2) and −1, −6 (sequence 2, tokens 2, 3): four points,
    one > 0 (0 is not), the worst −6, the first failure sequence 1, token 1."""
    feats = [[(F(1), F(0)), (F(0), F(1)), (F(2), F(2))], [(F(0), F(0)), (F(1), F(1)), (F(3), F(0))]]
    with working_precision(30):
        tally = C.Tally("sel", ">", 0)
        C._selects_opt(feats, (2, 0), [arb(2), arb(-1)], tally, "L")
        e = tally.evidence()
    c = e.coverage
    assert (c.points, c.holds, c.violated) == (4, 1, 3) and e.value == -6
    assert c.first_violation == "L: sequence 1, token 1"


class FakeLegs:
    """Stands in for flow_through_norms: records its call; the leg k reaches it (status "reached") for k < reach,
    then stops with "stalled"; ψ = s·(3, 4, 0, 0) at the leg's norm 5s, as balls with a radius."""

    def __init__(self, reach=2):
        self.reach, self.calls = reach, []

    def __call__(self, data, param, legs, *, init=None, **kw):
        self.calls.append((data, param, list(legs), init, kw))
        for k, leg in enumerate(legs):
            s = to_arb(F(leg)) / 5
            yield SimpleNamespace(status="reached" if k < self.reach else "stalled",
                                  psi=[arb((3 * s).mid(), 1e-5), arb((4 * s).mid(), 1e-5), arb(0), arb(0)])
            if k >= self.reach:
                return


def test_flow_legs_and_records(monkeypatch):
    """σ = ‖q‖ = 21/2: the legs are σ·r for r ∈ FLOW_NORMS (2, 5, 10, 20, 50, …) strictly above 1.05‖W(0)‖ and r ≤
    depth — from ‖W(0)‖ = 20 (1.05·20 = 21 = 2σ: excluded) to depth 50: 52.5, 105, 210, 525; from ‖W(0)‖ = 15
    (15.75 < 21) to depth 200: 21 … 2100. Each reached leg records ‖W‖ = 5s, 1 − corr to q = 1 − 3/5 and to the LMM
    e₂: 1 − 4/5, and W without the ball's radius; the status is the last leg's; no leg: ([], "not run")."""
    fake = FakeLegs()
    monkeypatch.setattr(G, "flow_through_norms", fake)  # conj2's _flow is the kit's ladder_flow
    qa, lmm = [to_arb(F(21, 2)), arb(0), arb(0), arb(0)], [[arb(0), arb(1), arb(0), arb(0)]]
    W0 = (F(20), F(0), F(0), F(0))
    with working_precision(30):
        recs, status = C._flow(ONE, W0, qa, lmm, 50, 30, "logistic")
        assert fake.calls[-1] == (ONE, "W", ["52.5", "105", "210", "525"], list(W0),
                                  {"dps": 30, "loss": "logistic", "svm": False, "max_steps": 1000})  # CHECK_STEPS
        assert status == "stalled" and len(recs) == 2
        for rec, leg in zip(recs, (F(105, 2), F(105))):
            assert abs(rec[0] - to_arb(leg)) < TINY
            assert abs(rec[1] - to_arb(F(2, 5))) < TINY and abs(rec[2][0] - to_arb(F(1, 5))) < TINY
            assert all(x.rad() == 0 for x in rec[3]) and abs(rec[3][0] - 3 * to_arb(leg) / 5) < TINY
        C._flow(ONE, (F(0), F(15), F(0), F(0)), qa, lmm, 200, 30, "logistic")
        assert fake.calls[-1][2] == ["21", "52.5", "105", "210", "525", "1050", "2100"]
        assert C._flow(ONE, (F(3000), F(0), F(0), F(0)), qa, lmm, 200, 30, "logistic") == ([], "not run")


def test_trial_seeds_search(monkeypatch):
    """trial_seeds: seeds from ``start`` (0) up to ``stop`` (1000, excluded) whose trial meets all four hypotheses, in
    order, the first ``count``, each decided at ``dps`` digits (30). Stand-ins: trial s is s; unique opt fails at
    s ≡ 2 (mod 3), W^mm infeasible at 4, B.1 fails at 6, D at 7 and 997: the first three are 0, 1, 3; up to 999
    (1000 excluded) 1000 − 333 − 4 = 663 qualify, the last 994, 996, 999."""
    seen = {"gmm": [], "prec": [], "d": []}
    met = lambda ok: SimpleNamespace(met=ok)  # noqa: E731

    class Prec:
        def __init__(self, dps):
            seen["prec"].append(dps)

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

    def gmm(data, param, dps):
        seen["gmm"].append((data, param, dps))
        return data

    def assumption_d(data, dps):
        seen["d"].append((data, dps))
        return met(data not in (7, 997)), []

    monkeypatch.setattr(C.D, "conj2_trial", lambda s: s)
    monkeypatch.setattr(C, "unique_optimal_tokens", lambda data: met(data % 3 != 2))
    monkeypatch.setattr(C, "gmm", gmm)
    monkeypatch.setattr(C, "svm_feasible", lambda res, name: met(res != 4 and name == "W^mm"))
    monkeypatch.setattr(C, "assumption_b1", lambda res: met(res != 6))
    monkeypatch.setattr(C, "assumption_d", assumption_d)
    monkeypatch.setattr("verify.numbers.precision.working_precision", Prec)
    assert C.trial_seeds(3) == [0, 1, 3]
    assert seen["gmm"][0] == (0, "W", 30) and set(seen["prec"]) == {30} and seen["d"][0] == (0, 30)
    assert C.trial_seeds(2, start=13, dps=20) == [13, 15] and seen["gmm"][-1] == (15, "W", 20)
    everything = C.trial_seeds(10**4)
    assert everything[-3:] == [994, 996, 999] and len(everything) == 663
    assert C.trial_seeds(5, start=990, stop=996) == [990, 991, 993, 994]


class FakeFlow:
    """Stands in for conj2._flow: records its arguments; run k returns script[k] = (records, status)."""

    def __init__(self, script, max_steps=1000):  # conj2's default: CHECK_STEPS
        self.script, self.calls, self.max_steps = script, [], max_steps

    def __call__(self, data, W0, qa, lmm_arb, depth, dps, loss, max_steps=None):
        assert data is not None and data.name  # the dataset itself
        assert max_steps == self.max_steps
        self.calls.append((W0, qa, lmm_arb, depth, dps, loss))
        return self.script[len(self.calls) - 1]


def _mids(vectors):
    """Nested lists of balls as their midpoints (comparable with ==)."""
    return [_mids(v) if isinstance(v, (list, tuple)) else v.mid() for v in vectors]


def _a(v):
    return v if isinstance(v, arb) else to_arb(v)


def _recs(xs, ys, lmm, Ws):
    """Flow records (‖W‖, 1 − corr to W^mm, [1 − corr to each LMM], W) as balls."""
    return [(_a(x), _a(y), [_a(z) for z in zs], [_a(w) for w in W]) for x, y, zs, W in zip(xs, ys, lmm, Ws)]


def _root(x):
    """x^(−1/2) as a ball."""
    return 1 / to_arb(x).sqrt()


def _recorders(monkeypatch, flow):
    log = {"starts": [], "gmm": [], "d": [], "b1": []}
    real_starts, real_gmm, real_d, real_b1 = C.starts, C.gmm, C.assumption_d, C.assumption_b1

    def starts(*a):
        log["starts"].append(a)
        log["pts"] = real_starts(*a)
        return log["pts"]

    def gmm(*a):
        log["gmm"].append(a)
        res = real_gmm(*a)
        log["res"] = res
        return res

    def assumption_d(*a):
        log["d"].append(a)
        return real_d(*a)

    def b1(res):
        log["b1"].append(res)
        return real_b1(res)

    monkeypatch.setattr(C, "_flow", flow)
    monkeypatch.setattr(C, "starts", starts)
    monkeypatch.setattr(C, "gmm", gmm)
    monkeypatch.setattr(C, "assumption_d", assumption_d)
    monkeypatch.setattr(C, "assumption_b1", b1)
    return log


def _flow_items(out):
    return [e for e in out.evidence if e.quantity.startswith("gradient flow from ")]


def _selection(out):
    got = [e for e in out.evidence if e.quantity.startswith("every run ends selecting opt")]
    assert len(got) == 1
    return got[0]


X4 = (F(2), F(4), F(8), F(16))


def test_defaults_on_one_constraint(monkeypatch):
    """ONE at the defaults: hypotheses A, unique opt, Att-SVM feasible, B.1, D (in that order, all met; gmm for "W" at
    the working dps, D at the working dps, B.1 on gmm's result); starts(data, W^mm, "logistic", 30, 1 random start,
    seed 0); one α ray (the default alpha_starts 1): 10·W^mm_α = −10·W^mm, α = (2); every flow to depth 200 with
    W^mm as the target and no LMM. Runs: a last value 10⁻³¹ ≤ 10⁻³⁰ = zero (decays holds at once), 1/x² (holds),
    and x^(−1/2) (exponent 1/2 below the derived rate 2 × 1/2: undecided, not a plateau)."""
    ys_zero = (F(1), F(1), F(1), F(1, 10**31))
    script = [(_recs(X4, ys_zero, [[]] * 4, [Q_ONE] * 4), "reached"),
              (_recs(X4, [1 / x ** 2 for x in X4], [[]] * 4, [Q_ONE] * 4), "reached"),
              (_recs(X4, [_root(x) for x in X4], [[]] * 4, [Q_ONE] * 4), "reached")]
    flow = FakeFlow(script)
    log = _recorders(monkeypatch, flow)
    with working_precision(30) as prec:
        out = C.evaluate(ONE, prec)
        qa = _mids([to_arb(x) for x in Q_ONE])
    assert [h.name.split(":")[0].split(" (")[0] for h in out.hypotheses][:3] == \
        ["Assumption A", "unique optimal tokens", "Att-SVM(opt) feasible"]
    assert len(out.hypotheses) == 5 and all(h.met is True for h in out.hypotheses)
    assert out.hypotheses[3].name.startswith("Assumption B.1") and out.hypotheses[4].name.startswith("Assumption D")
    assert log["gmm"] == [(ONE, "W", 30)] and log["d"] == [(ONE, 30)] and log["b1"] == [log["res"]]
    assert tuple(log["res"].solution) == Q_ONE
    assert log["starts"] == [(ONE, Q_ONE, "logistic", 30, 1, 0)]
    assert [c[0] for c in flow.calls][2] == tuple(-10 * x for x in Q_ONE)
    assert all(_mids(c[1]) == qa and c[2:] == ([], 200, 30, "logistic")
               for c in flow.calls)
    items = _flow_items(out)
    assert [e.rule.holds for e in items] == [True, True, None] and all(e.enclosed is False for e in items)
    assert all(e.value is script[k][0][-1][1] for k, e in enumerate(items))
    assert "zero to the working precision" in items[0].rule.detail
    sel = _selection(out)
    assert (sel.relation, sel.bound, sel.coverage.points, sel.coverage.holds) == (">", 0, 3, 3)
    assert out.requirements[-1].name == "every flow reached ‖W‖_F = 200·‖W^mm‖_F" and out.requirements[-1].met
    assert out.covers[0] == "W(0): 3 starts — W(0) = 0; random W(0) #1; W(0) = 10·W^mm_α, α = (2)"
    assert out.covers[1:] == [ETA_COVER] and "starts: 3 (0 locally-optimal α ≠ opt)" in out.notes
    sigma = 3 / math.sqrt(122)
    assert out.range == (f"trial one-constraint (n = 1, T = 2, d = 2); 3 starts; arc-length gradient flow to ‖W‖_F ≤ "
                         f"{to_decimal_string(to_arb(16), 4)} (≤ 200·‖W^mm‖_F, ‖W^mm‖_F = {sigma:.4g})")
    assert out.figures and out.decision().verdict == "INCONCLUSIVE"  # the undecided run


def test_options_pass_through(monkeypatch):
    """random_starts, seed, depth, max_steps and loss reach starts and the flows; alpha_starts 0 adds no α ray;
    require_d False keeps D out of the hypotheses (a note instead). The first run has no point (not run): no item for
    it, the later runs still read, the depth requirement names it."""
    script = [([], "not run")] + [(_recs(X4, [1 / x ** 2 for x in X4], [[]] * 4, [Q_ONE] * 4), "reached")] * 3
    flow = FakeFlow(script, max_steps=77)
    log = _recorders(monkeypatch, flow)
    with working_precision(30) as prec:
        out = C.evaluate(ONE, prec, random_starts=3, seed=5, alpha_starts=0, depth=50, require_d=False, max_steps=77)
    assert log["starts"] == [(ONE, Q_ONE, "logistic", 30, 3, 5)] and len(flow.calls) == 4
    assert len(_flow_items(out)) == 3 and _selection(out).coverage.points == 3
    assert out.requirements[-1].met is False and out.requirements[-1].detail == "W(0) = 0: not run"
    assert all(c[3] == 50 for c in flow.calls) and len(out.hypotheses) == 4
    assert any(n.startswith("Assumption D not required (require_d=False): met") for n in out.notes)
    assert "≤ 50·‖W^mm‖_F" in out.range


def _dt2_script():
    """Runs on D-T2: 0 → 1/x² ending at W^mm (selects opt); random → x^(−1/2) to ‖W‖ = 32; the LMM ray → a plateau
    at 1/2 ending at W^mm_α (sequence 2's margin −(2, 1, 2, 1)·W^mm_α = −2: not selecting); the α ray → no point."""
    X = (F(4), F(8), F(16), F(32))
    zs = [[F(1, 3)], [F(1, 5)], [F(1, 7)], [F(1, 9)]]
    neg = tuple(-x for x in Q_DT2)
    return [(_recs(X4, [1 / x ** 2 for x in X4], zs, [neg, neg, neg, Q_DT2]), "reached"),
            (_recs(X, [_root(x) for x in X], zs, [Q_DT2] * 4), "reached"),
            (_recs((F(1), F(2), F(3), F(5)), [F(1, 2)] * 4, zs, [Q_DT2] * 3 + [W_ALPHA_DT2]), "reached"),
            ([], "stalled")]


def test_d_dropped_runs_and_trap_items(monkeypatch):
    """D-T2, require_d=False: four starts (0, one random, the locally-optimal ray with its trap certificate, the α ray
    least correlated with W^mm). Every flow gets the LMM W^mm_α; the plateau run fails the rule (a flat series stays
    a plateau), its LMM distance at the last point reaches the note, and its trap items are added; the selection
    Tally takes each run's last W (2 margins each: one fails, −2); the α ray's run with no point adds no item but
    fails the depth requirement, naming it; the range's depth is the largest last ‖W‖ (32)."""
    flow = FakeFlow(_dt2_script())
    log = _recorders(monkeypatch, flow)
    data = D.d_t2()
    with working_precision(30) as prec:
        out = C.evaluate(data, prec, require_d=False)
    labels = [p[0] for p in log["pts"][0]]
    assert log["starts"][0][1] == Q_DT2 and len(flow.calls) == 4
    assert all(_mids(c[2]) == _mids([[to_arb(x) for x in W_ALPHA_DT2]]) for c in flow.calls)
    items = _flow_items(out)
    assert [e.rule.holds for e in items] == [True, None, False] and all(e.enclosed is False for e in items)
    assert items[2].quantity.startswith(f"gradient flow from {labels[2]}:")
    assert f"to W^mm_α1: {to_decimal_string(to_arb(F(1, 9)), 3)}" in items[2].note
    assert '"init"' in items[2].note  # the failing run's replay
    trap = [e for e in out.evidence if e.quantity.startswith(f"trap at {labels[2]}")]
    assert len(trap) == 1 and f"to W^mm_α = {to_decimal_string(to_arb(F(1, 9)), 3)}" in trap[0].note
    sel = _selection(out)
    assert (sel.coverage.points, sel.coverage.violated) == (6, 1) and sel.value == -2
    req = out.requirements[-1]
    assert req.met is False and req.detail.endswith(": stalled") and req.detail.startswith("W(0) = 10·W^mm_α, α = (2,")
    assert "; 4 starts;" in out.range and f"≤ {to_decimal_string(to_arb(32), 4)} (" in out.range
    assert out.covers[1:] == [ETA_COVER]
    d = out.decision()
    assert d.verdict == "VIOLATED"


def test_d_dropped_alpha_rays_ranked(monkeypatch):
    """D-T2's α rays: α ≠ opt = (1, 2), feasible, not the locally-optimal (1, 1): (2, 1) and (2, 2); the default
    alpha_starts 1 takes the one with the smaller corr(W^mm_α, W^mm) (computed here from the SVM solutions), −1 both."""
    flow = FakeFlow([(_recs(X4, [1 / x ** 2 for x in X4], [[F(1, 2)]] * 4, [Q_DT2] * 4), "reached")] * 9)
    _recorders(monkeypatch, flow)
    data = D.d_t2()
    with working_precision(30) as prec:
        _, sels = C.assumption_d(data, 30)
        sol = {s.alpha: s.result.solution for s in sels}

        def corr(a):
            w = sol[a]
            return sum(x * y for x, y in zip(w, Q_DT2)) / math.sqrt(sum(x * x for x in w) * 5)

        first = min(((1, 0), (1, 1)), key=corr)
        C.evaluate(data, prec, require_d=False)
        assert flow.calls[3][0] == tuple(10 * x for x in sol[first]) and len(flow.calls) == 4
        flow.calls.clear()
        C.evaluate(data, prec, require_d=False, alpha_starts=-1)
        assert len(flow.calls) == 5


def test_ladder_branch(monkeypatch):
    """A locally-optimal ray without certificate (rungs given; here D-T2's ray with its certificate dropped):
    Theorem 4's ladder gets (out, data, info, the ray's index among the LMMs, W^mm, the LMMs, depth, dps, loss, the
    list it fills) instead of a single flow; its runs' failed statuses join the depth requirement, each flown rung
    gets a replay note, the range names the ladder's radii, and the starts after it are still flown."""
    data = D.d_t2()
    real_starts = C.starts
    rungs = [(3.0, F(3), tuple(3 * x for x in W_ALPHA_DT2)), (10.0, F(10), tuple(10 * x for x in W_ALPHA_DT2))]

    def starts(*a):
        pts, how = real_starts(*a)
        return [(lab, W0, info if info is None else (info[0], info[1], None, "why", rungs)) for lab, W0, info in
                pts], how

    calls, seen_out = [], []

    def ladder(out, data_, info, k, qa, lmm_arb, depth, dps, loss, flown):
        calls.append((data_, info, k, qa, lmm_arb, depth, dps, loss))
        seen_out.append(out)
        flown += [("rung 3", "reached", []), ("rung 10", "stalled", [])]
        return ["s1", "s2"], ["3.0", "10.0"]

    run = _recs(X4, [1 / x ** 2 for x in X4], [[F(1, 2)]] * 4, [Q_DT2] * 4)
    flow = FakeFlow([(run, "reached"), (run, "stalled"), (run, "reached")])
    _recorders(monkeypatch, flow)
    monkeypatch.setattr(C, "starts", starts)
    monkeypatch.setattr(C, "ladder", ladder)
    monkeypatch.setattr(C, "Figure", lambda *a, **k: SimpleNamespace(series=a[4]))
    with working_precision(30) as prec:
        out = C.evaluate(data, prec, require_d=False, depth=100)
    qa, lmm = [to_arb(x) for x in Q_DT2], [[to_arb(x) for x in W_ALPHA_DT2]]
    assert len(calls) == 1 and calls[0][0] is data and calls[0][1][4] == rungs and seen_out == [out]
    assert calls[0][2] == 0 and _mids(calls[0][3]) == _mids(qa) and _mids(calls[0][4]) == _mids(lmm)
    assert calls[0][5:] == (100, 30, "logistic")
    assert len(flow.calls) == 3  # 0, the random start and the α ray after the ladder
    first, second = out.requirements[-1].detail.split("; ")  # the random start's run, then the ladder's
    assert out.requirements[-1].met is False and second == "rung 10: stalled"
    assert first.startswith("random W(0) #1 (seed 0") and first.endswith(": stalled")
    assert [n for n in out.notes if n.startswith("replay rung")] == [f"replay rung 3: {C._replay(rungs[0][2])}",
                                                                     f"replay rung 10: {C._replay(rungs[1][2])}"]
    assert out.range.endswith("; locally-optimal ray ladder α = (1, 1) at ‖W(0)‖_F ≈ 3.0, 10.0")
    assert out.figures[0].series[2:4] == ["s1", "s2"] and len(out.figures[0].series) == 5
    assert None not in out.figures[0].series


def test_init_replays_one_start(monkeypatch):
    """init: one exact start (strings or numbers, d² of them: 16 on a conj2 trial, d = 4), nothing enumerated;
    a wrong count or a single number on d = 4 is a DataError naming the count."""
    data = D.conj2_trial(C.TRIAL_SEEDS[0])
    flow = FakeFlow([(_recs(X4, [1 / x ** 2 for x in X4], [[]] * 4, [[0] * 16] * 4), "reached")])
    log = _recorders(monkeypatch, flow)
    init = ["1/2", 0, "-3", F(1, 4)] + [1] * 12
    with working_precision(30) as prec:
        out = C.evaluate(data, prec, init=init)
        assert log["starts"] == [] and flow.calls[0][0] == (F(1, 2), F(0), F(-3), F(1, 4)) + (F(1),) * 12
        assert "starts: 1 (the given start)" in out.notes and out.covers[0] == "W(0): 1 starts — W(0) given"
        flow.script.append(([], "stalled"))  # a replay whose flow has no point: no item, no figure, depth "—"
        out = C.evaluate(data, prec, init=init)
        assert _flow_items(out) == [] and out.figures == [] and "flow to ‖W‖_F ≤ — (≤ 200" in out.range
        assert out.requirements[-1].detail == "W(0) given (init): stalled"
        with pytest.raises(DataError, match="8 numbers, W\\(0\\) needs d² = 16"):
            C.evaluate(data, prec, init=[1] * 8)
        with pytest.raises(DataError, match="1 numbers"):
            C.evaluate(data, prec, init=5)
