"""mmts Theorem 2 (mmts.thm2.stationary: no finite stationary point) in its test mode (mutation testing, area mmts): with the
hypotheses dropped, Fig. 1(a) still has its GMM solution q = p^mm and Assumption B's gaps, so the full
evidence runs (the sign tally against p^mm, the certified ball bounds), the mode is named in a note,
the figure is drawn by default, and the loss given is the loss used."""
from flint import arb

from lemmas.mmts import thm2_stationary as mstat
from verify.data import mmts as D
from verify.numbers.precision import working_precision


def run(**kw):
    with working_precision(30) as prec:
        return mstat.evaluate(D.mmts_fig1a(), prec, require_feasible=False, steps=60, **kw)


def test_test_mode_uses_the_gmm_solution_and_the_gaps():
    out = run()
    assert out.decide() == "HOLDS"
    assert out.notes == ["hypotheses 'ATT-SVM(opt) feasible' and 'Assumption B' NOT enforced (test mode)"]
    first = out.evidence[0]
    assert first.quantity.endswith("⟨∇L(p), p^mm⟩ (so ∇L ≠ 0 there)") and first.relation == "<"
    assert first.coverage.points > 50 and first.decide() is True
    balls = [e for e in out.evidence if e.quantity.startswith("certified inf of ‖∇L(p)‖ over the ball")]
    assert len(balls) == 4 and all(e.decide() is True for e in balls)  # needs the gaps of Assumption B
    assert [f.name for f in out.figures] and out.figures[0].title.startswith("‖p(t)‖ along GD")
    assert not run(figure=False).figures


def test_the_loss_given_is_used():
    lo, ex = run(figure=False), run(figure=False, loss="exponential")
    bl = [e.value for e in lo.evidence if e.quantity.startswith("certified inf")]
    be = [e.value for e in ex.evidence if e.quantity.startswith("certified inf")]
    # ℓ' differs (−1/(1+e^u) vs −e^{−u}): the certified lower bounds differ
    assert all(abs(a - b) > arb(10) ** -3 * abs(a) for a, b in zip(bl, be))
    assert lo.hypotheses[1].detail != ex.hypotheses[1].detail  # the step 1/L_p is the exponential loss's
