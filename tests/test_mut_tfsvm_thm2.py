"""tfsvm.thm2 (mutation tests): what evaluate hands the regularisation path, the SVM solvers and the nuclear-face
test, and what it reads back — with the path itself replaced by a recorder (``regularization_path`` is the engine's,
tested there) whose points carry a chosen value each: ``one_minus_corr`` and ``distance_to_solution_set`` are
stand-ins returning that value (recording what they are measured against), so the Evidence values, residual flags
and rules are checked against numbers fixed here, and every test is fast.

Pinned: the options at their defaults (radii, starts 2, seed 0, the working dps; the figure drawn; the nuclear target)
and passed through (seed, starts, parts, figure=False); both SVMs solved at the working dps for "opt" without the
uniqueness check; the hypotheses' opt detail; the requirements (names per parametrisation, the certified C⋆ = 2 of
D-NUC, an unsolved Att-SVM⋆ failing with the solver's notes and stopping the (K,Q) part); the face note (D-NUC's
𝒲^mm_⋆ is a segment, spec §6: not a single point); the budget counts (≤ R(1 + 10⁻ᵈᵖˢ) closed, = R to 10⁻ᵈᵖˢ
relative); the Evidence (value at the largest R, rule, not enclosed, residual on both sides of its zero: 10⁻ᵈᵖˢ for
1 − corr, rules.SDP_DISTANCE_RESOLUTION for the SDP distance whose ball carries a tenth of it); range, cover, figure.

D-NUC (verify.data.tfsvm): x_i1 = e_i, x_i2 = 0, z_i = e_i, v = (1, 1): γ_i = (1, 0), so opt = (1, 1) (1-indexed),
Att-SVM asks W₁₁ ≥ 1, W₂₂ ≥ 1: W^mm = I; Att-SVM⋆'s solutions are [[1, b], [b, 1]], |b| ≤ 1, of nuclear norm
|1 + b| + |1 − b| = 2 = C⋆."""
from fractions import Fraction
from types import SimpleNamespace

from claim_helpers import lower_end, only_item

import lemmas.tfsvm.thm2 as T
from verify.claims import Figure, rules
from verify.data import tfsvm as D
from verify.numbers.precision import to_arb, working_precision

RADII = ("1", "3", "10", "30", "100")
W_LABEL = "(W) 1 − corr(W̄_R, W^mm) → 0 along the path (value at the largest R)"
NUC_LABEL = "(K,Q) dist(K̄_R Q̄_Rᵀ/R, 𝒲^mm_⋆/C⋆) → 0 (float SDP over the certified face) (value at the largest R)"
FRO_LABEL = "(K,Q) 1 − corr(K̄_R Q̄_Rᵀ, W^mm) → 0 (Frobenius W^mm: the FALSE CASE) (value at the largest R)"
W_SEARCH = "(W) the sphere search on ‖W‖_F = R found L ≤ L(candidate SVM direction) at every R"
KQ_SEARCH = "(KQ) the sphere search on ‖K‖² + ‖Q‖² = 2R found L ≤ L(candidate SVM direction) at every R"
NUC_SOLVED = "Att-SVM⋆ (nuclear) solved with a certified value"
ZERO_DETAIL = "zero to the working precision"



def _inverse_squares():
    return [1 / to_arb(Fraction(r)) ** 2 for r in RADII]


def _halving_to(last):
    """1, 1/2, 1/4, 1/8, then ``last``."""
    return [to_arb(Fraction(1, 2 ** k)) for k in range(4)] + [last]


class FakePath:
    """Stands in for ``regularization_path``: records its arguments; the point at radius R has θ = [value] (the
    value per radius from ``values[param]``), ‖·‖ = ``norms[param](R)`` (R by default), certified no worse than its
    candidate."""

    def __init__(self, values, norms=None):
        self.values, self.norms, self.calls = values, norms or {}, []

    def __call__(self, data, param, radii=(1, 2, 5, 10, 20, 50, 100), *, dps=50, starts=4, seed=0, **kw):
        self.calls.append((param, tuple(radii), dps, starts, seed))
        norm = self.norms.get(param, lambda R, k: R)
        pts = [SimpleNamespace(R=to_arb(Fraction(r)), theta=[y], norm=norm(to_arb(Fraction(r)), k), starts=starts,
                               certified_le_candidate=True, candidate_excess=None)
               for k, (r, y) in enumerate(zip(radii, self.values[param]))]
        return SimpleNamespace(points=pts)


def _run(monkeypatch, values, data=None, norms=None, call=None, wrap_solve=None, **options):
    """evaluate (or ``call``) at 30 digits with the path faked (``wrap_solve``: wraps the recorded solve_svm);
    returns (out, the log of calls)."""
    path, log = FakePath(values, norms), {"solve_svm": [], "nuclear_unique": [], "omc": [], "dist": []}
    real_solve, real_unique = T.solve_svm, T.nuclear_unique

    def solve(*a, **k):
        log["solve_svm"].append((a[1:], k))
        return real_solve(*a, **k)

    def unique(*a, **k):
        log["nuclear_unique"].append((a[2:], k))
        return real_unique(*a, **k)

    def omc(theta, ref):
        log["omc"].append(list(ref))
        return theta[0]

    def dist(theta, problem, *a, **k):
        log["dist"].append((problem.kind, a, k))
        return theta[0]

    monkeypatch.setattr(T, "regularization_path", path)
    monkeypatch.setattr(T, "solve_svm", wrap_solve(solve) if wrap_solve else solve)
    monkeypatch.setattr(T, "nuclear_unique", unique)
    monkeypatch.setattr(T, "one_minus_corr", omc)
    monkeypatch.setattr(T, "distance_to_solution_set", dist)
    with working_precision(30) as prec:
        out = (call or T.evaluate)(data or D.d_nuc(), prec, **options)
    log["path"] = path.calls
    return out, log



def test_default_run_on_dnuc(monkeypatch):
    """Every option at its default on D-NUC, both paths at 1/R² (W: 1 − corr; KQ: the SDP distance) and the (K,Q)
    norms R, the lower end of R·(1 + 10⁻³⁰), R/2, 3R/2, R."""
    with working_precision(30) as prec:
        bound = [lower_end(to_arb(Fraction(r)) * (1 + prec.tolerance)) for r in RADII]
    norms = {"KQ": lambda R, k: [R, bound[1], R / 2, 3 * R / 2, R][k]}
    out, log = _run(monkeypatch, {"W": _inverse_squares(), "KQ": _inverse_squares()}, norms=norms)
    calls_at_the_defaults(log)
    hypotheses_requirements_and_notes(out)
    evidence_at_the_defaults(out)
    range_cover_and_figure(out)
    assert out.decision().verdict == "HOLDS" and out.decision().certainty == "evidence"


def calls_at_the_defaults(log):
    """Both paths over the default radii 1, 3, …, 100 at 30 digits with 2 random starts and seed 0 (the engine's own
    defaults are 4 starts and other radii); both SVMs solved for "opt" at 30 digits without the uniqueness check;
    the face tested at 30 digits; 1 − corr measured against W^mm = I; the distance taken on the nuclear result at 30
    digits."""
    assert log["path"] == [("W", RADII, 30, 2, 0), ("KQ", RADII, 30, 2, 0)]
    assert log["solve_svm"] == [(("W", "opt", 30), {"check_unique": False}),
                                (("KQ", "opt", 30), {"check_unique": False})]
    assert log["nuclear_unique"] == [((30,), {})]
    assert log["omc"] == [[1, 0, 0, 1]] * 5
    assert log["dist"] == [("KQ", (30,), {})] * 5


def hypotheses_requirements_and_notes(out):
    """opt = (1, 1) printed from 1; Att-SVM feasible with both margin constraints tight at W^mm = I (support
    (i, t) = (0, 1), (1, 1), 0-indexed: each sequence's non-optimal token); the search requirement named per
    parametrisation; Att-SVM⋆ solved with C⋆ = 2 (to 8 digits both ends); the face is not a single point (the
    segment); ‖K̄Q̄ᵀ‖_⋆ ≤ R(1 + 10⁻³⁰) at 4 of 5 radii (only 3R/2 above; the lower end of the bound itself counts),
    = R to 10⁻³⁰ relative at 3 (R twice, and the bound: |norm − R| = R·10⁻³⁰ less the ball's radius ≈ R·10⁻⁴¹)."""
    assert [(h.name, h.met, h.detail) for h in out.hypotheses[1:]] == [
        (T.UNIQUE_TOKENS, True, "opt = [1, 1] (1-indexed)"),
        ("Att-SVM(opt) feasible (W^mm exists)", True,
         "certified feasible (optimum certified), support [(0, 1), (1, 1)]")]
    assert [(r.name, r.met) for r in out.requirements] == [(W_SEARCH, True), (NUC_SOLVED, True), (KQ_SEARCH, True)]
    assert out.requirements[1].detail == "C⋆ ∈ [2.0000000, 2.0000000]"
    assert out.notes == [
        "𝒲^mm_⋆ is not a single point (a face: distance to the set, not to one solution)",
        "(K,Q) ‖K̄Q̄ᵀ‖_⋆ ≤ R (2R budget) at 4 of 5 radii, = R (so K̄Q̄ᵀ/R is the direction measured) at 3 (mpmath SVD "
        "at the working precision)"]


def evidence_at_the_defaults(out):
    """W: the value at R = 100 (1/10⁴) itself, decided by rules.decays (exponent 2), not enclosed, not a residual
    (10⁻⁴ > 10⁻³⁰), the series printed to 4 significant digits without radius. KQ: the SDP distance's midpoint 10⁻⁴
    as a ball of radius a tenth of rules.SDP_DISTANCE_RESOLUTION (10⁻⁷, rounded up to arb's 30-bit radius), decided
    by rules.decays, not enclosed, not a residual (10⁻⁴ > 10⁻⁶)."""
    last = _inverse_squares()[-1]
    w = only_item(out, W_LABEL, exact=True)
    assert w.value is not None and w.value.mid() == last.mid() and w.value.rad() == last.rad()
    assert w.rule.holds is True and w.rule.rule.startswith("decays") and "fitted exponent 2 " in w.rule.detail
    assert w.enclosed is False and w.residual is False
    assert w.note == "1: 1.000, 3: 0.1111, 10: 0.01000, 30: 0.001111, 100: 0.0001000"
    kq = only_item(out, NUC_LABEL, exact=True)
    assert kq.value.mid() == last.mid()
    tenth = to_arb(rules.SDP_DISTANCE_RESOLUTION / 10)
    assert tenth <= kq.value.rad() <= tenth * (1 + to_arb(2) ** -28)
    assert kq.rule.holds is True and kq.rule.rule.startswith("decays") and "fitted exponent 2 " in kq.rule.detail
    assert kq.enclosed is False and kq.residual is False
    assert [e.quantity for e in out.evidence] == [W_LABEL, NUC_LABEL]


def range_cover_and_figure(out):
    """The range names each path's largest R; the width m = d = 2 is the covered value; the figure is drawn by
    default with one series per path, labelled by what it plots."""
    assert out.range == "W path R ≤ 100; (K,Q) path R ≤ 100"
    assert out.covers == ["(K,Q) of width m = d = 2"]
    assert len(out.figures) == 1 and isinstance(out.figures[0], Figure)
    assert [s.label for s in out.figures[0].series] == ["W path: 1 − corr(W̄_R, W^mm)",
                                                        "(K,Q) path: dist to the nuclear SVM⋆ set / C⋆"]


def test_w_part_only_passes_seed_and_starts_and_a_zero_residual(monkeypatch):
    """parts=("W",), seed 7, starts 3, figure=False: one path with those, no (K,Q) solve, no cover, no figure. The
    last 1 − corr is the exact lower end of the ball 10⁻³⁰ (certainly ≤ 10⁻³⁰, the zero of 1 − corr; the earlier
    values 1/2, 1/4, 1/8 are not): a residual, its value the upper end of |value| (that lower end), and the rule
    holds as zero to the working precision."""
    with working_precision(30) as prec:
        tiny = lower_end(prec.tolerance)
    out, log = _run(monkeypatch, {"W": _halving_to(tiny)}, parts=("W",), seed=7, starts=3, figure=False)
    assert log["path"] == [("W", RADII, 30, 3, 7)]
    assert [a for a, _ in log["solve_svm"]] == [("W", "opt", 30)] and log["nuclear_unique"] == []
    assert out.covers == [] and out.figures == [] and out.range == "W path R ≤ 100"
    w = only_item(out, W_LABEL, exact=True)
    assert w.residual is True and w.value == tiny
    assert w.rule.holds is True and ZERO_DETAIL in w.rule.detail
    assert out.decision().verdict == "HOLDS"


def test_frobenius_target_reads_one_minus_corr_with_its_own_zero(monkeypatch):
    """target="frobenius" (KQ only, figure on): 1 − corr to W^mm = I. Last value 10⁻¹⁰: above 10⁻³⁰ (its zero), so
    no residual although it is below the SDP's 10⁻⁶; the figure's series names 1 − corr. Last value the exact lower
    end of 10⁻³⁰: a residual, and the rule holds as zero to the working precision (not by a fitted exponent)."""
    small = to_arb(Fraction(1, 10 ** 10))
    out, log = _run(monkeypatch, {"KQ": _halving_to(small)}, parts=("KQ",), target="frobenius")
    assert log["omc"] == [[1, 0, 0, 1]] * 5 and log["dist"] == []
    fro = only_item(out, FRO_LABEL, exact=True)
    assert fro.residual is False and fro.value is small and fro.enclosed is False
    assert [s.label for s in out.figures[0].series] == ["(K,Q) path: 1 − corr to W^mm"]
    assert out.range == "(K,Q) path R ≤ 100"
    with working_precision(30) as prec:
        tiny = lower_end(prec.tolerance)
    out, _ = _run(monkeypatch, {"KQ": _halving_to(tiny)}, parts=("KQ",), target="frobenius", figure=False)
    fro = only_item(out, FRO_LABEL, exact=True)
    assert fro.residual is True and fro.value == tiny
    assert fro.rule.holds is True and ZERO_DETAIL in fro.rule.detail


def test_nuclear_distance_below_the_sdp_resolution_is_a_residual(monkeypatch):
    """The nuclear target: a last SDP distance 10⁻⁷ (a ball 10⁻⁷ ± 10⁻⁷, certainly ≤ 10⁻⁶ but not ≤ 10⁻³⁰) is a
    residual (0 at the SDP's resolution), shown as its upper end ≈ 2·10⁻⁷; the rule holds as zero."""
    out, _ = _run(monkeypatch, {"KQ": _halving_to(to_arb(Fraction(1, 10 ** 7)))}, parts=("KQ",), figure=False)
    kq = only_item(out, NUC_LABEL, exact=True)
    assert kq.residual is True
    assert to_arb(Fraction(2, 10 ** 7)) <= kq.value <= to_arb(Fraction(21, 10 ** 7))
    assert kq.rule.holds is True and ZERO_DETAIL in kq.rule.detail


def test_an_unsolved_nuclear_svm_fails_its_requirement_and_stops(monkeypatch):
    """Att-SVM⋆ without a certified optimum (status "unknown"): the requirement fails with the solver's notes joined
    by "; ", no (K,Q) path is run and the verdict is INCONCLUSIVE naming it."""
    def unsolved(solve):
        def solve_kq(data, kind, *a, **k):
            if kind == "KQ":
                return SimpleNamespace(status="unknown", notes=["no certificate", "solver stalled"])
            return solve(data, kind, *a, **k)
        return solve_kq

    out, log = _run(monkeypatch, {"W": _inverse_squares()}, figure=False, wrap_solve=unsolved)
    assert [p[0] for p in log["path"]] == ["W"] and log["nuclear_unique"] == []
    assert [(r.name, r.met, r.detail) for r in out.requirements[1:]] == [
        (NUC_SOLVED, False, "no certificate; solver stalled")]
    d = out.decision()
    assert d.verdict == "INCONCLUSIVE" and NUC_SOLVED in d.reasons[0]


def test_check_is_evaluate_at_its_defaults(monkeypatch):
    """check(data, prec) runs evaluate on that data at every default: both paths, default radii, 2 starts, seed 0."""
    out, log = _run(monkeypatch, {"W": _inverse_squares(), "KQ": _inverse_squares()}, call=T.check)
    assert log["path"] == [("W", RADII, 30, 2, 0), ("KQ", RADII, 30, 2, 0)]
    assert [e.quantity for e in out.evidence] == [W_LABEL, NUC_LABEL] and len(out.figures) == 1
    assert out.decision().verdict == "HOLDS"

