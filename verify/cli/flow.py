"""``python -m verify flow``: gradient flow of one parameterisation to an exact stopping norm / time.

    python -m verify flow --data F --param p|W|KQ|diag --until-norm 1e4 --precision 100 [--json]
        [--loss logistic|exponential|correlation] [--init zero|paper|random[:SEED]|a,b,c|FILE.json]
        [--until-logt X] [--save TRAJ.json] [--resume TRAJ.json] [--stages S] [--no-svm] [--check-digits]
        [--attention single|seq2seq|causal]

Prints the Flow JSON of docs/contract.md (numbers as decimal strings; ``log_t`` is the natural log of the
gradient-flow time) or a short summary. ``--check-digits`` recomputes the flow from the same start
at precision + 10 and prints every final figure with the digits on which the two runs agree
(``stable_digits``); without it the figures carry precision − 10 digits, not measured.
Exit codes: 0 solved (also when the flow converges to a finite stationary point: ``status`` says
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

from verify.cli.common import Parser, not_numbers, path_flag, run_verb
from verify.data.inputs import parse_flag_int, parse_flag_number, parse_json, read_text
from verify.errors import DataError, SignalLatch, Undecided, UsageError
from verify.numbers.precision import DEFAULT_DPS, parse_precision, to_decimal_string, working_precision

PARAMS = ("p", "W", "KQ", "diag", "beta")
MAX_M = 1000  # --m: K, Q are d×m; beyond this the Newton matrices alone outgrow any machine


def _parser() -> Parser:
    p = Parser(prog="verify flow", description="gradient flow to an exact norm or time")
    p.add_argument("--data", metavar="FILE", help="dataset JSON (required unless --resume)")
    p.add_argument("--param", default=None, help="p, W, KQ or diag (diagonal (k,q)); beta = diagonal W trained directly")
    p.add_argument("--until-norm", default=None, help="stop where the SVM-matching norm equals this (> 0)")
    p.add_argument("--until-logt", default=None, help="stop where ln t equals this")
    p.add_argument("--precision", default=None, help=f"decimal digits, 15..10000 (default {DEFAULT_DPS})")
    p.add_argument("--loss", default=None, choices=("logistic", "exponential", "correlation"))
    p.add_argument("--init", default=None, help="zero | paper | random[:SEED] | comma-separated numbers | JSON file")
    p.add_argument("--stages", default=None, help="Radau IIA stages, 2..200 (default from the precision)")
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


def flow_json(traj, seconds: float, stable: dict | None = None, check_precision: int | None = None) -> dict:
    """The Flow JSON object of a finished trajectory (docs/contract.md). With ``stable`` (the measured
    stable digits of each figure, ``stable_digits``) every figure is printed to its stable digits;
    otherwise to precision − 10 digits, and ``stable_digits`` is null (not measured)."""
    dps = int(traj.meta["precision"])

    def f(x, name=None):
        if x is None:
            return None
        digits = max(1, stable[name]) if stable and stable.get(name) is not None else max(15, dps - 10)
        return to_decimal_string(x, digits)

    last = traj.final
    out = {
        "param": traj.meta["param"], "loss": traj.meta["loss"], "norm": f(last.norm, "norm"),
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
    fit = traj.fit_rate("one_minus_corr")
    if fit:  # 1 − corr ≈ C‖θ‖^(−a) over the second half (in log ‖θ‖) of the run
        out["one_minus_corr_fit"] = {"rate": f"{fit['rate']:.6g}", "C": f"{fit['C']:.6g}",
                                     "norm_range": [f"{x:.6g}" for x in fit["norm_range"]]}
    notes = list(traj.notes)
    if stable is None:
        notes.append(f"stable digits not measured (figures printed to {max(15, dps - 10)} digits); "
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


def _main(argv, latch: SignalLatch) -> int:
    import time

    from verify.data.dataset import load_dataset
    from verify.data.outputs import check_file
    from verify.dynamics.flow import gradient_flow
    from verify.dynamics.parameterization import make_parameterization
    from verify.dynamics.trajectory import Trajectory

    a = _parser().parse_args(argv)
    if a.precision is not None:
        parse_precision(a.precision)
    if a.param is not None and a.param not in PARAMS:
        raise UsageError(f"unknown --param {a.param!r}; choose p, W, KQ or diag")
    if a.until_norm is None and a.until_logt is None:
        raise UsageError("give --until-norm N (and/or --until-logt X)")
    until_norm = _target(a.until_norm, "--until-norm") if a.until_norm is not None else None
    until_logt = _target(a.until_logt, "--until-logt") if a.until_logt is not None else None
    stages = parse_flag_int(a.stages, "--stages", 2, 200) if a.stages is not None else None
    m = parse_flag_int(a.m, "--m", 1, MAX_M) if a.m is not None else None
    data_path, resume_path = path_flag(a.data, "--data"), path_flag(a.resume, "--resume")
    save = path_flag(a.save, "--save")
    if resume_path is None and data_path is None:
        raise UsageError("--data FILE is required (or --resume TRAJ)")
    if resume_path is not None and a.init is not None:
        raise UsageError("--init does not apply with --resume (the saved run continues from its own state)")
    if save:
        check_file(save, "--save")  # before the run: a destination that fails fails now, not after it
    resume = Trajectory.load(resume_path) if resume_path else None
    if resume is not None:
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
    source = data
    if data is not None and a.attention is not None and a.attention != "single":
        with working_precision(dps):  # seq2seq attention: the parameterisation carries the model (validates)
            source = make_parameterization(data, param, a.loss or "logistic", attention=a.attention,
                                           **({"m": m} if m and param == "KQ" else {}))
    elif data is not None and a.attention == "single":
        from verify.models.seq2seq import attention_of

        attention_of(data, "single")  # a causal / per-query-label dataset refuses single attention
    loss = a.loss or (resume.meta["loss"] if resume else "logistic")
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
    bar, progress = _progress_bar(f"flow {param}", a.json, latch)
    t0 = time.perf_counter()
    try:
        traj = gradient_flow(None if resume else source, param, until_norm=until_norm, until_logt=until_logt, dps=dps,
                             loss=loss, init=init, stages=stages, svm=not a.no_svm, progress=progress,
                             resume=resume, m=m, seed=seed)
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
    stable = check_dps = None
    if a.check_digits and traj.status not in NO_ANSWER:
        check_dps = dps + 10
        bar, progress = _progress_bar(f"check at {check_dps} digits", a.json, latch)
        try:
            stable = _check_run(traj, resume, init, seed, a, stages, check_dps, progress)
        finally:
            if bar is not None:
                bar.close()
    out = flow_json(traj, seconds, stable, check_dps)
    bad = list(dict.fromkeys([k for k in FINITE_FIGURES if out.get(k) is not None and not _finite_text(out[k])]
                             + not_numbers(out)))
    if bad:  # never printed (nor saved) as a result
        raise Undecided(f"the flow's {', '.join(bad)} is not a finite number at {dps} digits (status "
                        f"{traj.status}): no answer; the data's magnitudes may need a higher --precision")
    if save:
        traj.save(save)
    if a.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"flow {out['param']} ({out['loss']}): {out['status']} at norm {_short(out['norm'], 20)}, ln t = "
              f"{_short(out['log_t'], 20)}, {out['steps']} steps, {out['gradient_evaluations']} gradients, "
              f"{seconds:.1f} s")
        print(f"  selected tokens {out['selected']}; L − L⋆ = {_short(out['loss_gap'], 12)}")
        print(f"  1 − corr to the SVM of the selected tokens: {_short(out['one_minus_corr'], 12, 'n/a')}; "
              f"to the GMM: {_short(out['one_minus_corr_gmm'], 12, 'n/a')}")
        if stable is not None:
            print(f"  stable digits (against a rerun at {check_dps} digits): "
                  + ", ".join(f"{k} {v}" for k, v in stable.items() if v is not None))
        for n in out["notes"]:
            print(f"  note: {n}")
    if traj.status in NO_ANSWER:
        print(f"verify: no answer: {NO_ANSWER[traj.status]} at norm {_short(out['norm'], 12)} "
              f"(status {traj.status}; the figures above are where it stopped)", file=sys.stderr)
        return Undecided.exit_code
    return 0


def _finite_text(number: str) -> bool:
    return number.lower().lstrip("+-") not in ("nan", "inf", "infinity")


def _short(number: str | None, width: int, missing: str = "-") -> str:
    """A decimal string cut to ``width`` mantissa characters, keeping its exponent."""
    if number is None:
        return missing
    mant, e, exp = number.partition("e")
    return mant[:width] + e + exp


def _progress_bar(desc: str, quiet: bool, latch: SignalLatch):
    """A tqdm bar on stderr showing the current norm and ln t (None when printing JSON), and the
    per-step callback, which also stops the run at a Ctrl-C that Python swallowed."""
    bar = None
    if not quiet:
        from tqdm import tqdm

        bar = tqdm(desc=desc, file=sys.stderr, delay=1, leave=False, unit="step", disable=None)  # None: terminals only

    def progress(norm, log_t):
        latch.check()
        if bar is not None:
            lt = "-inf" if log_t is None or not log_t.is_finite() else f"{float(log_t.mid()):.4g}"
            bar.set_postfix_str(f"norm={float(norm.mid()):.6g} ln t={lt}", refresh=False)
            bar.update(1)

    return bar, progress


def _check_run(traj, resume, init, seed, a, stages, check_dps, progress) -> dict:
    """The same flow from the same start at ``check_dps`` digits; the digits the two agree on."""
    from verify.dynamics.flow import gradient_flow
    from verify.dynamics.trajectory import stable_digits

    meta = traj.meta
    data = traj.dataset()
    if resume is not None:  # the whole run, from the saved run's own start
        init = [Fraction(x) for x in meta["psi0"]]
    if a.attention not in (None, "single"):
        from verify.dynamics.parameterization import make_parameterization

        with working_precision(check_dps):
            data = make_parameterization(data, meta["param"], meta["loss"], attention=a.attention,
                                         **({"m": meta["m"]} if meta.get("m") else {}))
    check = gradient_flow(data, meta["param"], until_norm=a.until_norm, until_logt=a.until_logt, dps=check_dps,
                          loss=meta["loss"], init=init, stages=stages, svm=not a.no_svm, progress=progress,
                          m=meta.get("m"), seed=seed)
    with working_precision(check_dps):
        return stable_digits(traj, check, int(meta["precision"]))
