"""Gradient descent (fixed step η ≤ 1/L) and normalised gradient descent, at the working precision.

* ``gd``:            ψ ← ψ − η ∇L(ψ), default η = 1/L_θ with the smoothness constant of mmts Lemma 6
                     ((6)/(24), in the derived form of its proof: L_θ = (1/n) Σ_i (M₀‖γ_i‖²‖F_i‖₂² +
                     3M₁‖γ_i‖‖F_i‖₂²), F_i the T × D feature matrix, spectral norm; for p this is the
                     paper's constant with K_i = X_i W). For the factorised KQ / diag parameterisations L_θ
                     does not bound the ψ-Hessian; the default there is η = 1/(L_θ (1 + ‖ψ(0)‖²)), a heuristic.
* ``normalized_gd``: ψ ← ψ − η ∇L/(‖∇L‖ + ε) (the papers' experiments; ε = 0 by default) — an explicit
                     Euler scheme for the arc-length flow, so its path approaches the gradient-flow curve.

Both record sparsely (iterations 0, 1, 2, 5, 10, 20, 50, … and the last one) and can resume.
"""
from __future__ import annotations

import time

from flint import arb

from verify.dynamics.flow import _coerce, _init_psi
from verify.dynamics.observe import Observer
from verify.dynamics.trajectory import Trajectory
from verify.errors import UsageError
from verify.models.attention import norm2
from verify.numbers.linalg import spectral_norm
from verify.numbers.precision import working_precision


def smoothness_constant(par) -> arb:
    """L_θ of mmts Lemma 6 for the linear-logit form θ of ``par`` (an upper bound on ‖∇²_θL‖₂)."""
    m = par.model
    gam = [g for row in m.gamma for g in row]
    B = max(abs(g) for g in gam)
    M0, M1 = m.loss.constants(B)
    tot = arb(0)
    for Fi, gi in zip(m.F, m.gamma):
        f2 = arb(spectral_norm(Fi).upper()) ** 2  # certified upper bound on ‖F_i‖₂²
        g2 = norm2(gi)
        tot += M0 * g2 * g2 * f2 + 3 * M1 * g2 * f2
    return tot / m.n


def _checkpoints(k: int) -> bool:
    """Sparse recording: 0, 1, 2, 5, 10, 20, 50, … (1-2-5 per decade)."""
    if k < 3:
        return True
    while k % 10 == 0:
        k //= 10
    return k in (1, 2, 5)


def _run(method, source, param, steps, eta, dps, loss, init, svm, progress, resume, eps, until_norm, m, seed):
    t0 = time.perf_counter()
    with working_precision(dps) as prec:
        if resume is not None:
            source = source if source is not None else resume.dataset()
            param, loss, m = resume.meta["param"], resume.meta["loss"], resume.meta.get("m")
        data, par = _coerce(source, param, loss, m)
        if resume is not None:
            traj = resume
            raw = getattr(traj, "raw_state", None) or {}
            psi = [arb(x) for x in raw["psi"]] if "psi" in raw else [arb(x) for x in traj.state["psi"]]
            k0 = int(traj.state["steps"])
            eta = arb(traj.meta["eta"])
            obs = Observer(par, prec.dps, svm, [arb(x) for x in traj.meta["psi0"]])
            grads = int(traj.state.get("gradient_evaluations", 0))
        else:
            psi = _init_psi(par, init, seed)
            k0, grads = 0, 0
            if eta is None:
                if method == "gd":
                    L = smoothness_constant(par)
                    eta = 1 / L if par.name in ("p", "W", "beta") else 1 / (L * (1 + norm2(psi) ** 2))
                else:
                    eta = arb("0.1")
            eta = arb(str(eta)) if not isinstance(eta, arb) else eta
            if not eta > 0:
                raise UsageError(f"step size must be positive, got {eta}")
            traj = Trajectory({"method": method, "param": par.name, "loss": par.model.loss.name,
                               "precision": prec.dps, "guard": prec.guard, "eta": eta.mid().str(prec.total, radius=False),
                               "eps": str(eps), "dataset": data.to_dict(), "dataset_name": data.name,
                               "m": getattr(par, "m", None),
                               "psi0": [x.mid().str(prec.total, radius=False) for x in psi]})
            obs = Observer(par, prec.dps, svm, psi)
        target = arb(str(until_norm)) if until_norm is not None else None
        eps = arb(str(eps))

        def clock(k):
            t = k * eta
            return t.log() if (method == "gd" and t > 0) else None

        if k0 == 0 and not traj.records:
            traj.records.append(obs.record(psi, arb(0), clock(0)))
        traj.status = "running"
        k = k0
        for k in range(k0 + 1, k0 + steps + 1):
            g = [arb(x.mid()) for x in par.grad(psi)]
            grads += 1
            gn = norm2(g)
            if method == "gd":
                psi = [arb((x - eta * y).mid()) for x, y in zip(psi, g)]
            else:
                if not gn + eps > 0:
                    traj.status = "stationary"
                    break
                c = eta / (gn + eps)
                psi = [arb((x - c * y).mid()) for x, y in zip(psi, g)]
            reached = target is not None and par.norm(psi) >= target
            if _checkpoints(k) or k == k0 + steps or reached:
                traj.records.append(obs.record(psi, arb(k), clock(k), gn))
                if progress:
                    progress(traj.records[-1].norm, traj.records[-1].log_t)
            if reached:
                traj.status = "reached"
                break
        else:
            traj.status = "done"
        traj.state.update({"psi": psi, "steps": k, "gradient_evaluations": grads})
        traj.seconds += time.perf_counter() - t0
    return traj


def gd(source, param: str = "p", *, steps: int = 1000, eta=None, dps: int = 50, loss="logistic", init=None,
       svm: bool = True, progress=None, resume: Trajectory | None = None, until_norm=None, m=None,
       seed: int = 0) -> Trajectory:
    """Fixed-step GD for ``steps`` iterations (η default 1/L_θ, mmts Lemma 6); log_t = ln(k·η)."""
    return _run("gd", source, param, steps, eta, dps, loss, init, svm, progress, resume, 0, until_norm, m, seed)


def normalized_gd(source, param: str = "p", *, steps: int = 1000, eta="0.1", eps=0, dps: int = 50,
                  loss="logistic", init=None, svm: bool = True, progress=None, resume: Trajectory | None = None,
                  until_norm=None, m=None, seed: int = 0) -> Trajectory:
    """Normalised GD ψ ← ψ − η∇L/(‖∇L‖ + ε); records ``s`` = k (iterations), ``log_t`` None."""
    return _run("ngd", source, param, steps, eta, dps, loss, init, svm, progress, resume, eps, until_norm, m, seed)
