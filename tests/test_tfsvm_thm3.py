"""tfsvm.thm3 (Theorem 3): (1) no stationary point, certified; (2) ‖∇L(W(k))‖ → 0 and ‖W(k)‖ → ∞ decided by
rules over GD from 0, a random W(0) and an LMM ray. D-STAT (Att-SVM infeasible, ∇L(0) = 0): NOT_APPLICABLE
naming "W^mm exists", VIOLATED with the printed hypotheses only. Expected values: the spec (§6 D-T2, D-STAT,
D-NB), hand derivations in the docstrings, and synthetic runs built here on the derived late-time law."""
import math
from fractions import Fraction as F

from flint import arb

from lemmas.tfsvm import thm3
from verify.claims import REGISTRY, run_claim
from verify.data.tfsvm import b1_only, d_nb, d_stat, d_t2, thm3_cancelling
from verify.kit.global_descent import GDLockstep, GDRun, gd_checkpoints, gd_limits, step_size_W, tail_checkpoints
from verify.models.attention import LinearLogitModel
from verify.numbers.precision import to_arb, working_precision


def _items(out, start):
    return [e for e in out.evidence if e.quantity.startswith(f"GD from W(0) = {start}") and e.rule is not None]


def test_holds_on_d_t2_and_b1_only():
    """Every deciding item holds: (1) certified, (2) by rules from each of the three starts. On D-T2 the start
    3·Ŵ^mm_α on the LMM ray α = (1, 1) (1-indexed; the spec's thm4 false case) still selects α at the end."""
    with working_precision(30) as prec:
        for data in (d_t2(), b1_only()):
            out = thm3.evaluate(data, prec, figure=False)
            assert out.decide() == "HOLDS", [(e.quantity, e.decide(), e.note) for e in out.evidence]
            assert out.decision().certainty == "evidence" and out.range.endswith("from 3 starts")
            deciding = [e for e in out.evidence if not e.informative]
            assert deciding[0].coverage.points > 50 and all(e.certified for e in deciding[:5])  # (1)
            rules = [e for e in deciding if e.rule is not None]
            assert len(rules) == 6 and all(e.decide() for e in rules)
            assert sorted({e.rule.rule for e in rules}) == ["decays (rate ≥ 1/2·1)", "diverges (exponent > 1/2)"]
            if data.name == "tfsvm-D-T2":
                lmm = [e for e in out.evidence if "LMM ray α = (0, 0)" in e.quantity and "tokens selected" in e.quantity]
                assert len(lmm) == 1 and lmm[0].value == "(0, 0)"


def test_printed_statement_violated_on_d_stat():
    """D-STAT: s = (1/2, 1/2) at W = 0 in both sequences, φ = γ̄ = 1/2, so ∇L(0) = (1/4)ℓ'(1/2)Σ_i Σ_t (γ_it − 1/2)
    x_it z_i = (1/4)ℓ'(1/2)[(1/2 − 0)·1 + (1/2 − 0)·(−1)] = 0 (x_i1 = 1, x_i2 = 0, z = ±1). With the printed
    hypotheses only (A, B.2 since T = 2) the exact ∇L(0) item fails, certified; GD from the random start falls
    back to the stationary point 0, so its ‖W(k) − W(0)‖ stalls (rule fails)."""
    d = d_stat()
    assert sum((g[t] - F(1, 2)) * x[t][0] * z[0] for g, x, z in zip(d.scores, d.X, d.queries()) for t in range(2)) == 0
    with working_precision(30) as prec:
        out = thm3.evaluate(d, prec, require_feasible=False, lengths=(3000,), figure=False)
    assert out.decide() == "VIOLATED" and out.decision().certainty == "certified"
    assert out.notes[0] == "hypothesis 'W^mm exists' NOT enforced (the printed statement): not met"
    zero = out.evidence[0]
    assert zero.value == 0 and zero.decide() is False and zero.decided_by() == "exact"
    norm = [e for e in _items(out, "random") if "→ ∞" in e.quantity]
    assert len(norm) == 1 and norm[0].decide() is False and "stalls" in norm[0].note


def test_printed_statement_violated_on_a_constructed_dataset():
    """thm3_cancelling: scores (2, 0) and (3, −1), both means 1; Σ_t (γ_it − 1)x_it z_i = (1·2 + (−1)·0)·1 = 2 and
    (2·3 + (−2)·(−1))·(−1/4) = −2 cancel, so ∇L(0) = 0 exactly; Att-SVM: 2w ≥ 1 and −w ≥ 1 (infeasible)."""
    d = thm3_cancelling()
    assert [list(g) for g in d.scores] == [[2, 0], [3, -1]]
    assert sum((g[t] - 1) * x[t][0] * z[0] for g, x, z in zip(d.scores, d.X, d.queries()) for t in range(2)) == 0
    with working_precision(30) as prec:
        assert thm3.evaluate(d, prec, figure=False).decide() == "NOT_APPLICABLE"
        out = thm3.evaluate(d, prec, require_feasible=False, lengths=(300,), figure=False)
    assert out.decide() == "VIOLATED" and out.decision().certainty == "certified"
    assert out.evidence[0].value == 0 and out.evidence[0].decide() is False


def test_default_not_applicable_naming_feasibility():
    v = run_claim(thm3.CLAIM, [d_stat()], dps=30)
    assert v.verdict == "NOT_APPLICABLE"
    failed = [h for h in v.hypotheses if not h.met]
    assert len(failed) == 1 and "W^mm exists" in failed[0].name
    assert any("∇L(0) = 0 exactly" in n for n in v.notes)


def test_without_assumption_b_not_applicable():
    """D-NB: γ = (1, 0.9, 0.18) — B.2 fails (0.9 ≠ 0.18); W^mm's margins are 3 and 1 (spec), so B.1 fails."""
    with working_precision(30) as prec:
        out = thm3.evaluate(d_nb(), prec, figure=False)
    assert out.decide() == "NOT_APPLICABLE"
    hB = [h for h in out.hypotheses if h.name.startswith("Assumption B")]
    assert len(hB) == 1 and hB[0].met is False and "B.1: not met" in hB[0].detail


def test_starts_on_d_t2():
    """0, a random point with entries k/10 in [−1, 1], and c·W^mm_α for α = (0, 0): W^mm_α = [[1/2, 0], [1/2, 0]]
    (spec), ‖W^mm_α‖_F = 1/√2, so c ≈ 3√2 (‖W(0)‖_F ≈ 3)."""
    with working_precision(30) as prec:
        from verify.geometry.stationarity import gmm
        inits = thm3.starts(d_t2(), gmm(d_t2(), "W", 30).solution, prec.dps)
    assert [lab for lab, _ in inits][0] == "0" and inits[0][1] == (0, 0, 0, 0)
    assert all(abs(x) <= 1 and (10 * x).denominator == 1 for x in inits[1][1])
    lab, w = inits[2]
    assert "α = (0, 0)" in lab and w[1] == w[3] == 0 and w[0] == w[2]
    assert abs(float(2 * w[0]) - 3 * math.sqrt(2)) < 1e-5


def test_lockstep_reproduces_single_runs_and_resumes():
    """Batched GD from two starts equals ``gd_checkpoints`` from each (balls overlap at every checkpoint);
    advancing in two legs gives the same points as one run."""
    d = d_t2()
    with working_precision(30):
        m = LinearLogitModel.from_dataset(d, "W")
        eta, _ = step_size_W(d)
        starts = [(0, 0, 0, 0), (F(1, 2), F(-1), F(3, 10), 0)]
        gd = GDLockstep(m, starts, eta, q=[F(1, 2), F(-3, 2), F(1, 2), F(-3, 2)])
        gd.advance([0, 10, 40])
        runs = gd.advance([80])
        one = GDLockstep(m, starts, eta).advance([0, 10, 40, 80])
        for k, s in enumerate(starts):
            ref = gd_checkpoints(m, s, eta, [0, 10, 40, 80])
            assert runs[k].steps == one[k].steps == ref.steps == [0, 10, 40, 80]
            for a, b, c in zip(runs[k].points, one[k].points, ref.points):
                assert all(x.overlaps(y) and x.overlaps(z) for x, y, z in zip(a, b, c))
            assert runs[k].increase.coverage.points == 80 and one[k].increase is None


def _synthetic(grads, norms, dists, loss0, eta=arb(1), ks=(100, 200, 300, 400)):
    """A GDRun with the given tail values; θ(k) = θ(0) + (dist, 0) and θ(0) = (0, 1) (‖θ(0)‖ = 1)."""
    run = GDRun(eta=eta, steps=[0, *ks], grad_norms=[arb(1), *map(arb, grads)], norms=[arb(1), *map(arb, norms)],
                points=[[arb(0), arb(1)]] + [[arb(x), arb(1)] for x in dists], losses=[to_arb(loss0)])
    return run


def test_gd_limits_on_both_sides():
    """The derived law (t₀ = 1/‖∇L(θ(0))‖ = 1, η = 1): ‖∇L‖ = 1/(k + 1) and ‖θ(k) − θ(0)‖ = ln(1 + k) hold.
    A plateau ‖∇L‖ = 1/10 over k ≤ 400 fails when the descent lemma forbids it (2(L(θ₀) − L⋆)/(η m²) =
    2·10⁻⁴·100 = 0.02 steps < 400) and is undecided when it allows it (2·10·100 = 2000 ≥ 400); a stalled
    distance fails without a ball bound, is undecided with one that allows ≥ 400 steps; a growing distance
    with a shrinking norm is undecided."""
    ks = (100, 200, 300, 400)
    law = _synthetic([1 / (k + 1) for k in ks], [1 + math.log(1 + k) for k in ks], [math.log(1 + k) for k in ks], 1)
    g, n = gd_limits(law, dps=30)
    assert g.decide() is True and n.decide() is True
    flat = [0.1] * 4
    assert gd_limits(_synthetic(flat, [2] * 4, [1] * 4, F(1, 10**4)), dps=30)[0].decide() is False
    g, n = gd_limits(_synthetic(flat, [2] * 4, [1] * 4, 10), dps=30)
    assert g.decide() is None and "not confirmed" in g.note
    assert n.decide() is False
    n = gd_limits(_synthetic(flat, [2] * 4, [1] * 4, 10), dps=30, ball_bound=lambda R: arb(1) / 10)[1]
    assert n.decide() is None and "not confirmed" in n.note  # 2·10/(1·1/100) = 2000 ≥ 400 steps allowed
    shrink = _synthetic([1 / (k + 1) for k in ks], [0.9, 0.8, 0.7, 0.6], [math.log(1 + k) for k in ks], 1)
    assert gd_limits(shrink, dps=30)[1].decide() is None


def test_tail_checkpoints():
    """10⁴ steps: the ladder below 5000, then 10⁴·(3 + j)/6, j = 0..3 (integer parts)."""
    assert tail_checkpoints(10000) == [0, 1, 3, 10, 30, 100, 300, 1000, 3000, 5000, 6666, 8333, 10000]
    assert tail_checkpoints(10000, early=()) == [5000, 6666, 8333, 10000]


def test_registration_and_aliases():
    assert thm3.CLAIM.id == "tfsvm.thm3" and thm3.CLAIM.kind == "asymptotic"
    for alias in ("no-stationary-points", "no-stationary-points-W", "tfsvm.thm3.stationary"):
        assert REGISTRY.resolve(alias)[0].id == "tfsvm.thm3"
    assert "norm-diverges" in thm3.CLAIM.aliases and "tfsvm.thm3" in REGISTRY.aliases["norm-diverges"]
