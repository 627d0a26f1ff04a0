"""Claim-kit piece: "α locally optimal ⇔ W^mm_α lies in the separating cone cone_ε(α)" — the conclusion of tfsvm
Lemma 5 (single query, Att-SVM) and Lemma 16 (sequence-to-sequence, SAtt-SVM), decided exactly over the selections.

For every selection α enumerated (``verify.geometry.separating_cone.selections``: all of [T]ⁿ, resp. [T]^{nT} — the
product of the causal windows on a causal dataset — up to ``ENUMERATION_LIMIT``), the SVM is solved exactly (feasible with a passed optimality certificate, infeasible
with a verified Farkas certificate), the support indices 𝒯 and local optimality are read off the rational
solution, and κ(α) = κ(W^mm_α)/‖W^mm_α‖_F — the largest ε with W^mm_α ∈ cone_ε(α) — is computed (its sign
exactly). Then
  (a) α locally optimal ⇒ W^mm_α ∈ cone_ε(α) for all small ε > 0   ⇔  κ(α) > 0  (ε₀ = κ(α));
  (b) α not locally optimal ⇒ W^mm_α ∉ cone_ε(α) for every ε > 0  ⇔  κ(α) ≤ 0  (the hardest ε is ε → 0⁺);
  (c) opt unique ⇒ cone_ε(opt) = all matrices  ⇔  high(opt) = ∅ in every row set (the defining inequality is
      then +∞ ≥ ε‖W‖_F for every W).
(a) and (b) are exact Tallies over the selections (one point per α; an α without a certified SVM answer is an
undecided point); (c) an exact item. Lemma 16 on a causal dataset takes every row set inside its window
(query k sees t ≤ k) and on a dataset with per-query labels ``Yq`` the per-query scores γ_ikt = Y_ik vᵀx_it; Lemma 5
(single query) is NOT_APPLICABLE on such a dataset (``single_query_hypothesis``). Informative: how many selections are feasible / locally optimal, the
locally-optimal α with a row set whose 𝒯 is empty (the spec's mechanism behind the flaw of (a)), κ(α) per α.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Evidence, Figure, Hypothesis, Outcome, Series, Tally
from verify.claims.registry import Parameter
from verify.geometry.separating_cone import (
    ENUMERATION_LIMIT,
    NEG_INF,
    POS_INF,
    optimal_selection,
    row_sets,
    selection,
    selection_count,
    selections,
)
from verify.numbers.precision import to_arb, to_decimal_string

ALPHA_PARAMETER = Parameter("α", "every α ∈ [T]ⁿ (Lemma 16: every α ∈ [T]^{n×T}, each α_ik in query k's causal window on "
                            "a causal dataset) with a feasible SVM", "hardest",
                            f"exhaustive: every selection enumerated and its SVM solved exactly (at most "
                            f"{ENUMERATION_LIMIT}: beyond that the first ones, opt first, named in the verdict); "
                            "`alpha` checks one", option=None)
EPS_PARAMETER = Parameter("ε", "(a) for all small ε > 0; (b) for every ε > 0", "hardest",
                          "decided through κ(α) = κ(W^mm_α)/‖W^mm_α‖_F exactly: W^mm_α ∈ cone_ε(α) ⇔ ε ≤ κ(α), so (a) "
                          "⇔ κ(α) > 0 (ε₀ = κ(α)) and (b) ⇔ κ(α) ≤ 0 (its hardest case ε → 0⁺)")
W_PARAMETER = Parameter("W", "(c) every matrix W (rank ≤ m, m = d)", "hardest",
                        "high(opt) = ∅ in every row set makes the defining inequality +∞ ≥ ε‖W‖_F for every W; "
                        "decided exactly")


def _kappa_text(sel) -> str:
    k = sel.kappa
    return k if isinstance(k, str) else to_decimal_string(k, 6)


def single_query_hypothesis(data) -> Hypothesis:
    """Single-query attention (Att-SVM: one query z_i per sequence) — not met by a dataset flagged causal or with
    per-query labels ``Yq`` (those are sequence-to-sequence data: Lemma 16 / Theorem 10)."""
    flags = [f for f, on in (("causal", data.causal), ("per-query labels Yq", data.Yq is not None)) if on]
    return Hypothesis("single-query attention data (one query z_i per sequence)", not flags,
                      f"the dataset is sequence-to-sequence ({', '.join(flags)})" if flags else "no causal flag, no Yq")


def attention_of_lemma(data, seq2seq: bool) -> str:
    """"single" for Lemma 5; "causal" (a causal dataset) or "seq2seq" for Lemma 16."""
    return ("causal" if data.causal else "seq2seq") if seq2seq else "single"


def lmm_cone_outcome(data, prec, seq2seq: bool = False, alpha=None, limit: int = ENUMERATION_LIMIT,
                     figure: bool = True) -> Outcome:
    """Lemma 5 (``seq2seq=False``) / Lemma 16 (``seq2seq=True``; causal windows on a causal dataset) on ``data``;
    ``alpha``: check that selection only."""
    svm = "SAtt-SVM" if seq2seq else "Att-SVM"
    attention = attention_of_lemma(data, seq2seq)
    if not seq2seq:
        single = single_query_hypothesis(data)
        if not single.met:
            return Outcome(hypotheses=[single])
    if alpha is not None:
        sels = [selection(data, alpha, attention, prec.dps)]
        s = sels[0]
        hyp = Hypothesis(f"{svm}({s.label[4:]}) feasible (W^mm_α exists)", s.feasible, s.reason or "certified optimum")
        total = 1
    else:
        todo = selections(data, attention, limit)
        sels = [selection(data, a, attention, prec.dps) for a in todo]
        total = selection_count(data, attention)
        feasible = [s for s in sels if s.feasible is True]
        undecided = [s for s in sels if s.feasible is None]
        hyp = Hypothesis(f"some {svm}(α) feasible (W^mm_α exists for at least one α)",
                         True if feasible else None if undecided else False,
                         f"{len(feasible)} of {len(sels)} selections certified feasible, {len(undecided)} undecided")
    out = Outcome(hypotheses=[hyp])
    if not out.applicable():
        return out
    part_a = Tally("(a) α locally optimal ⇒ κ(α) > 0, i.e. W^mm_α ∈ cone_ε(α) for every ε ≤ κ(α) (exact sign)", "==",
                   True)
    part_b = Tally("(b) α not locally optimal ⇒ κ(α) ≤ 0, i.e. W^mm_α ∉ cone_ε(α) for every ε > 0 (exact sign)", "==",
                   True)
    empty = []
    unsure = [s.label for s in sels if s.feasible is None]
    out.require(f"a certified answer of {svm}(α) for every selection checked", not unsure,
                f"no certified answer for {', '.join(unsure)}" if unsure else f"{len(sels)} selections")
    for s in sels:
        if s.feasible is not True:
            continue
        sign = s.sep.sign()
        where = f"{s.label}: κ = {_kappa_text(s)} ({s.sep.where})"
        if s.locally_optimal:
            part_a.add(sign == 1, where)
            if s.empty_support():
                empty.append(f"{s.label} ({', '.join(rs.label for rs in s.empty_support())}: 𝒯 = ∅; κ = {_kappa_text(s)})")
        else:
            part_b.add(sign is not None and sign <= 0, where + f"; not locally optimal: {s.reason}")
    if part_a.coverage.points:
        out.add(part_a.evidence())
    else:
        out.notes.append("(a): no locally-optimal selection among those checked")
    if part_b.coverage.points:
        out.add(part_b.evidence())
    else:
        out.notes.append("(b): every feasible selection checked is locally optimal")
    opt = optimal_selection(data, attention)
    if opt is not None:
        sets = row_sets(data, opt, attention)
        nonempty = [rs.label for rs in sets if rs.high]
        out.add(Evidence("(c) opt unique ⇒ cone_ε(opt) = all matrices: high(opt) = ∅ in every row set", not nonempty, "==",
                         True, note="; ".join(nonempty) or f"{len(sets)} row sets"))
    else:
        out.notes.append("(c) not checked: the optimal tokens are tied (its hypothesis 'opt unique' does not hold)")
    lmm = [s for s in sels if s.feasible is True and s.locally_optimal]
    out.add(Evidence("locally-optimal α with a row set whose support 𝒯 is empty (the proof's tacit 𝒯 ≠ ∅; "
                     "informative)", len(empty), note="; ".join(empty) or f"none of {len(lmm)}"))
    others = [s for s in sels if s.feasible is True and not s.locally_optimal]
    counts = {k: sum(1 for s in others if _kappa_text(s) == k) for k in (NEG_INF, "0")}
    out.notes.append("κ(α) of the locally-optimal α: " + ("; ".join(f"{s.label} {_kappa_text(s)}" for s in lmm) or "none")
                     + f"; of the {len(others)} other feasible α: {counts[NEG_INF]} are {NEG_INF}, {counts['0']} are 0"
                     + (", the rest " + ", ".join(f"{s.label} {_kappa_text(s)}" for s in others
                                                  if _kappa_text(s) not in (NEG_INF, "0")) if len(others) > sum(counts.values())
                        else ""))
    if alpha is not None:
        out.cover(f"α: the one selection {sels[0].label}")
    elif len(sels) < total:
        out.cover(f"α: the first {len(sels)} of the {total} selections (opt first, then product order)")
    else:
        space = {"single": "[T]^n", "seq2seq": "[T]^{nT}", "causal": "the causal windows ((T!)^n)"}[attention]
        out.cover(f"α: all {total} selections of {space} "
                  f"({sum(1 for s in sels if s.feasible is True)} feasible, {len(lmm)} locally optimal)")
    if figure:
        out.show(kappa_figure(sels, seq2seq))
    return out


def kappa_figure(sels, seq2seq: bool):
    """κ(α) against the index of α (feasible selections only); ±∞ values are listed in the caption, not drawn."""
    pts = {True: ([], []), False: ([], [])}
    inf = []
    for k, s in enumerate(sels, start=1):
        if s.feasible is not True:
            continue
        kap = s.kappa
        if isinstance(kap, str):
            inf.append(f"{s.label} {kap}")
            continue
        xs, ys = pts[bool(s.locally_optimal)]
        xs.append(k)
        ys.append(float(kap.mid()))
    if not (pts[True][0] or pts[False][0]):  # nothing finite to draw (the ±∞ values are in the notes)
        return None
    series = [Series(lab, *pts[key], style="o") for key, lab in ((True, "locally optimal"), (False, "not locally optimal"))
              if pts[key][0]]
    return Figure("kappa", f"Lemma {'16' if seq2seq else '5'}: κ(α) = largest ε with W^mm_α ∈ cone_ε(α)",
                  "selection α (index in the enumeration)", "κ(α)", series, hlines=[(0, "κ = 0")],
                  caption=("infinite values (not drawn): " + "; ".join(inf)) if inf else "")


def head_spread(data) -> arb:
    """B = max_{i,t,τ} ‖v‖‖x_it − x_iτ‖ (a ball): the constant of the proof's R₀ = (1/ε) log(B·T/c_α) (Theorems 9, 10)."""
    v2 = sum((Fraction(x) ** 2 for x in data.v), Fraction(0))
    d2 = max(sum(((Fraction(a) - Fraction(b)) ** 2 for a, b in zip(x, y)), Fraction(0))
             for seq in data.X for x in seq for y in seq)
    return to_arb(v2 * d2).sqrt()


def cone_path_requirements(out, pts, what: str, prec) -> None:
    """The optimisation checks of a separating-cone path (``verify.dynamics.separating_rp``, Theorems 9 and 10) as
    requirements of the check, at every radius: the value found no worse than the candidate R·Ŵ^mm_α (certainly, or
    equal to the tolerance); first-order KKT on the sphere (Riemannian gradient and negative multipliers of the
    active cone constraints ≤ 10^(−dps/4)); the minimiser on the sphere ‖W‖ = R (⟨∇L, W̄_R⟩ < 0 certain: the cone is
    homogeneous, so that makes it the ball's minimiser). ``what`` names the path (e.g. "ε = 1/10")."""
    tol = arb(10) ** (-(prec.dps // 4))

    def no_worse(p):
        if p.f <= p.candidate_f:
            return True
        return True if abs(p.f - p.candidate_f) <= prec.tolerance else False if p.f > p.candidate_f else None

    worse = [float(p.R.mid()) for p in pts if no_worse(p) is not True]
    out.require(f"({what}) the cone search found L ≤ L(R·Ŵ^mm_α) at every R", not worse,
                f"not certified at R = {worse}" if worse else f"{len(pts)} radii, {pts[0].starts} starts each",
                invalidates=True)  # the sphere searches must have found the path for its direction to count
    bad = [float(p.R.mid()) for p in pts if not (p.riemannian_gradient <= tol)
           or (p.min_multiplier is not None and not (p.min_multiplier >= -tol))]
    out.require(f"({what}) first-order KKT on the sphere at every R (Riemannian gradient and negative multipliers "
                "≤ 10^(−dps/4))", not bad, f"not met at R = {bad}" if bad else "", invalidates=True)
    inward = [float(p.R.mid()) for p in pts if not (p.radial < 0)]
    out.require(f"({what}) the minimiser is on the sphere ‖W‖ = R (⟨∇L, W̄_R⟩ < 0)", not inward,
                f"not certain at R = {inward}" if inward else "", invalidates=True)


__all__ = ["lmm_cone_outcome", "kappa_figure", "single_query_hypothesis", "attention_of_lemma", "cone_path_requirements",
           "head_spread", "ALPHA_PARAMETER",
           "EPS_PARAMETER", "W_PARAMETER", "POS_INF", "NEG_INF"]
