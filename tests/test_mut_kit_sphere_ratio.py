"""verify.kit.sphere_ratio (mutation tests): ρ at one sphere point with a constant gradient (num = ⟨w, c p̄ + s u⟩,
den = ⟨w, p^mm⟩/‖p^mm‖ with c = 1 − m, s = √(m(2 − m)), derived here), ρ only where den > 0, the sup over points,
the golden-section refinement (its bracket from the neighbouring levels, the fallbacks at the ends, its evaluation
count and where it converges: the maximiser of (a c + b s)/a is c = a/√(a² + b²)), the scan's routing (a recording
ConeScan), the limit along a ray (unique selection, both leading-term calls, c_den > 0 on both sides) and the
figure's log10(sup ρ − 1)."""
import math
from fractions import Fraction
from types import SimpleNamespace as NS

import pytest
from flint import arb

from verify.kit import sphere_ratio as S
from verify.numbers.precision import to_arb, working_precision


@pytest.fixture(autouse=True)
def _prec():
    with working_precision(30):
        yield


class ConstGrad:
    """A model whose −∇L is the constant w (and records where it was asked)."""

    def __init__(self, w):
        self.w, self.asked = [to_arb(x) for x in w], []

    def grad(self, p):
        self.asked.append(p)
        return [-x for x in self.w]


def _scan(w=(1, 1), nrm=2):
    """p̄ = (1, 0), one direction u = (0, 1), p^mm = nrm·p̄."""
    return NS(pbar=[to_arb(1), to_arb(0)], pmm=[to_arb(nrm), to_arb(0)], nrm=to_arb(nrm), dirs=[[to_arb(0), to_arb(1)]])


def _rho(a, b, m):
    c, s = 1 - m, math.sqrt(m * (2 - m))
    return (a * c + b * s) / a


def test_point_num_den_and_ratio():
    """w = (1, 3), m = 1/2, r = 5: c = 1/2, s = √3/2 → num = 1/2 + 3√3/2, den = (1·2 + 3·0)/2 = 1; the gradient is
    asked at r((1 − m)p̄ + s u) = (5/2, 5√3/2)."""
    model = ConstGrad((1, 3))
    pt = S.point(_scan(), model, [to_arb(0), to_arb(1)], Fraction(1, 2), 4, 5)
    assert abs(float(pt["num"].mid()) - (0.5 + 1.5 * math.sqrt(3))) < 1e-14
    assert abs(float(pt["den"].mid()) - 1) < 1e-14 and pt["m"] == Fraction(1, 2) and pt["k"] == 4 and pt["r"] == 5
    p = model.asked[0]
    assert abs(float(p[0].mid()) - 2.5) < 1e-14 and abs(float(p[1].mid()) - 2.5 * math.sqrt(3)) < 1e-14
    assert pt["where"] == "‖p‖ = 5, 1 − corr = 0.5, direction 4 (refined)"
    assert abs(float(S.ratio(pt).mid()) - (0.5 + 1.5 * math.sqrt(3))) < 1e-14
    assert S.ratio({"num": to_arb(1), "den": to_arb(0)}) is None
    assert S.ratio({"num": to_arb(1), "den": to_arb(-1)}) is None
    assert S.ratio({"num": to_arb(3), "den": to_arb(Fraction(1, 2))}) == 6


def test_sup_ratio():
    pts = [{"num": to_arb(3), "den": to_arb(2)}, {"num": to_arb(5), "den": to_arb(0)},
           {"num": to_arb(7), "den": to_arb(4)}, {"num": to_arb(1), "den": to_arb(4)}]
    assert S.sup_ratio(pts) == to_arb(Fraction(7, 4))
    assert S.sup_ratio(pts[1:2]) is None and S.sup_ratio([]) is None


def _pts(S_, model, levels, k=0, r=1):
    return [S.point(S_, model, S_.dirs[k], Fraction(m), k, r) for m in levels]


def test_refined_converges_to_the_maximiser_inside_the_bracket():
    """w = (1, 1): ρ(m) = (1 − m) + √(m(2 − m)), maximal at m* = 1 − 1/√2 ≈ 0.2929 (ρ = √2). Levels 1/8, 1/4, 1/2, 1:
    the best is 1/4 → bracket [1/8, 1/2]; 2 + REFINE_STEPS evaluations, every m inside, the best within 10⁻⁴ of m*."""
    sc, model = _scan(), ConstGrad((1, 1))
    pts = _pts(sc, model, ["1/8", "1/4", "1/2", "1"], r=3)
    out = S._refined(sc, model, pts, 3)
    assert len(out) == 2 + S.REFINE_STEPS and S.REFINE_STEPS == 24
    ms = [pt["m"] for pt in out]
    assert all(Fraction(1, 8) <= m <= Fraction(1, 2) for m in ms) and all(pt["k"] == 0 and pt["r"] == 3 for pt in out)
    best = max(out, key=lambda pt: S.ratio(pt).mid())
    assert abs(float(best["m"]) - (1 - 1 / math.sqrt(2))) < 1e-4
    assert abs(float(S.ratio(best).mid()) - math.sqrt(2)) < 1e-8
    assert all(m.denominator <= 10**12 for m in ms)
    # the first two evaluations are the golden points of [ln 1/8, ln 1/2]
    a, b = math.log(1 / 8), math.log(1 / 2)
    g = (math.sqrt(5) - 1) / 2
    assert abs(math.log(ms[0]) - (b - g * (b - a))) < 1e-9 and abs(math.log(ms[1]) - (a + g * (b - a))) < 1e-9


def test_refined_picks_the_best_direction_and_its_levels():
    """Two directions: u₀ = (0, 1) with w giving ρ ≈ 1.4, u₁ = (0, −1) worse; the refinement runs on direction 0 and
    its levels only (a level of direction 1 between them does not narrow the bracket)."""
    sc, model = _scan(), ConstGrad((1, 1))
    sc.dirs = [[to_arb(0), to_arb(1)], [to_arb(0), to_arb(-1)]]
    pts = _pts(sc, model, ["1/8", "1/4", "1/2"]) + _pts(sc, model, ["3/16", "3/8"], k=1)
    out = S._refined(sc, model, pts, 1)
    assert {pt["k"] for pt in out} == {0}
    assert abs(math.log(out[0]["m"]) - _golden(Fraction(1, 8), Fraction(1, 2))[0]) < 1e-9
    sc2 = _scan()
    sc2.dirs = [[to_arb(0), to_arb(-1)], [to_arb(0), to_arb(1)]]
    pts = _pts(sc2, model, ["1/4"], k=0) + _pts(sc2, model, ["1/8", "1/4", "1/2"], k=1)
    out = S._refined(sc2, model, pts, 1)
    assert {pt["k"] for pt in out} == {1}


def _golden(lo, hi):
    a, b = math.log(lo), math.log(hi)
    g = (math.sqrt(5) - 1) / 2
    return b - g * (b - a), a + g * (b - a)


def test_refined_bracket_at_the_ends():
    """Best at the lowest level m₀ = 1/8 (w = (1, 1/4): m* = 1 − 4/√17 ≈ 0.0299) → lo = m₀/100 (0 is a level);
    best at the top level m₀ (w = (1, 40): m* ≈ 0.975) → hi = min(2, 4m₀) (the first golden points name the bracket)."""
    sc = _scan()
    model = ConstGrad((1, Fraction(1, 4)))
    out = S._refined(sc, model, _pts(sc, model, ["1/8", "1/4"]), 1)
    ms = [pt["m"] for pt in out]
    assert min(ms) >= Fraction(1, 800) and max(ms) <= Fraction(1, 4)
    assert abs(math.log(ms[0]) - _golden(Fraction(1, 800), Fraction(1, 4))[0]) < 1e-9
    best = max(out, key=lambda pt: S.ratio(pt).mid())
    assert abs(float(best["m"]) - (1 - 4 / math.sqrt(17))) < 1e-4
    model = ConstGrad((1, 40))
    out = S._refined(sc, model, _pts(sc, model, ["1/2", "1"]), 1)   # top level 1: hi = min(2, 4) = 2
    assert abs(math.log(out[1]["m"]) - _golden(Fraction(1, 2), Fraction(2))[1]) < 1e-9
    out = S._refined(sc, model, _pts(sc, model, ["1/4", "1/2"]), 1)   # top level 1/2: hi = 2
    assert abs(math.log(out[1]["m"]) - _golden(Fraction(1, 4), Fraction(2))[1]) < 1e-9
    out = S._refined(sc, model, _pts(sc, model, ["1/8", "1/4"]), 1)   # top level 1/4: hi = 1
    assert abs(math.log(out[1]["m"]) - _golden(Fraction(1, 8), Fraction(1))[1]) < 1e-9
    assert max(pt["m"] for pt in out) <= 1
    assert abs(float(max(out, key=lambda pt: S.ratio(pt).mid())["m"]) - (1 - 1 / math.sqrt(1601))) < 1e-3


def test_refined_nothing_to_refine():
    """No point with den > 0 (w = (−1, 1)) → []; best at m = 0 (its bracket collapses) → []."""
    sc = _scan()
    model = ConstGrad((-1, 1))
    assert S._refined(sc, model, _pts(sc, model, ["1/4", "1/2"]), 1) == []
    model = ConstGrad((1, 0))   # ρ(m) = 1 − m: best at m = 0
    assert S._refined(sc, model, _pts(sc, model, ["0", "1/4"]), 1) == []


def test_refined_skips_points_without_a_ratio_when_scoring():
    """A point with den ≤ 0 and a huge num is ignored when choosing the best."""
    sc, model = _scan(), ConstGrad((1, 1))
    pts = _pts(sc, model, ["1/8", "1/4", "1/2"])
    pts.append({"m": Fraction(3, 2), "k": 0, "num": to_arb(100), "den": to_arb(-1)})
    out = S._refined(sc, model, pts, 1)
    assert out and max(pt["m"] for pt in out) <= Fraction(1, 2)


def test_sphere_scan_routes_and_refines(monkeypatch):
    rec = {}

    class FakeScan:
        def __init__(self, data, g, cone, radii, loss, pis, levels):
            rec["scan"] = (data, g, cone, tuple(radii), loss, pis, levels)
            self.radii, self.points = list(radii), [["p0"], ["p1"]]

    monkeypatch.setattr(S, "ConeScan", FakeScan)
    monkeypatch.setattr(S.LinearLogitModel, "from_dataset", classmethod(lambda cls, d, par, loss: ("M", d, par, loss)))
    monkeypatch.setattr(S, "_refined", lambda sc, model, pts, r: [("ref", model[2], tuple(pts), r)])
    sc = S.sphere_scan("D", "G", (3, 7), "logistic", pis=(Fraction(1, 2),))
    data, g, cone, radii, loss, pis, levels = rec["scan"]
    assert (data, g, cone, radii, pis) == ("D", "G", Fraction(2), (3, 7), (Fraction(1, 2),))
    assert str(loss) == str(S.get_loss("logistic")) and levels == tuple(Fraction(k, 16) for k in range(1, 32))
    assert sc.points == [["p0", ("ref", "p", ("p0",), 3)], ["p1", ("ref", "p", ("p1",), 7)]]
    sc = S.sphere_scan("D", "G", (3,), "logistic", refine=False)
    assert sc.points == [["p0"], ["p1"]] and rec["scan"][5] == ()


def _limit_env(monkeypatch, logits, c_num, c_den):
    calls = []
    monkeypatch.setattr(S, "features", lambda data, par: [[[x] for x in seq] for seq in logits])
    monkeypatch.setattr(S, "lmm_geometry", lambda data, alpha: calls.append(("g", alpha)) or "GEO")
    monkeypatch.setattr(S, "cone_point", lambda pbar, u, m, r: calls.append(("q", m, r)) or [to_arb(1)])

    def leading_term(g, q, direction, loss):
        calls.append(("lead", g, direction))
        return None, "nearest (1, 2)", (c_num if direction == q else c_den)

    monkeypatch.setattr(S, "leading_term", leading_term)
    return calls


def _limit(pi=Fraction(1, 2)):
    sc = NS(pbar=[to_arb(5)], dirs=["u0", "u1"])
    return S.ratio_limit("D", sc, {"k": 1, "m": Fraction(1, 4), "where": "here"}, "logistic", pi)


def test_ratio_limit_value_against_one_plus_pi(monkeypatch):
    """Logits per sequence (q̄ = 1): (1, 3, 2) → α = 1, (0, −1) → α = 0; ρ → c_num/c_den = 3/2 vs 1 + π."""
    calls = _limit_env(monkeypatch, [[1, 3, 2], [0, -1]], to_arb(3), to_arb(2))
    ev = _limit()
    assert ("q", Fraction(1, 4), 1) in calls and ("g", (1, 0)) in calls
    assert [c[2] for c in calls if c[0] == "lead"] == [[to_arb(1)], [to_arb(5)]]
    assert ev.value == to_arb(Fraction(3, 2)) and ev.relation == "<=" and ev.decide() is True
    assert "selection α = [1, 0]" in ev.note
    assert _limit(Fraction(1, 4)).decide() is False
    assert ev.bound == to_arb(Fraction(3, 2))


def test_ratio_limit_not_derived(monkeypatch):
    _limit_env(monkeypatch, [[1, 3, 3]], to_arb(3), to_arb(2))
    ev = _limit()
    assert ev.value is None and ev.relation == "~" and "no unique selected token" in ev.note
    _limit_env(monkeypatch, [[3, 1, 3]], to_arb(3), to_arb(2))
    assert _limit().value is None
    for num, den in ((None, to_arb(2)), (to_arb(3), None), (to_arb(3), to_arb(0)), (to_arb(3), arb(0, 1))):
        _limit_env(monkeypatch, [[1, 3]], num, den)
        ev = _limit()
        assert ev.value is None and ev.relation == "~" and "selection α = [1]" in ev.note
    _limit_env(monkeypatch, [[1, 3]], to_arb(3), to_arb(Fraction(1, 10**20)))
    assert _limit().value is not None


def test_ratio_figure():
    """sup ρ per radius: 1 + 10⁻³ → −3, none → None, 1 + 10 → log10 10 = 1; the π levels at log10 π."""
    def pts(v):
        return [{"num": to_arb(v), "den": to_arb(1)}] if v is not None else []
    sc = NS(radii=[1, 10, 100], points=[pts(1 + Fraction(1, 1000)), pts(None), pts(11)])
    fig = S.ratio_figure(sc, [Fraction(1, 100)], "t")
    (s,) = fig.series
    assert s.x == [1.0, 10.0, 100.0] and abs(s.y[0] + 3) < 1e-12 and s.y[1] is None and abs(s.y[2] - 1) < 1e-12
    assert fig.hlines == [(-2.0, "π = 0.01")] and fig.logx is True
    fig = S.ratio_figure(NS(radii=[1], points=[pts(Fraction(1, 2))]), [], "t")
    assert fig.series[0].y == [None]


def test_sup_ratio_and_refined_go_by_midpoints():
    """Overlapping ratios 1 ± 2 (first) and 3/2 ± 1/100: by midpoint the second is the larger — the sup, and the
    point the refinement brackets (best at the top level 1/2: [1/4, 2]; the first would give [1/400, 1/2])."""
    wide, tight = {"num": arb(1, 2), "den": to_arb(1)}, {"num": arb(1.5, 0.01), "den": to_arb(1)}
    assert S.sup_ratio([wide, tight]).mid() == 1.5
    sc, model = _scan(), ConstGrad((1, 1))
    pts = [dict(wide, m=Fraction(1, 4), k=0), dict(tight, m=Fraction(1, 2), k=0)]
    out = S._refined(sc, model, pts, 1)
    assert abs(math.log(out[0]["m"]) - _golden(Fraction(1, 4), Fraction(2))[0]) < 1e-9


def test_refined_moves_down_when_every_evaluation_has_no_ratio():
    """The given points have den > 0, every new one den < 0 (w = (−1, 1)): f = −∞ everywhere, ties keep the lower
    part (fc ≥ fd): the evaluations run down to lo = 1/8."""
    sc, model = _scan(), ConstGrad((-1, 1))
    pts = [{"m": Fraction(m), "k": 0, "num": to_arb(v), "den": to_arb(1)} for m, v in (("1/8", 1), ("1/4", 2),
                                                                                          ("1/2", 1))]
    out = S._refined(sc, model, pts, 1)
    assert len(out) == 2 + S.REFINE_STEPS and abs(float(out[-1]["m"]) - 1 / 8) < 1e-4


def test_calls_receive_the_data_direction_and_loss(monkeypatch):
    seen = []
    _limit_env(monkeypatch, [[1, 3]], to_arb(3), to_arb(2))
    monkeypatch.setattr(S, "features", lambda data, par: seen.append(("f", data, par)) or [[[1], [3]]])
    monkeypatch.setattr(S, "cone_point", lambda pbar, u, m, r: seen.append(("q", pbar, u)) or [to_arb(1)])
    monkeypatch.setattr(S, "lmm_geometry", lambda data, alpha: seen.append(("g", data)) or "GEO")

    def leading_term(g, q, direction, loss):
        seen.append(("lead", g, q, str(loss)))
        return None, "", to_arb(1)
    monkeypatch.setattr(S, "leading_term", leading_term)
    _limit()
    assert ("f", "D", "p") in seen and ("q", [to_arb(5)], "u1") in seen and ("g", "D") in seen
    assert seen.count(("lead", "GEO", [to_arb(1)], str(S.get_loss("logistic")))) == 2
    _limit_env(monkeypatch, [[3, 3]], to_arb(3), to_arb(2))
    assert _limit().relation == "~"
    _limit_env(monkeypatch, [[1, 3]], None, to_arb(2))
    assert _limit().relation == "~"


def test_sphere_scan_passes_data_loss_and_scan(monkeypatch):
    rec = {}

    class FakeScan:
        def __init__(self, *a, **k):
            self.radii, self.points = [3], [["p0"]]

    monkeypatch.setattr(S, "ConeScan", FakeScan)
    monkeypatch.setattr(S.LinearLogitModel, "from_dataset",
                        classmethod(lambda cls, d, par, loss: rec.update(model=(d, str(loss))) or "M"))
    monkeypatch.setattr(S, "_refined", lambda sc, model, pts, r: rec.update(scan=sc) or [])
    sc = S.sphere_scan("D", "G", (3,), "logistic")
    assert rec["model"] == ("D", str(S.get_loss("logistic"))) and rec["scan"] is sc


class HalfSphere:
    """−∇L = (±1, 4): den = +1 where c = 1 − m < 3/5 (m > 2/5), −1 elsewhere (no ratio there); on m > 2/5
    ρ = c + 4s, largest at c = 1/√17 (m* = 1 − 1/√17 ≈ 0.7575)."""

    def grad(self, p):
        return [to_arb(-1 if p[0].mid() < 0.6 else 1), to_arb(-4)]


def test_refined_avoids_points_without_a_ratio():
    """The bracket [1/8, 1] (best given level 1/4, top level 1): points without a ratio count as −∞, so the search
    converges to m* on the side that has a ratio (the first golden points, m ≈ 0.277 and 0.452, straddle 2/5)."""
    sc = _scan()
    pts = [{"m": Fraction(m), "k": 0, "num": to_arb(v), "den": to_arb(1)} for m, v in (("1/8", 1), ("1/4", 2), ("1", 1))]
    out = S._refined(sc, HalfSphere(), pts, 1)
    assert abs(float(out[-1]["m"]) - (1 - 1 / math.sqrt(17))) < 1e-3
