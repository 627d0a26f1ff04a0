"""Declared rules for what no finite computation can certify: trends, rates, divergence, witnesses.

An asymptotic claim ("converges in direction", "‖β(t)‖ → ∞") or an existential one ("for all
sufficiently large R") is decided over the range computed, by a rule named here, never by an ad-hoc
threshold inside a claim module. Each rule returns a ``Decision`` (True: the trend is there;
False: the computation shows the opposite — a plateau, a stall; None: the range is too short to
tell), and the item it decides is marked ``evidence``, with the range in the verdict. Every
threshold is a named constant below, with where it comes from; ``tests/test_rules.py`` tests each
on both sides.

Inputs are arb balls or exact rationals. Monotonicity is decided by certain ball comparisons;
exponents are least-squares fits of log10 values (floats of the midpoints, computed at the working
precision first, so 1e-5000 is fine) and are reported with the decision.
"""
from __future__ import annotations

import math
from fractions import Fraction

from flint import arb

from verify.claims.verdict import Decision
from verify.numbers.fits import line_fit
from verify.numbers.precision import log10_abs, to_arb

#: Points at the end of a trajectory that a trend is judged on: the last four checkpoints (a decade
#: and a half of ‖p‖ on the 1-2-5 ladder of the direction claims). Enough for a slope, and late enough
#: to be asymptotic; the fit over more points mixes in the pre-asymptotic regime.
TAIL_POINTS = 4

#: A decay counts as the predicted power law when its fitted exponent is at least this fraction of the
#: derived one. Derived rates: 2 for 1 − corr(p, p^mm) (a bounded transverse offset,
#: 1 − corr ≈ ‖ρ_⊥‖²/(2‖p‖²); measured 1.976–2.000 on the defaults), κ = the smallest reduced cost of
#: the ℓ1-SVM for irgf's distance to the optimal face (0.639 on D-SEED0; measured 0.6391). Half leaves
#: room for the curvature of the pre-asymptotic regime while separating a decay from a plateau (≈ 0).
RATE_FRACTION = Fraction(1, 2)

#: With no derived rate: the smallest fitted exponent that counts as a power-law decay.
MIN_DECAY_EXPONENT = Fraction(1, 10)

#: A plateau — the quantity has stopped decreasing: fitted exponent below this AND it kept at least
#: PLATEAU_FRACTION of its value over the tail. On the wrong-limit cases (mmts Fig. 8 from the LMM
#: basin, irgf init (5) broken) the exponents are 0 to 1e-3 and the value is kept to 1 %.
PLATEAU_EXPONENT = Fraction(1, 20)
PLATEAU_FRACTION = Fraction(1, 2)

#: Divergence like a power of the clock: ‖β(t)‖ against ln t (irgf Lemma 4.2; the spec derives
#: µ(t)/ln t → 1, i.e. exponent 1). Above 1/2: diverging; below 1/10: stalled (a bounded set).
DIVERGENCE_EXPONENT = Fraction(1, 2)
STALL_EXPONENT = Fraction(1, 10)

#: "Tends to 0": the value at the end is at most this fraction of its reference (its value at the
#: start of the run). Exponentially small quantities (1 − σ_opt ≈ e^{−µ}, ℒ − L* ≈ C e^{−µ}) reach it
#: by ln µ ≈ 3 on the irgf data; the runs go to ln µ ≈ 10 (e^{−22000}).
VANISHING = Fraction(1, 10**10)
#: ... and it is stuck when it kept at least this fraction (attention locked on the wrong token).
STUCK_FRACTION = Fraction(1, 2)

#: Residuals that decay like a + c/ln µ (irgf's approximate KKT point, DERIVED rates ~ 1/ln µ): the
#: extrapolated limit a must be at most LIMIT_FRACTION of the last value (or the tolerance); it has
#: stalled when a exceeds STALLED_LIMIT_FRACTION of the last value.
LIMIT_FRACTION = Fraction(1, 4)
STALLED_LIMIT_FRACTION = Fraction(1, 2)


def _log10(x) -> float:
    return log10_abs(to_arb(x) if not isinstance(x, arb) else x)


def fitted_exponent(xs, ys) -> float | None:
    """a in y ≈ C·x^a (least squares on log10 values); None with fewer than two usable points."""
    pts = [(_log10(x), _log10(y)) for x, y in zip(xs, ys) if _positive(x) and _positive(y)]
    fit = line_fit(pts) if len(pts) >= 2 else None
    return None if fit is None else fit[1]


def _positive(x) -> bool:
    return bool(to_arb(x) > 0) if not isinstance(x, arb) else bool(x > 0)


def _lt(a, b) -> bool | None:
    a, b = (to_arb(v) if not isinstance(v, arb) else v for v in (a, b))
    return True if a < b else False if a >= b else None


def strictly_decreasing(ys) -> bool | None:
    """Every consecutive pair certainly decreases (True), one certainly does not (False), else None."""
    seen = [_lt(b, a) for a, b in zip(ys, ys[1:])]
    return False if False in seen else None if None in seen else True


def decays(xs, ys, expected=None, floor=0, tail: int = TAIL_POINTS, zero=None) -> Decision:
    """y → 0 along increasing x like a power law. ``expected``: the derived exponent (the rule
    then asks for RATE_FRACTION of it), else MIN_DECAY_EXPONENT. Holds: the last ``tail`` values
    strictly decrease and the fitted exponent (over them) reaches the threshold — or the last value
    is certainly ≤ ``zero`` (the working precision's resolution, 10^-dps: y is 0 to every digit
    carried). Fails: a plateau (exponent < PLATEAU_EXPONENT and the last value ≥ PLATEAU_FRACTION ×
    the tail's first, above ``floor`` and ``zero``) — with a derived rate only over a tail long enough that
    a decay at that rate would have lost more than that (x_last/x_first ≥ 2^(1/expected)). Otherwise
    undecided."""
    need = RATE_FRACTION * Fraction(expected) if expected is not None else MIN_DECAY_EXPONENT
    name = "decays" + (f" (rate ≥ {_f(RATE_FRACTION)}·{float(expected):.4g})" if expected is not None else
                       f" (rate ≥ {_f(MIN_DECAY_EXPONENT)})")
    if zero is not None and ys and abs(_arb(ys[-1])) <= _arb(zero):
        return Decision(True, name, f"the last value is ≤ {_s(_arb(zero))}: zero to the working precision")
    if len(ys) < tail:
        return Decision(None, name, f"{len(ys)} point(s), the rule needs {tail}")
    xs, ys = list(xs)[-tail:], list(ys)[-tail:]
    slope = fitted_exponent(xs, ys)
    dec = strictly_decreasing(ys)
    a = None if slope is None else -slope
    detail = f"fitted exponent {a:.4g} over the last {tail} points" if a is not None else "no fit (non-positive values)"
    if dec and a is not None and a >= need:
        return Decision(True, name, detail + f" ≥ {float(need):.4g}; strictly decreasing")
    kept = _lt(_arb(ys[-1]), _arb(PLATEAU_FRACTION) * _arb(ys[0]))  # False: the last value kept ≥ half
    above = _lt(_arb(floor) if zero is None else _arb(max(Fraction(floor), Fraction(0))).max(_arb(zero)), ys[-1])
    # a plateau is read only where the window could show the derived rate: decaying at it, y would lose at least
    # 1 − PLATEAU_FRACTION over the tail (irgf's κ can be ~0.05: a factor 2 needs µ to grow by 2^(1/κ) ≈ 10⁶)
    plateau = a is not None and a < PLATEAU_EXPONENT and kept is False and above
    span = (_log10(xs[-1]) - _log10(xs[0])) * math.log(10)
    if plateau and expected is not None and float(expected) * span < math.log(1 / PLATEAU_FRACTION):
        return Decision(None, name, detail + f"; at the derived rate {float(expected):.4g} the window (x × "
                                             f"{math.exp(span):.3g}) would keep > {_f(PLATEAU_FRACTION)} of y: "
                                             "too short to tell it from a plateau (range too short to decide)")
    if plateau:
        return Decision(False, name, detail + f" < {_f(PLATEAU_EXPONENT)} and it kept ≥ {_f(PLATEAU_FRACTION)} of its "
                                              "value: a plateau")
    why = "not strictly decreasing" if dec is not True else f"exponent below {float(need):.4g}"
    return Decision(None, name, detail + f"; {why}: range too short to decide")


#: A direction's trend along a path or a run is read only in the asymptotic regime. Before it the attention is
#: near-uniform (logits ≪ 1: s_it ≈ 1/T), the loss is ≈ linear in the weights and the direction frozen at its start
#: (−∇L(0) along a path, the initial direction along a run), so its distance to the limit is flat whatever the limit — a
#: plateau there is no failure. The regime is derived per claim (``in_regime``): a path radius from the proof's R₀ =
#: ‖W^mm‖·ln(B·T/min(c, 1)) on (tfsvm Theorem 10 and Corollaries 1–2, ``verify.kit.seq2seq``), or a run saturated on its
#: selection: every row's attention off α at most SATURATED_OFF_MASS (Σ_{t≠α} s_it, summed directly, never 1 − s_α): at
#: least 90 % of every row on α, i.e. the selected logit ≥ ln 9 + the log-sum of the others — at most a fifth of the
#: linear stretch's uniform off-mass (T − 1)/T ≥ 1/2. The (K, Q)-GD protocol trials are below 10⁻¹⁰ from k = 200 on; the
#: 10⁻³-scale run that never left its start stays at ≈ 1/2.
SATURATED_OFF_MASS = Fraction(1, 10)


def saturated(off_masses) -> bool | None:
    """Every off-selection mass (arb balls or rationals) certainly ≤ SATURATED_OFF_MASS (True), one certainly above
    (False), else None."""
    seen = [_lt(_arb(SATURATED_OFF_MASS), m) for m in off_masses]  # True: certainly above
    return False if True in seen else None if None in seen else True


def in_regime(decision: Decision, regime: bool | None, why: str) -> Decision:
    """A trend rule's ``decision`` read only in the asymptotic regime (comment above SATURATED_OFF_MASS): where
    ``regime`` is True it stands; otherwise it is undecided — a plateau before the regime is the pre-asymptotic flat
    stretch, and a decay there says nothing of the limit either — naming ``why`` (range too short)."""
    if regime is True:
        return decision
    return Decision(None, decision.rule, f"{decision.detail}; not read: {why} (range too short to decide)")


def stays_away(xs, ys, floor=0, tail: int = TAIL_POINTS, zero=None) -> Decision:
    """y ↛ 0 along increasing x (a limit bounded away from 0, e.g. the distance of a path's direction to a
    direction it must not converge to: mmts Theorems 4/7) — the mirror of ``decays`` with its thresholds: holds on a
    plateau as ``decays`` defines it (fitted exponent < PLATEAU_EXPONENT over the last ``tail`` values and the last
    kept ≥ PLATEAU_FRACTION of the tail's first), fails where ``decays`` holds (a power-law decay, or 0 to the
    working precision), otherwise undecided."""
    d = decays(xs, ys, floor=floor, tail=tail, zero=zero)
    name = "stays away from 0 (a plateau, as in decays)"
    return Decision(None if d.holds is None else not d.holds, name, d.detail)


def withheld(decision: Decision, why: str) -> Decision:
    """``decision`` undecided because its inputs could not be trusted (e.g. a path point the working precision could
    not resolve): None, with why, and what the rule would have said."""
    said = {True: "holds", False: "fails", None: "undecided"}[decision.holds]
    return Decision(None, decision.rule, f"{why} (on these values the rule {said}: {decision.detail})")


def diverges(xs, ys) -> Decision:
    """y → ∞ like a power of x (e.g. ‖β(t)‖ against ln t): the fitted exponent over all points is
    > DIVERGENCE_EXPONENT (holds) or < STALL_EXPONENT (fails: the norm stalls); else undecided."""
    name = f"diverges (exponent > {_f(DIVERGENCE_EXPONENT)})"
    a = fitted_exponent(xs, ys)
    if a is None:
        return Decision(None, name, "no fit")
    detail = f"fitted exponent {a:.4g}"
    if a > DIVERGENCE_EXPONENT:
        return Decision(True, name, detail)
    if a < STALL_EXPONENT:
        return Decision(False, name, detail + f" < {_f(STALL_EXPONENT)}: the norm stalls")
    return Decision(None, name, detail + ": range too short to decide")


def vanishes(value, reference=1, stuck_confirmed: bool = True) -> Decision:
    """value/reference → 0: ≤ VANISHING holds (certain); ≥ STUCK_FRACTION fails when
    ``stuck_confirmed`` (a claim-specific sign that it cannot recover, e.g. a negative margin)."""
    name = f"vanishes (≤ {_f(VANISHING)} of its reference)"
    r = _arb(value) / _arb(reference)
    if r <= _arb(VANISHING):
        return Decision(True, name, f"ratio {_s(r)}")
    if r >= _arb(STUCK_FRACTION) and stuck_confirmed:
        return Decision(False, name, f"ratio {_s(r)} ≥ {_f(STUCK_FRACTION)}: stuck")
    return Decision(None, name, f"ratio {_s(r)}: range too short to decide")


def extrapolates_to_zero(xs, ys, tol, drift=None) -> Decision:
    """y ≈ a + c·x as x → 0 (x = 1/ln µ): holds when y decreases over the window and the
    extrapolated limit a ≤ max(LIMIT_FRACTION·y_end, tol); fails (stalled) when a > STALLED_LIMIT_FRACTION·y_end.

    ``drift`` (≥ 0, optional): how much the residual's numerator h = y/x (= y·ln µ, the c of the model) can move
    over the window before the regime where c is constant — supplied by the caller from what c converges with
    (irgf's stationarity: c_j ≈ |ln(2|β̂_j|/ω₀,j²)| by (31), so the drift of ln|β̂_j| on the support). Then h_end −
    h_start = a·(1/x_end − 1/x_start) + Δc with |Δc| ≤ drift bounds a from the window's ends, and each side is read
    only when that bound agrees with it: a stall needs (Δh − drift)/Δ(1/x) > STALLED_LIMIT_FRACTION·y_end as well
    (a pre-asymptotic rise of c — the direction still settling — is no stall), a decay (Δh + drift)/Δ(1/x) ≤
    max(LIMIT_FRACTION·y_end, tol) as well. None: the fit alone (no drift is known)."""
    name = f"extrapolates to 0 (limit ≤ {_f(LIMIT_FRACTION)} of the last value)"
    pts = [(float(_arb(x).mid()), float(_arb(y).mid())) for x, y in zip(xs, ys)]
    fit = line_fit(pts)
    if fit is None:
        return Decision(None, name, "no fit")
    a = fit[0]
    end, start = _arb(ys[-1]), _arb(ys[0])
    detail = f"extrapolated limit a = {a:.4g} (last value {_s(end)})"
    lower = upper = a
    if drift is not None:
        (x0, y0), (x1, y1) = pts[0], pts[-1]
        span = 1 / x1 - 1 / x0
        if not span > 0:
            return Decision(None, name, detail + ": no span in 1/x to bound the limit by")
        grown, d = y1 / x1 - y0 / x0, float(_arb(drift).mid())
        lower, upper = (grown - d) / span, (grown + d) / span
        detail += f"; from the ends, with the numerator's drift {d:.4g}: a ∈ [{lower:.4g}, {upper:.4g}]"
    stall_at = float(STALLED_LIMIT_FRACTION) * float(end.mid())
    if a > stall_at and lower > stall_at:
        return Decision(False, name, detail + ": stalled")
    limit_at = max(float(LIMIT_FRACTION) * float(end.mid()), float(_arb(tol).mid()))
    if end < start and a <= limit_at and upper <= limit_at:
        return Decision(True, name, detail)
    return Decision(None, name, detail + ": range too short to decide")


def witness(radii, ok) -> tuple[object, Decision]:
    """Existential "for all r ≥ R": the smallest radius from which ``ok(r)`` is True at every deeper
    radius of the ladder (certified at each), as (R, Decision). No witness: (None, undecided) — a
    failure beyond the ladder needs its own certificate (e.g. ``verify.geometry.cones.leading_term``)."""
    R = None
    for r in sorted(radii, reverse=True):
        if ok(r) is True:
            R = r
        else:
            break
    name = "witness in range"
    if R is None:
        return None, Decision(None, name, f"no radius of the ladder ≤ {_short(max(radii))} from which it holds")
    return R, Decision(True, name, f"R = {_short(R)}: holds at every ladder radius from R to {_short(max(radii))}")


def _arb(x) -> arb:
    return x if isinstance(x, arb) else to_arb(Fraction(x))


def _f(x) -> str:
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    if x.numerator == 1 and str(x.denominator).strip("0") == "1":
        return f"1e-{len(str(x.denominator)) - 1}"
    return f"{x.numerator}/{x.denominator}"


def _s(x: arb) -> str:
    return x.mid().str(4, radius=False) if x.is_finite() else str(x)


def _short(r) -> str:
    return f"{float(r):g}"


# ----- limits deep in a cone (mmts Lemma 7) ----------------------------------------------------------
#: "Deep in the cone" (mmts Lemma 7, ``verify.kit.cone_scan.deep_limits``): R_deep is the radius from
#: which every non-neighbour term of −⟨∇L(p), q⟩, and every second-order term of its expansion around
#: the selected tokens, is below e^{−LIMIT_DEPTH_EXPONENT} ≈ 9.4e−14 times the smallest neighbour term.
LIMIT_DEPTH_EXPONENT = 30

#: ... and from R_deep on, the ratio −⟨∇L(p), q⟩/((1/n)Σ(1 − s_iα)) must lie in its derived limit
#: interval [c_lim, C_lim] up to this relative slack. The neglected terms are ≤ e^{−30} relative by the
#: choice of R_deep, times the modest constants of the expansion (score range, key norms, T ≤ 10);
#: 10⁻⁶ leaves a factor 10⁷ for them, and is far below the pre-asymptotic deviations (at ‖p‖ = σ the
#: ratio is 70 % below the interval on Fig. 1(b), orders of magnitude off on the random defaults;
#: from R_deep on the defaults' values lie 1–7 % inside it; tests/test_lemma7.py).
LIMIT_SLACK = Fraction(1, 10**6)


def near_limit(values, lo=None, hi=None) -> Decision:
    """Every value (arb balls) lies in [lo(1 − LIMIT_SLACK), hi(1 + LIMIT_SLACK)] (a missing end is not
    checked): holds when all certainly do, fails when one certainly does not, else undecided."""
    name = f"near its derived limit (slack {_f(LIMIT_SLACK)})"
    lo_b = None if lo is None else _arb(lo) * (1 - _arb(LIMIT_SLACK))
    hi_b = None if hi is None else _arb(hi) * (1 + _arb(LIMIT_SLACK))
    inside = out = 0
    for v in values:
        v = _arb(v)
        if (lo_b is not None and v < lo_b) or (hi_b is not None and v > hi_b):
            out += 1
        elif (lo_b is None or v >= lo_b) and (hi_b is None or v <= hi_b):
            inside += 1
    n = len(values)
    detail = f"{inside} of {n} value(s) certainly inside, {out} certainly outside"
    if out:
        return Decision(False, name, detail)
    if n and inside == n:
        return Decision(True, name, detail)
    return Decision(None, name, detail + ("" if n else ": no value"))


# ----- existential radii refuted over the range computed (mmts Theorem 3, Step 3) -------------------
#: "There is R such that the paths started in C_{μ,R} stay in it": refuted over the range computed
#: when the paths leave the cone from each of this many consecutive ladder radii, the first being the
#: first-order witness (from which the step-free inward component is > 0 on the whole boundary). An
#: exit of a discrete path there comes from the second-order terms of a step, which shrink with the
#: gradient (∝ e^{−Θ·R}); one that persists over 4 radii of the 1-2-5 ladder (more than a decade)
#: is not an R taken too small. The range of the refutation is "R ≤ the largest radius tried".
REFUTING_RADII = 4


def radius_refuted(tried) -> Decision:
    """``tried``: [(R, failed)] in increasing R, failed True (a certain exit), False (none) or None.
    Holds at the first R without an exit (the witness; an undecided R before it makes it undecided);
    fails when every R tried has a certain exit and at least REFUTING_RADII were tried; else undecided."""
    name = f"radius witness (refuted after {REFUTING_RADII} radii)"
    for R, failed in tried:
        if failed is None:
            return Decision(None, name, f"R = {_short(R)}: undecided")
        if failed is False:
            return Decision(True, name, f"R = {_short(R)}: no exit")
    radii = ", ".join(_short(R) for R, _ in tried)
    if len(tried) >= REFUTING_RADII:
        return Decision(False, name, f"an exit from every R tried ({radii})")
    return Decision(None, name, f"an exit from every R tried ({radii}), fewer than {REFUTING_RADII} radii")


# ----- distances computed by a float64 SDP (tfsvm Theorem 2, the nuclear solution set) -------------
#: The distance to the nuclear-norm SVM's optimal face (``verify.svm.distance``) comes from a float64 SDP
#: (Clarabel) over the certified face, accurate to ~1e-7 (its docstring; on D-NUC, where the path lies in
#: the set, the computed distance is 2e-15). A distance at or below this counts as 0 to what the SDP
#: resolves (``decays(..., zero=SDP_DISTANCE_RESOLUTION)``; the distances carry a tenth of it, the SDP's
#: accuracy, as their radius); above it a plateau is a plateau.
SDP_DISTANCE_RESOLUTION = Fraction(1, 10**6)


#: Gen-SVM equivalence for nonlinear heads (tfsvm Conjecture 1): the paper reports the normalised-GD iterate after
#: 2000 iterations correlating with W^SVMeq = W^fin + R·W̄^mm at more than 0.99 for d ≥ 8 (v1 §6, Fig. 8; the
#: authors' ``multi_token_converge.ipynb``). An empirical threshold, so a trial on either side is evidence only.
GEN_SVM_CORRELATION = Fraction(99, 100)


def correlates(value, threshold=GEN_SVM_CORRELATION) -> Decision:
    """corr(W, W_ref) > threshold (the paper's reported level): holds when the ball is certainly above it, fails
    when certainly at or below it, else undecided."""
    name = f"correlates (corr > {_f(threshold)})"
    if not isinstance(value, arb):  # exact
        ok = Fraction(value) > Fraction(threshold)
        return Decision(ok, name, f"corr = {Fraction(value)}" + ("" if ok else f" ≤ {_f(threshold)}"))
    v, t = value, _arb(threshold)
    if v > t:
        return Decision(True, name, f"corr = {_s(v)}")
    if v <= t:
        return Decision(False, name, f"corr = {_s(v)} ≤ {_f(threshold)}")
    return Decision(None, name, f"corr = {_s(v)}: undecided at the threshold")


# ----- a fitted rate or constant against the derived one (irgf.aux.rates) ------------------------------
#: A fitted exponent (or limit constant) agrees with the derived one when it is within this relative
#: distance of it. The derived rates are asymptotic and the fits are over a finite window, whose
#: pre-asymptotic drift decays like 1/ln µ: on D-SEED0 (window ln µ ≈ 5–10) the local slope of the
#: ℓ1 gap is 0.66 against κ = 0.639 (3 %), ε·ln µ is 1.896 against 1.897 (0.1 %), the exponents of the
#: KKT residuals against 1/ln µ are within 5 % of 1. A tenth leaves room for that drift.
RATE_AGREEMENT = Fraction(1, 10)
#: ... and it disagrees when it is at least this far: a rate that is off by a quarter is not the one
#: derived (κ = 0.639 against 1 — the rate of an ℓ2-type bounded residual — is 36 % off; 1/ln µ
#: against 1/√(ln µ) is 50 % off in the exponent). In between: undecided (a longer window decides).
RATE_DISAGREEMENT = Fraction(1, 4)


def matches_derived(value, derived) -> Decision:
    """A fitted value (an exponent, a limit constant) against the derived one: |value/derived − 1| ≤
    RATE_AGREEMENT holds, ≥ RATE_DISAGREEMENT fails, else undecided (``derived`` ≠ 0)."""
    name = f"matches the derived value (within {_f(RATE_AGREEMENT)})"
    d = _arb(derived)
    if not (d > 0 or d < 0):
        return Decision(None, name, "derived value 0 or undecided: no relative comparison")
    rel = abs(_arb(value) / d - 1)
    detail = f"fitted {_s(_arb(value))} vs derived {_s(d)}: relative deviation {_s(rel)}"
    if rel <= _arb(RATE_AGREEMENT):
        return Decision(True, name, detail)
    if rel >= _arb(RATE_DISAGREEMENT):
        return Decision(False, name, detail + f" ≥ {_f(RATE_DISAGREEMENT)}: not the derived rate")
    return Decision(None, name, detail + ": between the agreement and disagreement thresholds (range too short)")


# ----- a point proposed by a float64 solve (irgf.aux.face: the face point the flow is conjectured to select) ------
#: ``verify.kit.irgf.face_selection`` minimises a relative entropy over the ℓ1-SVM's optimal face with SLSQP in float64
#: (ftol 1e-15): the proposal is accurate to ~1e-9 (D-FACE, where the closed form ω₀²/Σω₀² is known: 1e-12). A
#: distance to it at or below this counts as 0 to what the proposal resolves (``decays(..., zero=...)``); above it a
#: plateau is a plateau (the wrong point: the solver's vertex on D-FACE stays 1/2 away).
FACE_POINT_RESOLUTION = Fraction(1, 10**7)
