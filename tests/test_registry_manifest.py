"""lemmas/manifest.json: ``verify <claim>`` and ``verify list`` read it instead of importing every claim module; it is
used only while it matches every module file (else full discovery), and the committed one is up to date."""
import json
import os
import subprocess
import sys

from verify.claims import REGISTRY
from verify.claims.registry import MANIFEST, Registry

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_committed_manifest_is_the_one_discovery_builds():
    with open(os.path.join(ROOT, "lemmas", MANIFEST), encoding="utf-8") as f:
        committed = json.load(f)
    assert committed == REGISTRY.build_manifest(), "run: python dev/make_manifest.py"
    ids = [c["id"] for c in committed["claims"]]
    assert ids == [c.id for c in REGISTRY.all() if c.module.startswith("lemmas.")]  # the registry's order
    assert REGISTRY.summaries("tfsvm") == [c.summary() for c in REGISTRY.all("tfsvm")]


def test_resolving_one_claim_imports_one_claim_module():
    code = ("import sys; from verify.claims import REGISTRY; c, note = REGISTRY.resolve('lemma3'); "
            "mods = sorted(m for m in sys.modules if m.startswith('lemmas.') and m.count('.') == 2); "
            "print(c.id, note is not None, mods)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "mmts.lemma3 True ['lemmas.mmts.lemma3']", out.stderr


def test_all_with_claims_imports_only_those_claim_modules():
    """``verify all --claims`` resolves the names through the manifest (every claim module imported took ~1.8 s
    of a run's start-up); the claims run in the registry's order, not the flag's."""
    code = ("import sys; from verify.cli.all import _chosen; cs = _chosen('irgf.asm1, lemma2', None); "
            "mods = sorted(m for m in sys.modules if m.startswith('lemmas.') and m.count('.') == 2); "
            "print([c.id for c in cs], mods)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "['mmts.lemma2', 'irgf.asm1'] ['lemmas.irgf.asm1', 'lemmas.mmts.lemma2']", out.stderr


def test_a_stale_manifest_is_never_used(monkeypatch):
    fresh = Registry()
    assert fresh.manifest() is not None
    files = Registry.module_files()
    changed = dict(files, **{next(iter(files)): "0" * 64})  # one module edited since the manifest was written
    monkeypatch.setattr(Registry, "module_files", staticmethod(lambda package="lemmas": changed))
    stale = Registry()
    assert stale.manifest() is None
    calls = []
    monkeypatch.setattr(stale, "discover", lambda package="lemmas": calls.append(package))
    REGISTRY.resolve("mmts.lemma3")  # loaded here, whatever ran before in this process (the test ran alone failed)
    stale.claims, stale.aliases = REGISTRY.claims, REGISTRY.aliases
    assert stale.resolve("mmts.lemma3")[0].id == "mmts.lemma3" and calls == ["lemmas"]  # discovered instead


def test_names_resolve_through_the_manifest_as_through_discovery():
    """Every id, bare number and alias (a shared one included) and unknown names: a fresh process resolving through
    the manifest gives the same claim and note, or the same error, as the discovered registry here."""
    from verify.errors import UsageError

    REGISTRY.discover()
    names = sorted(REGISTRY.claims) + sorted(REGISTRY.aliases) + ["lemma3", " thm2 ", "nonsense", "tfsvm", "lema3"]
    names = [n for n in names if not n.startswith(("mmts.zz", "zz"))]  # claims other tests register by hand

    def answer(name):
        try:
            claim, note = REGISTRY.resolve(name)
            return [claim.id, note]
        except UsageError as exc:
            return str(exc)

    code = ("import json, sys; from verify.claims import REGISTRY; from verify.errors import UsageError\n"
            "def answer(name):\n"
            "    try:\n        c, note = REGISTRY.resolve(name); return [c.id, note]\n"
            "    except UsageError as exc:\n        return str(exc)\n"
            "names = json.load(sys.stdin); out = [answer(n) for n in names]\n"
            "assert not REGISTRY._discovered and REGISTRY.manifest() is not None\n"
            "print(json.dumps(out))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, input=json.dumps(names), capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [answer(n) for n in names]
