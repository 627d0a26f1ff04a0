"""The joint regularization path of mmts Sec. 3: (v̄_r, p̄_R) ∈ argmin_{‖v‖ ≤ r, ‖p‖ ≤ R} L(v, p), r = c·R.

* The objective is log L(v, p) (``verify.models.joint``; L⋆ = inf L = 0 when the label SVM is feasible, so L is
  its own excess). Its p-dependence is a relative correction ~e^{−RΘ} that the stable margins carry to the working
  precision; the precision must resolve it: dps ≳ RΘ/ln 10 + 20 (mmts §8.2), which the caller chooses.
* At every radius the minimum on the product of spheres ‖v‖ = r, ‖p‖ = R is sought by the Riemannian Newton of
  ``verify.dynamics.regpath.product_sphere_minimize`` (the regularization path's, with two blocks) from several
  starts: each candidate direction pair scaled to the radii (e.g. (v^mm, p^mm(α)) and (v^mm, p^relax)), the
  previous radius' solution and seeded random points; the best is kept. Global optimality is multistart evidence.
* What is reported is re-evaluated in arb at the found point: L (a ball), the radial derivatives
  ⟨∇_v L, v⟩/r and ⟨∇_p L, p⟩/R (both < 0: moving inward in either ball increases L, the point is a KKT point of
  the product of balls on both spheres), and the comparison with the best candidate's L at its raw scaled point
  (certainly ≤, certainly >, or undecided) — the optimisation requirement of ``verify.kit.paths``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb, arb_mat

from verify.dynamics.regpath import product_sphere_minimize
from verify.errors import UsageError
from verify.models.attention import dot, norm2
from verify.models.joint import JointModel
from verify.numbers.precision import to_arb, working_precision


def _mid(x):
    return arb(x.mid())


@dataclass
class JointPathPoint:
    R: arb                        # the p radius
    r: arb                        # the v radius (c·R)
    v: list
    p: list
    excess: arb                   # L(v̄, p̄) (ball; L⋆ = 0)
    radial_v: arb                 # ⟨∇_v L, v⟩/r at the point
    radial_p: arb                 # ⟨∇_p L, p⟩/R
    selected: tuple               # argmax of the logits per sequence
    candidate_excess: arb | None = None   # L at the best candidate pair (raw, scaled to the radii)
    candidate: str | None = None
    certified_le_candidate: bool | None = None
    starts: int = 0
    notes: list = field(default_factory=list)

    @property
    def on_spheres(self) -> bool | None:
        """Both radial derivatives certainly < 0 (True), one certainly ≥ 0 (False), else None."""
        if self.radial_v < 0 and self.radial_p < 0:
            return True
        if self.radial_v >= 0 or self.radial_p >= 0:
            return False
        return None


@dataclass
class JointPath:
    coupling: Fraction
    points: list
    precision: int


def _log_loss(model):
    def value(x):
        L = model.loss_value(x)
        return L.log() if L > 0 else arb("inf")

    def newton(x):
        L, g, H = model.loss_grad_hess(x)
        if not L > 0:
            raise ArithmeticError("L is not certainly positive (raise the precision)")
        D = len(x)
        gf = [_mid(a / L) for a in g]
        Hf = arb_mat(D, D, [_mid(H[i, j] / L - gf[i] * gf[j]) for i in range(D) for j in range(D)])
        return L.log(), gf, Hf

    return value, newton


def _scaled(direction, rho):
    vec = [to_arb(x) for x in direction]
    n = norm2(vec)
    if not n > 0:
        raise UsageError("a candidate direction is zero")
    return [rho * a / n for a in vec]


def joint_regularization_path(data, radii=(1, 2, 5, 10, 20, 50), *, coupling=1, candidates=None, dps: int = 50,
                              loss="logistic", starts: int = 2, seed: int = 0, progress=None) -> JointPath:
    """The joint path at each R of ``radii`` with r = ``coupling``·R; ``candidates``: {name: (v direction, p
    direction)} (exact or arb), used as starts and as the optimisation requirement's reference."""
    c = Fraction(str(coupling))
    if not c > 0:
        raise UsageError("the coupling r/R must be positive")
    candidates = dict(candidates or {})
    with working_precision(dps) as prec:
        model = JointModel(data, loss)
        d, D = model.d, model.D
        value, newton = _log_loss(model)
        rng = random.Random(seed)
        points, prev = [], None
        for R in radii:
            R = to_arb(Fraction(str(R)))
            if not R > 0:
                raise UsageError("radii must be positive")
            r = to_arb(c) * R
            blocks = ((0, d, r), (d, D, R))
            starts_list = []
            for name, (vd, pd) in candidates.items():
                starts_list.append((name, _scaled(vd, r) + _scaled(pd, R)))
            if prev is not None:
                starts_list.append(("previous", prev))
            for _ in range(starts):
                starts_list.append(("random", [to_arb(Fraction(rng.gauss(0.0, 1.0))) for _ in range(D)]))
            best, cand = None, None
            for name, x0 in starts_list:
                if norm2(x0[:d]) == 0 or norm2(x0[d:]) == 0:
                    continue
                if name not in ("previous", "random"):
                    L0 = model.loss_value(x0)
                    if cand is None or L0.mid() < cand[1].mid():
                        cand = (name, L0)
                try:
                    x, f, _ = product_sphere_minimize(value, newton, [_mid(a) for a in x0], blocks, prec.dps)
                except (ArithmeticError, ZeroDivisionError):
                    continue
                if best is None or f < best[1] or (not f >= best[1] and f.mid() < best[1].mid()):
                    best = (x, f)
            if best is None:
                raise ArithmeticError("no start of the joint path converged")
            x = best[0]
            prev = x
            points.append(_point(model, R, r, x, cand, len(starts_list)))
            if progress:
                progress(points[-1])
        return JointPath(c, points, prec.dps)


def _point(model, R, r, x, cand, nstarts) -> JointPathPoint:
    L, g = model.loss_grad(x)
    d = model.d
    v, p = x[:d], x[d:]
    cert, cand_L, cand_name = None, None, None
    if cand is not None:
        cand_name, cand_L = cand
        cert = True if L <= cand_L else (False if L > cand_L else None)
    return JointPathPoint(R=R, r=r, v=v, p=p, excess=L, radial_v=dot(g[:d], v) / r, radial_p=dot(g[d:], p) / R,
                          selected=model.selected(p), candidate_excess=cand_L, candidate=cand_name,
                          certified_le_candidate=cert, starts=nstarts)
