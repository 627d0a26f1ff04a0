"""tfsvm.thm9 (mutation tests): the default α (the non-global locally-optimal α of largest κ(α), −∞ last, else opt,
else none), the ε list (the spec's 1/10 and κ(α)(1 − 1/100) floored to 6 decimals; a scalar ε), "ε small" at its
edges (ε = 0, ε = κ(α) exactly, α = opt), R₀(ε) = (1/ε)log(BT/c_α) rounded up to 4 significant digits (0 for
opt, for a log ≤ 0 or no c_α) and the "R₀ large" hypothesis at equality, the R ladder (start max(R₀, 1), ratio 3/2,
`max_rungs`, the digit cap, the stop at the first TAIL_POINTS inactive radii where the rule decides, the digits of
each radius dps + ⌈R·B_z/ln 10⌉), the coverage and range texts, the κ item's value, and the figure.

D-LMM (n = 1, T = 3, d = 3): v = e₃, z = e₁, tokens A = (0, 1, 1), B = (0, −1, ½), C = 0: γ = (1, ½, 0); A is
opt (global), B locally optimal with W^mm_B = (0, −4/5, 2/5)e₁ᵀ (spec §6), κ(B) = (2/5)/√(4/5) = 1/√5, c_B = ½
(γ_B − γ_C); the head spread B = max ‖v‖‖x_t − x_τ‖ = ‖A − B‖ = √17/2 (‖v‖ = 1), so R₀(ε) = (1/ε)·log(3·(√17/2)/(1/2)),
and B_z = √17/2 (‖z‖ = 1): a radius R needs dps + R·b digits (computed at dps + ⌈R·b⌉), b = √17/(2 ln 10) rounded
up to 3 significant digits."""
import math
from fractions import Fraction

import mpmath

from lemmas.tfsvm import thm9
from verify.claims import rules
from verify.data import tfsvm as D
from verify.data.generators import random_dataset
from verify.geometry.separating_cone import selection, selections
from verify.numbers.precision import working_precision

mpmath.mp.dps = 50
ROOT = mpmath.sqrt(17) / 2          # ‖A − B‖ on D-LMM
LOG = mpmath.log(3 * ROOT / mpmath.mpf("0.5"))   # log(B·T/c_B)
#: digits per unit radius: B_z/ln 10 rounded up to 3 significant digits (verify.dynamics.separating_rp)
DPR = Fraction(int(mpmath.ceil(ROOT / mpmath.log(10) * 1000)), 1000)


def _up4(x):
    """x rounded up to 4 significant digits, as a Fraction."""
    e = int(mpmath.floor(mpmath.log10(x))) - 3
    return Fraction(int(mpmath.ceil(x / mpmath.mpf(10) ** e))) * Fraction(10) ** e


def _r0(eps):
    return _up4(LOG / mpmath.mpf(eps.numerator) * eps.denominator)


def _digits(R, dps=30):
    return dps + math.ceil(R * DPR)


def _run(data, **kw):
    with working_precision(30) as prec:
        return thm9.evaluate(data, prec, **{"figure": False, **kw})


def _hyps(out, start):
    return [(h.name, h.met) for h in out.hypotheses if h.name.startswith(start)]


HARD = Fraction(int(mpmath.floor(mpmath.mpf("0.99") / mpmath.sqrt(5) * 10**6)), 10**6)  # κ(B)(1 − 1/100), 6 dec.


def _reversed(data):
    return data.replace(X=[list(reversed(seq)) for seq in data.X], name=data.name + "-rev")


def test_default_alpha():
    """D-LMM: B (its one non-global LMM), also with the tokens listed C, B, A (a non-LMM first); D-T2: (1, 1)
    (0-based (0, 0): κ = −∞, the only non-global LMM); D-NUC: only opt is locally optimal → opt; D-STAT: no feasible
    selection → None; a random dataset with two non-global LMMs of finite κ, listed smaller first: the larger."""
    assert thm9.default_alpha(D.d_lmm(), 30).alpha == (1,)
    assert thm9.default_alpha(_reversed(D.d_lmm()), 30).alpha == (1,)
    assert thm9.default_alpha(D.d_t2(), 30).alpha == (0, 0)
    assert thm9.default_alpha(D.d_nuc(), 30).alpha == (0, 0)
    assert thm9.default_alpha(D.d_stat(), 30) is None
    data = _reversed(random_dataset(n=2, T=3, d=3, seed=0, queries=True))
    lmms = []
    for a in selections(data):
        s = selection(data, a, dps=30)
        if s.feasible is True and s.locally_optimal and not isinstance(s.kappa, str):
            lmms.append((float(s.kappa.mid()), a))
    assert len(lmms) == 2 and lmms[0][0] < lmms[1][0]
    assert thm9.default_alpha(data, 30).alpha == lmms[1][1]


def test_no_locally_optimal_selection_is_not_applicable():
    out = _run(D.d_stat())
    assert _hyps(out, "a locally-optimal α") == [("a locally-optimal α with a feasible Att-SVM", False)]
    assert out.decision().reasons == ["hypothesis not met: a locally-optimal α with a feasible Att-SVM"]


def test_default_eps_list_and_R0_hypotheses():
    """ε ∈ {1/10, κ(B)·99/100 floored to 10⁻⁶}, both small; R₀ = 5 is below both R₀(ε) (≈ 25.2 and ≈ 5.7)."""
    out = _run(D.d_lmm(), R0=5)
    eps = [n for n, met in _hyps(out, "ε small") if met is True]
    assert eps == [f"ε small: 0 < ε < κ(α), W^mm_α inside cone_ε(α) (ε = {e})" for e in (Fraction(1, 10), HARD)]
    assert [m for _, m in _hyps(out, "R₀ large")] == [False, False]
    assert out.decision().verdict == "NOT_APPLICABLE"
    one = _run(D.d_lmm(), eps="1/10", R0=5)   # a scalar ε
    assert [n for n, _ in _hyps(one, "ε small")] == ["ε small: 0 < ε < κ(α), W^mm_α inside cone_ε(α) (ε = 1/10)"]


def test_R0_at_equality_is_large_enough():
    """R₀ = R₀(1/10) exactly meets "R₀ large" for ε = 1/10; for ε = 1/20 the proof's R₀ doubles: not met."""
    out = _run(D.d_lmm(), eps=["1/10", "1/20"], R0=_r0(Fraction(1, 10)))
    assert [m for _, m in _hyps(out, "R₀ large")] == [True, False]


def test_eps_small_at_its_edges():
    """ε = 0 is never small (for α = B and for α = opt, κ = +∞); ε = 1/10 is small for opt; on D-NB, α = 2 (0-based
    1) has κ(α) exactly 1: ε = 1 is not below it (NOT_APPLICABLE, not undecided)."""
    assert [m for _, m in _hyps(_run(D.d_lmm(), eps=["0"]), "ε small")] == [False]
    assert [m for _, m in _hyps(_run(D.d_lmm(), alpha=(0,), eps=["1/10", "0"]), "ε small")] == [True, False]
    kappa = selection(D.d_nb(), (1,), dps=30).kappa
    assert kappa.is_exact() and kappa == 1
    out = _run(D.d_nb(), alpha=(1,), eps=["1"])
    assert [m for _, m in _hyps(out, "ε small")] == [False] and out.decision().verdict == "NOT_APPLICABLE"


def test_r0_of():
    """(1/ε)log(BT/c) rounded up to 4 significant digits: D-LMM's 10·log(6·√17/2) ≈ 25.15 → 25.16; log 2 ≈ 0.6931
    → 0.6932; 0 when the log is ≤ 0 (BT/c = ½) or c_α is undefined."""
    B = thm9.to_arb(Fraction(17, 4)).sqrt()
    assert thm9.r0_of(Fraction(1, 10), Fraction(1, 2), B, 3) == _r0(Fraction(1, 10)) == Fraction(629, 25)
    assert thm9.r0_of(Fraction(1), Fraction(1, 2), thm9.to_arb(1), 1) == _up4(mpmath.log(2)) == Fraction(1733, 2500)
    assert thm9.r0_of(Fraction(1), Fraction(2), thm9.to_arb(1), 1) == 0
    assert thm9.r0_of(Fraction(1), None, B, 3) == 0


def test_one_rung_per_eps_coverage_range_and_kappa():
    """D-LMM, α = B by default, the default ε's: one radius at R₀(ε) for each; the coverage names the ε's (the last
    just below κ(B) = 1/√5 to 8 digits), the R₀'s and α; the range each radius and its digits. The κ item: at R₀(κ(B)·0.99) the optimum sits on
    the cone's edge (κ(W̄)/‖W̄‖ = ε); at R₀(1/10) ≈ 25 it is inside, close to κ(B)."""
    out = _run(D.d_lmm(), max_rungs=1)
    r1, r2 = _r0(Fraction(1, 10)), _r0(HARD)
    assert out.covers == [f"ε ∈ {{1/10, {HARD}}} (the last just below κ(α) = {mpmath.nstr(1 / mpmath.sqrt(5), 8)}); "
                          f"R₀ = {r1}, {r2}; α: α = (2)"]
    assert out.range == (f"ε = 1/10: R = {float(r1):g} … {float(r1):g} (1 radii, up to {_digits(r1)} digits); "
                         f"ε = {HARD}: R = {float(r2):g} … {float(r2):g} (1 radii, up to {_digits(r2)} digits)")
    kap = [e for e in out.evidence if e.quantity.startswith("κ(W̄_R)/‖W̄_R‖")]
    assert len(kap) == 2 and all(e.informative for e in kap)
    k1, k2 = (mpmath.mpf(e.value.mid().str(40, radius=False)) for e in kap)
    assert 0 < 1 / mpmath.sqrt(5) - k1 < mpmath.mpf("1e-3")
    assert abs(k2 - mpmath.mpf(HARD.numerator) / HARD.denominator) < mpmath.mpf("1e-25")
    corr = [e for e in out.evidence if e.quantity.startswith("1 − corr")]
    assert len(corr) == 2 and all(e.rule.holds is None and not e.residual for e in corr)


def test_opt_ladder():
    """α = opt: R₀ = 0, ε = 1/10 only (no κ(α) to shrink), the ladder from R = 1 by 3/2; the cone's edge is never
    active, so it stops at the first TAIL_POINTS radii where the rule decides — the decay holds on them: exactly
    TAIL_POINTS radii, 1 … (3/2)³; the figure is drawn by default."""
    with working_precision(30) as prec:
        out = thm9.evaluate(D.d_lmm(), prec, alpha=(0,))  # the figure on: its default
    assert out.covers == ["ε ∈ {1/10}; R₀ = 0; α: α = (1)"]
    k = rules.TAIL_POINTS
    last = Fraction(3, 2) ** (k - 1)
    assert out.range == f"ε = 1/10: R = 1 … {float(last):g} ({k} radii, up to {_digits(last)} digits)"
    d = out.decision()
    assert d.verdict == "HOLDS" and d.certainty == "evidence"
    assert len(out.figures) == 1 and len(out.figures[0].series) == 1


def test_R0_zero_for_opt_meets_the_hypothesis():
    """α = opt has R₀(ε) = 0: a given R₀ = 0 is large enough, and the ladder runs from R = 1 (one rung)."""
    out = _run(D.d_lmm(), alpha=(0,), eps="1/10", R0=0, max_rungs=1)
    assert [m for _, m in _hyps(out, "R₀ large")] == [True]
    assert out.range == f"ε = 1/10: R = 1 … 1 (1 radii, up to {_digits(Fraction(1))} digits)"
    assert len([e for e in out.evidence if e.quantity.startswith("1 − corr")]) == 1


def test_digit_cap(monkeypatch):
    """With a cap of 45 digits: ε = 1/10 (R₀ ≈ 25.2: 30 + 23 digits) gets no radius — a requirement not met,
    INCONCLUSIVE naming it; ε = 2/5 (R₀ ≈ 6.29) still runs, its ladder stopping at the last radius within the cap."""
    monkeypatch.setattr(thm9, "DIGIT_CAP", 45)
    out = _run(D.d_lmm(), eps=["1/10", "2/5"], max_rungs=6)
    r0 = _r0(Fraction(2, 5))
    radii = []
    while len(radii) < 6 and 30 + DPR * r0 * Fraction(3, 2) ** len(radii) <= 45:
        radii.append(r0 * Fraction(3, 2) ** len(radii))
    assert 1 < len(radii) < 6
    assert out.range == (f"ε = 2/5: R = {float(radii[0]):g} … {float(radii[-1]):g} ({len(radii)} radii, up to "
                         f"{_digits(radii[-1])} digits)")
    req = [r for r in out.requirements if r.name.startswith("(ε = 1/10) at least one radius")]
    assert len(req) == 1 and req[0].met is False and req[0].name == "(ε = 1/10) at least one radius within 45 digits"
    assert out.decision().verdict == "INCONCLUSIVE"
    assert len([e for e in out.evidence if e.quantity.startswith("1 − corr")]) == 1
    assert math.isfinite(float(radii[-1]))


def test_digit_cap_at_equality(monkeypatch):
    """A radius needing exactly the cap (dps + b·R₀(2/5)) is still computed: one radius, the next is above it."""
    r0 = _r0(Fraction(2, 5))
    monkeypatch.setattr(thm9, "DIGIT_CAP", 30 + DPR * r0)
    out = _run(D.d_lmm(), eps=["2/5"], max_rungs=3)
    assert out.range == f"ε = 2/5: R = {float(r0):g} … {float(r0):g} (1 radii, up to {_digits(r0)} digits)"


def test_ladder_to_zero_at_20_digits():
    """ε = 1/10 at 20 digits: the edge is inactive from R₀ on, so the ladder R₀(3/2)^k stops at the first TAIL_POINTS
    radii where the rule decides (it holds on them); 1 − corr is then below 10⁻²⁰ (the spec's run: 2.7e−20 at
    R = 50, faster beyond), so the item is flagged as a residual (≈ 0 to the working precision)."""
    with working_precision(20) as prec:
        out = thm9.evaluate(D.d_lmm(), prec, eps="1/10", figure=False)
    r0, k = _r0(Fraction(1, 10)), rules.TAIL_POINTS
    last = r0 * Fraction(3, 2) ** (k - 1)
    assert out.range == (f"ε = 1/10: R = {float(r0):g} … {float(last):g} ({k} radii, up to {_digits(last, 20)} "
                         "digits)")
    corr = [e for e in out.evidence if e.quantity.startswith("1 − corr")]
    assert len(corr) == 1 and corr[0].residual is True and corr[0].rule.holds is True
    assert out.decision().verdict == "HOLDS"


def test_R0_uses_c_of_the_selected_alpha():
    """D-NB (γ = (1, 0.9, 0.18), v = (−0.18, 1), tokens (0, 1), (−5, 0), (−1, 0)), α = token 2 (0-based 1, locally
    optimal): c_α = 0.9 − 0.18 = 0.72 (opt's would be min(1 − 0.9, 1 − 0.18) = 0.1), B = ‖v‖·‖(5, 1)‖ = √(1.0324·26),
    T = 3: with ε = 1/2, R₀ = 2·log(3B/0.72) ≈ 6.14 rounded up is large enough (with opt's c it would be ≈ 10.1)."""
    B = mpmath.sqrt(mpmath.mpf("1.0324") * 26)
    r0 = _up4(2 * mpmath.log(3 * B / mpmath.mpf("0.72")))
    assert r0 < _up4(2 * mpmath.log(3 * B / mpmath.mpf("0.1")))
    out = _run(D.d_nb(), alpha=(1,), eps="1/2", R0=r0, max_rungs=1)
    assert [m for _, m in _hyps(out, "R₀ large")] == [True]


def test_r0_of_at_a_zero_log():
    """B·T/c = 1: log = 0 exactly, R₀ = 0 (not a rounding of 0)."""
    assert thm9.r0_of(Fraction(1), Fraction(1), thm9.to_arb(1), 1) == 0


def test_ladder_at_15_digits_decides_on_zero():
    """At 15 digits the last two radii's 1 − corr (below 10⁻²⁰ by R ≈ 57: spec, 2.7e−20 at R = 50) are balls around 0
    — no power law can be fitted to them, but they are zero to the working precision, which the rule accepts: the
    ladder still stops at TAIL_POINTS radii (not at `max_rungs` = 5) and the decay holds."""
    with working_precision(15) as prec:
        out = thm9.evaluate(D.d_lmm(), prec, eps="1/10", max_rungs=5, figure=False)
    assert f"({rules.TAIL_POINTS} radii" in out.range
    corr = [e for e in out.evidence if e.quantity.startswith("1 − corr")]
    assert len(corr) == 1 and corr[0].rule.holds is True and out.decision().verdict == "HOLDS"
