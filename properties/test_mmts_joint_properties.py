"""mmts joint (v, p) part (Sec. 3): Assumption C's certificates (verify.kit.joint.assumption_c) on hypothesis-drawn
data at the edges — T = 2 with the non-selected token at the origin (the class of the sufficient condition), labels
±1, selected tokens on or near the label margin (a non-support input 10⁻³ off it), n = 2..4, d = 2.

* When C is certified with ν, no sampled p may show a grid lower bound of Γ(p) above Γ − ν·max_i(1 − s_iα_i(p))
  (that would refute the derivation; float64, test-only).
* When C is refuted along a ray q, the ratio bound (Γ − min_i Y_i v̂^mmᵀx_i^p)/max_i(1 − s_iα_i(p)), p = Rq (≥ the true
  ratio: v̂^mm is a witness for Γ(p)), must not grow from R = 8 to 16 (the certificate: it tends to 0 like e^{−R·gap}).
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import assume, event, given
from hypothesis import strategies as st

from properties.strategies import exact_rationals
from verify import Dataset
from verify.kit.joint import assumption_c, joint_svms, selection_margins
from verify.numbers.precision import working_precision

coords = exact_rationals(-2, 2, 4)


@st.composite
def joint_data(draw):
    n = draw(st.integers(2, 4))
    toks = [[draw(coords), draw(coords)] for _ in range(n)]
    assume(all(t != [0, 0] for t in toks))
    Y = [draw(st.sampled_from([1, -1])) for _ in range(n)]
    X = [[(0, 0), tuple(t)] for t in toks]
    return Dataset.make(X=X, Y=Y, v=[0, 1], name="hypothesis-joint")


def gamma_lower(feats, angles=3000):
    th = np.linspace(0, 2 * np.pi, angles, endpoint=False)
    V = np.stack([np.cos(th), np.sin(th)], axis=1)
    return float(np.max(np.min(V @ np.array(feats, dtype=float).T, axis=1)))


def mixed(data, p):
    out, e = [], []
    for i in range(data.n):
        x = [float(a) for a in data.X[i][1]]
        z = x[0] * p[0] + x[1] * p[1]
        s = 1 / (1 + math.exp(-z)) if z > -700 else 0.0
        out.append((data.Y[i] * s * x[0], data.Y[i] * s * x[1]))
        e.append(1 / (1 + math.exp(z)) if z < 700 else 0.0)
    return out, e


@given(joint_data(), st.integers(0, 10**6))
def test_assumption_c_certificates_are_consistent(data, seed):
    with working_precision(30):
        js = joint_svms(data, (1,) * data.n, 30, need=())
        assume(js.label.status == "optimal")
        h = assumption_c(data, js)
    event(f"C {h.met}")
    gamma = 1 / math.sqrt(float(sum(Fraction(x) ** 2 for x in js.v_mm)))
    if h.met is True:
        nu = float(h.detail.rsplit("= ", 1)[1])
        rng = np.random.default_rng(seed)
        for _ in range(40):
            r, a = rng.uniform(0.1, 8), rng.uniform(0, 2 * np.pi)
            feats, e = mixed(data, (r * math.cos(a), r * math.sin(a)))
            assert gamma_lower(feats) <= gamma - nu * max(e) + 1e-6
    elif h.met is False:
        q = js.p_relax if "p^relax" in h.detail else js.p_mm
        assert all(m > 0 for m in selection_margins(data, js.alpha, q))
        qf = [float(x) for x in q]
        vhat = [float(x) * gamma for x in js.v_mm]
        ratios = []
        for R in (8.0, 16.0):
            _, e = mixed(data, (R * qf[0], R * qf[1]))
            gaps = []        # Γ − Y_i v̂ᵀx_i^p = Γ − s_i m_i: Γ·e_i on S (m_i = Γ exactly), else computed
            for i in range(data.n):
                if i in js.support:
                    gaps.append(gamma * e[i])
                else:
                    m = data.Y[i] * sum(a * float(b) for a, b in zip(vhat, data.X[i][1]))
                    gaps.append(gamma - (1 - e[i]) * m)
            ratios.append(max(gaps) / max(e))    # ≥ (Γ − Γ(p))/max_i e_i: v̂^mm is a witness for Γ(p)
        assert ratios[1] <= ratios[0] + 1e-9
