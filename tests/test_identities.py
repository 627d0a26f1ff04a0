"""verify.numbers.identities: the exact proofs' polynomial identities, expanded by sympy and by FLINT, certificates
written by --report and re-checked by ``verify recheck`` — accepted when true, rejected when tampered with."""
from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from verify.numbers import identities as I

NAMES = ("key-lemma", "indicator-covariance", "variance", "pairwise-covariance", "softmax-derivative")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("T", [2, 3, 5])
def test_both_engines_expand_every_identity_to_zero(name, T):
    for o in (range(T) if name == "indicator-covariance" else [0]):
        assert I.expand_sympy(name, T, o) is True
        assert I.expand_flint(name, T, o) is True


@pytest.mark.parametrize("name", NAMES)
def test_the_difference_vanishes_at_random_rational_points(name):
    """An independent route: P evaluated at random rationals in exact Fractions is 0 (no engine involved)."""
    rng = random.Random(name)
    for T in (2, 4):
        for _ in range(5):
            v = {n: Fraction(rng.randint(-9, 9), rng.randint(1, 5)) for n in I._names(name, T)}
            assert I._difference(name, v, T, T - 1 if name == "indicator-covariance" else 0) == 0


def test_a_false_identity_fails_in_both_engines_and_has_no_certificate(monkeypatch):
    """The key-lemma difference plus s₂·a₁ (a wrong identity): sympy and FLINT both say it is not 0, no certificate
    is issued, and a certificate of the true one is rejected on the recheck once P is wrong."""
    true = I.identity_certificate("key-lemma", claim="mmts.lemma3", T=3)
    original = I._difference
    monkeypatch.setattr(I, "_difference", lambda name, v, T, o=0: original(name, v, T, o) + v["s2"] * v["a1"])
    assert I.expand_sympy("key-lemma", 3) is False and I.expand_flint("key-lemma", 3) is False
    with pytest.raises(ValueError, match="does not hold"):
        I.identity_certificate("key-lemma", claim="mmts.lemma3", T=3)
    res = I.recheck_identity(true)
    assert not res.ok and "does not expand to 0" in res.summary()


def test_a_tampered_certificate_is_rejected():
    cert = I.identity_certificate("indicator-covariance", claim="tfsvm.lemma9", T=3, o=2)
    assert cert["identity"] == {"name": "indicator-covariance", "args": {"T": 3, "o": 2}}
    assert I.recheck_identity(cert).ok
    bad = json.loads(json.dumps(cert))
    bad["identity"]["args"]["o"] = 3  # no token 3 of T = 3
    assert not I.recheck_identity(bad).ok
    bad["identity"] = {"name": "no-such", "args": {"T": 3}}
    assert "unknown identity" in I.recheck_identity(bad).failure


def test_report_writes_identity_certificates_and_recheck_accepts_and_rejects(tmp_path, capsys):
    """tfsvm.aux.overparam-no-stationary --report: one softmax-derivative and one variance certificate per dataset,
    listed on the page; `verify recheck` exits 0 on each, 1 on one whose identity was renamed to a false one's
    arguments, 5 on one that is not a certificate."""
    from cli_helpers import run

    code, _, err = run(["tfsvm.aux.overparam-no-stationary", "--report", str(tmp_path)], capsys)
    assert code == 0, err
    files = sorted((tmp_path / "certificates").glob("*identity*.json"))
    assert len(files) == 8 and {f.name.split("-identity-")[1] for f in files} == {"softmax-derivative.json",
                                                                                  "variance.json"}
    page = (tmp_path / "tfsvm.aux.overparam-no-stationary.md").read_text(encoding="utf-8")
    assert "## Certificates" in page and "an exact polynomial identity" in page
    for f in files:
        code, out, _ = run(["recheck", str(f)], capsys)
        assert code == 0 and "PROVEN" in out
    cert = json.loads(files[0].read_text(encoding="utf-8"))
    cert["identity"]["args"]["T"] = 1
    files[0].write_text(json.dumps(cert), encoding="utf-8")
    code, out, _ = run(["recheck", str(files[0])], capsys)
    assert code == 1 and "REJECTED" in out
    files[0].write_text(json.dumps({"format": "something else"}), encoding="utf-8")
    code, _, err = run(["recheck", str(files[0])], capsys)
    assert code == 5 and "not a region or identity certificate" in err
