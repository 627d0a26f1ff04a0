"""Helpers shared by the claim tests: one evidence item picked by its name, a claim's ``evaluate`` at 30 digits."""
from verify.numbers.precision import working_precision


def only_item(out, start: str):
    """The one evidence item of ``out`` whose quantity starts with ``start`` (fails if there is none or several)."""
    got = [e for e in out.evidence if e.quantity.startswith(start)]
    assert len(got) == 1, [e.quantity for e in out.evidence]
    return got[0]


def evaluate_at(module, data, dps: int = 30, **options):
    """``module.evaluate(data, prec, **options)`` at ``dps`` digits."""
    with working_precision(dps) as prec:
        return module.evaluate(data, prec, **options)
