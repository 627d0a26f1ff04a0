"""``verify recheck CERT.json [--precision N]``: re-verify a region or identity certificate without the search.

An identity certificate (an exact proof's polynomial identity, ``verify.numbers.identities``) is re-expanded with
FLINT's multivariate polynomials, independent of the sympy expansion that produced it.

The certificate names its claim, the margin's builder and its parameters, and carries the dataset exactly; the
margin is rebuilt from them and every leaf is re-evaluated with mpmath's interval engine (``iv``), an engine
independent of the search's arb balls (``verify.numbers.regions.recheck``). Exit 0 when the certificate is
accepted (PROVEN), 1 when a leaf fails or the leaves do not cover the region (REJECTED, naming the first
problem), 5 for a file that is not a readable certificate, 2 for a usage error.
"""
from __future__ import annotations

from verify.cli.common import Parser
from verify.errors import DataError, UsageError


def main(argv) -> int:
    from verify.claims import REGISTRY
    from verify.data.dataset import Dataset
    from verify.data.inputs import read_json
    from verify.numbers.identities import FORMAT as IDENTITY_FORMAT
    from verify.numbers.identities import recheck_identity
    from verify.numbers.precision import parse_precision, working_precision
    from verify.numbers.regions import FORMAT, recheck

    p = Parser(prog="verify recheck")
    p.add_argument("certificate", help="a region certificate (JSON) written by --report DIR into DIR/certificates/")
    p.add_argument("--precision", default=None, help="digits for the interval re-check (default: the certificate's)")
    a = p.parse_args(argv)
    cert = read_json(a.certificate, "region certificate", flag="recheck")
    if isinstance(cert, dict) and cert.get("format") == IDENTITY_FORMAT:
        try:
            claim, _ = REGISTRY.resolve(str(cert["claim"]))
            res = recheck_identity(cert)
            name = str(cert["identity"]["name"])
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"{a.certificate}: incomplete certificate ({exc})")
        except UsageError as exc:
            raise DataError(f"{a.certificate}: {exc}")
        print(f"{claim.id} · {cert.get('dataset_name', 'dataset')} · identity {name}: {res.summary()}")
        return 0 if res.ok else 1
    if not isinstance(cert, dict) or cert.get("format") != FORMAT:
        raise DataError(f"{a.certificate}: not a region or identity certificate (expected format {FORMAT!r} or "
                        f"{IDENTITY_FORMAT!r})")
    try:
        claim, _ = REGISTRY.resolve(str(cert["claim"]))
        name = str(cert["margin"]["name"])
        params = dict(cert["margin"]["params"])
        data = Dataset.from_dict(params["dataset"], name=str(cert.get("dataset_name", "dataset")))
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"{a.certificate}: incomplete certificate ({exc})")
    except UsageError as exc:
        raise DataError(f"{a.certificate}: {exc}")
    builders = claim.regions or {}
    if name not in builders:
        raise DataError(f"{a.certificate}: {claim.id} has no region {name!r} (it has: {', '.join(builders) or 'none'})")
    dps = parse_precision(a.precision) if a.precision is not None else parse_precision(cert.get("dps", 30))
    with working_precision(dps):
        margin = builders[name](data, params)
        res = recheck(cert, margin, dps)
    print(f"{claim.id} · {cert.get('dataset_name', data.name)} · {name}: {res.summary()}")
    return 0 if res.ok else 1
