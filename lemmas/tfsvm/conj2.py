"""tfsvm Conjecture 2 (v1 §5.2) — over-parameterisation: B.1 + Assumption D ⇒ GD converges to W^mm (empirical).

Claim (v1 §5.2, a conjecture the paper supports by experiments only). Let the optimal tokens be unique (strictly
highest scores), Assumption B.1 hold (every non-optimal token a support vector of W^mm: (x_{i,opt_i} − x_it)ᵀW^mm z_i
= 1) and Assumption D hold (for every feasible α ≠ opt some sequence i has α_i ≠ opt_i and opt_i ∈ 𝒯_i(α), the
support indices of W^mm_α, Def. 2). Then for almost all datasets W-GD with a proper constant step converges in
direction to W^mm: W(k)/‖W(k)‖_F → W^mm/‖W^mm‖_F. Kind ``empirical``: never certified.

Hypotheses (decided exactly on the rational data): Assumption A (logistic); unique optimal tokens; Att-SVM(opt)
feasible (verified certificate); B.1 on the exact W^mm; Assumption D by enumerating every α ∈ [T]ⁿ with its exact
Att-SVM answer (``verify.kit.tfsvm_assumptions``, the one-line detail names the α and the support sets that fail).
D implies that no α ≠ opt is locally optimal (opt_i is a support index with a higher score), so under D the
locally-optimal-ray ladder of Theorem 4 (``verify.kit.global_convergence``) has no ray to climb.

Protocol (the spec's evidence, §4 conj2, reproduced; "almost all datasets" as seeded trials): trials are datasets
``conj2_trial(seed)`` of ``verify.data.tfsvm`` (n = T = 3, d = 4, entries in ¼ℤ ∩ [−2, 2]) that meet B.1 + D — the
defaults are the first two such seeds (31, 94); any further trial is a dataset (``--data``). Per trial the starts
("from any W(0)", coverage search): W(0) = 0; ``random_starts`` seeded random starts with entries in
[−3, 3]·‖W^mm‖_F (the spec's scale 3); the rays of the ``alpha_starts`` feasible α ≠ opt whose W^mm_α is furthest
from W^mm (smallest correlation), at ‖W(0)‖_F ≈ 10‖W^mm_α‖_F — a start already selecting α ≠ opt with margins ≈ 10,
the hardest starts D leaves (every α ray when ``alpha_starts`` = −1); and along every locally-optimal ray Theorem 4's
ladder / trap certificate (``verify.kit.global_convergence.starts``: none under D). ``init`` replaces them by one given start (the
replay of a witness). Each start is followed by the arc-length gradient flow (GD's η → 0 limit, Radau IIA at the
working precision) stopped exactly at ‖W‖_F = σ·{2, 5, 10, …, ``depth``}, σ = ‖W^mm‖_F (``depth`` = 200 by default:
six legs above a random start, ≈ 10 s per trial with the recheck at 50 digits; the spec's runs went to ‖W‖ = 100).
More trials: ``[D.conj2_trial(s) for s in trial_seeds(k)]`` (each a dataset).

Deciding (per run, the plateau/decay rules of Theorem 4): 1 − corr(W, W^mm) → 0 (``rules.decays``, DERIVED rate 2:
a bounded transverse part; a plateau fails it), and at the end of every run each sequence selects its optimal token
— (x_{i,opt_i} − x_it)ᵀW z_i > 0 for every t ≠ opt_i (enclosures, a Tally over runs). A failing run names its start
exactly and the dataset options that replay it. Figure: log10(1 − corr(W, W^mm)) against ‖W‖_F for every run.

False cases (tests): D-T2 (B.1 holds, D fails at α = (1, 1): 𝒯_2 = ∅) → NOT_APPLICABLE naming Assumption D; with D
dropped (``require_d=False``, the documented option) the same data give VIOLATED: the locally-optimal ray start
3Ŵ^mm_α stays trapped (Theorem 4's certificate and the flow's plateau, lim 1 − corr = 1 − 1/√10) — D cannot be
dropped.
"""
from __future__ import annotations

import json
import math
from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Figure, Outcome, Series, Tally, register, rules
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.dynamics import CHECK_STEPS
from verify.errors import DataError
from verify.geometry.stationarity import gmm
from verify.kit.assumptions import assumption_a, svm_feasible, unique_optimal_tokens
from verify.kit.cone_checks import log10_series, plot_value
from verify.kit.global_convergence import THEORY_RATE, ladder, ladder_flow, starts, trap_items
from verify.kit.tfsvm_assumptions import assumption_b1, assumption_d
from verify.models.attention import features, norm2
from verify.numbers.precision import Precision, to_arb, to_decimal_string

CID = "tfsvm.conj2"
#: the first seeds of ``conj2_trial`` (n = T = 3, d = 4) meeting B.1 and D (seeds 0–199: 31, 94, 101, 119, 141, 173,
#: 176; 21 of the 200 meet B.1)
TRIAL_SEEDS = (31, 94)
#: ‖W(0)‖_F of a start on a non-locally-optimal α ray, in units of ‖W^mm_α‖_F (margins ≈ 10: α selected at e^-10)
ALPHA_SCALE = 10


def _ray(w, scale) -> tuple:
    """ρ·w with ρ rational, ‖ρw‖_F ≈ scale·‖w‖_F (the start is exact)."""
    rho = Fraction(scale).limit_denominator(1000)
    return rho, tuple(rho * x for x in w)


def _fnorm(w) -> float:
    return math.sqrt(sum(float(x) ** 2 for x in w))


def _label_alpha(alpha) -> str:
    return "(" + ", ".join(str(t + 1) for t in alpha) + ")"


def _short(label: str) -> str:
    """A start's label without its parenthesised details (keeps "α = (…)")."""
    head, _, rest = label.partition(" (")
    return head + (" (" + rest.split(")")[0] + ")" if head.endswith("α =") else "")


def _replay(W0) -> str:
    return json.dumps({"options": {CID: {"init": [str(x) for x in W0]}}}, ensure_ascii=False)


def alpha_ray_starts(sels, opt, q, lmm_alphas, count: int) -> list:
    """[(label, W(0), None)] on the rays of the feasible α ≠ opt that are not locally optimal, the ``count`` whose
    W^mm_α correlates least with W^mm first (floats only rank them; the start itself is exact). count < 0: all."""
    cand = []
    qf = [float(x) for x in q]
    for s in sels:
        if s.alpha == opt or s.feasible is not True or s.alpha in lmm_alphas:
            continue
        w = tuple(s.result.solution)
        c = sum(float(a) * b for a, b in zip(w, qf)) / (_fnorm(w) * _fnorm(q))
        cand.append((c, s.alpha, w))
    cand.sort(key=lambda x: x[0])
    out = []
    for c, alpha, w in cand if count < 0 else cand[:count]:
        rho, W0 = _ray(w, ALPHA_SCALE)
        out.append((f"W(0) = {rho}·W^mm_α, α = {_label_alpha(alpha)} (not locally optimal; corr(W^mm_α, W^mm) ≈ "
                    f"{c:.3f}, ‖W(0)‖_F ≈ {_fnorm(W0):.3g})", W0, None))
    return out


def _flow(data, W0, qa, lmm_arb, depth, dps, loss, max_steps=CHECK_STEPS):
    """The flow from W0 stopped at σ·r for the ladder radii r ≤ depth above ‖W0‖ (the kit's, as Theorems 4/5):
    [(‖W‖, 1 − corr to W^mm, [to each LMM], W)], status."""
    recs, status, _ = ladder_flow(data, W0, qa, lmm_arb, depth, dps, loss, max_steps)
    return recs, status


def _selects_opt(feats, opt, W, tally: Tally, label: str) -> None:
    """(x_{i,opt_i} − x_it)ᵀ W z_i > 0 for every i and t ≠ opt_i at the run's last point (enclosures)."""
    for i, (Fi, o) in enumerate(zip(feats, opt)):
        for t in range(len(Fi)):
            if t != o:
                m = sum((to_arb(a - b) * w for a, b, w in zip(Fi[o], Fi[t], W)), arb(0))
                tally.add(m, f"{label}: sequence {i + 1}, token {t + 1}")


def evaluate(data, prec: Precision, loss: str = "logistic", random_starts: int = 1, seed: int = 0,
             alpha_starts: int = 1, depth: int = 200, init=None, require_d: bool = True,
             max_steps: int = CHECK_STEPS) -> Outcome:
    """``require_d`` False drops Assumption D (the false case: D cannot be dropped); ``init`` one start (replay);
    ``max_steps`` each flow's step budget (exhausted: INCONCLUSIVE)."""
    out = Outcome(hypotheses=[assumption_a(loss, data), unique_optimal_tokens(data)])
    if not out.applicable():
        return out
    res = gmm(data, "W", prec.dps)
    out.hypotheses.append(svm_feasible(res, "Att-SVM(opt) feasible (W^mm exists)"))
    if not out.applicable():
        return out
    out.hypotheses.append(assumption_b1(res))
    hd, sels = assumption_d(data, prec.dps)
    if require_d:
        out.hypotheses.append(hd)
    else:
        out.notes.append(f"Assumption D not required (require_d=False): {'met' if hd.met else 'NOT met'} — {hd.detail}")
    if not out.applicable():
        return out
    q = tuple(res.solution)
    qa = [to_arb(x) for x in q]
    opt = tuple(o[0] for o in data.optimal_tokens())
    if init is not None:
        W0 = tuple(Fraction(x) for x in (init if isinstance(init, (list, tuple)) else [init]))
        if len(W0) != data.d ** 2:
            raise DataError(f"options[{CID!r}].init: {len(W0)} numbers, W(0) needs d² = {data.d ** 2}")
        pts, how = [("W(0) given (init)", W0, None)], "the given start"
    else:
        pts, how = starts(data, q, loss, prec.dps, random_starts, seed)
        lmm_alphas = {p[2][0] for p in pts if p[2] is not None}
        pts += alpha_ray_starts(sels, opt, q, lmm_alphas, alpha_starts)
    out.notes.append(f"starts: {len(pts)} ({how})")
    lmms = [p[2][1] for p in pts if p[2] is not None]
    lmm_arb = [[to_arb(x) for x in w] for w in lmms]
    feats = features(data, "W")
    selection = Tally("every run ends selecting opt: (x_{i,opt_i} − x_it)ᵀ W z_i > 0 for all i, t ≠ opt_i", ">", 0)
    series, bad, deepest, climbed = [], [], None, []
    for label, W0, info in pts:
        if info is not None and info[4]:  # a locally-optimal ray without certificate: Theorem 4's ladder (D dropped)
            flown = []
            rs, radii = ladder(out, data, info, lmms.index(info[1]), qa, lmm_arb, depth, prec.dps, loss, flown)
            series += rs
            climbed.append(f"α = {_label_alpha(info[0])} at ‖W(0)‖_F ≈ {', '.join(radii)}")
            bad += [f"{lab}: {st}" for lab, st, _ in flown if st != "reached"]
            for (R, rho, W), (lab, _, _) in zip(info[4], flown):
                out.notes.append(f"replay {lab}: {_replay(W)}")
            continue
        recs, status = _flow(data, W0, qa, lmm_arb, depth, prec.dps, loss, max_steps)
        if status != "reached":
            bad.append(f"{label}: {status}")
        if not recs:
            continue
        xs, ys = [r[0] for r in recs], [r[1] for r in recs]
        dec = rules.decays(xs, ys, expected=THEORY_RATE, zero=arb(10) ** -prec.dps)
        lm = "; ".join(f"to W^mm_α{k + 1}: {to_decimal_string(v, 3)}" for k, v in enumerate(recs[-1][2]))
        out.add(Evidence(f"gradient flow from {label}: 1 − corr(W, W^mm) → 0 (at ‖W‖_F = "
                         f"{to_decimal_string(xs[-1], 4)})", ys[-1], rule=dec, enclosed=False,
                         note="; ".join(x for x in (dec.detail, lm, "witness start, replay with the dataset plus "
                                                    + _replay(W0) if dec.holds is False else "") if x)))
        _selects_opt(feats, opt, recs[-1][3], selection, f"{label} at ‖W‖_F = {to_decimal_string(xs[-1], 4)}")
        deepest = xs[-1] if deepest is None or xs[-1] > deepest else deepest
        series.append(Series(f"from {_short(label)}", [plot_value(x) for x in xs], log10_series(ys), "-o"))
        if info is not None:
            trap_items(out, label, W0, info, [r[:3] for r in recs], lmms)
    out.add(selection.evidence())
    out.require(f"every flow reached ‖W‖_F = {depth}·‖W^mm‖_F", not bad, "; ".join(bad))
    out.show(Figure("omc", "Conjecture 2: 1 − corr(W, W^mm) along the gradient flow, every run", "‖W‖_F",
                    "log10(1 − corr(W, W^mm)) (working precision)", series, logx=True,
                    caption="Each start's arc-length gradient flow (GD's η → 0 limit); under B.1 + D every run "
                            "decays like ‖W‖^-2 (derived rate 2); a trapped run plateaus.") if series else None)
    sigma = float(norm2(qa).mid())
    out.range = (f"trial {data.name} (n = {data.n}, T = {data.T}, d = {data.d}); {len(pts)} starts; arc-length "
                 f"gradient flow to ‖W‖_F ≤ {to_decimal_string(deepest, 4) if deepest is not None else '—'} "
                 f"(≤ {depth}·‖W^mm‖_F, ‖W^mm‖_F = {sigma:.4g})"
                 + (f"; locally-optimal ray ladder {'; '.join(climbed)}" if climbed else ""))
    out.cover(f"W(0): {len(pts)} starts — " + "; ".join(_short(p[0]) for p in pts))
    out.cover("η: the gradient flow (GD's η → 0 limit)")
    return out


def trial_seeds(count: int, start: int = 0, stop: int = 1000, dps: int = 30) -> list[int]:
    """The first ``count`` seeds ≥ ``start`` whose ``conj2_trial`` meets the hypotheses (unique opt, W^mm, B.1, D):
    more trials than the defaults (``[D.conj2_trial(s) for s in trial_seeds(4)]``, each a dataset)."""
    from verify.numbers.precision import working_precision

    found = []
    for s in range(start, stop):
        data = D.conj2_trial(s)
        if not unique_optimal_tokens(data).met:
            continue
        with working_precision(dps):
            res = gmm(data, "W", dps)
            if not (svm_feasible(res, "W^mm").met and assumption_b1(res).met and assumption_d(data, dps)[0].met):
                continue
        found.append(s)
        if len(found) == count:
            break
    return found


def default_datasets(seed: int = 0):
    return [D.conj2_trial(s) for s in TRIAL_SEEDS]


STATEMENT = """\
Unique optimal tokens with strictly highest scores, Assumption B.1 (every non-optimal token a support vector of W^mm)
and Assumption D (every feasible α ≠ opt has a deviating sequence whose optimal token is a support index of W^mm_α)
⇒ for almost all datasets W-GD with a proper constant step converges in direction to W^mm (v1 §5.2, conjecture).
Empirical: evidence over seeded trials (n = T = 3, d = 4) meeting B.1 + D, every start's gradient flow deciding by
the decay rule; never certified. D cannot be dropped: D-T2 (B.1 holds, D fails) keeps a locally-optimal run trapped.
"""

CLAIM = register(Claim(id=CID, paper="tfsvm", number="Conjecture 2", kind="empirical",
                       title="Over-parameterisation conjecture: B.1 + Assumption D ⇒ GD converges in direction to W^mm",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("overparam-global-conjecture",),
                       parameters=(
                           Parameter("W(0)", "GD from any W(0)", "search",
                                     "W(0) = 0, `random_starts` seeded starts (entries in [−3, 3]·‖W^mm‖_F), the "
                                     "`alpha_starts` feasible α ≠ opt rays furthest from W^mm at 10‖W^mm_α‖_F, and "
                                     "Theorem 4's locally-optimal-ray ladder/trap (empty under D); `init` replays one "
                                     "start (named in the range)", option="init", kind="rationals"),
                           Parameter("η", "a proper constant step size", "range",
                                     "the arc-length gradient flow, GD's η → 0 limit (named in the verdict), at most "
                                     "`max_steps` (1000) integrator steps per start"),
                           Parameter("dataset", "for almost all datasets meeting B.1 + D", "range",
                                     "seeded trials conj2_trial(seed) meeting B.1 + D (seeds 31, 94 by default; any "
                                     "dataset with --data), named in the range")),
                       default_precision=30))  # flows at 30 digits + the recheck at 50 (≈ 10 s per trial)
