"""Small charts drawn on the server as SVG, each with a table of the same figures.

This module works out where each line, dot, bar and label goes; templates/chart.html draws
them (every label escaped). The SVG is styled by classes (static/stats.css), with no style
attributes, so the pages work under a ``default-src 'self'`` policy; screen readers get the
table (the SVG is hidden from them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from markupsafe import Markup

from okgin.server.pages.template import fragment

WIDTH, HEIGHT, PAD = 560, 220, 36


@dataclass(frozen=True)
class Text:
    """A label in the chart: its classes, where it stands, what it says."""
    kind: str
    x: str
    y: str
    text: str


@dataclass(frozen=True)
class Shape:
    """A dot (x, y, radius) or a bar (x, y, width, height): numbers written as the SVG has them."""
    x: str
    y: str
    width: str = ""
    height: str = ""


@dataclass
class Chart:
    """What chart.html draws: ``rows`` (label, figure) are the table's."""
    ident: str
    title: str
    unit: str
    label: str
    rows: list[tuple[str, str]]
    axis: str = ""  # the height of a line chart's zero line
    """The height of the line chart's zero line (a bar chart has none)."""
    line: str = ""
    radius: int = 3
    dots: list[Shape] = field(default_factory=list)
    bars: list[Shape] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)


def _scale(values: Sequence[float]) -> tuple[float, float]:
    low, high = min(0.0, *values), max(0.0, *values)
    return low, (high if high > low else low + 1)


def _height(low: float, high: float) -> Callable[[float], float]:
    def y(value: float) -> float:
        return HEIGHT - PAD - (value - low) / (high - low) * (HEIGHT - 2 * PAD)
    return y


def line_chart(ident: str, title: str, points: Sequence[tuple[str, float]], unit: str,
               label: str = "Game") -> Markup:
    """A line over ``points`` (label, value), then the table; ``ident`` names the figure and
    ``label`` heads the table's first column. A single point is drawn in the middle, larger and
    with its value, so that a chart of one game does not look empty."""
    values = [v for _, v in points]
    low, high = _scale(values)
    y = _height(low, high)
    step = (WIDTH - 2 * PAD) / max(1, len(points) - 1)
    lone = len(points) == 1
    coords = [(WIDTH / 2 if lone else PAD + i * step, y(v)) for i, v in enumerate(values)]
    chart = _chart(ident, title, points, unit, label)
    chart.axis = f"{y(0):.1f}"
    chart.line = " ".join(f"{x:.1f},{yy:.1f}" for x, yy in coords)
    chart.radius = 6 if lone else 3
    chart.dots = [Shape(f"{x:.1f}", f"{yy:.1f}") for x, yy in coords]
    if lone:
        chart.texts.append(Text("tick value-label", f"{coords[0][0] + 10:.1f}", f"{coords[0][1] - 8:.1f}",
                                _number(values[0])))
    every = max(1, -(-len(points) // 8))  # at most about eight labels along the bottom
    chart.texts += [Text("tick label", f"{x:.1f}", f"{HEIGHT - PAD + 16}", name)
                    for i, ((name, _), (x, _)) in enumerate(zip(points, coords, strict=True))
                    if i % every == 0 or i == len(points) - 1]
    chart.texts += _labels(low, high, y)
    return fragment("chart.html", chart=chart, width=WIDTH, height=HEIGHT, pad=PAD)


def bar_chart(ident: str, title: str, bars: Sequence[tuple[str, float]], unit: str,
              label: str = "What") -> Markup:
    """One bar per (label, value), then the table (``label`` heads its first column)."""
    low, high = _scale([v for _, v in bars])
    y = _height(low, high)
    width = (WIDTH - 2 * PAD) / max(1, len(bars))
    chart = _chart(ident, title, bars, unit, label)
    for i, (name, value) in enumerate(bars):
        x = PAD + i * width + width * 0.15
        top, bottom = sorted((y(value), y(0)))
        height = max(bottom - top, 1)
        chart.bars.append(Shape(f"{x:.1f}", f"{top:.1f}", f"{width * 0.7:.1f}", f"{height:.1f}"))
        chart.texts.append(Text("tick", f"{x + width * 0.35:.1f}", f"{HEIGHT - PAD + 16}", name))
    chart.texts += _labels(low, high, y)
    return fragment("chart.html", chart=chart, width=WIDTH, height=HEIGHT, pad=PAD)


def _chart(ident: str, title: str, rows: Sequence[tuple[str, float]], unit: str, label: str) -> Chart:
    return Chart(ident, title, unit, label, [(name, _number(value)) for name, value in rows])


def _labels(low: float, high: float, y: Callable[[float], float]) -> list[Text]:
    return [Text("tick value", f"{PAD - 6}", f"{y(v) + 4:.1f}", _number(v)) for v in (low, high)]


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
