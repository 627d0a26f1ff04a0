"""<paper> <Lemma K> — <title> (<section>, eq. (n)).   ← copy this file to lemmas/<paper>/<name>.py

The registry skips this file; it is a complete, runnable model of a claim module. The worked
example is a fact every softmax check leans on (not a claim of the papers):

Statement. For one sequence with keys k_t, a unique optimal token o and any p, the attention s = S(Kp)
puts on the other tokens the mass

    1 − s_o(p) = s_o(p) · Σ_{t≠o} exp((k_t − k_o)ᵀ p)                                        (1)

(s_t/s_o = e^{(k_t − k_o)ᵀp}, summed over t ≠ o).

Hypotheses. A unique optimal token in every sequence (decided exactly on the rational scores).
How it is checked. At every probe point (seeded directions and ± key differences, ‖p‖∞ from 0 to
1000, i.e. up to 1 − s_o ≈ e^{−1000}) the relative deviation of the two sides of (1) is enclosed
and must stay below 10^-dps; a Tally decides and counts every point. 1 − s_o comes from the engine's
softmax (the sum of the other probabilities, never 1 − s). Certified at the probe points.
False cases (tests): (1) with a factor 2 on the right fails (deviation 1 at every point); a tied
optimal token → NOT_APPLICABLE.
"""
from __future__ import annotations

from fractions import Fraction

from verify.claims import Claim, Hypothesis, Outcome, register
from verify.data import mmts as D
from verify.geometry.probes import SCALES, directions, scaled
from verify.kit.probe_inequality import ProbeInequality, point_label
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import Precision, to_arb


def evaluate(data, prec: Precision, factor=Fraction(1)) -> Outcome:
    """(1) with its right side multiplied by ``factor`` (a wrong identity, for the false case)."""
    opts = data.optimal_tokens()
    out = Outcome(hypotheses=[Hypothesis("unique optimal token in every sequence", all(len(o) == 1 for o in opts),
                                         "opt = " + ", ".join(str(list(o)) for o in opts))])
    if not out.applicable():
        return out
    keys = features(data, "p")
    model = LinearLogitModel(keys, data.scores)
    deviation = ProbeInequality(f"|(1 − s_o) − {factor}·s_o·Σ_(t≠o) e^((k_t − k_o)ᵀp)| / (1 − s_o) at the probe points (1)",
                                "<=", prec.tolerance, residual=True)
    for dvec in directions(keys, count=4, seed=0):
        for sc in SCALES:
            p = [to_arb(x) for x in scaled(dvec, sc)]
            for i, (st, o) in enumerate(zip(model.states(p), opts)):
                o = o[0]
                off = sum((st.s[t] for t in range(len(st.s)) if t != o), to_arb(0))
                rhs = sum(((sum((to_arb(a - b) * x for a, b, x in zip(keys[i][t], keys[i][o], p)), to_arb(0))).exp()
                           for t in range(len(st.s)) if t != o), to_arb(0))
                rhs = to_arb(factor) * st.s[o] * rhs
                deviation.add_ratio(abs(off - rhs), off, f"sequence {i}, {point_label(scaled(dvec, sc))}")
    out.add(deviation.evidence())
    return out


STATEMENT = """\
For every p: 1 − s_o(p) = s_o(p)·Σ_{t≠o} exp((k_t − k_o)ᵀp), o the optimal token (1).
"""

CLAIM = register(Claim(id="mmts.template", paper="mmts", number="(template)", kind="identity",
                       title="Softmax mass off the optimal token: 1 − s_o = s_o Σ exp((k_t − k_o)ᵀp)",
                       statement=STATEMENT, check=evaluate, default_datasets=(D.mmts_fig1b, D.mmts_fig1c)))
