"""mmts Lemma 3 — the Key Lemma (covariance decomposition), App. A.1, proof (16).

Statement (one sequence; reference token 1, here the optimal token α = opt_i):
for logits a = K q (any direction q), attention s = S(K p) and scores γ,

    | aᵀdiag(s)γ − aᵀssᵀγ − Σ_{t≠1} (a₁ − a_t) s_t (γ₁ − γ_t) |  ≤  2 Γ A (1 − s₁)²,

with Γ := max_{t,τ} |γ_t − γ_τ| and A := max_t |a_t|.

Exact identity behind it (mmts spec §4, DERIVED): the left side without |·| equals
−(Σ_{t≠1} s_t(a₁−a_t))·(Σ_{t≠1} s_t(γ₁−γ_t)), each factor bounded by 2A(1−s₁) resp. Γ(1−s₁).

How it is checked: on every sequence of the dataset, at deterministic adversarial points p
(random directions and ± key differences, scales 0 … 1000: saturation to 1 − s₁ ≈ e^{−1000}) and
several q, the left side is evaluated through the cancellation-free pairwise form
    Cov − Σ_{t≠1} s_t(a₁−a_t)(γ₁−γ_t) = −(1−s₁)Σ_{t≠1} s_t(a₁−a_t)(γ₁−γ_t) + ½Σ_{t,u≠1} s_t s_u (a_t−a_u)(γ_t−γ_u)
(every term is O((1−s₁)²); the textbook E[aγ] − E[a]E[γ] loses every digit once s₁ ≈ 1), with
1 − s₁ = Σ_{t≠1} s_t. Evidence: the largest ratio LHS/RHS (must be ≤ 1, certified by ball
arithmetic) and the deviation from the identity. Hypothesis: the reference token (the optimal
token) is unique in every sequence. The constant 2 and the power 2 are the paper's; the false-case
test changes them.
"""
from __future__ import annotations

from flint import arb

from verify.claims import Claim, Evidence, Figure, Hypothesis, Outcome, Series, register
from verify.data import mmts as D
from verify.data.generators import random_dataset
from verify.geometry.probes import SCALES, directions, scaled
from verify.models.attention import features
from verify.numbers.precision import Precision, to_arb


def softmax(logits):
    """Softmax of arb logits, shifted by the largest (mid) logit; exact relative accuracy of each s_t."""
    r = max(range(len(logits)), key=lambda t: logits[t].mid())
    e = [(x - logits[r]).exp() for x in logits]
    Z = sum(e[1:], e[0])
    return [x / Z for x in e]


def key_lemma_terms(a, s, gamma, ref: int):
    """(LHS signed, identity value −A'G', 1 − s_ref, Γ, A, magnitude) for one sequence, cancellation-free.

    ``magnitude`` = (Σ s_t|a₁−a_t|)(Σ s_t|γ₁−γ_t|) ≥ |identity|: the scale rounding errors are
    relative to (the identity value itself can be tiny through cancellation of mixed-sign terms)."""
    T = len(a)
    others = [t for t in range(T) if t != ref]
    off = sum((s[t] for t in others), arb(0))  # 1 − s_ref, never formed as a difference
    first = sum((s[t] * (a[ref] - a[t]) * (gamma[ref] - gamma[t]) for t in others), arb(0))
    pair = sum(
        (s[t] * s[u] * (a[t] - a[u]) * (gamma[t] - gamma[u]) for t in others for u in others if t < u),
        arb(0),
    )
    lhs = -off * first + pair
    ident = -sum((s[t] * (a[ref] - a[t]) for t in others), arb(0)) * sum(
        (s[t] * (gamma[ref] - gamma[t]) for t in others), arb(0)
    )
    magnitude = sum((s[t] * abs(a[ref] - a[t]) for t in others), arb(0)) * sum(
        (s[t] * abs(gamma[ref] - gamma[t]) for t in others), arb(0)
    )
    Gam = max((abs(x - y) for x in gamma for y in gamma), key=lambda z: z.mid())
    A = max((abs(x) for x in a), key=lambda z: z.mid())
    return lhs, ident, off, Gam, A, magnitude


def evaluate(data, prec: Precision, factor=2, power=2, q_count: int = 3) -> Outcome:
    """The Key Lemma with constant ``factor`` and exponent ``power`` on ``data``'s sequences."""
    out = Outcome()
    opts = data.optimal_tokens()
    unique = all(len(o) == 1 for o in opts)
    out.hypotheses.append(
        Hypothesis("reference token (optimal token) unique in every sequence", unique,
                   "opt = " + ", ".join("{" + ",".join(map(str, o)) + "}" for o in opts))
    )
    if not unique:
        return out
    keys = features(data, "p")
    K = [[[to_arb(x) for x in row] for row in seq] for seq in keys]
    G = data.arb("scores")
    dirs = directions(keys, count=4, seed=0)
    qs = directions(keys, count=q_count, seed=1)[:q_count]
    worst_ratio, worst_where, worst_ident = arb(0), "", arb(0)
    disjoint = 0  # points where the enclosures of LHS and of the identity value do not overlap
    points, min_off = 0, None
    sat_x, sat_y = [], []
    for i, (Ki, gi) in enumerate(zip(K, G)):
        ref = opts[i][0]
        for dvec in dirs:
            for sc in SCALES:
                p = [to_arb(x) for x in scaled(dvec, sc)]
                s = softmax([sum((k * x for k, x in zip(row, p)), arb(0)) for row in Ki])
                for q in qs:
                    qa = [to_arb(x) for x in q]
                    a = [sum((k * x for k, x in zip(row, qa)), arb(0)) for row in Ki]
                    lhs, ident, off, Gam, A, magnitude = key_lemma_terms(a, s, gi, ref)
                    rhs = factor * Gam * A * off**power
                    points += 1
                    dev = abs(lhs - ident)
                    disjoint += 0 if lhs.overlaps(ident) else 1
                    rel = dev / magnitude if magnitude > 0 else dev  # magnitude = 0 ⇒ both sides exactly 0
                    worst_ident = max(worst_ident, rel, key=lambda z: z.upper())
                    if min_off is None or off.mid() < min_off.mid():
                        min_off = off
                    if rhs == 0:  # A = 0 or Γ = 0: the left side must vanish exactly
                        if not (abs(lhs) == 0):
                            worst_ratio, worst_where = arb("inf"), f"seq {i}, scale {sc}: RHS = 0, LHS ≠ 0"
                        continue
                    ratio = abs(lhs) / rhs
                    if ratio.mid() > worst_ratio.mid():
                        worst_ratio, worst_where = ratio, f"sequence {i}, ‖p‖∞ = {sc}"
                    if q is qs[0] and dvec is dirs[0]:
                        sat_x.append(float(off.mid()) if off.mid() > 1e-300 else None)
                        sat_y.append(float(ratio.mid()))
    out.evidence.append(Evidence("max |LHS| / (%s·Γ·A·(1−s₁)^%s) over probe points" % (factor, power),
                                 worst_ratio, "<=", arb(1), note=worst_where))
    out.evidence.append(Evidence("max deviation of LHS from −(Σs_t(a₁−a_t))(Σs_t(γ₁−γ_t)), relative to (Σs_t|a₁−a_t|)(Σs_t|γ₁−γ_t|)",
                                 worst_ident, "~", residual=True,
                                 note="upper end of the enclosure; reported only — the overlap count below is the rigorous test"))
    out.evidence.append(Evidence("points where the enclosures of LHS and of the identity value are disjoint",
                                 disjoint, "==", 0))
    out.evidence.append(Evidence("smallest 1 − s₁ reached (saturation)", min_off))
    out.notes.append(f"{points} probe points (p, q) over {data.n} sequence(s); scales ‖p‖∞ ∈ {{{', '.join(SCALES)}}}")
    pts = [(x, y) for x, y in zip(sat_x, sat_y) if x is not None and y > 0]
    if pts:
        out.figures.append(Figure(
            "ratio", "Key Lemma: |LHS| / RHS against 1 − s₁", "1 − s₁", "|LHS| / (2ΓA(1−s₁)²)",
            [Series("probe points", [x for x, _ in pts], [y for _, y in pts], "o")], logx=True,
            hlines=[(1.0, "bound")], caption="Ratios stay below 1 down to saturation."))
    return out


def check(data, prec: Precision) -> Outcome:
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [
        D.mmts_fig1b(),
        D.mmts_fig1c(),
        random_dataset(n=3, T=5, d=3, seed=seed, name=f"random-n3T5d3-s{seed}"),
    ]


CLAIM = register(Claim(
    id="mmts.lemma3",
    paper="mmts",
    number="Lemma 3",
    title="Key Lemma: covariance decomposition",
    kind="inequality",
    statement=(
        "For one sequence with reference token 1, logits a = Kq, attention s = S(Kp), scores γ, "
        "Γ = max|γ_t − γ_τ|, A = max|a_t|:\n\n"
        "|aᵀdiag(s)γ − aᵀssᵀγ − Σ_{t≥2}(a₁−a_t)s_t(γ₁−γ_t)| ≤ 2ΓA(1−s₁)²  (App. A.1, (16)).\n\n"
        "Checked with token 1 = the optimal token of each sequence, at adversarial p (up to saturation) and several q."
    ),
    check=check,
    default_datasets=default_datasets,
    aliases=("key-lemma", "covariance-decomposition"),
    module=__name__,
))
