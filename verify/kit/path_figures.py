"""Figures of the mmts regularization-path claims (Theorem 1, Theorems 4/7): a path drawn against the SVM
directions in the keys' plane, and 1 − corr against R. Floats of midpoints for plotting only; log10 values are
computed at the working precision (never clamped)."""
from __future__ import annotations

from verify.claims import Figure, Series
from verify.kit.cone_checks import plot_value
from verify.models.attention import dot, norm2
from verify.numbers.precision import log10_abs, to_arb


def plane_basis(ref):
    """(ê₁, ê₂): ê₁ = ref/‖ref‖ and ê₂ ⊥ ê₁ in the plane of the first two coordinates (the keys' plane of the
    mmts figures); None when ê₁ has no component there."""
    r = [to_arb(x) for x in ref]
    n = norm2(r)
    e1 = [x / n for x in r]
    e2 = [-e1[1], e1[0]] + [to_arb(0)] * (len(r) - 2)
    m = norm2(e2)
    if not m > 0:
        return None
    return e1, [x / m for x in e2]


def path_plane_figure(name: str, title: str, paths, refs, basis, caption: str = "") -> Figure:
    """Unit directions of each path (``paths``: [(label, [vectors])]) in ``basis`` (x-axis: the first SVM
    direction), and the SVM directions ``refs`` ([(label, vector)]) as unit segments from 0."""
    e1, e2 = basis
    series = []
    for label, vecs in paths:
        xs, ys = [], []
        for v in vecs:
            n = norm2(v)
            xs.append(plot_value(dot(v, e1) / n))
            ys.append(plot_value(dot(v, e2) / n))
        series.append(Series(label, xs, ys, "-o"))
    for label, v in refs:
        vv = [to_arb(x) for x in v]
        n = norm2(vv)
        series.append(Series(label, [0.0, plot_value(dot(vv, e1) / n)], [0.0, plot_value(dot(vv, e2) / n)], "--"))
    return Figure(name, title, "component along the first SVM direction", "orthogonal component (keys' plane)",
                  series, caption=caption)


def omc_figure(name: str, title: str, curves, caption: str = "") -> Figure:
    """log10 of a positive quantity (1 − corr) against log10 R ([(label, Rs, values)]), at the working precision."""
    series = [Series(label, [log10_abs(to_arb(x)) for x, y in zip(xs, ys) if y > 0],
                     [log10_abs(y) for y in ys if y > 0], "-o") for label, xs, ys in curves]
    return Figure(name, title, "log10 R", "log10 (1 − corr)", series,
                  caption=caption or "log10 at the working precision; values whose ball reaches 0 are left out.")
