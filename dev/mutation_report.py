"""Score a mutmut run of the verdict engine and the claims (opt-in; see README, "Development").

    mutmut run --max-children 2          # writes mutants/ and the results
    python dev/mutation_report.py        # score, survivors by file, the excluded mutants with a reason
    mutmut run $(python dev/mutation_report.py --to-run)   # after a first generation: only the mutants that count

A mutant is *excluded* from the score, with a one-line reason, when it can only change what a report
says in prose and never a verdict, a decision, a number or the JSON contract:

* display text — a string literal that is a label, a note, a caption or a detail (it contains a space,
  or non-ASCII text, or is longer than 12 characters), mutated ("XX…XX", case) or replaced by None in
  a ``note=``/``detail=``/``caption=``/``title=``/``label=`` argument;
* display arguments — any mutation inside the value of a display keyword argument (``note=``, ``detail=``,
  ``quantity=``, ``symbol=`` …: ``DISPLAY_PARAMS``), such a keyword dropped (its default used), the default value
  of such a parameter, or a display positional of the verdict's constructors (a Hypothesis's or Decision's
  detail, an Evidence's quantity or note, a Tally's quantity), or the label of a Tally's point (``tally.add(value,
  where)``: the report's "worst at" text) changed or dropped;
* figures — any mutation inside the construction of a ``Figure`` or ``Series``, or anywhere in a function named
  ``*_figure(s)`` or annotated to return a ``Figure`` or ``Series`` (they build plots, not verdicts);
* equivalent — listed by hand in dev/mutation-equivalents*.md, one line each: ``- `name`: reason``.

Everything else counts: killed / (killed + survived + no tests + timeout), overall and per area (``AREAS``:
each area has its equivalents file dev/mutation-equivalents-<area>.md). ``--area NAME`` scores one area only (a
run restricted to it). The report also writes dev/mutation-excluded.md, one line per excluded mutant with its
reason.
"""
from __future__ import annotations

import ast
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: the areas scored separately: a mutant belongs to the first area with a prefix of its name ("module." for a whole
#: module or package, "module.x_function__" for one function). The flow area is the stop/accept logic of
#: verify/dynamics/flow.py (step acceptance, events, legs); the integrator's numerics there are "flow-numerics".
_FLOW = "verify.dynamics.flow."
AREAS = {
    "engine": ("verify.claims.", "verify.kit.assumptions.", "verify.numbers.precision.", "verify.svm.certificate.",
               "verify.svm.farkas."),
    "mmts": ("lemmas.mmts.", "lemmas.TEMPLATE."),
    "irgf": ("lemmas.irgf.",),
    "tfsvm": ("lemmas.tfsvm.",),
    "geometry": ("verify.geometry.",),
    "flow": tuple(_FLOW + f + "__" for f in ("x__integrate", "x__event_value", "x__locate", "x_flow_through_norms",
                                             "x_log_t_of")),
    "flow-numerics": (_FLOW,),
    "kit": ("verify.kit.",),
}
DISPLAY_KWARGS = {"note", "detail", "caption", "title", "label", "why_not", "quantity"}
#: parameters that only name things in prose (a label, a symbol printed in a note): a mutated default, or a keyword
#: argument of that name dropped, changes report text only
DISPLAY_PARAMS = DISPLAY_KWARGS | {"symbol", "eta_note"}
#: positional display arguments of the verdict's constructors: (callee, position) → the parameter's name
DISPLAY_POSITIONAL = {("Hypothesis", 2): "detail", ("Decision", 2): "detail", ("Evidence", 0): "quantity",
                      ("Evidence", 4): "note", ("Tally", 0): "quantity"}


def _functions(path):
    """{mutant name prefix → {suffix: FunctionDef}} for one mutated module."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and "__mutmut_" in node.name:
            base, _, suffix = node.name.rpartition("__mutmut_")
            out.setdefault(base, {})[suffix] = node
    return out


def _diff(a, b, parents=()):
    """The first pair of differing subtrees (and the chain of parents above them)."""
    if type(a) is not type(b):
        return a, b, parents
    if isinstance(a, ast.AST):
        for field in a._fields:
            if field in ("ctx",):
                continue
            r = _diff(getattr(a, field, None), getattr(b, field, None), parents + (a,))
            if r:
                return r
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return a, b, parents
        for x, y in zip(a, b):
            r = _diff(x, y, parents)
            if r:
                return r
        return None
    return None if a == b else (a, b, parents)


def _is_display_string(s) -> bool:
    return isinstance(s, str) and (" " in s or any(ord(c) > 127 for c in s) or len(s) > 12)


def _dropped_keyword(a, b):
    """The name of the one keyword argument that ``b`` (a list of keywords) lacks against ``a``, if that is all."""
    if not (isinstance(a, list) and isinstance(b, list) and len(a) == len(b) + 1):
        return None
    if not all(isinstance(k, ast.keyword) for k in a + b):
        return None
    names_b = [k.arg for k in b]
    missing = [k for k in a if k.arg not in names_b]
    if len(missing) == 1 and [k.arg for k in a if k is not missing[0]] == names_b and all(
            ast.dump(x.value) == ast.dump(y.value) for x, y in zip([k for k in a if k is not missing[0]], b)):
        return missing[0].arg
    return None


def _default_of(args: ast.arguments, node):
    """The parameter whose default value is ``node`` (an ``ast.arguments`` default), else None."""
    positional = args.posonlyargs + args.args
    for param, default in zip(positional[len(positional) - len(args.defaults):], args.defaults):
        if default is node:
            return param.arg
    for param, default in zip(args.kwonlyargs, args.kw_defaults):
        if default is node:
            return param.arg
    return None


#: the point-label argument of a Tally's (or ProbeInequality's) methods: method → position of ``where``
TALLY_LABEL = {"add": 1, "add_ratio": 2, "skip": 0}


def _tally_names(fn) -> set:
    """Names bound to ``Tally(...)`` or ``ProbeInequality(...)`` in a function."""
    names = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                getattr(node.value.func, "id", "") in ("Tally", "ProbeInequality"):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _tally_label_position(call: ast.Call, tallies):
    """The position of the point label when ``call`` calls a method of a tally bound in the function, else None."""
    if (isinstance(call.func, ast.Attribute) and call.func.attr in TALLY_LABEL
            and isinstance(call.func.value, ast.Name) and call.func.value.id in tallies):
        return TALLY_LABEL[call.func.attr]
    return None


def _callee(node) -> str:
    """The called name of a call (``f(...)`` → f, ``x.m(...)`` → m); "" for anything else."""
    if not isinstance(node, ast.Call):
        return ""
    return node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")


def classify(orig, mutant) -> str | None:
    """A reason when the mutant only changes display, else None."""
    d = _diff(orig.args, mutant.args) or _diff(orig.body, mutant.body)  # not the names: they differ by design
    if d is None:
        return "identical to the original"
    a, b, parents = d
    fname = orig.name.rpartition("__mutmut_")[0].rpartition("ǁ")[2].removeprefix("x_")
    returns = ast.unparse(orig.returns) if orig.returns is not None else ""
    if fname.endswith(("_figure", "_figures")) or "Series" in returns or "Figure" in returns:
        return f"figure only (in {fname}, which builds a plot)"
    for p in parents:
        name = _callee(p)
        if name in ("Figure", "Series", "figure") or name.endswith(("_figure", "_series")):
            return f"figure only (inside {name}(...))"
    if isinstance(a, ast.Constant) and isinstance(b, ast.Constant) and _is_display_string(a.value):
        return "display text only (string literal mutated)"
    if isinstance(a, str) and isinstance(b, str) and _is_display_string(a):
        return "display text only (string literal mutated)"
    kw = next((p for p in reversed(parents) if isinstance(p, ast.keyword)), None)
    if kw is not None and kw.arg in DISPLAY_PARAMS:
        return f"display text only (inside {kw.arg}=...)"
    dropped = _dropped_keyword(a, b)
    if dropped in DISPLAY_PARAMS:
        return f"display text only ({dropped}= dropped, its default used)"
    # a parameter's default: the differing node, or the constant holding it when only its value changed ("" → "XXXX")
    args, node = (parents[-1] if parents else None), a
    if len(parents) >= 2 and isinstance(parents[-1], ast.Constant):
        args, node = parents[-2], parents[-1]
    if isinstance(args, ast.arguments):
        name = _default_of(args, node)
        if name in DISPLAY_PARAMS:
            return f"display text only (default of {name})"
    tallies = _tally_names(orig)
    for i, p in enumerate(parents):
        if not isinstance(p, ast.Call):
            continue
        arg = parents[i + 1] if i + 1 < len(parents) else a  # the child of the call on the way to the change
        position = next((k for k, x in enumerate(p.args) if x is arg), None)
        where = _tally_label_position(p, tallies)  # tally.add(value, where, …): ``where`` labels the point
        if where is not None:
            if position == where:
                return "display text only (a Tally point's label)"
            if (a is p.args and len(a) == where + 1 and isinstance(b, list) and len(b) == where
                    and all(ast.dump(x) == ast.dump(y) for x, y in zip(a, b))):
                return "display text only (a Tally point's label dropped)"
        if (_callee(p), position) in DISPLAY_POSITIONAL:
            return f"display text only ({_callee(p)}'s {DISPLAY_POSITIONAL[_callee(p), position]})"
    if isinstance(a, ast.JoinedStr) or any(isinstance(p, ast.JoinedStr) for p in parents):
        return "display text only (f-string)"
    return None


def area_of(name: str) -> str:
    """The area of a mutant (its full name) — see ``AREAS``."""
    for area, prefixes in AREAS.items():
        if name.startswith(prefixes):
            return area
    return "other"


def main() -> int:
    only = sys.argv[sys.argv.index("--area") + 1] if "--area" in sys.argv else None
    results = subprocess.run(["mutmut", "results", "--all", "true"], cwd=ROOT, capture_output=True, text=True).stdout
    status = {}
    for line in results.splitlines():
        if ":" in line:
            name, st = line.strip().rsplit(":", 1)
            status[name.strip()] = st.strip()
    manual = {}
    for eq_path in sorted(glob.glob(os.path.join(ROOT, "dev", "mutation-equivalents*.md"))):
        for line in open(eq_path, encoding="utf-8"):
            m = re.match(r"- `([^`]+)`: (.+)", line.strip())
            if m:
                manual[m.group(1)] = m.group(2)
    excluded, counted, areas, to_run = {}, {}, {}, []
    for path in glob.glob(os.path.join(ROOT, "mutants", "**", "*.py"), recursive=True):
        rel = os.path.relpath(path, os.path.join(ROOT, "mutants"))[:-3].replace(os.sep, ".")
        if not rel.startswith(("verify", "lemmas")):
            continue
        for base, fns in _functions(path).items():
            orig = fns.get("orig")
            for suffix, fn in fns.items():
                if suffix == "orig":
                    continue
                name = f"{rel}.{base}__mutmut_{suffix}"
                if only and area_of(name) != only:
                    continue
                st = status.get(name)
                reason = manual.get(name) or classify(orig, fn)
                if "--to-run" in sys.argv and not reason:
                    to_run.append(name)
                if st is None or st == "not checked":
                    continue
                (excluded if reason else counted)[name] = (st, reason)
                areas.setdefault(area_of(name), []).append((st, reason))
    if "--to-run" in sys.argv:  # the mutants that count, for `mutmut run $(...)`: excluded ones need no run
        print("\n".join(sorted(to_run)))
        return 0
    killed = sum(1 for st, _ in counted.values() if st == "killed")
    total = len(counted)
    by_file = {}  # module -> [not killed, counted]
    for name, (st, _) in counted.items():
        row = by_file.setdefault(name.split(".x")[0], [0, 0])
        row[0] += st != "killed"
        row[1] += 1
    print(f"counted mutants: {total}, killed {killed} ({100 * killed / max(total, 1):.1f} %); excluded: {len(excluded)}")
    for st in ("survived", "no tests", "timeout", "suspicious"):
        print(f"  {st}: {sum(1 for s, _ in counted.values() if s == st)}")
    for area, rows in sorted(areas.items()):
        cnt = [st for st, reason in rows if not reason]
        k = sum(1 for st in cnt if st == "killed")
        print(f"  area {area}: killed {k} / counted {len(cnt)} ({100 * k / max(len(cnt), 1):.1f} %), "
              f"excluded {len(rows) - len(cnt)}")
    print("by module: not killed, killed / counted")
    for key, (n, c) in sorted(by_file.items(), key=lambda kv: (-kv[1][0], kv[0])):
        print(f"  {n:5d}  {c - n:5d} / {c:<5d} ({100 * (c - n) / c:5.1f} %)  {key}")
    if not only:  # one area's run (--area) leaves the whole run's list alone
        with open(os.path.join(ROOT, "dev", "mutation-excluded.md"), "w", encoding="utf-8") as fh:
            fh.write("# Mutants excluded from the score (generated by dev/mutation_report.py)\n\n")
            for name, (st, reason) in sorted(excluded.items()):
                fh.write(f"- `{name}` ({st}): {reason}\n")
    if "--survivors" in sys.argv:
        for name, (st, _) in sorted(counted.items()):
            if st != "killed":
                print(name, st)
    if "--json" in sys.argv:
        print(json.dumps({"counted": total, "killed": killed, "excluded": len(excluded)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
