"""mmts Lemma 4 in detail (mutation testing, area mmts): values at points where the softmax is uniform
(closed forms), the loss used, the ratio figure, the informative items, the named probe points, the
notes and the tight T = 2 dataset against its docstring."""
import mpmath
from flint import arb

from lemmas.mmts import lemma4
from verify import Dataset
from verify.data import mmts as D
from verify.numbers.precision import working_precision

# n = 1, T = 3, keys ±e₁ and −3e₁, scores (1, 0, 0) (Assumption B): p^mm = (1/2, 0, 0), margins 1 and 2.
# Along e₂, e₃ every logit is 0, so s = (1/3, 1/3, 1/3) and φ = 1/3; there Cov_s(γ, K p^mm) = 1/3 and
# ⟨∇L, p^mm⟩ = ℓ'(1/3)/3, the bound is |ℓ'(1/3)|·1·(1/3)(2/3) = (2/9)|ℓ'(1/3)|: ratio 3/2.
T3 = Dataset.make(X=[[[1, 0, 1], [-1, 0, 0], [-3, 0, 0]]], Y=[1], v=[0, 0, 1], K=[[[1, 0, 0], [-1, 0, 0], [-3, 0, 0]]],
                  name="T3-B")
PERP = [("perp", (0, 1, 0)), ("perp", (0, 0, 2))]


def close(ball, value, digits=25):
    return abs(ball - value) < arb(10) ** -digits


def test_inner_product_and_ratio_where_the_softmax_is_uniform():
    with working_precision(30) as prec:
        out = lemma4.evaluate(T3, prec, loss="exponential", points=PERP, region=None)  # ℓ'(u) = −e^{−u}
        sign, excess, agree, sat, norm = out.evidence[:5]  # then the exact proof's items (test_descent_proof)
        assert out.decide() == "HOLDS"
        assert close(sign.value, -arb(-1 / arb(3)).exp() / 3)
        assert close(excess.value, arb(1) / 2)  # ratio 3/2
        assert close(sat.value, arb(2) / 9)  # s_opt(1 − s_opt) = (1/3)(2/3)
        assert norm.value == arb(1) / 2  # ‖p^mm‖ = 1/2
        assert agree.value < arb(10) ** -25
        out = lemma4.evaluate(T3, prec, points=PERP)  # the default loss is the logistic one
        assert close(out.evidence[0].value, -1 / (1 + (arb(1) / 3).exp()) / 3)


def test_ratio_figure_plots_norm_and_ratio():
    with working_precision(30) as prec:
        out = lemma4.evaluate(T3, prec, points=PERP)
        off = lemma4.evaluate(T3, prec, points=PERP, figure=False)
    fig = next(f for f in out.figures if f.name == "ratio")
    (s,) = fig.series
    assert s.label == "perp" and s.x == [1.0, 2.0]  # ‖p‖₂
    assert all(abs(y - 1.5) < 1e-12 for y in s.y)
    assert off.figures == []


def test_ratio_figure_is_drawn_by_default():
    with working_precision(30) as prec:
        out = lemma4.evaluate(lemma4.tight_T2_dataset(), prec, scales=("1", "10"), random_dirs=1)
    fig = next(f for f in out.figures if f.name == "ratio")
    assert fig.series and all(abs(y - 1) < 1e-12 for s in fig.series for y in s.y)  # T = 2: the bound attained


def test_tight_T2_dataset_is_the_documented_one():
    """Keys ±e₁ (scores 1, 0) and ±e₂ (scores 2, 1/2): p^mm = (1/2, 1/2, 0), ‖p^mm‖ = 1/√2. At p = 0 (s = ½):
    ∇φ₀ = ½(1·e₁ + 0·(−e₁)) = e₁/2, ∇φ₁ = ½(2e₂ − ½e₂) = (3/4)e₂, φ = (1/2, 5/4), so
    ⟨∇L(0), p^mm⟩ = ½[ℓ'(1/2)/4 + ℓ'(5/4)·3/8] with ℓ'(u) = −1/(1 + e^u); the bound is attained (ratio 1)."""
    data = lemma4.tight_T2_dataset()
    assert (data.n, data.T) == (2, 2)
    with working_precision(30) as prec:
        out = lemma4.evaluate(data, prec, points=[("0", (0, 0, 0))], region=None)
        sign, excess, _, sat, norm = out.evidence[:5]
        with mpmath.workdps(40):
            d1 = lambda u: -1 / (1 + mpmath.exp(u))  # noqa: E731
            want = (d1(mpmath.mpf(1) / 2) / 4 + d1(mpmath.mpf(5) / 4) * 3 / 8) / 2
        assert abs(float(sign.value.mid()) / float(want) - 1) < 1e-14
        assert excess.value == 0 and excess.decide() is True
        assert sat.value == arb(1) / 4
        assert close(norm.value, 1 / arb(2).sqrt())
    # explicit points: no probe-set note; B holds, so the exact proof covers every p and the points only corroborate
    assert out.notes == ["probes corroborating the proof: p at the 1 given point(s)"]


def test_every_tally_names_its_points():
    with working_precision(30) as prec:
        out = lemma4.evaluate(T3, prec, points=[("along e2", (0, 1, 0)), ("along e1", (1, 0, 0))])
    for e in out.evidence[:3]:
        assert e.coverage.worst_at in ("along e2", "along e1"), e.quantity
    with working_precision(30) as prec:
        bad = lemma4.evaluate(D.mmts_fig1b(), prec, require_B=False, scales=("1", "10"), random_dirs=1)
    sign = bad.evidence[0]
    assert sign.coverage.violated > 0 and sign.coverage.first_violation.endswith("‖p‖∞ = 10")


def test_quantity_and_note_say_whether_B_is_required():
    with working_precision(30) as prec:
        bare = lemma4.evaluate(D.mmts_fig1b(), prec, require_B=False, scales=("1",), random_dirs=1)
        bare_b = lemma4.evaluate(T3, prec, require_B=False, points=PERP)
        full = lemma4.evaluate(T3, prec, points=PERP)
    note = "Assumption B does not hold here; only the bare sign of ⟨∇L(p), p^mm⟩ is tested"
    assert bare.evidence[0].quantity == "max over probe points of ⟨∇L(p), p^mm⟩ (Assumption B NOT required)"
    assert note in bare.notes
    assert full.evidence[0].quantity == "max over probe points of ⟨∇L(p), p^mm⟩"
    assert note not in bare_b.notes and note not in full.notes  # B holds on T3
