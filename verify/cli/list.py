"""``verify list [--paper P] [--json]``: every encoded claim."""
from __future__ import annotations

import json

from verify.cli.common import PAPERS, Parser


def main(argv) -> int:
    from verify.claims import REGISTRY

    p = Parser(prog="verify list")
    p.add_argument("--paper", choices=PAPERS)
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    claims = REGISTRY.summaries(a.paper)
    if a.json:
        print(json.dumps(claims, indent=2))
        return 0
    width = max((len(c["id"]) for c in claims), default=10)
    wnum = max((len(c["number"]) for c in claims), default=10)
    for c in claims:
        aliases = f"  [{', '.join(c['aliases'])}]" if c["aliases"] else ""
        print(f"{c['id']:<{width}}  {c['number']:<{wnum}}  {c['kind']:<11} {c['title']}{aliases}")
    return 0
