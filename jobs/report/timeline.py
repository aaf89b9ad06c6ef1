"""The timeline of one group: its states, rebalances, anomalies and member sessions on one time axis.

Both protocols: a classic group's rebalances are labelled with generations (``g3→4``), a
consumer-protocol (KIP-848) group's with group epochs (``e3→4``) and the partitions revoked when the
logs show them; the state lane uses Kafka's state names of each protocol (``Stable`` / ``STABLE`` …).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import matplotlib.dates as mdates
import matplotlib.lines
import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from jobs.report.figures import cap, date_axis, duration_label, empty, figure, int_label, naive, short
from jobs.report.plots import (
    ANOMALY_COLOUR,
    END_COLOURS,
    LANE_REBALANCE,
    LANE_STATE,
    STATE_COLOURS,
    cause_colour,
    cause_order,
)


@dataclass
class _Window:
    """The group's rows and the drawn time window (matplotlib date numbers ``x0``..``x1``)."""

    tr: pd.DataFrame
    rb: pd.DataFrame
    ss: pd.DataFrame
    an: pd.DataFrame
    x0: float
    x1: float
    t1: pd.Timestamp

    @property
    def span(self) -> float:
        return self.x1 - self.x0


def group_timeline(
    transitions: pd.DataFrame,
    sessions: pd.DataFrame,
    rebalances: pd.DataFrame,
    anomalies: pd.DataFrame | None = None,
    group_id: str | None = None,
    max_members: int = 20,
    title: str | None = None,
    start: object = None,
    end: object = None,
    reconciling: pd.DataFrame | None = None,
) -> Figure:
    """One group over time, sharing the time axis:

    * top panel, three lanes: ``state`` (coloured spans from group_transitions), ``rebalances`` (a bar
      per rebalance from start to end, coloured by cause, labelled with its duration and generations
      or epochs) and ``anomalies`` (markers);
    * bottom panel: one lane per member session (joined → left, coloured by how it ended, a ✕ where it
      left), at most ``max_members`` lanes then "+N more members".

    ``start``/``end`` (timestamps or strings, UTC) zoom into a window: only what overlaps it is drawn.
    ``reconciling`` (:func:`jobs.report.summary.reconciling_spans` of the group's events): a
    consumer-protocol member's lane shows, in a dark inner bar, when it was reconciling.
    """
    anomalies = anomalies if anomalies is not None else pd.DataFrame(columns=["group_id", "ts", "kind"])
    if group_id is None:
        ids = pd.concat([transitions["group_id"], rebalances["group_id"], sessions["group_id"]]).dropna()
        group_id = ids.iloc[0] if len(ids) else None
    title = title or f"Group {short(group_id, 60)}"
    fig = figure(12, 4)
    w = _window(transitions, sessions, rebalances, anomalies, group_id, start, end)
    if w is None:
        return empty(fig, title, "no events for this group")
    members = w.ss.sort_values(["joined_ts", "member_id"], na_position="first")
    lanes, more = cap(list(members.itertuples(index=False)), max_members)
    mem_h = 0.3 * max(1, len(lanes) + (1 if more else 0)) + 0.4  # inches: the top panel keeps its height
    fig.set_size_inches(12, 2.5 + mem_h + 1.1)
    ax_top, ax_mem = fig.subplots(2, 1, sharex=True, height_ratios=[2.5, mem_h])
    states = _draw_states(ax_top, w)
    causes, hidden = _draw_rebalances(ax_top, w)
    _draw_anomalies(ax_top, w, hidden)
    ax_top.set_yticks([0, LANE_REBALANCE, LANE_STATE], ["anomalies", "rebalances", "state"])
    ax_top.set_ylim(-0.9, LANE_STATE + 0.45)
    ax_top.set_xlim(w.x0, w.x1)
    ax_top.set_title(title, fontweight="bold")
    _top_legend(ax_top, w, states, causes)
    _draw_members(ax_mem, w, lanes, more, reconciling)
    return fig


def _window(transitions, sessions, rebalances, anomalies, group_id, start, end) -> _Window | None:
    tr = transitions[transitions["group_id"] == group_id].copy()
    rb = rebalances[rebalances["group_id"] == group_id].copy()
    ss = sessions[sessions["group_id"] == group_id].copy()
    an = anomalies[anomalies["group_id"] == group_id].copy()
    times = pd.concat([naive(tr["ts"]), naive(rb["start_ts"]), naive(rb["end_ts"]), naive(ss["joined_ts"]),
                       naive(ss["left_ts"]), naive(an["ts"])]).dropna()  # fmt: skip
    if not len(times):
        return None
    t0, t1 = times.min(), times.max()
    pad = max((t1 - t0) * 0.02, pd.Timedelta(seconds=1))
    t0, t1 = t0 - pad, t1 + pad
    if start is not None or end is not None:
        t0 = naive(pd.Series([start])).iloc[0] if start is not None else t0
        t1 = naive(pd.Series([end])).iloc[0] if end is not None else t1
        ss = ss[(naive(ss["left_ts"]).isna() | (naive(ss["left_ts"]) >= t0))
                & (naive(ss["joined_ts"]).isna() | (naive(ss["joined_ts"]) <= t1))]  # fmt: skip
        rb = rb[(naive(rb["end_ts"]).isna() | (naive(rb["end_ts"]) >= t0)) & (naive(rb["start_ts"]) <= t1)]
        an = an[(naive(an["ts"]) >= t0) & (naive(an["ts"]) <= t1)]
    return _Window(tr, rb, ss, an, mdates.date2num(t0), mdates.date2num(t1), t1)


def _draw_states(ax, w: _Window) -> list[str]:
    """The state lane: one span per transition, until the next one (or the window's end)."""
    rows = list(w.tr.assign(t=naive(w.tr["ts"])).sort_values("t").itertuples(index=False))
    seen = []
    for i, r in enumerate(rows):
        if pd.isna(r.t):
            continue
        left = mdates.date2num(r.t)
        right = mdates.date2num(rows[i + 1].t) if i + 1 < len(rows) and pd.notna(rows[i + 1].t) else w.x1
        seen.append(r.to_state)
        ax.barh(LANE_STATE, right - left, left=left, height=0.7, color=STATE_COLOURS.get(r.to_state, "#BBBBBB"),
                edgecolor="none")  # fmt: skip
    return seen


def _rebalance_label(r) -> str:
    """``g3→4`` (classic generations) or ``e3→4`` (consumer-protocol group epochs, with the
    partitions revoked when known), then the duration."""
    consumer = getattr(r, "protocol_type", None) not in (None, "classic") and pd.notna(getattr(r, "protocol_type", None))
    label = f"{'e' if consumer else 'g'}{int_label(r.old_generation)}→{int_label(r.new_generation)}"
    revoked = getattr(r, "partitions_revoked", None)
    if consumer and revoked is not None and pd.notna(revoked) and int(revoked):
        label += f" −{int(revoked)}p"
    return f"{label}\n{duration_label(r.duration_ms)}"


def _draw_rebalances(ax, w: _Window) -> tuple[list[str], int]:
    """The rebalance lane: a bar per rebalance coloured by cause (hatched when open), labelled on
    two levels, never closer than a label's width (the others are counted as hidden)."""
    rb = w.rb.assign(s=naive(w.rb["start_ts"]), e=naive(w.rb["end_ts"])).sort_values("s")
    causes, hidden = [], 0
    min_w, label_gap = w.span * 0.003, w.span * 0.06
    last_label = [-math.inf, -math.inf]
    for r in rb.itertuples(index=False):
        s = r.s if pd.notna(r.s) else r.e
        if pd.isna(s):
            continue
        left = mdates.date2num(s)
        width = max(mdates.date2num(r.e if pd.notna(r.e) else w.t1) - left, min_w)
        cause = r.cause or "unknown"
        causes.append(cause)
        ax.barh(LANE_REBALANCE, width, left=left, height=0.7, color=cause_colour(cause), edgecolor="#333333",
                linewidth=0.5, hatch="//" if r.outcome == "open" else None)  # fmt: skip
        centre = left + width / 2
        level = next((k for k in (0, 1) if centre - last_label[k] >= label_gap), None)
        if level is None:
            hidden += 1
            continue
        last_label[level] = centre
        ax.text(centre, LANE_REBALANCE + 0.4 + 0.55 * level, _rebalance_label(r), ha="center", va="bottom",
                fontsize=6.5, linespacing=0.9)  # fmt: skip
    return causes, hidden


def _draw_anomalies(ax, w: _Window, hidden_labels: int) -> None:
    an_t = naive(w.an["ts"]).dropna()
    if len(an_t):
        ax.plot(an_t, np.zeros(len(an_t)), linestyle="none", marker="v", color=ANOMALY_COLOUR, markersize=7)
        kinds = w.an["kind"].value_counts()
        text = ", ".join(f"{short(k)}×{n}" for k, n in kinds.head(3).items())
        text += f" +{len(kinds) - 3} kinds" if len(kinds) > 3 else ""
        ax.text(w.x1, -0.45, "  " + text, ha="right", va="top", fontsize=7, color=ANOMALY_COLOUR)
    if hidden_labels:
        ax.text(w.x0, LANE_REBALANCE - 0.45, f" {hidden_labels} labels hidden (crowded)",
                ha="left", va="top", fontsize=7, color="#555555")  # fmt: skip


def _top_legend(ax, w: _Window, states: list[str], causes: list[str]) -> None:
    handles: list[Artist] = [Patch(facecolor=STATE_COLOURS.get(s, "#BBBBBB"), label=s) for s in STATE_COLOURS if s in states]
    handles += [Patch(facecolor=cause_colour(c), edgecolor="#333333", label=short(c)) for c in cause_order(causes)]
    if (w.rb["outcome"] == "open").any():
        handles.append(Patch(facecolor="white", edgecolor="#333333", hatch="//", label="open rebalance"))
    if len(naive(w.an["ts"]).dropna()):
        handles.append(matplotlib.lines.Line2D([], [], linestyle="none", marker="v", color=ANOMALY_COLOUR,
                                               label="anomaly"))  # fmt: skip
    ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="state / cause",
              title_fontsize=7, ncols=2 if len(handles) > 8 else 1)  # fmt: skip


RECONCILING_COLOUR = "#3B1F5C"


def _draw_reconciling(ax, w: _Window, i: int, spans: pd.DataFrame) -> int:
    """The member's reconciling spans inside its lane ``i``; returns how many were drawn."""
    n = 0
    for s0, s1 in zip(naive(spans["start"]), naive(spans["end"])):
        left = mdates.date2num(s0)
        right = mdates.date2num(s1) if pd.notna(s1) else w.x1
        if right < w.x0 or left > w.x1:
            continue
        ax.barh(i, max(right - left, w.span * 0.002), left=left, height=0.22, color=RECONCILING_COLOUR)
        n += 1
    return n


def _draw_members(ax, w: _Window, lanes: list, more: int, reconciling: pd.DataFrame | None = None) -> None:
    """One lane per member session (joined → left, coloured by how it ended), with the member's
    reconciling spans (consumer protocol) drawn inside it."""
    ends = []
    drawn = 0
    min_w = w.span * 0.003
    for i, m in enumerate(lanes):
        j = mdates.date2num(naive(pd.Series([m.joined_ts])).iloc[0]) if pd.notna(m.joined_ts) else w.x0
        left_known = pd.notna(m.left_ts)
        lft = mdates.date2num(naive(pd.Series([m.left_ts])).iloc[0]) if left_known else w.x1
        end_reason = m.end_reason or "open"
        ends.append(end_reason)
        ax.barh(i, max(lft - j, min_w), left=j, height=0.6, color=END_COLOURS.get(end_reason, "#BBBBBB"))
        ax.plot([j], [i], marker="|", color="#333333", markersize=8)
        if left_known:
            ax.plot([lft], [i], marker="x", color="#333333", markersize=5)
        if reconciling is not None and len(reconciling):
            drawn += _draw_reconciling(ax, w, i, reconciling[reconciling["member_id"] == m.member_id])
    labels = [short(m.group_instance_id or m.member_id, 34) for m in lanes]
    if more:
        labels.append(f"+{more} more members")
    labels = labels or ["(no member sessions)"]
    ax.set_yticks(np.arange(len(labels)), labels, fontsize=7)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.set_ylabel("members")
    handles: list[Artist] = [Patch(facecolor=END_COLOURS.get(e, "#BBBBBB"), label=short(e)) for e in dict.fromkeys(ends)]
    if drawn:
        handles.append(Patch(facecolor=RECONCILING_COLOUR, label="reconciling"))
    handles += [
        matplotlib.lines.Line2D([], [], linestyle="none", marker="|", color="#333333", label="joined"),
        matplotlib.lines.Line2D([], [], linestyle="none", marker="x", color="#333333", label="left"),
    ]
    ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="session end",
              title_fontsize=7)  # fmt: skip
    ax.xaxis_date()
    date_axis(ax)
