"""tfsvm.lemma3 (mutation tests): the helpers decided on small hand-made inputs (``feasible``: Σ r_k W_k − b ≥ −tol
with the sum from 0 and the boundary −tol included; ``member``: certified member when ‖W‖_⋆'s upper bound is within
tol·max(1, C_lo) of C_lo, certainly not when the lower bound is beyond it, undecided between; ``rank_le``: m ≥ d is
rank ≤ m outright, a rank-m truncation residual ≤ tol is True, else None; ``_rational``: denominators ≤ 10⁶), and
evaluate's ``part``/``require_rank`` options on D-NUC (which hypotheses, items and notes each value brings), the
candidates (polished solution, every face vertex, every midpoint, the rank-m point: all members, since 𝒲_cvx is
convex), the (1) residual's bound tol·max(1, C_cvx) (D-LMM: C_cvx = 1/√2 < 1, so the bound is tol itself) and the
undecided (2) hypothesis when no member of rank > m is found and m < min(n, d) (D-T2, m = 1).

D-NUC (spec §6): W₁₁ ≥ 1, W₂₂ ≥ 1 and ‖W‖_⋆ ≥ tr W ≥ 2, so 𝒲_cvx = {[[1, b], [b, 1]] : |b| ≤ 1}, C_cvx = 2; the
rank-1 members are b = ±1, every other member has rank 2."""
import math
import re
from fractions import Fraction as F
from types import SimpleNamespace

import numpy as np
from flint import arb, arb_mat

from lemmas.tfsvm import lemma3 as M
from verify.data import tfsvm as D
from verify.numbers.precision import working_precision

TOL = arb(2) ** -10  # an exact (dyadic) tolerance: boundaries are decided exactly
DIAG = SimpleNamespace(rows=[[1, 0, 0, 0], [0, 0, 0, 1]], rhs=[1, 1])  # W₁₁ ≥ 1, W₂₂ ≥ 1 (vec row-major)
FREE = SimpleNamespace(rows=[], rhs=[])                                # no constraint


def _m(rows):
    return arb_mat([[arb(x) if not isinstance(x, arb) else x for x in r] for r in rows])


# ----- helpers ------------------------------------------------------------------------------------------------
def test_feasible_sums_from_zero_and_keeps_the_boundary():
    assert M.feasible(DIAG, _m([[2, 0], [0, 1]]), TOL) is True
    assert M.feasible(DIAG, _m([[0, 0], [0, 0]]), TOL) is False            # −1 < −tol (not +b)
    assert M.feasible(DIAG, _m([["0.5", 0], [0, 1]]), TOL) is False        # 1/2 − 1 < −tol (the sum starts at 0)
    assert M.feasible(DIAG, _m([[1 - TOL, 0], [0, 2]]), TOL) is True       # exactly −tol: on the boundary, inside
    assert M.feasible(DIAG, _m([["0.25", 0], [0, 4]]), TOL) is False       # r·W, not r/W: 1/4 − 1 < 0


def test_member_true_false_and_undecided():
    """W = diag(w, 0): ‖W‖_⋆ = w. scale = max(1, C_lo)."""
    quarter, four = _m([["0.25", 0], [0, 0]]), _m([[2, 0], [0, 2]])
    assert M.member(DIAG, _m([[0, 0], [0, 0]]), arb(0), TOL)[0] is False            # infeasible
    assert M.member(FREE, quarter, arb("0.25") - TOL / 2, TOL)[0] is True           # gap tol/2 ≤ tol·1 (not tol·¼)
    assert M.member(FREE, quarter, arb("0.25") - 3 * TOL / 2, TOL)[0] is False      # gap 3tol/2 > tol·1 (and < 2tol)
    assert M.member(FREE, four, arb(4) - 2 * TOL, TOL)[0] is True                   # gap 2tol ≤ tol·4 (not tol/4)
    assert M.member(FREE, _m([[1, 0], [0, 1]]), arb(1), TOL)[0] is False            # ‖I‖_⋆ = 2, C_lo = 1
    straddle = arb(4) - 4 * TOL + arb(0, TOL / 2)                                    # gap ∈ [3.5, 4.5]·tol ∋ 4·tol
    assert M.member(FREE, four, straddle, TOL)[0] is None
    small = arb("0.25") - TOL + arb(0, TOL / 2)                                      # scale 1: gap ∋ tol
    assert M.member(FREE, quarter, small, TOL)[0] is None


def test_rank_le_outright_residual_and_undecided():
    full = _m([[1, 2], [3, 5]])
    assert M.rank_le(full, 2, arb(0)) is True                     # m ≥ d: no residual needed (tol 0)
    assert M.rank_le(full, 1, TOL) is False                        # a 2-minor ≠ 0
    assert M.rank_le(_m([[1, 2], [2, 4]]), 1, TOL) is True          # exactly rank 1
    fuzzy = _m([[1, 0], [0, arb("0.5", "0.5")]])                    # the minor contains 0; rank-1 residual ∈ [0, 1]
    assert M.rank_le(fuzzy, 1, arb("0.9")) is None                  # not certainly ≤ 0.9


def test_rational_denominators_up_to_a_million():
    got = M._rational(np.array([[math.pi, 0.5], [-math.e, 1.0]]))
    want = [F(math.pi).limit_denominator(10**6), F(-math.e).limit_denominator(10**6)]
    assert want[0] == F(3126535, 995207) and want[0].denominator <= 10**6
    assert got[0, 0].contains(arb(want[0].numerator) / want[0].denominator)
    assert got[1, 0].contains(arb(want[1].numerator) / want[1].denominator)
    assert not got[0, 0].contains(arb(F(math.pi).limit_denominator(11**6).numerator) /
                                  F(math.pi).limit_denominator(11**6).denominator)


# ----- evaluate's options ------------------------------------------------------------------------------------
# (no shared fixture: mutmut maps a mutant to the tests that call the function themselves)
OPTIONS = [("1", dict(part="1")), ("1-free", dict(part="1", require_rank=False)),
           ("2-free", dict(part="2", require_rank=False)), ("both", {}), ("both-free", dict(require_rank=False))]


def _nuc(keys):
    with working_precision(30) as prec:
        return {key: M.evaluate(D.d_nuc(), prec, m=1, **kw) for key, kw in OPTIONS if key in keys}


def _hyps(out):
    return [h.name[:3] for h in out.hypotheses[1:]]


def _items(out):
    return sorted({e.quantity[:3] for e in out.evidence if e.quantity.startswith("(")})


FREE_NOTE = "(2)'s rank hypothesis is NOT required (the false case)"


def test_part_and_require_rank():
    nuc = _nuc({k for k, _ in OPTIONS})
    assert _hyps(nuc["1"]) == ["(1)"] and _items(nuc["1"]) == ["(1)"] and FREE_NOTE not in nuc["1"].notes
    assert FREE_NOTE not in nuc["1-free"].notes
    assert _hyps(nuc["2-free"]) == [] and _items(nuc["2-free"]) == ["(2)"] and FREE_NOTE in nuc["2-free"].notes
    both = nuc["both"]
    assert _hyps(both) == ["(1)", "(2)"] and both.hypotheses[2].met is False
    assert both.decision().verdict == "NOT_APPLICABLE"
    free = nuc["both-free"]
    assert _hyps(free) == ["(1)"] and _items(free) == ["(1)", "(2)"] and FREE_NOTE in free.notes
    assert free.decision().verdict == "VIOLATED"


def test_candidates_all_members_and_the_part_1_items():
    out = _nuc({"1"})["1"]
    note = out.notes[0]
    V = len(re.findall(r"face vertex \d+ \(rationalised\) \(rank", note))
    assert V >= 2
    k = 1 + V + V * (V - 1) // 2 + 1  # polished, vertices, midpoints, rank-m point
    assert note.startswith(f"{k} candidates, {k} certified members")
    assert "the polished convex solution (rank ≤ 1: False)" in note  # I-like: rank 2
    assert "; rank-1 point (" in note and note.count("midpoint of face vertices") == V * (V - 1) // 2
    low = note.count("(rank ≤ 1: True)")
    res = [e for e in out.evidence if e.quantity.startswith("(1) C⋆ − C_cvx")][0]
    assert res.residual is True and res.relation == "<="
    c = [e for e in out.evidence if e.quantity.startswith("C_cvx")][0]
    assert abs(res.bound - arb(10) ** -30 * 2) < arb(10) ** -40 and abs(c.value - 2) < arb(10) ** -25
    sub = [e for e in out.evidence if e.quantity.startswith("(1) 𝒲_⋆ ⊆ 𝒲_cvx")][0]
    assert sub.coverage.points == low and sub.coverage.holds == low  # exactly the rank-≤1 members (all attain 2)


def test_residual_bound_is_tol_when_the_value_is_below_one():
    with working_precision(30) as prec:
        out = M.evaluate(D.d_lmm(), prec, part="1")
        c = [e for e in out.evidence if e.quantity.startswith("C_cvx")][0]
        assert abs(c.value - arb(2).sqrt() / 2) < arb(10) ** -12  # 1/√2 (the certificate's own width ~1e-15)
    res = [e for e in out.evidence if e.quantity.startswith("(1) C⋆ − C_cvx")][0]
    assert abs(res.bound - arb(10) ** -30) < arb(10) ** -45


def test_rank_hypothesis_undecided_without_a_high_rank_member():
    with working_precision(30) as prec:
        out = M.evaluate(D.d_t2(), prec, m=1)
    assert out.hypotheses[-1].name.startswith("(2)") and out.hypotheses[-1].met is None
    assert out.decision().verdict == "INCONCLUSIVE"
