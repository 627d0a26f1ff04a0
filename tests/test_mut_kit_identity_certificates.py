"""verify.kit.identity_certificates (mutation tests): one certificate per (identity, token) pair, for the data's T,
the claim and statement passed through, the tool versions recorded and the dataset's name added."""
from types import SimpleNamespace

from verify.claims import Outcome
from verify.kit import identity_certificates as IC


def test_one_certificate_per_pair_with_the_datas_T(monkeypatch):
    """A recording fake of identity_certificate: called once per pair with T = data.T, o, claim, statement and
    versions = tool_versions(); each returned dict gains dataset_name and is appended in order."""
    calls = []

    def fake(name, *, claim, T, o, statement, versions):
        calls.append((name, claim, T, o, statement, versions))
        return {"name": name, "o": o}

    monkeypatch.setattr(IC, "identity_certificate", fake)
    monkeypatch.setattr(IC, "tool_versions", lambda: {"v": 1})
    out = Outcome()
    data = SimpleNamespace(T=4, name="dset")
    IC.identity_certificates(out, claim="c.x", data=data, identities=[("variance", 0), ("indicator", 2)],
                             statement="S")
    assert calls == [("variance", "c.x", 4, 0, "S", {"v": 1}), ("indicator", "c.x", 4, 2, "S", {"v": 1})]
    assert out.certificates == [{"name": "variance", "o": 0, "dataset_name": "dset"},
                                {"name": "indicator", "o": 2, "dataset_name": "dset"}]


def test_real_certificate_fields():
    """The real engine: the certificate names the identity, the claim, the statement and the dataset."""
    out = Outcome()
    IC.identity_certificates(out, claim="c.y", data=SimpleNamespace(T=2, name="d2"), identities=[("variance", 0)],
                             statement="St")
    (cert,) = out.certificates
    assert cert["claim"] == "c.y" and cert["statement"] == "St" and cert["dataset_name"] == "d2"
    assert cert["identity"]["name"] == "variance" and "mpmath" in cert["tool"]
