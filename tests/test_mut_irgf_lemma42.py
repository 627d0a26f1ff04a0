"""irgf.lemma42 pieces (mutation tests): the proof-step Tallies (27)–(29) at single points against an
independent float64 evaluation of the paper's formulas, the probe points as documented, and the
structure of the outcome on D-FACE (n = 1, L = 2, B = (1, 1, 0)) where (28) and (29) coincide exactly."""
import math
import random
from fractions import Fraction

from flint import arb

from lemmas.irgf import lemma42
from verify import Dataset
from verify.data.irgf import d_diaginf, d_face, d_seed0
from verify.kit import irgf
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import to_arb, working_precision


def three_tokens() -> Dataset:
    """n = 1, L = 3, d = 3; scores γ = (3, 1, 2) (Assumption 2 fails: the non-optimal scores differ), so
    (29)'s two forms differ. Features z ⊙ x_l = x_l (z = 𝟙): x₀ = (3, 1, 0), x₁ = (1, 0, 1), x₂ = (2, 0, 0)."""
    return Dataset.make(X=[[[3, 1, 0], [1, 0, 1], [2, 0, 0]]], Y=[1], v=[1, 0, 0], z=[[1, 1, 1]], name="three-tokens")


def reference(data, beta, om2, wref2, beta_f):
    """The paper's quantities in float64 at β (``om2`` = ω², ``wref2`` = w_ref²): softmax s_il of g_il = βᵀ(z_i ⊙ x_il), φ_i = Σ s_il γ_il,
    ℓ_i = e^{−φ_i}, c_il = s_il(γ_il − φ_i), ∇_βℒ = −(1/n)Σ_i ℓ_i Σ_l c_il (z_i ⊙ x_il);
    (27) −2Σ_j √(β_j²+ω_j⁴) g_j² + 2 w_ref² ‖g‖² (unfactored); r28 = (1/n)Σ_i ℓ_i Σ_{l≠opt} c_il;
    r29 = −(1/n)Σ_i ℓ_i σ_opt(1−σ_opt)(γ_opt − γ_first non-opt)."""
    Z = [[float(a) for a in z] for z in data.queries()]
    n, d = data.n, data.d
    g = [0.0] * d
    r28 = r29 = 0.0
    for i in range(n):
        F = [[float(x) * z for x, z in zip(tok, Z[i])] for tok in data.X[i]]
        gam = [float(x) for x in data.scores[i]]
        o = max(range(len(gam)), key=lambda t: gam[t])
        a = [sum(f * b for f, b in zip(row, beta)) for row in F]
        m = max(a)
        e = [math.exp(x - m) for x in a]
        s = [x / sum(e) for x in e]
        phi = sum(p * y for p, y in zip(s, gam))
        ell = math.exp(-phi)
        c = [p * (y - phi) for p, y in zip(s, gam)]
        for j in range(d):
            g[j] -= ell * sum(ct * row[j] for ct, row in zip(c, F)) / n
        r28 += ell * sum(ct for t, ct in enumerate(c) if t != o) / n
        first = next(t for t in range(len(gam)) if t != o)
        r29 -= ell * s[o] * (1 - s[o]) * (gam[o] - gam[first]) / n
    t27 = -2 * sum(math.sqrt(b * b + w * w) * x * x for b, w, x in zip(beta, om2, g)) + 2 * wref2 * sum(
        x * x for x in g)
    t28 = sum(x * b for x, b in zip(g, beta_f)) - r28 if beta_f is not None else None
    return t27, t28, r28, abs((r28 - r29) / r29)


def _one_point(data, beta, om2, wref2, beta_f, where="here"):
    model = LinearLogitModel.from_dataset(data, "diag", "exponential")
    tallies, add = lemma42.proof_steps(model, data, [to_arb(w) for w in om2], to_arb(wref2),
                                       None if beta_f is None else [to_arb(x) for x in beta_f], arb("1e-15"),
                                       "w_ref")
    add([to_arb(b) if not isinstance(b, arb) else b for b in beta], where)
    return tallies


def _close(ball, x, rel=1e-9):
    return abs(float(ball.mid()) - x) <= rel * max(abs(x), 1e-15)


def test_proof_steps_values_at_one_point_match_the_paper_formulas():
    """At single points of three datasets every Tally's value is the formula's value at that point, the
    point is named, and each is decided as its sign says."""
    cases = [
        (three_tokens(), [Fraction(1, 2), Fraction(-1, 3), Fraction(1, 4)], [Fraction(9, 4), 1, Fraction(1, 4)],
         Fraction(1, 4), [1, 2, 3]),
        (three_tokens(), [0, 0, 0], [1, 4, 1], 1, [0, 0, 1]),
        (d_seed0(), [Fraction(3, 10), Fraction(-1, 5), Fraction(1, 2), Fraction(7, 10)], [1, 1, 4, Fraction(1, 9)],
         Fraction(1, 9), [Fraction(1, 2), 0, 1, -1]),
    ]
    with working_precision(30):
        for data, beta, om2, wref2, beta_f in cases:
            t27, t28, t29, d29 = _one_point(data, beta, om2, wref2, beta_f, where="the point")
            e27, e28, e29, ed29 = reference(data, [float(b) for b in beta], [float(w) for w in om2], float(wref2),
                                            [float(b) for b in beta_f])
            for t, e in ((t27, e27), (t28, e28), (t29, e29), (d29, ed29)):
                assert t.coverage.points == 1 and t.coverage.worst_at == "the point"
                assert _close(t.worst_value, e), (t.quantity, t.worst_value, e)
            assert t29.coverage.holds == 1 and e29 < 0  # (29) < 0 at every point
            assert (t27.coverage.holds, t27.coverage.violated) == ((1, 0) if e27 <= 0 else (0, 1))
            assert (t28.coverage.holds, t28.coverage.violated) == ((1, 0) if e28 < 0 else (0, 1))
            # (29)'s two forms: a relative deviation, compared as |·| with 10^-15
            assert d29.residual and d29.worst_value >= 0
            if ed29 > 1e-10:
                assert d29.coverage.violated == 1 and d29.coverage.first_violation == "the point"


def test_29_forms_differ_by_a_quarter_at_zero_without_assumption_2():
    """three_tokens at β = 0: s = 1/3, φ = 2, ℓ = e^{−2}, c = (1/3, −1/3, 0); r28 = −e^{−2}/3 and
    r29 = −e^{−2}·(1/3)(2/3)·(3 − 1) = −4e^{−2}/9: relative deviation −1/4, shown as |·| = 1/4 > tol (VIOLATED)."""
    with working_precision(30):
        t27, t28, t29, d29 = _one_point(three_tokens(), [0, 0, 0], [1, 1, 1], 1, [1, 1, 1])
        assert _close(t29.worst_value, -math.exp(-2) / 3, 1e-12)
        assert _close(d29.worst_value, 0.25, 1e-12) and d29.coverage.violated == 1
        # ∇ℒ(0) = −e^{−2}/3·(2, 1, −1); ⟨g, 𝟙⟩ = −2e^{−2}/3; (28): −2e^{−2}/3 + e^{−2}/3 = −e^{−2}/3
        assert _close(t28.worst_value, -math.exp(-2) / 3, 1e-12)
        # equal weights at β = 0: (27) is exactly 0 (the equality case), which holds
        assert t27.worst_value == 0 and t27.coverage.holds == 1


def test_27_with_a_larger_reference_constant_fails_by_a_small_positive_amount():
    """At β = 0 the factored (27) is −2Σ_j (ω_j² − w_ref²) g_j². With ω² = (1, 1, 1) and w_ref² = 2 (a
    wrong constant): +2‖g‖² = 2e^{−4}/9·6 = (4/3)e^{−4} ≈ 0.024 > 0: VIOLATED, with value in (0, 1)."""
    with working_precision(30):
        t27, *_ = _one_point(three_tokens(), [0, 0, 0], [1, 1, 1], 2, [1, 1, 1])
        assert _close(t27.worst_value, 4 / 3 * math.exp(-4), 1e-12)
        assert t27.coverage.violated == 1 and t27.coverage.first_violation == "here"
        assert t27.evidence().decide() is False


def test_an_enclosure_straddling_zero_leaves_28_and_29_undecided():
    """A point given as balls (β_j = 0 ± r): the values of (28) and (29) are balls around a negative
    number that contain 0 and lie below 1 — undecided, never counted as holding (< 0 is strict)."""
    with working_precision(30):
        for r, k in (("0.01", 1), ("0.05", 2)):
            t = _one_point(three_tokens(), [arb(0, arb(r))] * 3, [1, 1, 1], 1, [1, 1, 1])[k]
            assert t.worst_value.contains(0) and t.worst_value < 1, t.worst_value
            assert t.coverage.undecided == 1 and t.coverage.holds == 0 and t.coverage.first_undecided == "here"


def test_two_points_are_both_counted():
    with working_precision(20):
        model = LinearLogitModel.from_dataset(d_face(), "diag", "exponential")
        tallies, add = lemma42.proof_steps(model, d_face(), [arb(1)] * 3, arb(1), [arb(1), arb(1), arb(0)],
                                           arb("1e-15"), "w_min")
        add([arb(0)] * 3, "a")
        add([arb(1), arb(2), arb(0)], "b")
        assert all(t.coverage.points == 2 for t in tallies)
        assert "2 w_min²" in tallies[0].quantity


def _documented_probe_points(data, res):
    """Seeded directions u = (k/37) with k ∈ [−100, 100] (3 of them, seed 0), then ±β*, then ±B_il for
    every constraint row; each scaled to ‖u‖_∞ = r for r in SCALES; zero directions dropped."""
    rng = random.Random(0)
    dirs = [tuple(Fraction(rng.randint(-100, 100), 37) for _ in range(data.d)) for _ in range(3)]
    if res is not None:
        dirs += [tuple(res.solution), tuple(-x for x in res.solution)]
        for row in res.problem.rows:
            dirs += [tuple(row), tuple(-x for x in row)]
    scales = [Fraction(0), Fraction(1, 4), Fraction(1), Fraction(3), Fraction(10), Fraction(30), Fraction(100),
              Fraction(1000)]
    return [[x * r / m for x in u] for u in dirs if any(u) for m in [max(abs(y) for y in u)] for r in scales]


def test_probe_points_are_the_documented_directions_and_scales():
    with working_precision(30):
        for data in (d_face(), d_seed0()):
            res = irgf.l1_svm(data)
            got = lemma42.probe_points(data, res)
            want = _documented_probe_points(data, res)
            assert len(got) == len(want) == 8 * (3 + 2 + 2 * len(res.problem.rows))
            for p, q in zip(got, want):
                assert all(abs(a - to_arb(b)) < arb("1e-25") for a, b in zip(p, q))
            # the largest scale reaches ‖β‖_∞ = 1000 exactly
            assert max(abs(float(x.mid())) for x in got[7]) == 1000
        # without the SVM (infeasible) only the three seeded directions
        assert len(lemma42.probe_points(d_face(), None)) == 24
        # seeded directions reach both ends of [−100, 100]/37 over many coordinates
        big = Dataset.make(X=[[[1] * 500, [0] * 500]], Y=[1], v=[0] * 499 + [1], z=[[1] * 500], name="wide")
        pts = lemma42.probe_points(big, None)
        assert len(pts) == 24
        raw = _documented_probe_points(big, None)
        assert all(abs(a - to_arb(b)) < arb("1e-25") for p, q in zip(pts, raw) for a, b in zip(p, q))


def _evaluate(data=None, **kw):
    with working_precision(20) as prec:
        return lemma42.evaluate(data or d_face(), prec, **kw), prec


def _item(out, start):
    return next(e for e in out.evidence if e.quantity.startswith(start))


def test_face_outcome_items_and_counts():
    """D-FACE, target 3: (28) at a tight β_f = 2β* equals r28 exactly (⟨∇ℒ, 2β*⟩ = 2r28 since B·β* = 1),
    so the (28) and (29) items show the same worst value; every Tally counts the probe points and the
    flow records; the norm and gradient items are the last record's; the range follows the target."""
    out, prec = _evaluate(target="3")
    assert out.decide() == "HOLDS" and out.range == "ln(‖β‖₁/p*) ≤ 3"
    data = d_face()
    res = irgf.l1_svm(data)
    with working_precision(20):
        traj, recs = irgf.flow(data, None, "3")
    npts = len(lemma42.probe_points(data, res)) + len(recs)
    t28, t29 = _item(out, "(28)"), _item(out, "(29) (1/n)")
    assert t28.coverage.points == t29.coverage.points == npts
    assert _item(out, "(27) −2Σ").coverage.points == npts and _item(out, "(29) relative").coverage.points == npts
    assert "2 w_min²" in _item(out, "(27) −2Σ").quantity
    assert abs(t28.value - t29.value) <= 1e-12 * abs(t29.value)
    rate = _item(out, "(27) dℒ/dt of the flow = −2Σ")
    assert rate.residual and rate.coverage.points == len(recs) and rate.coverage.holds == len(recs)
    assert rate.note.startswith("the flow's own dℒ/dt (chain rule along β̇) against the formula")
    # the requirement on the asymptotic window, met, with its count
    win = irgf.window(recs, key=lambda p: p.l1)
    req = [r for r in out.requirements if r.name.startswith("an asymptotic window")]
    assert [(r.met, r.detail) for r in req] == [(True, f"{len(win)} record(s)")]
    last = recs[-1][1]
    # ‖β‖₂ at the last record, from its β: B = (1, 1, 0) keeps β₁ = β₂, β₃ = 0
    nb = _item(out, "‖β(t)‖₂ → ∞")
    b = [float(x.mid()) for x in last.beta]
    assert abs(float(nb.value.mid()) - math.sqrt(sum(x * x for x in b))) < 1e-9 * abs(b[0])
    assert nb.decide() is True and nb.enclosed is False
    # ‖∇ℒ‖ at the last record: n = 1, γ = (1, 0): ∇ℒ = −e^{−σ}σ(1−σ)(1, 1, 0), σ = 1/(1 + e^{−(β₁+β₂)})
    e = math.exp(-(b[0] + b[1]))
    sig = 1 / (1 + e)
    gnorm = math.exp(-sig) * sig * (e / (1 + e)) * math.sqrt(2)
    gi = _item(out, "‖∇_βℒ(β(t))‖ → 0")
    assert abs(float(gi.value.mid()) - gnorm) < 1e-6 * gnorm and gi.decide() is True
    assert f"reference: its value at s = {recs[0][0].s}" in gi.note
    # the rule's ratio is against the first record: ‖∇ℒ‖ there from the same closed form
    b0 = [float(x.mid()) for x in recs[0][1].beta]
    e0 = math.exp(-(b0[0] + b0[1]))
    s0 = 1 / (1 + e0)
    g0 = math.exp(-s0) * s0 * (e0 / (1 + e0)) * math.sqrt(2)
    ratio = float(gi.note.split("ratio ")[1].split()[0].rstrip(";:"))
    assert abs(ratio - gnorm / g0) < 1e-3 * ratio
    mu = _item(out, "µ(t)/ln t at the last record")
    assert abs(float(mu.value.mid()) - float(last.mu.mid()) / float(last.log_t.mid())) < 1e-9
    assert 0.5 < float(mu.value.mid()) < 2 and mu.note == "DERIVED: → 1"
    (fig,) = out.figures
    assert fig.name == "norm" and len(fig.series) == 3
    assert all(abs(x - float(p.log_t.mid())) < 1e-12 * abs(x) for x, (_, p) in zip(fig.series[0].x, recs))
    assert len(fig.series[0].x) == len(recs)


def test_window_too_short_is_required_and_stops(monkeypatch):
    """A window of 2 records: the requirement fails with its count and no divergence item is added."""
    real = irgf.window
    monkeypatch.setattr(irgf, "window", lambda recs, key: real(recs, key=key)[-2:])
    out, _ = _evaluate(target="3")
    req = [r for r in out.requirements if r.name.startswith("an asymptotic window")]
    assert [(r.met, r.detail) for r in req] == [(False, "2 record(s)")]
    assert out.decide() == "INCONCLUSIVE"
    assert not any(e.quantity.startswith("‖β(t)‖₂ → ∞") for e in out.evidence)


def test_window_of_exactly_three_records_suffices(monkeypatch):
    real = irgf.window
    monkeypatch.setattr(irgf, "window", lambda recs, key: real(recs, key=key)[-3:])
    out, _ = _evaluate(target="3")
    req = [r for r in out.requirements if r.name.startswith("an asymptotic window")]
    assert [(r.met, r.detail) for r in req] == [(True, "3 record(s)")]
    assert any(e.quantity.startswith("‖β(t)‖₂ → ∞") for e in out.evidence)


def test_window_with_early_records_between_ln_t_1_and_2(monkeypatch):
    """Records with 1 < ln t ≤ 2 qualify (the rule is ln t > 1)."""
    data = d_face()
    with working_precision(20):
        _, recs = irgf.flow(data, None, "3")
    early = [(r, p) for r, p in recs if 1 < p.log_t and p.log_t < 2]
    if len(early) < 3:  # make sure the case exists on this flow
        early = [(r, p) for r, p in recs if 1 < p.log_t][:3]
    assert any(p.log_t < 2 for _, p in early)
    monkeypatch.setattr(irgf, "window", lambda recs, key: [x for x in recs if any(x[0] is e[0] for e in early)])
    out, _ = _evaluate(data, target="3")
    req = [r for r in out.requirements if r.name.startswith("an asymptotic window")]
    assert [r.met for r in req] == [True]


def test_window_is_taken_on_the_l1_norm(monkeypatch):
    seen = []
    real = irgf.window

    def spy(recs, key):
        seen.append([key(p) for _, p in recs])
        return real(recs, key=key)

    monkeypatch.setattr(irgf, "window", spy)
    _evaluate(target="3")
    with working_precision(20):
        _, recs = irgf.flow(d_face(), None, "3")
    assert len(seen) == 1 and [float(x.mid()) for x in seen[0]] == [float(p.l1.mid()) for _, p in recs]


def test_rate_with_factor_1_names_the_first_record():
    out, _ = _evaluate(target="3", rate_factor=1)
    with working_precision(20):
        _, recs = irgf.flow(d_face(), None, "3")
    rate = _item(out, "(27) dℒ/dt of the flow = −1Σ")
    assert rate.coverage.first_violation == f"s = {recs[0][0].s}" and rate.coverage.violated == len(recs)
    assert out.decide() == "VIOLATED"


def test_wrong_constant_label_and_omega0_reach_the_hypotheses():
    out, _ = _evaluate(d_seed0(), omega0=[1, 2, 1, 1], constant="max", target="2")
    assert "2 w_max (wrong constant)²" in _item(out, "(27) −2Σ").quantity
    init5 = [h for h in out.hypotheses if h.name.startswith("init (5)")]
    assert [(h.met, h.detail) for h in init5] == [(True, "ξ_k(0) = √2·ω₀, ξ_q(0) = 0 with ω₀ = (1, 2, 1, 1) "
                                                          "(all entries ≠ 0)")]
    out, _ = _evaluate(d_seed0(), omega0=[1, 0, 1, 1], target="2")
    assert out.decide() == "NOT_APPLICABLE"
    assert [h.name for h in out.hypotheses if h.met is False] == [irgf.NAMES[irgf.INIT5]]


def test_diaginf_replay_note_names_this_claim():
    out, _ = _evaluate(d_diaginf())
    assert any(n.startswith("replay: save this JSON as D-DIAGINF.json and run `python -m verify irgf.lemma42 "
                            "--data D-DIAGINF.json`") for n in out.notes)
