"""Write lemmas/manifest.json: every claim's id, paper, number, title, kind, aliases and module, and each claim
module file's SHA-256 — what ``verify <claim>`` and ``verify list`` read instead of importing every claim module.

    python dev/make_manifest.py

Run it after adding or changing a claim module (tests/test_registry_manifest.py says when it is due; a manifest
that does not match the files is never used, so a stale one only costs start-up time)."""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from verify.claims.registry import MANIFEST, REGISTRY  # noqa: E402


def main() -> None:
    path = os.path.join(ROOT, "lemmas", MANIFEST)
    text = json.dumps(REGISTRY.build_manifest(), indent=1, ensure_ascii=False) + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()
