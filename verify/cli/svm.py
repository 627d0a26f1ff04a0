"""``python -m verify svm``: solve and certify one SVM of the family on a dataset file.

    python -m verify svm --data F --kind p|W|KQ|diag|v|relaxed|satt|satt-nuc [--select opt|0,2,1]
                         [--precision 60] [--rank m] [--json]

``satt`` / ``satt-nuc``: the sequence-to-sequence SAtt-SVM (every token a query, Frobenius / nuclear norm; causal
when the dataset is flagged ``causal``), ``--select opt`` or an n×T selection "a,b,c;d,e,f" (one row per sequence).

Exit codes (docs/contract.md): 0 solved (optimal, or certified infeasible); 2 usage error; 3 no certified
answer; 5 invalid data. Errors are one line on stderr.
"""
from __future__ import annotations

import json
import sys

from verify.cli.common import Parser, not_numbers, path_flag, run_verb
from verify.data.inputs import parse_flag_int


def _parser() -> Parser:
    p = Parser(prog="python -m verify svm", add_help=True,
               description="Solve an attention SVM exactly / to the working precision, with a certificate.")
    p.add_argument("--data", required=True, help="dataset JSON file")
    p.add_argument("--kind", required=True, help="p | W | KQ | diag | v | relaxed | satt | satt-nuc")
    p.add_argument("--select", default="opt", help="'opt' or comma-separated 0-based token indices "
                   "(satt: one row per sequence, rows separated by ';')")
    p.add_argument("--precision", default="60", help="decimal digits, 15..10000 (default 60)")
    p.add_argument("--rank", default=None, help="KQ only: also report the rank <= m problem")
    p.add_argument("--json", action="store_true", help="print the SVM JSON")
    return p


SEQ_KINDS = ("satt", "satt-nuc")


def _satt_select(text: str):
    """--select for SAtt-SVM: None ('opt') or rows of token indices "a,b,c;d,e,f" (checked by satt_svm)."""
    from verify.errors import UsageError

    if text.strip().lower() == "opt":
        return None
    try:
        return [[int(x) for x in row.split(",")] for row in text.split(";")]
    except ValueError:
        raise UsageError(f"--select for satt must be 'opt' or rows of token indices like '0,1,1;2,0,0', got {text!r}")


def main(argv: list[str]) -> int:
    return run_verb(_main, argv)


def _main(argv) -> int:
    from verify.data.dataset import load_dataset
    from verify.errors import UsageError
    from verify.numbers.precision import parse_precision
    from verify.svm import solve_svm
    from verify.svm.problems import KINDS, select_tokens

    args = _parser().parse_args(argv)
    dps = parse_precision(args.precision)
    if args.kind not in KINDS + SEQ_KINDS:
        raise UsageError(f"unknown SVM kind {args.kind!r}; choose one of {', '.join(KINDS + SEQ_KINDS)}")
    rank = None
    if args.rank is not None:
        if args.kind != "KQ":
            raise UsageError("--rank applies to --kind KQ only")
        rank = parse_flag_int(args.rank, "--rank", 1, 10**6)
    ds = load_dataset(path_flag(args.data, "--data"))
    if args.kind in SEQ_KINDS:
        from verify.svm.seq2seq import satt_svm

        res = satt_svm(ds, _satt_select(args.select), ds.causal, dps=dps, norm="nuc" if args.kind == "satt-nuc" else "fro")
    else:
        select = select_tokens(ds, args.select)  # validates (UsageError / DataError on a tie)
        res = solve_svm(ds, args.kind, select, dps, rank=rank)
    bad = not_numbers(res.to_dict(dps))
    if bad:  # never printed as a result
        from verify.errors import Undecided

        raise Undecided(f"the SVM's {', '.join(bad[:5])} is not a number at {dps} digits (status {res.status}): "
                        "no certified answer")
    if args.json:
        print(json.dumps(res.to_dict(dps), indent=1))
    else:
        print(res.summary())
    return 0 if res.status in ("optimal", "infeasible") else 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
