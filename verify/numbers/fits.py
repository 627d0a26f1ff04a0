"""Least-squares lines through reported trends (floats: fits are reported, never decided on)."""
from __future__ import annotations

import math

from flint import arb

from verify.numbers.precision import log10_abs


def line_fit(pts):
    """Fit y ≈ a + b·x over float pairs: (a, b, max |residual|), or None with < 2 distinct x."""
    pts = list(pts)
    if len(pts) < 2:
        return None
    n = len(pts)
    mx, my = sum(x for x, _ in pts) / n, sum(y for _, y in pts) / n
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    if sxx == 0:
        return None
    b = sum((x - mx) * (y - my) for x, y in pts) / sxx
    a = my - b * mx
    return a, b, max(abs(y - a - b * x) for x, y in pts)


def tail(pts, fraction: float):
    """The points whose x lies in the last ``fraction`` of the x-range (pts sorted by x)."""
    if not pts:
        return pts
    lo = pts[-1][0] - fraction * (pts[-1][0] - pts[0][0])
    return [p for p in pts if p[0] >= lo]


def fit_rate(points):
    """Least squares log10 y = log10 C − a log10 x over (x, y) arb pairs with y > 0: returns (a, C)."""
    pts = [(log10_abs(x), log10_abs(y)) for x, y in points if y > 0 and x > 0]
    fit = line_fit(pts) if len(pts) >= 3 else None
    if fit is None:
        return None
    a, slope, _ = fit
    return -slope, 10 ** a


def fit_log_rate(steps, norms):
    """Least-squares fit ‖θ(t)‖ ≈ a + b ln t over the checkpoints (floats: a reported trend)."""
    fit = line_fit([(math.log(t), float(r.mid())) for t, r in zip(steps, norms) if t > 0])
    return (None, None) if fit is None else fit[:2]


def fit_loglog(xs, ys):
    """Least-squares slope and intercept of log y against log x (floats; a reported trend)."""
    pts = [(math.log(float(x.mid() if isinstance(x, arb) else x)), math.log(float(y.mid() if isinstance(y, arb) else y)))
           for x, y in zip(xs, ys) if float(y.mid() if isinstance(y, arb) else y) > 0]
    fit = line_fit(pts)
    return (None, None) if fit is None else (fit[1], fit[0])
