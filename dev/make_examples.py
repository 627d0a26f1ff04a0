"""Regenerate examples/ (the papers' small datasets as exact JSON) from verify/data/{mmts,tfsvm,irgf}.py.

    python dev/make_examples.py [FOLDER]      # default: examples/ next to this folder
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)  # this tree's verify/, not an installed copy (as dev/inventory.py does)

from verify.data.examples import write_examples  # noqa: E402

if __name__ == "__main__":
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "examples")
    for path in write_examples(folder):
        print(path)
