"""The claim registry in-process (verify.claims.registry): Claim validation and defaults, register,
discover (on a throw-away package), all (paper order, natural order of ids), resolve (ids, bare
numbers, aliases, errors with their hints). The CLI tests exercise these only in subprocesses."""
from __future__ import annotations

import sys

import pytest

from verify.claims.registry import KINDS, PAPERS, PRIMARY_PAPER, REGISTRY, Claim, Registry, _natural, register
from verify.errors import UsageError


def check(data, prec):  # a claim's check (never run here)
    return None


def claim(cid, paper=None, aliases=(), module="", **kw):
    paper = paper or cid.split(".")[0]
    kw.setdefault("kind", "inequality")
    return Claim(id=cid, paper=paper, number="Lemma " + cid, title="t " + cid, statement="s",
                 check=check, default_datasets=lambda seed=0: [seed], aliases=tuple(aliases), module=module, **kw)


def registry(*claims):
    reg = Registry()
    reg._discovered = True  # the claims given are all there is
    for c in claims:
        reg.register(c)
    return reg


# ----- Claim ----------------------------------------------------------------------------------------
def test_constants():
    assert KINDS == ("identity", "inequality", "existential", "asymptotic", "empirical")
    assert PAPERS == ("mmts", "tfsvm", "irgf") and PRIMARY_PAPER == "mmts"


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_is_accepted(kind):
    assert claim("mmts.k", kind=kind).kind == kind


def test_unknown_kind_and_paper_are_rejected():
    with pytest.raises(ValueError, match="unknown kind"):
        claim("mmts.x", kind="conjecture")
    with pytest.raises(ValueError, match="unknown paper"):
        claim("other.x", paper="other")


def test_claim_defaults():
    c = claim("mmts.d")
    assert c.module == __name__  # the check's module
    assert claim("mmts.d", module="lemmas.mmts.elsewhere").module == "lemmas.mmts.elsewhere"
    assert c.recompute is True and c.default_precision == 50 and c.strategy is None and c.aliases == ()
    assert c.default_datasets(seed=3) == [3]  # a callable is kept as it is


def test_a_tuple_of_factories_becomes_a_seeded_factory():
    made = []

    def a():
        made.append("a")
        return "A"

    def b():
        made.append("b")
        return "B"

    c = Claim(id="mmts.f", paper="mmts", number="1", title="t", kind="identity", statement="s", check=check,
              default_datasets=(a, b))
    assert made == []  # nothing built at registration
    assert c.default_datasets() == ["A", "B"] and made == ["a", "b"]
    assert c.default_datasets(seed=7) == ["A", "B"]  # the seed is accepted and ignored
    assert Claim(id="mmts.g", paper="mmts", number="1", title="t", kind="identity", statement="s", check=check,
                 default_datasets=[a]).default_datasets() == ["A"]  # any iterable of factories


def test_summary():
    s = claim("tfsvm.thm3", aliases=("x-y", "z")).summary()
    assert s == {"id": "tfsvm.thm3", "paper": "tfsvm", "number": "Lemma tfsvm.thm3", "title": "t tfsvm.thm3",
                 "kind": "inequality", "aliases": ["x-y", "z"]}


# ----- register -------------------------------------------------------------------------------------
def test_register_collects_aliases_once_per_claim():
    reg = registry()
    c = claim("mmts.a", aliases=("shared", "only-a"))
    assert reg.register(c) is c
    assert reg.register(c) is c  # the same module again (a reload): fine, alias not repeated
    reg.register(claim("irgf.b", aliases=("shared",)))
    assert reg.claims == {"mmts.a": c, "irgf.b": reg.claims["irgf.b"]}
    assert reg.aliases == {"shared": ["mmts.a", "irgf.b"], "only-a": ["mmts.a"]}


def test_register_rejects_an_id_from_another_module():
    reg = registry(claim("mmts.a", module="lemmas.one"))
    with pytest.raises(ValueError, match="registered twice"):
        reg.register(claim("mmts.a", module="lemmas.two"))
    same = claim("mmts.a", module="lemmas.one", aliases=("new",))
    reg.register(same)  # re-registered from its own module: replaces it
    assert reg.claims["mmts.a"] is same and reg.aliases == {"new": ["mmts.a"]}


def test_module_level_register_uses_the_global_registry():
    c = claim("mmts.zz-mut-engine-test", module="tests.fake")
    try:
        assert register(c) is c and REGISTRY.claims["mmts.zz-mut-engine-test"] is c
    finally:
        del REGISTRY.claims["mmts.zz-mut-engine-test"]


# ----- discover -------------------------------------------------------------------------------------
@pytest.fixture()
def fake_package(tmp_path, monkeypatch):
    """A package ``mutfakeclaims`` whose modules record their import in ``mutfakeprobe.seen``."""
    (tmp_path / "mutfakeprobe.py").write_text("seen = []\n")
    pkg = tmp_path / "mutfakeclaims"
    (pkg / "sub").mkdir(parents=True)
    body = "import mutfakeprobe\nmutfakeprobe.seen.append(__name__)\n"
    for path in ("__init__.py", "alpha.py", "TEMPLATE.py", "sub/__init__.py", "sub/beta.py", "sub/TEMPLATE.py"):
        (pkg / path).write_text(body)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "mutfakeclaims"
    for name in [m for m in sys.modules if m.startswith(("mutfakeclaims", "mutfakeprobe"))]:
        del sys.modules[name]


def test_discover_imports_every_module_but_the_templates(fake_package):
    reg = Registry()
    reg.discover(fake_package)
    import mutfakeprobe

    assert sorted(mutfakeprobe.seen) == ["mutfakeclaims", "mutfakeclaims.alpha", "mutfakeclaims.sub",
                                         "mutfakeclaims.sub.beta"]
    assert reg._discovered is True


def test_discover_runs_once(fake_package):
    reg = Registry()
    reg.discover(fake_package)
    import mutfakeprobe

    for name in [m for m in sys.modules if m.startswith("mutfakeclaims")]:
        del sys.modules[name]
    mutfakeprobe.seen.clear()
    reg.discover(fake_package)  # already discovered: nothing imported again
    assert mutfakeprobe.seen == []
    Registry().discover(fake_package)  # a fresh registry does import
    assert "mutfakeclaims.alpha" in mutfakeprobe.seen


def test_discover_defaults_to_the_lemmas_package():
    reg = Registry()
    reg.discover()  # the lemmas package (imported already: registers into REGISTRY)
    assert reg._discovered is True
    ids = [c.id for c in REGISTRY.all()]
    assert "mmts.lemma1" in ids and "irgf.thm41" in ids
    assert not any("TEMPLATE" in c.module for c in REGISTRY.all())


def test_all_and_resolve_discover_first(monkeypatch):
    calls = []
    reg = Registry()
    monkeypatch.setattr(reg, "discover", lambda package="lemmas": calls.append(package))
    reg.register(claim("mmts.a"))
    assert [c.id for c in reg.all()] == ["mmts.a"] and calls == ["lemmas"]
    monkeypatch.setattr(reg, "manifest", lambda package="lemmas": None)  # no usable manifest: resolve discovers
    assert reg.resolve("mmts.a")[0].id == "mmts.a" and calls == ["lemmas", "lemmas"]


def test_resolve_with_a_fresh_manifest_imports_only_the_claim_named(monkeypatch):
    imported = []
    reg = Registry()
    manifest = {"modules": {}, "claims": [
        {"id": "mmts.b", "paper": "mmts", "number": "Lemma 2", "title": "t", "kind": "identity", "aliases": ["bee"],
         "module": "fake.b"},
        {"id": "irgf.c", "paper": "irgf", "number": "Lemma 3", "title": "t", "kind": "identity", "aliases": ["bee"],
         "module": "fake.c"}]}
    monkeypatch.setattr(reg, "manifest", lambda package="lemmas": manifest)
    monkeypatch.setattr(reg, "discover", lambda package="lemmas": pytest.fail("discovered"))
    monkeypatch.setattr("importlib.import_module", lambda name: (imported.append(name), reg.register(
        claim("mmts.b") if name == "fake.b" else claim("irgf.c")))[0])
    assert reg.resolve("b")[0].id == "mmts.b" and imported == ["fake.b"]  # bare name: the primary paper's
    assert reg.resolve("mmts.b")[0].id == "mmts.b" and imported == ["fake.b"]  # registered now: not imported again
    with pytest.raises(UsageError, match="'bee' is shared by mmts.b, irgf.c"):  # the registry's order
        reg.resolve("bee")
    with pytest.raises(UsageError, match="unknown claim id 'zzz'"):
        reg.resolve("zzz")
    assert imported == ["fake.b"]
    assert [s["id"] for s in reg.summaries()] == ["mmts.b", "irgf.c"] and "module" not in reg.summaries()[0]
    assert [s["id"] for s in reg.summaries("irgf")] == ["irgf.c"]


# ----- all ------------------------------------------------------------------------------------------
def test_all_orders_by_paper_then_naturally():
    reg = registry(*(claim(c) for c in ("irgf.lemma41", "tfsvm.thm3", "mmts.lemma11", "mmts.lemma2", "irgf.hyp",
                                         "mmts.lemma1", "mmts.thm2")))
    assert [c.id for c in reg.all()] == ["mmts.lemma1", "mmts.lemma2", "mmts.lemma11", "mmts.thm2", "tfsvm.thm3",
                                         "irgf.hyp", "irgf.lemma41"]
    assert [c.id for c in reg.all("mmts")] == ["mmts.lemma1", "mmts.lemma2", "mmts.lemma11", "mmts.thm2"]
    assert [c.id for c in reg.all(paper="irgf")] == ["irgf.hyp", "irgf.lemma41"]
    assert reg.all("tfsvm") == [reg.claims["tfsvm.thm3"]]


def test_natural_key_splits_numbers():
    assert _natural("mmts.lemma11") == ["mmts.lemma", 11, ""]
    assert sorted(["a10", "a9", "a10b", "b1"], key=_natural) == ["a9", "a10", "a10b", "b1"]


def test_the_real_registry_in_order():
    ids = [c.id for c in REGISTRY.all()]
    papers = [i.split(".")[0] for i in ids]
    assert papers == sorted(papers, key=PAPERS.index)
    mm = [i for i in ids if i.startswith("mmts.lemma")]
    assert mm == sorted(mm, key=lambda i: int("".join(ch for ch in i if ch.isdigit())))


# ----- resolve --------------------------------------------------------------------------------------
def reg_for_resolve():
    return registry(claim("mmts.lemma2", aliases=("svm", "both")), claim("irgf.lemma42", aliases=("both", "nd")),
                    claim("mmts.irgf.odd"), claim("tfsvm.thm3"))


def test_resolve_an_id():
    reg = reg_for_resolve()
    c, note = reg.resolve("irgf.lemma42")
    assert c is reg.claims["irgf.lemma42"] and note is None
    assert reg.resolve("  tfsvm.thm3 \n") == (reg.claims["tfsvm.thm3"], None)  # stripped


def test_resolve_a_bare_number_in_the_primary_paper():
    reg = reg_for_resolve()
    c, note = reg.resolve("lemma2")
    assert c is reg.claims["mmts.lemma2"]
    assert note == "'lemma2' resolved to mmts.lemma2 (Lemma mmts.lemma2 of mmts)"
    assert reg.resolve(" lemma2 ")[0] is c


def test_a_name_with_a_paper_prefix_is_not_looked_up_in_mmts():
    reg = reg_for_resolve()
    with pytest.raises(UsageError, match="unknown claim id 'irgf.odd'"):
        reg.resolve("irgf.odd")  # mmts.irgf.odd exists, but irgf.* names irgf


def test_resolve_an_alias():
    reg = reg_for_resolve()
    c, note = reg.resolve("svm")
    assert c is reg.claims["mmts.lemma2"] and note == "alias 'svm' resolved to mmts.lemma2"
    assert reg.resolve("nd") == (reg.claims["irgf.lemma42"], "alias 'nd' resolved to irgf.lemma42")


def test_a_shared_alias_must_be_disambiguated():
    with pytest.raises(UsageError) as e:
        reg_for_resolve().resolve("both")
    assert str(e.value) == "alias 'both' is shared by mmts.lemma2, irgf.lemma42: name one of them"


def test_unknown_names_get_the_closest_matches():
    reg = registry(*(claim(f"mmts.lemma{k}") for k in range(1, 9)))
    with pytest.raises(UsageError) as e:
        reg.resolve("mmts.lemma")
    msg = str(e.value)
    assert msg.startswith("unknown claim id 'mmts.lemma'; closest: ")
    assert len(msg.split("closest: ")[1].split(", ")) == 5  # at most five
    with pytest.raises(UsageError) as e:
        reg.resolve("zzzz")
    assert str(e.value) == "unknown claim id 'zzzz'; see 'python -m verify list'"
    # aliases are candidates too
    reg.register(claim("irgf.x", aliases=("kkt-residual",)))
    with pytest.raises(UsageError, match="closest: kkt-residual"):
        reg.resolve("kkt-residuals")


def test_similarity_cutoff_is_one_half():
    # difflib ratio of 'abcd' to 'mmts.abxy' is 2*2/13 < 0.5; to 'abxy' it is 2*2/8 = 0.5 (kept)
    reg = registry(claim("mmts.q", aliases=("abxy",)))
    with pytest.raises(UsageError) as e:
        reg.resolve("abcd")
    assert str(e.value) == "unknown claim id 'abcd'; closest: abxy"
    reg2 = registry(claim("mmts.q", aliases=("abxyz",)))  # 2*2/9 < 0.5: not offered
    with pytest.raises(UsageError) as e:
        reg2.resolve("abcd")
    assert str(e.value) == "unknown claim id 'abcd'; see 'python -m verify list'"


@pytest.mark.parametrize("name", ["irgf", "IRGF", "tfsvm"])
def test_a_paper_name_points_to_verify_all(name):
    with pytest.raises(UsageError) as e:
        reg_for_resolve().resolve(name)
    assert str(e.value) == (f"unknown claim id '{name}'; to run a paper's claims use "
                            f"'python -m verify all --paper {name.lower()}'")


def test_resolve_in_the_real_registry():
    c, note = REGISTRY.resolve("lemma3")
    assert c.id == "mmts.lemma3" and "mmts.lemma3" in note
    c, note = REGISTRY.resolve("key-lemma")
    assert c.id == "mmts.lemma3" and note == "alias 'key-lemma' resolved to mmts.lemma3"
    with pytest.raises(UsageError, match="shared by"):
        REGISTRY.resolve("norm-diverges")
