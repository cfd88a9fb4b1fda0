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


NCCL_BARS = 40  # a sweep of 8 B to 8 GB by doubling is 31 sizes; a finer one is thinned out


def message_size(size: int) -> str:
    """Return a message size as nccl-tests' options write it (binary units): 8 B, 64 KB, 8 GB."""
    for unit, scale in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} B"


def nccl_curve(curve: tuple[tuple[int, float], ...], plateau_sizes: int) -> dict[str, object]:
    """Return all_reduce_perf's bus bandwidth by message size as bars; the largest sizes, whose
    median is the figure shown, are marked "good"."""
    step = -(-len(curve) // NCCL_BARS) or 1
    shown = list(curve[::step])
    if curve and shown[-1] != curve[-1]:
        shown.append(curve[-1])
    plateau = {size for size, _ in curve[-plateau_sizes:]}
    return bars([
        (message_size(size), busbw, f"{busbw:g} GB/s", "good" if size in plateau else "neutral")
        for size, busbw in shown
    ])  # fmt: skip
