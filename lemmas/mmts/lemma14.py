"""mmts Lemma 14 — linear label mixing implies Assumption D (App. D.2, (85)).

Statement (RECALLED shape; explicit constants DERIVED, spec §4 part C). Under Assumption A, if for every i and p the
label-aligned output mixes linearly,

    Y_i f_p(X_i) = γ⋆_i − Σ_{t∈Ō_i} s_it(p)·c_it(p),   c_it(p) ∈ [c_min, c_max],  c_min > 0            (85)

then Assumption D holds. Explicitly (Taylor with integral remainder; ℓ'_min = min_{|u|≤B}|ℓ'(u)|, ℓ'_max =
max_{|u|≤B}|ℓ'(u)|, L⋆ = (1/n) Σ ℓ(γ⋆_i), q_max = max_i Σ_{t∈Ō_i} s_it):

    (ℓ'_min c_min / n)·q_max ≤ L(p) − L⋆ ≤ ℓ'_max c_max·q_max,

hence Assumption D with ε_μ = (ℓ'_min c_min / (n ℓ'_max c_max))^{1/μ}: for q^p ≤ ε_μ and q^{p'} ≤ (q^p)^{1+μ},
L(p') − L⋆ ≤ ℓ'_max c_max (q^p)^{1+μ} ≤ (ℓ'_min c_min/n) q^p ≤ L(p) − L⋆.

Setting checked: the linear head (the paper's model), logistic loss. O_i = argmax_t γ_it (``optimal="argmax"``, ties
kept inside O_i: the optimal tokens share γ⋆_i) or the paper's singleton {opt_i} (``optimal="first"``: the first
maximiser). Then (85) holds exactly with c_it = γ⋆_i − γ_it (constant in p), so c_min, c_max are the exact extreme
gaps over t ∈ Ō_i; the hypothesis c_min > 0 is decided exactly. For the logistic loss |ℓ'(u)| = 1/(1 + e^u) is
decreasing, so ℓ'_min = 1/(1 + e^B), ℓ'_max = 1/(1 + e^{−B}), B = max |γ_it| (the Taylor points γ⋆ and γ⋆ − δ lie in
[−B, B]).

How it is checked (certified at the probe points). At every probe point of ``verify.geometry.probes`` (0, seeded
directions and ± key differences at ‖p‖∞ up to 1000, tie points): L − L⋆ = (1/n) Σ_i [ℓ(γ⋆_i − δ_i) − ℓ(γ⋆_i)] from
δ_i = Σ_{t∈Ō_i} s_it c_it through the loss's cancellation-free ``excess`` (log1p/expm1), q_i = Σ_{t∈Ō_i} s_it summed
directly; two tallies: (L − L⋆) − lower ≥ 0 and (L − L⋆)/upper ≤ 1. The lower side is tight to relative O(δ)
(δ ≈ e^{−‖p‖·gap}) where γ⋆ = B and one token mixes, so at deep points the difference is below any precision; there
it is decided through a certified second-order margin (``_second_order_margin``: elementary inequalities for
expm1/log1p plus exact termwise facts), counted in the note. Then the Assumption-D implication
for μ ∈ {1/2, 1, 2}: every ordered pair of probe points with q^p ≤ ε_μ and q^{p'} ≤ (q^p)^{1+μ} (both certain)
must have L(p') < L(p) (a tally over the pairs; zero admissible pairs would be INCONCLUSIVE).

False cases (tests): the tie example with O = {opt} (``optimal="first"``): a non-optimal token has the optimal score,
c_min = 0 → NOT_APPLICABLE naming (85); with the hypothesis dropped (``drop_hypothesis=True``: c_min read as the
smallest positive gap, the natural misreading) the lower bound fails where the attention sits on the tied token
(q ≈ 1 while L − L⋆ ≈ 0) → VIOLATED, and so does the Assumption-D implication.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Hypothesis, Outcome, Tally, register
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.geometry.probes import probe_points
from verify.kit.assumptions import assumption_a, score_bound
from verify.kit.probe_inequality import ProbeInequality, point_label
from verify.models.attention import LinearLogitModel, features
from verify.models.losses import get_loss
from verify.numbers.precision import Precision, to_arb
from verify.svm.prime import solve_att_svm_prime

MUS = (Fraction(1, 2), Fraction(1), Fraction(2))
RAY_SCALES = (1, 3, 10, 30, 100, 1000)
MIXING = "linear label mixing (85): Y_i f_p(X_i) = γ⋆_i − Σ_{t∈Ō_i} s_it c_it, c_it ∈ [c_min, c_max], c_min > 0"


def _mass_and_excess(model, loss, data, sets, gstar, p):
    """(q_max, Σ_i q_i, L − L⋆, [δ_i]) at p (L − L⋆ cancellation-free from δ_i = Σ_{t∈Ō_i} s_it c_it)."""
    states = model.states([to_arb(x) for x in p])
    qs = [sum((st.s[t] for t in range(data.T) if t not in O), arb(0)) for st, O in zip(states, sets)]
    q = qs[0]
    for x in qs[1:]:
        q = q.max(x)
    ds = [sum((st.s[t] * to_arb(gs - g[t]) for t in range(data.T) if t not in O), arb(0))
          for st, O, g, gs in zip(states, sets, data.scores, gstar)]
    E = sum((loss.excess(to_arb(gs), dl) for gs, dl in zip(gstar, ds)), arb(0)) / data.n
    return q, sum(qs, arb(0)), E, ds


def _second_order_margin(gstar, ds, n):
    """A certified lower bound on (L − L⋆) − (ℓ'_min c_min/n)·q_max where the direct difference is below the
    precision (the lower side is tight to relative O(δ) where γ⋆ = B and one token mixes). With a_i = 1/(1+e^{γ⋆_i})
    (logistic: E_i = log1p(a_i·expm1 δ_i)), expm1 δ ≥ δ + δ²/2 and log1p x ≥ x − x²/2 (increasing for x ≤ 1) give
    E_i ≥ a_iδ_i + (a_iδ_i²/2)(1 − a_i(1 + δ_i/2)²) when a_i·expm1 δ_i ≤ 1; and, termwise and exactly,
    a_i ≥ ℓ'_min (γ⋆_i ≤ B), δ_i = Σ s_it c_it ≥ c_min q_i (c_it ≥ c_min), Σ_i q_i ≥ q_max. So the difference is
    ≥ (1/n)Σ_i (a_iδ_i²/2)(1 − a_i(1 + δ_i/2)²) (+ (ℓ'_min c_min/n)(Σq_i − q_max) ≥ 0, dropped). None when a
    condition is not certain."""
    total = arb(0)
    for gs, dl in zip(gstar, ds):
        a = 1 / (1 + to_arb(gs).exp())
        if not (a * dl.expm1() <= 1):
            return None
        total += a * dl * dl / 2 * (1 - a * (1 + dl / 2) ** 2)
    margin = total / n
    return margin if margin > 0 else None


def optimal_sets(data, optimal: str):
    sets = []
    for g in data.scores:
        top = [t for t, x in enumerate(g) if x == max(g)]
        sets.append(tuple(top) if optimal == "argmax" else (top[0],))
    return tuple(sets)


def evaluate(data, prec: Precision, optimal: str = "argmax", mus=MUS, drop_hypothesis: bool = False) -> Outcome:
    sets = optimal_sets(data, optimal)
    gstar = [max(g) for g in data.scores]
    gaps = [gs - g[t] for g, gs, O in zip(data.scores, gstar, sets) for t in range(len(g)) if t not in O]
    hyps = [assumption_a("logistic", data)]
    if getattr(data, "head", None) is not None and data.head[0] != "linear":
        hyps.append(Hypothesis("the linear head f(X) = vᵀXᵀS(XWp) (the setting checked)", False,
                               f"the dataset's head is {data.head[0]!r}"))
    if not gaps:
        hyps.append(Hypothesis(MIXING, False, "every O_i = [T]: no non-optimal token"))
        return Outcome(hypotheses=hyps)
    c_min, c_max = min(gaps), max(gaps)
    hyps.append(Hypothesis(MIXING, c_min > 0, f"c_it = γ⋆_i − γ_it over t ∈ Ō_i, O = {[list(O) for O in sets]}: "
                                              f"c_min = {c_min}, c_max = {c_max} (exact)"))
    out = Outcome(hypotheses=hyps)
    if drop_hypothesis:
        out.hypotheses = [h for h in hyps if h.name != MIXING]
        c_min = min(x for x in gaps if x > 0)
        out.notes.append(f"hypothesis (85) c_min > 0 DROPPED (false case): c_min read as the smallest positive gap "
                         f"{c_min}")
    if not out.applicable():
        return out
    loss = get_loss("logistic")
    B = to_arb(score_bound(data))
    lp_min, lp_max = 1 / (1 + B.exp()), 1 / (1 + (-B).exp())
    n = data.n
    a_lo = lp_min * to_arb(c_min) / n
    a_hi = lp_max * to_arb(c_max)
    model = LinearLogitModel(features(data, "p"), data.scores, "logistic")
    lower = Tally("(L − L⋆) − (ℓ'_min c_min/n)·q_max ≥ 0 at the probe points (directly, or through the certified "
                  "second-order margin where the difference is below the working precision)", ">=", 0)
    upper = ProbeInequality("(L − L⋆) / (ℓ'_max c_max·q_max) ≤ 1 at the probe points", "<=", 1)
    pts = probe_points(data.keys(), [[O[0]] for O in sets])
    prime = solve_att_svm_prime(data, sets, prec.dps)
    if prime.status == "optimal":  # rays along P^mm saturate every input at once (pairs for the implication)
        pts += [tuple(Fraction(sc) * x for x in sol) for sol in prime.solutions for sc in RAY_SCALES]
    vals, by_margin = [], 0
    for p in pts:
        where = point_label(p)
        q, _, E, ds = _mass_and_excess(model, loss, data, sets, gstar, p)
        gap = E - a_lo * q
        if not (gap >= 0 or gap < 0):
            margin = _second_order_margin(gstar, ds, data.n)
            if margin is not None:
                gap, by_margin = margin, by_margin + 1
        lower.add(gap, where)
        upper.add_ratio(E, a_hi * q, where)
        vals.append((q, E, where))
    out.add(lower.evidence(note=f"ℓ'_min = 1/(1+e^B) = {lp_min.mid().str(6, radius=False)}, c_min = {c_min}, n = {n}; "
                                f"{by_margin} point(s) decided through the second-order margin"))
    out.add(upper.evidence(note=f"ℓ'_max = 1/(1+e^(−B)) = {lp_max.mid().str(6, radius=False)}, c_max = {c_max}"))
    for mu in mus:
        eps = (a_lo / a_hi) ** (1 / to_arb(Fraction(mu)))
        imp = Tally(f"Assumption D (μ = {mu}): L(p') < L(p) for q^p ≤ ε_μ = {eps.mid().str(4, radius=False)}, "
                    f"q^(p') ≤ (q^p)^(1+μ), over ordered pairs of probe points", "<", 0)
        for q, E, w in vals:
            if not (q <= eps and q > 0):
                continue
            qq = q ** (1 + to_arb(Fraction(mu)))
            for q2, E2, w2 in vals:
                if q2 <= qq:
                    imp.add(E2 - E, f"p = {w}, p' = {w2}")
        out.add(imp.evidence())
    out.cover(f"{len(pts)} probe points (0, seeded directions and ± key differences at ‖p‖∞ ≤ 1000, tie points, "
              f"R·p^mm for R ∈ {{{', '.join(str(r) for r in RAY_SCALES)}}}); "
              f"μ ∈ {{{', '.join(str(m) for m in mus)}}} with the pairs of probe points admissible for each")
    return out


def check(data, prec: Precision) -> Outcome:
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [D.mmts_fig1a(), D.mmts_fig1b(), D.mmts_fig1c(), D.mmts_tie(), D.mmts_fig8_substitute()]


STATEMENT = """\
Linear label mixing (85) — Y_i f_p(X_i) = γ⋆_i − Σ_{t∈Ō_i} s_it c_it with c_it ∈ [c_min, c_max], c_min > 0 — implies
Assumption D; explicitly (ℓ'_min c_min/n)·q_max ≤ L(p) − L⋆ ≤ ℓ'_max c_max·q_max and ε_μ = (ℓ'_min c_min/(n ℓ'_max
c_max))^{1/μ} (App. D.2; constants derived).

Certified at the probe points: both sides of the sandwich, and L(p') < L(p) on the admissible pairs for μ ∈ {1/2, 1, 2}.
"""

CLAIM = register(Claim(id="mmts.lemma14", paper="mmts", number="Lemma 14", kind="inequality",
                       title="Linear label mixing implies Assumption D (explicit two-sided bound)", statement=STATEMENT,
                       check=check, default_datasets=default_datasets, aliases=("linear-label-mixing",),
                       parameters=(
                           Parameter("p", "every p ∈ ℝ^d", "range",
                                     "the probe points (0, seeded directions and ± key differences at ‖p‖∞ ≤ 1000, "
                                     "tie points, R·p^mm for R up to 1000)"),
                           Parameter("μ", "every μ > 0 (Assumption D)", "range", "μ ∈ {1/2, 1, 2}"),
                           Parameter("p, p'", "every pair with q^p ≤ ε_μ, q^(p') ≤ (q^p)^(1+μ)", "range",
                                     "the ordered pairs of probe points admissible for each μ"))))
