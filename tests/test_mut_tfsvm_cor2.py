"""tfsvm.cor2 (mutation tests): what ``evaluate`` hands the engine and reads back, with the engine replaced by
recording stand-ins (the global paths, the SVMs and the SDP distances are Corollary 1's / Theorem 2's engine, tested
there), so every test here is fast: the radii (given, or R₀·``factors`` per norm with R₀ from ‖W^mm‖_F for the W
path and from the certified upper end of C⋆ for the (K,Q) path), ``starts``/``seed`` and their defaults 2 and 0, the
nuclear SVM's call (no uniqueness check) and its requirement, the W path's distance (Frobenius, zero = 10^-dps) and the
(K,Q) distances (nuclear, of K̄Q̄ᵀ and of its transpose Q̄K̄ᵀ, zero = the SDP's resolution) per ``order``, ``parts``,
the count of radii where the budget is active (|‖K̄Q̄ᵀ‖_⋆ − R| ≤ R·tol, both sides), the notes, the range (causal
suffix), the width cover, the figure switch; and ``check`` (radii as exact rationals → strings)."""
from fractions import Fraction
from types import SimpleNamespace

import pytest
from flint import arb

import lemmas.tfsvm.cor2 as C
from verify.claims import Outcome, rules
from verify.data.tfsvm_seq2seq import s2s_causal, s2s_labels

TOL = Fraction(1, 10)
PREC = SimpleNamespace(dps=30, tolerance=TOL)  # every engine call is a stand-in: an exact tolerance for the count
UPPER = arb(7)  # the nuclear certificate's upper end (C⋆ ≤ 7)
FRO = SimpleNamespace(solution=[3, 4, 0, 0])  # ‖W^mm‖_F = 5


class Engine:
    """Recording stand-ins for the engine calls of ``evaluate``."""

    def __init__(self, monkeypatch, ready=True, status="optimal", unique=True):
        self.calls = {k: [] for k in ("outcome", "r0", "path", "dist", "evidence", "svm", "unique")}
        self.ready, self.status, self.unique = ready, status, unique
        for name in ("global_path_outcome", "path_r0", "global_path", "distance_series", "path_evidence",
                     "satt_svm", "nuclear_unique"):
            monkeypatch.setattr(C, name, getattr(self, name))

    def global_path_outcome(self, data, prec):
        self.calls["outcome"].append((data, prec))
        return Outcome(), FRO, self.ready

    def path_r0(self, data, norm):
        self.calls["r0"].append((data, norm))
        return Fraction(3) if norm is UPPER else Fraction(2)

    def global_path(self, out, data, param, radii, prec, starts, seed):
        self.calls["path"].append((out, data, param, radii, prec, starts, seed))
        # ‖θ‖ at the five radii: R, R(1 + tol) (active: ≤, not <), R(1 + 2·tol), R, R → 4 active of 5
        scale = (1, 1 + TOL, 1 + 2 * TOL, 1, 1)
        pts = [SimpleNamespace(theta=[Fraction(r), 2 * Fraction(r), 3 * Fraction(r), 4 * Fraction(r)],
                               R=Fraction(r), norm=Fraction(r) * scale[k % 5]) for k, r in enumerate(radii)]
        return "par", SimpleNamespace(points=pts)

    def distance_series(self, thetas, res, dps, nuclear):
        self.calls["dist"].append((thetas, res, dps, nuclear))
        return [arb(k + 1) for k in range(len(thetas))]

    def path_evidence(self, out, label, radii, ys, prec, zero, r0=None):
        self.calls["evidence"].append((out, label, radii, ys, prec, zero, r0))
        return [arb(Fraction(r).numerator) / Fraction(r).denominator for r in radii]

    def satt_svm(self, *args, **kw):
        self.calls["svm"].append((args, kw))
        return SimpleNamespace(status=self.status, notes=["no solver", "gap"], problem="P", duals="D",
                               certificate=SimpleNamespace(lower=arb(6), upper=UPPER))

    def nuclear_unique(self, problem, duals, dps):
        self.calls["unique"].append((problem, duals, dps))
        return self.unique


def _run(monkeypatch, data=None, engine=None, **options):
    e = engine or Engine(monkeypatch)
    out = C.evaluate(data or s2s_labels(), PREC, **options)
    return out, e


def test_default_radii_and_path_calls(monkeypatch):
    """Defaults: W path at R₀ = path_r0(data, ‖W^mm‖_F = 5) = 2 times FACTORS (1, 3, 10, 30, 100), the (K,Q) path at
    R₀ = path_r0(data, upper end of C⋆) = 3 times FACTORS; starts = 2, seed = 0; the outcome is the one handed in."""
    data = s2s_labels()
    out, e = _run(monkeypatch, data)
    (d0, n0), (d1, n1) = e.calls["r0"]
    assert d0 is data and d1 is data and n1 is UPPER
    assert isinstance(n0, arb) and n0.overlaps(arb(5)) and n0.rad() < 1e-20
    (o0, x0, p0, r0_, pr0, s0, sd0), (o1, x1, p1, r1_, pr1, s1, sd1) = e.calls["path"]
    assert o0 is out and o1 is out and pr0 is PREC and pr1 is PREC and x0 is data and x1 is data
    assert (p0, p1) == ("W", "KQ")
    assert r0_ == ("2", "6", "20", "60", "200") and r1_ == ("3", "9", "30", "90", "300")
    assert (s0, sd0, s1, sd1) == (2, 0, 2, 0)
    assert e.calls["outcome"] == [(data, PREC)]


def test_given_radii_factors_starts_seed(monkeypatch):
    """Given radii replace both ladders (as strings); otherwise ``factors`` scales R₀; starts/seed passed through."""
    _, e = _run(monkeypatch, radii=(Fraction(1, 2), 4), starts=5, seed=7)
    assert [c[3] for c in e.calls["path"]] == [("1/2", "4"), ("1/2", "4")]
    assert [(c[5], c[6]) for c in e.calls["path"]] == [(5, 7), (5, 7)]
    _, e = _run(monkeypatch, factors=("1", "2"))
    assert [c[3] for c in e.calls["path"]] == [("2", "4"), ("3", "6")]


def test_distances_and_evidence_per_order(monkeypatch):
    """W: Frobenius distance to the Frobenius solution at 10^-dps resolution, R₀ = 2; (K,Q): nuclear distance of
    θ = vec(K̄Q̄ᵀ) (order KQ) and of its transpose (order QK: (a, b, c, d) → (a, c, b, d)) at the SDP's resolution,
    R₀ = 3; the radii handed on are the path points' R."""
    out, e = _run(monkeypatch)
    (tw, rw, dw, nw), (tk, rk, dk, nk), (tq, rq, dq, nq) = e.calls["dist"]
    assert rw is FRO and (dw, nw) == (30, False) and tw[0] == [2, 4, 6, 8]
    assert rk is rq and (dk, nk, dq, nq) == (30, True, 30, True)
    assert tk[1] == [9, 18, 27, 36] and tq[1] == [9, 27, 18, 36] and len(tk) == len(tq) == 5
    ew, ek, eq = e.calls["evidence"]
    assert all(c[0] is out and c[4] is PREC for c in (ew, ek, eq))
    assert ew[2] == [2, 6, 20, 60, 200] and ek[2] == [3, 9, 30, 90, 300] == eq[2]
    assert all(y.overlaps(arb(k + 1)) and y.rad() == 0 for k, y in enumerate(ew[3])) and len(ew[3]) == 5
    assert (ew[5], ew[6]) == (TOL, 2)
    assert (ek[5], ek[6], eq[5], eq[6]) == (rules.SDP_DISTANCE_RESOLUTION, 3, rules.SDP_DISTANCE_RESOLUTION, 3)
    assert "corrected order" in ek[1] and "AS PRINTED" in eq[1] and ew[1].startswith("(W)")
    for order, want in (("KQ", ["corrected"]), ("QK", ["AS PRINTED"])):
        _, e = _run(monkeypatch, order=order, parts=("KQ",))
        assert [c[3] for c in e.calls["dist"]] == [True]
        assert len(e.calls["evidence"]) == 1 and want[0] in e.calls["evidence"][0][1]
        th = e.calls["dist"][0][0][0]
        assert th == ([3, 6, 9, 12] if order == "KQ" else [3, 9, 6, 12])
    with pytest.raises(ValueError, match="order"):
        C.evaluate(s2s_labels(), PREC, order="kq")


def test_parts_select_the_paths(monkeypatch):
    """parts = (W,): no nuclear SVM, no (K,Q) path, no width cover; parts = (KQ,): no W path."""
    out, e = _run(monkeypatch, parts=("W",))
    assert [c[2] for c in e.calls["path"]] == ["W"] and not e.calls["svm"] and out.covers == []
    assert out.range == "W: R₀ = 2 ≤ R ≤ 200"
    out, e = _run(monkeypatch, parts=("KQ",))
    assert [c[2] for c in e.calls["path"]] == ["KQ"] and len(e.calls["svm"]) == 1
    assert out.covers == ["(K,Q) of width m = d = 2"] and out.range == "(K,Q): R₀ = 3 ≤ R ≤ 300"


def test_nuclear_svm_call_requirement_and_notes(monkeypatch):
    """The nuclear SAtt-SVM⋆ on the optimal tokens (select None), the data's causality, at dps, without the
    uniqueness check (a set is allowed); its certified value a met requirement; uniqueness decided from its problem
    and duals at dps; the active-budget count 4 of 5 (|‖θ‖ − R| ≤ R·tol: the point at R(1 + tol) counts, R(1 + 2tol)
    does not)."""
    data = s2s_causal()
    out, e = _run(monkeypatch, data)
    assert e.calls["svm"] == [((data, None, True), {"dps": 30, "norm": "nuc", "check_unique": False})]
    assert e.calls["unique"] == [("P", "D", 30)]
    req = [r for r in out.requirements if r.name.startswith("SAtt-SVM⋆ (nuclear)")]
    assert len(req) == 1 and req[0].met is True and req[0].detail.startswith("‖W^mm_⋆‖_⋆ = C⋆ ∈ [6")
    assert "𝒲^mm_⋆ is a single point" in out.notes
    assert any(n.startswith("(K,Q) ‖K̄Q̄ᵀ‖_⋆ = R") and n.endswith("at 4 of 5 radii") for n in out.notes)
    assert out.range == "W: R₀ = 2 ≤ R ≤ 200; (K,Q): R₀ = 3 ≤ R ≤ 300 (causal)"
    assert out.covers == ["(K,Q) of width m = d = 2"]
    for uniq, text in ((False, "not a single point (distance to the set)"), (None, "of undecided size")):
        out, _ = _run(monkeypatch, engine=Engine(monkeypatch, unique=uniq))
        assert "𝒲^mm_⋆ is " + text in out.notes
        assert out.range == "W: R₀ = 2 ≤ R ≤ 200; (K,Q): R₀ = 3 ≤ R ≤ 300"


def test_nuclear_svm_not_solved_stops(monkeypatch):
    """An unsolved nuclear SVM: the requirement unmet with the solver's notes, no (K,Q) path, no range."""
    out, e = _run(monkeypatch, engine=Engine(monkeypatch, status="infeasible"))
    req = [r for r in out.requirements if r.name.startswith("SAtt-SVM⋆ (nuclear)")]
    assert len(req) == 1 and req[0].met is False and req[0].detail == "no solver; gap"
    assert [c[2] for c in e.calls["path"]] == ["W"] and not e.calls["unique"] and out.range is None


def test_not_ready_returns_the_opening(monkeypatch):
    out, e = _run(monkeypatch, engine=Engine(monkeypatch, ready=False))
    assert not e.calls["path"] and not e.calls["svm"] and out.range is None and out.evidence == []


def test_figure_switch(monkeypatch):
    """figure defaults to True: one figure with a series per path (W, K̄Q̄ᵀ, Q̄K̄ᵀ); figure=False or nothing to plot
    (no parts) → none."""
    out, _ = _run(monkeypatch)
    assert [f.name for f in out.figures] == ["paths"] and len(out.figures[0].series) == 3
    out, _ = _run(monkeypatch, figure=False)
    assert out.figures == []
    out, _ = _run(monkeypatch, parts=())
    assert out.figures == [] and out.range == ""


def test_check_passes_exact_radii(monkeypatch):
    """check: radii as exact rationals written as strings (floats and strings read exactly); None stays None."""
    seen = []
    monkeypatch.setattr(C, "evaluate", lambda data, prec, **kw: seen.append((data, prec, kw)) or "out")
    data = s2s_labels()
    assert C.check(data, PREC, radii=[1, "3/2", 0.25]) == "out"
    assert C.check(data, PREC) == "out"
    assert seen == [(data, PREC, {"radii": ("1", "3/2", "1/4")}), (data, PREC, {"radii": None})]


def test_nuclear_distances_reach_their_evidence(monkeypatch):
    """The (K,Q) items get the distance series computed for them (the stand-in's 1, 2, …, 5 for K̄Q̄ᵀ and again for
    Q̄K̄ᵀ), not a missing one."""
    _, e = _run(monkeypatch)
    _, ek, eq = e.calls["evidence"]
    for ys in (ek[3], eq[3]):
        assert len(ys) == 5 and all(y.overlaps(arb(k + 1)) and y.rad() == 0 for k, y in enumerate(ys))
