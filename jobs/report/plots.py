"""Plots of the rebalance tables: functions of pandas DataFrames (columns of :mod:`jobs.schemas`) that
return a matplotlib ``Figure`` (Agg backend; ``display(fig)`` on Databricks, ``fig.savefig`` elsewhere).

Readability rules every function follows: a title, labelled axes, a legend when colour means something,
thinned/rotated tick labels, lanes capped with a "+N more" line, the colour-blind-safe palette of Paul
Tol ("muted") and one colour per cause / state everywhere.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.artist import Artist  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from coordinator_core.records import CAUSES  # noqa: E402
from jobs.report import summary  # noqa: E402
from jobs.report.figures import MAX_LABEL, SEQUENTIAL_CMAP, date_axis, short  # noqa: E402, F401 - re-exported
from jobs.report.figures import cap as _cap  # noqa: E402
from jobs.report.figures import empty as _empty  # noqa: E402
from jobs.report.figures import figure as _figure  # noqa: E402
from jobs.report.figures import naive as _naive  # noqa: E402

#: the heat map of rebalances over time (its own module: time bins chosen from the span)
from jobs.report.heatmap import TIME_BINS, rebalances_heatmap, tick_format, time_bin  # noqa: E402, F401

#: one colour per cause, everywhere (Paul Tol's colour-blind-safe "muted" scheme + orange + grey)
CAUSE_COLOURS: dict[str, str] = {
    "new_member": "#88CCEE",
    "member_leave": "#44AA99",
    "poll_timeout_leave": "#DDCC77",
    "session_timeout": "#CC6677",
    "leader_rejoin": "#332288",
    "metadata_change": "#117733",
    "static_member": "#AA4499",
    "sync_timeout": "#882255",
    "coordinator_move": "#999933",
    "store_error": "#EE7733",
    "unknown": "#BBBBBB",
}
#: states in Paul Tol's "light" scheme, distinct from the cause colours
STATE_COLOURS: dict[str, str] = {
    "Empty": "#DDDDDD",
    "PreparingRebalance": "#EE8866",
    "CompletingRebalance": "#EEDD88",
    "Stable": "#BBCCEE",
    "Dead": "#222255",
    # consumer-protocol (KIP-848) groups: Kafka's ConsumerGroupState
    "EMPTY": "#DDDDDD",
    "ASSIGNING": "#EE8866",
    "RECONCILING": "#EEDD88",
    "STABLE": "#BBCCEE",
    "DEAD": "#222255",
}
#: member session lanes coloured by how the session ended
END_COLOURS: dict[str, str] = {
    "open": "#C8C8C8",
    "leave": "#44AA99",
    "poll_timeout_leave": "#DDCC77",
    "session_timeout": "#CC6677",
    "not_rejoined": "#882255",
    "sync_timeout": "#882255",
    "fenced": "#AA4499",
    "replaced": "#AA4499",
    "pending_expired": "#999933",
    "group_dead": "#555555",
}
SERIES_COLOURS = (
    "#332288",
    "#88CCEE",
    "#44AA99",
    "#117733",
    "#999933",
    "#DDCC77",
    "#CC6677",
    "#882255",
    "#AA4499",
)
ANOMALY_COLOUR = "#882255"



def paused_unit(max_ms: float) -> tuple[float, str]:
    """Scale and unit for paused-time axes: seconds below two minutes, minutes below two hours, hours."""
    max_ms = 0 if max_ms is None or pd.isna(max_ms) else float(max_ms)
    if max_ms < 120_000:
        return 1 / 1000, "seconds"
    if max_ms < 7_200_000:
        return 1 / 60_000, "minutes"
    return 1 / 3_600_000, "hours"


def cause_colour(cause: str | None) -> str:
    return CAUSE_COLOURS.get(cause or "unknown", CAUSE_COLOURS["unknown"])


def cause_order(causes: Iterable[str]) -> list[str]:
    """The distinct causes in the order of :data:`coordinator_core.records.CAUSES` (others last)."""
    order = {c: i for i, c in enumerate(CAUSES)}
    return sorted(set(causes), key=lambda c: (order.get(c, len(order)), c))


# --------------------------------------------------------------------------------- cluster overview
def cause_breakdown(rebalances: pd.DataFrame, title: str = "Why groups rebalanced") -> Figure:
    """Two bar charts side by side: rebalances per cause and paused time per cause (one bar per cause
    present, same colours everywhere)."""
    fig = _figure(10, max(2.6, 0.45 * max(1, rebalances["cause"].nunique()) + 1.4))
    counts = summary.cause_counts(rebalances)
    if not len(counts):
        return _empty(fig, title, "no rebalances")
    counts = counts.iloc[::-1]  # largest on top
    ax1, ax2 = fig.subplots(1, 2, sharey=True)
    colours = [cause_colour(c) for c in counts["cause"]]
    y = np.arange(len(counts))
    ax1.barh(y, counts["rebalances"], color=colours, edgecolor="#333333", linewidth=0.5)
    ax1.set_yticks(y, [short(c) for c in counts["cause"]])
    ax1.set_xlabel("rebalances")
    ax1.set_title("rebalances per cause")
    for yi, (n, share) in enumerate(zip(counts["rebalances"], counts["share"])):
        ax1.text(n, yi, f" {n} ({share:.0%})", va="center", fontsize=8)
    ax1.margins(x=0.25)
    scale, unit = paused_unit(counts["paused_ms"].max())
    ax2.barh(y, counts["paused_ms"] * scale, color=colours, edgecolor="#333333", linewidth=0.5)
    ax2.set_xlabel(f"paused time ({unit})")
    ax2.set_title("consumption paused per cause")
    ax2.margins(x=0.15)
    fig.suptitle(title, fontweight="bold")
    return fig


def group_ranking(rebalances: pd.DataFrame, top_n: int = 15, title: str = "Groups most affected") -> Figure:
    """Groups ranked by rebalances (bars stacked by cause) and their paused time, top ``top_n``;
    the rest summed up in a "+N more groups" note."""
    rank = summary.group_ranking(rebalances)
    lanes, more = _cap(list(rank["group_id"]), top_n)
    fig = _figure(11, max(2.6, 0.38 * len(lanes) + 1.8))
    if not lanes:
        return _empty(fig, title, "no rebalances")
    ax1, ax2 = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [3, 2]})
    df = rebalances[rebalances["group_id"].isin(lanes)].assign(cause=rebalances["cause"].fillna("unknown"))
    pivot = df.pivot_table(
        index="group_id", columns="cause", values="rebalance_id", aggfunc="count", fill_value=0
    )
    pivot = pivot.reindex(index=lanes[::-1], fill_value=0)
    causes = cause_order(pivot.columns)
    y = np.arange(len(lanes))
    left = np.zeros(len(lanes))
    for cause in causes:
        vals = pivot[cause].to_numpy()
        ax1.barh(
            y,
            vals,
            left=left,
            color=cause_colour(cause),
            label=short(cause),
            edgecolor="white",
            linewidth=0.4,
        )
        left += vals
    ax1.set_yticks(y, [short(g, 36) for g in pivot.index])
    ax1.set_xlabel("rebalances")
    ax1.set_title("rebalances (by cause)")
    fig.legend(
        title="cause", fontsize=8, title_fontsize=8, loc="outside lower center", ncols=min(len(causes), 6)
    )
    scale, unit = paused_unit(rank["paused_ms"].max())
    paused = rank.set_index("group_id").loc[pivot.index, "paused_ms"] * scale
    ax2.barh(y, paused.to_numpy(), color="#332288")
    ax2.set_xlabel(f"paused time ({unit})")
    ax2.set_title("consumption paused")
    if more:
        ax1.text(0, -0.9, f"+{summary.plural(more, 'more group')}", fontsize=8, color="#555555", va="center")
        ax1.set_ylim(-1.4, len(lanes) - 0.4)
    fig.suptitle(title, fontweight="bold")
    return fig


def storm_timeline(
    storms: pd.DataFrame, max_lanes: int = 20, title: str = "Rebalance storms by coordinator"
) -> Figure:
    """One lane per (coordinator broker, group); each storm a bar from start to end coloured by its
    dominant cause, hatched when coordinator-wide, labelled with its rebalance count; lanes of one
    coordinator are grouped and separated."""
    fig = _figure(11, 3)
    if storms is None or not len(storms):
        return _empty(fig, title, "no storms")
    df, lane_keys, more = _storm_lanes(storms, max_lanes)
    fig.set_size_inches(11, max(2.6, 0.36 * len(lane_keys) + 2.0))
    ax = fig.add_subplot()
    causes_seen = _draw_storms(ax, df, {k: i for i, k in enumerate(lane_keys)})
    _label_storm_lanes(ax, lane_keys, more)
    _storm_legend(ax, causes_seen, df["coordinator_wide"].fillna(False).astype(bool).any())
    ax.set_title(title + "  (bar label = rebalances in the storm)", fontweight="bold")
    return fig


def _storm_lanes(storms: pd.DataFrame, max_lanes: int) -> tuple[pd.DataFrame, list[tuple[int, str]], int]:
    """Storms with naive start/end and an int broker (-1 unknown), the (broker, group) lanes (by broker,
    most paused first, capped) and the lanes left out."""
    df = storms.assign(
        start=_naive(storms["start_ts"]),
        end=_naive(storms["end_ts"]),
        broker=storms["coordinator_broker"].fillna(-1).astype(int),
    )
    keys = (
        df.groupby(["broker", "group_id"])["paused_ms"]
        .sum()
        .reset_index()
        .sort_values(["broker", "paused_ms"], ascending=[True, False])
    )
    lane_keys, more = _cap(list(zip(keys["broker"], keys["group_id"])), max_lanes)
    return df, lane_keys, more


def _draw_storms(ax, df: pd.DataFrame, lane_of: dict[tuple[int, str], int]) -> set[str]:
    """One bar per storm on its lane, labelled with its rebalance count; returns the causes drawn."""
    causes_seen = set()
    span = (df["end"].max() - df["start"].min()) or pd.Timedelta(minutes=1)
    min_w = span * 0.004
    for _, s in df.iterrows():
        lane = lane_of.get((s["broker"], s["group_id"]))
        if lane is None:
            continue
        cause = s["dominant_cause"] or "unknown"
        causes_seen.add(cause)
        width = max(s["end"] - s["start"], min_w)
        ax.barh(
            lane,
            mdates.date2num(s["start"] + width) - mdates.date2num(s["start"]),
            left=mdates.date2num(s["start"]),
            height=0.6,
            color=cause_colour(cause),
            edgecolor="#333333",
            linewidth=0.5,
            hatch="//" if bool(s["coordinator_wide"]) else None,
        )
        ax.text(
            mdates.date2num(s["start"] + width),
            lane,
            f" {int(s['rebalances'] or 0)}",
            va="center",
            fontsize=7,
        )
    return causes_seen


def _label_storm_lanes(ax, lane_keys: list[tuple[int, str]], more: int) -> None:
    """Lane labels (top down), a dashed line between coordinators, the date axis and the y label."""
    labels = [(f"b{b} · " if b >= 0 else "b? · ") + short(g, 30) for b, g in lane_keys]
    ax.set_yticks(np.arange(len(lane_keys)), labels)
    ax.invert_yaxis()
    prev = None
    for i, (b, _) in enumerate(lane_keys):
        if prev is not None and b != prev:
            ax.axhline(i - 0.5, color="#999999", linewidth=0.8, linestyle="--")
        prev = b
    ax.xaxis_date()
    date_axis(ax)
    ax.set_ylabel("coordinator · group" + (f" (+{more} more)" if more else ""))


def _storm_legend(ax, causes_seen: set[str], any_coordinator_wide: bool) -> None:
    """Legend of the dominant causes drawn, plus the coordinator-wide hatch when present."""
    handles = [
        Patch(facecolor=cause_colour(c), edgecolor="#333333", label=short(c))
        for c in cause_order(causes_seen)
    ]
    if any_coordinator_wide:
        handles.append(Patch(facecolor="white", edgecolor="#333333", hatch="//", label="coordinator-wide"))
    ax.legend(
        handles=handles,
        title="dominant cause",
        fontsize=8,
        title_fontsize=8,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
    )


# --------------------------------------------------------------------------------- one group
LANE_REBALANCE = 1.0
LANE_STATE = 2.9  # room for the generation/duration labels above the rebalance bars


def skew_by_generation(
    partition_skew: pd.DataFrame, group_id: str | None = None, topic: str = "*", title: str | None = None
) -> Figure:
    """Per generation: partitions per member (min–max range bar, mean dot), skew ratio (max/mean) and
    idle members (members with no partition) of one group."""
    df, group_id = _skew_rows(partition_skew, group_id, topic)
    title = title or f"Assignment balance per generation — {short(group_id, 50)}"
    fig = _figure(11, 5)
    if not len(df):
        return _empty(fig, title, "no assignments known")
    ax1, ax2 = fig.subplots(2, 1, sharex=True, height_ratios=[3, 2])
    _draw_partitions_per_member(ax1, df, title)
    idle = df["idle_members"].fillna(0).astype(int).to_numpy()
    _draw_skew_ratio(ax2, df, idle)
    _draw_members(ax2, df, idle)
    _generation_ticks(ax2, df["generation"])
    return fig


def _skew_rows(
    partition_skew: pd.DataFrame, group_id: str | None, topic: str
) -> tuple[pd.DataFrame, str | None]:
    """The skew rows of ``group_id`` (default: the first group) and ``topic``, and that group id."""
    df = summary.skew_table(partition_skew, group_id, topic)
    if group_id is None and len(df):
        group_id = df["group_id"].iloc[0]
        df = df[df["group_id"] == group_id]
    return df, group_id


def _draw_partitions_per_member(ax, df: pd.DataFrame, title: str) -> None:
    """Top panel: min–max range bar, max / min ticks and mean dot per generation, legend and title."""
    x = np.arange(len(df))
    lo = df["min_per_member"].fillna(0).to_numpy(float)
    hi = df["max_per_member"].fillna(0).to_numpy(float)
    lw = float(np.clip(500 / max(1, len(x)), 2, 12))  # thinner ranges when there are many generations
    ax.vlines(x, lo, hi, colors="#88CCEE", linewidth=lw, label="min–max per member")
    ax.plot(x, hi, linestyle="none", marker="_", markersize=lw * 1.5, color="#332288", label="max per member")
    ax.plot(x, lo, linestyle="none", marker="_", markersize=lw * 1.5, color="#117733", label="min per member")
    ax.plot(x, df["mean_per_member"], linestyle="none", marker="o", color="#CC6677", label="mean per member")
    ax.set_xlim(-0.6, len(x) - 0.4)
    ax.set_ylabel("partitions per member")
    ax.set_ylim(0, max(1.0, float(np.nanmax(hi)) * 1.15))
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title(title, fontweight="bold")


def _draw_skew_ratio(ax, df: pd.DataFrame, idle: np.ndarray) -> None:
    """Bottom panel: skew ratio bars over a line at 1, idle counts above the bars (30 generations at most)."""
    x = np.arange(len(df))
    ratio = df["skew_ratio"].to_numpy(float)
    ax.bar(x, ratio, width=0.6, color="#DDCC77", edgecolor="#999933", label="skew ratio (max / mean)")
    ax.axhline(1.0, color="#555555", linewidth=0.8, linestyle="--")
    ax.set_ylabel("skew ratio")
    ax.set_ylim(0, max(1.5, np.nanmax(ratio) * 1.25 if len(ratio) and not np.isnan(ratio).all() else 1.5))
    for xi, n in zip(x, idle):
        if n and len(x) <= 30:  # beyond that the counts go on the members axis instead
            ax.text(
                xi,
                0 if np.isnan(ratio[xi]) else ratio[xi],
                f"{n} idle",
                ha="center",
                va="bottom",
                fontsize=7,
                color="#882255",
            )


def _draw_members(ax, df: pd.DataFrame, idle: np.ndarray) -> None:
    """Members (and, past 30 generations, idle members) on a right-hand axis; the bottom panel's legend."""
    x = np.arange(len(df))
    axr = ax.twinx()
    axr.plot(x, df["members"], color="#117733", marker=".", label="members")
    if len(x) > 30 and idle.any():
        axr.plot(
            x[idle > 0], idle[idle > 0], linestyle="none", marker="x", color="#882255", label="idle members"
        )
    axr.set_ylabel("members", color="#117733")
    axr.set_ylim(bottom=0)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = axr.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=8, loc="upper left", bbox_to_anchor=(1.08, 1.0))


def _generation_ticks(ax, generations: pd.Series) -> None:
    x = np.arange(len(generations))
    step = max(1, math.ceil(len(x) / 30))
    ax.set_xticks(
        x[::step],
        [str(int(g)) if pd.notna(g) else "?" for g in generations.iloc[::step]],
        rotation=90 if len(x[::step]) > 15 else 0,
        fontsize=8,
    )
    ax.set_xlabel("generation")


def movement_by_generation(
    partition_skew: pd.DataFrame, group_id: str | None = None, topic: str = "*", title: str | None = None
) -> Figure:
    """Partitions moved between members at each generation, one bar per generation coloured by the
    assignor that produced it (legend: assignor), with the group's partition count as a line."""
    df = summary.skew_table(partition_skew, group_id, topic)
    if group_id is None and len(df):
        group_id = df["group_id"].iloc[0]
        df = df[df["group_id"] == group_id]
    title = title or f"Partitions moved per generation — {short(group_id, 50)}"
    fig = _figure(11, 3.6)
    if not len(df):
        return _empty(fig, title, "no assignments known")
    if not pd.to_numeric(df["moved_partitions"], errors="coerce").fillna(0).any():
        return _empty(fig, title, "no partition moved between two known assignments")
    ax = fig.add_subplot()
    x = np.arange(len(df))
    assignors = df["assignor"].fillna("unknown")
    palette = {a: SERIES_COLOURS[i % len(SERIES_COLOURS)] for i, a in enumerate(dict.fromkeys(assignors))}
    ax.bar(x, df["moved_partitions"].fillna(0), color=[palette[a] for a in assignors], width=0.7)
    ax.plot(x, df["partitions"], color="#555555", linestyle="--", linewidth=1, label="partitions in group")
    handles: list[Artist] = [Patch(facecolor=c, label=short(a)) for a, c in palette.items()]
    handles.append(
        matplotlib.lines.Line2D([], [], color="#555555", linestyle="--", label="partitions in group")
    )
    ax.legend(
        handles=handles,
        title="assignor",
        fontsize=8,
        title_fontsize=8,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
    )
    ax.set_ylabel("partitions moved")
    ax.set_ylim(bottom=0)
    _generation_ticks(ax, df["generation"])
    ax.set_title(title, fontweight="bold")
    return fig


# --------------------------------------------------------------------------------- what-if
WHAT_IF_METRICS: tuple[tuple[str, str, float], ...] = (
    ("rebalances", "rebalances", 1.0),
    ("paused_ms", "paused time", 0.0),  # unit from the data (paused_unit)
    ("moved_partitions", "partitions moved", 1.0),
)


def what_if_comparison(
    scenarios: pd.DataFrame, title: str = "What if: the same evidence, other settings"
) -> Figure:
    """Side by side per scenario (rows of ``scenarios``: ``scenario`` plus any of ``rebalances``,
    ``paused_ms``, ``moved_partitions``): one panel per metric, one bar per scenario, the first
    scenario (the observed/baseline one) in grey and the bars labelled with the change against it."""
    metrics = [m for m in WHAT_IF_METRICS if m[0] in scenarios.columns]
    fig = _figure(4 * max(1, len(metrics)) + 1, 3.8)
    if not len(scenarios) or not metrics:
        return _empty(fig, title, "no scenarios")
    axes = fig.subplots(1, len(metrics), squeeze=False)[0]
    names = [short(s, 26) for s in scenarios["scenario"]]
    colours = ["#BBBBBB"] + [SERIES_COLOURS[i % len(SERIES_COLOURS)] for i in range(len(names) - 1)]
    x = np.arange(len(names))
    for ax, (col, label, scale) in zip(axes, metrics):
        vals = pd.to_numeric(scenarios[col], errors="coerce").fillna(0).to_numpy(float)
        if col == "paused_ms":
            scale, unit = paused_unit(vals.max())
            label = f"{label} ({unit})"
        vals = vals * scale
        ax.bar(x, vals, color=colours, edgecolor="#333333", linewidth=0.5)
        base = vals[0]
        for xi, v in zip(x, vals):
            note = f"{v:.3g}" if xi == 0 else f"{v:.3g}\n({_delta(v, base)})"
            ax.text(xi, v, note, ha="center", va="bottom", fontsize=7, linespacing=0.9)
        ax.set_xticks(
            x,
            names,
            rotation=30 if len(names) > 2 else 0,
            ha="right" if len(names) > 2 else "center",
            fontsize=8,
        )
        ax.set_ylabel(label)
        ax.set_title(label)
        ax.set_ylim(0, max(vals.max() * 1.3, 1))
    fig.suptitle(title, fontweight="bold")
    return fig


def _delta(v: float, base: float) -> str:
    if base == 0:
        return "+∞" if v > 0 else "±0"
    pct = (v - base) / base
    return f"{pct:+.0%}"
