"""tfsvm Theorem 10 — local regularisation path of sequence-to-sequence attention (v1 App D.2).

Statement. Let (SAtt-SVM) be feasible for α (α_ik: the token query k of sequence i selects), α locally optimal
(Def 4), Assumptions A and E hold, ε > 0 small and R₀ = O(1/ε) large. The conic path
    W̄(R) ∈ argmin{L_seq(W) : W ∈ cone_ε(α) ∩ {‖W‖_⋄ ≥ R₀}, ‖W‖_⋄ ≤ R}
satisfies lim_R dist(W̄(R)/(RΞ), 𝒲^mm_α) = 0, Ξ = 1/‖W^mm_α‖_⋄. For α = opt (unique) cone_ε(opt) is every matrix.
L_seq(W) = (1/n) Σ_i Σ_k ℓ(Y_ik vᵀ X_iᵀ S(X_i W x_ik)) (self-attention queries z_ik = x_ik, per-query labels Y_ik,
sum over k: v1 App D; ``verify.models.seq2seq``); cone_ε(α) = {W : min_ik max_{t∈low} min_{τ∈high}
(x_it − x_iτ)ᵀ W x_ik ≥ ε‖W‖_F} (Def 5). Causal attention (v1 §7 formulates it, no theorem): query k sees t ≤ k —
the softmax, the SVM constraints (t ≤ k, α_ik ≤ k) and the low/high sets alike; causal query 0 has no constraint.

Hypotheses (decided exactly on the data, per α): Assumption A (logistic); SAtt-SVM(α) feasible (exact certificate,
else an exact Farkas certificate); α locally optimal (Def 4: γ_ikα > γ_ikt for every support index t, margins exact);
Assumption E at α (exact for linear and concave heads, ``verify.geometry.separating_cone.assumption_e``); cone_ε(α)
non-empty (Lemma 16: a deviating query with no low-score token makes it empty — the statement is then vacuous);
"ε small": W^mm_α ∈ cone_ε(α), i.e. ε < κ̂(α) = κ(W^mm_α)/‖W^mm_α‖_F (exact κ).
Constants. ε = κ̂(α)/2 (rounded down to 3 digits; option ``eps``); R₀ = max(1, (1/ε) log(B·T/c_α)) (the proof's R₀, B =
max_{i,t,τ} ‖v‖‖x_it − x_iτ‖, c_α of Assumption E; rounded up); for α = opt (no ε: the cone is every matrix) the same R₀
at the SVM direction's margin per unit norm, R₀ = ‖W^mm‖_F·max(1, ln(B·T/min(c, 1))) (3 digits, rounded up;
``verify.kit.seq2seq.path_r0``, shared with Corollaries 1–2), so the ladder scales with the data (tokens at 10⁻³: W^mm ~
10⁶, logits R·10⁻⁶). A plateau is read only where the rule's last radii are ≥ R₀ (``rules.in_regime``; else
INCONCLUSIVE, a requirement) — on the default ladders always: R₀·(1, 2, 4, 8, 16) for α ≠ opt, and for α = opt (the
global path) Corollaries 1–2's R₀·(1, 3, 10, 30, 100) (on s2s_labels the distance rises up to R ≈ 7.5 ≈ 3R₀ before it
decays; option ``factors`` sets one ladder for every α).
How it is checked (asymptotic: evidence over the radii computed, Frobenius ⋄). The geometry (row sets per query,
causal windows, per-query scores, κ, support indices, Def 4) is the one engine of Lemmas 5/16 and Theorem 9,
``verify.geometry.separating_cone``; the conic path is Theorem 9's, ``verify.dynamics.separating_rp`` (attention
"seq2seq" / "causal": the model L_seq with its mask): on each sphere ‖W‖_F = R an active-set Riemannian Newton on
log(L − L⋆) inside the union of polyhedra cone_ε(α), from R·Ŵ^mm_α, the previous optimum and seeded points of the
cone, at dps + ⌈R·B_z/ln 10⌉ digits for α ≠ opt (spec §6 trap 5; dps for α = opt, whose L − L⋆ is computed
cancellation-free). Requirements at every radius (``verify.kit.separating.cone_path_requirements``): no worse than
R·Ŵ^mm_α, first-order KKT on the sphere, ⟨∇L, W̄⟩ < 0 (so the sphere's minimiser is the ball's).
dist = ‖W̄(R)‖W^mm_α‖_F/R − W^mm_α‖_F (arb, exact W^mm_α) decided by ``rules.decays``. α: every selection is
enumerated (T^{nT}, windows when causal); the paths run for every locally-optimal α with a non-empty cone (opt
included), those with an empty cone are named as vacuous.
False cases (tests): the empty cone (``s2s_causal``, ``alpha=((0, 0, 2),)`` — α = (1, 1, 3) as printed, tokens numbered from 1: query 3 selects the lowest-score token, no
support index) → NOT_APPLICABLE naming the cone; a concave head violating E → NOT_APPLICABLE naming E; ε above κ̂(α)
→ NOT_APPLICABLE naming "ε small"; the theorem held wherever it was decidable, so the VIOLATED test uses a
test-only altered target, ``target="gmm"`` (the local path compared with the GMM W^mm instead of W^mm_α): a plateau.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Figure, Hypothesis, Outcome, Series, register
from verify.claims.registry import Parameter
from verify.data import tfsvm_seq2seq as D
from verify.data.dataset import format_exact
from verify.dynamics.separating_rp import logit_digits_per_radius, path_digits, separating_cone_path
from verify.errors import DataError
from verify.geometry.separating_cone import (
    alpha_text,
    assumption_e,
    optimal_selection,
    selection,
    selection_count,
    selections,
)
from verify.kit.assumptions import assumption_a, svm_feasible
from verify.kit.separating import cone_path_requirements, head_spread
from verify.kit.seq2seq import FACTORS as S2S_FACTORS
from verify.kit.seq2seq import attention_for, frobenius_norm, head_hypothesis, linear_head, path_evidence, path_r0
from verify.numbers.exact import ball_upper
from verify.numbers.precision import MAX_DPS, Precision, decimal_exponent, g_format, log10_abs, to_arb

FACTORS = ("1", "2", "4", "8", "16")   # radii R₀·f (α ≠ opt)
GLOBAL_FACTORS = S2S_FACTORS            # α = opt: the global path, on Corollaries 1–2's ladder R₀·(1, 3, …, 100)
MAX_ALPHAS = 3
TARGETS = ("svm", "gmm")


def _round(x: arb, up: bool) -> Fraction:
    """A rational certainly above (up) / below x > 0: the next multiple beyond the ball's exact end of a step of 1/10
    from 10 on, of 1/1000 down to 1/10, below that of 3 significant digits (tokens at 10⁻⁶ give κ̂ ~ 10⁻¹²: a fixed
    1/1000 rounded ε down to 0 and R₀ = 1/0). Exact at any magnitude: from float64, tokens at 10⁻⁴⁰⁰ made ε NaN, and
    at 10⁻¹⁰⁰ (R₀ ~ 10²⁰⁰) stepping by 1/10 from the float's error took hours."""
    end = ball_upper(x) if up else -ball_upper(-x)
    if not end > 0:
        raise ValueError(f"_round needs x > 0, got the end {end}")
    step = Fraction(1, 10) if end >= 10 else Fraction(1, 1000)
    if end < Fraction(1, 10):
        step = Fraction(10) ** (decimal_exponent(end) - 2)
    return (end // step + 1) * step if up else (-(-end // step) - 1) * step


def constants(data, sel, eps: Fraction | None, c_alpha, alpha=None):
    """(ε, R₀) for α: ε = κ̂/2 rounded down unless given; R₀ from the proof (module docstring); for α = opt (cone =
    every matrix) the same R₀ at the SVM direction's margin per unit norm ε = 1/‖W^mm‖_F (``path_r0``, shared with
    Corollaries 1–2)."""
    if not sel.deviating():  # α = opt: cone_ε(opt) is every matrix
        return eps, path_r0(data, frobenius_norm(sel.W), alpha)
    kh = sel.kappa
    if eps is None:
        eps = _round(kh / 2, up=False) if not isinstance(kh, str) and kh > 0 else Fraction(1, 10)
    B = head_spread(data)
    arg = B * data.T / to_arb(c_alpha)
    R0 = to_arb(1) / to_arb(eps) * arg.log() if arg > 1 else to_arb(1)
    return eps, max(Fraction(1), _round(R0, up=True))


def _alphas(data, attention, prec, alpha):
    """(covered: [(α, selection)], vacuous α, every locally-optimal α count, selections enumerated)."""
    if alpha is not None:
        return [(tuple(tuple(int(a) for a in r) for r in alpha), None)], [], None, 1
    covered, vacuous, total = [], [], 0
    todo = selections(data, attention)
    for al in todo:
        try:
            sel = selection(data, al, attention, prec.dps)
        except DataError:
            continue
        if sel.feasible is not True or not sel.locally_optimal:
            continue
        total += 1
        (vacuous if sel.empty_cone() else covered).append((al, sel))
    covered.sort(key=lambda ag: (bool(ag[1].deviating()), ag[0]))  # opt first
    return covered[:MAX_ALPHAS], [a for a, _ in vacuous], total, len(todo)


def _q(x) -> str:
    """x exactly when its decimal is short, else to 6 significant digits (tokens at 10⁻¹⁰⁰ make ε ~ 10⁻²⁰¹)."""
    text = str(format_exact(Fraction(x)))
    return text if len(text) <= 20 else g_format(Fraction(x), 6)


def _alpha_text(al) -> str:
    """α as the report prints it: tokens numbered from 1, as the paper and Lemma 16 do (the ``alpha`` option, a
    Python argument, is 0-based like every index in the code)."""
    return alpha_text(al)


def evaluate(data, prec: Precision, alpha=None, eps=None, factors=None, target: str = "svm", starts: int = 2,
             seed: int = 0, figure: bool = True) -> Outcome:
    if target not in TARGETS:
        raise ValueError(f"target must be one of {TARGETS}")
    causal = data.causal
    attention = attention_for(data)
    out = Outcome(hypotheses=[assumption_a("logistic", data)])
    ok, what = linear_head(data)
    covered, vacuous, total, tried = _alphas(data, attention, prec, alpha)
    if vacuous:
        out.notes.append("vacuous (cone_ε(α) = ∅: a deviating query without low-score tokens, Lemma 16): α = "
                         + ", ".join(_alpha_text(a) for a in vacuous))
    if total is not None:
        count = selection_count(data, attention)
        out.notes.append(f"{total} locally-optimal α enumerated" + (f" among the first {tried} of {count} selections"
                                                                    if tried < count else "")
                         + f"; paths run for {len(covered)}")
    gmm = None
    if target == "gmm":
        opt = optimal_selection(data, attention)
        if opt is None:
            raise DataError("the GMM target needs unique optimal tokens")
        gmm = selection(data, opt, attention, prec.dps)
    fig, ranges = [], []
    for al, sel in covered:
        tag = _alpha_text(al)
        if sel is None:
            try:
                sel = selection(data, al, attention, prec.dps)
            except DataError as exc:
                out.hypotheses.append(Hypothesis(f"SAtt-SVM({tag}) feasible", False, str(exc)))
                continue
            out.hypotheses.append(svm_feasible(sel.result, f"SAtt-SVM({tag}) feasible"))
            if sel.feasible is not True:
                if sel.feasible is None and sel.result.status == "optimal":
                    out.hypotheses.append(Hypothesis(f"SAtt-SVM({tag}) solved exactly", None, sel.reason))
                continue
            out.hypotheses.append(Hypothesis(f"α = {tag} locally optimal (Def 4)", sel.locally_optimal, (
                sel.reason if not sel.locally_optimal else
                "support indices " + str([(rs.key[0], rs.key[1], tuple(sel.support[rs.key])) for rs in sel.sets]))))
            empty = [rs.key for rs in sel.empty_cone()]
            out.hypotheses.append(Hypothesis(f"cone_ε({tag}) non-empty (Lemma 16)", not empty, (
                f"empty: query (i, k) = {empty} selects a token with no lower-score token in its window while a "
                "higher-score token exists (κ = −∞); the statement is vacuous" if empty else
                "every deviating query has a low-score token")))
        else:
            out.hypotheses.append(Hypothesis(f"α = {tag}: SAtt-SVM(α) feasible, α locally optimal (Def 4), cone_ε(α) "
                                             "non-empty", True, "decided exactly while enumerating α"))
        met, c_alpha, _ = assumption_e(data, al, attention)
        out.hypotheses.append(head_hypothesis(data, al, causal, f"α = {tag}"))
        if not out.applicable():
            return out
        out.require("the path is computed with the linear head h(x) = vᵀx (v1's theory)", ok, what)
        if not ok:
            return out
        e, R0 = constants(data, sel, None if eps is None else Fraction(str(eps)), c_alpha, al)
        deviating = bool(sel.deviating())
        if deviating:
            kh = sel.kappa
            out.hypotheses.append(Hypothesis(f"ε small at α = {tag}: W^mm_α ∈ cone_ε(α) (ε < κ̂(α))",
                                             True if kh > to_arb(e) else False if kh <= to_arb(e) else None,
                                             f"ε = {e}, κ̂(α) = {kh.mid().str(8, radius=False)}"))
            if not out.applicable():
                return out
        radii = [R0 * Fraction(f) for f in factors or (FACTORS if deviating else GLOBAL_FACTORS)]
        ref = gmm if target == "gmm" else sel
        per_radius = logit_digits_per_radius(sel.sets) if deviating else 0
        need = path_digits(prec.dps, per_radius, radii[-1])
        if need > MAX_DPS:  # large scores: R₀ ~ 1/ε and R·B_z logits need more digits than any run may use
            out.require(f"α = {tag}: the path's precision dps + ⌈R·B_z/ln 10⌉ within {MAX_DPS} digits", False,
                        f"{need} digits at R = {_q(radii[-1])} (R₀ = {_q(R0)}, ε = {_q(e)})")
            continue
        pts = separating_cone_path(data, al, radii, eps=e or 0, dps=prec.dps, attention=attention, starts=starts,
                                   seed=seed, targets={"ref": ref.W}, digits_per_radius=per_radius)
        cone_path_requirements(out, pts, f"α = {tag}", prec)
        ys = [p.distance["ref"] for p in pts]
        edge = sum(1 for p in pts if p.active)
        sel_ok = sum(1 for p in pts if p.selected == al)
        out.notes.append(f"α = {tag}: ε = {_q(e) if deviating else '— (cone = every matrix)'}, R₀ = {_q(R0)}; "
                         f"argmax attention = α at {sel_ok} of {len(pts)} radii; cone edge active at {edge}; "
                         f"up to {pts[-1].dps} digits")
        label = (f"α = {tag}: dist(W̄(R)/(RΞ), W^mm_α) → 0" if target == "svm" else
                 f"α = {tag}: dist(W̄(R)‖W^mm‖/R, W^mm) → 0 (test-only altered target: the GMM, not W^mm_α)")
        xs = path_evidence(out, label, [p.R for p in pts], ys, prec, prec.tolerance, r0=R0)
        fig.append((f"α = {tag}", xs, ys))
        ranges.append(f"α = {tag}: R ≤ {_q(radii[-1])}")
        out.cover(f"α = {tag}: ε = {_q(e) if deviating else 'any (cone = every matrix)'}, R₀ = {_q(R0)}")
    if not covered:
        out.require("a locally-optimal α with a non-empty cone to run the path on", False,
                    "none (every locally-optimal α is vacuous or SAtt-SVM(opt) is infeasible)")
        return out
    if not ranges:
        return out
    out.range = "; ".join(ranges) + (" (causal)" if causal else "")
    if figure and fig:
        out.figures.append(Figure("paths", "Theorem 10: conic seq2seq paths against R", "log10 R",
                                  "log10 dist(W̄/(RΞ), W^mm_α)",
                                  [Series(lab, [log10_abs(x) for x, y in zip(xs, ys) if y != 0],
                                          [log10_abs(y) for y in ys if y != 0], "-o") for lab, xs, ys in fig],
                                  caption="log10 at the working precision; values whose ball contains 0 are left out"))
    return out


def check(data, prec: Precision, eps=None) -> Outcome:
    return evaluate(data, prec, eps=eps)


def default_datasets(seed: int = 0):
    return [D.s2s_labels(), D.s2s_causal()]


STATEMENT = """\
Local RP for sequence-to-sequence attention (v1 App D.2, Thm 10): for α locally optimal (Def 4) with SAtt-SVM(α)
feasible, under A and E, ε small and R₀ = O(1/ε), the conic path W̄(R) ∈ argmin{L_seq : W ∈ cone_ε(α), R₀ ≤ ‖W‖ ≤ R}
satisfies dist(W̄(R)/(RΞ), 𝒲^mm_α) → 0; for α = opt the cone is every matrix.

Evidence over the radii computed, for every locally-optimal α with a non-empty separating cone (enumerated); causal
masking applied to model, SVM and cone alike. An α whose cone is empty (Lemma 16's flaw) makes the statement vacuous.
"""

CLAIM = register(Claim(id="tfsvm.thm10", paper="tfsvm", number="Theorem 10", kind="asymptotic",
                       title="Local regularisation path of sequence-to-sequence (and causal) attention → W^mm_α",
                       statement=STATEMENT, check=check, default_datasets=default_datasets,
                       aliases=("seq2seq-satt-svm", "causal-satt-svm"),
                       parameters=(
                           Parameter("α", "every locally-optimal α (Def 4)", "search",
                                     f"every selection enumerated; paths for the locally-optimal ones with a non-empty "
                                     f"cone (at most {MAX_ALPHAS}, opt first; named in the verdict), empty cones named "
                                     "as vacuous"),
                           Parameter("ε", "every ε small enough (ε ≤ ε₀, ε₀ unstated)", "range",
                                     "ε = κ̂(α)/2 rounded down (named in the verdict); `eps` sets it", option="eps",
                                     low=Fraction(0), high=Fraction(10)),
                           Parameter("R₀", "R₀ = O(1/ε) large enough", "range",
                                     "the proof's R₀ = max(1, (1/ε)·log(B·T/c_α)) (named in the verdict)"),
                           Parameter("R", "R → ∞ (the limit along the path)", "range",
                                     "R = R₀·(1, 2, 4, 8, 16) (α = opt: R₀·(1, 3, 10, 30, 100), R₀ = "
                                     "‖W^mm‖_F·max(1, ln(B·T/min(c, 1)))), precision dps + ⌈R·B_z/ln 10⌉ for α ≠ opt "
                                     "(named in the verdict's range)"),)))
