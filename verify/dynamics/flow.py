"""Gradient flow by the arc-length flow dψ/ds = −∇L/‖∇L‖, integrated with high-order Radau IIA.

Gradient flow dψ/dt = −∇L(ψ) traces the same curve as the arc-length flow; time is recovered from
dt = ds/‖∇L‖. We integrate u = ln(t + t₀) alongside (du/ds = e^{−u}/‖∇L‖, smooth while t itself
grows like e^{margin·s}; t₀ = 1/‖∇L(ψ(0))‖ makes u' = 1 at the start), so y = (ψ, u).

The flow is stiff once attention saturates: the Jacobian −(I − ĝĝᵀ)∇²L/‖∇L‖ has O(1) eigenvalues
while the solution varies on the scale ‖ψ‖, so explicit methods need O(‖ψ‖) steps. Radau IIA
(L-stable, order 2s−1, s chosen from the precision) takes steps proportional to ‖ψ‖, i.e. O(1) steps
per decade (measured for p to 10⁴ in benchmarks/bench_flow.py: 30–40 steps per decade at 30 digits,
~45 at 100). The stage equations are solved by Newton's method: residuals at the working precision
from one batched gradient sweep over the stages, per-stage Jacobians from the closed-form Hessian
in float64 (``LinearLogitModel.sweep``, verify/models/attention.py; ``radau_solver.py``). The local
error is estimated by a second solve with s−1 stages (order 2s−3, started from the first solution
and its interpolated Jacobians) and kept below 10^−dps relative to max(1, ‖ψ‖). Where the flow
converges to a finite stationary point (the arc-length flow has finite length there) the steps
collapse; the point is then polished by Newton's method and reported (status "stationary"). Events:
the run stops exactly (to the working precision) where the SVM-matching norm reaches ``until_norm``
or ln t reaches ``until_logt``, by a secant iteration on the last step.
"""
from __future__ import annotations

import math
import time

import numpy as np
from flint import arb, arb_mat
from threadpoolctl import threadpool_limits

import verify.dynamics.radau_solver as rs
from verify.data.dataset import Dataset
from verify.dynamics.observe import Observer
from verify.dynamics.parameterization import Parameterization, make_parameterization
from verify.dynamics.radau import tableau
from verify.dynamics.trajectory import Trajectory
from verify.errors import DataError, Undecided, UsageError
from verify.models.attention import Stationary, dot, norm2
from verify.numbers.precision import to_decimal_string, working_precision


def default_stages(dps: int) -> int:
    """Stages s (order 2s−1) for a working precision. Near the real axis the solution has complex
    singularities (softmax poles, at distance ~π/|dΔ/ds| for a logit gap Δ), which cap the step at a
    fraction ~tol^{1/2s} of their distance: more stages take longer steps there at a higher cost per
    step. Measured on the benchmark's dataset (benchmarks/bench_flow.py, one session, one run each, to
    norm 10³), at 100 digits: p with s = 45, 54 took 320, 207 steps and 41.0, 33.4 s; W 375, 229 steps
    and 70.2, 60.2 s; KQ 539, 349, 322 steps (s = 64) and 143, 122, 159 s. At 50 digits s = 28, 32, 36 are
    within 6 % of each other (p 10.7, 10.1, 10.1 s; KQ 35.5, 34.9, 33.6 s), at 30 digits s = 20, 23, 26 within
    8 %. (Before the tableau was rounded to the working precision, 0.35·dps + 10 was the better rule:
    every product with A cost twice as much, which penalised many stages.)"""
    return max(6, min(64, round(max(0.35 * dps + 10, 0.5 * dps + 5))))


class ArcLength:
    """y = (ψ, u): f = (−g/‖g‖, e^{−u}/‖g‖) with g = ∇_ψL and u = ln(t + t₀); counts evaluations.

    The time origin is shifted by t₀ = 1/‖∇L(ψ(0))‖ so that u' = 1 at the start: from an initial
    point far out (‖∇L‖ ~ e^{−1000}) ln(1 + t) would have a log singularity at distance ‖∇L‖."""

    def __init__(self, par: Parameterization, l0: arb = arb(0)):
        self.par = par
        self.l0 = l0
        self.D = par.dim
        self.N = self.D + 1
        self.gradients = 0
        self.hessians = 0

    def rhs_batch(self, ys: list, jacobians: bool = False):
        """f at each point of ``ys`` as an s × N arb_mat (one batched gradient sweep) and, with
        ``jacobians``, the Jacobians ∂f/∂y in float64 (s × N × N):

            ∂f_ψ/∂ψ = −(I − ĝĝᵀ) ∇²L/‖g‖,   ∂f_u/∂ψ = −f_u ∇²L ĝ/‖g‖,   ∂f_u/∂u = −f_u,

        from the scaled float64 Hessians (the scale cancels in ∇²L/‖g‖)."""
        D, N = self.D, self.N
        with np.errstate(over="ignore", invalid="ignore"):  # far-off trial points: checked below
            grads, gf, Hf = self.par.grads([y[:D] for y in ys], jacobians)
        self.gradients += len(ys)
        rows = []
        for g, y in zip(grads, ys):  # plain loops: cheaper than numpy object arrays at these sizes
            gn = dot(g, g).sqrt()
            if not gn > 0:
                raise Stationary("∇L = 0: a stationary point, the flow stays there")
            neg_inv = -1 / gn
            rows.append([x * neg_inv for x in g] + [-neg_inv * (-y[D]).exp()])  # −g/‖g‖, e^{−u}/‖g‖
        F = arb_mat(rows).mid()
        if not jacobians:
            return F, None
        self.hessians += len(ys)
        fu = np.array([float(F[k, D]) for k in range(len(ys))])
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            gnorm = np.linalg.norm(gf, axis=1)
            gh, Hn = gf / gnorm[:, None], Hf / gnorm[:, None, None]
            Hg = np.einsum("sab,sb->sa", Hn, gh)
            J = np.zeros((len(ys), N, N))
            J[:, :D, :D] = gh[:, :, None] * Hg[:, None, :] - Hn
            J[:, D, :D] = -fu[:, None] * Hg
            J[:, D, D] = -fu
        if not np.isfinite(J).all():  # a Newton trial point far off: the step is too long
            raise OverflowError("the Jacobian overflows float64 at a stage point")
        return F, J

    def rhs(self, y):
        return self.rhs_batch([y])[0].entries()

    def log_t(self, u: arb) -> arb:
        return log_t_of(u, self.l0)

    def grad_norm(self, y) -> arb:
        self.gradients += 1
        return norm2(self.par.grads([y[: self.D]])[0][0])


def log_t_of(u: arb, l0: arb) -> arb:
    """ln t from u = ln(t + t₀), t₀ = e^{l0}: ln(e^u − e^{l0}) = u + ln(−expm1(l0 − u))."""
    if not u > l0:
        return arb("-inf")
    return u + (-(l0 - u).expm1()).log()


class _Scale:
    """Scaled norm: ψ-part relative to max(1, ‖ψ0‖), u relative to max(1, |u0|)."""

    def __init__(self, y0, D):
        self.D = D
        self.sp = max(arb(1), norm2(y0[:D]))
        self.su = max(arb(1), abs(y0[D]))
        self._sp, self._su = float(self.sp), float(self.su)

    def vec(self, v) -> arb:
        v = rs.mid_vec(v)  # midpoints: a ball around 0 would make the square root NaN
        return max(norm2(v[: self.D]) / self.sp, abs(v[self.D]) / self.su)

    def mat(self, Z: arb_mat) -> arb:
        N, D, e = Z.ncols(), self.D, Z.mid().entries()
        return max(max(norm2(e[k:k + D]) / self.sp, abs(e[k + D]) / self.su) for k in range(0, len(e), N))

    def floats(self, d: np.ndarray) -> float:
        """``mat`` of a float64 s × N array (O(1) entries: a scaled Newton correction)."""
        if not (math.isfinite(self._sp) and math.isfinite(self._su)):
            return float(self.mat(arb_mat(d.shape[0], d.shape[1], d.ravel().tolist())))
        return float(max(np.linalg.norm(d[:, :self.D], axis=1).max(initial=0.0) / self._sp,
                         np.abs(d[:, self.D]).max() / self._su))


def _finite(x: arb, what: str, dps: int) -> arb:
    """Non-finite values (NaN, ±inf balls) are never taken for numbers: no decision is made on them."""
    if not x.is_finite():
        raise Undecided(f"{what} is not a finite number at {dps} digits (the data's magnitudes need more "
                        "precision than this, or exceed what the integrator supports): no answer")
    return x


def _coerce(source, param, loss, m):
    if isinstance(source, Parameterization):
        return source.data, source
    if not isinstance(source, Dataset):
        raise UsageError("gradient_flow needs a Dataset or a Parameterization")
    kw = {"m": m} if (param == "KQ" and m) else {}
    return source, make_parameterization(source, param, loss, **kw)


def _init_psi(par, init, seed):
    """ψ(0): the parameterisation's default, or the given numbers (arb, int, Fraction or exact strings)."""
    if init is None:
        return par.default_init(seed)
    from fractions import Fraction

    from verify.numbers.precision import to_arb

    psi = [x if isinstance(x, arb) else to_arb(Fraction(str(x)) if isinstance(x, (str, float)) else x) for x in init]
    if len(psi) != par.dim:
        raise UsageError(f"--init has {len(psi)} numbers, the {par.name} parameterisation needs {par.dim}")
    return psi


#: The step budget of a flow inside a claim's check (cumulative over the legs of ``flow_through_norms``). The papers'
#: datasets need at most ~100 steps (tfsvm thm4, conj2, thm7; irgf lemma51, thm51, cmp-frobenius); hostile data (a
#: near-tie at scale 10³: hypothesis found one for tfsvm.conj2) can need ~10⁵ steps of ~20 ms each — an hour. Such
#: a run stops with status "max_steps" and the claim's ``require`` on the status makes its verdict INCONCLUSIVE.
#: It is ``gradient_flow``'s default, so a check cannot forget it; runs meant to be long ask for FLOW_STEPS.
CHECK_STEPS = 1000
#: The budget of a flow a user asked for (``verify flow``, ``verify experiment``'s continued flow, the benchmarks).
FLOW_STEPS = 100000


def gradient_flow(source, param: str = "p", *, until_norm=None, until_logt=None, dps: int = 50,
                  loss="logistic", init=None, stages: int | None = None, tol=None, max_steps: int = CHECK_STEPS,
                  svm: bool = True, progress=None, resume: Trajectory | None = None, m: int | None = None,
                  seed: int = 0, h0=None, record=True, on_step=None) -> Trajectory:
    """Integrate gradient flow of ``param`` on ``source`` (a Dataset or Parameterization) from
    ``init`` (default: 0, or the papers' initialisation for KQ/diag) until the SVM-matching norm
    reaches ``until_norm`` or ln t reaches ``until_logt``, within ``max_steps`` steps (default CHECK_STEPS, a
    check's budget; FLOW_STEPS for a long run: status "max_steps" otherwise). Returns a ``Trajectory`` (records after
    every step, the final one exactly at the event). ``progress(norm, log_t)`` is called after
    each step. ``resume`` continues a saved trajectory (its dataset, parameterisation and state).
    ``on_step(points)`` is called after every accepted step with ψ at θ = 1/4, 1/2, 3/4, 1 of the
    step (collocation polynomial: dense output, same order as the step) — for checks along the path."""
    if until_norm is None and until_logt is None:
        raise UsageError("give --until-norm and/or --until-logt")
    t0 = time.perf_counter()
    # The Newton matrices are small (s·N ≲ 300): multithreaded OpenBLAS made each LU 5–200 ms instead
    # of 0.4 ms on the 2-core machine (half of a 100-digit run), so BLAS runs on one thread here.
    if m is not None and not (isinstance(m, int) and m >= 1):
        raise UsageError(f"m must be a positive integer, got {m!r}")
    with working_precision(dps) as prec, threadpool_limits(limits=1, user_api="blas"):
        if resume is not None:
            meta = resume.meta
            if meta.get("method") != "flow":
                raise DataError(f"the saved run is a {meta.get('method')} trajectory, not a gradient flow; "
                                "flow --resume continues flow runs only")
            if isinstance(source, Parameterization):
                source = source.data
            source = resume.bind(source)  # the saved dataset; another one is refused (fingerprints)
            param, loss, m = meta["param"], meta["loss"], meta.get("m")
        data, par = _coerce(source, param, loss, m)
        target_n = arb(str(until_norm)) if until_norm is not None else None
        target_l = arb(str(until_logt)) if until_logt is not None else None
        if target_n is not None and not target_n > 0:
            raise UsageError(f"--until-norm must be positive, got {until_norm}")
        s_st = stages or default_stages(prec.dps)
        tol = arb(10) ** (-prec.dps) if tol is None else arb(str(tol))
        if resume is not None:
            traj = resume
            # the whole state at *this* precision, from the saved decimal strings (step size included)
            psi = [rs.mid(x) for x in traj.state_at("psi")]
            if len(psi) != par.dim:
                raise DataError(f"the saved state has {len(psi)} numbers, the {par.name} parameterisation "
                                f"of the dataset needs {par.dim}")
            u, s_arc, h = traj.state_at("u"), traj.state_at("s"), traj.state_at("h")
            traj.raw_state = None  # consumed: from here on the state lives in traj.state
            sysm = ArcLength(par, arb(traj.meta["log_t0"]))
            _check_saved_state(traj, par, psi, u, s_arc, sysm.l0, prec.dps)
            sysm.gradients, sysm.hessians = traj.gradient_evaluations, traj.hessian_evaluations
            steps = traj.steps
            obs = Observer(par, prec.dps, svm, [arb(x) for x in traj.meta["psi0"]])
            if traj.status == "stationary" or not u.is_finite():
                raise_stationary = "the saved run ended at a stationary point; there is nothing to continue"
            else:
                raise_stationary = None
            traj.status = "running"
        else:
            psi = [rs.mid(x) for x in _init_psi(par, init, seed)]
            g0 = norm2([rs.mid(x) for x in par.grad(psi)])
            _finite(g0, "the gradient at the initial point", prec.dps)
            if not g0 > 0 and _unresolved_loss_slopes(par, psi):
                raise Undecided(f"the gradient at the initial point is not resolved at {prec.dps} digits (the loss "
                                "slopes ℓ'(φ) there hold 0 and nonzero values: the data's magnitudes need more "
                                "precision): no answer")
            l0 = rs.mid(-g0.log()) if g0 > 0 else arb(0)  # u = ln(t + t₀), t₀ = 1/‖∇L(ψ(0))‖
            sysm = ArcLength(par, l0)
            u, s_arc, steps = l0, arb(0), 0
            h = arb(str(h0)) if h0 is not None else arb("0.01") * max(arb(1), norm2(psi))
            meta = {"method": "flow", "param": par.name, "loss": par.model.loss.name, "precision": prec.dps,
                    "guard": prec.guard, "stages": s_st, "tol": str(tol.mid().str(5, radius=False)),
                    "dataset": data.to_dict(), "dataset_name": data.name, "dataset_sha256": data.fingerprint(),
                    "m": getattr(par, "m", None), "psi0": [x.mid().str(prec.total, radius=False) for x in psi],
                    "log_t0": l0.mid().str(prec.total, radius=False)}
            traj = Trajectory(meta)
            obs = Observer(par, prec.dps, svm, psi)
            raise_stationary = None if g0 > 0 else "∇L(ψ(0)) = 0: the initial point is stationary, the flow does not move"
        traj.meta["stages"] = s_st
        try:
            if raise_stationary:
                raise Stationary(raise_stationary)
            _integrate(traj, sysm, obs, psi, u, s_arc, steps, h, s_st, tol, target_n, target_l,
                       max_steps, progress, record, prec, on_step)
        except KeyboardInterrupt as exc:  # keep the partial run for --save / resume
            traj.status = "interrupted"
            saved_s = traj.state.get("s")  # a record taken after the last saved state is dropped: the
            while (len(traj.records) > 1 and isinstance(saved_s, arb)  # file's state and records must agree
                   and traj.records[-1].s.mid() > saved_s.mid()):
                traj.records.pop()
            traj.seconds += time.perf_counter() - t0
            exc.trajectory = traj
            raise
        except Stationary as exc:
            traj.status = "stationary"
            traj.notes.append(str(exc))
            if not traj.records:
                traj.records.append(obs.record(psi, s_arc, None, arb(0)))
            traj.state.update({"psi": psi, "u": u, "s": s_arc, "steps": steps, "h": h,
                               "gradient_evaluations": sysm.gradients, "hessian_evaluations": sysm.hessians})
        # the integrated records (a stationary point found by Newton's polish is not on the flow itself)
        integrated = traj.records[:-1] if traj.status == "stationary" else traj.records
        drifts = [r.invariant_drift for r in integrated if r.invariant_drift is not None]
        if drifts and max(drifts) > arb(10) ** (-(prec.dps - 5)) * max(arb(1), norm2(traj.psi) ** 2):
            traj.notes.append("self-check: the conserved quantities drifted by "
                              f"{max(drifts).mid().str(3, radius=False)} (beyond the working precision)")
        traj.seconds += time.perf_counter() - t0
    return traj


def _check_saved_state(traj, par, psi, u, s_arc, l0, dps: int) -> None:
    """A resumed run continues from the saved state only if the state agrees with the file's own
    records: the last record was taken at the state (its arc length, norm and ln t), the first at
    ``meta.psi0`` (norm, arc length 0). A state edited by hand (its records not) is refused (DataError,
    exit 5) instead of continuing from it as if it were on the saved flow."""
    if not traj.records:
        raise DataError("records: empty (a saved flow has at least its starting point)")
    digits = min(dps, int(traj.meta["precision"])) - 3  # records are printed to the saved precision

    def differ(a, b) -> bool:
        if a is None or b is None:
            return (a is None) != (b is None)
        if not (a.is_finite() and b.is_finite()):
            return to_decimal_string(a, 3) != to_decimal_string(b, 3)
        return bool(abs(arb(a.mid()) - arb(b.mid())) > arb(10) ** (-digits) * max(arb(1), abs(arb(b.mid()))))

    last, first = traj.records[-1], traj.records[0]
    stationary = traj.status == "stationary" or not u.is_finite()
    checks = [("the norm of state.psi", par.norm(psi), "records[-1].norm", last.norm),
              ("the norm of meta.psi0", par.norm([rs.mid(arb(x)) for x in traj.meta["psi0"]]),
               "records[0].norm", first.norm), ("0 (the start)", arb(0), "records[0].s", first.s)]
    if not stationary:  # (a stationary point polished by Newton's method lies off the integrated arc)
        checks.append(("state.s", s_arc, "records[-1].s", last.s))
        if last.log_t is not None:
            checks.append(("ln t of state.u", log_t_of(u, l0), "records[-1].log_t", last.log_t))
    th = par.theta(psi)
    nt = norm2(th)
    if nt > 0 and len(last.direction) == len(th):
        checks += [(f"component {k} of the direction of state.psi", x / nt, f"records[-1].direction[{k}]", r)
                   for k, (x, r) in enumerate(zip(th, last.direction))]
    where = f"{traj.path}: " if getattr(traj, "path", None) else ""
    for name, value, rec_name, rec in checks:
        if differ(value, rec):
            show = lambda x: "none" if x is None else to_decimal_string(x, 12)  # noqa: E731
            raise DataError(f"{where}the saved state disagrees with the file's own records: {name} is {show(value)}, "
                            f"{rec_name} is {show(rec)} (the file was edited?); refusing to continue from it")


def flow_through_norms(source, param: str, norms, *, init=None, **kw):
    """``gradient_flow`` stopped exactly at each of the increasing ``norms`` in turn (one resumed run):
    yields the trajectory after each leg, and stops after a leg that did not reach its norm. ``kw``
    goes to ``gradient_flow`` (``on_step`` sees every step of every leg)."""
    traj = None
    for r in norms:
        traj = gradient_flow(source if traj is None else None, param, until_norm=r,
                             init=init if traj is None else None, resume=traj, **kw)
        yield traj
        if traj.status != "reached":
            return


def _event_value(sysm, y, D, target_n, target_l, norm=None):
    """The most advanced event function (≥ 0 means reached) and which one (``norm``: the SVM-matching
    norm of y when already at hand)."""
    par = sysm.par
    vals = []
    if target_n is not None:
        vals.append((((par.norm(y[:D]) if norm is None else norm) - target_n) / target_n, "norm"))
    if target_l is not None:
        vals.append(((sysm.log_t(y[D]) - target_l) / max(arb(1), abs(target_l)), "log_t"))
    return max(vals, key=lambda v: v[0].mid())


class _Step:
    """One Radau IIA step y0 → y0 + h: Newton main solve (s stages) and the error-estimate solve
    (s − 1 stages, from the main polynomial and its Jacobians interpolated to the other nodes)."""

    def __init__(self, sysm, tab, tab2, tol):
        self.sysm, self.tab, self.tab2, self.tol = sysm, tab, tab2, tol

    def main(self, y, h, Zpred, scale):
        res, J, _hess = rs.solve_stages(self.tab, self.sysm, y, h, Zpred, scale.mat, self.tol,
                                        norm_float=scale.floats)
        return res, J

    def secondary(self, y, h, res, J, scale):
        J2 = rs.interpolate_jacobians(self.tab, J, self.tab2)
        res2, _J, _hess = rs.solve_stages(self.tab2, self.sysm, y, h, rs.restage(self.tab, res.Z, self.tab2),
                                          scale.mat, self.tol, J0=J2, norm_float=scale.floats)
        return res2


#: Step-size controller. The error estimate aims at ERR_TARGET·tol; below ERR_FLOOR·tol it is rounding
#: noise and counts as ERR_FLOOR·tol (measured on KQ at 100 digits, 10 guard digits: estimates of
#: 1e-11·tol to 1e-14·tol, or exactly 0, on steps that grew h; a floor of 1e-5·tol held the growth there
#: at 1.054 a step — half of the steps to ‖KQᵀ‖_* = 10 were spent regrowing h after each narrow passage).
#: The step after an accepted one is also limited by the predictive (Gustafsson) factor, which follows
#: the error's trend: the allowed step shrank ~0.78× per step on the way into a narrow passage, where the
#: plain controller alternated accepted and rejected steps (benchmarks/bench_flow.py).
ERR_TARGET, ERR_FLOOR = 1e-3, 1e-8


def _clamp(fac: float) -> float:
    return min(1.5, max(0.3, fac))


def _integrate(traj, sysm, obs, psi, u, s_arc, steps, h, s_st, tol, target_n, target_l, max_steps,
               progress, record, prec, on_step=None):
    par, D = sysm.par, sysm.D

    def dense(y0, Z, y1):
        if on_step is not None:
            pts = [rs.interpolate(tab, Z, y0, arb(k) / 4)[:D] for k in (1, 2, 3)]
            on_step([[rs.mid(x) for x in q] for q in pts] + [y1[:D]])

    tab, tab2 = tableau(s_st), tableau(s_st - 1)
    stepper = _Step(sysm, tab, tab2, tol)
    y = psi + [u]
    ev0, _ = _event_value(sysm, y, D, target_n, target_l)
    if ev0 >= 0:  # already there
        traj.records.append(obs.record(psi, s_arc, sysm.log_t(u), sysm.grad_norm(y)))
        traj.status = "reached" if ev0 == 0 else "started beyond the target"
        _save_state(traj, y, D, s_arc, steps, h, sysm)
        return
    if not traj.records:
        traj.records.append(obs.record(psi, s_arc, sysm.log_t(u), sysm.grad_norm(y)))
    Zpred = None
    rejected = int(traj.state.get("rejected", 0))
    fails = 0
    hist = None  # (h, ln(err/target)) of the last accepted step
    expo = 1.0 / (2 * s_st - 2)
    while True:
        if steps >= max_steps:
            traj.status = "max_steps"
            break
        scale = _Scale(y, D)
        if h < arb(10) ** (-(prec.dps // 3)) * scale.sp or fails > 12:
            _stalled(traj, sysm, obs, y, s_arc, prec)
            break
        if Zpred is None:
            f0 = sysm.rhs(y)
            Zpred = arb_mat([[rs.mid(c * h * fj) for fj in f0] for c in tab.c])
        try:
            res, Js = stepper.main(y, h, Zpred, scale)
            res2 = stepper.secondary(y, h, res, Js, scale) if res.converged else None
        except (Stationary, ValueError, ZeroDivisionError, OverflowError):
            # a Newton trial point far off (∇L = 0 to every digit there, or a float64 overflow in
            # the Newton matrix): the step is too long, not the trajectory stationary
            res = res2 = None
        if res is None or not res.converged or not res2.converged:
            hist = None
            rejected += 1
            fails += 1
            h_old, h = h, h * arb("0.5")
            Zpred = rs.restage(tab, Zpred, tab, h / h_old)
            continue
        y1 = [y[j] + res.Z[s_st - 1, j] for j in range(D + 1)]
        y1b = [y[j] + res2.Z[s_st - 2, j] for j in range(D + 1)]
        err = scale.vec([a - b for a, b in zip(y1, y1b)])
        # Controller: aim at 10^-3·tol (the estimate scatters by orders of magnitude between steps
        # while err ∝ h^(2s−2), so a cautious target is cheap and avoids rejections); below the
        # rounding noise floor (ERR_FLOOR) the error is not measurable and h grows by a fixed factor.
        lq = float((max(err, tol * ERR_FLOOR) / (tol * ERR_TARGET)).log().mid())  # ln(err/target): steers only
        fac = _clamp(math.exp(-lq * expo))
        if err > tol:
            rejected += 1
            fails += 1
            h_old, h = h, h * arb(fac)
            Zpred = rs.restage(tab, res.Z, tab, h / h_old)
            continue
        if hist is not None:  # predictive (Gustafsson): the error's trend since the last accepted step
            fac = min(fac, _clamp(float((h / hist[0]).mid()) * math.exp((hist[1] - 2 * lq) * expo)))
        if fails:  # the first step after a rejection does not grow h (Hairer–Wanner, RADAU5)
            fac = min(fac, 1.0)
        fails = 0
        hist = (h, lq)
        y1 = [rs.mid(x) for x in y1]
        # the norm at the new point, once: for the event test, the record and the progress line (a KQ
        # nuclear norm is an eigenvalue problem)
        norm1 = par.norm(y1[:D]) if (target_n is not None or record or progress) else None
        ev, kind = _event_value(sysm, y1, D, target_n, target_l, norm1)
        if ev >= 0:
            y1, h_ev, Z_ev = _locate(stepper, y, h, res.Z, scale, target_n, target_l, ev)
            dense(y, Z_ev, y1)
            steps += 1
            s_arc = s_arc + h_ev
            y = y1
            traj.records.append(obs.record(y[:D], s_arc, sysm.log_t(y[D]), sysm.grad_norm(y)))
            traj.records[-1].evaluations, traj.records[-1].hessians = sysm.gradients, sysm.hessians
            traj.status = "reached"
            traj.meta["event"] = kind
            _save_state(traj, y, D, s_arc, steps, h, sysm, rejected)
            if progress:
                progress(traj.records[-1].norm, traj.records[-1].log_t)
            return
        steps += 1
        s_arc = s_arc + h
        dense(y, res.Z, y1)
        y = y1
        if record:
            traj.records.append(obs.record(y[:D], s_arc, sysm.log_t(y[D]), None, norm=norm1))
            traj.records[-1].evaluations, traj.records[-1].hessians = sysm.gradients, sysm.hessians
        h_old, h = h, rs.mid(h * arb(fac))
        Zpred = rs.predict(tab, res.Z, h_old, tab, h)
        _save_state(traj, y, D, s_arc, steps, h, sysm, rejected)  # before the progress call, which may stop the run
        if progress:
            progress(norm1, sysm.log_t(y[D]))


def _stalled(traj, sysm, obs, y, s_arc, prec):
    """Steps collapsed: the flow is converging to a finite stationary point (the arc-length flow
    has finite length there). Polish it with Newton's method on ∇L = 0 and record it."""
    par, D = sysm.par, sysm.D
    psi = y[:D]
    converged = False  # Newton reached a zero of ∇L: its last step is negligible against ‖ψ‖
    radius = float((arb("1e-3") * max(arb(1), norm2(psi))).mid())  # how far a "nearby" point may be
    for _ in range(60):
        g, H = par.grad_hess(psi)
        sysm.gradients += 1
        sysm.hessians += 1
        try:
            step = H.solve(arb_mat(D, 1, g), algorithm="approx").entries()
        except ZeroDivisionError:  # a singular Hessian (KQ and diag have continuous symmetries, so
            step = _pinv_step(H, g, radius)  # their stationary points come in sets): the minimum-norm step
            if step is None:
                break
        psi = [rs.mid(a - b) for a, b in zip(psi, step)]
        if norm2(step) <= arb(10) ** (-prec.dps) * max(arb(1), norm2(psi)):
            converged = True
            break
    g, H = par.grad_hess(psi)
    gn = norm2([rs.mid(x) for x in g])
    moved = norm2([a - b for a, b in zip(psi, y[:D])])
    # A stationary point: ∇L negligible in absolute terms *and* against the curvature there — Newton
    # converged, or (a singular Hessian, e.g. KQ's symmetry) ‖∇L‖ ≤ 10^(−dps/2)·‖∇²L‖. Far out along
    # a separating direction ‖∇L‖ and ‖∇²L‖ are both e^{−‖p‖}-small: not stationary, only slow.
    small = arb(10) ** (-(prec.dps // 2))
    flat = converged or gn <= small * _frobenius(H)
    if flat and moved < arb("1e-3") * max(arb(1), norm2(psi)) and gn < small:
        ev = [e.real for e in H.eig(algorithm="approx")] if D > 0 else []
        flat_tol = small * max([abs(e) for e in ev] + [arb(0)])
        if any(e < -flat_tol for e in ev):
            kind = "saddle point"
        elif any(abs(e) <= flat_tol for e in ev):
            kind = "one of a set of stationary points: the Hessian is singular there, with no negative curvature"
        else:
            kind = "local minimum"
        traj.status = "stationary"
        traj.notes.append(f"gradient flow converges to a finite stationary point ({kind}) at ‖ψ‖ = "
                          f"{norm2(psi).str(10, radius=False)}; ‖∇L‖ there = {gn.mid().str(3, radius=False)}; "
                          "the norm target is never reached")
        y = psi + [arb("inf")]
    else:
        traj.status = "stalled"
        traj.notes.append("step size collapsed without a nearby stationary point (the integrator could not "
                          "continue: no answer)")
        psi = y[:D]
    traj.records.append(obs.record(psi, s_arc + moved, sysm.log_t(y[D]) if traj.status != "stationary" else arb("inf"), gn))
    traj.state.update({"psi": psi, "u": y[D], "s": s_arc})


def _pinv_step(H, g, radius: float = math.inf):
    """H⁺g by a float64 pseudo-inverse of the scaled Hessian (None if H or g is zero/not finite):
    the Newton step restricted to the range of a singular H. Each such step gains ~15 digits.
    Eigen-directions whose component of the step would exceed ``radius`` are left out as well: off a
    set of stationary points its tangent directions have curvature of the order of ‖∇L‖, just above
    the cut-off or just below it, and inverting one of them sends the step along the set, far from
    the point being polished (measured: 0.06 for a stall 10⁻⁶ from the set)."""
    D = len(g)
    hs = max((abs(rs.mid(x)) for x in H.entries()), default=arb(0))
    gs = max((abs(rs.mid(x)) for x in g), default=arb(0))
    if not (hs > 0 and gs > 0 and hs.is_finite() and gs.is_finite()):
        return None
    Hf = np.array([[float((H[i, j].mid() / hs).mid()) for j in range(D)] for i in range(D)])
    gf = np.array([float((x.mid() / gs).mid()) for x in g])
    if not (np.isfinite(Hf).all() and np.isfinite(gf).all()):
        return None
    lam, V = np.linalg.eigh(Hf)
    c = V.T @ gf
    keep = np.abs(lam) > 1e-10 * np.abs(lam).max()  # numpy's pinv cut-off (rcond = 1e-10)
    comp = np.where(keep, c / np.where(keep, lam, 1.0), 0.0)
    scale = float((gs / hs).mid())
    if not np.isfinite(scale):  # ‖∇L‖/‖∇²L‖ beyond float64 (data at 10^−400): every component is out of reach
        return None
    comp[np.abs(comp) * scale > radius] = 0.0
    step = V @ comp
    if not np.isfinite(step).all():
        return None
    return [arb(float(x)) * gs / hs for x in step]


def _unresolved_loss_slopes(par, psi) -> bool:
    """Some ℓ'(φ_i) at ψ is a ball that holds 0 and nonzero values ([0 ± e^(−10¹⁰⁰)] for logits of 10¹⁰⁰): a gradient
    whose midpoints are then 0 is not a stationary start, the precision just cannot see it (a gradient 0 by
    cancellation of resolved terms, as on mmts-infeasible-B at p = 0, is one)."""
    model = par.model
    if not (hasattr(model, "terms") and hasattr(model, "loss")):
        return False
    slopes = (model.loss.d1(x) for x in model.terms([par.theta(psi)]).phi)
    return any(not (d < 0 or d > 0 or d == 0) for d in slopes)


def _frobenius(H) -> arb:
    return norm2([rs.mid(x) for x in H.entries()])


def _locate(stepper, y0, h, Z, scale, target_n, target_l, ev_h):
    """Step from y0 to the event exactly: dense output for a first guess, then secant on full steps."""
    sysm, tab, tol = stepper.sysm, stepper.tab, stepper.tol
    D = sysm.D
    ev = lambda yy: _event_value(sysm, yy, D, target_n, target_l)[0]  # noqa: E731
    lo, flo = arb(0), ev(y0)
    hi, fhi = arb(1), ev_h
    th = arb(1)
    for _ in range(60):  # regula falsi on the collocation polynomial
        if flo.is_finite():
            th = rs.mid(lo - flo * (hi - lo) / (fhi - flo))
        else:  # ln t = −∞ at the start of the flow (t = 0): bisect until the bracket has a finite end
            th = rs.mid((lo + hi) / 2)
        fth = ev(rs.interpolate(tab, Z, y0, th))
        if abs(fth) < tol:
            break
        if fth > 0:
            hi, fhi = th, fth
        else:
            lo, flo = th, fth
    pts = [(arb(1), ev_h)]
    best = None  # (|event|, y1, step, Z) of the best full step so far
    for _ in range(20):  # secant on full Radau steps of length θh
        hs = rs.mid(h * th)
        try:
            res, _Js = stepper.main(y0, hs, rs.restage(tab, Z, tab, th), scale)
        except (Stationary, ValueError, ZeroDivisionError, OverflowError):  # a trial point far off: not the
            res = None  # trajectory's stationarity; the best step so far (or the dense output) stands
        if res is None or not res.converged:
            break
        y1 = [y0[j] + res.Z[tab.s - 1, j] for j in range(D + 1)]
        f1 = ev(y1)
        if not f1.is_finite():
            break
        if best is None or abs(f1.mid()) < best[0]:
            best = (abs(f1.mid()), y1, hs, res.Z)
        if abs(f1) <= tol * 10:
            break
        th0, f0 = pts[-1]
        pts.append((th, f1))
        if not abs(f1 - f0) > 0:  # the event function is flat to its precision here: no better θ to find
            break
        nxt = rs.mid(th - f1 * (th - th0) / (f1 - f0))
        # a secant step that leaves the step or no longer moves θ: the event is located as well as the
        # event function can tell (ln t near t = 0 is known to the precision of u = ln(t + t₀) only)
        if not (nxt.is_finite() and 0 < nxt <= 2) or abs(nxt - th) <= tol * th:
            break
        th = nxt
    if best is None:  # no full step converged: the collocation polynomial at θ (same order as the step)
        return [rs.mid(x) for x in rs.interpolate(tab, Z, y0, th)], rs.mid(h * th), rs.restage(tab, Z, tab, th)
    return [rs.mid(x) for x in best[1]], best[2], best[3]


def _save_state(traj, y, D, s_arc, steps, h, sysm, rejected=0):
    traj.state.update({"psi": y[:D], "u": y[D], "s": s_arc, "h": h, "steps": steps, "rejected": rejected,
                       "gradient_evaluations": sysm.gradients, "hessian_evaluations": sysm.hessians})
