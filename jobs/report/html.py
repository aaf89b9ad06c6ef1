"""The self-contained HTML storm report: inline CSS, plots as base64 PNG, no JavaScript, nothing
loaded over the network. Everything that comes from logs (group ids, member ids, reasons, details) is
untrusted and goes through :func:`esc` (``html.escape`` with quotes), in text, titles and alt text."""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from jobs.report import plots, summary, timeline

CSS = """
body{font-family:-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;margin:0;color:#222;background:#fafafa}
main{max-width:1180px;margin:0 auto;padding:16px 28px 48px}
@media (max-width:600px){main{padding:8px 10px 32px}h1{font-size:1.3em}.card{min-width:0;flex:1 1 40%}}
.scroll{max-width:100%;overflow-x:auto}
h1{font-size:1.6em;margin:.4em 0 .1em}h2{margin-top:1.6em;border-bottom:2px solid #332288;padding-bottom:.2em}
h3{margin-top:1.2em}.sub{color:#555;margin:0 0 1em}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:12px 0}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px 16px;min-width:140px}
.card .v{font-size:1.5em;font-weight:600}.card .k{color:#555;font-size:.85em}
.card .x{color:#777;font-size:.75em;max-width:24em;margin-top:2px}
.card.alert{border-left:5px solid #CC6677}
table{border-collapse:collapse;background:#fff;margin:8px 0 16px;font-size:.9em}
th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eef}td.n{text-align:right;font-variant-numeric:tabular-nums}
.chip{display:inline-block;padding:0 6px;border-radius:8px;font-size:.85em;color:#000}
figure{margin:10px 0 24px;background:#fff;border:1px solid #ddd;padding:8px}
figure img{display:block;max-width:100%;height:auto}figcaption{color:#555;font-size:.85em}
p,li,td{overflow-wrap:anywhere}
.muted{color:#777}code{background:#eee;padding:0 3px}
"""


def esc(value: Any) -> str:
    """Untrusted text as HTML (``&``, ``<``, ``>``, ``"`` and ``'`` escaped); None/NaN as a dash."""
    if value is None:
        return "–"
    try:
        if pd.isna(value):
            return "–"
    except (TypeError, ValueError):
        pass
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
        value = ", ".join(str(v) for v in list(value))
    return html.escape(str(value), quote=True)


def figure_html(fig: Figure, alt: str, caption: str | None = None) -> str:
    """A figure as an ``<img>`` with an embedded PNG; a figure with nothing to draw (its
    ``empty_reason``, see :func:`jobs.report.plots._empty`) as one line saying why instead."""
    why = getattr(fig, "empty_reason", None)
    if why:
        return f'<p class="muted">{esc(alt[:1].upper() + alt[1:])}: not drawn, {esc(why)}.</p>'
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    cap = f"<figcaption>{esc(caption)}</figcaption>" if caption else ""
    return f'<figure><img src="data:image/png;base64,{data}" alt="{esc(alt)}">{cap}</figure>'


def table_html(
    df: pd.DataFrame,
    columns: Sequence[tuple[str, str]],
    numeric: Iterable[str] = (),
    formats: dict[str, Any] | None = None,
    empty: str = "none",
) -> str:
    """``df`` as an HTML table of ``columns`` ((column, heading) pairs); every cell escaped."""
    if df is None or not len(df):
        return f'<p class="muted">{esc(empty)}</p>'
    numeric, formats = set(numeric), formats or {}
    head = "".join(f"<th>{esc(h)}</th>" for _, h in columns)
    rows = []
    for rec in df.to_dict("records"):
        cells = []
        for col, _ in columns:
            v = rec.get(col)
            text = formats[col](v) if col in formats else v
            cls = ' class="n"' if col in numeric else ""
            cells.append(f"<td{cls}>{esc(text)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f"<div class=\"scroll\"><table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"


def _ts(v: Any) -> str:
    if v is None or pd.isna(v):
        return "–"
    return pd.Timestamp(v).strftime("%Y-%m-%d %H:%M:%S")


def _few(values: Any, n: int = 3) -> str:
    """At most ``n`` items of a list column, then "+N more" (a storm can have hundreds of culprits)."""
    if values is None or (not isinstance(values, (list, tuple)) and not hasattr(values, "tolist")):
        return "–" if values is None else str(values)
    items = [str(v) for v in list(values)]
    if not items:
        return "–"
    return ", ".join(items[:n]) + (f" +{len(items) - n} more" if len(items) > n else "")


def _chip(cause: Any) -> str:
    c = esc(cause)
    return f'<span class="chip" style="background:{plots.cause_colour(str(cause))}">{c}</span>'


def _cards(items: Sequence[tuple]) -> str:
    """Cards of (key, value, alert[, what the key means])."""
    out = []
    for key, value, alert, *why in items:
        x = f'<div class="x">{esc(why[0])}</div>' if why and why[0] else ""
        out.append(
            f'<div class="card{" alert" if alert else ""}"><div class="v">{esc(value)}</div>'
            f'<div class="k">{esc(key)}</div>{x}</div>'
        )
    return '<div class="cards">' + "".join(out) + "</div>"


def render(
    tables: dict[str, pd.DataFrame],
    group: str | None = None,
    title: str | None = None,
    timeline_groups: int = 3,
    advice: list[tuple[dict[str, Any], pd.DataFrame]] | None = None,
) -> str:
    """The report of ``tables`` (frames of the tables, see :func:`jobs.report.data.load_tables`): the
    whole cluster, or one group when ``group`` is given. Sections in reading order: the summary, the
    figures of causes, groups and storms (with the what-if ``advice``), each focused group's
    timelines and rebalances, the evidence anomalies."""
    tables = summary.qualify_groups(tables)
    rb = tables["rebalances"]
    storms = tables["storms"]
    tot = summary.totals(tables)
    title = title or f"rebalance-lens — {f'group {group}' if group else 'all groups'}"
    clusters = sorted({c for c in rb["cluster"].dropna()}) if len(rb) else []
    span = f"{_ts(tot.first_ts)} → {_ts(tot.last_ts)} UTC" if tot.first_ts is not None else "no rebalances"
    ranking = summary.group_ranking(rb, storms)
    parts = [
        f"<h1>{esc(title)}</h1>",
        f'<p class="sub">cluster {esc(", ".join(clusters) or "–")} · {esc(span)}</p>',
        *_summary_section(tables, tot, ranking, group),
        *_figures_section(tables, group, advice or []),
        "<h2>Timelines</h2>",
    ]
    focus = [group] if group else list(ranking["group_id"].head(timeline_groups))
    if not focus:
        parts.append('<p class="muted">no group to show</p>')
    for g in focus:
        parts.extend(_group_section(tables, g))
    parts.append("<h2>Evidence anomalies</h2>")
    parts.append(table_html(summary.anomaly_counts(tables["anomalies"]).head(30), [
        ("group_id", "group"), ("kind", "kind"), ("count", "count"), ("example", "example"),
    ], numeric=("count",), empty="no anomalies"))  # fmt: skip
    body = "\n".join(parts)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{esc(title)}</title><style>{CSS}</style></head>"
        f'<body><main>\n{body}\n<p class="muted">generated by rebalance-lens</p></main></body></html>\n'
    )


def _summary_section(tables: dict[str, pd.DataFrame], tot: Any, ranking: pd.DataFrame, group: str | None) -> list[str]:
    """The summary a person reads first: the cards, the headline, the worst storms, the top causes
    and culprits, and (whole cluster) the groups most affected and the groups that stormed together."""
    rb, storms = tables["rebalances"], tables["storms"]
    causes = summary.cause_counts(rb)
    top_cause = f"{causes['cause'].iloc[0]} ({causes['share'].iloc[0]:.0%})" if len(causes) else "–"
    parts = ["<h2>Summary</h2>", _cards([
        ("rebalances", f"{tot.rebalances}", tot.rebalances > 0,
         "from the group leaving Stable (or Empty) until it is Stable or Empty again"),
        ("consumption paused (total)", summary.human_ms(tot.paused_ms), tot.paused_ms > 0,
         "the sum of the rebalances' durations: time a group could not consume (open ones not counted)"),
        ("storms", f"{tot.storms}", tot.storms > 0, "bursts of rebalances of one group (3 within 10 minutes by default)"),
        ("top cause", top_cause, False, "why most rebalances started; 'unknown': no line says why"),
        ("groups", f"{tot.groups}", False,
         f"consumer groups with events in these tables; {tot.rebalanced_groups} of them rebalanced"),
        ("still open", f"{tot.open}", tot.open > 0,
         "rebalances with no end in the logs (the logs stop before it, or the end is not logged at this level)"),
        ("anomalies", f"{tot.anomalies}", False, "inconsistent or missing evidence in the logs themselves (table below)"),
    ]), _headline(ranking, causes, storms, group)]  # fmt: skip
    parts += ["<h3>Worst storms</h3>", _worst_storms_table(summary.worst_storms(storms))]
    parts += ["<h3>Top causes</h3>", _causes_table(causes), "<h3>Top culprits</h3>"]
    parts.append(table_html(summary.top_culprits(rb), [
        ("culprit", "member"), ("client_id", "client id"), ("host", "host"), ("group_id", "group"),
        ("rebalances", "rebalances"), ("paused_ms", "paused"), ("causes", "causes"),
    ], numeric=("rebalances", "paused_ms"), formats={"paused_ms": summary.human_ms},
        empty="no culprit member known"))  # fmt: skip
    if not group:
        parts += _groups_tables(ranking, storms)
    return parts


def _worst_storms_table(ws: pd.DataFrame) -> str:
    storm_cols = [
        ("group_id", "group"), ("start_ts", "start (UTC)"), ("duration_ms", "lasted"), ("rebalances", "rebalances"),
        ("paused_ms", "paused"), ("dominant_cause", "dominant cause"), ("culprit_members", "culprits"),
        ("coordinator_broker", "coordinator"), ("concurrent_groups", "stormed together with"),
    ]  # fmt: skip
    if "protocol_types" in ws and ws["protocol_types"].map(lambda v: list(v or []) not in ([], ["classic"])).any():
        # consumer-protocol storms: which protocol, and the partition-time that really stopped
        storm_cols[1:1] = [("protocol_types", "protocol")]
        storm_cols[6:6] = [("paused_partition_ms", "partition-time paused")]
    return table_html(ws, storm_cols, numeric=("rebalances", "paused_ms", "duration_ms", "coordinator_broker"),
        formats={"start_ts": _ts, "duration_ms": summary.human_ms, "paused_ms": summary.human_ms,
                 "paused_partition_ms": summary.human_ms, "culprit_members": _few, "protocol_types": _few,
                 "concurrent_groups": _few}, empty="no storms")  # fmt: skip


def _groups_tables(ranking: pd.DataFrame, storms: pd.DataFrame) -> list[str]:
    """The whole cluster's groups most affected, and the groups that stormed together."""
    parts = ["<h3>Groups most affected</h3>", table_html(ranking.head(15), [
        ("group_id", "group"), ("rebalances", "rebalances"), ("paused_ms", "paused"), ("storms", "storms"),
        ("top_cause", "top cause"), ("max_generation", "generation"),
    ], numeric=("rebalances", "paused_ms", "storms", "max_generation"),
        formats={"paused_ms": summary.human_ms}, empty="no rebalances")]  # fmt: skip
    co = summary.co_storms(storms)
    if len(co):
        parts.append("<h3>Groups that stormed together on one coordinator</h3>")
        parts.append(table_html(co, [
            ("coordinator_broker", "coordinator"), ("start_ts", "from (UTC)"), ("end_ts", "to (UTC)"),
            ("groups", "groups"), ("rebalances", "rebalances"), ("paused_ms", "paused"),
            ("coordinator_wide", "coordinator-wide"),
        ], numeric=("coordinator_broker", "rebalances", "paused_ms"),
            formats={"start_ts": _ts, "end_ts": _ts, "paused_ms": summary.human_ms}))  # fmt: skip
    return parts


def _figures_section(
    tables: dict[str, pd.DataFrame], group: str | None, advice: list[tuple[dict[str, Any], pd.DataFrame]]
) -> list[str]:
    """Causes and groups, the rebalance heat map, the storms and the what-if advice."""
    rb, storms = tables["rebalances"], tables["storms"]
    parts = ["<h2>Causes and groups</h2>", figure_html(plots.cause_breakdown(rb), "rebalances and paused time per cause")]
    n_rb = rb["group_id"].nunique() if len(rb) else 0
    if not group:
        parts.append(figure_html(plots.group_ranking(rb), "groups ranked by rebalances and paused time",
                                 f"the {summary.plural(n_rb, 'group')} that rebalanced, of {summary.totals(tables).groups}"
                                 " with events (at most 15 shown)"))  # fmt: skip
    heat = plots.rebalances_heatmap(tables["rebalance_frequency"], rebalances=rb)
    parts.append(figure_html(heat, "rebalances per group over time",
                             f"the {summary.plural(n_rb, 'group')} that rebalanced (at most 25 rows)"))  # fmt: skip
    parts.append("<h2>Storms</h2>")
    parts.append(figure_html(plots.storm_timeline(storms), "storms per coordinator and group",
                             f"{summary.plural(len(storms), 'storm')}"))  # fmt: skip
    parts.extend(_advice_html(advice))
    return parts


def _group_section(tables: dict[str, pd.DataFrame], g: str) -> list[str]:
    """One group: its timeline, a zoom into its worst storm, its last rebalances, its skew."""
    rb, storms = tables["rebalances"], tables["storms"]
    parts = [f"<h3>Group {esc(g)}</h3>", figure_html(
        timeline.group_timeline(tables["group_transitions"], tables["member_sessions"], rb, tables["anomalies"], g),
        f"timeline of group {g}",
    )]  # fmt: skip
    gstorms = summary.worst_storms(storms[storms["group_id"] == g], 1)
    if len(gstorms):  # zoom into the group's worst storm
        w = gstorms.iloc[0]
        pad = max((w["end_ts"] - w["start_ts"]) * 0.1, pd.Timedelta(seconds=30))
        parts.append(figure_html(
            timeline.group_timeline(tables["group_transitions"], tables["member_sessions"], rb, tables["anomalies"],
                                    g, start=w["start_ts"] - pad, end=w["end_ts"] + pad,
                                    title=f"Group {plots.short(g, 60)} during its worst storm"),
            f"timeline of group {g} during its worst storm",
        ))  # fmt: skip
    parts += _group_rebalances(rb[rb["group_id"] == g].sort_values("start_ts"))
    if len(summary.skew_table(tables["partition_skew"], g)):
        parts.append(
            figure_html(
                plots.skew_by_generation(tables["partition_skew"], g),
                f"partitions per member per generation of group {g}",
            )
        )
        parts.append(
            figure_html(
                plots.movement_by_generation(tables["partition_skew"], g),
                f"partitions moved per generation of group {g}",
            )
        )
    return parts


def _group_rebalances(grb: pd.DataFrame) -> list[str]:
    """A group's last 20 rebalances. Classic groups count generations, consumer-protocol (KIP-848)
    groups group epochs; under KIP-848 only revoked partitions stop, so their partition-time paused
    is shown too."""
    consumer = "protocol_type" in grb and (grb["protocol_type"].fillna("classic") != "classic").any()
    unit = "epoch" if consumer else "gen"
    cols = [("start_ts", "start (UTC)"), ("duration_ms", "paused"), ("old_generation", f"from {unit}"),
            ("new_generation", f"to {unit}"), ("outcome", "outcome"), ("cause", "cause"),
            ("culprit_member_id", "culprit"), ("reason", "reason (broker log)")]  # fmt: skip
    if consumer:
        cols[1:1] = [("protocol_type", "protocol"), ("partitions_revoked", "revoked"),
                     ("paused_partition_ms", "partition-time paused")]  # fmt: skip
    parts = [table_html(grb.tail(20), cols,
        numeric=("duration_ms", "old_generation", "new_generation", "partitions_revoked", "paused_partition_ms"),
        formats={"start_ts": _ts, "duration_ms": summary.human_ms, "paused_partition_ms": summary.human_ms},
        empty="no rebalances")]  # fmt: skip
    if len(grb) > 20:
        parts.append(f'<p class="muted">last 20 of {len(grb)} rebalances</p>')
    return parts


def _causes_table(causes: pd.DataFrame) -> str:
    if not len(causes):
        return '<p class="muted">no rebalances</p>'
    rows = "".join(
        f'<tr><td>{_chip(r["cause"])}</td><td class="n">{int(r["rebalances"])}</td>'
        f'<td class="n">{r["share"]:.0%}</td><td class="n">{esc(summary.human_ms(r["paused_ms"]))}</td></tr>'
        for r in causes.to_dict("records")
    )
    return (
        '<div class="scroll"><table><thead><tr><th>cause</th><th>rebalances</th><th>share</th><th>paused</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


_ADVICE_COLS = [
    ("setting", "change"), ("rebalances_logged", "rebalances logged"),
    ("rebalances_before", "re-simulated as logged"),
    ("rebalances_after", "rebalances after"), ("paused_partition_ms_saved", "partition-time saved"),
    ("paused_ms_saved", "group paused time saved"), ("paused_saved_range", "saved over the samples"),
    ("moved_partitions_after", "partitions moved after"), ("exact_pct", "measured: count exact %"),
    ("paused_within_10pct", "measured: paused within 10 %"), ("paused_in_range_pct", "measured: inside the range %"),
    ("strength", "advice strength"), ("note", "why"),
]  # fmt: skip


def _advice_html(advice: list[tuple[dict[str, Any], pd.DataFrame]]) -> list[str]:
    """Per storm, the setting changes ranked by partition-time saved (re-simulation what-if), each with
    the accuracy measured for that kind of change (``benchmarks/bench_whatif.py``)."""
    if not advice:
        return []
    out = ["<h3>What would have stopped the worst storms</h3>",
           '<p class="muted">Each storm\'s consumers are re-simulated from its evidence (what each process did: '
           "starts, stops, pauses, stalled poll loops), first under today's settings (<i>re-simulated as "
           "logged</i> must match <i>rebalances logged</i>, else every change is <b>unverified</b> and not "
           "ranked), then under each change.</p>"]  # fmt: skip
    for st, frame in advice:
        frame = frame.assign(paused_saved_range=[
            f"{summary.human_ms(lo)} … {summary.human_ms(hi)}"
            for lo, hi in zip(frame["paused_ms_saved_low"], frame["paused_ms_saved_high"], strict=True)
        ])  # fmt: skip
        out.append(f"<h4>{esc(st['group_id'])} — storm at {esc(_ts(st['start_ts']))} UTC "
                   f"({int(st['rebalances'])} rebalances)</h4>")  # fmt: skip
        out.append(table_html(frame, _ADVICE_COLS,
            numeric=("rebalances_logged", "rebalances_before", "rebalances_after", "paused_ms_saved", "paused_partition_ms_saved",
                     "moved_partitions_after", "exact_pct", "paused_within_10pct", "paused_in_range_pct"),
            formats={"paused_ms_saved": summary.human_ms, "paused_partition_ms_saved": summary.human_ms},
            empty="nothing to re-simulate: no member evidence in the storm's window, or a Kafka Connect "
                  "worker group (the re-simulation models consumer groups)"))  # fmt: skip
        if st.get("assumed"):
            out.append(f'<p class="muted">Client settings assumed: {esc(st["assumed"])} '
                       "(set them in the <code>kafka:</code> section of <code>--config</code>).</p>")  # fmt: skip
    out.append(ADVICE_LEGEND)
    return out


#: what the advice columns measure, under the tables
ADVICE_LEGEND = (
    '<p class="muted"><i>Partition-time saved</i>: the sum over partitions of the time each had no consumer, '
    "before minus after (an eager rebalance stops every partition for its whole length, a cooperative or "
    "consumer-protocol one only the partitions that move); <i>group paused time saved</i>: the time the "
    "group was rebalancing, before minus after (negative: the change adds rebalance time). A change can add "
    "rebalances and still save partition-time. <i>Saved over the samples</i>: the least and most group "
    "paused time saved by one re-simulation (the heartbeat-phase race no log settles). <i>Measured</i> "
    "columns: the accuracy of that kind of change on simulated incidents with known truth. Strength: "
    "<b>strong</b> (≥ 95 % counts exact and ≥ 80 % of paused times within 10 %), <b>fair</b> (≥ 80 % exact), "
    "<b>no effect</b> (the re-simulation reproduces the log and the change saves nothing), "
    "<b>unverified</b> (the re-simulation does not reproduce the log).</p>"
)


def _headline(ranking: pd.DataFrame, causes: pd.DataFrame, storms: pd.DataFrame, group: str | None) -> str:
    """One or two sentences: who suffered most, and why."""
    if not len(ranking):
        return '<p class="muted">No rebalances in these tables.</p>'
    top = ranking.iloc[0]
    text = (
        f"<p><b>{esc(top['group_id'])}</b> rebalanced most: <b>{int(top['rebalances'])}</b> times, "
        f"consumption paused for <b>{esc(summary.human_ms(top['paused_ms']))}</b>, mostly "
        f"{_chip(top['top_cause'])}."
    )
    if len(causes):
        c = causes.iloc[0]
        text += f" Across {'this group' if group else 'all groups'} the top cause is {_chip(c['cause'])} "
        text += f"({int(c['rebalances'])} rebalances, {c['share']:.0%})."
    if len(storms):
        w = summary.worst_storms(storms, 1).iloc[0]
        text += (
            f" The worst storm hit <b>{esc(w['group_id'])}</b> at {esc(_ts(w['start_ts']))} UTC: "
            f"{int(w['rebalances'])} rebalances, {esc(summary.human_ms(w['paused_ms']))} paused."
        )
    return text + "</p>"
