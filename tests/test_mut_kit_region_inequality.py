"""verify.kit.region_inequality (mutation tests): ``prove_on_region`` turns a branch-and-bound search into one item
(proven → a certificate, violated → the exact witness, undecided → no certificate) with progress lines counted box by
box; ``prove_on_largest`` takes the first decided rung of a ladder; ``prove_on_halved_boxes`` builds the ladder
r₀/2^k; ``logit_box_radius`` is the largest 2^-k with r·max‖F‖₁ ≤ 1; the descent and Hessian margins are checked
against the loss written out here with mpmath (derivatives by mpmath.diff) on a one-sequence dataset."""
from fractions import Fraction as F

import flint
import mpmath
import pytest

import verify
from verify.claims import Outcome
from verify.claims import progress as P
from verify.data import mmts as D
from verify.kit import region_inequality as RI
from verify.numbers.intervals import ARB
from verify.numbers.precision import to_arb, working_precision
from verify.numbers.regions import Margin


def _shift(c, relation=">"):
    """g(x) = x + c on [0, 1]: proven for c > 0, violated at x = 1/2 for c < −1/2 (the centre)."""
    return Margin(lambda x, o: x[0] + o.const(F(c)), (0,), (1,), ("x",), relation, statement="x + c > 0")


def _tight(r):
    """|x − 1/3| ≥ 0 on [0, r]: never decided on a box containing 1/3; proven on [0, 1/4]."""
    return Margin(lambda x, o: o.abs(x[0] - o.const(F(1, 3))), (0,), (r,), ("x",), ">=")


@pytest.fixture(autouse=True)
def _alarm():
    """Every test here takes well under a second: after 5 s an alarm fails it (a mutant looping forever is then a
    failure, not a time-out)."""
    import signal

    def late(signum, frame):
        raise TimeoutError("test took more than 5 s")

    old = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, 5.0)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, old)


@pytest.fixture(scope="module")
def data():
    return D.mmts_fig1a()


def test_tool_versions_name_the_three_tools():
    assert RI.tool_versions() == {"attnverify": verify.__version__, "python-flint": flint.__version__,
                                  "mpmath": mpmath.__version__}


def test_a_proven_region_is_one_certain_item_with_its_certificate(data):
    """x + 1 > 0 on [0, 1]: the first box decides (g ≥ 1): value 1 = the smallest lower end, relation ">" to 0, a
    Proof (proven, 1 box, 1 leaf, share 0, no witness) and one certificate carrying the claim, the margin's name, the
    params plus the dataset, dps, the tool versions and the dataset's name."""
    with working_precision(30):
        out = Outcome()
        item = RI.prove_on_region(out, "q", _shift(1), claim="c", name="m", data=data, params={"k": 2}, dps=30,
                                  region="[0, 1]")
    assert out.evidence == [item] and item.decide() is True and item.decided_by() == "region"
    assert (item.quantity, item.relation, item.bound) == ("q", ">", 0) and 1 - F(1, 2**20) < item.value <= 1
    p = item.proof
    assert isinstance(p.seconds, float) and 0 <= p.seconds < 60
    assert (p.status, p.region, p.boxes, p.leaves, p.undecided_share, p.witness) == ("proven", "[0, 1]", 1, 1, 0.0, None)
    assert item.note.startswith("proven on the whole region (1 leaves, 1 boxes")
    (cert,) = out.certificates
    assert cert["claim"] == "c" and cert["margin"] == {"name": "m", "params": {"k": 2, "dataset": data.to_dict()}}
    assert cert["dps"] == 30 and cert["tool"] == RI.tool_versions() and cert["dataset_name"] == data.name
    assert cert["relation"] == ">" and cert["region"]["lower"] == ["0"] and cert["region"]["upper"] == ["1"]


def test_a_violated_region_names_its_exact_witness_and_has_no_certificate(data):
    """x − 1 > 0 on [0, 1]: the centre x = 1/2 gives g = −1/2 < 0 for certain: value −1/2 (the witness's g), the
    item VIOLATED, the witness text "x = 1/2" in the Proof, no certificate."""
    with working_precision(30):
        out = Outcome()
        item = RI.prove_on_region(out, "q", _shift(-1), claim="c", name="m", data=data, params={}, dps=30,
                                  region="[0, 1]")
    assert item.decide() is False and abs(item.value + to_arb(F(1, 2))) < 1e-25
    assert item.proof.status == "violated" and item.proof.witness == "x = 1/2" and item.proof.boxes == 1
    assert not out.certificates and out.evidence == [item]


def test_an_undecided_region_is_undecided_without_certificate(data):
    """|x − 1/3| ≥ 0 on [0, 1] with 10 boxes: undecided (the share left > 0), no witness, no certificate."""
    with working_precision(30):
        out = Outcome()
        item = RI.prove_on_region(out, "q", _tight(1), claim="c", name="m", data=data, params={}, dps=30,
                                  region="[0, 1]", max_boxes=10)
    assert item.decide() is None and item.proof.status == "undecided" and item.proof.boxes == 10
    assert 0 < item.proof.undecided_share < 1 and item.proof.witness is None and not out.certificates
    assert item.relation == ">="


def test_a_sufficient_margin_failing_is_undecided_and_shows_its_point(data):
    """A non-equivalent margin failing at the centre: undecided, the value is g there (−1/2), no witness text."""
    m = Margin(lambda x, o: x[0] - o.const(1), (0,), (1,), ("x",), ">", equivalent=False)
    with working_precision(30):
        out = Outcome()
        item = RI.prove_on_region(out, "q", m, claim="c", name="m", data=data, params={}, dps=30, region="r")
    assert item.decide() is None and item.proof.witness is None and abs(item.value + to_arb(F(1, 2))) < 1e-25
    assert not out.certificates


def test_progress_counts_every_box_against_the_budget(data, monkeypatch):
    """With every progress line shown: the first names the budget (0/9), then one line per box decided, the
    share of the volume left in the text; the last says 7/9 (x² − x + 1/2 > 0 on [0, 2] is decided in 7 boxes)."""
    lines = []
    monkeypatch.setattr(P, "MIN_INTERVAL", -1.0)
    m = Margin(lambda x, o: x[0] * x[0] - x[0] + o.const(F(1, 2)), (0,), (2,), ("x",), ">")
    with working_precision(30), P.progress_sink(lines.append):
        res = RI.prove_on_region(Outcome(), "q", m, claim="c", name="nm", data=data, params={}, dps=30, region="r",
                                 max_boxes=9)
    boxes = res.proof.boxes
    assert res.proof.status == "proven" and boxes == 7
    assert lines[0] == "region nm: boxes 0/9"
    done = [int(line.rsplit(" ", 1)[1].split("/")[0]) for line in lines[1:]]
    assert done == sorted(done) and done[-1] == boxes and all(line.endswith("/9") for line in lines)
    assert lines[-1] == f"region nm (0.0% of the volume left): boxes {boxes}/9"


def test_the_largest_decided_rung_is_the_item(data):
    """|x − 1/3| ≥ 0: [0, 1] and [0, 1/2] undecided (20 boxes each), [0, 1/4] proven: the item is the last, its note
    names both larger regions and the budget; the certificate of the proven rung only; [0, 1/8] never tried."""
    built = []

    def build(r):
        built.append(r)
        return f"toy on [0, {r}]", _tight(r), {"r": str(r)}, f"[0, {r}]"

    with working_precision(30):
        out = Outcome()
        item = RI.prove_on_largest(out, iter([F(1), F(1, 2), F(1, 4), F(1, 8)]), build, claim="toy", name="toy",
                                   data=data, dps=30, max_boxes=20)
    assert built == [1, F(1, 2), F(1, 4)] and out.evidence == [item]
    assert item.decide() is True and item.quantity == "toy on [0, 1/4]" and item.proof.region == "[0, 1/4]"
    assert item.note.startswith("proven on the whole region (") and item.note.endswith("; the larger regions [0, 1], [0, 1/2] were undecided within 20 boxes each "
                              "(the interval enclosure is too wide there)")
    (cert,) = out.certificates
    assert cert["margin"] == {"name": "toy", "params": {"r": "1/4", "dataset": data.to_dict()}}
    assert cert["claim"] == "toy" and cert["dps"] == 30 and cert["dataset_name"] == data.name


def test_a_first_rung_decided_has_no_note_about_larger_regions_and_a_violation_ends_the_ladder(data):
    with working_precision(30):
        out = Outcome()
        item = RI.prove_on_largest(out, [F(1, 4)], lambda r: ("q", _tight(r), {}, "reg"), claim="t", name="t",
                                   data=data, dps=30, max_boxes=20)
        assert item.decide() is True and "larger regions" not in item.note and len(out.certificates) == 1
        out = Outcome()
        calls = []

        def build(c):
            calls.append(c)
            return "q", _shift(c), {}, f"c = {c}"

        item = RI.prove_on_largest(out, [-1, 1], build, claim="t", name="t", data=data, dps=30, max_boxes=5)
    assert calls == [-1] and item.decide() is False and not out.certificates and out.evidence == [item]


def test_no_rung_decided_is_an_informative_item_and_an_empty_ladder_an_error(data):
    with working_precision(30):
        out = Outcome()
        item = RI.prove_on_largest(out, [F(1), F(1, 2)], lambda r: ("q", _tight(r), {}, f"[0, {r}]"), claim="t",
                                   name="nm", data=data, dps=30, max_boxes=3)
        assert item.informative and item.decide() is None and item.value is None and out.evidence == [item]
        assert item.quantity == "nm: no region proven, from [0, 1] down to [0, 1/2]" and not out.certificates
        assert "[0, 1], [0, 1/2] each undecided within 3 boxes" in item.note
        with pytest.raises(ValueError, match="at least one region"):
            RI.prove_on_largest(Outcome(), [], lambda r: None, claim="t", name="t", data=data, dps=30)


def test_default_budgets():
    """prove_on_largest searches 100 boxes per rung by default, prove_on_region DEFAULT_BOXES = 4000."""
    import inspect

    assert RI.DEFAULT_BOXES == 4000
    assert inspect.signature(RI.prove_on_largest).parameters["max_boxes"].default == 100
    assert inspect.signature(RI.prove_on_region).parameters["max_boxes"].default == 4000


def test_prove_on_region_default_budget_is_used(data, monkeypatch):
    """Without a budget the search gets DEFAULT_BOXES = 4000 (a recording stand-in for the search)."""
    from verify.numbers.regions import prove

    seen = []

    def recording(margin, max_boxes, progress):
        seen.append(max_boxes)
        return prove(margin, max_boxes=3, progress=progress)

    monkeypatch.setattr(RI, "prove", recording)
    with working_precision(20):
        RI.prove_on_region(Outcome(), "q", _tight(1), claim="c", name="m", data=data, params={}, dps=20, region="r")
    assert seen == [4000]


def test_prove_on_largest_default_budget_is_100_boxes(data):
    with working_precision(20):
        item = RI.prove_on_largest(Outcome(), [F(1)], lambda r: ("q", _tight(r), {}, "reg"), claim="t", name="t",
                                   data=data, dps=20)
    assert "each undecided within 100 boxes" in item.note


def test_a_rung_needs_more_boxes_than_its_budget(data):
    """x² − x + 1/2 > 0 on [0, 2] takes 7 boxes: with 3 per rung it stays undecided (informative item)."""
    m = Margin(lambda x, o: x[0] * x[0] - x[0] + o.const(F(1, 2)), (0,), (2,), ("x",), ">")
    with working_precision(20):
        item = RI.prove_on_largest(Outcome(), [F(1)], lambda r: ("q", m, {}, "reg"), claim="t", name="t", data=data,
                                   dps=20, max_boxes=3)
    assert item.decide() is None and item.informative


def test_halved_boxes_pass_the_claim_on_to_the_certificate(data):
    """The proven rung's certificate names the claim, the margin, the dataset and the digits given."""
    with working_precision(20):
        out = Outcome()
        item = RI.prove_on_halved_boxes(out, "1/4", [[[1]]], lambda r: ("q", _tight(r), {}, f"[0, {r}]"), rungs=2,
                                        claim="cl", name="nm", data=data, dps=20, max_boxes=5)
    (cert,) = out.certificates
    assert item.decide() is True and cert["claim"] == "cl" and cert["margin"]["name"] == "nm" and cert["dps"] == 20
    assert cert["dataset_name"] == data.name and cert["margin"]["params"]["dataset"] == data.to_dict()


@pytest.mark.parametrize("region, rungs, expected", [("auto", 3, [F(1, 4), F(1, 8), F(1, 16)]),
                                                     ("3/2", 2, [F(3, 2), F(3, 4)]), ("1", 1, [F(1)])])
def test_halved_boxes_ladder(data, region, rungs, expected):
    """r₀ = logit_box_radius (keys with max ‖k‖₁ = 3 → 1/4) for "auto", else the given radius; then r₀/2^k for
    k < rungs, the budget passed on."""
    seen = []

    def build(r):
        seen.append(r)
        return "q", _tight(F(1)), {}, f"r = {r}"

    with working_precision(20):
        item = RI.prove_on_halved_boxes(Outcome(), region, [[[1, -2], [0, 1]], [[0, 0]]], build, rungs=rungs,
                                        claim="t", name="t", data=data, dps=20, max_boxes=2)
    assert seen == expected and "within 2 boxes" in item.note


@pytest.mark.parametrize("features, r", [([[[1, 0]]], 1), ([[[1, 1]]], F(1, 2)), ([[[F(3, 2), 0]]], F(1, 2)),
                                         ([[[2, 0]], [[0, F(-5, 2)]]], F(1, 4)), ([[[0, 0]]], 1), ([], 1),
                                         ([[["1/3", "-1/3"]]], 1), ([[[4]]], F(1, 4)), ([[[F(9, 8)]]], F(1, 2))])
def test_logit_box_radius(features, r):
    """The largest 2^-k ≤ 1 with 2^-k·κ ≤ 1, κ = max ‖F_it‖₁ (exact: κ = 2 gives 1/2, κ = 4 gives 1/4)."""
    assert RI.logit_box_radius(features) == r


# ----- the margins against the loss written out with mpmath --------------------------------------------------
FEATS = [[[F(1), F(0)], [F(0), F(1)], [F(-1), F(1, 2)]], [[F(1, 2), F(-1)], [F(0), F(0)]]]
SCORES = [[F(1), F(0), F(-1, 2)], [F(2), F(-1)]]
THETA = [F(1, 3), F(-2, 5)]


def _loss(theta, loss):
    """(1/n) Σ_i ℓ(Σ_t s_t γ_t), s = softmax(F_i θ), ℓ(u) = log(1 + e^−u) or e^−u."""
    total = 0
    for rows, g in zip(FEATS, SCORES):
        logits = [sum(mpmath.mpf(x.numerator) / x.denominator * th for x, th in zip(row, theta)) for row in rows]
        m = max(logits)
        w = [mpmath.exp(z - m) for z in logits]
        u = sum(wi * (mpmath.mpf(gi.numerator) / gi.denominator) for wi, gi in zip(w, g)) / sum(w)
        total += mpmath.log(1 + mpmath.exp(-u)) if loss == "logistic" else mpmath.exp(-u)
    return total / len(FEATS)


@pytest.mark.parametrize("loss", ["logistic", "exponential"])
def test_descent_margin_is_minus_the_directional_derivative(loss):
    """g(θ) = −⟨∇L(θ), d⟩ (mpmath.diff along d), on the box ‖θ‖∞ ≤ radius, relation ">", names θ1, θ2 by default."""
    d = [F(2), F(-1, 3)]
    m = RI.descent_margin(FEATS, SCORES, loss, d, F(1, 2), statement="st")
    assert (m.lower, m.upper, m.names, m.relation, m.statement) == ((F(-1, 2),) * 2, (F(1, 2),) * 2, ("θ1", "θ2"),
                                                                      ">", "st")
    assert m.equivalent and m.slopes and RI.descent_margin(FEATS, SCORES, loss, d, 1).statement == ""
    with working_precision(30), mpmath.workdps(40):
        g = m.g([ARB.const(x) for x in THETA], ARB)
        th = [mpmath.mpf(x.numerator) / x.denominator for x in THETA]
        dd = [mpmath.mpf(x.numerator) / x.denominator for x in d]
        want = -mpmath.diff(lambda h: _loss([a + h * b for a, b in zip(th, dd)], loss), 0)
    assert abs(float(g.mid()) - float(want)) < 1e-12 and abs(want) > 1e-3
    assert RI.descent_margin(FEATS, SCORES, loss, d, 1, names=("a", "b")).names == ("a", "b")


@pytest.mark.parametrize("loss", ["logistic", "exponential"])
def test_hessian_margin_is_bound_squared_minus_the_frobenius_norm(loss):
    """g(θ) = bound² − Σ_jk (∂²L/∂θ_j∂θ_k)² (mpmath.diff), relation ">", plain extension, not equivalent."""
    m = RI.hessian_margin(FEATS, SCORES, loss, F(3, 2), F(1, 4), statement="st")
    assert (m.lower, m.upper, m.names, m.relation, m.statement) == ((F(-1, 4),) * 2, (F(1, 4),) * 2, ("θ1", "θ2"),
                                                                      ">", "st")
    assert m.slopes is False and m.equivalent is False and RI.hessian_margin(FEATS, SCORES, loss, 1, 1).statement == ""
    assert RI.hessian_margin(FEATS, SCORES, loss, 1, 1, names=("a", "b")).names == ("a", "b")
    with working_precision(30), mpmath.workdps(40):
        g = m.g([ARB.const(x) for x in THETA], ARB)
        th = [mpmath.mpf(x.numerator) / x.denominator for x in THETA]
        frob = 0
        for j in range(2):
            for k in range(2):
                order = [0, 0]
                order[j] += 1
                order[k] += 1
                frob += mpmath.diff(lambda a, b: _loss([a, b], loss), th, tuple(order)) ** 2
        want = mpmath.mpf(9) / 4 - frob
    assert abs(float(g.mid()) - float(want)) < 1e-10 and frob > 1e-3



def test_logit_box_radius_halves_down_in_bounded_time():
    """κ = 1000: 2⁻¹⁰ = 1/1024 is the first halving with r·κ ≤ 1 (ten halvings; a loop that doubles or resets r
    never ends: the module's alarm turns that into a failure)."""
    assert RI.logit_box_radius([[[1000]]]) == F(1, 1024)
