"""The mechanics of tfsvm Theorem 7's check (local convergence to a locally-optimal direction W^mm_α): cone
membership and the norm floor tracked along a path, W-GD with every iterate checked, the arc-length flow stopped at
given norms (within the check's step budget) with its dense points checked, min_i s_{iα_i}, and the figure of the paths
in the plane of W^mm_α and W^mm. The statement, its constants and the verdict live in ``lemmas.tfsvm.thm7``."""
from __future__ import annotations

import math
from fractions import Fraction

from flint import arb

from verify.claims import Figure, Series, Tally
from verify.dynamics import CHECK_STEPS, flow_through_norms
from verify.geometry.local_cone import corr_margin
from verify.models.attention import norm2
from verify.numbers.precision import to_arb, to_decimal_string


def arb_vector(W):
    """Exact entries (rationals, strings) as arb balls; balls kept as they are."""
    return [x if isinstance(x, arb) else to_arb(Fraction(x)) for x in W]


def min_selected(model, W, alpha) -> arb:
    """min_i s_{iα_i} (the softmax entry itself: accurate when small; 1 − s is never formed)."""
    return min((st.s[a] for st, a in zip(model.states(arb_vector(W)), alpha)), key=lambda x: x.mid())


class Track:
    """Cone membership and the norm floor at every point of one start's path (two Tallies per (α, method))."""

    def __init__(self, cone, mu, R, cone_tally: Tally, floor_tally: Tally):
        self.w, self.mu, self.R = cone.w, mu, R
        self.cone, self.floor = cone_tally, floor_tally
        self.exit = None

    def check(self, W, where):
        a = self.cone.add(corr_margin(W, self.w, self.mu), where)
        b = self.floor.add(norm2(W) - self.R, where)
        if (a is False or b is False) and self.exit is None:
            self.exit = where


def gd(model, W0, eta, steps, track: Track, label):
    """W-GD from the exact W0 (iterates kept as exact midpoints), every iterate checked."""
    W = [arb(to_arb(Fraction(x)).mid()) for x in W0]
    track.check(W, f"{label}, k = 0")
    for k in range(1, steps + 1):
        g = model.grad(W)
        W = [arb((a - eta * b).mid()) for a, b in zip(W, g)]
        track.check(W, f"{label}, k = {k}")
    return W


def flow(data, W0, stops, dps, loss, track: Track | None, label, keep=None):
    """The arc-length gradient flow from W0, stopped exactly at ``stops``; every step end and the dense points
    inside a step checked (``track``); returns [(‖W‖, W)] at the stops and the status."""
    recs, count = [], {"k": 0}

    def on_step(points):
        for p in points:
            count["k"] += 1
            W = [arb(x.mid()) for x in p]
            if track is not None:
                track.check(W, f"{label}, flow point {count['k']}")
            if keep is not None:
                keep.append(W)

    status = "not run"
    for traj in flow_through_norms(data, "W", [to_decimal_string(s, 30) for s in stops], init=list(W0), dps=dps,
                                   loss=loss, svm=False, on_step=on_step, max_steps=CHECK_STEPS):
        status = traj.status
        if status == "reached":
            W = [arb(x.mid()) for x in traj.psi]
            recs.append((norm2(W), W))
    return recs, status


def plane_figure(paths, gmm, cones, mu):
    """W projected on the plane of W^mm_α (x axis) and the part of W^mm orthogonal to it (y), for the first
    locally-optimal α ≠ opt: the cone boundary, the LMM and GMM directions, the paths (‖W‖ ≤ 3R)."""
    cone = next((c for c in cones if gmm is not None and c is not gmm), None)
    if cone is None:
        return None
    w = [float(x) for x in cone.w]
    g = [float(x) for x in gmm.w]
    nw = math.sqrt(sum(x * x for x in w))
    e1 = [x / nw for x in w]
    gp = [b - sum(p * q for p, q in zip(g, e1)) * a for a, b in zip(e1, g)]
    ng = math.sqrt(sum(x * x for x in gp))
    if ng == 0:
        return None
    e2 = [x / ng for x in gp]
    R = float(cone.radius().mid())
    cap = 3 * R
    m = float(cone.mu if mu is None else Fraction(mu))
    th = math.acos(1 - m)
    series = [Series("cone boundary", [0, cap * math.cos(th)], [0, cap * math.sin(th)], "k--"),
              Series("", [0, cap * math.cos(th)], [0, -cap * math.sin(th)], "k--"),
              Series(f"LMM W^mm_α, {cone.name}", [0, cap], [0, 0], "b-"),
              Series("GMM W^mm", [0, cap * sum(a * b for a, b in zip(g, e1)) / math.sqrt(sum(x * x for x in g))],
                     [0, cap * ng / math.sqrt(sum(x * x for x in g))], "r-"),
              Series("‖W‖ = R", [R * math.cos(t / 20) for t in range(-20, 21)],
                     [R * math.sin(t / 20) for t in range(-20, 21)], "g:")]
    for c, lb, pts in paths:
        if c is not cone:
            continue
        xs, ys = [], []
        for W in pts:
            f = [float(x.mid()) for x in W]
            if math.sqrt(sum(x * x for x in f)) > cap:
                break
            xs.append(sum(a * b for a, b in zip(f, e1)))
            ys.append(sum(a * b for a, b in zip(f, e2)))
        series.append(Series(lb[:30], xs, ys, "-"))
    return Figure("plane", f"Theorem 7: paths in the plane of W^mm_α and W^mm ({cone.name})",
                  "⟨W, Ŵ^mm_α⟩", "⟨W, e⊥⟩ (e⊥: W^mm orthogonal to W^mm_α)", series,
                  caption=f"Cone C_(μ,R)(W^mm_α), μ = {cone.mu if mu is None else Fraction(mu)}, R = {R:.4g}; "
                          "paths up to ‖W‖ = 3R (GD moves by ~e^(−R/‖W^mm_α‖) per step there: the paths are the "
                          "flow's).")
