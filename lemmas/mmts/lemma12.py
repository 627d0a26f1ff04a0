"""mmts Lemma 12 — asymptotic selection forces the quadrant (App. C.2, (77)).

Statement (SEED+; DERIVED). If the tokens α are asymptotically selected along the joint regularization path,
lim_{R→∞} s_{iα_i}(p̄_R) = 1 for every i, then there is R₀ with (k_{iα_i} − k_it)ᵀp̄_R ≥ 0 for all t ≠ α_i, i ∈ [n] and
R ≥ R₀: p̄_R lies in the quadrant P of (77). Proof: once s_{iα_i} > 1/2, a token t with k_itᵀp ≥ k_{iα_i}ᵀp would have
s_it ≥ s_{iα_i} > 1/2, total mass > 1. Its deterministic core: s_α > 1/2 ⇒ α is the strict argmax of the logits.

How it is checked.
* The core, certified (a Tally): over a stated point set — 200 seeded rational logit vectors (T = 2..5, entries in
  [−5, 5] with denominator 8), edge points (ties, near-ties at 10^−6, the split s = (0.4, 0.45, 0.15) given by its
  logits log s in arb) and every (R, i) of the computed joint path — for every α whose weight is certainly above the
  threshold (1/2; option ``threshold``), min_{t≠α}(a_α − a_t) > 0, exactly for rational logits and in arb on the path.
  A weight whose ball contains the threshold is a requirement (none may be undecided).
* The eventual statement along the joint path of the dataset (``verify.dynamics.joint_rp``, r = R, candidates the
  SVM pairs of the dataset's optimal tokens): the hypothesis max_i(1 − s_{iα_i}(p̄_R)) → 0 read by ``rules.decays``,
  and R₀ as a ``rules.witness`` over the ladder: from R₀ on every quadrant margin (k_{iα_i} − k_it)ᵀp̄_R is certainly ≥ 0.

False cases (tests): threshold 1/3 — s = (0.4, 0.45, 0.15) has s₁ > 1/3 without being the argmax → VIOLATED
(certified); a selection that is not asymptotically selected (the zero tokens α = (0, 0, 0) of Fig. 3) →
NOT_APPLICABLE naming the hypothesis.
"""
from __future__ import annotations

import random
from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Hypothesis, Outcome, Tally, register, rules
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.kit.joint import SELECTION, joint_svms, off_masses, quadrant_margins, run_joint_path
from verify.numbers.precision import Precision, to_arb
from verify.svm import select_tokens

RADII = ("1", "2", "5", "10", "20", "50")


def _softmax(logits):
    top = max(range(len(logits)), key=lambda t: logits[t].mid())
    e = [arb(1) if t == top else (logits[t] - logits[top]).exp() for t in range(len(logits))]
    tot = sum(e, arb(0))
    return [x / tot for x in e]


def point_set(count: int = 200, seed: int = 0):
    """(label, logits) — logits exact Fractions, or arb balls for the split given by its probabilities."""
    rng = random.Random(seed)
    pts = [(f"random {k}", [Fraction(rng.randint(-40, 40), 8) for _ in range(rng.randint(2, 5))]) for k in range(count)]
    pts += [("tie (0, 0)", [Fraction(0), Fraction(0)]), ("tie (1, 1, 0)", [Fraction(1), Fraction(1), Fraction(0)]),
            ("near tie", [Fraction(0), Fraction(1, 10**6)]), ("near tie 3", [Fraction(1, 10**6), Fraction(0), Fraction(-3)])]
    pts.append(("s = (0.4, 0.45, 0.15)", [to_arb(Fraction(x)).log() for x in ("0.4", "0.45", "0.15")]))
    return pts


def core_tally(points, threshold, tally: Tally, undecided: list, where_prefix: str = ""):
    """Add to ``tally`` every (point, α) with s_α certainly > threshold: min_{t≠α}(a_α − a_t) (> 0 is the claim)."""
    thr = to_arb(threshold)
    for label, logits in points:
        balls = [to_arb(a) for a in logits]
        s = _softmax(balls)
        for a, sa in enumerate(s):
            if sa > thr:
                gaps = [logits[a] - logits[t] for t in range(len(logits)) if t != a]
                exact = all(isinstance(g, Fraction) for g in gaps)
                gap = min(gaps) if exact else min((to_arb(g) for g in gaps), key=lambda x: x.mid())
                tally.add(gap, f"{where_prefix}{label}, α = {a + 1}")
            elif not sa <= thr:
                undecided.append(f"{where_prefix}{label}, α = {a + 1}")


def evaluate(data, prec: Precision, threshold=Fraction(1, 2), select="opt", radii=RADII, points: int = 200,
             seed: int = 0, starts: int = 2) -> Outcome:
    threshold = Fraction(threshold)
    alpha = select_tokens(data, select)
    cand = joint_svms(data, "opt", prec.dps, need=())          # the path's starts: the optimal tokens' SVM pairs
    jp = run_joint_path(data, cand, prec, radii, 1, starts, seed)
    Rs = [p.R for p in jp.points]
    worst = [max(off_masses(data, alpha, p.p), key=lambda x: x.mid()) for p in jp.points]
    sel = rules.decays(Rs, worst, zero=prec.tolerance)
    hyp = Hypothesis(SELECTION.replace("along the path", f"along the joint path (α = {[a + 1 for a in alpha]})"),
                     sel.holds, f"{sel.rule}: {sel.detail}; max_i(1 − s_iα_i): " + ", ".join(
                         f"{float(R.mid()):g}: {w.mid().str(3, radius=False)}" for R, w in zip(Rs, worst)))
    out = Outcome(hypotheses=[hyp])
    if not out.applicable():
        return out
    tally = Tally(f"min_(t≠α)(a_α − a_t) > 0 whenever s_α > {threshold} (the deterministic core)", ">", Fraction(0))
    undecided: list = []
    core_tally(point_set(points, seed), threshold, tally, undecided)
    keys = data.keys()
    path_points = []
    for p in jp.points:
        for i in range(data.n):
            logits = [sum((to_arb(k) * x for k, x in zip(key, p.p)), to_arb(0)) for key in keys[i]]
            path_points.append((f"path R = {float(p.R.mid()):g}, input {i + 1}", logits))
    core_tally(path_points, threshold, tally, undecided)
    out.add(tally.evidence(note=f"{points} seeded rational points + 5 edge points + every (R, i) of the joint path"))
    out.require(f"every weight compared with {threshold} decided (no ball containing it)", not undecided,
                ", ".join(undecided[:5]) or "all decided")

    def in_quadrant(R):
        pt = next(p for p in jp.points if p.R == R)
        ms = [m for _, m in quadrant_margins(data, alpha, pt.p)]
        return True if all(m >= 0 for m in ms) else False if any(m < 0 for m in ms) else None

    R0, dec = rules.witness(Rs, in_quadrant)
    out.add(Evidence("R₀: (k_{iα_i} − k_it)ᵀp̄_R ≥ 0 for every i, t ≠ α_i and every ladder radius R ≥ R₀",
                     None if R0 is None else R0, rule=dec, enclosed=False,
                     note=", ".join(f"{float(p.R.mid()):g}: {min((m for _, m in quadrant_margins(data, alpha, p.p)), key=lambda x: x.mid()).mid().str(3, radius=False)}"
                                    for p in jp.points)))
    out.range = f"R ≤ {float(Rs[-1].mid()):g} (r = R) for the eventual statement; the core over the stated point set"
    out.cover(f"threshold {threshold}; {points} seeded rational logit vectors + edge points + the joint path's (R, i)")
    return out


def check(data, prec: Precision, threshold=Fraction(1, 2)) -> Outcome:
    return evaluate(data, prec, threshold=threshold)


def default_datasets(seed: int = 0):
    return [D.mmts_fig3("a"), D.mmts_fig3("b")]


STATEMENT = """\
If lim_R s_{iα_i}(p̄_R) = 1 for every i along the joint path, then (k_{iα_i} − k_it)ᵀp̄_R ≥ 0 for all t ≠ α_i, i and
R ≥ R₀ (App. C.2, (77)); deterministic core: s_α > 1/2 ⇒ α is the strict argmax of the logits.

Certified core over a stated point set (a Tally); the eventual statement as evidence along the computed joint path.
"""

CLAIM = register(Claim(id="mmts.lemma12", paper="mmts", number="Lemma 12", kind="asymptotic",
                       title="Asymptotic selection forces the quadrant (77)", statement=STATEMENT, check=check,
                       default_datasets=default_datasets, aliases=("quadrant-lemma",), default_precision=60,
                       parameters=(
                           Parameter("s (logits)", "for every logit vector with s_α > 1/2", "range",
                                     "200 seeded rational vectors (T = 2..5) + ties, near-ties, the split (0.4, 0.45, "
                                     "0.15) + every (R, i) of the joint path (named in the verdict)"),
                           Parameter("R", "R ≥ R₀ (R₀ exists)", "search",
                                     "a witness over the ladder 1, 2, 5, 10, 20, 50 (rules.witness)"),
                           Parameter("threshold", "the proof's 1/2", "range", "option threshold (1/3 is the false case)",
                                     option="threshold", low=0, high=1))))
