"""tfsvm.thm8 (mutation tests): the threshold d ≥ max(T − 1, n) (both sides, and the test-only ``threshold_slack``
lowering it by exactly 1), σ = 0's genericity hypothesis, the loop over ``draws`` seeded noise draws k = 0 … draws − 1
(σ passed, default σ = 1/10 and 8 draws; σ = 0: one pass over the dataset itself), the Tally "== 1" over every (draw,
α) pair (feasible 1, infeasible 0, undecided NaN), the count of draws in the generic event, the centre's infeasible
selections, the enumeration ``limit`` passed on and the coverage text (every α of T**n, or the first ones) — with the
exact solvers replaced by recording stand-ins (``verify.kit.almost_all`` is tested on its own), so the tests are fast.
``_label``: α 1-indexed, "(1,3)"."""
from fractions import Fraction
from types import SimpleNamespace

import pytest

from lemmas.tfsvm import thm8
from verify.geometry.cones import ENUMERATION_LIMIT

PREC = SimpleNamespace(dps=30)


def _data(n, T, d, name="toy"):
    return SimpleNamespace(n=n, T=T, d=d, name=name)


class Kit:
    """Stand-ins for generic / all_selections / feasibility_of_selections / noise_draw, recording their calls.
    ``feasible``: α → True/False/None on every draw; ``centre``: the same on the dataset itself; ``gen``: the
    generic flag per draw index (the centre: ``gen_centre``)."""

    def __init__(self, monkeypatch, per=None, feasible=None, centre=None, gen=(True,) * 20, gen_centre=True):
        self.per, self.feasible, self.centre, self.gen, self.gen_centre = per, feasible or {}, centre, gen, gen_centre
        self.draws, self.feas, self.sel, self.gens = [], [], [], []
        for name in ("generic", "all_selections", "feasibility_of_selections", "noise_draw"):
            monkeypatch.setattr(thm8, name, getattr(self, name))

    def _alphas(self, data, limit):
        alphas = [(a, b) for a in range(data.T) for b in range(data.T)][:data.T ** data.n] if data.n == 2 else \
            [(a,) for a in range(data.T)]
        return alphas[:min(limit, self.per or len(alphas))]

    def all_selections(self, data, limit):
        self.sel.append((data, limit))
        return self._alphas(data, limit)

    def noise_draw(self, data, sigma, k):
        self.draws.append((data, sigma, k))
        return SimpleNamespace(n=data.n, T=data.T, d=data.d, name=f"draw{k}", k=k, base=data)

    def generic(self, data):
        self.gens.append(data)
        ok = self.gen[data.k] if hasattr(data, "k") else self.gen_centre
        return ok, 7 if ok else 1, 2

    def feasibility_of_selections(self, data, dps, limit):
        self.feas.append((data, dps, limit))
        table = self.centre if (self.centre is not None and not hasattr(data, "k")) else self.feasible
        return [(a, table.get(a, True)) for a in self._alphas(data, limit)]


def _tally(out):
    return [e for e in out.evidence if e.quantity.startswith("⋄-SVM(α) certified feasible")][0]


@pytest.mark.parametrize("n, T, d, slack, met", [
    (2, 4, 3, 0, True),    # d = max(T − 1, n) = 3: met (≥, not >)
    (2, 4, 2, 0, False),   # d = 2 < 3 (T − 1 dominates)
    (4, 2, 3, 0, False),   # d = 3 < n = 4 (n dominates)
    (4, 2, 4, 0, True),
    (2, 4, 2, 1, True),    # the altered threshold: 3 − 1 = 2
    (2, 4, 1, 1, False),
])
def test_dimension_threshold(monkeypatch, n, T, d, slack, met):
    kit = Kit(monkeypatch)
    out = thm8.evaluate(_data(n, T, d), PREC, draws=1, threshold_slack=slack)
    h = out.hypotheses[0]
    assert h.met is met and h.name.startswith("d ≥ max(T − 1, n)")
    assert h.name == "d ≥ max(T − 1, n)" + (f" − {slack} (ALTERED threshold: test-only false case)" if slack else "")
    assert h.detail == f"d = {d}, T − 1 = {T - 1}, n = {n}"
    assert bool(kit.feas) is met and (out.decision().verdict == "NOT_APPLICABLE") is (not met)


def test_defaults_sigma_draws_limit(monkeypatch):
    """Default σ = 1/10, 8 draws k = 0 … 7 of the dataset, each solved at dps with the enumeration limit; the centre
    solved too; default threshold_slack 0 (d = max(T − 1, n) − 1 is not met)."""
    kit = Kit(monkeypatch)
    data = _data(2, 3, 2)
    out = thm8.evaluate(data, PREC)
    assert [(x, s, k) for x, s, k in kit.draws] == [(data, Fraction(1, 10), k) for k in range(8)]
    assert [(f[0].k, f[1], f[2]) for f in kit.feas[:-1]] == [(k, 30, ENUMERATION_LIMIT) for k in range(8)]
    assert kit.feas[-1] == (data, 30, ENUMERATION_LIMIT) and kit.sel == [(data, ENUMERATION_LIMIT)]
    assert out.range.startswith("8 seeded Gaussian draws, σ = 1/10, every α ∈ [T]ⁿ (9) on each")
    assert out.decision().verdict == "HOLDS" and _tally(out).coverage.points == 8 * 9
    assert thm8.evaluate(_data(2, 3, 1), PREC).decision().verdict == "NOT_APPLICABLE"


def test_tally_values_and_draw_count(monkeypatch):
    """Every (draw, α) pair a Tally point of "== 1": a certified-feasible pair 1, a certified-infeasible pair 0
    (→ VIOLATED, certified), an undecided one NaN (→ INCONCLUSIVE); the draws in the generic event counted (2 of 3);
    the centre's infeasible selections counted with their 1-indexed labels."""
    kit = Kit(monkeypatch, gen=(True, False, True), centre={(0, 1): False, (2, 2): False, (1, 1): None})
    out = thm8.evaluate(_data(2, 3, 2), PREC, sigma=Fraction(1, 3), draws=3, limit=50)
    t = _tally(out)
    assert (t.relation, t.bound, t.coverage.points, t.coverage.holds) == ("==", 1, 27, 27)
    assert out.decision().verdict == "HOLDS" and [d[1] for d in kit.draws] == [Fraction(1, 3)] * 3
    gen = [e for e in out.evidence if e.quantity.startswith("draws in the generic event")][0]
    assert gen.value == 2 and gen.informative
    bad = [e for e in out.evidence if e.quantity.startswith("the centre dataset itself")][0]
    assert bad.value == 2 and bad.note.startswith("α = (1,2), (3,3); rank 7 of n(T − 1) = 2")
    assert [f[2] for f in kit.feas] == [50] * 4 and kit.sel[0][1] == 50
    Kit(monkeypatch, feasible={(1, 2): False})
    out = thm8.evaluate(_data(2, 3, 2), PREC, draws=2, limit=50)
    t = _tally(out)
    assert t.coverage.violated == 2 and out.decision().verdict == "VIOLATED" and out.decision().certainty == "certified"
    assert t.coverage.first_violation == "draw 0, α = (2,3)"
    Kit(monkeypatch, feasible={(1, 2): None})
    out = thm8.evaluate(_data(2, 3, 2), PREC, draws=2)
    assert _tally(out).coverage.undecided == 2 and out.decision().verdict == "INCONCLUSIVE"
    Kit(monkeypatch, gen_centre=False)
    out = thm8.evaluate(_data(2, 3, 2), PREC, draws=1)
    bad = [e for e in out.evidence if e.quantity.startswith("the centre dataset itself")][0]
    assert bad.value == 0 and bad.note == "rank 1 of n(T − 1) = 2 (not generic)"


def test_sigma_zero_is_the_dataset_itself(monkeypatch):
    """σ = 0: genericity a hypothesis (not met → NOT_APPLICABLE before any solve); met → one pass over the dataset
    itself, no draws, no range, certified; fewer selections than T**n (the limit) → a cover naming them."""
    kit = Kit(monkeypatch, gen_centre=False)
    data = _data(2, 3, 2)
    out = thm8.evaluate(data, PREC, sigma=0)
    assert out.hypotheses[1].name == thm8.GENERIC and out.hypotheses[1].met is False
    assert out.hypotheses[1].detail == "rank 1 of n(T − 1) = 2 (σ = 0: the dataset itself)"
    assert not kit.feas and out.decision().verdict == "NOT_APPLICABLE" and kit.gens == [data]
    kit = Kit(monkeypatch)
    out = thm8.evaluate(data, PREC, sigma=0, draws=5)
    assert not kit.draws and kit.feas == [(data, 30, ENUMERATION_LIMIT)] and out.range is None
    assert out.hypotheses[1].met is True and out.covers == [] and len(out.evidence) == 1
    d = out.decision()
    assert (d.verdict, d.certainty) == ("HOLDS", "certified") and _tally(out).coverage.points == 9
    assert _tally(out).coverage.worst_at.startswith("toy, α = (")
    kit = Kit(monkeypatch, per=4)
    out = thm8.evaluate(data, PREC, sigma=0, limit=4)
    assert out.covers == ["α: the first 4 of the 9 α ∈ [T]ⁿ"] and _tally(out).coverage.points == 4


def test_range_names_the_first_selections(monkeypatch):
    Kit(monkeypatch, per=5)
    out = thm8.evaluate(_data(2, 3, 2), PREC, draws=2, limit=5)
    assert out.range.startswith("2 seeded Gaussian draws, σ = 1/10, the first 5 of the 9 α ∈ [T]ⁿ on each")
    assert out.covers == []


def test_label_is_one_indexed():
    assert thm8._label((0, 2, 1)) == "(1,3,2)" and thm8._label(()) == "()"


def test_generic_is_asked_of_each_draw_then_the_centre(monkeypatch):
    """σ > 0: the generic event is decided on each draw k = 0 … draws − 1 and then on the centre dataset itself (the
    informative item's rank), in that order."""
    kit = Kit(monkeypatch)
    data = _data(2, 3, 2)
    thm8.evaluate(data, PREC, draws=3)
    assert [getattr(g, "k", None) for g in kit.gens] == [0, 1, 2, None] and kit.gens[-1] is data
