"""Small charts drawn on the server as SVG, each with a table of the same figures.

The SVG is styled by classes (static/stats.css), with no style attributes, so the pages work
under a ``default-src 'self'`` policy; screen readers get the table (the SVG is hidden from them).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

WIDTH, HEIGHT, PAD = 560, 220, 36


def _scale(values: Sequence[float]) -> tuple[float, float]:
    low, high = min(0.0, *values), max(0.0, *values)
    return low, (high if high > low else low + 1)


def line_chart(ident: str, title: str, points: Sequence[tuple[str, float]], unit: str,
               label: str = "Game") -> str:
    """A line over ``points`` (label, value), then the table; ``ident`` names the figure and
    ``label`` heads the table's first column. A single point is drawn in the middle, larger and
    with its value, so that a chart of one game does not look empty."""
    values = [v for _, v in points]
    low, high = _scale(values)
    step = (WIDTH - 2 * PAD) / max(1, len(points) - 1)

    def y(value: float) -> float:
        return HEIGHT - PAD - (value - low) / (high - low) * (HEIGHT - 2 * PAD)

    lone = len(points) == 1
    coords = [(WIDTH / 2 if lone else PAD + i * step, y(v)) for i, v in enumerate(values)]
    path = " ".join(f"{x:.1f},{yy:.1f}" for x, yy in coords)
    radius = 6 if lone else 3
    dots = "".join(f'<circle class="dot" cx="{x:.1f}" cy="{yy:.1f}" r="{radius}"/>' for x, yy in coords)
    if lone:
        dots += (f'<text class="tick value-label" x="{coords[0][0] + 10:.1f}" y="{coords[0][1] - 8:.1f}">'
                 f"{_number(values[0])}</text>")
    every = max(1, -(-len(points) // 8))  # at most about eight labels along the bottom
    names = "".join(f'<text class="tick label" x="{x:.1f}" y="{HEIGHT - PAD + 16}">{html.escape(name)}</text>'
                    for i, ((name, _), (x, _)) in enumerate(zip(points, coords, strict=True))
                    if i % every == 0 or i == len(points) - 1)
    body = (f'<line class="axis" x1="{PAD}" y1="{y(0):.1f}" x2="{WIDTH - PAD}" y2="{y(0):.1f}"/>'
            f'<polyline class="line" points="{path}"/>{dots}{names}'
            + _labels(low, high, y))
    return _figure(ident, title, body, points, unit, label)


def bar_chart(ident: str, title: str, bars: Sequence[tuple[str, float]], unit: str,
              label: str = "What") -> str:
    """One bar per (label, value), then the table (``label`` heads its first column)."""
    values = [v for _, v in bars]
    low, high = _scale(values)
    width = (WIDTH - 2 * PAD) / max(1, len(bars))

    def y(value: float) -> float:
        return HEIGHT - PAD - (value - low) / (high - low) * (HEIGHT - 2 * PAD)

    parts = []
    for i, (name, value) in enumerate(bars):
        x = PAD + i * width + width * 0.15
        top, bottom = sorted((y(value), y(0)))
        parts.append(f'<rect class="bar" x="{x:.1f}" y="{top:.1f}" width="{width * 0.7:.1f}" '
                     f'height="{max(bottom - top, 1):.1f}"/>'
                     f'<text class="tick" x="{x + width * 0.35:.1f}" y="{HEIGHT - PAD + 16}">'
                     f"{html.escape(name)}</text>")
    return _figure(ident, title, "".join(parts) + _labels(low, high, y), bars, unit, label)


def _labels(low: float, high: float, y: Callable[[float], float]) -> str:
    return "".join(
        f'<text class="tick value" x="{PAD - 6}" y="{y(v) + 4:.1f}">{_number(v)}</text>' for v in (low, high)
    )


def _figure(ident: str, title: str, body: str, rows: Sequence[tuple[str, float]], unit: str,
            label: str) -> str:
    svg = (f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" aria-hidden="true" '
           f'focusable="false">{body}</svg>')
    table = "".join(f"<tr><th scope=row>{html.escape(label)}</th><td>{_number(value)}</td></tr>"
                    for label, value in rows)
    return (f'<figure class="chart-box" id="{ident}" aria-labelledby="{ident}-title">'
            f'<figcaption id="{ident}-title">{html.escape(title)}</figcaption>{svg}'
            f'<table class="chart-table"><caption>{html.escape(title)}</caption><thead><tr><th scope=col>'
            f"{html.escape(label)}</th><th scope=col>{html.escape(unit)}</th></tr></thead>"
            f"<tbody>{table}</tbody></table></figure>")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
