"""Figure helpers shared by the report's plots (:mod:`jobs.report.plots`, :mod:`jobs.report.heatmap`):
a figure, an empty figure that says why, UTC times and a date axis for matplotlib, capped lists and
short labels."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

SEQUENTIAL_CMAP = "YlOrBr"  # ColorBrewer sequential, colour-blind safe; light = few
MAX_LABEL = 28


def short(text: object, n: int = MAX_LABEL) -> str:
    """Log text as a label: cut to ``n`` characters with an ellipsis (member ids are long), ``$``
    escaped so matplotlib never reads it as mathtext."""
    s = "" if text is None or (isinstance(text, float) and math.isnan(text)) else str(text)
    s = s if len(s) <= n else s[: n - 1] + "…"
    return s.replace("$", r"\$")  # log text is not mathtext


def figure(w: float, h: float) -> Figure:
    fig = Figure(figsize=(w, h), dpi=100, layout="constrained")
    return fig


def empty(fig: Figure, title: str, message: str) -> Figure:
    """A figure that only says why there is nothing to draw; ``fig.empty_reason`` holds the why, so a
    page can show that one line instead of an empty picture (:func:`jobs.report.html.figure_html`)."""
    setattr(fig, "empty_reason", message)  # noqa: B010 - an attribute of ours on matplotlib's Figure
    ax = fig.add_subplot()
    ax.set_title(title)
    ax.text(0.5, 0.5, message, ha="center", va="center", transform=ax.transAxes, color="#555555")
    ax.set_axis_off()
    return fig


def ts(s: pd.Series) -> pd.Series:
    if pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s):
        return pd.to_datetime(s, unit="ms", utc=True)
    return pd.to_datetime(s, utc=True)


def naive(s: pd.Series) -> pd.Series:
    """UTC timestamps without tz (matplotlib's date axis), for plotting."""
    return ts(s).dt.tz_convert("UTC").dt.tz_localize(None)


def date_axis(ax, span: pd.Timedelta | None = None) -> None:
    """A concise UTC date axis (3 to 8 ticks) on ``ax``'s x axis."""
    locator = mdates.AutoDateLocator(minticks=3, maxticks=8)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
    ax.set_xlabel("time (UTC)")


def int_label(v) -> str:
    """An integer (a generation, an epoch) as a label; ``?`` when unknown."""
    return "?" if v is None or pd.isna(v) else str(int(v))


def duration_label(ms) -> str:
    """Milliseconds as a short label (``850ms``, ``12.0s``, ``3.5m``); ``open`` when unknown."""
    if ms is None or pd.isna(ms):
        return "open"
    ms = float(ms)
    if ms < 1000:
        return f"{ms:.0f}ms"
    if ms < 60000:
        return f"{ms / 1000:.1f}s"
    return f"{ms / 60000:.1f}m"


def cap(items: list, limit: int) -> tuple[list, int]:
    return (items[:limit], len(items) - limit) if len(items) > limit else (items, 0)
