"""The run's console summary: what the CLI prints after a run (``RunSummary.text()``), in words a
person reads at 3 a.m.: what was read, what was not and why, the worst storm and its culprits."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from typing import Any

from coordinator_core.causes import client_id_of


def summary_text(summary: Any) -> str:
    """The whole summary of a ``jobs.pipeline.RunSummary``."""
    lines = [
        f"run {summary.run_id} ({summary.mode}, {summary.sink}) in {summary.seconds:.1f}s",
        f"  files: {summary.files_seen} seen, {summary.files_new} new, {summary.files_skipped} already ingested",
        f"  events: {summary.events:,} (quarantined lines: {summary.quarantined:,})",
        f"  groups: {summary.groups_total} ({summary.groups_replayed} replayed this run, "
        f"{summary.replay_errors} replay errors)",
        f"  rebalances: {summary.rebalances_total}, storms: {summary.storms_total}",
    ]
    if summary.worst_storm:
        w = summary.worst_storm
        lines.append(
            f"  worst storm: {w['cluster']}/{w['group_id']} {w['rebalances']} rebalances "
            f"{span_text(w['start_ts'], w['end_ts'])}, paused {w['paused_ms'] / 1000:.1f}s, "
            f"cause {w['dominant_cause']}, culprits {culprits_text(w['culprit_members'] or [])}"
        )
    lines += lost_lines(summary)
    if summary.top_causes:
        lines.append("  top causes: " + ", ".join(f"{c} ({n})" for c, n in summary.top_causes))
    lines.append(f"  tables: {summary.lakehouse}")
    for name, n in summary.table_rows.items():
        lines.append(f"    {name:<20} {n:>10,} rows")
    return "\n".join(lines)


def lost_lines(summary: Any) -> list[str]:
    """The summary lines about what was not read (empty when everything was)."""
    out = []
    if summary.files_not_read:
        out.append(f"  files not read: {len(summary.files_not_read)}")
        out += [f"    {f}: {why}" for f, why in summary.files_not_read[:10]]
        if len(summary.files_not_read) > 10:
            out.append(f"    ... and {len(summary.files_not_read) - 10} more (ingest_audit.error)")
    if summary.quarantine_reasons:
        by = sorted(summary.quarantine_reasons.items(), key=lambda kv: (-kv[1], kv[0]))
        out.append("  quarantined by reason: " + ", ".join(f"{r} {n:,}" for r, n in by))
    if summary.unreadable:
        out.append("  lines of an unknown layout (top files, one example each):")
        for f, n, ex in summary.unreadable:
            out.append(f"    {f}: {n:,} lines, e.g. {ex[:140]!r}")
        out.append("  hint: declare the layout (ingest.layouts in --config: your log4j/logback pattern)"
                   " or file an issue with the example line")  # fmt: skip
    return out


def span_text(start: Any, end: Any) -> str:
    """``2024-05-14 10:00:00.007 .. 10:03:37.904`` (the end's date only when it differs)."""

    def fmt(ts: Any, with_date: bool = True) -> str:
        if not isinstance(ts, _dt.datetime):
            return str(ts)
        head = ts.strftime("%Y-%m-%d %H:%M:%S" if with_date else "%H:%M:%S")
        return f"{head}.{ts.microsecond // 1000:03d}"

    same_day = (
        isinstance(start, _dt.datetime) and isinstance(end, _dt.datetime) and start.date() == end.date()
    )
    return f"{fmt(start)} .. {fmt(end, not same_day)}"


def culprits_text(member_ids: Sequence[str]) -> str:
    """Culprit member ids as their clients for a reader: Kafka names a member ``<client.id>-<UUID>``
    (``<group.instance.id>-<UUID>`` for static members), so the member ids of one client id (the
    incarnations of a restarted client, or clients sharing a default client id) collapse into
    ``client ×n``; ids of another form are shown as they are."""
    if not member_ids:
        return "-"
    counts: dict[str, int] = {}
    for m in member_ids:
        client = client_id_of(m) or m
        counts[client] = counts.get(client, 0) + 1
    text = ", ".join(c if n == 1 else f"{c} ×{n}" for c, n in sorted(counts.items()))
    return text + (f" ({len(member_ids)} member ids)" if len(counts) < len(member_ids) else "")
