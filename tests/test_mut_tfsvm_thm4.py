"""tfsvm.thm4 (mutation tests): its options reach the shared start set and flows (``verify.kit.global_convergence``): the number of
starts (W(0) = 0, ``random_starts`` seeded random ones, one per locally-optimal α ≠ opt), the seed named in each random
start's label, W-GD shown at the locally-optimal start only when asked for, and the default flow depth 500·‖W^mm‖_F
named in the requirement. Counts from the start set the module docstring states; D-T2 has one locally-optimal α ≠ opt
(α = (1, 1)), ``thm4_single`` (n = 1) none."""
from lemmas.tfsvm import thm4
from verify.data import tfsvm as D
from verify.numbers.precision import working_precision


def test_start_count_and_gd_at_the_locally_optimal_start():
    with working_precision(30) as prec:
        out = thm4.evaluate(D.d_t2(), prec, gd_steps=20, random_starts=3)
        assert any(n.startswith("starts: 5 ") for n in out.notes)
        assert len([e for e in out.evidence if e.quantity.startswith("W-GD η = 1/L_W, k = 20 from")]) == 1
        out = thm4.evaluate(D.d_t2(), prec, gd_steps=0)
        assert any(n.startswith("starts: 3 ") for n in out.notes)
        assert not [e for e in out.evidence if e.quantity.startswith("W-GD")]


def test_random_starts_follow_the_seed_and_the_default_depth_is_named():
    """No locally-optimal α ≠ opt: every start is flown (its label in the flow's item), to the default depth."""
    with working_precision(30) as prec:
        out = thm4.evaluate(D.thm4_single(), prec)
        flows = [e.quantity for e in out.evidence if e.quantity.startswith("gradient flow from random W(0) #1")]
        assert len(flows) == 1 and "(seed 0," in flows[0]
        assert "every flow reached ‖W‖_F = 500·‖W^mm‖_F" in [r.name for r in out.requirements]
        out = thm4.evaluate(D.thm4_single(), prec, depth=20, seed=3, random_starts=2)
        flows = [e.quantity for e in out.evidence if e.quantity.startswith("gradient flow from random W(0) #")]
        assert len(flows) == 2 and all("(seed 3," in f for f in flows)
        assert "every flow reached ‖W‖_F = 20·‖W^mm‖_F" in [r.name for r in out.requirements]
