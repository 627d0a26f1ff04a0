"""tfsvm Lemma 8 — descent lemma for W-GD (v1 App. B.1).

Statement (as printed). Under Assumption A, W-GD W(k+1) = W(k) − η∇L(W(k)) with η ≤ 2/L_W (L_W of Lemma 4) has
  L(W(k+1)) − L(W(k)) ≤ −(η/2)‖∇L(W(k))‖_F²,   Σ_k ‖∇L(W(k))‖_F² < ∞,   ‖∇L(W(k))‖_F → 0.
Step-size caveat (spec, DERIVED). L_W-smoothness gives L(W⁺) − L(W) ≤ −η(1 − ηL_W/2)‖∇L‖², which is
≤ −(η/2)‖∇L‖² only for η ≤ 1/L_W; for η ∈ (1/L_W, 2/L_W] the printed bound is unproven, and it is false for the
principle itself: f(w) = (L/2)‖w‖² is L-smooth and at η = 2/L the step maps w to −w, so f(w⁺) − f(w) = 0 >
−(η/2)‖∇f‖² = −L‖w‖². So the claim is encoded with η ≤ 1/L_W (spec); ``printed=True`` uses the printed hypothesis
η ≤ 2/L_W (on the data no violation is found there: L_W is loose). Telescoping gives
Σ_{k<K}‖∇L(W(k))‖² ≤ 2(L(W(0)) − L⋆)/η (L ≥ L⋆ by Lemma 2).
Hypotheses. Assumption A (interval evaluation); η ≤ 1/L_W (η = factor/L_W rounded down, certified against the
L_W ball; ``printed``: η ≤ 2/L_W).
How it is checked. GD from W(0) = 0 and from a seeded rational W(0), ``steps`` steps. Each iterate is an exact
point (the midpoint of the previous step); the step W⁺ = W − η∇L(W) is enclosed in arb and the descent inequality
is decided for that exact step (a Tally over all steps, certified), L − L⋆ from the gaps (no cancellation).
Σ‖∇L‖² ≤ 2(L(W(0)) − L⋆)/η is certified on the run; ‖∇L(W(k))‖ → 0 is decided by ``rules.decays`` over the
checkpoints (evidence over k ≤ steps). A plateau is no refutation here: with every step's descent certified and
L ≥ L⋆ the sum is bounded, so ‖∇L‖ cannot stay away from 0 — it can only grow for a while before it decays (a
softmax saturating slowly under a loose L_W: on X = [[[14/3], [0]]], Y = −1, L_W ≈ 9222, ‖∇L‖ grows over 6000
steps from W(0) = 2/5). So a plateau continues the run once to 10·steps; still no decay leaves the item undecided
(INCONCLUSIVE: range too short), never VIOLATED.
False cases (tests): the quadratic above at η = 2/L with the printed hypothesis → VIOLATED (exact); the data at
η = 2/L_W with the default hypothesis → NOT_APPLICABLE naming the step size; η = 400/L_W on the data with the
step hypothesis dropped → VIOLATED.
"""
from __future__ import annotations

import random
from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Outcome, Tally, register, rules
from verify.claims.registry import Parameter
from verify.claims.verdict import Decision
from verify.data import tfsvm as D
from verify.geometry.stationarity import smoothness_W
from verify.kit.assumptions import assumption_a, step_size
from verify.models.attention import LinearLogitModel, dot
from verify.numbers.precision import Precision, to_arb, to_decimal_string

#: steps at which ‖∇L(W(k))‖ is recorded for the decay rule (its last four: the tail, 300…600)
CHECKPOINTS = (1, 10, 100, 200, 300, 400, 500, 600)
#: a decay rule that finds a plateau continues the run once to EXTEND·steps, recorded at EXTEND_MARKS·steps
EXTEND, EXTEND_MARKS = 10, (2, 4, 6, 8, 10)


class AttentionObjective:
    """L(W) of the data (logistic), its L_W of Lemma 4 and the excess L − L⋆ from the gaps."""

    def __init__(self, data, loss: str = "logistic"):
        self.model = LinearLogitModel.from_dataset(data, "W", loss)
        self.L = smoothness_W(data, loss)
        self.dim, self.name = data.d ** 2, f"L(W), L_W of Lemma 4 = {to_decimal_string(self.L, 8)}"

    def excess(self, w) -> arb:
        return self.model.excess(w)

    def grad(self, w) -> list:
        return self.model.grad(w)


class Quadratic:
    """f(w) = (L/2)‖w‖² (f⋆ = 0): L-smooth with curvature exactly L — the spec's false case of the principle."""

    def __init__(self, L, dim: int = 2):
        self.L, self.dim, self.name = to_arb(Fraction(L)), dim, f"(L/2)‖w‖², L = {L}"

    def excess(self, w) -> arb:
        return self.L * dot(w, w) / 2

    def grad(self, w) -> list:
        return [self.L * x for x in w]


def evaluate(data, prec: Precision, factor=1, printed: bool = False, require_step: bool = True, steps: int = 600,
             objective=None, starts=None) -> Outcome:
    """GD with η = ``factor``/L rounded down; ``objective`` replaces the data's L(W) (the quadratic false case);
    ``starts``: the W(0)'s (default 0 and one seeded rational point)."""
    obj = objective or AttentionObjective(data)
    out = Outcome(hypotheses=[] if objective is not None else [assumption_a("logistic", data)])
    eta = arb((to_arb(Fraction(factor)) / arb(obj.L.upper())).lower())
    cap = 2 if printed else 1
    step = step_size(eta / cap, obj.L, f"step size η ≤ {cap}/L_W ({'printed range, unproven' if printed else 'spec'})")
    if require_step:
        out.hypotheses.append(step)
    else:
        out.notes.append(f"step size NOT required (the false case): {step.detail}")
    if not out.applicable():
        return out
    given = starts is not None
    if starts is None:
        rng = random.Random(0)
        starts = [[Fraction(0)] * obj.dim, [Fraction(rng.randint(-20, 20), 10) for _ in range(obj.dim)]]
    marks = [c for c in CHECKPOINTS if c < steps] + [steps]
    ran = max(run(out, obj, [to_arb(Fraction(x)) for x in w0], eta, steps, marks, f"W(0) = ({', '.join(map(str, w0))})")
              for w0 in starts)
    out.range = f"k ≤ {ran} GD steps, η = " + (f"{factor}/L" if Fraction(factor).denominator == 1 else f"({factor})/L")
    out.cover(f"W(0) ∈ the {len(starts)} given start(s)" if given else "W(0) ∈ {0, one seeded point (seed 0)}")
    out.notes.append(f"{obj.name}; η = {to_decimal_string(eta, 10)}")
    return out


def run(out: Outcome, obj, w, eta, steps: int, marks, label: str) -> int:
    """GD from ``w``: the per-step descent, the telescoped sum and the decay of ‖∇L‖; returns the steps run."""
    descent = Tally(f"L(W(k+1)) − L(W(k)) ≤ −(η/2)‖∇L(W(k))‖² at every step, {label}", "<=", 0)
    e0 = obj.excess(w)
    state = {"w": w, "e": e0, "k": 0, "total": arb(0)}
    norms = []

    def descend(until: int, stops) -> None:
        """GD from the current iterate to step ``until``, ‖∇L‖ recorded at ``stops``; every step decided."""
        w, e, total = state["w"], state["e"], state["total"]
        for k in range(state["k"], until + 1):
            g = obj.grad(w)
            g2 = dot(g, g)
            if k in stops and (not norms or norms[-1][0] != k):
                norms.append((k, g2.sqrt()))
            if k == until:
                break
            total += g2
            nxt = [x - eta * gx for x, gx in zip(w, g)]  # the exact step, enclosed
            e1 = obj.excess(nxt)
            descent.add(e1 - e + eta * g2 / 2, f"k = {k}: decrease {to_decimal_string(e1 - e, 6)} vs "
                                               f"−(η/2)‖∇L‖² = {to_decimal_string(-eta * g2 / 2, 6)}")
            w = [arb(x.mid()) for x in nxt]  # the next iterate: an exact point
            e = obj.excess(w)
        state.update(w=w, e=e, k=until, total=total)

    descend(steps, set(marks))
    rule = rules.decays([k for k, _ in norms], [v for _, v in norms])
    last = steps
    if rule.holds is False:  # a plateau on a finite run: ‖∇L‖ may grow before it decays (a softmax saturating
        last = EXTEND * steps  # slowly under a loose L_W); the run is continued once, EXTEND times longer
        descend(last, {m * steps for m in EXTEND_MARKS})
        rule = rules.decays([k for k, _ in norms], [v for _, v in norms])
        if rule.holds is False:  # still no decay: the run is too short — never a refutation (module docstring)
            rule = Decision(None, rule.rule, rule.detail + f"; a plateau over k ≤ {last} does not refute ‖∇L‖ → 0 while "
                            "every step's descent is certified (Σ‖∇L‖² ≤ 2(L(W(0)) − L⋆)/η): range too short")
    out.add(descent.evidence("L − L⋆ from the gaps; each step enclosed exactly from an exact iterate"))
    out.add(Evidence(f"Σ_k<{last} ‖∇L(W(k))‖² ≤ 2(L(W(0)) − L⋆)/η (telescoped descent), {label}", state["total"], "<=",
                     2 * e0 / eta))
    ks, gs = [k for k, _ in norms], [v for _, v in norms]
    out.add(Evidence(f"‖∇L(W(k))‖_F → 0, {label} (k = {', '.join(map(str, ks))})", gs[-1], rule=rule,
                     note=rule.detail))
    return last


def default_datasets(seed: int = 0):
    return [D.d_t2(), D.d_lmm(), D.lemma4_cross()]


STATEMENT = """\
Under Assumption A, W-GD with η ≤ 2/L_W (printed) has L(W(k+1)) − L(W(k)) ≤ −(η/2)‖∇L(W(k))‖², Σ‖∇L(W(k))‖² < ∞
and ‖∇L(W(k))‖ → 0 (v1 App. B.1).

Encoded with η ≤ 1/L_W (spec): smoothness only gives −η(1 − ηL_W/2)‖∇L‖², and at η = 2/L the quadratic (L/2)‖w‖²
violates the printed bound. Certified at every GD step run (exact steps enclosed in arb) and for the telescoped
sum; ‖∇L‖ → 0 by a decay rule (evidence over the steps run).
"""

CLAIM = register(Claim(id="tfsvm.lemma8", paper="tfsvm", number="Lemma 8", kind="asymptotic",
                       title="Descent lemma: L(W(k+1)) − L(W(k)) ≤ −(η/2)‖∇L(W(k))‖² (η ≤ 1/L_W; printed 2/L_W)",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("descent-lemma",),
                       parameters=(
                           Parameter("η", "every η ≤ 1/L_W (printed: 2/L_W)", "range",
                                     "η = `factor`/L_W rounded down, factor = 1 (the largest step allowed) unless given "
                                     "(the verdict's range)", option="factor", low=0, high=1, hunt=True),
                           Parameter("W(0)", "W-GD from any W(0)", "range",
                                     "W(0) = 0 and one seeded rational point (named in the verdict)"),
                           Parameter("k", "every step k; Σ_k over all k", "range",
                                     "k ≤ `steps` = 600 (the verdict's range)", option="steps", kind="integer", low=1,
                                     high=100000))))
