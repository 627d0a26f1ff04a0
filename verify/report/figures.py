"""Figures a claim asks for (``Figure``, ``Series``) and their rendering with matplotlib.

Values are plotted as given: a claim that plots quantities beyond float64's range passes their
log10 computed at the working precision (``verify.numbers.precision.log10_abs``), never clamped ones.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field

from verify.data.dataset import write_atomic_bytes


@dataclass
class Series:
    label: str
    x: list
    y: list
    style: str = "-o"


@dataclass
class Figure:
    """A plot a claim wants in its report; ``report`` draws it with matplotlib."""

    name: str
    title: str
    xlabel: str
    ylabel: str
    series: list
    logx: bool = False
    logy: bool = False
    hlines: list = field(default_factory=list)  # (y, label)
    caption: str = ""


#: letters the figures' font (DejaVu Sans) has no glyph for, drawn as the plain letter (the page's text keeps them)
PLAIN = str.maketrans({"𝒪": "O", "𝒯": "T", "𝒲": "W"})


def plain(text: str) -> str:
    return text.translate(PLAIN) if text else text


def render_figure(fig, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    f, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    labelled = bool(fig.hlines)
    for s in fig.series:
        pts = [(x, y) for x, y in zip(s.x, s.y) if x is not None and y is not None]
        if not pts:  # nothing plottable (e.g. every value underflowed float): skip the series
            continue
        xs, ys = zip(*pts)
        ax.plot(xs, ys, s.style, label=plain(s.label), markersize=3)
        labelled = labelled or bool(s.label)
    for y, label in fig.hlines:
        ax.axhline(y, color="gray", linestyle="--", linewidth=1, label=plain(label))
    if fig.logx:
        ax.set_xscale("log")
    if fig.logy:
        ax.set_yscale("log")
    ax.set_title(plain(fig.title))
    ax.set_xlabel(plain(fig.xlabel))
    ax.set_ylabel(plain(fig.ylabel))
    ax.grid(True, which="both", alpha=0.3)
    if labelled:  # only what was drawn goes in the legend
        ax.legend(fontsize=8)
    f.tight_layout()
    buf = io.BytesIO()
    f.savefig(buf, format="png")
    plt.close(f)
    write_atomic_bytes(path, buf.getvalue())
