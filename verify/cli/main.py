"""``python -m verify``: dispatch to one module per verb (``verify.cli.<verb>``).

Exit codes (docs/contract.md): 0 HOLDS, 1 VIOLATED, 2 usage, 3 INCONCLUSIVE (also: out of memory,
an internal failure — nothing decided), 4 NOT APPLICABLE, 5 bad data, 130 interrupted (Ctrl-C),
143 terminated (SIGTERM). Errors are one line on stderr, never a traceback; a closed stdout is one
line too, and the result's exit code is kept.
"""
from __future__ import annotations

import importlib
import sys

from verify.cli.common import run_verb
from verify.errors import UsageError

VERBS = ("list", "all", "svm", "flow", "hunt", "experiment", "recheck", "replay", "report")
USAGE = (
    "usage: python -m verify list [--paper P] [--json] | <claim> [--precision N] [--data F] [--json] "
    "[--report DIR] | all [--paper P] [--report DIR] [--jobs N | --scheduler ADDR] | svm ... | flow ... | "
    "hunt <claim>|all --budget S [--scheduler ADDR] | experiment list|<id> | recheck CERT.json | replay REPORT.json | "
    "report [--paper P] --report DIR"
)
HELP = """\
usage: python -m verify <verb or claim id> [options]      (each verb: python -m verify <verb> --help)

verbs:
  list [--paper P] [--json]                 every encoded claim: id, number, title, kind, aliases
  <claim> [--data F] [--precision N]        check one claim (e.g. mmts.lemma3, or a bare lemma3) on its
          [--json] [--report DIR]           default datasets or on a dataset file
  all [--paper P] [--report DIR] [--jobs N] every claim; DIR/index.md links one page per claim and per paper;
          [--scheduler tcp://HOST:PORT]     on a Dask cluster's workers (pip install -e '.[cluster]'; README)
  svm --data F --kind p|W|KQ|diag|v|relaxed solve and certify one attention SVM on a dataset
          |satt|satt-nuc|gen                (gen: --select "0,1;2" the selected sets, --s-star for W^fin)
  flow --data F --param p|W|KQ|diag         gradient flow to an exact norm (--until-norm) or time (--until-logt);
          [--method flow|gd|ngd]            --method gd|ngd [--eta X --eps X --steps K]: the papers' GD / normalised GD
  hunt <claim>|all --budget 600|8h          adversarial search for a counterexample, shrunk and saved;
          [--seeds N] [--scheduler ADDR]    --seeds: seeds 0..N-1 only (the same data anywhere); on a Dask cluster
  experiment list | <id> [--precision N]    a paper's experiment replayed: certified run beside float64/float32,
          [--baseline float32,float64]      where each float run departs and stalls, the flow continued beyond it
  recheck CERT.json [--precision N]         re-verify a region certificate (written by --report DIR into
                                            DIR/certificates/) with an independent interval engine
  replay REPORT.json [--json]               re-run a claim from its report (DIR/<claim>.json) alone: the datasets
                                            and options it carries; says whether verdict and figures agree
  report [--paper P] --report DIR           rewrite DIR/<paper>.md (one page per paper) from the JSON in DIR

datasets: JSON {"X": n x T x d, "Y": [+-1]*n, "v": d, ...}; examples in examples/ (e.g. examples/mmts-fig1a.json)

exit codes: 0 HOLDS (svm/flow: solved), 1 VIOLATED, 2 usage error, 3 INCONCLUSIVE (also: out of memory,
  internal failure; nothing decided), 4 NOT APPLICABLE, 5 invalid input data, 130 interrupted, 143 SIGTERM

docs: docs/contract.md (verbs, flags, exit codes, JSON), docs/verdicts.md (how verdicts are decided), README.md
"""


def version_text() -> str:
    import platform

    import verify

    return f"attnverify {verify.__version__} (Python {platform.python_version()})"


def _dispatch(argv) -> int:
    if not argv:
        raise UsageError(f"give a verb or a claim id (python -m verify --help lists them); {USAGE}")
    if argv[0] in ("-h", "--help", "help"):
        print(HELP, end="")
        return 0
    if argv[0] in ("-V", "--version", "version"):
        print(version_text())
        return 0
    verb, rest = argv[0], argv[1:]
    if verb in VERBS:
        return importlib.import_module(f"verify.cli.{verb}").main(rest)
    if verb.startswith("-"):
        raise UsageError(f"expected a verb or a claim id before {verb!r}; {USAGE}")
    if not verb.strip():
        raise UsageError(f"expected a verb or a claim id, got an empty argument; {USAGE}")
    from verify.cli.claim import main as claim_main

    return claim_main(verb, rest)


def main(argv=None) -> int:
    from verify.report.provenance import record_command

    argv = list(sys.argv[1:] if argv is None else argv)
    record_command(argv)  # a report names the exact command
    return run_verb(_dispatch, argv)
