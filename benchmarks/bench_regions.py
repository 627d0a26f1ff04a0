"""Region certificates: boxes and seconds per proven claim item, the re-check's time against the search's, and how
far the Key Lemma's exact proof reaches.

    python benchmarks/bench_regions.py            # the tables (a few minutes)
    python benchmarks/bench_regions.py --key-T 12 # the Key Lemma's identity up to T = 12

A script, not a pytest module (benchmarks/ is outside CI's default run). For every claim that proves an item on a
region (``Claim.regions``), on its default datasets at 30 digits: the region proven, the boxes the search evaluated,
the certificate's leaves, the search's seconds (arb; wall clock, as the certificate records them) and the re-check's
(mpmath iv, from the certificate alone; CPU).
The other times are CPU times (``time.process_time``: robust on a shared machine). The Key Lemma (mmts Lemma 3, tfsvm Lemma 7)
is proven by exact algebra, not a region search: the table gives sympy's time for its identity per T, and the same for
the descent identities of ``kit.descent_proof`` (mmts Lemma 4, tfsvm Lemma 9, the independent-queries fact).
Also: every proven claim's verdict on its defaults (``run_claim``, both precisions; wall seconds), and each region
search split over 1 and 2 worker processes (``region_jobs``: the same result, wall seconds).
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
                certs = [c for c in out.certificates if "margin" in c]  # region certificates (not identities)
                for item, cert in zip(items, certs or [None] * len(items)):
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


PROVEN = ("mmts.lemma3", "tfsvm.lemma7", "mmts.lemma4", "tfsvm.lemma9", "tfsvm.aux.overparam-no-stationary",
          "tfsvm.lemma6", "tfsvm.lemma12")


def proven_rows(dps: int):
    from verify.claims import run_claim

    rows = []
    for cid in PROVEN:
        claim, _ = REGISTRY.resolve(cid)
        t0 = time.perf_counter()
        v = run_claim(claim, claim.default_datasets(), dps=dps)
        rows.append((cid, v.label, len(v.datasets), time.perf_counter() - t0))
    return rows


def descent_rows(max_T: int):
    from verify.kit.descent_proof import indicator_covariance_identity, softmax_derivative_identity, variance_identity

    rows = []
    for T in range(2, max_T + 1):
        times = []
        for f in (softmax_derivative_identity, indicator_covariance_identity, variance_identity):
            f.cache_clear()
            t0 = time.process_time()
            ok = f(T)
            times.append((ok, time.process_time() - t0))
        rows.append((T, times))
    return rows


def split_rows(dps: int):
    """Each region search of the region claims, serial and split over 1 and 2 workers (wall seconds of the search)."""
    from verify.numbers.regions import region_jobs

    rows = []
    for claim in REGISTRY.all():
        if not claim.regions:
            continue
        for data in claim.default_datasets():
            found = []
            for jobs in (None, 1, 2):
                with working_precision(dps) as prec, region_jobs(jobs):
                    out = claim.check(data, prec)
                found.append([(e.proof.region, e.proof.status, e.proof.boxes, e.proof.seconds)
                              for e in out.evidence if getattr(e, "proof", None) is not None])
            for k, item in enumerate(found[0]):
                rows.append((claim.id, data.name, item, found[1][k], found[2][k]))
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
    print()
    print("| T | (D) softmax derivative | (I) indicator covariance | (V) variance | (CPU seconds each) |")
    print("|---|---|---|---|---|")
    for T, times in descent_rows(a.key_T):
        print(f"| {T} | " + " | ".join(f"{'holds' if ok else 'FAILS'} {s:.2f}" for ok, s in times) + " | |")
    print()
    print("| claim | verdict on its defaults | datasets | seconds (wall, both precisions) |")
    print("|---|---|---|---|")
    for cid, label, n, s in proven_rows(a.dps):
        print(f"| {cid} | {label} | {n} | {s:.1f} |")
    print()
    print("| claim | dataset | region | boxes serial / split | search s: serial, split 1 worker, 2 workers (wall) |")
    print("|---|---|---|---|---|")
    for cid, d, serial, one, two in split_rows(a.dps):
        same = "same" if one[:3] == two[:3] else "DIFFERENT"
        print(f"| {cid} | {d} | {serial[0]} ({serial[1]}) | {serial[2]} / {one[2]} ({same} for 1 and 2) | "
              f"{serial[3]:.2f}, {one[3]:.2f}, {two[3]:.2f} |")


if __name__ == "__main__":
    main()
