"""tfsvm.aux.kq-gd-empirical (mutation tests): the 1-2-5 checkpoint ladder (and that it terminates), the nn.Linear
start by its definition, the run's seeded key/query starts, the per-factor normalised step with a ridge and its stop
on a zero factor gradient, the width option (validation, the default n − 1, n, n + 1 ∩ [1, d]), the requirements
(ran all iterations, settled on α, saturated from the rule's first point) with their names and details, and the values
each evidence item carries (the distance at the last checkpoint with the SDP's 1e−7 radius, not enclosed; the
informative m < n item; the paper's corr at k = iterations) recomputed from the protocol's pieces.

Cheap runs: trial 0 (n = 3, T = 4, d = 4) with η = 1 saturates on α within 10 steps; tokens and query at 10⁻³ never
leave the linear regime (T = 3: every s_it ≈ 1/3 < 1/2); two equal tokens give a zero gradient (the softmax does not
depend on W)."""
import random
import signal
from fractions import Fraction as F

import pytest
from flint import arb

from lemmas.tfsvm import aux_kq_gd as A
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.dynamics import make_parameterization
from verify.errors import DataError
from verify.models.attention import corr, norm2
from verify.numbers.precision import to_arb, to_decimal_string, working_precision
from verify.svm import solve_svm
from verify.svm.distance import distance_to_solution_set

TINY3 = dict(X=[[["1/1000", 0], [0, "1/1000"], ["-1/1000", 0]]], z=[[0, "1/1000"]], Y=[1], v=[1, 0])


def _items(out, start):
    return [e for e in out.evidence if e.quantity.startswith(start)]


def _req(out, start):
    got = [h for h in out.requirements if str(h.name).startswith(start)]
    assert len(got) == 1, [h.name for h in out.requirements]
    return got[0]


def _protocol(data, m, iterations, eta, seed):
    """The run rebuilt from its pieces: W(k) at the checkpoints, α = argmax of the final softmax, Att-SVM⋆(α)."""
    par = make_parameterization(data, "KQ", m=m)
    psi = [to_arb(x) for x in A.nn_linear_init(data.d, m, seed, "key") + A.nn_linear_init(data.d, m, seed, "query")]
    Ws = {}
    A.factor_normalized_gd(par, psi, iterations, arb(eta), arb(0),
                           lambda k, p: Ws.__setitem__(k, [arb(x.mid()) for x in par.theta(p)]))
    states = par.model.states(Ws[iterations])
    alpha = tuple(max(range(len(st.s)), key=lambda t: st.s[t].mid()) for st in states)
    return Ws, alpha, solve_svm(data, "KQ", alpha, 30, check_unique=False)


def test_checkpoint_ladder_terminates_fast():
    """10, 20, 50 per decade strictly below ``iterations``, then ``iterations``; a ladder that stops growing (k = 10
    or k /= 10) must fail here within a second, not hang."""
    def stop(*_):
        raise TimeoutError("checkpoints did not terminate")
    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        assert A.checkpoints(1000) == [10, 20, 50, 100, 200, 500, 1000]
        assert A.checkpoints(250) == [10, 20, 50, 100, 200, 250]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_nn_linear_start_by_definition():
    """d = 3: bound 1/√3 to 3 digits = 577/1000 (1000/√3 = 577.35); entries b·U/1000, U uniform integer in
    [−1000, 1000] from the stream seeded "<id>/<tag>/<d>/<m>/<seed>", drawn m×d (torch) and stored d×m row-major."""
    rng = random.Random("tfsvm.aux.kq-gd-empirical/key/3/2/5")
    torch = [[F(577, 1000) * F(rng.randint(-1000, 1000), 1000) for _ in range(3)] for _ in range(2)]
    assert A.nn_linear_init(3, 2, 5, "key") == [torch[e][a] for a in range(3) for e in range(2)]


def test_nn_linear_start_draws_from_minus_to_plus_1000():
    """d = m = 100 (b = 1/10 exactly): 10⁴ draws of U uniform on the 2001 integers −1000..1000 (a range of 2002
    integers would consume the seeded stream differently), entries b·U/1000."""
    rng = random.Random("tfsvm.aux.kq-gd-empirical/query/100/100/0")
    torch = [[F(1, 10) * F(rng.randint(-1000, 1000), 1000) for _ in range(100)] for _ in range(100)]
    assert A.nn_linear_init(100, 100, 0, "query") == [torch[e][a] for a in range(100) for e in range(100)]


def test_default_datasets_are_the_two_trials():
    """Two trials kq_trial(0), kq_trial(1) of shape n = 3, T = 4, d = 4."""
    got = A.default_datasets()
    assert [(x.n, x.T, x.d) for x in got] == [(3, 4, 4)] * 2
    assert [x.X for x in got] == [D.kq_trial(s, 3, 4, 4).X for s in (0, 1)]


def test_run_starts_from_the_seeded_key_and_query():
    """run(seed = 5) = the normalised GD from nn_linear_init(·, 5, "key") ++ nn_linear_init(·, 5, "query")."""
    data = D.kq_trial(0)
    with working_precision(30) as prec:
        Ws, states, done = A.run(data, 2, prec, 10, "1", "0", 5)
        want, _, _ = _protocol(data, 2, 10, "1", 5)
    assert done == 10 and sorted(Ws) == [10]
    assert all(a.mid() == b.mid() for a, b in zip(Ws[10], want[10]))


@pytest.mark.parametrize("ridge", [F(1), F(1, 2)])
def test_ridge_step_normalises_each_factor_of_the_ridged_gradient(ridge):
    """λ = 1 and 1/2: G = ∇L + 2λψ, K ← K − η G_K/‖G_K‖, Q ← Q − η G_Q/‖G_Q‖ (η = 1/10), one step from the seeded
    start."""
    data = D.kq_trial(0)
    with working_precision(30):
        par = make_parameterization(data, "KQ", m=2)
        psi = [to_arb(x) for x in A.nn_linear_init(4, 2, 0, "key") + A.nn_linear_init(4, 2, 0, "query")]
        g = [arb(x.mid()) + 2 * to_arb(ridge) * p for x, p in zip(par.grad(psi), psi)]
        nK, nQ = norm2(g[:8]), norm2(g[8:])
        want = [p - x / (10 * nK) for p, x in zip(psi[:8], g[:8])] + [p - x / (10 * nQ) for p, x in zip(psi[8:], g[8:])]
        done, got = A.factor_normalized_gd(par, psi, 1, arb("0.1"), to_arb(ridge), lambda k, p: None)
    assert done == 1
    assert all(abs(float((a - b).mid())) < 1e-25 for a, b in zip(got, want))


@pytest.mark.parametrize("zero", ["key", "query"])
def test_zero_factor_gradient_stops_before_the_first_step(zero):
    """K = 0 ⇒ ∇_Q = (∇_W)ᵀK = 0; Q = 0 ⇒ ∇_K = ∇_W Q = 0: no step is taken (0 steps done, ψ unchanged, nothing
    recorded)."""
    data = D.kq_trial(0)
    with working_precision(30):
        par = make_parameterization(data, "KQ", m=2)
        K = [arb(0)] * 8 if zero == "key" else [to_arb(x) for x in A.nn_linear_init(4, 2, 0, "key")]
        Q = [arb(0)] * 8 if zero == "query" else [to_arb(x) for x in A.nn_linear_init(4, 2, 0, "query")]
        seen = []
        done, psi = A.factor_normalized_gd(par, K + Q, 5, arb("0.1"), arb(0), lambda k, p: seen.append(k))
    assert done == 0 and seen == [] and all(a.mid() == b.mid() for a, b in zip(psi, K + Q))


def test_widths_validated_in_one_to_d():
    """Widths must be integers in 1..d (d = 4): 5/2 and 5 are refused, m = d = 4 is run."""
    data = D.kq_trial(0)
    with working_precision(30) as prec:
        for bad in ((F(5, 2),), (5,)):
            with pytest.raises(DataError):
                A.evaluate(data, prec, widths=bad, iterations=10)
        out = A.evaluate(data, prec, widths=(4,), iterations=10, eta="1")
    assert "m ∈ {4}" in out.range


def test_default_widths_include_m_equal_one():
    """n = 2, d = 3: the default widths n − 1, n, n + 1 = 1, 2, 3 all lie in [1, d]."""
    with working_precision(30) as prec:
        out = A.evaluate(D.kq_trial(0, n=2, T=3, d=3), prec, iterations=10, eta="1")
    assert "m ∈ {1, 2, 3}" in out.range


def test_zero_gradient_run_is_a_failed_requirement():
    """Two equal tokens: the softmax is 1/2 on each whatever W, ∇L = 0, the first step is never taken: the
    requirement "ran 20 iterations" fails with "gradient 0 at k = 1" for every width, and nothing is measured."""
    data = Dataset.make(X=[[[1, 0], [1, 0]]], z=[[0, 1]], Y=[1], v=[1, 0], name="kq-eq")
    with working_precision(30) as prec:
        out = A.evaluate(data, prec, iterations=20)
    r = _req(out, "m = 1: the normalised GD ran 20 iterations")
    assert r.met is False and r.detail == "gradient 0 at k = 1"
    assert out.evidence == [] and out.decision().verdict == "INCONCLUSIVE"


def test_unsettled_unsaturated_run_names_both_requirements():
    """Tokens and query at 10⁻³, T = 3: after 20 steps every logit is ≤ 10⁻⁶‖KQᵀ‖ ≈ 0, so s_it ≈ 1/3: not settled
    (1/3 < 1/2, also against 0) and, at the rule's first point k = 10 (two checkpoints 10, 20: fewer than the rule's
    4, so the first), 2/3 of the attention is off α: the distance's rule is not read, naming the linear regime."""
    with working_precision(30) as prec:
        out = A.evaluate(Dataset.make(name="kq-small3", **TINY3), prec, iterations=20)
    settled = _req(out, "m = 1: the run settled on α = (1) (s_iα_i > 1/2 at the end)")
    assert settled.met is False and settled.detail.startswith("min_i s_iα_i = 0.3333")
    sat = _req(out, "m = 1: the run saturated on α from the rule's first point k = 10 on")
    assert sat.met is False and "linear regime" in sat.detail and "k = 10" in sat.detail
    dist = _items(out, "m = 1: dist(")[0]
    assert dist.rule.holds is None and "linear regime" in dist.rule.detail
    assert out.decision().verdict == "INCONCLUSIVE"


def test_frobenius_rule_not_read_before_the_regime():
    """target = "frobenius" on an unsaturated run: the 1 − corr rule is undecided naming the linear regime."""
    with working_precision(30) as prec:
        out = A.evaluate(Dataset.make(name="kq-small3", **TINY3), prec, iterations=20, target="frobenius")
    item = _items(out, "m = 1: 1 − corr(K Qᵀ, W^mm_α)")[0]
    assert item.rule.holds is None and "linear regime" in item.rule.detail


def test_four_checkpoints_first_point_and_note():
    """iterations = 100: checkpoints 10, 20, 50, 100 — the rule's first point is marks[−4] = 10, and the note lists
    all four distances at 3 digits."""
    data = D.kq_trial(0)
    with working_precision(30) as prec:
        out = A.evaluate(data, prec, widths=(3,), iterations=100, eta="1")
    assert _req(out, "m = 3: the run saturated on α from the rule's first point k = 10 on").met is True
    note = _items(out, "m = 3: dist(")[0].note
    values = note.split("k = 10, 20, 50, 100: ")[1].split(";")[0].split(", ")
    assert len(values) == 4


def test_saturated_run_items_carry_the_protocol_values():
    """Trial 0, η = 1, k ≤ 200 (checkpoints 10, 20, 50, 100, 200; the rule's first point marks[−4] = 20): both widths
    saturate; m = 3 decides (HOLDS), m = 2 < n is informative. Each item's value is recomputed from the protocol: the
    distance of W(200) to 𝒲^mm_⋆(α) with radius SDP_DISTANCE_RESOLUTION/10 = 1e−7, not enclosed, no residual (≫ 1e−6);
    the paper's corr(W(200), W^mm_⋆); the note's last four distances at 3 digits; the saturation detail is the max
    off-mass (not the linear-regime text)."""
    data = D.kq_trial(0)
    with working_precision(30) as prec:
        out = A.evaluate(data, prec, widths=(2, 3), iterations=200, eta="1")
        assert out.decision().verdict == "HOLDS"
        for m in (2, 3):
            Ws, alpha, nuc = _protocol(data, m, 200, "1", 0)
            d = [distance_to_solution_set(Ws[k], nuc, 30) for k in (20, 50, 100, 200)]
            items = _items(out, f"m = {m}: dist(")
            assert len(items) == 1
            item = items[0]
            assert item.value.mid() == d[-1].mid() and abs(float(item.value.rad()) - 1e-7) < 1e-9
            assert ("k = 20, 50, 100, 200: " + ", ".join(to_decimal_string(y, 3) for y in d)) in item.note
            c = _items(out, f"m = {m}: corr(K Qᵀ, W^mm_⋆,α) at k = 200")[0]
            assert abs(float((c.value - corr(Ws[200], nuc.solution)).mid())) < 1e-20
            sat = _req(out, f"m = {m}: the run saturated on α from the rule's first point k = 20 on")
            assert sat.met is True and sat.detail.startswith("max_i Σ_(t≠α) s_it = ")
            assert _req(out, f"m = {m}: the run settled on α").met is True
    deciding = _items(out, "m = 3: dist(")[0]
    assert deciding.rule.holds is True and deciding.enclosed is False and deciding.residual is False
    informative = _items(out, "m = 2: dist(")[0]
    assert informative.rule is None and "(m < n = 3" in informative.quantity


def test_seed_option_reaches_the_start():
    """seed = 7: the corr item is that of the run from the seed-7 start (and the default seed is 0)."""
    data = D.kq_trial(0)
    with working_precision(30) as prec:
        for seed, kw in ((7, {"seed": 7}), (0, {})):
            out = A.evaluate(data, prec, widths=(3,), iterations=20, eta="1", **kw)
            Ws, _, nuc = _protocol(data, 3, 20, "1", seed)
            c = _items(out, "m = 3: corr(")[0]
            assert abs(float((c.value - corr(Ws[20], nuc.solution)).mid())) < 1e-20
