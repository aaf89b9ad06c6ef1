"""Parse one log file's bytes into canonical events, quarantine rows and one audit row.

Pure Python + pyarrow (no Spark): :func:`parse_bytes` runs inside ``mapInArrow`` and in the
single-process benchmark. Everything is vectorised over whole Arrow columns (RE2 kernels of
``pyarrow.compute``, numpy over the offsets of string columns); only the regex of the rare leader
assignment maps and invalid-UTF-8 files are looked at line by line.

This is the fast reader. What a line becomes is specified, line by line with Python's ``re``, by
:mod:`jobs.ingest.reference` (tested equal). The steps of :func:`_read_text` and :class:`FileParse` live in modules by
purpose: :mod:`~jobs.ingest.lines` (bytes to text lines), :mod:`~jobs.ingest.heads` (layouts, declared layouts, JSON, the general reader of unknown
layouts, pasted-text unwrapping, head timestamps), :mod:`~jobs.ingest.fastpaths` (the byte-position
paths of Kafka's log4j and Spring Boot heads), :mod:`~jobs.ingest.messages` (context prefix, the
dialect table, message-first candidates, hard-wrapped lines), :mod:`~jobs.ingest.fields` (typed event
columns, final event rows), :mod:`~jobs.ingest.attribution` (the group of lines that name none),
:mod:`~jobs.ingest.accounting` (each line's class, continuation classes, quarantine rows).

Speed (every shortcut gives exactly the result of the plain way; ``tests/ingest/
test_parse_speed_equivalence.py``, ``test_fastheads.py``, ``test_pyregex.py``): pyarrow compiles a
regex on every call (~0.1-0.2 ms, the largest fixed cost of a small file), so the parser avoids
calls that cannot match and rows whose result is known, and answers anchored regexes on small
columns with Python's ``re`` (:mod:`jobs.ingest.pyregex`). Kafka's default log4j heads are split
from byte positions (:mod:`jobs.ingest.fastheads`, with the timestamp converted on the way). Work that is a pure function
of a line's message runs once per *distinct* value and is spread back with one ``take``: the group
prefilter (when a sample of the file repeats its messages; its answers are also remembered per
message wording for the process's next files, :mod:`jobs.ingest.wordings`), dialect matching and event field
conversion (per distinct message, logger and layout: a consumer logs the same heartbeat line for a
whole generation), the client context prefix (per distinct prefix) and logger checks. Layout
regexes run only on the lines whose first byte they can start with (:data:`L.FIRST_CHARS`),
dialect regexes only on the bodies starting with their literal text (``Dialect.literal``). Up to a
thousand distinct messages go through the dialect table one at a time with patterns compiled once
per process (:mod:`jobs.ingest.dialect_dispatch`, tested equal to the column form).

The steps run in phases (:func:`begin_opened` → :class:`FileText`, its layout order, :meth:`FileText.read`
→ :class:`FileParse`, :meth:`FileParse.match`, :meth:`FileParse.finish`; :func:`parse_begun` runs them in a
row) so that :mod:`jobs.ingest.batch_parse` can run the layout orders and the dialect matching once for
several files.

Pipeline of one file:

1. gunzip (by magic bytes; a ``.gz`` name without them is corrupt), sha256 of the content;
2. split lines (1-based ``line_no``); quarantine ``binary`` (NUL bytes), ``invalid_utf8`` and
   ``line_too_long`` lines; strip ``\\r`` and ANSI colours;
3. layouts (:mod:`jobs.ingest.layouts`): each line becomes a *head* (a log entry's first line), a
   *continuation* (stack trace lines, tab-indented blocks, the JUL message line), a blank line
   (unrelated) or ``unparsable_layout``; a head whose message itself holds newlines (a JSON
   ``"message"`` with a config dump or the cooperative ``Updating assignment with\n\tAssigned
   partitions: ...`` block) keeps its first line as the message and the rest as the event's
   ``continuation`` text, exactly like the same entry written over several lines (it is still one
   line of the file: counted once, as its head);
3b. envelopes (:mod:`jobs.ingest.envelopes`, ``docs/envelopes.md``): JSON lines with an envelope's
   or a record's keys (before the layouts) and unread lines of an envelope's shape (after them)
   are peeled per line by the shared peeler, split pieces rejoined; the inner lines go through
   the layouts; a head of a peeled line keeps the envelope's time (``pts`` → ``envelope_ts``);
4. the cheap :data:`~jobs.ingest.dialects.GROUP_PREFILTER` splits heads into unrelated noise (only
   counted) and group candidates; candidates go through the dialect table
   (:mod:`jobs.ingest.dialects`) → events, recognised non-events (unrelated), ``no_timestamp`` or
   ``group_line_not_understood`` (no dialect matches);
4b. *context attribution* (:func:`attribute_groups`): a recognised event whose line names no group
   (Kafka logs the static "will not trigger a rebalance" line, fenced-instance lines, leader
   re-election and the 2.3 static replacement while handling one group's request, next to a line
   that names it) takes the group of the nearest preceding event line of the file naming its
   member / instance id, else of the nearest preceding group line within 1000 ms (same coordinator
   partition when the Java prefix gives one); when nothing attributes it: ``group_unknown``;
5. accounting, per line exactly one of: event, continuation (of an event), unrelated, quarantined.
   A continuation takes the class of its head: continuations of an unrelated head count as
   *unrelated*, of a quarantined head as *quarantined* (one quarantine row each, same reason, detail
   ``continuation of line N``), of an event head as *continuations* (their text is the event's
   ``continuation``). A continuation with no head line before it is ``unparsable_layout``.
   ``total_lines = events + continuations + unrelated + quarantined`` always holds.

Quarantine reasons written here: ``corrupt_gzip``, ``binary``, ``invalid_utf8``,
``line_too_long``, ``unparsable_layout``, ``unreadable_envelope`` (an envelope holding no
readable line), ``group_line_not_understood`` (passes the group
prefilter, matches no dialect), ``group_unknown`` (a recognised event whose group neither the line
nor its context gives) and ``no_timestamp``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import envelope_heads as EH
from jobs.ingest import envelopes as E
from jobs.ingest import layouts as L
from jobs.ingest import pyregex as PR
from jobs.ingest.accounting import (
    FileLines,
    continuation_classes,
    empty_quarantine,
    quarantine_rows,
    quarantine_table,
)
from jobs.ingest.arrowops import extract, mask, nullify_empty, numpy_of, take, whole
from jobs.ingest.attribution import attribute_groups, file_group
from jobs.ingest.day_dates import NO_DATES, FileDates, dated_from, file_dates
from jobs.ingest.fields import continuation_text, finish_events, json_event_fields
from jobs.ingest.file_heads import HeadLines, head_lines, read_heads, wrapping_prefix
from jobs.ingest.files import OpenedFile, open_file
from jobs.ingest.heads import (
    Heads,
    file_year,
    head_timestamps,
    layout_order,
    located_timestamps,
    peel_line_prefix,
    unwrap_paste,
)
from jobs.ingest.lines import decoded_lines
from jobs.ingest.messages import Triples, candidate_triples, distinct_events, repetitive, spread_events
from jobs.ingest.model import (
    AUDIT_ARROW,
    EVENTS_ARROW,
    IngestSettings,
)
from jobs.ingest.prefilter import group_candidates_by_wording
from jobs.ingest.rawbytes import may_contain
from jobs.ingest.wrapped import wrapped_lines


# ------------------------------------------------------------------------------------ main
def _empty_audit(source_file: str, cluster: str, run_id: str | None) -> dict[str, Any]:
    return {
        "cluster": cluster, "run_id": run_id, "source_file": source_file, "content_sha256": None, "bytes": 0,
        "compressed": False, "total_lines": 0, "events": 0, "continuations": 0, "unrelated": 0, "quarantined": 0,
        "duplicate_of": None, "error": None, "first_ts": None, "last_ts": None, "out_of_order_lines": 0,
        "layouts": [], "quarantine_reasons": {}, "unreadable_example": None,
    }  # fmt: skip


def _file_quarantine(source_file, cluster, run_id, reason: str, detail: str | None) -> pa.Table:
    return quarantine_table([{
        "cluster": cluster, "source_file": source_file, "line_no": None, "reason": reason,
        "detail": detail, "layout": None, "group_id": None, "raw": None, "run_id": run_id,
    }])  # fmt: skip


#: a file's ``(events, quarantine, audit)``
ParseResult = tuple[pa.Table, pa.Table, dict[str, Any]]


def empty_events() -> pa.Table:
    return EVENTS_ARROW.empty_table()


def audit_table(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=AUDIT_ARROW)


def parse_bytes(
    data: bytes,
    source_file: str,
    cluster: str = "default",
    settings: IngestSettings | None = None,
    run_id: str | None = None,
    mtime_ms: int | None = None,
) -> tuple[pa.Table, pa.Table, dict[str, Any]]:
    """Parse one file's content. Returns ``(events, quarantine, audit)``: Arrow tables with the
    schemas of ``jobs.schemas.EVENTS`` / ``QUARANTINE`` and one ``INGEST_AUDIT`` row as a dict.
    ``mtime_ms``: the file's modification time (dates its times of day when nothing else does).

    A corrupt gzip raises :class:`IngestError` unless ``settings.on_corrupt == "quarantine"``.
    """
    settings = settings or IngestSettings()
    return parse_opened(open_file(data, source_file, settings.on_corrupt), len(data), source_file, cluster, settings,
                        run_id, mtime_ms)  # fmt: skip


def parse_opened(
    opened: OpenedFile,
    size: int,
    source_file: str,
    cluster: str,
    settings: IngestSettings,
    run_id: str | None = None,
    mtime_ms: int | None = None,
) -> ParseResult:
    """:func:`parse_bytes` of a file already opened (:func:`jobs.ingest.files.open_file`: gunzipped
    and hashed once, by a caller that needs the text too); ``size``: the bytes as stored. The three
    phases of :func:`begin_opened`, :meth:`FileText.read`, :meth:`FileParse.match`, :meth:`FileParse.finish`
    in a row (:func:`parse_begun`)."""
    return parse_begun(begin_opened(opened, size, source_file, cluster, settings, run_id, mtime_ms))


def parse_begun(p: FileText | ParseResult) -> ParseResult:
    """The phases after :func:`begin_opened` of one file, in a row."""
    if isinstance(p, tuple):
        return p
    fp = p.read(p.layout_order())
    return fp.finish(*fp.match())


def begin_opened(
    opened: OpenedFile,
    size: int,
    source_file: str,
    cluster: str,
    settings: IngestSettings,
    run_id: str | None = None,
    mtime_ms: int | None = None,
) -> FileText | ParseResult:
    """The first phase of :func:`parse_opened`: the file's result when it has no text to read (an
    error, no content), else its :class:`FileText` up to the layout order."""
    audit = _empty_audit(source_file, cluster, run_id)
    audit["bytes"] = size
    audit["compressed"], audit["content_sha256"] = opened.compressed, opened.sha256
    if opened.reason is not None:
        audit["error"], audit["quarantine_reasons"] = opened.error, {opened.reason: 1}
        return empty_events(), _file_quarantine(source_file, cluster, run_id, opened.reason, opened.detail), audit
    data = opened.data
    if not data:
        return empty_events(), empty_quarantine(), audit
    fd = file_dates(source_file, settings.default_date, mtime_ms, settings.default_timezone)
    return _read_text(data, source_file, cluster, settings, run_id, audit, fd)


@dataclass
class _HeadColumns:
    """The heads of a file as columns (one value per head; ``rows``: their line index)."""

    table: pa.Table
    rows: np.ndarray
    is_head: np.ndarray
    message: pa.Array
    level: pa.Array
    layout: pa.Array
    json: bool


@dataclass
class _Times:
    """Epoch ms of each head (``ts_ms``; ``ts_np`` with -1 for none, ``has_ts``)."""

    ts_ms: pa.Array
    ts_np: np.ndarray
    has_ts: np.ndarray
    env_ms: pa.Array | None = None  # the envelope's time of each head (None: no head has one)
    dated_by: list[str | None] = field(default_factory=list)  # per head: the rule that dated its time of day


@dataclass(slots=True)
class FileParse:
    """One file between the phases of its parse: read (lines, heads, continuations, times, the
    distinct triples of its group candidates: :meth:`FileText.read`), the dialect table on those
    triples (:meth:`match`: a pure function of each triple, which :mod:`jobs.ingest.batch_parse`
    runs once for several files), finished (events, accounting, quarantine: :meth:`finish`)."""

    f: FileLines
    h: _HeadColumns
    times: _Times
    inline_cont: pa.Array | None
    triples: Triples | None  # (None: no head is a group candidate)
    source_file: str
    cluster: str
    run_id: str | None
    settings: IngestSettings
    audit: dict[str, Any]

    def match(self) -> tuple[pa.Table | None, np.ndarray]:
        """:func:`~jobs.ingest.messages.distinct_events` of the file's own triples."""
        tr = self.triples
        return distinct_events(tr.umsg, tr.ulog, tr.ulayout) if tr is not None else (None, np.zeros(0, bool))

    def finish(self, fields: pa.Table | None, unmatched_u: np.ndarray) -> ParseResult:
        """The file's events, quarantine rows and audit from its triples' ``fields`` (:meth:`match`)."""
        f, h, times, audit = self.f, self.h, self.times, self.audit
        events = None
        if self.triples is not None:
            ev, unmatched = spread_events(self.triples, fields, unmatched_u)
            events = _group_events(f, h, times, self.inline_cont, self.triples.cpos, ev, unmatched,
                                   self.source_file, self.cluster, self.run_id, audit)  # fmt: skip
        continuation_classes(f, f.env.joined if f.env is not None else None)
        for c, name in ((1, "events"), (2, "continuations"), (0, "unrelated"), (3, "quarantined")):
            audit[name] = int((f.cls == c).sum())
        if dated := dated_from(times.dated_by, (f.cls[h.rows] == 1).tolist()):
            audit["dated_from"] = dated
        quarantine = quarantine_rows(f, h.rows, h.layout, self.settings, self.source_file, self.cluster,
                                     self.run_id, audit)  # fmt: skip
        return (events if events is not None else empty_events()), quarantine, audit


@dataclass(slots=True)
class FileText:
    """One file's text lines up to the layout order (:func:`begin_opened`): the lines (quarantined
    ones marked), the wrapping prefix's label, a supervisor's per-line times and the lines the layout
    table reads (``hl``, whose :func:`~jobs.ingest.heads.layout_order` :meth:`read` takes)."""

    f: FileLines
    wrap_label: str
    line_pts: pa.Array | None
    hl: HeadLines
    source_file: str
    cluster: str
    run_id: str | None
    settings: IngestSettings
    audit: dict[str, Any]
    fd: FileDates

    def layout_order(self) -> list[L.Layout]:
        """The file's own layout order (:func:`~jobs.ingest.heads.layout_order`)."""
        return layout_order(self.hl.sub, self.hl.fb)

    def read(self, order: list[L.Layout]) -> FileParse:
        """The heads in the layout ``order``, continuations, times and the candidates' triples."""
        f, settings, audit = self.f, self.settings, self.audit
        heads, left = read_heads(f, settings, self.wrap_label, self.hl, order)
        h = _head_columns(heads, f.n, f.env, self.line_pts)
        left = _jul_messages(f, h, left)
        inline_cont = _inline_continuations(h)
        _continuations_and_unreadable(f, left)
        _block_response_errors(f, h)
        times = _timestamps(h, settings, audit, self.fd)
        return FileParse(f, h, times, inline_cont, _candidate_triples(h), self.source_file, self.cluster,
                         self.run_id, settings, audit)  # fmt: skip


def _read_text(
    data: bytes,
    source_file: str,
    cluster: str,
    settings: IngestSettings,
    run_id: str | None,
    audit: dict[str, Any],
    fd: FileDates = NO_DATES,
) -> FileText:
    """The first steps of one file (see the module docstring): lines, prefixes, the head lines."""
    f = decoded_lines(data, settings)
    audit["total_lines"] = f.n
    f.text = unwrap_paste(f.text, data)
    f.text, wrap_label = wrapping_prefix(f.text)
    f.text, line_pts = peel_line_prefix(f.text)  # (a supervisor's prefix on every line, and its time)
    f.is_cont = np.zeros(f.n, dtype=bool)
    return FileText(f, wrap_label, line_pts, head_lines(f), source_file, cluster, run_id, settings, audit, fd)


def _head_columns(heads: Heads, n: int, env: EH.Enveloped | None = None, line_pts: pa.Array | None = None) -> _HeadColumns:
    t = heads.table()
    if env is not None and len(t):
        t = EH.enveloped_heads(t, env)
    rows = numpy_of(t["_row"]) if len(t) else np.zeros(0, np.int64)
    if line_pts is not None and len(t):  # (a per-line prefix's time: the envelope time of a head without one)
        pts = pc.coalesce(t["pts"].combine_chunks(), line_pts.take(pa.array(rows)).cast(pa.string()))
        t = t.set_column(t.column_names.index("pts"), "pts", pts)
    is_head = np.zeros(n, dtype=bool)
    is_head[rows] = True
    return _HeadColumns(t, rows, is_head, whole(t["message"]), whole(t["level"]),
                        whole(t["layout"]), heads.json)  # fmt: skip


def _continuations(f: FileLines) -> np.ndarray:
    """The file's continuation mask (set by :func:`_read_text` before the heads are read)."""
    if f.is_cont is None:
        raise ValueError("the continuation mask is set before the heads are read")
    return f.is_cont


def _jul_messages(f: FileLines, h: _HeadColumns, left: np.ndarray) -> np.ndarray:
    """Two-line entries (:data:`L.NEXT_LINE`): the line after a ``jul`` head holding ``LEVEL:
    message`` (after a ``mel`` head, the 6-space indented message ...) gives the head its message
    (and level) and is its continuation."""
    for lay, pattern in L.NEXT_LINE.items():
        left = _next_line_messages(f, h, left, lay, pattern)
    h.message = pc.fill_null(h.message, "")
    return left


def _next_line_messages(f: FileLines, h: _HeadColumns, left: np.ndarray, lay: str, pattern: str) -> np.ndarray:
    jul = mask(pc.ends_with(h.layout, lay))
    if jul.any():
        jpos = np.nonzero(jul)[0]
        nxt = h.rows[jpos] + 1
        okn = nxt < f.n
        jpos, nxt = jpos[okn], nxt[okn]
        cand = ~h.is_head[nxt] & ~f.bad[nxt]
        jpos, nxt = jpos[cand], nxt[cand]
        mm = extract(take(f.text, nxt), pattern)
        ok = mask(mm.is_valid())
        jpos, nxt = jpos[ok], nxt[ok]
        mm = mm.filter(pa.array(ok))
        if len(jpos):
            jm = np.zeros(len(h.message), dtype=bool)
            jm[jpos] = True
            jm = pa.array(jm)
            h.message = pc.replace_with_mask(h.message, jm, mm.field("message").cast(h.message.type))
            if "level" in [fl.name for fl in mm.type]:
                h.level = pc.replace_with_mask(h.level, jm, mm.field("level").cast(h.level.type))
        _continuations(f)[nxt] = True
        left = np.setdiff1d(left, nxt)
    return left


def _inline_continuations(h: _HeadColumns) -> pa.Array | None:
    """Multi-line messages inside one line (JSON layouts: ``"message": "head\\n\\tmore\\n"``): the
    first line is the head's message, the rest its continuation text (like a multi-line entry).
    Per head, as in the reference: only heads whose layout is a JSON one (``…json``); a head read
    by another layout from a peeled text keeps its newlines whatever the other lines of the file are."""
    if not (h.json and len(h.message) and pc.any(pc.match_substring(h.message, "\n")).as_py()):
        return None
    sp = extract(h.message, r"(?s)^(?P<h>[^\n]*)\n(?P<c>.*)$")
    multi = pc.and_(sp.is_valid(), pc.ends_with(h.layout, "json"))
    inline = nullify_empty(
        pc.if_else(multi, pc.utf8_rtrim(sp.field("c"), characters="\r\n"), pa.scalar(None, h.message.type))
    )
    h.message = pc.if_else(multi, pc.utf8_rtrim(sp.field("h"), characters="\r"), h.message)
    return inline


def _continuations_and_unreadable(f: FileLines, left: np.ndarray) -> None:
    """Lines left after the layouts: continuations (stack traces, indented blocks, also behind a
    viewer's timestamp) or ``unparsable_layout``."""
    if not len(left):
        return
    sub = take(f.text, left)
    c = mask(PR.match(sub, L.CONTINUATION))
    if (~c).any():
        m = extract(take(sub, np.nonzero(~c)[0]), L.TS_PREFIX)
        inner_c = mask(PR.match(pc.fill_null(m.field("rest"), ""), L.CONTINUATION)) & mask(m.is_valid())
        c[np.nonzero(~c)[0][inner_c]] = True
    _continuations(f)[left[c]] = True
    f.quarantine(left[~c], "unparsable_layout", "no known layout matches")


def _block_response_errors(f: FileLines, h: _HeadColumns) -> None:
    """A kafkajs response head whose continuation block holds its ``error`` key gets the error in its
    message (:func:`L.block_response_error`, the rule; the heads that can be one found by a byte test)."""
    cont = _continuations(f)
    if not len(h.message) or not cont.any() or not may_contain(h.message, b"[Connection] Response "):
        return
    sel = np.nonzero(mask(pc.match_substring(h.message, "[Connection] Response ")))[0]
    blocks = continuation_text(f.text, cont, h.rows[sel], f.env.joined >= 0 if f.env is not None else None)
    if not len(sel) or blocks.null_count == len(blocks):
        return
    vals = h.message.to_pylist()
    for i, block in zip(sel.tolist(), blocks.to_pylist()):
        if block is not None:
            vals[i] = L.block_response_error(vals[i], block.split("\n"))
    h.message = pa.array(vals, h.message.type)


def _timestamps(h: _HeadColumns, settings: IngestSettings, audit: dict[str, Any], fd: FileDates) -> _Times:
    """Epoch ms of the heads (the plain conversion, then the located forms) and the audit's
    first/last times and out-of-order count."""
    ts_ms = head_timestamps(h.table, settings.default_timezone)
    dated_by: list[str | None] = []
    if ts_ms.null_count and len(h.table):
        ts_ms, dated_by = located_timestamps(h.table, ts_ms, settings, fd)
    ts_np = numpy_of(pc.fill_null(ts_ms, -1)) if len(ts_ms) else np.zeros(0, np.int64)
    has_ts = ts_np >= 0
    if has_ts.any():
        tv = ts_np[has_ts]
        audit["first_ts"] = datetime.fromtimestamp(int(tv.min()) / 1000, tz=UTC)
        audit["last_ts"] = datetime.fromtimestamp(int(tv.max()) / 1000, tz=UTC)
        prev_max = np.maximum.accumulate(tv)
        audit["out_of_order_lines"] = int((tv[1:] < prev_max[:-1]).sum())
    audit["layouts"] = sorted(set(pc.unique(h.layout).to_pylist())) if len(h.table) else []
    env_ms = None
    if len(h.table) and h.table["pts"].null_count < len(h.table):
        pts = whole(h.table["pts"])
        env_ms = pa.array(E.envelope_times(pts.to_pylist(), settings.default_timezone,
                                           lambda: file_year(h.table, settings)), pa.int64())  # fmt: skip
    return _Times(ts_ms, ts_np, has_ts, env_ms, dated_by)


def _candidate_triples(h: _HeadColumns) -> Triples | None:
    """The group candidates (the prefilter, per distinct message when the file repeats its messages
    a lot) as distinct (message, logger, layout) triples; None when there is none."""
    message = h.message
    if repetitive(message):
        menc = pc.dictionary_encode(message)
        mcodes = numpy_of(menc.indices)
        cand = group_candidates_by_wording(menc.dictionary)[mcodes]
        ccodes = mcodes[cand]
    else:
        cand = group_candidates_by_wording(message)
        ccodes = None
    if not cand.any():
        return None
    cpos = np.nonzero(cand)[0]
    if ccodes is None:
        ccodes = numpy_of(pc.dictionary_encode(take(message, cpos)).indices)
    return candidate_triples(cpos, ccodes, message, h.table, h.layout)


def _group_events(f: FileLines, h: _HeadColumns, times: _Times, inline_cont, cpos, ev, unmatched, source_file,
                  cluster, run_id, audit):  # fmt: skip
    """The group candidates' events (``ev``; ``unmatched``: the candidates no dialect matches) →
    the file's events; unmatched candidates are ``group_line_not_understood``."""
    message = h.message
    if unmatched.any():
        ev, h.message = wrapped_lines(cpos, unmatched, ev, message, h.table, h.layout, f.text, f.cls,
                                       _continuations(f), f.qreason, f.qdetail)  # fmt: skip
    un_h = cpos[unmatched]
    line_un = h.rows[un_h]
    f.quarantine(line_un, "group_line_not_understood", "no dialect matches this group-related message")
    if len(un_h):
        gq = extract(take(h.message, un_h), r"(?:groupId=|[Gg]roup[ =]\"?)(?P<g>[\w.\-]+)").field("g")
        for r, g in zip(line_un, gq.to_pylist()):
            f.qgroup[int(r)] = g or None
    if ev is None or not len(ev):
        return None
    ev, evh = _events_with_groups(f, h, times, ev, audit.get("content_sha256"))
    if not len(ev):
        return None
    f.cls[h.rows[evh]] = 1  # (several events of one line - deleted groups - count once)
    if "_msg" in ev.column_names:
        # (message-first: the message a dialect matched, without what wrapped it)
        alt = whole(ev["_msg"])
        has_alt = mask(pc.is_valid(alt))
        if has_alt.any():
            # (one message per line: a line with several events - deleted groups - has one)
            heads_alt, first = np.unique(evh[has_alt], return_index=True)
            mm = np.zeros(len(h.message), dtype=bool)
            mm[heads_alt] = True
            vals = alt.filter(pa.array(has_alt)).take(pa.array(first))
            h.message = pc.replace_with_mask(h.message, pa.array(mm), vals.cast(h.message.type))
        ev = ev.drop_columns(["_msg"])
    ev_ts, ts_inferred = _inherited_times(times, evh)
    return finish_events(ev, evh, h.table, h.rows, h.message, h.level, times.ts_ms, f.text, _continuations(f), f.cls,
                          source_file, cluster, run_id, inline_cont, ev_ts, ts_inferred,
                          audit.get("content_sha256"), times.env_ms,
                          f.env.joined >= 0 if f.env is not None else None)  # fmt: skip


def _events_with_groups(
    f: FileLines, h: _HeadColumns, times: _Times, ev: pa.Table, sha: str | None = None
) -> tuple[pa.Table, np.ndarray]:
    """Recognised non-events dropped (they count as unrelated); JSON keys; the group of lines that
    name none from their context (:func:`attribute_groups`), else ``group_unknown``."""
    evh = numpy_of(ev["_row"])
    notevent = mask(pc.equal(whole(ev["kind"]), ""))
    if notevent.any():
        ev = ev.filter(pa.array(~notevent))
        evh = evh[~notevent]
    if h.json:
        ev = json_event_fields(ev, h.table, evh)
    if 0 < ev["group_id"].null_count < len(ev):
        gids, _ = attribute_groups(ev, take(h.message, evh), np.where(times.has_ts[evh], times.ts_np[evh], -1))
        ev = ev.set_column(ev.column_names.index("group_id"), "group_id", gids)
    if ev["group_id"].null_count:
        ev = file_group(ev, sha)
    nogroup = mask(pc.is_null(ev["group_id"]))
    if nogroup.any():
        lr = h.rows[evh[nogroup]]
        f.quarantine(lr, "group_unknown")
        for r, dname in zip(lr, ev["dialect"].filter(pa.array(nogroup)).to_pylist()):
            f.qdetail[r] = f"recognised ({dname}) but neither the line nor its context names the group"
        ev = ev.filter(pa.array(~nogroup))
        evh = evh[~nogroup]
    return ev, evh


def _inherited_times(times: _Times, evh: np.ndarray) -> tuple[pa.Array | None, np.ndarray]:
    """A line without a timestamp of its own keeps its place in the file: it takes the time of the
    nearest earlier head that has one (null when none has), flagged ``ts_inferred``."""
    inferred = ~times.has_ts[evh]
    if not inferred.any():
        return None, inferred
    last = np.maximum.accumulate(np.where(times.has_ts, np.arange(len(times.has_ts)), -1))
    src = last[evh]
    fill = np.where(src >= 0, times.ts_np[np.maximum(src, 0)], 0)
    return pa.array(np.where(times.has_ts[evh], times.ts_np[evh], fill), pa.int64(), mask=src < 0), inferred
