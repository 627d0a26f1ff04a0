"""``python -m verify experiment``: the papers' experiments replayed, certified beside float64 and float32.

    python -m verify experiment list [--json]
    python -m verify experiment <id> [--precision N] [--baseline float32,float64|none] [--steps K]
        [--at-steps 10,100,1000] [--at-norms 5,10,20] [--flow-factor F] [--report DIR] [--json]

Each experiment is the paper's data, algorithm and hyperparameters (``verify.experiments.catalog``: normalised GD
with the authors' η and ε, plain GD, their starts and iteration counts), run at the working precision with every
iterate kept, the same algorithm in the float baselines, and per curve: the figures at the table's steps, where
each float run departs (relative error > 1/1000) and stalls, where normalised GD freezes (‖∇L‖ < ε), and the
gradient flow continued from the end point to ``--flow-factor`` × its norm (0: not continued).
Exit codes: 0 replayed, 2 bad flags or an unknown experiment, 3 no answer, 130 interrupted (nothing written).
"""
from __future__ import annotations

import json
import sys

from verify.cli.common import Parser, path_flag, run_verb
from verify.data.inputs import parse_flag_int, parse_flag_number
from verify.errors import SignalLatch, UsageError
from verify.numbers.precision import parse_precision

DEFAULT_DPS = 30   # the float runs depart at 10⁻³: 30 digits leave 25 to spare; --precision raises it
MAX_STEPS = 10**6
MAX_FLOW_FACTOR = 10**6


def _parser() -> Parser:
    p = Parser(prog="verify experiment", description="replay a paper's experiment: certified, float64 and float32")
    p.add_argument("name", help="an experiment id (see `verify experiment list`) or `list`")
    p.add_argument("--precision", default=None, help=f"decimal digits, 15..10000 (default {DEFAULT_DPS})")
    p.add_argument("--baseline", default="float32,float64",
                   help="float arithmetics replayed beside the certified run: float32, float64, both (default) or "
                        "none")
    p.add_argument("--steps", default=None, help=f"iterations, 1..{MAX_STEPS} (default: the paper's)")
    p.add_argument("--at-steps", default=None, help="iterations for the table (default: 10, 100, the plotted ones, "
                                                    "the last)")
    p.add_argument("--at-norms", default=None, help="also the first iterations whose certified norm reaches these")
    p.add_argument("--flow-factor", default="10",
                   help="continue the gradient flow from the end point to this multiple of its norm (0: do not)")
    p.add_argument("--report", metavar="DIR", help="write DIR/experiment-<id>.md, its figures and JSON twin")
    p.add_argument("--json", action="store_true", help="print the result JSON on stdout")
    return p


def _int_list(text, flag: str, low: int, high: int) -> tuple:
    if text is None:
        return None
    items = [x.strip() for x in str(text).split(",") if x.strip()]
    if not items:
        raise UsageError(f"{flag}: expected comma-separated whole numbers")
    return tuple(parse_flag_int(x, flag, low, high) for x in items)


def _number_list(text, flag: str) -> tuple:
    if text is None:
        return ()
    items = [x.strip() for x in str(text).split(",") if x.strip()]
    if not items:
        raise UsageError(f"{flag}: expected comma-separated numbers")
    out = []
    for x in items:
        q = parse_flag_number(x, flag)
        if not q > 0:
            raise UsageError(f"{flag}: norms must be positive, got {x}")
        out.append(q)
    return tuple(out)


def _baselines(text) -> tuple:
    from verify.dynamics.float_replay import DTYPES

    names = [x.strip() for x in str(text).split(",") if x.strip()]
    if names == ["none"]:
        return ()
    bad = [x for x in names if x not in DTYPES]
    if bad or not names:
        raise UsageError(f"--baseline: unknown {', '.join(bad) or 'empty list'}; choose float32, float64, both "
                         "(comma-separated) or none")
    return tuple(dict.fromkeys(names))


def _list(as_json: bool) -> int:
    from verify.experiments import EXPERIMENTS

    if as_json:
        print(json.dumps([{"id": e.id, "paper": e.paper, "figure": e.figure, "title": e.title, "method": e.method,
                           "param": e.param, "eta": e.eta, "eps": e.eps, "steps": e.steps,
                           "curves": len(e.run_list()), "source": e.source} for e in EXPERIMENTS.values()],
                         indent=2, ensure_ascii=False))
        return 0
    width = max(len(e.id) for e in EXPERIMENTS.values())
    fig_w = max(len(e.figure) for e in EXPERIMENTS.values())
    eps_w = max(len(e.eps) for e in EXPERIMENTS.values())
    for e in EXPERIMENTS.values():
        print(f"{e.id:<{width}}  {e.figure:<{fig_w}} {e.method:>3} η={e.eta:<5} ε={e.eps:<{eps_w}} {e.steps:>5} it. "
              f"{len(e.run_list()):>2} curves  {e.title}")
    return 0


def main(argv: list[str]) -> int:
    return run_verb(_latched, argv)


def _latched(argv) -> int:
    with SignalLatch() as latch:
        return _main(argv, latch)


def _main(argv, latch: SignalLatch) -> int:
    a = _parser().parse_args(argv)
    if a.name == "list":
        return _list(a.json)
    from verify.experiments import get_experiment, run_experiment

    exp = get_experiment(a.name)  # an unknown id: one line, exit 2, before any work
    dps = parse_precision(a.precision) if a.precision is not None else DEFAULT_DPS
    baselines = _baselines(a.baseline)
    steps = parse_flag_int(a.steps, "--steps", 1, MAX_STEPS) if a.steps is not None else exp.steps
    at_steps = _int_list(a.at_steps, "--at-steps", 0, MAX_STEPS)
    at_norms = _number_list(a.at_norms, "--at-norms")
    factor = parse_flag_number(a.flow_factor, "--flow-factor")
    if factor != 0 and not 1 < factor <= MAX_FLOW_FACTOR:
        raise UsageError(f"--flow-factor: 0 (no continuation) or a number in (1, {MAX_FLOW_FACTOR}], got "
                         f"{a.flow_factor}")
    report = path_flag(a.report, "--report")
    if report:
        from verify.report.markdown import prepare_report_folder

        prepare_report_folder(report)  # before the work: a destination that fails fails now
    curves = len(exp.run_list())
    bar = None
    if not a.json:
        from tqdm import tqdm

        bar = tqdm(total=curves * steps, desc=exp.id, file=sys.stderr, delay=1, leave=False, unit="it", disable=None)

    def tick(k):
        latch.check()
        if bar is not None:
            bar.update(1)

    try:
        res = run_experiment(exp, dps, baselines=baselines, steps=steps, at_steps=at_steps, at_norms=at_norms,
                             flow_factor=factor, tick=tick)
    finally:
        if bar is not None:
            bar.close()
    from verify.experiments.report import text_lines, to_json, write_report

    page = write_report(res, report) if report else None
    if a.json:
        print(json.dumps(to_json(res), indent=2, ensure_ascii=False))
    else:
        print("\n".join(text_lines(res)))
        if page:
            print(f"report: {page}")
    return 0
