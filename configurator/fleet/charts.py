"""Bar charts drawn as inline SVG on the server: geometry here, markup in the template."""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 220  # the drawing width of the longest bar, in SVG units (the chart is 400 wide)
ROW = 22


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    text: str
    y: int
    width: float
    tone: str  # "bad", "good" or "neutral": the template picks the colour


def bars(items: list[tuple[str, float, str, str]]) -> dict[str, object]:
    """Return horizontal bars for (label, value, text, tone) items, scaled to the largest."""
    top = max((value for _, value, _, _ in items), default=0) or 1
    drawn = [
        Bar(label, value, text, i * ROW, round(WIDTH * value / top, 1), tone)
        for i, (label, value, text, tone) in enumerate(items)
    ]
    return {"bars": drawn, "height": max(len(drawn), 1) * ROW, "width": WIDTH}
