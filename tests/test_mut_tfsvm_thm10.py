"""tfsvm.thm10 (mutation tests): the 3-significant-digit rounding (strictly above / below, the step switch at 10),
the constants ε = κ̂/2 rounded down (1/10 when κ̂ ≤ 0) and R₀ = max(1, (1/ε)·ln(B·T/c_α)) rounded up (checked
against mpmath), the enumeration of α (counts, vacuous, opt first, an unsolvable α skipped), and what evaluate hands
the conic path and reads back — with the path itself replaced by a recorder (``separating_cone_path`` is Theorem 9's
engine, tested there), so every test here is fast: the ladders (R₀·(1, 2, 4, 8, 16) for α ≠ opt, Corollaries 1–2's
R₀·(1, 3, 10, 30, 100) for opt), ε = 0 and no extra digits for opt, starts/seed passed through, the ε-small
hypothesis on both sides and undecided, the linear-head requirement, the no-α requirement, the notes (counts, radii
where attention selects α, active cone edge), the range, the figure switch.

s2s_causal (verify.data.tfsvm_seq2seq): causal, Y = −1, v = (1/2, −3/2), tokens (−1/2, 2), (−1, 1/2), (3/2, −3/2):
γ = (13/4, 5/4, −3). Windows {0}, {0, 1}, {0, 1, 2}: 1·2·3 = 6 selections. Query 1 selecting token 1 (γ = 5/4 < 13/4)
has token 0 as its support index with a higher score, so Def 4 fails there; the locally-optimal α are (0, 0, α₂):
opt (0, 0, 0), (0, 0, 1) (κ̂ ≈ 1.14) and (0, 0, 2) whose cone is empty (token 2 has the lowest score) — 3 in all, 2
with a path. B = ‖v‖·max‖x_t − x_τ‖ = √(10/4 · 65/4) (tokens 0 and 2: (−2, 7/2))."""
from dataclasses import fields
from decimal import Decimal
from fractions import Fraction
from types import SimpleNamespace

import mpmath
import pytest
from flint import arb

import lemmas.tfsvm.thm10 as T
from verify.claims import Figure
from verify.data.dataset import Dataset
from verify.data.tfsvm_seq2seq import s2s_causal
from verify.dynamics.separating_rp import ConePoint, logit_digits_per_radius
from verify.errors import DataError
from verify.geometry.separating_cone import Selection, assumption_e, selection
from verify.kit.seq2seq import frobenius_norm, path_r0
from verify.numbers.precision import to_arb, working_precision

mpmath.mp.dps = 50
OPT, DEV, VAC = ((0, 0, 0),), ((0, 0, 1),), ((0, 0, 2),)


class _Budget:
    """to_arb with a budget of calls. ``_round`` used to start at the nearest grid point of float(x) and step through
    to_arb until certain; it now rounds the ball's exact end and calls to_arb not at all — the budget stays so that a
    rounding loop, brought back, fails the test instead of hanging it."""

    def __init__(self, real, limit=20000):
        self.real, self.limit, self.calls = real, limit, 0

    def __call__(self, *a, **k):
        self.calls += 1
        if self.calls > self.limit:
            raise RuntimeError("to_arb budget exhausted: a rounding loop does not end")
        return self.real(*a, **k)


@pytest.fixture(autouse=True)
def bounded_rounding(monkeypatch):
    monkeypatch.setattr(T, "to_arb", _Budget(to_arb))


def _grid(x, up):
    """The 3-significant-digit rational strictly above (up) / below x: step 1/1000 below 10, 1/10 from 10 on."""
    step = Fraction(1, 1000) if x < 10 else Fraction(1, 10)
    k = int(mpmath.floor(x / (mpmath.mpf(step.numerator) / step.denominator)))
    q = k * step
    if up:
        return q + step
    return q if mpmath.mpf(q.numerator) / q.denominator < x else q - step


def test_round_is_strictly_above_or_below_on_the_3_digit_grid():
    """Up first (a mutant dividing by the step instead of multiplying returns 10⁶·x at once); grid points are moved
    off (strictly above/below); the step is 1/1000 below 10 and 1/10 from 10 on (10 itself and 10.5 included)."""
    budget = _Budget(to_arb, 50)
    T.to_arb = budget   # restored by the autouse fixture
    with working_precision(30):
        assert T._round(to_arb(5), up=True) == Fraction(5001, 1000) and budget.calls <= 3
        for x, up, want in ((Fraction(5634, 10000), True, Fraction(564, 1000)),
                            (Fraction(5634, 10000), False, Fraction(563, 1000)),
                            (Fraction(5636, 10000), False, Fraction(563, 1000)),
                            (Fraction(5636, 10000), True, Fraction(564, 1000)),
                            (Fraction(1, 2), True, Fraction(501, 1000)), (Fraction(1, 2), False, Fraction(499, 1000)),
                            (Fraction(51234, 10000), False, Fraction(5123, 1000)),
                            (Fraction(10), True, Fraction(101, 10)), (Fraction(21, 2), True, Fraction(106, 10)),
                            (Fraction(1234, 100), True, Fraction(124, 10)), (Fraction(1234, 100), False, Fraction(123, 10))):
            budget.calls = 0
            assert T._round(to_arb(x), up=up) == want, (x, up)
            assert budget.calls <= 3, (x, up)   # no stepping loop through to_arb (it makes none now)
            assert want == _grid(mpmath.mpf(x.numerator) / x.denominator, up)
        third = to_arb(1) / 3
        assert T._round(third, up=False) == Fraction(333, 1000) and T._round(third, up=True) == Fraction(334, 1000)


def _B(data):
    v = sum(mpmath.mpf(Fraction(x).numerator) / Fraction(x).denominator for x in [Fraction(y) ** 2 for y in data.v])
    d = max(sum((Fraction(a) - Fraction(b)) ** 2 for a, b in zip(x, y)) for s in data.X for x in s for y in s)
    return mpmath.sqrt(v * mpmath.mpf(d.numerator) / d.denominator)


def test_constants_eps_and_r0():
    """ε = κ̂/2 rounded down (κ̂ = 1/2 → 249/1000); κ̂ ≤ 0 (0 or −1) → 1/10; a given ε is kept. R₀ =
    (1/ε)·ln(B·T/c) rounded up when B·T/c > 1 (c = 2, and c with B·T/c = 3/2, below 2), else exactly 1."""
    data = s2s_causal()
    B = _B(data)
    assert abs(B - mpmath.sqrt(mpmath.mpf(650) / 16)) < mpmath.mpf(10) ** -40
    dev = lambda kh: SimpleNamespace(deviating=lambda: [1], kappa=kh, W=None)  # noqa: E731
    with working_precision(30):
        e, R0 = T.constants(data, dev(to_arb(Fraction(1, 2))), None, 2)
        assert e == Fraction(249, 1000)
        assert R0 == _grid(mpmath.log(B * 3 / 2) / (mpmath.mpf(249) / 1000), True)
        for kh in (to_arb(0), to_arb(-1)):
            assert T.constants(data, dev(kh), None, 2)[0] == Fraction(1, 10)
        e, R0 = T.constants(data, dev(to_arb(Fraction(1, 2))), Fraction(1, 5), 2)
        assert e == Fraction(1, 5) and R0 == _grid(5 * mpmath.log(B * 3 / 2), True) == Fraction(113, 10)
        c = to_arb(3) * T.head_spread(data) / to_arb(Fraction(3, 2))   # B·T/c = 3/2: R₀ = 5·ln(3/2) ≈ 2.03
        e, R0 = T.constants(data, dev(to_arb(1)), Fraction(1, 5), c)
        assert R0 == _grid(5 * mpmath.log(mpmath.mpf(3) / 2), True) == Fraction(2028, 1000)
        e, R0 = T.constants(data, dev(to_arb(1)), Fraction(1, 5), 1000)   # B·T/c < 1: R₀ = 1, moved up: 1.001
        assert R0 == Fraction(1001, 1000)
        five = Dataset.make(X=[[[0, 0], [3, 4], [0, 0]]], Y=[1], v=[1, 0], name="B-is-5")   # B = 1·5 exactly
        assert T.constants(five, dev(to_arb(1)), Fraction(1, 5), 15)[1] == Fraction(1001, 1000)   # B·T/c = 1


def test_alphas_enumerates_counts_and_keeps_opt_first(monkeypatch):
    """s2s_causal: 3 locally-optimal α among 6 (module docstring), paths for opt and (0, 0, 1), (0, 0, 2) vacuous. A
    given α is taken as is (nothing enumerated). An α whose SVM raises DataError is skipped and the rest still
    enumerated. Tokens of s2s_labels reversed: opt = (1, 1, 2) and the LMM (1, 0, 2) come before it in product order —
    opt is still listed first (the order is by 'deviates', then α; never by the selection objects)."""
    data = s2s_causal()
    with working_precision(30) as prec:
        covered, vacuous, total, tried = T._alphas(data, "causal", prec, None)
        assert [a for a, _ in covered] == [OPT, DEV] and vacuous == [VAC] and (total, tried) == (3, 6)
        assert T._alphas(data, "causal", prec, [["0", "0", "1"]])[:3] == ([(DEV, None)], [], None)

        real = T.selection

        def failing(d, al, att, dps=40):
            if al == DEV:
                raise DataError("no SVM")
            return real(d, al, att, dps)

        monkeypatch.setattr(T, "selection", failing)
        covered, vacuous, total, tried = T._alphas(data, "causal", prec, None)
        assert [a for a, _ in covered] == [OPT] and vacuous == [VAC] and (total, tried) == (2, 6)
        monkeypatch.setattr(T, "selection", real)

        rev = Dataset.make(X=[[["-1/2", "3/2"], ["3/2", -2], [-2, 1]]], Y=[1], v=["3/2", 0], Yq=[[1, 1, -1]],
                           name="s2s-labels-reversed")
        ropt, rdev = ((1, 1, 2),), ((1, 0, 2),)
        monkeypatch.setattr(T, "selections", lambda d, att: [ropt, rdev, rdev])
        covered, _, total, _ = T._alphas(rev, "seq2seq", prec, None)
        assert [a for a, _ in covered] == [ropt, rdev, rdev] and total == 3
        assert not covered[0][1].deviating() and covered[1][1].deviating()


class Recorder:
    """Stands in for ``separating_cone_path``: records its arguments and returns points at the radii given with
    distance 1/R (decays), the cone edge active at odd indices, attention selecting α at the first three radii."""

    def __init__(self):
        self.calls = []

    def __call__(self, data, alpha, radii, *, eps, dps, digits_per_radius=0, attention="single", starts=2, seed=0,
                 targets=None, **kw):
        self.calls.append(dict(alpha=alpha, radii=list(radii), eps=eps, dps=dps, dpr=digits_per_radius,
                               attention=attention, starts=starts, seed=seed, targets=targets))
        return [ConePoint(R=to_arb(R), W=[], f=arb(0), candidate_f=arb(1), kappa=None, in_cone=True, active=k % 2,
                          min_multiplier=None, riemannian_gradient=arb(0), radial=arb(-1), dps=dps, starts=starts,
                          selected=alpha if k < 3 else (), distance={"ref": 1 / to_arb(R)})
                for k, R in enumerate(radii)]


def _spy(monkeypatch, name, log):
    real = getattr(T, name)

    def spy(*a, **k):
        log.append((name, a, k))
        return real(*a, **k)

    monkeypatch.setattr(T, name, spy)


def causal_run():
    """evaluate(s2s_causal) at every default, the path recorded and Assumption E / the count spied. One test reads it
    all (mutmut runs a mutant's tests by the functions each test called: a shared fixture counts for one test only)."""
    mp = pytest.MonkeyPatch()
    rec, log = Recorder(), []
    mp.setattr(T, "separating_cone_path", rec)
    mp.setattr(T, "to_arb", _Budget(to_arb))
    for name in ("assumption_e", "head_hypothesis", "selection_count"):
        _spy(mp, name, log)
    try:
        with working_precision(30) as prec:
            out = T.evaluate(s2s_causal(), prec)    # every option at its default (figure included)
            sels = {a: selection(s2s_causal(), a, "causal", 30) for a in (OPT, DEV)}
    finally:
        mp.undo()
    return out, rec.calls, log, sels


def test_default_run_on_s2s_causal():
    run = causal_run()
    paths_get_their_ladders_eps_digits_and_targets(run)
    notes_range_cover_evidence_and_figure(run)


def paths_get_their_ladders_eps_digits_and_targets(causal_run):
    """opt: R₀ = path_r0 (‖W^mm‖_F·max(1, ln(B·T/min(c, 1))), Corollaries 1–2), ladder R₀·(1, 3, 10, 30, 100), ε = 0, no
    extra digits per radius; (0, 0, 1): ε = ⌊1000·κ̂/2⌋/1000, R₀ = (1/ε)·ln(3B/c) rounded up, ladder R₀·(1, 2, 4, 8,
    16), B_z/ln 10 digits per radius; both at the defaults starts = 2, seed = 0, causal attention, the target W^mm_α."""
    out, calls, log, sels = causal_run
    assert [c["alpha"] for c in calls] == [OPT, DEV]
    o, d = calls
    with working_precision(30):
        c_opt = assumption_e(s2s_causal(), OPT, "causal")[1]
        r_opt = path_r0(s2s_causal(), frobenius_norm(sels[OPT].W), OPT)
        c_dev = assumption_e(s2s_causal(), DEV, "causal")[1]
        dpr = logit_digits_per_radius(sels[DEV].sets)
    kh = mpmath.mpf(sels[DEV].kappa.mid().str(40, radius=False))
    eps = Fraction(int(mpmath.floor(1000 * kh / 2)), 1000)
    r_dev = _grid(mpmath.log(_B(s2s_causal()) * 3 / mpmath.mpf(Fraction(c_dev).numerator)
                              * Fraction(c_dev).denominator) / (mpmath.mpf(eps.numerator) / eps.denominator), True)
    assert c_opt and o["radii"] == [r_opt * f for f in (1, 3, 10, 30, 100)] and o["eps"] == 0 and o["dpr"] == 0
    assert d["eps"] == eps and d["radii"] == [r_dev * f for f in (1, 2, 4, 8, 16)] and d["dpr"] == dpr > 0
    for c, a in ((o, OPT), (d, DEV)):
        assert (c["starts"], c["seed"], c["attention"], c["dps"]) == (2, 0, "causal", 30)
        assert c["targets"] == {"ref": sels[a].W}
    # Assumption E (its c_α, and the hypothesis) is taken at each α itself, under the causal mask
    assert [a[1] for n, a, _ in log if n == "assumption_e"] == [OPT, DEV]
    assert [(a[1], a[2], a[3]) for n, a, _ in log if n == "head_hypothesis"] == [(OPT, True, "α = (1,1,1)"),
                                                                                 (DEV, True, "α = (1,1,2)")]
    assert [a[1] for n, a, _ in log if n == "selection_count"] == ["causal"]


def _dec(q: Fraction) -> str:
    """A terminating rational as its decimal expansion (the radii and ε are multiples of 10⁻³)."""
    return str(Decimal(q.numerator) / Decimal(q.denominator))


def notes_range_cover_evidence_and_figure(causal_run):
    """Notes: the vacuous α (printed from 1), '3 locally-optimal α enumerated; paths run for 2' (all 6 tried), and per
    α the radii where attention selects α (3 of 5) and where the cone edge is active (2: indices 1 and 3); the range
    names the last radius per α and '(causal)'; the regime requirement at R₀ is present; the figure is drawn by
    default."""
    out, calls, _, _ = causal_run
    assert out.notes[0].endswith("Lemma 16): α = (1,1,3)")
    assert out.notes[1] == "3 locally-optimal α enumerated; paths run for 2"
    for note in out.notes[2:]:
        assert "argmax attention = α at 3 of 5 radii; cone edge active at 2; up to 30 digits" in note
    last = [_dec(c["radii"][-1]) for c in calls]
    assert out.range == f"α = (1,1,1): R ≤ {last[0]}; α = (1,1,2): R ≤ {last[1]} (causal)"
    assert out.covers == [f"α = (1,1,1): ε = any (cone = every matrix), R₀ = {_dec(calls[0]['radii'][0])}",
                          f"α = (1,1,2): ε = {_dec(calls[1]['eps'])}, R₀ = {_dec(calls[1]['radii'][0])}"]
    assert [e.quantity for e in out.evidence] == [f"α = {t}: dist(W̄(R)/(RΞ), W^mm_α) → 0 (value at the largest R)"
                                                  for t in ("(1,1,1)", "(1,1,2)")]
    regime = [r for r in out.requirements if "asymptotic regime" in r.name]
    assert len(regime) == 2 and all(r.met for r in regime)
    hyp = [h for h in out.hypotheses if h.name.startswith("α = (1,1,2): SAtt-SVM")]
    assert hyp[0].met is True and hyp[0].detail == "decided exactly while enumerating α"
    assert len(out.figures) == 1 and isinstance(out.figures[0], Figure)
    assert out.decision().verdict == "HOLDS"


def _run(monkeypatch, data=None, **kw):
    rec = Recorder()
    monkeypatch.setattr(T, "separating_cone_path", rec)
    with working_precision(30) as prec:
        out = T.evaluate(data or s2s_causal(), prec, **kw)
    return out, rec.calls


def test_options_reach_the_path_and_check_passes_eps(monkeypatch):
    """starts, seed, eps and factors (one ladder for every α) are passed on; figure=False draws nothing; check(eps)
    is evaluate with that ε on every α ≠ opt; the gmm target measures against SAtt-SVM(opt)'s W^mm."""
    out, calls = _run(monkeypatch, alpha=DEV, starts=3, seed=7, eps="0.3", factors=("1", "2"), figure=False)
    assert [(c["starts"], c["seed"], c["eps"]) for c in calls] == [(3, 7, Fraction(3, 10))]
    r0 = calls[0]["radii"][0]
    assert calls[0]["radii"] == [r0, 2 * r0] and not out.figures
    assert [h.met for h in out.hypotheses if h.name.startswith("α = (1,1,2) locally optimal")] == [True]
    h = [h for h in out.hypotheses if h.name.startswith("α = (1,1,2) locally optimal")][0]
    assert h.detail == "support indices [(0, 0, ()), (0, 1, (1,)), (0, 2, (2,))]"  # the lower-score tokens
    with working_precision(30) as prec:
        rec = Recorder()
        monkeypatch.setattr(T, "separating_cone_path", rec)
        T.check(s2s_causal(), prec, eps="0.3")
    assert [c["eps"] for c in rec.calls] == [Fraction(3, 10)] * 2   # opt's cone has no constraint: ε is inert
    out, calls = _run(monkeypatch, alpha=DEV, target="gmm", figure=False)
    with working_precision(30):
        assert calls[0]["targets"] == {"ref": selection(s2s_causal(), OPT, "causal", 30).W}
    assert out.evidence[0].quantity.startswith("α = (1,1,2): dist(W̄(R)‖W^mm‖/R, W^mm) → 0 (test-only")
    tie = Dataset.make(X=[[[1, 0], [0, 1], [-1, 0]]], Y=[1], v=[1, 1], name="tie")   # γ = (1, 1, −1): tied
    with pytest.raises(DataError, match="the GMM target needs unique optimal tokens"):
        _run(monkeypatch, tie, alpha=((0, 0, 0),), target="gmm")


def test_non_causal_range_has_no_causal_mark(monkeypatch):
    """s2s_labels is not causal: the range names α's last radius and nothing else."""
    from verify.data.tfsvm_seq2seq import s2s_labels

    out, calls = _run(monkeypatch, s2s_labels(), alpha=((0, 2, 1),), figure=False)
    assert [c["attention"] for c in calls] == ["seq2seq"]
    assert out.range == f"α = (1,3,2): R ≤ {_dec(calls[0]['radii'][-1])}"


class _Kappa(Selection):
    kappa = None


def test_eps_small_on_both_sides_and_undecided(monkeypatch):
    """ε small ⇔ κ̂ > ε certainly: κ̂ = ε exactly → not met (NOT_APPLICABLE naming it, ε in its detail); κ̂ a ball
    containing ε → undecided (INCONCLUSIVE, no path run); κ̂ > ε → met."""
    real = T.selection
    for kappa, verdict in ((to_arb(Fraction(1, 2)), "NOT_APPLICABLE"), (arb("0.5", "0.1"), "INCONCLUSIVE"),
                           (to_arb(Fraction(3, 5)), "HOLDS")):
        def fixed(*a, kappa=kappa, **k):
            s = real(*a, **k)
            f = _Kappa(**{x.name: getattr(s, x.name) for x in fields(s)})
            f.kappa = kappa
            return f

        monkeypatch.setattr(T, "selection", fixed)
        out, calls = _run(monkeypatch, alpha=DEV, eps="0.5", figure=False)
        h = [h for h in out.hypotheses if h.name.startswith("ε small")]
        d = out.decision()
        assert d.verdict == verdict and len(h) == 1 and h[0].detail.startswith("ε = 1/2, κ̂(α) = ")
        assert h[0].met is {"NOT_APPLICABLE": False, "INCONCLUSIVE": None, "HOLDS": True}[verdict]
        assert bool(calls) == (verdict == "HOLDS")


def test_not_the_linear_head_is_a_requirement(monkeypatch):
    """A concave head h(x) = vᵀx − ‖x‖²/200 on s2s_causal's tokens meets E at (0, 0, 1) but the path is computed with
    the linear head: the requirement fails naming the head, and no path is run."""
    data = Dataset.make(X=[[["-1/2", 2], [-1, "1/2"], ["3/2", "-3/2"]]], Y=[-1], v=["1/2", "-3/2"], causal=True,
                        head={"kind": "concave", "lambda": "1/100"}, name="thm10-concave")
    out, calls = _run(monkeypatch, data, alpha=DEV, figure=False)
    assert out.applicable() and not calls
    assert [(r.name, r.met, r.detail) for r in out.requirements] == [
        ("the path is computed with the linear head h(x) = vᵀx (v1's theory)", False, "head: concave")]
    assert out.decision().verdict == "INCONCLUSIVE"


def test_no_alpha_with_a_cone_is_a_requirement_and_a_capped_enumeration_is_named(monkeypatch):
    """Only the vacuous α = (0, 0, 2) enumerated: nothing to run, the requirement fails with its reason, no range.
    Two of the six selections enumerated: the note says so."""
    monkeypatch.setattr(T, "selections", lambda d, att: [VAC])
    out, calls = _run(monkeypatch)
    assert not calls and out.range in (None, "")
    assert [(r.name, r.met, r.detail) for r in out.requirements] == [
        ("a locally-optimal α with a non-empty cone to run the path on", False,
         "none (every locally-optimal α is vacuous or SAtt-SVM(opt) is infeasible)")]
    assert out.decision().verdict == "INCONCLUSIVE"
    monkeypatch.setattr(T, "selections", lambda d, att: [OPT, DEV])
    out, calls = _run(monkeypatch, figure=False)
    assert "2 locally-optimal α enumerated among the first 2 of 6 selections; paths run for 2" in out.notes


def test_a_given_alpha_unsolved_or_with_an_empty_cone(monkeypatch):
    """A given α: the cone's emptiness named with the query (Lemma 16); an SVM raising DataError → 'feasible' not
    met with the error; an optimum without a certificate → 'solved exactly' undecided with the reason."""
    out, calls = _run(monkeypatch, alpha=VAC, figure=False)
    h = [h for h in out.hypotheses if h.name == "cone_ε((1,1,3)) non-empty (Lemma 16)"]
    assert len(h) == 1 and h[0].met is False and h[0].detail.startswith("empty: query (i, k) = [(0, 2)]")

    def raising(*a, **k):
        raise DataError("bad α")

    monkeypatch.setattr(T, "selection", raising)
    out, calls = _run(monkeypatch, alpha=DEV, figure=False)
    assert [(h.name, h.met, h.detail) for h in out.hypotheses[1:]] == [("SAtt-SVM((1,1,2)) feasible", False, "bad α")]
    assert out.decision().verdict == "NOT_APPLICABLE" and not calls
    res = SimpleNamespace(status="optimal", certificate=None, support=[], notes=[])
    monkeypatch.setattr(T, "selection", lambda *a, **k: SimpleNamespace(feasible=None, result=res, reason="why"))
    out, calls = _run(monkeypatch, alpha=DEV, figure=False)
    assert [(h.name, h.met, h.detail) for h in out.hypotheses[2:]] == [("SAtt-SVM((1,1,2)) solved exactly", None,
                                                                         "why")]
    res.status = "error"
    out, calls = _run(monkeypatch, alpha=DEV, figure=False)
    assert [h.name for h in out.hypotheses] == [out.hypotheses[0].name, "SAtt-SVM((1,1,2)) feasible"]
