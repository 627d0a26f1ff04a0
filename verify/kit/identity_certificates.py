"""Claim-kit piece: certificates of the polynomial identities an exact proof rests on.

A claim proven on its whole domain by exact algebra names the identities it used (``verify.numbers.identities``);
``identity_certificates`` adds one certificate per identity to the outcome, which ``--report DIR`` writes to
DIR/certificates/ and ``python -m verify recheck`` re-expands with FLINT from the file alone.
"""
from __future__ import annotations

from verify.claims import Outcome
from verify.kit.region_inequality import tool_versions
from verify.numbers.identities import identity_certificate


def identity_certificates(out: Outcome, *, claim: str, data, identities, statement: str) -> None:
    """One certificate per (identity name, token o) pair, for ``data``'s T."""
    for name, o in identities:
        cert = identity_certificate(name, claim=claim, T=data.T, o=o, statement=statement, versions=tool_versions())
        cert["dataset_name"] = data.name
        out.certificates.append(cert)
