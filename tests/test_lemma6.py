"""mmts.lemma6 (smoothness, descent lemma): holds on the defaults; wrong constants and a too large
step (hypothesis removed) are VIOLATED; a step above 1/L_p or a non-decreasing loss is
NOT_APPLICABLE; zero points or an undecidable step are INCONCLUSIVE; saturated points are decided;
the engine pieces (W recovery, rigorous spectral norms, L_p values, the descent ratio) are right."""
import random
from fractions import Fraction

import numpy as np
import pytest
from flint import arb, arb_mat

from lemmas.mmts import lemma6
from verify.claims import run_claim
from verify.data import mmts as D
from verify.data.generators import random_dataset
from verify.geometry.smoothness import descent_ratio, descent_terms, key_matrix, smoothness_constant
from verify.models.attention import LinearLogitModel
from verify.models.losses import Square
from verify.numbers.linalg import spectral_norm, sym_spectral_norm
from verify.numbers.precision import to_arb, working_precision


def test_holds_on_defaults():
    v = run_claim(lemma6.CLAIM, lemma6.CLAIM.default_datasets(), dps=30)
    assert v.verdict == "HOLDS"
    assert v.stable_digits >= 25
    assert any("L_K" in e.quantity for e in v.evidence)  # the random-keys dataset uses the proof form
    assert any("(25)" in e.quantity for e in v.evidence)


@pytest.mark.parametrize("name, expected", [("mmts-fig1a", "20.75"), ("mmts-fig1b", "15.27"), ("mmts-fig1c", "61.8")])
def test_constant_matches_the_spec(name, expected):
    with working_precision(30):
        Lp = smoothness_constant(D.PAPER_DATASETS[name]()).value
    digits = len(expected.split(".")[1])
    assert abs(Lp - to_arb(Fraction(expected))) < arb(10) ** -digits


def test_key_matrix_recovery():
    assert key_matrix(D.mmts_fig1a()) == ((1, 0, 0), (0, 1, 0), (0, 0, 0))
    assert key_matrix(random_dataset(n=2, T=4, d=3, seed=0, keys=True)) is None  # K not of the form XW
    W1 = key_matrix(lemma6.scaled_key_dataset(0, 1))
    W10 = key_matrix(lemma6.scaled_key_dataset(0, 10))
    assert W10 == tuple(tuple(10 * x for x in row) for row in W1)  # X → cX, W → cW


def test_wrong_constant_x_squared_is_violated():
    data = lemma6.scaled_key_dataset(0, 10)
    with working_precision(30) as prec:
        good = lemma6.evaluate(data, prec, descent_loss=None)
        bad = lemma6.evaluate(data, prec, descent_loss=None, x_power=2)
    assert good.decide() == "HOLDS"
    assert bad.decide() == "VIOLATED"


def test_wrong_constant_without_w_is_violated():
    data = lemma6.scaled_key_dataset(0, 10)
    with working_precision(30) as prec:
        bad = lemma6.evaluate(data, prec, descent_loss=None, w_power=0)
    assert bad.decide() == "VIOLATED"


def test_step_above_one_over_lp_is_not_applicable():
    data = lemma6.lemma6_tight()
    with working_precision(30) as prec:
        Lp = smoothness_constant(data).value
        out = lemma6.evaluate(data, prec, eta=2 / Lp)
    assert out.decide() == "NOT_APPLICABLE"
    assert any("η ≤ 1/L_p" in h.name and not h.met for h in out.hypotheses)


def test_descent_with_too_large_step_is_violated():
    """Spec: on X = [(1.3,1),(−0.4,0)], v = e₂ the descent inequality fails for η of a few hundred/L_p."""
    data = lemma6.lemma6_tight()
    with working_precision(30) as prec:
        Lp = smoothness_constant(data).value
        out = lemma6.evaluate(data, prec, losses=(), eta=400 / Lp, enforce_step=False, steps=50)
    assert out.decide() == "VIOLATED"
    descent = next(e for e in out.evidence if "(25)" in e.quantity)
    assert descent.decide() is False


def test_moderately_large_step_still_descends():
    """η = 2/L_p breaks the hypothesis but, L_p being loose, (25) itself still holds."""
    data = lemma6.lemma6_tight()
    with working_precision(30) as prec:
        Lp = smoothness_constant(data).value
        out = lemma6.evaluate(data, prec, losses=(), eta=2 / Lp, enforce_step=False, steps=50)
    assert out.decide() == "HOLDS"


def test_non_decreasing_loss_is_not_applicable():
    data = lemma6.lemma6_tight().replace(v=[0, 3])  # B = 3
    with working_precision(30) as prec:
        out = lemma6.evaluate(data, prec, losses=(Square(),), descent_loss=None)
    assert out.decide() == "NOT_APPLICABLE"
    assert "Assumption A" in out.hypotheses[0].name


def test_spectral_norms_are_enclosures():
    rng = random.Random(0)
    with working_precision(40):
        for trial in range(20):
            n = rng.randint(1, 5)
            A = [[Fraction(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(n)] for _ in range(n)]
            S = [[A[i][j] + A[j][i] for j in range(n)] for i in range(n)]
            if trial % 3 == 0:  # repeated eigenvalues: diag with a cluster
                S = [[Fraction(int(i == j) * (1 if i < 2 else 0)) for j in range(n)] for i in range(n)]
            ref = max(abs(np.linalg.eigvalsh(np.array(S, dtype=float))), default=0.0)
            got = sym_spectral_norm(arb_mat([[to_arb(x) for x in row] for row in S]))
            assert got.rad() < 1e-30 * max(1.0, ref)
            assert abs(float(got.mid()) - ref) < 1e-9 * max(1.0, ref)
            cols = rng.randint(1, 4)
            M = [[Fraction(rng.randint(-9, 9), 7) for _ in range(cols)] for _ in range(n)]
            assert abs(float(spectral_norm(M).mid()) - np.linalg.norm(np.array(M, dtype=float), 2)) < 1e-9


def test_no_point_at_all_is_inconclusive():
    """(25) evaluated on zero points (no probe point, no GD step) decides nothing: INCONCLUSIVE, named."""
    data = lemma6.lemma6_tight()
    with working_precision(30) as prec:
        out = lemma6.evaluate(data, prec, losses=(), points=[], steps=0)
    assert out.decide() == "INCONCLUSIVE"
    assert any(r.startswith("evaluated on zero points") and "(25)" in r for r in out.decision().reasons)


def test_saturated_points_are_decided_not_excluded():
    """Points deep in saturation, where (η/2)‖∇L‖² < 10^(−dps/2)(L − L⋆) (the old exclusion rule, checked
    here independently): every one is decided and counted — by the mean-value form
    ρ = 2 − η gᵀ∇²L(ξ)g/‖g‖² — and (25) holds with ρ ≈ 2 (the step barely moves L)."""
    data = D.mmts_fig1a()
    pts = [(Fraction(-1000, 47), Fraction(1000), Fraction(3500, 47)),  # L − L⋆ ≈ 10^-437: near the optimum
           (Fraction(240), Fraction(30), Fraction(1000)),  # L − L⋆ ≈ 0.028: saturated on a wrong token
           (Fraction(-100), Fraction(1000), Fraction(0))]
    with working_precision(30) as prec:
        model = LinearLogitModel.from_dataset(data, "p", "logistic")
        eta = arb((1 / smoothness_constant(data).value).lower())
        for p in pts:
            pa = [to_arb(x) for x in p]
            g2 = sum((x * x for x in model.grad(pa)), arb(0))
            assert eta * g2 / 2 < arb(10) ** -15 * model.excess(pa)  # the old rule would have excluded it
        out = lemma6.evaluate(data, prec, losses=(), points=pts, steps=1)  # + one GD step from p(0) = 0
    descent = next(e for e in out.evidence if "(25)" in e.quantity)
    assert descent.coverage.points == len(pts) + 1 and descent.coverage.holds == len(pts) + 1
    assert abs(descent.value - 2) < 1e-3
    assert out.decide() == "HOLDS"


def test_step_equal_to_one_over_lp_as_a_ball_is_undecided():
    """η = 1/L_p computed as a ball: η·L_p ≤ 1 cannot be certified — the step hypothesis is undecided
    (INCONCLUSIVE naming it), never silently met."""
    data = lemma6.lemma6_tight()
    with working_precision(30) as prec:
        Lp = smoothness_constant(data).value
        out = lemma6.evaluate(data, prec, losses=(), eta=1 / Lp, steps=5)
    assert out.decide() == "INCONCLUSIVE"
    assert any("η ≤ 1/L_p" in r for r in out.decision().reasons)


def test_descent_ratio_forms_agree():
    """At ordinary points the difference of excess losses and the mean-value form enclose the same ρ
    (their intersection is non-empty; ``descent_ratio`` raises otherwise); with η = 1/L_p, ρ ∈ [1, 2]."""
    data = lemma6.lemma6_tight()
    with working_precision(30):
        model = LinearLogitModel.from_dataset(data, "p", "logistic")
        eta = arb((1 / smoothness_constant(data).value).lower())
        for p in [(0, 0), (Fraction(1, 4), Fraction(1, 32)), (1, -2), (3, 5)]:
            pa = [to_arb(x) for x in p]
            drop, half, _, _ = descent_terms(model, pa, eta)
            r = descent_ratio(model, pa, eta)
            assert r.rho.overlaps(drop / half) and 1 <= r.rho <= 2
