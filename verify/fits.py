"""Least-squares lines through reported trends (floats: fits are reported, never decided on)."""
from __future__ import annotations


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
