"""The inventory of universally quantified parameters (docs/parameters.md) is true to the code: every registered
claim declares its parameters (or that it has none), the page is what the declarations generate, and each
declared option is a keyword the claim's check takes."""
import inspect
import os

from verify.claims import REGISTRY
from verify.claims.inventory import inventory_markdown

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_registered_claim_declares_its_parameters():
    missing = [c.id for c in REGISTRY.all() if c.parameters is None]
    assert not missing, f"claims without a Parameter inventory: {missing}"


def test_the_page_is_generated_from_the_declarations():
    with open(os.path.join(ROOT, "docs", "parameters.md"), encoding="utf-8") as f:
        page = f.read()
    assert page == inventory_markdown(), "docs/parameters.md is stale: run python dev/inventory.py"
    for c in REGISTRY.all():
        assert f"| {c.id} |" in page


def test_each_declared_option_is_a_keyword_of_the_check():
    for c in REGISTRY.all():
        params = inspect.signature(c.check).parameters
        for opt in c.option_parameters():
            assert opt in params, f"{c.id}: declared option {opt!r} is not a keyword of its check"
