"""verify.kit.global_convergence (mutation tests): the items a certified trap adds to the verdict — both of the certificate's
conditions as the comparisons they are (c > 0; the total decrease of b < δ, the drop the certificate was proven
with), and the deciding "lim 1 − corr = 0" against the proven limit — the score spread max − min of the non-optimal
scores (exact), and tfsvm.thm5's options reaching the shared code (starts counted, W-GD shown at the locally-optimal
starts, the flow depth named in the requirement). Then the start set and the evidence (``starts``, ``hypotheses``,
``global_convergence``): the random starts' grid σ·k/4, |k| ≤ 12, σ = ‖W^mm‖_F rounded (1/1000 when it rounds to 0);
the certificate for η ∈ (0, 1/L_W] of the loss used; the ray radius (the first proven, else the first tried) and the
ladder's rungs where no certificate applies; the hypotheses' details; W-GD by hand; which starts each ``flows`` mode
flies, the range and the decay rule (its derived rate, its zero threshold on a flow that stays on the W^mm ray).

Expected values: D-T2's limit 1 − 1/√10 (spec), spreads read off hand-made score tables, counts from the start set
the module docstring states (W(0) = 0, ``random_starts`` random ones, one per locally-optimal α ≠ opt)."""
from fractions import Fraction
from types import SimpleNamespace

from flint import arb

from lemmas.tfsvm import thm5
from verify.data import tfsvm as D
from verify.kit.global_convergence import score_spread
from verify.numbers.precision import working_precision


def _scores(*rows):
    """A stand-in dataset with the given scores; the optimal token of each row is its unique maximum."""
    return SimpleNamespace(scores=[tuple(Fraction(x) for x in r) for r in rows],
                           optimal_tokens=lambda: [{max(range(len(r)), key=lambda t: r[t])} for r in rows])


def test_score_spread_is_max_minus_min_of_the_non_optimal_scores():
    assert score_spread(_scores((3, 1, 2))) == 1           # non-optimal {1, 2}
    assert score_spread(_scores((3, 1, 2), (9, 4, 7, 5))) == 3  # {4, 7, 5}: 7 − 4
    assert score_spread(_scores((5, 2, 2), (1, 0))) == 0
    assert score_spread(_scores((2, Fraction(1, 2), Fraction(1, 3)))) == Fraction(1, 6)


def test_a_proven_trap_shows_both_conditions_and_decides_against_zero():
    with working_precision(30) as prec:
        out = thm5.evaluate(D.d_t2(), prec, gd_steps=20)
        ev = out.evidence
        c = [e for e in ev if e.quantity.startswith("trap certificate at") and ": c (" in e.quantity]
        tot = [e for e in ev if "certified bound on the total decrease of b" in e.quantity]
        lim = [e for e in ev if e.quantity.startswith("trap at")]
        assert len(c) == len(tot) == len(lim) == 1
        assert c[0].relation == ">" and c[0].bound == 0 and c[0].value > 0
        assert tot[0].relation == "<" and isinstance(tot[0].bound, Fraction) and tot[0].bound > 0
        assert tot[0].value < arb(tot[0].bound.numerator) / tot[0].bound.denominator
        assert f"δ = {tot[0].bound}" in tot[0].note
        assert lim[0].relation == "==" and lim[0].bound == 0
        assert lim[0].value.overlaps(1 - 1 / arb(10).sqrt())
        assert "W(0) = (" in lim[0].note and "for every η ∈ (0, 1/L_W]" in lim[0].note
        assert c[0].note  # the certificate's own description


def test_thm5_options_reach_the_shared_code():
    with working_precision(30) as prec:
        out = thm5.evaluate(D.d_t2(), prec, gd_steps=20, random_starts=3)
        # W(0) = 0, 3 random starts, one start on the single locally-optimal ray of D-T2 (α = (1, 1))
        assert any(n.startswith("starts: 5 ") for n in out.notes)
        gd = [e for e in out.evidence if e.quantity.startswith("W-GD η = 1/L_W, k = 20 from")]
        assert len(gd) == 1  # at the locally-optimal start only
        out = thm5.evaluate(D.d_t2(), prec, gd_steps=0)
        assert any(n.startswith("starts: 3 ") for n in out.notes)  # the default: one random start
        assert not [e for e in out.evidence if e.quantity.startswith("W-GD")]


def test_thm5_default_flow_depth_is_named():
    """Spread 0, T = 3, one sequence: no locally-optimal α ≠ opt, so every start is flown to the default depth
    500·‖W^mm‖_F, which the requirement names."""
    with working_precision(30) as prec:
        out = thm5.evaluate(D.thm4_single(), prec)
    names = [r.name for r in out.requirements]
    assert "every flow reached ‖W‖_F = 500·‖W^mm‖_F" in names


def test_thm5_random_starts_follow_the_seed():
    """thm4_single: no locally-optimal α ≠ opt, so every start is flown and named (seed in the label)."""
    with working_precision(30) as prec:
        out = thm5.evaluate(D.thm4_single(), prec, depth=20)
        flows = [e.quantity for e in out.evidence if e.quantity.startswith("gradient flow from random W(0) #")]
        assert len(flows) == 1 and "(seed 0," in flows[0]
        out = thm5.evaluate(D.thm4_single(), prec, depth=20, seed=3, random_starts=2)
        flows = [e.quantity for e in out.evidence if e.quantity.startswith("gradient flow from random W(0) #")]
        assert len(flows) == 2 and all("(seed 3," in f for f in flows)


def test_the_ladders_items_name_the_ray_and_the_derived_rate():
    """thm4_ladder (no certificate: n = 3): each rung's item names the ray's α 1-indexed — (1, 1, 1), the dataset's
    docstring — and is decided by ``rules.decays`` at the DERIVED rate 2 (1 − corr ≈ C‖W‖^{-2}), required at half of it;
    its value is a 1 − corr, in (0, 1)."""
    from lemmas.tfsvm import thm4
    with working_precision(30) as prec:
        out = thm4.evaluate(D.thm4_ladder(), prec, gd_steps=0)
    rungs = [e for e in out.evidence if "·W^mm_α" in e.quantity]
    assert len(rungs) == 2 and all(", α = (1, 1, 1) (‖W(0)‖_F ≈ " in e.quantity for e in rungs)
    assert all(e.rule.rule == "decays (rate ≥ 1/2·2)" for e in rungs)
    assert all(0 < e.value < 1 for e in rungs)
    assert "stays at the LMM (trapped)" not in rungs[0].note  # the first rung escapes (tests/test_tfsvm_thm4.py)


def test_an_unproven_trap_is_shown_as_evidence_only():
    """A locally-optimal start whose certificate is not proven (info's certificate None, no ladder): one item, no
    value, saying so with the certificate's description."""
    from verify.claims import Outcome
    from verify.kit.global_convergence import trap_items
    out = Outcome()
    w = (Fraction(1, 2), 0, Fraction(1, 2), 0)
    trap_items(out, "W(0) = 3·W^mm_α", (1, 0, 1, 0), ((0, 0), w, None, "c undecided", None), [], [w])
    assert [(e.quantity, e.value, e.note) for e in out.evidence] == [
        ("trap certificate at W(0) = 3·W^mm_α", None, "not proven here (evidence only): c undecided")]


# ----- the start set (``starts``): the random starts' scale and grid, the certificate's step range ---------------------
def _sigma(x):
    """The closest fraction to the float x with denominator ≤ 1000 (brute force over the denominators)."""
    return min((Fraction(round(x * b), b) for b in range(1, 1001)), key=lambda f: (abs(f - Fraction(x)), f.denominator))


def test_random_starts_are_quarter_multiples_of_the_rounded_norm_up_to_three():
    """W(0) entries are σ·k/4, k ∈ {−12, …, 12} (both ends drawn over 40 starts × 4 entries), σ = ‖W^mm‖_F = √5 on D-T2
    rounded to the closest fraction with denominator ≤ 1000; the label names σ."""
    import math

    from verify.geometry.stationarity import gmm
    from verify.kit.global_convergence import starts

    with working_precision(30):
        q = tuple(gmm(D.d_t2(), "W", 30).solution)
        pts, _ = starts(D.d_t2(), q, "logistic", 30, 40, 0)
    sigma = _sigma(math.sqrt(5))
    ks = [x * 4 / sigma for _, W0, _ in pts[1:41] for x in W0]
    assert all(k.denominator == 1 and -12 <= k <= 12 for k in ks) and min(ks) == -12 and max(ks) == 12
    assert all(f"entries in [−3, 3]·{float(sigma):.4g} ≈" in lb for lb, _, _ in pts[1:41])


def test_a_tiny_w_mm_falls_back_to_one_thousandth():
    """Features ×10⁴: ‖W^mm‖_F = √5·10⁻⁴ rounds to 0 with denominator ≤ 1000, so σ = 1/1000."""
    from verify.geometry.stationarity import gmm
    from verify.kit.global_convergence import starts

    data = D.d_t2().replace(X=[[[10 ** 4, 10 ** 4], [0, 0]], [[2 * 10 ** 4, 2 * 10 ** 4], [0, 0]]], name="D-T2 x1e4")
    with working_precision(30):
        q = tuple(gmm(data, "W", 30).solution)
        pts, _ = starts(data, q, "logistic", 30, 1, 0)
    assert "entries in [−3, 3]·0.001 ≈" in pts[1][0]
    assert all((x * 4000).denominator == 1 and abs(x * 4000) <= 12 for x in pts[1][1])


def test_the_certificate_covers_steps_up_to_one_over_l_w_of_the_loss():
    """The locally-optimal start's certificate is the one for η ∈ (0, 1/L_W] with L_W of the loss used (its total
    decrease of b grows with η: 2/L_W, or L_W of another loss, give another bound)."""
    from verify.geometry.stationarity import gmm, smoothness_W
    from verify.geometry.trap import t2_reduction, trap_certificate
    from verify.kit.global_convergence import starts

    data = D.d_t2()
    with working_precision(30):
        q = tuple(gmm(data, "W", 30).solution)
        for loss, other in (("logistic", "exponential"), ("exponential", "logistic")):
            pts, _ = starts(data, q, loss, 30, 0, 0)
            _, W0, info = pts[-1]
            red, _ = t2_reduction(data, info[0])
            L = smoothness_W(data, loss)
            want = trap_certificate(red, W0, 1 / L, q, loss)
            assert info[2] is not None and info[3] == want.describe()
            assert info[2].total.overlaps(want.total) and info[2].proven
            for eta in (2 / L, 1 / smoothness_W(data, other)):
                assert not trap_certificate(red, W0, eta, q, loss).total.overlaps(want.total)


def test_without_a_certificate_the_ray_start_is_the_first_rung_of_the_ladder():
    """thm4_ladder (n = 3): ‖W^mm_α‖_F = 5√2/2 (tests/test_tfsvm_thm4.py); the rungs are r·‖W^mm_α‖ for r = 3, 10, 30,
    100 to 3 significant digits, each ρ·W^mm_α with ‖ρW^mm_α‖ within 10⁻³ relative of it; the start is the first."""
    import math

    from verify.geometry.stationarity import gmm
    from verify.kit.global_convergence import LMM_LADDER, starts

    data = D.thm4_ladder()
    with working_precision(30):
        q = tuple(gmm(data, "W", 30).solution)
        pts, _ = starts(data, q, "logistic", 30, 0, 0)
    lmm = [p for p in pts if p[2] is not None]
    assert len(lmm) == 1
    label, W0, (alpha, w, cert, why, rungs) = lmm[0]
    norm_a = 5 * math.sqrt(2) / 2
    assert [R for R, _, _ in rungs] == [float(f"{r * norm_a:.3g}") for r in LMM_LADDER] == [10.6, 35.4, 106.0, 354.0]
    for R, rho, W in rungs:
        assert W == tuple(rho * x for x in w)
        assert abs(math.sqrt(sum(float(x) ** 2 for x in W)) / R - 1) < 1e-3
    assert cert is None and why and W0 == rungs[0][2] and label.endswith("(‖W(0)‖_F ≈ 10.6)")


def test_the_ray_radius_is_the_first_proven_else_the_first_tried(monkeypatch):
    """D-T2's trap is not proven from ‖W(0)‖_F ≈ 1 or 2 on the ray (tests/test_tfsvm_thm4.py: from 1·Ŵ^mm_α GD reaches
    the GMM) and is proven from ≈ 3: radii (1, 3) → the start at ≈ 3 with its certificate; (1, 2) or (1,) → none
    proven, the start at the first radius tried (≈ 1), no certificate, its description kept."""
    from verify.geometry.stationarity import gmm
    from verify.kit import global_convergence as trap

    with working_precision(30):
        q = tuple(gmm(D.d_t2(), "W", 30).solution)
        monkeypatch.setattr(trap, "LMM_SCALES", ())
        for radii, at, proven in (((1, 3), 3, True), ((1, 2), 1, False), ((1,), 1, False)):
            monkeypatch.setattr(trap, "LMM_RADII", radii)
            pts, _ = trap.starts(D.d_t2(), q, "logistic", 30, 0, 0)
            label, _, info = pts[-1]
            assert label.endswith(f"(‖W(0)‖_F ≈ {at})") and (info[2] is not None) == proven
            assert info[3].startswith("driver sequence")


def test_the_score_hypotheses_say_why_and_the_step_follows_the_loss():
    """Theorem 5's δ: spread 0 holds for every δ (T = 2 said so: D-T2; T = 3 with equal non-optimal scores:
    thm4_single), a positive spread (b1_only) leaves it undecided naming the spread; Theorem 4's B.2 passes
    ``assumption_b``'s detail on; η = 1/L_W of the loss used."""
    from verify.geometry.stationarity import assumption_b
    from verify.kit import global_convergence as trap
    from verify.kit.global_descent import step_size_W

    def delta(data):
        hyps, _, _ = trap.hypotheses(data, "logistic", 30, "delta")
        return [(h.met, h.detail) for h in hyps if h.name == trap.DELTA][0]

    with working_precision(30):
        assert delta(D.d_t2()) == (True, "spread 0: holds for every δ > 0 (T = 2: one non-optimal token)")
        assert delta(D.thm4_single()) == (True, "spread 0: holds for every δ > 0")
        s = score_spread(D.b1_only())
        assert s > 0 and delta(D.b1_only()) == (None, f"spread {s} > 0: holds only if δ ≥ {s}; v1 gives δ only "
                                                      "existentially")
        hyps, _, _ = trap.hypotheses(D.d_t2(), "logistic", 30, "B.2")
        assert [h.detail for h in hyps if h.name == trap.B2] == [assumption_b(D.d_t2()).detail]
        _, _, eta = trap.hypotheses(D.d_t2(), "exponential", 30, "B.2")
        assert eta.overlaps(step_size_W(D.d_t2(), "exponential")[0])
        assert not eta.overlaps(step_size_W(D.d_t2(), "logistic")[0])


def test_w_gd_at_the_locally_optimal_start_by_hand():
    """One W-GD step (exponential loss, η = 1/L_W of that loss) from D-T2's locally-optimal start W(0) = ρ·W^mm_α:
    W(1) = W(0) − η∇L(W(0)) with ∇L(W) = (1/n)Σ_i ℓ'(φ_i)Σ_t s_it(γ_it − φ_i)F_it by hand (F = (1, 0, 1, 0), γ = 1 and
    F = (2, 1, 2, 1), γ = −2 for the non-zero tokens; the others F = 0, γ = 0); the item is 1 − corr(W(1), W^mm)."""
    import mpmath

    from lemmas.tfsvm import thm4
    from verify.geometry.stationarity import gmm
    from verify.kit.global_convergence import starts
    from verify.kit.global_descent import step_size_W

    mpmath.mp.dps = 50

    def mp(x):
        x = Fraction(x)
        return mpmath.mpf(x.numerator) / x.denominator

    data = D.d_t2()
    with working_precision(30) as prec:
        q = tuple(gmm(data, "W", 30).solution)
        pts, _ = starts(data, q, "exponential", 30, 0, 0)
        label, W0, _ = pts[-1]
        eta = mpmath.mpf(step_size_W(data, "exponential")[0].mid().str(40, radius=False))
        out = thm4.evaluate(data, prec, loss="exponential", gd_steps=1, flows="none", random_starts=0)
    w = [mp(x) for x in W0]
    g = [mpmath.mpf(0)] * 4
    for f, gam in (((1, 0, 1, 0), 1), ((2, 1, 2, 1), -2)):
        s = 1 / (1 + mpmath.e ** (-sum(a * b for a, b in zip(f, w))))
        phi = s * gam
        c = -mpmath.e ** (-phi) * s * (gam - phi) / 2
        g = [x + c * a for x, a in zip(g, f)]
    w1 = [x - eta * y for x, y in zip(w, g)]
    qm = [mp(x) for x in q]
    want = 1 - sum(a * b for a, b in zip(w1, qm)) / mpmath.sqrt(sum(a * a for a in w1) * sum(b * b for b in qm))
    gd = [e for e in out.evidence if e.quantity == f"W-GD η = 1/L_W, k = 1 from {label}: 1 − corr(W(k), W^mm)"]
    assert len(gd) == 1 and abs(mpmath.mpf(gd[0].value.mid().str(40, radius=False)) - want) < mpmath.mpf("1e-14")


def test_which_starts_are_flown_in_each_mode_and_what_the_range_names():
    """D-T2 (a proven trap; starts: 0, one random, the ray start): "auto" flies the trapped start only (its plateau
    beside the certificate) and says the other 2 were skipped; "untrapped" flies none (3 skipped); "all" every start;
    "none" none. Flows stop at depth·‖W^mm‖_F = 5√5 ≈ 11.18, named in the range with the W-GD steps and the starts."""
    from lemmas.tfsvm import thm4

    def run(flows, gd_steps=0):
        with working_precision(30) as prec:
            return thm4.evaluate(D.d_t2(), prec, gd_steps=gd_steps, depth=5, flows=flows)

    def flown(out):
        return [e.quantity.split(":")[0] for e in out.evidence if e.quantity.startswith("gradient flow from")]

    def skipped(out):
        return [n.split(" other")[0] for n in out.notes if n.startswith("flows from the ")]

    auto = run("auto", gd_steps=2)
    assert len(flown(auto)) == 1 and "·W^mm_α, α = (1, 1)" in flown(auto)[0]
    assert skipped(auto) == ["flows from the 2"]
    assert auto.range == ("‖W‖_F ≤ 11.18 along the gradient flow; W-GD (η = 1/L_W) k ≤ 2 at the locally-optimal "
                          "starts; 3 starts")
    assert [(r.name, r.met) for r in auto.requirements] == [("every flow reached ‖W‖_F = 5·‖W^mm‖_F", True)]
    assert len(auto.figures) == 1 and auto.figures[0].caption.startswith("A trapped start keeps")
    ray = "W(0) = 4179/985·W^mm_α, α = (1, 1) (‖W(0)‖_F ≈ 3)"  # ρ ≈ 3/‖W^mm_α‖ = 3√2, denominator ≤ 1000
    assert len([e for e in auto.evidence if e.quantity.startswith(f"trap at {ray}: lim_k")]) == 1
    untrapped = run("untrapped")
    assert not flown(untrapped) and skipped(untrapped) == ["flows from the 3"] and untrapped.range == "3 starts"
    every = run("all")
    assert len(flown(every)) == 3 and not skipped(every)
    assert flown(every)[0] == "gradient flow from W(0) = 0"
    # each flow decided by the decay rule at the derived rate 2 (1 − corr ≈ C‖W‖⁻², the module docstring)
    assert {e.rule.rule for e in every.evidence if e.quantity.startswith("gradient flow")} == {"decays (rate ≥ 1/2·2)"}
    none = run("none")
    assert not flown(none) and not skipped(none) and not none.figures


def test_a_flow_on_the_w_mm_ray_is_zero_to_the_working_precision():
    """One sequence, two tokens: ∇L(W) = ℓ'·s₁s₂(γ₁ − γ₂)(F₁ − F₂) is always parallel to W^mm ∝ F_opt − F_other, so the
    flow from W(0) = 0 stays on the ray: 1 − corr(W, W^mm) is 0 to every digit carried, and the decay rule holds by
    its zero threshold 10^−dps (no tail of a power law to fit)."""
    from lemmas.tfsvm import thm4
    from verify.data import Dataset

    data = Dataset.make(X=[[[1, 0], [0, 1]]], Y=[1], v=[1, 0], z=[[1, 0]], name="one sequence, two tokens")
    with working_precision(25) as prec:
        out = thm4.evaluate(data, prec, gd_steps=0, depth=20, random_starts=0)
    flow = [e for e in out.evidence if e.quantity.startswith("gradient flow from W(0) = 0")]
    assert len(flow) == 1 and flow[0].rule.holds is True and "zero to the working precision" in flow[0].rule.detail
    assert "1.000e-25" in flow[0].rule.detail and out.decision().verdict == "HOLDS"
    assert abs(flow[0].value) < arb(10) ** -25  # the item's value: 1 − corr at the last norm reached
