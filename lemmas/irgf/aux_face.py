"""irgf auxiliary — which solution the flow selects on a non-unique optimal face (spec irgf.aux.face; DERIVED, not in
arXiv 2403.08699 v1).

Theorem 4.1 says β̂_∞ solves the ℓ1-SVM; when its solutions form a face F, *which* point? Spec (DERIVED): on D-FACE
(one sequence, L = 2, B = (1, 1, 0)) Lemma A.1 gives β(t) = ω₀^{⊙2} ⊙ sinh(φ(t)·(1, 1, 0)), so β̂(t) =
(ω₀,1², ω₀,2², 0)/(ω₀,1² + ω₀,2²) exactly for every t > 0: every relative-interior point of F is the limit for some
ω₀ — the limit depends on the initialization. Heuristic (not proved): the selected point minimises
Φ(β) = Σ_j |β_j| (ln(2|β_j|/ω₀,j²) − 1) over F (on D-FACE exactly β_j ∝ ω₀,j²). Encoded claim: β̂(t) → q(ω₀) :=
argmin_F Φ, along the flow of Theorem 4.1 from init (5) with ω₀ (a range parameter, named in the verdict).

Hypotheses: those of Theorem 4.1 (Assumptions 1–3, init (5), irgf.hyp.diagsep; shared predicates of
``verify.kit.irgf``) → NOT_APPLICABLE naming the failing one.
How it is checked (asymptotic: evidence over ln(‖β‖₁/p*) ≤ 7). q(ω₀) = ``kit.irgf.face_selection`` (F from the exact
LP: β = g ⊙ t on J₁, g = Bλ*; Φ minimised in float64 — a proposal accurate to ~1e-9). The flow is the dual-coordinate
engine of irgf.thm41. Deciding: µ > 0 at the end, and max_j |β̂_j(t) − q_j| over the asymptotic window by
``rules.decays`` at the DERIVED rate κ (smallest reduced cost: coordinates off F decay like µ^{−κ}), zero to
``rules.FACE_POINT_RESOLUTION`` (D-FACE: β̂(t) = q from the start); a plateau (another point of F, or off F) fails.
Shown: the distance of β/‖β‖₁ to F/p* (exact face, as in irgf.thm41) — it goes to 0 whichever point is selected.
Defaults: D-FACE with ω₀ = (1, 3, 1) (q = (1/10, 9/10, 0): the solver's vertex is (1, 0, 0)), D-FACE2 (B = (1, −1,
1/2, 0), ω₀ = (7/10, 13/10, 2/5, 1): q = (49/218, −169/218, 0, 0), β₃/µ ~ µ^{−1/2}) — both hold —, and D-FACE3 (ω₀ =
𝟙), where it fails (below).
Finding (D-FACE3, a default): the heuristic is false in general. B₁ = (1, 1, 0), B₂ = (1, 2, 0) have the face of
D-FACE, but sequence 2's constraint (active only at the vertex (1, 0, 0)) takes dual mass φ₂ while the flow is still
near β = 0; φ₂ then freezes (its margin µ(1 + β̂₂) > µ), and Lemma A.1 gives β₂/β₁ = ω₀,2² sinh(φ₁ + 2φ₂)/(ω₀,1²
sinh(φ₁ + φ₂)) → (ω₀,2²/ω₀,1²)·e^{φ₂(∞)} ≠ ω₀,2²/ω₀,1²: the flow is on F (distance 0) but at another point — ω₀ = 𝟙:
max_j |β̂_j − q_j| stays 0.097 (ln µ ∈ [5, 10]: fitted exponent 7e−6) → VIOLATED, replayable from the note. The
selection depends on the transient, not on ω₀ and F alone.
False cases (tests): the solver's vertex as the prediction (``predict="vertex"``) and Φ without ω₀ (``predict=
"uniform"``: β_j ∝ 1 on F) → plateau, VIOLATED on D-FACE, ω₀ = (1, 3, 1); D-TRAP → NOT_APPLICABLE (Assumption 3).
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Evidence, Outcome, Series, register, rules
from verify.data.irgf import d_face, d_face2, d_face3
from verify.kit import irgf
from verify.numbers.precision import Precision, to_arb

NEEDS = (irgf.A1, irgf.A2, irgf.A3, irgf.INIT5, irgf.DIAGSEP)
PREDICTIONS = ("potential", "vertex", "uniform")
TARGET = "7"  # ln(‖β‖₁/p*): the selected point is read by ln µ ≈ 7 (D-FACE3 plateaus from ln µ ≈ 3); keeps the run ≤ 20 s


def evaluate(data, prec: Precision, omega0=None, target=TARGET, predict: str = "potential") -> Outcome:
    """``predict``: "potential" (the heuristic), "vertex" (the LP solver's point) or "uniform" (Φ with ω₀ = 𝟙):
    the last two are false cases."""
    if predict not in PREDICTIONS:
        raise ValueError(f"predict: one of {PREDICTIONS}")
    out = Outcome()
    ctx = irgf.hypotheses(out, data, NEEDS, "irgf.aux.face", omega0)
    if not out.applicable():
        return out
    res = ctx["svm"]
    traj, recs, reached = irgf.follow(out, data, omega0, target)
    if not reached:
        return out
    last = recs[-1][1]
    out.add(Evidence("µ(t) = min_il β(t)ᵀB_il at the last record", last.mu, ">", 0, enclosed=False))
    w2 = traj.system.w2_exact
    if predict == "vertex":
        q = [float(x) for x in res.solution]
    else:
        q = irgf.face_selection(res, w2 if predict == "potential" else [1] * data.d)
    if not out.require("the predicted face point q(ω₀) (float64 minimisation of Φ over F converged)", q is not None) \
            or not last.mu > 0:
        return out
    win = irgf.window(recs)
    if not out.require("an asymptotic window of ≥ 3 records with µ > 1", len(win) >= 3, f"{len(win)} record(s)"):
        return out
    qa = [to_arb(Fraction(x)) for x in q]
    dists = [max((abs(b / p.mu - c) for b, c in zip(p.beta, qa)), key=lambda z: z.mid()) for _, p in win]
    mus = [p.mu for _, p in win]
    shown = ", ".join(f"{x:.6g}" for x in q)
    what = {"potential": "q = argmin_F Σ|β_j|(ln(2|β_j|/ω₀,j²) − 1)", "vertex": "the LP solver's vertex",
            "uniform": "argmin_F Φ with ω₀ = 𝟙"}[predict]
    out.add(irgf.ruled(f"max_j |β̂_j(t) − q_j| → 0 over the window, {what} (value: at the last record)", dists[-1],
                       rules.decays(mus, dists, expected=irgf.expected_rate(res), tail=len(win),
                                    zero=rules.FACE_POINT_RESOLUTION),
                       note=f"q = ({shown}); window ln µ ∈ [{mus[0].log().str(4, radius=False)}, "
                            f"{mus[-1].log().str(4, radius=False)}]"))
    if out.evidence[-1].decide() is False:
        out.notes.append(irgf.replay_note(data, "irgf.aux.face"))
    face = irgf.face_distance(last.beta, res, prec.total)
    out.add(Evidence("dist(β/‖β‖₁, F/p*) at the last record (any point of F: Theorem 4.1)", face,
                     note=f"solution unique: {res.unique}; solver's vertex ({', '.join(f'{float(x):.6g}' for x in res.solution)})"))
    pos = [p for _, p in recs if p.mu > 0]
    xs = [irgf.fl(p.l1) for p in pos]
    dq = [max((abs(b / p.mu - c) for b, c in zip(p.beta, qa)), key=lambda z: z.mid()) for p in pos]
    fig = irgf.figure("face", "Which point of the optimal face: distance of β̂(t) to the predicted q(ω₀)", "‖β(t)‖₁",
                      "log10 distance", [Series("log10 max_j |β̂_j − q_j|", xs,
                                                [irgf.log10f(d) if d > 0 else None for d in dq], "-o")],
                      logx=True, caption=f"{data.name}: ω₀² = ({', '.join(str(w) for w in w2)}); q = ({shown}); "
                                         "log10 at the working precision.")
    out.show(fig)
    return out


def _with_omega(data, omega0, name):
    """``data`` carrying ω₀ as this claim's option (so the default run and a replay use it)."""
    import json

    from verify.data.dataset import Dataset

    obj = json.loads(data.to_json())
    obj["options"] = {"irgf.aux.face": {"omega0": [str(w) for w in omega0]}}
    return Dataset.from_dict(obj, name=name)


def default_datasets(seed: int = 0):
    return [_with_omega(d_face(), ["1", "3", "1"], "D-FACE-w131"), _with_omega(d_face2(), irgf.OMEGA_A1, "D-FACE2"),
            d_face3()]


STATEMENT = """\
On a non-unique ℓ1-SVM optimal face F, the margin-normalised flow of Theorem 4.1 from init (5) with ω₀ selects
q(ω₀) = argmin_F Σ_j |β_j|(ln(2|β_j|/ω₀,j²) − 1) (heuristic, spec; exact on D-FACE: β̂(t) = ω₀²/(ω₀,1² + ω₀,2²) on
coordinates 1, 2 for every t > 0, so every relative-interior point of F is the limit for some ω₀).
Checked as max_j |β̂_j(t) − q_j| → 0 along the dual-coordinate flow, over the range reached (ln(‖β‖₁/p*) ≤ 7).
"""

CLAIM = register(Claim(id="irgf.aux.face", paper="irgf", number="aux (face selection)", kind="asymptotic",
                       title="Which solution on a non-unique face: the ω₀-weighted entropy minimiser",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("face-selection",), default_precision=30,
                       parameters=(irgf.OMEGA0_PARAMETER,)))
