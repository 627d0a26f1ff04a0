"""mmts Lemma 1 in detail (mutation testing, area mmts): both heads run (their GD paths differ, the
identity p(t) = W(t)u holds for both), hypotheses merged once each, ‖u‖² in closed form, the seeded
W(0) and the default datasets against their definitions (including the repair of a unit/zero query)."""
import random
from fractions import Fraction

from flint import arb

from lemmas.mmts import lemma1
from verify.data import mmts as D
from verify.data.generators import random_dataset
from verify.numbers.precision import to_arb, working_precision


def test_check_runs_both_heads_and_merges_hypotheses():
    data = D.mmts_fig1a()
    with working_precision(30) as prec:
        out = lemma1.check(data, prec)
        u = data.X[0][0]  # the default query: the first token of sequence 1
        usq = sum(Fraction(x) ** 2 for x in u)
        by = {e.quantity: e for e in out.evidence}
        assert out.decide() == "HOLDS"
        assert [h.name for h in out.hypotheses] == ["one fixed query u shared by all sequences ('Fix u')",
                                                    "ℓ and the head h differentiable", "p(0) = W(0)u"]
        assert all(h.met is True for h in out.hypotheses)
        assert all(abs(by[f"{h} head: ‖u‖²"].value - to_arb(usq)) < arb(10) ** -30 for h in ("linear", "tanh"))
        lin = by["linear head: ‖p(T) − p(0)‖ (distance travelled)"].value
        tanh = by["tanh head: ‖p(T) − p(0)‖ (distance travelled)"].value
        assert abs(lin - tanh) > arb("0.01")  # a different head gives a different path (|h'| ≤ 1 for tanh)
        assert tanh < lin


def test_random_w0_is_seeded_tenths():
    rng = random.Random(1)
    want = [[Fraction(rng.randint(-10, 10), 10) for _ in range(3)] for _ in range(3)]
    assert lemma1.random_w0(3) == want == lemma1.random_w0(3, 1)
    assert lemma1.random_w0(2, 5) != lemma1.random_w0(2, 6)


def _query(seed):
    rng = random.Random(seed + 7)
    u = [Fraction(rng.randint(-15, 15), 7) for _ in range(3)]
    if sum(x * x for x in u) in (0, 1):  # a unit query (or zero) is moved off: ‖u‖² ≠ 1 matters to the claim
        u[0] += 2
    return u


def test_default_datasets_are_the_documented_ones():
    for seed in (0, 3, 567, 703):  # 567 and 703 draw ‖u‖ = 1 and are repaired
        a, c, r = lemma1.default_datasets(seed)
        assert (a.name, c.name, r.name) == ("mmts-fig1a", "mmts-fig1c", f"random-n3T4d3-u-s{seed}")
        base = random_dataset(n=3, T=4, d=3, seed=seed)
        assert (r.X, r.Y, r.v) == (base.X, base.Y, base.v)
        u = _query(seed)
        assert [Fraction(x) for x in r.u] == u and sum(x * x for x in u) not in (0, 1)
    assert [Fraction(x) for x in lemma1.default_datasets(567)[2].u] == [Fraction(-6, 7) + 2, Fraction(3, 7),
                                                                      Fraction(2, 7)]
