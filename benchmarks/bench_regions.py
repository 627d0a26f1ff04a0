"""Region certificates: boxes and seconds per proven claim item, the re-check's time against the search's, and how
far the Key Lemma's exact proof reaches.

    python benchmarks/bench_regions.py            # the table (a minute or two)
    python benchmarks/bench_regions.py --key-T 12 # the Key Lemma's identity up to T = 12

A script, not a pytest module (benchmarks/ is outside CI's default run). For every claim that proves an item on a
region (``Claim.regions``), on its default datasets at 30 digits: the region proven, the boxes the search evaluated,
the certificate's leaves, the search's seconds (arb; wall clock, as the certificate records them) and the re-check's
(mpmath iv, from the certificate alone; CPU).
The other times are CPU times (``time.process_time``: robust on a shared machine). The Key Lemma (mmts Lemma 3, tfsvm Lemma 7)
is proven by exact algebra, not a region search: the table gives sympy's time for its identity per T.
"""
from __future__ import annotations

import argparse
import time

from verify.claims import REGISTRY
from verify.data.dataset import Dataset
from verify.numbers.precision import working_precision
from verify.numbers.regions import recheck


def region_rows(dps: int = 30):
    rows = []
    for claim in REGISTRY.all():
        if not claim.regions:
            continue
        for data in claim.default_datasets():
            with working_precision(dps) as prec:
                start = time.process_time()
                out = claim.check(data, prec)
                total = time.process_time() - start
                items = [e for e in out.evidence if getattr(e, "proof", None) is not None]
                for item, cert in zip(items, out.certificates or [None] * len(items)):
                    row = [claim.id, data.name, item.proof.region, item.proof.status, item.proof.boxes,
                           item.proof.leaves, item.proof.seconds, None, total]
                    if cert is not None:
                        params = cert["margin"]["params"]
                        margin = claim.regions[cert["margin"]["name"]](Dataset.from_dict(params["dataset"]), params)
                        t0 = time.process_time()
                        ok = recheck(cert, margin, dps).ok
                        row[7] = (time.process_time() - t0) if ok else float("nan")
                    rows.append(row)
    return rows


def key_lemma_rows(max_T: int):
    from verify.kit.key_lemma import identity_holds

    rows = []
    for T in range(2, max_T + 1):
        identity_holds.cache_clear()
        t0 = time.process_time()
        ok = identity_holds(T)
        rows.append((T, ok, time.process_time() - t0))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--key-T", type=int, default=10)
    ap.add_argument("--dps", type=int, default=30)
    a = ap.parse_args()
    print(f"| claim | dataset | region | status | boxes | leaves | search s (wall) | recheck s (CPU) | check s (CPU, {a.dps} digits) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for c, d, reg, st, boxes, leaves, s, r, tot in region_rows(a.dps):
        rs = "—" if r is None else f"{r:.2f}"
        print(f"| {c} | {d} | {reg} | {st} | {boxes} | {leaves} | {s:.2f} | {rs} | {tot:.1f} |")
    print()
    print("| T | Key Lemma identity (sympy) | seconds |")
    print("|---|---|---|")
    for T, ok, s in key_lemma_rows(a.key_T):
        print(f"| {T} | {'holds' if ok else 'FAILS'} | {s:.2f} |")


if __name__ == "__main__":
    main()
