"""``python -m verify svm``: solve and certify one SVM of the family on a dataset file.

    python -m verify svm --data F --kind p|W|KQ|diag|v|relaxed|satt|satt-nuc|gen [--select opt|0,2,1|...]
                         [--s-star ...] [--precision 60] [--rank m] [--json]

``satt`` / ``satt-nuc``: the sequence-to-sequence SAtt-SVM (every token a query, Frobenius / nuclear norm; causal
when the dataset is flagged ``causal``), ``--select opt`` or an n×T selection "a,b,c;d,e,f" (one row per sequence).
``gen``: Gen-SVM (tfsvm §6) for the selected sets 𝒪_i given as ``--select "0,1;2;1,3"`` (one set per sequence,
separated by ';', its tokens by ','): min ‖W‖_F with (x_it − x_iτ)ᵀW z_i ≥ 1 for t ∈ 𝒪_i, τ ∉ 𝒪_i and = 0 for t, τ ∈
𝒪_i; with ``--s-star "2,1;1;1,3"`` (for each set, positive weights s⋆_it of its tokens in the order given, only
their ratios matter) also the finite part W^fin, the minimum-norm solution of (x_it − x_iτ)ᵀW z_i = log(s⋆_it/s⋆_iτ).

An exact solve (``exact`` true: every kind but the nuclear ones) prints its solution exactly — ``68/117`` — in the
text, and in the JSON as ``exact_solution`` (rational strings, beside the decimals of ``solution``) and
``exact_objective`` (a rational, or ``sqrt(q)`` for a Euclidean / Frobenius norm whose square q is rational).

Exit codes (docs/contract.md): 0 solved (optimal, or certified infeasible); 2 usage error; 3 no certified
answer; 5 invalid data. Errors are one line on stderr.
"""
from __future__ import annotations

import json
import math
import re
import sys
from fractions import Fraction

from verify.cli.common import Parser, clip, not_numbers, path_flag, run_verb
from verify.data.inputs import parse_flag_int, parse_flag_number


def _parser() -> Parser:
    p = Parser(prog="python -m verify svm", add_help=True,
               description="Solve an attention SVM exactly / to the working precision, with a certificate.")
    p.add_argument("--data", required=True, help="dataset JSON file")
    p.add_argument("--kind", required=True, help="p | W | KQ | diag | v | relaxed | satt | satt-nuc | gen")
    p.add_argument("--select", default=None, help="'opt' (default) or comma-separated 0-based token indices "
                   "(satt: one row per sequence, rows separated by ';'; gen, required: the selected sets "
                   "'0,1;2;1,3', one per sequence)")
    p.add_argument("--s-star", default=None, help="gen: positive weights s⋆ of each set's tokens, in the order of "
                   "--select ('2,1;1;1,3'): also compute W^fin")
    p.add_argument("--precision", default="60", help="decimal digits, 15..10000 (default 60)")
    p.add_argument("--rank", default=None, help="KQ only: also report the rank <= m problem")
    p.add_argument("--json", action="store_true", help="print the SVM JSON")
    return p


SEQ_KINDS = ("satt", "satt-nuc")
GEN_KIND = "gen"
_INDEX = re.compile(r"\s*(\d{1,9})\s*")


def _satt_select(text: str):
    """--select for SAtt-SVM: None ('opt') or rows of token indices "a,b,c;d,e,f" (checked by satt_svm)."""
    from verify.errors import UsageError

    if text.strip().lower() == "opt":
        return None
    try:
        return [[int(x) for x in row.split(",")] for row in text.split(";")]
    except ValueError:
        raise UsageError(f"--select for satt must be 'opt' or rows of token indices like '0,1,1;2,0,0', got {text!r}")


def parse_sets(text, n: int, T: int) -> list[list[int]]:
    """--select for Gen-SVM: n selected sets "0,1;2;1,3" (';' between sequences, ',' between tokens), each
    non-empty, without repeats, indices in 0..T−1, in the order given (UsageError naming the first fault)."""
    from verify.errors import UsageError

    if text is None or text.strip().lower() == "opt":
        raise UsageError("--kind gen needs the selected sets: --select '0,1;2;1,3' (one set per sequence, "
                         "';' between sequences, ',' between tokens)")
    rows = text.split(";")
    if len(rows) != n:
        raise UsageError(f"--select has {len(rows)} selected set(s), the dataset has n = {n} sequences "
                         "(separate the sets with ';')")
    sets = []
    for i, row in enumerate(rows):
        if not row.strip():
            raise UsageError(f"--select: the selected set of sequence {i} is empty (every 𝒪_i needs a token)")
        toks = []
        for part in row.split(","):
            m = _INDEX.fullmatch(part)
            if not m:
                raise UsageError(f"--select: {part.strip()!r} in the set of sequence {i} is not a token index "
                                 f"(an integer in 0..{T - 1})")
            t = int(m.group(1))
            if t >= T:
                raise UsageError(f"--select: token {t} in the set of sequence {i} is outside 0..{T - 1}")
            if t in toks:
                raise UsageError(f"--select: token {t} appears twice in the set of sequence {i}")
            toks.append(t)
        sets.append(toks)
    if all(len(s) == T for s in sets):
        raise UsageError(f"--select: every selected set is all of the T = {T} tokens, so Gen-SVM has no ≥ 1 rows "
                         "(W^mm = 0); leave some token out of some set")
    return sets


def parse_s_star(text, sets: list[list[int]], T: int) -> list[list[Fraction]]:
    """--s-star: for each set, one positive number per token in the order of --select → an n×T array (1 off
    the sets; only the ratios inside each set enter W^fin)."""
    from verify.errors import UsageError

    rows = text.split(";")
    if len(rows) != len(sets):
        raise UsageError(f"--s-star has {len(rows)} row(s), --select {len(sets)} selected sets")
    out = []
    for i, (row, toks) in enumerate(zip(rows, sets)):
        vals = row.split(",")
        if len(vals) != len(toks):
            raise UsageError(f"--s-star row {i} has {len(vals)} number(s), the set of sequence {i} has "
                             f"{len(toks)} token(s)")
        full = [Fraction(1)] * T
        for t, v in zip(toks, vals):
            full[t] = parse_flag_number(v.strip(), f"--s-star (sequence {i}, token {t})", positive=True)
        out.append(full)
    return out


# ----- exact values -------------------------------------------------------------------------------
def _fraction(x) -> Fraction | None:
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int) and not isinstance(x, bool):
        return Fraction(x)
    if hasattr(x, "p") and hasattr(x, "q") and not hasattr(x, "mid"):  # flint fmpq
        return Fraction(int(x.p), int(x.q))
    return None


def _exact_sqrt(q: Fraction) -> Fraction | None:
    """√q when it is rational."""
    a, b = math.isqrt(q.numerator), math.isqrt(q.denominator)
    return Fraction(a, b) if a * a == q.numerator and b * b == q.denominator else None


def exact_values(res) -> tuple[list | None, str | None]:
    """(the solution as rational strings in its shape, the objective exactly) of an exact optimal solve, else
    (None, None). The objective: Σ|x| for ℓ1, else √(Σx²) — a rational when a perfect square, else "sqrt(q)"."""
    if not res.exact or res.status != "optimal" or res.solution is None:
        return None, None
    xs = [_fraction(x) for x in res.solution]
    if any(x is None for x in xs):
        return None, None
    norm = res.problem.norm if res.problem is not None else ""
    if norm == "l1":
        obj = str(sum((abs(x) for x in xs), Fraction(0)))
    elif norm in ("l2", "fro"):
        sq = sum((x * x for x in xs), Fraction(0))
        root = _exact_sqrt(sq)
        obj = str(root) if root is not None else f"sqrt({sq})"
    else:
        obj = None
    return res.problem.reshape([str(x) for x in xs]), obj


def gen_active_rows(res) -> list:
    """Gen-SVM's rows active at the solution, as their labels [i, t, τ, sense] (sense ge, eq+, eq−)."""
    if res.solution is None or not getattr(res, "labels", None):
        return []
    from verify.svm.certificate import active_exact

    return [list(res.labels[j]) for j in active_exact(res.problem, res.solution)]


def _text(res, exact_sol, exact_obj, sets=None) -> str:
    """The result's summary, with the solution and objective printed exactly when the solve was exact (Gen-SVM:
    its selected sets in the heading, its active rows by label)."""
    lines = res.summary().split("\n")
    if sets is not None:
        lines[0] = lines[0].replace(f"selection α = {list(res.select)}", f"selected sets 𝒪_i = {sets}")
        lines = [f"  active rows (i, t, τ, sense): {gen_active_rows(res)}" if x.startswith("  support (i, t)") else x
                 for x in lines]
    out = []
    for line in lines:
        if exact_sol is None:
            pass
        elif line.startswith("  objective "):
            line = f"{line.rstrip()}\n  objective exactly {exact_obj}" if exact_obj else line
        elif line.startswith("  solution "):
            line = f"  solution {json.dumps(exact_sol).replace(chr(34), '')}   (exact)"
        out.append(line)
    return "\n".join(out)


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
    kinds = KINDS + SEQ_KINDS + (GEN_KIND,)
    if args.kind not in kinds:
        raise UsageError(f"unknown SVM kind {args.kind!r}; choose one of {', '.join(kinds)}")
    rank = None
    if args.rank is not None:
        if args.kind != "KQ":
            raise UsageError("--rank applies to --kind KQ only")
        rank = parse_flag_int(args.rank, "--rank", 1, 10**6)
    if args.s_star is not None and args.kind != GEN_KIND:
        raise UsageError("--s-star applies to --kind gen only (the weights s⋆ of W^fin)")
    if args.kind == GEN_KIND and (args.select is None or args.select.strip().lower() == "opt"):
        parse_sets(None, 0, 0)  # the one-line usage error, before the data is read
    select_text = args.select if args.select is not None else "opt"
    ds = load_dataset(path_flag(args.data, "--data"))
    extra, fin = {}, None
    if args.kind == GEN_KIND:
        from verify.svm.seq2seq import gen_svm, w_fin

        sets = parse_sets(args.select, ds.n, ds.T)
        s_star = parse_s_star(args.s_star, sets, ds.T) if args.s_star is not None else None
        res = gen_svm(ds, sets, dps=dps)
        extra["selected_sets"] = [sorted(s) for s in sets]
        extra["support_rows"] = gen_active_rows(res)
        if s_star is not None:
            fin = w_fin(ds, sets, s_star, dps=dps)
    elif args.kind in SEQ_KINDS:
        from verify.svm.seq2seq import satt_svm

        res = satt_svm(ds, _satt_select(select_text), ds.causal, dps=dps, norm="nuc" if args.kind == "satt-nuc" else "fro")
    else:
        select = select_tokens(ds, select_text)  # validates (UsageError / DataError on a tie)
        res = solve_svm(ds, args.kind, select, dps, rank=rank)
    out = res.to_dict(dps)
    exact_sol, exact_obj = exact_values(res)
    out["exact_solution"], out["exact_objective"] = exact_sol, exact_obj
    out.update(extra)
    if args.kind == GEN_KIND:
        out["w_fin"] = _fin_json(fin, dps) if fin is not None else None
    bad = not_numbers(out)
    if bad:  # never printed as a result
        from verify.errors import Undecided

        raise Undecided(f"the SVM's {', '.join(bad[:5])} is not a number at {dps} digits (status {res.status}): "
                        "no certified answer")
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(_text(res, exact_sol, exact_obj, extra.get("selected_sets")))
        if args.kind == GEN_KIND:
            if fin is None:
                print("  W^fin: give --s-star (the weights s⋆ of each set's tokens) to compute it")
            else:
                w = out["w_fin"]
                print(clip(f"  W^fin = {json.dumps(w['W']).replace(chr(34), '')}"))
                print(f"  ‖W^fin‖_F = {w['norm']}; rank of the equality system {w['rank']}; log-ratio system "
                      f"{'consistent' if w['consistent'] else 'inconsistent (least squares)'}, residual {w['residual']}")
    return 0 if res.status in ("optimal", "infeasible") else 3


def _fin_json(fin, dps: int) -> dict:
    from verify.numbers.precision import to_decimal_string

    digits = max(15, dps - 10)
    return {"W": [[to_decimal_string(x, digits) for x in row] for row in fin.W],
            "norm": to_decimal_string(fin.norm, digits), "residual": to_decimal_string(fin.residual, 6),
            "consistent": bool(fin.consistent), "rank": int(fin.rank)}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
