"""verify.kit.good_start (mutation tests): ∇L(0) has d² entries matching the closed form, Assumption C refused when
an optimal token is not unique, and ``good_start_dataset`` returns the *first* seeded dataset meeting every condition
its docstring states (unique optimal tokens, score gap ≥ min_gap, C met, Att-SVM(opt) feasible), built exactly as
stated (``random_dataset`` with scale 1/10 and explicit queries). Expected values: ∇L(0) from the closed form in
float64 here ((1/(nT)) Σ_i ℓ'(γ̄_i) Σ_t (γ_it − γ̄_i) x_it z_iᵀ), C's margins from it, the gap read off the scores."""
import math
from fractions import Fraction as F

from verify.data.dataset import Dataset
from verify.data.generators import random_dataset
from verify.geometry.stationarity import gmm
from verify.kit.good_start import ASSUMPTION_C, assumption_c, good_start_dataset, gradient_at_zero
from verify.numbers.precision import working_precision


def lp(u):
    return -1 / (1 + math.exp(u))  # logistic ℓ'(u)


def _grad0(data):
    n, T, d = data.n, data.T, data.d
    G = [[0.0] * d for _ in range(d)]
    for x, z, g in zip(data.X, data.queries(), data.scores):
        gb = float(sum(g, F(0)) / T)
        for t in range(T):
            for a in range(d):
                for b in range(d):
                    G[a][b] += lp(gb) * (float(g[t]) - gb) * float(x[t][a]) * float(z[b]) / (n * T)
    return G


def _margins(data):
    G, d = _grad0(data), data.d
    return [sum((float(x[t][a]) - float(x[o[0]][a])) * G[a][b] * float(z[b]) for a in range(d) for b in range(d))
            for x, z, o in zip(data.X, data.queries(), data.optimal_tokens()) for t in range(data.T) if t != o[0]]


def _ok(data, min_gap=F(1, 10)):
    """The docstring's conditions, checked here (the SVM's feasibility by the engine's solver)."""
    return (all(len(o) == 1 for o in data.optimal_tokens())
            and min(sorted(g)[-1] - sorted(g)[-2] for g in data.scores) >= min_gap
            and min(_margins(data)) > 0 and gmm(data, "W", 30).status == "optimal")


def test_gradient_at_zero_is_d_squared_entries_of_the_closed_form():
    data = random_dataset(n=2, T=3, d=3, seed=4, scale="1/10", queries=True)
    with working_precision(30):
        g = gradient_at_zero(data)
    G = _grad0(data)
    assert len(g) == 9
    assert all(abs(float(a.mid()) - G[k // 3][k % 3]) < 1e-12 for k, a in enumerate(g))


def test_a_tied_optimal_token_is_refused_by_name():
    data = Dataset.make(X=[[[1, 0], [1, 0], [0, 1]], [[0, 1], [1, 1], [0, 0]]], Y=[1, 1], v=[1, 0],
                        z=[[1, 0], [0, 1]], name="tie")
    assert [len(o) for o in data.optimal_tokens()] == [2, 1]  # tokens 0 and 1 tie at score 1 in sequence 0
    h = assumption_c(data)
    assert h.name == ASSUMPTION_C and h.met is False and h.detail == "opt not unique"


def test_good_start_is_the_first_seed_meeting_every_condition():
    """Shapes (n, T, d) away from ``random_dataset``'s defaults (2, 3, 2) too, and the defaults the docstring states:
    seed 0, n = T = 4, d = 3, gap ≥ 1/10."""
    data = good_start_dataset()
    first = next(s for s in range(50) if _ok(random_dataset(n=4, T=4, d=3, seed=s, scale="1/10", queries=True)))
    assert (data.n, data.T, data.d) == (4, 4, 3) and data.name == f"good-start-n4T4d3-s{first}" and _ok(data)
    for seed, shape in ((0, (2, 3, 2)), (7, (2, 3, 2)), (0, (3, 4, 3))):
        data = good_start_dataset(seed, *shape)
        found = int(data.name.rsplit("-s", 1)[1])
        assert found >= seed and data.name == f"good-start-n{shape[0]}T{shape[1]}d{shape[2]}-s{found}"
        same = random_dataset(n=shape[0], T=shape[1], d=shape[2], seed=found, scale="1/10", queries=True)
        assert data.X == same.X and data.queries() == same.queries() and data.v == same.v and data.Y == same.Y
        assert (data.n, data.T, data.d) == shape and _ok(data)
        for s in range(seed, found):
            assert not _ok(random_dataset(n=shape[0], T=shape[1], d=shape[2], seed=s, scale="1/10", queries=True))


def _stub(monkeypatch, margins):
    """assumption_c's three-way decision on given margins (a stand-in dataset with unique optimal tokens)."""
    import verify.kit.good_start as gs
    monkeypatch.setattr(gs, "c_margins", lambda data, loss="logistic": margins)
    from types import SimpleNamespace
    return assumption_c(SimpleNamespace(optimal_tokens=lambda: [(0,), (1,)]))


def test_assumption_c_on_both_sides_and_undecided(monkeypatch):
    from flint import arb
    h = _stub(monkeypatch, [(0, 1, arb(3)), (1, 0, arb(1))])
    assert (h.name, h.met) == (ASSUMPTION_C, True) and h.detail.startswith("every margin certainly > 0; ")
    assert "smallest margin 1.00000 at sequence 1, token 0" in h.detail and "2 margins" in h.detail
    h = _stub(monkeypatch, [(0, 1, arb(3)), (1, 0, F(0))])  # an exact 0: C fails (strict inequality)
    assert h.met is False and h.detail.startswith("1 margin(s) ≤ 0; smallest margin 0 at sequence 1, token 0 ")
    h = _stub(monkeypatch, [(0, 1, arb(-1)), (1, 0, arb("1e-10 +/- 1e-10"))])  # certainly < 0 wins over undecided
    assert h.met is False and h.detail.startswith("1 margin(s) ≤ 0; ")
    for undecided in ("0 +/- 1e-10", "0.5 +/- 0.5", "-0.25 +/- 0.5"):  # balls meeting 0, not certainly ≤ 0
        h = _stub(monkeypatch, [(0, 1, arb(2)), (1, 0, arb(undecided))])
        assert (h.name, h.met) == (ASSUMPTION_C, None) and h.detail.startswith("1 margin(s) undecided; ")
