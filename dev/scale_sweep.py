"""Every claim on its own first default dataset with the tokens X scaled by 10^k (opt-in, not in CI: minutes).

    python dev/scale_sweep.py                       # k ∈ {−100, 0, 100}, 25 digits, 2 processes, 120 s each
    python dev/scale_sweep.py --scales -400 400 --claims mmts.lemma1,tfsvm.thm10 --timeout 300
    python dev/scale_sweep.py --relabel             # the same data with its sequences, then its tokens, reversed

A claim must answer any valid data under the contract: a verdict and its exit code, never an internal error or a run
without end. Scaling the tokens keeps the data valid but moves every quantity far from 1 (softmax saturation, SVM
norms ~10^∓k, flows whose time overflows), where float64 conversions, exact expansions of huge exponents and
absolute tolerances break. A VIOLATED at a scale where the unscaled data is not VIOLATED is listed as suspect: a flaw
of the paper shown at a new scale, or a false VIOLATED of the check (both found so far were the latter).

``--relabel`` runs instead the data with its sequences in reverse order (X, Y and the per-sequence K, z, Yq) and with
the tokens of every sequence reversed (X, K; not for seq2seq data, whose causal mask and per-query labels follow the
order): a relabelling changes no statement, so any verdict that differs from the original's is listed (data with
``options`` naming indices are skipped).

Exit status: 1 if any run had an internal error, timed out or exited outside the contract (0–4), or (``--relabel``)
a verdict changed under a relabelling; else 0.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from verify.claims import REGISTRY  # noqa: E402


def scaled(obj: dict, k: int) -> dict:
    f = Fraction(10) ** k

    def scale(x):
        if isinstance(x, list):
            return [scale(y) for y in x]
        q = Fraction(x) * f
        return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"

    return {**obj, "X": scale(obj["X"])}


def relabelled(obj: dict, what: str) -> dict | None:
    """The dataset with its sequences (``what`` = "sequences") or every sequence's tokens reversed; None if not
    applicable (indices in options; token order of seq2seq data)."""
    if "options" in obj or (what == "tokens" and (obj.get("causal") or "Yq" in obj)):
        return None
    n, out = len(obj["X"]), dict(obj)
    keys = ("X", "Y", "K", "z", "Yq") if what == "sequences" else ("X", "K")
    for key in keys:
        if isinstance(out.get(key), list) and len(out[key]) == n:
            out[key] = out[key][::-1] if what == "sequences" else [seq[::-1] for seq in out[key]]
    return out


def run_one(claim_id: str, path: str, dps: int, timeout: float) -> dict:
    start = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-m", "verify", claim_id, "--data", path, "--precision", str(dps),
                               "--json"], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"code": None, "verdict": "TIMEOUT", "seconds": timeout, "error": f"no answer in {timeout:g} s"}
    seconds = time.monotonic() - start
    err = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
    try:
        verdict = json.loads(proc.stdout)["verdict"]
    except (ValueError, KeyError, TypeError):
        verdict = "ERROR"
    # no verdict, a one-line "verify: error: …" and exit 3: Undecided, a contract answer (nothing was decided)
    undecided = verdict == "ERROR" and proc.returncode == 3 and "internal error" not in err and len(
        proc.stderr.strip().splitlines()) == 1
    return {"code": proc.returncode, "verdict": "UNDECIDED" if undecided else verdict, "seconds": seconds,
            "error": err if ("internal error" in err or verdict == "ERROR") else ""}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scales", type=int, nargs="+", default=[-100, 0, 100], help="exponents k (default −100 0 100)")
    ap.add_argument("--claims", help="comma-separated claim ids (default: every claim)")
    ap.add_argument("--precision", type=int, default=25)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per run (default 120)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--relabel", action="store_true", help="reverse sequences, then tokens, instead of scaling")
    a = ap.parse_args(argv)
    REGISTRY.discover()
    claims = [REGISTRY.resolve(c)[0] for c in a.claims.split(",")] if a.claims else REGISTRY.all()
    scales = ["sequences", "tokens"] if a.relabel else sorted(set(a.scales) | {0})
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for claim in claims:
            obj = claim.default_datasets()[0].to_dict()
            for k in ([0] if a.relabel else []) + scales:
                data = relabelled(obj, k) if isinstance(k, str) else scaled(obj, k)
                if data is None:
                    continue
                path = os.path.join(tmp, f"{claim.id}-{k}.json")
                with open(path, "w") as f:
                    json.dump(data, f)
                jobs.append((claim.id, k, path))
        with ThreadPoolExecutor(a.jobs) as pool:
            futures = [pool.submit(run_one, cid, path, a.precision, a.timeout) for cid, _, path in jobs]
            results = {}
            for (cid, k, _), fut in zip(jobs, futures):
                results[cid, k] = r = fut.result()
                print(f"{cid:32s} {k if isinstance(k, str) else f'10^{k}':10s} {r['verdict']:15s} exit {r['code']}  {r['seconds']:6.1f} s  {r['error']}",
                      flush=True)
    bad = [(cid, k) for (cid, k), r in results.items()
           if r["verdict"] in ("ERROR", "TIMEOUT") or "internal error" in r["error"] or r["code"] not in (0, 1, 3, 4)]
    suspect = [(cid, k) for (cid, k), r in results.items()
               if k != 0 and r["verdict"] == "VIOLATED" and results[cid, 0]["verdict"] != "VIOLATED"]
    print(f"\n{len(results)} runs; {len(bad)} internal errors, timeouts or codes outside the contract: {bad}")
    if a.relabel:
        changed = [(cid, k) for (cid, k), r in results.items() if k != 0 and r["verdict"] != results[cid, 0]["verdict"]]
        print(f"verdicts changed by a relabelling: {changed}")
        return 1 if bad or changed else 0
    print(f"VIOLATED only when scaled (suspect, look at each): {suspect}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
