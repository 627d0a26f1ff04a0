"""verify.kit.trap (mutation tests): the items a certified trap adds to the verdict — both of the certificate's
conditions as the comparisons they are (c > 0; the total decrease of b < δ, the drop the certificate was proven
with), and the deciding "lim 1 − corr = 0" against the proven limit — the score spread max − min of the non-optimal
scores (exact), and tfsvm.thm5's options reaching the shared code (starts counted, W-GD shown at the locally-optimal
starts, the flow depth named in the requirement).

Expected values: D-T2's limit 1 − 1/√10 (spec), spreads read off hand-made score tables, counts from the start set
the module docstring states (W(0) = 0, ``random_starts`` random ones, one per locally-optimal α ≠ opt)."""
from fractions import Fraction
from types import SimpleNamespace

from flint import arb

from lemmas.tfsvm import thm5
from verify.data import tfsvm as D
from verify.kit.trap import score_spread
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
    from verify.kit.trap import trap_items
    out = Outcome()
    w = (Fraction(1, 2), 0, Fraction(1, 2), 0)
    trap_items(out, "W(0) = 3·W^mm_α", (1, 0, 1, 0), ((0, 0), w, None, "c undecided", None), [], [w])
    assert [(e.quantity, e.value, e.note) for e in out.evidence] == [
        ("trap certificate at W(0) = 3·W^mm_α", None, "not proven here (evidence only): c undecided")]
