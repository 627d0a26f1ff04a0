"""``python -m verify flow``: gradient flow, GD or normalised GD of one parameterisation on a dataset.

    python -m verify flow --data F --param p|W|KQ|diag --until-norm 1e4 --precision 100 [--json]
        [--method flow|gd|ngd] [--eta X] [--eps X] [--steps K]
        [--loss logistic|exponential|correlation] [--init zero|paper|random[:SEED]|a,b,c|FILE.json]
        [--until-logt X] [--save TRAJ.json] [--resume TRAJ.json] [--stages S] [--no-svm] [--check-digits]
        [--attention single|seq2seq|causal]

``--method flow`` (the default) integrates the arc-length flow to an exact norm (``--until-norm``) or time
(``--until-logt``); ``gd`` iterates ψ ← ψ − η∇L (η from ``--eta``, default 1/L, mmts Lemma 6's certified
smoothness constant) and ``ngd`` the authors' normalised GD ψ ← ψ − η∇L/(‖∇L‖ + ε) (``--eta``, default 0.1;
``--eps``, default 0; per factor for K, Q — ``verify.dynamics.gd``), for ``--steps`` iterations or until
``--until-norm`` (gd also ``--until-logt``, ln t = ln(k·η)). A dataset with a nonlinear ``head`` runs with gd/ngd
only (the arc-length flow needs Hessians the head model does not have).

Prints the Flow JSON of docs/contract.md (numbers as decimal strings; ``log_t`` is the natural log of the
gradient-flow time) or the same figures as text. ``--check-digits`` recomputes the run from the same start
at precision + 10 and prints every final figure with the digits on which the two runs agree
(``stable_digits``); without it the figures carry precision − 10 digits, not measured.
Exit codes: 0 solved (also when the run converges to a finite stationary point: ``status`` says
so), 2 bad flags or an unusable ``--save`` destination (checked before the run), 3 no answer (the
integrator stalled or hit its step limit, a figure is not a finite number), 5 bad data or a bad
``--resume`` file (validated like a dataset, and bound to its dataset: ``--data`` must be the same
one), 130 interrupted, 143 terminated by SIGTERM (with ``--save`` the partial trajectory is written
in both cases and can be resumed).
"""
from __future__ import annotations

import json
import os
import random
import sys
from fractions import Fraction

from verify.cli.common import Parser, clip, not_numbers, path_flag, run_verb
from verify.data.inputs import parse_flag_int, parse_flag_number, parse_json, read_text
from verify.errors import DataError, SignalLatch, Undecided, UsageError
from verify.numbers.precision import DEFAULT_DPS, parse_precision, to_decimal_string, working_precision

PARAMS = ("p", "W", "KQ", "diag", "beta")
METHODS = ("flow", "gd", "ngd")
MAX_M = 1000  # --m: K, Q are d×m; beyond this the Newton matrices alone outgrow any machine
MAX_STEPS = 10**9  # --steps
DEFAULT_STEPS = 100000  # gd/ngd stopped by a target only: the iteration limit (reaching it is no answer)
NGD_ETA = "0.1"  # the papers' normalised-GD step


def _parser() -> Parser:
    p = Parser(prog="verify flow", description="gradient flow, GD or normalised GD to an exact norm, time or step")
    p.add_argument("--data", metavar="FILE", help="dataset JSON (required unless --resume)")
    p.add_argument("--param", default=None, help="p, W, KQ or diag (diagonal (k,q)); beta = diagonal W trained directly")
    p.add_argument("--method", default=None,
                   help="flow (arc-length gradient flow, the default), gd (fixed step η) or ngd (normalised GD, "
                        "ψ ← ψ − η∇L/(‖∇L‖ + ε), the papers' experiments)")
    p.add_argument("--eta", default=None, help="gd/ngd step size η > 0 (gd default 1/L, the certified smoothness "
                                               f"constant; ngd default {NGD_ETA})")
    p.add_argument("--eps", default=None, help="ngd: ε ≥ 0 added to ‖∇L‖ exactly as the authors do (default 0)")
    p.add_argument("--steps", default=None, help=f"gd/ngd: iterations, 1..{MAX_STEPS} (stops earlier at a "
                                                 "--until-norm / --until-logt target)")
    p.add_argument("--until-norm", default=None, help="stop where the SVM-matching norm equals this (> 0)")
    p.add_argument("--until-logt", default=None, help="stop where ln t equals this (gd: ln(k·η))")
    p.add_argument("--precision", default=None, help=f"decimal digits, 15..10000 (default {DEFAULT_DPS})")
    p.add_argument("--loss", default=None, choices=("logistic", "exponential", "correlation"))
    p.add_argument("--init", default=None, help="zero | paper | random[:SEED] | comma-separated numbers | JSON file")
    p.add_argument("--stages", default=None, help="flow: Radau IIA stages, 2..200 (default from the precision)")
    p.add_argument("--m", default=None, help=f"embedding dimension of K, Q (KQ only; 1..{MAX_M}; default d)")
    p.add_argument("--attention", default=None,
                   help="single (one query z_i per sequence), seq2seq (every token a query) or causal (query k sees "
                        "t <= k); W and KQ only; default: the dataset's (causal when flagged, seq2seq with Yq)")
    p.add_argument("--save", metavar="FILE", help="write the trajectory (resumable) to FILE")
    p.add_argument("--resume", metavar="FILE", help="continue a saved trajectory")
    p.add_argument("--no-svm", action="store_true", help="skip the SVM references (1 − corr columns empty)")
    p.add_argument("--check-digits", action="store_true",
                   help="recompute at precision + 10 and report the stable digits of every figure")
    p.add_argument("--json", action="store_true", help="print the Flow JSON on stdout")
    return p


def _target(text, flag) -> str:
    """--until-norm (positive) / --until-logt: an exact number, checked as text before any conversion."""
    parse_flag_number(text, flag, positive=(flag == "--until-norm"))
    return str(text).strip()


def _init(spec, par_name, data, seed_default=0):
    """--init: None (default), or a list of exact numbers for ψ(0)."""
    if spec is None or spec in ("paper", "default"):
        return None, seed_default
    if spec == "zero":
        return "zero", 0
    if spec.startswith("random"):
        _, _, seed = spec.partition(":")
        return "random", parse_flag_int(seed or "0", "--init random:SEED", 0, 2**63 - 1)
    if not spec.strip():
        raise UsageError("--init needs zero, paper, random[:SEED], numbers or a JSON file, got an empty value")
    if os.path.exists(spec):
        vals = parse_json(read_text(spec, "--init file", "--init"), f"--init {spec}")
        if not isinstance(vals, list):
            raise DataError(f"--init {spec}: expected a JSON list of numbers")
        flat, stack = [], [vals]
        while stack:
            v = stack.pop(0)
            if isinstance(v, list):
                stack[:0] = v
            else:
                flat.append(v)
        from verify.data.inputs import parse_number

        return [parse_number(v, f"--init {spec}[{k}]") for k, v in enumerate(flat)], 0
    vals = [v for v in spec.split(",") if v.strip()]
    return [parse_flag_number(v, "--init") for v in vals], 0


# ----- the point reached ----------------------------------------------------------------------------
def point_shape(meta: dict, psi: list, d: int) -> dict:
    """ψ split into the parameterisation's named parts: {"p": […]}, {"W": rows}, {"K": d×m, "Q": d×m},
    {"k": […], "q": […]} or {"beta": […]} (a head run on ``diag`` trains β directly)."""
    param, n = meta["param"], len(psi)
    if param == "p":
        return {"p": list(psi)}
    if param == "W":
        return {"W": [list(psi[a * d:(a + 1) * d]) for a in range(d)]}
    if param == "KQ":
        m = meta.get("m") or d
        return {"K": [list(psi[a * m:(a + 1) * m]) for a in range(d)],
                "Q": [list(psi[d * m + a * m:d * m + (a + 1) * m]) for a in range(d)]}
    if param == "diag" and n == 2 * d:
        return {"k": list(psi[:d]), "q": list(psi[d:])}
    return {"beta": list(psi)}


def _map_leaves(obj, fn):
    if isinstance(obj, dict):
        return {k: _map_leaves(v, fn) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_map_leaves(v, fn) for v in obj]
    return fn(obj)


def point_json(traj, digits) -> dict:
    """The end point ψ (``point_shape``) as decimal strings; ``digits`` one count for every entry, or a list
    (per entry of ψ, the measured stable digits)."""
    psi = list(traj.state["psi"])
    per = digits if isinstance(digits, list) else [digits] * len(psi)
    text = [to_decimal_string(x, max(1, k)) for x, k in zip(psi, per)]
    return point_shape(traj.meta, text, traj.dataset().d)


def point_digits(run, check, cap: int) -> list[int]:
    """Per entry of ψ: the significant digits on which the run and its recomputation at a higher precision agree."""
    from verify.numbers.precision import agreement_digits

    a, b = list(run.state["psi"]), list(check.state["psi"])
    if len(a) != len(b):
        return [0] * len(a)
    return [agreement_digits(x, y, cap) for x, y in zip(a, b)]


# ----- the Flow JSON --------------------------------------------------------------------------------
def flow_json(traj, seconds: float, stable: dict | None = None, check_precision: int | None = None,
              point_stable: list | None = None) -> dict:
    """The Flow JSON object of a finished trajectory (docs/contract.md). With ``stable`` (the measured
    stable digits of each figure, ``stable_digits``) every figure is printed to its stable digits, and with
    ``point_stable`` each entry of the end point to its own; otherwise to precision − 10 digits, and
    ``stable_digits`` is null (not measured)."""
    dps = int(traj.meta["precision"])
    plain = max(15, dps - 10)

    def f(x, name=None):
        if x is None:
            return None
        digits = max(1, stable[name]) if stable and stable.get(name) is not None else plain
        return to_decimal_string(x, digits)

    method = traj.meta.get("method", "flow")
    last = traj.final
    out = {
        "method": method, "param": traj.meta["param"], "loss": traj.meta["loss"], "norm": f(last.norm, "norm"),
        "log_t": f(last.log_t, "log_t") if last.log_t is not None and last.log_t.is_finite() else (
            None if last.log_t is None else ("inf" if last.log_t > 0 else "-inf")),
        "steps": traj.steps, "gradient_evaluations": traj.gradient_evaluations,
        "selected": list(last.selected), "one_minus_corr": f(last.one_minus_corr, "one_minus_corr"),
        "one_minus_corr_gmm": f(last.one_minus_corr_gmm, "one_minus_corr_gmm"),
        "loss_gap": f(last.excess, "loss_gap"),
        "seconds": f"{seconds:.3f}", "precision": dps,
        "status": traj.status, "dataset": traj.meta.get("dataset_name"),
        "hessian_evaluations": traj.hessian_evaluations,
        "invariant_drift": f(last.invariant_drift),
        "stable_digits": stable, "check_precision": check_precision,
    }
    if method != "flow":
        eta = traj.meta.get("eta")
        out["eta"] = eta if len(eta) <= plain + 8 else to_decimal_string(Fraction(eta), plain)
        out["eps"] = traj.meta.get("eps") if method == "ngd" else None
    if traj.meta.get("head"):
        out["head"] = traj.meta["head"]
    fit = traj.fit_rate("one_minus_corr")
    # 1 − corr ≈ C‖θ‖^(−a) over the second half (in log ‖θ‖) of the run (floats: a reported trend)
    out["one_minus_corr_fit"] = None if not fit else {
        "rate": f"{fit['rate']:.6g}", "C": f"{fit['C']:.6g}", "norm_range": [f"{x:.6g}" for x in fit["norm_range"]],
        "points": fit["points"]}
    out["point"] = point_json(traj, point_stable if point_stable is not None else plain)
    # the fewest stable digits of any entry of the point (each entry is printed to its own); null: not measured
    out["point_stable_digits"] = min(point_stable, default=None) if point_stable is not None else None
    notes = list(traj.notes)
    if stable is None:
        notes.append(f"stable digits not measured (figures printed to {plain} digits); "
                     "--check-digits recomputes at precision + 10 and compares")
    out["notes"] = notes
    return out


def main(argv: list[str]) -> int:
    return run_verb(_latched, argv)


def _latched(argv) -> int:
    with SignalLatch() as latch:
        return _main(argv, latch)


FINITE_FIGURES = ("norm", "loss_gap", "one_minus_corr", "one_minus_corr_gmm", "invariant_drift")
NO_ANSWER = {"stalled": "the integrator's step size collapsed away from any stationary point",
             "max_steps": "the integrator reached its step limit"}


def nonlinear_head(data) -> str | None:
    """The kind of the dataset's head when it is not the linear vᵀx (None for the paper's linear head)."""
    head = getattr(data, "head", None) if data is not None else None
    return None if head is None or head[0] == "linear" else head[0]


def _source(data, param, loss, m, attention, head, dps):
    """What the driver runs on: the dataset itself, or a parameterisation built at ``dps`` (seq2seq attention,
    a nonlinear head)."""
    from verify.dynamics.parameterization import make_parameterization

    if head:
        from verify.dynamics.heads import HeadParameterization

        with working_precision(dps):
            return HeadParameterization(data, param, None, loss)
    if attention is not None and attention != "single":
        with working_precision(dps):  # seq2seq attention: the parameterisation carries the model (validates)
            return make_parameterization(data, param, loss, attention=attention,
                                         **({"m": m} if m and param == "KQ" else {}))
    return data


class _Options:
    """The run's validated flags (method, stop rule, step sizes) — what a --check-digits rerun repeats."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


def _method_flags(a, resume) -> _Options:
    """--method, --eta, --eps, --steps and the stop targets, checked together (one-line UsageError)."""
    method = a.method if a.method is not None else "flow"
    if method not in METHODS:
        raise UsageError(f"unknown --method {method!r}; choose flow, gd or ngd")
    saved = resume.meta.get("method") if resume is not None else None
    if resume is not None and method != saved:  # the file is not a run of the method asked for (as before: exit 5)
        what = {"flow": "a gradient flow", "gd": "a gd run", "ngd": "an ngd run"}[method]
        raise DataError(f"the saved run is a {saved} trajectory, not {what}; resume it with --method {saved}")
    if method == "flow":
        for flag, given in (("--eta", a.eta), ("--eps", a.eps), ("--steps", a.steps)):
            if given is not None:
                raise UsageError(f"{flag} applies to --method gd|ngd (the flow is stopped by --until-norm / "
                                 "--until-logt)")
        if a.until_norm is None and a.until_logt is None:
            raise UsageError("give --until-norm N (and/or --until-logt X)")
    else:
        if a.stages is not None:
            raise UsageError(f"--stages applies to --method flow (the Radau integrator), not {method}")
        if method == "gd" and a.eps is not None:
            raise UsageError("--eps applies to --method ngd (normalised GD), not gd")
        if method == "ngd" and a.until_logt is not None:
            raise UsageError("--until-logt does not apply to ngd (normalised GD has no time t); stop it with "
                             "--steps K or --until-norm N")
        if a.steps is None and a.until_norm is None and a.until_logt is None:
            raise UsageError(f"give --steps K (and/or --until-norm N{' or --until-logt X' if method == 'gd' else ''})")
        if resume is not None:
            for flag, given in (("--eta", a.eta), ("--eps", a.eps)):
                if given is not None:
                    raise UsageError(f"{flag} does not apply with --resume (the saved run keeps its own)")
    eta = parse_flag_number(a.eta, "--eta", positive=True) if a.eta is not None else None
    eps = parse_flag_number(a.eps, "--eps", nonnegative=True) if a.eps is not None else Fraction(0)
    steps = parse_flag_int(a.steps, "--steps", 1, MAX_STEPS) if a.steps is not None else None
    until_norm = _target(a.until_norm, "--until-norm") if a.until_norm is not None else None
    until_logt = _target(a.until_logt, "--until-logt") if a.until_logt is not None else None
    return _Options(method=method, eta=eta, eps=eps, steps=steps, until_norm=until_norm, until_logt=until_logt)


def _drive(o, source, param, *, dps, loss, init, stages, svm, progress, tick, resume, m, seed, steps=None):
    """One run of the chosen method (``steps``: the gd/ngd iteration budget of this run)."""
    if o.method == "flow":
        from verify.dynamics.flow import FLOW_STEPS, gradient_flow

        return gradient_flow(source, param, until_norm=o.until_norm, until_logt=o.until_logt, dps=dps, loss=loss,
                             init=init, stages=stages, svm=svm, progress=progress, resume=resume, m=m, seed=seed,
                             max_steps=FLOW_STEPS)
    from verify.dynamics.gd import gd, normalized_gd

    kw = dict(steps=steps, dps=dps, loss=loss, init=init, svm=svm, progress=progress, resume=resume,
              until_norm=o.until_norm, m=m, seed=seed, on_step=tick)
    if o.method == "gd":
        return gd(source, param, eta=o.eta, until_logt=o.until_logt, **kw)
    return normalized_gd(source, param, eta=o.eta if o.eta is not None else NGD_ETA, eps=o.eps, **kw)


def _main(argv, latch: SignalLatch) -> int:
    import time

    from verify.data.dataset import load_dataset
    from verify.data.outputs import check_file
    from verify.dynamics.parameterization import make_parameterization
    from verify.dynamics.trajectory import Trajectory

    a = _parser().parse_args(argv)
    if a.precision is not None:
        parse_precision(a.precision)
    if a.param is not None and a.param not in PARAMS:
        raise UsageError(f"unknown --param {a.param!r}; choose p, W, KQ or diag")
    if a.method is not None and a.method not in METHODS:
        raise UsageError(f"unknown --method {a.method!r}; choose flow, gd or ngd")
    stages = parse_flag_int(a.stages, "--stages", 2, 200) if a.stages is not None else None
    m = parse_flag_int(a.m, "--m", 1, MAX_M) if a.m is not None else None
    data_path, resume_path = path_flag(a.data, "--data"), path_flag(a.resume, "--resume")
    save = path_flag(a.save, "--save")
    if resume_path is None and data_path is None:
        raise UsageError("--data FILE is required (or --resume TRAJ)")
    if resume_path is not None and a.init is not None:
        raise UsageError("--init does not apply with --resume (the saved run continues from its own state)")
    if resume_path is None:
        o = _method_flags(a, None)  # flags first: a bad flag is exit 2 before any file is read
    if save:
        check_file(save, "--save")  # before the run: a destination that fails fails now, not after it
    resume = Trajectory.load(resume_path) if resume_path else None
    if resume is not None:
        o = _method_flags(a, resume)
        for flag, given, saved in (("--param", a.param, resume.meta["param"]), ("--loss", a.loss, resume.meta["loss"]),
                                   ("--m", m, resume.meta.get("m"))):
            if given is not None and given != saved:
                raise UsageError(f"{flag} {given} differs from the saved run's {saved}; a resumed run keeps its own")
    dps = parse_precision(a.precision if a.precision is not None else
                          (resume.meta["precision"] if resume else DEFAULT_DPS))
    param = a.param or (resume.meta["param"] if resume else "p")
    if m is not None and param != "KQ":
        raise UsageError(f"--m applies to --param KQ only (got --param {param})")
    if a.attention is not None:
        from verify.models.seq2seq import ATTENTIONS

        if a.attention not in ATTENTIONS:
            raise UsageError(f"unknown --attention {a.attention!r}; choose one of {', '.join(ATTENTIONS)}")
        if resume is not None:
            raise UsageError("--attention does not apply with --resume (the saved dataset's flags decide)")
    data = load_dataset(data_path) if data_path else None
    if resume is not None:
        data = resume.bind(data)  # another dataset than the saved run's is refused (fingerprints)
    loss = a.loss or (resume.meta["loss"] if resume else "logistic")
    head = nonlinear_head(data)
    if head:
        _check_head(o, head, data, param, a.attention)
    elif a.attention == "single":
        from verify.models.seq2seq import attention_of

        attention_of(data, "single")  # a causal / per-query-label dataset refuses single attention
    source = _source(data, param, loss, m, None if resume else a.attention, head, dps)
    if resume is not None and o.method == "flow":
        source = None  # the flow rebuilds its parameterisation from the saved run
    init, seed = (None, 0) if resume else _init(a.init, param, data)
    if init in ("zero", "random"):
        with working_precision(dps):
            dim = (source if source is not data else
                   make_parameterization(data, param, loss, **({"m": m} if m and param == "KQ" else {}))).dim
        if init == "zero":
            init = [0] * dim
        elif param == "KQ":
            init = None  # the KQ default is already a seeded random start (seed below)
        else:
            rng = random.Random(seed)
            init = [Fraction(rng.gauss(0.0, 1.0)) / 10 for _ in range(dim)]
    budget = o.steps if o.steps is not None else DEFAULT_STEPS
    bar, progress, tick = _progress_bar(f"{o.method} {param}", a.json, latch,
                                        None if o.method == "flow" else budget)
    t0 = time.perf_counter()
    try:
        traj = _drive(o, source, param, dps=dps, loss=loss, init=init, stages=stages, svm=not a.no_svm and not head,
                      progress=progress, tick=tick, resume=resume, m=m, seed=seed, steps=budget)
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: keep what was computed
        partial = getattr(exc, "trajectory", None)
        if save and partial is not None:
            from verify.errors import interrupt_name, signals_deferred

            with signals_deferred(reraise=False):  # a second signal must not cut the file short
                partial.save(save)
            print(f"verify: {interrupt_name(exc)}; partial trajectory saved to {save} (resume with --resume)",
                  file=sys.stderr)
            exc.reported = True
        raise
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0
    if head:
        traj.meta["head"] = head
        note = (f"nonlinear head ({head}): no SVM references (1 − corr empty); loss_gap is L − L_tok, the loss "
                "above the best one-token selection (it can be negative)")
        if note not in traj.notes:
            traj.notes.append(note)
    if o.method != "flow" and traj.status == "done" and o.steps is None:
        traj.status = "max_steps"  # stopped by the default budget before the target: no answer
    stable = point_stable = check_dps = None
    if a.check_digits and traj.status not in NO_ANSWER:
        check_dps = dps + 10
        bar, progress, tick = _progress_bar(f"check at {check_dps} digits", a.json, latch,
                                            None if o.method == "flow" else traj.steps)
        try:
            stable, point_stable = _check_run(traj, o, resume, init, seed, a, stages, check_dps, progress, tick, head)
        finally:
            if bar is not None:
                bar.close()
    out = flow_json(traj, seconds, stable, check_dps, point_stable)
    bad = list(dict.fromkeys([k for k in FINITE_FIGURES if out.get(k) is not None and not _finite_text(out[k])]
                             + not_numbers(out)))
    if bad:  # never printed (nor saved) as a result
        raise Undecided(f"the {o.method}'s {', '.join(bad[:5])} is not a finite number at {dps} digits (status "
                        f"{traj.status}): no answer; the data's magnitudes may need a higher --precision")
    if save:
        traj.save(save)
    if a.json:
        print(json.dumps(out, indent=2))
    else:
        _print_text(out, seconds, check_dps)
    if traj.status in NO_ANSWER:
        why = NO_ANSWER[traj.status] if o.method == "flow" else (
            f"the iteration reached the step limit ({budget}; give --steps K to run a fixed number) before the target")
        print(f"verify: no answer: {why} at norm {_short(out['norm'], 12)} "
              f"(status {traj.status}; the figures above are where it stopped)", file=sys.stderr)
        return Undecided.exit_code
    return 0


def _check_head(o, head, data, param, attention) -> None:
    """A dataset with a nonlinear head: gd/ngd on p, W or diag with single-query attention (UsageError else)."""
    if o.method == "flow":
        raise UsageError(f"the dataset's {head} head has no Hessian in the engine, which the arc-length flow needs: "
                         f"run it with --method ngd (normalised GD) or --method gd --eta X")
    if o.method == "gd" and o.eta is None:
        raise UsageError(f"--method gd with the dataset's {head} head needs --eta (the certified 1/L is for the "
                         "linear head only)")
    if param not in ("p", "W", "diag"):
        raise UsageError(f"a {head} head runs on --param p, W or diag, not {param}")
    from verify.models.seq2seq import attention_of

    if attention_of(data, attention) != "single":
        raise UsageError(f"a {head} head runs with single-query attention only (the dataset or --attention asks for "
                         f"{attention_of(data, attention)})")


def _print_text(out: dict, seconds: float, check_dps) -> None:
    """The JSON's figures as text, every digit the JSON carries (the end point shortened)."""
    from verify.dynamics.parameterization import NORM_NAMES

    method, name = out["method"], NORM_NAMES.get(out["param"], "‖θ‖")
    if method == "flow":
        how = f"flow {out['param']} ({out['loss']})"
        clock = f"ln t = {out['log_t']}, {out['steps']} steps"
    else:
        step = f"η = {out['eta']}" + (f", ε = {out['eps']}" if method == "ngd" else "")
        how = f"{method} {out['param']} ({out['loss']}, {step})"
        clock = (f"ln t = ln(k·η) = {out['log_t']}, " if method == "gd" else "") + f"{out['steps']} iterations"
    hess = f", {out['hessian_evaluations']} Hessians" if out["hessian_evaluations"] else ""
    print(f"{how}: {out['status']} at norm {name} = {out['norm']}, {clock}, {out['gradient_evaluations']} gradients"
          f"{hess}, {seconds:.1f} s")
    gap = "L − L_tok" if out.get("head") else "L − L⋆"
    print(f"  selected tokens {out['selected']}; {gap} = {out['loss_gap']}")
    print(f"  1 − corr to the SVM of the selected tokens: {out['one_minus_corr'] or 'n/a'}; "
          f"to the GMM: {out['one_minus_corr_gmm'] or 'n/a'}")
    fit = out["one_minus_corr_fit"]
    if fit:
        print(f"  fitted rate 1 − corr ≈ C·{name}^(−a): a = {fit['rate']}, C = {fit['C']} (least squares over "
              f"{fit['points']} records, {name} from {fit['norm_range'][0]} to {fit['norm_range'][1]})")
    else:
        print("  fitted rate 1 − corr ≈ C·‖θ‖^(−a): n/a (fewer than 3 records with 1 − corr and norm > 1 in the "
              "second half, in log norm, of the run)")
    if out["invariant_drift"] is not None:
        print(f"  drift of the conserved quantities: {out['invariant_drift']}")
    short = _map_leaves(out["point"], lambda x: to_decimal_string(Fraction(x), 10))
    parts = "; ".join(f"{k} = {json.dumps(v, ensure_ascii=False).replace(chr(34), '')}" for k, v in short.items())
    print(clip(f"  end point {parts}   (short form; the JSON's \"point\" has every digit)"))
    if out["stable_digits"] is not None:
        print(f"  stable digits (against a rerun at {check_dps} digits): "
              + ", ".join(f"{k} {v}" for k, v in out["stable_digits"].items() if v is not None)
              + f"; end point {out['point_stable_digits']} (the fewest of any entry)")
    for n in out["notes"]:
        print(f"  note: {n}")


def _finite_text(number: str) -> bool:
    return number.lower().lstrip("+-") not in ("nan", "inf", "infinity")


def _short(number: str | None, width: int, missing: str = "-") -> str:
    """A decimal string cut to ``width`` mantissa characters, keeping its exponent."""
    if number is None:
        return missing
    mant, e, exp = number.partition("e")
    return mant[:width] + e + exp


def _progress_bar(desc: str, quiet: bool, latch: SignalLatch, total: int | None = None):
    """A tqdm bar on stderr showing the current norm and ln t (None when printing JSON), the per-record
    callback and (``total``: gd/ngd iterations) the per-iteration one; both also stop the run at a Ctrl-C that
    Python swallowed. The flow counts its steps in the per-record callback."""
    bar = None
    if not quiet:
        from tqdm import tqdm

        bar = tqdm(desc=desc, file=sys.stderr, delay=1, leave=False, unit="step", disable=None,  # None: terminals only
                   total=total)

    def progress(norm, log_t):
        latch.check()
        if bar is not None:
            lt = "-inf" if log_t is None or not log_t.is_finite() else f"{float(log_t.mid()):.4g}"
            bar.set_postfix_str(f"norm={float(norm.mid()):.6g}" + ("" if log_t is None else f" ln t={lt}"),
                                refresh=False)
            if total is None:
                bar.update(1)

    def tick(k):
        latch.check()
        if bar is not None:
            bar.update(1)

    return bar, progress, tick


def _check_run(traj, o, resume, init, seed, a, stages, check_dps, progress, tick, head):
    """The same run from the same start at ``check_dps`` digits: (digits each final figure agrees on, digits
    each entry of the end point agrees on)."""
    from verify.dynamics.trajectory import stable_digits

    meta = traj.meta
    data = traj.dataset()
    if resume is not None:  # the whole run, from the saved run's own start
        init = [Fraction(x) for x in meta["psi0"]]
    source = _source(data, meta["param"], meta["loss"], meta.get("m"), a.attention, head, check_dps)
    redo = o
    if o.method != "flow" and resume is not None:  # the saved run's step sizes, from its own start
        redo = _Options(**dict(o.__dict__, eta=Fraction(meta["eta"]), eps=Fraction(meta.get("eps", "0"))))
    check = _drive(redo, source, meta["param"], dps=check_dps, loss=meta["loss"], init=init, stages=stages,
                   svm=not a.no_svm and not head, progress=progress, tick=tick, resume=None, m=meta.get("m"),
                   seed=seed, steps=traj.steps)
    with working_precision(check_dps):
        return stable_digits(traj, check, int(meta["precision"])), point_digits(traj, check, int(meta["precision"]))
