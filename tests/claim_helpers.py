"""Helpers shared by the claim tests: one evidence item picked by its name, a claim's ``evaluate`` at 30 digits, a
claim's default datasets and the check that their names are its own."""
import importlib
import re

from verify.numbers.precision import working_precision


def only_item(out, start: str, exact: bool = False):
    """The one evidence item of ``out`` whose quantity starts with ``start`` — or, ``exact``, is ``start`` (fails if
    there is none or several)."""
    got = [e for e in out.evidence if (e.quantity == start if exact else e.quantity.startswith(start))]
    assert len(got) == 1, [e.quantity for e in out.evidence]
    return got[0]


def evaluate_at(module, data, dps: int = 30, **options):
    """``module.evaluate(data, prec, **options)`` at ``dps`` digits."""
    with working_precision(dps) as prec:
        return module.evaluate(data, prec, **options)


def default_datasets(paper: str, module: str, *seed):
    """The default datasets of the claim in ``lemmas.<paper>.<module>`` (for ``seed`` when given)."""
    return importlib.import_module(f"lemmas.{paper}.{module}").CLAIM.default_datasets(*seed)


def assert_names_explicit_and_distinct(datasets) -> None:
    """Every dataset has its own explicit name (per-dataset verdicts and figures are keyed by it): distinct, and
    neither Dataset.make's placeholder nor the name random_dataset makes up when given none."""
    names = [d.name for d in datasets]
    assert len(set(names)) == len(names), names
    assert "dataset" not in names and not any(re.search(r"-rational-s\d+$", n) for n in names), names


def lower_end(x):
    """The exact lower end of the ball x (taken at 4× the precision, so not rounded): certainly ≤ x, not certainly <."""
    return _unrounded(x.lower)


def upper_end(x):
    """The exact upper end of the ball x (taken at 4× the precision, so not rounded)."""
    return _unrounded(x.upper)


def _unrounded(end):
    from flint import ctx

    keep = ctx.prec
    ctx.prec = 4 * keep
    try:
        return end()
    finally:
        ctx.prec = keep
