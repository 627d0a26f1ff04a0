"""Write docs/parameters.md from the claims' Parameter declarations: `python dev/inventory.py`."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from verify.claims.inventory import inventory_markdown  # noqa: E402

if __name__ == "__main__":
    path = os.path.join(ROOT, "docs", "parameters.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(inventory_markdown())
    print(f"wrote {path}")
