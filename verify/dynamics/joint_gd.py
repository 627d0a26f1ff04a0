"""The authors' joint (v, p) normalised GD at the working precision (mmts Sec. 3, Fig. 3).

MaxMarginTokenSelection/joint_training.ipynb trains the head v (``model.w``) and the prompt p together: per step both
gradients of L(v, p) = (1/n)Σ ℓ(Y_i vᵀX_iᵀS(K_i p)) are normalised separately, v ← v − η∇_v/(‖∇_v‖ + ε_v),
p ← p − η∇_p/(‖∇_p‖ + ε_p) (the notebook: ε_v = 1e-9, ε_p = 1e-19). The gradient is ``verify.models.joint``'s
(stable in saturation); each iterate is kept as the exact midpoint of its ball, so the run is exact given its
rounded gradients, as ``verify.dynamics.gd`` does for one parameter.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.models.attention import norm2
from verify.models.joint import JointModel
from verify.numbers.precision import to_arb, working_precision


def joint_normalized_gd(data, init, *, steps: int, eta, eps_v, eps_p, dps: int, loss="logistic", on_state=None,
                        on_step=None) -> list:
    """The iterates ψ(0), …, ψ(steps) (ψ = (v, p), arb lists, exact midpoints) of the joint normalised GD."""
    with working_precision(dps):
        model = JointModel(data, loss)
        d = model.d
        psi = [to_arb(Fraction(x)) for x in init]
        eta, ev, ep = (to_arb(Fraction(x)) for x in (eta, eps_v, eps_p))
        if on_state:
            on_state(0, psi)
        for k in range(1, steps + 1):
            _, g = model.loss_grad(psi)
            g = [arb(x.mid()) for x in g]
            new = list(psi)
            for a, b, eps in ((0, d, ev), (d, model.D, ep)):
                gn = norm2(g[a:b])
                if gn + eps > 0:
                    c = eta / (gn + eps)
                    new[a:b] = [arb((x - c * y).mid()) for x, y in zip(psi[a:b], g[a:b])]
            psi = new
            if on_state:
                on_state(k, psi)
            if on_step:
                on_step(k)
    return psi
