"""Gradient descent (fixed step η ≤ 1/L) and normalised gradient descent, at the working precision.

* ``gd``:            ψ ← ψ − η ∇L(ψ), default η = 1/L_θ with the smoothness constant of mmts Lemma 6
                     ((6)/(24), in the derived form of its proof: L_θ = (1/n) Σ_i (M₀‖γ_i‖²‖F_i‖₂² +
                     3M₁‖γ_i‖‖F_i‖₂²), F_i the T × D feature matrix, spectral norm; for p this is the
                     paper's constant with K_i = X_i W). For the factorised KQ / diag parameterisations L_θ
                     does not bound the ψ-Hessian; the default there is η = 1/(L_θ (1 + ‖ψ(0)‖²)), a heuristic.
* ``normalized_gd``: ψ ← ψ − η ∇L/(‖∇L‖ + ε) (the papers' experiments; ε = 0 by default) — an explicit
                     Euler scheme for the arc-length flow, so its path approaches the gradient-flow curve.
                     This is the authors' update exactly (github:ucr-optml/max_margin_attention,
                     MaxMarginTokenSelection/single_input_converge.ipynb: ``model.prompt.grad /=
                     (model.prompt.grad.norm()+0.000000001)`` then ``torch.optim.SGD(lr=η).step()``, i.e.
                     p ← p − η∇/(‖∇‖₂ + ε), ε *added* to the norm, not max(‖∇‖, ε); multi_input_converge.ipynb
                     uses ε = 1e−12). For the factorised (K, Q) — and by the same rule the diagonal (k, q) —
                     each factor is normalised by its own gradient norm, as the authors do
                     (TFasSVM/local_converge.ipynb: ``model.key.weight.grad /= (model.key.weight.grad.norm()+eps)``
                     and the same for ``query``); a factor whose gradient is exactly 0 (with ε = 0) is not moved
                     (torch would produce 0/0 = NaN).

Both record sparsely (iterations 0, 1, 2, 5, 10, 20, 50, … and the last one) and can resume. Stop rules:
``steps`` iterations, or earlier where the SVM-matching norm reaches ``until_norm`` (status ``reached``) or, for
``gd``, where ln(k·η) reaches ``until_logt``. ``on_step(k)`` is called after every iteration (progress bars, a
Ctrl-C latch); an interrupt (KeyboardInterrupt) carries the run so far as ``exc.trajectory`` (state and a last
record at the last completed iteration), so it can be saved and resumed.
"""
from __future__ import annotations

import time
from fractions import Fraction

from flint import arb

from verify.dynamics.flow import _coerce, _init_psi
from verify.dynamics.observe import Observer
from verify.dynamics.trajectory import Trajectory
from verify.errors import DataError, UsageError
from verify.models.attention import norm2
from verify.numbers.linalg import spectral_norm
from verify.numbers.precision import agreement_digits, working_precision


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


def exact_number(x, what: str) -> Fraction:
    """η, ε as given (int, Fraction, decimal or rational text, float) → an exact Fraction (UsageError if not)."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, arb):
        raise UsageError(f"{what}: give an exact number (text, int or Fraction), not a ball")
    try:
        return Fraction(str(x).strip()) if not isinstance(x, float) else Fraction(x)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"{what}: not a number: {x!r}")


def exact_text(q: Fraction) -> str:
    """An exact number as text that ``verify.data.inputs`` reads back exactly: its decimal expansion when it
    terminates ("0.1", "1e-9"), else "p/q"."""
    den = q.denominator
    for f in (2, 5):
        while den % f == 0:
            den //= f
    if den != 1:
        return str(q)
    from verify.numbers.precision import to_decimal_string

    return to_decimal_string(q, len(str(abs(q.numerator))) + len(str(q.denominator)) + 2)


def factor_blocks(par) -> list[tuple[int, int]]:
    """Index ranges normalised separately by ``normalized_gd``: (K, Q) and (k, q) factor by factor (the authors'
    per-tensor normalisation), everything else as one block."""
    from verify.dynamics.parameterization import KQ, DiagKQ

    D = par.dim
    if isinstance(par, (KQ, DiagKQ)):
        return [(0, D // 2), (D // 2, D)]
    return [(0, D)]


def _check_state(traj, par, psi, k0: int, dps: int) -> None:
    """A resumed GD run continues only from a state its own last record describes (no hand-edited state)."""
    last = traj.final
    where = getattr(traj, "path", "the trajectory")
    if last is None:
        raise DataError(f"{where}: no records to check the saved state against")
    if not (last.s.is_exact() and last.s == k0):
        raise DataError(f"{where}: the saved state (iteration {k0}) disagrees with the file's own last record "
                        f"(iteration {last.s.mid().str(10, radius=False)}) (the file was edited?)")
    if agreement_digits(par.norm(psi), last.norm, dps) < max(5, dps - 10):
        raise DataError(f"{where}: the saved state's norm disagrees with the file's own last record "
                        "(the file was edited?)")


def _run(method, source, param, steps, eta, dps, loss, init, svm, progress, resume, eps, until_norm, m, seed,
         until_logt=None, on_step=None, on_state=None, ridge=None):
    t0 = time.perf_counter()
    with working_precision(dps) as prec:
        if resume is not None:
            if resume.meta.get("method") != method:
                raise UsageError(f"the saved run is {resume.meta.get('method')}, not {method}; resume it with its "
                                 "own method")
            source = source if source is not None else resume.dataset()
            param, loss, m = resume.meta["param"], resume.meta["loss"], resume.meta.get("m")
        data, par = _coerce(source, param, loss, m)
        if resume is not None:
            traj = resume
            raw = getattr(traj, "raw_state", None) or {}
            psi = [arb(x) for x in raw["psi"]] if "psi" in raw else [arb(x) for x in traj.state["psi"]]
            k0 = int(traj.state["steps"])
            eta = arb(traj.meta["eta"])
            from verify.data.inputs import parse_decimal_text

            epsq = parse_decimal_text(str(traj.meta.get("eps", "0")), "meta.eps")  # bounded like every saved number
            if epsq < 0:
                raise DataError(f"meta.eps: must not be negative, got {traj.meta.get('eps')}")
            obs = Observer(par, prec.dps, svm, [arb(x) for x in traj.meta["psi0"]])
            grads = int(traj.state.get("gradient_evaluations", 0))
            _check_state(traj, par, psi, k0, prec.dps)
        else:
            psi = _init_psi(par, init, seed)
            k0, grads = 0, 0
            epsq = exact_number(eps, "eps")
            if epsq < 0:
                raise UsageError(f"ε must not be negative, got {eps}")
            if eta is None:
                if method == "gd":
                    if not hasattr(par.model, "gamma"):
                        raise UsageError("a nonlinear head has no certified smoothness constant L: give the step "
                                         "size η explicitly")
                    L = smoothness_constant(par)
                    eta = 1 / L if par.name in ("p", "W", "beta") else 1 / (L * (1 + norm2(psi) ** 2))
                else:
                    eta = "0.1"
            etaq = exact_number(eta, "η") if not isinstance(eta, arb) else None
            eta = arb(str(eta)) if etaq is not None else eta  # parsed as before (the claims' figures unchanged)
            if not eta > 0:
                raise UsageError(f"step size must be positive, got {eta}")
            eta_text = exact_text(etaq) if etaq is not None else eta.mid().str(prec.total, radius=False)
            if "/" in eta_text:  # meta.eta is read back as a decimal: the rounded value the run used
                eta_text = eta.mid().str(prec.total, radius=False)
            traj = Trajectory({"method": method, "param": par.name, "loss": par.model.loss.name,
                               "precision": prec.dps, "guard": prec.guard, "eta": eta_text,
                               "eps": exact_text(epsq), "dataset": data.to_dict(), "dataset_name": data.name,
                               "m": getattr(par, "m", None),
                               "psi0": [x.mid().str(prec.total, radius=False) for x in psi]})
            if method == "ngd" and len(factor_blocks(par)) > 1:
                traj.meta["normalised"] = "per factor"
            obs = Observer(par, prec.dps, svm, psi)
        for value, what in ((until_norm, "until_norm"), (until_logt, "until_logt")):
            if value is not None:
                exact_number(value, what)  # a number (DataError else); parsed below as before
        target = arb(str(until_norm)) if until_norm is not None else None
        target_t = arb(str(until_logt)) if (until_logt is not None and method == "gd") else None
        eps = arb(str(epsq))
        blocks = factor_blocks(par) if method == "ngd" else None
        if resume is not None:
            ridge = traj.meta.get("ridge")
        elif ridge is not None:
            if exact_number(ridge, "ridge") < 0:  # L + ridge·‖ψ‖² with ridge < 0 is unbounded below: no descent to study
                raise UsageError(f"ridge must be ≥ 0 (the objective adds ridge·‖ψ‖²), got {ridge!r}")
            traj.meta["ridge"] = exact_text(exact_number(ridge, "ridge"))
        twice = 2 * arb(str(exact_number(ridge, "ridge"))) if ridge is not None else None

        def clock(k):
            t = k * eta
            return t.log() if (method == "gd" and t > 0) else None

        if k0 == 0 and not traj.records:
            traj.records.append(obs.record(psi, arb(0), clock(0)))
        if on_state:
            on_state(k0, psi)
        traj.status = "running"
        done, gn = k0, None
        try:
            for k in range(k0 + 1, k0 + steps + 1):
                g = par.grad(psi)
                # the objective's gradient, rounded once: ∇L, or ∇L + 2·ridge·ψ for L + ridge·‖ψ‖²
                g = [arb(x.mid()) for x in g] if twice is None else [arb((x + twice * y).mid()) for x, y in zip(g, psi)]
                grads += 1
                gn = norm2(g)
                if method == "gd":
                    new = [arb((x - eta * y).mid()) for x, y in zip(psi, g)]
                else:
                    new = list(psi)
                    for a, b in blocks:
                        gb = norm2(g[a:b]) if len(blocks) > 1 else gn
                        if not gb + eps > 0:
                            continue  # this factor's gradient is exactly 0 (ε = 0): it does not move
                        c = eta / (gb + eps)
                        new[a:b] = [arb((x - c * y).mid()) for x, y in zip(psi[a:b], g[a:b])]
                    if not gn + eps > 0:
                        traj.status = "stationary"
                        break
                psi, done = new, k
                if on_state:
                    on_state(k, psi)
                reached = target is not None and par.norm(psi) >= target
                reached = reached or (target_t is not None and clock(k) >= target_t)
                if _checkpoints(k) or k == k0 + steps or reached:
                    traj.records.append(obs.record(psi, arb(k), clock(k), gn))
                    if progress:
                        progress(traj.records[-1].norm, traj.records[-1].log_t)
                if on_step:
                    on_step(k)
                if reached:
                    traj.status = "reached"
                    break
            else:
                traj.status = "done"
        except KeyboardInterrupt as exc:  # keep what was computed: the state and a record at it
            traj.status = "interrupted"
            traj.state.update({"psi": psi, "steps": done, "gradient_evaluations": grads})
            if traj.final is None or traj.final.s != done:
                traj.records.append(obs.record(psi, arb(done), clock(done), gn))
            traj.seconds += time.perf_counter() - t0
            exc.trajectory = traj
            raise
        if traj.status == "stationary" and traj.final.s != done:
            traj.records.append(obs.record(psi, arb(done), clock(done), gn))
        traj.state.update({"psi": psi, "steps": done, "gradient_evaluations": grads})
        traj.seconds += time.perf_counter() - t0
    return traj


def gd(source, param: str = "p", *, steps: int = 1000, eta=None, dps: int = 50, loss="logistic", init=None,
       svm: bool = True, progress=None, resume: Trajectory | None = None, until_norm=None, m=None,
       seed: int = 0, until_logt=None, on_step=None, on_state=None) -> Trajectory:
    """Fixed-step GD for ``steps`` iterations (η default 1/L_θ, mmts Lemma 6); log_t = ln(k·η); stops early at
    ``until_norm`` or where ln(k·η) ≥ ``until_logt``; ``on_state(k, ψ)`` sees every iterate."""
    return _run("gd", source, param, steps, eta, dps, loss, init, svm, progress, resume, 0, until_norm, m, seed,
                until_logt, on_step, on_state)


def normalized_gd(source, param: str = "p", *, steps: int = 1000, eta="0.1", eps=0, dps: int = 50,
                  loss="logistic", init=None, svm: bool = True, progress=None, resume: Trajectory | None = None,
                  until_norm=None, m=None, seed: int = 0, on_step=None, on_state=None, ridge=None) -> Trajectory:
    """Normalised GD ψ ← ψ − η∇L/(‖∇L‖ + ε) (per factor for (K, Q) and (k, q)); records ``s`` = k (iterations),
    ``log_t`` None. ε is exact (``"1e-9"`` is 10⁻⁹ exactly) and is read back from a resumed run. ``on_state(k, ψ)``
    sees every iterate (k = 0 the start), for a caller that needs more than the sparse records. ``ridge`` (exact,
    ≥ 0) descends L(ψ) + ridge·‖ψ‖² instead (the authors' (K, Q) runs add ε(‖K‖² + ‖Q‖²), TFasSVM/*.ipynb); the
    records still show L."""
    return _run("ngd", source, param, steps, eta, dps, loss, init, svm, progress, resume, eps, until_norm, m, seed,
                None, on_step, on_state, ridge)
