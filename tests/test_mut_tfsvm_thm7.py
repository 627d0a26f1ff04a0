"""tfsvm.thm7 (mutation tests), fast: ``Track.check`` (the cone margin μ − (1 − corr) and the norm floor ‖W‖ − R, each a
Tally point at its place; the first exit remembered, only when one of them certainly fails); ``gd`` (W(k+1) = W(k) −
η∇L(W(k)) from the exact start, ``steps`` steps, every iterate checked); ``flow`` (what it hands
``flow_through_norms`` — the stops as 30-digit decimals, W-form, no SVM — and reads back: the reached stops, every
dense point checked and kept); ``min_selected`` (min by midpoint); and ``evaluate`` with the engine replaced by
recording stand-ins (Theorem 7's cones, GD and flow are the geometry's and dynamics' engine, tested there): the three
hypotheses and their order, the cone width (μ(α) or the altered ``mu``), the (T1) Tally at ‖W‖ = R and 10R, the two
Tracks per cone (GD enclosed, flow not), cone invariance shown unless ``invariance``, the stops R·{3, 5, 10, 20, 50}
≤ depth, the decay rule's arguments (rate 2, zero 10^-dps), the reached-depth requirement, the low starts (only for
α ≠ opt when the GMM is known), the covers, the range, the figures and their switch."""
from fractions import Fraction
from types import SimpleNamespace

import pytest
from flint import arb

import verify.kit.local_convergence as K
from lemmas.tfsvm import thm7
from verify.claims import Hypothesis, Tally
from verify.claims.verdict import Decision
from verify.models.attention import norm2
from verify.numbers.precision import to_arb, to_decimal_string, working_precision


@pytest.fixture
def thirty_digits():
    with working_precision(30):
        yield


# ----- Track ---------------------------------------------------------------------------------------------------------
def _track(mu=Fraction(1, 2), R=1):
    cone = SimpleNamespace(w=(1, 0))
    return thm7.Track(cone, mu, arb(R), Tally("cone", ">=", 0), Tally("floor", ">=", 0))


def test_track_records_the_cone_margin_and_the_floor(thirty_digits):
    """w = (1, 0), μ = 1/2, R = 1. W = (3, 4): corr = 3/5, margin 1/2 − 2/5 = 1/10; ‖W‖ − R = 4 — both inside, no
    exit. W = (0, 1/2): corr 0, margin −1/2 (outside); ‖W‖ − R = −1/2 (below): the exit is its place. A later
    failure keeps the first exit."""
    tr = _track()
    assert tr.w == (1, 0) and tr.mu == Fraction(1, 2) and tr.exit is None
    tr.check([arb(3), arb(4)], "p1")
    c, f = tr.cone.coverage, tr.floor.coverage
    assert (c.points, c.holds, f.points, f.holds) == (1, 1, 1, 1) and tr.exit is None
    assert tr.cone.worst_value.overlaps(to_arb(Fraction(1, 10))) and tr.cone.worst_value.rad() < 1e-25
    assert tr.floor.worst_value.overlaps(arb(4)) and tr.floor.worst_value.rad() < 1e-25
    assert c.worst_at == "p1" == f.worst_at
    tr.check([arb(0), arb("0.5")], "p2")
    assert (c.violated, f.violated, c.first_violation, f.first_violation) == (1, 1, "p2", "p2") and tr.exit == "p2"
    assert tr.cone.worst_value.overlaps(to_arb(Fraction(-1, 2))) and tr.floor.worst_value.overlaps(to_arb(Fraction(-1, 2)))
    tr.check([arb(0), arb("0.25")], "p3")
    assert tr.exit == "p2" and c.violated == 2


@pytest.mark.parametrize("W, cone_ok, floor_ok", [
    ((arb(0), arb(3)), False, True),    # outside the cone only
    ((arb("0.5"), arb(0)), True, False),  # below the floor only (corr 1)
])
def test_track_exit_on_either_failure(thirty_digits, W, cone_ok, floor_ok):
    tr = _track()
    tr.check([arb(2), arb(0)], "in")
    assert tr.exit is None
    tr.check(list(W), "out")
    assert tr.exit == "out"
    assert (tr.cone.coverage.violated == 0) is cone_ok and (tr.floor.coverage.violated == 0) is floor_ok


def test_track_undecided_is_no_exit(thirty_digits):
    """A ball straddling the floor is undecided, not an exit."""
    tr = _track(R=1)
    tr.check([arb(1, 1e-3), arb(0)], "edge")
    assert tr.floor.coverage.undecided == 1 and tr.exit is None


# ----- gd, flow, min_selected, arb_vector (verify.kit.local_convergence) ----------------------------------------------
class _Recorder:
    def __init__(self):
        self.seen = []

    def check(self, W, where):
        self.seen.append((list(W), where))


def test_gd_steps_from_the_exact_start(thirty_digits):
    """∇L ≡ (1, −2), η = 1/4, W(0) = (1/3, 2): W(k) = W(0) − k·(1/4, −1/2); k = 0 … steps checked, labelled."""
    grads = []
    model = SimpleNamespace(grad=lambda W: grads.append(list(W)) or [arb(1), arb(-2)])
    tr = _Recorder()
    with working_precision(30):
        W = thm7.gd(model, (Fraction(1, 3), 2), arb("0.25"), 3, tr, "lab")
        start = to_arb(Fraction(1, 3)).mid()
    assert [w for _, w in tr.seen] == ["lab, k = 0", "lab, k = 1", "lab, k = 2", "lab, k = 3"]
    assert tr.seen[0][0][0] == arb(start) and tr.seen[0][0][1] == arb(2) and grads[0] == tr.seen[0][0]
    assert len(grads) == 3 and grads[2] == tr.seen[2][0]
    assert W[1] == arb("3.5") and abs(W[0] - (arb(start) - arb("0.75"))) < 1e-25
    assert all(x.rad() == 0 for x in W)  # exact midpoints
    assert thm7.gd(model, (1, 1), arb(1), 0, _Recorder(), "x") == [arb(1), arb(1)]


def test_flow_hands_on_the_stops_and_reads_back(monkeypatch):
    """flow_through_norms(data, "W", stops as 30-digit decimals, init = list(W0), dps, loss, svm = False,
    on_step): every dense point checked ("label, flow point k", k from 1) and kept as exact midpoints; only the
    reached stops recorded as (‖W‖, W); the last status returned."""
    calls = []

    def fake(data, param, stops, init, dps, loss, svm, on_step, max_steps):
        assert max_steps == 1000  # CHECK_STEPS
        calls.append((data, param, stops, init, dps, loss, svm))
        on_step([[arb(3, 1e-40), arb(4)]])
        yield SimpleNamespace(status="reached", psi=[arb(3), arb(4)])
        on_step([[arb(6), arb(8)], [arb(0), arb(1)]])
        yield SimpleNamespace(status="max_steps", psi=[arb(9), arb(9)])

    monkeypatch.setattr(K, "flow_through_norms", fake)
    tr, keep = _Recorder(), []
    with working_precision(30):
        recs, status = thm7.flow("D", (1, 2), [arb(1) / 3, 5], 30, "exp", tr, "L", keep)
    (data, param, stops, init, dps, loss, svm), = calls
    assert (data, param, init, dps, loss, svm) == ("D", "W", [1, 2], 30, "exp", False)
    with working_precision(40):
        third = arb(1) / 3
    assert stops == [to_decimal_string(third, 30), to_decimal_string(arb(5), 30)]
    assert stops[0] != to_decimal_string(third, 31)
    assert status == "max_steps" and len(recs) == 1 and recs[0][0] == 5 and recs[0][1] == [arb(3), arb(4)]
    assert [w for _, w in tr.seen] == ["L, flow point 1", "L, flow point 2", "L, flow point 3"]
    assert keep[0][0].rad() == 0 and keep == [[arb(3), arb(4)], [arb(6), arb(8)], [arb(0), arb(1)]]
    recs, status = thm7.flow("D", (1, 2), [5], 30, "exp", None, "", None)  # no track, nothing kept: fine
    assert status == "max_steps" and len(recs) == 1
    monkeypatch.setattr(K, "flow_through_norms", lambda *a, **k: iter(()))
    assert thm7.flow("D", (1,), [5], 30, "exp", None, "", None) == ([], "not run")


def test_min_selected_by_midpoint():
    """min_i s_{iα_i} with the model evaluated at the arb vector of W; overlapping balls compared by midpoint."""
    seen = []
    s0, s1 = arb(2, 1), arb("1.5", 1)
    states = [SimpleNamespace(s=[arb(9), s0]), SimpleNamespace(s=[s1, arb(0)])]
    model = SimpleNamespace(states=lambda W: seen.append(W) or states)
    got = thm7.min_selected(model, (Fraction(1, 2), 3), (1, 0))
    assert got is s1 and all(isinstance(x, arb) for x in seen[0]) and seen[0][1] == arb(3)


def test_arb_vec_keeps_balls_and_converts_rationals():
    b = arb(1, 0.5)
    got = thm7.arb_vector([b, Fraction(1, 4), "3/4"])
    assert got[0] is b and got[1] == arb("0.25") and got[2] == arb("0.75")


# ----- evaluate with the engine replaced ---------------------------------------------------------------------------------
R_G, R_L = arb(2), arb(3)
GMM = SimpleNamespace(alpha=(0,), name="α=(1)", mu=Fraction(1, 2), delta=Fraction(1, 5), A=arb(7), w=(1, 0),
                      radius=lambda: R_G)
LOC = SimpleNamespace(alpha=(1,), name="α=(2)", mu=Fraction(9, 20), delta=None, A=arb(11), w=(0, 1),
                      radius=lambda: R_L)
ETA = arb("0.125")
DIRS = {"α=(1)": [("axis", (1, 0)), ("boundary", (Fraction(3, 5), Fraction(4, 5)))],
        "α=(2)": [("axis", (0, 1)), ("boundary", (Fraction(4, 5), Fraction(3, 5)))]}


class Engine:
    """Recording stand-ins. Starts at ‖W(0)‖ = R along unit directions; GD checks 5/4·W(0) (inside: corr ≥ 3/5 ≥
    1 − μ, ‖·‖ − R = R/4 ∈ (0, 1)); the flow checks and returns W(0)·(j + 2) at the stops (j = 0, 1, …)."""

    def __init__(self, monkeypatch, a=True, lmm=True, step=True, ties=False, t1=1, status="reached",
                 gd_point=None, flow_point=None, no_recs=()):
        self.log = {k: [] for k in ("a", "lmm", "step", "model", "others", "dirs", "tab", "corr", "at", "gd", "flow",
                                    "omc", "min", "decays", "low", "plane")}
        self.a, self.lmm, self.step, self.t1, self.status = a, lmm, step, t1, status
        self.gd_point, self.flow_point, self.no_recs = gd_point, flow_point, no_recs
        self.data = SimpleNamespace(name="toy", optimal_tokens=lambda: [[0, 1]] if ties else [[0]])
        for name in ("assumption_a", "lmm_selections", "step_size_W", "other_directions", "cone_directions",
                     "CorrelationTables", "correlations", "at_norm", "gd", "flow", "one_minus_corr", "min_selected",
                     "low", "plane_figure"):
            monkeypatch.setattr(thm7, name, getattr(self, name))
        monkeypatch.setattr(thm7, "LinearLogitModel", SimpleNamespace(from_dataset=self.from_dataset))
        monkeypatch.setattr(thm7.rules, "decays", self.decays)

    def assumption_a(self, loss, data):
        self.log["a"].append((loss, data))
        return Hypothesis("Assumption A", self.a, "")

    def lmm_selections(self, data, alphas, dps):
        self.log["lmm"].append((data, alphas, dps))
        return self.lmm, "lmm detail", [GMM, LOC]

    def step_size_W(self, data, loss):
        self.log["step"].append((data, loss))
        return ETA, Hypothesis("η ≤ 1/L_W", self.step, "L_W = 8")

    def from_dataset(self, data, param, loss):
        self.log["model"].append((data, param, loss))
        return "MODEL"

    def other_directions(self, cones, cone):
        self.log["others"].append((cones, cone))
        return "OTHERS-" + cone.name

    def cone_directions(self, data, cone, m, others, random_dirs):
        self.log["dirs"].append((data, cone, m, others, random_dirs))
        return DIRS[cone.name]

    def CorrelationTables(self, model, ws):
        self.log["tab"].append((model, ws))
        return ("TAB", tuple(ws[0]))

    def correlations(self, tab, W):
        self.log["corr"].append((tab, W))
        return SimpleNamespace(values=[arb(self.t1), arb(-100)])

    def at_norm(self, d, R):
        self.log["at"].append((d, R))
        c = int(R.unique_fmpz())
        return tuple(Fraction(x) * c for x in d)

    def gd(self, model, W0, eta, steps, track, label):
        self.log["gd"].append((model, W0, eta, steps, label))
        track.check([to_arb(Fraction(5, 4) * x) for x in W0], label + ", k = 0")
        if self.gd_point is not None:
            track.check(self.gd_point, label + ", k = 1")
        return [to_arb(Fraction(5, 4) * x) for x in W0]

    def flow(self, data, W0, stops, dps, loss, track, label, keep):
        self.log["flow"].append((data, W0, stops, dps, loss, track, label, keep))
        recs = []
        for j, _ in enumerate(stops):
            W = [x * (j + 2) for x in W0]
            track.check(W, f"{label}, flow point {j + 1}")
            if keep is not None:
                keep.append(W)
            recs.append((norm2(W), W))
        if self.flow_point is not None:
            track.check(self.flow_point, f"{label}, flow point out")
        return ([] if label.endswith(self.no_recs) and self.no_recs else recs), self.status

    def one_minus_corr(self, W, wa):
        self.log["omc"].append((W, wa))
        return arb(1) / norm2(W) ** 2

    def min_selected(self, model, W, alpha):
        self.log["min"].append((model, W, alpha))
        return arb("0.5")

    def decays(self, xs, ys, expected=None, zero=None):
        self.log["decays"].append((xs, ys, expected, zero))
        return Decision(True, "decays", "stub rate")

    def low(self, *args):
        self.log["low"].append(args)

    def plane_figure(self, paths, gmm, cones, mu):
        self.log["plane"].append((paths, gmm, cones, mu))
        return "PLANE"


def _items(out, text):
    return [e for e in out.evidence if text in e.quantity]


def _eval(engine, dps=30, **kw):
    with working_precision(dps) as prec:
        return thm7.evaluate(engine.data, prec, **kw), prec


def test_evaluate_defaults_hand_on_and_read_back(monkeypatch):
    e = Engine(monkeypatch)
    out, prec = _eval(e)
    data = e.data
    assert e.log["a"] == [("logistic", data)] and e.log["lmm"] == [(data, None, 30)]
    assert e.log["step"] == [(data, "logistic")] and e.log["model"] == [(data, "W", "logistic")]
    assert [h.name for h in out.hypotheses] == ["Assumption A", thm7.LMM, "η ≤ 1/L_W"]
    assert out.hypotheses[1].detail == "lmm detail" and out.hypotheses[2].detail.startswith("L_W = 8; v1's η")
    # per cone: μ(α) used, the other directions, one random direction
    assert [(c, m, o, r) for _, c, m, o, r in e.log["dirs"]] == [(GMM, Fraction(1, 2), "OTHERS-α=(1)", 1),
                                                                (LOC, Fraction(9, 20), "OTHERS-α=(2)", 1)]
    assert e.log["others"] == [([GMM, LOC], GMM), ([GMM, LOC], LOC)] and all(x[0] is data for x in e.log["dirs"])
    assert len(e.log["flow"]) == 4 and all(x[0] is data and x[5] is not None for x in e.log["flow"])
    assert e.log["tab"] == [("MODEL", [(1, 0)]), ("MODEL", [(0, 1)])]
    # (T1) at R and 10R per direction, then the starts at R
    assert [(d, r) for d, r in e.log["at"][:5]] == [((1, 0), R_G), ((1, 0), R_G * 10),
                                                    ((Fraction(3, 5), Fraction(4, 5)), R_G),
                                                    ((Fraction(3, 5), Fraction(4, 5)), R_G * 10), ((1, 0), R_G)]
    assert all(t == ("TAB", (1, 0)) for t, _ in e.log["corr"][:4]) and e.log["corr"][1][1] == (20, 0)
    t1 = _items(out, "(T1)")
    assert [(x.relation, x.bound, x.coverage.points, x.decide()) for x in t1] == [(">", 0, 4, True)] * 2
    # GD from every start: the model, W(0) at R, η, 20 steps
    assert [(m, W0, eta, s) for m, W0, eta, s, _ in e.log["gd"]] == [
        ("MODEL", (2, 0), ETA, 20), ("MODEL", (Fraction(6, 5), Fraction(8, 5)), ETA, 20),
        ("MODEL", (0, 3), ETA, 20), ("MODEL", (Fraction(12, 5), Fraction(9, 5)), ETA, 20)]
    assert e.log["gd"][0][4] == "α=(1), W(0) = axis at ‖W(0)‖_F ≥ R"
    # the flow from GD's last iterate to R·(3, 5, 10, 20, 50), at dps, the loss, a kept list (figure)
    fl = e.log["flow"][0]
    assert fl[1] == [to_arb(Fraction(5, 2)), arb(0)] and fl[3:5] == (30, "logistic") and fl[6] == e.log["gd"][0][4]
    assert [s == R_G * f for s, f in zip(fl[2], (3, 5, 10, 20, 50))] == [True] * 5 and len(fl[2]) == 5
    assert isinstance(fl[7], list) and len(fl[7]) == 5
    # the decay rule: ‖W‖ at the stops, 1 − corr to W^mm_α, rate 2, zero 10^-30
    xs, ys, rate, zero = e.log["decays"][0]
    assert rate == 2 and zero.overlaps(arb(10) ** -30) and zero.rad() < 1e-55 and len(xs) == len(ys) == 5
    assert xs[0].overlaps(arb(5)) and e.log["omc"][0][1] == [arb(1), arb(0)]
    assert e.log["omc"][0][0] == [x * 2 for x in fl[1]] and e.log["omc"][4][0] == [x * 6 for x in fl[1]]
    flows = _items(out, "GD then gradient flow")
    assert len(flows) == 4 and all(f.rule.holds and f.enclosed is False for f in flows)
    assert flows[0].value.overlaps(arb(1) / arb(15) ** 2) and flows[0].value.rad() < 1e-20  # ys[-1]: ‖W‖ = 6·5/2
    assert e.log["min"][0] == ("MODEL", [x * 6 for x in fl[1]], (0,))
    # constants of each cone
    for c, Rc in ((GMM, R_G), (LOC, R_L)):
        assert _items(out, f"{c.name}: δ")[0].value == c.delta and _items(out, f"{c.name}: A =")[0].value is c.A
        assert _items(out, f"{c.name}: μ(α)")[0].value == c.mu and _items(out, f"{c.name}: R =")[0].value is Rc
    assert _items(out, "α=(2): δ")[0].note.startswith("∞") and _items(out, "α=(1): μ(α)")[0].note == ""
    # the Tracks: GD enclosed, flow not; shown only (informative) by default; μ and R of the cone
    gd_cone = _items(out, "α=(1) (T2) W-GD η = 1/L_W")[0]
    assert gd_cone.relation == "~" and gd_cone.enclosed is True and "would be True" in gd_cone.note
    assert gd_cone.note.endswith("; cone invariance (proof step 3): shown, not deciding")
    assert gd_cone.value.overlaps(to_arb(Fraction(1, 2) - Fraction(2, 5)))  # μ − (1 − 3/5) at the boundary start
    gd_floor = _items(out, "α=(1) (T2) W-GD: min")[0]
    assert gd_floor.enclosed is True and gd_floor.value.overlaps(to_arb(Fraction(1, 2)))  # ‖5/4·W(0)‖ − R = R/4
    fl_cone, fl_floor = _items(out, "α=(1) (T2) gradient flow")
    assert fl_cone.enclosed is False and fl_floor.enclosed is False and "would be True" in fl_floor.note
    assert all(x.relation == "~" for x in _items(out, "(T2)")) and not any("leaves" in n for n in out.notes)
    # the low starts: for α ≠ opt only, with everything they need
    (args,) = e.log["low"]
    assert args[:7] == (out, e.data, "MODEL", LOC, GMM, thm7.LOW_STARTS, R_L) and args[7] == [3, 5, 10, 20, 50]
    assert args[8] is prec and args[9] == "logistic" and args[12] is True and isinstance(args[10], list)
    # covers, range, requirement, figures
    assert out.covers == ["α ∈ {α=(1), α=(2)} (every locally-optimal α)",
                          "W(0): R·Ŵ^mm_α and cone-boundary points at ‖W(0)‖_F ≥ R (4 starts); η = 1/L_W (20 W-GD "
                          "steps) then η → 0 (the flow)"]
    assert out.range == "‖W‖_F ≤ 50·R along the gradient flow after 20 W-GD steps (η = 1/L_W)"
    assert [(r.name, r.met) for r in out.requirements] == [("α=(1): every flow reached ‖W‖_F = 50·R", True),
                                                          ("α=(2): every flow reached ‖W‖_F = 50·R", True)]
    assert [getattr(f, "name", f) for f in out.figures] == ["omc", "PLANE"]
    assert [s.label for s in out.figures[0].series] == ["α=(1): axis", "α=(1): boundary", "α=(2): axis",
                                                        "α=(2): boundary"]
    paths, gmm, cones, mu = e.log["plane"][0]
    assert gmm is GMM and cones == [GMM, LOC] and mu is None and len(paths) == 4
    assert paths[0][0] is GMM and paths[0][1] == "axis" and paths[0][2] == [[arb(2), arb(0)]] + fl[7]
    d = out.decision()
    assert (d.verdict, d.certainty) == ("HOLDS", "evidence")


def test_evaluate_options_passed_on(monkeypatch):
    """alphas, gd_steps, depth (stops ≤ depth: 10 → R·(3, 5, 10)), random_dirs, loss, low_starts; figure=False:
    nothing kept, no figure; ties in opt: no GMM, no low starts, the plane figure not drawn."""
    e = Engine(monkeypatch)
    out, _ = _eval(e, alphas=[(1,)], gd_steps=3, depth=10, random_dirs=4, loss="exp", figure=False,
                   low_starts=("7",))
    assert e.log["lmm"][0][1] == [(1,)] and e.log["a"][0][0] == "exp" and e.log["step"][0][1] == "exp"
    assert e.log["model"][0][2] == "exp" and [x[4] for x in e.log["dirs"]] == [4, 4]
    assert [x[3] for x in e.log["gd"]] == [3] * 4 and all(x[4] == "exp" and x[7] is None for x in e.log["flow"])
    assert [s == R_G * f for s, f in zip(e.log["flow"][0][2], (3, 5, 10))] == [True] * 3
    assert len(e.log["flow"][0][2]) == 3
    assert e.log["low"][0][5] == ("7",) and e.log["low"][0][7] == [3, 5, 10] and e.log["low"][0][12] is False
    assert out.covers[0] == "α ∈ {α=(1), α=(2)} (given)" and "(3 W-GD steps)" in out.covers[1]
    assert out.range == "‖W‖_F ≤ 10·R along the gradient flow after 3 W-GD steps (η = 1/L_W)"
    assert out.requirements[0].name == "α=(1): every flow reached ‖W‖_F = 10·R"
    assert out.figures == [] and e.log["plane"] == []
    e = Engine(monkeypatch, ties=True)
    out, _ = _eval(e, depth=20)
    assert e.log["low"] == [] and e.log["plane"][0][1] is None and len(e.log["flow"][0][2]) == 4
    e = Engine(monkeypatch)
    _eval(e, low_starts=())
    assert e.log["low"] == []


def test_evaluate_altered_mu(monkeypatch):
    """mu given: the cone width for the directions, both Tracks and the plane figure; named in the notes."""
    e = Engine(monkeypatch)
    out, _ = _eval(e, mu="1/3", low_starts=())
    assert [x[2] for x in e.log["dirs"]] == [Fraction(1, 3)] * 2 and e.log["plane"][0][3] == "1/3"
    assert out.notes[0] == "ALTERED statement (false case): cone width μ = 1/3 instead of μ(α)"
    assert _items(out, "α=(1): μ(α)")[0].note == "μ used: 1/3 (altered)"
    gd_cone = _items(out, "α=(1) (T2) W-GD η = 1/L_W")[0]
    assert gd_cone.value.overlaps(to_arb(Fraction(1, 3) - Fraction(2, 5)))  # now outside: μ − 2/5 < 0
    assert any(n.startswith("α=(1): the W-GD path leaves C_(μ,R)(W^mm_α): first at α=(1), W(0) = boundary")
               and n.endswith("shown only)") for n in out.notes)


@pytest.mark.parametrize("which", ["gd", "flow"])
def test_evaluate_cone_exit_shown_or_deciding(monkeypatch, which):
    """A checked point outside C_(μ,R) (W = (0, 5) for W^mm = (1, 0)): named in a note; shown only by default
    (HOLDS), deciding with invariance=True — certified for W-GD (enclosed), evidence for the flow."""
    point = [arb(0), arb(5)]
    kw = {"gd_point": point} if which == "gd" else {"flow_point": point}
    out, _ = _eval(Engine(monkeypatch, **kw), low_starts=())
    how = "W-GD" if which == "gd" else "gradient flow"
    where = ", k = 1" if which == "gd" else ", flow point out"
    assert out.decision().verdict == "HOLDS"
    assert f"α=(1): the {how} path leaves C_(μ,R)(W^mm_α): first at α=(1), W(0) = axis at ‖W(0)‖_F ≥ R{where} " \
           "(cone invariance, proof step 3, shown only)" in out.notes
    out, _ = _eval(Engine(monkeypatch, **kw), low_starts=(), invariance=True)
    d = out.decision()
    assert (d.verdict, d.certainty) == ("VIOLATED", "certified" if which == "gd" else "evidence")
    assert f"α=(1): the {how} path leaves C_(μ,R)(W^mm_α): first at α=(1), W(0) = axis at ‖W(0)‖_F ≥ R{where} " \
           "(cone invariance, proof step 3)" in out.notes
    cone = [x for x in _items(out, "α=(1) (T2)") if "μ − (1 − corr" in x.quantity and how.split()[0] in x.quantity][0]
    assert cone.relation == ">=" and cone.bound == 0 and cone.decide() is False
    assert cone.note.startswith("α=(1), W(0) = axis at ‖W(0)‖_F ≥ R" + where)


def test_evaluate_tracks_decide_with_invariance(monkeypatch):
    """invariance=True: the four Track Tallies (">= 0") decide and hold; R/4 ∈ (0, 1) pins the floor's bound 0."""
    out, _ = _eval(Engine(monkeypatch), low_starts=(), invariance=True)
    items = _items(out, "(T2) W-GD") + _items(out, "(T2) gradient flow")
    assert len(items) == 8 and all((x.relation, x.bound, x.decide()) == (">=", 0, True) for x in items)
    assert [x.enclosed for x in items] == [True, True, True, True, False, False, False, False]
    assert out.decision().verdict == "HOLDS"


def test_evaluate_t1_sign_and_unreached_flows(monkeypatch):
    """(T1) value ≤ 0 → VIOLATED certified; a flow that did not reach the depth → the requirement unmet, naming the
    start and the status; a start without reached stops adds no direction item."""
    out, _ = _eval(Engine(monkeypatch, t1=0), low_starts=())
    d = out.decision()
    assert (d.verdict, d.certainty) == ("VIOLATED", "certified") and "(T1)" in d.reasons[0]
    e = Engine(monkeypatch, status="max_steps", no_recs="boundary at ‖W(0)‖_F ≥ R")
    out, _ = _eval(e, low_starts=())
    req = out.requirements[0]
    assert req.met is False and req.detail == ("α=(1), W(0) = axis at ‖W(0)‖_F ≥ R: max_steps; "
                                               "α=(1), W(0) = boundary at ‖W(0)‖_F ≥ R: max_steps")
    assert len(_items(out, "GD then gradient flow")) == 2 and "(4 starts)" in out.covers[1]
    assert out.decision().verdict == "INCONCLUSIVE"


@pytest.mark.parametrize("fail", ["a", "lmm", "step"])
def test_evaluate_stops_at_an_unmet_hypothesis(monkeypatch, fail):
    e = Engine(monkeypatch, **{fail: False})
    out, _ = _eval(e)
    assert out.decision().verdict == "NOT_APPLICABLE" and out.hypotheses[-1].met is False
    assert len(out.hypotheses) == {"a": 1, "lmm": 2, "step": 3}[fail]
    assert e.log["model"] == [] and e.log["gd"] == [] and out.evidence == []


# ----- low (the informative starts below R) -----------------------------------------------------------------------------
def _sqrt2_best(max_den):
    """The best rational approximation of √2 = [1; 2, 2, …] with denominator ≤ max_den: the closer of the last
    convergent p/q with q ≤ max_den (p' = p + 2q, q' = p + q) and the semiconvergent (p₋ + p)/(q₋ + q) when its
    denominator fits (all partial quotients are 2, so no other semiconvergent lies in between)."""
    import mpmath

    (pm, qm), (p, q) = (1, 0), (1, 1)
    while p + q <= max_den:
        (pm, qm), (p, q) = (p, q), (p + 2 * q, p + q)
    cands = [Fraction(p, q)] + ([Fraction(pm + p, qm + q)] if qm + q <= max_den else [])
    mpmath.mp.dps = 40
    return min(cands, key=lambda f: abs(mpmath.mpf(f.numerator) / f.denominator - mpmath.sqrt(2)))


class _LowFlow:
    def __init__(self, monkeypatch, empty_first=False):
        self.calls, self.empty_first = [], empty_first
        monkeypatch.setattr(thm7, "flow", self)

    def __call__(self, data, W0, stops, dps, loss, track, label, keep=None):
        self.calls.append((data, W0, stops, dps, loss, track, label, keep))
        if keep is not None:
            keep.extend([[arb(1), arb(1)], [arb(5), arb(4)]])
        if self.empty_first and len(self.calls) == 1:
            return [], "failed"
        return [(arb(3), [arb(1), arb(1)]), (arb(4), [arb(3), arb(1)]), (norm2([arb(5), arb(4)]), [arb(5), arb(4)])], \
            "reached"


def test_low_starts_below_r(thirty_digits, monkeypatch):
    """W(0) = c·W^mm_α with c = r₀/‖W^mm_α‖ to 6-digit denominators (‖(1, 1)‖ = √2, r₀ = 2: c = √2's convergent
    the closer of 665857/470832 and 941664/665857), the flow without a track to R·stops; the item: 1 − corr to W^mm_α at the last reached stop
    W = (5, 4) (of three) — 1 − 9/√82 — not enclosed, informative; to the GMM (1, 0): 1 − 5/√41 (larger: ends at the LMM);
    a dotted series and the path (W(0) then the kept points) per start."""
    import mpmath

    fl = _LowFlow(monkeypatch)
    cone = SimpleNamespace(w=(1, 1), norm_sq=2, name="α=(2)")
    gmm = SimpleNamespace(w=(1, 0))
    out = thm7.Outcome()
    series, paths = [], []
    prec = SimpleNamespace(dps=30)
    thm7.low(out, "D", None, cone, gmm, ("2", "5"), arb(4), [3, 5], prec, "exp", series, paths, True)
    c = _sqrt2_best(10**6)
    assert c.denominator <= 10**6 < Fraction(1607521, 1136689).denominator
    (d0, W0, stops, dps, loss, track, label, keep), _ = fl.calls
    assert d0 == "D" and W0 == (c, c) and stops == [12, 20] and (dps, loss, track) == (30, "exp", None)
    c5 = fl.calls[1][1][0]
    assert fl.calls[1][1] == (c5, c5) and c5.denominator <= 10**6 and abs(c5 - Fraction(5, 2) * c) < Fraction(1, 10**5)
    assert len(out.evidence) == 2 and all(e.enclosed is False and e.relation == "~" for e in out.evidence)
    mpmath.mp.dps = 40
    want = 1 - 9 / mpmath.sqrt(82)
    v = out.evidence[0].value
    assert abs(mpmath.mpf(v.mid().str(35, radius=False)) - want) < mpmath.mpf(10) ** -25
    assert "ends at the LMM" in out.evidence[0].note
    assert [s.style for s in series] == [":", ":"] and len(series[0].x) == 3
    assert [(p[0], p[1]) for p in paths] == [(cone, "‖W(0)‖ ≈ 2 (below R)"), (cone, "‖W(0)‖ ≈ 5 (below R)")]
    assert len(paths[0][2]) == 3 and all(x.overlaps(to_arb(c)) for x in paths[0][2][0])
    assert paths[0][2][1:] == [[arb(1), arb(1)], [arb(5), arb(4)]]
    fl = _LowFlow(monkeypatch, empty_first=True)
    out, series, paths = thm7.Outcome(), [], []
    thm7.low(out, "D", None, cone, gmm, ("2", "5"), arb(4), [3, 5], prec, "exp", series, paths, False)
    assert len(fl.calls) == 2 and fl.calls[0][7] is None and len(out.evidence) == 1 and paths == []
    assert "≈ 5" in out.evidence[0].quantity and len(series) == 1


def test_low_start_scales_the_lmm_direction(thirty_digits, monkeypatch):
    """W(0) = c·W^mm_α entry by entry: W^mm_α = (3, 4) (‖·‖_F = 5), r₀ = 5 → c = 1 exactly and W(0) = (3, 4)."""
    fl = _LowFlow(monkeypatch)
    cone = SimpleNamespace(w=(3, 4), norm_sq=25, name="α=(2)")
    thm7.low(thm7.Outcome(), "D", None, cone, SimpleNamespace(w=(1, 0)), ("5",), arb(4), [3], SimpleNamespace(dps=30),
             "exp", [], [], False)
    (call,) = fl.calls
    assert call[1] == (Fraction(3), Fraction(4))


def test_a_start_without_reached_stops_skips_only_itself(monkeypatch):
    """The FIRST start of each cone (axis) returns no reached stop: its item is skipped and the next start
    (boundary) still gets its direction item — one per cone."""
    out, _ = _eval(Engine(monkeypatch, no_recs="axis at ‖W(0)‖_F ≥ R"), low_starts=())
    flows = _items(out, "GD then gradient flow")
    assert [f.quantity.split(":")[0] for f in flows] == ["α=(1), W(0) = boundary at ‖W(0)‖_F ≥ R",
                                                        "α=(2), W(0) = boundary at ‖W(0)‖_F ≥ R"]


def test_track_notes_without_an_exit_are_the_coverage(monkeypatch):
    """No path leaves the cone: each Track item's note is its Tally's coverage alone (no exit place before it)."""
    out, _ = _eval(Engine(monkeypatch), low_starts=(), invariance=True)
    items = _items(out, "(T2) W-GD") + _items(out, "(T2) gradient flow")
    assert len(items) == 8 and all(x.note.startswith(x.coverage.describe()) for x in items)


def test_low_fills_the_plane_figures_paths(monkeypatch):
    """low appends its paths to the list the plane figure then draws (the same list object)."""
    e = Engine(monkeypatch)
    _eval(e)
    (args,) = e.log["low"]
    assert args[11] is e.log["plane"][0][0] and args[10] is not args[11]
