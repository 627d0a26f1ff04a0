"""tfsvm.lemma9 (mutation tests): which items are decided on which data (the B.1 identity where B.1 holds, the B.2
bound where B.2 holds, each counting every probe point), the B.1 identity decided as a residual, the loss reaching
the model, the points named, the note and the item names of the
"B not required" case, the informative values ⟨∇L(R·W^mm), W^mm⟩ and ‖W^mm‖² by closed forms, the probe count and
the default datasets' shape.

D-T2: tokens (1, 1), (0, 0) with z = (1, 0), Y = +1, and (2, 2), (0, 0) with z = (1, ½), Y = −1; v = (0, 1), so
γ = (1, 0) and (−2, 0); W^mm = (½, −3/2, ½, −3/2): along R·W^mm the optimal token leads by R in both sequences
(logits (R, 0) and (−R, 0)), s_opt = σ(R). B.1 form (module docstring): ⟨∇L, W^mm⟩ = (1/n)Σ ℓ'(φ_i) s_opt δ_i with
δ₁ = σ(−R)·1, φ₁ = σ(R); δ₂ = σ(−R)·2, φ₂ = −2σ(−R)."""
from fractions import Fraction

import mpmath
from claim_helpers import evaluate_at
from claim_helpers import only_item as _ev

from lemmas.tfsvm import lemma9
from verify.data import tfsvm as D
from verify.geometry.probes import tie_points
from verify.geometry.stationarity import PROBE_SCALES, gmm, probe_directions, probe_points
from verify.geometry.tfsvm_cones import lmm_directions
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import working_precision

mpmath.mp.dps = 50
ZERO = [("0", (0, 0, 0, 0))]


def _mp(x):
    return mpmath.mpf(x.mid().str(40, radius=False))


def _run(data, **kw):
    return evaluate_at(lemma9, data, **kw)


def test_b1_and_b2_items_where_each_holds_every_point_counted_and_named():
    out = _run(D.d_t2(), points=ZERO + [("q", (Fraction(1, 2), Fraction(-3, 2), Fraction(1, 2), Fraction(-3, 2)))])
    sign, ident, excess = _ev(out, "max over 2 points"), _ev(out, "B.1 form"), _ev(out, "B.2 bound")
    assert sign.quantity == "max over 2 points of ⟨∇L(W), W^mm⟩"  # B required: no suffix
    assert sign.coverage.points == ident.coverage.points == excess.coverage.points == 2
    assert ident.residual is True and abs(_mp(ident.bound) - mpmath.mpf(10) ** -30) < mpmath.mpf(10) ** -45
    assert {sign.coverage.worst_at, ident.coverage.worst_at, excess.coverage.worst_at} <= {"0", "q"}
    assert all(e.coverage.worst_at for e in (sign, ident, excess))
    one = _run(D.d_t2(), points=ZERO)
    assert [_ev(one, k).coverage.worst_at for k in ("max over", "B.1 form", "B.2 bound")] == ["0"] * 3
    b1 = _run(D.b1_only(), points=[("0", (0,) * 9)])  # B.1 only: no B.2 item
    assert _ev(b1, "B.1 form").coverage.points == 1 and not [e for e in b1.evidence if "B.2" in e.quantity]
    assert out.decision().verdict == "HOLDS" and b1.decision().verdict == "HOLDS"


def test_the_loss_reaches_the_model():
    """Exponential loss, ℓ'(u) = −e^{−u}, at W = 0 on D-T2 (s = ½, φ = (½, −1), δ = (½, 1)): ½[ℓ'(½)/4 + ℓ'(−1)/2]."""
    want = (-mpmath.e ** mpmath.mpf(-0.5) / 4 - mpmath.e / 2) / 2
    out = _run(D.d_t2(), points=ZERO, loss="exponential")
    assert abs(_mp(_ev(out, "max over").value) - want) < mpmath.mpf("1e-25")


def test_without_b_the_note_the_item_name_and_the_first_violation():
    nb = _run(D.d_nb(), require_B=False)
    sign = _ev(nb, "max over")
    assert sign.quantity.endswith(" (Assumption B NOT required)")
    assert "‖W‖∞ = " in sign.coverage.first_violation
    assert [n for n in nb.notes if n.startswith("Assumption B does not hold here")]
    assert not [e for e in nb.evidence if "B.1 form" in e.quantity or "B.2 bound" in e.quantity]
    for data in (D.d_t2(), D.b1_only()):  # B holds (both / B.1 only): no such note
        out = _run(data, require_B=False, points=[("0", (0,) * data.d ** 2)])
        assert not [n for n in out.notes if n.startswith("Assumption B does not hold")]
        assert _ev(out, "max over").quantity.endswith("(Assumption B NOT required)")
    one = _run(D.d_nb(), require_B=False, points=[("W z = (0, -10)", (0, 0, -10, 0))])
    assert _ev(one, "max over").coverage.first_violation == "W z = (0, -10)"


def test_no_uniform_constant_values_and_the_norm_by_closed_form():
    out = _run(D.d_t2(), points=ZERO)
    sig = lambda r: 1 / (1 + mpmath.e ** (-r))  # noqa: E731
    lp = lambda u: -1 / (1 + mpmath.e ** u)  # noqa: E731
    for R in lemma9.UNIFORM_RADII:
        r = mpmath.mpf(R)
        want = (lp(sig(r)) * sig(r) * sig(-r) + lp(-2 * sig(-r)) * sig(r) * 2 * sig(-r)) / 2
        got = _mp(_ev(out, f"⟨∇L(R·W^mm), W^mm⟩ at R = {R} ").value)
        assert abs(got / want - 1) < mpmath.mpf("1e-25")
    assert _ev(out, "‖W^mm‖²_F").value == 5


def test_probe_count_with_the_lmm_rays_and_the_random_directions():
    data = D.d_t2()
    with working_precision(30):
        q = tuple(Fraction(x) for x in gmm(data, "W", 30).solution)
        model = LinearLogitModel.from_dataset(data, "W", "logistic")
        feats = features(data, "W")
        extra = [(str(a), d) for a, d in lmm_directions(data, 30)]
        ties = len(tie_points(feats, [(o,) for o in model.opt]))

        def count(k, ex):
            return len(probe_points(probe_directions(feats, model.opt, q, extra=ex, count=k), PROBE_SCALES)) + ties
    assert extra and count(4, extra) > count(4, [])
    for k in (4, 1):
        out = _run(data, **({} if k == 4 else {"random_dirs": k}))
        assert _ev(out, "max over").coverage.points == count(k, extra)
        assert _ev(out, "max over").quantity.startswith(f"max over {count(k, extra)} points")


def test_default_datasets_shape_and_seed():
    a, b = lemma9.default_datasets(0), lemma9.default_datasets(3)
    assert [x.name for x in a[:2]] == [D.d_t2().name, D.b1_only().name]
    third = a[2]
    assert (third.n, third.T, third.d) == (2, 3, 2) and third.name.endswith("-W")
    assert all(list(z) == [1, 0] for z in third.queries())  # the W parameterisation: z_i = e₁
    assert b[2].X != third.X  # the seed is used
