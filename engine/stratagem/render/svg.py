"""Charts as inline SVG: no script, no font or file from elsewhere; they scale to the page."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

#: Colours of the series, in order (they print distinguishably in grey too).
PALETTE = ("#1f5fa8", "#c0392b", "#2e8b57", "#b8860b", "#6a3d9a", "#555555")

W, H = 560, 260
LEFT, RIGHT, TOP, BOTTOM = 70, 16, 16, 44


def _ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / count
    magnitude = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1.0
    while magnitude > raw:
        magnitude /= 10
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = (lo // step) * step
    out = []
    value = first
    while value <= hi + step / 1000:
        if value >= lo - step / 1000:
            out.append(round(value, 6))
        value += step
    return out


def _frame(title: str, body: list[str]) -> str:
    return (f'<svg class="chart" viewBox="0 0 {W} {H}" role="img" '
            f'xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet">'
            f"<title>{escape(title)}</title>" + "".join(body) + "</svg>")


def _axes(lo: float, hi: float, number: Callable[[float], str]) -> tuple[list[str], Callable[[float], float]]:
    span = hi - lo or 1.0

    def y(value: float) -> float:
        return TOP + (H - TOP - BOTTOM) * (1 - (value - lo) / span)

    body = [f'<line class="axis" x1="{LEFT}" y1="{H - BOTTOM}" x2="{W - RIGHT}" '
            f'y2="{H - BOTTOM}"/>']
    for tick in _ticks(lo, hi):
        body.append(f'<line class="grid" x1="{LEFT}" y1="{y(tick):.1f}" x2="{W - RIGHT}" '
                    f'y2="{y(tick):.1f}"/><text class="tick" x="{LEFT - 6}" '
                    f'y="{y(tick) + 4:.1f}" text-anchor="end">{escape(number(tick))}</text>')
    return body, y


def line_chart(title: str, xs: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]],
               number: Callable[[float], str]) -> str:
    """One line per series over the points ``xs`` (labels of the x axis); a legend below."""
    values = [v for _, points in series for v in points if v is not None]
    lo, hi = min(values + [0.0]), max(values + [0.0])
    body, y = _axes(lo, hi, number)
    step = (W - LEFT - RIGHT) / max(1, len(xs) - 1)

    def x(i: int) -> float:
        return LEFT + step * i

    for i, label in enumerate(xs):
        body.append(f'<text class="tick" x="{x(i):.1f}" y="{H - BOTTOM + 20}" '
                    f'text-anchor="middle">{escape(label)}</text>')
    for n, (name, points) in enumerate(series):
        colour = PALETTE[n % len(PALETTE)]
        dots = [(x(i), y(v)) for i, v in enumerate(points) if v is not None]
        path = " ".join(f"{a:.1f},{b:.1f}" for a, b in dots)
        body.append(f'<polyline class="series" fill="none" stroke="{colour}" '
                    f'stroke-width="2.5" points="{path}"><title>{escape(name)}</title></polyline>')
        body.extend(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="3.5" fill="{colour}"/>'
                    for a, b in dots)
    return _frame(title, body)


def bar_chart(title: str, bars: Sequence[tuple[str, float]], number: Callable[[float], str],
              errors: Sequence[tuple[float, float]] | None = None, colour: str = PALETTE[0]) -> str:
    """Vertical bars with their labels below; ``errors`` draws an interval on each bar."""
    tops = [v for _, v in bars] + ([hi for _, hi in errors] if errors else [])
    body, y = _axes(0.0, max(tops + [0.0]) or 1.0, number)
    width = (W - LEFT - RIGHT) / max(1, len(bars))
    longest = max((len(label) for label, _ in bars), default=1)
    every = max(1, math.ceil(longest * 9 / width))  # labels of ~9 units a letter never overlap
    for i, (label, value) in enumerate(bars):
        left = LEFT + i * width
        body.append(f'<rect class="bar" x="{left + width * 0.1:.1f}" y="{y(value):.1f}" '
                    f'width="{width * 0.8:.1f}" height="{y(0) - y(value):.1f}" fill="{colour}">'
                    f"<title>{escape(label)}: {escape(number(value))}</title></rect>")
        if errors:
            lo, hi = errors[i]
            mid = left + width / 2
            body.append(f'<path class="error" d="M{mid:.1f},{y(lo):.1f}V{y(hi):.1f}'
                        f'M{mid - 6:.1f},{y(lo):.1f}h12M{mid - 6:.1f},{y(hi):.1f}h12"/>')
        if i % every == 0:
            body.append(f'<text class="tick" x="{left + width / 2:.1f}" y="{H - BOTTOM + 20}" '
                        f'text-anchor="middle">{escape(label)}</text>')
    return _frame(title, body)
