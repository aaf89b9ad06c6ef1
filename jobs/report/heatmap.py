"""The heat map of rebalances per group over time (:func:`rebalances_heatmap`, re-exported by
:mod:`jobs.report.plots`): the cells' time bin follows the span of the data (minute, hour, day, week),
and the ticks carry the year whenever the span crosses one."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from jobs.report.figures import SEQUENTIAL_CMAP, short
from jobs.report.figures import cap as _cap
from jobs.report.figures import empty as _empty
from jobs.report.figures import figure as _figure
from jobs.report.figures import naive as _naive

#: time bins of the heat map, finest first: (name, pandas frequency, longest span it is used for)
TIME_BINS: tuple[tuple[str, str, pd.Timedelta], ...] = (
    ("minute", "min", pd.Timedelta(hours=1)),
    ("hour", "h", pd.Timedelta(days=7)),
    ("day", "D", pd.Timedelta(days=180)),
    ("week", "W-SUN", pd.Timedelta.max),
)


def time_bin(span: pd.Timedelta, finest: str = "minute") -> tuple[str, str]:
    """The bin (name, pandas frequency) of a time axis spanning ``span``: minute up to an hour, hour
    up to a week, day up to half a year, week beyond (never finer than ``finest``): at most ~180
    columns, never a blank strip of thousands of hourly cells."""
    names = [n for n, _, _ in TIME_BINS]
    for name, freq, longest in TIME_BINS[names.index(finest):]:
        if span <= longest:
            return name, freq
    return TIME_BINS[-1][0], TIME_BINS[-1][1]


def rebalances_heatmap(
    frequency: pd.DataFrame | None = None,
    top_n: int = 25,
    title: str | None = None,
    rebalances: pd.DataFrame | None = None,
) -> Figure:
    """Groups (rows, busiest first, capped at ``top_n``) × time bins (columns), colour = rebalances.

    The bin follows the span of the rebalances (:func:`time_bin`: minute, hour, day or week; ticks
    carry the year when the span crosses one). Counted from ``rebalances.start_ts``; without
    ``rebalances``, from the hourly rows of ``rebalance_frequency``.
    """
    counts, bin_name = _binned_counts(frequency, rebalances)
    title = title or f"Rebalances per group per {bin_name}"
    fig = _figure(11, 3)
    if not len(counts):
        return _empty(fig, title, "no rebalance has a start time")
    values, lanes, more, bins = _heatmap_grid(counts, top_n, bin_name)
    fig.set_size_inches(11, max(2.6, 0.3 * len(lanes) + 1.9))
    ax = fig.add_subplot()
    im = _draw_heatmap(ax, values)
    _label_heatmap(ax, lanes, more, bins, title, bin_name)
    cb = fig.colorbar(im, ax=ax, pad=0.01)
    cb.set_label(f"rebalances per {bin_name} (blank = none)")
    return fig


def _binned_counts(frequency: pd.DataFrame | None, rebalances: pd.DataFrame | None) -> tuple[pd.DataFrame, str]:
    """(group_id, window_start, rebalances) per time bin, and the bin's name."""
    finest = "minute"
    if rebalances is not None and len(rebalances):
        starts = rebalances.assign(t=_naive(rebalances["start_ts"])).dropna(subset=["t"])
        weights = pd.Series(1, index=starts.index)
    elif frequency is not None and len(frequency):
        starts = frequency[frequency["granularity"] == "hour"]
        starts = starts.assign(t=_naive(starts["window_start"]))
        weights, finest = starts["rebalances"], "hour"
    else:
        return pd.DataFrame(columns=["group_id", "window_start", "rebalances"]), "hour"
    if not len(starts):
        return pd.DataFrame(columns=["group_id", "window_start", "rebalances"]), "hour"
    name, freq = time_bin(starts["t"].max() - starts["t"].min(), finest)
    binned = starts.assign(window_start=starts["t"].dt.to_period(freq).dt.start_time, rebalances=weights)
    return binned.groupby(["group_id", "window_start"])["rebalances"].sum().reset_index(), name


def _heatmap_grid(counts: pd.DataFrame, top_n: int, bin_name: str = "hour") -> tuple[np.ndarray, list, int, pd.DatetimeIndex]:
    """Counts per (lane, time bin), the lanes (busiest first, capped), the groups left out and the bins."""
    counts = counts.assign(window_start=pd.to_datetime(counts["window_start"]))
    order = counts.groupby("group_id")["rebalances"].sum().sort_values(ascending=False)
    lanes, more = _cap(list(order.index), top_n)
    freq = dict((n, f) for n, f, _ in TIME_BINS)[bin_name]
    bins = pd.period_range(counts["window_start"].min(), counts["window_start"].max(), freq=freq).start_time
    grid = (
        counts[counts["group_id"].isin(lanes)]
        .pivot_table(index="group_id", columns="window_start", values="rebalances", aggfunc="sum", fill_value=0)
        .reindex(index=lanes, columns=bins, fill_value=0)
    )
    return grid.to_numpy(dtype=float), lanes, more, bins


def _draw_heatmap(ax, values: np.ndarray):
    """The grid (zero cells blank), with the counts written in the cells of small grids."""
    cmap = matplotlib.colormaps[SEQUENTIAL_CMAP].with_extremes(bad="#FFFFFF")
    im = ax.imshow(
        np.ma.masked_equal(values, 0),
        aspect="auto",
        cmap=cmap,
        interpolation="nearest",
        vmin=0,
        vmax=max(1, values.max()),
    )
    if values.size <= 400:  # small grids: write the counts in the cells
        for (yi, xi), v in np.ndenumerate(values):
            if v:
                ax.text(
                    xi,
                    yi,
                    f"{v:.0f}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="black" if v < values.max() * 0.6 else "white",
                )
    return im


def tick_format(bins: pd.DatetimeIndex, bin_name: str) -> str:
    """strftime of a time axis' ticks: the year whenever the axis crosses one (or is coarser than a
    day), the date whenever it crosses a day, the time of day for minute and hour bins."""
    crosses_year = bins[0].year != bins[-1].year
    crosses_day = bins[0].date() != bins[-1].date()
    if bin_name in ("day", "week"):
        return "%Y-%m-%d"
    day = "%Y-%m-%d " if crosses_year else ("%m-%d " if crosses_day else "")
    return day + "%H:%M"


def _label_heatmap(ax, lanes: list, more: int, bins: pd.DatetimeIndex, title: str, bin_name: str = "hour") -> None:
    """Group names, thinned time ticks, axis labels and title."""
    ax.set_yticks(np.arange(len(lanes)), [short(g, 36) for g in lanes])
    step = max(1, math.ceil(len(bins) / 12))
    ticks = np.arange(0, len(bins), step)
    fmt = tick_format(bins, bin_name)
    ax.set_xticks(ticks, [bins[i].strftime(fmt) for i in ticks], rotation=45, ha="right")
    ax.set_xlabel(f"{bin_name} (UTC)" + (", week starting" if bin_name == "week" else ""))
    ax.set_ylabel("group" + (f" (top {len(lanes)}, +{more} more)" if more else ""))
    ax.set_title(title, fontweight="bold")
