"""The run's console summary: what the CLI prints after a run (:func:`summary_text` of the
:class:`jobs.run_summary.RunSummary` the job returns), in words a person reads at 3 a.m.: what was
read, what was not and why, the worst storm and its culprits."""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping, Sequence
from typing import Any

from coordinator_core.causes import client_id_of


def summary_text(summary: Any) -> str:
    """The whole summary of a :class:`jobs.run_summary.RunSummary`."""
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


#: the quarantine reasons shown with an example line
TOP_REASONS = 3
#: how the summary names the rules that dated a time of day (jobs/ingest/day_dates.py)
DATED_FROM = {"setting": "ingest.default_date", "file_name": "the file's name", "modification_time": "the file's modification time"}


def lost_lines(summary: Any) -> list[str]:
    """The summary lines about what was not read (empty when everything was): every file from which
    nothing was read, the quarantine reasons with one example line and file for the top ones, the
    files of an unknown layout (with a hint only where declaring a layout can help), and the events
    that had no timestamp and so were not replayed."""
    out = []
    if summary.files_not_read:
        out.append(f"  files not read: {len(summary.files_not_read)}")
        out += [f"    {f}: {why}" for f, why in summary.files_not_read[:10]]
        if len(summary.files_not_read) > 10:
            out.append(f"    ... and {len(summary.files_not_read) - 10} more (table ingest_audit)")
    if summary.quarantine_reasons:
        by = sorted(summary.quarantine_reasons.items(), key=lambda kv: (-kv[1], kv[0]))
        out.append("  quarantined by reason: " + ", ".join(f"{r} {n:,}" for r, n in by))
        out += example_lines(by, getattr(summary, "quarantine_examples", {}) or {})
    if summary.unreadable:
        out.append("  lines of an unknown layout (top files, one example each):")
        for f, n, ex in summary.unreadable:
            out.append(f"    {f}: {n:,} lines, e.g. {ex[:140]!r}")
        if any(layout_hint_helps(ex) for _f, _n, ex in summary.unreadable):
            out.append("  hint: declare the layout (ingest.layouts in --config: your log4j/logback pattern)"
                       " or file an issue with the example line")  # fmt: skip
    untimed = getattr(summary, "untimed_events", 0)
    if untimed:
        out.append(f"  events without any timestamp: {untimed:,} (kept in events, not replayed: no earlier "
                   "line of their file gives a time)")  # fmt: skip
    dated = getattr(summary, "dated_from", None) or {}
    if dated:
        rules = ", ".join(f"{DATED_FROM.get(r, r)} {n:,}" for r, n in sorted(dated.items()))
        out.append(f"  events with a time of day only, dated from {rules} (ingest.default_date sets the date)")
    unattributed = getattr(summary, "unattributed_events", 0)
    if unattributed:
        out.append(f"  events naming no group: {unattributed:,} (kept in events, not replayed: neither the line nor "
                   "its file names a group)")  # fmt: skip
    return out


def example_lines(by_reason: Sequence[tuple[str, int]], examples: Mapping[str, tuple]) -> list[str]:
    """One example line and its file for each of the top quarantine reasons."""
    out = []
    for reason, _n in by_reason[:TOP_REASONS]:
        if reason not in examples:
            continue
        f, line_no, raw = examples[reason]
        where = f"{f}:{line_no}" if line_no is not None else f
        out.append(f"    {reason}: e.g. {where}" + (f" {str(raw)[:140]!r}" if raw else ""))
    return out


def nothing_read(audit: Mapping[str, Any]) -> bool:
    """A file with lines of which not one became an event (and no error: those are listed with it);
    a duplicate of a file read elsewhere is not one."""
    return (not audit.get("error") and not audit.get("duplicate_of") and audit.get("events") == 0
            and (audit.get("total_lines") or 0) > 0)  # fmt: skip


def nothing_read_why(audit: Mapping[str, Any]) -> str:
    """``no event: 123 lines quarantined (group_line_not_understood 120, ...), 40 unrelated``."""
    q, unrelated = int(audit.get("quarantined") or 0), int(audit.get("unrelated") or 0)
    if not q:
        return f"no line about consumer groups ({unrelated:,} unrelated lines)"
    reasons = sorted((audit.get("quarantine_reasons") or {}).items(), key=lambda kv: (-kv[1], kv[0]))
    detail = ", ".join(f"{r} {n:,}" for r, n in reasons[:3])
    return f"no event: {q:,} lines quarantined ({detail}), {unrelated:,} unrelated"


#: lines a declared layout cannot help with: a stack trace or Python traceback, a table's border
_NOT_A_LAYOUT = re.compile(
    r"^\s*(Traceback \(most recent call last\)|File \".*\", line \d+|at [\w$.<>]+\(|Caused by:|\.\.\. \d+ more"
    r"|[\w.]*(Error|Exception)\b:?|raise\b)"
    r"|^[\s\-=+|_*#~`:.│─┌┐└┘├┤┬┴┼═║╔╗╚╝╠╣╦╩╬]*$"
)


def layout_hint_helps(example: str | None) -> bool:
    """Whether declaring a layout could read a line like ``example`` (not a traceback, a stack frame
    or a table border)."""
    if not example:
        return False
    return not _NOT_A_LAYOUT.match(example)


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
