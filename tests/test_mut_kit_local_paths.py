"""verify.kit.local_paths (mutation tests): mmts Theorems 4/7's hypotheses (Assumption A for the logistic loss,
distinct scores within every input, q not a positive multiple of an LMM direction — exact, undecided when the LMMs
cannot be enumerated — and, for Theorem 7, general position), the defaults (radii, ε, R₀, q per dataset), the
options' routing (``check`` → ``local_path_evidence`` → the local path), and the items built from a stand-in local
path: dist(R) = ‖p̄(R)/R − q̄‖ decided by ``rules.stays_away`` against the working precision's zero (a plateau holds,
a decay to q fails), never a certificate, the norm at the largest R, the range and the coverage text, the figures
(with the LMM/GMM directions as references). Expected distances by hand."""
from fractions import Fraction
from types import SimpleNamespace

import pytest
from flint import arb

from verify.claims import Hypothesis
from verify.data.dataset import Dataset
from verify.kit import local_paths as L
from verify.numbers.precision import to_arb, working_precision


def test_parallel_is_a_positive_multiple_exactly():
    assert L._parallel((2, 4), (1, 2)) is True
    assert L._parallel((Fraction(1, 2), 1), (1, 2)) is True
    assert L._parallel((-1, -2), (1, 2)) is False           # a negative multiple
    assert L._parallel((2, 5), (1, 2)) is False
    assert L._parallel((0, 6), (0, 3)) is True               # the first nonzero entry of p is the second
    assert L._parallel((1, 6), (0, 3)) is False
    assert L._parallel((0, -6), (0, 3)) is False
    assert L._parallel((3, 0, 1), (3, 0, 2)) is False        # the ratio fixed by the first entry fails the last
    assert L._parallel((0, 0), (1, 2)) is False              # q = 0 = 0·p: not a positive multiple


def test_defaults():
    assert L.RADII == ("5", "20", "100", "300", "1000")
    assert L.EPS == (Fraction(1, 100), Fraction(1, 1000)) and L.R0S == (Fraction(1),)
    assert L.DIRECTIONS == {"mmts-fig1b-prime-planar": (1, 0), "mmts-fig1b-planar": (1, Fraction(1, 4))}
    eps, r0, q = L.PARAMETERS
    assert (eps.symbol, eps.coverage, eps.option, eps.kind, eps.low, eps.high) == ("ε", "range", "eps", "rationals", 0, 1)
    assert (r0.symbol, r0.coverage, r0.option, r0.kind, r0.low, r0.high) == ("R₀", "range", "R0", "rationals", 0, None)
    assert (q.symbol, q.coverage, q.option) == ("q", "range", None)
    names = [d.name for d in L.default_datasets()]
    assert names == ["mmts-fig1b-prime-planar", "mmts-fig1b-planar"] == list(L.DIRECTIONS)
    assert L.default_datasets(5)[0].K is not None


# ----- hypotheses ---------------------------------------------------------------------------------------------------
def _data(X, Y=(1,), v=(1, 0), name="lp"):
    return Dataset.make(X, list(Y), list(v), name=name)


DISTINCT = _data([[[2, 0], [1, 0], [0, 0]], [[0, 0], [1, 0], [0, 1]]], Y=(1, -1))   # γ = (2, 1, 0), (0, −1, 0)


def _stubs(monkeypatch, lmms=(), general=(True, "gp")):
    asked = []
    def on(what, data):
        assert data is not None and hasattr(data, "scores"), what   # the dataset itself is passed on
        asked.append(what)

    monkeypatch.setattr(L, "assumption_a", lambda loss, data: on(("A", loss), data) or Hypothesis("A", True))
    monkeypatch.setattr(L, "locally_optimal_geometries", lambda data: on("lmm", data) or lmms)
    monkeypatch.setattr(L, "general_position", lambda data: on("gp", data) or general)
    return asked


def _g(alpha, p, gmm=False):
    return SimpleNamespace(alpha=alpha, p_mm=p, is_gmm=gmm)


def test_hypotheses_in_order_with_assumption_a_for_the_logistic_loss(monkeypatch):
    asked = _stubs(monkeypatch, lmms=[_g((0,), (1, 1))])
    hyps = L.hypotheses(_data([[[2, 0], [1, 0]]]), (1, 0), general=False)
    assert [h.name for h in hyps] == ["A", "distinct scores: γ_it ≠ γ_iτ for t ≠ τ", "q ∉ P^mm (not an LMM direction)"]
    assert [h.met for h in hyps] == [True, True, True] and asked == [("A", "logistic"), "lmm"]
    hyps = L.hypotheses(_data([[[2, 0], [1, 0]]]), (1, 0), general=True)
    assert hyps[-1].name.startswith("keys in general position") and hyps[-1].met is True and hyps[-1].detail == "gp"
    assert len(hyps) == 4


def test_distinct_scores_within_every_input(monkeypatch):
    """Sequence 2 of DISTINCT has γ = (0, −1, 0): a tie within it (across inputs ties are allowed)."""
    _stubs(monkeypatch)
    h = L.hypotheses(_data([[[2, 0], [1, 0]], [[1, 0], [2, 0]]], Y=(1, 1)), (1, 0), False)[1]
    assert h.met is True and h.detail == "all scores distinct within every input"
    h = L.hypotheses(DISTINCT, (1, 0), False)[1]
    assert h.met is False and h.detail == "ties in input(s) [1]"
    assert L.hypotheses(_data([[[1, 0], [1, 5], [0, 0]]]), (1, 0), False)[1].met is False


def test_q_against_the_lmm_directions(monkeypatch):
    """q ∥ p^mm of a locally-optimal α (a positive multiple): not met; q ∥ −p^mm or no LMM parallel: met; the LMMs
    not enumerable: undecided; not asked at all when ``require_non_lmm`` is False."""
    data = _data([[[2, 0], [1, 0]]])
    _stubs(monkeypatch, lmms=[_g((0,), (0, 1)), _g((1,), (2, 1))])
    h = L.hypotheses(data, (4, 2), False)[2]
    assert h.met is False and h.detail == "q ∥ p^mm(α = [1]), locally optimal"
    h = L.hypotheses(data, (-4, -2), False)[2]
    assert h.met is True and h.detail == "q ∦ p^mm(α) for each of the 2 locally-optimal α: [0]; [1]"
    assert L.hypotheses(data, (1, 0), False)[2].met is True
    _stubs(monkeypatch, lmms=None)
    h = L.hypotheses(data, (1, 0), False)[2]
    assert h.met is None and h.name == "q ∉ P^mm (not an LMM direction)"
    assert h.detail == "Tⁿ too large to enumerate the LMMs"
    asked = _stubs(monkeypatch, lmms=[_g((0,), (1, 0))], general=(False, "not gp"))
    hyps = L.hypotheses(data, (1, 0), True, require_non_lmm=False)
    assert "lmm" not in asked and len(hyps) == 3 and hyps[2].met is False and hyps[2].detail == "not gp"
    assert L.hypotheses(data, (1, 0), False)[2].met is False   # the default asks


# ----- check → local_path_evidence -------------------------------------------------------------------------------
def test_check_maps_its_options_and_the_default_q(monkeypatch):
    calls = []
    monkeypatch.setattr(L, "local_path_evidence", lambda data, prec, q, **kw: calls.append((data, prec, q, kw)) or "OUT")
    named = SimpleNamespace(name="mmts-fig1b-planar")
    assert L.check(named, "P", general=True, title="T") == "OUT"
    assert calls[-1] == (named, "P", (1, Fraction(1, 4)),
                         dict(general=True, require_non_lmm=True, figure=True, title="T"))
    other = SimpleNamespace(name="other")
    L.check(other, "P", general=False, title="U", eps=[1], R0=[2], radii=["3"], require_non_lmm=False, figure=False)
    assert calls[-1] == (other, "P", (1, 0), dict(general=False, require_non_lmm=False, figure=False, title="U",
                                                  eps_list=[1], r0_list=[2], radii=["3"]))
    L.check(named, "P", general=False, title="", q=(0, 1))
    assert calls[-1][2] == (0, 1)
    L.check(SimpleNamespace(name="mmts-fig1b-prime-planar"), "P", general=False, title="")
    assert calls[-1][2] == (1, 0)


# ----- local_path_evidence with a stand-in path ----------------------------------------------------------------------
def _point(R, theta, norm, notes=(), resolved=True):
    return SimpleNamespace(R=to_arb(Fraction(R)), theta=[to_arb(Fraction(x)) for x in theta], norm=arb(norm),
                           notes=list(notes), resolved=resolved)


def _paths(monkeypatch, thetas_for, notes=("R0", "cone edge", "R − 1", "unresolved: x"), blind=()):
    """A stand-in local path: θ(R) = ``thetas_for(R)``, unresolved at the radii in ``blind``; records the arguments."""
    calls = []

    def local_regularization_path(data, q, radii, eps, R0, dps, starts):
        assert data is not None
        calls.append((q, tuple(radii), eps, R0, dps, starts))
        # ‖p̄(R)‖ = 7 and the notes only at the largest R (the item reads the last point)
        pts = [_point(Fraction(str(R)), thetas_for(Fraction(str(R))), 7 if k == len(radii) - 1 else k,
                      notes if k == len(radii) - 1 else ("early",), resolved=R not in blind)
               for k, R in enumerate(radii)]
        return SimpleNamespace(points=pts)

    monkeypatch.setattr(L, "local_regularization_path", local_regularization_path)
    monkeypatch.setattr(L, "hypotheses", lambda data, q, general, require: [Hypothesis("h", True)])
    monkeypatch.setattr(L, "locally_optimal_geometries", lambda data: [] if data == "D" else None)
    return calls


def _evaluate(**kw):
    with working_precision(30) as prec:
        return L.local_path_evidence("D", prec, kw.pop("q", (3, 4)), False, **kw), prec


RADII = ("10", "100", "1000", "10000")


def test_a_path_with_bounded_norm_stays_away_from_q(monkeypatch):
    """q = (3, 4): q̄ = (3/5, 4/5). θ(R) = (2, 0) for every R: dist(R) = ‖(2/R − 3/5, −4/5)‖ → 1 (0.894, 0.988,
    0.9988, 0.99988 at R = 10…10⁴: exponent ≈ 0.04 < 1/20), a plateau: stays away, holds — evidence (not enclosed).
    dist(10⁴) = √((1/5000 − 3/5)² + 16/25)."""
    calls = _paths(monkeypatch, lambda R: (2, 0))
    out, prec = _evaluate(eps_list=(Fraction(1, 10),), r0_list=(Fraction(2),), radii=RADII, starts=3)
    assert calls == [((Fraction(3), Fraction(4)), RADII, Fraction(1, 10), Fraction(2), prec.dps, 3)]
    assert len(out.evidence) == 2
    dist, norm = out.evidence
    assert dist.rule is not None and dist.decide() is True and dist.enclosed is False and not dist.certified
    with working_precision(30):
        expect = ((arb(1) / 5000 - arb(3) / 5) ** 2 + arb(16) / 25).sqrt()
        assert abs(dist.value - expect) < arb(10) ** -25
    assert dist.quantity.startswith("ε = 1/10, R₀ = 2: ‖p̄(R)/R − q̄‖ ↛ 0")
    assert dist.note == "10: 0.8944, 100: 0.9881, 1000: 0.9988, 10000: 0.9999"   # √0.8, √0.9764, √0.997604, …
    assert norm.value == 7 and norm.enclosed is False and norm.decide() is None
    assert "(active: R0, cone edge)" in norm.quantity
    assert out.range == "R ≤ 10000"
    assert out.covers == ["ε ∈ {1/10}, R₀ ∈ {2}; q ∝ (3, 4)"]


def test_a_path_converging_to_q_fails(monkeypatch):
    """θ(R) = R·q̄ + √R·(4/5, −3/5) (exact at the squares R = 1, 100, 10⁴, 10⁶): θ/R − q̄ = R^{-1/2}·(a unit vector),
    dist(R) = R^{-1/2} → 0 like a power law (exponent 1/2 ≥ MIN_DECAY_EXPONENT): the path converges to q —
    stays_away fails; dist(10⁶) = 1/1000."""
    _paths(monkeypatch, lambda R: (Fraction(3, 5) * R + Fraction(4, 5) * _sqrt(R),
                                   Fraction(4, 5) * R - Fraction(3, 5) * _sqrt(R)))
    out, _ = _evaluate(eps_list=(Fraction(1, 10),), r0_list=(Fraction(2),), radii=("1", "100", "10000", "1000000"))
    dist = out.evidence[0]
    assert dist.decide() is False
    with working_precision(30):
        assert abs(dist.value - arb(1) / 1000) < arb(10) ** -25


def _sqrt(R):
    r = Fraction(int(round(float(R) ** 0.5)))
    assert r * r == R
    return r


def test_a_distance_below_the_working_precision_is_zero(monkeypatch):
    """q = (1, 0): θ(R) = (R, R·10⁻⁴⁰): dist = 10⁻⁴⁰ at every R — flat, but ≤ 10^-dps: zero to the working precision,
    so the path converges to q as far as can be told (stays_away fails, not a plateau)."""
    tiny = Fraction(1, 10**40)
    _paths(monkeypatch, lambda R: (R, R * tiny))
    out, _ = _evaluate(q=(1, 0), eps_list=(Fraction(1, 10),), r0_list=(1,), radii=RADII)
    assert out.evidence[0].decide() is False


def test_an_unresolved_point_withholds_the_decision(monkeypatch):
    """The distances converge to q (as in the test above: 10⁻⁴⁰, a fail) but the path is unresolved at R = 100: the
    rule is withheld (None), naming the radius and what it would have said; the resolved twin decides."""
    tiny = Fraction(1, 10**40)
    _paths(monkeypatch, lambda R: (R, R * tiny), blind=("100",))
    out, _ = _evaluate(q=(1, 0), eps_list=(Fraction(1, 10),), r0_list=(1,), radii=RADII)
    dist = out.evidence[0]
    assert dist.decide() is None
    assert dist.rule.detail.startswith("the local path is unresolved at R = 100: ")
    assert "the rule fails" in dist.rule.detail
    assert out.decision().verdict == "INCONCLUSIVE"


def test_every_eps_and_r0_gets_its_two_items(monkeypatch):
    calls = _paths(monkeypatch, lambda R: (2, 0), notes=())
    out, _ = _evaluate(q=(1, 0), eps_list=(Fraction(1, 10), Fraction(1, 20)), r0_list=(Fraction(1), Fraction(3)),
                       radii=RADII)
    assert [(c[2], c[3]) for c in calls] == [(Fraction(1, 10), 1), (Fraction(1, 10), 3), (Fraction(1, 20), 1),
                                             (Fraction(1, 20), 3)]
    assert [c[5] for c in calls] == [1, 1, 1, 1]
    assert len(out.evidence) == 8 and "(active: none)" in out.evidence[1].quantity
    assert out.covers == ["ε ∈ {1/10, 1/20}, R₀ ∈ {1, 3}; q ∝ (1, 0)"]
    # the defaults: ε ∈ {1/100, 1/1000}, R₀ = 1, the default radii
    calls.clear()
    out, _ = _evaluate(q=(1, 0))
    assert [(c[1], c[2], c[3]) for c in calls] == [(L.RADII, Fraction(1, 100), 1), (L.RADII, Fraction(1, 1000), 1)]
    assert out.range == "R ≤ 1000" and len(out.figures) == 2


def test_not_applicable_stops_before_any_path(monkeypatch):
    calls = _paths(monkeypatch, lambda R: (2, 0))
    monkeypatch.setattr(L, "hypotheses", lambda data, q, general, require: [Hypothesis("h", None)])
    out, _ = _evaluate(radii=RADII)
    assert calls == [] and out.evidence == [] and out.range is None and len(out.hypotheses) == 1


def test_hypotheses_get_the_exact_q_and_the_flags(monkeypatch):
    got = []
    _paths(monkeypatch, lambda R: (2, 0))
    monkeypatch.setattr(L, "hypotheses", lambda data, q, general, require: got.append((data, q, general, require)) or [])
    with working_precision(30) as prec:
        L.local_path_evidence("D", prec, ("1/2", 1), True, radii=RADII, require_non_lmm=False, figure=False)
        L.local_path_evidence("D", prec, (1, 1), False, radii=RADII, figure=False)
    assert got == [("D", (Fraction(1, 2), Fraction(1)), True, False), ("D", (1, 1), False, True)]


def test_figures_and_their_references(monkeypatch):
    """figure=True: the distance plot and the plane plot, whose references are q and every LMM/GMM direction
    (labelled); no plane plot when q has no basis; figure=False: none."""
    _paths(monkeypatch, lambda R: (2, 0))
    seen = {}
    monkeypatch.setattr(L, "omc_figure", lambda name, title, curves, caption="": seen.setdefault("omc", curves) and "F1")
    monkeypatch.setattr(L, "path_plane_figure",
                        lambda name, title, paths, refs, basis, caption="": seen.update(paths=paths, refs=refs,
                                                                                        basis=basis) or "F2")
    monkeypatch.setattr(L, "locally_optimal_geometries",
                        lambda data: [_g((0, 1), (1, 2), gmm=True), _g((1, 0), (0, 1))] if data == "D" else [])
    monkeypatch.setattr(L, "plane_basis", lambda q: ("B", q))
    out, _ = _evaluate(q=(1, 0), eps_list=(Fraction(1, 10),), r0_list=(1,), radii=RADII)
    assert out.figures == ["F1", "F2"]
    assert [c[0] for c in seen["omc"]] == ["ε = 1/10, R₀ = 1"] and len(seen["omc"][0][2]) == 4
    assert seen["basis"] == ("B", (1, 0))
    assert seen["refs"] == [("q", (1, 0)), ("GMM p^mm(α = [0, 1])", (1, 2)), ("LMM p^mm(α = [1, 0])", (0, 1))]
    assert [label for label, _ in seen["paths"]] == ["p̄(R), ε = 1/10, R₀ = 1"] and len(seen["paths"][0][1]) == 4
    monkeypatch.setattr(L, "locally_optimal_geometries", lambda data: None)
    out, _ = _evaluate(q=(1, 0), eps_list=(Fraction(1, 10),), r0_list=(1,), radii=RADII)
    assert out.figures == ["F1", "F2"] and seen["refs"] == [("q", (1, 0))]
    monkeypatch.setattr(L, "plane_basis", lambda q: None)
    out, _ = _evaluate(q=(1, 0), eps_list=(Fraction(1, 10),), r0_list=(1,), radii=RADII)
    assert out.figures == ["F1"]
    out, _ = _evaluate(q=(1, 0), eps_list=(Fraction(1, 10),), r0_list=(1,), radii=RADII, figure=False)
    assert out.figures == []


@pytest.mark.parametrize("general", [False, True])
def test_hypotheses_reach_the_outcome(monkeypatch, general):
    """Without the stand-in for ``hypotheses``: the real one (with stubs below it) fills the outcome."""
    _paths(monkeypatch, lambda R: (2, 0))
    monkeypatch.setattr(L, "hypotheses", _real_hypotheses)
    _stubs(monkeypatch, lmms=[], general=(True, "gp"))
    data = _data([[[2, 0], [1, 0]]])
    with working_precision(30) as prec:
        out = L.local_path_evidence(data, prec, (1, 0), general, radii=RADII, figure=False)
    assert len(out.hypotheses) == 3 + general and all(h.met for h in out.hypotheses)


_real_hypotheses = L.hypotheses
