"""verify.kit.invariance (mutation tests): the Theorem 3 set-up on Fig. 1(b) (σ = 1, α = [1], μ = μ₀/2, the
first-order scan over the ladder, its witness R = 20 recomputed here from the scan's own values, the fixed-R and
no-witness branches) and on a d = 1 dataset (the cone is a ray); the start points (1 − corr and ‖p‖ checked in the
test), the deep target, the boundary paths routed through recording stand-ins, the existential-R retries and their
rule, the target requirement, the ladder thinning, the all-paths rule and the fitted trends on hand-built runs."""
from fractions import Fraction as F
from types import SimpleNamespace

import pytest
from flint import arb

from verify import Dataset
from verify.claims import Decision, Hypothesis, Outcome, rules
from verify.data import mmts as D
from verify.geometry.cone_data import INVARIANCE_LADDER
from verify.geometry.cones import mu0, radius_scale
from verify.kit import invariance as I
from verify.kit.invariance import Setup
from verify.models.attention import dot, norm2
from verify.numbers.precision import to_arb, working_precision

D1 = Dataset.make(X=[[[1], [-1], [0]], [[2], [0], [-1]]], Y=[1, 1], v=[1], name="d1")
TINY = arb(10) ** -20


def _setup(data):
    """(Setup, its Outcome) at 30 digits, built in the test itself (mutmut maps a test body's calls to it)."""
    with working_precision(30) as prec:
        out = Outcome()
        return Setup(data, prec, out), out


@pytest.fixture
def fig1b():
    return _setup(D.mmts_fig1b())


@pytest.fixture
def flat():
    return _setup(D1)


def _positive(v):
    return v.lower() > 0


def test_setup_defaults_on_fig1b(fig1b):
    """α = [1] (the non-global LMM), μ = μ₀/2, σ = 1 (‖p^mm‖ = 1: p^mm = e₁), the ladder radii σ·INVARIANCE_LADDER,
    p̄ = p^mm/‖p^mm‖, η ≤ 1/L_p, the step-size hypothesis last, the keys spanning more than one dimension."""
    S, out = fig1b
    assert S.ok and S.g.alpha == (1,) and S.mu0 == mu0(S.g) and S.mu == S.mu0 / 2
    assert S.mu_how.startswith("μ = μ₀(α)/2") and S.loss.name == "logistic" and S.dps == 30
    assert S.sigma == radius_scale(S.g.norm_sq) == 1 and S.radii == [S.sigma * x for x in INVARIANCE_LADDER]
    assert S.g.p_mm == (1, 0, 0) and all(abs(a - b) < TINY for a, b in zip(S.pbar, [1, 0, 0]))
    assert abs(S.nrm - 1) < TINY and S.pmm == [1, 0, 0]
    with working_precision(30):
        assert S.eta * S.Lp <= 1 and S.eta * S.Lp > 1 - arb(10) ** -20
    assert out.hypotheses[-1].name == "step size η ≤ 1/L_p (Lemma 6)" and out.hypotheses[-1].met is True
    assert len(out.hypotheses) == 4 and not S.flat and not S.fixed_R
    assert "the keys span one dimension" not in " ".join(out.notes)
    assert [rec["r"] for rec in S.scan] == S.radii and all(len(rec["values"]) == 3 for rec in S.scan)
    # the GMM of Fig. 1(b): α = [0] (the optimal token), p^mm_GMM = (−10/101, 100/101, 0)
    assert tuple(S.gmm) == (F(-10, 101), F(100, 101), 0)


def test_the_witness_R_is_the_smallest_radius_from_which_every_value_is_positive(fig1b):
    """R recomputed from the scan: the smallest ladder radius r with every boundary value > 0 at every r' ≥ r."""
    S, _ = fig1b
    R = None
    for rec in reversed(S.scan):
        if all(_positive(v) for v, _ in rec["values"]):
            R = rec["r"]
        else:
            break
    assert S.R == R == 20
    assert S._radius_ok(20) is True and S._radius_ok(10) is False and S._radius_ok(F(10**8)) is True


def test_radius_ok_is_undecided_on_a_straddling_value_and_false_before_undecided():
    fake = SimpleNamespace(scan=[{"r": 1, "values": [(arb(1), 0), (arb("0 +/- 1"), 1)]},
                                 {"r": 2, "values": [(arb("0 +/- 1"), 0), (arb(-1), 1)]},
                                 {"r": 3, "values": [(arb(-1), 0), (arb("0 +/- 1"), 1)]},
                                 {"r": 4, "values": [(arb(1), 0), (arb(2), 1)]}])
    ok = Setup._radius_ok
    assert ok(fake, 1) is None and ok(fake, 2) is False and ok(fake, 3) is False and ok(fake, 4) is True
    assert ok(fake, 5) is True  # no value at that radius: nothing failed


def test_setup_with_mu_R_and_radii_given():
    """μ and R given: the scan covers R and the ladder radii ≥ R, R is kept (fixed); radii given: sorted, and a
    ladder [1, 3, 5] (a negative value at 5) has no witness."""
    with working_precision(30) as prec:
        S = Setup(D.mmts_fig1b(), prec, Outcome(), R=7, mu=F(1, 1000))
        assert S.mu == F(1, 1000) and S.mu_how == "μ given by the caller" and S.R == 7 and S.fixed_R
        assert [rec["r"] for rec in S.scan] == [7] + [r for r in S.radii if r >= 7]
        S3 = Setup(D.mmts_fig1b(), prec, Outcome(), radii=[5, 1, 3])
        assert S3.radii == [1, 3, 5] and S3.R is None and not S3.fixed_R
        assert [rec["r"] for rec in S3.scan] == [1, 3, 5]
        S4 = Setup(D.mmts_fig1b(), prec, Outcome(), R=20, radii=[5, 20, 50])
        assert [rec["r"] for rec in S4.scan] == [20, 50] and S4.R == 20


def test_setup_on_a_flat_dataset_notes_the_ray(flat):
    S, out = flat
    assert S.ok and S.flat and S.R == 1
    assert any(n.startswith("the keys span one dimension") for n in out.notes)


def test_setup_stops_when_a_hypothesis_is_not_met(monkeypatch):
    """No selection (resolve_selection gives None): not ok, nothing computed; the step hypothesis not met: not ok,
    no scan; an infeasible or failing GMM: gmm None."""
    with working_precision(30) as prec:
        monkeypatch.setattr(I, "resolve_selection", lambda data, alpha, loss: (None, [Hypothesis("h", False)], ["n"]))
        out = Outcome()
        S = Setup(D.mmts_fig1b(), prec, out)
        assert S.ok is False and not hasattr(S, "mu") and out.notes == ["n"] and out.hypotheses[0].name == "h"
    monkeypatch.undo()
    with working_precision(30) as prec:
        for met in (False, None):
            monkeypatch.setattr(I, "step_hypothesis", lambda L, d, met=met: (arb(1), Hypothesis("step", met)))
            S = Setup(D.mmts_fig1b(), prec, Outcome())
            assert S.ok is False and not hasattr(S, "scan")
        monkeypatch.undo()

        def boom(*a, **k):
            raise ValueError("tie")

        monkeypatch.setattr(I, "lmm_geometry", boom)
        S = Setup(D.mmts_fig1b(), prec, Outcome())
        assert S.ok and S.gmm is None
        monkeypatch.setattr(I, "lmm_geometry", lambda *a, **k: SimpleNamespace(feasible=False, p_mm=(1, 2, 3)))
        assert Setup(D.mmts_fig1b(), prec, Outcome()).gmm is None


def test_setup_passes_alpha_and_loss_on(monkeypatch):
    seen = []
    real = I.resolve_selection

    def recording(data, alpha, loss):
        seen.append((alpha, loss.name))
        return real(data, alpha, loss)

    monkeypatch.setattr(I, "resolve_selection", recording)
    with working_precision(30) as prec:
        S = Setup(D.mmts_fig1b(), prec, Outcome(), alpha=[1], loss="exponential")
    assert seen == [([1], "exponential")] and S.loss.name == "exponential" and S.model.loss.name == "exponential"


# ----- first_order_evidence -----------------------------------------------------------------------------------
def _items(out):
    return {e.quantity.split(" (")[0].split(":")[0]: e for e in out.evidence}


def test_first_order_evidence_with_the_witness(fig1b):
    """Widths (μ₀, μ used, μ*), the witness item (R = 20 by rule), and the tally over every boundary point at every
    ladder radius ≥ 20: 13 radii × 3 directions, all > 0."""
    S, _ = fig1b
    out = Outcome()
    assert S.first_order_evidence(out) is True
    q = [e.quantity for e in out.evidence]
    assert q[0].startswith("μ₀(α)") and q[1] == "μ used" and q[2].startswith("μ*")
    wit = out.evidence[3]
    assert wit.value == 20 and wit.decide() is True and wit.rule.holds is True
    tally = out.evidence[4]
    assert len(out.evidence) == 5 and tally.relation == ">" and tally.bound == 0
    assert tally.coverage.points == 13 * 3 and tally.decide() is True
    assert tally.quantity.startswith("first-order invariance")
    assert not out.notes


def test_first_order_evidence_with_R_given_and_a_failing_R():
    """R = 7 given: no witness item; the tally covers 7 and the ladder radii ≥ 7 (15 radii × 3) and fails (the value
    at r = 7 along direction 1 is negative); R = 20 given: 13 radii, holds."""
    with working_precision(30) as prec:
        S = Setup(D.mmts_fig1b(), prec, Outcome(), R=7)
        out = Outcome()
        assert S.first_order_evidence(out) is True
        assert not any(e.quantity.startswith("witness R") for e in out.evidence)
        tally = out.evidence[-1]
        assert tally.coverage.points == 15 * 3 and tally.decide() is False and "given" in tally.note
        S = Setup(D.mmts_fig1b(), prec, Outcome(), R=20)
        out = Outcome()
        S.first_order_evidence(out)
        assert out.evidence[-1].coverage.points == 13 * 3 and out.evidence[-1].decide() is True


def test_first_order_evidence_without_a_witness_decides_by_the_leading_term():
    """Ladder [1, 3, 5]: no witness (undecided item), no tally; the leading coefficient along the direction with the
    smallest value at the last radius (direction 1, negative there) is the item; the paths are not run."""
    from verify.geometry.cones import cone_point
    from verify.kit.cone_checks import asymptotic_evidence

    with working_precision(30) as prec:
        S = Setup(D.mmts_fig1b(), prec, Outcome(), radii=[1, 3, 5])
        out = Outcome()
        assert S.first_order_evidence(out) is False
        wit = [e for e in out.evidence if e.quantity.startswith("witness R")][0]
        assert wit.value is None and wit.decide() is None
        lead = out.evidence[-1]
        assert lead.quantity.startswith("first-order invariance as r → ∞") and lead.note.startswith("r = 5, direction 1")
        qbar = cone_point(S.pbar, S.scan_dirs[1], S.mu, 1)
        vdir = [a - (1 - to_arb(S.mu)) * b for a, b in zip(S.pbar, qbar)]
        want = asymptotic_evidence("x", S.g, qbar, vdir, S.loss, "w")
        assert lead.value.overlaps(want.value) and lead.relation == want.relation and lead.bound == want.bound
        assert out.notes == ["no first-order witness R on the ladder: the paths were not run"]


# ----- directions, starts, targets -----------------------------------------------------------------------------
def test_in_plane_dirs(fig1b):
    """Fig. 1(b): rows (11/10, −1, 0) and (1, 0, 0); the boundary directions ∓e₂ meet a row, e₃ none: the first two.
    No direction inside: the first one; more than MAX_DEEP_STARTS = 4 inside: the first four."""
    S, _ = fig1b
    assert S.in_plane_dirs() == S.dirs[:2] and I.MAX_DEEP_STARTS == 4
    fake = SimpleNamespace(g=SimpleNamespace(rows={(0, 0): (1, 0)}), dirs=["a", "b"], exact_dirs=[(0, 1), (0, 2)])
    assert Setup.in_plane_dirs(fake) == ["a"]
    fake = SimpleNamespace(g=SimpleNamespace(rows={(0, 0): (0, 1), (0, 1): (1, 0)}), dirs=list("abcdef"),
                           exact_dirs=[(1, 0), (0, 0), (0, 1), (1, 1), (2, 0), (-1, 0)])
    assert Setup.in_plane_dirs(fake) == ["a", "c", "d", "e"]
    fake.g.rows = {(0, 0): (0, 1)}
    assert Setup.in_plane_dirs(fake) == ["c", "d"]


def _corr_gap(p, pbar):
    return 1 - dot(p, pbar) / norm2(p)


@pytest.mark.parametrize("level, r", [(F(1, 404), 20), (F(1, 808), 7), (F(1, 10), 1)])
def test_start_is_just_inside_the_cone(fig1b, level, r):
    """1 − corr = level·(1 − 10⁻¹²) and ‖p‖ = r(1 + 10⁻¹²) (to rounding), exact midpoints."""
    S, _ = fig1b
    with working_precision(30):
        p = S.start(S.dirs[1], level, r)
        gap = _corr_gap(p, S.pbar)
        assert abs(gap - to_arb(level) * (1 - arb(10) ** -12)) < to_arb(level) * arb(10) ** -20
        assert abs(norm2(p) - to_arb(r) * (1 + arb(10) ** -12)) < r * arb(10) ** -20
        assert all(x.rad() == 0 for x in p)


def test_start_on_the_flat_ray_is_on_the_ray(flat):
    S, _ = flat
    with working_precision(30):
        p = S.start(S.dirs[0], F(1, 10), 5)
        assert len(p) == 1 and abs(p[0] - to_arb(5) * (1 + arb(10) ** -12)) < arb(10) ** -20


def test_deep_target(fig1b):
    """until_norm, else depth·R, else max(10⁴σ, 10R)."""
    S, _ = fig1b
    assert I.DEPTH == 10**4 and I.MAX_STEPS == 2000
    assert S.deep_target(20, until_norm=300) == 300 and S.deep_target(20, depth=50) == 1000
    assert S.deep_target(20) == 10**4 and S.deep_target(2000) == 20000 and S.deep_target(1000) == 10**4
    assert S.deep_target(F(1001)) == 10010 and isinstance(S.deep_target(20, until_norm="3/2"), F)
    assert S.deep_target(20, until_norm=0, depth=3) == 0


# ----- the paths (recording stand-ins for GD and the flow) ----------------------------------------------------
@pytest.fixture
def recorder(monkeypatch, fig1b):
    S, _ = fig1b
    calls = []

    def start(u, level, r):
        calls.append(("start", S.dirs.index(u), level, r))
        return ["p", level]

    def gd(model, g, p0, eta, steps, mu, R, checks, label=""):
        calls.append(("gd", label, p0[1], eta is S.eta, steps, mu, R, checks.point, model is S.model, g is S.g))
        return label

    def flow(data, g, p0, target, mu, R, dps, checks, label="", gmm=None, loss=None, max_steps=None):
        calls.append(("flow", label, p0[1], target, mu, R, dps, checks.point, gmm is S.gmm, loss is S.loss, max_steps,
                      data is S.data, g is S.g))
        return label

    monkeypatch.setattr(S, "start", start)
    monkeypatch.setattr(I, "gd_in_cone", gd)
    monkeypatch.setattr(I, "flow_in_cone", flow)
    return S, calls


def test_boundary_paths_strong_and_weak_forms(recorder):
    """Strong form: starts at level μ, weak: μ/2; GD from each of the 3 boundary directions, the flow from the 2
    in-plane ones to the target with the step budget; checked against μ and R."""
    S, calls = recorder
    groups = I.boundary_paths(S, 20, ("strong", "weak"), 7, True, 300, 11)
    assert [len(g[1]) for g in groups] == [3, 2, 3, 2] and [g[3] for g in groups] == [None, 300, None, 300]
    assert groups[0][1] == ["strong u0", "strong u1", "strong u2"] and groups[3][1] == ["weak u0", "weak u1"]
    assert [g[2].point for g in groups] == ["step", "checked point"] * 2
    assert groups[0][0].startswith("strong form (C_(μ,R) → C_(μ,R)), GD") and "7 steps from 3 boundary" in groups[0][0]
    assert groups[2][0].startswith("weak form (C_(μ/2,R) → C_(μ,R))") and groups[1][0].endswith("‖p‖ = 300")
    mu = S.mu
    gd = [c for c in calls if c[0] == "gd"]
    fl = [c for c in calls if c[0] == "flow"]
    assert gd[0] == ("gd", "strong u0", mu, True, 7, mu, 20, "step", True, True)
    assert gd[3] == ("gd", "weak u0", mu / 2, True, 7, mu, 20, "step", True, True)
    assert fl[0] == ("flow", "strong u0", mu, 300, mu, 20, 30, "checked point", True, True, 11, True, True)
    assert fl[3] == ("flow", "weak u1", mu / 2, 300, mu, 20, 30, "checked point", True, True, 11, True, True)
    starts = [c for c in calls if c[0] == "start"]
    assert [c[1] for c in starts] == [0, 1, 2, 0, 1, 0, 1, 2, 0, 1] and all(c[3] == 20 for c in starts)


def test_boundary_paths_without_the_deep_runs(recorder):
    S, calls = recorder
    groups = I.boundary_paths(S, 50, ("weak",), 3, False, None, 5)
    assert len(groups) == 1 and not [c for c in calls if c[0] == "flow"] and groups[0][3] is None


def test_theorem_starts_default(fig1b):
    """Two in-plane boundary points of C_(μ,R) and one inside at level μ/4 (u0), each p(0) ∈ C_(μ,R) met."""
    S, _ = fig1b
    with working_precision(30):
        pts, hyps = I.theorem_starts(S, 20)
        assert [lab for _, lab in pts] == ["boundary u0", "boundary u1", "interior (level μ/4) u0"]
        gaps = [_corr_gap(p, S.pbar) for p, _ in pts]
        mu = to_arb(S.mu)
        assert abs(gaps[0] - mu) < mu * arb(10) ** -10 and abs(gaps[1] - mu) < mu * arb(10) ** -10
        assert abs(gaps[2] - mu / 4) < mu * arb(10) ** -10 and dot(pts[2][0], S.dirs[0]) > 0
        assert dot(pts[0][0], S.dirs[0]) > 0 and dot(pts[1][0], S.dirs[1]) > 0
        assert [h.met for h in hyps] == [True] * 3 and hyps[0].name == "p(0) ∈ C_(μ,R)(p^mm) for boundary u0"


def test_theorem_starts_given(fig1b):
    """Explicit starts: (30, 0, 0) in the cone and above R; (30, 3, 0) outside it (1 − corr ≈ 0.005 > μ); (10, 0, 0)
    below R; a start exactly at norm R (20, 0, 0): met (≥)."""
    S, _ = fig1b
    with working_precision(30):
        pts, hyps = I.theorem_starts(S, 20, [[30, 0, 0], ["30", "3", "0"], [10, 0, 0], [20, 0, 0]])
    assert [lab for _, lab in pts] == ["start 0", "start 1", "start 2", "start 3"]
    assert [h.met for h in hyps] == [True, False, False, True] and pts[1][0][1] == 3
    assert hyps[0].detail.startswith("μ − (1 − corr) = ") and hyps[0].detail.endswith(", R = 20")


# ----- the existential R ---------------------------------------------------------------------------------------
def _fakeS(radii, R, sigma=1):
    return SimpleNamespace(radii=radii, R=R, sigma=sigma)


def test_try_radii_retries_until_no_exit():
    S = _fakeS([1, 2, 5, 10, 20, 50, 100], 5)
    seen = []

    def attempt(r):
        seen.append(r)
        return f"res{r}", ("exit" if r < 20 else None)

    Rr, res, tried, dec = I.try_radii(S, attempt, True)
    assert (Rr, res, seen) == (20, "res20", [5, 10, 20]) and tried == [(5, "exit"), (10, "exit"), (20, None)]
    assert dec.holds is True
    seen.clear()
    Rr, res, tried, dec = I.try_radii(S, lambda r: (seen.append(r), "x")[::-1][:1] + ("x",), True)
    assert seen == [5, 10, 20, 50] and Rr == 50 and dec.holds is False and len(tried) == rules.REFUTING_RADII
    seen.clear()
    Rr, res, tried, dec = I.try_radii(S, lambda r: (None, "exit"), True)
    assert Rr == 5 and res is None and len(tried) == 1 and dec.holds is None
    Rr, res, tried, dec = I.try_radii(S, lambda r: ("r", "exit"), False)
    assert (Rr, res, tried, dec) == (5, "r", [(5, "exit")], None)
    S = _fakeS([1, 2, 5], 2)
    Rr, res, tried, dec = I.try_radii(S, lambda r: ("r", "exit"), True)
    assert [r for r, _ in tried] == [2, 5] and dec.holds is None


def test_radius_evidence():
    """No decision (R fixed): True, nothing added. Holds after a retry: the item, its value the last R, a note.
    Holds at once: no note. Refuted: VIOLATED item, the range "R ≤ …σ", False. Undecided: False, no range."""
    S = _fakeS([], 5, sigma=2)
    out = Outcome()
    assert I.radius_evidence(S, out, [(5, None)], None) is True and not out.evidence
    out = Outcome()
    tried = [(5, "p1"), (10, None)]
    assert I.radius_evidence(S, out, tried, Decision(True, "rule", "d")) is True
    (e,) = out.evidence
    assert e.value == 10 and e.decide() is True and "R = 5: left at p1" in e.note and out.range is None
    assert out.notes == ["trajectory witness R = 10: from the first-order witness 5 a discrete path left the cone, so "
                         "the next ladder radius was used"]
    out = Outcome()
    assert I.radius_evidence(S, out, [(5, None)], Decision(True, "rule", "d")) is True and not out.notes
    out = Outcome()
    tried = [(5, "a"), (10, "b"), (20, "c"), (50, "d")]
    assert I.radius_evidence(S, out, tried, Decision(False, "rule", "d")) is False
    (e,) = out.evidence
    assert e.value is None and e.decide() is False and out.range == "R ≤ 25·σ" and not out.notes
    assert e.note.startswith("R = 5: left at a; R = 10: left at b; R = 20: left at c; R = 50: left at d")
    out = Outcome()
    assert I.radius_evidence(S, out, [(5, "a"), (10, "b")], Decision(None, "rule", "d")) is False
    assert out.range is None and out.evidence[0].value is None and not out.notes


# ----- requirement, ladder thinning, rules over paths, trends --------------------------------------------------
def _run(label, norms, status="reached", steps=3):
    return SimpleNamespace(start_label=label, omc=[(arb(n), arb(1), None) for n in norms], status=status, steps=steps)


def test_require_target():
    """Every path at ‖p‖ ≥ target·(1 − 10⁻¹²): met; the value is the smallest final norm, the note the largest step
    count. A path short of it: not met, named with its status, a note."""
    out = Outcome()
    runs = [_run("a", [1, 300]), _run("b", [1, 300 * (1 - 1e-13)], steps=9)]
    e = I.require_target(out, runs, 300, "lab")
    assert out.requirements[0].met is True and not out.notes
    assert e.value == arb(300 * (1 - 1e-13)) and e.quantity.startswith("lab: smallest final ‖p‖")
    assert e.note == "9 checked points at most per path" and e.relation == "~"
    out = Outcome()
    runs = [_run("a", [1, 300]), _run("b", [1, 299.9], status="max_steps"), _run("c", [2, 250], status="stationary")]
    e = I.require_target(out, runs, 300)
    (req,) = out.requirements
    assert req.met is False and req.name == "the gradient flow reached ‖p‖ = 300"
    assert req.detail == "b: step budget exhausted, c: stationary (pass until_norm / max_steps)"
    assert out.notes and e.value == 250 and not e.quantity.startswith(":")
    out = Outcome()
    I.require_target(out, [_run("a", [1, 300 * (1 - 1e-11)])], 300)
    assert out.requirements[0].met is False


def test_ladder_records_thin_from_the_end():
    """Norms 1, 1.5, 2, 3, 4, 7, 8 with ratio 2: from 8 down, keep 4 (8 ≥ 2·4), 2, 1: [1, 2, 4, 8]; ratio 3: 8, 2."""
    omc = [(n, 10 * n, None) for n in (1, 1.5, 2, 3, 4, 7, 8)]
    assert I.ladder_records(omc) == ([1, 2, 4, 8], [10, 20, 40, 80])
    assert I.ladder_records(omc, 3) == ([2, 8], [20, 80])
    assert I.ladder_records([]) == ([], [])


def test_all_paths():
    t, f, u = Decision(True, "r", "dt"), Decision(False, "r", "df"), Decision(None, "r", "du")
    d = I.all_paths([t, f, u], ["a", "b", "c"])
    assert d.holds is False and d.rule == "r" and d.detail == "a: dt; b: df; c: du"
    assert I.all_paths([t, u], ["a", "b"]).holds is None and I.all_paths([t, t], ["a", "b"]).holds is True
    e = I.all_paths([], [])
    assert e.holds is None and e.rule == "no path"


def test_flow_trends():
    """1 − corr = 3‖p‖⁻² exactly on ‖p‖ = 10^k: the fit over the second half gives a = 2; ‖p‖ = 2 ln t + 1 gives
    the slope 2 (tail half of the records); a path with too few points has no rate."""
    norms = [arb(10) ** k for k in range(1, 9)]
    run = SimpleNamespace(omc=[(n, 3 / n ** 2, None) for n in norms],
                          times=[(arb(2 * k + 1), arb(k)) for k in range(8)])
    short = SimpleNamespace(omc=[(arb(1), arb(1), None), (arb(10), arb("0.1"), None)], times=[(arb(1), arb(0))])
    items, rates = I.flow_trends([run, short], arb(1), 2)
    assert len(rates) == 1 and rates[0][1] is run and abs(rates[0][0][0] - 2) < 1e-9 and abs(rates[0][0][1] - 3) < 1e-8
    assert items[0].value == "2.0000 … 2.0000" and items[0].note == "DERIVED expectation a = 2"
    assert items[1].value == "2.0000 … 2.0000" and "= 1 (" in items[1].note
    items, rates = I.flow_trends([short], arb(1), 2)
    assert items == [] and rates == []


def test_flow_trends_use_the_second_half_only():
    """1 − corr = ‖p‖⁻¹ on the first half (‖p‖ = 10..10⁴) and 10⁴·‖p‖⁻² from 10⁴ on (log10 ‖p‖ ≥ 4.5 is the second
    half of 1..8): a = 2 exactly."""
    omc = [(arb(10) ** k, (arb(10) ** -k if k <= 4 else arb(10) ** (4 - 2 * k)), None) for k in range(1, 9)]
    run = SimpleNamespace(omc=omc, times=[(arb(k), arb(k)) for k in range(1, 9)])
    _, rates = I.flow_trends([run], arb(1), 2)
    assert abs(rates[0][0][0] - 2) < 1e-9


def _fake_setup(scan, R, fixed_R):
    fake = SimpleNamespace(mu0=F(1, 100), mu=F(1, 200), mu_how="how", mstar=None, mstar_what="", scan=scan, R=R,
                           fixed_R=fixed_R)
    fake._radius_ok = lambda r: Setup._radius_ok(fake, r)
    return fake


def test_first_order_tally_is_strict():
    """An inward component exactly 0 at R is no invariance (the comparison is > 0, strict): VIOLATED; the tally
    counts the points at r ≥ R only (R = 2: two points of r = 2 and 3, not the one at r = 1)."""
    scan = [{"r": 1, "values": [(arb(-1), 0)]}, {"r": 2, "values": [(arb(0), 0)]}, {"r": 3, "values": [(arb(1), 1)]}]
    out = Outcome()
    assert Setup.first_order_evidence(_fake_setup(scan, 2, True), out) is True
    tally = out.evidence[-1]
    assert len(out.evidence) == 3 and tally.coverage.points == 2 and tally.decide() is False
    scan[1]["values"] = [(arb("1e-30"), 0)]
    out = Outcome()
    Setup.first_order_evidence(_fake_setup(scan, 2, True), out)
    assert out.evidence[-1].decide() is True


def test_first_order_witness_item_from_the_scan():
    """R not given: the witness item is the rule's on the scan's radii: R = 2 (values > 0 at 2 and 3)."""
    scan = [{"r": 1, "values": [(arb(-1), 0)]}, {"r": 2, "values": [(arb(1), 0)]}, {"r": 3, "values": [(arb(1), 1)]}]
    out = Outcome()
    assert Setup.first_order_evidence(_fake_setup(scan, 2, False), out) is True
    wit, tally = out.evidence[2], out.evidence[3]
    assert wit.value == 2 and wit.decide() is True and tally.coverage.points == 2 and "witness R = 2" in tally.note


def test_theorem_starts_take_two_in_plane_directions_and_an_interior_point():
    """A stand-in set-up with three in-plane directions: two boundary starts (level μ) from the first two, the interior
    one (level μ/4) from the first; the hypotheses computed on the returned points (p̄ = e₁, μ = 1/2, R = 2)."""
    calls = []

    def start(u, level, r):
        calls.append((u, level, r))
        return [to_arb(3), to_arb(u)]

    fake = SimpleNamespace(in_plane_dirs=lambda: [1, 4, 5], start=start, mu=F(1, 2), pbar=[arb(1), arb(0)])
    with working_precision(30):
        pts, hyps = I.theorem_starts(fake, 2)
    assert calls == [(1, F(1, 2), 2), (4, F(1, 2), 2), (1, F(1, 8), 2)]
    assert [lab for _, lab in pts] == ["boundary u0", "boundary u1", "interior (level μ/4) u0"]
    # (3, 1): 1 − corr = 1 − 3/√10 ≈ 0.051 ≤ 1/2, ‖p‖ ≈ 3.16 ≥ 2; (3, 4): 1 − 3/5 = 2/5 ≤ 1/2
    assert [h.met for h in hyps] == [True, True, True]
    fake.mu = F(1, 4)
    with working_precision(30):
        _, hyps = I.theorem_starts(fake, 2)
    assert [h.met for h in hyps] == [True, False, True]
    fake.mu = F(1, 2)
    with working_precision(30):
        _, hyps = I.theorem_starts(fake, 4)
    assert [h.met for h in hyps] == [False, True, False]  # ‖(3, 1)‖ = √10 < 4, ‖(3, 4)‖ = 5


def test_flow_trends_report_the_range_over_paths():
    """Two paths with rates 1 and 2 and slopes 3 and 2 (tail halves): the items give "min … max"; the head half of
    the times (slope 7) is not used."""
    norms = [arb(10) ** k for k in range(1, 9)]
    runs = []
    for a, slope in ((2, 3), (1, 2)):
        times = [(arb(7 * k), arb(k)) for k in range(4)] + [(arb(slope * k), arb(k)) for k in range(4, 8)]
        runs.append(SimpleNamespace(omc=[(n, 5 / n ** a, None) for n in norms], times=times))
    items, rates = I.flow_trends(runs, arb(2), "2")
    assert items[0].value == "1.0000 … 2.0000" and items[1].value == "2.0000 … 3.0000"
    assert [r for _, r in rates] == runs and "= 2 (" in items[1].note


# D1 with every key halved: p^mm = 2 (margins (1/2 + 1/2)p ≥ 1, (1/2)p ≥ 1, ...), σ = 2
D2 = Dataset.make(X=[[[F(1, 2)], [F(-1, 2)], [0]], [[1], [0], [F(-1, 2)]]], Y=[1, 1], v=[1], name="d2")


def test_setup_normalizes_p_mm_and_scales_by_sigma():
    """‖p^mm‖ = 2: p̄ = p^mm/‖p^mm‖ = 1, σ = 2, the ladder 2·INVARIANCE_LADDER, the deep target max(10⁴σ, 10R)."""
    with working_precision(30) as prec:
        S = Setup(D2, prec, Outcome())
        assert S.g.p_mm == (2,) and abs(S.nrm - 2) < TINY and abs(S.pbar[0] - 1) < TINY
    assert S.sigma == 2 and S.radii == [2 * x for x in INVARIANCE_LADDER]
    assert S.deep_target(20) == 20000 and S.deep_target(3000) == 30000
    assert Setup.deep_target(SimpleNamespace(sigma=F(1, 2)), 100) == 5000


def test_setup_uses_the_losses_smoothness_constant():
    from verify.geometry.smoothness import smoothness_constant
    from verify.models.losses import get_loss

    with working_precision(30) as prec:
        S = Setup(D.mmts_fig1b(), prec, Outcome(), loss="exponential")
        want = smoothness_constant(D.mmts_fig1b(), get_loss("exponential")).value
        other = smoothness_constant(D.mmts_fig1b(), get_loss("logistic")).value
        assert S.Lp.overlaps(want) and not S.Lp.overlaps(other)


def test_setup_reraises_an_interrupt_inside_the_gmm_solve(monkeypatch):
    """A failure of the GMM's solve is swallowed (gmm None) — unless it carries a Ctrl-C."""
    def interrupted(*a, **k):
        raise ValueError("wrapped") from KeyboardInterrupt()

    monkeypatch.setattr(I, "lmm_geometry", interrupted)
    with working_precision(30) as prec, pytest.raises(KeyboardInterrupt):
        Setup(D.mmts_fig1b(), prec, Outcome())


def test_the_width_items_name_the_critical_width(fig1b):
    S, _ = fig1b
    out = Outcome()
    S.first_order_evidence(out)
    assert out.evidence[2].quantity == f"μ*: exact critical width ({S.mstar_what})" and S.mstar_what
    assert out.evidence[-1].note.startswith("witness R = 20")


def test_no_witness_follows_the_smallest_midpoint_at_the_last_radius(monkeypatch):
    """Stand-ins record the direction and vector handed to the leading-term check: at the last radius the smallest
    midpoint is direction 1 (−3 ± 0.1; its ball is not certainly below direction 0's −1 ± 5); the middle radius's
    smallest is direction 0, the first's direction 2. v = p̄ − (1 − μ)q̄ with q̄ = cone_point(p̄, u_1, μ, 1)."""
    seen = {}

    def cone_point(pbar, u, m, r):
        seen["cone"] = (u, m, r)
        return [arb(3), arb(5)]

    def asymptotic(quantity, g, qbar, v, loss, where):
        seen["asym"] = (qbar, v, where)
        from verify.claims import Evidence

        return Evidence(quantity, arb(1), ">", 0)

    monkeypatch.setattr(I, "cone_point", cone_point)
    monkeypatch.setattr(I, "asymptotic_evidence", asymptotic)
    scan = [{"r": 1, "values": [(arb(1), 0), (arb(2), 1), (arb(-9), 2)]},
            {"r": 2, "values": [(arb(-7), 0), (arb(-3), 1), (arb(2), 2)]},
            {"r": 3, "values": [(arb("-1 +/- 5"), 0), (arb("-3 +/- 0.1"), 1), (arb(2), 2)]}]
    fake = _fake_setup(scan, None, False)
    fake.scan_dirs, fake.pbar, fake.g, fake.loss, fake.mu = ["u0", "u1", "u2"], [arb(1), arb(2)], None, None, F(1, 4)
    out = Outcome()
    assert Setup.first_order_evidence(fake, out) is False
    assert seen["cone"] == ("u1", F(1, 4), 1)
    qbar, v, where = seen["asym"]
    assert qbar == [3, 5] and where == "r = 3, direction 1"
    assert abs(v[0] - to_arb(1 - F(3, 4) * 3)) < TINY and abs(v[1] - to_arb(2 - F(3, 4) * 5)) < TINY


def test_require_target_uses_the_last_record_and_the_midpoints():
    """Three records per path (the last decides, not the second); a final norm 5·10⁻¹³ short is within the relative
    10⁻¹² tolerance; the smallest final norm by midpoint (300 ± 1 against 300.2: not certainly smaller, yet the
    smaller midpoint); met: no detail; the value is not an enclosure."""
    out = Outcome()
    runs = [_run("a", [1, 500, arb("300.2")]), _run("b", [1, 500, 300 * (1 - 5e-13)])]
    e = I.require_target(out, runs, 300)
    (req,) = out.requirements
    assert req.met is True and req.detail == "" and e.enclosed is False
    assert abs(e.value - arb(300 * (1 - 5e-13))) < 1e-20
    wide = SimpleNamespace(start_label="w", omc=[(arb(1), 0, 0), (arb(500), 0, 0), (arb("301 +/- 1"), 0, 0)],
                           status="reached", steps=2)
    e = I.require_target(Outcome(), [_run("a", [1, 500, arb("301.5")]), wide], 300)
    assert e.value.mid() == 301
    out = Outcome()
    I.require_target(out, [_run("a", [1, 500, 300 * (1 - 2e-12)])], 300)
    assert out.requirements[0].met is False


def test_radius_evidence_names_the_trajectory_witness():
    out = Outcome()
    I.radius_evidence(_fakeS([], 5), out, [(5, None)], Decision(True, "rule", "d"))
    assert out.evidence[0].quantity.startswith("trajectory witness R (first radius tried")


def test_all_paths_take_the_first_decisions_rule():
    d = I.all_paths([Decision(True, "r1", "a"), Decision(True, "r2", "b")], ["x", "y"])
    assert d.rule == "r1" and I.all_paths([Decision(False, "r0", "a")], ["x"]).rule == "r0"


def test_flow_trends_split_at_the_middle_of_log_norm():
    """‖p‖ = 10^k, k ∈ {0, 3, 4, 6, 8}; 1 − corr = 100, 1 (off the rate), then 10^(4−2k) on k = 4, 6, 8: the second
    half in log ‖p‖ (k ≥ (0 + 8)/2 = 4, inclusive) gives three points with a = 2, C = 10⁴ exactly. Splitting at 5
    (from the second record, or from log 1 − corr of the first) or excluding k = 4 leaves two points (no fit);
    splitting at 3 (the second last record) takes the off-rate point."""
    ks = [0, 3, 4, 6, 8]
    ys = [arb(100), arb(1)] + [arb(10) ** (4 - 2 * k) for k in ks[2:]]
    run = SimpleNamespace(omc=[(arb(10) ** k, y, None) for k, y in zip(ks, ys)], times=[])
    items, rates = I.flow_trends([run], arb(1), 2)
    (a, C), r = rates[0]
    assert r is run and abs(a - 2) < 1e-9 and abs(C - 10**4) < 1e-5 and len(items) == 1


def _certify(monkeypatch, point, flat=False, level=F(1, 10), r=1):
    """Setup.start on a stand-in set-up (p̄ = e₁) whose cone point is ``point``: the certificate's assert decides."""
    monkeypatch.setattr(I, "cone_point", lambda pbar, u, m, rr: [to_arb(x) for x in point])
    fake = SimpleNamespace(flat=flat, pbar=[arb(1), arb(0)])
    with working_precision(80):
        return Setup.start(fake, None, level, r)


def test_start_refuses_an_uncertified_point(monkeypatch):
    """The start must be certainly in the cone (1 − corr ≤ level) AND certainly beyond r: a point outside the cone
    (1 − corr ≈ 0.2 > 1/10), one exactly at ‖p‖ = r, are refused; a flat set-up checks 1 − corr ≤ 10⁻³⁰: a gap of
    1.5·10⁻³⁰ is refused, 5·10⁻³¹ accepted."""
    with pytest.raises(AssertionError, match="not certified"):
        _certify(monkeypatch, [3, 2], r=1)
    with pytest.raises(AssertionError, match="not certified"):
        _certify(monkeypatch, [1, 0], r=1)
    assert len(_certify(monkeypatch, [2, 0], r=1)) == 2
    # 1 − corr ≈ δ²/2 for p = (1, δ): δ² = 3·10⁻³⁰ → 1.5·10⁻³⁰; δ² = 10⁻³⁰ → 5·10⁻³¹
    import mpmath

    with mpmath.workdps(60):
        big = F(mpmath.nstr(mpmath.sqrt(mpmath.mpf(3) * mpmath.mpf(10) ** -30), 50))
        small = F(mpmath.nstr(mpmath.sqrt(mpmath.mpf(10) ** -30), 50))
    with pytest.raises(AssertionError, match="not certified"):
        _certify(monkeypatch, [1, big], flat=True, level=F(1, 10), r=F(1, 2))
    assert len(_certify(monkeypatch, [1, small], flat=True, level=F(1, 10), r=F(1, 2))) == 2


def test_a_start_exactly_on_the_cone_axis_with_mu_zero_is_in_the_cone():
    """μ = 0 and p(0) = (3, 0) on the axis p̄ = e₁: μ − (1 − corr) = 0 exactly, which is in C_(0,R) (≥ 0)."""
    fake = SimpleNamespace(mu=F(0), pbar=[arb(1), arb(0)])
    with working_precision(30):
        _, hyps = I.theorem_starts(fake, 2, [[3, 0]])
    assert hyps[0].met is True
