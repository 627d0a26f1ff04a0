"""The inventory of universally quantified parameters: one table (docs/parameters.md) generated from the
claims' ``Parameter`` declarations, so it cannot drift from the code (tests/test_parameters.py).

Every registered claim has at least one row: its parameters ("for every π > 0", "from any W(0)", …) with how
the check covers each — ``hardest`` (the hardest case derived from the data), ``search`` (a ladder or search
run until the check's own criterion settles) or ``range`` (the values covered, named in the verdict's
``range``) — or one row saying the statement quantifies over nothing but the data.
"""
from __future__ import annotations

from verify.claims.registry import REGISTRY

HEADER = """\
# Universally quantified parameters: how each check covers them

Generated from the claims' `Parameter` declarations by `python dev/inventory.py`; `tests/test_parameters.py`
fails when this page and the code disagree, or when a registered claim declares nothing.

A statement "for every π > 0", "from any W(0)", "for every η ≤ 1/L" is not settled by trying a few values the
data may make easy. Each such parameter is covered in one of three ways:

- **hardest** — the hardest case is derived from the data (e.g. Lemma 10's π taken below the exact limit of its
  ratio along every locally-optimal ray), so a false statement answers VIOLATED;
- **search** — a ladder or a search runs until the check's own criterion settles (e.g. starts ever further out on
  each locally-optimal ray until one stays trapped), and what the ladder reached is stated;
- **range** — nothing better is possible here: the verdict's `range` names exactly the values covered.

`option` is the check's keyword for the parameter: `verify.check(claim, data, option=…)` sets it, and so does a
dataset's `options` key (`{"options": {"<claim id>": {"<option>": value}}}`), which is how `verify hunt`
saves a find; *hunted* parameters are drawn by `verify hunt` together with the datasets.

| claim | parameter | quantifier (as stated) | coverage | how the check covers it | option |
|---|---|---|---|---|---|
"""


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def inventory_rows(claims=None) -> list[tuple]:
    """[(claim id, symbol, quantifier, coverage, how, option)]; a claim without parameters gets one row."""
    rows = []
    for c in claims if claims is not None else REGISTRY.all():
        if c.parameters is None:
            rows.append((c.id, "?", "not inventoried", "—", "—", "—"))
            continue
        if not c.parameters:
            rows.append((c.id, "—", "none: the statement is about the given data", "—", "—", "—"))
        for p in c.parameters:
            opt = "—" if not p.option else f"`{p.option}`" + (" (hunted)" if p.hunt else "")
            rows.append((c.id, p.symbol, p.quantifier, p.coverage, p.how, opt))
    return rows


def inventory_markdown(claims=None) -> str:
    return HEADER + "".join("| " + " | ".join(_cell(x) for x in row) + " |\n" for row in inventory_rows(claims))
